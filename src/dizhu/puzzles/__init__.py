"""Endgame puzzles (残局): positions the side to act wins against the best defence.

The puzzles are package data (``classic.json``, ``duel.json``) written by
``tools/make_puzzles.py`` and re-verified by the solver in the tests.

>>> p = get("classic-001")
>>> p.variant, p.grade.value > 0, p.position.to_act == p.seat
('classic', True, True)
>>> get("classic-999") is None
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ..cards import format_counts
from ..rules import same_side
from ..solver import Position
from .grade import Grade

__all__ = ["Puzzle", "load", "get", "VARIANTS"]

VARIANTS = ("classic", "duel")


@dataclass(frozen=True)
class Puzzle:
    """A puzzle: its position, where it came from, and the solver's figures."""

    id: str
    variant: str
    seed: str
    position: Position
    grade: Grade

    @property
    def seat(self) -> int:
        """The player's seat: the side to act at the start."""
        return self.position.to_act

    @property
    def difficulty(self) -> str:
        return self.grade.level

    @property
    def partner(self) -> int | None:
        """The seat on the player's side that the solver plays (classic farmer puzzles), or None."""
        p = self.position
        return next((s for s in range(p.variant.players) if s != self.seat and same_side(s, self.seat, p.landlord)),
                    None)

    def summary(self) -> dict[str, Any]:
        """What a list of puzzles shows of this one (docs/API.md, "Puzzles")."""
        p = self.position
        return {"id": self.id, "variant": self.variant, "difficulty": self.difficulty, "score": self.grade.score,
                "cards": p.cards, "hand": sum(p.hands[self.seat]),
                "role": "landlord" if self.seat == p.landlord else "farmer", "partner": self.partner is not None}

    def to_dict(self) -> dict[str, Any]:
        p, g = self.position, self.grade
        return {
            "id": self.id,
            "variant": self.variant,
            "seed": self.seed,
            "hands": [format_counts(h) for h in p.hands],
            "landlord": p.landlord,
            "to_act": p.to_act,
            "trick": {"last": None if p.last is None else [p.last[0], p.last[1].text], "passes": p.passes},
            "plays_made": list(p.plays_made),
            "doublings": p.doublings,
            "handicap": p.handicap,
            "value": g.value,
            "winning": list(g.winning),
            "moves": g.moves,
            "line": [list(step) for step in g.line],
            "own_moves": g.own_moves,
            "critical": g.critical,
            "traps": list(g.traps),
            "score": g.score,
            "difficulty": g.level,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Puzzle":
        last = d["trick"]["last"]
        position = Position.of(d["variant"], d["hands"], d["landlord"], d["to_act"],
                               None if last is None else (last[0], last[1]), d["trick"]["passes"],
                               d["plays_made"], d["doublings"], d["handicap"])
        grade = Grade(d["value"], tuple(d["winning"]), d["moves"], tuple((s, a) for s, a in d["line"]),
                      d["own_moves"], d["critical"], tuple(d["traps"]), d["score"])
        return cls(d["id"], d["variant"], d["seed"], position, grade)


@lru_cache(maxsize=None)
def load(variant: str) -> tuple[Puzzle, ...]:
    """Every puzzle of ``variant``, easiest first (as the tool wrote them)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    text = resources.files(__package__).joinpath(f"{variant}.json").read_text(encoding="utf-8")
    return tuple(Puzzle.from_dict(d) for d in json.loads(text)["puzzles"])


def get(puzzle_id: str) -> Puzzle | None:
    """The puzzle with this id, or None (ids are ``<variant>-<number>``)."""
    variant = puzzle_id.split("-", 1)[0] if isinstance(puzzle_id, str) else None
    if variant not in VARIANTS:
        return None
    return next((p for p in load(variant) if p.id == puzzle_id), None)
