"""Super-hard: search over the hidden cards.

For a decision, the bot

1. samples *worlds*: deals of the cards it cannot see that agree with all it
   knows (its hand, every card played, each player's card count, the
   revealed bottom cards the landlord still holds, and in duel the 9 cards
   that were never dealt);
2. shortlists candidate actions (the intermediate policy's choice, the plays
   of its best hand split, and every reply when there are few);
3. plays each candidate out in each world, every seat following the
   intermediate policy with only its own seat's knowledge, or, when few
   cards remain, solves the world exactly (:mod:`dizhu.solve`: points with
   bombs and spring, farmers as a team);
4. picks the candidate with the best average result for its side.

The same worlds serve every candidate, so candidates are compared on equal
luck.  The thinking budget is counted in simulated decisions, not in clock
time (a budget of one second is ``STEPS_PER_SECOND`` simulated decisions, what
this code does in a second on one core of a small machine): so the choice is a
deterministic function of the observation, the seed and the budget, and never
depends on how busy the machine is.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..cards import NUM_RANKS
from ..combos import Combo, Kind
from ..moves import moves_from_counts
from ..rules import has_won, next_seat, same_side, spring, trick_over
from ..solve import Position, Solver
from .policy import Ctx, Decision, leads_from_split, intermediate_move
from .view import View

__all__ = ["search_move", "DEFAULT_BUDGET", "sample_world", "Sim"]

#: Seconds of thinking per decision by default.
DEFAULT_BUDGET = 0.1
#: Simulated decisions per second of budget: about what one core of a small
#: machine does (benchmarks/bots.py measures the real decision times).
STEPS_PER_SECOND = 100_000
#: Worlds at least, even when the budget runs out (keeps decisions stable).
MIN_WORLDS = 4
#: Worlds at most.
MAX_WORLDS = 200
#: What sampling a world costs, in simulated decisions (fresh hands must be split).
WORLD_COST = 25
#: Solve a world exactly when this few cards remain in all hands together.
EXACT_CARDS = 9


def pass_evidence(view: View) -> list[tuple[int, Combo, list[int]]]:
    """What passes suggest: (seat, play it passed on, cards it has played since).

    A pass is telling when the passer wanted the lead: the landlord passing
    on a farmer, a farmer passing on the landlord when its partner had passed
    already, and every pass in duel.  Passes on a partner say nothing.
    """
    from ..combos import classify

    evidence = []
    last: tuple[int, Combo] | None = None
    passes = 0
    played_after: list[tuple[int, list[int]]] = []
    for seat, text in view.history:
        if text == "pass":
            passes += 1
            if last is not None and seat != view.seat:
                owner = last[0]
                landlord = view.landlord
                telling = (
                    view.players == 2
                    or (seat == landlord and owner != landlord)
                    or (owner == landlord and passes == 2)
                )
                if telling:
                    since = [0] * NUM_RANKS
                    evidence.append((seat, last[1], since))
                    played_after.append((seat, since))
            if trick_over(passes, view.players):
                last, passes = None, 0
            continue
        combo = classify(text)
        for who, since in played_after:
            if who == seat:
                for r, n in enumerate(combo.counts):
                    since[r] += n
        last, passes = (seat, combo), 0
    return evidence


def _violations(hands: list[list[int]], evidence) -> int:
    """How many telling passes a world contradicts.

    A pass contradicts a world where the passer held a reply that costs it
    nothing: a loose single or pair (a rank held exactly once or twice) above
    the play, or any ordinary reply to a longer play.
    """
    count = 0
    for seat, prev, since in evidence:
        then = [a + b for a, b in zip(hands[seat], since)]
        kind = prev.kind
        if kind is Kind.SINGLE or kind is Kind.PAIR:
            width = 1 if kind is Kind.SINGLE else 2
            top = NUM_RANKS if width == 1 else 13
            if any(then[r] == width for r in range(prev.main + 1, top)):
                count += 1
        elif not prev.is_bomb and any(not m.is_bomb for m in moves_from_counts(then, prev)):
            count += 1
    return count


#: How much less likely a world is for each pass it contradicts (1: passes are ignored).
#: Passing is always allowed, so no pass rules a world out; weighting worlds by
#: the passes they explain (0.25 or 0.4 here) measured no gain in head-to-head
#: arena runs against the unweighted search, so it is off by default.
PASS_EVIDENCE_WEIGHT = 1.0


def sample_consistent(view: View, rng: random.Random, evidence, tries: int = 30,
                      weight: float = PASS_EVIDENCE_WEIGHT) -> list[list[int]]:
    """A world weighted by how well it explains the passes (rejection sampling)."""
    best, best_v = None, 99
    for _ in range(tries):
        hands = sample_world(view, rng)
        v = _violations(hands, evidence) if evidence else 0
        if v == 0 or rng.random() < weight ** v:
            return hands
        if v < best_v:
            best, best_v = hands, v
    return best


def sample_world(view: View, rng: random.Random) -> list[list[int]]:
    """Hands of every seat (own hand as it is) consistent with what ``view`` knows."""
    pool: list[int] = []
    for r in range(NUM_RANKS):
        pool += [r] * (view.unseen[r] - view.bottom_left[r])
    rng.shuffle(pool)
    hands = []
    for s in range(view.players):
        if s == view.seat:
            hands.append(list(view.hand))
            continue
        counts = [0] * NUM_RANKS
        need = view.cards_left[s]
        if s == view.landlord:
            for r in range(NUM_RANKS):
                counts[r] += view.bottom_left[r]
            need -= sum(view.bottom_left)
        for r in pool[:need]:
            counts[r] += 1
        pool = pool[need:]
        hands.append(counts)
    return hands


class Sim:
    """A compact, perfect-information copy of a round in play, for simulations."""

    __slots__ = ("hands", "players", "landlord", "handicap", "to_act", "last",
                 "passes", "left", "played", "deck", "plays_made", "doublings")

    def __init__(self, view: View, hands: list[list[int]]) -> None:
        self.hands = hands
        self.players = view.players
        self.landlord = view.landlord
        self.handicap = view.handicap
        self.to_act = view.seat
        self.last = view.last
        self.passes = view.passes
        self.left = [sum(h) for h in hands]
        deck = view.variant.deck_counts
        self.deck = deck
        self.played = [deck[r] - view.unseen[r] - view.hand[r] for r in range(NUM_RANKS)]
        self.plays_made = list(view.plays_made)
        self.doublings = view.doublings

    def copy(self) -> "Sim":
        other = Sim.__new__(Sim)
        other.hands = [h[:] for h in self.hands]
        for name in ("players", "landlord", "handicap", "to_act", "last", "passes",
                     "deck", "doublings"):
            setattr(other, name, getattr(self, name))
        other.left = self.left[:]
        other.played = self.played[:]
        other.plays_made = self.plays_made[:]
        return other

    def ctx(self) -> Ctx:
        seat = self.to_act
        hand = self.hands[seat]
        unseen = tuple(self.deck[r] - self.played[r] - hand[r] for r in range(NUM_RANKS))
        return Ctx(tuple(hand), seat, self.players, self.landlord, self.left, self.last,
                   unseen, self.handicap)

    def apply(self, combo: Combo | None) -> int | None:
        """Play ``combo`` (None: pass) for the seat to act; the winner's seat if it ends."""
        seat = self.to_act
        if combo is None:
            self.passes += 1
            if trick_over(self.passes, self.players):
                self.to_act = self.last[0]
                self.last = None
                self.passes = 0
            else:
                self.to_act = next_seat(seat, self.players)
            return None
        hand = self.hands[seat]
        for r, n in enumerate(combo.counts):
            if n:
                hand[r] -= n
                self.played[r] += n
        self.left[seat] -= combo.size
        self.plays_made[seat] += 1
        if combo.is_bomb:
            self.doublings += 1
        self.last = (seat, combo)
        self.passes = 0
        if has_won(self.left[seat], seat, self.landlord, self.handicap):
            return seat
        self.to_act = next_seat(seat, self.players)
        return None

    def value(self, winner: int, me: int) -> float:
        """Points for ``me``'s side at the end (base 1; spring counted)."""
        doubled = spring(winner == self.landlord, self.plays_made, self.landlord) is not None
        score = float(1 << (self.doublings + doubled))
        return score if same_side(me, winner, self.landlord) else -score


def _rollout(sim: Sim, me: int, limit: int = 400) -> tuple[float, int]:
    """Play to the end with the intermediate policy: (value for me, decisions made)."""
    for step in range(1, limit + 1):
        combo, _, _ = intermediate_move(sim.ctx())
        winner = sim.apply(combo)
        if winner is not None:
            return sim.value(winner, me), step
    return 0.0, limit


def _candidates(view: View, ctx: Ctx) -> tuple[list[Combo | None], Combo | None]:
    """The shortlist to search, and the intermediate policy's own choice."""
    choice, _, _ = intermediate_move(ctx)
    hand = ctx.hand
    if ctx.last is None:
        moves = moves_from_counts(hand)
        pool: list[Combo | None] = list(leads_from_split(hand))
        if len(moves) <= 12:
            pool = list(moves)
        else:
            # a few more: every single and pair, lowest first
            extra = sorted((m for m in moves if m.size <= 2), key=lambda m: m.main)[:4]
            pool += extra
    else:
        moves = moves_from_counts(hand, ctx.last[1])
        pool = [None] + list(moves)
        if len(pool) > 10:
            pool = [None] + sorted(moves, key=lambda m: (m.is_bomb, m.main))[:9]
    if choice not in pool:
        pool.append(choice)
    seen = set()
    unique: list[Combo | None] = []
    for m in pool:
        k = None if m is None else m.key
        if k not in seen:
            seen.add(k)
            unique.append(m)
    return unique, choice


def search_move(view: View, rng: random.Random, budget: float | None = None,
                evidence_weight: float = PASS_EVIDENCE_WEIGHT, deadline: float | None = None) -> Decision:
    """The super-hard decision for a play-phase observation.

    ``deadline`` (a ``time.monotonic()`` value) stops the search after the last
    whole world sampled before it, even below ``MIN_WORLDS``; if it passes before
    one world is done, the rule policy's move is played (a server's pace must hold).
    """
    ctx = Ctx.of(view)
    candidates, choice = _candidates(view, ctx)
    if len(candidates) == 1:
        m = candidates[0]
        return _decision(m, *intermediate_move(ctx)[1:])
    budget = DEFAULT_BUDGET if budget is None else budget
    steps_budget = budget * STEPS_PER_SECOND
    steps = 0
    totals = [0.0] * len(candidates)
    wins = [0] * len(candidates)
    worlds = 0
    me = view.seat
    cards_in_play = sum(view.cards_left)
    exact = cards_in_play <= EXACT_CARDS
    evidence = pass_evidence(view) if evidence_weight < 1 else []
    while worlds < MIN_WORLDS or steps < steps_budget:
        hands = sample_consistent(view, rng, evidence, weight=evidence_weight)
        root = Sim(view, hands)
        steps += WORLD_COST
        solver = Solver()  # one transposition table for the candidates of this world
        values: list[float] = []
        for move in candidates:
            if deadline is not None and time.monotonic() > deadline:
                break
            sim = root.copy()
            winner = sim.apply(move)
            if winner is not None:
                value = sim.value(winner, me)
            elif exact:
                position = Position(view.variant, tuple(map(tuple, sim.hands)), sim.landlord, sim.to_act,
                                    sim.last, sim.passes, tuple(sim.plays_made), sim.doublings, sim.handicap)
                value = solver.value(position)  # points for the side to act, bombs and spring counted
                value = value if same_side(sim.to_act, me, sim.landlord) else -value
                steps += 1 + len(solver.table) // 4
            else:
                value, used = _rollout(sim, me)
                steps += used
            values.append(value)
        if len(values) < len(candidates):
            break  # the deadline fell inside this world: it does not count
        for i, value in enumerate(values):
            totals[i] += value
            wins[i] += value > 0
        worlds += 1
        if worlds >= MAX_WORLDS or (exact and worlds >= 40):
            break
        if deadline is not None and time.monotonic() > deadline:
            break
    if not worlds:
        return _decision(choice, *intermediate_move(ctx)[1:])
    best = max(range(len(candidates)), key=lambda i: (totals[i], candidates[i] is choice))
    move = candidates[best]
    if move is choice:
        # the search agrees with the rule policy: keep its (more specific) reason
        return _decision(move, *intermediate_move(ctx)[1:])
    rate = round(100 * wins[best] / worlds)
    return _decision(move, "search", {"rate": rate, "games": worlds})


def _decision(move: Combo | None, reason: str, params: dict[str, Any]) -> Decision:
    return Decision("pass" if move is None else f"play {move.text}", reason, params)
