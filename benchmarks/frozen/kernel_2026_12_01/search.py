"""Super-hard: search over the hidden cards, reading the other players.

For a decision, the bot

1. samples *worlds*: deals of the cards it cannot see that agree with all it
   knows (its hand, every card played, each player's card count, the
   revealed bottom cards the landlord still holds, and in duel the 9 cards
   that were never dealt);
2. weighs each world by how well it explains what the other players did this
   round, and reads in it which style each of them plays (:mod:`.reading`);
3. shortlists candidate actions (the intermediate policy's choice, the plays
   of its best hand split, and every reply when there are few);
4. plays each candidate out in each world — each other seat by a style drawn
   from its reading, its own later moves by the intermediate policy — or,
   when few cards remain, solves the world exactly (:mod:`dizhu.solver`: points
   with bombs and spring, farmers as a team);
5. picks the candidate with the best weighted average of points for its side.

:func:`evaluate` is steps 1-4 for any list of moves (the hint and the review
use it); :func:`search_move` is the bot's decision.  The same worlds serve
every candidate, so candidates are compared on equal luck.  The thinking
budget is stated in seconds of one core but counted in simulated decisions
(``STEPS_PER_SECOND`` a second, measured by ``benchmarks/bots.py``), so the
choice is a deterministic function of the observation, the seed and the
budget, and never depends on how busy the machine is — unless a wall-clock
``deadline`` cuts it short.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

from dizhu.cards import NUM_RANKS
from dizhu.combos import Combo
from dizhu.moves import moves_from_counts
from dizhu.rules import has_won, next_seat, same_side, spring, trick_over
from dizhu.solver import Position, Solver
from .policy import Ctx, Decision, intermediate_move, leads_from_split
from .reading import Reading, read_world
from .styles import PRIOR, STYLES
from .view import View

__all__ = ["search_move", "evaluate", "play_out", "ranked", "Estimate", "SearchConfig", "SUPER_HARD",
           "DEFAULT_BUDGET", "sample_world", "Sim"]

#: Seconds of thinking per decision by default (one core).
DEFAULT_BUDGET = 0.3
#: Simulated decisions (rollout moves, style evaluations) per second of one core:
#: measured by benchmarks/bots.py on the project's 2-core machine (44k a second).
STEPS_PER_SECOND = 44_000
#: Worlds at least, even when the budget runs out (keeps decisions stable).
MIN_WORLDS = 4
#: Worlds at most.
MAX_WORLDS = 200
#: What sampling a world costs, in simulated decisions (fresh hands must be split).
WORLD_COST = 25
#: Solve a world exactly when this few cards remain in all hands together.
EXACT_CARDS = 9


@dataclass(frozen=True)
class SearchConfig:
    """How the search models the other players (what the benchmarks ablate).

    >>> SearchConfig(prior={"intermediate": 1.0}, read=False).prior
    {'intermediate': 1.0}
    """

    #: The style mixture each other seat is read against (style name -> weight).
    prior: Mapping[str, float] = field(default_factory=lambda: dict(PRIOR))
    #: Weigh worlds, and each seat's style, by the seats' recent plays and bids
    #: (:mod:`.reading`); off: uniform worlds, styles drawn from ``prior``.
    read: bool = True
    #: Solve a world exactly when this few cards remain in all hands together.
    exact_cards: int = EXACT_CARDS

    def __post_init__(self) -> None:
        unknown = set(self.prior) - set(STYLES)
        if unknown or not any(w > 0 for w in self.prior.values()):
            raise ValueError(f"a prior over known styles with some weight is needed, not {dict(self.prior)}")

    def reading(self, view: View, hands: list[list[int]], rng: random.Random) -> Reading:
        """The world's reading under this configuration."""
        if self.read:
            return read_world(view, hands, rng, self.prior)
        return Reading.neutral(view, self.prior)


#: What super-hard (and the hint) plays with: the style mixture, read.  At equal search work it
#: ties the frozen 2026-12-01 model (every seat rolled out as intermediate) against the frozen
#: copy, and is ahead of it, not significantly, against the RLCard rule agent (ADP +0.4 over 80
#: deals); it costs about twice the CPU (benchmarks/results/README.md, issue 11 ablation).
SUPER_HARD = SearchConfig(prior=dict(PRIOR), read=True, exact_cards=EXACT_CARDS)


@dataclass(frozen=True)
class Estimate:
    """What a move is worth to the deciding seat's side, over the worlds searched."""

    #: The move (None: pass).
    move: Combo | None
    #: Expected points for the seat's side at base 1 (bombs, rocket and spring counted).
    points: float
    #: Weighted share of worlds the side won after this move.
    win_chance: float
    #: Worlds searched (0: the deadline came before the first one).
    worlds: int


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


def _rollout(sim: Sim, me: int, seats: list, rng: random.Random, limit: int = 400) -> tuple[float, int]:
    """Play to the end, each seat by its policy in ``seats``: (value for me, decisions made)."""
    for step in range(1, limit + 1):
        combo = seats[sim.to_act](sim.ctx(), rng)
        winner = sim.apply(combo)
        if winner is not None:
            return sim.value(winner, me), step
    return 0.0, limit

def _candidates(ctx: Ctx) -> tuple[list[Combo | None], Combo | None]:
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


def evaluate(view: View, rng: random.Random, moves: "list[Combo | None] | None" = None,
             budget: float | None = None, deadline: float | None = None, *,
             config: SearchConfig = SUPER_HARD) -> list[Estimate]:
    """What each of ``moves`` (None: pass) is worth to the seat of ``view``, in their order.

    ``moves`` defaults to the shortlist :func:`search_move` chooses from.  Every move
    is played out in the same worlds (equal luck), each world weighted by how well it
    explains the round so far (:mod:`dizhu.bots.reading`).  ``budget`` is in seconds
    of one core (``STEPS_PER_SECOND`` simulated decisions a second); ``deadline`` (a
    ``time.monotonic()`` value) stops after the last whole world before it, even
    below ``MIN_WORLDS`` — then the estimates may count no world at all (``worlds == 0``).
    ``config`` says how the other seats are modelled.
    """
    if moves is None:
        moves = _candidates(Ctx.of(view))[0]
    budget = DEFAULT_BUDGET if budget is None else budget
    steps_budget = budget * STEPS_PER_SECOND
    steps = 0
    totals = [0.0] * len(moves)
    wins = [0.0] * len(moves)
    weights = 0.0
    worlds = 0
    me = view.seat
    exact = sum(view.cards_left) <= config.exact_cards
    while worlds < MIN_WORLDS or steps < steps_budget:
        if deadline is not None and time.monotonic() > deadline:
            break  # before the world's sampling and reading, which take time too
        hands = sample_world(view, rng)
        reading = config.reading(view, hands, rng)
        steps += WORLD_COST + reading.cost
        root = Sim(view, hands)
        seats = [_own if s == me else STYLES[reading.draw(s, rng)] for s in range(view.players)]
        luck = rng.getrandbits(32)  # the same for every move: equal luck for the normal style
        solver = Solver()  # one transposition table for the moves of this world
        values: list[float] = []
        for move in moves:
            if deadline is not None and time.monotonic() > deadline:
                break
            value, used = play_out(view, root, move, exact, solver, seats, luck)
            steps += used
            values.append(value)
        if len(values) < len(moves):
            break  # the deadline fell inside this world: it does not count
        w = reading.weight
        for i, value in enumerate(values):
            totals[i] += w * value
            wins[i] += w * (value > 0)
        weights += w
        worlds += 1
        if worlds >= MAX_WORLDS or (exact and worlds >= 40):
            break
        if deadline is not None and time.monotonic() > deadline:
            break
    if not worlds:
        return [Estimate(m, 0.0, 0.0, 0) for m in moves]
    return [Estimate(m, totals[i] / weights, wins[i] / weights, worlds) for i, m in enumerate(moves)]


def play_out(view: View, root: Sim, move: Combo | None, exact: bool, solver: Solver,
             seats: list, luck: int) -> tuple[float, int]:
    """What ``move`` is worth to ``view``'s seat in the world ``root``, and the simulated
    decisions it took: solved exactly when ``exact`` (``solver`` keeps its table across
    the moves of one world), else played out with each seat's policy in ``seats``."""
    me = view.seat
    sim = root.copy()
    winner = sim.apply(move)
    if winner is not None:
        return sim.value(winner, me), 1
    if exact:
        position = Position(view.variant, tuple(map(tuple, sim.hands)), sim.landlord, sim.to_act,
                            sim.last, sim.passes, tuple(sim.plays_made), sim.doublings, sim.handicap)
        before = len(solver.table)
        value = solver.value(position)  # points for the side to act, bombs and spring counted
        value = value if same_side(sim.to_act, me, sim.landlord) else -value
        return value, 1 + (len(solver.table) - before) // 4
    return _rollout(sim, me, seats, random.Random(luck))


def _own(ctx: Ctx, rng: random.Random) -> Combo | None:
    """This bot's own later moves in a rollout."""
    return intermediate_move(ctx)[0]


def ranked(view: View, rng: random.Random, budget: float | None = None,
           deadline: float | None = None, *, config: SearchConfig = SUPER_HARD
           ) -> tuple[list[Estimate], Combo | None]:
    """The shortlist's estimates, best first, and the rule policy's own choice.

    Ties go to the rule policy's choice, then to the shortlist's order.  With no
    world searched (the deadline came first), the rule policy's choice comes first.
    """
    candidates, choice = _candidates(Ctx.of(view))
    if len(candidates) == 1:
        return [Estimate(candidates[0], 0.0, 0.0, 0)], choice
    estimates = evaluate(view, rng, candidates, budget, deadline, config=config)
    order = sorted(range(len(candidates)),
                   key=lambda i: (-estimates[i].points, candidates[i] is not choice, i))
    return [estimates[i] for i in order], choice


def search_move(view: View, rng: random.Random, budget: float | None = None,
                deadline: float | None = None, *, config: SearchConfig = SUPER_HARD) -> Decision:
    """The super-hard decision for a play-phase observation.

    If the deadline passes before one world is done, the rule policy's move is
    played (a server's pace must hold).
    """
    estimates, choice = ranked(view, rng, budget, deadline, config=config)
    best = estimates[0]
    if best.worlds == 0 or best.move is choice:
        # no search, or it agrees with the rule policy: keep the policy's (more specific) reason
        return _decision(choice, *intermediate_move(Ctx.of(view))[1:])
    return _decision(best.move, "search", {"rate": round(100 * best.win_chance), "games": best.worlds})


def _decision(move: Combo | None, reason: str, params: dict[str, Any]) -> Decision:
    return Decision("pass" if move is None else f"play {move.text}", reason, params)

