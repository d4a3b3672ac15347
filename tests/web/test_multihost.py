"""Two real `dizhu serve` hosts on one PostgreSQL database, on loopback.

Requests alternate between the hosts; one request sent to both at once is
applied once; a host killed with SIGKILL while its computers think leaves
the turn to the other, which finishes it by itself; nothing acknowledged is
lost; the creation limit counts both hosts' games together.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

import httpx
import psycopg
import pytest

from .support import Server

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="runs real servers as on the site's hosts")


@pytest.fixture
def hosts(tmp_path, pg_url):
    started: list[Server] = []

    def start(*extra: str) -> Server:
        n = len(started)
        server = Server(tmp_path / f"data{n}", tmp_path / f"host{n}.log", ["--database", pg_url, *extra])
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def auth(game: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['token']}"}


def human_actions(view: dict) -> list[dict]:
    return [e for e in view["events"] if e.get("seat") == 0 and e["type"] in ("bid", "call", "rob", "play", "pass")]


def body_for(view: dict, request_id: str) -> dict[str, Any]:
    obs = view["observation"]
    action = obs["legal_actions"][-1 if obs["phase"] == "bidding" else 0]
    return {"action": action, "version": view["version"], "request_id": request_id}


def full_view(server: Server, game: dict) -> dict:
    response = server.http.get(f"/api/games/{game['game_id']}", headers=auth(game))
    assert response.status_code == 200, response.text
    return response.json()


def post_until_answered(server: Server, path: str, game: dict, body: dict) -> httpx.Response:
    """A client's retries: `429 busy` means another host is still answering."""
    for _ in range(100):
        response = server.http.post(path, headers=auth(game), json=body)
        if response.status_code != 429:
            return response
        time.sleep(0.1)
    raise AssertionError("still busy after 10 s")


def test_requests_alternating_between_hosts_play_a_round(hosts):
    a, b = hosts(), hosts()
    game = a.http.post("/api/games", json={"variant": "classic", "level": "normal"}).json()
    view = game["view"]
    path = f"/api/games/{game['game_id']}/act"
    for n in range(200):
        if view["observation"]["phase"] == "over":
            break
        host = (a, b)[n % 2]
        response = host.http.post(path, headers=auth(game), json=body_for(view, f"alt-{n}"))
        assert response.status_code == 200, response.text
        view = response.json()
        # the other host reads exactly what this one answered
        other = full_view((b, a)[n % 2], game)
        assert other["version"] == view["version"] and other["observation"] == view["observation"]
    assert view["observation"]["phase"] == "over"
    pages = [h.http.get(f"/api/games/{game['game_id']}/rounds", headers=auth(game)).json() for h in (a, b)]
    assert pages[0] == pages[1] and pages[0]["total"] == 1 and pages[0]["rounds"][0]["totals"] == view["totals"]


def test_a_double_submit_to_both_hosts_is_applied_once(hosts):
    a, b = hosts(), hosts()
    game = a.http.post("/api/games", json={"variant": "duel", "level": "intermediate"}).json()
    view = game["view"]
    path = f"/api/games/{game['game_id']}/act"
    outcomes: set[int] = set()
    for attempt in range(8):
        if view["observation"]["phase"] == "over":
            break
        before = len(human_actions(full_view(a, game)))
        body = body_for(view, f"double-{attempt}")
        answers: dict[str, httpx.Response] = {}
        start = threading.Barrier(2)

        def send(name: str, host: Server) -> None:
            start.wait()
            answers[name] = host.http.post(path, headers=auth(game), json=body)

        threads = [threading.Thread(target=send, args=pair) for pair in (("a", a), ("b", b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = {answer.status_code for answer in answers.values()}
        assert codes <= {200, 429}, [answer.text for answer in answers.values()]
        outcomes |= codes
        # a 429 (the other host had the game) is retried, as clients do: the same answer
        final = [post_until_answered(host, path, game, body) if answers[name].status_code == 429 else answers[name]
                 for name, host in (("a", a), ("b", b))]
        assert final[0].status_code == final[1].status_code == 200
        assert final[0].content == final[1].content
        view = final[0].json()
        for host in (a, b):
            assert len(human_actions(full_view(host, game))) == before + 1  # applied once
    assert 200 in outcomes


def test_a_host_killed_mid_computer_turn_the_other_finishes_it(hosts, pg_url):
    # Super-hard computers with half a second per decision: the kill lands while they think.
    a, b = hosts("--bot-budget", "0.5"), hosts("--bot-budget", "0.5")
    game = b.http.post("/api/games", json={"variant": "classic", "level": "super-hard"}).json()
    path = f"/api/games/{game['game_id']}/act"
    view = game["view"]
    bids = 0
    while view["observation"]["phase"] == "bidding":  # bid through on b, into the play
        response = post_until_answered(b, path, game, body_for(view, f"bid-{bids}"))
        assert response.status_code == 200, response.text
        view = response.json()
        bids += 1
    assert view["observation"]["phase"] == "playing" and view["observation"]["to_act"] == 0
    before = full_view(a, game)  # everything acknowledged so far, as a sees it
    body = body_for(view, "cut")
    workers = a.children()
    sender = threading.Thread(target=_post_quietly, args=(a.url + path, auth(game), body))
    sender.start()
    with psycopg.connect(pg_url, autocommit=True) as db:
        deadline = time.monotonic() + 20
        while True:  # the human's move is committed and the computers think on a
            version, pending = db.execute("SELECT version, pending FROM games WHERE id = %s",
                                          (game["game_id"],)).fetchone()
            if version > view["version"]:
                break
            assert time.monotonic() < deadline, "a never committed the human's move"
            time.sleep(0.01)
        assert pending, "the kill must land while a computer is to act"
        a.kill()
        sender.join()
        deadline = time.monotonic() + 30
        while db.execute("SELECT pending FROM games WHERE id = %s", (game["game_id"],)).fetchone()[0]:
            # nobody asks b anything: its own watch for orphaned turns must finish it
            assert time.monotonic() < deadline, "b did not finish the turn a left"
            time.sleep(0.1)
    assert workers and all(_gone(pid) for pid in workers)
    retried = post_until_answered(b, path, game, body)
    assert retried.status_code == 200, retried.text
    after = retried.json()
    full = full_view(b, game)
    assert full["version"] == after["version"]
    assert full["events"][: len(before["events"])] == before["events"]  # nothing acknowledged was lost
    assert len(human_actions(full)) == len(human_actions(before)) + 1  # the cut request: applied once
    assert after["observation"]["to_act"] in (0, None)  # the computers' turn is finished


def test_the_creation_limit_counts_every_host(hosts):
    a, b = hosts("--create-limit", "1", "--create-burst", "3"), hosts("--create-limit", "1", "--create-burst", "3")
    codes = [host.http.post("/api/games", json={"level": "normal"}).status_code for host in (a, b, a, b)]
    assert codes == [201, 201, 201, 429]


def _post_quietly(url: str, headers: dict, body: dict) -> None:
    try:
        httpx.post(url, headers=headers, json=body, timeout=30)
    except httpx.TransportError:
        pass  # the host died under it: expected


def _gone(pid: int, wait: float = 10.0) -> bool:
    from .support import alive

    deadline = time.monotonic() + wait
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_hosts_go_on_when_the_database_restarts(tmp_path):
    from .pg_support import TempPostgres

    database = TempPostgres()  # its own server: the restart must not touch the other tests' databases
    try:
        url = database.new_database()
        a, b = (Server(tmp_path / f"data{n}", tmp_path / f"host{n}.log", ["--database", url]) for n in range(2))
        try:
            game = a.http.post("/api/games", json={"variant": "duel", "level": "normal"}).json()
            view = game["view"]
            database.restart()  # every connection of both hosts, their claims' too, is now broken
            for host in (a, b):
                assert full_view(host, game)["version"] == view["version"]  # reads: no error at all
            path = f"/api/games/{game['game_id']}/act"
            for n in range(4):
                host = (b, a)[n % 2]
                body = body_for(view, f"after-restart-{n}")
                response = host.http.post(path, headers=auth(game), json=body)
                if response.status_code == 500:  # a write cut by the restart: its retry is safe
                    response = host.http.post(path, headers=auth(game), json=body)
                assert response.status_code == 200, response.text
                view = response.json()
            assert len(human_actions(full_view(a, game))) == 4
        finally:
            a.stop()
            b.stop()
    finally:
        database.stop()
