"""Generate the endgame puzzles (src/dizhu/puzzles/<variant>.json) from seeded deals.

    python tools/make_puzzles.py [--count 72] [--variants classic duel]

For each seed ``puzzle-<variant>-<n>``, a round is dealt, bid and played by
intermediate computer players.  At each decision of the play phase with
between ``--min-cards`` and ``--max-cards`` cards in all hands, the
position is graded (dizhu.puzzles.grade: the side to act must win against
the best defence, not by any move, in at least two of its own moves); the
first that qualifies and that the solver settles within ``--nodes``
positions becomes a puzzle, and the tool goes on to the next seed.  The
same seeds give the same puzzles.  They are written easiest first, with a
balanced share of each difficulty level where the seeds allow.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from dizhu.bots import create  # noqa: E402
from dizhu.game import Round  # noqa: E402
from dizhu.game.round import OVER, PLAYING  # noqa: E402
from dizhu.puzzles import Puzzle  # noqa: E402
from dizhu.puzzles.grade import LEVELS, grade  # noqa: E402
from dizhu.solver import Position, Solver, SolveTimeout  # noqa: E402
from dizhu.variants import get_variant  # noqa: E402


class _Budget(Solver):
    """A solver that gives up after a number of positions (keeps puzzles quick to re-verify)."""

    def __init__(self, nodes: int) -> None:
        super().__init__()
        self.limit = nodes

    def _search(self, *args):  # type: ignore[override]
        if self.nodes > self.limit:
            raise SolveTimeout
        return super()._search(*args)


def puzzle_from_seed(variant: str, seed: str, low: int, high: int, nodes: int):
    v = get_variant(variant)
    round_ = Round.deal(v, seed=seed)
    bots = [create("intermediate", v, seed=f"{seed}/{s}") for s in range(v.players)]
    while round_.phase != OVER:
        if round_.phase == PLAYING and low <= sum(round_.cards_left) <= high:
            position = Position.from_round(round_)
            try:
                found = grade(position, _Budget(nodes))
            except SolveTimeout:
                found = None
            if found is not None:
                return position, found
        seat = round_.to_act
        round_.apply(seat, bots[seat].decide(round_.observation(seat)))
    return None


def make(variant: str, count: int, low: int, high: int, nodes: int, max_seeds: int) -> list[Puzzle]:
    per_level = -(-count // len(LEVELS))
    found: dict[str, list[tuple[str, Position, object]]] = {name: [] for name, _ in LEVELS}
    spare: list[tuple[str, Position, object]] = []
    for n in range(max_seeds):
        full = sum(min(len(v), per_level) for v in found.values())
        if full >= count or full + len(spare) >= 2 * count:
            break  # every level filled, or enough found to fill the rare levels' places
        seed = f"puzzle-{variant}-{n}"
        hit = puzzle_from_seed(variant, seed, low, high, nodes)
        if hit is None:
            continue
        position, g = hit
        bucket = found[g.level]
        (bucket if len(bucket) < per_level else spare).append((seed, position, g))
    chosen = [item for name, _ in LEVELS for item in found[name]]
    # too few of some level: fill up with the others' spares, hardest first
    spare.sort(key=lambda item: -item[2].score)
    chosen += spare[: max(0, count - len(chosen))]
    chosen.sort(key=lambda item: (item[2].score, item[0]))
    return [Puzzle(f"{variant}-{i:03d}", variant, seed, position, g)
            for i, (seed, position, g) in enumerate(chosen, 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=72)
    parser.add_argument("--variants", nargs="+", default=["classic", "duel"])
    parser.add_argument("--min-cards", type=int, default=8)
    parser.add_argument("--max-cards", type=int, default=22)
    parser.add_argument("--nodes", type=int, default=3000, help="most positions a puzzle may take to solve")
    parser.add_argument("--max-seeds", type=int, default=3000)
    parser.add_argument("--out", type=Path, default=ROOT / "src" / "dizhu" / "puzzles")
    args = parser.parse_args()
    for variant in args.variants:
        puzzles = make(variant, args.count, args.min_cards, args.max_cards, args.nodes, args.max_seeds)
        levels = {name: sum(p.difficulty == name for p in puzzles) for name, _ in LEVELS}
        data = {"generator": "tools/make_puzzles.py", "variant": variant,
                "puzzles": [p.to_dict() for p in puzzles]}
        path = args.out / f"{variant}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"{variant}: {len(puzzles)} puzzles {levels} -> {path}", flush=True)


if __name__ == "__main__":
    main()
