"""Concurrent requests: one write at a time per game, double taps, reads while computers think,
and recovery of a write interrupted between the human's move and the computers' answers."""

from __future__ import annotations

import asyncio

from dizhu.game import deal_cards

from .support import GatedBots, async_client, auth

# A deal where the human bids first, so that the human's first action (a pass) is always
# followed by a computer's turn.  (With a random deal the human can be first to speak
# again after an all-pass re-deal, and then no computer ever thinks.)
HUMAN_FIRST = next(code for n in range(100) if deal_cards(code := f"classic-conc{n}", 0).first == 0)


def run(coro):
    return asyncio.run(coro)


async def create(c, bots=None, **body):
    if bots is not None:
        bots.gate.set()  # let the computers' opening bids through
    body.setdefault("deal_code", HUMAN_FIRST)
    response = await c.post("/api/games", json={"level": "normal", **body})
    assert response.status_code == 201, response.text
    if bots is not None:
        bots.gate.clear()
        bots.waiting.clear()
    return response.json()


def act_body(view, request_id, index=0):
    return {"action": view["observation"]["legal_actions"][index], "version": view["version"],
            "request_id": request_id}


def test_reads_busy_writes_and_double_taps_while_the_computers_think(settings):
    async def scenario():
        bots = GatedBots()
        async with async_client(settings, bots=bots) as c:
            game = await create(c, bots)
            gid, headers, view = game["game_id"], auth(game["token"]), game["view"]
            body = act_body(view, "tap")
            first = asyncio.create_task(c.post(f"/api/games/{gid}/act", json=body, headers=headers))
            await asyncio.wait_for(bots.waiting.wait(), 30)  # the human's move is in; a computer thinks
            during = await c.get(f"/api/games/{gid}", headers=headers)
            assert during.status_code == 200
            seen = during.json()
            # the human's move was committed before the computers thought
            assert seen["version"] == view["version"] + 1 and seen["observation"]["to_act"] != 0
            assert seen["observation"]["legal_actions"] == []
            busy = await c.post(f"/api/games/{gid}/act", json={**body, "request_id": "other"}, headers=headers)
            assert busy.status_code == 429 and busy.json()["error"]["code"] == "busy"
            assert busy.headers["retry-after"] == "1"
            for path in ("new-game", "autoplay"):
                response = await c.post(f"/api/games/{gid}/{path}", headers=headers,
                                        json={"version": seen["version"], "request_id": path})
                assert response.json()["error"]["code"] == "busy"
            hint = await c.post(f"/api/games/{gid}/hint", json={}, headers=headers)
            assert hint.status_code == 422 and hint.json()["error"]["code"] == "not_your_turn"
            assert hint.json()["error"]["params"] == {"seat": 0, "to_act": seen["observation"]["to_act"]}
            # the same request again waits for the first and gets the same answer
            again = asyncio.create_task(c.post(f"/api/games/{gid}/act", json=body, headers=headers))
            await asyncio.sleep(0.05)
            assert not again.done()
            bots.gate.set()
            a, b = await first, await again
            assert a.status_code == b.status_code == 200 and a.content == b.content
            final = (await c.get(f"/api/games/{gid}", headers=headers)).json()
            assert final["version"] == a.json()["version"]
            humans = [e for e in final["events"] if e.get("seat") == 0 and e["type"] in ("bid", "play", "pass")]
            assert len(humans) == 1  # applied once

    run(scenario())


def test_many_concurrent_writes_on_one_game_apply_exactly_one(settings):
    async def scenario():
        async with async_client(settings) as c:
            game = await create(c)
            gid, headers, view = game["game_id"], auth(game["token"]), game["view"]
            bodies = [act_body(view, f"r{i}", i % len(view["observation"]["legal_actions"])) for i in range(20)]
            responses = await asyncio.gather(
                *(c.post(f"/api/games/{gid}/act", json=b, headers=headers) for b in bodies))
            statuses = [r.status_code for r in responses]
            assert statuses.count(200) == 1, statuses
            assert set(statuses) <= {200, 409, 429}
            winner = next(r for r in responses if r.status_code == 200).json()
            final = (await c.get(f"/api/games/{gid}", headers=headers)).json()
            assert final == {**winner, "events": final["events"]}
            humans = [e for e in final["events"] if e.get("seat") == 0 and e["type"] in ("bid", "play", "pass")]
            assert len(humans) == 1

    run(scenario())


def test_one_game_thinking_does_not_hold_up_another(settings):
    async def scenario():
        bots = GatedBots()
        async with async_client(settings, bots=bots) as c:
            slow = await create(c, bots)
            other = await create(c, bots)
            task = asyncio.create_task(c.post(f"/api/games/{slow['game_id']}/act", headers=auth(slow["token"]),
                                              json=act_body(slow["view"], "x")))
            await asyncio.wait_for(bots.waiting.wait(), 30)
            for _ in range(5):
                response = await asyncio.wait_for(
                    c.get(f"/api/games/{other['game_id']}", headers=auth(other["token"])), 2)
                assert response.status_code == 200
            assert (await c.get("/api/health")).status_code == 200
            assert not task.done()
            bots.gate.set()
            assert (await task).status_code == 200

    run(scenario())


def test_a_write_cut_off_after_the_humans_move_is_finished_later(settings):
    """The server stops while the computers think: the human's move is kept, the computers'
    turn is resumed at start-up, and the client's retry gets the answer it missed."""

    async def first_life():
        bots = GatedBots()
        async with async_client(settings, bots=bots) as c:
            game = await create(c, bots)
            body = act_body(game["view"], "cut")
            task = asyncio.create_task(c.post(f"/api/games/{game['game_id']}/act", json=body,
                                              headers=auth(game["token"])))
            await asyncio.wait_for(bots.waiting.wait(), 30)
            task.cancel()  # the server goes away before it answers
            try:
                await task
            except asyncio.CancelledError:
                pass
            return game, body

    game, body = run(first_life())

    async def second_life():
        async with async_client(settings) as c:
            gid, headers = game["game_id"], auth(game["token"])
            for _ in range(100):  # start-up resumes the computers' turn in the background
                view = (await c.get(f"/api/games/{gid}", headers=headers)).json()
                if view["observation"]["to_act"] in (0, None):
                    break
                await asyncio.sleep(0.02)
            assert view["observation"]["to_act"] in (0, None)
            retry = await c.post(f"/api/games/{gid}/act", json=body, headers=headers)
            assert retry.status_code == 200, retry.text
            answer = retry.json()
            assert answer["version"] == view["version"]
            before = game["view"]["event_count"]
            assert answer["events"] == view["events"][before:]  # from the human's move on
            assert answer["events"][0]["seat"] == 0
            again = await c.post(f"/api/games/{gid}/act", json=body, headers=headers)
            assert again.content == retry.content

    run(second_life())


def test_two_servers_on_one_database_never_both_apply(settings):
    async def scenario():
        async with async_client(settings) as a, async_client(settings) as b:
            game = await create(a)
            gid, headers = game["game_id"], auth(game["token"])
            assert (await b.get(f"/api/games/{gid}", headers=headers)).status_code == 200  # b caches it
            body = act_body(game["view"], "a-1")
            assert (await a.post(f"/api/games/{gid}/act", json=body, headers=headers)).status_code == 200
            late = await b.post(f"/api/games/{gid}/act", json={**body, "request_id": "b-1"}, headers=headers)
            assert late.status_code == 409 and late.json()["error"]["code"] == "stale"
            # b serves the latest state, not its cached one
            assert (await b.get(f"/api/games/{gid}", headers=headers)).json() == \
                   (await a.get(f"/api/games/{gid}", headers=headers)).json()

    run(scenario())
