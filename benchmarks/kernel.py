"""How fast super-hard simulates: simulated decisions per CPU-second, old kernel against new.

    python benchmarks/kernel.py [--rounds 4] [--budget 0.1] [--runs 5]

The positions: every third play-phase decision with a choice in ``--rounds`` seeded rounds
per variant, played by intermediate bots (bidding included).  A *pass* runs
``search.evaluate`` on every position, in the rounds' order, with ``--budget`` seconds of
the kernel's own step count; it starts with every memo of that kernel empty (a process that
has just started), and pass k seeds the search with k, the same for both kernels.  Passes
alternate between the kernels — the frozen 2026-12-01 one (``benchmarks/frozen/
kernel_2026_12_01``) and the live one (``dizhu.bots``) — so both see the same load.

A simulated decision is what the budget counts (``search.STEPS_PER_SECOND``): a rollout
move, a style evaluation in the reading, a world's sampling.  They are counted exactly, by
wrapping each kernel's ``play_out`` and reading, and divided by the CPU seconds of this
process (``time.process_time``).  Prints each pass, then the medians and their ratio.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from dizhu import Round  # noqa: E402
from dizhu.bots import create  # noqa: E402
from dizhu.moves import play_table  # noqa: E402


def positions(rounds: int, variants: tuple[str, ...] = ("classic", "duel"), every: int = 3) -> list[dict[str, Any]]:
    """Observations of seeded rounds: every ``every``-th play-phase decision with a choice."""
    out = []
    for variant in variants:
        for n in range(rounds):
            r = Round.deal(variant, seed=f"kernel-{variant}-{n}")
            bots = [create("intermediate", variant, seed=(n, s)) for s in range(r.players)]
            k = 0
            while r.result is None:
                obs = r.observation(r.to_act)
                if obs["phase"] == "playing":
                    if len(obs["legal_actions"]) > 1 and k % every == 0:
                        out.append(obs)
                    k += 1
                r.apply(r.to_act, bots[r.to_act].decide(obs))
    return out


class Kernel:
    """One kernel's search, hand split and memos, with its simulated decisions counted."""

    def __init__(self, name: str, package: str) -> None:
        self.name = name
        mod = __import__(package, fromlist=["search", "hands", "policy", "view"])
        self.search: ModuleType = mod.search
        self.view = mod.view.View
        self.memos = [mod.hands._best]
        if hasattr(mod.policy.leads_from_split, "cache_clear"):
            self.memos.append(mod.policy.leads_from_split)
        self.replies = getattr(mod, "memo", None)
        self.steps = 0
        search, play_out, reading = self.search, self.search.play_out, self.search.SearchConfig.reading

        def counted_play_out(*args: Any) -> tuple[float, int]:
            value, used = play_out(*args)
            self.steps += used
            return value, used

        def counted_reading(config: Any, *args: Any) -> Any:
            found = reading(config, *args)
            self.steps += search.WORLD_COST + found.cost
            return found

        search.play_out = counted_play_out
        search.SearchConfig.reading = counted_reading

    def forget(self) -> None:
        """Empty every memo, as in a process that has just started."""
        for memo in self.memos:
            memo.cache_clear()
        if self.replies is not None:
            self.replies._MEMO.clear()

    def run(self, observations: list[dict[str, Any]], budget: float, seed: int) -> tuple[int, float]:
        """(simulated decisions, CPU seconds) for one pass over ``observations``."""
        self.forget()
        self.steps = 0
        start = time.process_time()
        for i, obs in enumerate(observations):
            self.search.evaluate(self.view.of(obs), random.Random(f"{seed}-{i}"), budget=budget)
        return self.steps, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=4, help="seeded rounds per variant")
    parser.add_argument("--budget", type=float, default=0.1, help="seconds of the kernel's step count per position")
    parser.add_argument("--runs", type=int, default=5, help="passes per kernel")
    args = parser.parse_args()
    play_table()
    observations = positions(args.rounds)
    kernels = [Kernel("old", "benchmarks.frozen.kernel_2026_12_01"), Kernel("new", "dizhu.bots")]
    print(f"{len(observations)} positions (classic and duel), budget {args.budget} s of steps each, "
          f"load average {os.getloadavg()[0]:.2f}")
    rates: dict[str, list[float]] = {k.name: [] for k in kernels}
    for run in range(args.runs):
        line = [f"pass {run + 1}:"]
        for kernel in kernels:
            steps, cpu = kernel.run(observations, args.budget, run)
            rates[kernel.name].append(steps / cpu)
            line.append(f"{kernel.name} {steps:>8,} steps {cpu:6.2f} s CPU {steps / cpu:>8,.0f}/s")
        print("  ".join(line), flush=True)
    old, new = (statistics.median(rates[k.name]) for k in kernels)
    print(f"median simulated decisions per CPU-second: old {old:,.0f}  new {new:,.0f}  new/old {new / old:.2f}"
          f"  (load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
