"""The fifteen ranks and their one-character symbols (RULES.md §1).

Ranks are small integers in playing order, so comparing two ranks is comparing
two ints.  This module sits below both :mod:`dizhu.cards` and
:mod:`dizhu.variants`, which is what keeps those two free of an import cycle.

>>> Rank.from_symbol("q"), Rank.TWO.symbol, RANK_SYMBOLS[Rank.TEN]
(<Rank.QUEEN: 9>, '2', 'T')
"""

from __future__ import annotations

from enum import IntEnum

from .errors import NotationError

__all__ = ["Rank", "RANK_SYMBOLS", "NUM_RANKS", "CHAIN_TOP", "JOKERS", "RANK_UNITS"]


class Rank(IntEnum):
    """The fifteen ranks, weakest first.  ``int(rank)`` is its strength."""

    THREE = 0
    FOUR = 1
    FIVE = 2
    SIX = 3
    SEVEN = 4
    EIGHT = 5
    NINE = 6
    TEN = 7
    JACK = 8
    QUEEN = 9
    KING = 10
    ACE = 11
    TWO = 12
    BLACK_JOKER = 13
    RED_JOKER = 14

    @property
    def symbol(self) -> str:
        """The one-character notation: ``Rank.TEN.symbol == 'T'``."""
        return RANK_SYMBOLS[self]

    @classmethod
    def from_symbol(cls, symbol: str) -> "Rank":
        """Read one rank symbol (``'T'``, ``'10'``, ``'q'``, ``'B'`` ...).

        >>> Rank.from_symbol("10")
        <Rank.TEN: 7>
        """
        key = symbol.upper()
        if key == "10":
            return cls.TEN
        try:
            return cls(RANK_SYMBOLS.index(key))
        except ValueError:
            raise NotationError(f"unknown card symbol {symbol!r}", symbol=symbol) from None


#: Notation symbols indexed by rank value.
RANK_SYMBOLS = "3456789TJQKA2BR"
NUM_RANKS = 15
#: The highest rank a chain (straight, pair chain, plane body) may reach.
CHAIN_TOP = int(Rank.ACE)
#: Ranks that occur once per deck.
JOKERS = (int(Rank.BLACK_JOKER), int(Rank.RED_JOKER))
#: One card of each rank in a hand key, which packs a hand's counts 3 bits a
#: rank (at most 4 cards fit): the key of counts ``c`` is ``sum(n * u)``.
RANK_UNITS = tuple(1 << (3 * r) for r in range(NUM_RANKS))
