"""Playing a puzzle: the player's moves replayed, every other seat answered by the solver.

A puzzle's state is a function of the player's own moves so far: they are
replayed from the puzzle's position, each checked with the engine's move
generator, and every other seat answers with the exact solver (the defence,
and in classic farmer puzzles the player's partner, play perfectly).  A move
after which the player's side can no longer force the win ends the puzzle as
failed, with the defence's refutation.  So whoever keeps a puzzle's progress
keeps only that list of moves.

>>> from dizhu.puzzles import get
>>> p = get("classic-001")
>>> state = replay(p, [])
>>> state["status"], state["to_act"] == p.seat, hint(p, []) in state["legal_actions"]
('playing', True, True)
>>> verdict(p, [], "bid 3").reason
'not_bidding'
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, TypeVar

from ..cards import format_counts
from ..combos import Combo
from ..errors import DizhuError, IllegalAction
from ..game.actions import Action
from ..game.round import check_answer
from ..rules import same_side
from ..solver import Position, Solver
from . import Puzzle
from .grade import action_text

__all__ = ["PuzzleOver", "replay", "verdict", "hint", "solution"]

T = TypeVar("T")


class PuzzleOver(Exception):
    """Moves given, or a move asked for, after the puzzle ended (``status``: solved or failed)."""

    def __init__(self, status: str) -> None:
        super().__init__(f"the puzzle is over ({status})")
        self.status = status


# ---- solving, with one table per puzzle kept for a while (the same positions recur)

_SOLVERS: "OrderedDict[str, tuple[threading.Lock, Solver]]" = OrderedDict()
_SOLVERS_LOCK = threading.Lock()
#: Tables kept, and entries per table: a puzzle's tree is small, so this bounds memory, not speed.
_KEEP = 8
_ENTRIES = 50_000


def _solver(puzzle_id: str) -> tuple[threading.Lock, Solver]:
    with _SOLVERS_LOCK:
        entry = _SOLVERS.get(puzzle_id)
        if entry is None:
            entry = _SOLVERS[puzzle_id] = (threading.Lock(), Solver(max_entries=_ENTRIES))
            while len(_SOLVERS) > _KEEP:
                _SOLVERS.popitem(last=False)
        _SOLVERS.move_to_end(puzzle_id)
        return entry


def _checked(position: Position, text: str) -> Combo | None:
    """The player's action as a move, refused with the engine's reason when illegal.

    Legal means listed by the engine's move generator; the reason for a refusal is
    the engine's own, in :class:`dizhu.Round`'s order (the trick's answer first,
    then the cards held).
    """
    action = Action.parse(text, position.variant.name)
    if action.kind not in ("play", "pass"):
        raise IllegalAction("not_bidding")
    move = action.combo if action.kind == "play" else None
    if move in position.moves():
        return move
    if move is None:
        raise IllegalAction("must_lead")
    if position.last is not None:
        check_answer(move, position.last[1])
    # it answers the trick (or leads it) and is still not a legal move: the cards are not held
    raise IllegalAction("not_in_hand", cards=move.text)


def _line(steps) -> list[list[Any]]:
    return [[seat, action_text(move)] for seat, move in steps]


def _replay(puzzle: Puzzle, moves: list[str], solver: Solver) -> tuple[dict[str, Any], Position]:
    seat = puzzle.seat
    position = puzzle.position
    history: list[list[Any]] = []
    accepted: list[str] = []
    status, points, refutation, missed = "playing", None, None, None
    pending = list(moves)
    while True:
        mover = position.to_act
        if mover == seat:
            if not pending:
                break
            move = _checked(position, pending.pop(0))
            accepted.append(action_text(move))
        else:
            move, _ = solver.best_move(position)
        history.append([mover, action_text(move)])
        after, winner = position.play(move)
        if winner is not None:
            points = after.points(winner, seat)
            status = "solved" if points > 0 else "failed"
            position = after
            break
        if mover == seat:
            value = solver.value(after)
            if not same_side(after.to_act, seat, after.landlord):
                value = -value
            if value <= 0:
                status = "failed"
                missed = [action_text(m) for m, v in solver.move_values(position) if v > 0]
                refutation = _line(solver.line(after))
                position = after
                break
        position = after
    if pending:
        raise PuzzleOver(status)
    return {
        "id": puzzle.id,
        "variant": puzzle.variant,
        "difficulty": puzzle.difficulty,
        "seat": seat,
        "landlord": position.landlord,
        "players": position.variant.players,
        "partner": puzzle.partner,
        "handicap": position.handicap,
        "hands": [format_counts(h) for h in position.hands],
        "to_act": position.to_act,
        "trick": {"last": None if position.last is None else [position.last[0], position.last[1].text],
                  "passes": position.passes},
        "history": history,
        "moves": accepted,
        "status": status,
        "legal_actions": ([action_text(m) for m in position.moves()]
                          if status == "playing" and position.to_act == seat else []),
        "points": points,
        "best": puzzle.grade.value,
        "refutation": refutation,
        "missed": missed,
    }, position


def _now(puzzle: Puzzle, moves: list[str],
         then: Callable[[Solver, Position], T] | None = None) -> tuple[dict[str, Any], T | None]:
    """The state after ``moves`` and, while the puzzle is on, ``then(solver, position)``."""
    lock, solver = _solver(puzzle.id)
    with lock:
        state, position = _replay(puzzle, moves, solver)
        extra = then(solver, position) if then is not None and state["status"] == "playing" else None
    return state, extra


def replay(puzzle: Puzzle, moves: list[str]) -> dict[str, Any]:
    """The puzzle's state after the player's ``moves`` (docs/API.md, "Puzzles").

    A move the rules refuse raises the engine's :class:`~dizhu.errors.DizhuError`;
    moves left over once the puzzle is over raise :class:`PuzzleOver`.
    """
    return _now(puzzle, moves)[0]


def verdict(puzzle: Puzzle, moves: list[str], action: str) -> DizhuError | None:
    """Why the player's ``action`` would be refused after ``moves`` (None: it would be taken).
    Nothing is played; :class:`PuzzleOver` once the puzzle is over."""

    def judge(solver: Solver, position: Position) -> DizhuError | None:
        try:
            _checked(position, action)
        except DizhuError as exc:
            return exc
        return None

    state, refusal = _now(puzzle, moves, judge)
    if state["status"] != "playing":
        raise PuzzleOver(state["status"])
    return refusal


def hint(puzzle: Puzzle, moves: list[str]) -> str:
    """A winning move for the player after ``moves``; :class:`PuzzleOver` once the puzzle is over."""
    state, move = _now(puzzle, moves, lambda solver, position: solver.best_move(position)[0])
    if state["status"] != "playing":
        raise PuzzleOver(state["status"])
    return action_text(move)


def solution(puzzle: Puzzle, moves: list[str]) -> dict[str, Any]:
    """The stored winning line from the start, and one from the position after ``moves``
    while the puzzle is on (``from_here``: None once it is over)."""
    _, here = _now(puzzle, moves, lambda solver, position: _line(solver.line(position)))
    return {"from_start": [list(step) for step in puzzle.grade.line], "from_here": here}
