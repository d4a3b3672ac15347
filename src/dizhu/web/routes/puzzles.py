"""Puzzle mode's addresses: list, play, check, hint and solution (docs/API.md, "Puzzles").

The server keeps no state for a puzzle: a request names the puzzle and the
player's own moves so far, which :mod:`dizhu.puzzles.play` replays (the
browser keeps that list, docs/UI.md).  The routes are plain functions: FastAPI
runs them in its threads, so the solver never holds up the event loop.
"""

from __future__ import annotations

import contextlib
from typing import Annotated, Any, Iterator, Literal, Optional

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ...puzzles import Puzzle, get, load, VARIANTS
from ...puzzles import play as puzzle_play
from ...puzzles.grade import LEVELS
from ...puzzles.play import PuzzleOver
from ..errors import ApiError, engine_error
from ..schemas import ErrorBody, Verdict

__all__ = ["router"]

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


_DESCRIBED = {400: "Malformed JSON (`malformed_json`).",
              404: "No such puzzle (`unknown_puzzle`).",
              409: "The puzzle is over (`puzzle_over`).",
              413: "Body over 16 KiB (`body_too_large`).",
              415: "A body not sent as `Content-Type: application/json` (`unsupported_media_type`).",
              422: "Invalid request, or a move the rules refuse (the engine's reason)."}
_ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody, "description": text}
                                            for code, text in _DESCRIBED.items()}
_READ_ERRORS = {code: _ERRORS[code] for code in (404, 422)}

router = APIRouter(tags=["puzzles"])


def _puzzle(puzzle_id: str) -> Puzzle:
    puzzle = get(puzzle_id)
    if puzzle is None:
        raise ApiError(404, "unknown_puzzle", "there is no such puzzle")
    return puzzle


@contextlib.contextmanager
def _until_over() -> Iterator[None]:
    """A move after the puzzle ended is ``409 puzzle_over`` (a move the rules refuse is the
    engine's error, answered by the application's handler)."""
    try:
        yield
    except PuzzleOver as over:
        raise ApiError(409, "puzzle_over", "the puzzle is over: no more moves are taken",
                       puzzle_status=over.status) from None


@router.get("/api/puzzles", response_model=PuzzleList, responses={422: _ERRORS[422]})
def list_puzzles(query: Annotated[PuzzleListQuery, Query()]) -> dict[str, Any]:
    """Every puzzle's summary, easiest first within each variant."""
    chosen = [query.variant] if query.variant else list(VARIANTS)
    puzzles = [p.summary() for v in chosen for p in load(v)
               if query.difficulty is None or p.difficulty == query.difficulty]
    return {"puzzles": puzzles, "levels": [name for name, _ in LEVELS]}


@router.get("/api/puzzles/{puzzle_id}", response_model=PuzzleState, responses=_READ_ERRORS)
def start(puzzle_id: PuzzleId) -> dict[str, Any]:
    """The puzzle at its start (the solver moves first if the player is not to act)."""
    return puzzle_play.replay(_puzzle(puzzle_id), [])


@router.post("/api/puzzles/{puzzle_id}/play", response_model=PuzzleState, responses=_ERRORS)
def play(puzzle_id: PuzzleId, body: Moves) -> dict[str, Any]:
    """Replay the player's moves (the last one new) and answer with the solver."""
    puzzle = _puzzle(puzzle_id)
    with _until_over():
        return puzzle_play.replay(puzzle, body.moves)


@router.post("/api/puzzles/{puzzle_id}/check", response_model=Verdict, responses=_ERRORS)
def check(puzzle_id: PuzzleId, body: MoveCheck) -> dict[str, Any]:
    """Judge ``action`` after the moves without taking it: the engine's verdict in a
    200 answer (as a game's ``/check``), so the page explains a refusal in its words."""
    puzzle = _puzzle(puzzle_id)
    with _until_over():
        refusal = puzzle_play.verdict(puzzle, body.moves, body.action)
    if refusal is not None:
        return {"legal": False, "error": engine_error(refusal).body()["error"]}
    return {"legal": True, "error": None}


@router.post("/api/puzzles/{puzzle_id}/hint", response_model=PuzzleHint, responses=_ERRORS)
def hint(puzzle_id: PuzzleId, body: Moves) -> dict[str, Any]:
    """A winning move for the player now."""
    puzzle = _puzzle(puzzle_id)
    with _until_over():
        return {"action": puzzle_play.hint(puzzle, body.moves)}


@router.post("/api/puzzles/{puzzle_id}/solution", response_model=PuzzleSolution, responses=_ERRORS)
def solution(puzzle_id: PuzzleId, body: Moves) -> dict[str, Any]:
    """A winning line from the start, and from the current position while the puzzle is on."""
    puzzle = _puzzle(puzzle_id)
    with _until_over():
        return puzzle_play.solution(puzzle, body.moves)
