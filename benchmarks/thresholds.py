"""The intermediate policy's thresholds (``dizhu.bots.policy.Style``), each changed alone, against the shipped ones.

    nice python benchmarks/thresholds.py --variant classic --deals 3000 [eager2 small-8 ...]

Each named change plays intermediate with that one threshold moved against intermediate as it
ships, DouZero protocol (no bidding; every deal twice, sides swapped), seed "ab", and prints A's
WP with its 95% interval and ADP.  Intermediate needs about 0.1 ms a decision, so 3,000 deals
take a minute or two: a cheap screen before a change of the policy goes to the search's far
dearer arenas (super-hard plays its own later moves, and reads others, by this policy).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from benchmarks.matchup import StyledIntermediate  # noqa: E402
from dizhu import arena  # noqa: E402
from dizhu.bots.policy import Style  # noqa: E402

#: The changes screened, by name.
CHANGES = {
    "eager2": Style(delta2_danger=20),
    "d2-5": Style(delta2_danger=5),
    "d1-5": Style(delta1_danger=5),
    "keep-control": Style(keep_control=True),
    "urgent3": Style(urgent_need=3),
    "urgent4": Style(urgent_need=4),
    "no-partner-top": Style(partner_top=False),
    "small0": Style(lead_small_bonus=0),
    "small-8": Style(lead_small_bonus=-8),
    "no-many-first": Style(lead_many_first=False),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("changes", nargs="*", choices=[[], *CHANGES], help="default: every one")
    parser.add_argument("--variant", default="classic", choices=["classic", "duel"])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    original = arena.make_player

    def make(name: str, variant: str, seed: Any, budget: float | None = None):
        if name in CHANGES:
            return StyledIntermediate(CHANGES[name], variant, seed)
        return original(name, variant, seed, budget)

    arena.make_player = make  # inherited by the forked workers
    arena.PLAYERS = arena.PLAYERS + tuple(CHANGES)
    for name in args.changes or CHANGES:
        summary = arena.run_arena(name, "intermediate", args.variant, deals=args.deals, seed="ab",
                                  workers=args.workers).summary()["overall"]
        wp, adp = summary["wp"], summary["adp"]
        print(f"{name:15} {args.variant}  WP {wp['value']:.3f} [{wp['low']:.3f}, {wp['high']:.3f}]  "
              f"ADP {adp['value']:+.3f}", flush=True)


if __name__ == "__main__":
    main()
