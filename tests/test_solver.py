"""The exact solver (dizhu.solver): against a plain minimax, on points, and inside super-hard."""

from __future__ import annotations

import random
import time

import pytest

import dizhu
from dizhu import CLASSIC, DUEL, Round
from dizhu.bots.search import search_move
from dizhu.bots.view import View
from dizhu.cards import NUM_RANKS, format_counts
from dizhu.solver import Position, Solver, SolveTimeout, solve

from play_parity import minimax


def random_position(rng: random.Random, size: int) -> Position:
    variant = rng.choice([CLASSIC, DUEL])
    deck = [r for r in range(NUM_RANKS) for _ in range(variant.deck_counts[r])]
    rng.shuffle(deck)
    hands = []
    for _ in range(variant.players):
        counts = [0] * NUM_RANKS
        for r in deck[: rng.randint(1, size)]:
            counts[r] += 1
        del deck[: sum(counts)]
        hands.append(tuple(counts))
    p = Position(variant, tuple(hands), landlord=rng.randrange(variant.players),
                 to_act=rng.randrange(variant.players),
                 plays_made=tuple(rng.choice([0, 1, 2, 3]) for _ in hands),
                 doublings=rng.choice([0, 1]), handicap=rng.randint(0, 2) if variant is DUEL else 0)
    for _ in range(rng.randint(0, 2)):  # sometimes a trick in progress
        child, winner = p.play(rng.choice(p.moves()))
        if winner is not None:
            break
        p = child
    return p


@pytest.mark.slow
def test_the_solver_agrees_with_plain_minimax_on_random_endgames():
    rng = random.Random(13)
    for _ in range(250):
        p = random_position(rng, 4)
        expected = minimax(p)
        s = solve(p, all_moves=True)
        assert s.value == expected, p
        assert dict((m, v) for m, v in s.moves)[s.best[0]] == expected
        # the principal line is legal and ends with that score
        q = p
        for seat, move in s.line:
            assert seat == q.to_act and move in q.moves()
            q, winner = q.play(move)
        assert q.points(winner, p.to_act) == s.value


def test_bombs_and_spring_count_and_partners_play_as_a_team():
    # the landlord plays 2, then its bomb: spring (no farmer played) and a bomb, 4 points;
    # shedding 333+2 at once is a win of only 2 (spring, no bomb)
    p = Position.of("classic", ["3333 2", "4", "5"], landlord=0, to_act=0, plays_made=(1, 0, 0))
    s = solve(p, all_moves=True)
    assert s.value == 4 and sorted(map(str, s.best)) == ["2", "3333"]
    assert dict((str(m), v) for m, v in s.moves)["3332"] == 2
    # farmer 1 holds a 3 only; its partner's 2 wins: passing on the partner is right,
    # beating it with nothing is impossible, and the landlord's 5 loses to the 2
    p = Position.of("classic", ["5 6", "3", "2"], landlord=0, to_act=0)
    assert solve(p).value == -1
    # doublings made before count in the value
    assert solve(Position.of("classic", ["33", "4", "5"], landlord=0, to_act=0, doublings=2)).value == 4


def test_duel_farmer_wins_at_the_handicap_line():
    p = Position.of("duel", ["22", "55 6"], landlord=0, to_act=1, handicap=1)
    assert solve(p).value == 1  # the pair 55 leaves one card: the handicap line
    p = Position.of("duel", ["22", "55 6"], landlord=0, to_act=1, handicap=0)
    assert solve(p).value == -1


def test_position_from_a_round_and_the_deadline():
    r = Round.deal("classic", seed="solve-from-round")
    r.apply(r.to_act, "bid 3")
    p = Position.from_round(r)
    assert p.landlord == r.landlord and p.to_act == r.to_act and p.cards == 54
    assert [format_counts(h) for h in p.hands] == [format_counts(h.counts) for h in r.all_hands()]
    with pytest.raises(SolveTimeout):
        solve(p, deadline=time.monotonic() + 0.05)
    with pytest.raises(ValueError):
        Position.from_round(Round.deal("classic", seed="solve-bidding"))


def test_a_reused_table_gives_the_same_values():
    rng = random.Random(5)
    solver = Solver()
    for _ in range(40):
        p = random_position(rng, 4)
        assert solver.value(p) == solve(p).value
        assert solver.wins(p) == (solve(p).value > 0)


def test_super_hard_counts_points_in_its_exact_endgame():
    """With 7 cards left super-hard solves each world: it must prefer the bomb line (4 points with
    the spring) to shedding 333+2 at once (2 points); the old win/loss solver saw no difference."""
    deck = list(CLASSIC.deck_counts)
    hand = dizhu.parse_cards("3333 2").counts
    farmers = dizhu.parse_cards("4 5").counts
    played = [deck[r] - hand[r] - farmers[r] for r in range(NUM_RANKS)]
    obs = {
        "variant": "classic", "seat": 0, "players": 3, "phase": "playing", "to_act": 0,
        "hand": format_counts(hand), "cards_left": [5, 1, 1], "landlord": 0, "bottom": None,
        "history": [], "bids": [], "played": format_counts(played), "trick": {"last": None, "passes": 0},
        "plays_made": [1, 0, 0], "multiplier": {"bombs": 0, "rockets": 0}, "handicap": None,
        "legal_actions": [f"play {m}" for m in dizhu.legal_moves("3333 2")],
    }
    decision = search_move(View.of(obs), random.Random(1))
    assert decision.action in ("play 2", "play 3333")


def test_a_position_takes_the_variants_name_and_refuses_a_seat_that_is_not_there():
    from dizhu.solver import Position

    p = Position("classic", ((0,) * 15,) * 3, landlord=0, to_act=0)
    assert p.variant.name == "classic"
    for bad in ({"landlord": 3, "to_act": 0}, {"landlord": 0, "to_act": -1}):
        with pytest.raises(ValueError, match="must be a seat"):
            Position.of("classic", ["3", "4", "5"], **bad)


def test_the_solver_function_and_its_module_have_names_of_their_own():
    """``dizhu.solve`` is the function and ``dizhu.solver`` its module. (The module was named
    ``solve``: after ``import dizhu.solve``, ``dizhu.solve.Solver`` failed, the name being the function's.)"""
    import importlib

    module = importlib.import_module("dizhu.solver")
    assert dizhu.solve is module.solve and callable(dizhu.solve)
    assert "solve" in dizhu.__all__ and dizhu.Position is module.Position
    assert dizhu.solve(Position.of("classic", ["33", "4", "5"], landlord=0, to_act=0)).value == 1
