"""The post-round review: information sets, grades, determinism, the face-up figures."""

import json
from dataclasses import replace

import pytest

from dizhu import Round
from dizhu.analysis import GRADE_THRESHOLDS, GRADES, grade, moments, review, review_moment
from dizhu.bots import create
from dizhu.bots.reasons import HINT_REASONS

BUDGET = 0.01  # small: the figures are checked for their shape and consistency, not their strength


def finish(r, seed=0, seen=None):
    """Play ``r`` to the end with intermediate bots; record seat 0's observations in ``seen``."""
    bots = [create("intermediate", r.variant.name, seed=(seed, s)) for s in range(r.players)]
    while r.result is None:
        seat = r.to_act
        obs = r.observation(seat)
        if seen is not None and seat == 0 and len(obs["legal_actions"]) > 1:
            seen.append(obs)
        r.apply(seat, bots[seat].decide(obs))
    return r


def spring_blunder():
    """Seat 0, the landlord, could finish with 333+R (a spring) but leads a 3."""
    r = Round.from_deal("classic", ["333445566778899TJ", "QQQKKKAAA22B45678", "34567899TTJJQKA22"],
                        bottom="TJR", landlord=0)
    r.apply(0, "play 445566778899TTJJ")
    r.apply(1, "pass")
    r.apply(2, "pass")
    r.apply(0, "play 3")
    return finish(r)


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_each_decision_is_judged_from_the_observation_the_seat_had(variant):
    seen = []
    r = finish(Round.deal(variant, seed=f"review-obs-{variant}"), seen=seen)
    found = moments(r, 0)
    assert [m.observation for m in found] == seen
    for m in found:
        event = r.events[m.event]  # the event of the move made
        assert event["seat"] == 0 and m.action in m.observation["legal_actions"]
        said = {"bid": event.get("action"), "pass": "pass", "play": f"play {event.get('play')}"}
        assert said[event["type"]] == m.action


def test_the_figures_from_the_information_set_ignore_the_hidden_cards():
    r = spring_blunder()
    moment = moments(r, 0)[1]
    swapped = replace(moment, hands=(moment.hands[0], moment.hands[2], moment.hands[1]))
    a, b = review_moment(moment, BUDGET), review_moment(swapped, BUDGET)
    for field in ("made", "best", "loss", "grade", "better", "reason", "worlds"):
        assert getattr(a, field) == getattr(b, field)


def test_a_thrown_away_spring_is_a_blunder_and_the_finish_is_the_better_move():
    rev = review(spring_blunder(), 0, budget=BUDGET)
    lead = rev.decisions[1]
    assert lead.made.action == "play 3"
    assert lead.grade == "blunder" and lead.better == "play 333R"
    assert lead.reason.key == "finish" and lead.reason.key in HINT_REASONS
    # face up, finishing at once is a spring: the landlord takes 2 x 2 points
    assert lead.face_up_best.points == 4.0 and lead.face_up_best.win_chance == 1.0
    assert rev.decisions[0].grade == "good"


def test_bids_are_reviewed_in_the_seats_points():
    r = finish(Round.deal("classic", seed="review-bids"))
    rev = review(r, 0, budget=BUDGET)
    bids = [d for d in rev.decisions if d.phase == "bidding"]
    assert bids, "seat 0 had a bid to make"
    for d in bids:
        assert d.made.action in ("pass", "bid 1", "bid 2", "bid 3")
        assert d.loss == pytest.approx(max(0.0, d.best.points - d.made.points))
        assert -12 <= d.made.points <= 48  # at most: landlord, bid 3, a bomb or two, spring


def test_a_review_is_deterministic_and_serializes():
    r = finish(Round.deal("duel", seed="review-same"))
    first, second = review(r, 0, budget=BUDGET), review(r, 0, budget=BUDGET)
    assert first == second
    text = json.dumps(first.to_dict())
    assert json.loads(text)["counts"] == first.counts
    assert sum(first.counts.values()) == len(first.decisions)
    assert review(r, 0, budget=BUDGET, seed="other").to_dict()["seed"] == "other"


def test_grades_follow_the_thresholds():
    assert grade(0.0) == "good"
    for name in GRADES[1:]:
        t = GRADE_THRESHOLDS[name]
        assert grade(t) == name
        assert grade(t - 1e-9) == GRADES[GRADES.index(name) - 1]


def test_only_a_finished_round_is_reviewed():
    r = Round.deal("classic", seed="review-unfinished")
    with pytest.raises(ValueError):
        review(r, 0)
    with pytest.raises(ValueError):
        moments(finish(r), 3)


def test_progress_is_reported_after_each_decision():
    r = finish(Round.deal("classic", seed="review-progress"))
    calls = []
    rev = review(r, 1, budget=BUDGET, progress=lambda done, total: calls.append((done, total)))
    n = len(rev.decisions)
    assert calls == [(i, n) for i in range(1, n + 1)]


def test_the_arena_review_says_where_a_level_loses():
    from dizhu.arena import format_summary, run_arena

    result = run_arena("normal", "intermediate", deals=1, seed="review", workers=1, review=True,
                       review_budget=BUDGET)
    summary = result.summary()["review"]
    decisions = [d for g in result.records for d in g["review"]]
    assert decisions and summary["games"] == 2
    assert {d["role"] for d in decisions} == {"landlord", "farmer"}  # A sat on both sides
    assert sum(p["decisions"] for p in summary["by_situation"].values()) == len(decisions)
    assert summary["loss_per_game"] == pytest.approx(sum(d["loss"] for d in decisions) / 2)
    assert summary["worst"][0]["loss"] == max(d["loss"] for d in decisions)
    assert "review of A" in format_summary(result.summary())
    assert "review" not in run_arena("normal", "random", deals=1, workers=1).summary()


def test_a_long_rounds_decisions_share_its_budget():
    from dizhu.analysis import ROUND_DECISIONS

    r = finish(Round.deal("classic", seed="review-bids"))
    found = moments(r, 0)
    assert all(m.of == len(found) for m in found)
    bid = next(m for m in found if m.observation["phase"] == "bidding")
    play = next(m for m in found if m.observation["phase"] == "playing" and len(m.observation["legal_actions"]) > 6)
    for moment in (bid, play):
        alone = review_moment(replace(moment, of=ROUND_DECISIONS), budget=0.1)
        shared = review_moment(replace(moment, of=3 * ROUND_DECISIONS), budget=0.1)
        assert shared.worlds < alone.worlds, moment.observation["phase"]
        assert review_moment(replace(moment, of=1), budget=0.1) == alone  # a short round: the whole budget


def test_a_figure_names_a_plays_kind_as_the_table_does():
    from dizhu.analysis import Figure

    assert Figure("play 33", 1.0, 0.5).to_dict() == {"action": "play 33", "points": 1.0, "win_chance": 0.5, "kind": "pair"}
    assert Figure("play 3334", -2.0, 0.25).to_dict()["kind"] == "trio_single"
    assert "kind" not in Figure("pass", 0.0, 0.5).to_dict()
    assert "kind" not in Figure("bid 3", 0.0, 0.5).to_dict()


def test_the_reason_explains_the_better_move_when_one_is_named_else_the_move_made():
    # A good move a shade below the best had the best's reason under "You chose ...", with no
    # "Better:" line: "You chose Single A. Why: passing holds back your Q".
    from dizhu.analysis import Figure, Moment, Reason, _judged

    moment = Moment(0, 0, "play A", {"phase": "playing", "trick": {"last": None}}, (), ())
    asked = []

    def reason(i):
        asked.append(i)
        return Reason("search", {"rate": i, "games": 1})

    face = [Figure("play A", 1.0, 1.0), Figure("pass", 1.0, 1.0)]
    shade = _judged(moment, [Figure("play A", 1.0, 0.6), Figure("pass", 1.05, 0.6)], face, 0, 1, reason, 10)
    assert shade.grade == "good" and shade.better is None and shade.reason.params["rate"] == 0
    worse = _judged(moment, [Figure("play A", -1.0, 0.3), Figure("pass", 1.0, 0.6)], face, 0, 1, reason, 10)
    assert worse.grade != "good" and worse.better == "pass" and worse.reason.params["rate"] == 1
    assert asked == [0, 1]


def test_the_arenas_costliest_decisions_leave_out_the_moves_graded_good():
    from dizhu.arena import review_summary

    good = {"role": "landlord", "situation": "lead", "seat": 0, "made": "play 3", "loss": 0.0,
            "grade": "good", "better": None}
    bad = {**good, "made": "play 2", "loss": 0.8, "grade": "mistake", "better": "play 4"}
    summary = review_summary([{"deal": 1, "review": [good, bad, good]}])
    assert [d["made"] for d in summary["worst"]] == ["play 2"]
    assert summary["by_situation"]["landlord lead"]["decisions"] == 3
