"""Every rule example of RULES.md §2-§3 and of the seeds' rule sections."""

import pytest

import dizhu
from dizhu import InvalidPlay, Kind, beats, classify, legal_moves

VALID = [
    # RULES.md §2 table
    ("A", "single", "A"),
    ("KK", "pair", "K"),
    ("777", "trio", "7"),
    ("777+A", "trio_single", "7"),
    ("777+AA", "trio_pair", "7"),
    ("34567", "straight", "7"),
    ("TJQKA", "straight", "A"),
    ("334455", "pair_chain", "5"),
    ("333444", "plane", "4"),
    ("333444+58", "plane_single", "4"),
    ("333444+55", "plane_single", "4"),
    ("333444+5588", "plane_pair", "4"),
    ("6666+39", "four_two_single", "6"),
    ("6666+99", "four_two_single", "6"),
    ("6666+3399", "four_two_pair", "6"),
    ("3333", "bomb", "3"),
    ("BR", "rocket", "R"),
    # seeds 000/002 §5-§13
    ("AA", "pair", "A"),
    ("AAA", "trio", "A"),
    ("333+8", "trio_single", "3"),
    ("333+88", "trio_pair", "3"),
    ("456789", "straight", "9"),
    ("10 J Q K A", "straight", "A"),
    ("778899", "pair_chain", "9"),
    ("10 10 J J Q Q K K A A", "pair_chain", "A"),
    ("777+888+999", "plane", "9"),
    ("QQQ+KKK+AAA", "plane", "A"),
    ("333+444+5+8", "plane_single", "4"),
    ("333+444+55+88", "plane_pair", "4"),
    ("6666+3+9", "four_two_single", "6"),
    ("6666+33+99", "four_two_pair", "6"),
    ("KKKK", "bomb", "K"),
    ("777+2", "trio_single", "7"),  # a 2 may be a kicker
    ("777+B", "trio_single", "7"),  # so may one joker
    ("777+22", "trio_pair", "7"),
    ("333444+2R", "plane_single", "4"),
    ("333444+22", "plane_single", "4"),
    # seed 001: the four constraints
    ("444455", "four_two_single", "4"),
    ("44445566", "four_two_pair", "4"),
    ("333444555666", "plane", "6"),  # four trios, not three with 666 as kickers
    ("555566", "four_two_single", "5"),
    ("3456789TJQKA", "straight", "A"),  # the longest classic straight
    ("2222", "bomb", "2"),
    ("222+B", "trio_single", "2"),
    ("QQQKKKAAA+22B", "plane_single", "A"),
    ("34567", "straight", "7"),
]


@pytest.mark.parametrize("text,kind,main", VALID)
def test_valid_plays(text, kind, main):
    combo = classify(text)
    assert combo.kind == kind
    assert combo.kind.value == kind
    assert combo.main.symbol == dizhu.parse_cards(main)[0].rank.symbol
    assert str(combo) == dizhu.format_cards(text)


INVALID = [
    # RULES.md §2 constraints
    ("A2345", "chain_two_or_joker"),
    ("JQKA2", "chain_two_or_joker"),
    ("KKK+AAA+222", "chain_two_or_joker"),
    ("89TJK", "chain_gap"),
    ("8 9 10 J K", "chain_gap"),
    ("333555", "chain_gap"),
    ("333+555+7+8", "chain_gap"),
    ("6666+BR", "both_jokers_as_kickers"),
    ("333444+BR", "both_jokers_as_kickers"),
    ("333+BR", "both_jokers_as_kickers"),
    ("33334444", "four_split"),
    ("6666+7777", "four_split"),
    ("3334445555", "four_split"),
    # seeds: mistakes players make
    ("3344", "pair_chain_too_short"),
    ("3355", "pair_chain_too_short"),
    ("QQKKAA22", "chain_two_or_joker"),
    ("TJQKAB", "chain_two_or_joker"),
    ("TJQKA2", "chain_two_or_joker"),
    ("345", "straight_too_short"),
    ("3456", "straight_too_short"),
    ("34", "not_a_pair"),
    ("BR3", "rocket_not_alone"),
    ("BR33", "rocket_not_alone"),
    ("777+AK", "trio_kicker"),
    ("777+345", "trio_kicker"),
    ("333444+5", "plane_kickers_short", {"trios": 2, "kickers": 1}),
    ("333444555+67", "plane_kickers_short", {"trios": 3, "kickers": 2}),
    ("333444+567", "plane_kickers_excess", {"trios": 2, "kickers": 3}),
    ("333444+55+6+7", "plane_pair_kickers"),
    ("333444+55667", "plane_kickers_excess", {"trios": 2, "kickers": 5}),
    ("333444555+777", "kicker_rank_limit"),
    ("333444+4+5", "kicker_same_rank"),
    ("333444555+5+6+7", "kicker_same_rank"),
    ("6666+7", "four_two_kickers"),
    ("6666+345", "four_two_kickers"),
    ("6666+33+4+5", "four_two_kickers"),
    ("6666+3+4+5+7", "four_two_kickers"),
    ("3344556", "unrelated_cards"),
    ("357", "unrelated_cards"),
    ("", "empty"),
]


@pytest.mark.parametrize("case", INVALID, ids=[c[0] or "empty" for c in INVALID])
def test_invalid_plays(case):
    text, reason = case[0], case[1]
    with pytest.raises(InvalidPlay) as info:
        classify(text)
    assert info.value.reason == reason
    assert isinstance(info.value, ValueError)
    assert str(info.value)  # a plain-words message
    if len(case) == 3:
        assert info.value.params == case[2]


def test_every_reason_code_has_a_message_and_is_reachable():
    from dizhu.errors import PLAY_REASONS

    reached = {case[1] for case in INVALID} | {"not_in_deck"}
    assert reached == set(PLAY_REASONS)
    assert PLAY_REASONS <= set(dizhu.REASONS)


def test_duel_deck_has_no_threes_or_fours():
    with pytest.raises(InvalidPlay) as info:
        classify("34567", variant="duel")
    assert info.value.reason == "not_in_deck"
    assert classify("56789", variant="duel").kind == Kind.STRAIGHT
    assert classify("56789TJQKA", variant="duel").kind == Kind.STRAIGHT  # longest duel straight
    assert classify("555666+77", variant="duel").kind == Kind.PLANE_SINGLE


BEATS = [
    # RULES.md §3
    ("KKK+3", "QQQ+R", True),
    ("999+33", "888+AA", True),
    ("456789", "34567", False),
    ("33445566", "334455", False),
    ("888", "777+A", False),
    ("777+A", "666+AA", False),
    ("888+AA", "777+A", False),
    ("9TJQK", "333+44", False),
    ("3333", "TJQKA", True),
    ("3333", "6666+3399", True),
    ("KKKK", "QQQQ", True),
    ("QQQQ", "KKKK", False),
    ("BR", "2222", True),
    ("BR", "3", True),
    ("2222", "BR", False),
    ("6666+39", "5555", False),
    ("5555", "6666+39", True),
    ("6666+3399", "5555+3399", True),
    ("A", "A", False),
    ("777+A", "777+K", False),
    # seeds
    ("A", "K", True),
    ("KK", "QQ", True),
    ("888", "777", True),
    ("R", "B", True),
    ("B", "R", False),
    ("888+3", "777+A", True),
    ("888+33", "777+AA", True),
    ("45678", "34567", True),
    ("445566", "334455", True),
    ("444555", "333444", True),
    ("AA", "K", False),
    ("555566", "444433", True),
    ("444555+3K", "333444+AA", True),  # kickers never count
    ("444555+66", "333444+5588", False),
    ("2", "A", True),
    ("B", "2", True),
    ("34567", "3", False),
]


@pytest.mark.parametrize("new,previous,expected", BEATS)
def test_beats(new, previous, expected):
    assert beats(classify(new), classify(previous)) is expected
    assert beats(new, previous) is expected


def test_four_of_a_rank_need_not_be_played_together():
    moves = {str(m) for m in legal_moves("33334")}
    assert {"3334", "33", "3", "3333"} <= moves
    assert "33334" not in moves


def test_suits_do_not_matter():
    a = classify([dizhu.Card(dizhu.Rank.ACE, dizhu.Suit.SPADES)])
    b = classify([dizhu.Card(dizhu.Rank.ACE, dizhu.Suit.HEARTS)])
    assert a == b and not beats(a, b) and not beats(b, a)
