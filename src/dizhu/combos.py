"""Plays: the 14 kinds, classification and comparison (RULES.md §2-§3).

A :class:`Combo` is a legal play described by ranks only; suits never
matter.  :func:`classify` turns cards into a Combo or raises
:class:`InvalidPlay` with a machine-readable ``reason``; :func:`beats` says
whether one play beats another.

>>> c = classify("333+444 5 8")
>>> c.kind, str(c), c.main
(<Kind.PLANE_SINGLE: 'plane_single'>, '33344458', <Rank.FOUR: 1>)
>>> beats(classify("KKK3"), classify("QQQR"))
True
>>> classify("A2345")
Traceback (most recent call last):
...
dizhu.InvalidPlay: a chain cannot contain a 2 or a joker
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Union

from .cards import (
    CHAIN_TOP,
    JOKERS,
    NUM_RANKS,
    Card,
    Hand,
    Rank,
    format_counts,
    parse_cards,
)
from .errors import REASONS, InvalidPlay
from .ranks import RANK_UNITS as _UNITS
from .variants import Variant, get_variant

__all__ = [
    "Kind",
    "Combo",
    "InvalidPlay",
    "classify",
    "beats",
    "REASONS",
    "combo_from_counts",
    "read_counts",
]

BLACK, RED = JOKERS
TWO = int(Rank.TWO)


class Kind(StrEnum):
    """The 14 kinds of play, as ``str`` values.

    >>> str(Kind.PLANE_PAIR), Kind("rocket") is Kind.ROCKET, len(Kind)
    ('plane_pair', True, 14)
    """

    SINGLE = "single"
    PAIR = "pair"
    TRIO = "trio"
    TRIO_SINGLE = "trio_single"
    TRIO_PAIR = "trio_pair"
    STRAIGHT = "straight"
    PAIR_CHAIN = "pair_chain"
    PLANE = "plane"
    PLANE_SINGLE = "plane_single"
    PLANE_PAIR = "plane_pair"
    FOUR_TWO_SINGLE = "four_two_single"
    FOUR_TWO_PAIR = "four_two_pair"
    BOMB = "bomb"
    ROCKET = "rocket"




class Combo:
    """A legal play, by ranks.

    ``kind`` is a :class:`Kind`; ``main`` the rank that decides comparisons
    (the trio or quad body, or the top of a chain); ``size`` the number of
    cards; ``chain`` the number of links (ranks in a chain or trios in a
    plane; 1 otherwise).  ``str(combo)`` is the canonical notation.

    Combos compare equal when they hold the same ranks, so plays differing
    only in suits are the same Combo.

    >>> pair_chain = classify("10 10 J J Q Q")
    >>> pair_chain.kind, pair_chain.size, pair_chain.chain, pair_chain.main.symbol
    (<Kind.PAIR_CHAIN: 'pair_chain'>, 6, 3, 'Q')
    >>> classify("JJQQTT") == pair_chain
    True
    """

    __slots__ = ("kind", "main", "size", "chain", "counts", "key", "text", "_action")

    kind: Kind
    main: Rank
    size: int
    chain: int
    counts: tuple[int, ...]
    key: int
    text: str

    def __init__(self, kind: Kind, main: int, counts: Sequence[int], chain: int = 1) -> None:
        self.kind = kind
        self.main = Rank(main)
        self.counts = tuple(counts)
        self.size = sum(self.counts)
        self.chain = chain
        self.key = sum(n * u for n, u in zip(self.counts, _UNITS))
        self.text = format_counts(self.counts)
        self._action = None

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Combo({self.text!r}, kind={self.kind.value!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Combo) and other.key == self.key

    def __hash__(self) -> int:
        return self.key

    @property
    def is_bomb(self) -> bool:
        """True for a bomb or the rocket: the plays that double the score."""
        return self.kind is Kind.BOMB or self.kind is Kind.ROCKET

    @property
    def ranks(self) -> list[Rank]:
        """The ranks of the cards, ascending, one entry per card."""
        return [Rank(r) for r, n in enumerate(self.counts) for _ in range(n)]

    def beats(self, previous: "Combo") -> bool:
        """Whether this play beats ``previous``; see :func:`beats`."""
        return beats(self, previous)


CardsArg = Union[str, Sequence[Card], Combo]


def _counts_of(cards: CardsArg, variant: Variant) -> tuple[int, ...]:
    if isinstance(cards, Combo):
        counts = cards.counts
    elif isinstance(cards, str):
        counts = parse_cards(cards).counts
    elif isinstance(cards, Hand):
        counts = cards.counts
    else:
        counts = Hand.of(list(cards)).counts
    variant.check_in_deck(counts)
    return counts


def classify(cards: CardsArg, variant: str | Variant = "classic") -> Combo:
    """The play that ``cards`` make, or :class:`InvalidPlay` saying why none.

    ``cards`` is notation text, a sequence of :class:`~dizhu.cards.Card`, or a
    Combo.  Every set of cards reads as at most one play (RULES.md §2).

    >>> [classify(t).kind.value for t in ("A", "KK", "777", "777A", "777AA", "TJQKA")]
    ['single', 'pair', 'trio', 'trio_single', 'trio_pair', 'straight']
    >>> [classify(t).kind.value for t in ("334455", "333444", "333444+55", "333444+5588")]
    ['pair_chain', 'plane', 'plane_single', 'plane_pair']
    >>> [classify(t).kind.value for t in ("6666+99", "6666+3399", "3333", "BR")]
    ['four_two_single', 'four_two_pair', 'bomb', 'rocket']
    >>> classify("6666+BR")
    Traceback (most recent call last):
    ...
    dizhu.InvalidPlay: the two jokers cannot both be kickers
    >>> classify("34567", variant="duel")
    Traceback (most recent call last):
    ...
    dizhu.InvalidPlay: the duel deck has no 3s
    """
    variant = get_variant(variant)
    counts = _counts_of(cards, variant)
    if isinstance(cards, Combo):
        return cards
    return combo_from_counts(counts)


def combo_from_counts(counts: Sequence[int]) -> Combo:
    """Classify a rank-count vector (no variant check).  Raises InvalidPlay."""
    found = read_counts(counts)
    if found is None:
        raise _diagnose(counts)
    kind, main, chain = found
    return Combo(kind, main, counts, chain)


def _consecutive(ranks: list[int]) -> bool:
    return ranks[-1] - ranks[0] == len(ranks) - 1


def read_counts(c: Sequence[int]) -> tuple[Kind, int, int] | None:
    """The unique reading of a rank-count vector as (kind, main, chain), or None.

    The rules of RULES.md §2 in one place; :func:`classify` is built on it.

    >>> read_counts([3, 3, 2] + [0] * 12)
    (<Kind.PLANE_SINGLE: 'plane_single'>, 1, 2)
    >>> read_counts([4, 4] + [0] * 13) is None
    True
    """
    n = sum(c)
    if n == 0:
        return None
    if c[BLACK] and c[RED]:
        return (Kind.ROCKET, RED, 1) if n == 2 else None
    by = ([], [], [], [], [])
    for rank in range(NUM_RANKS):
        by[c[rank]].append(rank)
    _, ones, twos, threes, fours = by
    distinct = len(ones) + len(twos) + len(threes) + len(fours)
    if distinct == 1:
        rank = (ones or twos or threes or fours)[0]
        return ((Kind.SINGLE, Kind.PAIR, Kind.TRIO, Kind.BOMB)[n - 1], rank, 1)
    if fours:
        if len(fours) > 1 or threes:
            return None
        if n == 6:
            return (Kind.FOUR_TWO_SINGLE, fours[0], 1)
        if n == 8 and len(twos) == 2:
            return (Kind.FOUR_TWO_PAIR, fours[0], 1)
        return None
    if threes:
        trios = len(threes)
        if trios == 1:
            if n == 4:
                return (Kind.TRIO_SINGLE, threes[0], 1)
            if n == 5 and len(twos) == 1:
                return (Kind.TRIO_PAIR, threes[0], 1)
            return None
        if threes[-1] > CHAIN_TOP or not _consecutive(threes):
            return None
        top = threes[-1]
        if n == 3 * trios:
            return (Kind.PLANE, top, trios)
        if n == 4 * trios:
            return (Kind.PLANE_SINGLE, top, trios)
        if n == 5 * trios and len(twos) == trios and not ones:
            return (Kind.PLANE_PAIR, top, trios)
        return None
    if twos and not ones:
        if len(twos) >= 3 and twos[-1] <= CHAIN_TOP and _consecutive(twos):
            return (Kind.PAIR_CHAIN, twos[-1], len(twos))
        return None
    if ones and not twos:
        if len(ones) >= 5 and ones[-1] <= CHAIN_TOP and _consecutive(ones):
            return (Kind.STRAIGHT, ones[-1], len(ones))
    return None


def _diagnose(c: Sequence[int]) -> InvalidPlay:
    """Why a count vector is no play: the most specific reason we can name."""
    n = sum(c)
    if n == 0:
        return InvalidPlay("empty")
    if c[BLACK] and c[RED]:
        # With a trio or a quad beside them, the jokers are meant as kickers.
        if any(c[r] >= 3 for r in range(BLACK)):
            return InvalidPlay("both_jokers_as_kickers")
        return InvalidPlay("rocket_not_alone")
    ranks = [r for r in range(NUM_RANKS) if c[r]]
    fours = [r for r in ranks if c[r] == 4]
    threes = [r for r in ranks if c[r] == 3]
    twos = [r for r in ranks if c[r] == 2]
    ones = [r for r in ranks if c[r] == 1]
    if fours:
        if len(fours) == 1 and not threes:
            return InvalidPlay("four_two_kickers")
        body = sorted(fours + threes)
        # 333444+4+5: a plane whose kicker repeats a body rank.
        if threes and body[-1] <= CHAIN_TOP and _consecutive(body) and n == 4 * len(body):
            return InvalidPlay("kicker_same_rank")
        return InvalidPlay("four_split")
    if threes:
        if len(threes) == 1:
            return InvalidPlay("trio_kicker")
        return _diagnose_plane(c, n, threes, twos, ones)
    if len(ranks) == 2 and n == 2:
        return InvalidPlay("not_a_pair")
    if twos and not ones:
        if len(twos) == 2:
            return InvalidPlay("pair_chain_too_short")
        return _diagnose_chain(twos)
    if ones and not twos:
        if len(ones) < 5:
            if ones[-1] <= CHAIN_TOP and _consecutive(ones) and len(ones) >= 3:
                return InvalidPlay("straight_too_short")
            return InvalidPlay("unrelated_cards")
        return _diagnose_chain(ones)
    return InvalidPlay("unrelated_cards")


def _diagnose_chain(ranks: list[int]) -> InvalidPlay:
    if ranks[-1] > CHAIN_TOP:
        return InvalidPlay("chain_two_or_joker")
    return InvalidPlay("chain_gap")


def _longest_run(ranks: list[int]) -> list[int]:
    best: list[int] = []
    run: list[int] = []
    for rank in ranks:
        run = run + [rank] if run and rank == run[-1] + 1 else [rank]
        if len(run) > len(best):
            best = run
    return best


def _diagnose_plane(c, n: int, threes: list[int], twos: list[int], ones: list[int]) -> InvalidPlay:
    chainable = [r for r in threes if r <= CHAIN_TOP]
    if len(chainable) < len(threes) and _consecutive(threes):
        return InvalidPlay("chain_two_or_joker")
    if not _consecutive(threes):
        run = _longest_run(chainable)
        if len(run) >= 2 and n == 4 * len(run):
            return InvalidPlay("kicker_rank_limit")
        if len(run) >= 2 and n == 5 * len(run):
            return InvalidPlay("plane_pair_kickers")
        if len(chainable) < len(threes) and len(run) == len(chainable):
            return InvalidPlay("chain_two_or_joker")
        return InvalidPlay("chain_gap")
    trios = len(threes)
    kickers = n - 3 * trios
    if kickers < trios:
        return InvalidPlay("plane_kickers_short", trios=trios, kickers=kickers)
    if kickers == 2 * trios:
        return InvalidPlay("plane_pair_kickers")
    return InvalidPlay("plane_kickers_excess", trios=trios, kickers=kickers)


def beats(new: CardsArg, previous: CardsArg) -> bool:
    """Whether play ``new`` beats play ``previous`` (RULES.md §3).

    Same kind, same number of cards and a higher main rank; a bomb beats any
    non-bomb and a lower bomb; the rocket beats everything.  Kickers never
    count.  Arguments may be Combos or anything :func:`classify` takes.

    >>> beats("999+33", "888+AA"), beats("456789", "34567"), beats("888", "777A")
    (True, False, False)
    >>> beats("3333", "TJQKA"), beats("BR", "2222"), beats("2222", "BR")
    (True, True, False)
    >>> beats("6666+39", "5555"), beats("A", "A")
    (False, False)
    """
    if not isinstance(new, Combo):
        new = classify(new)
    if not isinstance(previous, Combo):
        previous = classify(previous)
    if previous.kind is Kind.ROCKET:
        return False
    if new.kind is Kind.ROCKET:
        return True
    if new.kind is Kind.BOMB:
        return previous.kind is not Kind.BOMB or new.main > previous.main
    return new.kind is previous.kind and new.size == previous.size and new.main > previous.main
