"""The levels as players: legal play over thousands of rounds, decisions blind to the hidden cards
and fixed by the seed, the variant a bot plays, the observations it takes."""

import json
import random

import pytest
from test_round_properties import _hidden_swap, _initial_hands

from dizhu import CLASSIC, DUEL, Round
from dizhu.bots import LEVELS, create, hint


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


def test_a_bot_knows_its_variant():
    from dizhu import Round
    from dizhu.bots import create

    with pytest.raises(ValueError, match="unknown variant"):
        create("normal", "no-such-variant")
    r = Round.deal("duel", seed="bot-variant")
    with pytest.raises(ValueError, match="classic bot"):
        create("normal", "classic").decide(r.observation(r.to_act))
    assert repr(create("normal", "duel")) == "BotPlayer('normal', 'duel')"


def test_a_bot_and_the_hint_take_the_typed_observation_as_well_as_its_json():
    r = Round.deal("duel", seed="typed")
    seat = r.to_act
    bot = create("intermediate", "duel", seed=1)
    assert bot.decide(r.observe(seat)) == bot.decide(r.observation(seat))
    assert hint(r.observe(seat), level="normal") == hint(r.observation(seat), level="normal")
