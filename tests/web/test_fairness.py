"""Computer thinking is shared fairly: a greedy client is told to wait, others keep their pace,
and a dead worker costs only its own job."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from dizhu.cli import build_parser, serve_settings
from dizhu.game import Round
from dizhu.web import Settings, create_app, worker
from dizhu.bots.advice import HINT_BUDGET
from dizhu.web.botpool import BotRunner, ThinkingShare, _Lane
from dizhu.web.pacing import PACES

from . import botfuncs, support


class _FakeSlot:
    def __init__(self, log: list[str]) -> None:
        self.name, self.pid, self.log = "fake", None, log

    async def start(self) -> None:
        pass

    async def call(self, fn, args, timeout):
        self.log.append(args[0])
        await asyncio.sleep(0.01)
        return args[0]

    def close(self) -> None:
        pass


def test_waiting_jobs_are_served_round_robin_by_client():
    async def scenario() -> list[str]:
        started: list[str] = []
        lane = _Lane("test", [_FakeSlot(started)])
        jobs = [lane.run("greedy", None, (f"g{n}",), 5) for n in range(4)]
        tasks = [asyncio.ensure_future(job) for job in jobs]
        await asyncio.sleep(0)  # the greedy client's jobs are queued first
        tasks.append(asyncio.ensure_future(lane.run("modest", None, ("m0",), 5)))
        await asyncio.gather(*tasks)
        return started

    started = asyncio.run(scenario())
    # g0 was running; then the greedy client's next job and the modest one take turns
    assert started.index("m0") == 2, started
    assert sorted(started) == ["g0", "g1", "g2", "g3", "m0"]


def _client(app, address: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://test", timeout=30)


def test_a_greedy_client_is_told_to_wait_and_others_keep_their_pace(tmp_path, caplog):
    settings = Settings(data_dir=tmp_path, workers=1, client_thinking=2, create_burst=100)
    bots = BotRunner(1, None, 30.0, decide_fn=botfuncs.slow_deep_decide)

    async def scenario():
        app = create_app(settings, bots=bots)
        async with app.router.lifespan_context(app):
            async with _client(app, "10.0.0.66") as greedy, _client(app, "10.0.0.7") as victim:
                mine = (await victim.post("/api/games", json={"variant": "duel", "level": "normal"})).json()
                # the greedy client asks for six super-hard games at once: each needs a long search
                codes = [f"duel-greedy{n}" for n in range(6)]
                flood = [asyncio.ensure_future(greedy.post("/api/games", json={
                    "variant": "duel", "level": "super-hard", "deal_code": code})) for code in codes]
                await asyncio.sleep(0.2)
                # meanwhile the other player plays a whole round at the normal level
                gid, headers, view = mine["game_id"], {"Authorization": f"Bearer {mine['token']}"}, mine["view"]
                times = []
                while view["observation"]["phase"] != "over":
                    obs = view["observation"]
                    start = time.perf_counter()
                    response = await victim.post(f"/api/games/{gid}/act", headers=headers, json={
                        "action": obs["legal_actions"][0], "version": view["version"],
                        "request_id": f"v{view['version']}"})
                    times.append(time.perf_counter() - start)
                    assert response.status_code == 200, response.text
                    view = response.json()
                answers = await asyncio.gather(*flood)
                return times, [a.status_code for a in answers], [a for a in answers if a.status_code == 429]

    with caplog.at_level(logging.WARNING, logger="dizhu"):
        times, statuses, refused = asyncio.run(scenario())
    assert sorted(statuses) == [201, 201, 429, 429, 429, 429], statuses
    for answer in refused:
        assert answer.json()["error"]["code"] == "too_busy" and answer.headers["retry-after"] in ("1", "2")
    assert max(times) < 0.5, times  # never behind the greedy client's searches
    assert "fallback move" not in caplog.text


def test_a_killed_worker_costs_only_its_own_job(tmp_path, caplog):
    round_ = Round.deal("classic", seed="kill")
    observation = round_.observation(round_.to_act)

    async def scenario():
        bots = BotRunner(2, None, 30.0, decide_fn=botfuncs.slow_deep_decide)
        await bots.start()
        try:
            slots = bots.lanes["deep"].slots
            pids = [slot.pid for slot in slots]
            jobs = [asyncio.ensure_future(bots.decide("super-hard", "classic", f"s{n}", observation))
                    for n in range(2)]
            await asyncio.sleep(0.4)  # both are thinking
            os.kill(pids[0], signal.SIGKILL)
            results = await asyncio.gather(*jobs)
            return pids, [slot.pid for slot in slots], results
        finally:
            bots.close()

    with caplog.at_level(logging.WARNING, logger="dizhu"):
        before, after, results = asyncio.run(scenario())
    assert [fell_back for _, fell_back in results] == [False, False]  # no fallback move, in either game
    assert all(action in observation["legal_actions"] for action, _ in results)
    assert after[0] != before[0] and after[1] == before[1]  # a fresh worker for the dead one only
    assert "retried once" in caplog.text and "bot decision failed" not in caplog.text


def test_a_client_over_its_share_of_thinking_is_told_to_wait_and_nothing_changes(tmp_path):
    settings = Settings(data_dir=tmp_path, workers=0, pace=0.05, think_share=0.5, create_burst=100)

    async def scenario():
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            bots = app.state.service.bots
            async with _client(app, "10.0.0.66") as greedy, _client(app, "10.0.0.7") as victim:
                games = {}
                for name, c, level in (("deep", greedy, "super-hard"), ("quick", greedy, "normal"),
                                       ("victim", victim, "super-hard")):
                    created = (await c.post("/api/games", json={"variant": "duel", "level": level})).json()
                    games[name] = (c, created["game_id"], {"Authorization": f"Bearer {created['token']}"},
                                   created["view"])
                bots.shares.charge("10.0.0.66", 100.0)  # as if it had kept the workers busy for a while

                async def act(name: str) -> httpx.Response:
                    c, gid, headers, view = games[name]
                    return await c.post(f"/api/games/{gid}/act", headers=headers, json={
                        "action": view["observation"]["legal_actions"][0], "version": view["version"],
                        "request_id": f"{name}-1"})

                refused = await act("deep")
                c, gid, headers, view = games["deep"]
                hint = await c.post(f"/api/games/{gid}/hint", headers=headers, json={})
                after = (await c.get(f"/api/games/{gid}", headers=headers)).json()
                return refused, hint, view, after, await act("quick"), await act("victim")

    refused, hint, before, after, quick, victim = asyncio.run(scenario())
    for answer in (refused, hint):
        assert answer.status_code == 429, answer.text
        assert answer.json()["error"]["code"] == "too_much_thinking"
        assert int(answer.headers["retry-after"]) >= 1
    assert after["version"] == before["version"]  # nothing was applied
    assert after["observation"] == before["observation"]
    assert quick.status_code == 200, quick.text  # a normal-level game needs no search
    assert victim.status_code == 200, victim.text  # another address keeps its share


def test_a_search_is_charged_its_public_cap_not_the_time_it_took():
    round_ = Round.deal("classic", seed="charge")
    observation = round_.observation(round_.to_act)
    bots = BotRunner(0, None, 30.0, think_share=0.5, decide_fn=botfuncs.slow_deep_decide)
    bots.shares.clock = lambda: 0.0  # no decay between the two

    async def scenario():
        await bots.decide("super-hard", "classic", "s", observation, "slow", 0.36)  # thinks a second
        bots._decide_fn = botfuncs.real_decide
        await bots.decide("normal", "classic", "s", observation, "quick", 0.36)
        bots._decide_fn = botfuncs.fast_deep_decide
        await bots.decide("super-hard", "classic", "s", observation, "fast", 0.36)  # answers at once

    try:
        asyncio.run(scenario())
    finally:
        bots.close()
    assert bots.shares.used("slow") == bots.shares.used("fast") == 0.36
    assert bots.shares.used("quick") == 0.0  # levels that do not search are not charged


@pytest.mark.parametrize("computers", [2, 1], ids=["classic", "duel"])
def test_one_game_on_the_fastest_auto_play_stays_within_the_default_share(computers):
    """The default share refuses a second game on auto-play, never one: on 2 cores (one search
    worker), the table's fastest interval (0.5 s) against super-hard computers at their quickest
    pace is charged a hint and the computers' caps per turn, and stays below the share."""
    now = [0.0]
    default = ThinkingShare(Settings().think_share, clock=lambda: now[0])
    pace = PACES["super-hard"]
    turn = 0.5 + computers * pace.low  # seconds between two auto-play moves, at the quickest
    charged = HINT_BUDGET + computers * pace.think_limit
    refused = {1: 0, 2: 0}
    for _ in range(600):  # 10 to 20 minutes of play
        for games in (1, 2):
            client = f"{games} games"
            for _ in range(games):
                refused[games] += default.over(client)
                default.charge(client, charged)
        now[0] += turn
    assert refused[1] == 0
    assert refused[2] > 500  # two games at that speed are over it nearly all the time


def test_quick_workers_are_checked_and_started():
    assert serve_settings(build_parser().parse_args(["serve", "--quick-workers", "3"])).quick_workers == 3
    assert serve_settings(build_parser().parse_args(["serve"])).quick_workers == Settings().quick_workers
    for bad in ("0", "-1", "x"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["serve", "--quick-workers", bad])


def test_a_server_with_two_quick_workers_starts_both(tmp_path):
    server = support.Server(tmp_path, tmp_path / "server.log", ["--quick-workers", "2"])
    try:
        nicenesses = [_niceness(pid) for pid in server.children()]
        # relative to this process's own (a suite run under `nice` raises them all)
        lane = {name: min(19, os.nice(0) + n) for name, n in worker.WORKER_NICENESS.items()}
        # support's --workers 1, the hint worker, two quick workers (the review's starts on demand);
        # counted by their nicenesses, as multiprocessing's own helper may be there too
        expected = [lane["deep"], lane["hint"], lane["quick"], lane["quick"]]
        assert all(nicenesses.count(n) == expected.count(n) for n in expected), nicenesses
        created = server.http.post("/api/games", json={"variant": "classic", "level": "normal"})
        assert created.status_code == 201, created.text
    finally:
        server.stop()


def _niceness(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
