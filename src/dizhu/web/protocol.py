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
- one client address holds at most ``client_connections`` connections at
  once; more are answered ``503 too_many_connections`` and closed.

Idle keep-alive connections and the total number of connections are
uvicorn's own settings (``timeout_keep_alive``, ``limit_concurrency``).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .middleware import SECURITY_HEADERS

__all__ = ["guarded_protocol"]


def _refusal(status: int, reason: str, code: str, message: str) -> bytes:
    body = json.dumps({"error": {"code": code, "message": message, "params": {}}}).encode()
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json",
            f"content-length: {len(body)}", "connection: close", "cache-control: no-store"]
    head += [f"{name.decode()}: {value.decode()}" for name, value in SECURITY_HEADERS]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def guarded_protocol(max_header_bytes: int, header_timeout: float, client_connections: int,
                     trusted_proxies: frozenset[str] = frozenset()) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol with the limits above.  Connections from
    ``trusted_proxies`` carry many clients, so they are not counted per address."""

    too_large = _refusal(431, "Request Header Fields Too Large", "headers_too_large",
                         f"the request's headers are over {max_header_bytes} bytes")
    too_slow = _refusal(408, "Request Timeout", "request_timeout",
                        f"the request's headers did not arrive within {header_timeout:g} s")
    too_slow_body = _refusal(408, "Request Timeout", "request_timeout",
                             f"the request's body did not arrive within {header_timeout:g} s")
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
            self._parsed_head = 0  # the parsed request line and headers of the request being read
            self._refused = False
            self._head_timer: asyncio.TimerHandle | None = None
            self._address: str | None = None

        # ---- connection

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else ""
            if address not in trusted_proxies:
                if open_by_address[address] >= client_connections:
                    self._refuse(too_many)
                    return
                open_by_address[address] += 1
                self._address = address
            self._start_head_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_head_timer()
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
                if self._head_timer is None:
                    self._start_head_timer()  # the first byte of a request on a kept-alive connection
                # Measured before parsing, up to the blank line that ends the head (bytes past it
                # belong to the body): measured after, a head that ended within this read had
                # already been parsed and its count reset, and went through at any size.
                seen = self._head_tail + data
                end = _head_end(seen)
                self._head_bytes += len(data) if end < 0 else end - len(self._head_tail)
                self._head_tail = seen[-3:]
                if self._head_bytes > max_header_bytes:
                    self._refuse(too_large)
                    return
            super().data_received(data)

        # ---- parser callbacks

        # A second request pipelined in the same read as the first begins after the blank line
        # measured above: its head is measured as the parser reads it.
        def on_message_begin(self) -> None:
            self._parsed_head = 0
            super().on_message_begin()

        def on_url(self, url: bytes) -> None:
            self._count_parsed(len(url) + 16)  # (the method and the version, about)
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count_parsed(len(name) + len(value) + 4)
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            if self._refused:
                return  # no request is made of a refused head
            self._in_head, self._in_body = False, True
            self._start_head_timer()  # now for the body (a request without one completes at once)
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._in_body = False
            self._stop_head_timer()
            super().on_message_complete()
            self._in_head, self._head_bytes, self._head_tail = True, 0, b""  # the next request on this connection

        # ---- helpers

        def _count_parsed(self, size: int) -> None:
            self._parsed_head += size
            if self._parsed_head > max_header_bytes and not self._refused:
                self._refuse(too_large)

        def _start_head_timer(self) -> None:
            self._stop_head_timer()
            self._head_timer = self.loop.call_later(header_timeout, self._head_timed_out)

        def _stop_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_timed_out(self) -> None:
            self._head_timer = None
            if self.transport.is_closing():
                return
            if self._in_body:
                self._refuse(too_slow_body)
            elif self._in_head:
                if self._head_bytes:
                    self._refuse(too_slow)
                else:
                    self.transport.close()  # nothing asked: just close

        def _refuse(self, answer: bytes) -> None:
            self._refused = True
            self._stop_head_timer()
            if not self.transport.is_closing():
                self.transport.write(answer)
                self.transport.close()

    return GuardedHttpTools


def _head_end(seen: bytes) -> int:
    """Where the head in ``seen`` ends (just past its blank line), or -1.  A bare LF counts too:
    the parser accepts it.

    >>> _head_end(b"GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nbody"), _head_end(b"GET / HTTP/1.1\\n\\n"), _head_end(b"GET /")
    (27, 16, -1)
    """
    ends = [i + len(mark) for mark in (b"\r\n\r\n", b"\n\n") if (i := seen.find(mark)) >= 0]
    return min(ends, default=-1)
