"""Every level's decision, and the hint, on seeded positions: a fingerprint of the bots' behaviour.

    nice -n 10 python benchmarks/decisions.py --positions 2000 --out /tmp/decisions-after.json
    python benchmarks/decisions.py --compare /tmp/decisions-before.json /tmp/decisions-after.json

A refactoring that must not change how the bots play is run on both sides of the change and the
two files compared: every position, every level, the same action and the same reason.  The
positions are the decisions of seeded rounds of intermediate bots (bidding and play, both
variants).  Super-hard and the hint search with a budget counted in simulated decisions, never
cut by the clock, so their decisions are a function of the position and the seed alone; the
budget is small (``--budget``) so that thousands of positions take minutes, and the search's
code paths are the same at any budget.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.selfplay import decisions  # noqa: E402
from dizhu.bots import create, hint  # noqa: E402


def fingerprint(variant: str, positions: int, budget: float) -> list[dict]:
    """One record per position: the seat's position and each level's action and reason."""
    levels = {level: create(level, variant, seed=7, budget=budget)
              for level in ("normal", "intermediate", "super-hard")}
    rows: list[dict] = []
    for round_, seat, obs in decisions(variant, positions, "fingerprint"):
        if len(rows) >= positions:
            break
        if len(obs["legal_actions"]) < 2:
            continue
        row = {"seat": seat,
               "hand": obs["hand"], "history": len(obs["history"])}
        for level, bot in levels.items():
            decision = bot.explain(obs)
            row[level] = [decision.action, decision.reason, dict(decision.params)]
        shown = hint(obs, budget=budget, n=3)
        row["hint"] = [[a["action"], a["reason"]["key"], a["reason"]["params"], a.get("figures")]
                       for a in shown["alternatives"]]
        rows.append(row)
    return rows


def compare(before: dict, after: dict) -> int:
    """Print where two fingerprints differ; the number of positions that differ."""
    differ = 0
    for variant in before["rows"]:
        a, b = before["rows"][variant], after["rows"].get(variant, [])
        if len(a) != len(b):
            print(f"{variant}: {len(a)} positions before, {len(b)} after")
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                differ += 1
                if differ <= 10:
                    print(f"{variant} #{i}:\n  before {x}\n  after  {y}")
        print(f"{variant}: {sum(x == y for x, y in zip(a, b))} of {len(a)} positions the same")
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=2000, help="positions per variant")
    parser.add_argument("--budget", type=float, default=0.02, help="super-hard's and the hint's budget (s)")
    parser.add_argument("--variants", default="classic,duel")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(p.read_text()) for p in args.compare)
        sys.exit(1 if compare(before, after) else 0)
    from dizhu.bots.styles import compiled  # noqa: PLC0415
    result = {"budget": args.budget, "compiled": compiled() is not None, "rows": {}, "seconds": {}}
    for variant in args.variants.split(","):
        start = time.process_time()
        result["rows"][variant] = fingerprint(variant, args.positions, args.budget)
        result["seconds"][variant] = round(time.process_time() - start, 1)
        print(f"{variant}: {len(result['rows'][variant])} positions, {result['seconds'][variant]} CPU s",
              flush=True)
    text = json.dumps(result, sort_keys=True)
    if args.out:
        args.out.write_text(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
