"""A Gymnasium environment: one seat learns, dizhu bots play the others.

>>> env = SeatEnv("classic", seat=1, opponents="normal", bidding=False)
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape, obs["action_mask"].dtype.name, env.round.to_act
((1436,), 'int8', 1)
>>> done = False
>>> while not done:
...     action = int(env.action_masks().nonzero()[0][-1])  # the last legal action
...     obs, reward, done, truncated, info = env.step(action)
>>> reward == env.round.result.points[1]
True

The learner's seat is ``seat`` (in turn order; with ``bidding=False``, seat 0
is the landlord, seat 1 the farmer after it).  ``opponents`` is a bot level
(``normal``, ``intermediate``, ``super-hard``) or ``random``; the bots are
seeded from the environment's seed, so ``reset(seed=s)`` replays the same
round for the same actions.  The observation is the one of
:mod:`dizhu.env.encoding` for the learner's seat; ``action_masks()`` and
``info["action_mask"]`` give the mask.  An action outside the mask ends the
episode with reward ``illegal_reward`` (and ``info["illegal_action"]``),
as a learner that ignores the mask must see a cost, not an exception.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np

from ..arena import PLAYERS, make_player
from ..game import Round
from .aec import REWARDS, check_render_mode, deal_round, render_round, seat_rewards
from .encoding import ActionSpace, Layout, Table

__all__ = ["SeatEnv"]


class SeatEnv(gymnasium.Env):
    """One seat of a round against bot opponents (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, variant: str = "classic", seat: int = 0, opponents: str = "intermediate",
                 bidding: bool = True, reward: str = "points", illegal_reward: float = -1.0,
                 budget: float | None = None, render_mode: str | None = None) -> None:
        if opponents not in PLAYERS:
            raise ValueError(f"unknown opponents {opponents!r} (expected one of {', '.join(PLAYERS)})")
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r} (expected 'points' or 'win')")
        self.actions = ActionSpace(variant)
        self.variant = self.actions.variant
        if not (isinstance(seat, int) and 0 <= seat < self.variant.players):
            raise ValueError(f"seat must be from 0 to {self.variant.players - 1}")
        self.layout = Layout(self.variant)
        self.seat = seat
        self.opponents = opponents
        self.bidding = bidding
        self.reward = reward
        self.illegal_reward = illegal_reward
        self.budget = budget
        check_render_mode(render_mode, self.metadata)
        self.render_mode = render_mode
        n = len(self.actions)
        self.action_space = gymnasium.spaces.Discrete(n)
        self.observation_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0, 1, (self.layout.size,), dtype=np.int8),
            "action_mask": gymnasium.spaces.Box(0, 1, (n,), dtype=np.int8),
        })
        self.round: Round | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        while True:
            self.round = deal_round(self.variant.name, self.bidding, rng)
            self.table = Table(self.round, self.layout)
            bot_seed = rng.getrandbits(64)
            self._bots = {s: make_player(self.opponents, self.variant.name, (bot_seed, s), self.budget)
                          for s in range(self.variant.players) if s != self.seat}
            self._over = False
            self._play_bots()
            if self.round.result is None:  # rarely a round ends before the learner's turn: deal again
                return self._observe(), self._info()

    def _play_bots(self) -> None:
        r = self.round
        while r.result is None and r.to_act != self.seat:
            seat = r.to_act
            text = self._bots[seat].decide(r.observation(seat))
            self.table.apply(seat, self.actions.actions[self.actions.index(text)])

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (all 0 once the round is over)."""
        if self.round.result is not None or self._over:
            return np.zeros(len(self.actions), dtype=np.int8)
        return self.actions.mask(self.round.legal_actions())

    def _observe(self) -> dict[str, np.ndarray]:
        return {"observation": self.table.encode(self.seat), "action_mask": self.action_masks()}

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), **extra}

    def step(self, action: int) -> tuple[dict, float, bool, bool, dict]:
        if self.round is None or self._over or self.round.result is not None:
            raise RuntimeError("the round is over: call reset()")
        index = int(action)
        if not (0 <= index < len(self.actions) and self.action_masks()[index]):
            # ends the episode for the learner; the round is left as it was
            self._over = True
            return self._observe(), float(self.illegal_reward), True, False, self._info(illegal_action=True)
        self.table.apply(self.seat, self.actions.actions[index])
        self._play_bots()
        if self.render_mode == "human":
            self.render()
        if self.round.result is None:
            return self._observe(), 0.0, False, False, self._info()
        reward = seat_rewards(self.round, self.reward)[self.seat]
        return self._observe(), reward, True, False, self._info()

    def render(self) -> str | None:
        return render_round(self.round, self.render_mode)
