"""A match: rounds in a row with running totals (RULES.md §5, match).

Everyone starts at 0, each round's points are added to each seat's own
total, and the match ends after the round in which anyone reaches the
variant's ``match_target`` (classic: 30; two farmers reaching it together win
together).  Duel has no target: its totals run on.

>>> m = Match("classic", seed="doc")
>>> m.totals, m.round.phase
([0, 0, 0], 'bidding')
>>> m.new_game()          # abandons the round: it scores nothing
>>> m.totals, m.abandoned
([0, 0, 0], 1)
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import IllegalAction
from ..variants import Variant, get_variant
from .actions import Action
from .events import DealEvent
from .observation import EARLIER_KEPT
from .round import Round

__all__ = ["Match", "recall"]


def recall(earlier: list[dict[str, Any]], finished: Round) -> list[dict[str, Any]]:
    """``earlier`` with the ``finished`` round's record added: the latest ``EARLIER_KEPT``."""
    return [*earlier, finished.record()][-EARLIER_KEPT:]


class Match:
    """Running totals over rounds, with another round / new game / new match.

    ``seed`` makes every deal reproducible (round ``n`` is dealt from
    ``f"{seed}.{n}"``); without it each deal comes from ``secrets``.
    """

    def __init__(
        self,
        variant: "str | Variant" = "classic",
        *,
        target: int | None | str = "default",
        seed: str | None = None,
    ) -> None:
        self.variant = get_variant(variant)
        if target == "default":
            target = self.variant.match_target
        self.target: int | None = target  # type: ignore[assignment]
        self.seed = seed
        self.totals = [0] * self.variant.players
        #: The rounds finished and not yet taken by :meth:`take_finished`: an outbox.
        self.finished: list[dict[str, Any]] = []
        self.abandoned = 0
        self.winners: list[int] = []
        self._dealt = 0
        self._match_start = 0  # deals made before this match began
        #: The latest finished rounds at this table (:meth:`Round.record`), kept across new
        #: matches and new games: the players are the same, and so is how they play.
        self.earlier: list[dict[str, Any]] = []
        #: The numbers of the rounds dealt from a code a player chose (:meth:`deal_known`).
        self.known: list[int] = []
        self.round = self._next_round()

    def deal_known(self, code: str) -> None:
        """Replace the round just dealt, before anyone acted, with the deal of ``code``.

        Whoever chose the code can work out every hand, the bottom and the undealt cards, so the
        round is marked a known deal (:attr:`known_deal`, ``"known_deal"`` in its finished record):
        fit for replaying a deal, never for a record of wins, nor for a table where another
        person plays.

        >>> m = Match("duel", seed="doc")
        >>> m.deal_known("duel-chosen"); m.known_deal, m.round.deal_hash == Round.from_code("duel-chosen").deal_hash
        (True, True)
        >>> m.apply(m.round.to_act, "call"); m.deal_known("duel-chosen")
        Traceback (most recent call last):
        dizhu.IllegalAction: the round is still being played
        """
        round_ = Round.from_code(code)
        if round_.variant.name != self.variant.name:
            raise ValueError(f"this deal code is for {round_.variant.name}, not {self.variant.name}")
        if any(not isinstance(event, DealEvent) for event in self.round.log):
            raise IllegalAction("round_in_progress")
        self.round = round_
        if self._dealt not in self.known:
            self.known.append(self._dealt)

    @property
    def known_deal(self) -> bool:
        """Whether the round on the table was dealt from a code a player chose."""
        return self._dealt in self.known

    def _next_round(self) -> Round:
        self._dealt += 1
        seed = None if self.seed is None else f"{self.seed}.{self._dealt}"
        return Round.deal(self.variant, seed=seed)

    @property
    def over(self) -> bool:
        """True once someone has reached the target (classic)."""
        return bool(self.winners)

    @property
    def round_number(self) -> int:
        """How many rounds have been dealt in this game (the current one included): it
        keeps counting across new matches and abandoned deals, so it names a round."""
        return self._dealt

    @property
    def match_round(self) -> int:
        """Which round of the current match this is: abandoned deals and earlier
        matches do not count.

        >>> m = Match("classic", seed="doc")
        >>> m.new_game(); m.match_round, m.round_number
        (1, 2)
        >>> m.new_match(); m.match_round, m.round_number
        (1, 3)
        """
        return self._dealt - self._match_start - self.abandoned

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know: the round's observation, with the table's ``earlier`` rounds
        (what the computers read the other players by; nothing in them is hidden any more).

        >>> m = Match("duel", seed="recall")
        >>> while m.round.result is None:
        ...     m.apply(m.round.to_act, m.round.legal_actions()[0])
        >>> m.another_round()
        >>> [e["landlord"] for e in m.observation(1)["earlier"]], m.round.observation(1)["earlier"]
        ([1], [])
        """
        observation = self.round.observation(seat)
        observation["earlier"] = self.earlier[:]
        return observation

    def apply(self, seat: int, action: "Action | str") -> None:
        """Apply an action to the current round; settle the totals when it ends."""
        self.round.apply(seat, action)
        if self.round.result is not None:
            self._settle()

    def _settle(self) -> None:
        result = self.round.result
        for seat, points in enumerate(result.points):
            self.totals[seat] += points
        self.earlier = recall(self.earlier, self.round)
        self.finished.append(
            {
                "number": self._dealt,
                "deal_code": self.round.deal_code,
                "deal_hash": self.round.deal_hash,
                "result": result.to_dict(),
                "totals": list(self.totals),
                "events": self.round.events,
                **({"known_deal": True} if self.known_deal else {}),
            }
        )
        if self.target is not None:
            self.winners = [s for s, t in enumerate(self.totals) if t >= self.target]

    def take_finished(self) -> list[dict[str, Any]]:
        """Empty the outbox of finished rounds and return what it held, oldest first.

        Whoever keeps the finished rounds elsewhere (the server: a table of
        its own) takes them before saving the match, so the saved match
        stays small however long it runs; the totals are not affected.

        >>> m = Match("duel", seed="outbox")
        >>> while m.round.result is None:
        ...     m.apply(m.round.to_act, m.round.legal_actions()[0])
        >>> [r["number"] for r in m.take_finished()], m.finished
        ([1], [])
        """
        taken, self.finished = self.finished, []
        return taken

    def another_round(self) -> None:
        """Deal the next round, keeping the totals.  Only after a round is over."""
        if self.round.result is None:
            raise IllegalAction("round_in_progress")
        if self.over:
            raise IllegalAction("match_over")
        self.round = self._next_round()

    def new_game(self) -> None:
        """Abandon the current round (it scores nothing) and deal again."""
        if self.over:
            raise IllegalAction("match_over")
        if self.round.result is None:
            self.abandoned += 1
        self.round = self._next_round()

    def new_match(self) -> None:
        """Reset every total to 0 and deal a new round (the outbox of finished rounds keeps
        what it holds: :meth:`take_finished` still returns the last match's unclaimed rounds)."""
        self.totals = [0] * self.variant.players
        self.winners = []
        self.abandoned = 0
        self._match_start = self._dealt
        self.round = self._next_round()

    def to_json(self) -> str:
        """Everything, the current round's hidden cards included: for storage only."""
        return json.dumps(
            {
                "format": "dizhu-match",
                "version": 1,
                "variant": self.variant.name,
                "target": self.target,
                "seed": self.seed,
                "totals": self.totals,
                "finished": self.finished,
                "abandoned": self.abandoned,
                "winners": self.winners,
                "dealt": self._dealt,
                "match_start": self._match_start,
                "earlier": self.earlier,
                **({"known": self.known} if self.known else {}),  # (saved games without it stay as they were)
                "round": json.loads(self.round.to_json()),
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: "str | bytes") -> "Match":
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != "dizhu-match" or data.get("version") != 1:
            raise ValueError("not a saved dizhu match")
        self = cls.__new__(cls)
        self.variant = get_variant(data["variant"])
        self.target = data["target"]
        self.seed = data["seed"]
        self.totals = list(data["totals"])
        self.finished = list(data["finished"])
        self.abandoned = data["abandoned"]
        self.winners = list(data["winners"])
        self._dealt = data["dealt"]
        self._match_start = data.get("match_start", 0)  # saved before it was kept: from 0
        self.earlier = list(data.get("earlier", []))  # saved before it was kept: none
        self.known = list(data.get("known", []))
        self.round = Round.from_json(data["round"])
        return self
