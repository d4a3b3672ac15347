"""Our bots against a public Dou Dizhu bot, with the DouZero protocol.

    python benchmarks/vs_public.py --a super-hard --deals 500 [--budget 0.25]

The public bot is the rule-based "RLCard" agent that ships with DouZero
(``douzero.evaluation.rlcard_agent.RLCardAgent``, used as a baseline in the
DouZero paper).  It is wrapped as a player that receives only our
observation, converted to the DouZero information set it expects; it picks
among our legal actions.  DouZero's own deep models need weights that are
not available offline, so they are not measured here.

Needs ``pip install numpy termcolor && pip install --no-deps rlcard==1.2.0 douzero==1.1.0``.
Classic only (the agent knows three seats).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from dizhu import arena  # noqa: E402
from dizhu.cards import parse_cards  # noqa: E402

ENV_RANK = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]


def _env(text: str) -> list[int]:
    return sorted(ENV_RANK[c.rank] for c in parse_cards(text)) if text else []


class _InfoSet:
    pass


class RLCardPlayer:
    """DouZero's RLCard agent behind our player interface (observation in, action out)."""

    def __init__(self, seed=None) -> None:
        from douzero.evaluation.rlcard_agent import RLCardAgent

        self._agents = {}
        self._cls = RLCardAgent

    def decide(self, obs: dict) -> str:
        import random

        random.seed(repr((obs["hand"], obs["history"])))  # the agent falls back on random.choice
        landlord = obs["landlord"]
        players = obs["players"]
        position = {0: "landlord", 1: "landlord_down", 2: "landlord_up"}[(obs["seat"] - landlord) % players]
        agent = self._agents.setdefault(position, self._cls(position))
        info = _InfoSet()
        info.player_hand_cards = _env(obs["hand"])
        moves = [_env(t) if t != "pass" else [] for _, t in obs["history"]]
        seats = [s for s, _ in obs["history"]]
        info.last_two_moves = ([[], []] + moves)[-2:]
        last = next((m for m in reversed(moves[-2:]) if m), [])
        info.last_move = last
        last_pid = "landlord"
        for s, m in zip(reversed(seats), reversed(moves)):
            if m:
                last_pid = {0: "landlord", 1: "landlord_down", 2: "landlord_up"}[(s - landlord) % players]
                break
        info.last_pid = last_pid
        texts = obs["legal_actions"]
        info.legal_actions = [_env(t[5:]) if t != "pass" else [] for t in texts]
        action = agent.act(info)
        chosen = "pass" if not action else None
        if chosen is None:
            for t, env in zip(texts, info.legal_actions):
                if env == sorted(action):
                    chosen = t
                    break
        return chosen or "pass"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", default="super-hard", choices=["normal", "intermediate", "super-hard"])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--budget", type=float, default=None)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    original = arena.make_player

    def make_player(name, variant, seed, budget=None):
        if name == "random":  # the slot we borrow for the public bot
            return RLCardPlayer(seed)
        return original(name, variant, seed, budget)

    arena.make_player = make_player  # inherited by the forked workers
    result = arena.run_arena(args.a, "random", "classic", deals=args.deals, seed=args.seed,
                             workers=args.workers, budget=args.budget, progress=arena.progress_bar)
    print(arena.format_summary(result.summary()).replace("random (B)", "DouZero's RLCard agent (B)"))


if __name__ == "__main__":
    main()
