"""Bidding: classic 1-2-3 and duel call/rob, from a calibrated hand evaluation.

The chance that a hand wins as landlord is a logistic model of a few
features of the 17 cards the bidder holds (and, in duel, of the handicap a
rob would give away).  The coefficients come from simulation, not from
guesswork: ``python tools/calibrate_bidding.py`` plays thousands of deals
with every hand made landlord in turn (intermediate bots on all seats) and
fits the model; its output is pasted below.

- classic: bid when the expected score as landlord is positive, higher the
  surer the win (the bid multiplies the stake both ways);
- duel: call when the landlord is favoured; rob when taking over at one more
  handicap (and twice the stake) is worth more than staying the farmer.
"""

from __future__ import annotations

import math
import random

from ..cards import Rank
from .hands import plays_of
from .policy import Decision
from .view import View

__all__ = ["decide_bid", "bid_decision", "model_bid", "win_chance", "wants_rob", "features", "FEATURES"]

TWO, BLACK, RED, ACE = Rank.TWO, Rank.BLACK_JOKER, Rank.RED_JOKER, Rank.ACE

FEATURES = ("plays", "red", "black", "twos", "aces", "bombs", "rocket", "handicap")

# Fitted by tools/calibrate_bidding.py (see its docstring for the command), one model per
# bidding style (the style's name): "points" on classic deals, "rob" on duel deals.
MODEL = {
    # python tools/calibrate_bidding.py --deals 4000 (12000 classic games: landlord won 0.519)
    "points": (-0.1829, (-0.1637, 1.3006, 0.8897, 0.4109, 0.2433, -0.1196, 0.0690, 0.0)),
    # ... --deals 4000 --variants duel, with the farmer playing to its handicap line (8000 duel
    # games with a random handicap 0-4: landlord won 0.529)
    "rob": (0.4671, (-0.1550, 1.1030, 0.3210, 0.3983, 0.1909, -0.1204, 0.0258, -0.3532)),
}


def features(hand: list[int], handicap: int = 0) -> tuple[float, ...]:
    """The model's inputs for a 17-card hand (rank counts)."""
    bombs = sum(1 for r in range(TWO + 1) if hand[r] == 4)
    return (
        float(plays_of(tuple(hand))),
        float(hand[RED]),
        float(hand[BLACK]),
        float(hand[TWO]),
        float(hand[ACE]),
        float(bombs),
        float(hand[RED] and hand[BLACK]),
        float(handicap),
    )


def win_chance(hand: list[int], style: str, handicap: int = 0) -> float:
    """Estimated chance that ``hand`` wins as landlord under bidding ``style`` (with this handicap)."""
    bias, weights = MODEL[style]
    z = bias + sum(w * x for w, x in zip(weights, features(hand, handicap)))
    return 1.0 / (1.0 + math.exp(-z))


def _controls(hand: list[int]) -> int:
    return hand[TWO] + hand[BLACK] + hand[RED] + sum(1 for r in range(TWO + 1) if hand[r] == 4)


#: How sure (chance to win as landlord) a level must be to bid 1, 2 and 3.
CLASSIC_THRESHOLDS = (0.5, 0.58, 0.66)


def decide_bid(view: View, level: str, rng: random.Random) -> Decision:
    """A bid for a bidding-phase view; the legal actions say which style is bidding."""
    # normal judges hands less sharply: its estimate wobbles
    noise = rng.uniform(-0.08, 0.08) if level == "normal" else 0.0
    return bid_decision(view, model_bid(view.hand, view.legal, view.handicap, view.variant.bidding.name, noise))


def bid_decision(view: View, action: str) -> Decision:
    """``action`` as a decision, with the reason the table shows for it (the hand's plays and
    control cards; for a rob or a pass on one, the handicap a rob would give)."""
    hand = view.hand
    params = {"plays": plays_of(tuple(hand)), "controls": _controls(hand)}
    if "rob" in view.legal:
        params["handicap"] = view.handicap + 1  # each rob is one card of handicap
        return Decision(action, "rob_strong" if action == "rob" else "rob_weak", params)
    return Decision(action, "bid_weak" if action == "pass" else "bid_strong", params)


def model_bid(hand: list[int], legal: list[str], robs: int, style: str, noise: float = 0.0) -> str:
    """The bidding model's action for ``hand`` among ``legal`` after ``robs`` robs: what
    normal (with ``noise``) and intermediate bid, and what super-hard's bid search
    (:mod:`.bidsearch`) expects every later bid to be.

    >>> strong = [0, 0, 1, 1, 1, 2, 1, 1, 1, 1, 1, 2, 3, 1, 1]
    >>> model_bid(strong, ["pass", "bid 1", "bid 2", "bid 3"], 0, "points")
    'bid 3'
    >>> model_bid(strong, ["pass", "bid 3"], 0, "points"), model_bid(strong, ["pass", "call"], 0, "rob")
    ('bid 3', 'call')
    """
    if any(a.startswith("bid ") for a in legal):  # points: pass or a higher bid
        p = win_chance(hand, style) + noise
        want = sum(1 for t in CLASSIC_THRESHOLDS if p >= t)
        options = [a for a in legal if a.startswith("bid ") and int(a[4:]) <= want]
        return options[-1] if options else "pass"
    if "call" in legal:
        return "call" if win_chance(hand, style, 0) + noise >= 0.5 else "pass"
    return "rob" if wants_rob(hand, robs, noise) else "pass"


def wants_rob(hand: list[int], robs: int, noise: float = 0.0) -> bool:
    """Whether robbing after ``robs`` robs is worth it: landlord at robs+1 (twice the
    stake, one more card of handicap) against staying the farmer of a landlord at ``robs``."""
    p_rob = win_chance(hand, "rob", robs + 1) + noise
    as_landlord = 2 * (2 * p_rob - 1)
    as_farmer = 1 - 2 * _typical_landlord_chance(robs)
    return as_landlord > as_farmer


def _typical_landlord_chance(robs: int) -> float:
    """A calling/robbing opponent's chance to win as landlord at this handicap.

    An opponent who called or robbed holds a good hand: the model's chance for
    a typical strong hand (few plays, a couple of controls).
    """
    typical = [0] * len(Rank)
    typical[TWO] = 2
    typical[ACE] = 2
    for r in range(Rank.FIVE, Rank.KING + 1):
        typical[r] = 1 if r % 2 else 2
    return win_chance(typical, "rob", robs)
