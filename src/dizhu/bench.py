"""``dizhu bench``: a quick speed check on this machine (no other engines needed).

The full comparisons with other engines are in ``benchmarks/``.
"""

from __future__ import annotations

import random
import time

from .cards import Hand, deck as full_deck
from .game import RandomPlayer, Round
from .moves import legal_moves, play_table
from .variants import CLASSIC


def _rate(fn, seconds: float) -> tuple[int, float]:
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn()
        count += 1
    return count, time.perf_counter() - start


def run(seconds: float = 2.0) -> None:
    play_table()
    rng = random.Random(1)
    deck = full_deck(CLASSIC)
    situations = []
    for i in range(500):
        rng.shuffle(deck)
        hand = Hand(sorted(deck[:17 if i % 2 else 20]))
        previous = rng.choice(legal_moves(Hand(sorted(deck[20:37])))) if i % 2 else None
        situations.append((hand, previous))

    def movegen() -> None:
        for hand, previous in situations:
            legal_moves(hand, previous)

    n, t = _rate(movegen, seconds)
    print(f"legal_moves: {t / (n * len(situations)) * 1e6:.2f} µs per call "
          f"(500 classic situations, half leading)")
    for variant in ("classic", "duel"):
        players = [RandomPlayer(s) for s in range(3)]
        k = [0]

        def one_round() -> None:
            r = Round.deal(variant, seed=f"bench-{k[0]}")
            k[0] += 1
            while r.result is None:
                seat = r.to_act
                r.apply(seat, players[seat].decide(r.observation(seat)))

        n, t = _rate(one_round, seconds)
        print(f"{variant}: {n / t:.0f} full rounds per second with random players "
              f"(observation built for every decision)")
