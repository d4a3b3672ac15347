"""What the HTTP benchmarks share: a real `dizhu serve` started on a free port, the simulated
players' options, percentiles, and the CPU seconds of a process tree (Linux /proc)."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any, Sequence

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


async def timed(stats: Any, client: httpx.AsyncClient, method: str, url: str, **kwargs: Any):
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
