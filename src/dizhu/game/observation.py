"""What one seat may know of a round: the observation, typed.

This is the contract between the engine and everyone who plays: the bots
(``bot.decide(round.observation(seat))``), the server's view (docs/API.md,
"The View": ``observation``), the browser and the environments.  The field
list of :class:`Observation` is the one description of it; docs/API.md
points here and the OpenAPI schema is built from it.

``Round.observe(seat)`` gives an :class:`Observation`; ``to_dict()`` is its
JSON, which ``Round.observation(seat)`` builds directly (every computer
decision asks for it); ``Observation.from_dict`` reads the JSON back.
``tests/test_contracts.py`` holds the three to one another.

Nothing hidden is in it: the seat's own hand, never another's; the bottom
only once the landlord has taken it; never the duel's undealt cards.

>>> from dizhu import Round
>>> obs = Round.deal("duel", seed="doc").observe(1)
>>> obs.phase, obs.seat, len(obs.hand_ids), obs.bottom, obs.legal_actions
('bidding', 1, 17, None, ())
>>> Observation.from_dict(obs.to_dict()) == obs
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Optional

from .events import Result, frozen

__all__ = ["Observation", "TrickState", "Multiplier", "EarlierRound", "PHASES", "EARLIER_KEPT"]

#: The phases of a round, in order.
PHASES = ("bidding", "playing", "over")
#: How many of the table's finished rounds an observation recalls (the latest).
EARLIER_KEPT = 8


@dataclass(frozen=True)
class TrickState:
    """The trick under way: ``last`` is ``(seat, play)`` to beat (None: the seat to act leads);
    ``passes`` the passes since it."""

    last: Optional[tuple[int, str]]
    passes: int


@dataclass(frozen=True)
class Multiplier:
    """The score multiplier so far: the bidding's ``base`` (the bid, or 2^robs), ``robs``
    (call/rob bidding, else None), the bombs and rockets played, and their product ``total``
    (spring is counted only at the settlement)."""

    base: int
    robs: Optional[int]
    bombs: int
    rockets: int
    total: int


@dataclass(frozen=True)
class EarlierRound:
    """A finished round at the same table, as everyone saw it at its end: ``hands`` each seat's
    cards when the play began (the landlord's with the bottom), ``bottom`` the bottom, the
    ``bids`` and the ``history`` in order, the ``handicap`` (duel robs) and each seat's
    ``points``.  All of it was public once the round was over (its settlement shows every hand).
    """

    landlord: int
    hands: tuple[str, ...]
    bottom: str
    bids: tuple[tuple[int, str], ...]
    history: tuple[tuple[int, str], ...]
    handicap: Optional[int]
    points: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"landlord": self.landlord, "hands": list(self.hands), "bottom": self.bottom,
                "bids": [list(b) for b in self.bids], "history": [list(h) for h in self.history],
                "handicap": self.handicap, "points": list(self.points)}


@dataclass(frozen=True)
class Observation:
    """Exactly what ``seat`` may know.  Lists are tuples here and lists in :meth:`to_dict`.

    ``hand`` is notation and ``hand_ids`` card ids; ``cards_left`` every
    seat's count; ``bids`` the bidding's ``(seat, action)``; ``bottom`` and
    ``bottom_ids`` once the landlord took them; ``history`` every
    ``(seat, play or "pass")`` of the play; ``played`` every card played so
    far; ``plays_made`` each seat's plays; ``handicap`` the duel farmer's
    handicap line (None in points bidding); ``legal_actions`` the seat's own
    actions, only when it is to act; ``result`` and ``deal_code`` once the
    round is over; ``earlier`` the latest finished rounds at this table (at most
    ``EARLIER_KEPT``, oldest first): :meth:`Match.observation <dizhu.game.Match.observation>`
    fills it, a lone round's observation has none.
    """

    variant: str
    seat: int
    players: int
    phase: Literal["bidding", "playing", "over"]
    to_act: Optional[int]
    hand: str
    hand_ids: tuple[int, ...]
    cards_left: tuple[int, ...]
    first: int
    bids: tuple[tuple[int, str], ...]
    landlord: Optional[int]
    bottom: Optional[str]
    bottom_ids: Optional[tuple[int, ...]]
    history: tuple[tuple[int, str], ...]
    played: str
    trick: TrickState
    plays_made: tuple[int, ...]
    multiplier: Multiplier
    handicap: Optional[int]
    deal_hash: Optional[str]
    legal_actions: tuple[str, ...]
    result: Optional[Result]
    deal_code: Optional[str]
    earlier: tuple[EarlierRound, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready dict (``Round.observation(seat)``), keys in the order above."""
        # Written out rather than walked generically: every bot decision and every view pays for it.
        trick, multiplier, bottom_ids = self.trick, self.multiplier, self.bottom_ids
        return {
            "variant": self.variant,
            "seat": self.seat,
            "players": self.players,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": self.hand,
            "hand_ids": list(self.hand_ids),
            "cards_left": list(self.cards_left),
            "first": self.first,
            "bids": [list(b) for b in self.bids],
            "landlord": self.landlord,
            "bottom": self.bottom,
            "bottom_ids": None if bottom_ids is None else list(bottom_ids),
            "history": [list(h) for h in self.history],
            "played": self.played,
            "trick": {"last": None if trick.last is None else list(trick.last), "passes": trick.passes},
            "plays_made": list(self.plays_made),
            "multiplier": {"base": multiplier.base, "robs": multiplier.robs, "bombs": multiplier.bombs,
                           "rockets": multiplier.rockets, "total": multiplier.total},
            "handicap": self.handicap,
            "deal_hash": self.deal_hash,
            "legal_actions": list(self.legal_actions),
            "result": None if self.result is None else self.result.to_dict(),
            "deal_code": self.deal_code,
            "earlier": [e.to_dict() for e in self.earlier],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Observation":
        """Read the JSON of :meth:`to_dict` back; unknown or missing keys raise TypeError."""
        values = {k: frozen(v) for k, v in data.items()}
        trick = data.get("trick")
        if isinstance(trick, Mapping):
            values["trick"] = TrickState(frozen(trick.get("last")), trick.get("passes"))
        multiplier = data.get("multiplier")
        if isinstance(multiplier, Mapping):
            values["multiplier"] = Multiplier(**multiplier)
        if isinstance(data.get("earlier"), list):
            values["earlier"] = tuple(EarlierRound(**{k: frozen(v) for k, v in e.items()}) for e in data["earlier"])
        if isinstance(data.get("result"), Mapping):
            values["result"] = Result.from_dict(data["result"])
        return cls(**values)

