"""Every puzzle re-verified by the solver: a win against the best defence, as graded and solved."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import dizhu.puzzles
from dizhu.errors import DizhuError
from dizhu.puzzles import VARIANTS, get, load
from dizhu.puzzles.grade import LEVELS, MIN_MOVES, action_text, grade
from dizhu.puzzles.play import PuzzleOver, hint, replay, solution, verdict
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


def test_the_puzzles_are_played_without_the_server():
    """Puzzle play is the engine's (dizhu.puzzles.play); the server only carries it over HTTP."""
    package = Path(dizhu.puzzles.__file__).parent
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                target = "dizhu.puzzles".rsplit(".", node.level - 1)[0] if node.level else ""
                target = ".".join(filter(None, (target, node.module or "")))
            elif isinstance(node, ast.Import):
                target = " ".join(alias.name for alias in node.names)
            else:
                continue
            assert "dizhu.web" not in target, (path.name, target)


@pytest.mark.parametrize("puzzle_id", ["duel-001", next(p.id for p in load("classic") if p.partner is not None)])
def test_following_the_hints_solves_the_puzzle_and_then_nothing_more_is_taken(puzzle_id):
    puzzle = get(puzzle_id)
    moves: list[str] = []
    state = replay(puzzle, moves)
    while state["status"] == "playing":
        assert state["to_act"] == puzzle.seat and verdict(puzzle, moves, state["legal_actions"][0]) is None
        moves.append(hint(puzzle, moves))
        state = replay(puzzle, moves)
    assert state["status"] == "solved" and state["points"] == puzzle.grade.value == state["best"]
    assert state["moves"] == moves and state["legal_actions"] == [] and state["partner"] == puzzle.partner
    assert solution(puzzle, moves)["from_here"] is None
    for over in (lambda: replay(puzzle, moves + ["pass"]), lambda: hint(puzzle, moves),
                 lambda: verdict(puzzle, moves, "pass")):
        with pytest.raises(PuzzleOver) as caught:
            over()
        assert caught.value.status == "solved"


def test_a_losing_move_fails_with_the_winning_moves_missed_and_the_refutation():
    puzzle = get("duel-001")
    losing = next(a for a in replay(puzzle, [])["legal_actions"] if a not in puzzle.grade.winning)
    assert verdict(puzzle, [], losing) is None  # legal, only not winning
    state = replay(puzzle, [losing])
    assert state["status"] == "failed" and sorted(state["missed"]) == sorted(puzzle.grade.winning)
    assert state["refutation"] and state["refutation"][-1][0] != puzzle.seat
    assert verdict(puzzle, [], "play 3Z").reason == "malformed_action"
    with pytest.raises(DizhuError):
        replay(puzzle, ["bid 3"])
