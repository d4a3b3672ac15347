"""Arena runs with different seeds, summed up as one run over all their deals.

    python benchmarks/pooled.py A_seed10.records.json A_seed11.records.json

Each file is what ``benchmarks/matchup.py --records FILE`` wrote for the same two players and
variant, each with its own ``--seed`` (so different deals).  A long measurement split into
seeds keeps what it has finished if the machine's time runs out; this prints the summary the
arena would have printed for one run over every deal (each deal's games averaged, then the mean
and its 95% interval over the deals), so 2 x 1,000 deals read as 2,000.

Giving the same file twice is refused: it would count each deal twice and narrow the interval.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from dizhu.arena import ArenaResult, format_summary


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", help="records files of runs with different seeds")
    parser.add_argument("--a", default="A", help="player A's name, for the heading")
    parser.add_argument("--b", default="B", help="player B's name, for the heading")
    parser.add_argument("--variant", default="?", help="the variant, for the heading")
    parser.add_argument("--bidding", action="store_true", help="the runs were played with bidding")
    args = parser.parse_args()
    paths = [Path(f).resolve() for f in args.files]
    if len(set(paths)) != len(paths):
        parser.error("a records file is given twice: its deals would count twice")
    runs = [json.loads(p.read_text()) for p in paths]
    games = pooled(runs)
    deals = len({g["deal"] for g in games})
    summary = ArenaResult(args.a, args.b, args.variant, deals, None, args.bidding, games, 0.0).summary()
    # the arena's heading would give one seed and a time; the records carry neither
    _, *lines = format_summary(summary).splitlines()
    print(f"{args.a} (A) vs {args.b} (B), {args.variant}, {deals} deals x 2, {summary['protocol']}, "
          f"pooled from {len(paths)} runs: " + ", ".join(p.name for p in paths))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
