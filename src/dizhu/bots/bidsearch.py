"""Super-hard's bids: each legal bid played out in deals the bidder cannot rule out.

The bidding model (:mod:`.bidding`) scores a hand by eight features fitted over thousands of
deals.  Super-hard asks the hand itself instead.  For a bid decision it

1. samples deals of the cards it cannot see (the other hands, the bottom and, in duel, the 9
   cards never dealt);
2. weighs each deal by how well it explains the other seats' bids so far
   (:func:`.reading.bids_likelihood`: a call says a strong hand, a pass a weak one);
3. for each legal action, finishes the bidding in that deal by the rules
   (:mod:`dizhu.bidding`), every later bid (its own included) made by the bidding model, then
   plays the round out with the intermediate policy on every seat (:func:`bid_out`);
4. bids the action with the best weighted mean of :meth:`SearchConfig.bid_objective`: by
   default the square root of each deal's points, sign kept: a win at stake 4 counts 2, not 4,
   so a doubled stake counts 1.4 times as much, not twice (winning more often matters more
   than the stake, which still counts).

Every action is played out in the same deals, so the actions are compared on equal terms.  Like
the play search, the budget is counted in simulated decisions, so a bid is a deterministic
function of the observation and the seed.  The post-round review (:mod:`dizhu.analysis`) judges
bids with the same :func:`estimate_bids`, by the seat's own points.
"""

from __future__ import annotations

import random
import time
from copy import copy
from dataclasses import dataclass
from typing import Sequence

from ..bidding import Auction
from ..cards import NUM_RANKS
from ..game.actions import Action
from ..rules import share
from ..variants import Variant
from .bidding import bid_decision, model_bid
from .config import DEFAULT_BUDGET, MIN_WORLDS, STEPS_PER_SECOND, SUPER_HARD, WORLD_COST, SearchConfig
from .policy import Decision
from .reading import bids_likelihood
from .rollouts import intermediate_seats, rollout as _rollout
from .view import View
from .worlds import Sim

__all__ = ["search_bid", "estimate_bids", "bid_out", "finish_bidding", "sample_deal", "auction_of",
           "BidEstimate", "MAX_DEALS"]

#: Deals at most in one bid decision.
MAX_DEALS = 600
#: What one of the model's bids costs, in simulated decisions (its hand is split).
BID_COST = 25


@dataclass(frozen=True)
class BidEstimate:
    """What a bid is worth to the bidder, over the deals searched."""

    action: str
    #: The bidder's own expected points (as the settlement counts them: the stake the bidding
    #: ends with, bombs, spring, and the landlord's share).
    points: float
    #: Weighted share of deals the bidder's side won after this bid (a deal dealt again is no win).
    win_chance: float
    #: Deals searched (0: the deadline came before the first one).
    deals: int
    #: What the bid search ranks by (:meth:`SearchConfig.bid_objective`, averaged like ``points``).
    score: float = 0.0


def auction_of(view: View) -> Auction:
    """The bidding so far, replayed by the variant's own bidding rules."""
    style = view.variant.bidding
    first = view.bids[0][0] if view.bids else view.seat
    auction = style.start(first, view.players)
    for seat, text in view.bids:
        action = Action.parse(text, view.variant.name)
        style.bid(auction, seat, action.kind, action.bid)
    return auction


def sample_deal(view: View, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Each seat's dealt hand (own hand as it is) and the bottom, consistent with ``view``
    (the cards left over are duel's undealt ones)."""
    variant = view.variant
    pool: list[int] = []
    for r in range(NUM_RANKS):
        pool += [r] * (variant.deck_counts[r] - view.hand[r])
    rng.shuffle(pool)
    hands: list[list[int]] = []
    for s in range(view.players):
        if s == view.seat:
            hands.append(list(view.hand))
            continue
        hands.append(_counts(pool[:variant.hand_size]))
        pool = pool[variant.hand_size:]
    return hands, _counts(pool[:variant.bottom_size])


def _counts(cards: list[int]) -> list[int]:
    counts = [0] * NUM_RANKS
    for r in cards:
        counts[r] += 1
    return counts


def finish_bidding(variant: Variant, auction: Auction, hands: Sequence[Sequence[int]]) -> int:
    """Play ``auction`` to its end (in place), every seat bidding by the model on its hand in
    ``hands``; how many bids that took."""
    style = variant.bidding
    bids = 0
    while auction.landlord is None and not auction.redeal:
        seat = auction.to_act
        text = model_bid(list(hands[seat]), style.legal(auction), style.handicap(auction), style.name)
        action = Action.parse(text, variant.name)
        style.bid(auction, seat, action.kind, action.bid)
        bids += 1
        if bids > 20:  # every bidding style ends in a few bids; a loop here is a bug
            raise RuntimeError("the bidding does not end")
    return bids


def bid_out(view: View, auction: Auction, hands: Sequence[Sequence[int]], bottom: Sequence[int], action: str,
            played: dict[tuple[int, int], float]) -> tuple[float, int]:
    """``view``'s seat's own points when it makes ``action`` after ``auction`` (the bidding so
    far, left as it is) in the deal ``hands`` and ``bottom``, and the simulated decisions it took.

    The later bids are the model's; the round is played out by the intermediate policy on every
    seat.  A deal dealt again scores 0.  ``played`` keeps the deal's play-outs by (landlord,
    handicap): bids that end with the same landlord and handicap play the same round, each at
    its own stake.
    """
    style = view.variant.bidding
    if action not in style.legal(auction):
        raise ValueError(f"{action!r} is not a legal bid here ({', '.join(style.legal(auction))})")
    after = copy(auction)  # every field a number: a shallow copy is a full one
    made = Action.parse(action, view.variant.name)
    style.bid(after, view.seat, made.kind, made.bid)
    bids = finish_bidding(view.variant, after, hands)
    steps = 1 + BID_COST * bids
    if after.redeal:
        return 0.0, steps
    landlord, handicap = after.landlord, style.handicap(after)
    value = played.get((landlord, handicap))
    if value is None:
        dealt = [list(h) for h in hands]
        dealt[landlord] = [a + b for a, b in zip(dealt[landlord], bottom)]
        sim = Sim.opening(view.variant, dealt, landlord, handicap)
        value, used = _rollout(sim, view.seat, intermediate_seats(view.players), 0)
        steps += used
        played[(landlord, handicap)] = value
    return value * style.stake(after) * share(view.seat, landlord, view.players), steps


def estimate_bids(view: View, rng: random.Random, actions: Sequence[str] | None = None,
                  budget: float | None = None, deadline: float | None = None,
                  config: SearchConfig = SUPER_HARD, most: int = MAX_DEALS) -> list[BidEstimate]:
    """What each of ``actions`` (default: every legal one) is worth to ``view``'s seat, in order.

    Every action is bid out (:func:`bid_out`) in the same deals, ``most`` at most, each weighted
    by how well it explains the other seats' bids so far.  ``budget`` is in seconds of one core,
    counted in simulated decisions; ``deadline`` (a ``time.monotonic()`` value) lets no deal
    start after it, even below ``MIN_WORLDS`` (with no deal, every estimate counts 0 deals).
    """
    if view.phase != "bidding":
        raise ValueError(f"bids are estimated in the bidding, not in the {view.phase} phase")
    budget = DEFAULT_BUDGET if budget is None else budget
    steps_budget = budget * STEPS_PER_SECOND
    actions = list(view.legal if actions is None else actions)
    auction = auction_of(view)
    objective = config.bid_objective
    points = [0.0] * len(actions)
    scores = [0.0] * len(actions)
    wins = [0.0] * len(actions)
    weights = 0.0
    deals = steps = 0
    while deals < MIN_WORLDS or (steps < steps_budget and deals < most):
        if deadline is not None and time.monotonic() > deadline:
            break
        hands, bottom = sample_deal(view, rng)
        w = bids_likelihood(view, hands)
        steps += WORLD_COST
        played: dict[tuple[int, int], float] = {}
        for i, action in enumerate(actions):
            value, used = bid_out(view, auction, hands, bottom, action, played)
            steps += used
            points[i] += w * value
            scores[i] += w * objective(value)
            wins[i] += w * (value > 0)
        weights += w
        deals += 1
    if not weights:
        return [BidEstimate(action, 0.0, 0.0, 0) for action in actions]
    return [BidEstimate(action, points[i] / weights, wins[i] / weights, deals, scores[i] / weights)
            for i, action in enumerate(actions)]


def search_bid(view: View, rng: random.Random, budget: float | None = None,
               deadline: float | None = None, config: SearchConfig = SUPER_HARD) -> Decision:
    """Super-hard's bid: the legal action the search rates best.  Ties, and a deadline that left
    fewer than ``MIN_WORLDS`` deals, go to the bidding model's action; so does the model's reason
    when the search agrees with it (else the reason is what the search found)."""
    model = model_bid(view.hand, view.legal, view.handicap, view.variant.bidding.name)
    estimates = estimate_bids(view, rng, budget=budget, deadline=deadline, config=config)
    best = max(estimates, key=lambda e: (e.score, e.action == model))
    if best.deals < MIN_WORLDS or best.action == model:
        return bid_decision(view, model)
    return Decision(best.action, "search", {"rate": round(100 * best.win_chance), "games": best.deals})
