"""The one play state, the compiled kernel and the solver against dizhu.Round, over many seeded rounds.

    nice -n 10 python benchmarks/parity.py --steps 1000000 [--variants classic,duel] [--drivers state,kernel,solver]

Runs the drivers of tests/play_parity.py (which the test suite runs on a few thousand steps)
until each has checked ``--steps`` play-phase steps per variant (the solver driver: ``--steps /
1000`` positions), and prints the counts and the time.  Any difference stops it with the
driver's assertion and the round's seed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

root = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(root / "src"))
sys.path.insert(0, str(root / "tests"))

from play_parity import against_round, compiled_against_round, solver_against_state  # noqa: E402

DRIVERS = {"state": against_round, "kernel": compiled_against_round, "solver": solver_against_state}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=1_000_000, help="steps per variant and driver")
    parser.add_argument("--variants", default="classic,duel")
    parser.add_argument("--drivers", default="state,kernel,solver")
    parser.add_argument("--seed", default="parity")
    args = parser.parse_args()
    for name in args.drivers.split(","):
        driver = DRIVERS[name]
        goal = args.steps // 1000 if name == "solver" else args.steps
        for variant in args.variants.split(","):
            rng = random.Random(f"{args.seed}-{name}-{variant}")
            start = time.process_time()
            done = rounds = 0
            while done < goal:
                seed = f"{args.seed}-{name}-{variant}-{rounds}"
                try:
                    done += driver(variant, seed, rng)
                except AssertionError:
                    print(f"{name} {variant}: a difference in the round dealt from {seed!r}", flush=True)
                    raise
                rounds += 1
            seconds = time.process_time() - start
            unit = "positions" if name == "solver" else "steps"
            print(f"{name:6} {variant:7} {done:>9,} {unit} in {rounds:,} rounds, {seconds:.0f} CPU s: no difference",
                  flush=True)


if __name__ == "__main__":
    main()
