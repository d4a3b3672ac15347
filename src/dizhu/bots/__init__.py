"""Computer players at three levels, and the hint.

>>> from dizhu import Round
>>> from dizhu.bots import create, hint
>>> r = Round.deal("classic", seed="bots-doc")
>>> bot = create("normal", "classic", seed=1)
>>> action = bot.decide(r.observation(r.to_act))
>>> action in r.observation(r.to_act)["legal_actions"]
True
>>> h = hint(r.observation(r.to_act))
>>> sorted(h)
['action', 'alternatives', 'cards', 'reason']

A bot sees only the observation of its seat.  Its decision is a
deterministic function of that observation and its seed.
"""

from __future__ import annotations

from .players import LEVELS, BotPlayer, create, hint

__all__ = ["LEVELS", "BotPlayer", "create", "hint"]
