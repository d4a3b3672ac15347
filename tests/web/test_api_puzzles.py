"""Puzzle mode's API: the server replays the player's moves and defends with the solver."""

from __future__ import annotations

from dizhu.cards import parse_cards
from dizhu.puzzles import get, load
from dizhu.rules import same_side


def _winning_moves(puzzle_id, client):
    """The player's moves of a winning line, asking the hint at each turn."""
    moves = []
    for _ in range(40):
        state = client.post(f"/api/puzzles/{puzzle_id}/play", json={"moves": moves}).json()
        if state["status"] != "playing":
            return state
        hint = client.post(f"/api/puzzles/{puzzle_id}/hint", json={"moves": moves})
        assert hint.status_code == 200
        assert hint.json()["action"] in state["legal_actions"]
        moves.append(hint.json()["action"])
    raise AssertionError("no end")


def test_list_by_difficulty(client):
    r = client.get("/api/puzzles", params={"variant": "duel", "difficulty": "hard"})
    assert r.status_code == 200
    body = r.json()
    assert body["levels"] == ["easy", "medium", "hard", "expert"]
    assert body["puzzles"] and all(p["variant"] == "duel" and p["difficulty"] == "hard" for p in body["puzzles"])
    assert not any(p["partner"] for p in body["puzzles"])
    for summary in body["puzzles"][:3]:  # the player's own hand, and every hand, as the puzzle shows them
        start = client.get(f"/api/puzzles/{summary['id']}").json()
        held = [len(parse_cards(h)) if h else 0 for h in start["hands"]]
        assert summary["hand"] == held[start["seat"]] < summary["cards"] == sum(held)
    everything = client.get("/api/puzzles").json()["puzzles"]
    assert len(everything) == len(load("classic")) + len(load("duel"))
    assert client.get("/api/puzzles", params={"difficulty": "impossible"}).status_code == 422


def test_following_the_hints_solves_a_classic_farmer_puzzle_with_a_partner(client):
    puzzle = next(p for p in load("classic") if p.seat != p.position.landlord)
    start = client.get(f"/api/puzzles/{puzzle.id}").json()
    assert start["status"] == "playing" and start["partner"] is not None
    assert same_side(start["partner"], start["seat"], start["landlord"])
    state = _winning_moves(puzzle.id, client)
    assert state["status"] == "solved" and state["points"] == puzzle.grade.value
    assert state["legal_actions"] == []
    # nothing more is taken, and the hint says the puzzle is over
    more = client.post(f"/api/puzzles/{puzzle.id}/play", json={"moves": state["moves"] + ["pass"]})
    assert more.status_code == 409 and more.json()["error"]["code"] == "puzzle_over"
    assert client.post(f"/api/puzzles/{puzzle.id}/hint", json={"moves": state["moves"]}).status_code == 409


def test_a_losing_first_move_fails_with_the_refutation(client):
    puzzle = get("duel-001")
    losing = next(a for a in client.get(f"/api/puzzles/{puzzle.id}").json()["legal_actions"]
                  if a not in puzzle.grade.winning)
    state = client.post(f"/api/puzzles/{puzzle.id}/play", json={"moves": [losing]}).json()
    assert state["status"] == "failed"
    assert sorted(state["missed"]) == sorted(puzzle.grade.winning)
    assert state["refutation"] and state["refutation"][-1][0] != state["seat"]
    solution = client.post(f"/api/puzzles/{puzzle.id}/solution", json={"moves": [losing]}).json()
    assert solution["from_here"] is None and solution["from_start"] == [list(s) for s in puzzle.grade.line]
    fresh = client.post(f"/api/puzzles/{puzzle.id}/solution", json={"moves": []}).json()
    assert fresh["from_here"][0][1] in puzzle.grade.winning or fresh["from_here"][0][0] != puzzle.seat


def test_bad_requests_are_refused_clearly(client):
    assert client.get("/api/puzzles/classic-999").json()["error"]["code"] == "unknown_puzzle"
    assert client.get("/api/puzzles/classic-999").status_code == 404
    assert client.get("/api/puzzles/../etc").status_code == 404
    for forged in ("classic-1", "chess-001", "classic-001x"):
        r = client.post(f"/api/puzzles/{forged}/play", json={"moves": []})
        assert r.status_code in (404, 422), forged
    pid = "classic-001"
    cases = [
        ({"moves": ["play 3Z"]}, "malformed_action"),
        ({"moves": ["play 34"]}, "not_a_pair"),
        ({"moves": ["dance"]}, "malformed_action"),
        ({"moves": ["bid 3"]}, "not_bidding"),
        ({"moves": "play 3"}, "invalid_request"),
        ({"moves": [], "extra": 1}, "invalid_request"),
        ({"moves": ["pass"] * 41}, "invalid_request"),
    ]
    for body, code in cases:
        r = client.post(f"/api/puzzles/{pid}/play", json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == code, (body, r.json())
    start = client.get(f"/api/puzzles/{pid}").json()
    hand = start["hands"][start["seat"]]
    others = "".join(h for s, h in enumerate(start["hands"]) if s != start["seat"])
    missing = next(c for c in others if c not in hand)
    r = client.post(f"/api/puzzles/{pid}/play", json={"moves": [f"play {missing}"]})
    assert r.status_code == 422 and r.json()["error"]["code"] in ("not_in_hand", "wrong_kind", "too_weak")


def test_check_judges_an_action_with_the_engines_reason_without_taking_it(client):
    # classic-004: the player (seat 2, the landlord) holds JKK22 and must answer QQ
    pid = "classic-004"
    start = client.get(f"/api/puzzles/{pid}").json()
    assert start["hands"][start["seat"]] == "JKK22" and start["trick"]["last"][1] == "QQ"

    def verdict(action, moves=()):
        r = client.post(f"/api/puzzles/{pid}/check", json={"moves": list(moves), "action": action})
        assert r.status_code == 200, r.json()
        return r.json()

    assert verdict("play KK") == {"legal": True, "error": None} and verdict("pass")["legal"]
    wrong = verdict("play J")["error"]
    assert wrong["code"] == "wrong_kind" and wrong["params"] == {"play": "J", "previous": "QQ", "kind": "pair", "size": 2}
    assert "J cannot answer QQ" in wrong["message"]
    # as the table's engine orders them: an answer too weak is refused as such, held or not
    assert verdict("play JJ")["error"]["code"] == "too_weak"
    assert verdict("play AA")["error"] == {"code": "not_in_hand", "message": "you do not hold AA",
                                           "params": {"cards": "AA"}}
    assert verdict("play 3Z")["error"]["code"] == "malformed_action"
    # nothing was taken: the puzzle still stands at its start
    assert client.post(f"/api/puzzles/{pid}/play", json={"moves": []}).json() == start
    won = _winning_moves(pid, client)
    over = client.post(f"/api/puzzles/{pid}/check", json={"moves": won["moves"], "action": "pass"})
    assert over.status_code == 409 and over.json()["error"]["code"] == "puzzle_over"
