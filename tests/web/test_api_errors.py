"""Every refusal: the status, the machine-readable code, and a game left exactly as it was."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi.testclient import TestClient

from dizhu import REASONS, Round
from dizhu.game import deal_cards
from dizhu.web import create_app

from .support import auth, install_round, new_game, stored_state

HUMAN_LEADS = dict(hands=["33344455566677788", "99TTJJQQKKAA22BRT", "3456789JJQQKKAA22"], bottom="89T",
                   first=0)
WRITES = ["act", "autoplay", "another-round", "new-game", "new-match"]


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "params"}
    error = body["error"]
    assert error["code"] == code, error
    assert error["message"] and "Traceback" not in response.text and 'File "' not in response.text
    assert response.headers["x-content-type-options"] == "nosniff"
    return error


@pytest.fixture
def game(client):
    return new_game(client)


class Unchanged:
    """Asserts that the game's view and stored state are the same afterwards."""

    def __init__(self, client, game):
        self.client, self.game = client, game

    def __enter__(self):
        self.view = self.game.get().json()
        self.state = stored_state(self.client, self.game.id)
        return self

    def __exit__(self, *exc):
        if exc[0] is None:
            assert self.game.get().json() == self.view
            assert stored_state(self.client, self.game.id) == self.state


# ---- transport


@pytest.mark.parametrize("path", WRITES + ["hint"])
def test_malformed_json(client, game, path):
    with Unchanged(client, game):
        response = client.post(f"/api/games/{game.id}/{path}", content=b'{"action": "pass",',
                               headers={**game.headers, "content-type": "application/json"})
        error_of(response, 400, "malformed_json")


def test_malformed_json_on_create_and_settings(client, game):
    error_of(client.post("/api/games", content=b"{nope", headers={"content-type": "application/json"}),
             400, "malformed_json")
    response = client.patch(f"/api/games/{game.id}", content=b"[", headers={**game.headers,
                                                                            "content-type": "application/json"})
    error_of(response, 400, "malformed_json")


@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded", "application/jsonx"])
def test_a_body_not_sent_as_json_is_refused_by_its_type(client, game, kind):
    # It was validated as a string: 422 "Input should be a valid dictionary", which hid the cause.
    headers = {**game.headers, **({"content-type": kind} if kind else {})}
    body = json.dumps({"action": "pass", "version": game.view["version"], "request_id": "a"}).encode()
    with Unchanged(client, game):
        error_of(client.post(f"/api/games/{game.id}/act", content=body, headers=headers),
                 415, "unsupported_media_type")
    error_of(client.post("/api/games", content=b'{"variant": "duel"}', headers={"content-type": kind or ""}),
             415, "unsupported_media_type")


def test_json_types_with_parameters_are_json(client, game):
    for kind in ("application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json"):
        response = client.patch(f"/api/games/{game.id}", content=b'{"language": "ja"}',
                                headers={**game.headers, "content-type": kind})
        assert response.status_code == 200, (kind, response.text)


@pytest.mark.parametrize("body,field", [
    ({"action": "pass", "version": 1, "request_id": "a", "extra": 1}, "extra"),
    ({"action": "pass", "version": "1", "request_id": "a"}, "version"),
    ({"action": "pass", "version": True, "request_id": "a"}, "version"),
    ({"action": "pass", "version": -1, "request_id": "a"}, "version"),
    ({"action": "pass", "version": 1.5, "request_id": "a"}, "version"),
    ({"action": "pass", "request_id": "a"}, "version"),
    ({"action": "pass", "version": 1}, "request_id"),
    ({"action": "pass", "version": 1, "request_id": ""}, "request_id"),
    ({"action": "pass", "version": 1, "request_id": "has space"}, "request_id"),
    ({"action": "pass", "version": 1, "request_id": "x" * 129}, "request_id"),
    ({"version": 1, "request_id": "a"}, "action"),
    ({"action": 3, "version": 1, "request_id": "a"}, "action"),
    ({"action": "p" * 81, "version": 1, "request_id": "a"}, "action"),
    ({"action": "play 3", "cards": [54], "version": 1, "request_id": "a"}, "cards"),
    ({"action": "play 3", "cards": ["3"], "version": 1, "request_id": "a"}, "cards"),
    ({"action": "play 3", "cards": list(range(21)), "version": 1, "request_id": "a"}, "cards"),
    ({"action": "pass", "version": 1, "request_id": "a", "since": -1}, "since"),
    ({"action": "pass", "version": 1, "request_id": "a", "since": 10**30}, "since"),
    ({"action": "pass", "version": 2**60, "request_id": "a"}, "version"),
])
def test_invalid_act_bodies(client, game, body, field):
    with Unchanged(client, game):
        error = error_of(game.post("act", body), 422, "invalid_request")
        assert any(d.startswith(field) for d in error["params"]["detail"]), error


@pytest.mark.parametrize("body", [[], "pass", 3, None])
def test_a_body_that_is_not_an_object(client, game, body):
    with Unchanged(client, game):
        error_of(client.post(f"/api/games/{game.id}/act", content=json.dumps(body).encode(),
                             headers={**game.headers, "content-type": "application/json"}),
                 422, "invalid_request")


@pytest.mark.parametrize("body", [
    {"variant": "triple"}, {"level": "impossible"}, {"language": "fr"}, {"variant": "classic", "x": 1},
    {"deal_code": "poker-1"}, {"deal_code": "classic-"}, {"deal_code": "classic-a b"}, {"deal_code": 5},
    {"deal_code": "classic-" + "a" * 200},
])
def test_invalid_create_bodies(client, body):
    error_of(client.post("/api/games", json=body), 422, "invalid_request")


def test_a_deal_code_for_the_other_variant_is_refused(client):
    error = error_of(client.post("/api/games", json={"variant": "duel", "deal_code": "classic-abc"}),
                     422, "deal_code_variant")
    assert error["params"] == {"code_variant": "classic", "variant": "duel"}


@pytest.mark.parametrize("body", [{"language": "xx"}, {}, {"language": "ja", "level": "normal"}])
def test_invalid_settings(client, game, body):
    with Unchanged(client, game):
        error_of(client.patch(f"/api/games/{game.id}", json=body, headers=game.headers), 422, "invalid_request")


def test_hint_takes_no_fields(client, game):
    error_of(game.post("hint", {"level": "super-hard"}), 422, "invalid_request")


def test_invalid_since_query(client, game):
    response = client.get(f"/api/games/{game.id}", params={"since": "x"}, headers=game.headers)
    error_of(response, 422, "invalid_request")
    response = client.get(f"/api/games/{game.id}", params={"since": -2}, headers=game.headers)
    error_of(response, 422, "invalid_request")


def test_oversized_bodies(client, game):
    big = {"action": "pass", "version": 1, "request_id": "a", "cards": None, "pad": "x" * 17000}
    with Unchanged(client, game):
        error = error_of(game.post("act", big), 413, "body_too_large")
        assert error["params"] == {"limit": 16384}

        def chunks():  # no Content-Length: counted as it arrives
            for _ in range(20):
                yield b" " * 1024

        response = client.post(f"/api/games/{game.id}/act", content=chunks(),
                               headers={**game.headers, "content-type": "application/json"})
        error_of(response, 413, "body_too_large")
    error_of(client.post("/api/games", content=b"{" + b" " * 20000 + b"}",
                         headers={"content-type": "application/json"}), 413, "body_too_large")


def test_a_body_just_under_the_limit_is_read(client, game):
    body = json.dumps({"action": "pass", "version": game.view["version"], "request_id": "a"})
    padded = body[:-1] + " " * (16384 - len(body)) + "}"
    assert len(padded) == 16384
    response = client.post(f"/api/games/{game.id}/act", content=padded.encode(),
                           headers={**game.headers, "content-type": "application/json"})
    assert response.status_code == 200


def test_unknown_paths_and_methods(client, game):
    error_of(client.get("/api/nothing"), 404, "not_found")
    response = client.delete(f"/api/games/{game.id}", headers=game.headers)
    error_of(response, 405, "method_not_allowed")
    error_of(client.put("/api/games", json={}), 405, "method_not_allowed")
    # No API address at all: 404 whatever the method (it was a 405 naming GET, which then 404s).
    for method in ("post", "put", "delete"):
        error_of(client.request(method, "/api/nothing"), 404, "not_found")
        error_of(client.request(method, "/api"), 404, "not_found")
        error_of(client.request(method, f"/api/games/{game.id}/nothing", headers=game.headers), 404, "not_found")


def test_unknown_or_repeated_query_parameters_are_refused_everywhere(client, game):
    # Only the view and the rounds checked them: POST /api/games?variant=duel made a classic game.
    with Unchanged(client, game):
        for method, path, body in [("post", "/api/games", {}), ("get", "/api/health", None),
                                   ("post", f"/api/games/{game.id}/hint", {}),
                                   ("post", f"/api/games/{game.id}/check", {"action": "pass"}),
                                   ("patch", f"/api/games/{game.id}", {"language": "ja"}),
                                   ("get", "/api/puzzles", None), ("get", "/api/puzzles/classic-001", None),
                                   ("get", f"/api/games/{game.id}/rounds/1/review", None)]:
            kwargs = {"json": body} if body is not None else {}
            name = "level" if path == "/api/puzzles" else "variant"  # (the list takes a variant)
            error = error_of(client.request(method, f"{path}?{name}=duel", headers=game.headers, **kwargs),
                             422, "invalid_request")
            assert error["params"]["detail"] == [f"query.{name}: not a parameter of this address"], error
    error = error_of(client.get(f"/api/games/{game.id}?since=1&since=2", headers=game.headers), 422, "invalid_request")
    assert error["params"]["detail"] == ["query.since: given more than once"]
    # the parameters an address takes still work, and the UI's pages take any
    assert client.get(f"/api/games/{game.id}?since=1", headers=game.headers).status_code == 200
    assert client.get("/api/puzzles?variant=duel").status_code == 200
    assert client.get("/?deal=classic-1&x=2").status_code == 200


def test_a_body_that_is_not_utf8_is_malformed(client, game):
    # The JSON parser guessed UTF-16 and UTF-32 from the NUL bytes and took them.
    body = {"action": "pass"}
    with Unchanged(client, game):
        for encoding in ("utf-16", "utf-16-le", "utf-32"):
            response = client.post(f"/api/games/{game.id}/check", content=json.dumps(body).encode(encoding),
                                   headers={**game.headers, "content-type": "application/json"})
            error_of(response, 400, "malformed_json")
        response = client.post(f"/api/games/{game.id}/check", content=b'{"action": "pass\xff"}',
                               headers={**game.headers, "content-type": "application/json"})
        error_of(response, 400, "malformed_json")
    assert game.post("check", {"action": "pass"}).status_code == 200


@pytest.mark.parametrize("number", ["+1", "%201", "1%20", "1.0", "1_0", "0x1"])
def test_a_round_number_is_plain_decimal_digits(client, game, number):
    error_of(client.get(f"/api/games/{game.id}/rounds/{number}/review", headers=game.headers),
             422, "invalid_request")


# ---- who may see and touch a game


@pytest.mark.parametrize("method,path,body", [
    ("get", "", None), ("patch", "", {"language": "ja"}), ("get", "/rounds", None), ("post", "/hint", {}),
    ("post", "/check", {"action": "pass"}),
    ("post", "/act", {"action": "pass", "version": 1, "request_id": "a"}),
    ("post", "/autoplay", {"version": 1, "request_id": "a"}),
    ("post", "/another-round", {"version": 1, "request_id": "a"}),
    ("post", "/new-game", {"version": 1, "request_id": "a"}),
    ("post", "/new-match", {"version": 1, "request_id": "a"}),
])
def test_every_game_call_needs_the_right_token(client, game, method, path, body):
    other = new_game(client)
    call = getattr(client, method)
    kwargs = {"json": body} if body is not None else {}
    url = f"/api/games/{game.id}{path}"
    with Unchanged(client, game):
        response = call(url, **kwargs)
        error_of(response, 401, "missing_token")
        assert response.headers["www-authenticate"] == "Bearer"
        error_of(call(url, headers={"Authorization": f"Basic {game.token}"}, **kwargs), 401, "missing_token")
        error_of(call(url, headers={"Authorization": "Bearer"}, **kwargs), 401, "missing_token")
        error_of(call(url, headers=auth(other.token), **kwargs), 403, "wrong_token")
        error_of(call(url, headers=auth(game.token[:-1] + ("A" if game.token[-1] != "A" else "B")), **kwargs),
                 403, "wrong_token")
        error_of(call(url, headers=auth("x" * 5000), **kwargs), 403, "wrong_token")
        if body is not None:  # no token is refused before the body is read (it was 422 for a bad one)
            error_of(call(url, json={"bad": True}), 401, "missing_token")
        for forged in ["A" * 22, game.id[:-1] + ("A" if game.id[-1] != "A" else "B"), "short", "x" * 300,
                       "%C3%A9" * 11, "%00" * 22]:
            response = call(f"/api/games/{forged}{path}", headers=game.headers, **kwargs)
            error_of(response, 404, "unknown_game")
        # not a game's address at all
        assert call(f"/api/games/..%2F..%2Fetc{path}", headers=game.headers, **kwargs).status_code in (404, 405)


def test_tokens_are_stored_hashed(client, game):
    record = client.portal.call(client.app.state.service.store.load, game.id)
    assert game.token not in record.token_hash and game.token not in record.state
    raw = (client.app.state.service.settings.db_path).read_bytes()
    assert game.token.encode() not in raw


# ---- the game's own refusals


def lead_position(client, game):
    install_round(client, game, Round.from_deal("classic", **HUMAN_LEADS, landlord=0))
    return game


def respond_position(client, game):
    r = Round.from_deal("classic", **HUMAN_LEADS, landlord=1)
    r.apply(1, "play 99")
    r.apply(2, "pass")
    install_round(client, game, r)
    return game


def bidding_position(client, game, first=2, bids=("bid 2",)):
    r = Round.from_deal("classic", **{**HUMAN_LEADS, "first": first})
    for i, bid in enumerate(bids):
        r.apply((first + i) % 3, bid)
    install_round(client, game, r)
    return game


CASES = [
    # (position, action, cards, code)
    (lead_position, "pass", None, "must_lead"),
    (lead_position, "play 34", None, "not_a_pair"),
    (lead_position, "play 34568", None, "chain_gap"),
    (lead_position, "play QQ", None, "not_in_hand"),
    (lead_position, "bid 2", None, "not_bidding"),
    (lead_position, "call", None, "not_bidding"),
    (lead_position, "dance", None, "malformed_action"),
    (lead_position, "play xyz", None, "malformed_action"),
    (lead_position, "play 33", "44", "cards_mismatch"),
    (lead_position, "pass", "3", "cards_mismatch"),
    (lead_position, "play 33", "33dup", "bad_notation"),
    (lead_position, "play QQ", "QQ", "not_in_hand"),
    (respond_position, "play 33", None, "too_weak"),
    (respond_position, "play 333", None, "wrong_kind"),
    (respond_position, "play 34567", None, "wrong_kind"),
    (bidding_position, "bid 1", None, "bid_too_low"),
    (bidding_position, "bid 2", None, "bid_too_low"),
    (bidding_position, "rob", None, "not_in_variant"),
    (bidding_position, "play 33", None, "still_bidding"),
]


def card_ids(game, spec):
    """Card ids for a test: ranks from the human's hand ("44"), a duplicate, or cards not held."""
    hand = game.obs["hand_ids"]
    if spec == "33dup":
        three = next(i for i in hand if i // 4 == 0)
        return [three, three]
    ranks = {"3": 0, "4": 1, "Q": 9}
    wanted = [ranks[ch] for ch in spec]
    if spec == "QQ":  # Qs are not in the human's hand
        return [i for i in range(54) if i // 4 == 9][:2]
    out = []
    for rank in wanted:
        out.append(next(i for i in hand if i // 4 == rank and i not in out))
    return out


@pytest.mark.parametrize("position,action,cards,code", CASES,
                         ids=[f"{c[3]}:{c[1]}" for c in CASES])
def test_illegal_actions_get_the_engines_reason(client, game, position, action, cards, code):
    position(client, game)
    ids = None if cards is None else card_ids(game, cards)
    with Unchanged(client, game):
        error = error_of(game.act(action, cards=ids), 422, code)
    assert code in REASONS or code == "cards_mismatch"
    if code in REASONS and code != "bad_notation":
        template = REASONS[code]
        assert error["message"] == template.format(**error["params"])
    # and the right move is still accepted afterwards
    assert game.act(game.obs["legal_actions"][-1]).status_code == 200


def test_duel_refuses_points_bidding_and_cards_outside_its_deck(client):
    code = next(c for n in range(100) if deal_cards(c := f"duel-first{n}", 0).first == 0)
    game = new_game(client, deal_code=code)  # the human speaks first
    assert game.obs["legal_actions"] == ["pass", "call"]
    with Unchanged(client, game):
        error_of(game.act("bid 1"), 422, "not_in_variant")
        error_of(game.act("rob"), 422, "nobody_called")
        error_of(game.act("play 3"), 422, "not_in_deck")
        error_of(game.act("play 5", cards=[0]), 422, "not_in_deck")


def test_acting_after_the_round_is_over(client, game):
    game.play_out()
    with Unchanged(client, game):
        error_of(game.act("pass"), 422, "round_over")
        error_of(game.write("autoplay"), 422, "round_over")
        error_of(game.post("hint", {}), 422, "round_over")


def test_another_round_while_a_round_is_being_played(client, game):
    with Unchanged(client, game):
        error_of(game.write("another-round"), 409, "round_in_progress")


@pytest.mark.parametrize("path", WRITES)
def test_a_stale_version_is_refused(client, game, path):
    current = game.view["version"]
    body = {"version": current - 1, "request_id": "old"}
    if path == "act":
        body["action"] = game.obs["legal_actions"][0]
    with Unchanged(client, game):
        error = error_of(game.post(path, body), 409, "stale")
        assert error["params"] == {"version": current}
        error_of(game.post(path, {**body, "version": current + 5, "request_id": "new"}), 409, "stale")


def test_a_hint_for_a_position_the_game_has_left_is_refused(client, game):
    # A second tab behind the game asked for advice and got the current position's, while it
    # showed the old hand: with the version it shows, it is told the game moved on.
    current = game.view["version"]
    with Unchanged(client, game):
        error = error_of(game.post("hint", {"version": current - 1}), 409, "stale")
        assert error["params"] == {"version": current}
        error_of(game.post("hint", {"version": current + 1}), 409, "stale")
        error_of(game.post("hint", {"version": "1"}), 422, "invalid_request")
    assert game.post("hint", {"version": current}).status_code == 200
    assert game.post("hint", {}).status_code == 200  # (the version is optional)


# ---- the same request twice


def test_a_repeated_request_is_applied_once_and_answered_the_same(client, game):
    body = {"action": game.obs["legal_actions"][0], "version": game.view["version"], "request_id": "tap-1"}
    first = game.post("act", body)
    assert first.status_code == 200
    state = stored_state(client, game.id)
    second = game.post("act", body)
    assert second.status_code == 200 and second.content == first.content
    assert stored_state(client, game.id) == state
    # a fresh request at the old version is stale, so the double tap could not have acted twice
    error_of(game.post("act", {**body, "request_id": "tap-2"}), 409, "stale")


@pytest.mark.parametrize("path", ["autoplay", "new-game", "new-match"])
def test_repeated_steps_are_applied_once(client, game, path):
    body = {"version": game.view["version"], "request_id": f"{path}-1"}
    first = game.post(path, body)
    assert first.status_code == 200
    view = game.get().json()
    second = game.post(path, body)
    assert second.content == first.content
    assert game.get().json() == view


def test_a_request_id_reused_for_another_request(client, game):
    body = {"action": game.obs["legal_actions"][0], "version": game.view["version"], "request_id": "same"}
    assert game.post("act", body).status_code == 200
    # Another action than the first (a deal can leave the human only "pass"; the id is
    # checked before the action is, so any other well-formed action will do).
    other = next(a for a in [*game.obs["legal_actions"], "play 3", "bid 3"] if a != body["action"])
    changed = {**body, "action": other}
    error_of(game.post("act", changed), 422, "request_id_reused")
    error_of(game.post("new-game", {"version": body["version"], "request_id": "same"}), 422,
             "request_id_reused")


def test_a_refused_request_can_be_retried_with_the_same_id(client, game):
    lead_position(client, game)
    body = {"action": "pass", "version": game.view["version"], "request_id": "retry"}
    error_of(game.post("act", body), 422, "must_lead")
    error_of(game.post("act", body), 422, "must_lead")
    assert game.post("act", {**body, "action": "play 3", "request_id": "retry-2"}).status_code == 200


# ---- failures inside the server


def test_an_internal_failure_is_a_500_without_details(settings, caplog):
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        game = new_game(client)
        service = client.app.state.service

        secret = "-".join(["SECRET", "HAND", "33344455"])  # so no source line shows it

        async def broken(game_id, *page):
            raise RuntimeError(secret)

        service.store.rounds_page = broken
        with caplog.at_level(logging.ERROR, logger="dizhu"):
            response = client.get(f"/api/games/{game.id}/rounds", headers=game.headers)
        error = error_of(response, 500, "internal_error")
        assert "SECRET" not in response.text and "SECRET" not in error["message"]
        assert "SECRET" not in caplog.text and "RuntimeError" in caplog.text


def test_a_failed_commit_leaves_the_game_as_it_was(settings):
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        game = new_game(client)
        before = game.get().json()
        service = client.app.state.service
        real_save = service.store.save

        async def failing_save(*args, **kwargs):
            raise OSError("disk full")

        service.store.save = failing_save
        action = game.obs["legal_actions"][0]
        error_of(game.act(action), 500, "internal_error")
        service.store.save = real_save
        assert game.get().json() == before  # neither stored nor kept in memory
        response = game.act(action)
        assert response.status_code == 200 and response.json()["version"] > before["version"]


def test_failures_are_logged_without_their_text(caplog):
    from dizhu import IllegalAction
    from dizhu.web.logs import log_failure

    try:
        raise IllegalAction("not_in_hand", cards="".join(["99", "TT", "JJ"]))
    except IllegalAction as exc:
        with caplog.at_level(logging.ERROR):
            log_failure(logging.getLogger("dizhu.test"), "a computer's move failed", exc)
    assert "IllegalAction" in caplog.text and "a computer's move failed" in caplog.text
    assert "99TTJJ" not in caplog.text and "do not hold" not in caplog.text


def test_creating_games_too_fast_from_one_address_is_limited(settings):
    import dataclasses
    import sqlite3
    import time

    limited = dataclasses.replace(settings, create_burst=2, create_per_minute=30)  # then one per 2 s
    app = create_app(limited)
    with TestClient(app, client=("10.0.0.1", 5000)) as first, TestClient(app, client=("10.0.0.2", 5000)) as other:
        created = [first.post("/api/games", json={}) for _ in range(2)]
        assert [r.status_code for r in created] == [201, 201]
        refused = first.post("/api/games", json={})
        assert refused.status_code == 429 and refused.headers["retry-after"] == "2"
        error = refused.json()["error"]
        assert error["code"] == "too_many_games" and error["params"] == {"retry_after": 2}
        with sqlite3.connect(limited.db_path) as db:
            assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (2,)  # nothing was created
        # playing is never limited
        game = created[0].json()
        headers = auth(game["token"])
        for _ in range(5):
            assert first.get(f"/api/games/{game['game_id']}", headers=headers).status_code == 200
            assert first.post(f"/api/games/{game['game_id']}/hint", headers=headers).status_code == 200
        assert other.post("/api/games", json={}).status_code == 201  # another address has its own allowance
        time.sleep(2.1)
        assert first.post("/api/games", json={}).status_code == 201  # refilled


def test_the_creation_limit_can_be_turned_off():
    from dizhu.web.ratelimit import TokenBuckets

    limit = TokenBuckets(per_minute=0, burst=1, clock=lambda: 0.0)
    assert all(limit.wait("10.0.0.1") == 0.0 for _ in range(1000))


def test_the_creation_limit_forgets_the_longest_idle_client_first(monkeypatch):
    from dizhu.web import ratelimit

    monkeypatch.setattr(ratelimit, "MAX_CLIENTS", 2)
    limit = ratelimit.TokenBuckets(per_minute=1, burst=1, clock=lambda: 0.0)
    assert [limit.wait(c) for c in ("a", "b")] == [0.0, 0.0]
    assert limit.wait("a") > 0  # "a" is now the most recently seen
    assert limit.wait("c") == 0.0  # pushes out "b", the longest idle
    assert limit.wait("a") > 0 and limit.wait("b") == 0.0
