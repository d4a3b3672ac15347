"""A real `dizhu serve` against hostile connections: huge or slow request heads, too many
connections, forged forwarding headers.  Raw sockets, since HTTP clients will not misbehave."""

from __future__ import annotations

import select
import socket
import time

import pytest

from .support import Server


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    return s


def _read_all(s: socket.socket, limit: float = 10.0) -> bytes:
    s.settimeout(limit)
    chunks = []
    try:
        while chunk := s.recv(65536):
            chunks.append(chunk)
    except (ConnectionResetError, socket.timeout):
        pass
    return b"".join(chunks)


def _ask(port: int, request: bytes) -> bytes:
    """Send ``request`` in one write and read what comes back until the connection closes."""
    s = _connect(port)
    s.sendall(request)
    answer = _read_all(s)
    s.close()
    return answer


def _flood(s: socket.socket, filler: bytes) -> int:
    """Send ``filler`` again and again until the server answers (or 4 MB went); the bytes sent."""
    sent = 0
    try:
        while sent < 4_000_000:  # the server must stop us long before that
            if select.select([s], [], [], 0.002)[0]:
                break  # the server has answered
            s.sendall(filler)
            sent += len(filler)
    except (BrokenPipeError, ConnectionResetError):
        pass
    return sent


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("limits")
    server = Server(root / "data", root / "server.log", ["--header-timeout", "1", "--keep-alive", "1",
                                                         "--client-connections", "8", "--max-header-bytes", "8192"])
    yield server
    server.stop()


def test_a_huge_request_head_is_answered_431_and_closed(server):
    s = _connect(server.port)
    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n")
    sent = _flood(s, b"X-Filler: " + b"a" * 4000 + b"\r\n")
    answer = _read_all(s)
    s.close()
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b'"headers_too_large"' in answer and b"nosniff" in answer
    assert sent < 1_000_000


@pytest.mark.parametrize("pieces", [1, 2, 7], ids=["one-write", "two-writes", "seven-writes"])
def test_a_head_over_the_limit_is_refused_however_it_arrives(server, pieces):
    # Measured after parsing, a head that ended within one read had been parsed and its count
    # reset: 20 KB in one write, or 17 KB in two halves, went through (limit 8 KB here).
    head = (b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Filler: " + b"a" * 9000
            + b"\r\nConnection: close\r\n\r\n")
    s = _connect(server.port)
    step = -(-len(head) // pieces)
    try:
        for i in range(0, len(head), step):
            s.sendall(head[i:i + step])
            time.sleep(0.05)
    except (BrokenPipeError, ConnectionResetError):
        pass
    answer = _read_all(s)
    s.close()
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]


def test_a_huge_head_pipelined_behind_a_small_request_is_refused(server):
    # A second request in the same write as the first began after the head that was measured.
    answer = _ask(server.port, b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n"
                               b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Filler: " + b"a" * 9000 + b"\r\nConnection: close\r\n\r\n")
    # refused as it is read (the small one's answer, still on its way, goes with the connection)
    assert b"HTTP/1.1 431 " in answer and answer.count(b"HTTP/1.1 200 ") <= 1, answer[:300]


def test_pipelined_requests_of_normal_size_are_all_answered(server):
    answer = _ask(server.port, b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n" * 3
                               + b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    assert answer.count(b"HTTP/1.1 200 ") == 4, answer[:400]


@pytest.mark.parametrize("blank", [b"\r\n\r\n", b"\r\n" * 50])
def test_blank_lines_before_a_huge_head_do_not_end_it(server, blank):
    # The parser skips blank lines before a request: taken for the head's end, they let any head in.
    answer = _ask(server.port, blank + b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Filler: " + b"a" * 20000
                               + b"\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert answer.count(b"HTTP/1.1 ") == 1, answer  # and nothing after it (a 400 followed)


def test_a_chunked_body_with_a_trailer_is_refused(server):
    # Trailer lines were parsed into the request's headers, outside every limit.
    answer = _ask(server.port, b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                               b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nX-Trailer: " + b"a" * 100 + b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 ") and b"malformed_request" in answer, answer[:200]


def test_a_chunked_body_that_never_ends_is_cut_off_by_size(server):
    s = _connect(server.port)
    s.sendall(b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
              b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nX-Trailer: ")
    sent = _flood(s, b"a" * 4000)
    answer = _read_all(s)
    s.close()
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert sent < 1_000_000


def test_a_long_path_counts_as_head(server):
    answer = _ask(server.port, b"GET /" + b"p" * 9000 + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]


def test_a_body_sent_too_slowly_is_cut_off(server):
    # Only the head had a deadline: a body promised and never sent held the connection open.
    s = _connect(server.port)
    start = time.monotonic()
    s.sendall(b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
              b"Content-Length: 100\r\n\r\n{")
    answer = _read_all(s, limit=8)
    elapsed = time.monotonic() - start
    s.close()
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert b"body" in answer and 0.8 <= elapsed < 4


def test_a_body_waiting_behind_a_slow_request_is_not_cut_off(tmp_path):
    # The body's deadline runs only while the server reads: a request pipelined behind a slow
    # one (super-hard computers bidding first, paced at three times the usual) sits unread in
    # the meantime, and its late body must not be taken for a client's stalling.
    import json

    from dizhu.game.deal import deal_cards

    code = next(c for c in (f"classic-slow-{n}" for n in range(100)) if deal_cards(c).first == 1)
    server = Server(tmp_path / "data", tmp_path / "server.log", ["--header-timeout", "1", "--pace", "3"])
    try:
        slow = json.dumps({"variant": "classic", "level": "super-hard", "deal_code": code}).encode()
        quick = json.dumps({"variant": "classic", "level": "normal"}).encode()
        head = b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
        s = _connect(server.port)
        start = time.monotonic()
        s.sendall(head + str(len(slow)).encode() + b"\r\n\r\n" + slow
                  + head + str(len(quick)).encode() + b"\r\nConnection: close\r\n\r\n" + quick[:1])
        time.sleep(1.6)  # past the deadline, while the first request is still being answered
        s.sendall(quick[1:])
        answer = _read_all(s, limit=20)
        s.close()
        assert time.monotonic() - start > 3.6  # two computers' bids at 3 x 0.6 s at least
        assert answer.count(b"HTTP/1.1 201 ") == 2, answer[:300]
        assert b" 408 " not in answer
    finally:
        server.stop()


def test_a_head_of_normal_size_is_served(server):
    answer = _ask(server.port, b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Filler: " + b"a" * 6000 + b"\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]


def test_a_head_sent_too_slowly_is_cut_off(server):
    s = _connect(server.port)
    start = time.monotonic()
    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n")  # and never the blank line
    answer = _read_all(s, limit=8)
    elapsed = time.monotonic() - start
    s.close()
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert 0.8 <= elapsed < 4


def test_a_silent_connection_is_closed(server):
    s = _connect(server.port)
    start = time.monotonic()
    assert _read_all(s, limit=8) == b""
    assert time.monotonic() - start < 4


def test_an_idle_kept_alive_connection_is_closed(server):
    s = _connect(server.port)
    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
    start = time.monotonic()
    answer = _read_all(s, limit=8)
    assert answer.startswith(b"HTTP/1.1 200 ") and time.monotonic() - start < 4


def test_one_address_holds_a_bounded_number_of_connections(server):
    held = [_connect(server.port) for _ in range(8)]
    try:
        extra = _connect(server.port)
        assert _read_all(extra, limit=5).startswith(b"HTTP/1.1 503 ")
        extra.close()
        # another address is still served
        other = _connect(server.port, source="127.0.0.2")
        other.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        assert _read_all(other).startswith(b"HTTP/1.1 200 ")
        other.close()
    finally:
        for s in held:
            s.close()
    time.sleep(0.3)
    again = _connect(server.port)
    again.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    assert _read_all(again).startswith(b"HTTP/1.1 200 ")
    again.close()


def test_forwarding_headers_are_not_believed_by_default(tmp_path):
    server = Server(tmp_path / "data", tmp_path / "server.log", ["--create-limit", "60", "--create-burst", "2"])
    try:
        statuses = []
        for n in range(6):
            response = server.http.post("/api/games", json={}, headers={"X-Forwarded-For": f"203.0.113.{n}"})
            statuses.append(response.status_code)
        assert statuses[:2] == [201, 201] and set(statuses[2:]) == {429}
    finally:
        server.stop()


def test_forwarding_headers_are_believed_from_a_named_proxy(tmp_path):
    server = Server(tmp_path / "data", tmp_path / "server.log", ["--create-limit", "60", "--create-burst", "2",
                                                                 "--forwarded-allow-ips", "127.0.0.1"])
    try:
        statuses = [server.http.post("/api/games", json={}, headers={"X-Forwarded-For": f"203.0.113.{n}"})
                    .status_code for n in range(4)]
        assert statuses == [201] * 4  # four clients behind the proxy, each with its own allowance
    finally:
        server.stop()
