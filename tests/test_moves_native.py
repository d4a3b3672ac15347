"""The compiled move generator (``dizhu._moves``) gives the Python generator's plays, in order.

``dizhu.moves`` runs the compiled one when it is built (``moves.NATIVE``); the Python one
(``moves._moves_python``) is the reference, and the perft fixtures (tests/test_moves.py) run on
whichever is active, so this suite checks both with them (tests/test_pure_python.py runs it in
pure Python).  ``tools/native_parity.py`` runs the comparison below on millions of positions.
"""

from __future__ import annotations


import pytest

from dizhu import _moves, moves
from dizhu.cards import parse_cards
from dizhu.combos import Kind, classify
from dizhu.variants import CLASSIC
from dizhu.native import pure_python_asked


def test_the_compiled_generator_runs_unless_pure_python_is_asked_for():
    assert moves.NATIVE is (not pure_python_asked())
    assert (moves._moves is moves._moves_native) is moves.NATIVE


def test_it_numbers_the_kinds_as_the_engine_does():
    assert _moves.KINDS == tuple(k.value for k in Kind)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_compiled_generator_agrees_with_python_on_seeded_positions(seed, native_parity):
    positions = list(native_parity.move_cases(12_000, seed))
    assert sum(p is None for _, p in positions) > 1000  # leads, and replies to every kind
    assert {p.kind for _, p in positions if p is not None} == set(Kind)
    assert [found for found in (native_parity.move_disagreement(h, p) for h, p in positions) if found] == []


@pytest.mark.parametrize("hand, previous", [
    ("3334445556", None),                 # planes, with single and pair kickers, trios with kickers
    ("33334444BR", None),                 # two bombs, the rocket, four with two of every kind
    ("5566778899TT", "334455"),           # pair chains of three beat a pair chain of three
    ("777888999J QKA", "333444 56"),      # a plane with two singles
    ("22 BR", "2222"),                    # only the rocket beats a bomb
    ("3456789TJQKA", "34567"),            # every straight of five above 3-7
    ("", None),
])
def test_hand_made_positions(hand, previous):
    counts = parse_cards(hand.replace(" ", "")).counts if hand else (0,) * 15
    prev = classify(previous) if previous else None
    assert moves._moves_native(counts, prev, _moves) == moves._moves_python(counts, prev)


def test_a_play_longer_than_any_hand_is_still_classified():
    # the whole deck leads plays of more than 20 cards: those are not in the table, and come from
    # the table's own classification (its __missing__), as in Python
    deck = CLASSIC.deck_counts
    assert [m.key for m in moves._moves_native(deck, None, _moves)] == [m.key for m in moves._moves_python(deck)]


@pytest.mark.parametrize("counts, message", [
    ((1,) * 14, "15 rank counts"),
    ((5,) + (0,) * 14, "0 to 4"),
    ((0,) * 13 + (2, 0), "0 to 1"),
    ((-1,) + (0,) * 14, "0 to 4"),
])
def test_bad_counts_are_refused_with_a_reason(counts, message):
    table = moves.play_table()
    with pytest.raises(ValueError, match=message):
        _moves.lead(table, counts)
    with pytest.raises(ValueError, match=message):
        _moves.reply(table, counts, 0, 0, 1)


def test_bad_plays_to_beat_are_refused():
    table = moves.play_table()
    with pytest.raises(ValueError, match="kind 14"):
        _moves.reply(table, (0,) * 15, 14, 0, 1)
    with pytest.raises(ValueError, match="main rank 15"):
        _moves.reply(table, (0,) * 15, 0, 15, 1)
    with pytest.raises(TypeError):
        _moves.lead({}, (0,) * 15, 3)
    with pytest.raises(TypeError):
        _moves.lead([], (0,) * 15)
