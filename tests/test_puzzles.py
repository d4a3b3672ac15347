"""Every puzzle re-verified by the solver: a win against the best defence, as graded and solved."""

from __future__ import annotations

import pytest

from dizhu.puzzles import VARIANTS, get, load
from dizhu.puzzles.grade import LEVELS, MIN_MOVES, action_text, grade
from dizhu.solver import Solver


@pytest.mark.parametrize("variant", VARIANTS)
def test_at_least_sixty_puzzles_of_every_level(variant):
    puzzles = load(variant)
    assert len(puzzles) >= 60
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert {p.difficulty for p in puzzles} == {name for name, _ in LEVELS}
    assert all(get(p.id) is p for p in puzzles)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_puzzle_is_what_the_solver_says(variant):
    for puzzle in load(variant):
        solver = Solver()
        values = solver.move_values(puzzle.position)
        g = puzzle.grade
        assert max(v for _, v in values) == g.value > 0, puzzle.id
        assert sorted(action_text(m) for m, v in values if v > 0) == sorted(g.winning), puzzle.id
        assert MIN_MOVES <= len(values) == g.moves and len(g.winning) < g.moves, puzzle.id
        # the stored solution is legal and wins for the player's side, with the best score
        position = puzzle.position
        for seat, text in g.line:
            assert seat == position.to_act
            move = next(m for m in position.moves() if action_text(m) == text)
            position, winner = position.play(move)
        assert winner is not None and position.points(winner, puzzle.seat) == g.value, puzzle.id
        # and the grade is the grader's own (same figures, same level)
        assert grade(puzzle.position, solver) == g, puzzle.id
