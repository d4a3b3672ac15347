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
import json
import logging
import queue
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, ContextManager, Iterable, Protocol, Sequence

__all__ = ["GameRecord", "RequestEntry", "GameStore", "AsyncStore", "round_page"]

log = logging.getLogger("dizhu.web.store")


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
    """The storage interface.  Every method is one transaction, except inside
    :meth:`batch`, where the writes made share one commit."""

    def create(self, record: GameRecord) -> None:
        """Insert a new game."""

    def load(self, game_id: str) -> GameRecord | None:
        """The game, or None."""

    def load_for_write(self, game_id: str, request_id: str) -> tuple[GameRecord | None, RequestEntry | None]:
        """The game and, if this request was seen before, its entry (one read)."""

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

    def rounds(self, game_id: str, offset: int = 0, limit: int | None = None,
               max_bytes: int | None = None) -> list[dict[str, Any]]:
        """The finished rounds kept for the game, oldest first, after the ``offset``-th
        round ever finished: ``limit`` of them (None: all), stopping before the stored
        text passes ``max_bytes`` (but at least one).  Each carries ``match`` and its
        ``index`` (1 for the game's first finished round; never reused)."""

    def rounds_page(self, game_id: str, offset: int, limit: int,
                    max_bytes: int | None = None) -> tuple[list[dict[str, Any]], int]:
        """:meth:`rounds` and how many rounds have finished in all, kept or not (one read)."""

    def round_numbered(self, game_id: str, number: int) -> dict[str, Any] | None:
        """The kept finished round whose ``number`` (the game's count of rounds dealt) is
        ``number``, as :meth:`rounds` gives it, or None: one row read, not the game's history."""

    def review(self, game_id: str, number: int, seat: int) -> str | None:
        """The stored review (JSON text) of round ``number`` for ``seat``, or None."""

    def save_review(self, game_id: str, number: int, seat: int, seq: int, payload: str) -> None:
        """Keep a review of the finished round stored at ``seq`` (its ``index``); it goes
        with its round (pruned or past ``rounds_kept``), and none is kept if the round is gone."""

    def pending_games(self) -> list[str]:
        """Games where a computer is to act (to resume after a restart)."""

    def prune(self, before: float) -> int:
        """Delete games last changed before ``before`` (epoch seconds); how many."""

    def batch(self) -> ContextManager[None]:
        """A block whose writes are committed together (each still all-or-nothing)."""

    def maintain(self) -> None:
        """Housekeeping called every second or so, on a connection of its own
        (SQLite: the checkpoint of its write-ahead log)."""

    def close(self) -> None:
        """Release the storage."""


def round_page(rows: Iterable[tuple[int, int, str]], max_bytes: int | None) -> list[dict[str, Any]]:
    """Finished rounds from stored ``(seq, match_no, payload)`` rows, each with its
    ``match`` and ``index``, stopping before the stored text passes ``max_bytes``
    (one round at least)."""
    page: list[dict[str, Any]] = []
    size = 0
    for seq, match_no, payload in rows:
        size += len(payload)
        if page and max_bytes is not None and size > max_bytes:
            break
        page.append({**json.loads(payload), "match": match_no, "index": seq})
    return page


_Job = tuple[str, tuple, dict, "asyncio.Future[Any]", asyncio.AbstractEventLoop]


class AsyncStore:
    """A :class:`GameStore` used from the event loop without ever blocking it.

    Four threads, each with its own connection: one reads games, one reads
    finished rounds, one writes, one does the housekeeping.  The writer commits every write waiting in its
    queue in one transaction ("group commit"), so that many players' moves
    share one disk flush; each write keeps its own all-or-nothing effect (a
    savepoint) and its answer waits until the commit is done.
    """

    def __init__(self, store_factory: Callable[[], GameStore]) -> None:
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dizhu-store-read")
        self._bulk = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dizhu-store-bulk")
        self._keeper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dizhu-store-keep")
        # Each store is created on the thread that will use it.
        self._read_store: GameStore = self._reader.submit(store_factory).result()
        self._bulk_store: GameStore = self._bulk.submit(store_factory).result()
        self._keep_store: GameStore = self._keeper.submit(store_factory).result()
        self._jobs: "queue.SimpleQueue[_Job | None]" = queue.SimpleQueue()
        ready: "queue.SimpleQueue[BaseException | None]" = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write_loop, args=(store_factory, ready),
                                        name="dizhu-store-write", daemon=True)
        self._writer.start()
        failure = ready.get()
        if failure is not None:
            raise failure

    # ---- the writer thread

    def _write_loop(self, store_factory: Callable[[], GameStore],
                    ready: "queue.SimpleQueue[BaseException | None]") -> None:
        try:
            store = store_factory()
        except BaseException as exc:  # noqa: BLE001 - reported to the constructor
            ready.put(exc)
            return
        ready.put(None)
        try:
            stopping = False
            while not stopping:
                job = self._jobs.get()
                if job is None:
                    break
                jobs = [job]
                while True:  # everything already waiting joins this commit
                    try:
                        more = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        stopping = True
                        break
                    jobs.append(more)
                self._run_batch(store, jobs)
        finally:
            store.close()

    @staticmethod
    def _run_batch(store: GameStore, jobs: list[_Job]) -> None:
        outcomes: list[tuple[bool, Any]] = []
        try:
            with store.batch():
                for name, args, kwargs, _, _ in jobs:
                    try:
                        outcomes.append((True, getattr(store, name)(*args, **kwargs)))
                    except Exception as exc:  # noqa: BLE001 - this job fails, the others go on
                        outcomes.append((False, exc))
        except Exception as exc:  # noqa: BLE001 - the commit itself failed: every job did
            log.error("a storage commit failed: %s", type(exc).__name__)
            outcomes = [(False, exc)] * len(jobs)
        for (ok, value), (_, _, _, future, loop) in zip(outcomes, jobs):
            loop.call_soon_threadsafe(_settle, future, ok, value)

    # ---- calls

    async def _write(self, name: str, *args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._jobs.put((name, args, kwargs, future, loop))
        return await future

    async def _read(self, name: str, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        method = getattr(self._read_store, name)
        return await loop.run_in_executor(self._reader, method, *args)

    async def _read_bulk(self, name: str, *args: Any) -> Any:
        """Reads of finished rounds (kilobytes each) on a thread of their own: a game's
        view or move never waits behind someone's history."""
        loop = asyncio.get_running_loop()
        method = getattr(self._bulk_store, name)
        return await loop.run_in_executor(self._bulk, method, *args)

    async def create(self, record: GameRecord) -> None:
        await self._write("create", record)

    async def load(self, game_id: str) -> GameRecord | None:
        return await self._read("load", game_id)

    async def load_for_write(self, game_id: str, request_id: str) -> tuple[GameRecord | None, RequestEntry | None]:
        return await self._read("load_for_write", game_id, request_id)

    async def save(self, record: GameRecord, expected_version: int, *,
                   rounds: Sequence[dict[str, Any]] = (), request: RequestEntry | None = None) -> bool:
        return await self._write("save", record, expected_version, rounds=rounds, request=request)

    async def set_language(self, game_id: str, language: str, now: float) -> None:
        await self._write("set_language", game_id, language, now)

    async def rounds(self, game_id: str, offset: int = 0, limit: int | None = None,
                     max_bytes: int | None = None) -> list[dict[str, Any]]:
        return await self._read_bulk("rounds", game_id, offset, limit, max_bytes)

    async def rounds_page(self, game_id: str, offset: int, limit: int,
                          max_bytes: int | None = None) -> tuple[list[dict[str, Any]], int]:
        return await self._read_bulk("rounds_page", game_id, offset, limit, max_bytes)

    async def round_numbered(self, game_id: str, number: int) -> dict[str, Any] | None:
        return await self._read_bulk("round_numbered", game_id, number)

    async def review(self, game_id: str, number: int, seat: int) -> str | None:
        return await self._read_bulk("review", game_id, number, seat)

    async def save_review(self, game_id: str, number: int, seat: int, seq: int, payload: str) -> None:
        await self._write("save_review", game_id, number, seat, seq, payload)

    async def pending_games(self) -> list[str]:
        return await self._read("pending_games")

    async def prune(self, before: float) -> int:
        return await self._write("prune", before)

    async def maintain(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._keeper, self._keep_store.maintain)

    def close(self) -> None:
        """Finish the queued writes, then close every connection."""
        self._jobs.put(None)
        self._writer.join()
        for executor, store in ((self._reader, self._read_store), (self._bulk, self._bulk_store),
                                (self._keeper, self._keep_store)):
            try:
                executor.submit(store.close).result()
            finally:
                executor.shutdown(wait=True)


def _settle(future: "asyncio.Future[Any]", ok: bool, value: Any) -> None:
    if future.cancelled():
        return  # the request went away; its write stands
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)

