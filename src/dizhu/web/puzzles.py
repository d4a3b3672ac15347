"""Puzzle mode's routes: list, play, hint and solution (docs/API.md, "Puzzles").

The server keeps no state for a puzzle: a request names the puzzle and the
player's own moves so far, and the server replays them from the puzzle's
position, checking each with the engine's move generator and answering
every other seat with the exact solver (the defence, and in classic the
player's partner, play perfectly).  A move that lets the win slip ends the
puzzle as failed, with the defence's refutation.  Progress is kept by the
browser (see docs/UI.md), which only has to remember that list of moves.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Annotated, Any, Literal, Optional

from fastapi import FastAPI, Path, Query
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..cards import format_counts
from ..combos import Combo
from ..errors import DizhuError, IllegalAction
from ..game.actions import Action
from ..game.round import check_answer
from ..puzzles import Puzzle, get, load, VARIANTS
from ..puzzles.grade import LEVELS, action_text
from ..rules import same_side
from ..solver import Position, Solver
from .errors import ApiError, engine_error
from .schemas import ErrorBody, Verdict

__all__ = ["add_puzzle_routes", "replay"]

#: Puzzle ids as the tool writes them; anything else is no puzzle (404, never a lookup).
PUZZLE_ID = r"^(classic|duel)-[0-9]{3}$"
PuzzleId = Annotated[str, Path(pattern=PUZZLE_ID, description="A puzzle's id, e.g. `classic-001`.")]
#: No puzzle's line has more of the player's moves than this.
MAX_MOVES = 40


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Moves(_Strict):
    moves: list[Annotated[StrictStr, Field(min_length=1, max_length=80)]] = Field(
        default_factory=list, max_length=MAX_MOVES,
        description="The player's own actions so far, oldest first (`\"play 33\"`, `\"pass\"`).")


class MoveCheck(Moves):
    action: Annotated[StrictStr, Field(min_length=1, max_length=80)] = Field(
        description="The action to judge after the moves (`\"play 33\"`, `\"pass\"`).")


class PuzzleListQuery(BaseModel):
    variant: Optional[Literal["classic", "duel"]] = Field(default=None, description="Only this variant's.")
    difficulty: Optional[Literal["easy", "medium", "hard", "expert"]] = None


class PuzzleSummary(BaseModel):
    id: str
    variant: str
    difficulty: str
    score: float = Field(description="The difficulty score (docs/PUZZLES.md).")
    cards: int = Field(description="Cards in all hands at the start.")
    hand: int = Field(description="Cards in the player's hand at the start.")
    role: Literal["landlord", "farmer"] = Field(description="The player's role.")
    partner: bool = Field(description="Classic farmer puzzles: the solver plays the player's partner.")


class PuzzleList(BaseModel):
    puzzles: list[PuzzleSummary]
    levels: list[str] = Field(description="The difficulty levels, easiest first.")


class PuzzleState(BaseModel):
    id: str
    variant: str
    difficulty: str
    seat: int = Field(description="The player's seat.")
    landlord: int
    players: int
    partner: Optional[int] = Field(description="The partner's seat (played by the solver), or null.")
    handicap: int
    hands: list[str] = Field(description="Every hand now, face up, in card notation.")
    to_act: int
    trick: dict[str, Any] = Field(description="`last`: [seat, play] to beat or null; `passes` since.")
    history: list[list[Any]] = Field(description="[seat, action] from the puzzle's start.")
    moves: list[str] = Field(description="The player's moves accepted (send them back with the next move).")
    status: Literal["playing", "solved", "failed"]
    legal_actions: list[str] = Field(description="The player's legal actions when it is to act.")
    points: Optional[int] = Field(description="Points of the player's side at base 1 once the round is over.")
    best: int = Field(description="The most the player's side can get against the best defence.")
    refutation: Optional[list[list[Any]]] = Field(
        description="After a failing move: the defence's winning line from there, [seat, action].")
    missed: Optional[list[str]] = Field(description="After a failing move: the moves that would have won.")


class PuzzleHint(BaseModel):
    action: str = Field(description="A winning move for the player now (the solver's).")


class PuzzleSolution(BaseModel):
    from_start: list[list[Any]] = Field(description="A winning line from the puzzle's start, [seat, action].")
    from_here: Optional[list[list[Any]]] = Field(
        description="A winning line from the current position (null once the puzzle is over).")


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


def _puzzle(puzzle_id: str) -> Puzzle:
    puzzle = get(puzzle_id)
    if puzzle is None:
        raise ApiError(404, "unknown_puzzle", "there is no such puzzle")
    return puzzle


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


def _verdict(position: Position, text: str) -> dict[str, Any]:
    """Whether the player's action would be taken now, and if not the engine's reason."""
    try:
        _checked(position, text)
    except DizhuError as exc:
        return {"legal": False, "error": engine_error(exc).body()["error"]}
    return {"legal": True, "error": None}


def _over(status: str) -> ApiError:
    return ApiError(409, "puzzle_over", "the puzzle is over: no more moves are taken", puzzle_status=status)


def _line(steps) -> list[list[Any]]:
    return [[seat, action_text(move)] for seat, move in steps]


def replay(puzzle: Puzzle, moves: list[str]) -> dict[str, Any]:
    """The puzzle's state after the player's ``moves``, every other seat answered by the solver."""
    return _now(puzzle, moves)[0]


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
        raise _over(status)
    partner = next((s for s in range(position.variant.players)
                    if s != seat and same_side(s, seat, position.landlord)), None)
    return {
        "id": puzzle.id,
        "variant": puzzle.variant,
        "difficulty": puzzle.difficulty,
        "seat": seat,
        "landlord": position.landlord,
        "players": position.variant.players,
        "partner": partner,
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


def _now(puzzle: Puzzle, moves: list[str], then=None) -> tuple[dict[str, Any], Any]:
    """The state after ``moves`` and, while the puzzle is on, ``then(solver, position)``."""
    lock, solver = _solver(puzzle.id)
    with lock:
        state, position = _replay(puzzle, moves, solver)
        extra = then(solver, position) if then is not None and state["status"] == "playing" else None
    return state, extra


def _summary(puzzle: Puzzle) -> dict[str, Any]:
    p = puzzle.position
    partner = any(s != puzzle.seat and same_side(s, puzzle.seat, p.landlord) for s in range(p.variant.players))
    return {"id": puzzle.id, "variant": puzzle.variant, "difficulty": puzzle.difficulty, "score": puzzle.grade.score,
            "cards": p.cards, "hand": sum(p.hands[puzzle.seat]),
            "role": "landlord" if puzzle.seat == p.landlord else "farmer", "partner": partner}


def add_puzzle_routes(app: FastAPI) -> None:
    """Add the puzzle routes to ``app``, before its catch-all UI route.

    On the application itself rather than through a router, so that they are among
    ``app.routes``, where a 405's ``Allow`` header is looked up (errors.allowed_methods).
    """
    described = {400: "Malformed JSON (`malformed_json`).",
                 404: "No such puzzle (`unknown_puzzle`).",
                 409: "The puzzle is over (`puzzle_over`).",
                 413: "Body over 16 KiB (`body_too_large`).",
                 415: "A body not sent as `Content-Type: application/json` (`unsupported_media_type`).",
                 422: "Invalid request, or a move the rules refuse (the engine's reason)."}
    errors = {code: {"model": ErrorBody, "description": text} for code, text in described.items()}
    read_errors = {code: errors[code] for code in (404, 422)}

    @app.get("/api/puzzles", tags=["puzzles"], response_model=PuzzleList, responses={422: errors[422]})
    def list_puzzles(query: Annotated[PuzzleListQuery, Query()]) -> dict[str, Any]:
        """Every puzzle's summary, easiest first within each variant."""
        chosen = [query.variant] if query.variant else list(VARIANTS)
        puzzles = [_summary(p) for v in chosen for p in load(v)
                   if query.difficulty is None or p.difficulty == query.difficulty]
        return {"puzzles": puzzles, "levels": [name for name, _ in LEVELS]}

    @app.get("/api/puzzles/{puzzle_id}", tags=["puzzles"], response_model=PuzzleState, responses=read_errors)
    def start(puzzle_id: PuzzleId) -> dict[str, Any]:
        """The puzzle at its start (the solver moves first if the player is not to act)."""
        return replay(_puzzle(puzzle_id), [])

    @app.post("/api/puzzles/{puzzle_id}/play", tags=["puzzles"], response_model=PuzzleState, responses=errors)
    def play(puzzle_id: PuzzleId, body: Moves) -> dict[str, Any]:
        """Replay the player's moves (the last one new) and answer with the solver."""
        return replay(_puzzle(puzzle_id), body.moves)

    @app.post("/api/puzzles/{puzzle_id}/check", tags=["puzzles"], response_model=Verdict, responses=errors)
    def check(puzzle_id: PuzzleId, body: MoveCheck) -> dict[str, Any]:
        """Judge ``action`` after the moves without taking it: the engine's verdict in a
        200 answer (as a game's ``/check``), so the page explains a refusal in its words."""
        state, verdict = _now(_puzzle(puzzle_id), body.moves, lambda solver, position: _verdict(position, body.action))
        if state["status"] != "playing":
            raise _over(state["status"])
        return verdict

    @app.post("/api/puzzles/{puzzle_id}/hint", tags=["puzzles"], response_model=PuzzleHint, responses=errors)
    def hint(puzzle_id: PuzzleId, body: Moves) -> dict[str, Any]:
        """A winning move for the player now."""
        state, move = _now(_puzzle(puzzle_id), body.moves, lambda solver, position: solver.best_move(position)[0])
        if state["status"] != "playing":
            raise _over(state["status"])
        return {"action": action_text(move)}

    @app.post("/api/puzzles/{puzzle_id}/solution", tags=["puzzles"], response_model=PuzzleSolution, responses=errors)
    def solution(puzzle_id: PuzzleId, body: Moves) -> dict[str, Any]:
        """A winning line from the start, and from the current position while the puzzle is on."""
        puzzle = _puzzle(puzzle_id)
        _, here = _now(puzzle, body.moves, lambda solver, position: _line(solver.line(position)))
        return {"from_start": [list(step) for step in puzzle.grade.line], "from_here": here}

