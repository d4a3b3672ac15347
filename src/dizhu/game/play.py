"""The play phase as one state over rank counts: whose turn, the trick, the hands, the winner, the value.

Every part of the project that plays the phase out calls this one state: :class:`dizhu.Round`
applies its plays through it, the bots' simulations copy and advance it, the exact solver's
positions step through it, the reading replays a round's plays on it and the environments read
the hands from it.  It knows the cards by rank only (the suits are :class:`~dizhu.Round`'s
business) and the rules through :mod:`dizhu.rules`.

:meth:`PlayState.apply` does not check legality: a caller that takes moves from outside checks
them first (as :class:`~dizhu.Round` does); the simulations only play moves that
:meth:`PlayState.legal_plays` gave them.

>>> from dizhu.cards import parse_cards
>>> from dizhu.combos import classify
>>> state = PlayState.opening("classic", [parse_cards(h).counts for h in ("33 4", "5", "6 7")], landlord=0)
>>> [str(m) for m in state.legal_plays()]
['3', '33', '4']
>>> state.apply(classify("33")), state.to_act, state.last[0]
(None, 1, 0)
>>> state.apply(None), state.apply(None), state.to_act, state.last   # both farmers pass: the trick is over
(None, None, 0, None)
>>> state.apply(classify("4")), state.value(0, seat=0)   # the landlord plays out; no farmer played: spring
(0, 2.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add, sub

from ..cards import NUM_RANKS
from ..combos import Combo
from ..moves import moves_from_counts
from ..rules import has_won, next_seat, same_side, spring, trick_over
from ..variants import Variant, get_variant

__all__ = ["PlayState"]


class PlayState:
    """A round in its play phase, every hand known, as rank counts.

    ``hands[s]`` is seat s's rank counts (lists, changed in place by :meth:`apply`); ``left[s]``
    its number of cards; ``played`` the ranks played by all seats so far; ``last`` the
    ``(seat, combo)`` to beat, None when ``to_act`` leads; ``passes`` the passes since it;
    ``plays_made`` each seat's plays (spring reads them); ``doublings`` the bombs and rockets
    played; ``handicap`` the cards at which a farmer wins (the duel's robs; 0 in classic);
    ``winner`` the seat that played out, once one has.
    """

    __slots__ = ("hands", "players", "landlord", "handicap", "to_act", "last",
                 "passes", "left", "played", "deck", "plays_made", "doublings", "winner")

    def __init__(self, variant: "str | Variant", hands: Sequence[list[int]], landlord: int, handicap: int = 0,
                 to_act: int | None = None, last: "tuple[int, Combo] | None" = None, passes: int = 0,
                 played: Sequence[int] | None = None, plays_made: Sequence[int] | None = None,
                 doublings: int = 0, left: Sequence[int] | None = None) -> None:
        v = get_variant(variant)
        if len(hands) != v.players:
            raise ValueError(f"{v.players} hands expected, got {len(hands)}")
        self.hands = list(hands)
        self.players = v.players
        self.landlord = landlord
        self.handicap = handicap
        self.to_act = landlord if to_act is None else to_act
        self.last = last
        self.passes = passes
        self.left = [sum(h) for h in hands] if left is None else list(left)
        self.deck = v.deck_counts
        self.played = [0] * NUM_RANKS if played is None else list(played)
        self.plays_made = [0] * v.players if plays_made is None else list(plays_made)
        self.doublings = doublings
        self.winner: int | None = None

    @classmethod
    def opening(cls, variant: "str | Variant", hands: Sequence[Sequence[int]], landlord: int,
                handicap: int = 0) -> "PlayState":
        """The first lead: the landlord (holding the bottom) to play, nothing played yet."""
        return cls(variant, [list(h) for h in hands], landlord, handicap)

    def copy(self) -> "PlayState":
        """An independent copy (the hands copied too)."""
        other = object.__new__(type(self))
        other.hands = [h[:] for h in self.hands]
        # one by one: a loop over the names costs a third of a simulation's copying
        other.players = self.players
        other.landlord = self.landlord
        other.handicap = self.handicap
        other.to_act = self.to_act
        other.last = self.last
        other.passes = self.passes
        other.deck = self.deck
        other.doublings = self.doublings
        other.winner = self.winner
        other.left = self.left[:]
        other.played = self.played[:]
        other.plays_made = self.plays_made[:]
        return other

    def legal_plays(self) -> list[Combo | None]:
        """The moves of the seat to act (None: the pass, first, when there is a play to beat)."""
        if self.winner is not None:
            return []
        hand = self.hands[self.to_act]
        if self.last is None:
            return list(moves_from_counts(hand))
        return [None, *moves_from_counts(hand, self.last[1])]

    def apply(self, combo: Combo | None) -> int | None:
        """Play ``combo`` (None: pass) for the seat to act; the winner's seat if it ends the round.

        The move is not checked (see the module's docstring).  After a win ``to_act`` stays the
        winner's seat.
        """
        seat = self.to_act
        if combo is None:
            self.passes += 1
            if trick_over(self.passes, self.players):
                self.to_act = self.last[0]
                self.last = None
                self.passes = 0
            else:
                self.to_act = next_seat(seat, self.players)
            return None
        hand = self.hands[seat]
        counts = combo.counts
        hand[:] = map(sub, hand, counts)  # in place: C loops, not Python ones
        self.played[:] = map(add, self.played, counts)
        self.left[seat] -= combo.size
        self.plays_made[seat] += 1
        if combo.is_bomb:
            self.doublings += 1
        self.last = (seat, combo)
        self.passes = 0
        if has_won(self.left[seat], seat, self.landlord, self.handicap):
            self.winner = seat
            return seat
        self.to_act = next_seat(seat, self.players)
        return None

    def spring(self, winner: int) -> str | None:
        """``"spring"``, ``"anti_spring"`` or None, once ``winner`` has played out."""
        return spring(winner == self.landlord, self.plays_made, self.landlord)

    def value(self, winner: int, seat: int) -> float:
        """Points for ``seat``'s side once ``winner`` has played out, at a stake of 1: each bomb
        and rocket played doubles them, and a spring or anti-spring once more."""
        score = float(1 << (self.doublings + (self.spring(winner) is not None)))
        return score if same_side(seat, winner, self.landlord) else -score

    def unseen_by(self, seat: int) -> tuple[int, ...]:
        """The ranks ``seat`` has not seen: the deck less everything played and its own hand."""
        return tuple(map(sub, map(sub, self.deck, self.played), self.hands[seat]))

    def __repr__(self) -> str:
        return (f"PlayState(to_act={self.to_act}, landlord={self.landlord}, left={self.left}, "
                f"last={None if self.last is None else (self.last[0], str(self.last[1]))}, passes={self.passes})")
