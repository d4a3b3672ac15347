"""The typed contracts at the engine's edges: the observation and the events.

Every observation and every event of seeded rounds of both variants turns
into the JSON of docs/API.md and back into the same value; the round's one
log gives the bids, the history, the bombs and the saved actions.
"""

from __future__ import annotations

import json
import random

import pytest

from dizhu import Action, Rank, Round
from dizhu.game import Observation, event_from_dict
from dizhu.game.events import BidEvent, PassEvent, PlayEvent, SettleEvent

#: The keys of docs/API.md's observation, in the order the JSON has them.
OBSERVATION_KEYS = [
    "variant", "seat", "players", "phase", "to_act", "hand", "hand_ids", "cards_left", "first", "bids",
    "landlord", "bottom", "bottom_ids", "history", "played", "trick", "plays_made", "multiplier",
    "handicap", "deal_hash", "legal_actions", "result", "deal_code", "earlier",
]
EVENT_KEYS = {
    "deal": ["type", "deal", "first", "hand_sizes", "deal_hash"],
    "bid": ["type", "seat", "action"],
    "redeal": ["type", "deal"],
    "play": ["type", "seat", "play", "kind", "cards"],
    "pass": ["type", "seat"],
    "trick": ["type", "leader"],
}


def _played_rounds():
    for variant in ("classic", "duel"):
        for n in range(6):
            rng = random.Random(n)
            r = Round.deal(variant, seed=f"contracts-{n}")
            observations = []
            while r.result is None:
                observations += [r.observe(s) for s in range(r.players)]
                r.apply(r.to_act, rng.choice(r.legal_actions()))
            observations += [r.observe(s) for s in range(r.players)]
            yield r, observations


ROUNDS = list(_played_rounds())


def test_the_tables_earlier_rounds_round_trip_too():
    from dizhu import Match

    for variant in ("classic", "duel"):
        m = Match(variant, seed="contracts-earlier")
        for _ in range(2):
            rng = random.Random(7)
            while m.round.result is None:
                m.apply(m.round.to_act, rng.choice(m.round.legal_actions()))
            m.another_round()
        data = m.observation(1)
        assert list(data) == OBSERVATION_KEYS and len(data["earlier"]) == 2
        assert list(data["earlier"][0]) == ["landlord", "hands", "bottom", "bids", "history", "handicap", "points"]
        assert Observation.from_dict(json.loads(json.dumps(data))).to_dict() == data


def test_observations_and_their_json_round_trip():
    for r, observations in ROUNDS:
        for obs in observations:
            data = obs.to_dict()
            assert list(data) == OBSERVATION_KEYS
            assert json.loads(json.dumps(data)) == data  # JSON-ready: lists, not tuples
            assert Observation.from_dict(json.loads(json.dumps(data))) == obs
        assert observations[-1].to_dict() == r.observation(observations[-1].seat)


def test_observation_refuses_unknown_or_missing_keys():
    data = Round.deal("classic", seed="x").observation(0)
    with pytest.raises(TypeError):
        Observation.from_dict({**data, "other_hands": []})
    del data["hand"]
    with pytest.raises(TypeError):
        Observation.from_dict(data)


def test_events_and_their_json_round_trip():
    seen = set()
    for r, _ in ROUNDS:
        for event, data in zip(r.log, r.events):
            assert data == event.to_dict() and data["type"] == event.type
            seen.add(event.type)
            if event.type in EVENT_KEYS:
                assert list(data) == EVENT_KEYS[event.type]
            assert event_from_dict(json.loads(json.dumps(data))) == event
        settle = r.events[-1]
        assert settle["type"] == "settle" and settle["points"] == r.result.points
        assert settle["deal_code"] == r.deal_code is not None
    # a classic all-pass re-deal is among the seeded rounds
    assert seen == {"deal", "bid", "redeal", "landlord", "play", "pass", "trick", "settle"}


def test_the_landlord_event_carries_the_styles_number_only():
    classic = Round.from_deal("classic", ["33344455566677788", "99TTJJQQKKAA22BRT", "3456789JJQQKKAA22"],
                              bottom="89T", first=0)
    classic.apply(0, "bid 2"); classic.apply(1, "pass"); classic.apply(2, "pass")
    duel = Round.deal("duel", seed="landlord-event")
    while duel.landlord is None:
        duel.apply(duel.to_act, duel.legal_actions()[-1])  # call, then rob: the robs are counted
    (classic_event,) = [e for e in classic.events if e["type"] == "landlord"]
    (duel_event,) = [e for e in duel.events if e["type"] == "landlord"]
    assert classic_event["bid"] == 2 and "robs" not in classic_event
    assert duel_event["robs"] == duel.bidding_level > 0 and "bid" not in duel_event


def test_bids_history_and_saved_actions_are_read_from_the_log():
    for r, observations in ROUNDS:
        deal_start = max(i for i, e in enumerate(r.log) if e.type == "deal")
        this_deal = r.log[deal_start:]
        obs = observations[-1]
        assert [list(b) for b in obs.bids] == [[e.seat, e.action] for e in this_deal if isinstance(e, BidEvent)]
        assert [list(h) for h in obs.history] == [
            [e.seat, e.play if isinstance(e, PlayEvent) else "pass"]
            for e in this_deal if isinstance(e, (PlayEvent, PassEvent))]
        bombs = [e for e in this_deal if isinstance(e, PlayEvent) and e.kind in ("bomb", "rocket")]
        assert obs.multiplier.bombs + obs.multiplier.rockets == len(bombs)
        assert [b["source"] for b in r.result.breakdown[1:]][: len(bombs)] == [e.kind for e in bombs]
        actions = json.loads(r.to_json())["actions"]
        assert len(actions) == sum(isinstance(e, (BidEvent, PlayEvent, PassEvent)) for e in r.log)
        assert isinstance(r.log[-1], SettleEvent)


def test_chosen_cards_are_saved_and_picked_ones_are_not():
    r = Round.from_deal("classic", ["33344455566677788", "99TTJJQQKKAA22BRT", "3456789JJQQKKAA22"],
                        bottom="89T", first=0, landlord=0, bid=1)
    threes = [c for c in r.hand(0) if c.rank == Rank.THREE]
    r.apply(0, Action.play(threes[1:3]))
    r.apply(1, "play 99")
    actions = json.loads(r.to_json())["actions"]
    assert actions == [[0, "play 33", [c.id for c in threes[1:3]]], [1, "play 99", None]]
    again = Round.from_json(r.to_json())
    assert again.events == r.events and again.to_json() == r.to_json()


def test_the_events_follow_the_log_and_each_answer_is_a_new_list():
    r = Round.deal("duel", seed="events-follow")
    first = r.events
    first.append({"type": "forged"})
    assert r.events == [e.to_dict() for e in r.log] and len(r.log) == 1
    r.apply(r.to_act, r.legal_actions()[0])
    assert r.events == [e.to_dict() for e in r.log] and len(r.events) == 2
