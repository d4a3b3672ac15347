"""ASGI middleware: security headers on every answer, a body size limit, HEAD as GET.

Plain ASGI (not Starlette's BaseHTTPMiddleware) so that they cost little
and see every response, errors included.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from .errors import ApiError, internal_error, json_bytes, log_unexpected

__all__ = ["SecurityHeaders", "BodyLimit", "SafetyNet", "HeadAsGet", "SECURITY_HEADERS", "header", "json_type", "send_error"]

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Scripts, styles, images, fonts and requests only from this origin; no
#: inline script; never framed; no plugins; forms and <base> locked down.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
]


#: Headers that only a document (a page, an SVG opened as one) heeds. The UI's scripts, styles and
#: dictionaries go without them: on two dozen files they were a sixth of a first visit's bytes.
DOCUMENT_ONLY = frozenset({b"content-security-policy", b"x-frame-options", b"cross-origin-opener-policy",
                           b"permissions-policy"})
_SUBRESOURCE_TYPES = (b"text/javascript", b"text/css", b"application/json")


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response.

    API answers hold a hand of cards and are never cached; the UI's files
    say how long they keep (assets.py), anything else is revalidated.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        is_api = scope["path"].startswith("/api/") or scope["path"] == "/openapi.json"
        cache = b"no-store" if is_api else b"no-cache"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                headers = list(message.get("headers", []))
                kind = next((v for n, v in headers if n.lower() == b"content-type"), b"")
                subresource = not is_api and kind.startswith(_SUBRESOURCE_TYPES)
                headers += [h for h in SECURITY_HEADERS
                            if h[0] not in names and not (subresource and h[0] in DOCUMENT_ONLY)]
                if b"cache-control" not in names:
                    headers.append((b"cache-control", cache))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class SafetyNet:
    """Turns an unexpected exception into a 500 ``internal_error`` answer.

    It logs the failure without the exception's text and does not re-raise,
    so the server below does not print a full traceback with it.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:  # noqa: BLE001 - the point of this class
            log_unexpected(exc, scope.get("method", "?"), scope.get("path", "?"))
            if started:
                return  # too late for an error answer: the connection just ends
            await send_error(send, internal_error())


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes with 413 ``body_too_large``, a body sent as
    anything but JSON with 415 ``unsupported_media_type``, and bodies that are not UTF-8 with 400
    ``malformed_json``.

    The body is read here (it is small by construction) and handed on, so a
    body without a Content-Length is measured too.  The JSON parser would take
    UTF-16 and UTF-32 as well (it guesses from the NUL bytes), which the API
    does not promise: a NUL byte is never in a UTF-8 JSON text.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.limit + 1
                if declared > self.limit:
                    return await self._refuse(send, self._too_large())
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return await self._refuse(send, self._too_large())
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and not json_type(header(scope, b"content-type")):
            # Without this the body is validated as a string: "not a valid dictionary" hid the cause.
            return await self._refuse(send, ApiError(
                415, "unsupported_media_type", "the request body must be sent as Content-Type: application/json"))
        if not _utf8_text(body):
            return await self._refuse(send, ApiError(400, "malformed_json", "the request body is not UTF-8 JSON"))
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _too_large(self) -> ApiError:
        return ApiError(413, "body_too_large", f"the request body is over {self.limit} bytes", limit=self.limit)

    async def _refuse(self, send: Send, error: ApiError) -> None:
        await send_error(send, error, close=True)


async def send_error(send: Send, error: ApiError, *, close: bool = False) -> None:
    """Answer with ``error`` from below the application (its headers too; ``close``: and end the
    connection, the body left unread)."""
    payload = json_bytes(error.body())
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    headers += [(name.lower().encode(), value.encode()) for name, value in error.headers.items()]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def header(scope: Scope, name: bytes) -> bytes:
    """The first value of header ``name`` (lower case) in ``scope``, or ``b""``."""
    return next((value for key, value in scope.get("headers", []) if key == name), b"")


def json_type(value: bytes) -> bool:
    """Whether a Content-Type names JSON (``application/json`` or a ``+json`` type, any parameters).

    >>> [json_type(v) for v in (b"application/json", b"Application/JSON; charset=utf-8",
    ...                          b"application/problem+json", b"text/plain", b"", b"application/jsonx")]
    [True, True, True, False, False, False]
    """
    kind = value.split(b";", 1)[0].strip().lower()
    return kind == b"application/json" or (kind.startswith(b"application/") and kind.endswith(b"+json"))


def _utf8_text(body: bytes) -> bool:
    """Whether ``body`` is UTF-8 without a NUL byte (an empty body is: FastAPI judges it).

    >>> _utf8_text('{"a": "é"}'.encode()), _utf8_text('{}'.encode('utf-16')), _utf8_text('{}'.encode('utf-16-le'))
    (True, False, False)
    """
    if b"\0" in body:
        return False
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class HeadAsGet:
    """HEAD on an API address is answered as GET without the body (RFC 9110: the
    same headers, Content-Length included), so every GET route takes HEAD too."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD" or not scope["path"].startswith("/api/"):
            return await self.app(scope, receive, send)

        async def send_headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)
