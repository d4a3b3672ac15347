"""Legal-move generation.

:func:`legal_moves` lists every distinct play (by ranks) that a hand can make,
either to lead a trick or to beat the previous play.  Passing is not a move:
an empty list means the player can only pass.

How it is fast: a play is identified by an integer *key* holding three bits
of count per rank.  The generator works on the hand's rank counts, builds
keys by addition, and maps them to :class:`~dizhu.combos.Combo` objects
through one table of every play of at most 20 cards, built once per process
(like a chess engine's precomputed move tables).  No result is ever cached
between calls.  The same generator exists compiled (``dizhu._moves``, C; :data:`NATIVE` says
whether it runs, :mod:`dizhu.native` how it is chosen): the same plays in the same order.

>>> [str(m) for m in legal_moves("33345", previous="4")]
['5']
>>> sorted(str(m) for m in legal_moves("33345"))
['3', '33', '333', '3334', '3335', '4', '5']
>>> legal_moves("BR", previous="2222")
[Combo('BR', kind='rocket')]
>>> legal_moves("3456", previous="BR")
[]
"""

from __future__ import annotations

import threading
from itertools import combinations, product
from operator import mul
from typing import Sequence

from .cards import CHAIN_TOP, JOKERS, NUM_RANKS, Card, Hand, parse_cards
from .ranks import RANK_UNITS
from .combos import Combo, Kind, classify, combo_from_counts
from .native import load
from .variants import CLASSIC, Variant, get_variant

__all__ = ["legal_moves", "moves_from_counts", "play_table", "hand_key", "MAX_PLAY_SIZE", "NATIVE"]

BLACK, RED = JOKERS
#: No hand holds more than 20 cards, so no play is longer.
MAX_PLAY_SIZE = 20

_U = RANK_UNITS
_ROCKET = _U[BLACK] + _U[RED]
#: A hand's key holds one field of 3 bits per rank: that rank's count (0-4).
_FIELD_BITS = 3
_FIELD = (1 << _FIELD_BITS) - 1
# This mask picks bit 0 of the field of every rank a chain may use.
_CHAIN_LOW = sum(_U[: CHAIN_TOP + 1])
_CHAIN_RANKS = range(CHAIN_TOP + 1)
#: The lead tables split a key into three groups of five ranks' fields
#: (3-7, 8-Q, K-R), each looked up in a table of its own (_GROUPS).
_GROUP_RANKS = 5
_GROUP_SHIFT = _GROUP_RANKS * _FIELD_BITS
_GROUP_MASK = (1 << _GROUP_SHIFT) - 1
_THIRD_GROUP_SHIFT = 2 * _GROUP_SHIFT
#: The jokers' two fields, read as one number: 1 + 1 * 8 when both are held.
_JOKERS_SHIFT = BLACK * _FIELD_BITS
_BOTH_JOKERS = _ROCKET >> _JOKERS_SHIFT

# Which ranks hold at least n cards, as bit 0 of each field (after `& _CHAIN_LOW`), from the
# count's bits b2 b1 b0 (counts 0-4, so b2 alone means 4):
#   n >= 1: b0 or b1 or b2      -> hk | hk >> 1 | hk >> 2
#   n >= 2: b1 or b2            -> hk >> 1 | hk >> 2
#   n >= 3: (b0 and b1) or b2   -> (hk & hk >> 1) | hk >> 2


def hand_key(counts: Sequence[int]) -> int:
    """The integer key of a rank-count vector (3 bits per rank)."""
    return sum(map(mul, counts, _U))


def _key_counts(key: int) -> tuple[int, ...]:
    return tuple((key >> (_FIELD_BITS * r)) & _FIELD for r in range(NUM_RANKS))


class _PlayTable(dict):
    """key -> Combo for every play of at most 20 cards.

    A longer play (only from a hand of more than 20 cards, which no game
    deals) is classified on the spot and not stored.
    """

    def __missing__(self, key: int) -> Combo:
        return combo_from_counts(_key_counts(key))


# ---- static tables, built once per process by _build()

_TABLE: _PlayTable | None = None
_BUILDING = threading.Lock()
# _GROUPS[g][field]: for the 5 ranks 5g..5g+4 with those counts, a tuple of
# (singles/pairs/trios/bombs keys, single units, pair units, trio ranks, quad ranks).
_GROUPS: list[dict[int, tuple]] = []
# _CHAINS[w][spread mask of ranks holding >= w cards]: the chains of width w,
# as (bottom, top, key) for planes and as keys for straights and pair chains.
_CHAINS: list[dict[int, list]] = []
_CHAIN_SHAPES = ((1, 5), (2, 3), (3, 2))  # cards per rank, shortest chain


def _build_groups() -> None:
    for g in range(NUM_RANKS // _GROUP_RANKS):
        first = _GROUP_RANKS * g
        ranks = range(first, first + _GROUP_RANKS)
        table = {}
        for counts in product(*(range(2 if r in JOKERS else 5) for r in ranks)):
            small, singles, pairs, trios, quads = [], [], [], [], []
            field = 0
            for r, x in zip(ranks, counts):
                field += x << (_FIELD_BITS * (r - first))
                u = _U[r]
                if x:
                    small.append(u)
                    singles.append(u)
                if x >= 2:
                    small.append(2 * u)
                    pairs.append(2 * u)
                if x >= 3:
                    small.append(3 * u)
                    trios.append(r)
                if x == 4:
                    small.append(4 * u)
                    quads.append(r)
            table[field] = (tuple(small), tuple(singles), tuple(pairs), tuple(trios), tuple(quads))
        _GROUPS.append(table)


def _build_chains() -> None:
    for width, shortest in _CHAIN_SHAPES:
        table: dict[int, list] = {}
        for bits in range(1 << (CHAIN_TOP + 1)):
            spread = sum(_U[r] for r in _CHAIN_RANKS if bits >> r & 1)
            chains = []
            for top in _CHAIN_RANKS:
                length = 0
                while length <= top and bits >> (top - length) & 1:
                    length += 1
                for n in range(shortest, length + 1):
                    bottom = top - n + 1
                    key = width * sum(_U[bottom : top + 1])
                    chains.append((bottom, top, key) if width == 3 else key)
            table[spread] = chains
        _CHAINS.append(table)


def play_table() -> dict[int, Combo]:
    """The table of every play of at most 20 cards, built on first use.

    >>> table = play_table()
    >>> len(table), str(table[classify("BR").key])
    (24639, 'BR')
    """
    global _TABLE
    if _TABLE is None:
        with _BUILDING:  # threads may ask at the same moment: build once
            if _TABLE is None:
                _build_groups()
                _build_chains()
                table = _PlayTable()
                deck = hand_key(CLASSIC.deck_counts)
                for key in _lead_keys(deck, MAX_PLAY_SIZE):
                    combo = combo_from_counts(_key_counts(key))
                    if combo.size <= MAX_PLAY_SIZE:
                        table[key] = combo
                _TABLE = table
    return _TABLE


def _kicker_keys(singles, pairs, lo: int, hi: int, n: int) -> list[int]:
    """Keys of every multiset of ``n`` single kickers outside body units lo..hi.

    ``singles`` are the units of the ranks held, ``pairs`` twice the units of
    the ranks held at least twice.  At most two cards of a rank and never
    both jokers (RULES.md §2).
    """
    levels: list[list[int]] = [[0]] + [[] for _ in range(n)]
    jokers = []
    for u in singles:
        if lo <= u <= hi:
            continue
        if u >= _U[BLACK]:
            jokers.append(u)
            continue
        u2 = u + u
        two = u2 in pairs
        for k in range(n - 1, -1, -1):
            src = levels[k]
            if src:
                levels[k + 1] += [y + u for y in src]
                if two and k + 2 <= n:
                    levels[k + 2] += [y + u2 for y in src]
    if jokers:
        for k in range(n - 1, -1, -1):
            src = levels[k]
            if src:
                for u in jokers:
                    levels[k + 1] += [y + u for y in src]
    return levels[n]


def _pair_kicker_keys(pairs, lo: int, hi: int, n: int) -> list[int]:
    """Keys of every set of ``n`` pairs of distinct ranks outside body units lo..hi."""
    lo2, hi2 = 2 * lo, 2 * hi
    avail = [p for p in pairs if not lo2 <= p <= hi2]
    if n == 1:
        return avail
    return [sum(p) for p in combinations(avail, n)]


def _lead_keys(hk: int, total: int) -> list[int]:
    """Keys of every play the hand with key ``hk`` can lead.

    Planes take kickers only while the whole play fits in ``total`` cards.
    """
    g0 = _GROUPS[0][hk & _GROUP_MASK]
    g1 = _GROUPS[1][(hk >> _GROUP_SHIFT) & _GROUP_MASK]
    g2 = _GROUPS[2][hk >> _THIRD_GROUP_SHIFT]
    out = [*g0[0], *g1[0], *g2[0]]
    if hk >> _JOKERS_SHIFT == _BOTH_JOKERS:
        out.append(_ROCKET)
    ones = (hk | hk >> 1 | hk >> 2) & _CHAIN_LOW  # ranks with at least one card (see above)
    out += _CHAINS[0][ones]
    twos = (hk >> 1 | hk >> 2) & _CHAIN_LOW  # at least two
    out += _CHAINS[1][twos]
    trios = g0[3] + g1[3] + g2[3]
    if not trios:
        return out
    singles = g0[1] + g1[1] + g2[1]
    pairs = g0[2] + g1[2] + g2[2]
    for t in trios:
        body = 3 * _U[t]
        own = _U[t]
        out += [body + k for k in singles if k != own]
        own += own
        out += [body + k for k in pairs if k != own]
    for q in g0[4] + g1[4] + g2[4]:
        body = 4 * _U[q]
        u = _U[q]
        out += [body + k for k in _kicker_keys(singles, pairs, u, u, 2)]
        out += [body + k for k in _pair_kicker_keys(pairs, u, u, 2)]
    threes = ((hk & hk >> 1) | hk >> 2) & _CHAIN_LOW  # at least three
    for bottom, top, body in _CHAINS[2][threes]:
        out.append(body)
        n = top - bottom + 1
        lo, hi = _U[bottom], _U[top]
        if 4 * n <= total:
            out += [body + k for k in _kicker_keys(singles, pairs, lo, hi, n)]
            if 5 * n <= total:
                out += [body + k for k in _pair_kicker_keys(pairs, lo, hi, n)]
    return out


def _reply_keys(c: Sequence[int], prev: Combo) -> list[int]:
    """Keys of every play from counts ``c`` that beats ``prev``."""
    kind = prev.kind
    if kind is Kind.ROCKET:
        return []
    U = _U
    low = prev.main + 1
    out: list[int]
    if kind is Kind.SINGLE:
        out = [U[r] for r in range(low, NUM_RANKS) if c[r]]
    elif kind is Kind.PAIR:
        out = [2 * U[r] for r in range(low, BLACK) if c[r] >= 2]
    elif kind is Kind.TRIO:
        out = [3 * U[r] for r in range(low, BLACK) if c[r] >= 3]
    elif kind is Kind.BOMB:
        out = []
    elif kind is Kind.TRIO_SINGLE or kind is Kind.TRIO_PAIR:
        out = []
        if kind is Kind.TRIO_SINGLE:
            kickers = [U[r] for r in range(NUM_RANKS) if c[r]]
            width = 1
        else:
            kickers = [2 * U[r] for r in range(BLACK) if c[r] >= 2]
            width = 2
        for t in range(low, BLACK):
            if c[t] >= 3:
                body = 3 * U[t]
                own = width * U[t]
                out += [body + k for k in kickers if k != own]
    else:
        out = []
        singles = [U[r] for r in range(NUM_RANKS) if c[r]]
        pairs = [2 * U[r] for r in range(BLACK) if c[r] >= 2]
        if kind is Kind.FOUR_TWO_SINGLE or kind is Kind.FOUR_TWO_PAIR:
            for q in range(low, BLACK):
                if c[q] == 4:
                    body = 4 * U[q]
                    u = U[q]
                    if kind is Kind.FOUR_TWO_SINGLE:
                        out += [body + k for k in _kicker_keys(singles, pairs, u, u, 2)]
                    else:
                        out += [body + k for k in _pair_kicker_keys(pairs, u, u, 2)]
        else:
            length = prev.chain
            width = 1 if kind is Kind.STRAIGHT else 2 if kind is Kind.PAIR_CHAIN else 3
            run = 0
            for top in _CHAIN_RANKS:
                run = run + 1 if c[top] >= width else 0
                if run < length or top < low:
                    continue
                bottom = top - length + 1
                body = width * sum(U[bottom : top + 1])
                if kind is Kind.PLANE_SINGLE:
                    out += [body + k for k in _kicker_keys(singles, pairs, U[bottom], U[top], length)]
                elif kind is Kind.PLANE_PAIR:
                    out += [body + k for k in _pair_kicker_keys(pairs, U[bottom], U[top], length)]
                else:
                    out.append(body)
    bomb_low = low if kind is Kind.BOMB else 0
    out += [4 * U[r] for r in range(bomb_low, BLACK) if c[r] == 4]
    if c[BLACK] and c[RED]:
        out.append(_ROCKET)
    return out


def _moves_python(counts: Sequence[int], previous: Combo | None = None) -> list[Combo]:
    """:func:`moves_from_counts` in Python: the reference for the compiled one."""
    table = _TABLE if _TABLE is not None else play_table()
    if previous is None:
        keys = _lead_keys(hand_key(counts), sum(counts))
    else:
        keys = _reply_keys(counts, previous)
    return list(map(table.__getitem__, keys))


def _moves_native(counts: Sequence[int], previous: Combo | None = None, kernel=None) -> list[Combo]:
    """:func:`moves_from_counts` by the compiled generator (``kernel``, default ``dizhu._moves``
    as loaded; the parity checks pass it in, so they run in pure Python too)."""
    kernel = kernel or _native
    table = _TABLE if _TABLE is not None else play_table()
    if previous is None:
        return kernel.lead(table, counts)
    return kernel.reply(table, counts, _KIND_INDEX[previous.kind], previous.main, previous.chain)


_native = load("dizhu._moves")
#: Whether the compiled move generator runs (else the Python one): the same plays, in the same order.
NATIVE = _native is not None
_KIND_INDEX = {kind: i for i, kind in enumerate(Kind)}
if _native is not None and _native.KINDS != tuple(kind.value for kind in Kind):
    raise ImportError("dizhu._moves was built for other kinds of play than dizhu.combos.Kind's; rebuild it")
_moves = _moves_native if _native is not None else _moves_python


def moves_from_counts(counts: Sequence[int], previous: Combo | None = None) -> list[Combo]:
    """:func:`legal_moves` on a rank-count vector, with no check that the hand fits a deck.

    For engines and bots that keep hands as counts.  The compiled generator refuses (``ValueError``)
    a count outside 0 to 4, or above 1 for a joker, which no deck deals.

    >>> [str(m) for m in moves_from_counts((2,) + (0,) * 14)]
    ['3', '33']
    """
    return _moves(counts, previous)


def _hand_counts(hand: "str | Sequence[Card]", variant: Variant) -> Sequence[int]:
    if isinstance(hand, Hand):
        variant.check_in_deck(hand.counts)
        return hand.counts
    if isinstance(hand, str):
        return parse_cards(hand, variant.name).counts
    return Hand.of(list(hand), variant.name).counts


def legal_moves(
    hand: "str | Sequence[Card]",
    previous: "Combo | str | Sequence[Card] | None" = None,
    variant: "str | Variant" = "classic",
) -> list[Combo]:
    """Every distinct play from ``hand`` that beats ``previous``.

    With ``previous=None`` the player leads a new trick and may make any play.
    Plays that differ only in suits are one move; pass is not a move.

    >>> [str(m) for m in legal_moves("55667788", previous="334455")]
    ['556677', '667788']
    >>> [m.kind.value for m in legal_moves("777A 3333", previous="666K")]
    ['trio_single', 'trio_single', 'bomb']
    >>> sorted(str(m) for m in legal_moves("6666 Q", previous="5555", variant="duel"))
    ['6666']
    """
    v = get_variant(variant)
    counts = _hand_counts(hand, v)
    if previous is not None and not isinstance(previous, Combo):
        previous = classify(previous, v)
    return _moves(counts, previous)
