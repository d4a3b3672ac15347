"""Two arena runs over the same deals, compared deal by deal.

    python benchmarks/paired.py A.json B.json [A2.json B2.json ...]

Each file is what ``benchmarks/matchup.py --records FILE`` wrote: one record per game.
Give the files in pairs, each pair run with the same ``--seed`` and ``--deals`` (so the same
deals, dealt the same way), with two versions of player A against the same B.  Prints, over
the deals of every pair together, how much more A's first version won (WP) and scored (ADP)
than its second, with a 95% confidence interval.  Pairing removes the luck of the cards,
which two separate intervals leave in: a small difference can be clear here and not there.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path


def _game(g: dict) -> tuple[int, bool]:
    """Which game of the deal a record is: its seating (records before ``a_seat0`` was kept: the
    landlord's side, the same thing without bidding)."""
    return g["deal"], g.get("a_seat0", g["a_landlord"])


def differences(first: list[dict], second: list[dict], field: str) -> list[float]:
    """Per deal, the mean over its games of ``first``'s ``field`` minus ``second``'s."""
    other = {_game(g): g for g in second}
    if len(other) != len(second):
        raise SystemExit("two games of a deal look alike: records with bidding need a_seat0 to be paired")
    by_deal: dict[int, list[float]] = {}
    for g in first:
        twin = other.get(_game(g))
        if twin is None:
            raise SystemExit(f"deal {g['deal']} is in one file and not in the other: not the same deals")
        by_deal.setdefault(g["deal"], []).append(float(g[field]) - float(twin[field]))
    return [sum(v) / len(v) for v in by_deal.values()]


def interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and its 95% confidence interval.

    >>> interval([1.0, 0.0, 1.0, 0.0])
    (0.5, -0.06580..., 1.06580...)
    """
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * spread / math.sqrt(n)
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", help="records files, in pairs: first version, second version")
    args = parser.parse_args()
    if len(args.files) % 2:
        parser.error("the records files come in pairs")
    pairs = [(args.files[i], args.files[i + 1]) for i in range(0, len(args.files), 2)]
    for field, name in (("a_won", "WP"), ("a_points", "ADP")):
        values: list[float] = []
        for a, b in pairs:
            values += differences(json.loads(Path(a).read_text()), json.loads(Path(b).read_text()), field)
        mean, low, high = interval(values)
        print(f"{name} difference, first minus second: {mean:+.3f} [{low:+.3f}, {high:+.3f}] over {len(values)} deals")


if __name__ == "__main__":
    main()
