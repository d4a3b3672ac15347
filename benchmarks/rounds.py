"""Full rounds per second with uniformly random legal players, one process.

    python benchmarks/rounds.py [--rounds 2000] [--repeats 3]

For dizhu, every decision builds the acting seat's full observation
(``round.observation(seat)``, legal actions included) and the player picks
uniformly among its legal actions.  Measured three ways:

- classic, full rounds: deal, 1-2-3 bidding (re-deals included), play, settlement;
- classic, play only: the DouZero protocol (the landlord is dealt the first
  20 cards of a shuffled deck, no bidding), the same work DouZero's engine does;
- duel, full rounds: call/rob bidding, play, settlement.

Alongside, when installed, DouZero's own ``GameEnv`` driven by its bundled
``RandomAgent`` on the same machine (``pip install numpy termcolor && pip
install --no-deps douzero==1.1.0``).  Prints the median of the repeats.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from dizhu import Round  # noqa: E402
from dizhu.cards import hand_from_counts  # noqa: E402
from dizhu.game import RandomPlayer  # noqa: E402
from dizhu.moves import play_table  # noqa: E402
from dizhu.variants import CLASSIC  # noqa: E402
from douzero_peer import random_table  # noqa: E402


def drive(round_: Round, players) -> None:
    while round_.result is None:
        seat = round_.to_act
        round_.apply(seat, players[seat].decide(round_.observation(seat)))


def dizhu_full(variant: str, count: int, seed: int) -> float:
    players = [RandomPlayer(seed + s) for s in range(3)]
    start = time.perf_counter()
    for n in range(count):
        drive(Round.deal(variant, seed=f"{seed}-{n}"), players)
    return count / (time.perf_counter() - start)


def dizhu_play_only(count: int, seed: int) -> float:
    rng = random.Random(seed)
    deck = list(hand_from_counts(CLASSIC.deck_counts))
    players = [RandomPlayer(seed + s) for s in range(3)]
    start = time.perf_counter()
    for _ in range(count):
        rng.shuffle(deck)
        r = Round.from_deal(
            "classic", [deck[:17], deck[20:37], deck[37:54]], deck[17:20], landlord=0
        )
        drive(r, players)
    return count / (time.perf_counter() - start)


def douzero_play_only(count: int, seed: int) -> float | None:
    table = random_table(seed)
    if table is None:
        return None
    env, deal = table
    start = time.perf_counter()
    for _ in range(count):
        deal()
        while not env.game_over:
            env.step()
        env.reset()
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    play_table()

    def median(fn, *a):
        values = [fn(*a, args.rounds, 100 + k) for k in range(args.repeats)]
        return None if values[0] is None else statistics.median(values)

    rows = [
        ("dizhu classic, full rounds (bidding + play)", median(dizhu_full, "classic")),
        ("dizhu classic, play only (DouZero protocol)", median(dizhu_play_only)),
        ("dizhu duel, full rounds (call/rob + play)", median(dizhu_full, "duel")),
        ("DouZero 1.1.0 GameEnv + RandomAgent, play only", median(douzero_play_only)),
    ]
    print(f"{args.rounds} rounds per measurement, median of {args.repeats}, one process")
    for name, rate in rows:
        print(f"{name:<50} {'not installed' if rate is None else f'{rate:8.0f} rounds/s'}")
    if rows[-1][1]:
        print(f"classic play-only speed-up over DouZero: {rows[1][1] / rows[-1][1]:.2f}x; "
              f"classic full rounds vs DouZero play-only: {rows[0][1] / rows[-1][1]:.2f}x")


if __name__ == "__main__":
    main()
