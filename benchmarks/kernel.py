"""How fast super-hard simulates: simulated decisions per CPU-second, old kernel against new.

    python benchmarks/kernel.py [--rounds 4] [--budget 0.1] [--runs 5]

The positions: every third play-phase decision with a choice in ``--rounds`` seeded rounds
per variant, played by intermediate bots (bidding included).  A *pass* runs
``search.evaluate`` on every position, in the rounds' order, with ``--budget`` seconds of
the kernel's own step count; it starts with every memo of both kernels empty (a process that
has just started), and pass k seeds the search with k, the same for both kernels.  The two
kernels — the 2026-12-01 one (the git tag ``frozen-kernel-2026-12-01``, checked out into a
temporary worktree by ``benchmarks/frozen.py``, on the engine of its day: pure Python) and the
live one (``dizhu.bots``) — take turns position by position, so both see the same load.

A simulated decision is what the budget counts (``search.STEPS_PER_SECOND``): a rollout
move, a style evaluation in the reading, a world's sampling.  They are counted exactly, by
wrapping each kernel's ``play_out`` and reading, and divided by the CPU seconds of this
process (``time.process_time``).  Prints each pass and its ratio, then the medians.
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
from benchmarks import frozen  # noqa: E402


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

    def __init__(self, name: str, package: str | ModuleType) -> None:
        self.name = name
        if isinstance(package, ModuleType):
            package = package.__name__
        mod = __import__(package, fromlist=["search", "hands", "policy", "reading", "styles", "view"])
        self.search: ModuleType = mod.search
        self.view = mod.view.View
        self.hands = mod.hands
        # every functools memo of the kernel's modules
        self.memos = list({id(f): f for m in (mod.hands, mod.policy, mod.reading, mod.styles)
                           for f in vars(m).values() if callable(getattr(f, "cache_clear", None))}.values())
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
        native = getattr(self.hands, "_native", None)  # the compiled hand split keeps a memo of its own
        if native is not None:
            native.clear()

    def decide(self, obs: dict[str, Any], budget: float, seed: str) -> tuple[int, float]:
        """(simulated decisions, CPU seconds) of one search."""
        before = self.steps
        start = time.process_time()
        self.search.evaluate(self.view.of(obs), random.Random(seed), budget=budget)
        return self.steps - before, time.process_time() - start


def one_pass(kernels: list[Kernel], observations: list[dict[str, Any]], budget: float,
             run: int) -> list[tuple[int, float]]:
    """Each kernel's (simulated decisions, CPU seconds) over the positions, from empty memos.

    The kernels take turns position by position (the first one alternating), so a
    change in the machine's load falls on both alike."""
    for kernel in kernels:
        kernel.forget()
    totals = [[0, 0.0] for _ in kernels]
    for i, obs in enumerate(observations):
        order = range(len(kernels)) if i % 2 == 0 else reversed(range(len(kernels)))
        for k in order:
            steps, cpu = kernels[k].decide(obs, budget, f"{run}-{i}")
            totals[k][0] += steps
            totals[k][1] += cpu
    return [(steps, cpu) for steps, cpu in totals]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=4, help="seeded rounds per variant")
    parser.add_argument("--budget", type=float, default=0.1, help="seconds of the kernel's step count per position")
    parser.add_argument("--runs", type=int, default=5, help="passes per kernel")
    args = parser.parse_args()
    play_table()
    observations = positions(args.rounds)
    kernels = [Kernel("old", frozen.module(frozen.KERNEL, "bots")), Kernel("new", "dizhu.bots")]
    print(f"{len(observations)} positions (classic and duel), budget {args.budget} s of steps each, "
          f"load average {os.getloadavg()[0]:.2f}")
    rates: dict[str, list[float]] = {k.name: [] for k in kernels}
    for run in range(args.runs):
        line = [f"pass {run + 1}:"]
        for kernel, (steps, cpu) in zip(kernels, one_pass(kernels, observations, args.budget, run)):
            rates[kernel.name].append(steps / cpu)
            line.append(f"{kernel.name} {steps:>8,} steps {cpu:6.2f} s CPU {steps / cpu:>8,.0f}/s")
        line.append(f"new/old {rates['new'][-1] / rates['old'][-1]:.2f}")
        print("  ".join(line), flush=True)
    old, new = (statistics.median(rates[k.name]) for k in kernels)
    paired = statistics.median(n / o for n, o in zip(rates["new"], rates["old"]))
    print(f"median simulated decisions per CPU-second: old {old:,.0f}  new {new:,.0f}  new/old {new / old:.2f}"
          f"  (median of the passes' ratios {paired:.2f}; load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
