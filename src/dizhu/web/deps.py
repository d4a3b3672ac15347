"""What the routes take from the request and the application: ``Annotated`` dependencies.

The objects made at start-up live in ``app.state`` (app.py); a route names the
one it needs by its alias (``Service``, ``CreationLimit``, ``UIFiles``), the
client's address (``Client``) and the game with its token (``Game``).  Two
checks here run before every route: the query's parameters and the JSON type
of a token-less write.
"""

from __future__ import annotations

from typing import Annotated, Optional

from fastapi import Depends, Path as PathParam, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, BeforeValidator

from .assets import UIAssets
from .database import CreationGate
from .errors import UI_ROUTE, ApiError
from .guard import client_key
from .middleware import json_type
from .schemas import decimal_digits
from .keys import GameKey, check_key
from .service import GameService

__all__ = ["Client", "CreationLimit", "Game", "RoundNumber", "Service", "UIFiles", "json_write", "known_query"]

# The dependencies are coroutines so that they run on the event loop: FastAPI sends a plain
# function to a thread, a round trip each request would pay for nothing.

_bearer = HTTPBearer(auto_error=False, description="The game's token from `POST /api/games`.")


async def client_address(request: Request) -> str:
    """The client's key (guard.client_key) from its address: the connection's, or the forwarded
    one when the connection comes from a proxy named by ``--forwarded-allow-ips``."""
    return client_key(request.client.host if request.client else "", request.app.state.ipv6_prefix)


#: The address every per-client limit and the fair queue of the computers go by.
Client = Annotated[str, Depends(client_address)]
#: A finished round, by its `number` (the view's `round_number` while it is on the table).
RoundNumber = Annotated[int, PathParam(ge=1, le=2**31 - 1, description="The round's `number`."),
                        BeforeValidator(decimal_digits)]


async def game_key(
    game_id: str,
    credentials: Annotated[Optional[HTTPAuthorizationCredentials], Security(_bearer)],
) -> GameKey:
    """The game of the address's ``{game_id}`` and the request's bearer token.  No token (401) or a
    malformed id (404) is refused here, before the body is read; the service compares the token."""
    key = GameKey(game_id, credentials.credentials if credentials is not None else None)
    check_key(key)
    return key


#: The game a ``/api/games/{game_id}...`` request names, with its token.
Game = Annotated[GameKey, Depends(game_key)]


async def game_service(request: Request) -> GameService:
    return request.app.state.service


#: The application's game service (made at start-up).
Service = Annotated[GameService, Depends(game_service)]


async def creation_limit(request: Request) -> CreationGate:
    return request.app.state.creation_limit


#: The limit on new games per address (on a shared database, shared by the hosts).
CreationLimit = Annotated[CreationGate, Depends(creation_limit)]


async def ui_assets(request: Request) -> UIAssets:
    return request.app.state.ui_files


#: The UI's files (made with the application).
UIFiles = Annotated[UIAssets, Depends(ui_assets)]


def _query_names(route: APIRoute) -> frozenset[str]:
    """The query parameters ``route`` takes (a model's fields count one by one)."""
    names: set[str] = set()
    pending = [route.dependant]
    while pending:
        dependant = pending.pop()
        pending.extend(dependant.dependencies)
        for param in dependant.query_params:
            model = param.field_info.annotation
            if isinstance(model, type) and issubclass(model, BaseModel):
                names.update(field.alias or name for name, field in model.model_fields.items())
            else:
                names.add(param.alias)
    return frozenset(names)


async def known_query(request: Request) -> None:
    """The API refuses a query parameter its address does not take, or one given twice, as it
    refuses an unknown field (``422 invalid_request``); the UI's pages take any."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or route.name == UI_ROUTE or not request.url.query:
        return
    allowed = _QUERY_NAMES.get(route.unique_id)
    if allowed is None:
        allowed = _QUERY_NAMES[route.unique_id] = _query_names(route)
    keys = [key for key, _ in request.query_params.multi_items()]
    errors = [{"type": "extra_forbidden", "loc": ("query", key), "msg": "not a parameter of this address"}
              for key in dict.fromkeys(keys) if key not in allowed]
    errors += [{"type": "repeated", "loc": ("query", key), "msg": "given more than once"}
               for key in dict.fromkeys(keys) if key in allowed and keys.count(key) > 1]
    if errors:
        raise RequestValidationError(errors)


_QUERY_NAMES: dict[str, frozenset[str]] = {}  # (routes do not hash)


async def json_write(request: Request) -> None:
    """A write without a body must still say JSON, unless it shows a token (``415
    unsupported_media_type``): either is what another site's page cannot make a browser send
    without asking first, which this server never allows, so no page elsewhere can create games
    in a player's name (a body sent as anything but JSON is refused before, middleware.BodyLimit)."""
    if request.method in ("GET", "HEAD", "OPTIONS") or "game_id" in request.path_params:
        return  # (a game's addresses answer 401 without a token)
    headers = request.headers
    bearer = headers.get("authorization", "")[:7].lower() == "bearer "  # (a browser adds Basic credentials itself)
    if not json_type(headers.get("content-type", "").encode("latin-1")) and not bearer:
        raise ApiError(415, "unsupported_media_type",
                       "send the request as Content-Type: application/json (a request without a body too)")
