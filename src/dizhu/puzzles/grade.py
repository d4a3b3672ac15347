"""Grading a puzzle from the solver's own figures.

A position is a puzzle when the side to act wins against the best defence
and the win takes finding: not every first move wins, and the winning line
needs at least two of the solver's side's own moves.  Its difficulty
score adds

* the player's *critical* moves in the principal line (where some legal
  move would lose the win), and half of all its own moves there (a longer
  plan is harder);
* four times the share of first moves that lose (few winning moves among
  many is harder to find);
* one and a half per *trap*: a losing first move that tempts — one of the
  longest leads (shedding most), a bomb or the rocket (doubling), or a play
  that nobody can beat at once (it takes the trick).

>>> from dizhu.solver import Position
>>> g = grade(Position.of("classic", ["222", "4", "5"], landlord=0, to_act=0))
>>> g is None   # every first move wins: no puzzle
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..combos import Combo
from ..rules import same_side
from ..solver import Position, Solver

__all__ = ["Grade", "grade", "action_text", "LEVELS", "level_of"]

#: Difficulty levels, easiest first, with the lowest score of each.
LEVELS = (("easy", 0.0), ("medium", 5.0), ("hard", 7.0), ("expert", 10.0))
#: Fewer legal first moves than this make no puzzle (beat it or pass is no question).
MIN_MOVES = 3


def level_of(score: float) -> str:
    """The level of a difficulty score.

    >>> level_of(4.9), level_of(5.0), level_of(12)
    ('easy', 'medium', 'expert')
    """
    name = LEVELS[0][0]
    for level, low in LEVELS:
        if score >= low:
            name = level
    return name


def action_text(move: Combo | None) -> str:
    """The engine's action text of a move: ``"play 33"`` or ``"pass"``."""
    return "pass" if move is None else f"play {move.text}"


@dataclass(frozen=True)
class Grade:
    """The solver's figures for a puzzle position."""

    value: int
    winning: tuple[str, ...]
    moves: int
    line: tuple[tuple[int, str], ...]
    #: The player's moves in the principal line, and those where a wrong move would lose.
    own_moves: int
    critical: int
    traps: tuple[str, ...]
    score: float

    @property
    def level(self) -> str:
        return level_of(self.score)


def _takes_the_trick(position: Position, move: Combo) -> bool:
    """Whether no opponent could beat ``move`` at once."""
    after, winner = position.play(move)
    if winner is not None:
        return True
    seat = position.to_act
    return not any(
        after.hands[s] and Position(after.variant, after.hands, after.landlord, s, (seat, move), 0,
                                    after.plays_made, after.doublings, after.handicap).moves()[1:]
        for s in range(position.variant.players) if not same_side(s, seat, position.landlord)
    )


def grade(position: Position, solver: Solver | None = None) -> Grade | None:
    """The figures of ``position`` as a puzzle, or None when it is none (lost, or won by any move)."""
    solver = solver or Solver()
    if not solver.wins(position):
        return None
    values = solver.move_values(position)
    value = max(v for _, v in values)
    winning = [m for m, v in values if v > 0]
    if value <= 0 or len(winning) == len(values):
        return None
    if len(values) < MIN_MOVES:
        return None
    line = tuple(solver.line(position))
    own = sum(1 for seat, _ in line if seat == position.to_act)
    critical = _critical(position, line, solver)
    if critical < 2:
        return None
    leading = position.last is None
    longest = max((m.size for m, _ in values if m is not None), default=0)
    traps = tuple(
        action_text(m) for m, v in values
        if v <= 0 and m is not None
        and ((leading and m.size == longest) or m.is_bomb or _takes_the_trick(position, m))
    )
    score = critical + own / 2 + 4 * (1 - len(winning) / len(values)) + 1.5 * len(traps)
    return Grade(value, tuple(action_text(m) for m in winning), len(values),
                 tuple((seat, action_text(m)) for seat, m in line), own, critical, traps, round(score, 2))


def _critical(position: Position, line, solver: Solver) -> int:
    """The player's moves along ``line`` where some legal move would lose the win."""
    side = position.to_act
    count = 0
    for seat, move in line:
        if seat == side and any(v <= 0 for _, v in solver.move_values(position)):
            count += 1
        position, _ = position.play(move)
    return count
