"""One contract for every store: the SQLite file and PostgreSQL pass the same tests.

Each test runs on both (the `backend` fixture); the PostgreSQL server is a
throwaway one started by the test session (conftest.py, pg_support.py).
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest
from fastapi.testclient import TestClient

from dizhu.web import Settings, create_app
from dizhu.web.database import LocalClaims, _LocalCreationLimit, is_postgres, open_database
from dizhu.web.ratelimit import TokenBuckets
from dizhu.web.sqlite_store import REQUESTS_KEPT, SQLiteStore
from dizhu.web.store import AsyncStore, GameRecord, GameStore, RequestEntry

from .support import new_game

GAME = "g" * 22


def record(game_id: str = GAME, version: int = 1, updated: float = 1000.0, pending: bool = False) -> GameRecord:
    return GameRecord(game_id, "hash", "classic", "normal", "en", "seed", version, '{"s":1}', 1, pending,
                      updated, updated)


class Backend:
    """One kind of database for a test: its URL, and stores opened on it (closed at the end)."""

    def __init__(self, kind: str, url: str) -> None:
        self.kind = kind
        self.url = url
        self._closers: list[Callable[[], None]] = []

    def open(self) -> GameStore:
        if self.kind == "sqlite":
            store = SQLiteStore(self.url[len("sqlite:"):])
            self._closers.append(store.close)
            return store
        from dizhu.web.pg_store import PostgresStore, open_pool, prepare_schema

        pool = open_pool(self.url, min_size=1, max_size=4)
        self._closers.append(pool.close)
        with pool.connection() as conn:
            prepare_schema(conn)
        return PostgresStore(pool)

    def settings(self, tmp_path: Path, **changes: Any) -> Settings:
        fields: dict[str, Any] = {"data_dir": tmp_path / "data", "workers": 0, "prune_every": 3600.0,
                                  "database": self.url, **changes}
        return Settings(**fields)

    def close(self) -> None:
        for close in reversed(self._closers):
            close()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request, tmp_path):
    if request.param == "sqlite":
        b = Backend("sqlite", f"sqlite:{tmp_path / 'd' / 'games.sqlite'}")
    else:
        b = Backend("postgresql", request.getfixturevalue("pg_url"))
    yield b
    b.close()


@pytest.fixture
def store(backend) -> GameStore:
    return backend.open()


# ---- the store


def test_save_is_compare_and_swap(store):
    store.create(record())
    assert store.load(GAME) == record() and store.load("nope") is None
    newer = replace(record(version=2), state='{"s":2}')
    entry = RequestEntry("r1", "fp", 0, None, 1.0)
    assert store.save(newer, 1, rounds=[{"number": 1}], request=entry)
    lost = replace(record(version=2), state='{"s":"lost"}')
    assert not store.save(lost, 1, rounds=[{"number": 9}], request=RequestEntry("r2", "fp", 0, None, 2.0))
    assert store.load(GAME).state == '{"s":2}'
    assert store.rounds(GAME) == [{"number": 1, "match": 1, "index": 1}]  # nothing of the lost write
    assert store.request(GAME, "r2") is None and store.request(GAME, "r1") == entry


def test_two_connections_racing_for_one_version_one_wins(backend):
    """Two hosts (two stores, their own connections) save on the same version at once."""
    first, second = backend.open(), backend.open()
    first.create(record())
    results: list[bool] = []
    start = threading.Barrier(2)

    def save(store: GameStore, state: str) -> None:
        start.wait()
        results.append(store.save(replace(record(version=2), state=state), 1,
                                  request=RequestEntry(state, "fp", 0, None, 1.0)))

    threads = [threading.Thread(target=save, args=(s, name)) for s, name in ((first, "a"), (second, "b"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False, True]
    winner = first.load(GAME).state
    assert winner in ("a", "b") and second.load(GAME).version == 2
    loser = "b" if winner == "a" else "a"
    assert second.request(GAME, winner) is not None and second.request(GAME, loser) is None


def test_language_is_not_overwritten_by_a_move(store):
    store.create(record())
    store.set_language(GAME, "ja", 5.0)
    assert store.save(record(version=2), 1)  # its record still says "en"
    assert store.load(GAME).language == "ja"


def test_request_ids_are_remembered_answered_once_and_only_the_recent_kept(store):
    store.create(record())
    for n in range(REQUESTS_KEPT + 5):
        assert store.save(record(version=n + 2), n + 1, request=RequestEntry(f"r{n}", "fp", n, None, float(n)))
    assert store.request(GAME, "r0") is None
    last = f"r{REQUESTS_KEPT + 4}"
    assert store.request(GAME, last).response is None
    store.save(record(version=REQUESTS_KEPT + 7), REQUESTS_KEPT + 6,
               request=RequestEntry(last, "other", 0, '{"done":1}', 0.0))
    seen = store.request(GAME, last)
    assert seen.response == '{"done":1}'
    assert (seen.since, seen.fingerprint) == (REQUESTS_KEPT + 4, "fp")  # the first write's stay
    assert store.load_for_write(GAME, last) == (record(version=REQUESTS_KEPT + 7), seen)
    assert store.load_for_write(GAME, "unseen") == (record(version=REQUESTS_KEPT + 7), None)
    assert store.load_for_write("nope", last) == (None, None)


def test_rounds_keep_order_and_match_and_come_in_pages(store):
    store.create(record())
    store.save(record(version=2), 1, rounds=[{"number": 1}, {"number": 2}])
    store.save(replace(record(version=3), match_no=2), 2, rounds=[{"number": 3}])
    everything = [{"number": 1, "match": 1, "index": 1}, {"number": 2, "match": 1, "index": 2},
                  {"number": 3, "match": 2, "index": 3}]
    assert store.rounds(GAME) == everything
    assert store.rounds(GAME, 1, 1) == everything[1:2]
    assert store.rounds_page(GAME, 0, 2) == (everything[:2], 3)
    assert store.rounds_page(GAME, 2, 2) == (everything[2:], 3)
    assert store.rounds_page(GAME, 5, 2) == ([], 3)  # past the end: still the total
    assert store.rounds_page("nope", 0, 2) == ([], 0)
    # a page stops before its stored text passes max_bytes, but holds one round at least
    assert store.rounds_page(GAME, 0, 50, max_bytes=30) == (everything[:2], 3)
    assert store.rounds_page(GAME, 0, 50, max_bytes=1) == (everything[:1], 3)


def test_only_the_newest_rounds_are_kept(store):
    store.rounds_kept = 2
    store.create(record())
    store.save(record(version=2), 1, rounds=[{"number": 1}, {"number": 2}])
    store.save(record(version=3), 2, rounds=[{"number": 3}])
    kept = [{"number": 2, "match": 1, "index": 2}, {"number": 3, "match": 1, "index": 3}]
    assert store.rounds(GAME) == kept
    assert store.rounds_page(GAME, 0, 50) == (kept, 3)  # the total still counts every round
    assert store.rounds_page(GAME, 2, 50) == (kept[1:], 3)


def test_a_kept_round_is_found_by_its_number(store):
    store.rounds_kept = 3
    store.create(record())
    store.create(record("b" * 22))
    store.save(record(version=2), 1, rounds=[{"number": 1}, {"number": 2, "deal_code": "x"}, {"number": 4}])
    store.save(replace(record(version=3), match_no=2), 2, rounds=[{"number": 5}, {"number": 12}])
    store.save(record("b" * 22, version=2), 1, rounds=[{"number": 7}])
    assert store.round_numbered(GAME, 12) == {"number": 12, "match": 2, "index": 5}
    assert store.round_numbered(GAME, 4) == {"number": 4, "match": 1, "index": 3}
    # no longer kept (rounds_kept), another game's, never played, or a number only as text
    assert store.round_numbered(GAME, 2) is None and store.round_numbered(GAME, 7) is None
    assert store.round_numbered(GAME, 3) is None and store.round_numbered("nope", 1) is None
    assert store.round_numbered("b" * 22, 7) == {"number": 7, "match": 1, "index": 1}
    store.save(record("b" * 22, version=3), 2, rounds=[{"number": "8"}])
    assert store.round_numbered("b" * 22, 8) is None


def test_reviews_are_kept_with_their_round_and_go_with_it(store):
    store.rounds_kept = 2
    store.create(record())
    store.create(record("b" * 22, updated=5000.0))
    store.save(record(version=2), 1, rounds=[{"number": 4}, {"number": 6}])
    assert store.review(GAME, 4, 0) is None
    store.save_review(GAME, 4, 0, 1, '{"a":1}')
    store.save_review(GAME, 6, 0, 2, '{"b":2}')
    store.save_review(GAME, 6, 0, 2, '{"b":3}')  # computed again: the newer copy stands
    store.save_review(GAME, 9, 0, 7, '{"c":1}')  # no such round kept: nothing stored
    store.save_review("b" * 22, 4, 0, 1, '{"d":1}')  # that game has no round 1
    assert (store.review(GAME, 4, 0), store.review(GAME, 6, 0)) == ('{"a":1}', '{"b":3}')
    assert store.review(GAME, 4, 1) is None and store.review(GAME, 9, 0) is None
    assert store.review("b" * 22, 4, 0) is None
    store.save(record(version=3), 2, rounds=[{"number": 7}])  # round 1 (number 4) is no longer kept
    assert store.review(GAME, 4, 0) is None and store.review(GAME, 6, 0) == '{"b":3}'
    assert store.prune(2000.0) == 1
    assert store.review(GAME, 6, 0) is None


def test_pending_games_and_retention(store):
    store.create(record("a" * 22, updated=100.0, pending=True))
    store.create(record("b" * 22, updated=300.0))
    store.save(record("a" * 22, version=2, updated=100.0, pending=True), 1, rounds=[{"n": 1}],
               request=RequestEntry("x", "fp", 0, None, 1.0))
    assert store.pending_games() == ["a" * 22]
    assert store.prune(200.0) == 1
    assert store.load("a" * 22) is None and store.rounds("a" * 22) == [] and store.request("a" * 22, "x") is None
    assert store.load("b" * 22) is not None and store.pending_games() == []
    assert store.prune(200.0) == 0


def test_a_batch_commits_together_but_each_write_stays_all_or_nothing(store):
    for name in "abc":
        store.create(record(name * 22))
    with store.batch():
        assert store.save(record("a" * 22, version=2), 1)
        with pytest.raises(Exception):  # fails after its UPDATE ran (too large for the column): undone
            store.save(record("b" * 22, version=2), 1, request=RequestEntry("x", "fp", 10**30, None, 1.0))
        assert store.save(record("c" * 22, version=2), 1, rounds=[{"n": 1}])
    assert [store.load(n * 22).version for n in "abc"] == [2, 1, 2]
    assert store.request("b" * 22, "x") is None and store.rounds("c" * 22) == [{"n": 1, "match": 1, "index": 1}]


def test_the_async_store_groups_concurrent_writes(backend):
    async def scenario() -> None:
        store = AsyncStore(backend.open)
        try:
            ids = [f"{n:022d}" for n in range(40)]
            await asyncio.gather(*(store.create(record(i)) for i in ids))
            bad = RequestEntry("x", "fp", 10**30, None, 1.0)
            results = await asyncio.gather(
                *(store.save(record(i, version=2), 1, request=bad if n == 7 else None) for n, i in enumerate(ids)),
                return_exceptions=True)
            assert isinstance(results[7], Exception)
            assert all(r is True for n, r in enumerate(results) if n != 7)
            assert [(await store.load(i)).version for i in ids] == [1 if n == 7 else 2 for n in range(40)]
            await store.maintain()
        finally:
            store.close()
        assert backend.open().load(ids[0]).version == 2

    asyncio.run(scenario())


_KILLED_MID_BATCH = """
import os, signal, sys
from dataclasses import replace
sys.path.insert(0, {root!r})
from tests.web.test_store_contract import Backend, record
store = Backend({kind!r}, {url!r}).open()
store.create(record())
assert store.save(replace(record(version=2), state="acknowledged"), 1)
print("saved", flush=True)
with store.batch():
    store.save(replace(record(version=3), state="never committed"), 2)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_recovery_after_a_kill_keeps_every_commit_and_nothing_else(backend):
    root = str(Path(__file__).resolve().parents[2])
    script = _KILLED_MID_BATCH.format(root=root, kind=backend.kind, url=backend.url)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert result.stdout == "saved\n"
    found = backend.open().load(GAME)
    assert (found.version, found.state) == (2, "acknowledged")


# ---- the creation limit


def test_the_creation_limit_counts_the_same_on_both(backend, tmp_path):
    clock = [0.0]

    async def scenario(limits: list) -> list[float]:
        waits = [await limits[n % len(limits)].wait("10.0.0.1") for n in range(3)]
        waits.append(await limits[0].wait("10.0.0.2"))  # another address has its own bucket
        clock[0] = 1.0
        waits.append(await limits[-1].wait("10.0.0.1"))
        waits.append(await limits[0].wait("10.0.0.1"))
        return waits

    if backend.kind == "sqlite":
        limit = _LocalCreationLimit(60, 2)
        limit._limit = TokenBuckets(60, 2, clock=lambda: clock[0])
        limits = [limit]
    else:
        from dizhu.web.pg_store import SharedCreationLimit, open_pool

        backend.open()  # the tables
        # Two hosts, each with its own pool: one bucket per address between them.
        pools = [open_pool(backend.url, min_size=1, max_size=2) for _ in range(2)]
        limits = [SharedCreationLimit(pool, 60, 2, clock=lambda: clock[0]) for pool in pools]
    try:
        assert asyncio.run(scenario(limits)) == [0.0, 0.0, 1.0, 0.0, 0.0, 1.0]
    finally:
        if backend.kind == "postgresql":
            for pool in pools:
                pool.close()


def test_the_database_factory_picks_the_store(backend, tmp_path):
    database = open_database(backend.settings(tmp_path))
    try:
        assert isinstance(database.claims, LocalClaims) == (backend.kind == "sqlite")
        assert (database.resume_every is None) == (backend.kind == "sqlite")
        assert database.description.startswith("PostgreSQL" if is_postgres(backend.url) else "SQLite")
    finally:
        database.close()


# ---- the server on each


def test_a_round_through_the_api_with_replays_conflicts_and_pages(backend, tmp_path):
    # Three games at once, then (almost) none: however slow the machine, no token comes back meanwhile.
    settings = backend.settings(tmp_path, create_per_minute=0.001, create_burst=3)
    with TestClient(create_app(settings)) as client:
        game = new_game(client, variant="duel")
        once = {"action": game.obs["legal_actions"][0], "version": game.view["version"], "request_id": "once"}
        first = game.post("act", once)
        assert first.status_code == 200
        game.view = first.json()
        assert game.post("act", once).content == first.content  # a retry: the first answer, applied once
        assert game.refresh()["version"] == first.json()["version"]
        reused = game.post("act", {**once, "action": "pass" if once["action"] != "pass" else "bid 1"})
        assert reused.status_code == 422 and reused.json()["error"]["code"] == "request_id_reused"
        stale = game.post("act", {**once, "request_id": "late"})
        assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale"
        for _ in range(3):
            game.play_out()
            assert game.write("another-round").status_code == 200
        page = client.get(f"/api/games/{game.id}/rounds", params={"limit": 2}, headers=game.headers).json()
        assert page["total"] == 3 and len(page["rounds"]) == 2 and page["next_offset"] == 2
        rest = client.get(f"/api/games/{game.id}/rounds", params={"offset": 2}, headers=game.headers).json()
        assert len(rest["rounds"]) == 1 and rest["next_offset"] is None
        new_game(client)
        new_game(client)
        limited = client.post("/api/games", json={"level": "normal"})
        assert limited.status_code == 429 and limited.json()["error"]["code"] == "too_many_games"
    with TestClient(create_app(settings)) as client:  # a restart keeps everything
        game.client = client
        before = game.view
        assert game.refresh() == before
        assert game.write("new-game").status_code == 200


def test_retention_prunes_through_the_server(backend, tmp_path):
    settings = backend.settings(tmp_path, retention_days=1, prune_every=0.05)
    with TestClient(create_app(settings)) as client:
        old, fresh = new_game(client), new_game(client)
        store = backend.open()
        aged = store.load(old.id)
        assert store.save(replace(aged, version=aged.version + 1, updated_at=aged.updated_at - 2 * 86400),
                          aged.version)
        for _ in range(200):
            response = old.get()
            if response.status_code == 404:
                break
            threading.Event().wait(0.02)
        assert response.status_code == 404 and response.json()["error"]["code"] == "unknown_game"
        assert fresh.get().status_code == 200



# ---- claims across hosts (PostgreSQL only: one SQLite host needs none)


def test_claims_keep_other_hosts_out_and_survive_a_lost_connection(pg_url):
    import psycopg

    from dizhu.web.pg_store import AdvisoryClaims

    async def scenario() -> None:
        mine, theirs = AdvisoryClaims(pg_url), AdvisoryClaims(pg_url)
        try:
            assert await mine.claim("a" * 22) and await mine.claim("b" * 22)
            assert not await theirs.claim("a" * 22)  # another host: kept out, without waiting
            await mine.release("a" * 22)
            assert await theirs.claim("a" * 22)  # released: free for the next host at once
            assert await mine.claim("c" * 22)
            await theirs.release("a" * 22)
            # the claims connection is cut (a database restart, a network cut): the next call
            # reconnects and takes back the claims still in use
            with psycopg.connect(pg_url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (mine._db.info.backend_pid,))
            assert await mine.claim("d" * 22)
            assert not await theirs.claim("b" * 22) and not await theirs.claim("c" * 22)
        finally:
            mine.close()
        assert await theirs.claim("b" * 22)  # closing released everything
        theirs.close()

    asyncio.run(scenario())
