"""Every endpoint's normal use, and full rounds of each variant, through the app factory."""

from __future__ import annotations

import pytest

from dizhu import Round
from dizhu.game.deal import commitment, deal_cards

from .support import install_round, new_game, stored_state

CLASSIC_DEAL = dict(
    hands=["33344455566677788", "99TTJJQQKKAA22BRT", "3456789JJQQKKAA22"], bottom="89T", first=0
)


def test_health(client):
    response = client.get("/api/health")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.parametrize("variant,players", [("classic", 3), ("duel", 2)])
def test_create_returns_id_token_and_view(client, variant, players):
    response = client.post("/api/games", json={"variant": variant, "level": "normal", "language": "ja"})
    assert response.status_code == 201
    data = response.json()
    assert set(data) == {"game_id", "token", "view"}
    assert len(data["game_id"]) == 22 and len(data["token"]) >= 43
    view = data["view"]
    assert view["game_id"] == data["game_id"]
    assert (view["variant"], view["level"], view["language"], view["human_seat"]) == (variant, "normal", "ja", 0)
    assert [s["kind"] for s in view["seats"]] == ["human"] + ["computer"] * (players - 1)
    assert all(s["level"] == "normal" for s in view["seats"][1:])
    assert view["round_number"] == 1 and view["totals"] == [0] * players
    assert view["target"] == (30 if variant == "classic" else None)
    rules = view["rules"]  # the variant's rules as data, so a client need not know it by name
    assert (rules["name"], rules["players"], rules["match_target"]) == (variant, players, view["target"])
    assert (rules["lowest_rank"], rules["bidding"], rules["handicap"]) == (
        ("3", "points", False) if variant == "classic" else ("5", "rob", True))
    assert sum(rules["deck_counts"]) == (54 if variant == "classic" else 46)
    obs = view["observation"]
    # the computers act until the human must (a computer bidding 3 / the 4th rob even starts play)
    assert obs["to_act"] == 0 and obs["legal_actions"] and obs["deal_code"] is None
    assert len(obs["hand_ids"]) == 17 and (obs["bottom"] is None) == (obs["phase"] == "bidding")
    assert view["events"][0]["type"] == "deal" and view["event_count"] == len(view["events"])
    assert [e["seat"] for e in view["events"] if e["type"] == "bid"] == [s for s, _ in obs["bids"]]


def test_create_defaults_and_ids_are_unique(client):
    a = new_game(client)
    b = client.post("/api/games", json={}).json()
    assert b["view"]["variant"] == "classic" and b["view"]["language"] == "en"
    assert a.id != b["game_id"] and a.token != b["token"]
    # no body at all, sent as JSON: the defaults too (docs/API.md)
    bare = client.post("/api/games", headers={"Content-Type": "application/json"})
    assert bare.status_code == 201, bare.text
    assert bare.json()["view"]["variant"] == "classic" and bare.json()["view"]["level"] == "normal"


def test_a_write_must_say_json_or_show_a_token(client):
    """What another site's page can make a browser send without asking first (a form: no JSON type,
    no Authorization) creates nothing; a page on another site gets 403 even with the JSON type."""
    service = client.app.state.service
    for headers in ({}, {"Content-Type": "text/plain"}, {"Content-Type": "application/x-www-form-urlencoded"}):
        response = client.post("/api/games", headers=headers)
        assert response.status_code == 415 and response.json()["error"]["code"] == "unsupported_media_type"
    cross = client.post("/api/games", json={}, headers={"Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 403 and cross.json()["error"]["code"] == "cross_site"
    assert not service._sessions  # no game was made
    for site in ("same-origin", "none"):
        assert client.post("/api/games", json={}, headers={"Sec-Fetch-Site": site}).status_code == 201
    game = new_game(client)
    # a token is a header no form can send: a write that shows one needs no body
    assert client.post(f"/api/games/{game.id}/hint", headers=game.headers).status_code == 200
    cross = client.post(f"/api/games/{game.id}/hint", headers={**game.headers, "Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 403


def test_view_since_returns_the_tail_of_the_events(client):
    game = new_game(client)
    full = game.get().json()
    assert full["events"] == game.view["events"]
    tail = game.get(since=1).json()
    assert tail["events"] == full["events"][1:] and tail["event_count"] == full["event_count"]
    assert game.get(since=999).json()["events"] == []


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_a_full_round_through_the_api(client, variant):
    game = new_game(client, variant=variant)
    seen = list(game.view["events"])
    versions = [game.view["version"]]
    while game.obs["phase"] != "over":
        obs = game.obs
        assert obs["to_act"] == 0
        before = game.view["event_count"]
        response = game.act(obs["legal_actions"][-1 if obs["phase"] == "bidding" else 0])
        assert response.status_code == 200, response.text
        view = response.json()
        # the answer holds the events from the human's action on, computers' moves one by one
        assert view["events"] == game.get().json()["events"][before:]
        assert view["events"][0].get("seat") == 0 or view["events"][0]["type"] == "deal"
        seen += view["events"]
        versions.append(view["version"])
    assert versions == sorted(set(versions))
    final = game.view
    assert seen == game.get().json()["events"]  # nothing missed, nothing twice
    result = final["observation"]["result"]
    assert sum(result["points"]) == 0 and final["totals"] == result["points"]
    code = final["observation"]["deal_code"]
    assert code and commitment(code) == final["observation"]["deal_hash"]
    assert seen[-1]["type"] == "settle"
    rounds = client.get(f"/api/games/{game.id}/rounds", headers=game.headers).json()["rounds"]
    assert len(rounds) == 1
    assert rounds[0]["number"] == 1 and rounds[0]["match"] == 1
    assert rounds[0]["deal_code"] == code and rounds[0]["events"] == seen
    assert rounds[0]["result"] == result and rounds[0]["totals"] == final["totals"]


def test_cards_name_exactly_which_cards_are_played(client):
    game = new_game(client)
    install_round(client, game, Round.from_deal("classic", **CLASSIC_DEAL, landlord=0))
    hand = game.obs["hand_ids"]
    threes = [i for i in hand if i // 4 == 0]
    chosen = threes[-1:]  # one particular 3
    response = game.act("play 3", cards=chosen)
    assert response.status_code == 200, response.text
    play = next(e for e in response.json()["events"] if e["type"] == "play" and e["seat"] == 0)
    assert play["cards"] == chosen
    assert chosen[0] not in game.obs["hand_ids"]


def test_rounds_is_empty_before_a_round_ends(client):
    game = new_game(client)
    response = client.get(f"/api/games/{game.id}/rounds", headers=game.headers)
    assert response.status_code == 200 and response.json() == {"rounds": [], "total": 0, "next_offset": None}


def test_hint_suggests_a_legal_action_and_applies_nothing(client):
    game = new_game(client)
    install_round(client, game, Round.from_deal("classic", **CLASSIC_DEAL, landlord=0))
    before = game.get().json()
    response = game.post("hint", {})
    assert response.status_code == 200
    hint = response.json()
    assert hint["action"] in game.obs["legal_actions"]
    assert set(hint["cards"]) <= set(game.obs["hand_ids"]) and hint["cards"]
    assert isinstance(hint["reason"]["key"], str) and isinstance(hint["reason"]["params"], dict)
    # ranked alternatives, the first being the hint itself, each one legal
    alternatives = hint["alternatives"]
    assert alternatives[0] == {k: v for k, v in hint.items() if k != "alternatives"}
    assert all(0 <= a["figures"]["rate"] <= 100 and a["figures"]["games"] > 0 for a in alternatives)  # searched
    assert 1 <= len(alternatives) <= 3 and len({a["action"] for a in alternatives}) == len(alternatives)
    assert all(a["action"] in game.obs["legal_actions"] for a in alternatives)
    assert game.get().json() == before
    assert game.post("hint").status_code == 200  # no body at all is fine too


def test_a_hint_sent_on_to_act_as_it_came_is_applied_a_pass_or_a_bid_too(client):
    # the hint answers a pass or a bid with `"cards": []`; /act took that for cards with a non-play
    game = new_game(client, variant="duel")
    kinds = set()
    for _ in range(5):  # rounds, until both a play and something else went through (a landlord's
        for _ in range(200):  # spring once left the player nothing but passes)
            if game.obs["phase"] == "over":
                break
            hint = game.post("hint", {}).json()
            kinds.add(hint["action"].split()[0])
            response = game.act(hint["action"], cards=hint["cards"])
            assert response.status_code == 200, response.text
        assert game.obs["phase"] == "over"
        if "play" in kinds and kinds - {"play"}:
            break
        assert game.write("another-round").status_code == 200
    assert "play" in kinds and kinds - {"play"}  # a bid, a call, a rob or a pass went through too
    assert game.act("play 3", cards=[]).status_code == 422  # a play still needs its cards


def test_autoplay_makes_the_humans_move_then_the_computers(client):
    game = new_game(client, variant="duel")
    rounds_played = 0
    for _ in range(200):
        if game.obs["phase"] == "over":
            break
        before = game.view["event_count"]
        response = game.write("autoplay")
        assert response.status_code == 200, response.text
        events = response.json()["events"]
        assert events and events[0]["seat"] == 0 and game.view["event_count"] > before
        rounds_played += 1
    assert game.obs["phase"] == "over" and rounds_played >= 2  # a short deal can end after two human turns


def test_another_round_keeps_totals_and_new_match_resets_them(client):
    game = new_game(client, variant="duel")
    game.play_out()
    totals = game.view["totals"]
    assert totals != [0, 0]
    response = game.write("another-round")
    assert response.status_code == 200
    view = response.json()
    assert view["round_number"] == 2 and view["totals"] == totals
    assert view["observation"]["result"] is None and view["events"][0]["type"] == "deal"
    game.play_out()
    rounds = client.get(f"/api/games/{game.id}/rounds", headers=game.headers).json()["rounds"]
    assert [r["number"] for r in rounds] == [1, 2]
    response = game.write("new-match")
    assert response.status_code == 200
    # round numbers keep counting the game's deals (the engine's Match.round_number)
    assert game.view["totals"] == [0, 0] and game.view["round_number"] == 3
    game.play_out()
    rounds = client.get(f"/api/games/{game.id}/rounds", headers=game.headers).json()["rounds"]
    assert [(r["match"], r["number"]) for r in rounds] == [(1, 1), (1, 2), (2, 3)]
    assert rounds[2]["totals"] == game.view["totals"]
    # a page at a time
    pages, offset = [], 0
    while offset is not None:
        page = client.get(f"/api/games/{game.id}/rounds?offset={offset}&limit=2", headers=game.headers).json()
        assert page["total"] == 3 and len(page["rounds"]) <= 2
        pages.append([r["number"] for r in page["rounds"]])
        offset = page["next_offset"]
    assert pages == [[1, 2], [3]]
    beyond = client.get(f"/api/games/{game.id}/rounds?offset=7", headers=game.headers).json()
    assert beyond == {"rounds": [], "total": 3, "next_offset": None}
    for query in ("limit=0", "limit=201", "offset=-1", "limit=x", "page=2"):
        response = client.get(f"/api/games/{game.id}/rounds?{query}", headers=game.headers)
        assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request", query


def test_new_game_abandons_the_round_and_scores_nothing(client):
    game = new_game(client)
    install_round(client, game, Round.from_deal("classic", **CLASSIC_DEAL, landlord=0), totals=[5, -3, -2])
    assert game.act("play 33").status_code == 200
    response = game.write("new-game")
    assert response.status_code == 200
    view = response.json()
    assert view["totals"] == [5, -3, -2] and view["round_number"] == 2
    assert view["events"][0]["type"] == "deal" and len(view["observation"]["hand_ids"]) == 17
    assert view["observation"]["to_act"] == 0 and view["observation"]["result"] is None
    assert client.get(f"/api/games/{game.id}/rounds", headers=game.headers).json()["total"] == 0


#: The human (landlord) holds a six-trio plane and the rocket; the farmers have no bomb.
SPRING_DEAL = dict(hands=["33344455566677788", "99TTJJQQKKAA22345", "99TTJJQQKKAA22678"], bottom="8BR",
                   first=0)


def test_the_match_ends_at_thirty_and_then_only_a_new_match_deals(client):
    game = new_game(client)
    install_round(client, game, Round.from_deal("classic", **SPRING_DEAL, landlord=0), totals=[28, -14, -14])
    response = game.act("play 333444555666777888")
    assert response.status_code == 200
    assert [e["type"] for e in response.json()["events"]] == ["play", "pass", "pass", "trick"]
    assert game.act("play BR").status_code == 200
    view = game.view
    result = view["observation"]["result"]
    assert result["winner"] == "landlord" and result["spring"] and result["points"] == [8, -4, -4]
    assert view["totals"] == [36, -18, -18] and view["match_over"] and view["winners"] == [0]
    refused = game.write("another-round")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "match_over"
    assert game.write("new-game").json()["error"]["code"] == "match_over"
    assert game.write("new-match").status_code == 200
    assert game.view["totals"] == [0, 0, 0] and not game.view["match_over"] and game.view["winners"] == []


def test_replaying_a_revealed_deal_code_deals_the_same_cards(client):
    game = new_game(client)
    game.play_out()
    code = game.obs["deal_code"]
    initial = [c.id for c in deal_cards(code, 0).hands[0]]
    again = new_game(client, deal_code=code, level="intermediate")
    assert again.view["variant"] == "classic" and again.view["level"] == "intermediate"
    assert again.obs["deal_hash"] == commitment(code)
    # no re-deal can happen before the human has spoken: the same 17 cards
    assert again.obs["hand_ids"] == initial
    duel = new_game(client, deal_code="duel-abc.1")
    assert duel.view["variant"] == "duel"


def test_language_can_be_changed_without_a_new_version(client):
    game = new_game(client)
    response = client.patch(f"/api/games/{game.id}", json={"language": "zh-Hant"}, headers=game.headers)
    assert response.status_code == 200
    view = response.json()
    assert view["language"] == "zh-Hant" and view["version"] == game.view["version"]
    assert game.get().json()["language"] == "zh-Hant"
    assert game.act(game.obs["legal_actions"][0]).json()["language"] == "zh-Hant"


def test_the_stored_state_keeps_the_game_across_apps(settings, tmp_path):
    from fastapi.testclient import TestClient

    from dizhu.web import create_app

    with TestClient(create_app(settings)) as first:
        game = new_game(first)
        assert game.act(game.obs["legal_actions"][0]).status_code == 200
        view = game.get().json()
    with TestClient(create_app(settings)) as second:
        again = second.get(f"/api/games/{game.id}", headers=game.headers)
        assert again.status_code == 200 and again.json() == view


def test_the_current_deal_code_never_leaves_the_server(client):
    import json

    mid_round_actions = 0
    for _ in range(3):  # a random deal can end after few human actions; cover several
        game = new_game(client)
        code = json.loads(stored_state(client, game.id))["round"]["source"]["code"]
        seed = code.split("-", 1)[1]
        bodies = [game.get().text, game.post("hint", {}).text,
                  client.get(f"/api/games/{game.id}/rounds", headers=game.headers).text]
        while game.obs["phase"] != "over":
            response = game.act(game.obs["legal_actions"][0])
            if game.obs["phase"] != "over":
                bodies.append(response.text)
                mid_round_actions += 1
        assert not any(seed in body for body in bodies)
        # revealed once the round is over
        assert game.obs["deal_code"] == code
    assert mid_round_actions >= 3


def test_ui_files_are_served_with_security_headers(client, settings, tmp_path):
    response = client.get("/api/health")
    headers = response.headers
    csp = headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["cache-control"] == "no-store"
    assert "server" not in headers


def test_static_files_come_from_the_static_directory(tmp_path):
    from fastapi.testclient import TestClient

    from dizhu.web import Settings, create_app

    static = tmp_path / "static"
    (static / "js").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>t</title>")
    (static / "js" / "main.js").write_text("export const x = 1;")
    settings = Settings(data_dir=tmp_path / "data", workers=0, static_dir=static)
    with TestClient(create_app(settings)) as c:
        index = c.get("/")
        assert index.status_code == 200 and "<title>t</title>" in index.text
        assert index.headers["content-type"].startswith("text/html")
        assert index.headers["x-frame-options"] == "DENY" and index.headers["cache-control"] == "no-cache"
        script = c.get("/js/main.js")
        assert script.headers["content-type"].startswith("text/javascript")
        missing = c.get("/nope.js")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
        assert c.get("/../../etc/passwd").status_code == 404
    settings = Settings(data_dir=tmp_path / "data2", workers=0, static_dir=tmp_path / "absent")
    with TestClient(create_app(settings)) as c:
        assert c.get("/").status_code == 404
        assert c.get("/api/health").status_code == 200


def test_openapi_schema_is_published_and_no_third_party_pages(client):
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in ["/api/games", "/api/games/{game_id}", "/api/games/{game_id}/act", "/api/games/{game_id}/hint",
                 "/api/games/{game_id}/autoplay", "/api/games/{game_id}/another-round",
                 "/api/games/{game_id}/new-game", "/api/games/{game_id}/new-match",
                 "/api/games/{game_id}/rounds", "/api/health"]:
        assert path in paths
    assert client.get("/docs").status_code == 404  # Swagger UI would load a CDN's scripts
