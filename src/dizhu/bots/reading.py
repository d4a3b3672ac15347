"""Reading the table: which hidden hands and which styles explain what the others did.

Super-hard samples *worlds* (deals of the cards it cannot see).  A uniform
sample ignores what the table has shown: a player who passed on a lone 6
while holding three loose 7s in some world makes that world less likely, and
a player who keeps answering with its lowest reply is probably a greedy
follower.  For a world, :func:`read_world` replays the round's plays from
each other seat's point of view (its hand in that world, plus what it played
since) and asks every style of :mod:`dizhu.bots.styles` what it would have
done at that seat's recent decisions.  The likelihood of the observed action
under a style is ``HIT`` when the style agrees and ``MISS`` when it does not
(no style is exact; people are not either), so

    P(world) ∝ Π_seat Σ_style PRIOR(style) Π_t P(action_t | style, hand_t)

weights the world, and the same sums give each seat's style posterior in that
world, from which the rollouts draw the style the seat plays by.  Only the
seat's own actions this round are evidence — never who the player is.

A decision with one legal action (a forced pass) is no evidence, and a
decision where every style agrees weighs every world and style alike.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from operator import sub
from typing import Mapping

from ..cards import NUM_RANKS
from ..combos import Combo, classify
from ..rules import trick_over
from .bidding import CLASSIC_THRESHOLDS, wants_rob, win_chance
from .policy import Ctx
from .styles import PRIOR, STYLE_NAMES, STYLES
from .view import View

__all__ = ["Reading", "read_world", "HIT", "MISS", "RECENT"]

#: The likelihood of an action when a style agrees with it, and when it does not.
HIT, MISS = 0.8, 0.25
#: How many of each seat's latest decisions are read (older ones matter less, and each costs time).
RECENT = 5


@dataclass(frozen=True)
class Reading:
    """What a world's replay says: its weight, and per seat the style posterior in it."""

    #: Relative likelihood of the world given every seat's read decisions (1: no evidence).
    weight: float
    #: seat -> probabilities of STYLE_NAMES (in that order); absent for this bot's own seat.
    styles: dict[int, tuple[float, ...]]
    #: Style evaluations it took (the search counts them against its budget).
    cost: int

    def draw(self, seat: int, rng: random.Random) -> str:
        """A style for ``seat`` drawn from its posterior in this world."""
        return rng.choices(STYLE_NAMES, weights=self.styles[seat])[0]

    @classmethod
    def neutral(cls, view: View, prior: Mapping[str, float] = PRIOR) -> "Reading":
        """No reading: the world weighs 1 and every other seat plays by ``prior``.

        >>> from dizhu import Round
        >>> view = View.of(Round.deal("duel", seed=1).observation(0))
        >>> Reading.neutral(view, {"greedy": 2.0}).styles[1][STYLE_NAMES.index("greedy")]
        1.0
        """
        weights = _weights(prior)
        return cls(1.0, {s: weights for s in range(view.players) if s != view.seat}, 0)


def _weights(prior: Mapping[str, float]) -> tuple[float, ...]:
    """``prior`` as probabilities of STYLE_NAMES, in that order."""
    total = sum(prior.values())
    return tuple(prior.get(name, 0.0) / total for name in STYLE_NAMES)


def read_world(view: View, hands: list[list[int]], rng: random.Random,
               prior: Mapping[str, float] = PRIOR) -> Reading:
    """Replay the round in the world ``hands`` (every seat's cards now) and weigh it,
    each other seat read against the style mixture ``prior``."""
    players, landlord, me = view.players, view.landlord, view.seat
    deck = view.variant.deck_counts
    # each seat's hand when the play began: its cards now plus all it has played
    held = [list(h) for h in hands]
    plays = [(seat, _play(text)) for seat, text in view.history]
    for seat, combo in plays:
        if combo is not None:
            for r, n in enumerate(combo.counts):
                held[seat][r] += n
    dealt = [h[:] for h in held]  # the replay below spends ``held``; the bids were made on these
    # the decisions to read: each other seat's latest RECENT actions
    wanted: dict[int, int] = {}
    read_at: set[int] = set()
    for i in range(len(plays) - 1, -1, -1):
        seat = plays[i][0]
        if seat != me and wanted.get(seat, 0) < RECENT:
            wanted[seat] = wanted.get(seat, 0) + 1
            read_at.add(i)
    likelihood = {s: [1.0] * len(STYLE_NAMES) for s in range(players) if s != me}
    weights = _weights(prior)
    asked = [k for k, w in enumerate(weights) if w > 0]  # a style the prior rules out is not asked
    played = [0] * NUM_RANKS
    left = [sum(h) for h in held]
    last = None
    passes = 0
    cost = 0
    for i, (seat, combo) in enumerate(plays):
        if i in read_at:
            hand = tuple(held[seat])
            unseen = tuple(map(sub, map(sub, deck, played), hand))
            ctx = Ctx(hand, seat, players, landlord, left[:], last, unseen, view.handicap)
            row = likelihood[seat]
            actual = None if combo is None else combo.key
            for k in asked:
                move = STYLES[STYLE_NAMES[k]](ctx, rng)
                row[k] *= HIT if (None if move is None else move.key) == actual else MISS
            cost += 3 * len(asked) // 2  # a style evaluation is dearer than a rollout move
        if combo is None:
            passes += 1
            if trick_over(passes, players):
                last, passes = None, 0
            continue
        for r, n in enumerate(combo.counts):
            held[seat][r] -= n
            played[r] += n
        left[seat] -= combo.size
        last, passes = (seat, combo), 0
    weight = _bids_likelihood(view, dealt)
    styles: dict[int, tuple[float, ...]] = {}
    for seat, row in likelihood.items():
        joint = [p * q for p, q in zip(weights, row)]
        total = sum(joint)
        # relative to a world where every style agreed with every decision
        weight *= total / (HIT ** wanted.get(seat, 0))
        styles[seat] = tuple(j / total for j in joint)
    return Reading(weight, styles, cost)


@lru_cache(maxsize=4096)
def _play(text: str) -> Combo | None:
    """A history entry's play (None: pass); memoised, as every world replays the same history."""
    return None if text == "pass" else classify(text)


def _bids_likelihood(view: View, held: list[list[int]]) -> float:
    """How well the world's hands (``held``: each seat's cards when the play began)
    explain the other seats' bids: a bid of 3 says a strong hand, a pass a weak one.

    Judged by the bidding model the bots bid with (:mod:`dizhu.bots.bidding`): a
    points bid of k is likely if the hand's chance as landlord reaches the k-th
    threshold, a pass if it stays below the next bid's; a duel call if the
    chance is at least even, a pass on the call if it is not; a rob if robbing
    at one more card of handicap is worth it, a pass on a rob if it is not.
    """
    style = view.variant.bidding.name
    likelihood = 1.0
    highest = 0
    called = False
    robs = 0
    for seat, action in view.bids:
        if seat == view.seat:
            if action.startswith("bid "):
                highest = int(action[4:])
            called = called or action == "call"
            robs += action == "rob"
            continue
        hand = held[seat]
        if seat == view.landlord:
            hand = [n - b for n, b in zip(hand, view.bottom)]  # its 17 cards before the bottom
        if action.startswith("bid "):
            k = int(action[4:])
            likelihood *= HIT if win_chance(hand, style) >= CLASSIC_THRESHOLDS[k - 1] else MISS
            highest = k
        elif action == "call":
            likelihood *= HIT if win_chance(hand, style) >= 0.5 else MISS
            called = True
        elif action == "rob":
            likelihood *= HIT if wants_rob(hand, robs) else MISS
            robs += 1
        elif action == "pass" and style == "rob":
            if called:  # it let the caller (or the last robber) keep the landlord's seat
                likelihood *= MISS if wants_rob(hand, robs) else HIT
            else:
                likelihood *= HIT if win_chance(hand, style) < 0.5 else MISS
        elif action == "pass" and style == "points" and highest < len(CLASSIC_THRESHOLDS):
            likelihood *= HIT if win_chance(hand, style) < CLASSIC_THRESHOLDS[highest] else MISS
    return likelihood
