"""The rule policy (intermediate's play and the rollouts' default): controls, answers that fit in
a seat's cards, a partner's play left to stand, the last card stopped, bombs kept when losing."""

import pytest
from helpers.positions import STOP_DEAL, STOP_SCRIPT, bomb_to_win_ctx, partner_stands_ctx
from test_round_examples import play

from dizhu import Round
from dizhu.bots import create, hint
from dizhu.combos import classify


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
