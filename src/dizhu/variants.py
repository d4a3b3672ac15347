"""The two rule variants, as data plus a bidding strategy.

Everything that differs between classic (three players) and duel (two
players) is a field here: numbers (players, deck, deal, match target) and
one :mod:`~dizhu.bidding` style object, which owns the bids, the choice of
landlord, the base factor and the handicap.  The engine, the bots and the
match read these fields and never test a variant's name, so a new variant
is a new :class:`Variant` value (``tests/test_toy_variant.py`` builds one).

>>> CLASSIC.players, CLASSIC.deck_size, DUEL.deck_size, DUEL.undealt
(3, 54, 46, 9)
>>> get_variant("duel").lowest_rank
<Rank.FIVE: 2>
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from collections.abc import Sequence
from typing import Any

from .bidding import BiddingStyle, CallRobBidding, PointsBidding
from .errors import InvalidPlay
from .ranks import NUM_RANKS, RANK_SYMBOLS, Rank

__all__ = ["Variant", "CLASSIC", "DUEL", "VARIANTS", "get_variant"]


@dataclass(frozen=True)
class Variant:
    """One set of rules: deck, deal, bidding style, trick and end conditions.

    >>> DUEL.landlord_hand_size, CLASSIC.deck_counts[:3]
    (20, (4, 4, 4))
    """

    name: str
    players: int
    #: The lowest rank in the deck; chains start no lower than this.
    lowest_rank: Rank
    hand_size: int
    bottom_size: int
    #: Cards left out of the deal and never revealed (duel only).
    undealt: int
    #: How the landlord is chosen: classic 1-2-3 points or duel call/rob.
    bidding: BiddingStyle
    #: A match ends after the round in which a total reaches this (None: totals run on).
    match_target: int | None = None

    @cached_property
    def deck_counts(self) -> tuple[int, ...]:
        """How many cards of each rank the deck holds."""
        return tuple(
            0 if r < self.lowest_rank else (1 if r >= Rank.BLACK_JOKER else 4)
            for r in range(NUM_RANKS)
        )

    @cached_property
    def deck_size(self) -> int:
        return sum(self.deck_counts)

    def check_in_deck(self, counts: Sequence[int]) -> None:
        """Refuse cards of a rank this deck does not hold: the one check for it.

        ``counts`` is a rank-count vector.  Parsing, classifying, listing
        moves and playing all call this, so the reason (``not_in_deck``) and
        the message, which names the rank's symbol, are the same everywhere.

        >>> DUEL.check_in_deck((0, 1) + (0,) * 13)
        Traceback (most recent call last):
        ...
        dizhu.InvalidPlay: the duel deck has no 4s
        """
        # Only the lowest ranks can be missing, so this is a loop of 0 or 2 steps.
        for rank in range(self.lowest_rank):
            if counts[rank]:
                raise InvalidPlay("not_in_deck", variant=self.name, rank=RANK_SYMBOLS[rank])

    def describe(self) -> dict[str, Any]:
        """The rules that tell this variant apart, JSON-ready, for clients.

        >>> d = DUEL.describe()
        >>> d["players"], d["lowest_rank"], d["bidding"], d["handicap"], d["match_target"], sum(d["deck_counts"])
        (2, '5', 'rob', True, None, 46)
        """
        return {
            "name": self.name,
            "players": self.players,
            "lowest_rank": self.lowest_rank.symbol,
            "bidding": self.bidding.name,
            # True: a farmer wins at the handicap (the robs) or fewer cards, not only by playing out
            "handicap": self.bidding.has_handicap,
            "deck_counts": list(self.deck_counts),
            "hand_size": self.hand_size,
            "bottom_size": self.bottom_size,
            "undealt": self.undealt,
            "match_target": self.match_target,
        }

    @property
    def landlord_hand_size(self) -> int:
        return self.hand_size + self.bottom_size


CLASSIC = Variant(
    name="classic",
    players=3,
    lowest_rank=Rank.THREE,
    hand_size=17,
    bottom_size=3,
    undealt=0,
    bidding=PointsBidding(),
    match_target=30,
)

DUEL = Variant(
    name="duel",
    players=2,
    lowest_rank=Rank.FIVE,
    hand_size=17,
    bottom_size=3,
    undealt=9,
    bidding=CallRobBidding(max_robs=4),
)

VARIANTS = {v.name: v for v in (CLASSIC, DUEL)}


def get_variant(variant: "str | Variant") -> Variant:
    """The :class:`Variant` named ``"classic"`` or ``"duel"`` (or the one given).

    >>> get_variant("trio")
    Traceback (most recent call last):
    ...
    ValueError: unknown variant 'trio' (expected 'classic' or 'duel')
    """
    if isinstance(variant, Variant):
        return variant
    try:
        return VARIANTS[variant]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {variant!r} (expected 'classic' or 'duel')") from None
