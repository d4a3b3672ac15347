"""Which storage a host uses: the SQLite file (one host) or PostgreSQL (several).

``Settings.database`` is empty (the SQLite file in the data directory),
``sqlite:PATH``, or a ``postgresql://`` URL.  :func:`open_database` returns
everything of a host that depends on that choice: the store, the claims on
games, the creation limit, and whether interrupted turns must be looked for
all the time (other hosts may die) or only at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol

from .ratelimit import TokenBuckets
from .settings import Settings
from .sqlite_store import SQLiteStore
from .store import AsyncStore

__all__ = ["Database", "GameClaims", "LocalClaims", "open_database", "is_postgres", "sqlite_path", "describe"]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(url: str) -> bool:
    return url.startswith(POSTGRES_SCHEMES)


def sqlite_path(url: str, data_dir: "Path | str") -> Path:
    """The SQLite file named by ``url`` (``sqlite:PATH``; empty: the data directory's)."""
    if not url:
        return Path(data_dir) / "dizhu.sqlite"
    if url.startswith("sqlite:"):
        return Path(url[len("sqlite:"):]).expanduser()
    raise ValueError(f"not a database address dizhu knows: {url.split(':', 1)[0]!r} "
                     "(use sqlite:PATH or postgresql://...)")


def describe(url: str) -> str:
    """The database, fit for a log line (no password)."""
    if is_postgres(url):
        from .pg_store import hide_password

        return f"PostgreSQL {hide_password(url)}"
    return f"SQLite file {url[len('sqlite:'):] if url.startswith('sqlite:') else url}"


class GameClaims(Protocol):
    """Which host works on a game: taken before a write, given back after its commit."""

    #: Other hosts write to the same games (what was read before the claim may be old).
    shared: bool

    async def claim(self, game_id: str) -> bool:
        """True if this host may work on the game now (no other host is)."""

    async def release(self, game_id: str) -> None:
        """Give back a claim taken (done when this returns)."""

    def close(self) -> None:
        """Release everything."""


class LocalClaims:
    """One host alone: its own locks per game are the whole exclusion."""

    shared = False

    async def claim(self, game_id: str) -> bool:
        return True

    async def release(self, game_id: str) -> None:
        pass

    def close(self) -> None:
        pass


class CreationGate(Protocol):
    async def wait(self, client: str) -> float:
        """0.0 if ``client`` may create a game now (one is counted), else the seconds to wait."""


class _LocalCreationLimit:
    """The in-memory token buckets of one host."""

    def __init__(self, per_minute: float, burst: int) -> None:
        self._limit = TokenBuckets(per_minute, burst)

    async def wait(self, client: str) -> float:
        return self._limit.wait(client)


@dataclass
class Database:
    """A host's storage and what depends on it."""

    store: AsyncStore
    claims: GameClaims
    creation_limit: CreationGate
    #: Shared with other hosts: look for turns a dead host left every this many seconds.
    resume_every: float | None
    description: str
    _closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        """Finish the queued writes, then close every connection."""
        for close in self._closers:
            close()


def open_database(settings: Settings) -> Database:
    url = settings.database
    if not is_postgres(url):
        path = sqlite_path(url, settings.data_dir)
        store = AsyncStore(lambda: SQLiteStore(path, settings.sync, settings.rounds_kept))
        return Database(store, LocalClaims(), _LocalCreationLimit(settings.create_per_minute, settings.create_burst),
                        None, f"SQLite file {path}", [store.close])
    # Imported here: a host on SQLite never needs psycopg.
    from .pg_store import AdvisoryClaims, PostgresStore, SharedCreationLimit, hide_password, open_pool, \
        prepare_schema

    pool = open_pool(url, max_size=settings.database_pool)
    try:
        with pool.connection() as conn:
            prepare_schema(conn)
        store = AsyncStore(lambda: PostgresStore(pool, settings.rounds_kept))
    except BaseException:
        pool.close()
        raise
    try:
        claims = AdvisoryClaims(url)
    except BaseException:
        store.close()
        pool.close()
        raise
    limit = SharedCreationLimit(pool, settings.create_per_minute, settings.create_burst)
    return Database(store, claims, limit, settings.resume_every, f"PostgreSQL {hide_password(url)}",
                    [store.close, claims.close, pool.close])
