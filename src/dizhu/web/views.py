"""The player's view of a game (the API's ``View``).

Built only from ``round.observation(HUMAN)`` and the round's public events,
never from the stored state: the hidden cards cannot reach a reply because
nothing here can see them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game import Match
from ..variants import get_variant
from .store import GameRecord

__all__ = ["HUMAN", "Snapshot", "snapshot", "render", "seats"]

#: The human always sits at seat 0.
HUMAN = 0


@dataclass(frozen=True)
class Snapshot:
    """Everything public about a match at one version, ready to render."""

    version: int
    round_number: int
    match_round: int
    totals: list[int]
    target: int | None
    match_over: bool
    winners: list[int]
    observation: dict[str, Any]
    events: list[dict[str, Any]]
    known_deal: bool = False


def snapshot(match: Match, version: int) -> Snapshot:
    """The human's knowledge of ``match`` now."""
    round_ = match.round
    return Snapshot(
        version=version,
        round_number=match.round_number,
        match_round=match.match_round,
        totals=list(match.totals),
        target=match.target,
        match_over=match.over,
        winners=list(match.winners),
        observation=round_.observation(HUMAN),
        events=round_.events,  # new dicts each time: later moves do not reach this snapshot
        known_deal=match.known_deal,
    )


def seats(variant_players: int, level: str) -> list[dict[str, Any]]:
    return [{"seat": HUMAN, "kind": "human"}] + [
        {"seat": s, "kind": "computer", "level": level} for s in range(1, variant_players)
    ]


def render(record: GameRecord, snap: Snapshot, since: int = 0) -> dict[str, Any]:
    """The ``View`` of docs/API.md, with the events from index ``since``."""
    return {
        "game_id": record.game_id,
        "version": snap.version,
        "variant": record.variant,
        "rules": get_variant(record.variant).describe(),
        "level": record.level,
        "language": record.language,
        "human_seat": HUMAN,
        "seats": seats(snap.observation["players"], record.level),
        "round_number": snap.round_number,
        "match_round": snap.match_round,
        "totals": snap.totals,
        "target": snap.target,
        "match_over": snap.match_over,
        "winners": snap.winners,
        "observation": snap.observation,
        "events": snap.events[since:],
        "event_count": len(snap.events),
        "known_deal": snap.known_deal,
    }
