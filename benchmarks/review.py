"""Seconds to review one round (``dizhu.analysis.review``), one process, one core.

    nice -n 10 python benchmarks/review.py [--rounds 100] [--variant classic] [--budget SECONDS]

Each round is dealt from a seed and played to the end by intermediate bots on
every seat (a typical round of the site: the human plays about as well); then
seat 0's decisions are reviewed at the default budget (the search's
``DEFAULT_BUDGET`` per decision unless ``--budget`` says otherwise).  Prints
the median and the 95th percentile of the seconds per round, both in wall
time and in the process's CPU time (the CPU time is what the round costs on
an idle core; the wall time adds what other programs on the machine took),
and the decisions reviewed per round.  The target is 5 s for a typical round.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from dizhu import Round  # noqa: E402
from dizhu.analysis import review  # noqa: E402
from dizhu.bots import create  # noqa: E402
from dizhu.moves import play_table  # noqa: E402


def played(variant: str, seed: str) -> Round:
    round_ = Round.deal(variant, seed=seed)
    bots = [create("intermediate", variant, seed=(seed, s)) for s in range(round_.players)]
    while round_.result is None:
        seat = round_.to_act
        round_.apply(seat, bots[seat].decide(round_.observation(seat)))
    return round_


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--budget", type=float, default=None)
    args = parser.parse_args()
    play_table()  # the move tables are built once per process, not per review
    load_before = os.getloadavg()[0]
    wall: list[float] = []
    cpu: list[float] = []
    decisions: list[int] = []
    for n in range(args.rounds):
        round_ = played(args.variant, f"bench-review-{n}")
        w, c = time.perf_counter(), time.process_time()
        result = review(round_, 0, budget=args.budget)
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
        decisions.append(len(result.decisions))
    print(f"{args.variant}, {args.rounds} rounds, budget {args.budget or 'default'}: "
          f"{statistics.mean(decisions):.1f} decisions a round reviewed "
          f"(load average {load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end)")
    for name, values in (("wall", wall), ("cpu", cpu)):
        print(f"  {name}: median {statistics.median(values):.2f} s, p95 {percentile(values, 0.95):.2f} s, "
              f"max {max(values):.2f} s")


if __name__ == "__main__":
    main()
