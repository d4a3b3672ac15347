"""The shared store: PostgreSQL, for several hosts serving one site.

The same :class:`~dizhu.web.store.GameStore` as the SQLite file, on a
connection pool (psycopg 3).  Two more pieces only make sense when several
hosts share the games:

- :class:`AdvisoryClaims`: which host is working on a game.  A host takes a
  session-level advisory lock on a game before it writes to it and drops it
  when its answer is committed.  A host that dies (even by SIGKILL) loses
  its connection, and PostgreSQL drops its locks at once: another host can
  then finish the computers' turn it left, and only one host can.
- :class:`SharedCreationLimit`: the per-address limit on new games, kept in
  a table, so that a client cannot multiply it by the number of hosts.

The locks are for exclusion and fairness; correctness still rests on the
compare-and-swap of :meth:`PostgresStore.save` (a host whose lock
connection broke can at worst get ``409 stale``, never overwrite).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterator, Sequence, TypeVar

import psycopg
from psycopg_pool import ConnectionPool

from .ratelimit import take_one
from .store import GameRecord, RequestEntry, round_page

__all__ = ["PostgresStore", "AdvisoryClaims", "SharedCreationLimit", "open_pool", "prepare_schema",
           "SCHEMA_VERSION", "CLAIM_NAMESPACE", "hide_password"]

log = logging.getLogger("dizhu.web.store")

#: 2 added the reviews table; a version-1 database gains it when prepared.
SCHEMA_VERSION = 2

#: Write requests remembered per game (as the SQLite store).
REQUESTS_KEPT = 16

#: First half of every advisory lock key dizhu takes, so that other programs'
#: advisory locks on the same database never collide with ours ("dz").
CLAIM_NAMESPACE = 0x647A

#: Creation buckets untouched this long are full again: their rows can go.
BUCKET_IDLE_SECONDS = 3600.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS dizhu_schema (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL,
    variant     TEXT NOT NULL,
    level       TEXT NOT NULL,
    language    TEXT NOT NULL,
    bot_seed    TEXT NOT NULL,
    version     BIGINT NOT NULL,
    state       TEXT NOT NULL,
    match_no    BIGINT NOT NULL,
    pending     BOOLEAN NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS games_updated ON games (updated_at);
CREATE INDEX IF NOT EXISTS games_pending ON games (pending) WHERE pending;
CREATE TABLE IF NOT EXISTS rounds (
    game_id   TEXT NOT NULL,
    seq       BIGINT NOT NULL,
    match_no  BIGINT NOT NULL,
    payload   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS requests (
    game_id      TEXT NOT NULL,
    request_id   TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,
    since        BIGINT NOT NULL,
    response     TEXT,
    created_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, request_id)
);
CREATE TABLE IF NOT EXISTS reviews (
    game_id   TEXT NOT NULL,
    number    BIGINT NOT NULL,
    seat      INTEGER NOT NULL,
    seq       BIGINT NOT NULL,
    payload   TEXT NOT NULL,
    PRIMARY KEY (game_id, number, seat)
);
CREATE TABLE IF NOT EXISTS creation_buckets (
    client  TEXT PRIMARY KEY,
    tokens  DOUBLE PRECISION NOT NULL,
    at      DOUBLE PRECISION NOT NULL
)
"""

_GAME_COLUMNS = ("id, token_hash, variant, level, language, bot_seed, version, state, "
                 "match_no, pending, created_at, updated_at")

#: The database's clock in epoch seconds: every host reads the same one.
_DB_NOW = "extract(epoch FROM clock_timestamp())::float8"


_T = TypeVar("_T")


def _read_again_once(read: Callable[..., _T]) -> Callable[..., _T]:
    """A read that meets a broken connection (the database restarted since the
    pool opened it) runs once more, on a fresh one.  Reads only: a write cut off may have committed, and its
    client's retry (same request id) is the safe way to find out."""

    def again(self: "PostgresStore", *args: Any, **kwargs: Any) -> _T:
        try:
            return read(self, *args, **kwargs)
        except psycopg.OperationalError:
            if self._batch is not None:
                raise
            log.warning("a database connection was broken; reading again on another")
            self._pool.check()  # the idle ones are likely broken too: replace them all now
            return read(self, *args, **kwargs)

    again.__name__, again.__doc__ = read.__name__, read.__doc__
    return again


def hide_password(url: str) -> str:
    """The URL fit for a log line: any password replaced by ``***``."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://(unreadable address)"
    if "password" in info:
        info["password"] = "***"
    return psycopg.conninfo.make_conninfo(**info)


def open_pool(url: str, *, min_size: int = 2, max_size: int = 8, timeout: float = 10.0) -> ConnectionPool:
    """A pool of autocommit connections (a single statement needs no BEGIN/COMMIT
    round trips; transactions are opened explicitly), ready or failing within ``timeout``."""
    pool = ConnectionPool(url, min_size=min_size, max_size=max_size, kwargs={"autocommit": True},
                          open=False, name="dizhu")
    pool.open(wait=True, timeout=timeout)
    return pool


def prepare_schema(conn: psycopg.Connection) -> None:
    """Create the tables if missing; refuse a database written by a newer dizhu.

    Several hosts may start at once: a transaction-scoped advisory lock makes
    them take turns (concurrent ``CREATE TABLE IF NOT EXISTS`` can collide)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (CLAIM_NAMESPACE,))
        for statement in _SCHEMA.split(";"):
            conn.execute(statement)
        found = conn.execute("SELECT max(version) FROM dizhu_schema").fetchone()[0]
        if found is None or found < SCHEMA_VERSION:
            conn.execute("INSERT INTO dizhu_schema (version) VALUES (%s)", (SCHEMA_VERSION,))
        elif found > SCHEMA_VERSION:
            raise RuntimeError(f"the database was written by a newer dizhu (schema {found})")


class PostgresStore:
    """A :class:`~dizhu.web.store.GameStore` on a PostgreSQL connection pool.

    Each method borrows a connection for one transaction; inside
    :meth:`batch`, every method uses the batch's connection and a savepoint,
    so that one failing write undoes only itself.  The pool is the caller's
    (several stores share it); :meth:`close` leaves it open.
    """

    def __init__(self, pool: ConnectionPool, rounds_kept: int | None = None) -> None:
        self._pool = pool
        self._batch: psycopg.Connection | None = None
        self.rounds_kept = rounds_kept

    @contextlib.contextmanager
    def _tx(self) -> Iterator[psycopg.Connection]:
        """One transaction (a savepoint inside a batch)."""
        if self._batch is not None:
            with self._batch.transaction():
                yield self._batch
        else:
            with self._pool.connection() as conn, conn.transaction():
                yield conn

    @contextlib.contextmanager
    def _conn(self) -> Iterator[psycopg.Connection]:
        """A connection for a single statement (its own snapshot)."""
        if self._batch is not None:
            yield self._batch
        else:
            with self._pool.connection() as conn:
                yield conn

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Writes inside share one commit."""
        if self._batch is not None:
            yield
            return
        with self._pool.connection() as conn, conn.transaction():
            self._batch = conn
            try:
                yield
            finally:
                self._batch = None

    # ---- games

    def create(self, record: GameRecord) -> None:
        with self._tx() as conn:
            conn.execute(f"INSERT INTO games ({_GAME_COLUMNS}) VALUES ({', '.join(['%s'] * 12)})",
                         _game_row(record))

    @_read_again_once
    def load(self, game_id: str) -> GameRecord | None:
        with self._conn() as conn:
            row = conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = %s", (game_id,)).fetchone()
        return None if row is None else GameRecord(*row)

    @_read_again_once
    def load_for_write(self, game_id: str, request_id: str) -> tuple[GameRecord | None, RequestEntry | None]:
        # One statement: one snapshot and one round trip for both.
        columns = ", ".join(f"g.{c.strip()}" for c in _GAME_COLUMNS.split(","))
        with self._conn() as conn:
            row = conn.execute(
                f"SELECT {columns}, r.request_id, r.fingerprint, r.since, r.response, r.created_at "
                "FROM (SELECT %s::text AS id) AS k "
                "LEFT JOIN games AS g ON g.id = k.id "
                "LEFT JOIN requests AS r ON r.game_id = k.id AND r.request_id = %s",
                (game_id, request_id),
            ).fetchone()
        assert row is not None  # the outer side always has its one row
        record = None if row[0] is None else GameRecord(*row[:12])
        entry = None if row[12] is None else RequestEntry(*row[12:])
        return record, entry

    def save(
        self,
        record: GameRecord,
        expected_version: int,
        *,
        rounds: Sequence[dict[str, Any]] = (),
        request: RequestEntry | None = None,
    ) -> bool:
        with self._tx() as conn:
            cursor = conn.execute(
                # The language is left alone (see the SQLite store).  The UPDATE locks the row:
                # a second host's save waits for this commit, then finds the version moved.
                "UPDATE games SET version = %s, state = %s, match_no = %s, pending = %s, updated_at = %s "
                "WHERE id = %s AND version = %s",
                (record.version, record.state, record.match_no, record.pending, record.updated_at,
                 record.game_id, expected_version),
            )
            if cursor.rowcount != 1:
                return False
            if rounds:
                conn.execute(
                    "INSERT INTO rounds (game_id, seq, match_no, payload) "
                    "SELECT %s, (SELECT COALESCE(MAX(seq), 0) FROM rounds WHERE game_id = %s) + t.n, %s, t.payload "
                    "FROM unnest(%s::text[]) WITH ORDINALITY AS t(payload, n)",
                    (record.game_id, record.game_id, record.match_no,
                     [json.dumps(r, separators=(",", ":")) for r in rounds]),
                )
                if self.rounds_kept is not None:
                    # Bounded storage per game: the oldest rounds go (the match's totals live in its state).
                    conn.execute(
                        "DELETE FROM rounds WHERE game_id = %s AND seq <= "
                        "(SELECT MAX(seq) FROM rounds WHERE game_id = %s) - %s",
                        (record.game_id, record.game_id, self.rounds_kept))
                    conn.execute(
                        "DELETE FROM reviews WHERE game_id = %s AND seq <= "
                        "(SELECT MAX(seq) FROM rounds WHERE game_id = %s) - %s",
                        (record.game_id, record.game_id, self.rounds_kept))
            if request is not None:
                self._put_request(conn, record.game_id, request)
        return True

    @staticmethod
    def _put_request(conn: psycopg.Connection, game_id: str, entry: RequestEntry) -> None:
        # A request seen again only gets its answer: its fingerprint and `since` stay the first ones.
        inserted = conn.execute(
            "INSERT INTO requests (game_id, request_id, fingerprint, since, response, created_at) "
            "VALUES (%s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (game_id, request_id) DO UPDATE SET response = EXCLUDED.response "
            "RETURNING xmax = 0",
            (game_id, entry.request_id, entry.fingerprint, entry.since, entry.response, entry.created_at),
        ).fetchone()[0]
        if inserted:
            conn.execute(
                "DELETE FROM requests WHERE game_id = %s AND request_id NOT IN ("
                " SELECT request_id FROM requests WHERE game_id = %s ORDER BY created_at DESC LIMIT %s)",
                (game_id, game_id, REQUESTS_KEPT),
            )

    def set_language(self, game_id: str, language: str, now: float) -> None:
        with self._tx() as conn:
            conn.execute("UPDATE games SET language = %s, updated_at = %s WHERE id = %s", (language, now, game_id))

    @_read_again_once
    def request(self, game_id: str, request_id: str) -> RequestEntry | None:
        with self._conn() as conn:
            row = conn.execute(
                "SELECT request_id, fingerprint, since, response, created_at FROM requests "
                "WHERE game_id = %s AND request_id = %s", (game_id, request_id)).fetchone()
        return None if row is None else RequestEntry(*row)

    @_read_again_once
    def rounds(self, game_id: str, offset: int = 0, limit: int | None = None,
               max_bytes: int | None = None) -> list[dict[str, Any]]:
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT seq, match_no, payload FROM rounds WHERE game_id = %s AND seq > %s ORDER BY seq LIMIT %s",
                (game_id, offset, limit)).fetchall()
        return round_page(rows, max_bytes)

    @_read_again_once
    def rounds_page(self, game_id: str, offset: int, limit: int,
                    max_bytes: int | None = None) -> tuple[list[dict[str, Any]], int]:
        # One statement, one snapshot: the total always counts the page's rounds.
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT t.n, p.seq, p.match_no, p.payload "
                "FROM (SELECT COALESCE(MAX(seq), 0) AS n FROM rounds WHERE game_id = %s) AS t "
                "LEFT JOIN LATERAL (SELECT seq, match_no, payload FROM rounds WHERE game_id = %s AND seq > %s "
                "                   ORDER BY seq LIMIT %s) AS p ON true ORDER BY p.seq",
                (game_id, game_id, offset, limit)).fetchall()
        total = rows[0][0]
        return round_page([row[1:] for row in rows if row[3] is not None], max_bytes), total

    @_read_again_once
    def round_numbered(self, game_id: str, number: int) -> dict[str, Any] | None:
        # As in the SQLite store: the game's kept rounds are searched in the database.
        with self._conn() as conn:
            row = conn.execute(
                "SELECT seq, match_no, payload FROM rounds WHERE game_id = %s "
                "AND payload::jsonb -> 'number' = to_jsonb(%s::integer) ORDER BY seq DESC LIMIT 1",
                (game_id, number)).fetchone()
        return None if row is None else round_page([row], None)[0]

    @_read_again_once
    def review(self, game_id: str, number: int, seat: int) -> str | None:
        with self._conn() as conn:
            row = conn.execute("SELECT payload FROM reviews WHERE game_id = %s AND number = %s AND seat = %s",
                               (game_id, number, seat)).fetchone()
        return None if row is None else row[0]

    def save_review(self, game_id: str, number: int, seat: int, seq: int, payload: str) -> None:
        with self._tx() as conn:
            # Kept only while its round is (see the SQLite store).
            conn.execute(
                "INSERT INTO reviews (game_id, number, seat, seq, payload) "
                "SELECT %s, %s, %s, %s, %s WHERE EXISTS (SELECT 1 FROM rounds WHERE game_id = %s AND seq = %s) "
                "ON CONFLICT (game_id, number, seat) DO UPDATE SET payload = EXCLUDED.payload",
                (game_id, number, seat, seq, payload, game_id, seq))

    @_read_again_once
    def pending_games(self) -> list[str]:
        """Games where a computer is to act and no host holds the game's claim
        (a live host is finishing those itself)."""
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT g.id FROM games AS g WHERE g.pending AND NOT EXISTS ("
                " SELECT 1 FROM pg_locks AS l WHERE l.locktype = 'advisory' AND l.granted"
                " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                " AND l.classid = %s::oid AND l.objid = hashtext(g.id)::oid AND l.objsubid = 2)",
                (CLAIM_NAMESPACE,)).fetchall()
        return [row[0] for row in rows]

    def prune(self, before: float) -> int:
        with self._tx() as conn:
            old = "SELECT id FROM games WHERE updated_at < %s"
            conn.execute(f"DELETE FROM rounds WHERE game_id IN ({old})", (before,))
            conn.execute(f"DELETE FROM requests WHERE game_id IN ({old})", (before,))
            conn.execute(f"DELETE FROM reviews WHERE game_id IN ({old})", (before,))
            removed = conn.execute("DELETE FROM games WHERE updated_at < %s", (before,)).rowcount
            conn.execute(f"DELETE FROM creation_buckets WHERE at < {_DB_NOW} - %s", (BUCKET_IDLE_SECONDS,))
        return removed

    def maintain(self) -> None:
        """Nothing to do: PostgreSQL's autovacuum keeps the tables."""

    def close(self) -> None:
        """The pool belongs to whoever opened it."""


def _game_row(r: GameRecord) -> tuple:
    return (r.game_id, r.token_hash, r.variant, r.level, r.language, r.bot_seed, r.version, r.state,
            r.match_no, r.pending, r.created_at, r.updated_at)


class AdvisoryClaims:
    """Which host works on which game: advisory locks on one connection of
    this host's own (on a thread of its own, so the event loop never waits).

    Locks belong to the connection: if this process dies, PostgreSQL drops
    them all when it notices the closed socket.
    """

    shared = True

    def __init__(self, url: str) -> None:
        self._url = url
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dizhu-claims")
        self._held: set[str] = set()  # touched on the claims thread only
        self._db: psycopg.Connection | None = None
        self._thread.submit(self._connect).result()

    def _connect(self) -> None:
        self._db = psycopg.connect(self._url, autocommit=True)

    def _run(self, sql: str, game_id: str) -> bool:
        for attempt in (1, 2):
            try:
                if self._db is None or self._db.closed:
                    self._reconnect()
                assert self._db is not None
                return bool(self._db.execute(sql, (CLAIM_NAMESPACE, game_id)).fetchone()[0])
            except psycopg.OperationalError:
                if attempt == 2:
                    raise
                self._db = None
        raise AssertionError("unreachable")

    def _reconnect(self) -> None:
        """A new lock connection.  The old one's locks are gone: take back
        those still in use (another host may have taken one meanwhile: then
        the compare-and-swap of the commits decides)."""
        if self._held:
            log.warning("the claims connection was lost; taking back %d claims", len(self._held))
        self._connect()
        assert self._db is not None
        for game_id in list(self._held):
            self._db.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))", (CLAIM_NAMESPACE, game_id))

    def _claim(self, game_id: str) -> bool:
        if self._run("SELECT pg_try_advisory_lock(%s, hashtext(%s))", game_id):
            self._held.add(game_id)
            return True
        return False

    def _release(self, game_id: str) -> None:
        self._held.discard(game_id)
        try:
            self._run("SELECT pg_advisory_unlock(%s, hashtext(%s))", game_id)
        except psycopg.Error as exc:  # the connection went: its locks went with it
            log.warning("releasing a claim failed: %s", type(exc).__name__)

    async def claim(self, game_id: str) -> bool:
        """Take the game if no other host has it (never waits for one that does)."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._claim, game_id)

    async def release(self, game_id: str) -> None:
        """Give the game back, before the answer goes out (so that the client's
        next request, to whichever host, finds the game free).  Submitted at
        once: it runs even if the request is cancelled while it waits."""
        done = self._thread.submit(self._release, game_id)
        await asyncio.shield(asyncio.wrap_future(done))

    def close(self) -> None:
        def disconnect() -> None:
            if self._db is not None:
                # Closing alone would free the locks only once the server has seen the socket
                # close; unlocking first frees them before this returns.
                with contextlib.suppress(psycopg.Error):
                    self._db.execute("SELECT pg_advisory_unlock_all()")
                self._db.close()
            self._held.clear()

        self._thread.submit(disconnect).result()
        self._thread.shutdown(wait=True)


class SharedCreationLimit:
    """The creation limit's token buckets in the shared database, on the
    database's clock (hosts' clocks may differ).  ``clock`` replaces that
    clock in tests."""

    def __init__(self, pool: ConnectionPool, per_minute: float, burst: int,
                 *, clock: Callable[[], float] | None = None) -> None:
        self._pool = pool
        self.rate = per_minute / 60.0
        self.burst = max(1, burst)
        self._clock = clock

    def take(self, client: str) -> float:
        """As :meth:`dizhu.web.ratelimit.TokenBuckets.wait`, atomically across hosts."""
        if self.rate <= 0:
            return 0.0
        now_sql = "%s::float8" if self._clock is not None else _DB_NOW
        params: tuple = (client, float(self.burst))
        if self._clock is not None:
            params = (client, float(self.burst), self._clock(), self._clock())
        with self._pool.connection() as conn, conn.transaction():
            # The upsert locks the client's row until this transaction ends: hosts take turns.
            tokens, at, now = conn.execute(
                f"INSERT INTO creation_buckets AS b (client, tokens, at) VALUES (%s, %s, {now_sql}) "
                "ON CONFLICT (client) DO UPDATE SET client = b.client "
                f"RETURNING b.tokens, b.at, {now_sql}",
                params,
            ).fetchone()
            tokens, wait = take_one(tokens, at, now, self.rate, self.burst)
            conn.execute("UPDATE creation_buckets SET tokens = %s, at = %s WHERE client = %s",
                         (tokens, max(at, now), client))
        return wait

    async def wait(self, client: str) -> float:
        return await asyncio.to_thread(self.take, client)

