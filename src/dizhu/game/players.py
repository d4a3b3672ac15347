"""The player interface shared by bots, the site and the terminal.

A player is anything with ``decide(observation) -> action``: it receives
``round.observation(seat)`` and nothing else, and answers with an action
(an :class:`~dizhu.game.actions.Action` or its text).

>>> from dizhu.game import Round
>>> r = Round.deal("classic", seed="doc")
>>> players = [RandomPlayer(seed=s) for s in range(3)]
>>> result = play_round(r, players)
>>> sum(result.points)
0
"""

from __future__ import annotations

import random
from typing import Any, Protocol, Sequence, runtime_checkable

from .actions import Action
from .round import Result, Round

__all__ = ["Player", "RandomPlayer", "play_round"]


@runtime_checkable
class Player(Protocol):
    """Decides an action from what its seat may know."""

    def decide(self, observation: dict[str, Any]) -> "Action | str":  # pragma: no cover
        ...


class RandomPlayer:
    """Chooses uniformly among the legal actions (a baseline, and for tests)."""

    def __init__(self, seed: "int | str | None" = None) -> None:
        self._rng = random.Random(seed)

    def decide(self, observation: dict[str, Any]) -> str:
        return self._rng.choice(observation["legal_actions"])


def play_round(round_: Round, players: Sequence[Player]) -> Result:
    """Drive ``round_`` to its end, asking each seat's player in turn."""
    while round_.result is None:
        seat = round_.to_act
        round_.apply(seat, players[seat].decide(round_.observation(seat)))
    return round_.result
