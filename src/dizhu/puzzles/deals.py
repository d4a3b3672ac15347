"""Endgame positions from seeded rounds, for the puzzle tool and the solver's benchmark.

A round is dealt from a seed, bid and played by intermediate computer
players until at most a given number of cards remain in all hands; the
position at that moment, with every hand face up, is the result.

>>> p = position_at("classic", "doc-1", cards=40)
>>> p.cards <= 40, p.variant.name
(True, 'classic')
"""

from __future__ import annotations

from ..bots import create
from ..game import Round
from ..game.round import OVER, PLAYING
from ..solver import Position
from ..variants import get_variant

__all__ = ["position_at"]


def position_at(variant: str, seed: "str | int", cards: int, level: str = "intermediate") -> Position | None:
    """The first position of the seeded round with at most ``cards`` in all hands.

    None when the round ends before (or nobody bids and the deal is thrown in
    repeatedly: the bidding then redeals by the rules, which is fine too).
    """
    v = get_variant(variant)
    round_ = Round.deal(v, seed=seed)
    bots = [create(level, v, seed=f"{seed}/{s}") for s in range(v.players)]
    while round_.phase != OVER:
        if round_.phase == PLAYING and sum(round_.cards_left) <= cards:
            return Position.from_round(round_)
        seat = round_.to_act
        round_.apply(seat, bots[seat].decide(round_.observation(seat)))
    return None
