"""A per-client limit on creating games.

Every new game is a row on disk and a deal for the bots to play, so a script
that creates games in a loop could fill the server's disk long before the
retention prunes them.  Each client address gets a token bucket: ``burst``
creations at once, refilled at ``per_minute``.  Playing is never limited: a
player only ever creates a game now and then.

>>> clock = [0.0]
>>> limit = CreationLimit(per_minute=60, burst=2, clock=lambda: clock[0])
>>> [limit.wait("10.0.0.1") for _ in range(3)]
[0.0, 0.0, 1.0]
>>> limit.wait("10.0.0.2")  # another client has its own bucket
0.0
>>> clock[0] = 1.0
>>> limit.wait("10.0.0.1")
0.0
"""

from __future__ import annotations

import time
from typing import Callable

__all__ = ["CreationLimit", "take_one"]

#: Buckets kept at most; the longest idle are forgotten first.  Forgetting a
#: bucket only ever lets its client create sooner, never later.
MAX_CLIENTS = 10_000


class CreationLimit:
    """Token buckets by client address.  ``per_minute <= 0`` turns the limit off."""

    def __init__(self, per_minute: float, burst: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(1, burst)
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, at)

    def wait(self, client: str) -> float:
        """Take one creation for ``client``: 0.0 if allowed now, else the
        seconds until it would be (nothing is taken then)."""
        if self.rate <= 0:
            return 0.0
        now = self.clock()
        tokens, at = self._buckets.pop(client, (float(self.burst), now))
        tokens, wait = take_one(tokens, at, now, self.rate, self.burst)
        self._buckets[client] = (tokens, now)  # re-inserted last: dict order is least recently seen first
        if len(self._buckets) > MAX_CLIENTS:
            del self._buckets[next(iter(self._buckets))]
        return wait


def take_one(tokens: float, at: float, now: float, rate: float, burst: int) -> tuple[float, float]:
    """One bucket's step: refill it from ``at`` to ``now`` at ``rate`` per second
    (up to ``burst``), then take one token if there is one.  Returns the tokens
    left and the wait (0.0: taken; else the seconds until one would be).

    >>> take_one(0.5, 0.0, 1.0, 0.25, 2)
    (0.75, 1.0)
    >>> take_one(0.5, 0.0, 3.0, 0.25, 2)
    (0.25, 0.0)
    """
    tokens = min(float(burst), tokens + max(0.0, now - at) * rate)
    if tokens >= 1.0:
        return tokens - 1.0, 0.0
    return tokens, (1.0 - tokens) / rate
