"""Verifiable deals.

Every dealt round comes from a *deal code* such as
``classic-5f0c...``: the variant and a secret seed.  The code's SHA-256 hash
is public from the first moment; the code itself is revealed when the round
is over.  Anyone can then check the hash and re-deal the same cards with the
algorithm below, which is plain and fixed so that other programs can
reproduce it:

- a byte stream: SHA-256 of ``"dizhu-deal|<code>|<deal number>|<block>"``
  for block = 0, 1, 2, ... (deal number 0 is the first deal of the round, 1
  the re-deal after everybody passed, and so on);
- uniform integers below ``n`` by rejection sampling of big-endian 32-bit
  words from the stream;
- a Fisher-Yates shuffle of the deck in card-id order (for i from the last
  index down to 1, swap i with a uniform j <= i); then one more draw below the
  number of players picks the first bidder;
- hands are dealt in blocks: seat 0 takes the first 17 cards, seat 1 the
  next 17, ..., then the bottom 3, then (duel) the 9 undealt cards.

Suits do not count in the rules, so an action that names only ranks (``play
77``, as the computers play) leaves the round to pick which of the seat's
cards go.  Lowest ids first would tell the table that the seat holds none of
the lower suits; instead each card has a secret priority for the deal, the
first 8 bytes (big-endian) of SHA-256 of ``"dizhu-suits|<code>|<deal
number>|<card id>"``, and the cards of each rank go lowest priority first
(:func:`suit_priorities`), listed in id order.  Until the code is revealed the cards played say
nothing of the suits still hidden; after, anyone can check them too.

>>> code = "classic-0123456789abcdef"
>>> deal = deal_cards(code, 0)
>>> [len(h) for h in deal.hands], len(deal.bottom), deal.first in (0, 1, 2)
([17, 17, 17], 3, True)
>>> deal_cards(code, 0) == deal
True
>>> commitment(code)[:16]
'6836319fdee144c9'
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from ..cards import Card, deck as full_deck
from ..variants import Variant, get_variant

__all__ = ["Deal", "deal_cards", "new_deal_code", "commitment", "parse_deal_code", "suit_priorities"]


@dataclass(frozen=True)
class Deal:
    """Hands by seat, the bottom, the undealt cards and the first bidder."""

    hands: tuple[tuple[Card, ...], ...]
    bottom: tuple[Card, ...]
    undealt: tuple[Card, ...]
    first: int


class _Stream:
    def __init__(self, material: str) -> None:
        self.material = material
        self.block = 0
        self.buffer = b""

    def word(self) -> int:
        if len(self.buffer) < 4:
            data = f"{self.material}|{self.block}".encode()
            self.buffer += hashlib.sha256(data).digest()
            self.block += 1
        value = int.from_bytes(self.buffer[:4], "big")
        self.buffer = self.buffer[4:]
        return value

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        limit = (1 << 32) - (1 << 32) % n
        while True:
            value = self.word()
            if value < limit:
                return value % n


def new_deal_code(variant: "str | Variant") -> str:
    """A fresh deal code from an unpredictable source (``secrets``)."""
    return f"{get_variant(variant).name}-{secrets.token_hex(16)}"


def parse_deal_code(code: str) -> Variant:
    """The variant a deal code belongs to; ValueError if it is not a deal code."""
    if not isinstance(code, str) or "-" not in code or len(code) > 200:
        raise ValueError(f"not a deal code: {code!r}")
    name, _, seed = code.partition("-")
    if not seed:
        raise ValueError(f"not a deal code: {code!r}")
    return get_variant(name)


def commitment(code: str) -> str:
    """The public hash of a deal code (hex SHA-256)."""
    return hashlib.sha256(code.encode()).hexdigest()


def deal_cards(code: str, number: int = 0) -> Deal:
    """Deal number ``number`` of the round with this deal code."""
    variant = parse_deal_code(code)
    stream = _Stream(f"dizhu-deal|{code}|{number}")
    deck = full_deck(variant)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    first = stream.below(variant.players)
    size = variant.hand_size
    hands = tuple(tuple(sorted(deck[s * size : (s + 1) * size])) for s in range(variant.players))
    dealt = variant.players * size
    bottom = tuple(sorted(deck[dealt : dealt + variant.bottom_size]))
    undealt = tuple(sorted(deck[dealt + variant.bottom_size :]))
    return Deal(hands, bottom, undealt, first)


def suit_priorities(code: str, number: int = 0) -> list[int]:
    """Each card id's secret priority in deal number ``number`` of this code (see above),
    indexed by id over the whole 54-card deck.

    >>> p = suit_priorities("classic-0123456789abcdef")
    >>> len(p), len(set(p)) == len(p), p == suit_priorities("classic-0123456789abcdef", 1)
    (54, True, False)
    """
    parse_deal_code(code)
    return [int.from_bytes(hashlib.sha256(f"dizhu-suits|{code}|{number}|{card_id}".encode()).digest()[:8], "big")
            for card_id in range(len(full_deck()))]
