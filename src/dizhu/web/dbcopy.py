"""Moving and keeping games: ``dizhu db copy`` and ``dizhu db backup``.

A copy moves every game, finished round and remembered request, row for
row, from one database to another (SQLite or PostgreSQL, either way), into
an empty target in one transaction.  Before that transaction commits, the
source is read again: if a server changed it meanwhile, nothing is kept.  After
it, both sides are read again and compared table by table, so that a copy that
reports success is exact.
The creation limit's buckets are not copied: they refill in minutes.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from .database import DatabaseError, describe, is_postgres, plainly, sqlite_path
from .sqlite_store import SQLiteStore

__all__ = ["copy_games", "backup_sqlite", "table_digests", "CopyReport", "TABLES", "CopyError"]

#: Every table that holds games, with its columns, in primary key order.
TABLES: dict[str, tuple[str, ...]] = {
    "games": ("id", "token_hash", "variant", "level", "language", "bot_seed", "version", "state", "match_no",
              "pending", "created_at", "updated_at"),
    "rounds": ("game_id", "seq", "match_no", "payload"),
    "requests": ("game_id", "request_id", "fingerprint", "since", "response", "created_at"),
    "reviews": ("game_id", "number", "seat", "seq", "payload"),
}
_KEYS = {"games": "id", "rounds": "game_id, seq", "requests": "game_id, request_id",
         "reviews": "game_id, number, seat"}
#: Tables a database of an older schema may lack (read as empty).
_LATER = {"reviews"}

#: Rows fetched or written at a time: a large database is streamed, not loaded whole.
CHUNK = 2000


class CopyError(DatabaseError):
    """The copy could not be made (nothing was written), or did not compare equal."""


@dataclass
class CopyReport:
    rows: dict[str, int]


def _games_in(db: Any) -> int:
    """The games an open database (SQLite or PostgreSQL connection) holds."""
    return db.execute("SELECT count(*) FROM games").fetchone()[0]


def _count_games(url: str, data_dir: Path) -> int:
    """Read the source once before anything is written: a file that is not a database, or a
    server that does not answer, fails here, before the target exists."""
    with plainly(CopyError, f"cannot read the {describe(url or f'sqlite:{sqlite_path(url, data_dir)}')}", url):
        if is_postgres(url):
            import psycopg

            with psycopg.connect(url, connect_timeout=10) as conn:
                return _games_in(conn)
        db = _sqlite_connect(sqlite_path(url, data_dir), write=False)
        try:
            return _games_in(db)
        finally:
            db.close()


def _normal(table: str, row: tuple) -> tuple:
    """The row as both databases mean it (SQLite stores ``pending`` as 0/1)."""
    if table == "games":
        row = row[:9] + (bool(row[9]),) + row[10:]
    return tuple(row)


# ---- reading


def _sqlite_connect(path: Path, *, write: bool) -> sqlite3.Connection:
    if not write:
        if not path.exists():
            raise CopyError(f"no SQLite database at {path}")
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    return sqlite3.connect(path, isolation_level=None)


def _rows(url: str, data_dir: Path) -> Iterator[tuple[str, Iterator[tuple]]]:
    """Every table's rows, in key order, all from one snapshot of the source."""
    if is_postgres(url):
        import psycopg

        with psycopg.connect(url) as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            for table, columns in TABLES.items():
                if table in _LATER and conn.execute("SELECT to_regclass(%s)", (table,)).fetchone()[0] is None:
                    yield table, iter(())
                    continue
                with conn.cursor(name=f"dizhu_copy_{table}") as cursor:  # server side: streamed
                    cursor.itersize = CHUNK
                    cursor.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {_KEYS[table]}")
                    yield table, (_normal(table, row) for row in cursor)
        return
    db = _sqlite_connect(sqlite_path(url, data_dir), write=False)
    try:
        db.execute("BEGIN")  # one snapshot for every table
        for table, columns in TABLES.items():
            if table in _LATER and not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                                  (table,)).fetchone():
                yield table, iter(())
                continue
            cursor = db.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {_KEYS[table]}")
            yield table, (_normal(table, row) for row in cursor)
        db.execute("COMMIT")
    finally:
        db.close()


def table_digests(url: str, data_dir: "Path | str" = ".") -> dict[str, tuple[int, str]]:
    """Each table's row count and a SHA-256 of its rows (as both databases mean them)."""
    digests: dict[str, tuple[int, str]] = {}
    for table, rows in _digesting(_rows(url, Path(data_dir)), digests):
        for _ in rows:
            pass
    return digests


def _digesting(tables: Iterator[tuple[str, Iterator[tuple]]], digests: dict[str, tuple[int, str]]
               ) -> Iterator[tuple[str, Iterator[tuple]]]:
    """``tables`` passed on as they are, each table's count and digest (as :func:`table_digests`)
    written into ``digests`` once its rows have all gone by."""
    for table, rows in tables:
        def rows_of(table: str = table, rows: Iterator[tuple] = rows) -> Iterator[tuple]:
            digest, count = hashlib.sha256(), 0
            for row in rows:
                digest.update(repr(row).encode())
                count += 1
                yield row
            digests[table] = (count, digest.hexdigest())

        yield table, rows_of()


# ---- writing


def _write_postgres(url: str, tables: Iterator[tuple[str, Iterator[tuple]]],
                    before_commit: Callable[[], None]) -> dict[str, int]:
    import psycopg

    from .pg_store import prepare_schema

    counts: dict[str, int] = {}
    with psycopg.connect(url, autocommit=True) as conn:
        prepare_schema(conn)
        with conn.transaction():
            if conn.execute("SELECT EXISTS (SELECT 1 FROM games)").fetchone()[0]:
                raise CopyError("the target already has games: copy into an empty database")
            for table, rows in tables:
                counts[table] = 0
                with conn.cursor().copy(f"COPY {table} ({', '.join(TABLES[table])}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
                        counts[table] += 1
            before_commit()
    return counts


def _write_sqlite(path: Path, tables: Iterator[tuple[str, Iterator[tuple]]],
                  before_commit: Callable[[], None]) -> dict[str, int]:
    SQLiteStore(path).close()  # the file (mode 600) and its tables
    db = _sqlite_connect(path, write=True)
    counts: dict[str, int] = {}
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("SELECT EXISTS (SELECT 1 FROM games)").fetchone()[0]:
                raise CopyError("the target already has games: copy into an empty database")
            for table, rows in tables:
                columns = TABLES[table]
                sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
                counts[table] = 0
                for row in rows:
                    db.execute(sql, _sqlite_row(table, row))
                    counts[table] += 1
            before_commit()
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    finally:
        db.close()
    return counts


def _sqlite_row(table: str, row: tuple) -> tuple[Any, ...]:
    if table == "games":
        return row[:9] + (int(row[9]),) + row[10:]
    return row


def copy_games(source: str, target: str, data_dir: "Path | str" = ".") -> CopyReport:
    """Copy every game from ``source`` to ``target`` (``sqlite:PATH`` or
    ``postgresql://...``; empty means the SQLite file of ``data_dir``), then
    check that both hold the same rows."""
    data_dir = Path(data_dir)
    if source == target:
        raise CopyError("the source and the target are the same database")
    _count_games(source, data_dir)
    written: dict[str, tuple[int, str]] = {}

    def source_unchanged() -> None:
        # still inside the target's transaction: a refusal here leaves the target empty
        if table_digests(source, data_dir) != written:
            raise CopyError("the source changed during the copy: was a server still writing to it? "
                            "Nothing was copied; stop the server and copy again")

    with plainly(CopyError, "the copy failed", source, target):
        rows = _digesting(_rows(source, data_dir), written)
        if is_postgres(target):
            counts = _write_postgres(target, rows, source_unchanged)
        else:
            counts = _write_sqlite(sqlite_path(target, data_dir), rows, source_unchanged)
        before, after = table_digests(source, data_dir), table_digests(target, data_dir)
    if before != after:
        # Only possible if the source changed meanwhile (a server still running on it).
        changed = [t for t in TABLES if before[t] != after[t]]
        raise CopyError(f"the copy differs from the source in {', '.join(changed)}: was a server still "
                        "writing to the source? Stop it, empty the target and copy again")
    return CopyReport(counts)


def backup_sqlite(path: Path, to: Path) -> int:
    """SQLite's online backup of ``path`` into the new file ``to`` (mode 600: it
    holds every hidden card), consistent even while a server writes; the number
    of games it holds."""
    if to.exists():
        raise CopyError(f"{to} already exists")
    if not to.parent.is_dir():
        raise CopyError(f"no directory {to.parent} to hold the backup")
    source = _sqlite_connect(path, write=False)
    try:
        # a file that is not a dizhu database fails here, before the target exists
        with plainly(CopyError, f"cannot read the {describe(f'sqlite:{path}')}"):
            _games_in(source)
        os.close(os.open(to, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        try:
            with closing(sqlite3.connect(to)) as target, plainly(CopyError, "the backup failed"):
                source.backup(target)
                return _games_in(target)
        except BaseException:
            to.unlink(missing_ok=True)  # (a half backup would be refused as existing next time)
            raise
    finally:
        source.close()
