"""Where games are kept: the storage interface and its records.

The server talks to storage only through :class:`GameStore`, whose methods
are small, synchronous and transactional, so that a shared database can
replace the embedded SQLite file when several hosts serve one site.

Writes are compare-and-swap on the game's ``version``: a writer that did not
see the latest version loses (``save`` returns False) instead of
overwriting, so two processes can never corrupt one game.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol, Sequence

__all__ = ["GameRecord", "RequestEntry", "GameStore", "AsyncStore"]


@dataclass
class GameRecord:
    """One game as stored.

    ``state`` is the match's JSON (hidden cards included: never sent to a
    client, never logged) without its finished rounds, which are stored
    apart.  ``pending`` is True while a computer player is to act.
    """

    game_id: str
    token_hash: str
    variant: str
    level: str
    language: str
    bot_seed: str
    version: int
    state: str
    match_no: int
    pending: bool
    created_at: float
    updated_at: float


@dataclass
class RequestEntry:
    """A write request seen for a game, kept to apply it only once.

    ``fingerprint`` identifies the request's body; ``response`` is the JSON
    text returned (None while the computers are still moving, or if the
    server stopped before it answered).
    """

    request_id: str
    fingerprint: str
    since: int
    response: str | None
    created_at: float


class GameStore(Protocol):
    """The storage interface.  Every method is one transaction."""

    def create(self, record: GameRecord) -> None:
        """Insert a new game."""

    def load(self, game_id: str) -> GameRecord | None:
        """The game, or None."""

    def save(
        self,
        record: GameRecord,
        expected_version: int,
        *,
        rounds: Sequence[dict[str, Any]] = (),
        request: RequestEntry | None = None,
    ) -> bool:
        """Replace the game's state if its stored version is ``expected_version``.

        Everything but the language (see :meth:`set_language`) is written.

        Appends ``rounds`` (finished rounds) and records ``request`` in the
        same transaction.  False, and nothing written, if the version moved.
        """

    def set_language(self, game_id: str, language: str, now: float) -> None:
        """Change the game's language (not a change of the table: no new version)."""

    def request(self, game_id: str, request_id: str) -> RequestEntry | None:
        """A request seen before for this game, or None."""

    def rounds(self, game_id: str) -> list[dict[str, Any]]:
        """The finished rounds of the game, oldest first."""

    def pending_games(self) -> list[str]:
        """Games where a computer is to act (to resume after a restart)."""

    def prune(self, before: float) -> int:
        """Delete games last changed before ``before`` (epoch seconds); how many."""

    def close(self) -> None:
        """Release the storage."""


class AsyncStore:
    """A :class:`GameStore` driven from one dedicated thread.

    The event loop never waits on the disk; one thread also means one
    connection, which is what SQLite prefers for writes.
    """

    def __init__(self, store_factory: Any) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dizhu-store")
        # The store is created on its own thread, where it will be used.
        self._store: GameStore = self._executor.submit(store_factory).result()

    async def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        method = getattr(self._store, name)
        return await loop.run_in_executor(self._executor, lambda: method(*args, **kwargs))

    async def create(self, record: GameRecord) -> None:
        await self._call("create", record)

    async def load(self, game_id: str) -> GameRecord | None:
        return await self._call("load", game_id)

    async def save(self, record: GameRecord, expected_version: int, *,
                   rounds: Sequence[dict[str, Any]] = (), request: RequestEntry | None = None) -> bool:
        return await self._call("save", record, expected_version, rounds=rounds, request=request)

    async def set_language(self, game_id: str, language: str, now: float) -> None:
        await self._call("set_language", game_id, language, now)

    async def request(self, game_id: str, request_id: str) -> RequestEntry | None:
        return await self._call("request", game_id, request_id)

    async def rounds(self, game_id: str) -> list[dict[str, Any]]:
        return await self._call("rounds", game_id)

    async def pending_games(self) -> list[str]:
        return await self._call("pending_games")

    async def prune(self, before: float) -> int:
        return await self._call("prune", before)

    def close(self) -> None:
        """Close the store on its thread, then stop the thread."""
        try:
            self._executor.submit(self._store.close).result()
        finally:
            self._executor.shutdown(wait=True)
