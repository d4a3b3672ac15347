"""Arena runs with different seeds, summed up as one run over all their deals.

A long measurement split into seeds keeps what it has finished if the machine's time runs out.
Pooled, the records of runs of the same two players and variant, each with its own seed (so
different deals), give the summary the arena would have given for one run over every deal (each
deal's games averaged, then the mean and its 95% interval over the deals): 2 x 1,000 deals read
as 2,000.  ``benchmarks/pooled.py`` is its command line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from .arena import ArenaResult, format_summary

__all__ = ["pooled", "read_runs", "pooled_result", "format_pooled"]


def pooled(runs: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The games of every run, each run's deals numbered after the previous run's.

    >>> one = [{"deal": 0, "a_won": True}, {"deal": 0, "a_won": False}, {"deal": 1, "a_won": True}]
    >>> [g["deal"] for g in pooled([one, one[:2]])]
    [0, 0, 1, 2, 2]
    """
    games: list[dict[str, Any]] = []
    for run in runs:
        offset = 1 + max((g["deal"] for g in games), default=-1)
        games.extend({**g, "deal": g["deal"] + offset} for g in run)
    return games


def read_runs(files: Sequence[str | Path]) -> list[list[dict[str, Any]]]:
    """The games of each records file (what the arena's records are written as, a JSON list).

    A file given twice is refused with ``ValueError``: it would count each deal twice and narrow
    the interval.
    """
    paths = [Path(f).resolve() for f in files]
    if len(set(paths)) != len(paths):
        raise ValueError("a records file is given twice: its deals would count twice")
    return [json.loads(p.read_text()) for p in paths]


def pooled_result(runs: list[list[dict[str, Any]]], a: str = "A", b: str = "B", variant: str = "?",
                  bidding: bool = False) -> ArenaResult:
    """The runs as one arena result over all their deals (no seed: there are several; no time)."""
    games = pooled(runs)
    deals = len({g["deal"] for g in games})
    return ArenaResult(a, b, variant, deals, None, bidding, games, 0.0)


def format_pooled(result: ArenaResult, names: Sequence[str]) -> str:
    """The arena's summary of a pooled result, headed by the runs it pools (``names``, one a run)
    instead of the arena's seed and time, which the records do not carry."""
    summary = result.summary()
    _, *lines = format_summary(summary).splitlines()
    heading = (f"{result.a} (A) vs {result.b} (B), {result.variant}, {result.deals} deals x 2, "
               f"{summary['protocol']}, pooled from {len(names)} runs: " + ", ".join(names))
    return "\n".join([heading, *lines])
