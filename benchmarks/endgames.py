"""Where the rule policy throws away a won endgame, judged with every hand face up.

    nice -n 10 python benchmarks/endgames.py [--rounds 1500] [--cards 14] [--show 15]

Rounds dealt from seeds are played to the end by intermediate bots on every seat.  At each
play-phase decision with a choice and at most ``--cards`` cards left in all hands, the exact
solver (``dizhu.solver``, every hand face up) values every legal move; a decision where the
best move wins and the rule policy's own move (``intermediate_move``) loses is counted, by
variant, lead or reply, the kind played, the closest opponent's need (3 = three or more) and
the policy's reason.  Face up is more than a player knows, so not every case is a blunder a
bot could avoid; a pattern that comes back often is where the policy (and the search's
rollouts, which play it) can learn.  One such pattern, met in play, was fixed in 18d208e: leading
a small single to an opponent about to go out while holding controls that keep the lead.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.selfplay import decisions  # noqa: E402
from dizhu.bots.policy import Ctx, intermediate_move  # noqa: E402
from dizhu.bots.view import View  # noqa: E402
from dizhu.rules import same_side  # noqa: E402
from dizhu.solver import Position, Solver  # noqa: E402


def thrown_away(rounds: int, cards: int) -> tuple[int, collections.Counter, dict]:
    """(decisions judged, counts by pattern, up to two examples of each pattern)."""
    found: collections.Counter = collections.Counter()
    examples: dict = collections.defaultdict(list)
    judged = 0
    for variant in ("classic", "duel"):
        for round_, seat, obs in decisions(variant, rounds, "endgames"):
            if obs["phase"] != "playing" or sum(obs["cards_left"]) > cards or len(obs["legal_actions"]) < 2:
                continue
            values = Solver().move_values(Position.from_round(round_))
            best = max(v for _, v in values)
            move, reason, _ = intermediate_move(Ctx.of(View.of(obs)))
            mine = next(v for m, v in values if (m and m.key) == (move and move.key))
            judged += 1
            if best > 0 > mine:
                need = min(c for s, c in enumerate(obs["cards_left"]) if not same_side(s, seat, obs["landlord"]))
                pattern = (variant, "lead" if obs["trick"]["last"] is None else "reply",
                           move.kind.value if move else "pass", min(need, 3), reason)
                found[pattern] += 1
                if len(examples[pattern]) < 2:
                    better = next(m for m, v in values if v == best)
                    examples[pattern].append((obs["hand"], obs["cards_left"], obs["trick"]["last"],
                                              move and move.text, better and better.text))
    return judged, found, examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=1500, help="rounds of each variant")
    parser.add_argument("--cards", type=int, default=14, help="judge decisions with at most this many cards left")
    parser.add_argument("--show", type=int, default=15, help="patterns to print")
    args = parser.parse_args()
    judged, found, examples = thrown_away(args.rounds, args.cards)
    total = sum(found.values())
    print(f"{judged} decisions judged, {total} won endgames thrown away ({total / max(1, judged):.1%})")
    print("count  variant  situation  kind  opponent's need  policy's reason  | hand, cards left, play to beat, policy, better")
    for pattern, count in found.most_common(args.show):
        print(count, *pattern, "|", *examples[pattern][0])


if __name__ == "__main__":
    main()
