"""The compiled hand split against the Python one, on seeded hands: every answer must agree.

    python tools/split_parity.py [--hands 1000000] [--seed 1]

Draws ``--hands`` hands from the classic and the duel decks (sizes 0 to 20, and a third of them
rich in chains: whole runs of ranks) with a kicker capacity of 0 to 3 and a number of cards to
keep of 0 to 3, asks the compiled ``best`` and ``to_shed`` (``dizhu.bots._split``) and the Python
ones (``dizhu.bots.hands._best_python``, ``_to_shed_python``) for each, and prints how many
disagree (and the first few), with the time each took.  The test suite runs the same check on
fewer hands (tests/test_split_native.py); this is the long run, for the background.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from dizhu.bots import _split  # noqa: E402
from dizhu.bots.hands import _best_python, _to_shed_python  # noqa: E402
from dizhu.variants import get_variant  # noqa: E402

Hand = tuple[int, ...]


def seeded_hands(n: int, seed: int) -> Iterator[tuple[Hand, int]]:
    """``n`` (counts, capacity) pairs, the same for the same seed."""
    rng = random.Random(seed)
    decks = [get_variant(v).deck_counts for v in ("classic", "duel")]
    cards = [[r for r in range(len(d)) for _ in range(d[r])] for d in decks]
    for i in range(n):
        deck, pool = decks[i % 2], cards[i % 2]
        if i % 3 == 2:  # runs of ranks, so that chains of every width overlap (20 cards at most)
            c = [0] * len(deck)
            for _ in range(rng.randint(1, 3)):
                low = rng.randint(0, 9)
                width = rng.randint(1, 3)
                for r in range(low, min(12, low + rng.randint(2, 8))):
                    if sum(c) + width <= 20:
                        c[r] = min(deck[r], c[r] + width)
        else:
            c = [0] * len(deck)
            for r in rng.sample(pool, rng.randint(0, 20)):
                c[r] += 1
        yield tuple(c), rng.choice((0, 0, 0, 1, 2, 3))


def disagreement(c: Hand, n: int) -> str | None:
    """How the compiled and the Python answers differ for ``c`` (capacity and keep ``n``), or None."""
    for name, compiled, python in (("best", _split.best, _best_python),
                                   ("to_shed", _split.to_shed, _to_shed_python)):
        found, expected = compiled(c, n), python(c, n)
        if found != expected:
            return f"{name}{(c, n)}: compiled {found}, Python {expected}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    python_s = native_s = 0.0
    wrong = 0
    for k, (c, n) in enumerate(seeded_hands(args.hands, args.seed), 1):
        t0 = time.process_time()
        expected = _best_python(c, n), _to_shed_python(c, n)
        t1 = time.process_time()
        found = _split.best(c, n), _split.to_shed(c, n)
        native_s += time.process_time() - t1
        python_s += t1 - t0
        if found != expected:
            wrong += 1
            if wrong <= 5:
                print(disagreement(c, n))
        if k % 200_000 == 0:
            print(f"{k:,} hands, {wrong} disagree", flush=True)
    print(f"{args.hands:,} hands (seed {args.seed}): {wrong} disagree; CPU Python {python_s:.1f} s, "
          f"compiled {native_s:.1f} s (both memoised)")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
