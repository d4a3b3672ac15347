"""The worlds a seat imagines: deals of the cards it cannot see, and the play state of one.

A world agrees with all the seat knows: its hand, every card played, each player's card count,
the revealed bottom cards the landlord still holds, and in duel the cards that were never dealt
(they are in no one's hand).  How likely a world is, given what the other players did, is the
reading's to say (:mod:`.reading`); here every consistent deal is equally likely.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..cards import NUM_RANKS
from ..game.play import PlayState
from ..variants import Variant
from .policy import Ctx
from .view import View

__all__ = ["sample_world", "Sim"]


def sample_world(view: View, rng: random.Random) -> list[list[int]]:
    """Hands of every seat (own hand as it is) consistent with what ``view`` knows."""
    pool: list[int] = []
    for r in range(NUM_RANKS):
        pool += [r] * (view.unseen[r] - view.bottom_left[r])
    rng.shuffle(pool)
    hands = []
    for s in range(view.players):
        if s == view.seat:
            hands.append(list(view.hand))
            continue
        counts = [0] * NUM_RANKS
        need = view.cards_left[s]
        if s == view.landlord:
            for r in range(NUM_RANKS):
                counts[r] += view.bottom_left[r]
            need -= sum(view.bottom_left)
        for r in pool[:need]:
            counts[r] += 1
        pool = pool[need:]
        hands.append(counts)
    return hands


class Sim(PlayState):
    """The play state (:class:`~dizhu.game.play.PlayState`) of one world a seat imagines: its view,
    with every hand as sampled."""

    __slots__ = ()

    def __init__(self, view: View, hands: list[list[int]]) -> None:
        deck = view.variant.deck_counts
        played = [deck[r] - view.unseen[r] - view.hand[r] for r in range(NUM_RANKS)]
        super().__init__(view.variant, hands, view.landlord, view.handicap, view.seat, view.last, view.passes,
                         played, view.plays_made, view.doublings)

    @classmethod
    def opening(cls, variant: "str | Variant", hands: Sequence[Sequence[int]], landlord: int,
                handicap: int = 0) -> "Sim":
        """The round at its first lead: the landlord (holding the bottom) to play, nothing played."""
        sim = object.__new__(cls)
        PlayState.__init__(sim, variant, [list(h) for h in hands], landlord, handicap)
        return sim

    def ctx(self) -> Ctx:
        """What the seat to act knows here, as the policies read it."""
        seat = self.to_act
        return Ctx(tuple(self.hands[seat]), seat, self.players, self.landlord, self.left, self.last,
                   self.unseen_by(seat), self.handicap)
