"""A game's own addresses: create, view, settings, play, new rounds and the finished rounds.

Each route hands its request to the game service (service.py) and sends its
answer as it is.
"""

from __future__ import annotations

import math
from typing import Annotated, Optional

from fastapi import APIRouter, Body, Header, Query
from starlette.responses import Response

from ..deps import Client, CreationLimit, Game, Service
from ..errors import ApiError
from ..schemas import Act, Check, Created, CreateGame, ErrorBody, Hint, HintRequest, Rounds, RoundsQuery, Step
from ..schemas import Settings as SettingsBody
from ..schemas import Verdict, View, ViewQuery
from .responses import READ_ERRORS, WRITE_ERRORS, errors, reply

__all__ = ["router"]

router = APIRouter()

_CREATE_LIMITED = "Too many games created from this address (`too_many_games`, `Retry-After`)."


@router.post("/api/games", status_code=201, response_model=Created, tags=["games"],
             responses={**errors(400, 413, 415, 422), 429: {"model": ErrorBody, "description": _CREATE_LIMITED}})
async def create_game(client: Client, service: Service, creation_limit: CreationLimit,
                      body: Annotated[Optional[CreateGame], Body()] = None) -> Response:
    """Create a game: deal the first round and let the computers bid if they speak first."""
    service.check_room(client)  # a game refused for want of room must not spend the creation limit
    wait = await creation_limit.wait(client)
    if wait > 0:
        seconds = math.ceil(wait)
        raise ApiError(429, "too_many_games", f"too many new games from this address: try again in {seconds} s",
                       headers={"Retry-After": str(seconds)}, retry_after=seconds)
    return reply(await service.create(body or CreateGame(), client))


@router.get("/api/games/{game_id}", response_model=View, tags=["games"], responses=READ_ERRORS)
async def read_view(service: Service, game: Game, query: Annotated[ViewQuery, Query()]) -> Response:
    """The player's view, with the round's events from `since`."""
    return reply(await service.view(game, query.since))


@router.patch("/api/games/{game_id}", response_model=View, tags=["games"],
              responses=errors(400, 401, 403, 404, 413, 415, 422))
async def change_settings(service: Service, game: Game, body: SettingsBody) -> Response:
    """Change the game's settings (its language)."""
    return reply(await service.set_language(game, body.language))


@router.post("/api/games/{game_id}/act", response_model=View, tags=["play"], responses=WRITE_ERRORS)
async def act(service: Service, game: Game, body: Act, client: Client) -> Response:
    """The human acts; then the computers act until the human must act again or the round ends."""
    return reply(await service.act(game, body, client))


@router.post("/api/games/{game_id}/check", response_model=Verdict, tags=["play"],
             responses=errors(400, 401, 403, 404, 413, 415, 422))
async def check(service: Service, game: Game, body: Check) -> Response:
    """Whether an action would be accepted now, and if not why (the engine's reason); applies nothing."""
    return reply(await service.check(game, body))


@router.post("/api/games/{game_id}/hint", response_model=Hint, tags=["play"],
             responses=errors(400, 401, 403, 404, 409, 413, 415, 422, 429))
async def hint(service: Service, game: Game, client: Client,
               body: Annotated[Optional[HintRequest], Body()] = None) -> Response:
    """A recommended action with its reason.  Applies nothing."""
    return reply(await service.hint(game, client, body.version if body else None))


@router.post("/api/games/{game_id}/autoplay", response_model=View, tags=["play"], responses=WRITE_ERRORS)
async def autoplay(service: Service, game: Game, body: Step, client: Client) -> Response:
    """The computer makes the human's next action (the hint's choice); then as after `act`."""
    return reply(await service.autoplay(game, body, client))


@router.post("/api/games/{game_id}/another-round", response_model=View, tags=["match"], responses=WRITE_ERRORS)
async def another_round(service: Service, game: Game, body: Step, client: Client) -> Response:
    """Deal the next round, keeping the totals (after a round is over, while the match is not)."""
    return reply(await service.another_round(game, body, client))


@router.post("/api/games/{game_id}/new-game", response_model=View, tags=["match"], responses=WRITE_ERRORS)
async def new_game(service: Service, game: Game, body: Step, client: Client) -> Response:
    """Abandon the round in progress (it scores nothing) and deal again."""
    return reply(await service.new_game(game, body, client))


@router.post("/api/games/{game_id}/new-match", response_model=View, tags=["match"], responses=WRITE_ERRORS)
async def new_match(service: Service, game: Game, body: Step, client: Client) -> Response:
    """Reset the totals to 0 and deal a new round."""
    return reply(await service.new_match(game, body, client))


@router.get("/api/games/{game_id}/rounds", response_model=Rounds, tags=["games"],
            responses={**READ_ERRORS, **errors(429), 304: {"description": "The page is unchanged "
                                                                "(`If-None-Match` held its `ETag`)."}})
async def rounds(
    service: Service,
    game: Game,
    query: Annotated[RoundsQuery, Query()],
    client: Client,
    if_none_match: Annotated[Optional[str], Header(max_length=1024)] = None,
) -> Response:
    """The finished rounds, oldest first, a page at a time, with deal codes and event logs for replay."""
    return reply(await service.rounds(game, query.offset, query.limit, client, if_none_match))
