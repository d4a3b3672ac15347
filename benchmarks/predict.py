"""How well each opponent style predicts a player's play-phase decisions.

    nice -n 10 python benchmarks/predict.py --player frozen-super-hard --steps 4400 --rounds 10

Plays ``--rounds`` seeded rounds (DouZero protocol: landlord dealt 20, no bidding)
with ``--player`` in every seat, and at each of its decisions with more than one
legal action asks every style of :mod:`dizhu.bots.styles` what it would have
played from that seat's knowledge.  Prints each style's agreement rate and the
rate the neutral mixture (``styles.PRIOR``, a style drawn per decision) would
reach: the rollouts model the other seats that way, so a mixture that predicts a
player worse than one style alone mis-models it.  The distilled policy
(``styles.OWN_STYLES``: the search plays its own later moves by it, never an
opponent's) is reported beside them, below the mixture.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from dizhu import Round, arena  # noqa: E402
from dizhu.bots.policy import Ctx  # noqa: E402
from dizhu.bots.styles import OWN_STYLES, PRIOR, STYLE_NAMES  # noqa: E402
from dizhu.bots.view import View  # noqa: E402
from benchmarks.matchup import EXTRA, make_player  # noqa: E402

#: The opponent styles, then the policies the search plays only its own moves by.
NAMES = STYLE_NAMES + tuple(name for name in OWN_STYLES if name not in STYLE_NAMES)


def agreement(player: str, variant: str, rounds: int, steps: int | None) -> tuple[list[int], int]:
    """Per style (``NAMES`` order), how many decisions it matched, and the decisions read."""
    make = make_player(arena.make_player, steps)
    hits = [0] * len(NAMES)
    decisions = 0
    for n in range(rounds):
        r = Round.deal(variant, seed=f"predict-{variant}-{n}")
        r.apply(r.to_act, r.observation(r.to_act)["legal_actions"][-1])  # the first bidder takes it
        while r.phase == "bidding":
            r.apply(r.to_act, "pass")
        seats = [make(player, variant, (n, s)) for s in range(r.players)]
        while r.result is None:
            seat = r.to_act
            obs = r.observation(seat)
            action = seats[seat].decide(obs)
            if len(obs["legal_actions"]) > 1:
                ctx = Ctx.of(View.of(obs))
                for k, name in enumerate(NAMES):
                    move = OWN_STYLES[name](ctx, random.Random(n))
                    hits[k] += ("pass" if move is None else f"play {move.text}") == action
                decisions += 1
            r.apply(seat, action)
    return hits, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--player", default="frozen-super-hard", choices=arena.PLAYERS + EXTRA)
    parser.add_argument("--variant", default="classic", choices=["classic", "duel"])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--steps", type=int, default=None, help="as matchup.py --steps")
    args = parser.parse_args()
    hits, decisions = agreement(args.player, args.variant, args.rounds, args.steps)
    print(f"{args.player}, {args.variant}, {args.rounds} rounds, {decisions} decisions with a choice")
    total = sum(PRIOR.values())
    for k, name in enumerate(STYLE_NAMES):
        print(f"  {name:<14}{hits[k] / decisions:>7.3f}")
    mixture = sum(PRIOR[name] / total * hits[k] for k, name in enumerate(STYLE_NAMES)) / decisions
    print(f"  {'prior mixture':<14}{mixture:>7.3f}")
    for k in range(len(STYLE_NAMES), len(NAMES)):
        print(f"  {NAMES[k]:<14}{hits[k] / decisions:>7.3f}")


if __name__ == "__main__":
    main()
