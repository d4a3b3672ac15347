"""The worked examples of RULES.md §5-§6, scripted move by move from explicit deals."""

import pytest

from dizhu import IllegalAction, Round


def play(round_, script):
    """Apply 'seat: action' lines in order."""
    for line in script:
        seat, _, action = line.partition(":")
        round_.apply(int(seat), action.strip())
    return round_


# Landlord seat 0 (bottom A A B); seat 1 holds the 6789T that beats the opening.
BOMB_DEAL = dict(
    hands=["3333 45678 9TJQK 222", "444555666777888 9T", "99TT JJJ QQQ KKK AA 2 R"],
    bottom="AAB",
    first=0,
)


def test_bid_2_one_bomb_landlord_wins():
    r = Round.from_deal("classic", **BOMB_DEAL)
    play(r, ["0: bid 2", "1: pass", "2: pass"])
    assert r.landlord == 0 and str(r.hand(0)) == "3333456789TJQKAA222B"
    assert r.observation(1)["bottom"] == "AAB"
    play(r, [
        "0: play 45678", "1: play 6789T", "2: pass",
        "0: play 3333", "1: pass", "2: pass",
        "0: play 9TJQK", "1: pass", "2: pass",
        "0: play AA", "1: pass", "2: pass",
        "0: play 222B",
    ])
    assert r.phase == "over"
    assert r.result.winner == "landlord"
    assert r.result.multiplier == 4
    assert r.result.points == [8, -4, -4]
    assert not r.result.spring
    assert [b["source"] for b in r.result.breakdown] == ["bid", "bomb"]


def test_bid_2_one_bomb_farmers_win_mirror():
    r = Round.from_deal("classic", **BOMB_DEAL)
    play(r, [
        "0: bid 2", "1: pass", "2: pass",
        "0: play 45678", "1: play 6789T", "2: pass",
        "0: play 3333", "1: pass", "2: pass",
        "0: play 9TJQK", "1: pass", "2: pass",
        "0: play A", "1: pass", "2: play R", "0: pass", "1: pass",
        "2: play JJJQQQKKK+99TTAA", "0: pass", "1: pass",
        "2: play 2",
    ])
    assert r.result.winner == "farmers"
    # seat 1 still holds 12 cards and wins with its partner
    assert len(r.hand(1)) == 12
    assert r.result.points == [-8, 4, 4]
    assert not r.result.anti_spring


def test_bid_1_bomb_and_rocket_make_p_4():
    r = Round.from_deal(
        "classic",
        ["3333 45678 9TJQKA22", "444555666777888 BR", "9 TT JJJ QQQ KKK AAA 22"],
        bottom="99T",
        first=0,
    )
    play(r, [
        "0: bid 1", "1: pass", "2: pass",
        "0: play 45678", "1: pass", "2: pass",
        "0: play 3333", "1: play BR", "2: pass", "0: pass",
        "1: play 444555666777888",
    ])
    assert r.result.multiplier == 4
    assert r.result.points == [-8, 4, 4]
    assert [b["source"] for b in r.result.breakdown] == ["bid", "bomb", "rocket"]


def test_an_answer_to_the_rocket_is_refused_as_unbeatable():
    # "a bomb or the rocket" (wrong_kind) would point to a way out the rocket does not have
    r = Round.from_deal(
        "classic",
        ["4556789TJQKA222BR", "33334466778899TTJ", "4556789TJJQQKKAA2"],
        bottom="QKA",
        landlord=0,
        bid=1,
    )
    play(r, ["0: play BR"])
    for action in ("play 44", "play 3333"):
        with pytest.raises(IllegalAction) as refused:
            r.apply(1, action)
        assert refused.value.reason == "unbeatable" and refused.value.params["previous"] == "BR"
    play(r, ["1: pass", "2: pass", "0: play 4"])
    with pytest.raises(IllegalAction) as refused:
        r.apply(1, "play 44")
    assert refused.value.reason == "wrong_kind"  # only the rocket has no answer


def test_spring():
    r = Round.from_deal(
        "classic",
        ["333444555666777 88", "99TTJJQQKKAA22BR3", "45678TTJJQQKKAA22"],
        bottom="899",
        first=1,
    )
    play(r, ["1: pass", "2: pass", "0: bid 3"])
    play(r, ["0: play 333444555666777888", "1: pass", "2: pass", "0: play 99"])
    assert r.result.spring and not r.result.anti_spring
    assert r.result.multiplier == 6  # bid 3, spring doubles once
    assert r.result.points == [12, -6, -6]


ANTI_SPRING_DEAL = dict(
    hands=["34567 33 88 QQKKAA 22", "45678 999TTTJJJ QKA", "3 44 55 66 77 8 9 T J Q K A 2"],
    bottom="2BR",
    first=0,
)


def test_anti_spring_after_a_five_card_straight_opening():
    r = Round.from_deal("classic", **ANTI_SPRING_DEAL)
    play(r, [
        "0: bid 1", "1: pass", "2: pass",
        "0: play 34567", "1: play 45678", "2: pass", "0: pass",
        "1: play 999TTTJJJ+QKA",
    ])
    assert r.result.winner == "farmers"
    assert r.result.anti_spring
    assert r.result.multiplier == 2
    assert r.result.points == [-4, 2, 2]


def test_no_anti_spring_once_the_landlord_played_twice():
    r = Round.from_deal(
        "classic",
        ["3 4 55 66 77 8 9 QQ KK AA 2", "45678 6789T 89TJQKA", "333 44 5 9 TT JJJ Q K A 22"],
        bottom="2BR",
        first=0,
    )
    play(r, [
        "0: bid 1", "1: pass", "2: pass",
        "0: play 34567", "1: play 45678", "2: pass",
        "0: play 56789", "1: play 6789T", "2: pass", "0: pass",
        "1: play 89TJQKA",
    ])
    assert r.result.winner == "farmers"
    assert not r.result.anti_spring
    assert r.result.points == [-2, 1, 1]


def test_a_farmer_out_first_wins_for_both_farmers():
    r = Round.from_deal("classic", **ANTI_SPRING_DEAL)
    play(r, ["0: bid 1", "1: pass", "2: pass", "0: play 34567", "1: play 45678",
             "2: pass", "0: pass", "1: play 999TTTJJJ+QKA"])
    assert len(r.hand(2)) == 17
    assert r.result.points[2] > 0 and r.result.points[1] == r.result.points[2]


# ---- classic bidding


def test_classic_bid_3_ends_bidding_at_once():
    r = Round.from_deal("classic", **BOMB_DEAL)
    play(r, ["0: bid 1", "1: bid 3"])
    assert r.phase == "playing" and r.landlord == 1 and r.to_act == 1


def test_classic_highest_bidder_after_three_speak():
    r = Round.from_deal("classic", **{**BOMB_DEAL, "first": 1})
    play(r, ["1: bid 1", "2: pass", "0: bid 2"])
    assert r.landlord == 0 and r.bidding_level == 2
    r = Round.from_deal("classic", **{**BOMB_DEAL, "first": 0})
    play(r, ["0: bid 1", "1: pass", "2: bid 2"])  # the seeds' example: the last bidder
    assert r.landlord == 2


def test_classic_bid_must_be_higher():
    r = Round.from_deal("classic", **BOMB_DEAL)
    play(r, ["0: bid 2"])
    with pytest.raises(IllegalAction) as info:
        r.apply(1, "bid 1")
    assert info.value.reason == "bid_too_low"
    assert [str(a) for a in r.legal_actions()] == ["pass", "bid 3"]


def test_classic_all_pass_deals_again():
    r = Round.from_deal("classic", **BOMB_DEAL, redeal_seed="again")
    before = [str(h) for h in r.all_hands()]
    play(r, ["0: pass", "1: pass", "2: pass"])
    assert r.phase == "bidding" and r.landlord is None
    assert [e["type"] for e in r.events[-2:]] == ["redeal", "deal"]
    assert [str(h) for h in r.all_hands()] != before
    assert r.observation(0)["bids"] == []
    assert r.to_act == r.first == r.events[-1]["first"]


# ---- duel


DUEL_BOMB_DEAL = dict(
    hands=["5555 6789T J QQ KK A 22", "666 777 888 999 TTT JJ"],
    bottom="QKA",
    first=0,
)


def test_duel_two_robs_and_one_bomb_score_8():
    r = Round.from_deal("duel", **DUEL_BOMB_DEAL)
    play(r, ["0: call", "1: rob", "0: rob", "1: pass"])
    assert r.landlord == 0 and r.bidding_level == 2 and r.handicap == 2 and r.multiplier == 4
    play(r, [
        "0: play 6789T", "1: play 789TJ", "0: play 5555", "1: pass",
        "0: play QQQKKK+AA22", "1: pass", "0: play J",
    ])
    assert r.result.winner == "landlord"
    assert r.result.multiplier == 8
    assert r.result.points == [8, -8]


def test_duel_fourth_rob_ends_bidding():
    r = Round.from_deal("duel", **DUEL_BOMB_DEAL)
    play(r, ["0: call", "1: rob", "0: rob", "1: rob"])
    assert r.phase == "bidding" and [str(a) for a in r.legal_actions()] == ["pass", "rob"]
    play(r, ["0: rob"])
    assert r.phase == "playing" and r.landlord == 0 and r.bidding_level == 4
    assert r.handicap == 4 and r.multiplier == 16


def test_duel_neither_calls_first_speaker_is_landlord():
    r = Round.from_deal("duel", **{**DUEL_BOMB_DEAL, "first": 1})
    play(r, ["1: pass", "0: pass"])
    assert r.landlord == 1 and r.bidding_level == 0 and r.handicap == 0 and r.phase == "playing"


def test_duel_second_speaker_may_call_then_first_may_rob():
    r = Round.from_deal("duel", **DUEL_BOMB_DEAL)
    play(r, ["0: pass", "1: call", "0: rob", "1: pass"])
    assert r.landlord == 0 and r.bidding_level == 1


def test_duel_rob_and_call_only_when_allowed():
    r = Round.from_deal("duel", **DUEL_BOMB_DEAL)
    with pytest.raises(IllegalAction) as info:
        r.apply(0, "rob")
    assert info.value.reason == "nobody_called"
    r.apply(0, "call")
    with pytest.raises(IllegalAction) as info:
        r.apply(1, "call")
    assert info.value.reason == "already_called"
    with pytest.raises(IllegalAction) as info:
        r.apply(1, "bid 2")
    assert info.value.reason == "not_in_variant"


HANDICAP_DEAL = dict(
    hands=["6 8 778899TTJJQQKK A", "5555 66 7 8 99 TT JJ QQ K"],
    bottom="KAA",
    first=0,
)


def test_duel_farmer_wins_on_reaching_the_handicap():
    r = Round.from_deal("duel", **HANDICAP_DEAL)
    play(r, ["0: call", "1: rob", "0: pass"])
    assert r.landlord == 1 and r.handicap == 1
    play(r, ["1: play 5", "0: play 6", "1: play 7", "0: play 8", "1: pass"])
    assert r.phase == "playing"
    play(r, ["0: play 778899TTJJQQKK"])
    assert r.phase == "over" and len(r.hand(0)) == 1
    assert r.result.winner == "farmers"
    assert r.result.points == [2, -2]  # one rob, no bomb, the landlord played twice


def test_duel_the_landlord_must_play_out_all_20_and_farmer_all_17_at_handicap_0():
    r = Round.from_deal("duel", **HANDICAP_DEAL)
    play(r, ["0: pass", "1: pass"])
    assert r.landlord == 0 and r.handicap == 0
    # the landlord (20 cards) keeps playing while it holds any card
    play(r, ["0: play 778899TTJJQQKK", "1: pass", "0: play 8", "1: pass",
             "0: play 6", "1: pass", "0: play K"])
    assert r.phase == "playing" and len(r.hand(0)) == 3
    play(r, ["1: pass", "0: play A"])
    assert r.phase == "playing" and len(r.hand(0)) == 2
    play(r, ["1: pass", "0: play AA"])
    assert r.phase == "over" and r.result.winner == "landlord" and r.result.spring
    assert r.result.points == [2, -2]


def test_duel_spring_and_undealt_cards_never_shown():
    r = Round.from_deal("duel", **HANDICAP_DEAL)
    undealt = {c.id for c in r.undealt}
    assert len(undealt) == 9
    for seat in (0, 1):
        obs = r.observation(seat)
        assert not undealt & set(obs["hand_ids"])
        assert obs["bottom"] is None


# ---- validation


def test_every_refusal_leaves_the_round_unchanged():
    r = Round.from_deal("classic", **BOMB_DEAL)
    play(r, ["0: bid 2", "1: pass", "2: pass", "0: play 45678"])
    before = r.to_json(), [r.observation(s) for s in range(3)], list(r.events)
    bad = [
        (0, "play 9", "not_your_turn"),
        (1, "bid 3", "not_bidding"),
        (1, "play 9TJQ", "straight_too_short"),
        (1, "play 9TJQKA", "wrong_kind"),
        (1, "play 44", "wrong_kind"),
        (1, "play 34567", "too_weak"),
        (1, "play 9TJQK", "not_in_hand"),
        (1, "dance", "malformed_action"),
        (1, "play xyz", "malformed_action"),
        (1, "", "malformed_action"),
        (1, 42, "malformed_action"),
        (5, "pass", "no_such_seat"),
        (-1, "pass", "no_such_seat"),
    ]
    for seat, action, reason in bad:
        with pytest.raises(ValueError) as info:
            r.apply(seat, action)
        assert info.value.reason == reason, (seat, action)
        assert (r.to_json(), [r.observation(s) for s in range(3)], list(r.events)) == before


def test_specific_cards_must_be_held():
    from dizhu import Action, Card

    r = Round.from_deal("classic", **BOMB_DEAL)
    play(r, ["0: bid 1", "1: pass", "2: pass"])
    theirs = [c for c in r.all_hands()[1] if c.rank.symbol == "4"][:1]
    with pytest.raises(IllegalAction) as info:
        r.apply(0, Action.play(theirs))
    assert info.value.reason == "not_in_hand"
    mine = [c for c in r.hand(0) if c.rank.symbol == "4"]
    r.apply(0, Action.play(mine))
    assert r.events[-1]["cards"] == [c.id for c in mine]
    assert all(isinstance(Card.from_id(i), Card) for i in r.events[-1]["cards"])


def test_after_the_round_nothing_more():
    r = Round.from_deal("classic", **BOMB_DEAL)
    play(r, ["0: bid 3", "0: play 45678", "1: pass", "2: pass", "0: play 3333"])
    play(r, ["1: pass", "2: pass", "0: play 9TJQK", "1: pass", "2: pass",
             "0: play AA", "1: pass", "2: pass", "0: play 222B"])
    with pytest.raises(IllegalAction) as info:
        r.apply(1, "pass")
    assert info.value.reason == "round_over"
    assert r.legal_actions() == []


# ---- turn flow (RULES.md §4) and what does not score


def test_after_two_passes_the_last_player_leads_any_kind():
    r = Round.from_deal("classic", **BOMB_DEAL)
    play(r, ["0: bid 1", "1: pass", "2: pass", "0: play AA", "1: pass", "2: pass"])
    assert r.to_act == 0 and r.last_play is None
    assert "play 3" in [str(a) for a in r.legal_actions()]  # the seeds' example: KK, two passes, then a 3
    play(r, ["0: play 3"])
    assert r.last_play[1].text == "3"


def test_a_pass_does_not_leave_the_trick():
    r = Round.from_deal("classic", **BOMB_DEAL)
    play(r, ["0: bid 1", "1: pass", "2: pass", "0: play 4", "1: pass", "2: play 9", "0: pass"])
    # seat 1 passed on the 4 earlier in this trick and may still beat the 9 now
    assert r.to_act == 1 and r.last_play == (2, r.last_play[1])
    assert "play T" in [str(a) for a in r.legal_actions()]
    play(r, ["1: play T"])
    assert r.last_play[0] == 1


def test_duel_one_pass_ends_the_trick():
    r = Round.from_deal("duel", **DUEL_BOMB_DEAL)
    play(r, ["0: pass", "1: pass", "0: play 6789T", "1: pass"])
    assert r.to_act == 0 and r.last_play is None


def test_nobody_sees_the_bottom_during_bidding():
    r = Round.from_deal("classic", **BOMB_DEAL)
    for seat in range(3):
        obs = r.observation(seat)
        assert obs["bottom"] is None and obs["bottom_ids"] is None
    play(r, ["0: bid 1", "1: pass", "2: pass"])
    for seat in range(3):
        assert r.observation(seat)["bottom"] == "AAB"


def test_unplayed_bombs_and_four_with_kickers_do_not_double():
    # seat 0 plays four 3s with two kickers (an ordinary play); seat 1 never plays its 4444
    r = Round.from_deal(
        "classic",
        ["3333 56 6789T JQK 222", "4444 555 66 777 888 9T", "99TT JJJ QQQ KKK AA 2 R"],
        bottom="AAB",
        first=0,
    )
    play(r, ["0: bid 1", "1: pass", "2: pass",
             "0: play 3333+56", "1: pass", "2: pass",
             "0: play 6789T", "1: pass", "2: pass",
             "0: play AA", "1: pass", "2: pass",
             "0: play 222+B", "1: pass", "2: pass",
             "0: play J", "1: pass", "2: pass", "0: play Q", "1: pass", "2: pass",
             "0: play K"])
    assert r.result.winner == "landlord"
    assert "4444" in str(r.hand(1))
    assert [b["source"] for b in r.result.breakdown] == ["bid", "spring"]
    assert r.result.multiplier == 2


def test_duel_anti_spring():
    r = Round.from_deal("duel", **HANDICAP_DEAL)
    play(r, ["0: call", "1: rob", "0: pass"])  # seat 1 landlord, handicap 1
    play(r, ["1: play 5", "0: play 6", "1: pass", "0: play 778899TTJJQQKK", "1: pass", "0: play 8"])
    assert len(r.hand(0)) == 1
    assert r.result.winner == "farmers" and r.result.anti_spring
    assert r.result.points == [4, -4]  # one rob (2) doubled once by the anti-spring
