"""What every request passes before a route sees it: whose it is, whether its ``Host`` is ours,
whether another site's page sent it, and whether its client has budget left.

- **Clients** (:func:`client_key`): every per-client limit of the server goes by one key, the
  client's IPv4 address or its IPv6 network (a /64 by default: one home or one cloud machine
  gets a whole /64, so counting its addresses one by one would give it 2^64 budgets).
- **Host** (:class:`HostCheck`): a page on another site can point its own DNS name at 127.0.0.1
  (DNS rebinding) and drive a server bound to loopback; its requests then carry that name in
  ``Host``.  Only loopback names, IP literals (an IP in the address bar is its own origin) and
  the names the operator configures are served: anything else is ``421 unknown_host``.
- **Cross-site writes** (:class:`RequestBudget`, once the request is charged): a page on any other
  site can make the player's browser ``POST`` to this server, a form needs no permission.  A write
  whose ``Sec-Fetch-Site`` says ``cross-site`` is ``403 cross_site``; a write must also carry either
  a JSON ``Content-Type`` or a bearer token (both make the browser ask first, which this server
  never allows), see ``deps.json_write``.
- **Request budget** (:class:`RequestBudget`): each client has a token bucket of *units*;
  each request costs its route's units (:func:`request_cost`: a file or a read 1, a write 2, the
  puzzle solver 8).  A request over budget is answered ``429 too_many_requests`` with
  ``Retry-After``, after a pause (the *tarpit*): a client that does not wait for ``Retry-After``
  cannot send its refused requests faster than one per pause per connection.

>>> client_key("203.0.113.9"), client_key("2001:db8:1:2:aaaa::1"), client_key("::ffff:192.0.2.1")
('203.0.113.9', '2001:db8:1:2::/64', '192.0.2.1')
>>> client_key("2001:db8:1:2:aaaa::1", ipv6_prefix=128), client_key("testclient")
('2001:db8:1:2:aaaa::1/128', 'testclient')
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import math
from typing import Iterable

from .errors import ApiError
from .middleware import ASGIApp, Receive, Scope, Send, header, send_error
from .ratelimit import TokenBuckets

__all__ = ["client_key", "request_cost", "RequestBudget", "HostCheck", "LOOPBACK_NAMES", "allowed_host_names"]

#: Host names that always reach this machine.
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "localhost.localdomain"})
_WILDCARDS = frozenset({"", "0.0.0.0", "::", "[::]"})
_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@functools.lru_cache(maxsize=4096)
def client_key(address: str, ipv6_prefix: int = 64) -> str:
    """The key of every per-client limit: an IPv4 address as it is, an IPv6 address by its
    ``/ipv6_prefix`` network (an IPv4 address mapped into IPv6 as the IPv4 address), anything
    else (a test client's name, a Unix socket) as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))
    return address


def request_cost(method: str, path: str) -> float:
    """What a request costs from its client's budget, in units.

    About what it costs the server: the exact solver behind a puzzle's moves costs the most,
    then a write (a move, a new game), then a file of the page or a read.

    >>> [request_cost(m, p) for m, p in [("GET", "/"), ("GET", "/api/health"), ("GET", "/api/games/x"),
    ...     ("POST", "/api/games/x/act"), ("GET", "/api/puzzles"), ("GET", "/api/puzzles/duel-001"),
    ...     ("POST", "/api/puzzles/duel-001/play")]]
    [1.0, 1.0, 1.0, 2.0, 1.0, 8.0, 8.0]
    """
    if path.startswith("/api/puzzles/"):
        return 8.0  # every answer replays the line with the solver
    if method in _WRITES:
        return 2.0
    return 1.0


class RequestBudget:
    """A per-client, cost-weighted request budget before anything else, then cross-site writes refused.

    ``per_minute`` units refill each client's bucket, which holds ``burst`` at most
    (``per_minute <= 0``: no budget).  Every request is charged, those the guards behind refuse
    too.  ``pause`` is how long a refusal is held back: the connection cap per client
    (protocol.py) bounds how many one client has held, and ``held`` how many all clients have
    (connections from a trusted proxy are not capped per client); past it a refusal goes at once.
    """

    def __init__(self, app: ASGIApp, *, per_minute: float, burst: int, ipv6_prefix: int = 64,
                 pause: float = 1.0, held: int = 256) -> None:
        self.app = app
        self.buckets = TokenBuckets(per_minute, burst)
        self.ipv6_prefix = ipv6_prefix
        self.pause = pause
        self.held_at_most = held
        self.held = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        method = scope["method"]
        client = client_key(scope["client"][0] if scope.get("client") else "", self.ipv6_prefix)
        wait = self.buckets.wait(client, request_cost(method, scope["path"]))
        if wait <= 0:
            if method in _WRITES and header(scope, b"sec-fetch-site") == b"cross-site":
                return await send_error(send, ApiError(403, "cross_site",
                                                    "this server takes no writes from other sites' pages"))
            return await self.app(scope, receive, send)
        seconds = max(1, math.ceil(wait))
        if self.held < self.held_at_most:
            self.held += 1
            try:
                await asyncio.sleep(min(self.pause, seconds))
            finally:
                self.held -= 1
        await send_error(send, ApiError(429, "too_many_requests",
                                     f"too many requests from this address: try again in {seconds} s",
                                     headers={"Retry-After": str(seconds)}, retry_after=seconds))


def allowed_host_names(configured: str | None, bind_host: str) -> frozenset[str] | None:
    """The ``Host`` names a server answers: loopback names, the address it listens on (unless it
    listens on every address) and ``configured`` (comma-separated; ``*``: any name, None).

    >>> sorted(allowed_host_names("Play.Example., www.play.example:443", "0.0.0.0"))[-2:]
    ['play.example', 'www.play.example']
    >>> "play.example" in allowed_host_names(None, "127.0.0.1"), allowed_host_names("*", "::")
    (False, None)
    """
    names = set(LOOPBACK_NAMES)
    if bind_host not in _WILDCARDS:
        names.add(_name_of(bind_host.encode()))
    for name in (configured or "").split(","):
        if name.strip() == "*":
            return None
        if name.strip():
            names.add(_name_of(name.encode()))  # written as a Host header would be: any case, a port, a dot
    return frozenset(names)


class HostCheck:
    """``421 unknown_host`` for a request whose ``Host`` is not one of ``names`` nor an IP address
    (a host name may end in a port and a dot; one without any ``Host``, HTTP/1.0, is let through)."""

    def __init__(self, app: ASGIApp, *, names: Iterable[str] | None) -> None:
        self.app = app
        self.names = None if names is None else frozenset(names)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.names is None or _known_host(header(scope, b"host"), self.names):
            return await self.app(scope, receive, send)
        await send_error(send, ApiError(421, "unknown_host", "this server does not answer for that host name; "
                                     "its operator can add it with --allowed-hosts"))


def _name_of(value: bytes) -> str:
    """The host name in a ``Host`` header's value, lower case, without port, brackets or final dot.

    >>> [_name_of(v) for v in (b"Example.COM.:8000", b"[::1]:80", b"127.0.0.1", b"::1")]
    ['example.com', '::1', '127.0.0.1', '::1']
    """
    text = value.decode("latin-1").strip().lower()
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    return text.rstrip(".")


def _known_host(value: bytes, names: frozenset[str]) -> bool:
    if not value:
        return True
    name = _name_of(value)
    if name in names:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True

