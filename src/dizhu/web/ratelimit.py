"""Token buckets by key: the server's limits on what one client or game may ask for.

Every new game is a row on disk and a deal for the bots to play, so a script
that creates games in a loop could fill the server's disk long before the
retention prunes them; the same holds for new rounds, hints (a search each)
and reads of finished rounds (bytes).  Each key -- a client address or a
game -- gets a bucket: ``burst`` at once, refilled at ``per_minute``.

>>> clock = [0.0]
>>> limit = TokenBuckets(per_minute=60, burst=2, clock=lambda: clock[0])
>>> [limit.wait("10.0.0.1") for _ in range(3)]
[0.0, 0.0, 1.0]
>>> limit.wait("10.0.0.2")  # another client has its own bucket
0.0
>>> clock[0] = 1.0
>>> limit.wait("10.0.0.1")
0.0
>>> limit.wait("10.0.0.3", cost=5)  # a cost over the burst is taken as the whole burst
0.0
"""

from __future__ import annotations

import time
from typing import Callable

__all__ = ["TokenBuckets", "take_one"]

#: Buckets kept at most; the longest idle are forgotten first.  Forgetting a
#: bucket only ever lets its client create sooner, never later.
MAX_CLIENTS = 10_000


class TokenBuckets:
    """Token buckets by key.  ``per_minute <= 0`` turns the limit off."""

    def __init__(self, per_minute: float, burst: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(1, burst)
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, at)

    def wait(self, client: str, cost: float = 1.0) -> float:
        """Take ``cost`` tokens for ``client``: 0.0 if allowed now, else the
        seconds until it would be (nothing is taken then)."""
        if self.rate <= 0:
            return 0.0
        cost = min(cost, float(self.burst))
        now = self.clock()
        tokens, at = self._buckets.pop(client, (float(self.burst), now))
        tokens, wait = take_one(tokens, at, now, self.rate, self.burst, cost)
        self._buckets[client] = (tokens, now)  # re-inserted last: dict order is least recently seen first
        if len(self._buckets) > MAX_CLIENTS:
            del self._buckets[next(iter(self._buckets))]
        return wait

    def refund(self, client: str, cost: float = 1.0) -> None:
        """Give back what :meth:`wait` took for a request then refused: a refusal changes
        nothing, the client's limit included.

        >>> limit = TokenBuckets(per_minute=60, burst=1, clock=lambda: 0.0)
        >>> limit.wait("a"), limit.wait("a")
        (0.0, 1.0)
        >>> limit.refund("a"); limit.wait("a")
        0.0
        """
        if client in self._buckets:
            tokens, at = self._buckets[client]
            self._buckets[client] = (min(float(self.burst), tokens + min(cost, float(self.burst))), at)


def take_one(tokens: float, at: float, now: float, rate: float, burst: int,
             cost: float = 1.0) -> tuple[float, float]:
    """One bucket's step: refill it from ``at`` to ``now`` at ``rate`` per second
    (up to ``burst``), then take ``cost`` tokens if there are that many.  Returns
    the tokens left and the wait (0.0: taken; else the seconds until they would be).

    >>> take_one(0.5, 0.0, 1.0, 0.25, 2)
    (0.75, 1.0)
    >>> take_one(0.5, 0.0, 3.0, 0.25, 2)
    (0.25, 0.0)
    """
    tokens = min(float(burst), tokens + max(0.0, now - at) * rate)
    if tokens >= cost:
        return tokens - cost, 0.0
    return tokens, (cost - tokens) / rate
