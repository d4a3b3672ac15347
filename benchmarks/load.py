"""Load test of the game server: N simulated players over HTTP against a real `dizhu serve`.

    python benchmarks/load.py [--players 50] [--rounds 3] [--think 0.5] [--variant both]
                              [--level normal] [--workers N] [--quick-workers N] [--sync full] [--pace 1]
                              [--greedy 0] [--greedy-seconds 40] [--think-share F] [--client-nice 0]
                              [--url http://host:port]

Starts `dizhu serve` on a temporary data directory (unless --url names a running server),
then runs --players concurrent players, each from its own loopback address (127.0.1.N), as
distinct clients would be.  Each creates a game against computers of --level (normal by
default) and plays --rounds complete rounds: before each move it reads its view (GET, as a
reloading client would), waits a think time drawn uniformly from [0, 2 x --think] seconds,
and acts with a random legal action; after a round, "another round".

The simulated clients run in a process of their own, in a session of their own, --client-nice
(default 0) below the server's CPU priority.  The session matters on Linux: with autogroups
(/proc/sys/kernel/sched_autogroup_enabled), the scheduler shares the CPU between sessions first
and a process's nice orders it only inside its own session, so the clients lower their
session's autogroup (/proc/self/autogroup) by the same amount.  (The default used to be a plain
nice +5, which did nothing against the server, started in a session of its own: the
clients were in fact at the server's priority, as they are now by default.)  A lower priority
measures the server better on a machine of its own, but when other work shares the machine the
clients then wait for the CPU themselves and time their own waiting (docs/SERVER.md, "Speed").

--greedy N adds one greedy client (address 127.0.0.2, a process of its own) that keeps N super-hard games on
auto-play at once for --greedy-seconds, retrying whenever it is told to wait (429); --greedy-addresses K
spreads its games over K addresses (127.0.0.2 ...), as a client with many addresses would.

--flood health|puzzle adds a cheap flood (a process of its own, address 127.0.0.200): --flood-connections
keep-alive connections that send `GET /api/health`, or a puzzle's move (the exact solver), back to back for
--flood-seconds, never waiting for what a 429 says.  Reported: its answers by status, and whether each 429
carried Retry-After.  Compare with the server's request budget off: --request-limit 0.

Reported: requests/s and errors (any non-2xx answer other than the greedy client's 429s, or
a failed connection); latency p50/p90/p99/max of view reads, of human actions (the whole
request, computers' paced moves included) and of each computer decision inside them
(an action's time divided by the computer moves it brought back); the fallback moves
the server logged in the players' games and in the greedy client's.

Targets on a 2-core machine: 50 players at the normal level, zero errors, p99 <= 50 ms for
reads; with --greedy 50 beside 20 players, or a --flood beside them, their actions' p99 <= 100 ms
and no fallback move in their games.  --pace 0 shows the raw speed (the computers' thinking unhidden).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from served import RequestStats, add_player_options, cpu_seconds, percentile, play, start_server

ROOT = Path(__file__).resolve().parents[1]
FALLBACK = re.compile(r"fallback move in game (\S+)")


@dataclass
class Stats(RequestStats):
    games: set[str] = field(default_factory=set)
    greedy_games: set[str] = field(default_factory=set)
    greedy_moves: int = 0
    greedy_refused: int = 0
    flood: dict[str, int] = field(default_factory=dict)  # the flood's answers by status (and "no Retry-After")


async def player(n: int, client: httpx.AsyncClient, args: argparse.Namespace, stats: Stats,
                 start_at: float) -> None:
    game_id = await play(n, client, args, stats, start_at)
    if game_id is not None:
        stats.games.add(game_id[:8])  # the server's log names a game by its first 8 characters


async def greedy_game(n: int, client: httpx.AsyncClient, stats: Stats, stop_at: float) -> None:
    """One of the greedy client's games: super-hard, on auto-play, never pausing but when told to."""

    async def post(path: str, body: dict) -> dict | None:
        while time.perf_counter() < stop_at:
            try:
                response = await client.post(path, json=body, headers=headers)
            except httpx.HTTPError:
                await asyncio.sleep(0.5)
                continue
            if response.status_code == 429:
                stats.greedy_refused += 1
                await asyncio.sleep(float(response.headers.get("retry-after", "1")))
                continue
            if response.status_code == 409:  # stale after a retried request: read the game again
                return (await client.get(path.rsplit("/", 1)[0], headers=headers)).json()
            return response.json() if response.status_code < 300 else None
        return None

    headers: dict[str, str] = {}
    created = await post("/api/games", {"variant": ("classic", "duel")[n % 2], "level": "super-hard"})
    if created is None:
        return
    stats.greedy_games.add(created["game_id"][:8])
    headers = {"Authorization": f"Bearer {created['token']}"}
    base = f"/api/games/{created['game_id']}"
    view, step = created["view"], 0
    while view is not None and time.perf_counter() < stop_at:
        step += 1
        body = {"version": view["version"], "request_id": f"greedy{n}-{step}"}
        if view["observation"]["phase"] == "over":
            view = await post(f"{base}/{'new-match' if view['match_over'] else 'another-round'}", body)
        elif view["observation"]["to_act"] == 0:
            view = await post(f"{base}/autoplay", body)
            stats.greedy_moves += 1
        else:
            view = (await client.get(base, headers=headers)).json()


def server_options(args: argparse.Namespace) -> list[str]:
    options = ["--sync", args.sync, "--pace", str(args.pace)]
    if args.think_share is not None:
        options += ["--think-share", str(args.think_share)]
    if args.quick_workers is not None:
        options += ["--quick-workers", str(args.quick_workers)]
    for option in ("request_limit", "thinking_total"):
        if getattr(args, option) is not None:
            options += ["--" + option.replace("_", "-"), str(getattr(args, option))]
    if args.no_pin_cores:
        options.append("--no-pin-cores")
    return options + (["--workers", str(args.workers)] if args.workers is not None else [])


def _client(url: str, address: str, connections: int) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address, limits=httpx.Limits(
        max_connections=connections, max_keepalive_connections=connections))
    return httpx.AsyncClient(base_url=url, transport=transport, timeout=60)


async def run_greedy(url: str, games: int, seconds: float, addresses: int = 1) -> Stats:
    """The greedy client's games until ``seconds`` have passed, from ``addresses`` addresses."""
    stats = Stats()
    clients = [_client(url, f"127.0.0.{2 + a}", max(1, games // addresses + 1)) for a in range(addresses)]
    try:
        stop_at = time.perf_counter() + seconds
        await asyncio.gather(*(greedy_game(n, clients[n % addresses], stats, stop_at) for n in range(games)))
    finally:
        for client in clients:
            await client.aclose()
    return stats


#: What the cheap flood sends: a health check, or a puzzle's first move (the solver answers it).
FLOODS = {"health": ("GET", "/api/health", None),
          "puzzle": ("POST", "/api/puzzles/classic-001/play", {"moves": []})}


async def run_flood(url: str, kind: str, connections: int, seconds: float) -> dict[str, int]:
    """Requests back to back on ``connections`` keep-alive connections for ``seconds`` (raw sockets:
    an HTTP client library would be the bottleneck); answers by status."""
    method, path, body = FLOODS[kind]
    host, port = url.split("//", 1)[1].rsplit(":", 1)
    payload = b"" if body is None else json.dumps(body).encode()
    request = (f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Length: {len(payload)}\r\n"
               + ("Content-Type: application/json\r\n" if body is not None else "") + "\r\n").encode() + payload
    counts: dict[str, int] = {}
    stop_at = time.perf_counter() + seconds

    def count(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1

    async def one_connection() -> None:
        writer = None
        while time.perf_counter() < stop_at:
            try:
                if writer is None:
                    reader, writer = await asyncio.open_connection(host, int(port), local_addr=("127.0.0.200", 0))
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                status = head.split(b" ", 2)[1].decode()
                length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
                await reader.readexactly(length)
                count(status)
                if status == "429" and b"retry-after:" not in head.lower():
                    count("429 without Retry-After")
                if b"connection: close" in head.lower():
                    writer.close()
                    writer = None
            except (OSError, asyncio.IncompleteReadError, AttributeError):
                count("failed")
                if writer is not None:
                    writer.close()
                writer = None
                await asyncio.sleep(0.01)
        if writer is not None:
            writer.close()

    await asyncio.gather(*(one_connection() for _ in range(connections)))
    return counts


def flood_process(conn, url: str, kind: str, connections: int, seconds: float) -> None:
    """The flood in a process of its own, as it would be on another machine."""
    conn.send(asyncio.run(run_flood(url, kind, connections, seconds)))
    conn.close()


def lower_priority(nice: int) -> str:
    """Put this process (and the clients it starts) ``nice`` below the server; says how."""
    if nice <= 0:
        return "clients at the server's priority"
    os.setsid()  # a session of its own: its autogroup holds only the clients
    how = f"clients at nice +{nice}"
    try:
        Path("/proc/self/autogroup").write_text(str(nice))
        how += f", in a session whose autogroup is at nice +{nice}"
    except OSError:  # no autogroups here: the plain nice is enough
        pass
    os.nice(nice)
    return how


def greedy_process(conn, url: str, games: int, seconds: float, addresses: int = 1) -> None:
    """The greedy client in a process of its own, as it would be on another machine: its
    fifty games' answers must not delay the measuring of the players' (one event loop)."""
    stats = asyncio.run(run_greedy(url, games, seconds, addresses))
    conn.send((stats.greedy_games, stats.greedy_moves, stats.greedy_refused))
    conn.close()


def clients_process(conn, args: argparse.Namespace, url: str) -> None:
    """The players (and the greedy client's process, started from here) at --client-nice below
    the server; sends back their stats, this process's CPU seconds and how it was placed."""
    how = lower_priority(args.client_nice)
    before = time.process_time()
    stats = asyncio.run(run(args, url))
    conn.send((stats, time.process_time() - before, how))
    conn.close()


def _helper(target, *args):
    """``target(sender, *args)`` in a process of its own; returns it and the pipe's receiving end."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=target, args=(sender, *args))
    process.start()
    sender.close()
    return process, receiver


async def run(args: argparse.Namespace, url: str) -> Stats:
    stats = Stats()
    clients = [_client(url, f"127.0.1.{n % 250 + 1}", 2) for n in range(args.players)]
    greedy = flood = None
    try:
        if args.flood:
            flood, flood_receiver = _helper(flood_process, url, args.flood, args.flood_connections, args.flood_seconds)
        if args.greedy:
            greedy, receiver = _helper(greedy_process, url, args.greedy, args.greedy_seconds, args.greedy_addresses)
        if args.greedy or args.flood:
            await asyncio.sleep(3.0)  # the greedy client or the flood fills the server first
        now = time.perf_counter()
        # Players arrive over the first second, as they would, not all in one instant.
        await asyncio.gather(*(player(n, clients[n], args, stats, now + n / max(1, args.players))
                               for n in range(args.players)))
        if greedy is not None:
            games, moves, refused = await asyncio.to_thread(receiver.recv)
            stats.greedy_games, stats.greedy_moves, stats.greedy_refused = games, moves, refused
        if flood is not None:
            stats.flood = await asyncio.to_thread(flood_receiver.recv)
    finally:
        for client in clients:
            await client.aclose()
        for helper in (greedy, flood):
            if helper is not None:
                helper.join(10)
                if helper.is_alive():
                    helper.kill()
    return stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_player_options(parser)
    parser.add_argument("--workers", type=int, default=None, help="bot worker processes for the server")
    parser.add_argument("--quick-workers", type=int, default=None,
                        help="the server's --quick-workers (default: the server's own)")
    parser.add_argument("--sync", choices=["full", "normal"], default="full", help="the server's --sync")
    parser.add_argument("--pace", type=float, default=1.0, help="the server's --pace (default 1)")
    parser.add_argument("--think-share", type=float, default=None,
                        help="the server's --think-share (default: the server's own; 0 turns it off)")
    parser.add_argument("--greedy", type=int, default=0,
                        help="super-hard games a greedy client keeps on auto-play (default 0: none)")
    parser.add_argument("--greedy-seconds", type=float, default=40.0, help="how long it keeps at it")
    parser.add_argument("--greedy-addresses", type=int, default=1,
                        help="loopback addresses the greedy client's games are spread over (default 1)")
    parser.add_argument("--flood", choices=sorted(FLOODS), default=None,
                        help="a cheap flood beside the players: health checks or puzzle moves (default: none)")
    parser.add_argument("--flood-connections", type=int, default=2, help="the flood's connections (default 2)")
    parser.add_argument("--flood-seconds", type=float, default=40.0, help="how long it floods (default 40)")
    parser.add_argument("--request-limit", type=float, default=None,
                        help="the server's --request-limit (default: the server's own; 0 turns it off)")
    parser.add_argument("--thinking-total", type=int, default=None,
                        help="the server's --thinking-total (default: the server's own)")
    parser.add_argument("--no-pin-cores", action="store_true", help="the server's --no-pin-cores")
    parser.add_argument("--url", default=None, help="use this running server instead of starting one")
    parser.add_argument("--client-nice", type=int, default=0,
                        help="run the simulated clients this much below the server's CPU priority, in a "
                             "session of their own (default 0): real clients run on other machines, not on "
                             "the server's cores")
    args = parser.parse_args()

    data_dir = Path(tempfile.mkdtemp(prefix="dizhu-load-"))
    process = None
    server_cpu = None
    try:
        if args.url:
            url = args.url
        else:
            process, url = start_server(data_dir, server_options(args), (data_dir / "server.log").open("wb"))
        server_before = cpu_seconds(process.pid) if process else None
        start = time.perf_counter()
        context = multiprocessing.get_context("spawn")
        receiver, sender = context.Pipe(duplex=False)
        clients = context.Process(target=clients_process, args=(sender, args, url))
        clients.start()
        sender.close()
        try:
            stats, own_cpu, priority = receiver.recv()
        finally:
            clients.join(30)
        elapsed = time.perf_counter() - start
        server_cpu = None
        if process is not None and server_before is not None:
            after = cpu_seconds(process.pid)
            server_cpu = (after[0] - server_before[0], after[1] - server_before[1])
    finally:
        if process is not None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        log_path = data_dir / "server.log"
        fallbacks = FALLBACK.findall(log_path.read_text(errors="replace")) if log_path.exists() else []
        shutil.rmtree(data_dir, ignore_errors=True)

    print(f"dizhu load test: {args.players} players x {args.rounds} rounds ({args.variant}), {args.level}-level "
          f"computers, think time mean {args.think:.2f} s, server --sync {args.sync}"
          + (f", --workers {args.workers}" if args.workers is not None else "")
          + f", {os.cpu_count()} CPUs, {priority}")
    stats.report(elapsed)
    if stats.decisions:
        print(f"  mean per computer decision: {statistics.mean(stats.decisions) * 1000:.1f} ms")
    mine = sum(1 for game in fallbacks if game in stats.games)
    print(f"  fallback moves: {mine} in the players' games, {len(fallbacks) - mine} elsewhere")
    if args.greedy:
        print(f"  greedy client ({args.greedy_addresses} addresses): {len(stats.greedy_games)} games, "
              f"{stats.greedy_moves} auto-play moves, {stats.greedy_refused} answers of 429 (told to wait)")
    if args.flood:
        answered = sum(n for key, n in stats.flood.items() if key.isdigit())
        print(f"  flood ({args.flood}, {args.flood_connections} connections, {args.flood_seconds:.0f} s): "
              f"{answered} answers ({answered / args.flood_seconds:.0f}/s), by status "
              + ", ".join(f"{key}: {n}" for key, n in sorted(stats.flood.items())))
    if server_cpu is not None:
        print(f"  CPU seconds used: server {server_cpu[0]:.1f}, its bot workers {server_cpu[1]:.1f}, "
              f"this load generator {own_cpu:.1f} (of {elapsed * (os.cpu_count() or 1):.0f} available)")
    if args.greedy or args.flood:
        met = stats.errors == 0 and percentile(stats.acts, 99) <= 0.100 and mine == 0
        print(f"  target (0 errors, players' actions p99 <= 100 ms, no fallback in their games): "
              f"{'met' if met else 'NOT met'}")
    else:
        met = stats.errors == 0 and percentile(stats.reads, 99) <= 0.050
        print(f"  target (0 errors, p99 <= 50 ms for reads): {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
