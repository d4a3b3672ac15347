"""The arena's deals spread over a Ray cluster (the ``dizhu[ray]`` extra).

``dizhu arena --ray auto`` (or ``--ray HOST:PORT``, or ``--ray local`` for a
Ray instance started on this machine) plays the same deals as a local run:
each deal's cards and each bot's seed come from the arena seed and the deal's
number alone, so where a deal is played changes nothing, and the records are
sorted the same way afterwards.

The cluster needs Python and Ray, not dizhu: when it connects to a cluster,
the arena ships the dizhu package to it with the job (Ray's ``py_modules``),
so every worker runs exactly the driver's code.  Deals go out in chunks,
with a bounded number in flight, so 100,000 deals need no more memory on
the driver than their results.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["play_on_ray", "connect"]


def _play_chunk(play: Callable[[tuple], list[dict[str, Any]]], jobs: Sequence[tuple]) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for job in jobs:
        records += play(job)
    return records


def connect(address: str) -> Any:
    """Connect to the cluster at ``address`` (``auto``, ``HOST:PORT`` or ``local``) unless connected."""
    try:
        import ray
    except ImportError:
        raise SystemExit("dizhu arena --ray needs Ray: pip install 'dizhu[ray]'") from None
    if not ray.is_initialized():
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            package = str(Path(__file__).resolve().parent)
            ray.init(address=address, log_to_driver=False,
                     runtime_env={"py_modules": [package]})
    return ray


def play_on_ray(jobs: Sequence[tuple], play: Callable[[tuple], list[dict[str, Any]]], address: str,
                progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Play every job with ``play`` (:func:`dizhu.arena.play_deal`, a module-level function the
    workers import by name) on the cluster; the records."""
    ray = connect(address)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    # chunks long enough to hide the scheduling cost, short enough to keep every CPU busy to the end
    chunk = max(1, min(50, len(jobs) // (cpus * 8)))
    remote = ray.remote(_play_chunk)
    chunks = [jobs[i : i + chunk] for i in range(0, len(jobs), chunk)]
    in_flight: dict[Any, int] = {}
    records: list[dict[str, Any]] = []
    done = 0
    submitted = 0
    while submitted < len(chunks) or in_flight:
        while submitted < len(chunks) and len(in_flight) < 4 * cpus:
            in_flight[remote.remote(play, chunks[submitted])] = len(chunks[submitted])
            submitted += 1
        ready, _ = ray.wait(list(in_flight), num_returns=1)
        for ref in ready:
            records += ray.get(ref)
            count = in_flight.pop(ref)
            if progress:
                for _ in range(count):
                    done += 1
                    progress(done, len(jobs))
    return records
