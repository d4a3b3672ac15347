"""Cards, ranks and the text notation.

A card is a rank and, except for the two jokers, a suit.  Suits never matter
for the rules; they exist so that a table can be drawn and so that every
physical card of a deck has its own identity.

Ranks are small integers in playing order (3 is the weakest, the red joker the
strongest), exposed as the :class:`Rank` enum.  Every card also has an integer
id (0-53) that the web client and the storage use.

>>> hand = parse_cards("333+444 55")
>>> str(hand)
'33344455'
>>> hand[0]
Card('3♠')
>>> format_cards("r b 2 10 j")
'TJ2BR'
>>> parse_cards("77777")
Traceback (most recent call last):
...
dizhu.NotationError: too many cards of rank 7: 5 (a deck has 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Union

from .errors import NotationError
from .ranks import CHAIN_TOP, JOKERS, NUM_RANKS, RANK_SYMBOLS, Rank
from .variants import Variant, get_variant

__all__ = [
    "Rank",
    "Suit",
    "Card",
    "Hand",
    "NotationError",
    "RANK_SYMBOLS",
    "NUM_RANKS",
    "CHAIN_TOP",
    "JOKERS",
    "parse_cards",
    "format_cards",
    "format_counts",
    "rank_counts",
    "hand_from_counts",
    "deck",
    "CardsLike",
]


class Suit(IntEnum):
    """Suits exist only to tell physical cards apart; they never rank.

    >>> [s.symbol for s in Suit]
    ['♠', '♥', '♣', '♦']
    """

    SPADES = 0
    HEARTS = 1
    CLUBS = 2
    DIAMONDS = 3

    @property
    def symbol(self) -> str:
        return "♠♥♣♦"[self]


#: Ids 0-51 are the suited cards, rank-major (four suits a rank); the jokers follow.
_SUITS = len(Suit)
_SUITED = int(Rank.BLACK_JOKER) * _SUITS
_FIRST_JOKER_ID = _SUITED
#: Every card there is: 52 suited ones and the two jokers.
_ALL_CARDS = _SUITED + len(JOKERS)



class Card:
    """One physical card.  ``Card.from_id(0)`` is the 3 of spades.

    Cards are interned: there are exactly 54 card objects, so identity,
    equality and hashing are all by id.

    >>> Card.from_id(53), Card.from_id(52).rank
    (Card('R'), <Rank.BLACK_JOKER: 13>)
    >>> Card(Rank.TEN, Suit.HEARTS).id
    29
    """

    __slots__ = ("id", "rank", "suit")
    _all: list["Card"] = []

    id: int
    rank: Rank
    suit: Suit | None

    def __new__(cls, rank: Rank | int, suit: Suit | int | None = None) -> "Card":
        rank = int(rank)
        if rank in JOKERS:
            if suit is not None:
                raise NotationError("jokers have no suit")
            card_id = _FIRST_JOKER_ID + rank - Rank.BLACK_JOKER
        else:
            if suit is None or not 0 <= int(suit) < _SUITS or not 0 <= rank < Rank.BLACK_JOKER:
                raise NotationError(f"no such card: rank {rank}, suit {suit}")
            card_id = rank * _SUITS + int(suit)
        return cls._all[card_id]

    @classmethod
    def from_id(cls, card_id: int) -> "Card":
        """The card with this id (0-51 ordinary cards by rank then suit, 52 B, 53 R)."""
        if not isinstance(card_id, int) or not 0 <= card_id < _ALL_CARDS:
            raise NotationError(f"no card has id {card_id!r}")
        return cls._all[card_id]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __str__(self) -> str:
        if self.suit is None:
            return RANK_SYMBOLS[self.rank]
        return RANK_SYMBOLS[self.rank] + self.suit.symbol

    def __reduce__(self):  # pickle by id so interning survives
        return (Card.from_id, (self.id,))

    def __lt__(self, other: "Card") -> bool:
        return self.id < other.id


def _make_cards() -> None:
    for card_id in range(_ALL_CARDS):
        card = object.__new__(Card)
        card.id = card_id
        if card_id < _SUITED:
            card.rank = Rank(card_id // _SUITS)
            card.suit = Suit(card_id % _SUITS)
        else:
            card.rank = Rank(Rank.BLACK_JOKER + card_id - _FIRST_JOKER_ID)
            card.suit = None
        Card._all.append(card)


_make_cards()


class Hand(tuple):
    """An immutable sequence of cards, with its rank counts computed once.

    ``parse_cards`` returns a Hand; any sequence of cards is accepted wherever
    the library takes cards.  ``str(hand)`` is the canonical notation.

    >>> h = Hand.of("2 B 3 3")
    >>> str(h), len(h), h.counts[0]
    ('332B', 4, 2)
    """

    counts: tuple[int, ...]

    def __new__(cls, cards: Iterable[Card] = ()) -> "Hand":
        self = super().__new__(cls, cards)
        self.counts = rank_counts(self)
        return self

    @classmethod
    def of(cls, cards: "CardsLike", variant: str = "classic") -> "Hand":
        """A Hand from notation text or cards (validated like :func:`parse_cards`)."""
        if isinstance(cards, Hand):
            return cards
        if isinstance(cards, str):
            return parse_cards(cards, variant)
        return _validated_hand(list(cards), variant)

    def __str__(self) -> str:
        return format_counts(self.counts)

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"


CardsLike = Union[str, Sequence[Card]]


def rank_counts(cards: Iterable[Card]) -> tuple[int, ...]:
    """How many cards of each rank, indexed by rank value.

    >>> rank_counts(parse_cards("3 3 R"))[:2], rank_counts(parse_cards("R"))[14]
    ((2, 0), 1)
    """
    counts = [0] * NUM_RANKS
    for card in cards:
        counts[card.rank] += 1
    return tuple(counts)


def format_counts(counts: Sequence[int]) -> str:
    """Canonical notation of a rank-count vector (ascending ranks, ``T`` for ten)."""
    return "".join(RANK_SYMBOLS[r] * n for r, n in enumerate(counts) if n)


def _ranks_in_text(text: str) -> list[int]:
    ranks = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in " +,\t\n":
            i += 1
            continue
        if ch == "1" and i + 1 < n and text[i + 1] == "0":
            ranks.append(int(Rank.TEN))
            i += 2
            continue
        index = RANK_SYMBOLS.find(ch.upper())
        if index < 0:
            raise NotationError(f"unknown card symbol {ch!r} at position {i}", symbol=ch)
        ranks.append(index)
        i += 1
    return ranks


def _check_counts(counts: Sequence[int], variant: str) -> None:
    v = get_variant(variant)
    v.check_in_deck(counts)
    deck = v.deck_counts
    for rank, n in enumerate(counts):
        if n > deck[rank]:
            symbol = RANK_SYMBOLS[rank]
            if rank in JOKERS:
                name = "big (red)" if rank == JOKERS[1] else "small (black)"
                raise NotationError(f"a deck has only one {name} joker, not {n}", symbol=symbol)
            raise NotationError(
                f"too many cards of rank {symbol}: {n} (a deck has {deck[rank]})", symbol=symbol
            )


def parse_cards(text: str, variant: str = "classic") -> Hand:
    """Read card notation into a :class:`Hand`.

    Ranks are ``3-9 T J Q K A 2 B R`` (``10`` for ``T``, any case); spaces,
    ``+`` and ``,`` are ignored.  Suits are assigned in a fixed order, so the
    same text always gives the same cards.  Raises :class:`NotationError` for
    an unknown symbol or more cards of a rank than one deck holds, and
    :class:`~dizhu.errors.InvalidPlay` (``not_in_deck``) for a rank the
    deck of ``variant`` lacks.

    >>> parse_cards("10 J q K a")
    Hand('TJQKA')
    >>> [str(c) for c in parse_cards("33B")]
    ['3♠', '3♥', 'B']
    >>> parse_cards("RR")
    Traceback (most recent call last):
    ...
    dizhu.NotationError: a deck has only one big (red) joker, not 2
    >>> parse_cards("3 5", variant="duel")
    Traceback (most recent call last):
    ...
    dizhu.InvalidPlay: the duel deck has no 3s
    """
    if not isinstance(text, str):
        raise NotationError(f"card notation must be text, not {type(text).__name__}")
    ranks = _ranks_in_text(text)
    counts = [0] * NUM_RANKS
    for rank in ranks:
        counts[rank] += 1
    _check_counts(counts, variant)
    return hand_from_counts(counts)


def deck(variant: "str | Variant" = "classic") -> list[Card]:
    """Every card of the variant's deck, in id order (shuffle a copy to deal).

    >>> len(deck("classic")), len(deck("duel")), str(deck("duel")[0])
    (54, 46, '5♠')
    """
    return list(hand_from_counts(get_variant(variant).deck_counts))


def hand_from_counts(counts: Sequence[int]) -> Hand:
    """The cards of a rank-count vector, suits assigned spades first."""
    cards = []
    for rank, n in enumerate(counts):
        if n:
            if rank >= Rank.BLACK_JOKER:
                cards.append(Card._all[_FIRST_JOKER_ID + rank - Rank.BLACK_JOKER])
            else:
                base = rank * _SUITS
                cards.extend(Card._all[base : base + n])
    return Hand(cards)


def _validated_hand(cards: list, variant: str) -> Hand:
    seen = set()
    for card in cards:
        if not isinstance(card, Card):
            raise NotationError(f"not a card: {card!r}")
        if card.id in seen:
            raise NotationError(f"the same card appears twice: {card}", symbol=str(card))
        seen.add(card.id)
    _check_counts(rank_counts(cards), variant)
    cards.sort()
    return Hand(cards)


def format_cards(cards: "CardsLike") -> str:
    """Canonical notation for cards or notation text.

    >>> format_cards("A 2 3 10")
    '3TA2'
    """
    if isinstance(cards, str):
        cards = parse_cards(cards)
    return format_counts(rank_counts(cards))
