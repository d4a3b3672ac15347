"""What only the SQLite store has: its file (mode, write-ahead log) and its schema version.
What every store must do is in test_store_contract.py, run on SQLite and PostgreSQL alike."""

from __future__ import annotations

import sqlite3

import pytest

from dizhu.web.sqlite_store import SCHEMA_VERSION, SQLiteStore
from dizhu.web.store import GameRecord


def record(game_id="g" * 22, version=1, updated=1000.0, pending=False):
    return GameRecord(game_id, "hash", "classic", "normal", "en", "seed", version, '{"s":1}', 1, pending,
                      updated, updated)


@pytest.fixture
def store(tmp_path):
    s = SQLiteStore(tmp_path / "d" / "games.sqlite")
    yield s
    s.close()


def test_create_load_and_wal(store, tmp_path):
    assert (tmp_path / "d" / "games.sqlite").stat().st_mode & 0o777 == 0o600  # hidden cards inside
    assert (tmp_path / "d").stat().st_mode & 0o077 == 0
    store.create(record())
    assert store.load("g" * 22) == record()
    assert store.load("nope") is None
    mode = sqlite3.connect(tmp_path / "d" / "games.sqlite").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_a_file_of_the_first_schema_opens_and_gains_the_reviews_table(tmp_path):
    path = tmp_path / "games.sqlite"
    s = SQLiteStore(path)
    s.create(record())
    s.close()
    db = sqlite3.connect(path)  # as the first schema left it: no reviews table, version 1
    db.execute("DROP TABLE reviews")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    again = SQLiteStore(path)
    assert again.load("g" * 22) == record() and again.review("g" * 22, 1, 0) is None
    again.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_the_file_survives_reopening_and_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "games.sqlite"
    s = SQLiteStore(path, sync="normal")
    s.create(record())
    s.close()
    again = SQLiteStore(path)
    assert again.load("g" * 22) == record()
    again.close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(RuntimeError):
        SQLiteStore(path)
    with pytest.raises(ValueError):
        SQLiteStore(tmp_path / "other.sqlite", sync="off")

