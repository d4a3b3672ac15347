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

from fastapi import Body, Depends, FastAPI, Header, Query, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.exceptions import HTTPException
from starlette.responses import Response

from ..moves import play_table
from .assets import UIAssets
from .botpool import BotRunner
from .errors import UI_ROUTE, ApiError, allowed_methods, install_handlers
from .logs import log_failure
from .middleware import BodyLimit, HeadAsGet, SafetyNet, SecurityHeaders
from .schemas import Act, Check, Created, CreateGame, ErrorBody, Health, Hint, HintRequest, Rounds
from .schemas import RoundsQuery, Step, Verdict, View, ViewQuery
from .schemas import Settings as SettingsBody
from .service import GameService, Reply
from .database import open_database
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
    422: "Invalid request (`invalid_request`) or an action the rules refuse (the engine's reason code).",
    429: "The game is busy with another request (`busy`), this address has too many games waiting for the "
         "computers (`too_busy`), or a limit was reached (`too_many_hints`, `too_many_rounds`, "
         "`too_many_reads`); `Retry-After` says when to try again.",
}
_CREATE_LIMITED = "Too many games created from this address (`too_many_games`, `Retry-After`)."


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorBody, "description": _ERRORS[code]} for code in codes}


_READ_ERRORS = _errors(401, 403, 404, 422)
_WRITE_ERRORS = _errors(400, 401, 403, 404, 409, 413, 422, 429)


def _token(credentials: Optional[HTTPAuthorizationCredentials]) -> str | None:
    return credentials.credentials if credentials is not None else None


def client_address(request: Request) -> str:
    """The client's address: the connection's, or the forwarded one when the
    connection comes from a proxy named by ``--forwarded-allow-ips``."""
    return request.client.host if request.client else ""


#: The address every per-client limit and the fair queue of the computers go by.
Client = Annotated[str, Depends(client_address)]


def _reply(reply: Reply) -> Response:
    # No timing header: how long the computers took is nobody's business (pacing.py).
    return Response(reply.body, status_code=reply.status, media_type="application/json",
                    headers=reply.headers)


def create_app(settings: Settings | None = None, *, bots: BotRunner | None = None) -> FastAPI:
    """A new application.  ``bots`` replaces the bot pool (tests)."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        database = open_database(settings)
        store = database.store
        app.state.creation_limit = database.creation_limit
        runner = bots or BotRunner(settings.workers, settings.bot_budget, settings.bot_timeout,
                                   quick_workers=settings.quick_workers)
        # The workers start while this process builds the engine's move tables (half a
        # second on first use: better now than in a player's first request).
        starting = asyncio.create_task(runner.start())
        await asyncio.to_thread(play_table)
        await starting
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
    )
    install_handlers(app)
    # Added last = outermost: the security headers wrap even the 413 and 500 answers.
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(SafetyNet)
    app.add_middleware(HeadAsGet)
    app.add_middleware(SecurityHeaders)

    def service(request: Request) -> GameService:
        return request.app.state.service

    @app.get("/api/health", response_model=Health, tags=["server"])
    async def health() -> dict[str, str]:
        """The server is up."""
        return {"status": "ok"}

    @app.post("/api/games", status_code=201, response_model=Created, tags=["games"],
              responses={**_errors(400, 413, 422), 429: {"model": ErrorBody, "description": _CREATE_LIMITED}})
    async def create_game(request: Request, body: CreateGame, client: Client) -> Response:
        """Create a game: deal the first round and let the computers bid if they speak first."""
        wait = await request.app.state.creation_limit.wait(client)
        if wait > 0:
            seconds = math.ceil(wait)
            raise ApiError(429, "too_many_games", f"too many new games from this address: try again in {seconds} s",
                           headers={"Retry-After": str(seconds)}, retry_after=seconds)
        return _reply(await service(request).create(body, client))

    @app.get("/api/games/{game_id}", response_model=View, tags=["games"], responses=_READ_ERRORS)
    async def read_view(
        request: Request,
        game_id: str,
        query: Annotated[ViewQuery, Query()],
        credentials: Optional[HTTPAuthorizationCredentials] = Security(_bearer),
    ) -> Response:
        """The player's view, with the round's events from `since`."""
        return _reply(await service(request).view(game_id, _token(credentials), query.since))

    @app.patch("/api/games/{game_id}", response_model=View, tags=["games"],
               responses=_errors(400, 401, 403, 404, 413, 422))
    async def change_settings(
        request: Request,
        game_id: str,
        body: SettingsBody,
        credentials: Optional[HTTPAuthorizationCredentials] = Security(_bearer),
    ) -> Response:
        """Change the game's settings (its language)."""
        return _reply(await service(request).set_language(game_id, _token(credentials), body.language))

    @app.post("/api/games/{game_id}/act", response_model=View, tags=["play"], responses=_WRITE_ERRORS)
    async def act(
        request: Request,
        game_id: str,
        body: Act,
        client: Client,
        credentials: Optional[HTTPAuthorizationCredentials] = Security(_bearer),
    ) -> Response:
        """The human acts; then the computers act until the human must act again or the round ends."""
        return _reply(await service(request).act(game_id, _token(credentials), body, client))

    @app.post("/api/games/{game_id}/check", response_model=Verdict, tags=["play"],
              responses=_errors(400, 401, 403, 404, 413, 422))
    async def check(
        request: Request,
        game_id: str,
        body: Check,
        credentials: Optional[HTTPAuthorizationCredentials] = Security(_bearer),
    ) -> Response:
        """Whether an action would be accepted now, and if not why (the engine's reason); applies nothing."""
        return _reply(await service(request).check(game_id, _token(credentials), body))

    @app.post("/api/games/{game_id}/hint", response_model=Hint, tags=["play"],
              responses=_errors(400, 401, 403, 404, 413, 422, 429))
    async def hint(
        request: Request,
        game_id: str,
        client: Client,
        body: Optional[HintRequest] = Body(None),
        credentials: Optional[HTTPAuthorizationCredentials] = Security(_bearer),
    ) -> Response:
        """A recommended action with its reason.  Applies nothing."""
        return _reply(await service(request).hint(game_id, _token(credentials), client))

    @app.post("/api/games/{game_id}/autoplay", response_model=View, tags=["play"], responses=_WRITE_ERRORS)
    async def autoplay(
        request: Request,
        game_id: str,
        body: Step,
        client: Client,
        credentials: Optional[HTTPAuthorizationCredentials] = Security(_bearer),
    ) -> Response:
        """The computer makes the human's next action (the hint's choice); then as after `act`."""
        return _reply(await service(request).autoplay(game_id, _token(credentials), body, client))

    @app.post("/api/games/{game_id}/another-round", response_model=View, tags=["match"],
              responses=_WRITE_ERRORS)
    async def another_round(
        request: Request,
        game_id: str,
        body: Step,
        client: Client,
        credentials: Optional[HTTPAuthorizationCredentials] = Security(_bearer),
    ) -> Response:
        """Deal the next round, keeping the totals (after a round is over, while the match is not)."""
        return _reply(await service(request).another_round(game_id, _token(credentials), body, client))

    @app.post("/api/games/{game_id}/new-game", response_model=View, tags=["match"], responses=_WRITE_ERRORS)
    async def new_game(
        request: Request,
        game_id: str,
        body: Step,
        client: Client,
        credentials: Optional[HTTPAuthorizationCredentials] = Security(_bearer),
    ) -> Response:
        """Abandon the round in progress (it scores nothing) and deal again."""
        return _reply(await service(request).new_game(game_id, _token(credentials), body, client))

    @app.post("/api/games/{game_id}/new-match", response_model=View, tags=["match"], responses=_WRITE_ERRORS)
    async def new_match(
        request: Request,
        game_id: str,
        body: Step,
        client: Client,
        credentials: Optional[HTTPAuthorizationCredentials] = Security(_bearer),
    ) -> Response:
        """Reset the totals to 0 and deal a new round."""
        return _reply(await service(request).new_match(game_id, _token(credentials), body, client))

    @app.get("/api/games/{game_id}/rounds", response_model=Rounds, tags=["games"],
             responses={**_READ_ERRORS, **_errors(429), 304: {"description": "The page is unchanged "
                                                                   "(`If-None-Match` held its `ETag`)."}})
    async def rounds(
        request: Request,
        game_id: str,
        query: Annotated[RoundsQuery, Query()],
        client: Client,
        if_none_match: Annotated[Optional[str], Header(max_length=1024)] = None,
        credentials: Optional[HTTPAuthorizationCredentials] = Security(_bearer),
    ) -> Response:
        """The finished rounds, oldest first, a page at a time, with deal codes and event logs for replay."""
        return _reply(await service(request).rounds(game_id, _token(credentials), query.offset, query.limit,
                                                    client, if_none_match))

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
