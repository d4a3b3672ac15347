"""The one play state (dizhu.game.play) against the round, the compiled kernel and the solver.

benchmarks/parity.py runs the same drivers over millions of steps."""

from __future__ import annotations

import random

import pytest

from dizhu import Round
from dizhu.bots.styles import compiled
from dizhu.cards import parse_cards
from dizhu.combos import classify
from dizhu.game.play import PlayState

from play_parity import against_round, compiled_against_round, solver_against_state

VARIANTS = ("classic", "duel")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_play_state_moves_with_the_round(variant):
    rng = random.Random(f"state-{variant}")
    assert sum(against_round(variant, f"state-{variant}-{n}", rng) for n in range(40)) > 1000


@pytest.mark.skipif(compiled() is None, reason="the compiled kernel is not built")
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_compiled_play_state_moves_with_the_round(variant):
    rng = random.Random(f"kernel-{variant}")
    assert sum(compiled_against_round(variant, f"kernel-{variant}-{n}", rng) for n in range(80)) > 1000


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_solver_values_a_position_as_every_line_of_the_play_state_does(variant):
    rng = random.Random(f"solver-{variant}")
    assert sum(solver_against_state(variant, f"solver-{variant}-{n}", rng) for n in range(40)) >= 20


def test_the_round_plays_through_its_play_state():
    """Round has no second copy of the play phase: what it shows is its play state's."""
    round_ = Round.deal("classic", seed="one state")
    assert round_.play_state is None  # bidding: no play phase yet
    while round_.phase == "bidding":
        round_.apply(round_.to_act, round_.legal_actions()[-1])
    state = round_.play_state
    round_.apply(round_.to_act, round_.legal_actions()[0])
    assert state.last == round_.last_play and state.to_act == round_.to_act
    assert state.left == round_.cards_left
    assert [list(h.counts) for h in round_.all_hands()] == state.hands


def test_a_duel_farmer_wins_at_the_handicap_and_the_value_counts_bombs_and_spring():
    hands = [parse_cards(h).counts for h in ("3333 4", "5 6 7")]
    state = PlayState.opening("duel", hands, landlord=0, handicap=2)
    assert state.apply(classify("3333")) is None and state.doublings == 1
    assert state.apply(None) is None and state.to_act == 0 and state.last is None  # the trick is over
    assert state.apply(classify("4")) == 0
    assert state.spring(0) == "spring" and state.value(0, 0) == 4.0 and state.value(0, 1) == -4.0
    farmer = PlayState.opening("duel", hands, landlord=0, handicap=2)
    farmer.apply(classify("4"))
    assert farmer.apply(classify("5")) == 1  # two cards left: at the handicap the farmer has won
    assert farmer.spring(1) == "anti_spring" and farmer.value(1, 1) == 2.0


def test_a_copy_is_independent():
    state = PlayState.opening("classic", [parse_cards(h).counts for h in ("33 4", "5", "6")], landlord=0)
    copy = state.copy()
    copy.apply(classify("33"))
    assert state.hands[0][0] == 2 and state.to_act == 0 and state.last is None
    assert copy.hands[0][0] == 0 and copy.to_act == 1
