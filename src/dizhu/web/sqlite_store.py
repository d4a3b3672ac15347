"""The embedded store: one SQLite file in write-ahead-log mode.

Each method is one transaction, committed before it returns, so an answer
the server gives never describes a state that a crash could lose.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Any, Iterator, Sequence

from .settings import private_dir
from .store import GameRecord, RequestEntry, round_page

__all__ = ["SQLiteStore", "SCHEMA_VERSION"]

#: 2 added the reviews table; a version-1 file gains it when opened.
SCHEMA_VERSION = 2

#: Pages of write-ahead log after which a commit checkpoints by itself.
WAL_PAGES_BEFORE_SELF_CHECKPOINT = 10_000

#: Write requests remembered per game for duplicate detection.  A retry
#: concerns one of the last few requests; older ids may be forgotten.
REQUESTS_KEPT = 16

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL,
    variant     TEXT NOT NULL,
    level       TEXT NOT NULL,
    language    TEXT NOT NULL,
    bot_seed    TEXT NOT NULL,
    version     INTEGER NOT NULL,
    state       TEXT NOT NULL,
    match_no    INTEGER NOT NULL,
    pending     INTEGER NOT NULL,
    created_at  REAL NOT NULL,
    updated_at  REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_updated ON games (updated_at);
CREATE INDEX IF NOT EXISTS games_pending ON games (pending) WHERE pending = 1;
CREATE TABLE IF NOT EXISTS rounds (
    game_id   TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    match_no  INTEGER NOT NULL,
    payload   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS requests (
    game_id      TEXT NOT NULL,
    request_id   TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,
    since        INTEGER NOT NULL,
    response     TEXT,
    created_at   REAL NOT NULL,
    PRIMARY KEY (game_id, request_id)
);
CREATE TABLE IF NOT EXISTS reviews (
    game_id   TEXT NOT NULL,
    number    INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    payload   TEXT NOT NULL,
    PRIMARY KEY (game_id, number, seat)
);
"""

_GAME_COLUMNS = ("id, token_hash, variant, level, language, bot_seed, version, state, "
                 "match_no, pending, created_at, updated_at")


class SQLiteStore:
    """A :class:`~dizhu.web.store.GameStore` in one SQLite file.

    Use it from one thread (see :class:`~dizhu.web.store.AsyncStore`).
    ``sync`` is SQLite's ``synchronous`` setting: ``"full"`` or ``"normal"``.
    """

    def __init__(self, path: "str | Path", sync: str = "full", rounds_kept: int | None = None) -> None:
        if sync not in ("full", "normal"):
            raise ValueError(f"sync must be 'full' or 'normal', not {sync!r}")
        path = Path(path)
        self.rounds_kept = rounds_kept
        # The database holds every hidden card: readable by its owner only, whoever made it.
        # SQLite gives the -wal and -shm files the database file's permissions when it
        # creates them, so the database is fixed first, and side files left by an older
        # version are fixed too.
        if not path.parent.exists():
            private_dir(path.parent)  # (a directory that exists is the operator's: the data directory is checked)
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        for side in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"),
                     path.with_name(path.name + "-journal")):
            if side.exists() and side.stat().st_mode & 0o077:
                os.chmod(side, 0o600)
        # isolation_level=None: transactions are opened explicitly below.
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={sync.upper()}")
        # Other processes (a second server, a maintenance tool) may hold the lock briefly.
        self._db.execute("PRAGMA busy_timeout=5000")
        # Moving the log into the database (a checkpoint) flushes the disk and can take tens of
        # milliseconds: `maintain` does it on another connection, away from the writes; the
        # commits only do it themselves if the log grows past ~40 MB (maintenance behind).
        self._db.execute(f"PRAGMA wal_autocheckpoint={WAL_PAGES_BEFORE_SELF_CHECKPOINT}")
        self._db.execute(f"PRAGMA journal_size_limit={64 * 1024 * 1024}")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"{path} was written by a newer dizhu (schema {version})")
        with self._transaction():
            # executescript would commit on its own; run the statements inside our transaction.
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _transaction(self) -> "_Transaction":
        return _Transaction(self._db)

    @contextlib.contextmanager
    def _read(self) -> Iterator[None]:
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            self._db.execute("COMMIT")

    def batch(self) -> "_Transaction":
        """Writes inside share one commit (and one flush to disk)."""
        return _Transaction(self._db)

    # ---- games

    def create(self, record: GameRecord) -> None:
        with self._transaction():
            self._db.execute(
                f"INSERT INTO games ({_GAME_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                _game_row(record),
            )

    def load(self, game_id: str) -> GameRecord | None:
        row = self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else _record(row)

    def load_for_write(self, game_id: str, request_id: str) -> tuple[GameRecord | None, RequestEntry | None]:
        with self._read():  # one snapshot for both
            return self.load(game_id), self.request(game_id, request_id)

    def save(
        self,
        record: GameRecord,
        expected_version: int,
        *,
        rounds: Sequence[dict[str, Any]] = (),
        request: RequestEntry | None = None,
    ) -> bool:
        db = self._db
        with self._transaction():
            cursor = db.execute(
                # The language is left alone: it has its own method, and a game's
                # settings must not be rolled back by a move made meanwhile.
                "UPDATE games SET version = ?, state = ?, match_no = ?, pending = ?, updated_at = ? "
                "WHERE id = ? AND version = ?",
                (record.version, record.state, record.match_no, int(record.pending), record.updated_at,
                 record.game_id, expected_version),
            )
            if cursor.rowcount != 1:
                return False
            if rounds:
                last = db.execute("SELECT COALESCE(MAX(seq), 0) FROM rounds WHERE game_id = ?",
                                  (record.game_id,)).fetchone()[0]
                db.executemany(
                    "INSERT INTO rounds (game_id, seq, match_no, payload) VALUES (?,?,?,?)",
                    [(record.game_id, last + i + 1, record.match_no, json.dumps(r, separators=(",", ":")))
                     for i, r in enumerate(rounds)],
                )
                if self.rounds_kept is not None:
                    # Bounded storage per game: the oldest rounds go (the match's totals live in its state).
                    db.execute("DELETE FROM rounds WHERE game_id = ? AND seq <= ?",
                               (record.game_id, last + len(rounds) - self.rounds_kept))
                    db.execute("DELETE FROM reviews WHERE game_id = ? AND seq <= ?",
                               (record.game_id, last + len(rounds) - self.rounds_kept))
            if request is not None:
                self._put_request(record.game_id, request)
        return True

    def _put_request(self, game_id: str, entry: RequestEntry) -> None:
        db = self._db
        cursor = db.execute(
            "UPDATE requests SET response = ? WHERE game_id = ? AND request_id = ?",
            (entry.response, game_id, entry.request_id),
        )
        if cursor.rowcount:
            return
        db.execute(
            "INSERT INTO requests (game_id, request_id, fingerprint, since, response, created_at) "
            "VALUES (?,?,?,?,?,?)",
            (game_id, entry.request_id, entry.fingerprint, entry.since, entry.response, entry.created_at),
        )
        # Forget all but the most recent requests of this game.
        db.execute(
            "DELETE FROM requests WHERE game_id = ? AND request_id NOT IN ("
            " SELECT request_id FROM requests WHERE game_id = ? ORDER BY created_at DESC LIMIT ?)",
            (game_id, game_id, REQUESTS_KEPT),
        )

    def set_language(self, game_id: str, language: str, now: float) -> None:
        with self._transaction():
            self._db.execute("UPDATE games SET language = ?, updated_at = ? WHERE id = ?",
                             (language, now, game_id))

    def request(self, game_id: str, request_id: str) -> RequestEntry | None:
        row = self._db.execute(
            "SELECT request_id, fingerprint, since, response, created_at FROM requests "
            "WHERE game_id = ? AND request_id = ?",
            (game_id, request_id),
        ).fetchone()
        return None if row is None else RequestEntry(*row)

    def rounds(self, game_id: str, offset: int = 0, limit: int | None = None,
               max_bytes: int | None = None) -> list[dict[str, Any]]:
        rows = self._db.execute(
            "SELECT seq, match_no, payload FROM rounds WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (game_id, offset, -1 if limit is None else limit),
        )
        return round_page(rows, max_bytes)

    def rounds_page(self, game_id: str, offset: int, limit: int,
                    max_bytes: int | None = None) -> tuple[list[dict[str, Any]], int]:
        with self._read():  # one snapshot for both
            total = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM rounds WHERE game_id = ?",
                                     (game_id,)).fetchone()[0]
            return self.rounds(game_id, offset, limit, max_bytes), total

    def round_numbered(self, game_id: str, number: int) -> dict[str, Any] | None:
        # The number is inside the payload: the primary key narrows the search to the game's
        # kept rounds (rounds_kept at most), the database reads their numbers, one row comes back.
        row = self._db.execute(
            "SELECT seq, match_no, payload FROM rounds WHERE game_id = ? AND json_extract(payload, '$.number') = ? "
            "ORDER BY seq DESC LIMIT 1", (game_id, number)).fetchone()
        return None if row is None else round_page([row], None)[0]

    def review(self, game_id: str, number: int, seat: int) -> str | None:
        row = self._db.execute("SELECT payload FROM reviews WHERE game_id = ? AND number = ? AND seat = ?",
                               (game_id, number, seat)).fetchone()
        return None if row is None else row[0]

    def save_review(self, game_id: str, number: int, seat: int, seq: int, payload: str) -> None:
        with self._transaction():
            # Kept only while its round is: a round already gone (or a game deleted) takes none.
            self._db.execute(
                "INSERT OR REPLACE INTO reviews (game_id, number, seat, seq, payload) "
                "SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM rounds WHERE game_id = ? AND seq = ?)",
                (game_id, number, seat, seq, payload, game_id, seq))

    def pending_games(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT id FROM games WHERE pending = 1")]

    def prune(self, before: float) -> int:
        db = self._db
        with self._transaction():
            old = "SELECT id FROM games WHERE updated_at < ?"
            db.execute(f"DELETE FROM rounds WHERE game_id IN ({old})", (before,))
            db.execute(f"DELETE FROM requests WHERE game_id IN ({old})", (before,))
            db.execute(f"DELETE FROM reviews WHERE game_id IN ({old})", (before,))
            return db.execute("DELETE FROM games WHERE updated_at < ?", (before,)).rowcount

    def maintain(self) -> None:
        """Checkpoint: copy the write-ahead log into the database file, without
        waiting for (or holding up) readers and writers."""
        self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def close(self) -> None:
        self._db.close()


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on any error); inside
    another transaction, a savepoint that undoes only its own changes."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._nested = False

    def __enter__(self) -> None:
        self._nested = self._db.in_transaction
        self._db.execute("SAVEPOINT step" if self._nested else "BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None:
        if self._nested:
            if kind is not None:
                self._db.execute("ROLLBACK TO step")
            self._db.execute("RELEASE step")
        else:
            self._db.execute("COMMIT" if kind is None else "ROLLBACK")


def _game_row(r: GameRecord) -> tuple:
    return (r.game_id, r.token_hash, r.variant, r.level, r.language, r.bot_seed, r.version, r.state,
            r.match_no, int(r.pending), r.created_at, r.updated_at)


def _record(row: tuple) -> GameRecord:
    (game_id, token_hash, variant, level, language, bot_seed, version, state, match_no, pending,
     created_at, updated_at) = row
    return GameRecord(game_id, token_hash, variant, level, language, bot_seed, version, state,
                      match_no, bool(pending), created_at, updated_at)
