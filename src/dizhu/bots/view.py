"""What a bot knows, read from an observation into fast structures.

A bot receives only ``round.observation(seat)``.  :class:`View` turns that
dict into rank-count vectors and a few derived facts (roles, the play to
beat, the cards still unseen).  It never reads anything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import NUM_RANKS, parse_cards
from ..combos import Combo, classify
from ..variants import Variant, get_variant

__all__ = ["View", "counts_of"]


def counts_of(text: str | None) -> list[int]:
    if not text:
        return [0] * NUM_RANKS
    return list(parse_cards(text).counts)


@dataclass
class View:
    """One seat's knowledge, in the shapes the bots compute with."""

    variant: Variant
    seat: int
    players: int
    phase: str
    hand: list[int]
    cards_left: list[int]
    landlord: int | None
    #: (seat, combo) of the play to beat, or None when leading.
    last: tuple[int, Combo] | None
    #: Cards not in this hand and not yet played (the card counter).
    unseen: list[int]
    #: Revealed bottom cards the landlord still holds (known to everyone).
    bottom_left: list[int]
    handicap: int
    #: Passes in a row since the play to beat.
    passes: int
    #: Bombs and rockets played so far (each doubles the score).
    doublings: int
    legal: list[str]
    history: list[list[Any]]
    #: The bidding of this deal: [seat, action] in order.
    bids: list[list[Any]]
    #: The revealed bottom cards (all zero before they are revealed).
    bottom: list[int]
    plays_made: list[int]
    #: The earlier rounds at the table (``EarlierRound`` JSON, oldest first; none for a lone round).
    earlier: list[dict[str, Any]]

    @classmethod
    def of(cls, obs: dict[str, Any]) -> "View":
        variant = get_variant(obs["variant"])
        hand = counts_of(obs["hand"])
        played = counts_of(obs["played"])
        deck = variant.deck_counts
        unseen = [deck[r] - hand[r] - played[r] for r in range(NUM_RANKS)]
        last = None
        trick_last = obs["trick"]["last"]
        if trick_last is not None:
            last = (trick_last[0], classify(trick_last[1]))
        bottom_left = [0] * NUM_RANKS
        landlord = obs["landlord"]
        bottom = counts_of(obs["bottom"])
        if landlord is not None and landlord != obs["seat"] and obs["bottom"]:
            # bottom cards the landlord has not played yet are known to be in its hand
            landlord_played = [0] * NUM_RANKS
            for seat, text in obs["history"]:
                if seat == landlord and text != "pass":
                    for r, n in enumerate(counts_of(text)):
                        landlord_played[r] += n
            bottom_left = [max(0, bottom[r] - landlord_played[r]) for r in range(NUM_RANKS)]
        return cls(
            variant=variant,
            seat=obs["seat"],
            players=obs["players"],
            phase=obs["phase"],
            hand=hand,
            cards_left=list(obs["cards_left"]),
            landlord=landlord,
            last=last,
            unseen=unseen,
            bottom_left=bottom_left,
            handicap=obs["handicap"] or 0,  # classic: no handicap line, farmers play out
            passes=obs["trick"]["passes"],
            doublings=obs["multiplier"]["bombs"] + obs["multiplier"]["rockets"],
            legal=list(obs["legal_actions"]),
            history=obs["history"],
            bids=obs["bids"],
            bottom=bottom,
            plays_made=list(obs["plays_made"]),
            earlier=obs.get("earlier") or [],  # an observation from another source may lack it
        )
