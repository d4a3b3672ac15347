"""How many of the worlds a duel decision plays out count, and how near they come to the truth.

    nice -n 10 python benchmarks/worlds.py [--rounds 25] [--players super-hard super-hard-sir1 ...]

Plays ``--rounds`` seeded duel rounds of intermediate bots (``benchmarks/selfplay.py``) and, at
every play decision with a choice from each seat's second on (when there is something to read),
runs each player's search (``dizhu.bots.search.evaluate``, default budget, the seat's own view;
the players are ``benchmarks/matchup.py``'s names) and records the worlds it plays out:

- ``worlds``: how many it played out;
- ``n_eff``: how many equally weighted worlds their weights are worth (Kish's effective number);
- ``L1``: the weighted mean distance, rank by rank, between the opponent's hand in the worlds and
  its true hand (the cards the reading had to guess; lower is a sharper, truer reading).

Prints the medians of the first two and the mean of the third, per player.  Intermediate plays
both seats, so ``super-hard-told`` (read as exactly intermediate) is the truest reading there is.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from benchmarks.matchup import ABLATIONS, config_of  # noqa: E402
from benchmarks.selfplay import decisions  # noqa: E402
from dizhu.bots import search  # noqa: E402
from dizhu.bots.search import evaluate  # noqa: E402
from dizhu.bots.view import View  # noqa: E402


def measure(players: list[str], rounds: int) -> dict[str, list[tuple[int, float, float]]]:
    """Per player, (worlds, n_eff, L1) at each decision measured."""
    drawn: list[tuple[list[list[int]], float]] = []
    real = search._draw_world

    def spy(view, rng, config, table):
        hands, reading, weight, used = real(view, rng, config, table)
        drawn.append((hands, weight))
        return hands, reading, weight, used

    search._draw_world = spy
    out: dict[str, list[tuple[int, float, float]]] = {p: [] for p in players}
    seen: dict[int, int] = {}  # the seats' decisions with a choice so far, this round
    current = None
    try:
        for round_, seat, obs in decisions("duel", rounds, "worlds"):
            if round_ is not current:
                current, seen = round_, {}
            if obs["phase"] != "playing" or len(obs["legal_actions"]) < 2:
                continue
            seen[seat] = seen.get(seat, 0) + 1
            if seen[seat] < 2:
                continue
            truth = list(round_.hand(1 - seat).counts)
            view = View.of(obs)
            for player in players:
                drawn.clear()
                evaluate(view, random.Random(seen[seat]), config=config_of(player))
                total = sum(w for _, w in drawn)
                if total <= 0:
                    continue
                n_eff = total * total / sum(w * w for _, w in drawn)
                far = sum(w * sum(abs(a - b) for a, b in zip(h[1 - seat], truth)) for h, w in drawn) / total
                out[player].append((len(drawn), n_eff, far))
    finally:
        search._draw_world = real
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--players", nargs="+", default=["super-hard", "super-hard-oldread", "super-hard-sir1",
                                                         "super-hard-told", "super-hard-told1"])
    args = parser.parse_args()
    unknown = [p for p in args.players if p != "super-hard" and p not in ABLATIONS]
    if unknown:
        parser.error(f"unknown players {unknown}: super-hard or one of benchmarks/matchup.py's ablations")
    results = measure(args.players, args.rounds)
    print(f"duel, {args.rounds} rounds of intermediate self-play, from each seat's second decision with a choice")
    print(f"{'player':22} {'decisions':>9} {'worlds':>8} {'n_eff':>8} {'L1':>7}")
    for player, rows in results.items():
        if rows:
            worlds, n_eff, far = zip(*rows)
            print(f"{player:22} {len(rows):9d} {statistics.median(worlds):8.0f} {statistics.median(n_eff):8.1f} "
                  f"{statistics.mean(far):7.3f}")


if __name__ == "__main__":
    main()
