"""The HTTP connection, guarded against clients that send too much or too slowly.

uvicorn's HTTP parser takes request heads of any size and waits for them as
long as the client likes, so one client could hold memory and connections
without ever finishing a request.  :func:`guarded_protocol` returns
uvicorn's own protocol with these limits added:

- a request head (request line and headers) over ``max_header_bytes`` is
  answered ``431 headers_too_large`` and the connection closed, before the
  parser reads it, however the bytes are split between reads;
- a head not complete ``header_timeout`` seconds after its first byte (or
  after the connection opened), or a body not complete ``header_timeout``
  seconds after its head, is answered ``408 request_timeout``;
- one client (an address, or an IPv6 /64) holds at most ``client_connections``
  connections at once; more are answered ``503 too_many_connections`` and closed.

Idle keep-alive connections and the total number of connections are
uvicorn's own settings (``timeout_keep_alive``, ``limit_concurrency``).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .guard import client_key
from .middleware import SECURITY_HEADERS

__all__ = ["guarded_protocol"]


def _refusal(status: int, reason: str, code: str, message: str) -> bytes:
    body = json.dumps({"error": {"code": code, "message": message, "params": {}}}).encode()
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json",
            f"content-length: {len(body)}", "connection: close", "cache-control: no-store"]
    head += [f"{name.decode()}: {value.decode()}" for name, value in SECURITY_HEADERS]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def guarded_protocol(max_header_bytes: int, header_timeout: float, client_connections: int,
                     trusted_proxies: frozenset[str] = frozenset(), *,
                     max_body_bytes: int, ipv6_prefix: int = 64) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol with the limits above.  Connections from
    ``trusted_proxies`` carry many clients, so they are not counted per address.
    A client is an IPv4 address or an IPv6 network of ``ipv6_prefix`` bits (guard.client_key).
    ``max_body_bytes`` is the application's limit (middleware.BodyLimit answers it); here the raw
    bytes of a body, its chunked framing included, are cut off well past it."""
    raw_body_limit = 2 * max_body_bytes + max_header_bytes

    too_large = _refusal(431, "Request Header Fields Too Large", "headers_too_large",
                         f"the request's headers are over {max_header_bytes} bytes")
    too_slow = _refusal(408, "Request Timeout", "request_timeout",
                        f"the request's headers did not arrive within {header_timeout:g} s")
    too_slow_body = _refusal(408, "Request Timeout", "request_timeout",
                             f"the request's body did not arrive within {header_timeout:g} s")
    too_much_body = _refusal(413, "Content Too Large", "body_too_large",
                             f"the request body is over {max_body_bytes} bytes")
    no_trailers = _refusal(400, "Bad Request", "malformed_request", "a request may not carry trailer fields")
    too_many = _refusal(503, "Service Unavailable", "too_many_connections",
                        f"this address already has {client_connections} connections open")
    open_by_address: Counter[str] = Counter()

    class GuardedHttpTools(HttpToolsProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._head_bytes = 0
            self._head_tail = b""  # the last bytes of the head so far: its end may straddle two reads
            self._in_head = True
            self._in_body = False
            self._body_bytes = 0
            self._parsed_head = 0  # the parsed request line and headers of the request being read
            self._refused = False
            self._deadline: asyncio.TimerHandle | None = None
            self._address: str | None = None

        # ---- connection

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else ""
            if address not in trusted_proxies:
                address = client_key(address, ipv6_prefix)
                if open_by_address[address] >= client_connections:
                    self._refuse(too_many)
                    return
                open_by_address[address] += 1
                self._address = address
            self._start_deadline()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_deadline()
            if self._address is not None:
                open_by_address[self._address] -= 1
                if open_by_address[self._address] <= 0:
                    del open_by_address[self._address]
                self._address = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            if self._in_head:
                if self._deadline is None:
                    self._start_deadline()  # the first byte of a request on a kept-alive connection
                # Measured before parsing, up to the blank line that ends the head (bytes past it
                # belong to the body): measured after, a head that ended within this read had
                # already been parsed and its count reset, and went through at any size.
                seen = self._head_tail + data
                end = _head_end(seen, fresh=not self._head_bytes)
                self._head_bytes += len(data) if end < 0 else end - len(self._head_tail)
                self._head_tail = seen[-3:]
                if self._head_bytes > max_header_bytes:
                    self._refuse(too_large)
                    return
            elif self._in_body:
                # A chunked body's framing and trailer are not the application's body: counted
                # raw, or a value that never ends would grow in the parser's buffer.
                self._body_bytes += len(data)
                if self._body_bytes > raw_body_limit:
                    self._refuse(too_much_body)
                    return
            super().data_received(data)

        # ---- parser callbacks

        # A second request pipelined in the same read as the first begins after the blank line
        # measured above: its head is measured as the parser reads it.
        # (After a refusal the parser may still call back on what it had read: nothing more is made
        # of it, since uvicorn's callbacks expect the request they would have made.)
        def on_message_begin(self) -> None:
            if self._refused:
                return
            self._parsed_head = 0
            super().on_message_begin()

        def on_url(self, url: bytes) -> None:
            if self._refused:
                return
            self._count_parsed(len(url) + 16)  # (the method and the version, about)
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            if self._refused:
                return
            if self._in_body:  # a chunked body's trailer: nothing here uses one
                self._refuse(no_trailers)
                return
            self._count_parsed(len(name) + len(value) + 4)
            if not self._refused:
                super().on_header(name, value)

        def on_headers_complete(self) -> None:
            if self._refused:
                return  # no request is made of a refused head
            self._in_head, self._in_body, self._body_bytes = False, True, 0
            self._start_deadline()  # now for the body (a request without one completes at once)
            super().on_headers_complete()

        def on_body(self, body: bytes) -> None:
            if not self._refused:
                super().on_body(body)

        def on_message_complete(self) -> None:
            if self._refused:
                return
            self._in_body = False
            self._stop_deadline()
            super().on_message_complete()
            self._in_head, self._head_bytes, self._head_tail = True, 0, b""  # the next request on this connection

        # ---- helpers

        def _count_parsed(self, size: int) -> None:
            self._parsed_head += size
            if self._parsed_head > max_header_bytes and not self._refused:
                self._refuse(too_large)

        # One deadline at a time: the head's, then the body's (``header_timeout`` each).
        def _start_deadline(self) -> None:
            self._stop_deadline()
            self._deadline = self.loop.call_later(header_timeout, self._deadline_passed)

        def _stop_deadline(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _deadline_passed(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            if self._in_body:
                if self.pipeline or self.flow.read_paused:
                    self._start_deadline()  # the server is the one not reading (a request ahead): wait
                elif self.cycle is not None and self.cycle.response_started:
                    # answered before its body was read (a refusal): nothing left to refuse
                    if self.cycle.response_complete:
                        self.transport.close()
                    else:
                        self._start_deadline()
                else:
                    self._refuse(too_slow_body)
            elif self._in_head:
                if self._head_bytes:
                    self._refuse(too_slow)
                else:
                    self.transport.close()  # nothing asked: just close

        def _refuse(self, answer: bytes) -> None:
            self._refused = True
            self._stop_deadline()
            if not self.transport.is_closing():
                self.transport.write(answer)
                self.transport.close()

    return GuardedHttpTools


def _head_end(seen: bytes, fresh: bool = False) -> int:
    """Where the head in ``seen`` ends (just past its blank line), or -1.  At the ``fresh`` start
    of a request the parser skips blank lines: they end nothing.

    >>> _head_end(b"GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nbody"), _head_end(b"GET /")
    (27, -1)
    >>> _head_end(b"\\r\\n\\r\\nGET / HTTP/1.1\\r\\n\\r\\n", fresh=True), _head_end(b"\\r\\n\\r\\nGET /", fresh=True)
    (22, -1)
    """
    start = len(seen) - len(seen.lstrip(b"\r\n")) if fresh else 0
    i = seen.find(b"\r\n\r\n", start)
    return -1 if i < 0 else i + 4
