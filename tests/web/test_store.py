"""The SQLite store: compare-and-swap writes, rounds, remembered requests, pruning, durability."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from dizhu.web import Settings, create_app
from dizhu.web.sqlite_store import REQUESTS_KEPT, SCHEMA_VERSION, SQLiteStore
from dizhu.web.store import GameRecord, RequestEntry

from .support import new_game


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


def test_save_is_compare_and_swap(store):
    store.create(record())
    newer = replace(record(version=2), state='{"s":2}')
    entry = RequestEntry("r1", "fp", 0, None, 1.0)
    assert store.save(newer, 1, rounds=[{"number": 1}], request=entry)
    lost = replace(record(version=2), state='{"s":"lost"}')
    assert not store.save(lost, 1, rounds=[{"number": 9}], request=RequestEntry("r2", "fp", 0, None, 2.0))
    assert store.load("g" * 22).state == '{"s":2}'
    assert store.rounds("g" * 22) == [{"number": 1, "match": 1, "index": 1}]  # nothing of the lost write
    assert store.request("g" * 22, "r2") is None and store.request("g" * 22, "r1") == entry


def test_language_is_not_overwritten_by_a_move(store):
    store.create(record())
    store.set_language("g" * 22, "ja", 5.0)
    assert store.save(record(version=2), 1)  # its record still says "en"
    assert store.load("g" * 22).language == "ja"


def test_requests_are_updated_and_only_the_recent_ones_kept(store):
    store.create(record())
    for n in range(REQUESTS_KEPT + 5):
        assert store.save(record(version=n + 2), n + 1, request=RequestEntry(f"r{n}", "fp", n, None, float(n)))
    assert store.request("g" * 22, "r0") is None
    last = f"r{REQUESTS_KEPT + 4}"
    assert store.request("g" * 22, last).response is None
    store.save(record(version=REQUESTS_KEPT + 6), REQUESTS_KEPT + 6,
               request=RequestEntry(last, "fp", 0, '{"done":1}', 0.0))
    assert store.request("g" * 22, last).response == '{"done":1}'
    assert store.request("g" * 22, last).since == REQUESTS_KEPT + 4  # the first write's since stays


def test_rounds_keep_their_order_and_match(store):
    store.create(record())
    store.save(record(version=2), 1, rounds=[{"number": 1}, {"number": 2}])
    changed = replace(record(version=3), match_no=2)
    store.save(changed, 2, rounds=[{"number": 3}])
    assert store.rounds("g" * 22) == [{"number": 1, "match": 1, "index": 1}, {"number": 2, "match": 1, "index": 2},
                                      {"number": 3, "match": 2, "index": 3}]


def test_pending_games_and_pruning(store):
    store.create(record("a" * 22, updated=100.0, pending=True))
    store.create(record("b" * 22, updated=300.0))
    store.save(record("a" * 22, version=2, updated=100.0, pending=True), 1, rounds=[{"n": 1}],
               request=RequestEntry("x", "fp", 0, None, 1.0))
    assert store.pending_games() == ["a" * 22]
    assert store.prune(200.0) == 1
    assert store.load("a" * 22) is None and store.rounds("a" * 22) == [] and store.request("a" * 22, "x") is None
    assert store.load("b" * 22) is not None


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


def test_old_games_are_pruned_by_the_server(tmp_path):
    settings = Settings(data_dir=tmp_path, workers=0, retention_days=1, prune_every=0.05)
    with TestClient(create_app(settings)) as client:
        old, fresh = new_game(client), new_game(client)
        time.sleep(0.2)
        assert old.get().status_code == 200  # a day's retention: nothing pruned yet
        db = sqlite3.connect(settings.db_path)
        with db:  # the old game was last touched two days ago
            db.execute("UPDATE games SET updated_at = updated_at - 2 * 86400 WHERE id = ?", (old.id,))
        db.close()
        for _ in range(100):
            response = old.get()
            if response.status_code == 404:
                break
            time.sleep(0.02)
        assert response.status_code == 404 and response.json()["error"]["code"] == "unknown_game"
        assert fresh.get().status_code == 200


def test_a_batch_commits_together_but_each_write_stays_all_or_nothing(store):
    for name in "abc":
        store.create(record(name * 22))
    with store.batch():
        assert store.save(record("a" * 22, version=2), 1)
        with pytest.raises(OverflowError):  # fails after its UPDATE ran: that must be undone
            store.save(record("b" * 22, version=2), 1, request=RequestEntry("x", "fp", 10**30, None, 1.0))
        assert store.save(record("c" * 22, version=2), 1, rounds=[{"n": 1}])
    assert [store.load(n * 22).version for n in "abc"] == [2, 1, 2]
    assert store.request("b" * 22, "x") is None and store.rounds("c" * 22) == [{"n": 1, "match": 1, "index": 1}]


def test_load_for_write_reads_the_game_and_the_request(store):
    store.create(record())
    assert store.load_for_write("g" * 22, "r") == (record(), None)
    entry = RequestEntry("r", "fp", 3, "{}", 1.0)
    store.save(record(version=2), 1, request=entry)
    assert store.load_for_write("g" * 22, "r") == (record(version=2), entry)
    assert store.load_for_write("nope", "r") == (None, None)


def test_the_async_store_groups_concurrent_writes(tmp_path):
    from dizhu.web.store import AsyncStore

    async def scenario():
        store = AsyncStore(lambda: SQLiteStore(tmp_path / "g.sqlite"))
        try:
            ids = [f"{n:022d}" for n in range(40)]
            await asyncio.gather(*(store.create(record(i)) for i in ids))
            bad = RequestEntry("x", "fp", 10**30, None, 1.0)
            results = await asyncio.gather(
                *(store.save(record(i, version=2), 1, request=bad if n == 7 else None) for n, i in enumerate(ids)),
                return_exceptions=True)
            assert isinstance(results[7], OverflowError)
            assert all(r is True for n, r in enumerate(results) if n != 7)
            assert [(await store.load(i)).version for i in ids] == [1 if n == 7 else 2 for n in range(40)]
            await store.maintain()
        finally:
            store.close()
        fresh = SQLiteStore(tmp_path / "g.sqlite")
        assert fresh.load(ids[0]).version == 2
        fresh.close()

    asyncio.run(scenario())
