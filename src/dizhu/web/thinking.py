"""How much of the computers' thinking one client may keep busy (docs/SERVER.md, "Computer players").

Both limits refuse a request before anything is applied: requests waiting for
the computers, ``client_thinking`` per client address and ``thinking_total``
from all of them together (``429 too_busy``); and each address's share of the
searching workers, charged by the bot pool at public caps (``429
too_much_thinking``).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from typing import Iterator

from .botpool import BotRunner
from .errors import ApiError, limited, spread
from .settings import Settings

__all__ = ["Thinking"]


class Thinking:
    """The requests of each client that keep computers thinking, and its share of the searches."""

    def __init__(self, settings: Settings, bots: BotRunner) -> None:
        self.settings = settings
        self.bots = bots
        self._thinking: Counter[str] = Counter()  # requests keeping computers busy, by client address
        self._thinking_total = 0  # ... and from all clients together

    def check_room(self, client: str) -> None:
        """429 ``too_busy`` if one more request of ``client`` may not keep computers thinking now: the
        client has ``client_thinking`` already, or all clients together ``thinking_total``."""
        limit, total = self.settings.client_thinking, self.settings.thinking_total
        if limit > 0 and self._thinking[client] >= limit:
            seconds = spread(1)
            raise ApiError(429, "too_busy", f"this address already has {limit} games waiting for the "
                           "computers: try again in a moment", headers={"Retry-After": str(seconds)},
                           limit=limit, retry_after=seconds)
        if total > 0 and self._thinking_total >= total:
            seconds = spread(1)
            raise ApiError(429, "too_busy", "the computers have too many games to answer: try again in a moment",
                           headers={"Retry-After": str(seconds)}, limit=total, retry_after=seconds)

    @contextlib.contextmanager
    def admit(self, client: str) -> Iterator[None]:
        """One more request of ``client`` that may keep computers thinking (:meth:`check_room`)."""
        self.check_room(client)
        self._thinking[client] += 1
        self._thinking_total += 1
        try:
            yield
        finally:
            self._thinking_total -= 1
            self._thinking[client] -= 1
            if not self._thinking[client]:
                del self._thinking[client]

    def check_share(self, client: str) -> None:
        """429 ``too_much_thinking`` for a client over its share of the searching workers."""
        wait = self.bots.shares.wait(client)
        if wait > 0:
            raise limited("too_much_thinking", "this address asked the computers for too much thinking lately",
                          wait, spread_out=True)
