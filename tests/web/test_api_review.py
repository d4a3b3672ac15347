"""The post-round review through the API: from the finished round only, in the background, kept."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from dizhu.analysis import replayed, review
from dizhu.web.service import GameKey
from dizhu.web import create_app
from dizhu.web.botpool import BotRunner
from dizhu.web.errors import ApiError
from dizhu.web.schemas import ReviewDecision, ReviewFigure

from . import botfuncs
from .support import code_with_first_bidder, new_game

BUDGET = 0.01


@pytest.fixture
def review_settings(settings):
    return replace(settings, review_budget=BUDGET)


def finished(client, variant="classic", **body):
    """A finished round the player won the bidding of, so it has choices to review.

    A random deal could leave the player only forced passes, and a review of nothing is done at
    once: the tests that wait for a running review would then see it done (as CI once did).
    """
    game = new_game(client, variant=variant, deal_code=code_with_first_bidder(0, variant), **body)
    while game.obs["phase"] == "bidding" and game.obs["to_act"] == 0:
        legal = game.obs["legal_actions"]
        choice = next(action for action in ("bid 3", "rob", "call", *legal) if action in legal)
        assert game.act(choice).status_code == 200
    assert game.obs["landlord"] == 0, game.obs
    game.play_out()
    return game


def wait_done(game, number, limit=60.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        response = game.client.get(f"/api/games/{game.id}/rounds/{number}/review", headers=game.headers)
        if response.status_code == 200:
            return response.json()
        assert response.status_code == 202, response.text
        body = response.json()
        assert body["status"] == "running" and 0 <= body["progress"]["done"] <= body["progress"]["total"]
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_a_review_is_computed_from_the_finished_round_alone_and_kept(review_settings, variant):
    with TestClient(create_app(review_settings)) as client:
        game = finished(client, variant=variant)
        number = game.view["round_number"]
        started = game.post(f"rounds/{number}/review")
        assert started.status_code == 202, started.text
        assert started.json()["status"] == "running" and started.json()["review"] is None
        done = wait_done(game, number)
        assert done["status"] == "done" and done["progress"]["done"] == done["progress"]["total"]
        # the same as a review of the round rebuilt from what its end made public
        kept = client.get(f"/api/games/{game.id}/rounds", headers=game.headers).json()["rounds"][-1]
        public = replayed(kept["deal_code"], kept["events"])
        assert done["review"] == review(public, 0, budget=BUDGET).to_dict()
        assert len(done["review"]["decisions"]) == done["progress"]["total"]
        # the published schema (OpenAPI) names every field the answer holds
        for decision in done["review"]["decisions"]:
            assert set(decision) <= set(ReviewDecision.model_fields), decision
            for name in ("made", "best", "face_up_made", "face_up_best"):
                assert set(decision[name]) <= set(ReviewFigure.model_fields), decision[name]
        # asking again starts nothing: the stored answer comes back
        again = game.post(f"rounds/{number}/review")
        assert again.status_code == 200 and again.json() == done
    with TestClient(create_app(review_settings)) as client:  # a restarted server reads it from the store
        response = client.get(f"/api/games/{game.id}/rounds/{number}/review", headers=game.headers)
        assert response.status_code == 200 and response.json() == done


def test_reviews_refuse_rounds_in_progress_unknown_rounds_and_other_games(review_settings):
    with TestClient(create_app(review_settings)) as client:
        game = new_game(client)
        number = game.view["round_number"]
        path = f"/api/games/{game.id}/rounds/{number}/review"
        response = client.post(path, headers=game.headers)
        assert response.status_code == 409 and response.json()["error"]["code"] == "round_in_progress"
        game.play_out()
        response = client.get(path, headers=game.headers)
        assert response.status_code == 404 and response.json()["error"]["code"] == "no_review"
        for other in (number + 1, 999):
            response = client.post(f"/api/games/{game.id}/rounds/{other}/review", headers=game.headers)
            assert response.status_code == 404 and response.json()["error"]["code"] == "unknown_round"
        response = client.post(f"/api/games/{game.id}/rounds/0/review", headers=game.headers)
        assert response.status_code == 422
        stranger = new_game(client)
        response = client.post(path, headers=stranger.headers)
        assert response.status_code == 403 and response.json()["error"]["code"] == "wrong_token"
        assert client.post(path).status_code == 401
        response = client.post(f"/api/games/{'x' * 22}/rounds/{number}/review", headers=game.headers)
        assert response.status_code == 404 and response.json()["error"]["code"] == "unknown_game"
        response = client.post(f"/api/games/{game.id}.x/rounds/{number}/review", headers=game.headers)
        assert response.status_code == 404


@pytest.fixture
def gate():
    botfuncs.REVIEW_GATE.clear()
    yield botfuncs.REVIEW_GATE
    botfuncs.REVIEW_GATE.set()  # never leave a worker thread waiting


def test_one_client_computes_one_review_at_a_time_and_only_so_many(review_settings, gate):
    settings = replace(review_settings, client_reviews=1, review_burst=2, review_per_minute=0.01)
    bots = BotRunner(0, None, 30.0, review_fn=botfuncs.gated_review_step)
    with TestClient(create_app(settings, bots=bots)) as client:
        games = [finished(client) for _ in range(3)]
        paths = [f"rounds/{g.view['round_number']}/review" for g in games]
        assert games[0].post(paths[0]).status_code == 202
        busy = games[1].post(paths[1])
        assert busy.status_code == 429 and busy.json()["error"]["code"] == "too_busy"
        assert "Retry-After" in busy.headers
        # the same review asked for again is no new work: it reports its progress
        again = games[0].post(paths[0])
        assert again.status_code == 202 and again.json()["progress"]["done"] == 0
        gate.set()
        wait_done(games[0], games[0].view["round_number"])
        assert games[1].post(paths[1]).status_code == 202
        wait_done(games[1], games[1].view["round_number"])
        limited = games[2].post(paths[2])
        assert limited.status_code == 429 and limited.json()["error"]["code"] == "too_many_reviews"


def test_the_game_goes_on_while_its_review_is_computed(review_settings, gate):
    bots = BotRunner(0, 0.01, 30.0, review_fn=botfuncs.gated_review_step)  # quick searches, no pace
    with TestClient(create_app(replace(review_settings, pace=0.0), bots=bots)) as client:
        # The player bids 3 first and so leads: decisions to review, whatever the computers do (a
        # computer's 3 before the player's turn and only forced passes after left none, and a review
        # of nothing is done at once).
        game = new_game(client, level="super-hard", deal_code=code_with_first_bidder(0))
        assert game.act("bid 3").status_code == 200
        game.play_out()
        number = game.view["round_number"]
        assert game.post(f"rounds/{number}/review").status_code == 202
        assert game.write("another-round").status_code == 200
        game.play_out()  # the review holds its own worker: the searching computers never wait for it
        assert game.view["round_number"] == number + 1
        still = client.get(f"/api/games/{game.id}/rounds/{number}/review", headers=game.headers)
        assert still.status_code == 202 and still.json()["progress"]["done"] == 0
        gate.set()
        wait_done(game, number)


def test_a_failed_review_is_said_once_and_can_be_asked_for_again(review_settings):
    bots = BotRunner(0, None, 30.0, review_fn=botfuncs.failing_review_step)
    with TestClient(create_app(review_settings, bots=bots)) as client:
        game = finished(client)
        path = f"rounds/{game.view['round_number']}/review"
        assert game.post(path).status_code == 202
        deadline = time.monotonic() + 30
        while (response := client.get(f"/api/games/{game.id}/{path}", headers=game.headers)).status_code == 202:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert response.status_code == 503 and response.json()["error"]["code"] == "review_failed"
        response = client.get(f"/api/games/{game.id}/{path}", headers=game.headers)
        assert response.status_code == 404 and response.json()["error"]["code"] == "no_review"
        assert game.post(path).status_code == 202  # asked again: computed afresh


def test_requests_at_once_start_one_job_and_hold_to_the_limit(review_settings, gate):
    settings = replace(review_settings, client_reviews=1)
    bots = BotRunner(0, None, 30.0, review_fn=botfuncs.gated_review_step)
    with TestClient(create_app(settings, bots=bots)) as client:
        games = [finished(client) for _ in range(2)]
        service = client.app.state.service

        async def ask(game, times):
            number = game.view["round_number"]
            calls = [service.review(GameKey(game.id, game.token), number, "10.0.0.9", start=True) for _ in range(times)]
            return await asyncio.gather(*calls, return_exceptions=True)

        same = client.portal.call(ask, games[0], 5)
        assert [r.status for r in same] == [202] * 5
        assert len(service.reviews._jobs) == 1
        other = client.portal.call(ask, games[1], 3)
        assert all(isinstance(r, ApiError) and r.code == "too_busy" for r in other)
        gate.set()
        wait_done(games[0], games[0].view["round_number"])
