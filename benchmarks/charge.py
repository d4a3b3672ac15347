"""What a rollout by the distilled policy costs: the charge ``search.STEP_COST`` should make.

    python benchmarks/charge.py [--rounds 8] [--variant duel] [--own distilled]

Collects the play decisions with a choice of ``--rounds`` seeded rounds of intermediate bots
(every second one), then times super-hard's decision at each of them twice in this process, the
search's own later moves played by intermediate and by ``--own``, both charged one simulated
decision a step: about the same worlds (the same steps; the rollouts' lengths differ a little),
so the CPU's ratio is about what ``--own``'s step costs.  The two take turns decision by decision,
so both see the same load, and go first in turn, so neither always finds the memos warm.  Prints
each side's total, median, 95th percentile and maximum (CPU seconds), and the ratios.  A charge
should keep a little over the ratio: a world's sampling is charged alike for every style.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from dizhu.bots import create, search  # noqa: E402
from benchmarks.kernel import positions  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--variant", default="duel", choices=["classic", "duel"])
    parser.add_argument("--own", default="distilled")
    args = parser.parse_args()
    search.STEP_COST.clear()  # every style charged 1: equal worlds
    observations = positions(args.rounds, (args.variant,), every=2)
    sides = {own: dataclasses.replace(search.SUPER_HARD, own=own) for own in ("intermediate", args.own)}
    times: dict[str, list[float]] = {own: [] for own in sides}
    for i, obs in enumerate(observations):
        for own, config in sorted(sides.items(), reverse=i % 2 == 1):
            bot = create("super-hard", args.variant, seed=i, config=config)
            start = time.process_time()
            bot.decide(obs)
            times[own].append(time.process_time() - start)
    print(f"{len(observations)} {args.variant} decisions of {args.rounds} seeded rounds, CPU seconds, "
          "every style charged 1 (equal worlds)")
    print(f"{'own later moves':<16}{'total':>10}{'median':>12}{'p95':>12}{'max':>12}")
    for own, t in times.items():
        t = sorted(t)
        print(f"{own:<16}{sum(t):>9.2f}s{statistics.median(t) * 1e3:>10.1f}ms"
              f"{t[min(len(t) - 1, int(0.95 * len(t)))] * 1e3:>10.1f}ms{t[-1] * 1e3:>10.1f}ms")
    base, own = times["intermediate"], times[args.own]
    print(f"ratio {args.own} / intermediate: total {sum(own) / sum(base):.2f}, "
          f"median {statistics.median(own) / statistics.median(base):.2f}, "
          f"decision by decision (median) {statistics.median(o / b for o, b in zip(own, base)):.2f}")


if __name__ == "__main__":
    main()
