"""Several hosts on one PostgreSQL database against one host on SQLite, over HTTP.

    python benchmarks/hosts.py [--players 50] [--rounds 3] [--think 0.5] [--variant both]
                              [--level normal] [--workers N] [--sync full] [--url http://host:port]
                              [--hosts 1] [--postgres | --database postgresql://...]

Starts `dizhu serve` on a temporary data directory (unless --url names a running server),
then runs --players concurrent players.  Each creates a game against computers of --level
(normal by default) and plays --rounds complete rounds: before each move it reads its view (GET, as a reloading
client would), waits a think time drawn uniformly from [0, 2 x --think] seconds, and acts
with a random legal action; after a round, "another round".

With --hosts N, N servers share one PostgreSQL database (--database, or --postgres to start a
throwaway one with fsync on, in a temporary directory) and each player's requests go to the
hosts in turn, as a round-robin load balancer sends them (--affinity: each player's to one host,
as a balancer that hashes the game id sends them).  Reported:

- requests/s and errors (any non-2xx answer or failed connection);
- latency p50/p90/p99/max of view reads, of human actions (the whole act request) and per
  computer decision (a request's time shared among the computers' actions in its answer, one
  entry each), with its p95; the servers run with `--pace 0`, so these are raw times, not the
  paced ones players see;
- CPU seconds of the hosts, their bot workers and PostgreSQL.

The target on a 2-core machine: 50 players, zero errors, p99 <= 50 ms for reads.
(benchmarks/load.py is the one-host benchmark with the pace, the greedy client and fallbacks.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from served import RequestStats, add_player_options, cpu_seconds, percentile, play, start_server

ROOT = Path(__file__).resolve().parents[1]


async def player(n: int, client: httpx.AsyncClient, args: argparse.Namespace, stats: RequestStats,
                 start_at: float, hosts: list[str]) -> None:
    turn = n  # the next request goes to hosts[turn % len(hosts)]

    def at(path: str) -> str:
        nonlocal turn
        if not args.affinity:
            turn += 1
        return hosts[turn % len(hosts)] + path

    await play(n, client, args, stats, start_at, at)


def server_options(args: argparse.Namespace, database: str | None) -> list[str]:
    # Raw times (no pace); every simulated player comes from this one address: no per-address limits.
    options = ["--sync", args.sync, "--pace", "0", "--create-limit", "0", "--round-limit", "0",
               "--client-thinking", "0"]
    if args.workers is not None:
        options += ["--workers", str(args.workers)]
    if args.bot_budget is not None:
        options += ["--bot-budget", str(args.bot_budget)]
    return options + (["--database", database] if database else [])


async def run(args: argparse.Namespace, urls: list[str]) -> RequestStats:
    stats = RequestStats()
    connections = args.players * len(urls)
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        now = time.perf_counter()
        # Players arrive over the first second, as they would, not all in one instant.
        await asyncio.gather(*(player(n, client, args, stats, now + n / max(1, args.players), urls)
                               for n in range(args.players)))
    return stats


def postgres_cpu(server) -> float:
    """CPU seconds of a throwaway PostgreSQL: its postmaster and every backend."""
    pid = int((server.data / "postmaster.pid").read_text().split()[0])
    own, children = cpu_seconds(pid)
    return own + children


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_player_options(parser)
    parser.add_argument("--workers", type=int, default=None, help="bot worker processes for each server")
    parser.add_argument("--bot-budget", type=float, default=None, help="the servers' --bot-budget")
    parser.add_argument("--sync", choices=["full", "normal"], default="full", help="the server's --sync")
    parser.add_argument("--url", default=None, help="use this running server instead of starting one")
    parser.add_argument("--hosts", type=int, default=1, help="servers sharing one PostgreSQL database (default 1)")
    parser.add_argument("--affinity", action="store_true",
                        help="each player's requests all go to one host (as a balancer hashing the game id "
                        "does), instead of to the hosts in turn")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--database", default=None, metavar="URL", help="the servers' --database")
    where.add_argument("--postgres", action="store_true",
                       help="start a throwaway PostgreSQL server (fsync on) for the servers")
    args = parser.parse_args()
    if args.hosts > 1 and not (args.database or args.postgres):
        parser.error("several hosts need a shared database: --postgres or --database postgresql://...")

    data_dir = Path(tempfile.mkdtemp(prefix="dizhu-load-"))
    processes: list[subprocess.Popen] = []
    postgres = None
    server_cpu = None
    database_cpu = None
    try:
        database = args.database
        if args.postgres:
            sys.path.insert(0, str(ROOT))
            from tests.web.pg_support import TempPostgres

            postgres = TempPostgres(durable=True)
            database = postgres.url
        if args.url:
            urls = [args.url]
        else:
            urls = []
            for n in range(args.hosts):
                process, url = start_server(data_dir / f"host{n}", server_options(args, database))
                processes.append(process)
                urls.append(url)
        before = [cpu_seconds(p.pid) for p in processes]
        database_before = postgres_cpu(postgres) if postgres else 0.0
        own_before = time.process_time()
        start = time.perf_counter()
        stats = asyncio.run(run(args, urls))
        elapsed = time.perf_counter() - start
        own_cpu = time.process_time() - own_before
        if processes:
            after = [cpu_seconds(p.pid) for p in processes]
            server_cpu = (sum(a[0] - b[0] for a, b in zip(after, before)),
                          sum(a[1] - b[1] for a, b in zip(after, before)))
        if postgres is not None:
            database_cpu = postgres_cpu(postgres) - database_before
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        if postgres is not None:
            postgres.stop()
        shutil.rmtree(data_dir, ignore_errors=True)

    storage = "SQLite" if not (args.database or args.postgres) else "PostgreSQL"
    print(f"dizhu load test: {args.players} players x {args.rounds} rounds ({args.variant}), {args.level}-level "
          f"computers, think time mean {args.think:.2f} s, {args.hosts} host(s) on {storage}"
          + (" (a game stays on one host)" if args.affinity and args.hosts > 1 else "")
          + f", server --sync {args.sync}"
          + (f", --workers {args.workers}" if args.workers is not None else "")
          + (f", --bot-budget {args.bot_budget}" if args.bot_budget is not None else "")
          + f", {os.cpu_count()} CPUs")
    stats.report(elapsed)
    if stats.decisions:
        p95 = percentile(stats.decisions, 95)
        print(f"  per computer decision p95: {p95 * 1000:.1f} ms "
              f"(<= 1 s: {'yes' if p95 <= 1.0 else 'NO'})")
    if server_cpu is not None and stats.decisions:
        print(f"  computer decisions: {len(stats.decisions)}, bot workers' CPU per decision: "
              f"{server_cpu[1] / len(stats.decisions) * 1000:.1f} ms")
    if server_cpu is not None and stats.requests:
        print(f"  servers' CPU per request: {server_cpu[0] / stats.requests * 1000:.2f} ms"
              + (f", PostgreSQL's: {database_cpu / stats.requests * 1000:.2f} ms" if database_cpu is not None else ""))
    if server_cpu is not None:
        print(f"  CPU seconds used: servers {server_cpu[0]:.1f}, their bot workers {server_cpu[1]:.1f}, "
              + (f"PostgreSQL {database_cpu:.1f}, " if database_cpu is not None else "")
              + f"this load generator {own_cpu:.1f} (of {elapsed * (os.cpu_count() or 1):.0f} available)")
    met = stats.errors == 0 and percentile(stats.reads, 99) <= 0.050
    print(f"  target (0 errors, p99 <= 50 ms for reads): {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
