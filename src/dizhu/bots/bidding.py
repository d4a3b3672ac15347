"""Bidding: classic 1-2-3 and duel call/rob, from an evaluation of the hand."""

from __future__ import annotations

import random

from .hands import split_counts
from .policy import Decision
from .view import View

__all__ = ["decide_bid", "hand_strength"]

TWO, BLACK, RED = 12, 13, 14


def hand_strength(hand: list[int]) -> float:
    """A rough landlord strength: control cards minus plays needed."""
    s = split_counts(tuple(hand))
    controls = hand[RED] * 1.5 + hand[BLACK] * 1.0 + hand[TWO] * 0.8
    controls += sum(1.5 for r in range(13) if hand[r] == 4)
    if hand[BLACK] and hand[RED]:
        controls += 1.0
    return controls - 0.6 * s.plays


def decide_bid(view: View, level: str, rng: random.Random) -> Decision:
    strength = hand_strength(view.hand)
    legal = view.legal
    plays = split_counts(tuple(view.hand)).plays
    params = {"plays": plays, "controls": _controls(view.hand)}
    if view.variant.bidding == "points":
        want = 0
        if strength > -1.5:
            want = 1
        if strength > -0.5:
            want = 2
        if strength > 0.8:
            want = 3
        options = [a for a in legal if a.startswith("bid ") and int(a[4:]) <= want]
        if options:
            return Decision(options[-1], "bid_strong", params)
        return Decision("pass", "bid_weak", params)
    # duel
    if "call" in legal:
        if strength > -1.5:
            return Decision("call", "bid_strong", params)
        return Decision("pass", "bid_weak", params)
    robs = view.observation["multiplier"]["robs"] or 0
    if strength > 0.0 + 0.8 * robs:
        return Decision("rob", "rob_strong", {**params, "handicap": robs + 1})
    return Decision("pass", "rob_weak", {**params, "handicap": robs + 1})


def _controls(hand: list[int]) -> int:
    return hand[TWO] + hand[BLACK] + hand[RED] + sum(1 for r in range(13) if hand[r] == 4)
