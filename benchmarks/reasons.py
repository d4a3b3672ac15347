"""What the hint says: how often each reason explains its first suggestion.

    nice -n 10 python benchmarks/reasons.py [--rounds 40] [--variant classic] [--variant duel]

Each round is dealt from a seed and played to the end by intermediate bots on every seat; at
each of seat 0's turns in the play with a choice (more than one legal action) the hint is
asked as the server asks it (``dizhu.bots.hint``, its own budget).  Prints, per variant, the
count and share of each reason key.  A reason that only quotes the search's figures
(``search``, and ``contest``, which names its point but leans on the figures) says least; the
aim is that most hints name the point of the move.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.selfplay import decisions  # noqa: E402
from dizhu.bots.players import hint  # noqa: E402


def reasons(variant: str, rounds: int) -> collections.Counter[str]:
    counts: collections.Counter[str] = collections.Counter()
    for _, seat, obs in decisions(variant, rounds, "reasons"):
        if seat == 0 and obs["phase"] == "playing" and len(obs["legal_actions"]) > 1:
            counts[hint(obs)["reason"]["key"]] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--variant", action="append", choices=["classic", "duel"])
    args = parser.parse_args()
    for variant in args.variant or ["classic", "duel"]:
        counts = reasons(variant, args.rounds)
        total = sum(counts.values())
        print(f"{variant}: {total} hints in {args.rounds} rounds")
        for key, n in counts.most_common():
            print(f"  {key:<20} {n:5d}  {n / total:6.1%}")
        figures = counts["search"] + counts["contest"]
        print(f"  with the search's figures: {figures / total:.1%} (search {counts['search']}, contest {counts['contest']})")


if __name__ == "__main__":
    main()
