"""The hint as advice: a legal action with a translatable reason, alternatives that are legal,
explained and not far worse, the point each reason names."""

import random
import string

import pytest
from helpers.positions import STOP_DEAL, STOP_SCRIPT, blunder_position
from test_round_examples import play

from dizhu import DUEL, Round
from dizhu.bots import create, hint
from dizhu.bots.reasons import HINT_REASONS
from dizhu.combos import classify


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


def test_the_hint_does_not_repeat_the_intermediate_blunder():
    obs = blunder_position()
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

    obs = blunder_position()
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
