"""Computer players: legality, fairness, determinism, strategy, the hint."""

import json
import random
import string

import pytest

from dizhu import CLASSIC, DUEL, Round
from dizhu.bots import LEVELS, create, hint
from dizhu.bots.reasons import HINT_REASONS
from dizhu.combos import classify

from test_round_examples import play
from test_round_properties import _hidden_swap, _initial_hands


def _benchmark_players():
    """``benchmarks/matchup.py``, whose players exist for the benchmarks only (from a source checkout)."""
    import importlib
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    return importlib.import_module("benchmarks.matchup")


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


# The duel landlord with 5566778TJQKA2 to lead; the farmer, on one card, could beat an 8
# (session 37: the rule policy led that 8 sooner or later, so every rollout lost alike and the
# hint put the 8 first).
LAST_CARD_DEAL = dict(hands=["5566778TJQKA Q 8 J 99", "K59Q7788JJAATTTK 9"], bottom="2BR", landlord=0)
LAST_CARD_SCRIPT = ["0: play Q", "1: play K", "0: pass", "1: play 5", "0: play 8", "1: play 9", "0: play J",
                    "1: play Q", "0: pass", "1: play 77", "0: pass", "1: play 88", "0: play 99", "1: play JJ",
                    "0: pass", "1: play AA", "0: pass", "1: play TTTK", "0: play BR", "1: pass"]


@pytest.mark.parametrize("native", [True, False], ids=["compiled", "python"])
def test_a_control_is_led_before_a_small_single_to_an_opponent_on_its_last_card(native, monkeypatch):
    from dizhu.bots import search, styles
    from dizhu.bots.policy import Ctx, intermediate_move
    from dizhu.bots.view import View

    if not native:
        monkeypatch.setattr(search, "compiled", lambda: None)  # (its own later moves by intermediate)
        monkeypatch.setattr(styles, "compiled", lambda: None)
    elif search.compiled() is None:
        pytest.skip("the compiled kernel is not built")
    r = play(Round.from_deal("duel", **LAST_CARD_DEAL), LAST_CARD_SCRIPT)
    obs = r.observation(0)
    assert obs["hand"] == "5566778TJQKA2" and obs["cards_left"] == [13, 1]
    move, _, _ = intermediate_move(Ctx.of(View.of(obs)))
    assert move.size > 1  # not the 8 (nor any single the farmer's 9 beats)
    # and the rollouts, compiled or in Python, no longer throw the won endgame away
    assert hint(obs)["action"] == "play 556677"


def bomb_to_win_ctx(opponent_cards: int = 1):
    """Duel: the opponent plays 22 and keeps ``opponent_cards``; the landlord holds 6 7777 TT QQ."""
    from dizhu import parse_cards
    from dizhu.bots.policy import Ctx

    hand = tuple(parse_cards("6 7777 TT QQ").counts)
    played = tuple(parse_cards("22").counts)
    unseen = tuple(d - h - p for d, h, p in zip(DUEL.deck_counts, hand, played))
    return Ctx(hand, 0, 2, 0, [9, opponent_cards], (1, classify("22")), unseen)


def test_a_play_the_opponents_hold_too_few_cards_to_answer_is_a_control():
    # The opponent on one card: bombing with 7777 wins (then TT and QQ, which one card cannot
    # answer, and the 6 last); judged on the unseen cards alone (JJ, KK... could beat TT) the rule
    # policy saw no way to run out, passed, and the opponent went out.
    from dizhu import parse_cards
    from dizhu.bots.policy import can_run_out, intermediate_move, is_control

    ctx = bomb_to_win_ctx()
    move, reason, _ = intermediate_move(ctx)
    assert (move.text, reason) == ("7777", "stop_opponent")
    assert is_control(classify("TT"), ctx) and not is_control(classify("Q"), ctx)
    # with two cards an opponent could still answer the pair, and the bomb wins nothing
    two = bomb_to_win_ctx(2)
    assert not is_control(classify("TT"), two) and not can_run_out(two, tuple(parse_cards("6 TT QQ").counts))


def test_an_answer_must_fit_in_the_cards_a_seat_holds():
    # the bounds of policy.answerable: a bomb takes four cards, the rocket two, a chain its length
    from dizhu import parse_cards
    from dizhu.bots.policy import answerable

    def answers(play: str, unseen: str, most: int) -> bool:
        return answerable(classify(play), tuple(parse_cards(unseen).counts), most)

    assert [answers("55", "9999", n) for n in (1, 2, 3)] == [False, True, True]  # 99 fits in two cards
    assert [answers("345678", "9999", n) for n in (3, 4)] == [False, True]  # only the bomb beats a straight
    assert [answers("345678", "456789", n) for n in (5, 6)] == [False, True]
    assert [answers("22", "BR", n) for n in (1, 2)] == [False, True]  # the rocket
    assert answers("3", "4", 1)


def partner_stands_ctx():
    """Classic: farmer 1 plays QQ; the landlord (seat 0, next after seat 2) holds two cards, and
    among the cards seat 2 cannot see only the bomb 3333 beats QQ."""
    from dizhu import parse_cards
    from dizhu.bots.policy import Ctx

    return Ctx(tuple(parse_cards("AA 22 7 8").counts), 2, 3, 0, [2, 10, 6], (1, classify("QQ")),
               tuple(parse_cards("3333 44 5 6 9 T J").counts))


def test_a_partners_play_the_landlord_cannot_answer_stands():
    # The landlord on two cards cannot hold the bomb that alone beats the partner's QQ: the farmer
    # lets it stand rather than spend its 22 topping it (it did, counting the unseen bomb).
    from dizhu.bots.policy import intermediate_move

    assert intermediate_move(partner_stands_ctx())[:2] == (None, "partner_stand")


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
        h = hint(obs, budget=0.005)  # a short search: this test is about the answer's shape
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


def test_a_search_out_of_time_plays_the_rule_policys_move(monkeypatch):
    """The server's wall-clock cap: with no time left, super-hard answers at once with the
    intermediate level's move instead of searching (a pace must never be overrun)."""
    from dizhu.bots import search

    def no_world(*_):
        raise AssertionError("a world was sampled after the deadline")

    monkeypatch.setattr(search, "sample_world", no_world)  # (counted, not timed: CI machines are noisy)
    checked = 0
    for n in range(30):
        round_ = Round.deal("classic", seed=f"cap{n}")
        round_.apply(round_.to_act, "bid 3")  # the bidder becomes the landlord and leads
        obs = round_.observation(round_.to_act)
        if len(obs["legal_actions"]) < 5:
            continue
        capped = create("super-hard", "classic", seed=1, time_limit=0.0).decide(obs)
        assert capped == create("intermediate", "classic", seed=1).decide(obs)
        checked += 1
    assert checked >= 5


# ---- issue 11: the hint as advice, evaluate(), reading the table


def _blunder_position():
    """The landlord holds 44 88 TT JJ AA 22 R and must answer a farmer's lone 6: the
    intermediate policy spends the big joker on it ("fewest plays: 6")."""
    from collections import Counter

    deck = Counter({r: 4 for r in "3456789TJQKA2"})
    deck.update({"B": 1, "R": 1})
    landlord = "3456789" + "4488TTJJAA22R"
    farmer = "56789TJ" + "6" + "3QQKK57B3"
    other = "".join(sorted((deck - Counter(landlord) - Counter(farmer)).elements()))
    r = Round.from_deal("classic", [landlord[:17], farmer, other], bottom=landlord[17:], landlord=0)
    play(r, ["0: play 3456789", "1: play 56789TJ", "2: pass", "0: pass", "1: play 6", "2: pass"])
    return r.observation(0)


def test_the_hint_does_not_repeat_the_intermediate_blunder():
    obs = _blunder_position()
    assert obs["hand"] == "4488TTJJAA22R"
    assert create("intermediate", seed="hint").decide(obs) == "play R"  # the blunder is real
    h = hint(obs, n=3, budget=0.1, time_limit=None)
    actions = [a["action"] for a in h["alternatives"]]
    assert h["action"] != "play R" and len(actions) == 3 and len(set(actions)) == 3
    assert {k: v for k, v in h.items() if k != "alternatives"} == h["alternatives"][0]
    # each option the search weighed says how it did, whatever its reason says
    assert all(0 <= a["figures"]["rate"] <= 100 and a["figures"]["games"] >= 4 for a in h["alternatives"])
    # the server's way: the hint's own budget
    assert hint(obs)["action"] != "play R"


def test_hint_alternatives_are_legal_and_explained():
    for n in range(6):
        r = Round.deal("classic", seed=f"alt-{n}")
        movers = [create("normal", "classic", seed=s) for s in range(3)]
        while r.phase != "playing" or len(r.observation(r.to_act)["legal_actions"]) < 3:
            r.apply(r.to_act, movers[r.to_act].decide(r.observation(r.to_act)))
        obs = r.observation(r.to_act)
        h = hint(obs, n=4, budget=0.02, time_limit=None)
        assert 1 <= len(h["alternatives"]) <= 4
        for alt in h["alternatives"]:
            assert alt["action"] in obs["legal_actions"]
            HINT_REASONS[alt["reason"]["key"]].format(**alt["reason"]["params"])
            # no hidden parameter: two options saying the same words must have equal params
            fields = {f for _, f, _, _ in string.Formatter().parse(HINT_REASONS[alt["reason"]["key"]]) if f}
            assert set(alt["reason"]["params"]) == fields, alt["reason"]
        # an option does not repeat a better one's point: it shows its own search figures instead
        points = [repr(a["reason"]) for a in h["alternatives"] if a["reason"]["key"] != "search"]
        assert len(set(points)) == len(points), h["alternatives"]


def test_hint_alternatives_leave_out_moves_that_win_far_less_often(monkeypatch):
    from dizhu.bots import advice
    from dizhu.bots.search import Estimate
    from dizhu.bots.view import View

    obs = _blunder_position()
    moves = [classify(a.split(" ", 1)[1]) for a in obs["legal_actions"] if a != "pass"][:4]
    chances = [0.9, 0.0, 0.5, 0.4]  # ranked by points: the second loses every game it was played in
    fake = [Estimate(m, 2 * c - 1, c, 12) for m, c in zip(moves, chances)]
    monkeypatch.setattr(advice, "ranked", lambda *args, **kwargs: (fake, moves[0]))
    shown = advice.suggestions(View.of(obs), random.Random(1), 3)
    assert [d.action for d in shown] == [f"play {moves[0].text}", f"play {moves[2].text}"]
    # however poor, the first suggestion stays: it is the search's best
    fake[0] = Estimate(moves[0], -1.0, 0.0, 12)
    assert len(advice.suggestions(View.of(obs), random.Random(1), 3)) == 3


def test_hint_reasons_name_the_point_of_the_move():
    from dizhu.bots.advice import point_of
    from dizhu.bots.policy import Ctx
    from dizhu.bots.search import Estimate
    from dizhu.bots.view import View

    def why(round_, seat, move):
        est = Estimate(None if move is None else classify(move), 0.5, 0.6, 10)
        return point_of(Ctx.of(View.of(round_.observation(seat))), est)

    # farmer 1 leads its last-but-one 9: the landlord (holding the rocket) must stop the last card
    r = play(Round.from_deal("classic", **STOP_DEAL), STOP_SCRIPT)
    assert why(r, 0, "R") == ("stop_last_card", {})
    assert why(r, 0, "T") == ("stop_opponent", {"n": 1})  # a T can still be beaten: no stop
    # a partner's play stands
    r = play(Round.from_deal("classic", **STOP_DEAL), STOP_SCRIPT[:6])
    assert why(r, 2, None) == ("partner_stand", {})
    # over a partner's 4: a 9 the hand plays anyway; a 5 that breaks the 55 raises it for the
    # landlord, next to play ...
    r = play(Round.from_deal("classic", **STOP_DEAL), STOP_SCRIPT[:3])
    assert why(r, 2, "9") == ("beat_in_plan", {"play": "4", "n": 7})
    assert why(r, 2, "5") == ("raise_partner", {"play": "4"})
    # ... but not when the landlord has passed it (and breaking a partner's trick is no "contest"):
    # only the search's figures
    r = play(Round.from_deal("classic", **STOP_DEAL), ["0: bid 3", "0: play 3", "1: pass", "2: play 4", "0: pass"])
    assert why(r, 1, "5") == ("search", {"rate": 60, "games": 10})
    # the duel farmer (seat 0, handicap 2) holds 55566 with the lead: a trio reaches the line
    from dizhu import parse_cards

    def duel_ctx(hand, last=None, handicap=2):
        counts = tuple(parse_cards(hand).counts)
        unseen = tuple(d - c for d, c in zip(DUEL.deck_counts, counts))
        return Ctx(counts, 0, 2, 1, [len(parse_cards(hand)), 9], last, unseen, handicap=handicap)

    def duel_why(hand, move, last=None, handicap=2):
        return point_of(duel_ctx(hand, last, handicap),
                        Estimate(None if move is None else classify(move), 0.5, 0.6, 10))

    assert duel_why("55566", "555") == ("reach_line", {"n": 2})
    assert duel_why("55566", "55566") == ("finish", {})
    assert duel_why("55566", None, last=(1, classify("AA"))) == ("no_beat", {"play": "AA"})
    assert duel_why("55556", None, last=(1, classify("AA"))) == ("keep_bomb", {"play": "5555"})
    # a pass names what it keeps: the combination the cheapest reply would break up (the
    # straight, the pair chain; the trio, as the kings' trio costs as much), or the whole one it
    # would spend
    assert duel_why("6 7 8 9 T J", None, last=(1, classify("5")), handicap=0) == ("keep_together", {"play": "6789TJ"})
    assert duel_why("55 66 77 J", None, last=(1, classify("44")), handicap=0) == ("keep_together", {"play": "556677"})
    assert duel_why("5 7 999 KKK", None, last=(1, classify("88")), handicap=0) == ("keep_together", {"play": "999"})
    assert duel_why("5 7 999 QQ", None, last=(1, classify("88")), handicap=0) == ("hold_back", {"play": "QQ"})
    # a play with nothing decisive about it says what it does to the trick and to the hand's plan
    # a bomb takes the trick only when nothing unseen beats it (here no 2s nor the rocket are out)
    assert duel_why("5555 6 8 T", "5555", last=(1, classify("AA")), handicap=0) == ("bomb_beat", {"play": "AA"})
    assert duel_why("2222 B 6 8 T", "2222", last=(1, classify("AA")), handicap=0) == ("bomb_take", {"play": "AA"})
    # the rocket is called the rocket, not "the bomb"
    assert duel_why("BR 6 8 T", "BR", last=(1, classify("AA")), handicap=0) == ("rocket_take", {"play": "AA"})
    assert duel_why("BR 6", "BR", last=(1, classify("AA")), handicap=0) == ("rocket_to_win", {})
    assert duel_why("BR 6", None, last=(1, classify("AA")), handicap=0) == ("keep_rocket", {})
    assert duel_why("BR 5 7 9 K", "BR", handicap=0) == ("take_lead", {"n": 4})
    assert duel_why("5 7 QQ KK", "QQ", last=(1, classify("99")), handicap=0) == ("beat_in_plan", {"play": "99", "n": 3})
    assert duel_why("5 7 QQQ KK", "QQQ5", handicap=0) == ("shed_plan", {"n": 2})
    # a lead keeps a control card for later when such cards can win the lead back until the hand
    # is out; with a long way to go, the joker held is not the point of every lead
    assert duel_why("R 55 9", "55", handicap=0) == ("keep_control", {"card": "R"})
    assert duel_why("R 55 9 J", "55", handicap=0) == ("shed_plan", {"n": 3})  # the R wins one lead back, not two
    assert duel_why("BR 55 9 J", "55", handicap=0) == ("shed_plan", {"n": 3})  # the jokers: once, as the rocket
    assert duel_why("R 55 77 99 JJ KK", "55", handicap=0) == ("shed_plan", {"n": 5})
    # a single from a bomb, or the bomb with two kickers, is no part of the plan, though the count
    # of plays does not grow
    from dizhu.variants import CLASSIC

    def classic_why(hand, move, last=None):
        counts = tuple(parse_cards(hand).counts)
        unseen = tuple(d - c for d, c in zip(CLASSIC.deck_counts, counts))
        ctx = Ctx(counts, 0, 3, 1, [len(parse_cards(hand)), 17, 17], last, unseen)
        return point_of(ctx, Estimate(None if move is None else classify(move), 0.5, 0.6, 10))

    assert classic_why("55 6 8 99 TT QQ AAAA 22", "A", last=(1, classify("7")))[0] == "contest"
    assert classic_why("55 6 8 99 TT QQ AAAA 22", "68AAAA")[0] == "search"
    # nor a pair from four aces, though the plan may pair them with the kings and queens
    assert classic_why("55 6 8 99 TT QQ KK AAAA 22", "AA", last=(1, classify("44")))[0] == "contest"
    assert classic_why("55 6 8 99 TT QQ AAAA 22", "QQ", last=(1, classify("JJ"))) == ("beat_in_plan", {"play": "JJ", "n": 7})
    # breaking the trio up to beat a 9 is the search's call: its figures back it
    assert duel_why("5 7 QQQ KK", "Q", last=(1, classify("9")), handicap=0) == \
        ("contest", {"play": "9", "rate": 60, "games": 10})
    # with no world searched (a wall-clock limit came first) it says so without figures, and not
    # "the fewest plays", which breaking the trio is not
    unsearched = Estimate(classify("Q"), 0.0, 0.0, 0)
    assert point_of(duel_ctx("5 7 QQQ KK", (1, classify("9")), 0), unsearched) == ("break_to_beat", {"play": "9"})
    # a lead that leaves the 5 and 7 for the line says so; leading the 5 itself, or with no line, does
    # not (a duel hand: no 3 or 4 is in the duel's deck)
    assert duel_why("5 7 9 QQ KK", "QQ") == ("play_to_line", {"cards": "57"})
    assert duel_why("5 7 9 QQ KK", "5") == ("search", {"rate": 60, "games": 10})  # 5 is kept for the line
    assert duel_why("5 7 9 QQ KK", "7", last=(1, classify("6")))[0] == "contest"  # and so is 7
    assert duel_why("5 7 9 QQ KK", "QQ", handicap=0)[0] != "play_to_line"
    # the duel landlord leads a pair: it stops a farmer holding one card, not one holding three that
    # needs one more to reach its line (any higher pair takes it there)
    def landlord_leads(play, farmer_cards, handicap):
        counts = tuple(parse_cards("TT 5 7 9").counts)
        unseen = tuple(d - c for d, c in zip(DUEL.deck_counts, counts))
        ctx = Ctx(counts, 0, 2, 0, [5, farmer_cards], None, unseen, handicap=handicap)
        return point_of(ctx, Estimate(classify(play), 0.5, 0.6, 10))[0]

    assert landlord_leads("TT", 1, 0) == "stop_last_card"
    assert landlord_leads("TT", 3, 2) != "stop_last_card"


def test_evaluate_scores_the_given_moves_in_order():
    from dizhu.bots.search import Estimate, evaluate, ranked, search_move
    from dizhu.bots.view import View

    obs = _blunder_position()
    view = View.of(obs)
    moves = [classify("R"), None, classify("J")]
    est = evaluate(view, random.Random(3), moves, budget=0.05)
    assert [e.move for e in est] == moves
    assert all(isinstance(e, Estimate) and e.worlds >= 4 and 0 <= e.win_chance <= 1 for e in est)
    assert all(-64 <= e.points <= 64 for e in est)
    assert est[0].worlds == est[1].worlds == est[2].worlds  # the same worlds for every move
    # search_move picks the move its shortlist's search scores best
    best = ranked(view, random.Random(3), budget=0.05)[0][0].move
    assert search_move(view, random.Random(3), budget=0.05).action == ("pass" if best is None else f"play {best.text}")
    # and with worlds enough (R and J are close: a few dozen worlds can go either way) not the blunder
    for seed in (3, 4):
        assert search_move(view, random.Random(seed), budget=1.0).action != "play R"


def test_the_search_objective_blends_the_win_and_the_points():
    from dizhu.bots.search import SearchConfig, evaluate, ranked
    from dizhu.bots.view import View

    view = View.of(_blunder_position())
    moves = [classify("R"), None, classify("J")]
    points = evaluate(view, random.Random(3), moves, budget=0.05, config=SearchConfig(lookahead=0))
    assert all(e.score == e.points for e in points)  # the default: points alone
    wins = evaluate(view, random.Random(3), moves, budget=0.05, config=SearchConfig(win_weight=1.0, lookahead=0))
    # the same worlds and rollouts; the score is then the chance to win, from -1 to +1
    assert [(e.points, e.win_chance) for e in wins] == [(e.points, e.win_chance) for e in points]
    assert all(e.score == pytest.approx(2 * e.win_chance - 1) for e in wins)
    # the search ranks by the score, not the points
    ranked_wins, _ = ranked(view, random.Random(3), budget=0.05, config=SearchConfig(win_weight=1.0, lookahead=0))
    in_race = [e for e in ranked_wins if e.worlds == ranked_wins[0].worlds]
    assert [e.score for e in in_race] == sorted((e.score for e in in_race), reverse=True)
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError):
            SearchConfig(win_weight=bad)


def test_the_search_stops_at_its_cap_of_worlds():
    from dizhu.bots.search import MIN_WORLDS, SearchConfig, evaluate
    from dizhu.bots.view import View

    view = View.of(_blunder_position())
    moves = [classify("R"), None, classify("J")]
    capped = evaluate(view, random.Random(3), moves, budget=1.0, config=SearchConfig(max_worlds=7))
    assert [e.worlds for e in capped] == [7, 7, 7]  # the budget would buy far more
    wider = evaluate(view, random.Random(3), moves, budget=1.0, config=SearchConfig(max_worlds=30))
    assert [e.worlds for e in wider] == [30, 30, 30]
    with pytest.raises(ValueError):
        SearchConfig(max_worlds=MIN_WORLDS - 1)


def test_the_search_plays_its_own_later_moves_by_the_style_it_is_given():
    from dizhu.bots.search import SearchConfig, evaluate
    from dizhu.bots.view import View

    view = View.of(_blunder_position())
    moves = [classify("R"), None, classify("J")]
    default = evaluate(view, random.Random(3), moves, budget=0.05)
    assert default == evaluate(view, random.Random(3), moves, budget=0.05, config=SearchConfig(own="intermediate"))
    greedy = evaluate(view, random.Random(3), moves, budget=0.05, config=SearchConfig(own="greedy"))
    assert [e.points for e in greedy] != [e.points for e in default]  # the same worlds, played otherwise
    with pytest.raises(ValueError, match="own"):
        SearchConfig(own="oracle")
    with pytest.raises(ValueError, match="own"):
        SearchConfig(own={"classic": "greedy"})  # every variant is named
    with pytest.raises(ValueError, match="prior over known styles"):
        SearchConfig(own="distilled", prior={"distilled": 1.0})  # never an opponent's style


def test_the_reading_is_set_by_variant():
    from dizhu.bots.reading import HIT, MISS, RECENT
    from dizhu.bots.search import ADVICE, SUPER_HARD, SearchConfig

    # classic reads as it always has; the duel reads sharper, over resampled worlds
    assert (SUPER_HARD.hit["classic"], SUPER_HARD.miss["classic"], SUPER_HARD.resample["classic"]) == (HIT, MISS, 1)
    assert SUPER_HARD.hit["duel"] > HIT and SUPER_HARD.miss["duel"] < MISS and SUPER_HARD.resample["duel"] > 1
    assert SUPER_HARD.recent == RECENT
    assert ADVICE.resample == SUPER_HARD.resample  # the hint reads the table as super-hard does
    assert SearchConfig(hit=0.9).hit == {"classic": 0.9, "duel": 0.9}  # one value: every variant
    for wrong in ({"resample": 0}, {"resample": 1.5}, {"hit": 1.5}, {"miss": 0.0},
                  {"resample": {"classic": 8}}, {"hit": "sharp"}):
        with pytest.raises(ValueError, match=next(iter(wrong))):
            SearchConfig(**wrong)


def test_resampling_draws_a_world_by_its_weight_and_weighs_their_mean(monkeypatch):
    from dizhu.bots import search
    from dizhu.bots.reading import Reading, Table
    from dizhu.bots.search import SearchConfig, _draw_world
    from dizhu.bots.view import View

    r = Round.deal("duel", seed="resample")
    while r.phase == "bidding":
        r.apply(r.to_act, "call" if "call" in r.legal_actions() else "pass")
    view = View.of(r.observation(r.to_act))
    worlds = iter(range(1000))
    monkeypatch.setattr(search, "sample_world", lambda view, rng: [[next(worlds)]])
    weights = {}

    def reading(self, view, hands, rng, table=None):
        return Reading(weights[hands[0][0] % 4], {}, 10)

    monkeypatch.setattr(SearchConfig, "reading", reading)
    config, table, rng = SearchConfig(resample=4), Table.neutral(view), random.Random(5)
    weights.update({0: 0.0, 1: 0.0, 2: 3.0, 3: 1.0})  # the four worlds of a draw, by their place
    drawn = [_draw_world(view, rng, config, table) for _ in range(200)]
    assert {d[2] for d in drawn} == {1.0} and {d[3] for d in drawn} == {4 * (search.WORLD_COST + 10)}
    places = [d[0][0][0] % 4 for d in drawn]
    assert set(places) == {2, 3} and 120 < places.count(2) < 180  # three to one
    weights.update({2: 0.0, 3: 0.0})  # no world explains the round: the draw weighs nothing
    assert _draw_world(view, rng, config, table)[2] == 0.0
    weights.update({0: 0.5})
    assert _draw_world(view, rng, SearchConfig(resample=1), table)[2] == 0.5  # one world: as read


def test_in_duel_the_search_plays_its_own_later_moves_by_the_distilled_policy():
    from dizhu.bots.search import ADVICE, SUPER_HARD, SearchConfig, evaluate
    from dizhu.bots.styles import compiled
    from dizhu.bots.view import View

    assert SUPER_HARD.own == {"classic": "intermediate", "duel": "distilled"}
    assert set(ADVICE.own.values()) == {"intermediate"}  # the hint and the review must answer sooner
    r = Round.deal("duel", seed="own-distilled")
    while r.phase == "bidding":
        r.apply(r.to_act, "call" if "call" in r.legal_actions() else "pass")
    view = View.of(r.observation(r.to_act))
    distilled = evaluate(view, random.Random(3), budget=0.1)
    plain = evaluate(view, random.Random(3), budget=0.1, config=SearchConfig(own="intermediate"))
    if compiled() is None:  # in Python it would cost many times a world: intermediate plays instead
        assert distilled == plain
    else:  # its steps are charged more (STEP_COST): the same budget buys fewer worlds
        assert distilled[0].worlds < plain[0].worlds


def test_the_look_ahead_groups_the_worlds_by_what_the_bot_sees():
    from dizhu.bots.search import STYLES, SearchConfig, Sim, _rollout, evaluate, sample_world, to_next_decision
    from dizhu.bots.view import View

    view = View.of(_blunder_position())
    moves = [classify("R"), None, classify("J")]
    plain = evaluate(view, random.Random(3), moves, budget=0.05, config=SearchConfig(lookahead=0))
    # super-hard looks 4 moves ahead in duel only: this classic position is searched plainly
    assert SearchConfig().lookahead == 4 and SearchConfig().lookahead_in == ("duel",)
    assert evaluate(view, random.Random(3), moves, budget=0.05) == plain
    config = SearchConfig(lookahead_in=("classic", "duel"))
    ahead = evaluate(view, random.Random(3), moves, budget=0.05, config=config)
    assert ahead == evaluate(view, random.Random(3), moves, budget=0.05, config=config)
    # each world costs several play-outs now: the same budget buys fewer worlds
    assert ahead[0].worlds < plain[0].worlds
    # ranked by the chance to win, a group's move is the one that wins more there, and the score
    # is the chance to win of the moves so chosen
    wins = evaluate(view, random.Random(3), moves, budget=0.05, config=SearchConfig(win_weight=1.0, lookahead_in=("classic",)))
    assert all(e.score == pytest.approx(2 * e.win_chance - 1) for e in wins)
    with pytest.raises(ValueError, match="lookahead_in"):
        SearchConfig(lookahead_in=("poker",))
    # in duel super-hard looks ahead: each world costs several play-outs, the budget buys fewer
    round_ = Round.deal("duel", seed="look")
    play(round_, ["1: call", "0: pass"])
    duel = View.of(round_.observation(round_.to_act))
    assert duel.variant.name == "duel" and duel.last is None
    looked = evaluate(duel, random.Random(3), budget=0.05)
    flat = evaluate(duel, random.Random(3), budget=0.05, config=SearchConfig(lookahead=0))
    assert [e.move for e in looked] == [e.move for e in flat]
    assert looked[0].worlds < flat[0].worlds
    for wrong in ({"lookahead": -1}, {"lookahead_z": -1.0}, {"lookahead_z": float("nan")}):
        with pytest.raises(ValueError, match="lookahead"):
            SearchConfig(**wrong)
    # What a world is grouped by is what the bot saw: the others' replies, never their cards. Two
    # worlds whose replies to the bot's J are the same fall in one group.
    config, seats = SearchConfig(lookahead=3, lookahead_in=("classic",)), [STYLES["intermediate"]] * 3
    rng = random.Random(5)
    seen: dict[tuple, list] = {}
    for _ in range(40):
        hands = sample_world(view, rng)
        root = Sim(view, hands)
        key, values, _ = to_next_decision(view, root, classify("J"), seats, 7, config)
        assert all(k is None or isinstance(k, int) for k in key), key
        seen.setdefault(key, []).append(hands)
        assert 1 <= len(values) <= 3
        if len(values) > 1:
            # its first option is the rule policy's next move: played out, it is the plain rollout
            sim = root.copy()
            sim.apply(classify("J"))
            assert values[0] == _rollout(sim, view.seat, seats, 7)[0]
    assert any(len({str(h) for h in worlds}) > 1 for worlds in seen.values())  # unlike worlds, one group


def test_the_look_ahead_may_start_from_the_own_style():
    from dizhu.bots.search import STYLES, SearchConfig, Sim, _candidates, _rollout, sample_world, to_next_decision
    from dizhu.bots.styles import picks
    from dizhu.bots.view import View

    view = View.of(_blunder_position())
    me, rng = view.seat, random.Random(4)
    # a group's default move is the rule policy's, or with lookahead_first="own" the own style's:
    # here greedy's, which often differs from the rule policy's
    seats = [STYLES["greedy"] if s == me else STYLES["intermediate"] for s in range(3)]
    own, rule = SearchConfig(lookahead_first="own", lookahead=3), SearchConfig(lookahead=3)
    differed = 0
    for _ in range(20):
        root = Sim(view, sample_world(view, rng))
        key, values, _ = to_next_decision(view, root, classify("J"), seats, 9, own)
        if len(values) == 1:
            continue  # (the round ended before the bot's next decision)
        sim = root.copy()
        sim.apply(classify("J"))
        while sim.to_act != me:  # the others' replies, as the look-ahead plays them
            sim.apply(seats[sim.to_act](sim.ctx(), random.Random(9)))
        key, = picks([seats[me]], sim.ctx(), random.Random(9))
        sim.apply(next(m for m in _candidates(sim.ctx())[0] if (None if m is None else m.key) == key))
        assert values[0] == _rollout(sim, me, seats, 9)[0]
        differed += values != to_next_decision(view, root, classify("J"), seats, 9, rule)[1]
    assert differed  # (the two defaults are not the same move here)
    with pytest.raises(ValueError, match="lookahead_first"):
        SearchConfig(lookahead_first="policy")


def test_racing_drops_the_clearly_worse_moves_and_gives_the_rest_more_worlds(monkeypatch):
    import dataclasses

    from dizhu.bots import search
    from dizhu.bots.view import View

    view = View.of(_blunder_position())
    moves = [classify("R"), None, classify("J"), classify("8")]

    def play_out(view, root, move, exact, solver, seats, luck):
        # the big joker and the 8 always lose; pass and J win or lose by the world's luck
        if move is not None and move.text in ("R", "8"):
            return -2.0, 100
        return (1.0 if (luck + (move is not None)) % 3 else -1.0), 100

    monkeypatch.setattr(search, "play_out", play_out)
    plain = dataclasses.replace(search.SUPER_HARD, lookahead=0)  # (the look-ahead's worlds are not raced)
    raced = search.evaluate(view, random.Random(3), moves, budget=0.3, race=True, config=plain)
    flat = search.evaluate(view, random.Random(3), moves, budget=0.3, config=plain)
    assert [e.move for e in raced] == moves
    assert raced[0].worlds == raced[3].worlds == search.RACE_FROM  # out at the first look
    assert min(raced[1].worlds, raced[2].worlds) > flat[0].worlds  # their rollouts bought more worlds for the rest
    assert len({e.worlds for e in flat}) == 1  # without racing every move sees every world
    assert raced[0].points == flat[0].points == -2.0
    # the moves that stayed in the race come first, however well a dropped one's few worlds went:
    # J scores 0 and trails pass and 8, which score 1 in the first worlds and -0.5 after
    calls = {}

    def fading(view, root, move, *rest):
        text = "pass" if move is None else move.text
        calls[text] = calls.get(text, 0) + 1
        if text in ("J", "R"):
            return (0.0 if text == "J" else -2.0), 100
        return (1.0 if calls[text] <= search.RACE_FROM else -0.5), 100

    monkeypatch.setattr(search, "play_out", fading)
    monkeypatch.setattr(search, "_candidates", lambda ctx, config=None: (moves, None))
    estimates, _ = search.ranked(view, random.Random(3), budget=0.3, config=plain)
    assert [e.move.text if e.move else "pass" for e in estimates] == ["pass", "8", "J", "R"]
    assert estimates[0].points < estimates[2].points == 0.0  # J's few worlds look better than the end
    plain, _ = search.ranked(view, random.Random(3), budget=0.05,
                             config=dataclasses.replace(plain, race=False))
    assert len({e.worlds for e in plain}) == 1 and plain[0].move.text == "J"  # flat: J's 0 beats the rest


def _replayed(script_deal, script):
    from dizhu.bots.view import View

    return View.of(play(Round.from_deal("classic", **script_deal), script).observation(0))


def test_reading_weighs_worlds_by_the_passes_they_explain():
    """Farmer 2 passed on the landlord's lone 3 after its partner passed too: a world where
    it held loose singles above the 3 explains that pass worse than one where it could only
    break pairs, and a neutral reading (no plays yet) weighs every world alike."""
    from dizhu.bots.reading import read_world
    from dizhu.bots.search import sample_world

    from collections import Counter

    landlord, bottom = "345678 9TJQK 2 AA KK 5".replace(" ", ""), "BR2"
    deck = Counter({r: 4 for r in "3456789TJQKA2"})
    deck.update({"B": 1, "R": 1})
    rest = sorted((deck - Counter(landlord + bottom)).elements())
    deal = dict(hands=[landlord, "".join(rest[::2]), "".join(rest[1::2])], bottom=bottom, first=0)
    view = _replayed(deal, ["0: bid 3", "0: play 3", "1: pass", "2: pass"])
    rng = random.Random(1)
    weights = []
    for _ in range(3000):  # about 1 world in 100 leaves farmer 2 at most one loose single
        hands = sample_world(view, rng)
        loose = sum(1 for r in range(1, 15) if hands[2][r] == 1)  # singles above the 3
        weights.append((loose, read_world(view, hands, rng).weight))
    few = [w for n, w in weights if n <= 1]
    many = [w for n, w in weights if n >= 4]
    assert few and many
    assert sum(few) / len(few) > sum(many) / len(many)


def test_reading_finds_a_greedy_follower():
    """A seat that always answers with its lowest reply reads as greedy more than the prior says."""
    from dizhu.bots.reading import read_world
    from dizhu.bots.search import sample_world
    from dizhu.bots.styles import PRIOR, STYLE_NAMES, STYLES
    from dizhu.bots.view import View

    greedy = STYLE_NAMES.index("greedy")
    for n in range(6):
        r = Round.deal("duel", seed=f"greedy-{n}")
        bidder = create("intermediate", "duel", seed=n)
        while r.phase == "bidding":
            r.apply(r.to_act, bidder.decide(r.observation(r.to_act)))
        me = r.landlord
        other = 1 - me
        mine = create("intermediate", "duel", seed=n)
        from dizhu.bots.policy import Ctx

        for _ in range(14):
            if r.result is not None:
                break
            seat = r.to_act
            obs = r.observation(seat)
            if seat == me:
                r.apply(seat, mine.decide(obs))
            else:
                move = STYLES["greedy"](Ctx.of(View.of(obs)), random.Random(0))
                r.apply(seat, "pass" if move is None else f"play {move.text}")
        if r.result is not None:
            continue
        view = View.of(r.observation(me))
        rng = random.Random(2)
        posterior = [0.0] * len(STYLE_NAMES)
        for _ in range(40):
            reading = read_world(view, sample_world(view, rng), rng)
            for k, p in enumerate(reading.styles[other]):
                posterior[k] += reading.weight * p
        total = sum(posterior)
        assert posterior[greedy] / total > PRIOR["greedy"], n
        return
    raise AssertionError("no round lasted long enough")


def test_reading_replays_the_round_once_for_all_the_worlds(native_parity):
    """What a seat knew at each decision read is what a plain replay of the round in that world
    gives (below: the hands at the start, spent play by play), in every world, though the plays are
    replayed once per view; a view with a longer history, or another view, is replayed afresh."""
    import dataclasses

    from dizhu.bots.policy import Ctx
    from dizhu.bots.reading import RECENT, _contexts, _play, _replay_of
    from dizhu.bots.search import sample_world
    from dizhu.rules import trick_over

    def replayed(held, plays, view, at):
        played, left = [0] * 15, [sum(h) for h in held]
        last, passes = None, 0
        for i, (seat, combo) in enumerate(plays):
            if i in at:
                hand = tuple(held[seat])
                unseen = tuple(d - p - h for d, p, h in zip(view.variant.deck_counts, played, hand))
                yield seat, None if combo is None else combo.key, Ctx(
                    hand, seat, view.players, view.landlord, left[:], last, unseen, view.handicap)
            if combo is None:
                passes += 1
                if trick_over(passes, view.players):
                    last, passes = None, 0
                continue
            held[seat] = [h - n for h, n in zip(held[seat], combo.counts)]
            played = [p + n for p, n in zip(played, combo.counts)]
            left[seat] -= combo.size
            last, passes = (seat, combo), 0

    rng, checked = random.Random(6), 0
    for view in native_parity.round_views(150, 6, 0.3):
        if not view.history:
            continue
        view = dataclasses.replace(view, history=list(view.history))  # (its own: changed below)
        recent = rng.choice((1, 2, RECENT))
        plays = [(seat, _play(text)) for seat, text in view.history]
        latest: dict[int, int] = {}
        read_at = set()
        for i in range(len(plays) - 1, -1, -1):
            seat = plays[i][0]
            if seat != view.seat and latest.get(seat, 0) < recent:
                latest[seat] = latest.get(seat, 0) + 1
                read_at.add(i)
        replay = _replay_of(view, recent)
        assert replay.wanted == latest
        for _ in range(3):
            hands = sample_world(view, rng)
            held = [h[:] for h in hands]
            for seat, combo in plays:
                if combo is not None:
                    held[seat] = [a + b for a, b in zip(held[seat], combo.counts)]
            assert [list(map(sum, zip(hands[s], replay.spent[s]))) for s in range(view.players)] == held
            full = list(replayed(held, plays, view, read_at))
            found = _contexts(_replay_of(view, recent), hands, view.players, view.landlord, view.handicap)
            assert list(found) == full
            checked += len(full)
        assert _replay_of(view, recent) is replay
        view.history.append([view.seat, "pass"])  # (a view changed in place is read again)
        again = _replay_of(view, recent)
        assert again is not replay
        view.history[-1] = [view.seat, "3"]  # (the same length, another last entry)
        assert _replay_of(view, recent) is not again
    assert checked > 500


def test_the_table_reads_each_seat_by_its_earlier_rounds():
    """After a few rounds at one table, the greedy follower at seat 1 reads as greedy and the
    greedy style is trusted further with it; intermediate's seat does not read as greedy; and
    the search plays on what the table says (with no earlier round, exactly as without it)."""
    from dizhu import Match
    from dizhu.bots.reading import HIT, Table, read_table
    from dizhu.bots.search import SearchConfig, evaluate
    from dizhu.bots.styles import PRIOR, STYLE_NAMES
    from dizhu.bots.view import View

    StylePlayer = _benchmark_players().StylePlayer

    greedy = STYLE_NAMES.index("greedy")
    m = Match("classic", seed="table", target=None)
    seats = [create("intermediate", "classic", seed=0), StylePlayer("greedy", "classic", 1),
             StylePlayer("intermediate", "classic", 1)]
    view = View.of(m.observation(0))
    assert read_table(view) == Table.neutral(view) and read_table(view).decisions == {1: 0, 2: 0}
    for _ in range(3):
        while m.round.result is None:
            seat = m.round.to_act
            m.apply(seat, seats[seat].decide(m.observation(seat)))
        m.another_round()
    while m.round.phase == "bidding" or m.round.to_act != 0:  # to seat 0's first play
        seat = m.round.to_act
        m.apply(seat, seats[seat].decide(m.observation(seat)))
    obs = m.observation(0)
    table = read_table(View.of(obs))
    assert min(table.decisions.values()) >= 5
    assert table.prior[1][greedy] > 0.5 and table.hit[1][greedy] > HIT
    assert table.prior[2][greedy] < PRIOR["greedy"] and max(table.prior[2]) == table.prior[2][0]
    assert SearchConfig(table=False).table_of(View.of(obs)) == Table.neutral(View.of(obs))
    moves = [None] + [classify(a[5:]) for a in obs["legal_actions"] if a != "pass"][:3]
    if obs["trick"]["last"] is None:
        moves = moves[1:]

    def points(o, config):
        return [e.points for e in evaluate(View.of(o), random.Random(5), moves, budget=0.05, config=config)]

    assert points(obs, SearchConfig()) != points(obs, SearchConfig(table=False))
    alone = m.round.observation(0)  # the same round, no table
    assert points(alone, SearchConfig()) == points(obs, SearchConfig(table=False))


def test_the_table_reads_towards_the_variants_own_likelihoods():
    """A style's rate at the table starts from the search's ``hit`` for the variant, not the
    module's: in the duel (0.9 / 0.1) each rate sits ``(0.9 - 0.8) * 10 / (n + 10)`` above the
    one read at 0.8, its miss keeps ``miss / (1 - hit)`` of the rest, and the search's table is
    the one read at the duel's values."""
    from dizhu import Match
    from dizhu.bots.reading import HIT_RANGE, PSEUDO_DECISIONS, read_table
    from dizhu.bots.search import DUEL_READING, SearchConfig
    from dizhu.bots.view import View

    StylePlayer = _benchmark_players().StylePlayer

    m = Match("duel", seed="table", target=None)
    seats = [create("intermediate", "duel", seed=0), StylePlayer("greedy", "duel", 1)]
    for _ in range(3):
        while m.round.result is None:
            seat = m.round.to_act
            m.apply(seat, seats[seat].decide(m.observation(seat)))
        m.another_round()
    view = View.of(m.observation(0))
    hit, miss, _ = DUEL_READING
    old, new = read_table(view, hit=0.8, miss=0.25), read_table(view, hit=hit, miss=miss)
    n = new.decisions[1]
    assert n >= 5 and old.decisions == new.decisions
    inside = 0
    for before, after, missed in zip(old.hit[1], new.hit[1], new.miss[1]):
        if HIT_RANGE[0] < after < HIT_RANGE[1] and HIT_RANGE[0] < before < HIT_RANGE[1]:
            assert after == pytest.approx(before + (hit - 0.8) * PSEUDO_DECISIONS / (n + PSEUDO_DECISIONS))
            inside += 1
        assert missed == pytest.approx(min(1.0, miss / (1 - hit) * (1 - after)))
    assert inside >= 3 and SearchConfig().table_of(view) == new


def test_the_cautious_style_keeps_its_two_where_intermediate_spends_it():
    """The Style thresholds run: keep_control (cautious) passes on a low single rather than
    spend its only ordinary answer, a 2, early in the round; intermediate answers."""
    from dizhu import parse_cards
    from dizhu.bots.policy import Ctx, intermediate_move
    from dizhu.bots.styles import CAUTIOUS

    hand = tuple(parse_cards("33 55 77 99 JJ 2 KK").counts)
    unseen = tuple(d - h for d, h in zip(CLASSIC.deck_counts, hand))
    ctx = Ctx(hand, 1, 3, 0, [17, 13, 17], (0, classify("6")), unseen)
    assert intermediate_move(ctx)[0].text == "2"
    move, reason, params = intermediate_move(ctx, CAUTIOUS)
    assert move is None and reason == "keep_control" and params["card"] == "2"


def test_the_duel_farmer_keeps_its_worst_cards_for_the_handicap_line():
    """At a line of 2 the farmer need never play its 5 and 7: it plans the rest (2 plays, not
    4), so it leads its pairs instead of throwing away a lead on a card it could keep, and it
    counts a reply's cost on what it must still play.  With ``to_the_line`` off, or as the
    landlord (who plays out), it leads the 5 as before.  (A duel hand: no 3 or 4 is dealt.)"""
    from dizhu import parse_cards
    from dizhu.bots.hands import plays_of
    from dizhu.bots.policy import Ctx, Style, can_run_out, intermediate_move

    def ctx_of(hand, seat=0, landlord=1, handicap=2, last=None):
        counts = tuple(parse_cards(hand).counts)
        unseen = tuple(d - c for d, c in zip(DUEL.deck_counts, counts))
        return Ctx(counts, seat, 2, landlord, [len(parse_cards(hand)), 15], last, unseen, handicap)

    farmer = ctx_of("5 7 QQ KK")
    assert plays_of(farmer.to_shed(farmer.hand)) == 2 and farmer.line() == 2
    assert intermediate_move(farmer)[0].text == "QQ"
    assert intermediate_move(farmer, Style(to_the_line=False))[0].text == "5"
    assert intermediate_move(ctx_of("5 7 QQ KK", handicap=0))[0].text == "5"
    landlord = ctx_of("5 7 QQ KK", landlord=0)
    assert landlord.line() == 0 and intermediate_move(landlord)[0].text == "5"
    # a 2 over the landlord's ace leaves QQ and the kept 5 and 7: the rest is one play
    assert can_run_out(farmer, tuple(parse_cards("5 7 QQ").counts))
    assert not can_run_out(ctx_of("5 7 QQ KK", handicap=0), tuple(parse_cards("5 7 QQ").counts))


def test_the_bomb_happy_style_answers_at_two_extra_plays():
    """delta2_danger runs: EAGER answers a pair with its 2s although that costs two more
    plays (intermediate saves its cards), and the bomb-happy style throws a bomb where
    intermediate would pass."""
    from dizhu import parse_cards
    from dizhu.bots.policy import Ctx, intermediate_move
    from dizhu.bots.styles import EAGER, STYLES

    def ctx_of(hand, prev):
        counts = tuple(parse_cards(hand).counts)
        unseen = tuple(d - h for d, h in zip(CLASSIC.deck_counts, counts))
        return Ctx(counts, 1, 3, 0, [15, len(parse_cards(hand)), 14], (0, classify(prev)), unseen)

    ctx = ctx_of("357TJJQKA222", "66")
    assert intermediate_move(ctx)[:2] == (None, "save_cards")
    assert intermediate_move(ctx, EAGER)[0].text == "22"
    ctx = ctx_of("3579JJQQ KKKK", "AA")
    assert intermediate_move(ctx)[0] is None
    assert STYLES["bombs"](ctx, random.Random(0)).text == "KKKK"


def test_the_frozen_super_hard_is_for_benchmarks_only():
    """benchmarks/frozen holds yesterday's super-hard and search kernel as yardsticks: nothing in the package uses them."""
    import re
    from pathlib import Path

    import dizhu

    package = Path(dizhu.__file__).resolve().parent
    importing = [p for p in package.rglob("*.py")
                 if re.search(r"^\s*(from|import)\s+benchmarks", p.read_text(encoding="utf-8"), re.M)]
    assert importing == []
    for copy in ("superhard_2026_12_01", "kernel_2026_12_01"):
        frozen = package.parents[1] / "benchmarks" / "frozen" / copy
        if frozen.exists():  # a source checkout: the copy imports the engine, never the live bots
            for path in frozen.glob("*.py"):
                assert not re.search(r"^\s*(from|import)\s+dizhu\.bots", path.read_text(encoding="utf-8"), re.M), path


# ---- issue 11: how super-hard models the other seats (the ablation switches)


def _endgame(low, high):
    """A classic position, played by intermediate bots, with low..high cards in all hands and a choice."""
    from dizhu.bots.view import View

    for n in range(50):
        r = Round.deal("classic", seed=f"endgame-{n}")
        bots = [create("intermediate", seed=s) for s in range(3)]
        while r.result is None:
            obs = r.observation(r.to_act)
            if r.phase == "playing" and low <= sum(obs["cards_left"]) <= high and len(obs["legal_actions"]) > 2:
                return View.of(obs)
            r.apply(r.to_act, bots[r.to_act].decide(obs))
    raise AssertionError("no such position")


def test_the_opponent_model_switches_change_the_search():
    """Each switch of SearchConfig changes what the search sees: the reading off weighs every
    world alike, a one-style prior reads every seat as that style; with both off the seats
    play as intermediate in every world (as the frozen copy rolls them out)."""
    from dizhu.bots.reading import Reading, read_world
    from dizhu.bots.search import SearchConfig, evaluate, sample_world
    from dizhu.bots.styles import STYLE_NAMES
    from dizhu.bots.view import View

    view = View.of(_blunder_position())
    only = SearchConfig(prior={"intermediate": 1.0})
    rng = random.Random(4)
    for _ in range(20):
        hands = sample_world(view, rng)
        assert all(p[STYLE_NAMES.index("intermediate")] == 1.0
                   for p in read_world(view, hands, rng, only.prior).styles.values())
        plain = SearchConfig(prior={"intermediate": 1.0}, read=False).reading(view, hands, rng)
        assert plain == Reading(1.0, plain.styles, 0) and set(plain.styles) == {1, 2}
    weights = {SearchConfig().reading(view, sample_world(view, rng), rng).weight for _ in range(20)}
    assert len(weights) > 1  # the reading on: worlds weigh differently
    moves = [classify("R"), None, classify("J")]
    # an even mixture: with the shipped one, which leans on intermediate, this small search may
    # draw intermediate at every seat of every world and see what the one-style prior sees
    mixed = {"intermediate": 0.4, "normal": 0.15, "greedy": 0.15, "cautious": 0.15, "bombs": 0.15}
    by_config = [tuple(e.points for e in evaluate(view, random.Random(3), moves, budget=0.03, config=c))
                 for c in (SearchConfig(prior=mixed), only, SearchConfig(prior=mixed, read=False),
                           SearchConfig(prior={"intermediate": 1.0}, read=False))]
    assert len(set(by_config)) == 4
    # the endgame's reach: solved exactly, the search stops at 40 worlds
    end = _endgame(10, 12)
    plain = {"prior": {"intermediate": 1.0}, "read": False}
    far = evaluate(end, random.Random(3), None, budget=0.5, config=SearchConfig(**plain, exact_cards=12))
    near = evaluate(end, random.Random(3), None, budget=0.5, config=SearchConfig(**plain))
    assert far[0].worlds == 40 < near[0].worlds
    with pytest.raises(ValueError):
        SearchConfig(prior={"nobody": 1.0})


#: What super-hard ships with, as measured best (benchmarks/results/README.md, issue 11 ablation).
SHIPPED_PRIOR = {"intermediate": 0.4, "normal": 0.15, "greedy": 0.15, "cautious": 0.15, "bombs": 0.15}
SHIPPED_READ = True


def test_super_hard_and_the_hint_search_with_the_shipped_model():
    from dizhu.bots import players
    from dizhu.bots.search import SUPER_HARD, SearchConfig, evaluate, ranked, search_move

    assert create("super-hard").config is SUPER_HARD
    for fn in (evaluate, ranked, search_move):
        assert fn.__kwdefaults__["config"] is SUPER_HARD
    assert players.decide_play.__defaults__[-1] is SUPER_HARD
    assert SUPER_HARD == SearchConfig(prior=SHIPPED_PRIOR, read=SHIPPED_READ)


def test_reading_takes_a_rob_as_evidence_of_a_strong_hand():
    """In duel, the opponent robbed the caller's landlord seat: a world where robbing was
    worth it to its hand (the bots' own rob rule) explains that better than one where it was not."""
    from dizhu.bots.bidding import wants_rob
    from dizhu.bots.reading import HIT, MISS, read_world
    from dizhu.bots.search import sample_world
    from dizhu.bots.view import View

    seen = set()
    for n in range(10):
        r = Round.deal("duel", seed=f"rob-{n}")
        me = r.to_act
        other = 1 - me
        play(r, [f"{me}: call", f"{other}: rob", f"{me}: pass"])
        assert r.phase == "playing" and r.landlord == other
        view = View.of(r.observation(me))
        rng = random.Random(n)
        for _ in range(30):
            hands = sample_world(view, rng)
            dealt = [c - b for c, b in zip(hands[other], view.bottom)]
            strong = wants_rob(dealt, 0)
            assert read_world(view, hands, rng).weight == pytest.approx(HIT if strong else MISS)
            seen.add(strong)
        if seen == {True, False}:
            return
    raise AssertionError("the worlds never differed on the rob")


def test_a_bot_and_the_hint_take_the_typed_observation_as_well_as_its_json():
    r = Round.deal("duel", seed="typed")
    seat = r.to_act
    bot = create("intermediate", "duel", seed=1)
    assert bot.decide(r.observe(seat)) == bot.decide(r.observation(seat))
    assert hint(r.observe(seat), level="normal") == hint(r.observation(seat), level="normal")


def test_the_distilled_raw_counts_say_what_their_names_say():
    # the duel's network reads them: the hand after the move, the move, the unseen, the trick, the seats
    from dizhu.bots.distilled import NAMES, features
    from dizhu.bots.shortlist import shortlist

    ctx = partner_stands_ctx()
    moves, choice = shortlist(ctx)
    column = {name: i for i, name in enumerate(NAMES)}
    assert len(moves) > 1 and ctx.last is not None
    for move, x in zip(moves, features(ctx, moves, choice)):
        def get(name: str) -> float:
            return x[column[name]]

        moved = move.counts if move is not None else (0,) * 15
        assert [get(f"move_{r}") for r in range(15)] == list(moved)
        assert [get(f"after_{r}") + get(f"move_{r}") for r in range(15)] == list(ctx.hand)
        assert [get(f"unseen_{r}") for r in range(15)] == list(ctx.unseen)
        assert [get(f"trick_{r}") for r in range(15)] == list(ctx.last[1].counts)
        seats = [(ctx.seat + k) % 3 for k in range(3)]
        assert [get(f"held_{k}") * 20 for k in range(3)] == [ctx.cards_left[s] for s in seats]
        assert [get(f"landlord_{k}") for k in range(3)] == [float(s == ctx.landlord) for s in seats]


def test_the_distilled_features_from_decision_on_are_the_same_for_every_move():
    # the compiled kernel sums them once a decision, from its first move's: one that differed by
    # move would score every other move with the first one's value
    import random

    from dizhu.bots import search
    from dizhu.bots.distilled import _INDEX, DECISION, features, net
    from dizhu.bots.shortlist import shortlist
    from dizhu.bots.styles import STYLES
    from dizhu.bots.view import View

    rng, checked = random.Random(3), 0
    for variant in ("duel", "classic"):
        r = Round.deal(variant, seed=f"decision-{variant}")
        bids = [create("intermediate", variant, seed=s) for s in range(r.players)]
        while r.phase == "bidding":
            r.apply(r.to_act, bids[r.to_act].decide(r.observation(r.to_act)))
        view = View.of(r.observation(r.to_act))
        sim = search.Sim(view, search.sample_world(view, rng))
        while True:
            ctx = sim.ctx()
            moves, choice = shortlist(ctx)
            rows = features(ctx, moves, choice)
            assert all(x[DECISION:] == rows[0][DECISION:] for x in rows)
            if variant == "duel":  # a third seat's columns stay 0
                assert rows[0][_INDEX["held_2"]] == rows[0][_INDEX["landlord_2"]] == 0
            assert len(rows) == 1 or any(x[:DECISION] != rows[0][:DECISION] for x in rows)
            checked += len(rows) > 1
            if sim.apply(STYLES["intermediate"](ctx, rng)) is not None:
                break
    assert checked > 10
    assert net(2).order[0] == DECISION and sorted(net(2).order) == list(range(len(net(2).mean)))
    assert net(3).order == tuple(range(len(net(3).mean)))  # classic's reads none of them
