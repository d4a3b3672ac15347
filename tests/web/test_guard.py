"""The guards in front of every route (web/guard.py): the request budget, the host check, the
global cap on thinking, the pace's secret key, the data directory's mode, the known deals."""

from __future__ import annotations

import asyncio
import os
import stat
import time
from dataclasses import replace

import httpx
import pytest

from dizhu.game import Round
from dizhu.web import Settings, create_app
from dizhu.web import worker
from dizhu.web.guard import client_key
from dizhu.web.pacing import PACES
from dizhu.web.settings import private_dir

from .support import GatedBots, Server, auth, new_game


def _client(app, address: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://test", timeout=30)


def _budget(settings: Settings, asks) -> list[list[httpx.Response]]:
    """Each ``(address, method, path)`` of ``asks`` in turn, on one app: the answers."""

    async def scenario():
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            answers = []
            for address, method, path in asks:
                async with _client(app, address) as c:
                    answers.append(await c.request(method, path))
            return answers

    return asyncio.run(scenario())


@pytest.fixture
def budget_settings(settings) -> Settings:
    return replace(settings, request_per_minute=6.0, request_burst=16)


def test_every_route_spends_the_clients_budget_and_a_refusal_says_when_to_return(budget_settings):
    a, b = "203.0.113.5", "203.0.113.6"
    asks = [(a, "GET", "/api/health")] * 16 + [(a, "GET", "/api/health"), (a, "GET", "/"),
                                               (a, "POST", "/api/games"), (b, "GET", "/api/health")]
    started = time.monotonic()
    answers = _budget(budget_settings, asks)
    assert [r.status_code for r in answers[:16]] == [200] * 16
    # the health check, a page, a write: all counted, all refused; a unit comes back every 10 s
    # (the pauses refill a little of it), and a write costs two
    for refused, retry in zip(answers[16:19], (10, 10, 20)):
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "too_many_requests"
        assert retry - 2 <= int(refused.headers["retry-after"]) <= retry
        assert refused.headers["x-content-type-options"] == "nosniff"  # answered inside the headers' guard
    assert answers[19].status_code == 200  # another client has its own budget
    assert time.monotonic() - started >= 3 * 0.9  # each refusal was held back for a second


def test_the_budget_weighs_what_a_request_costs(budget_settings):
    a = "198.51.100.1"
    puzzle = "/api/puzzles/classic-001"
    answers = _budget(budget_settings, [(a, "GET", puzzle), (a, "GET", puzzle), (a, "GET", puzzle)])
    assert [r.status_code for r in answers] == [200, 200, 429]  # the solver costs 8 of the 16
    answers = _budget(budget_settings, [(a, "GET", "/api/puzzles")] * 16)
    assert {r.status_code for r in answers} == {200}  # the list is a plain read


def test_ipv6_clients_share_a_budget_per_64(budget_settings):
    same = ["2001:db8:1:2::1", "2001:db8:1:2:ffff::9"]
    asks = [(same[i % 2], "GET", "/api/health") for i in range(17)] + [("2001:db8:1:3::1", "GET", "/api/health")]
    answers = _budget(budget_settings, asks)
    assert [r.status_code for r in answers] == [200] * 16 + [429, 200]
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff::9") != client_key("2001:db8:1:3::1")
    assert client_key("2001:db8:1:2::1", 128) != client_key("2001:db8:1:2:ffff::9", 128)


def test_no_budget_when_it_is_off(settings):
    answers = _budget(replace(settings, request_per_minute=0.0, request_burst=1),
                      [("203.0.113.5", "GET", "/api/health")] * 50)
    assert {r.status_code for r in answers} == {200}


@pytest.mark.parametrize("host, allowed, status", [
    ("evil.example", None, 421), ("evil.example:8000", None, 421), ("localhost:8000", None, 200),
    ("127.0.0.1:8000", None, 200), ("[::1]:8000", None, 200), ("192.0.2.7", None, 200),
    ("Play.Example.:443", "play.example", 200), ("other.example", "play.example", 421),
    ("anything.example", "*", 200),
])
def test_only_known_host_names_are_served(settings, client, host, allowed, status):
    """A DNS-rebinding page reaches a server on 127.0.0.1 under its own name: refused."""
    from fastapi.testclient import TestClient

    with TestClient(create_app(replace(settings, allowed_hosts=allowed))) as c:
        for path in ("/api/health", "/"):
            response = c.get(path, headers={"Host": host})
            assert response.status_code == status, (host, path, response.text)
            if status == 421:
                assert response.json()["error"]["code"] == "unknown_host"
        if status == 421:
            assert c.post("/api/games", json={}, headers={"Host": host}).status_code == 421
            assert not c.app.state.service._sessions  # nothing was made


def test_the_thinking_of_all_clients_together_is_capped(settings):
    """Eight addresses get no more than the cap between them; the first answers come through."""
    capped = replace(settings, client_thinking=0, thinking_total=3)
    bots = GatedBots()

    async def scenario():
        app = create_app(capped, bots=bots)
        async with app.router.lifespan_context(app):
            clients = [_client(app, f"10.0.0.{i}") for i in range(8)]
            # every game's computers bid first, so each creation waits for them at the gate
            body = {"variant": "classic", "level": "normal", "deal_code": _code_where_a_computer_bids_first()}
            tasks = [asyncio.ensure_future(c.post("/api/games", json=body)) for c in clients]
            await asyncio.sleep(0.5)
            bots.gate.set()
            answers = await asyncio.gather(*tasks)
            for c in clients:
                await c.aclose()
            return answers

    answers = asyncio.run(scenario())
    codes = sorted(a.status_code for a in answers)
    assert codes == [201] * 3 + [429] * 5, codes
    for refused in (a for a in answers if a.status_code == 429):
        assert refused.json()["error"]["code"] == "too_busy" and refused.headers["retry-after"] in ("1", "2")


def _code_where_a_computer_bids_first() -> str:
    for n in range(100):
        code = f"classic-cap{n}"
        if Round.from_code(code).to_act != 0:
            return code
    raise AssertionError("no such deal")


def test_the_pace_is_keyed_by_a_secret_no_client_has(client):
    """The pace's jitter used to be a public hash: a client could subtract it exactly."""
    import hashlib

    service = client.app.state.service
    pace = PACES["super-hard"]
    facts = ("a" * 22, 7, 1, 30)
    public = hashlib.sha256(":".join(map(str, facts)).encode()).digest()
    public_seconds = pace.low + int.from_bytes(public[:8], "big") / 2**64 * (pace.high - pace.low)
    assert len(service._pace_key) >= 32
    assert pace.seconds(service._pace_key, *facts) != public_seconds
    with type(client)(create_app(client.app.state.service.settings)) as other:
        assert other.app.state.service._pace_key != service._pace_key


def test_the_data_directory_is_made_700_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        made = private_dir(tmp_path / "a" / "data")
    finally:
        os.umask(old)
    assert stat.S_IMODE(made.stat().st_mode) == 0o700
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o775)
    with pytest.raises(PermissionError, match="writable by other users"):
        private_dir(shared)
    assert stat.S_IMODE(shared.stat().st_mode) == 0o775  # refused, not changed
    (tmp_path / "mine").mkdir(mode=0o750)
    private_dir(tmp_path / "mine")  # readable by the group is the owner's choice: the database file is 600


@pytest.mark.services
def test_dizhu_serve_refuses_a_data_directory_others_may_write(tmp_path):
    import subprocess
    import sys

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    run = subprocess.run([sys.executable, "-m", "dizhu.cli", "serve", "--data-dir", str(shared), "--port", "0"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "writable by other users" in run.stderr
    assert not (shared / "dizhu.sqlite").exists()


class _GonePipe:
    """A worker's pipe to a server that was killed: every send breaks."""

    def __init__(self, jobs):
        self.jobs = list(jobs)
        self.sent = 0

    def send(self, message):
        self.sent += 1
        if self.sent > 1:
            raise BrokenPipeError(32, "Broken pipe")

    def recv(self):
        return self.jobs.pop(0)


def test_a_worker_whose_server_died_mid_job_exits_quietly(monkeypatch, capsys):
    monkeypatch.setattr(worker, "init_worker", lambda *args: None)
    monkeypatch.setattr(worker, "warm", lambda: 0)
    monkeypatch.setattr(worker, "freeze_startup_objects", lambda: None)
    pipe = _GonePipe([(len, ("abc",))])
    worker.serve(pipe, os.getpid())  # returns instead of raising
    assert pipe.sent == 2
    assert "Traceback" not in capsys.readouterr().err


def test_a_game_from_a_chosen_code_is_marked_a_known_deal(client):
    chosen = client.post("/api/games", json={"variant": "duel", "deal_code": "duel-mine"}).json()["view"]
    assert chosen["known_deal"] is True
    dealt = new_game(client, variant="duel")
    assert dealt.view["known_deal"] is False
    game = new_game(client, variant="duel", deal_code="duel-mine")
    view = game.play_out()
    rounds = client.get(f"/api/games/{game.id}/rounds", headers=game.headers).json()["rounds"]
    assert rounds[-1]["known_deal"] is True and view["known_deal"] is True
    view = game.write("another-round").json()
    assert view["known_deal"] is False  # the next deal is the server's own


@pytest.mark.services
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores to keep one apart")
def test_the_searches_keep_to_cores_of_their_own(tmp_path):
    server = Server(tmp_path / "data", tmp_path / "server.log")
    try:
        created = server.http.post("/api/games", json={"variant": "duel", "level": "super-hard"})
        assert created.status_code == 201
        plan = worker.core_plan(1)
        server_cores = os.sched_getaffinity(server.process.pid)
        children = {pid: os.sched_getaffinity(pid) for pid in server.children()}
        assert server_cores == plan["serve"]
        # one deep worker on the search core; the hint and quick workers beside the server
        assert list(children.values()).count(plan["search"]) == 1, children
        assert list(children.values()).count(plan["serve"]) >= 2, children
        game = created.json()
        assert server.http.get(f"/api/games/{game['game_id']}", headers=auth(game["token"])).status_code == 200
    finally:
        server.stop()


def test_what_the_guards_refuse_is_charged_to_the_budget_too(budget_settings):
    """A flood of bad Host headers or cross-site writes is no way around the budget."""
    a = "203.0.113.9"

    async def scenario():
        app = create_app(budget_settings)
        async with app.router.lifespan_context(app):
            async with _client(app, a) as c:
                hosts = [await c.get("/api/health", headers={"Host": "evil.example"}) for _ in range(8)]
                cross = [await c.post("/api/games", json={}, headers={"Sec-Fetch-Site": "cross-site"})
                         for _ in range(4)]
                return hosts, cross, await c.get("/api/health")

    hosts, cross, after = asyncio.run(scenario())
    assert {r.status_code for r in hosts} == {421} and {r.status_code for r in cross} == {403}
    assert after.status_code == 429  # 8 + 4 x 2 = the 16 units of the burst


def test_refusals_held_back_at_once_are_capped(budget_settings):
    """Behind a proxy the connection cap per client does not hold: past ``held`` refusals waiting,
    the next goes at once, so held refusals cannot fill the server's connections."""
    from dizhu.web.guard import RequestBudget

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    budget = RequestBudget(app, per_minute=1, burst=1, pause=30.0, held=2)
    sent: list[int] = []

    async def send(message):
        if message["type"] == "http.response.start":
            sent.append(message["status"])

    async def scenario():
        scope = {"type": "http", "method": "GET", "path": "/api/health", "headers": [], "client": ("10.1.1.1", 1)}
        await budget(scope, None, send)  # the one unit
        waiting = [asyncio.ensure_future(budget(scope, None, send)) for _ in range(2)]
        await asyncio.sleep(0.05)
        started = time.monotonic()
        await budget(scope, None, send)  # a third refusal is not held
        quick = time.monotonic() - started
        for task in waiting:
            task.cancel()
        return quick

    assert asyncio.run(scenario()) < 5.0 and sent == [200, 429] and budget.held == 0


def test_basic_credentials_are_no_token(client):
    """A browser attaches HTTP Basic credentials to a form's POST by itself: not a bearer token."""
    response = client.post("/api/games", headers={"Authorization": "Basic dXNlcjpwYXNz"})
    assert response.status_code == 415


def test_a_hint_is_answered_no_sooner_than_its_pace(settings):
    """How long a hint's search took would tell whether a computer searched beside it: the answer
    waits for the pace, auto-play's move (the hint's) too, and a repeated hint is not held again."""
    paced = replace(settings, hint_pace=0.6)

    async def scenario():
        app = create_app(paced)
        async with app.router.lifespan_context(app):
            async with _client(app, "198.51.100.7") as c:
                created = (await c.post("/api/games", json={"variant": "duel", "level": "normal",
                                                            "deal_code": "duel-hintpace"})).json()
                headers = auth(created["token"])
                base = f"/api/games/{created['game_id']}"
                view = created["view"]
                while view["observation"]["to_act"] != 0:
                    view = (await c.get(base, headers=headers)).json()
                times = []
                for _ in range(2):
                    started = time.monotonic()
                    assert (await c.post(f"{base}/hint", headers=headers, json={})).status_code == 200
                    times.append(time.monotonic() - started)
                # the same position's auto-play takes the kept hint; the next position's asks for a new one
                view = (await c.post(f"{base}/autoplay", headers=headers,
                                     json={"version": view["version"], "request_id": "auto-1"})).json()
                assert view["observation"]["phase"] == "playing" and view["observation"]["to_act"] == 0
                started = time.monotonic()
                moved = await c.post(f"{base}/autoplay", headers=headers,
                                     json={"version": view["version"], "request_id": "auto-2"})
                assert moved.status_code == 200, moved.text
                return times, time.monotonic() - started

    (first, again), autoplay = asyncio.run(scenario())
    assert first >= 0.6 and again < 0.3
    assert autoplay >= 0.6
