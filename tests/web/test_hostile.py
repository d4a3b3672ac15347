"""What a hostile client tries through the API: big reads, hint and round floods, odd bodies
and numbers, HEAD; and the database's file modes."""

from __future__ import annotations

import os
import stat
import sqlite3

import pytest
from fastapi.testclient import TestClient

from dizhu.web import Settings, create_app
from dizhu.web.sqlite_store import SQLiteStore

from .support import new_game


def _play_rounds(game, count: int) -> None:
    for n in range(count):
        game.play_out()
        if n < count - 1:
            assert game.write("another-round").status_code == 200


def test_a_page_of_rounds_is_bounded_in_bytes_and_cached_by_etag(tmp_path):
    settings = Settings(data_dir=tmp_path, workers=0, rounds_page_bytes=6000, round_burst=100)
    with TestClient(create_app(settings)) as client:
        game = new_game(client, variant="duel")
        _play_rounds(game, 8)
        first = client.get(f"/api/games/{game.id}/rounds?limit=200", headers=game.headers)
        assert first.status_code == 200
        page = first.json()
        assert page["total"] == 8 and 1 <= len(page["rounds"]) < 8  # cut by bytes, not by the limit
        assert len(first.content) < 6000 + 2000  # the stored rounds plus the page's own fields
        assert page["next_offset"] == len(page["rounds"])
        assert [r["index"] for r in page["rounds"]] == list(range(1, len(page["rounds"]) + 1))
        etag = first.headers["etag"]
        assert first.headers["cache-control"] == "private, no-cache"
        again = client.get(f"/api/games/{game.id}/rounds?limit=200", headers={**game.headers, "If-None-Match": etag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
        # HTTP's comparison: weak, "*" for any tag, any tag of a list (a weak tag and "*" were 200s)
        for header in (f"W/{etag}", "*", f'"other", {etag}'):
            assert client.get(f"/api/games/{game.id}/rounds?limit=200",
                              headers={**game.headers, "If-None-Match": header}).status_code == 304, header
        other = client.get(f"/api/games/{game.id}/rounds?offset=1", headers={**game.headers, "If-None-Match": etag})
        assert other.status_code == 200 and other.headers["etag"] != etag
        # following next_offset reads every round exactly once
        seen, offset = [], 0
        while offset is not None:
            body = client.get(f"/api/games/{game.id}/rounds?offset={offset}&limit=200", headers=game.headers).json()
            seen += [r["index"] for r in body["rounds"]]
            offset = body["next_offset"]
        assert seen == list(range(1, 9))


def test_reads_of_finished_rounds_are_limited_per_address(tmp_path):
    settings = Settings(data_dir=tmp_path, workers=0, rounds_page_bytes=1000, read_burst=3000,
                        read_per_minute=60)
    with TestClient(create_app(settings)) as client:
        game = new_game(client)
        codes = [client.get(f"/api/games/{game.id}/rounds", headers=game.headers).status_code for _ in range(5)]
        assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]
        refused = client.get(f"/api/games/{game.id}/rounds", headers=game.headers)
        assert refused.json()["error"]["code"] == "too_many_reads" and int(refused.headers["retry-after"]) >= 1


def test_only_the_newest_rounds_are_kept_and_the_totals_stay(tmp_path):
    settings = Settings(data_dir=tmp_path, workers=0, rounds_kept=3, round_burst=100)
    with TestClient(create_app(settings)) as client:
        game = new_game(client, variant="duel")
        _play_rounds(game, 5)
        page = client.get(f"/api/games/{game.id}/rounds", headers=game.headers).json()
        assert page["total"] == 5 and [r["index"] for r in page["rounds"]] == [3, 4, 5]
        assert page["rounds"][-1]["totals"] == game.view["totals"]
        later = client.get(f"/api/games/{game.id}/rounds?offset=3", headers=game.headers).json()
        assert [r["index"] for r in later["rounds"]] == [4, 5] and later["next_offset"] is None
        cut = client.get(f"/api/games/{game.id}/rounds?offset=0&limit=2", headers=game.headers).json()
        assert [r["index"] for r in cut["rounds"]] == [3, 4] and cut["next_offset"] == 4
    with sqlite3.connect(settings.db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM rounds").fetchone() == (3,)


def test_new_rounds_are_limited_per_address(tmp_path):
    settings = Settings(data_dir=tmp_path, workers=0, round_burst=2, round_per_minute=1)
    with TestClient(create_app(settings)) as client:
        game = new_game(client, variant="duel")
        assert game.write("new-game").status_code == 200
        assert game.write("new-game").status_code == 200
        version = game.view["version"]
        refused = game.write("new-game")
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_rounds"
        assert int(refused.headers["retry-after"]) >= 1
        assert game.refresh()["version"] == version  # nothing was dealt
        game.play_out()  # playing is not limited
        assert game.obs["phase"] == "over"


def test_a_refused_new_round_does_not_use_up_the_limit(tmp_path):
    # "another round" pressed during a round is refused (409); it used to take a token all the
    # same, so 20 such presses left the real one, once the round was over, at 429
    settings = Settings(data_dir=tmp_path, workers=0, round_burst=2, round_per_minute=1)
    with TestClient(create_app(settings)) as client:
        game = new_game(client, variant="duel")
        for _ in range(5):
            refused = game.write("another-round")
            assert refused.status_code == 409 and refused.json()["error"]["code"] == "round_in_progress"
        game.play_out()
        assert game.write("another-round").status_code == 200
        assert game.write("new-game").status_code == 200
        assert game.write("new-game").status_code == 429  # the two real rounds used the burst


def test_a_new_round_lost_to_another_servers_write_does_not_use_up_the_limit(tmp_path):
    # on a shared database another host may write the game between our read and our commit: the
    # compare-and-swap refuses ours (409 stale) and the round we dealt is never stored
    settings = Settings(data_dir=tmp_path, workers=0, round_burst=2, round_per_minute=1)
    with TestClient(create_app(settings)) as client:
        store = client.app.state.service.store
        game = new_game(client, variant="duel")
        game.play_out()
        real = store.save
        lost = []

        async def losing(new, expected, **kwargs):
            if not lost:
                lost.append(new.version)
                return False  # as if another host had written first
            return await real(new, expected, **kwargs)

        store.save = losing
        for _ in range(3):
            refused = game.write("another-round")
            assert refused.status_code == 409 and refused.json()["error"]["code"] == "stale"
            lost.clear()
        store.save = real
        assert game.write("another-round").status_code == 200
        assert game.write("new-game").status_code == 200
        assert game.write("new-game").status_code == 429  # the two stored rounds used the burst


def test_hints_are_computed_once_per_version_and_limited_per_game(tmp_path):
    settings = Settings(data_dir=tmp_path, workers=0, hint_burst=2, hint_per_minute=1)
    with TestClient(create_app(settings)) as client:
        service = client.app.state.service
        calls = []
        real = service.bots.suggest

        async def counting(*args, **kwargs):
            calls.append(1)
            return await real(*args, **kwargs)

        service.bots.suggest = counting
        game = new_game(client)
        hints = [game.post("hint", {}) for _ in range(5)]
        assert [h.status_code for h in hints] == [200] * 5 and len(calls) == 1  # the same position: one search
        assert len({h.content for h in hints}) == 1
        assert game.act(game.obs["legal_actions"][-1]).status_code == 200
        if game.obs["to_act"] == 0 and game.obs["phase"] != "over":
            assert game.post("hint", {}).status_code == 200 and len(calls) == 2
            assert game.act(game.obs["legal_actions"][-1]).status_code == 200
            if game.obs["to_act"] == 0 and game.obs["phase"] != "over":
                refused = game.post("hint", {})
                assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_hints"


@pytest.mark.parametrize("body", [b'{"action": "pass", "version": 1, "request_id": "\xff\xfe"}',
                                  b'{"action": "pass", "version": ' + b"9" * 5000 + b', "request_id": "a"}',
                                  b"[" * 5000 + b"]" * 5000])
def test_bodies_python_cannot_decode_are_malformed_json(client, body):
    game = new_game(client)
    response = client.post(f"/api/games/{game.id}/act", content=body,
                           headers={**game.headers, "Content-Type": "application/json"})
    assert response.status_code in (400, 413)
    code = response.json()["error"]["code"]
    assert code == ("malformed_json" if response.status_code == 400 else "body_too_large")
    assert game.refresh()["version"] == game.view["version"]


def test_a_deeply_nested_body_within_the_size_limit_is_malformed_json(client):
    game = new_game(client)
    body = b"[" * 3000 + b"]" * 3000  # 6,000 bytes: under the 16 KiB limit
    response = client.post(f"/api/games/{game.id}/act", content=body,
                           headers={**game.headers, "Content-Type": "application/json"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "malformed_json"


@pytest.mark.parametrize("since", ["1_0", "+1", " 1", "1.0", "١"])
def test_query_numbers_are_plain_digits(client, since):
    game = new_game(client)
    response = client.get(f"/api/games/{game.id}", params={"since": since}, headers=game.headers)
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"


def test_head_is_answered_like_get_without_a_body(client):
    game = new_game(client)
    get = client.get(f"/api/games/{game.id}", headers=game.headers)
    head = client.head(f"/api/games/{game.id}", headers=game.headers)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == get.headers["content-length"]
    assert client.head("/api/health").status_code == 200
    refused = client.head(f"/api/games/{game.id}/act", headers=game.headers)
    assert refused.status_code == 405 and refused.headers["allow"] == "POST"
    assert client.post("/api/health").headers["allow"] == "GET, HEAD"


@pytest.mark.parametrize("existing_mode", [None, 0o644])
def test_the_database_and_its_side_files_are_private(tmp_path, existing_mode):
    path = tmp_path / "dizhu.sqlite"
    old_umask = os.umask(0o022)
    try:
        if existing_mode is not None:
            sqlite3.connect(path).close()
            os.chmod(path, existing_mode)
            for side in ("-wal", "-shm"):
                (tmp_path / f"dizhu.sqlite{side}").touch(mode=existing_mode)
                os.chmod(tmp_path / f"dizhu.sqlite{side}", existing_mode)
        store = SQLiteStore(path)
        store.load("x" * 22)
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
        store.close()
    finally:
        os.umask(old_umask)
    assert {"dizhu.sqlite", "dizhu.sqlite-wal", "dizhu.sqlite-shm"} <= set(modes)
    assert set(modes.values()) == {0o600}, modes


def test_check_judges_an_action_with_the_engines_reason_and_applies_nothing(client):
    from dizhu.game import Round

    from .support import install_round

    game = new_game(client)
    round_ = Round.from_deal("classic", ["3456789TJQKA2BR33", "44556677889TTJJQQ", "456789TJQKKKAAA22"],
                             "392", first=0)
    round_.apply(0, "bid 3")
    install_round(client, game, round_)
    version = game.view["version"]

    def check(**body):
        response = game.post("check", body)
        assert response.status_code == 200, response.text
        return response.json()

    assert check(action="play 3") == {"legal": True, "error": None}
    assert check(action="play 34")["error"]["code"] == "not_a_pair"
    refused = check(action="play 44")
    assert refused["legal"] is False and refused["error"]["code"] == "not_in_hand"
    ids = game.obs["hand_ids"]
    assert check(action="play 3", cards=[ids[0]])["legal"] is True
    assert check(action="play 4", cards=[ids[0]])["error"]["code"] == "cards_mismatch"
    assert game.refresh()["version"] == version  # nothing was applied
    assert game.act("play 3").status_code == 200  # the same action is then accepted
    # bad requests are still refused as such
    assert game.post("check", {"action": "play 3", "extra": 1}).status_code == 422
    assert client.post(f"/api/games/{game.id}/check", json={"action": "pass"}).status_code == 401
