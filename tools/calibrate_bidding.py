"""Calibrate the bidding model by simulation.

    python tools/calibrate_bidding.py [--deals 6000] [--seed 1] [--variants classic duel]

For many random deals, each hand in turn is made the landlord (with the
deal's real bottom cards) and the round is played out by intermediate bots.
A logistic model of the landlord's chance to win is fitted on features of
the 17 cards the bidder sees before the bottom is revealed (in duel, also
the handicap the robs would give).  The printed coefficients go into
``src/dizhu/bots/bidding.py``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from dizhu.bots import create  # noqa: E402
from dizhu.bots.bidding import FEATURES, features  # noqa: E402
from dizhu.cards import hand_from_counts, rank_counts  # noqa: E402
from dizhu.game import Round  # noqa: E402
from dizhu.variants import get_variant  # noqa: E402


def simulate(job):
    variant, seed, index = job
    v = get_variant(variant)
    rng = random.Random(f"{seed}|{index}")
    deck = list(hand_from_counts(v.deck_counts))
    rng.shuffle(deck)
    hands = [deck[17 * s : 17 * (s + 1)] for s in range(v.players)]
    bottom = deck[17 * v.players : 17 * v.players + 3]
    rest = deck[17 * v.players + 3 :]
    rows = []
    for landlord in range(v.players):
        order = [hands[(landlord + k) % v.players] for k in range(v.players)]
        handicaps = [0] if v.players == 3 else [rng.randrange(5)]
        for handicap in handicaps:
            r = Round.from_deal(variant, order, bottom, landlord=0, undealt=rest or None, robs=handicap)
            bots = [create("intermediate", variant, seed=(seed, index, s)) for s in range(v.players)]
            while r.result is None:
                seat = r.to_act
                r.apply(seat, bots[seat].decide(r.observation(seat)))
            won = r.result.winner == "landlord"
            rows.append((features(list(rank_counts(order[0])), handicap), won))
    return rows


def fit(rows, steps=3000, rate=0.5):
    """Logistic regression by gradient descent (standardised features)."""
    n = len(rows)
    k = len(rows[0][0])
    means = [sum(x[i] for x, _ in rows) / n for i in range(k)]
    sds = [max(1e-9, math.sqrt(sum((x[i] - means[i]) ** 2 for x, _ in rows) / n)) for i in range(k)]
    data = [([(x[i] - means[i]) / sds[i] for i in range(k)], 1.0 if y else 0.0) for x, y in rows]
    w = [0.0] * k
    b = 0.0
    for _ in range(steps):
        gw = [0.0] * k
        gb = 0.0
        for x, y in data:
            z = b + sum(wi * xi for wi, xi in zip(w, x))
            p = 1 / (1 + math.exp(-z))
            d = p - y
            gb += d
            for i in range(k):
                gw[i] += d * x[i]
        b -= rate * gb / n
        w = [wi - rate * g / n for wi, g in zip(w, gw)]
    # back to raw feature scale
    raw_w = [w[i] / sds[i] for i in range(k)]
    raw_b = b - sum(w[i] * means[i] / sds[i] for i in range(k))
    return raw_b, raw_w


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", nargs="+", default=["classic", "duel"], choices=["classic", "duel"])
    args = parser.parse_args()
    for variant in args.variants:
        jobs = [(variant, args.seed, i) for i in range(args.deals)]
        with mp.get_context("fork").Pool() as pool:
            rows = [row for part in pool.imap_unordered(simulate, jobs, chunksize=20) for row in part]
        bias, weights = fit(rows)
        wins = sum(1 for _, y in rows if y) / len(rows)
        print(f"{variant}: {len(rows)} games, landlord won {wins:.3f}")
        print(f"    bias = {bias:.4f}")
        for name, wgt in zip(FEATURES, weights):
            print(f"    {name:<12} {wgt:+.4f}")
        # how well the model separates: mean predicted p by actual outcome
        def p_of(x):
            return 1 / (1 + math.exp(-(bias + sum(a * b for a, b in zip(weights, x)))))
        won_p = [p_of(x) for x, y in rows if y]
        lost_p = [p_of(x) for x, y in rows if not y]
        print(f"    mean p when won {sum(won_p) / len(won_p):.3f}, when lost {sum(lost_p) / len(lost_p):.3f}")


if __name__ == "__main__":
    main()
