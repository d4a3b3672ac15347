"""The exact solver's reach: share of seeded endgames solved within 1 s and 10 s, by cards in hands.

    python benchmarks/solve.py [--per-bucket 8] [--limit 10] [--variants classic duel]

Positions come from seeded rounds bid and played by intermediate computer
players (:func:`position_at`) until at most N cards remain in all hands
together; a position joins the bucket of its actual card total.
Each is solved from scratch (a fresh table) with a deadline of ``--limit``
seconds.  Seeds are fixed, so the same positions are measured each run;
the times depend on the machine (one core, shared).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from dizhu.bots import create  # noqa: E402
from dizhu.game import Round  # noqa: E402
from dizhu.game.round import OVER, PLAYING  # noqa: E402
from dizhu.moves import play_table  # noqa: E402
from dizhu.solver import Position, Solver, SolveTimeout  # noqa: E402
from dizhu.variants import get_variant  # noqa: E402

BUCKETS = ((10, 14), (15, 19), (20, 24), (25, 29), (30, 34))


def position_at(variant: str, seed: "str | int", cards: int, level: str = "intermediate") -> Position | None:
    """The first position of the seeded round with at most ``cards`` in all hands, every hand face up.

    None when the round ends before (or nobody bids and the deal is thrown in
    repeatedly: the bidding then redeals by the rules, which is fine too).
    """
    v = get_variant(variant)
    round_ = Round.deal(v, seed=seed)
    bots = [create(level, v, seed=f"{seed}/{s}") for s in range(v.players)]
    while round_.phase != OVER:
        if round_.phase == PLAYING and sum(round_.cards_left) <= cards:
            return Position.from_round(round_)
        seat = round_.to_act
        round_.apply(seat, bots[seat].decide(round_.observation(seat)))
    return None


def positions(variant: str, low: int, high: int, count: int, tries: int = 400):
    found = []
    for n in range(tries):
        p = position_at(variant, f"bench-solve-{high}-{n}", high)
        if p is not None and low <= p.cards <= high:
            found.append(p)
            if len(found) == count:
                break
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-bucket", type=int, default=8)
    parser.add_argument("--limit", type=float, default=10.0)
    parser.add_argument("--variants", nargs="+", default=["classic", "duel"])
    args = parser.parse_args()
    play_table()
    print(f"{'variant':8} {'cards':>6} {'n':>3} {'<=1s':>6} {'<=10s':>6} {'median s':>9} {'max nodes':>10}")
    for variant in args.variants:
        for low, high in BUCKETS:
            times, nodes = [], []
            for p in positions(variant, low, high, args.per_bucket):
                solver = Solver()
                start = time.perf_counter()
                solver.deadline = time.monotonic() + args.limit
                try:
                    solver.value(p)
                    times.append(time.perf_counter() - start)
                except SolveTimeout:
                    times.append(float("inf"))
                nodes.append(solver.nodes)
            if not times:
                print(f"{variant:8} {low:>3}-{high:<2} {0:>3}   (no seeded round reached this total)")
                continue
            n = len(times)
            fast = sum(t <= 1 for t in times) / n
            slow = sum(t <= args.limit for t in times) / n
            median = statistics.median(times)
            print(f"{variant:8} {low:>3}-{high:<2} {n:>3} {fast:>6.0%} {slow:>6.0%} {median:>9.2f} {max(nodes):>10}",
                  flush=True)


if __name__ == "__main__":
    main()
