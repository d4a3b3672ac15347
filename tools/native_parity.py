"""The compiled kernels against their Python twins, on seeded positions: every answer must agree.

    python tools/native_parity.py [--hands 1000000] [--positions 1000000] [--seed 1]

- The hand split (``dizhu.bots._split`` against ``dizhu.bots.hands``): ``--hands`` hands from the
  classic and the duel decks (0 to 20 cards; a third of them rich in chains: runs of ranks), each
  with a number 0 to 3 that is the kicker capacity for ``best`` and the cards to keep for
  ``to_shed``.
- Move generation (``dizhu._moves`` against ``dizhu.moves._moves_python``): ``--positions`` hands
  (a third of them runs of pairs, trios and quads), each with nothing to beat (a lead) or a play
  another seeded hand can lead, of every kind; the same plays in the same order.

Prints how many disagree (and the first few) and the CPU time of each side.  The test suite runs
the same checks on fewer (tests/test_split_native.py, tests/test_moves_native.py); this is the
long run, for the background.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from dizhu import _moves, moves  # noqa: E402
from dizhu.bots import _split  # noqa: E402
from dizhu.bots.hands import _best_python, _to_shed_python  # noqa: E402
from dizhu.combos import Combo  # noqa: E402
from dizhu.variants import get_variant  # noqa: E402

Hand = tuple[int, ...]
_DECKS = [get_variant(v).deck_counts for v in ("classic", "duel")]
_CARDS = [[r for r in range(len(d)) for _ in range(d[r])] for d in _DECKS]


def _runs(rng: random.Random, deck: Hand, widths: tuple[int, int], longest: int) -> list[int]:
    """Up to three runs of ranks, ``widths`` cards of each (no more than the deck has; 20 at most)."""
    c = [0] * len(deck)
    for _ in range(rng.randint(1, 3)):
        low, width = rng.randint(0, 10), rng.randint(*widths)
        for r in range(low, min(12, low + rng.randint(2, longest))):
            if sum(c) + width <= 20:
                c[r] = max(c[r], min(deck[r], width))
    return c


def seeded_hands(n: int, seed: int, loose: int = 0, widths: tuple[int, int] = (1, 3),
                 longest: int = 8) -> Iterator[Hand]:
    """``n`` hands, the same for the same seed: random ones, and every third made of runs
    (``widths`` cards a rank) plus up to ``loose`` random cards."""
    rng = random.Random(seed)
    for i in range(n):
        deck, pool = _DECKS[i % 2], _CARDS[i % 2]
        if i % 3 == 2:
            c = _runs(rng, deck, widths, longest)
            for r in rng.sample(pool, rng.randint(0, loose)):
                if sum(c) < 20 and c[r] < deck[r]:
                    c[r] += 1
        else:
            c = [0] * len(deck)
            for r in rng.sample(pool, rng.randint(0, 20)):
                c[r] += 1
        yield tuple(c)


def split_cases(n: int, seed: int) -> Iterator[tuple[Hand, int]]:
    """(hand, capacity or cards to keep) pairs for the split."""
    rng = random.Random(seed + 1)
    for hand in seeded_hands(n, seed):
        yield hand, rng.choice((0, 0, 0, 1, 2, 3))


def split_disagreement(c: Hand, n: int) -> str | None:
    """How the compiled and the Python split differ for ``c`` (capacity and keep ``n``), or None."""
    for name, compiled, python in (("best", _split.best, _best_python),
                                   ("to_shed", _split.to_shed, _to_shed_python)):
        found, expected = compiled(c, n), python(c, n)
        if found != expected:
            return f"{name}{(c, n)}: compiled {found}, Python {expected}"
    return None


def move_cases(n: int, seed: int) -> Iterator[tuple[Hand, Combo | None]]:
    """(hand, play to beat or None) pairs: a lead, or a play some other seeded hand can lead."""
    rng = random.Random(seed + 1)
    others = seeded_hands(n, seed + 2, loose=4, widths=(2, 4), longest=6)
    for hand, other in zip(seeded_hands(n, seed, loose=4, widths=(2, 4), longest=6), others):
        leads = moves._moves_python(other) if rng.random() < 0.8 else []
        yield hand, rng.choice(leads) if leads else None


def move_disagreement(hand: Hand, previous: Combo | None) -> str | None:
    """How the compiled and the Python moves differ for the position, or None."""
    found, expected = moves._moves_native(hand, previous, _moves), moves._moves_python(hand, previous)
    if found == expected:
        return None
    return f"{hand} against {previous}: compiled {[m.text for m in found]}, Python {[m.text for m in expected]}"


def _check(name: str, cases: Iterator[tuple], python: Callable, compiled: Callable,
           disagreement: Callable) -> int:
    python_s = compiled_s = 0.0
    wrong = total = 0
    for total, case in enumerate(cases, 1):
        t0 = time.process_time()
        expected = python(*case)
        t1 = time.process_time()
        found = compiled(*case)
        compiled_s += time.process_time() - t1
        python_s += t1 - t0
        if found != expected:
            wrong += 1
            if wrong <= 5:
                print(disagreement(*case))
        if total % 200_000 == 0:
            print(f"{name}: {total:,}, {wrong} disagree", flush=True)
    print(f"{name}: {total:,} cases, {wrong} disagree; CPU Python {python_s:.1f} s, compiled {compiled_s:.1f} s",
          flush=True)
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands for the split (0: skip)")
    parser.add_argument("--positions", type=int, default=1_000_000, help="positions for the moves (0: skip)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    moves.play_table()
    wrong = _check("split", split_cases(args.hands, args.seed),
                   lambda c, n: (_best_python(c, n), _to_shed_python(c, n)),
                   lambda c, n: (_split.best(c, n), _split.to_shed(c, n)), split_disagreement)
    wrong += _check("moves", move_cases(args.positions, args.seed), moves._moves_python,
                    lambda h, p: moves._moves_native(h, p, _moves), move_disagreement)
    print(f"seed {args.seed}: {wrong} disagree in all")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
