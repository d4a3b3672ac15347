"""The hint of a game's position: computed once per version, limited per game, paced.

However many requests ask for the hint of one version, one search runs (its
answer is kept with the game's session); a search for a new version counts
against the game's hint limit when the player asked for it (auto-play's moves
do not), and against the client's share of the searching workers when the
hint's level searches.  The answer comes no sooner than ``hint_pace``
(settings.py says why).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from .botpool import DEEP_LEVELS, BotRunner
from .errors import limited as limited_error
from .ratelimit import TokenBuckets
from .sessions import Session
from .settings import Settings
from .store import GameRecord
from .thinking import Thinking

__all__ = ["Hints"]

_NOISE = secrets.SystemRandom()


class Hints:
    """The hints of every game this process serves."""

    def __init__(self, settings: Settings, bots: BotRunner, thinking: Thinking) -> None:
        self.settings = settings
        self.bots = bots
        self.thinking = thinking
        self._limit = TokenBuckets(settings.hint_per_minute, settings.hint_burst)

    async def suggestion(self, session: Session, record: GameRecord, observation: dict[str, Any],
                         client: str, *, limited: bool) -> dict[str, Any]:
        """The hint for the human's observation at ``record.version``: computed once
        per version, however many ask; a new computation counts against the game's
        hint limit when ``limited``."""
        cached = session.hint
        if cached is None or cached[0] != record.version:
            # the hint reads the other seats by the earlier rounds at the table, as the computers do
            observation = {**observation, "earlier": session.earlier(record)}
            if self.settings.hint_level in DEEP_LEVELS:
                self.thinking.check_share(client)
            if limited:
                wait = self._limit.wait(record.game_id)
                if wait > 0:
                    raise limited_error("too_many_hints", "too many hints for this game", wait)
            future = asyncio.ensure_future(self._paced(observation, client))
            session.hint = cached = (record.version, future)
        return await asyncio.shield(cached[1])

    async def _paced(self, observation: dict[str, Any], client: str) -> dict[str, Any]:
        """The hint, no sooner than ``hint_pace`` seconds from now (settings.py says why), and a random
        tenth of that later: what is left to time past the pace (a timer's wake-up is quicker when the
        machine is busy, a search included) is a fraction of a millisecond, lost in that noise."""
        loop = asyncio.get_running_loop()
        pace = self.settings.hint_pace
        ready_at = loop.time() + pace + _NOISE.uniform(0.0, 0.1 * pace)
        suggestion = await self.bots.suggest(observation, self.settings.hint_level, client)
        await asyncio.sleep(max(0.0, ready_at - loop.time()))
        return suggestion
