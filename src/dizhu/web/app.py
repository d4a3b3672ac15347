"""The FastAPI application: routes of docs/API.md, the UI's files, the plumbing.

``create_app(settings)`` builds a fresh application (each test gets its
own); the storage, the bot pool and the background jobs start with the
application's lifespan and stop with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import mimetypes
from typing import Annotated, Any, AsyncIterator, Optional

from fastapi import Body, Depends, FastAPI, Header, Path as PathParam, Query, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, BeforeValidator
from starlette.exceptions import HTTPException
from starlette.responses import Response

from ..moves import play_table
from .assets import UIAssets
from . import worker
from .botpool import BotRunner
from .errors import UI_ROUTE, ApiError, allowed_methods, install_handlers
from .logs import log_failure
from .guard import HostCheck, RequestBudget, allowed_host_names, client_key
from .middleware import BodyLimit, HeadAsGet, SafetyNet, SecurityHeaders, json_type
from .schemas import Act, Check, Created, CreateGame, ErrorBody, Health, Hint, HintRequest, ReviewAnswer, Rounds
from .schemas import RoundsQuery, Step, Verdict, View, ViewQuery, decimal_digits
from .schemas import Settings as SettingsBody
from .service import GameKey, GameService, Reply, check_key
from .database import open_database
from .puzzles import add_puzzle_routes
from .settings import Settings
from .store import AsyncStore

__all__ = ["create_app"]

log = logging.getLogger("dizhu.web")

# Module scripts are refused under `nosniff` unless served as JavaScript;
# some systems' MIME tables lack these.
for _type, _ext in (("text/javascript", ".js"), ("text/javascript", ".mjs"), ("text/css", ".css"),
                    ("image/svg+xml", ".svg"), ("application/manifest+json", ".webmanifest"),
                    ("font/woff2", ".woff2"), ("application/json", ".json")):
    mimetypes.add_type(_type, _ext)

_bearer = HTTPBearer(auto_error=False, description="The game's token from `POST /api/games`.")

_ERRORS = {
    400: "Malformed JSON (`malformed_json`).",
    401: "No token (`missing_token`).",
    403: "The token does not open this game (`wrong_token`).",
    404: "No such game (`unknown_game`).",
    409: "Stale `version` (`stale`), or another round / new game not allowed now.",
    413: "Body over 16 KiB (`body_too_large`).",
    415: "A body not sent as `Content-Type: application/json` (`unsupported_media_type`).",
    422: "Invalid request (`invalid_request`) or an action the rules refuse (the engine's reason code).",
    429: "The game is busy with another request (`busy`), this address (or all of them) has too many games "
         "waiting for the computers (`too_busy`), or a limit was reached (`too_many_requests`, "
         "`too_many_hints`, `too_many_rounds`, `too_many_reads`, `too_much_thinking`); `Retry-After` says "
         "when to try again.",
}
#: What any address may answer: the guards before the routes (guard.py).
_EVERY_ROUTE: dict[int | str, dict[str, Any]] = {
    421: {"model": ErrorBody, "description": "`Host` names no host this server answers for (`unknown_host`)."},
    429: {"model": ErrorBody, "description": "This client sent more requests than its budget "
                                             "(`too_many_requests`); `Retry-After` says when to try again."},
}
_CREATE_LIMITED = "Too many games created from this address (`too_many_games`, `Retry-After`)."


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorBody, "description": _ERRORS[code]} for code in codes}


_READ_ERRORS = _errors(401, 403, 404, 422)
_WRITE_ERRORS = _errors(400, 401, 403, 404, 409, 413, 415, 422, 429)


async def client_address(request: Request) -> str:
    """The client's key (guard.client_key) from its address: the connection's, or the forwarded
    one when the connection comes from a proxy named by ``--forwarded-allow-ips``."""
    return client_key(request.client.host if request.client else "", request.app.state.ipv6_prefix)


#: The address every per-client limit and the fair queue of the computers go by.
Client = Annotated[str, Depends(client_address)]
#: A finished round, by its `number` (the view's `round_number` while it is on the table).
RoundNumber = Annotated[int, PathParam(ge=1, le=2**31 - 1, description="The round's `number`."),
                        BeforeValidator(decimal_digits)]


# The dependencies are coroutines so that they run on the event loop: FastAPI sends a plain
# function to a thread, a round trip each request would pay for nothing.


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


def _reply(reply: Reply) -> Response:
    # No timing header: how long the computers took is nobody's business (pacing.py).
    return Response(reply.body, status_code=reply.status, media_type="application/json",
                    headers=reply.headers)


def create_app(settings: Settings | None = None, *, bots: BotRunner | None = None,
               pin_server: bool = False) -> FastAPI:
    """A new application.  ``bots`` replaces the bot pool (tests).  ``pin_server``: this process
    is the server's own (``dizhu serve``), and keeps to the cores the bot pool leaves it."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        database = open_database(settings)
        store = database.store
        app.state.creation_limit = database.creation_limit
        runner = bots or BotRunner(settings.workers, settings.bot_budget, settings.bot_timeout,
                                   quick_workers=settings.quick_workers, hint_workers=settings.hint_workers,
                                   think_share=settings.think_share, pin_cores=settings.pin_cores)
        cores = getattr(runner, "cores", None)
        if pin_server and cores is not None:
            worker.pin(cores["serve"])  # beside the hints, apart from the searches
        # The workers start while this process builds the engine's move tables (half a
        # second on first use: better now than in a player's first request).
        starting = asyncio.create_task(runner.start())
        await asyncio.to_thread(play_table)
        await starting
        worker.freeze_startup_objects()
        service = GameService(settings, store, runner, claims=database.claims)
        app.state.service = service
        jobs = [asyncio.create_task(_resume(service, database.resume_every)),
                asyncio.create_task(_prune_forever(service, settings)),
                asyncio.create_task(_maintain_forever(store))]
        try:
            yield
        finally:
            for job in jobs:
                job.cancel()
            await asyncio.gather(*jobs, return_exceptions=True)
            await service.reviews.close()
            runner.close()
            database.close()

    app = FastAPI(
        title="dizhu",
        version="1",
        summary="Play Dou Dizhu (Fight the Landlord) against computer players.",
        description="The contract is docs/API.md.  The human sits at seat 0.",
        docs_url=None,  # the interactive pages load scripts from a CDN; the CSP forbids that
        redoc_url=None,
        lifespan=lifespan,
        dependencies=[Depends(known_query), Depends(json_write)],
        responses=_EVERY_ROUTE,
    )
    install_handlers(app)
    app.state.ipv6_prefix = settings.ipv6_prefix
    # Added last = outermost: the security headers wrap even the 413 and 500 answers; a request
    # for another host or over its client's budget goes no further than the guards.
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(SafetyNet)
    app.add_middleware(HeadAsGet)
    app.add_middleware(HostCheck, names=allowed_host_names(settings.allowed_hosts, settings.host))
    app.add_middleware(RequestBudget, per_minute=settings.request_per_minute, burst=settings.request_burst,
                       ipv6_prefix=settings.ipv6_prefix)
    app.add_middleware(SecurityHeaders)

    @app.get("/api/health", response_model=Health, tags=["server"])
    async def health() -> dict[str, str]:
        """The server is up."""
        return {"status": "ok"}

    @app.post("/api/games", status_code=201, response_model=Created, tags=["games"],
              responses={**_errors(400, 413, 415, 422), 429: {"model": ErrorBody, "description": _CREATE_LIMITED}})
    async def create_game(request: Request, client: Client, service: Service,
                          body: Annotated[Optional[CreateGame], Body()] = None) -> Response:
        """Create a game: deal the first round and let the computers bid if they speak first."""
        service.check_room(client)  # a game refused for want of room must not spend the creation limit
        wait = await request.app.state.creation_limit.wait(client)
        if wait > 0:
            seconds = math.ceil(wait)
            raise ApiError(429, "too_many_games", f"too many new games from this address: try again in {seconds} s",
                           headers={"Retry-After": str(seconds)}, retry_after=seconds)
        return _reply(await service.create(body or CreateGame(), client))

    @app.get("/api/games/{game_id}", response_model=View, tags=["games"], responses=_READ_ERRORS)
    async def read_view(service: Service, game: Game, query: Annotated[ViewQuery, Query()]) -> Response:
        """The player's view, with the round's events from `since`."""
        return _reply(await service.view(game, query.since))

    @app.patch("/api/games/{game_id}", response_model=View, tags=["games"],
               responses=_errors(400, 401, 403, 404, 413, 415, 422))
    async def change_settings(service: Service, game: Game, body: SettingsBody) -> Response:
        """Change the game's settings (its language)."""
        return _reply(await service.set_language(game, body.language))

    @app.post("/api/games/{game_id}/act", response_model=View, tags=["play"], responses=_WRITE_ERRORS)
    async def act(service: Service, game: Game, body: Act, client: Client) -> Response:
        """The human acts; then the computers act until the human must act again or the round ends."""
        return _reply(await service.act(game, body, client))

    @app.post("/api/games/{game_id}/check", response_model=Verdict, tags=["play"],
              responses=_errors(400, 401, 403, 404, 413, 415, 422))
    async def check(service: Service, game: Game, body: Check) -> Response:
        """Whether an action would be accepted now, and if not why (the engine's reason); applies nothing."""
        return _reply(await service.check(game, body))

    @app.post("/api/games/{game_id}/hint", response_model=Hint, tags=["play"],
              responses=_errors(400, 401, 403, 404, 409, 413, 415, 422, 429))
    async def hint(service: Service, game: Game, client: Client,
                   body: Annotated[Optional[HintRequest], Body()] = None) -> Response:
        """A recommended action with its reason.  Applies nothing."""
        return _reply(await service.hint(game, client, body.version if body else None))

    @app.post("/api/games/{game_id}/autoplay", response_model=View, tags=["play"], responses=_WRITE_ERRORS)
    async def autoplay(service: Service, game: Game, body: Step, client: Client) -> Response:
        """The computer makes the human's next action (the hint's choice); then as after `act`."""
        return _reply(await service.autoplay(game, body, client))

    @app.post("/api/games/{game_id}/another-round", response_model=View, tags=["match"],
              responses=_WRITE_ERRORS)
    async def another_round(service: Service, game: Game, body: Step, client: Client) -> Response:
        """Deal the next round, keeping the totals (after a round is over, while the match is not)."""
        return _reply(await service.another_round(game, body, client))

    @app.post("/api/games/{game_id}/new-game", response_model=View, tags=["match"], responses=_WRITE_ERRORS)
    async def new_game(service: Service, game: Game, body: Step, client: Client) -> Response:
        """Abandon the round in progress (it scores nothing) and deal again."""
        return _reply(await service.new_game(game, body, client))

    @app.post("/api/games/{game_id}/new-match", response_model=View, tags=["match"], responses=_WRITE_ERRORS)
    async def new_match(service: Service, game: Game, body: Step, client: Client) -> Response:
        """Reset the totals to 0 and deal a new round."""
        return _reply(await service.new_match(game, body, client))

    @app.get("/api/games/{game_id}/rounds", response_model=Rounds, tags=["games"],
             responses={**_READ_ERRORS, **_errors(429), 304: {"description": "The page is unchanged "
                                                                   "(`If-None-Match` held its `ETag`)."}})
    async def rounds(
        service: Service,
        game: Game,
        query: Annotated[RoundsQuery, Query()],
        client: Client,
        if_none_match: Annotated[Optional[str], Header(max_length=1024)] = None,
    ) -> Response:
        """The finished rounds, oldest first, a page at a time, with deal codes and event logs for replay."""
        return _reply(await service.rounds(game, query.offset, query.limit, client, if_none_match))

    add_puzzle_routes(app)

    _review_errors = {**_READ_ERRORS, **_errors(409, 429),
                      503: {"model": ErrorBody, "description": "The review failed (`review_failed`): ask again."}}

    @app.post("/api/games/{game_id}/rounds/{number}/review", response_model=ReviewAnswer, tags=["games"],
              responses={**_review_errors, 202: {"model": ReviewAnswer, "description": "Being computed."}})
    async def start_review(service: Service, game: Game, number: RoundNumber, client: Client) -> Response:
        """Start the review of a finished round (docs/REVIEW.md), or say how far it has got."""
        return _reply(await service.review(game, number, client, start=True))

    @app.get("/api/games/{game_id}/rounds/{number}/review", response_model=ReviewAnswer, tags=["games"],
             responses={**_review_errors, 202: {"model": ReviewAnswer, "description": "Being computed."}})
    async def read_review(service: Service, game: Game, number: RoundNumber, client: Client) -> Response:
        """The review of a finished round: its progress while computed, then the decisions graded."""
        return _reply(await service.review(game, number, client))

    ui_files = UIAssets(settings.static_dir)

    # Last: anything else is a file of the UI (or a JSON 404).  A route, not a mount, so that a
    # wrong method on an API address is a 405 of that address.
    @app.api_route("/{path:path}", methods=["GET", "HEAD"], include_in_schema=False, name=UI_ROUTE)
    async def ui(request: Request, path: str) -> Response:
        if path.startswith("api/"):  # an API address, not a file: 405 if it exists, else 404
            raise HTTPException(status_code=405 if allowed_methods(request) else 404)
        try:
            return ui_files.response(path, request.headers.get("accept-encoding", ""),
                                     request.headers.get("if-none-match"), head=request.method == "HEAD")
        except OSError:  # a name the file system refuses is no file of ours
            raise HTTPException(status_code=404) from None

    return app


async def _resume(service: GameService, every: float | None) -> None:
    """Finish the computer turns a crash interrupted: at start-up, and every
    ``every`` seconds when other hosts (which may die) share the database."""
    while True:
        try:
            count = await service.resume_pending()
            if count:
                log.info("resumed %d games interrupted mid-turn", count)
        except Exception as exc:  # noqa: BLE001 - start-up must go on
            log_failure(log, "resuming interrupted games failed", exc)
        if every is None:
            return
        await asyncio.sleep(every)


async def _prune_forever(service: GameService, settings: Settings) -> None:
    while True:
        try:
            await service.prune()
        except Exception as exc:  # noqa: BLE001 - try again next time
            log_failure(log, "pruning old games failed", exc)
        await asyncio.sleep(settings.prune_every)


async def _maintain_forever(store: AsyncStore) -> None:
    while True:
        await asyncio.sleep(1.0)
        try:
            await store.maintain()
        except Exception as exc:  # noqa: BLE001 - try again in a second
            log_failure(log, "storage housekeeping failed", exc)
