"""What the routes send back and the refusals they document (the OpenAPI schema)."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from ..schemas import ErrorBody
from ..service import Reply

__all__ = ["EVERY_ROUTE", "READ_ERRORS", "WRITE_ERRORS", "errors", "reply"]

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
EVERY_ROUTE: dict[int | str, dict[str, Any]] = {
    421: {"model": ErrorBody, "description": "`Host` names no host this server answers for (`unknown_host`)."},
    429: {"model": ErrorBody, "description": "This client sent more requests than its budget "
                                             "(`too_many_requests`); `Retry-After` says when to try again."},
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The refusals of a game's address with these status codes, as OpenAPI ``responses``."""
    return {code: {"model": ErrorBody, "description": _ERRORS[code]} for code in codes}


READ_ERRORS = errors(401, 403, 404, 422)
WRITE_ERRORS = errors(400, 401, 403, 404, 409, 413, 415, 422, 429)


def reply(answer: Reply) -> Response:
    """The service's answer (JSON bytes, status, headers) as the HTTP response."""
    # No timing header: how long the computers took is nobody's business (pacing.py).
    return Response(answer.body, status_code=answer.status, media_type="application/json",
                    headers=answer.headers)
