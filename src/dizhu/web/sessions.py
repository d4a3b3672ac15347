"""A game's companions in this process: its lock, the write in flight, the live match, caches.

They are caches of what is stored: a session dropped (the least recently
used beyond a bound, or after a failed commit) is rebuilt from the store.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from ..game import Match
from .store import GameRecord
from .views import Snapshot

__all__ = ["InFlight", "Session", "load_match"]


def load_match(state: str) -> Match:
    return Match.from_json(state)


@dataclass
class InFlight:
    """The write a game is answering: a repeat of its request id waits for its answer."""

    request_id: str
    fingerprint: str
    future: "asyncio.Future[Any]"


@dataclass
class Session:
    """In-memory companions of one game: its lock and caches.

    ``match`` is the live match at ``match_version`` (touched only under the
    lock); ``snap`` is the public snapshot of the last committed version.
    """

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    inflight: InFlight | None = None
    match: Match | None = None
    match_version: int = -1
    snap: Snapshot | None = None
    #: The hint of one version, shared by every request for it while it is computed.
    hint: "tuple[int, asyncio.Future[dict[str, Any]]] | None" = None

    def forget(self) -> None:
        self.match, self.match_version, self.snap = None, -1, None

    def earlier(self, record: GameRecord) -> list[dict[str, Any]]:
        """The table's earlier rounds at ``record.version`` (``Match.earlier``)."""
        if self.match is not None and self.match_version == record.version:
            return self.match.earlier[:]
        return load_match(record.state).earlier
