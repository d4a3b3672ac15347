"""The two rule variants, as data.

Everything that differs between classic (three players) and duel (two
players) lives here, so the engine has no ``if variant == ...`` scattered
through it.

>>> CLASSIC.players, CLASSIC.deck_size, DUEL.deck_size, DUEL.undealt
(3, 54, 46, 9)
>>> get_variant("duel").chain_bottom
<Rank.FIVE: 2>
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .cards import NUM_RANKS, Rank

__all__ = ["Variant", "CLASSIC", "DUEL", "VARIANTS", "get_variant"]


@dataclass(frozen=True)
class Variant:
    """One set of rules: deck, deal, bidding style, trick and end conditions.

    >>> DUEL.passes_to_end_trick, CLASSIC.passes_to_end_trick, DUEL.landlord_hand_size
    (1, 2, 20)
    """

    name: str
    players: int
    #: The lowest rank in the deck; chains start no lower than this.
    lowest_rank: Rank
    hand_size: int
    bottom_size: int
    #: Cards left out of the deal and never revealed (duel only).
    undealt: int
    #: ``"points"`` (classic 1-2-3) or ``"rob"`` (duel call/rob).
    bidding: str
    #: Most robs allowed in call/rob bidding.
    max_robs: int = 0

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

    @property
    def chain_bottom(self) -> Rank:
        return self.lowest_rank

    @property
    def passes_to_end_trick(self) -> int:
        """Passes in a row after a play that hand the lead back to its player."""
        return self.players - 1

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
    bidding="points",
)

DUEL = Variant(
    name="duel",
    players=2,
    lowest_rank=Rank.FIVE,
    hand_size=17,
    bottom_size=3,
    undealt=9,
    bidding="rob",
    max_robs=4,
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
