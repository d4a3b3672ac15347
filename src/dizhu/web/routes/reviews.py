"""A finished round's review (docs/REVIEW.md): ``POST`` starts it, ``GET`` reads how far it has got."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.responses import Response

from ..deps import Client, Game, RoundNumber, Service
from ..schemas import ErrorBody, ReviewAnswer
from .responses import READ_ERRORS, errors, reply

__all__ = ["router"]

router = APIRouter(tags=["games"])

_REVIEW_ERRORS = {**READ_ERRORS, **errors(409, 429),
                  503: {"model": ErrorBody, "description": "The review failed (`review_failed`): ask again."},
                  202: {"model": ReviewAnswer, "description": "Being computed."}}


@router.post("/api/games/{game_id}/rounds/{number}/review", response_model=ReviewAnswer, responses=_REVIEW_ERRORS)
async def start_review(service: Service, game: Game, number: RoundNumber, client: Client) -> Response:
    """Start the review of a finished round (docs/REVIEW.md), or say how far it has got."""
    return reply(await service.review(game, number, client, start=True))


@router.get("/api/games/{game_id}/rounds/{number}/review", response_model=ReviewAnswer, responses=_REVIEW_ERRORS)
async def read_review(service: Service, game: Game, number: RoundNumber, client: Client) -> Response:
    """The review of a finished round: its progress while computed, then the decisions graded."""
    return reply(await service.review(game, number, client))
