"""Which storage a host uses: the SQLite file (one host) or PostgreSQL (several).

``Settings.database`` is empty (the SQLite file in the data directory),
``sqlite:PATH``, or a ``postgresql://`` URL.  :func:`open_database` returns
everything of a host that depends on that choice: the store, the claims on
games, the creation limit, and whether interrupted turns must be looked for
all the time (other hosts may die) or only at start-up.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Protocol
from urllib.parse import parse_qs, unquote, urlsplit

from .ratelimit import TokenBuckets
from .settings import Settings
from .sqlite_store import SQLiteStore
from .store import AsyncStore

__all__ = ["Database", "GameClaims", "LocalClaims", "open_database", "is_postgres", "sqlite_path", "describe",
           "DatabaseError", "plainly", "check_reachable"]

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


class DatabaseError(RuntimeError):
    """A database that cannot be used, said in one line (no traceback, no password)."""


def passwords_in(*urls: str) -> list[str]:
    """The passwords written in ``urls``, as written and decoded, longest first.

    >>> passwords_in("postgresql://u:s3cr%20et@h/db?password=q", "sqlite:x")
    ['s3cr%20et', 's3cr et', 'q']
    """
    found: list[str] = []
    for url in urls:
        if not is_postgres(url):
            continue
        parts = urlsplit(url)
        user_info = parts.netloc.rpartition("@")[0]
        written = [user_info.partition(":")[2]] + parse_qs(parts.query).get("password", [])
        found += [form for secret in written if secret for form in dict.fromkeys([secret, unquote(secret)])]
    return sorted(dict.fromkeys(found), key=len, reverse=True)


@contextmanager
def plainly(error: type[DatabaseError], what: str, *urls: str) -> Iterator[None]:
    """A database's own error (not a database, unreachable, refused) as ``error``, one line
    without the passwords of ``urls`` (the driver's message may quote an address it cannot read)."""
    errors: tuple[type[BaseException], ...] = (sqlite3.Error,)
    try:
        import psycopg

        errors += (psycopg.Error,)
    except ImportError:
        pass
    try:
        yield
    except errors as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        for secret in passwords_in(*urls):
            message = message.replace(secret, "***")
        raise error(f"{what}: {message}") from None


def check_reachable(url: str, timeout: int = 10) -> None:
    """Connect to the PostgreSQL database ``url`` once: a host that cannot use it says why
    (``DatabaseError``) before it starts, where the pool would retry for its whole timeout and
    then fail with the cause only in its log."""
    import psycopg

    with plainly(DatabaseError, f"cannot open the {describe(url)}", url):
        psycopg.connect(url, connect_timeout=timeout).close()


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
