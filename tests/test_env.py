"""The reinforcement-learning environments, checked by PettingZoo's and Gymnasium's own tests."""

from __future__ import annotations

import json
import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test
from test_round_properties import _hidden_swap, _initial_hands

from dizhu import Action, Card, Round
from dizhu.env import ActionSpace, DizhuEnv, SeatEnv, Table, env as make_env
from dizhu.env.encoding import PLANE, Layout, card_plane

CASES = [("classic", True), ("classic", False), ("duel", True), ("duel", False)]
IDS = [f"{v}-{'bidding' if b else 'douzero'}" for v, b in CASES]


@pytest.mark.parametrize(("variant", "bidding"), CASES, ids=IDS)
def test_pettingzoo_api_test(variant, bidding):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make_env(variant, bidding=bidding), num_cycles=300)
    # PettingZoo warns about dict observations in general; nothing else may come up
    messages = {str(w.message) for w in caught}
    allowed = {"Observation is not a NumPy array",
               "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete"}
    assert messages <= allowed, messages - allowed


@pytest.mark.parametrize(("variant", "bidding"), CASES, ids=IDS)
def test_pettingzoo_seed_test(variant, bidding):
    seed_test(lambda: make_env(variant, bidding=bidding), num_cycles=100)


def test_pettingzoo_render_test():
    texts = []
    render_test(lambda render_mode: make_env("classic", render_mode=render_mode),
                custom_tests={"ansi": lambda text: texts.append(text) or "seat_0" in text})
    assert len(texts) == 5


def test_same_seed_same_deals_and_different_seeds_differ():
    a, b = DizhuEnv("classic"), DizhuEnv("classic")
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.round.all_hands() == b.round.all_hands()
    b.reset(seed=6)
    assert a.round.all_hands() != b.round.all_hands()


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_mask_is_exactly_the_legal_actions(variant):
    env = DizhuEnv(variant)
    rng = random.Random(3)
    space = env.actions
    checked = 0
    for episode in range(6):
        env.reset(seed=episode)
        while env.round.result is None:
            agent = env.agent_selection
            mask = env.observe(agent)["action_mask"]
            legal = sorted(a.text for a in env.round.legal_actions())
            assert sorted(space.text(i) for i in np.flatnonzero(mask)) == legal
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(rng.choice(list(np.flatnonzero(mask))))
            checked += 1
    assert checked > 100


def test_action_space_round_trips_and_rejects():
    space = ActionSpace("classic")
    assert all(space.index(space.text(i)) == i for i in range(0, len(space), 97))
    assert len({space.text(i) for i in range(len(space))}) == len(space)
    with pytest.raises(ValueError):
        ActionSpace("duel").index("play 34567")
    with pytest.raises(ValueError):
        ActionSpace("duel").index("bid 2")


def test_illegal_action_raises_and_changes_nothing():
    env = DizhuEnv("classic", bidding=False)
    env.reset(seed=1)
    before = env.round.to_json()
    with pytest.raises(ValueError, match="not legal"):
        env.step(0)  # the landlord leads: it may not pass
    with pytest.raises(ValueError, match="not None"):
        env.step(None)  # None is for an agent already out of the round (PettingZoo's dead step)
    assert env.round.to_json() == before


def test_an_unknown_render_mode_is_refused_by_both_environments():
    with pytest.raises(ValueError, match="render mode"):
        DizhuEnv("classic", render_mode="bogus")
    with pytest.raises(ValueError, match="render mode"):
        SeatEnv("classic", render_mode="bogus")


def test_encoding_blocks():
    env = DizhuEnv("classic", bidding=False)
    env.reset(seed=2)
    r, lay = env.round, env.layout
    vec = env.observe("seat_0")["observation"]
    assert (vec[:PLANE] == card_plane(r.hand(0).counts)).all()
    off = lay.offset
    assert vec[off["landlord"]] == 1 and vec[off["to act"]] == 1 and vec[off["phase"] + 1] == 1
    left = off["cards left"]
    assert vec[left + 20] == 1 and vec[left + 21 + 17] == 1
    # the farmer after the landlord sees the landlord two seats on, 20 cards, the bottom public
    farmer = env.observe("seat_1")["observation"]
    assert farmer[off["landlord"] + 2] == 1 and farmer[left + 2 * 21 + 20] == 1
    assert (farmer[2 * PLANE : 3 * PLANE] == card_plane(_counts(r.bottom))).all()
    assert sum(size for _, _, size in lay.blocks) == lay.size == vec.size


def _counts(cards):
    counts = [0] * 15
    for c in cards:
        counts[c.rank] += 1
    return counts


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_observation_does_not_depend_on_hidden_cards(variant):
    """Redistribute what a seat cannot see: its vector and raw observation stay the same."""
    rng = random.Random(17)
    checked = changed = 0
    for n in range(80):
        r = Round.deal(variant, seed=f"env-swap-{n}")
        table = Table(r)
        stop = rng.randrange(0, 45)
        log = []
        while r.result is None and len(log) < stop:
            action = rng.choice(r.legal_actions())
            table.apply(r.to_act, action)
            log.append(json.loads(r.to_json())["actions"][-1])
        if r.result is not None or any(e["type"] == "redeal" for e in r.events):
            continue
        seat = rng.randrange(r.players)
        hands, bottom, undealt = _hidden_swap(r, seat, rng)

        def replay(h, b, u):
            x = Round.from_deal(variant, h, b, r.first, u, redeal_seed=f"env-swap-{n}")  # one suit order
            t = Table(x)
            for s, text, ids in log:
                t.apply(s, Action.parse(text, variant) if ids is None
                        else Action.play([Card.from_id(i) for i in ids], variant))
            return x, t

        original, t1 = replay(_initial_hands(r), list(r.bottom), list(r.undealt))
        swapped, t2 = replay(hands, bottom, undealt)
        assert (t1.encode(seat) == table.encode(seat)).all()
        assert (t1.encode(seat) == t2.encode(seat)).all()
        assert original.observation(seat) == swapped.observation(seat)
        checked += 1
        others = [s for s in range(r.players) if s != seat]
        if any(original.hand(s) != swapped.hand(s) for s in others):
            changed += 1
        # and the encoding does see hands: another seat's vector changes with its ranks
        for s in others:
            if original.hand(s).counts != swapped.hand(s).counts:
                assert (t1.encode(s) != t2.encode(s)).any()
    assert checked >= 40 and changed > 0.9 * checked


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_gymnasium_check_env(variant):
    env = gymnasium.make("dizhu/Seat-v0", variant=variant, seat=0, opponents="normal", render_mode="ansi")
    check_env(env.unwrapped, skip_render_check=False)


def test_seat_env_plays_rounds_against_bots_and_penalizes_illegal_actions():
    env = SeatEnv("classic", seat=2, opponents="intermediate", bidding=False, reward="win")
    rng = random.Random(0)
    totals = []
    for episode in range(5):
        obs, info = env.reset(seed=episode)
        assert env.round.to_act == 2 and (info["action_mask"] == obs["action_mask"]).all()
        done = False
        while not done:
            obs, reward, done, truncated, info = env.step(rng.choice(list(np.flatnonzero(env.action_masks()))))
        totals.append(reward)
        assert reward in (1.0, -1.0) and not truncated
    env.reset(seed=9)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    obs, reward, done, truncated, info = env.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(RuntimeError):
        env.step(0)
    first, _ = SeatEnv("duel", seat=1, opponents="normal").reset(seed=4)
    again, _ = SeatEnv("duel", seat=1, opponents="normal").reset(seed=4)
    assert (first["observation"] == again["observation"]).all()


def test_raw_observation_is_the_rounds():
    env = DizhuEnv("duel")
    env.reset(seed=8)
    assert env.raw_observation("seat_1") == env.round.observation(1)
    assert Layout("duel").size == env.observe("seat_1")["observation"].size


def test_start_plays_a_deal_of_your_own_and_refuses_a_round_under_way():
    env = DizhuEnv("classic")
    r = Round.from_deal("classic", ["33344455566677788", "99TTJJQQKKAA22BRT", "3456789JJQQKKAA22"],
                        bottom="89T", landlord=0)
    env.start(r)
    assert env.agent_selection == "seat_0" and env.observe("seat_0")["observation"][:PLANE].sum() == 20
    env.step(env.actions.index("play 333444555666+789T"))
    with pytest.raises(ValueError, match="freshly dealt"):
        DizhuEnv("classic").start(r)
