"""The opponent library's styles (policy.Style thresholds): cautious, bomb-happy, eager, and the
duel farmer playing to the handicap line."""

import random

from dizhu import CLASSIC, DUEL
from dizhu.combos import classify


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
