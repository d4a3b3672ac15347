"""What the HTTP benchmarks share: a real `dizhu serve` started on a free port, the simulated
players' options and what they measured, percentiles, and the CPU seconds of a process tree
(Linux /proc)."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Sequence

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def add_player_options(parser: argparse.ArgumentParser) -> None:
    """The simulated players' options, shared by load.py and hosts.py."""
    parser.add_argument("--players", type=int, default=50, help="concurrent simulated players (default 50)")
    parser.add_argument("--rounds", type=int, default=3, help="complete rounds per player (default 3)")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean think time before each move, seconds (default 0.5; drawn from 0 to twice this)")
    parser.add_argument("--variant", choices=["classic", "duel", "both"], default="both",
                        help="variant of the games (default both: half classic, half duel)")
    parser.add_argument("--level", choices=["normal", "intermediate", "super-hard"], default="normal",
                        help="the computers' level (default normal)")


def start_server(data_dir: Path, options: Sequence[str], log: IO[bytes] | None = None) -> tuple[subprocess.Popen, str]:
    """`dizhu serve` on a free loopback port with ``options``; returns it and its URL once it answers."""
    port = free_port()
    script = Path(sys.executable).parent / "dizhu"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "dizhu.cli"]
    command += ["serve", "--port", str(port), "--data-dir", str(data_dir), "--log-level", "warning",
                "--no-access-log", *options]
    process = subprocess.Popen(command, start_new_session=True, stdout=log,
                               stderr=subprocess.STDOUT if log is not None else None)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise SystemExit("the server stopped during start-up")
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            process.kill()
            raise SystemExit("the server did not start")
        time.sleep(0.1)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"  {name:<32} n={len(ms):>6}  p50={percentile(ms, 50):7.1f}  p90={percentile(ms, 90):7.1f}  "
            f"p99={percentile(ms, 99):7.1f}  max={max(ms) if ms else float('nan'):7.1f} ms")


@dataclass
class RequestStats:
    """What the simulated players measured, in seconds of wall clock a request."""

    reads: list[float] = field(default_factory=list)
    acts: list[float] = field(default_factory=list)
    creates: list[float] = field(default_factory=list)
    decisions: list[float] = field(default_factory=list)
    requests: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    rounds: int = 0

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 5:  # enough to see what went wrong, not a flood
            self.error_samples.append(what)

    def note_action(self, view: dict, elapsed: float) -> None:
        """An act-like answer: its time, and that time shared among the computer decisions it brought."""
        self.acts.append(elapsed)
        moves = computer_moves(view)
        if moves:
            self.decisions.extend([elapsed / moves] * moves)

    def report(self, elapsed: float) -> None:
        """Print the throughput, the errors seen and the percentiles of each kind of request."""
        print(f"  {self.rounds} rounds finished, {self.requests} requests in {elapsed:.1f} s = "
              f"{self.requests / elapsed:.1f} requests/s, errors: {self.errors}")
        for sample in self.error_samples:
            print(f"    error: {sample}")
        print(line("view reads (GET)", self.reads))
        print(line("human actions (whole request)", self.acts))
        print(line("per computer decision", self.decisions))
        print(line("game creation", self.creates))


def cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) of a process and of its children (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")

    def of(p: int) -> float:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / tick

    children = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                children += of(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return of(pid), children


async def timed(stats: RequestStats, client: httpx.AsyncClient, method: str, url: str, **kwargs: Any):
    """One request: ``(response, seconds)``, or ``(None, seconds)`` after counting a failure
    (no answer, or not 2xx) in ``stats`` (``requests``, ``error(text)``)."""
    start = time.perf_counter()
    try:
        response = await client.request(method, url, **kwargs)
    except httpx.HTTPError as exc:
        stats.requests += 1
        stats.error(f"{method} {url}: {type(exc).__name__}")
        return None, time.perf_counter() - start
    elapsed = time.perf_counter() - start
    stats.requests += 1
    if not 200 <= response.status_code < 300:
        stats.error(f"{method} {url.split('/')[-1]}: {response.status_code} {response.text[:120]}")
        return None, elapsed
    return response, elapsed


def computer_moves(view: dict) -> int:
    """Computer decisions (bids, plays, passes) among the events an answer brought back."""
    return sum(1 for e in view["events"] if e["type"] in ("bid", "play", "pass") and e.get("seat", 0) != 0)


async def play(n: int, client: httpx.AsyncClient, args: argparse.Namespace, stats: RequestStats,
               start_at: float, at: Callable[[str], str] = lambda path: path) -> str | None:
    """Simulated player ``n``: at ``start_at`` it creates a game (``args.variant``, ``args.level``) and
    plays ``args.rounds`` rounds of it with random legal actions, thinking ``args.think`` seconds on
    average before each; ``at`` makes a path a URL.  Returns the game's id, None if creating it failed."""
    rng = random.Random(n)
    variant = args.variant if args.variant != "both" else ("classic", "duel")[n % 2]
    await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
    response, elapsed = await timed(stats, client, "POST", at("/api/games"),
                                    json={"variant": variant, "level": args.level})
    if response is None:
        return None
    stats.creates.append(elapsed)
    created = response.json()
    game_id = created["game_id"]
    base = f"/api/games/{game_id}"
    headers = {"Authorization": f"Bearer {created['token']}"}
    view = created["view"]
    moves = 0
    for round_index in range(args.rounds):
        while view["observation"]["phase"] != "over":
            response, elapsed = await timed(stats, client, "GET", at(base), headers=headers,
                                            params={"since": view["event_count"]})
            if response is None:
                return game_id
            stats.reads.append(elapsed)
            view = response.json()
            await asyncio.sleep(rng.uniform(0, 2 * args.think))
            legal = view["observation"]["legal_actions"]
            body = {"action": rng.choice(legal), "version": view["version"], "request_id": f"{n}-{moves}"}
            moves += 1
            response, elapsed = await timed(stats, client, "POST", at(f"{base}/act"), headers=headers, json=body)
            if response is None:
                return game_id
            view = response.json()
            stats.note_action(view, elapsed)
        stats.rounds += 1
        if round_index + 1 < args.rounds:
            body = {"version": view["version"], "request_id": f"{n}-next-{round_index}"}
            path = "new-match" if view["match_over"] else "another-round"
            response, elapsed = await timed(stats, client, "POST", at(f"{base}/{path}"), headers=headers,
                                            json=body)
            if response is None:
                return game_id
            view = response.json()
            stats.note_action(view, elapsed)
    return game_id
