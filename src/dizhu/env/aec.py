"""A PettingZoo AEC environment: every seat of a round is an agent.

>>> env = DizhuEnv("duel", bidding=False)
>>> env.reset(seed=7)
>>> env.possible_agents, env.agent_selection
(['seat_0', 'seat_1'], 'seat_0')
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 1, reward, terminated
((1346,), True, 0, False)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     if terminated:
...         action = None
...     else:
...         action = int(obs["action_mask"].nonzero()[0][0])  # the first legal action
...     env.step(action)
>>> sum(env.round.result.points)
0

Agents are the seats ``seat_0`` .. ``seat_{P-1}`` in turn order.  With
``bidding=False`` (the DouZero protocol) ``seat_0`` is the landlord, dealt
20 cards, and plays first; otherwise the round starts with the bidding and
any seat may become the landlord.  Rewards come at the end: the seat's
points by our rules (``reward="points"``, zero-sum) or +1 / -1 for the
winning and losing sides (``reward="win"``).  A round always ends, so
nothing is truncated.  An action outside the mask raises ValueError.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..cards import deck as full_deck
from ..game import Round
from ..variants import get_variant
from .encoding import ActionSpace, Layout, Table

__all__ = ["DizhuEnv", "env", "raw_env", "deal_round"]

REWARDS = ("points", "win")


def deal_round(variant: str, bidding: bool, rng: random.Random) -> Round:
    """A new round drawn from ``rng``: a full deal with bidding, or the DouZero protocol's deal.

    >>> r = deal_round("classic", False, random.Random(1))
    >>> r.phase, r.landlord, [len(h) for h in r.all_hands()]
    ('playing', 0, [20, 17, 17])
    """
    v = get_variant(variant)
    if bidding:
        return Round.deal(v, seed=f"env-{rng.getrandbits(64):016x}")
    deck = full_deck(v)
    rng.shuffle(deck)
    hands = [deck[:17]] + [deck[20 + 17 * k : 37 + 17 * k] for k in range(v.players - 1)]
    return Round.from_deal(v, hands, deck[17:20], landlord=0, undealt=deck[20 + 17 * (v.players - 1):])


def seat_rewards(round_: Round, reward: str) -> list[float]:
    """Each seat's reward for a finished round."""
    points = round_.result.points
    if reward == "win":
        return [1.0 if x > 0 else -1.0 for x in points]
    return [float(x) for x in points]


def render_text(round_: Round) -> str:
    """The table as text for someone watching: every hand is shown.

    >>> print(render_text(deal_round("duel", False, random.Random(2))))  # doctest: +ELLIPSIS
    duel, playing, stake 1, handicap 0
      seat_0 landlord  20 cards  ...
      seat_1 farmer    17 cards  ...
    seat_0 to act, leading
    """
    r = round_
    stake = r.multiplier
    head = f"{r.variant.name}, {r.phase}, stake {stake}"
    if r.variant.bidding.has_handicap:
        head += f", handicap {r.handicap}"
    lines = [head]
    for seat, hand in enumerate(r.all_hands()):
        role = "bidding" if r.landlord is None else "landlord" if seat == r.landlord else "farmer"
        lines.append(f"  seat_{seat} {role:<9} {len(hand):>2} cards  {hand}")
    if r.result is not None:
        lines.append(f"over: the {r.result.winner} won, points {r.result.points}")
    else:
        last = r.last_play
        beat = f"to beat seat_{last[0]}'s {last[1]}" if last else "leading"
        if r.phase == "bidding":
            beat = "bidding"
        lines.append(f"seat_{r.to_act} to act, {beat}")
    return "\n".join(lines)


def check_render_mode(mode: str | None, metadata: dict[str, Any]) -> None:
    """Refuse a render mode the environment does not list."""
    if mode is not None and mode not in metadata["render_modes"]:
        raise ValueError(f"unknown render mode {mode!r}")


def render_round(round_: Round | None, mode: str | None) -> str | None:
    """An environment's ``render()``: the table's text in "ansi" mode; printed, and None, in "human"."""
    if round_ is None:
        return None
    text = render_text(round_)
    if mode == "human":
        print(text)
        return None
    return text


class DizhuEnv(AECEnv):
    """Dou Dizhu as a PettingZoo AEC environment (see the module docstring).

    ``observe(agent)`` returns ``{"observation": int8 vector,
    "action_mask": int8 vector}`` (layout: :mod:`dizhu.env.encoding`); the
    info of the agent to act holds ``"legal_actions"``, the mask's indices;
    :meth:`raw_observation` returns ``round.observation(seat)``, the same
    facts as a dict.  ``render_mode`` is ``"ansi"`` (render returns the text)
    or ``"human"`` (render prints it, and so does every step).
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "dizhu_v0", "is_parallelizable": False}

    def __init__(self, variant: str = "classic", bidding: bool = True, reward: str = "points",
                 render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r} (expected 'points' or 'win')")
        check_render_mode(render_mode, self.metadata)
        self.variant = get_variant(variant)
        self.bidding = bidding
        self.reward = reward
        self.render_mode = render_mode
        self.actions = ActionSpace(self.variant)
        self.layout = Layout(self.variant)
        self.possible_agents = [f"seat_{s}" for s in range(self.variant.players)]
        n = len(self.actions)
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0, 1, (self.layout.size,), dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self._rng: random.Random | None = None
        self.round: Round | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new round; the same ``seed`` deals the same cards."""
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = random.Random(secrets.randbits(64))
        self.start(deal_round(self.variant.name, self.bidding, self._rng))

    def start(self, round_: Round) -> None:
        """Play ``round_``, freshly dealt (a deal of your own instead of a random one)."""
        if any(e.type in ("bid", "play", "pass") for e in round_.log):
            raise ValueError("the round must be freshly dealt: the observations follow it from its deal")
        self.round = round_
        self.table = Table(round_, self.layout)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.agent_selection = self.possible_agents[round_.to_act]
        self._refresh()

    def _refresh(self) -> None:
        # the acting agent's info lists its legal action indices (the mask's 1s), for agents
        # that sample from a list rather than scan the whole mask
        self._mask: np.ndarray | None = None
        self.infos = {a: {} for a in self.agents}
        if self.round.result is None:
            self._legal = self.actions.indices(self.round.legal_actions())
            self.infos[self.agent_selection] = {"legal_actions": list(self._legal)}
        else:
            self._legal = []

    def seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def action_mask(self, agent: str) -> np.ndarray:
        """The agent's mask: its legal actions when it is to act, else all 0."""
        seat = self.seat(agent)
        if seat != self.round.to_act:
            return np.zeros(len(self.actions), dtype=np.int8)
        return self._current_mask().copy()

    def _current_mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = np.zeros(len(self.actions), dtype=np.int8)
            self._mask[self._legal] = 1
        return self._mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"observation": self.table.encode(self.seat(agent)), "action_mask": self.action_mask(agent)}

    def raw_observation(self, agent: str) -> dict[str, Any]:
        """``round.observation(seat)``: the same knowledge as a JSON-ready dict."""
        return self.round.observation(self.seat(agent))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.seat(agent)
        if action is None:
            raise ValueError(f"{agent} is still in the round: it needs an action, not None")
        index = int(action)
        if not (0 <= index < len(self.actions) and self._current_mask()[index]):
            raise ValueError(f"action {action} ({self._describe(index)}) is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self.table.apply(seat, self.actions.actions[index])
        r = self.round
        if r.result is not None:
            for a, value in zip(self.possible_agents, seat_rewards(r, self.reward)):
                self.rewards[a] = value
                self.terminations[a] = True
            self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[r.to_act]
        self._refresh()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _describe(self, index: int) -> str:
        return self.actions.text(index) if 0 <= index < len(self.actions) else "out of range"

    def render(self) -> str | None:
        return render_round(self.round, self.render_mode)

    def close(self) -> None:
        pass


def raw_env(variant: str = "classic", **kwargs: Any) -> DizhuEnv:
    """The environment without wrappers."""
    return DizhuEnv(variant, **kwargs)


def env(variant: str = "classic", **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks (order enforcing, out-of-bounds actions)."""
    from pettingzoo.utils import wrappers

    wrapped: AECEnv = wrappers.AssertOutOfBoundsWrapper(raw_env(variant, **kwargs))
    return wrappers.OrderEnforcingWrapper(wrapped)
