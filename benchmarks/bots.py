"""How long the computer players think: decision times by level.

    python benchmarks/bots.py [--rounds 200] [--variants classic duel] [--levels normal intermediate super-hard hint]

Plays ``--rounds`` seeded rounds per variant and level in one process and
times every decision (bidding and play) of the measured bot.  Normal and
intermediate play every seat; super-hard plays seat 0 against intermediate
bots (its own decisions are the ones timed), which keeps the run short; ``hint``
times the hint with 3 alternatives for seat 0 among intermediate bots.
Prints the median, 95th percentile and maximum.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from dizhu import Round, arena  # noqa: E402
from dizhu.bots import create, hint  # noqa: E402
from dizhu.moves import play_table  # noqa: E402
from benchmarks.matchup import ABLATIONS, make_player  # noqa: E402

#: Levels timed like super-hard: one searching seat among intermediate bots.
SEARCHERS = ("super-hard", "frozen-super-hard", *ABLATIONS)


def measure(level: str, variant: str, rounds: int, budget: float | None, clock=time.perf_counter,
            steps: int | None = None) -> list[float]:
    times: list[float] = []
    for n in range(rounds):
        r = Round.deal(variant, seed=f"bench-{variant}-{n}")
        if level == "hint":  # the hint for seat 0, among intermediate bots
            bots = [create("intermediate", variant, seed=(n, s)) for s in range(r.players)]
            timed = {0}
        elif level in SEARCHERS:
            searcher = make_player(arena.make_player, steps)
            bots = [searcher(level, variant, n, budget)] + [
                create("intermediate", variant, seed=(n, s)) for s in range(1, r.players)
            ]
            timed = {0}
        else:
            bots = [create(level, variant, seed=(n, s)) for s in range(r.players)]
            timed = set(range(r.players))
        while r.result is None:
            seat = r.to_act
            obs = r.observation(seat)
            start = clock()
            if level == "hint" and seat in timed:
                hint(obs, n=3)
            action = bots[seat].decide(obs)
            elapsed = clock() - start
            if seat in timed:
                times.append(elapsed)
            r.apply(seat, action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--variants", nargs="+", default=["classic", "duel"])
    parser.add_argument("--levels", nargs="+", default=["normal", "intermediate", "super-hard"],
                        choices=["normal", "intermediate", "hint", *SEARCHERS])
    parser.add_argument("--budget", type=float, default=None, help="super-hard budget in seconds (default: the bot's)")
    parser.add_argument("--steps", type=int, default=None,
                        help="simulated decisions per search decision for every searcher (as matchup.py --steps)")
    parser.add_argument("--cpu", action="store_true",
                        help="time this process's CPU seconds (one core's work, steadier on a shared machine)")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    play_table()
    print(f"{args.rounds} seeded rounds per variant and level, one process, "
          f"{'CPU' if args.cpu else 'wall-clock'} seconds")
    print(f"{'level':<20}{'variant':<9}{'decisions':>10}{'median':>12}{'p95':>12}{'max':>12}")
    for variant in args.variants:
        for level in args.levels:
            t = sorted(measure(level, variant, args.rounds, args.budget, clock, args.steps))
            p95 = t[min(len(t) - 1, int(0.95 * len(t)))]
            print(f"{level:<20}{variant:<9}{len(t):>10}{statistics.median(t) * 1e3:>10.2f}ms"
                  f"{p95 * 1e3:>10.2f}ms{t[-1] * 1e3:>10.2f}ms", flush=True)


if __name__ == "__main__":
    main()
