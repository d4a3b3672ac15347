"""A real `dizhu serve` killed with SIGKILL mid-round, restarted on the same data directory:
the game goes on from the last acknowledged action, and a request cut off by the crash is
applied once when it is retried."""

from __future__ import annotations

import sys
import threading
import time

import httpx
import pytest

from .support import Server, alive

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc to find the worker processes")


@pytest.fixture
def servers(tmp_path):
    started: list[Server] = []

    def start() -> Server:
        server = Server(tmp_path / "data", tmp_path / "server.log")
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def act(server: Server, game: dict, view: dict, request_id: str) -> httpx.Response:
    obs = view["observation"]
    action = obs["legal_actions"][-1 if obs["phase"] == "bidding" else 0]
    return server.http.post(f"/api/games/{game['game_id']}/act", headers=auth(game),
                            json={"action": action, "version": view["version"], "request_id": request_id})


def auth(game: dict) -> dict:
    return {"Authorization": f"Bearer {game['token']}"}


def test_sigkill_mid_round_then_restart_continues_the_game(servers):
    first = servers()
    game = first.http.post("/api/games", json={"variant": "classic", "level": "normal"}).json()
    view = game["view"]
    acknowledged = []
    while len(view["observation"]["history"]) < 6:  # well into the play
        response = act(first, game, view, f"r{len(acknowledged)}")
        assert response.status_code == 200
        acknowledged.append(response)
        view = response.json()
    assert view["observation"]["phase"] == "playing"
    workers = first.children()
    assert workers, "the bot pool runs in child processes"
    first.kill()
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers):  # the workers notice and exit
        assert time.monotonic() < deadline, "bot workers outlived the killed server"
        time.sleep(0.1)

    second = servers()
    again = second.http.get(f"/api/games/{game['game_id']}", headers=auth(game))
    assert again.status_code == 200
    assert again.json() == second.http.get(f"/api/games/{game['game_id']}", headers=auth(game)).json()
    restored = again.json()
    assert {**restored, "events": []} == {**view, "events": []}
    assert restored["events"][-len(view["events"]):] == view["events"]
    # the last acknowledged request, retried, is answered the same and not applied again
    last = acknowledged[-1]
    obs = acknowledged[-2].json()["observation"]
    retry = second.http.post(f"/api/games/{game['game_id']}/act", headers=auth(game), json={
        "action": obs["legal_actions"][-1 if obs["phase"] == "bidding" else 0],
        "version": acknowledged[-2].json()["version"], "request_id": f"r{len(acknowledged) - 1}"})
    assert retry.status_code == 200 and retry.content == last.content
    view = restored
    for n in range(200):
        if view["observation"]["phase"] == "over":
            break
        response = act(second, game, view, f"after-{n}")
        assert response.status_code == 200, response.text
        view = response.json()
    assert view["observation"]["phase"] == "over" and sum(view["totals"]) == 0
    rounds = second.http.get(f"/api/games/{game['game_id']}/rounds", headers=auth(game)).json()["rounds"]
    assert len(rounds) == 1 and rounds[0]["totals"] == view["totals"]


def test_a_request_cut_off_by_sigkill_is_applied_once_on_retry(servers):
    server = servers()
    game = server.http.post("/api/games", json={"variant": "duel", "level": "normal"}).json()
    view = game["view"]
    for attempt in range(3):
        obs = view["observation"]
        if obs["phase"] == "over":
            break
        body = {"action": obs["legal_actions"][-1 if obs["phase"] == "bidding" else 0],
                "version": view["version"], "request_id": f"cut-{attempt}"}
        url = f"/api/games/{game['game_id']}/act"
        sender = threading.Thread(target=_post_quietly, args=(server.url, url, auth(game), body))
        sender.start()
        time.sleep(0.002 * attempt)  # kill at different moments of the request
        server.kill()
        sender.join()
        server = servers()
        retry = server.http.post(url, headers=auth(game), json=body)
        assert retry.status_code == 200, retry.text
        view = retry.json()
        full = server.http.get(f"/api/games/{game['game_id']}", headers=auth(game)).json()
        assert full["version"] == view["version"]
        mine = [e for e in full["events"] if e.get("seat") == 0 and e["type"] in ("bid", "play", "pass")]
        assert len(mine) == attempt + 1  # each cut-off request applied exactly once
        assert view["observation"]["to_act"] in (0, None)


def _post_quietly(base: str, url: str, headers: dict, body: dict) -> None:
    try:
        httpx.post(base + url, headers=headers, json=body, timeout=10)
    except httpx.TransportError:
        pass  # the server died under it: expected
