"""Bot players by level, and the hint for a human seat."""

from __future__ import annotations

import hashlib
import random
import time
from typing import Any

from ..game.observation import Observation
from ..variants import Variant, get_variant
from .advice import HINT_BUDGET, cards_for, suggestions
from .bidding import decide_bid
from .bidsearch import search_bid
from .policy import Ctx, Decision, intermediate_move, normal_move
from .search import SUPER_HARD, SearchConfig, search_move
from .view import View

__all__ = ["LEVELS", "BotPlayer", "create", "hint"]

#: The three levels, weakest first (普通 / 中級 / 超難).
LEVELS = ("normal", "intermediate", "super-hard")


def _as_dict(observation: "dict[str, Any] | Observation") -> dict[str, Any]:
    """A bot reads the observation's JSON form; the typed one is accepted and read as it."""
    return observation if isinstance(observation, dict) else observation.to_dict()


def _observation_seed(observation: dict[str, Any], seed: int | str | None) -> int:
    """A per-decision seed: the bot's seed mixed with what it sees.

    So a decision is a deterministic function of (observation, seed).
    """
    material = repr((seed, observation["hand"], observation["history"], observation["bids"],
                     observation["to_act"], observation["phase"])).encode()
    return int.from_bytes(hashlib.sha256(material).digest()[:8], "big")


class BotPlayer:
    """A computer player: ``decide(observation) -> action text``.

    ``budget`` is the thinking time per decision in seconds (super-hard only),
    counted in simulated decisions, so a decision does not depend on the
    machine's speed.  ``time_limit`` is a wall-clock cap on top, a safety net
    for a server that must answer in time on a loaded machine: when it cuts
    a search short, the decision does depend on the machine's load.
    ``config`` is how super-hard models the other players (benchmarks ablate it).
    """

    def __init__(self, level: str, variant: "str | Variant" = "classic", seed: int | str | None = None,
                 budget: float | None = None, time_limit: float | None = None,
                 config: SearchConfig = SUPER_HARD) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (expected one of {', '.join(LEVELS)})")
        self.level = level
        self.variant = get_variant(variant)  # an unknown variant fails here, not mid-game
        self.seed = seed
        self.budget = budget
        self.time_limit = time_limit
        self.config = config

    def view_to_decide(self, observation: "dict[str, Any] | Observation") -> View:
        """The observation read for a decision; refuses one this bot cannot make."""
        observation = _as_dict(observation)
        if observation["to_act"] != observation["seat"] or not observation["legal_actions"]:
            raise ValueError("this seat has nothing to decide now")
        if observation["variant"] != self.variant.name:
            raise ValueError(f"a {self.variant.name} bot cannot decide in a {observation['variant']} round")
        return View.of(observation)

    def explain(self, observation: "dict[str, Any] | Observation") -> Decision:
        """The decision with its reason (a message key and parameters)."""
        observation = _as_dict(observation)
        view = self.view_to_decide(observation)
        rng = random.Random(_observation_seed(observation, self.seed))
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        if view.phase == "bidding":
            if self.level == "super-hard" and view.variant.name in self.config.bid_search:
                return search_bid(view, rng, self.budget, deadline, self.config)
            return decide_bid(view, self.level, rng)
        return decide_play(view, self.level, rng, budget=self.budget, deadline=deadline, config=self.config)

    def decide(self, observation: "dict[str, Any] | Observation") -> str:
        """The action, as text (``Round.observation(seat)``'s dict or ``Round.observe(seat)``)."""
        return self.explain(observation).action

    def __repr__(self) -> str:
        return f"BotPlayer({self.level!r}, {self.variant.name!r})"


def decide_play(view: View, level: str, rng: random.Random, budget: float | None = None,
                deadline: float | None = None, config: SearchConfig = SUPER_HARD) -> Decision:
    """The play-phase decision of a bot at ``level`` (or the hint); ``deadline``
    (``time.monotonic()``) cuts a search short."""
    if level == "super-hard":
        return search_move(view, rng, budget, deadline=deadline, config=config)
    ctx = Ctx.of(view)
    if level == "normal":
        combo, reason, params = normal_move(ctx, rng)
    else:
        combo, reason, params = intermediate_move(ctx)
    return Decision("pass" if combo is None else f"play {combo.text}", reason, params)


def create(level: str, variant: "str | Variant" = "classic", seed: int | str | None = None,
           budget: float | None = None, time_limit: float | None = None,
           config: SearchConfig = SUPER_HARD) -> BotPlayer:
    """A computer player at ``level`` ("normal", "intermediate" or "super-hard")."""
    return BotPlayer(level, variant, seed, budget, time_limit, config)


def hint(observation: "dict[str, Any] | Observation", level: str = "super-hard", budget: float | None = None,
         n: int = 1, time_limit: float | None = None) -> dict[str, Any]:
    """The recommended action for the seat of ``observation``, with its reason and alternatives.

    Returns ``{"action": "play 33", "cards": [card ids to select], "reason":
    {"key": ..., "params": {...}}, "alternatives": [...]}``: the alternatives are up to
    ``n`` suggestions of the same shape (without their own alternatives), best
    first, the first being the hint itself.  A play or a pass the search weighed carries its
    figures too, ``"figures": {"rate": percent won, "games": simulated games}``, so the options
    compare whatever their reasons say.  The reason is a message key with
    parameters, never a finished sentence, so any language can show it.  At
    super-hard (the default) the hint searches (its plays, and in duel its bids) with
    ``budget`` (default ``advice.HINT_BUDGET``, 0.06 s of one core), cut at ``time_limit``
    seconds of wall-clock time if given; other levels give their own decision only.
    """
    observation = _as_dict(observation)
    bot = BotPlayer(level, observation["variant"], seed="hint", budget=HINT_BUDGET if budget is None else budget,
                    time_limit=time_limit)
    view = bot.view_to_decide(observation)
    if view.phase == "playing" and level == "super-hard":
        rng = random.Random(_observation_seed(observation, bot.seed))
        decisions = suggestions(view, rng, n, budget, time_limit)
    else:
        decisions = [bot.explain(observation)]
    shown = [{"action": d.action, "cards": cards_for(d.action, observation["hand_ids"]),
              "reason": {"key": d.reason, "params": dict(d.params)},
              **({"figures": dict(d.figures)} if d.figures else {})} for d in decisions]
    return {**shown[0], "alternatives": shown}
