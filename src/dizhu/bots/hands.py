"""Hand evaluation: splitting a hand into the fewest plays.

A hand's strength for the bots is mostly *how many plays it needs to go out*
and *how many of those plays nobody can beat* (control: the rocket, bombs,
and cards above everything still unseen).  :func:`split_counts` searches the ways of
taking chains out of a hand and counts the rest with trios carrying kickers.

Results are memoised by hand key: the same hand always splits the same way.

The search at the heart of it (:func:`_best_python`, and :func:`to_shed` on it) also exists
compiled, in the C extension ``dizhu.bots._split``, which gives the same answer for every hand
(tests pin it): :data:`NATIVE` says which one runs (:mod:`dizhu.native`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..cards import CHAIN_TOP, NUM_RANKS, Rank
from ..native import load

__all__ = ["Split", "split_counts", "plays_of", "to_shed", "Group", "NATIVE"]

# plain ints: these index count tuples in the hot loop
BLACK, RED, TWO = int(Rank.BLACK_JOKER), int(Rank.RED_JOKER), int(Rank.TWO)


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


def _basic_groups(c: tuple[int, ...]) -> list[Group]:
    """The chain-free groups of ``c``: the rocket, bombs, trios, pairs, singles."""
    groups = []
    rocket = c[BLACK] and c[RED]
    if rocket:
        groups.append(Group(0, BLACK, RED))
    for r in range(BLACK if rocket else NUM_RANKS):
        if c[r]:
            groups.append(Group(c[r], r, r))
    return groups


# by count of a rank: does it make a kicker unit (a single or a pair)?
_KICKER = (0, 1, 1, 0, 0)
_WEAK_RANKS = int(Rank.QUEEN)  # singles and pairs below a queen are awkward


def _chains(c: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """Every chain the counts hold, as (width, low, high)."""
    out = []
    for width, shortest in ((3, 2), (2, 3), (1, 5)):
        low = 0
        while low <= CHAIN_TOP:
            if c[low] < width:
                low += 1
                continue
            high = low
            while high < CHAIN_TOP and c[high + 1] >= width:
                high += 1
            # every chain inside the run low..high
            for start in range(low, high - shortest + 2):
                for end in range(start + shortest - 1, high + 1):
                    out.append((width, start, end))
            low = high + 1
    return out


def split_counts(c: tuple[int, ...]) -> Split:
    """The best split of a rank-count tuple (memoised)."""
    plays, weak, _ = _best(c, 0)
    groups: list[Group] = []
    capacity = 0
    while True:
        chain = _best(c, capacity)[2]
        if chain is None:
            break
        width, low, high = chain
        groups.append(Group(width, low, high))
        c = _remove(c, width, low, high)
        if width == 3:
            capacity += high - low + 1
    return Split(tuple(groups + _basic_groups(c)), plays, weak)


def plays_of(c: tuple[int, ...]) -> int:
    """How many plays the best split of ``c`` needs (memoised; cheaper than the split itself).

    >>> plays_of((1, 1, 1, 1, 1) + (0,) * 10), plays_of((2,) + (0,) * 14)
    (1, 1)
    """
    return _best(c, 0)[0]


def _remove(c: tuple[int, ...], width: int, low: int, high: int) -> tuple[int, ...]:
    out = list(c)
    for r in range(low, high + 1):
        out[r] -= width
    return tuple(out)


@lru_cache(maxsize=400_000)
def _best_python(c: tuple[int, ...], capacity: int) -> tuple[int, int, tuple[int, int, int] | None]:
    """(plays, weak, first chain to take out or None) for the best split of ``c``.

    ``capacity`` counts the trios of planes already taken out, each able to
    carry one of the kickers left in ``c``.  Taking a chain out is one play
    plus the best split of the rest; memoising on the rest shares the work
    between every order of taking the same chains out.
    """
    rocket = 1 if c[BLACK] and c[RED] else 0
    groups = NUM_RANKS - c.count(0) - rocket
    kickers = sum(map(_KICKER.__getitem__, c)) - 2 * rocket
    trios = c.count(3) + capacity
    weak = sum(map(_KICKER.__getitem__, c[:_WEAK_RANKS]))
    best = (groups - min(kickers, trios), max(0, weak - trios), None)
    for chain in _chains(c):
        width, low, high = chain
        plays, weak_left, _ = _best_python(_remove(c, width, low, high),
                                           capacity + (high - low + 1 if width == 3 else 0))
        if plays + 1 < best[0] or (plays + 1 == best[0] and weak_left < best[1]):
            best = (plays + 1, weak_left, chain)
    return best


_native = load("dizhu.bots._split")
#: Whether the compiled hand split runs (else the Python one): the same answers, faster.
NATIVE = _native is not None
_best = _native.best if _native is not None else _best_python


def to_shed(c: tuple[int, ...], keep: int) -> tuple[int, ...]:
    """The cards of ``c`` still to be played when ``keep`` of them may stay in hand at the end.

    The duel farmer wins at the handicap line, so its last ``keep`` cards are never played: it
    sets aside, one at a time, the card whose absence saves the most plays (then leaves the
    fewest awkward cards), the lowest among equals.  ``keep`` 0 is the hand itself.

    >>> hand = (1, 0, 1, 0, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0)  # 3, 5, a pair of queens, of kings
    >>> plays_of(hand), to_shed(hand, 1)[:3], to_shed(hand, 2)[:3], plays_of(to_shed(hand, 2))
    (4, (0, 0, 1), (0, 0, 0), 2)
    """
    return _to_shed(c, keep)


@lru_cache(maxsize=100_000)
def _to_shed_python(c: tuple[int, ...], keep: int) -> tuple[int, ...]:
    """:func:`to_shed` in Python, on the Python split: the reference for the compiled one (memoised)."""
    if keep <= 0:
        return c
    if sum(c) <= keep:
        return (0,) * len(c)
    best: tuple[tuple[int, int], int] | None = None
    for r, n in enumerate(c):
        if n:
            after = c[:r] + (n - 1,) + c[r + 1:]
            key = (_best_python(after, 0)[:2], r)  # the split's score, without building the split
            if best is None or key < best:
                best = key
    r = best[1]
    return _to_shed_python(c[:r] + (c[r] - 1,) + c[r + 1:], keep - 1)


_to_shed = _native.to_shed if _native is not None else _to_shed_python
