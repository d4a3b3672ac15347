"""The post-round review: how each of a seat's decisions compares with the engine's.

For every decision a seat made in a finished round (its bids and plays;
turns with a single legal action are not decisions), :func:`review`
rebuilds the observation the seat had at that moment -- by replaying the
round's own actions from its deal, so nothing the seat could not see goes
in -- and asks an evaluator for the expected points and the win chance of
the move made and of each candidate.  Separately, and marked as such, it
plays the same candidates out on the true hands of that moment: what was
best with every card face up.

A move is graded by its *loss*: the expected points of the best move found
minus those of the move made, in the seat's own points as the settlement
counts them (the bid or robs and the bombs so far included).  The grades
are in :data:`GRADE_THRESHOLDS` and docs/REVIEW.md.

The evaluator is the super-hard search's own (:func:`dizhu.bots.search.evaluate`:
worlds weighted by how well they explain the round, each other seat played
by the style it reads as), so the review judges with the strongest engine
the bots have; the face-up figures play every seat by the intermediate policy
after the move, or solve exactly when few cards remain.  Bids are judged by
the bid search's :func:`dizhu.bots.bidsearch.estimate_bids` (deals weighted by
the bids so far, the later bids by the bidding model, the round played out by
the intermediate policy), by the seat's own points.  Everything
is seeded: the same round, seat, seed and budget give the same review.

>>> from dizhu import Round
>>> from dizhu.bots import create
>>> r = Round.deal("classic", seed="review-doc")
>>> bots = [create("intermediate", "classic", seed=s) for s in range(3)]
>>> while r.result is None:
...     r.apply(r.to_act, bots[r.to_act].decide(r.observation(r.to_act)))
>>> rev = review(r, 0, budget=0.01)
>>> all(d.grade in GRADES for d in rev.decisions), rev.seat
(True, 0)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from .bots.advice import point_of
from .bots.bidding import decide_bid
from .bots.bidsearch import auction_of, bid_out, estimate_bids
from .bots.policy import Ctx, intermediate_move
from .bots.config import ADVICE, DEFAULT_BUDGET, EXACT_CARDS, MIN_WORLDS
from .bots.rollouts import intermediate_seats, play_out
from .bots.search import Estimate, _candidates, evaluate
from .solver import Solver
from .bots.view import View
from .bots.worlds import Sim
from .cards import Card, rank_counts
from .combos import Combo, classify
from .game import Action, Round
from .rules import share

__all__ = ["Estimate", "evaluate", "Figure", "Reason", "DecisionReview", "Review", "Moment",
           "moments", "replayed", "review_moment", "review", "assemble", "grade", "GRADES", "GRADE_THRESHOLDS", "REVIEW_SEED"]

#: Grades from best to worst.
GRADES = ("good", "inaccuracy", "mistake", "blunder")
#: The smallest loss, in the seat's expected points, for each grade below "good".
GRADE_THRESHOLDS = {"inaccuracy": 0.25, "mistake": 0.75, "blunder": 1.5}
#: The seed of a review when none is given.
REVIEW_SEED = "review"
#: Worlds at most for a bid at the default budget (each world plays the auction and the whole
#: round out); fewer in proportion for a smaller budget.
MAX_BID_WORLDS = 64
#: The second look at the move made and the best one, as a share of the budget.
CONFIRM_SHARE = 0.5
#: Decisions a round's review gives the whole budget each; a longer round's decisions share
#: as much in all (so a long round costs what a typical one does).
ROUND_DECISIONS = 6
#: Candidates that get the whole budget: with fewer, each world costs fewer rollouts, so a
#: share of the budget buys as many worlds per move as a full shortlist gets.
FULL_SHORTLIST = 5


def grade(loss: float) -> str:
    """The grade of a move that loses ``loss`` expected points.

    >>> [grade(x) for x in (0.0, 0.3, 1.0, 4.0)]
    ['good', 'inaccuracy', 'mistake', 'blunder']
    """
    found = "good"
    for name in GRADES[1:]:
        if loss >= GRADE_THRESHOLDS[name]:
            found = name
    return found


# ---- playing out the true hands


# ---- what the review returns


@dataclass(frozen=True)
class Figure:
    """A move and what it is worth: the seat's expected points and its chance to win."""

    action: str
    points: float
    win_chance: float

    def to_dict(self) -> dict[str, Any]:
        found = {"action": self.action, "points": round(self.points, 3), "win_chance": round(self.win_chance, 3)}
        if self.action.startswith("play "):
            found["kind"] = classify(self.action[5:]).kind.value  # named as the table names plays
        return found


@dataclass(frozen=True)
class Reason:
    """Why a move: a message key of bots/reasons.py and its parameters (as the hint's)."""

    key: str
    params: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params)}


@dataclass(frozen=True)
class DecisionReview:
    """One decision of the seat, judged from what it could know then.

    ``event`` is the index in ``round.events`` of the event the move made;
    ``situation`` is "bid", "lead" (the trick is the seat's to start) or "reply".
    ``made``/``best``: the estimates from the seat's information set over
    ``worlds`` sampled deals; ``face_up_made``/``face_up_best``: the same
    moves played out on the true hands (perfect information).  ``better``
    is the best move's action when the move made was not good; ``reason`` explains that better
    move, or else the move made.
    """

    index: int
    event: int
    phase: str
    situation: str
    made: Figure
    best: Figure
    face_up_made: Figure
    face_up_best: Figure
    loss: float
    grade: str
    better: str | None
    reason: Reason
    worlds: int
    candidates: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "event": self.event,
            "phase": self.phase,
            "situation": self.situation,
            "made": self.made.to_dict(),
            "best": self.best.to_dict(),
            "face_up_made": self.face_up_made.to_dict(),
            "face_up_best": self.face_up_best.to_dict(),
            "loss": round(self.loss, 3),
            "grade": self.grade,
            "better": self.better,
            "reason": self.reason.to_dict(),
            "worlds": self.worlds,
            "candidates": self.candidates,
        }


@dataclass(frozen=True)
class Review:
    """A seat's decisions in one round, graded; ``points`` is what the round gave the seat."""

    variant: str
    seat: int
    landlord: int
    points: int
    decisions: tuple[DecisionReview, ...]
    budget: float
    seed: str

    @property
    def counts(self) -> dict[str, int]:
        """How many decisions got each grade."""
        found = {name: 0 for name in GRADES}
        for d in self.decisions:
            found[d.grade] += 1
        return found

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seat": self.seat,
            "landlord": self.landlord,
            "points": self.points,
            "budget": self.budget,
            "seed": self.seed,
            "thresholds": dict(GRADE_THRESHOLDS),
            "counts": self.counts,
            "total_loss": round(self.total_loss, 3),
            "decisions": [d.to_dict() for d in self.decisions],
        }


# ---- the decisions of a round


@dataclass(frozen=True)
class Moment:
    """A decision as it stood: the seat's observation and, for the face-up
    figures only, the true cards (rank counts) at that moment."""

    index: int
    event: int
    action: str
    observation: dict[str, Any]
    hands: tuple[tuple[int, ...], ...]
    bottom: tuple[int, ...]
    #: Decisions in the review this moment is one of (they share the round's budget).
    of: int = 1


def moments(round_: Round, seat: int) -> list[Moment]:
    """The seat's decisions in a finished round, replayed from its deal.

    Turns with one legal action are left out, and so are bids in a deal that
    everyone passed (it was dealt again: those bids scored nothing).
    """
    if round_.result is None:
        raise ValueError("only a finished round can be reviewed")
    if not isinstance(seat, int) or not 0 <= seat < round_.players:
        raise ValueError(f"no seat {seat!r} in a {round_.variant.name} round")
    saved = json.loads(round_.to_json())
    actions, saved["actions"] = saved["actions"], []
    replay = Round.from_json(saved)
    found: list[tuple[int, Moment]] = []  # (deal it was made in, moment)
    deal = 0
    for who, text, card_ids in actions:
        if who == seat and len(replay.legal_actions()) > 1:
            hands = tuple(h.counts for h in replay.all_hands())
            moment = Moment(0, len(replay.events), text, replay.observation(seat), hands,
                            rank_counts(replay.bottom))
            found.append((deal, moment))
        before = len(replay.events)
        replay.apply(who, text if card_ids is None else _play_with(card_ids, replay))
        deal += any(e["type"] == "redeal" for e in replay.events[before:])
    kept = [m for d, m in found if d == deal]
    return [replace(m, index=i, of=len(kept)) for i, m in enumerate(kept)]


def replayed(deal_code: str, events: Sequence[dict[str, Any]]) -> Round:
    """A round rebuilt from its revealed deal code and its public events (as a
    finished round is kept by the server): the same deal, the same actions."""
    round_ = Round.from_code(deal_code)
    for event in events:
        kind = event["type"]
        if kind == "bid":
            round_.apply(event["seat"], event["action"])
        elif kind == "pass":
            round_.apply(event["seat"], "pass")
        elif kind == "play":
            round_.apply(event["seat"], _play_with(event["cards"], round_))
    return round_


def _play_with(card_ids: list[int], round_: Round) -> Action:
    """The play of exactly these cards (as the round's log or events name them)."""
    return Action.play([Card.from_id(i) for i in card_ids], round_.variant.name)


# ---- judging one decision


def _stake(observation: dict[str, Any]) -> int:
    """The bid (classic) or robs' stake (duel): the multiplier without its bombs."""
    m = observation["multiplier"]
    return m["total"] >> (m["bombs"] + m["rockets"])


def review_moment(moment: Moment, budget: float | None = None, seed: str = REVIEW_SEED) -> DecisionReview:
    """Judge one decision (see the module's docstring).

    ``budget`` is per decision; a round of more than :data:`ROUND_DECISIONS`
    shares that many decisions' budget between its decisions.
    """
    rng = random.Random(f"{seed}:{moment.event}")
    budget = (DEFAULT_BUDGET if budget is None else budget) * min(1.0, ROUND_DECISIONS / moment.of)
    if moment.observation["phase"] == "bidding":
        return _review_bid(moment, rng, budget)
    return _review_play(moment, rng, budget)


def _review_play(moment: Moment, rng: random.Random, budget: float) -> DecisionReview:
    obs = moment.observation
    view = View.of(obs)
    ctx = Ctx.of(view)
    candidates, choice = _candidates(ctx)
    made = None if moment.action == "pass" else classify(moment.action[5:])
    keys = [None if m is None else m.key for m in candidates]
    made_key = None if made is None else made.key
    if made_key not in keys:
        candidates.append(made)
        keys.append(made_key)
    unit = _stake(obs) * share(view.seat, view.landlord, view.players)
    estimates = evaluate(view, rng, candidates, budget * min(1.0, len(candidates) / FULL_SHORTLIST), config=ADVICE)
    figures = [Figure(_action(m), e.points * unit, e.win_chance) for m, e in zip(candidates, estimates)]
    # the true world of that moment, for the face-up figures
    truth = Sim(view, [list(h) for h in moment.hands])
    exact = sum(view.cards_left) <= EXACT_CARDS
    solver = Solver()
    face = []
    for m in candidates:
        value, _ = play_out(view, truth, m, exact, solver, intermediate_seats(view.players), 0)
        face.append(Figure(_action(m), value * unit, float(value > 0)))
    choice_key = None if choice is None else choice.key
    best = _best(figures, keys.index(choice_key))
    made_index = keys.index(made_key)
    if _second_look(figures, made_index, best):
        # fresh worlds for the two moves compared: the best of many noisy figures is flattered
        again = evaluate(view, rng, [made, candidates[best]], _confirm(budget), config=ADVICE)
        figures[made_index] = Figure(figures[made_index].action, again[0].points * unit, again[0].win_chance)
        figures[best] = Figure(figures[best].action, again[1].points * unit, again[1].win_chance)
        estimates[made_index], estimates[best] = again
        if figures[made_index].points >= figures[best].points:
            best = made_index  # the second look found the move made as good
    def reason(i: int) -> Reason:
        if keys[i] == choice_key:
            _, key, params = intermediate_move(ctx)
            return Reason(key, dict(params))
        return Reason(*point_of(ctx, estimates[i]))

    return _judged(moment, figures, face, made_index, best, reason, estimates[0].worlds)


def _review_bid(moment: Moment, rng: random.Random, budget: float) -> DecisionReview:
    obs = moment.observation
    view = View.of(obs)
    bids = list(obs["legal_actions"])
    policy = decide_bid(view, "intermediate", rng)
    # the deals' cap shrinks with a budget below the default (a long round's share of it)
    most = max(MIN_WORLDS, round(MAX_BID_WORLDS * min(1.0, budget / DEFAULT_BUDGET)))
    figures, worlds = _evaluate_bids(view, rng, bids, budget, most)
    auction = auction_of(view)
    played: dict = {}
    face = []
    for bid in bids:
        points, _ = bid_out(view, auction, moment.hands, moment.bottom, bid, played)
        face.append(Figure(bid, points, float(points > 0)))
    best = _best(figures, bids.index(policy.action))
    made = bids.index(moment.action)
    seen = worlds  # the deals behind the best figure
    if _second_look(figures, made, best):
        # fresh worlds for the two moves compared: the best of many noisy figures is flattered
        again, seen = _evaluate_bids(view, rng, [bids[made], bids[best]], _confirm(budget), most)
        figures[made], figures[best] = again
        if figures[made].points >= figures[best].points:
            best = made  # the second look found the move made as good
    def reason(i: int) -> Reason:
        if bids[i] == policy.action:
            return Reason(policy.reason, dict(policy.params))
        return _search_reason(Estimate(None, 0.0, figures[i].win_chance, seen))  # (i is made or best)

    return _judged(moment, figures, face, made, best, reason, worlds)


def _evaluate_bids(view: View, rng: random.Random, bids: Sequence[str], budget: float,
                   most: int) -> tuple[list[Figure], int]:
    """Each bid's figure over sampled deals (:func:`dizhu.bots.bidsearch.estimate_bids`: the
    same deals for every bid, ``most`` at most), and how many deals."""
    estimates = estimate_bids(view, rng, bids, budget, most=most)
    return [Figure(e.action, e.points, e.win_chance) for e in estimates], estimates[0].deals


# ---- shared by bids and plays


def _confirm(budget: float) -> float:
    """The budget of the second look at the move made and the best one."""
    return CONFIRM_SHARE * budget


def _second_look(figures: Sequence[Figure], made: int, best: int) -> bool:
    """Whether the move made and the best one need fresh worlds: only when the first look
    grades the move made below good (its loss, flattered by the best's luck, is an upper
    estimate: a move it clears needs no second look)."""
    return figures[best].points - figures[made].points >= GRADE_THRESHOLDS["inaccuracy"]


def _action(move: Combo | None) -> str:
    return "pass" if move is None else f"play {move.text}"


def _best(figures: Sequence[Figure], preferred: int) -> int:
    """The candidate with the most expected points; ties go to the rule policy's own move."""
    return max(range(len(figures)), key=lambda i: (figures[i].points, i == preferred))


def _situation(observation: dict[str, Any]) -> str:
    if observation["phase"] == "bidding":
        return "bid"
    return "lead" if observation["trick"]["last"] is None else "reply"


def _search_reason(estimate: Estimate) -> Reason:
    return Reason("search", {"rate": round(100 * estimate.win_chance), "games": estimate.worlds})


def _judged(moment: Moment, figures: Sequence[Figure], face: Sequence[Figure], made: int, best: int,
            reason: Callable[[int], Reason], worlds: int) -> DecisionReview:
    """The decision's review; ``reason(i)`` explains candidate ``i``: the better move when one is
    named, else the move made (a good one a shade below the best is not explained by the best's point)."""
    loss = max(0.0, figures[best].points - figures[made].points)
    found = grade(loss)
    face_best = max(range(len(face)), key=lambda i: (face[i].points, i == made))
    return DecisionReview(
        index=moment.index,
        event=moment.event,
        phase=moment.observation["phase"],
        situation=_situation(moment.observation),
        made=figures[made],
        best=figures[best],
        face_up_made=face[made],
        face_up_best=face[face_best],
        loss=loss,
        grade=found,
        better=None if found == "good" else figures[best].action,
        reason=reason(made if found == "good" else best),
        worlds=worlds,
        candidates=len(figures),
    )


# ---- the whole round


def review(round_: Round, seat: int, *, budget: float | None = None, seed: str = REVIEW_SEED,
           progress: Callable[[int, int], None] | None = None) -> Review:
    """Every decision of ``seat`` in the finished ``round_``, judged (see the module's docstring).

    ``budget`` is the evaluator's thinking per decision, in seconds of
    simulated decisions (the search's default when None).  ``progress`` is
    called with (decisions done, decisions in all) after each one.
    """
    found = moments(round_, seat)
    judged = []
    for moment in found:
        judged.append(review_moment(moment, budget, seed))
        if progress is not None:
            progress(len(judged), len(found))
    return assemble(round_, seat, judged, budget, seed)


def assemble(round_: Round, seat: int, judged: Sequence[DecisionReview], budget: float | None,
             seed: str) -> Review:
    """The :class:`Review` of decisions judged one by one (as a server does, in its workers)."""
    result = round_.result
    assert result is not None
    return Review(round_.variant.name, seat, result.landlord, result.points[seat], tuple(judged),
                  DEFAULT_BUDGET if budget is None else budget, seed)

