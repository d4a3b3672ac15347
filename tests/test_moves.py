"""Legal-move generation: properties against brute force, and known counts."""

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dizhu import CLASSIC, DUEL, classify, legal_moves, parse_cards
from dizhu.cards import NUM_RANKS, Hand, hand_from_counts
from dizhu.combos import Kind, beats
from dizhu.moves import MAX_PLAY_SIZE, moves_from_counts, play_table

from conftest import brute_force_moves


def deck_cards(variant):
    return list(hand_from_counts(variant.deck_counts))


@st.composite
def hands(draw, variant, min_size=1, max_size=20):
    deck = deck_cards(variant)
    cards = draw(st.lists(st.sampled_from(deck), min_size=min_size, max_size=max_size, unique=True))
    return Hand(sorted(cards))


@st.composite
def situations(draw, variant):
    """A hand and, half the time, a previous play made from another hand."""
    hand = draw(hands(variant))
    previous = None
    if draw(st.booleans()):
        other = draw(hands(variant, min_size=1))
        previous = draw(st.sampled_from(legal_moves(other, variant=variant.name)))
    return hand, previous


def check_against_brute_force(hand, previous, variant):
    moves = legal_moves(hand, previous, variant=variant.name)
    keys = [m.key for m in moves]
    assert len(keys) == len(set(keys)), "a move is listed twice"
    for move in moves:
        assert classify(move, variant=variant.name) == move
        assert classify(hand_from_counts(move.counts), variant=variant.name).kind is move.kind
        if previous is not None:
            assert beats(move, previous)
    expected = brute_force_moves(hand.counts, previous)
    assert set(keys) == set(expected)


@pytest.mark.parametrize("variant", [CLASSIC, DUEL], ids=["classic", "duel"])
@given(data=st.data())
def test_moves_equal_brute_force(variant, data):
    hand, previous = data.draw(situations(variant))
    check_against_brute_force(hand, previous, variant)


@pytest.mark.slow
@pytest.mark.parametrize("variant", [CLASSIC, DUEL], ids=["classic", "duel"])
@given(data=st.data())
def test_replies_to_kicker_plays_equal_brute_force(variant, data):
    # Random previous plays are rarely planes with kickers; ask for them.
    hand = data.draw(hands(variant, min_size=12))
    kinds = [Kind.PLANE_SINGLE, Kind.PLANE_PAIR, Kind.FOUR_TWO_SINGLE, Kind.FOUR_TWO_PAIR, Kind.TRIO_PAIR]
    pool = [m for m in play_table().values() if m.kind in kinds and m.size <= 12
            and not any(m.counts[r] for r in range(variant.lowest_rank))]
    previous = data.draw(st.sampled_from(pool))
    check_against_brute_force(hand, previous, variant)


# ---- the table of all plays against a enumeration written from the definitions


def plays_from_definitions(variant):
    """Every play of at most 20 cards, enumerated straight from RULES.md §2."""
    low = variant.lowest_rank
    ordinary = range(low, 13)  # 3(or 5)..2
    chain = range(low, 12)  # ..A
    jokers = (13, 14)
    allranks = list(ordinary) + list(jokers)
    plays = {}

    def add(kind, ranks):
        counts = [0] * NUM_RANKS
        for r in ranks:
            counts[r] += 1
        assert len(ranks) <= MAX_PLAY_SIZE
        key = sum(n << (3 * r) for r, n in enumerate(counts))
        assert key not in plays, (kind, ranks)
        plays[key] = kind

    def kickers(n, exclude, pairs):
        pool = [r for r in (ordinary if pairs else allranks) if r not in exclude]
        if pairs:
            for combo in itertools.combinations(pool, n):
                yield [r for r in combo for _ in range(2)]
        else:
            for combo in itertools.combinations_with_replacement(pool, n):
                if any(combo.count(r) > 2 for r in combo):
                    continue
                if any(combo.count(j) > 1 for j in jokers):
                    continue
                if 13 in combo and 14 in combo:
                    continue
                yield list(combo)

    for r in allranks:
        add("single", [r])
    for r in ordinary:
        add("pair", [r] * 2)
        add("trio", [r] * 3)
        add("bomb", [r] * 4)
        for k in kickers(1, {r}, False):
            add("trio_single", [r] * 3 + k)
        for k in kickers(1, {r}, True):
            add("trio_pair", [r] * 3 + k)
        for k in kickers(2, {r}, False):
            add("four_two_single", [r] * 4 + k)
        for k in kickers(2, {r}, True):
            add("four_two_pair", [r] * 4 + k)
    add("rocket", [13, 14])
    for bottom in chain:
        for top in chain:
            body = list(range(bottom, top + 1))
            n = len(body)
            if n >= 5:
                add("straight", body)
            if n >= 3 and 2 * n <= 20:
                add("pair_chain", body * 2)
            if n >= 2 and 3 * n <= 20:
                add("plane", body * 3)
            if n >= 2 and 4 * n <= 20:
                for k in kickers(n, set(body), False):
                    add("plane_single", body * 3 + k)
            if n >= 2 and 5 * n <= 20:
                for k in kickers(n, set(body), True):
                    add("plane_pair", body * 3 + k)
    return plays


@pytest.mark.parametrize("variant", [CLASSIC, DUEL], ids=["classic", "duel"])
def test_all_plays_match_the_definitions(variant):
    expected = plays_from_definitions(variant)
    table = play_table()
    deck = variant.deck_counts
    ours = {k: c for k, c in table.items() if all(n <= deck[r] for r, n in enumerate(c.counts))}
    assert set(ours) == set(expected)
    for key, combo in ours.items():
        assert combo.kind.value == expected[key]
    # and the lead from a full deck (capped at 20 cards) is the same set
    full = moves_from_counts(deck)
    assert {m.key for m in full if m.size <= 20} == set(expected)


def test_counts_of_all_plays():
    classic = plays_from_definitions(CLASSIC)
    by_kind = {}
    for kind in classic.values():
        by_kind[kind] = by_kind.get(kind, 0) + 1
    # Small kinds counted by hand: 15 singles, 13 pairs/trios/bombs, 1 rocket,
    # 13 x 14 trio_single, 13 x 12 trio_pair, straights of 5..12 in 3..A.
    assert by_kind["single"] == 15
    assert by_kind["pair"] == by_kind["trio"] == by_kind["bomb"] == 13
    assert by_kind["rocket"] == 1
    assert by_kind["trio_single"] == 13 * 14
    assert by_kind["trio_pair"] == 13 * 12
    assert by_kind["straight"] == sum(12 - n + 1 for n in range(5, 13))
    assert by_kind["pair_chain"] == sum(12 - n + 1 for n in range(3, 11))
    assert by_kind["plane"] == sum(12 - n + 1 for n in range(2, 7))


# ---- perft-style fixtures

FIXTURES = json.loads((Path(__file__).parent / "perft.json").read_text())


@pytest.mark.parametrize("case", FIXTURES, ids=[f"{c['hand']}|{c['previous']}" for c in FIXTURES])
def test_perft(case):
    moves = legal_moves(case["hand"], case["previous"], variant=case["variant"])
    assert len(moves) == case["count"]


def test_perft_small_cases_by_hand():
    # Counted by hand: 3 singles, 33, 333, 333+4, 333+5.
    assert sorted(str(m) for m in legal_moves("33345")) == [
        "3", "33", "333", "3334", "3335", "4", "5",
    ]
    # Replies to a pair chain: four chains of three pairs (the 4s count), the bomb, the rocket.
    assert sorted(str(m) for m in legal_moves("5566778899 4444 BR", "334455")) == [
        "4444", "445566", "556677", "667788", "778899", "BR",
    ]
    assert legal_moves("3456789TJQKA2", "BR") == []


def test_hand_inputs_are_equivalent():
    text = "3 4 5 6 7 7 7"
    as_text = legal_moves(text)
    as_hand = legal_moves(parse_cards(text))
    as_list = legal_moves(list(parse_cards(text)))
    assert [m.key for m in as_text] == [m.key for m in as_hand] == [m.key for m in as_list]


def test_variant_checks_the_hand():
    with pytest.raises(ValueError):
        legal_moves("34567", variant="duel")
    with pytest.raises(ValueError):
        legal_moves(parse_cards("34567"), variant="duel")


def test_tables_build_once_under_threads():
    import subprocess
    import sys

    # a fresh interpreter, so the tables are not built yet; eight threads ask at once
    code = (
        "import threading, dizhu.moves as m\n"
        "errors = []\n"
        "def go():\n"
        "    try:\n"
        "        m.legal_moves('333444555666777888BR')\n"
        "    except Exception as e:\n"
        "        errors.append(e)\n"
        "ts = [threading.Thread(target=go) for _ in range(8)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "assert not errors, errors\n"
        "assert len(m.play_table()) == 24639 and len(m._GROUPS) == 3 and len(m._CHAINS) == 3\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
