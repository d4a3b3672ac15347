"""Hand evaluation: splitting a hand into the fewest plays.

A hand's strength for the bots is mostly *how many plays it needs to go out*
and *how many of those plays nobody can beat* (control: the rocket, bombs,
and cards above everything still unseen).  :func:`split` searches the ways of
taking chains out of a hand and counts the rest with trios carrying kickers.

Results are memoised by hand key: the same hand always splits the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..cards import CHAIN_TOP, NUM_RANKS
from ..moves import hand_key

__all__ = ["Split", "split", "split_counts", "Group"]

BLACK, RED, TWO = 13, 14, 12
_CHAIN_MIN = {1: 5, 2: 3, 3: 2}


@dataclass(frozen=True)
class Group:
    """One play of a split: ``width`` cards of each rank from ``low`` to ``high``.

    width 1/2/3 with ``low < high`` are chains (straight, pair chain, plane);
    ``low == high`` gives a single, pair, trio or (width 4) bomb; width 0 is
    the rocket.  Kickers are attached separately.
    """

    width: int
    low: int
    high: int

    @property
    def length(self) -> int:
        return self.high - self.low + 1

    @property
    def size(self) -> int:
        return 2 if self.width == 0 else self.width * self.length

    @property
    def is_chain(self) -> bool:
        return self.high > self.low

    @property
    def trios(self) -> int:
        return self.length if self.width == 3 else 0


@dataclass(frozen=True)
class Split:
    """The best split found: its groups and how many plays they make."""

    groups: tuple[Group, ...]
    #: plays needed, after trios and planes take singles or pairs as kickers
    plays: int
    #: singles and pairs below a queen that no trio can carry (awkward cards)
    weak: int

    @property
    def score(self) -> tuple[int, int]:
        return (self.plays, self.weak)


def _basic(c: tuple[int, ...]) -> tuple[list[Group], int, int, int]:
    """Groups of the chain-free rest: (groups, kicker units, trio capacity, weak)."""
    groups = []
    kickers = 0
    trios = 0
    weak = 0
    if c[BLACK] and c[RED]:
        groups.append(Group(0, BLACK, RED))
        start_jokers = True
    else:
        start_jokers = False
    for r in range(NUM_RANKS):
        n = c[r]
        if not n or (start_jokers and r >= BLACK):
            continue
        if n == 4:
            groups.append(Group(4, r, r))
        elif n == 3:
            groups.append(Group(3, r, r))
            trios += 1
        else:
            groups.append(Group(n, r, r))
            kickers += 1
            if r < 9:  # below a queen
                weak += 1
    return groups, kickers, trios, weak


def _chains(c: tuple[int, ...]):
    """Every chain the counts hold, longest first within each start."""
    for width in (3, 2, 1):
        shortest = _CHAIN_MIN[width]
        for low in range(CHAIN_TOP + 1):
            if c[low] < width:
                continue
            high = low
            while high + 1 <= CHAIN_TOP and c[high + 1] >= width:
                high += 1
            for top in range(high, low + shortest - 2, -1):
                yield Group(width, low, top)


def _remove(c: tuple[int, ...], g: Group) -> tuple[int, ...]:
    out = list(c)
    for r in range(g.low, g.high + 1):
        out[r] -= g.width
    return tuple(out)


@lru_cache(maxsize=200_000)
def split_counts(c: tuple[int, ...]) -> Split:
    """The best split of a rank-count tuple (memoised)."""
    best: Split | None = None
    for chosen, rest in _chain_choices(c, 0, ()):
        groups, kickers, trios, weak = _basic(rest)
        trios += sum(g.trios for g in chosen)
        # a trio (or each trio of a plane) carries one single or one pair
        carried = min(kickers, trios)
        # the weak cards are carried first
        plays = len(groups) + len(chosen) - carried
        weak_left = max(0, weak - trios)
        cand = Split(tuple(chosen) + tuple(groups), plays, weak_left)
        if best is None or cand.score < best.score:
            best = cand
    return best


def _chain_choices(c, start_index: int, chosen: tuple):
    """Every set of chains to take out (each set once), with what remains."""
    yield chosen, c
    if len(chosen) >= 4:
        return
    options = list(_chains(c))
    for i, g in enumerate(options):
        key = (g.width, g.low, g.high)
        if chosen and key < (chosen[-1].width, chosen[-1].low, chosen[-1].high):
            continue  # sets, not sequences
        yield from _chain_choices(_remove(c, g), 0, chosen + (g,))


def split(counts) -> Split:
    """The best split of a hand given as a rank-count sequence.

    >>> s = split([1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0])  # 34567 22
    >>> s.plays
    2
    """
    return split_counts(tuple(counts))


def hand_plays(counts) -> int:
    """Plays needed to go out (see :func:`split`)."""
    return split_counts(tuple(counts)).plays


_ = hand_key  # re-exported helper for callers that key caches by hand
