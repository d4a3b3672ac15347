"""Refusals as HTTP answers: ``{"error": {"code", "message", "params"}}``.

Every refusal is an :class:`ApiError` with a status, a machine-readable
code and a plain message; the engine's own refusals keep their reason
codes.  Nothing here ever formats a stack trace or game state into a reply.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
from typing import Any, Iterable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from ..errors import DizhuError
from .logs import log_failure

__all__ = ["ApiError", "engine_error", "error_response", "install_handlers", "json_bytes", "log_unexpected",
           "internal_error", "app_routes", "allowed_methods", "limited", "spread"]

log = logging.getLogger("dizhu.web")

#: Engine reasons that are conflicts with the game's state rather than bad actions.
_CONFLICTS = {"round_in_progress", "match_over"}


def json_bytes(data: Any) -> bytes:
    """Compact UTF-8 JSON (``default=str`` so no parameter can make it fail)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str).encode()


class ApiError(Exception):
    """A refusal: HTTP ``status``, ``code``, English ``message`` and ``params``."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None,
                 **params: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.params = params
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "params": self.params}}


def engine_error(exc: DizhuError) -> ApiError:
    """The engine's refusal as an API error (422, or 409 for state conflicts)."""
    status = 409 if exc.reason in _CONFLICTS else 422
    return ApiError(status, exc.reason, str(exc), **exc.params)


def error_response(error: ApiError) -> Response:
    return Response(json_bytes(error.body()), status_code=error.status, media_type="application/json",
                    headers=error.headers)


def _validation_error(exc: RequestValidationError) -> ApiError:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return ApiError(400, "malformed_json", "the request body is not valid JSON")
    details = []
    for e in errors:
        # The location and pydantic's message; never the submitted value.
        where = ".".join(str(part) for part in e.get("loc", ()) if part != "body") or "body"
        details.append(f"{where}: {e.get('msg', 'invalid')}")
    return ApiError(422, "invalid_request", "the request is not valid: " + "; ".join(details[:5]),
                    detail=details[:20])


_HTTP_CODES = {
    # FastAPI answers a body it cannot decode (bad UTF-8, a number of thousands of digits,
    # nesting deeper than the parser goes) with a bare 400: to the client it is bad JSON.
    400: ("malformed_json", "the request body is not valid JSON"),
    404: ("not_found", "there is nothing at this address"),
    405: ("method_not_allowed", "this address does not accept this method"),
    413: ("body_too_large", "the request body is too large"),
}


def install_handlers(app: FastAPI) -> None:
    """Make every error, expected or not, answer in the error format."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        return error_response(exc)

    @app.exception_handler(DizhuError)
    async def _dizhu_error(request: Request, exc: DizhuError) -> Response:
        return error_response(engine_error(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        return error_response(_validation_error(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        status = exc.status_code
        allowed = allowed_methods(request) if status == 405 else ""
        if status == 405 and not allowed and (request.url.path + "/").startswith("/api/"):
            status = 404  # only the UI's catch-all (GET, a JSON 404 there) has this API path
        code, message = _HTTP_CODES.get(status, ("http_error", "the request was refused"))
        headers = dict(exc.headers or {})
        if status == 405:
            headers["Allow"] = allowed or "GET, HEAD"
        return error_response(ApiError(status, code, message, headers=headers))


#: The name of the catch-all route of the UI's files (it takes GET anywhere).
UI_ROUTE = "ui"


def app_routes(app: FastAPI) -> Iterable[Any]:
    """Every route of ``app``, those of its routers included: since FastAPI 0.137 an included
    router is one node of ``app.routes``, which ``iter_route_contexts`` opens."""
    try:
        from fastapi.routing import iter_route_contexts
    except ImportError:  # an older FastAPI copies the routers' routes into app.routes
        return app.routes
    return iter_route_contexts(app.routes)


def allowed_methods(request: Request) -> str:
    """Every method some route accepts at this path (Starlette names only one route's)."""
    methods: set[str] = set()
    for route in app_routes(request.app):
        regex = getattr(route, "path_regex", None)
        if getattr(route, "name", None) == UI_ROUTE or regex is None or not getattr(route, "methods", None):
            continue
        if regex.match(request.url.path):
            methods |= set(route.methods)
    if "GET" in methods:
        methods.add("HEAD")  # middleware.HeadAsGet
    return ", ".join(sorted(methods))


def log_unexpected(exc: BaseException, method: str, path: str) -> None:
    """Log a failed request by the exception's type and frames (see logs.py)."""
    log_failure(log, f"unexpected failure of {method} {path}", exc)


def internal_error() -> ApiError:
    return ApiError(500, "internal_error", "the server failed to handle this request")


def spread(seconds: int) -> int:
    """``seconds`` to wait, or up to twice as long: requests refused together (one client's many
    games) come back spread out, not all in the same instant (the randomness tells nothing)."""
    return seconds + secrets.randbelow(seconds + 1)


def limited(code: str, what: str, wait: float, *, spread_out: bool = False) -> ApiError:
    """429 ``code``: try again in ``wait`` seconds (rounded up; ``spread_out``: see :func:`spread`)."""
    seconds = max(1, math.ceil(wait))
    if spread_out:
        seconds = spread(seconds)
    return ApiError(429, code, f"{what}: try again in {seconds} s", headers={"Retry-After": str(seconds)},
                    retry_after=seconds)
