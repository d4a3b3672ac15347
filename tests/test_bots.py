"""Computer players: legality, fairness, determinism, strategy, the hint."""

import json
import random

import pytest

from dizhu import CLASSIC, DUEL, Round
from dizhu.bots import LEVELS, create, hint
from dizhu.bots.reasons import HINT_REASONS

from test_round_examples import play
from test_round_properties import _hidden_swap, _initial_hands


def drive(r, players):
    while r.result is None:
        seat = r.to_act
        obs = r.observation(seat)
        action = players[seat].decide(obs)
        assert action in obs["legal_actions"], (action, obs["legal_actions"])
        r.apply(seat, action)
    return r.result


@pytest.mark.parametrize("variant", ["classic", "duel"])
@pytest.mark.parametrize("level", ["normal", "intermediate"])
def test_fast_levels_play_thousands_of_rounds_legally(variant, level):
    for n in range(1000):
        r = Round.deal(variant, seed=f"legal-{level}-{n}")
        drive(r, [create(level, variant, seed=(n, s)) for s in range(r.players)])
        assert sum(r.result.points) == 0


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_super_hard_plays_legally(variant):
    # a small budget keeps the test quick; the arena plays thousands at full budget
    for n in range(12):
        r = Round.deal(variant, seed=f"legal-sh-{n}")
        players = [create("super-hard", variant, seed=n, budget=0.01)] + [
            create("intermediate", variant, seed=s) for s in range(1, r.players)
        ]
        drive(r, players)


@pytest.mark.parametrize("variant", [CLASSIC, DUEL], ids=["classic", "duel"])
@pytest.mark.parametrize("level", LEVELS)
def test_decisions_do_not_depend_on_hidden_cards(variant, level):
    """Swap the cards a seat cannot see between the other hands: same decision."""
    rng = random.Random(11)
    checked = 0
    for n in range(60 if level != "super-hard" else 20):
        r = Round.deal(variant, seed=f"fair-{n}")
        movers = [create("intermediate", variant.name, seed=s) for s in range(variant.players)]
        stop = rng.randrange(0, 40)
        log = []
        while r.result is None and len(log) < stop:
            seat = r.to_act
            r.apply(seat, movers[seat].decide(r.observation(seat)))
            log.append(json.loads(r.to_json())["actions"][-1])
        if r.result is not None or any(e["type"] == "redeal" for e in r.events):
            continue
        seat = r.to_act
        hands, bottom, undealt = _hidden_swap(r, seat, rng)
        from dizhu import Action, Card

        def build(h, b, u):
            x = Round.from_deal(variant, h, b, r.first, u)
            for s, text, ids in log:
                x.apply(s, text if ids is None else Action.play([Card.from_id(i) for i in ids]))
            return x

        original = build(_initial_hands(r), list(r.bottom), list(r.undealt))
        swapped = build(hands, bottom, undealt)
        budget = 0.02 if level == "super-hard" else None
        a = create(level, variant.name, seed=42, budget=budget).decide(original.observation(seat))
        b = create(level, variant.name, seed=42, budget=budget).decide(swapped.observation(seat))
        assert a == b
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("level", LEVELS)
def test_same_observation_and_seed_same_decision(level):
    r = Round.deal("classic", seed="det")
    while r.phase == "bidding":
        r.apply(r.to_act, create("intermediate").decide(r.observation(r.to_act)))
    obs = r.observation(r.to_act)
    budget = 0.03 if level == "super-hard" else None
    first = create(level, seed=5, budget=budget).decide(obs)
    assert all(create(level, seed=5, budget=budget).decide(obs) == first for _ in range(3))


def test_unknown_level():
    with pytest.raises(ValueError):
        create("grandmaster")


# ---- the seeds' strategy advice


# Farmer 1 is about to go out: it leads a 9 with one card (a J) left.
STOP_DEAL = dict(
    hands=["33 QQ KK AA 44 66 88 TT 2", "4 5566778899TTJJ 9 J", "33 4 55 77 9 J QQ KK AA 22"],
    bottom="2BR",
    first=0,
)
STOP_SCRIPT = ["0: bid 3", "0: play 3", "1: play 4", "2: pass", "0: pass",
               "1: play 5566778899TTJJ", "2: pass", "0: pass", "1: play 9", "2: pass"]


@pytest.mark.parametrize("level", ["intermediate", "super-hard"])
def test_landlord_stops_a_farmer_with_one_card_left(level):
    r = play(Round.from_deal("classic", **STOP_DEAL), STOP_SCRIPT)
    assert r.to_act == 0 and r.cards_left[1] == 1
    action = create(level, seed=1).decide(r.observation(0))
    # it takes the trick rather than let the farmer lead its last card
    assert action != "pass"
    assert action.startswith("play ") and action[5:] in ("T", "Q", "K", "A", "2", "B", "R", "BR")


def test_farmer_lets_partner_winning_play_stand():
    # seat 1 (farmer) has beaten the landlord's 5 with an A; seat 2, its partner, holds a 2
    r = Round.from_deal("classic", **STOP_DEAL)
    play(r, ["0: bid 3", "0: play 3", "1: play 4", "2: play A"])
    # seat 0 (landlord) passes; seat 1 must not overtake its partner's A
    play(r, ["0: pass"])
    for level in ("intermediate", "super-hard"):
        decision = create(level, seed=2).decide(r.observation(1))
        assert decision == "pass", level


def test_bombs_are_not_thrown_away_when_losing():
    # duel: the landlord (seat 1) leads a 2 and keeps one card; the farmer holds a bomb
    # but only pairs and loose singles: after a bomb it would still have to lead a single
    # into the landlord's last card, so the bomb would only double the loss.
    r = Round.from_deal("duel", ["5555 7 9 J 66 88 TT QQ K A", "6789TJQKA 77 99 JJ R K"],
                        bottom="22B", landlord=1)
    for lead in ("6789TJQKA", "77", "99", "JJ", "K", "B"):
        play(r, [f"1: play {lead}", "0: pass"])
    play(r, ["1: play 2"])
    obs = r.observation(0)
    assert r.cards_left[1] == 2 and "play 5555" in obs["legal_actions"]
    for level in ("intermediate", "super-hard"):
        assert create(level, "duel", seed=3).decide(obs) == "pass", level


# ---- the hint


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_hint_recommends_a_legal_action_with_a_translatable_reason(variant):
    for n in range(40):
        r = Round.deal(variant, seed=f"hint-{n}")
        movers = [create("normal", variant, seed=s) for s in range(r.players)]
        for _ in range(random.Random(n).randrange(0, 30)):
            if r.result is not None:
                break
            r.apply(r.to_act, movers[r.to_act].decide(r.observation(r.to_act)))
        if r.result is not None:
            continue
        obs = r.observation(r.to_act)
        h = hint(obs)
        assert h["action"] in obs["legal_actions"]
        assert h["reason"]["key"] in HINT_REASONS
        HINT_REASONS[h["reason"]["key"]].format(**h["reason"]["params"])  # params fill the template
        if h["action"].startswith("play "):
            from dizhu import parse_cards

            chosen = sorted(h["cards"])
            assert set(chosen) <= set(obs["hand_ids"])
            assert str(parse_cards(h["action"][5:])) == str(
                parse_cards(" ".join(_symbol(i) for i in chosen)))
        else:
            assert h["cards"] == []


def _symbol(card_id):
    return "3456789TJQKA2"[card_id // 4] if card_id < 52 else "BR"[card_id - 52]


def test_hint_refuses_when_not_to_act():
    r = Round.deal("classic", seed="x")
    other = (r.to_act + 1) % 3
    with pytest.raises(ValueError):
        hint(r.observation(other))


def test_a_bot_knows_its_variant():
    from dizhu import Round
    from dizhu.bots import create

    with pytest.raises(ValueError, match="unknown variant"):
        create("normal", "no-such-variant")
    r = Round.deal("duel", seed="bot-variant")
    with pytest.raises(ValueError, match="classic bot"):
        create("normal", "classic").decide(r.observation(r.to_act))
    assert repr(create("normal", "duel")) == "BotPlayer('normal', 'duel')"


def test_a_search_out_of_time_plays_the_rule_policys_move():
    """The server's wall-clock cap: with no time left, super-hard answers at once with the
    intermediate level's move instead of searching (a pace must never be overrun)."""
    import time

    checked = 0
    for n in range(30):
        round_ = Round.deal("classic", seed=f"cap{n}")
        round_.apply(round_.to_act, "bid 3")  # the bidder becomes the landlord and leads
        obs = round_.observation(round_.to_act)
        if len(obs["legal_actions"]) < 5:
            continue
        start = time.perf_counter()
        capped = create("super-hard", "classic", seed=1, time_limit=0.0).decide(obs)
        assert time.perf_counter() - start < 0.1
        assert capped == create("intermediate", "classic", seed=1).decide(obs)
        checked += 1
    assert checked >= 5
