"""Where super-hard's search and the rule policy choose differently, and what the difference is worth.

    nice -n 10 python benchmarks/disagree.py --variant duel [--rounds 80] [--show 12] [--examples 3]

Rounds dealt from seeds are played to the end by intermediate bots on every seat.  At each
play-phase decision with a choice, the search (:func:`dizhu.bots.search.ranked`, the seat's own
view, 0.15 s of simulated decisions) names its best move; where that is not the rule policy's
own move (``intermediate_move``), both are played out again on the same worlds (0.4 s, no race),
and the gain of the search's move in points and in the chance to win is recorded.  The
decisions are grouped by lead or reply, the kind the policy plays, the kind the search plays
and the policy's reason, heaviest total gain in points first.

The search is itself built on the rule policy (it plays every later move by it), so this is
where one step of search improves on the policy: the cases a stronger rollout policy, or one
distilled from search, would have to learn.  Its last run found the gain spread over many kinds of
decisions (``benchmarks/results/disagree.md``, docs/DECISIONS.md); of the rules it screened
from them as a policy (``benchmarks/thresholds.py``) three lost or tied and were dropped, and one
example (a bomb not played with the opponent on one card, the rest of the hand pairs) showed a
real fault: a control judged on the unseen cards alone, not on what an opponent can hold.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.selfplay import decisions  # noqa: E402
from dizhu.bots.policy import Ctx, intermediate_move  # noqa: E402
from dizhu.bots.search import evaluate, ranked  # noqa: E402
from dizhu.bots.view import View  # noqa: E402


def disagreements(variant: str, rounds: int) -> tuple[int, list[dict[str, Any]]]:
    """(decisions with a choice, one record per decision where the search's move differs)."""
    judged = 0
    found: list[dict[str, Any]] = []
    for _, seat, obs in decisions(variant, rounds, "disagree"):
        if obs["phase"] != "playing" or len(obs["legal_actions"]) < 2:
            continue
        view = View.of(obs)
        judged += 1
        estimates, choice = ranked(view, random.Random(judged), 0.15)
        best = estimates[0].move
        if estimates[0].worlds == 0 or (best and best.key) == (choice and choice.key):
            continue
        mine, better = evaluate(view, random.Random(judged), [choice, best], 0.4, race=False)
        _, reason, _ = intermediate_move(Ctx.of(view))
        found.append({
            "pattern": ("lead" if obs["trick"]["last"] is None else "reply",
                        choice.kind.value if choice else "pass", best.kind.value if best else "pass", reason),
            "example": (obs["hand"], obs["cards_left"], obs["trick"]["last"], choice and choice.text, best and best.text),
            "points": better.points - mine.points, "win": better.win_chance - mine.win_chance})
    return judged, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="duel", choices=["classic", "duel"])
    parser.add_argument("--rounds", type=int, default=80)
    parser.add_argument("--show", type=int, default=12, help="patterns to print")
    parser.add_argument("--examples", type=int, default=3, help="the largest gains shown under each pattern")
    args = parser.parse_args()
    judged, found = disagreements(args.variant, args.rounds)
    groups: dict[tuple, list[dict[str, Any]]] = collections.defaultdict(list)
    for record in found:
        groups[record["pattern"]].append(record)
    print(f"{args.variant}, {args.rounds} rounds: {judged} decisions with a choice, the search differs in {len(found)}; "
          f"its moves gain {sum(r['points'] for r in found) / max(1, judged):+.3f} points and "
          f"{sum(r['win'] for r in found) / max(1, judged):+.3f} of a win a decision on average")
    print("count  points  wins  lead/reply  policy's kind  search's kind  policy's reason")
    for pattern, records in sorted(groups.items(), key=lambda kv: -sum(r["points"] for r in kv[1]))[:args.show]:
        print(f"{len(records):5d} {sum(r['points'] for r in records):+7.1f} {sum(r['win'] for r in records):+5.2f}  ",
              *pattern)
        for r in sorted(records, key=lambda r: -r["points"])[:args.examples]:
            print("        hand, cards left, play to beat, policy, search:", *r["example"],
                  f"| {r['points']:+.2f} points, {r['win']:+.2f} wins")


if __name__ == "__main__":
    main()
