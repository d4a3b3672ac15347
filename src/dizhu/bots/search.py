"""Super-hard: search over the hidden cards, reading the other players.

For a decision, the bot

1. samples *worlds*: deals of the cards it cannot see that agree with all it
   knows (its hand, every card played, each player's card count, the
   revealed bottom cards the landlord still holds, and in duel the 9 cards
   that were never dealt);
2. weighs each world by how well it explains what the other players did this
   round, and reads in it which style each of them plays (:mod:`.reading`),
   starting from what the earlier rounds at the table said of each of them;
3. shortlists candidate actions (the intermediate policy's choice, the plays
   of its best hand split, and every reply when there are few);
4. plays each candidate out in each world — each other seat by a style drawn
   from its reading, its own later moves by the intermediate policy (in duel by the
   distilled policy, :mod:`.distilled`) — or,
   when few cards remain, solves the world exactly (:mod:`dizhu.solver`: points
   with bombs and spring, farmers as a team);
5. in duel, looks ahead to its own next decision (:func:`to_next_decision`): there a few
   moves of its shortlist are played out too, and in each group of worlds it
   could not tell apart by then, one of them is its move in all of them: the
   rule policy's, unless another is clearly better there;
6. without the look-ahead (classic, the hint, the review), races the candidates: one that
   is clearly behind the leader in the worlds so far is played out no further,
   and the search ends when one is left;
7. picks the candidate with the best weighted average of points for its side.

:func:`evaluate` is steps 1-5 (or 6 on request) for any list of moves (the hint and the review
use it); :func:`search_move` is the bot's decision.  The same worlds serve
every candidate, so candidates are compared on equal luck.  The thinking
budget is stated in seconds of one core but counted in simulated decisions
(``STEPS_PER_SECOND`` a second, measured by ``benchmarks/bots.py``), so the
choice is a deterministic function of the observation, the seed and the
budget, and never depends on how busy the machine is — unless a wall-clock
``deadline`` cuts it short.  It does depend on the kernel: compiled
(:mod:`dizhu.native`), a second holds more simulated decisions, so a
pure-Python install searches less in the same time and may choose otherwise;
and the compiled rollouts roll the normal style's dice their own way.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from operator import add, sub
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from ..cards import NUM_RANKS
from ..combos import Combo
from ..rules import has_won, next_seat, same_side, spring, trick_over
from ..solver import Position, Solver
from ..moves import NATIVE as MOVES_NATIVE
from ..variants import VARIANTS, Variant
from .hands import NATIVE
from .policy import Ctx, Decision, intermediate_move
from .reading import HIT, MISS, RECENT, Reading, Table, read_table, read_world
from .shortlist import ALL_LEADS, ALL_REPLIES, SMALL_LEADS, shortlist
from .styles import (COMPILED, NATIVE_SPECS, OWN_STYLES, PRIOR, STYLES, StyleFn, compiled, picks, play, throws_dice,
                     twins)
from .view import View

__all__ = ["search_move", "evaluate", "play_out", "to_next_decision", "ranked", "Estimate", "SearchConfig", "SUPER_HARD",
           "ADVICE", "DEFAULT_BUDGET", "sample_world", "Sim", "intermediate_seats"]

#: Seconds of thinking per decision by default (one core).
DEFAULT_BUDGET = 0.3
#: Simulated decisions (rollout moves, style evaluations) per second of one core, measured by
#: benchmarks/bots.py and benchmarks/kernel.py on the project's 2-core machine: 44k a second in
#: Python; with the compiled move generation and hand split (:mod:`dizhu.native`) kernel.py
#: measured 108.9k a CPU-second, and with the compiled rollouts and reading as well
#: (``dizhu.bots._rollout``) 564k (budget 0.3 s: 11.5 times the 2026-12-01 kernel's 49.2k, five
#: times the kernel before).  The figures used keep a little under (a 0.3 s budget takes about
#: 0.26 s); with any of the three kernels missing, the rate without it.
STEPS_PER_SECOND = (460_000 if COMPILED else 88_000) if NATIVE and MOVES_NATIVE else 44_000
#: Worlds at least, even when the budget runs out (keeps decisions stable).
MIN_WORLDS = 4
#: Worlds at most.
MAX_WORLDS = 1000
#: What sampling a world costs, in simulated decisions (fresh hands must be split).
WORLD_COST = 25
#: What a rollout's simulated decision costs, in simulated decisions, when the bot's own later moves
#: are played by this style (by default 1): the distilled policy scores its whole shortlist at each
#: of them.  At equal worlds, ``benchmarks/charge.py`` timed duel decisions with it at 1.67 times
#: the CPU (session 57: the network of 147 inputs and 64 units, summing only the features that are
#: not 0); the charge keeps a little over, as a world's sampling is charged alike for every style.
STEP_COST = {"distilled": 1.8}
#: The own styles played only by the compiled rollouts: a pure-Python install plays intermediate
#: instead (the distilled policy in Python made a world cost 14 times as much as compiled, session 42).
COMPILED_ONLY = frozenset({"distilled"})
#: Solve a world exactly when this few cards remain in all hands together.
EXACT_CARDS = 9
#: The look-ahead (``SearchConfig.lookahead``) leaves the rule policy's next move in a group of
#: worlds only for a move that beats it there, world by world, by more than this many standard errors.
#: One, not two: the looser test won a little more often in the duel on both sets of deals tried
#: (+0.011 [-0.000, +0.022] over 600 deals, benchmarks/results/README.md, session 46).
LOOKAHEAD_Z = 1.0
#: Racing the shortlist: from this many worlds on (and at each doubling), a candidate that
#: trails the leader, world by world, by more than ``RACE_Z`` standard errors is played out
#: no further; its rollouts go to more worlds for the others.
RACE_FROM = 8
RACE_Z = 2.0

#: The duel's reading (``SearchConfig``'s ``hit``, ``miss`` and ``resample`` there): an agreement
#: with a style weighs 9 times a disagreement (classic: 3.2), over 8 worlds drawn for each one
#: played out.  Against intermediate it won 1.8 games in a hundred more than the classic
#: reading, paired over 1,000 deals; a perfect reading, resampled, won 3.3 (session 53,
#: benchmarks/results/README.md), unresampled nothing: it left a decision with about 8 worlds that
#: counted, of hundreds played out.
DUEL_READING = (0.9, 0.1, 8)


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
    #: Race the shortlist (:func:`evaluate`'s ``race``): drop the clearly worse candidates early.
    race: bool = True
    #: Read the earlier rounds at the table too (:func:`.reading.read_table`): each other seat's
    #: own style prior, and how far each style is trusted with it.
    table: bool = True
    #: What the search maximises: ``win_weight`` times the win (+1 or -1) plus ``1 - win_weight``
    #: times the points.  0 ranks moves by expected points alone; 1 by the chance to win alone.
    win_weight: float = 0.0
    #: The shortlist (:func:`_candidates`): every lead when the hand has at most this many, ...
    all_leads: int = ALL_LEADS
    #: ... else the plays of its split and this many of its lowest singles and pairs besides;
    small_leads: int = SMALL_LEADS
    #: every reply and the pass when there are at most this many choices, else the pass and the
    #: lowest replies (bombs last) up to that many.
    all_replies: int = ALL_REPLIES
    #: How many of each other seat's latest decisions the reading replays (:mod:`.reading`).
    recent: int = RECENT
    #: The reading's likelihoods of an action a style agrees with, and of one it does not (before
    #: the earlier rounds at the table say how far each style predicts each seat), by variant (one
    #: number: in every variant; so for ``resample``).  The duel's are :data:`DUEL_READING`'s.
    hit: Mapping[str, float] | float = field(default_factory=lambda: {"classic": HIT, "duel": DUEL_READING[0]})
    miss: Mapping[str, float] | float = field(default_factory=lambda: {"classic": MISS, "duel": DUEL_READING[1]})
    #: Worlds sampled and read for each world played out, by variant: one of them is drawn by its
    #: weight and counts for their mean weight (importance resampling, :func:`_draw_world`).  A
    #: sharp reading weighs most worlds near zero; played out one by one, a decision's estimates
    #: would rest on a handful of them.
    resample: Mapping[str, int] | int = field(default_factory=lambda: {"classic": 1, "duel": DUEL_READING[2]})
    #: Worlds at most in one decision (a longer budget needs a higher cap to buy more worlds).
    max_worlds: int = MAX_WORLDS
    #: The variants in which it bids by playing each bid out in sampled deals (:mod:`.bidsearch`);
    #: in the others it bids by the bidding model, as intermediate does.  Classic is not among them:
    #: there the search bid worse than the model (benchmarks/results/README.md, session 29).  The
    #: bid search always weighs its deals by the bids so far and has its own cap of deals
    #: (``bidsearch.MAX_DEALS``): ``read`` and ``max_worlds`` are the play search's.
    bid_search: tuple[str, ...] = ("duel",)
    #: How much the stake weighs in the bids (:meth:`bid_objective`): 0 maximises the chance to
    #: win, 1 the expected points.  The win alone won the most games but robbed whatever the
    #: doubled stake, and lost points to a strong opponent; the points alone won fewer games
    #: and, noisier, no more points.  The square root won more games than the model's bids
    #: against the frozen copy, and no fewer points against either opponent measured (same
    #: place, session 30).
    bid_stake_power: float = 0.5
    #: The style that plays this bot's own later moves in the rollouts, by variant (one name: in
    #: every variant).  In the duel, the distilled policy (:mod:`.distilled`): against the frozen
    #: copy it won more, against intermediate the same (benchmarks/results/README.md, session 42).
    #: Classic keeps intermediate: its own network, in its worlds, moved nothing against
    #: intermediate or the RLCard agent for twice the CPU (same place, session 44).
    own: Mapping[str, str] | str = field(default_factory=lambda: {"classic": "intermediate", "duel": "distilled"})
    #: Look ahead to the bot's next decision (:func:`to_next_decision`): this many moves of its
    #: shortlist there, the rule policy's first, each played out in every world; the worlds the bot
    #: could not tell apart by then are grouped, and in each group its next move is one move for
    #: all of them (0: off, the own style plays it).  Choosing it world by world, with the world's
    #: cards in sight, lost (session 32); grouped, it won in duel (benchmarks/results/README.md,
    #: session 39).
    lookahead: int = 4
    #: The variants it looks ahead in.  Not classic: there it tied (and took ten times the CPU).
    lookahead_in: tuple[str, ...] = ("duel",)
    #: How many standard errors a move must beat the rule policy's by, world by world, to be the
    #: next move of a group of worlds in the look-ahead (:func:`_group_value`).
    lookahead_z: float = LOOKAHEAD_Z
    #: Whose move a group of the look-ahead plays unless another clearly beats it: the rule
    #: policy's ("rule") or the style that plays the bot's own later moves ("own", ``own``).
    lookahead_first: str = "rule"

    def __post_init__(self) -> None:
        unknown = set(self.prior) - set(STYLES)
        if unknown or not any(w > 0 for w in self.prior.values()):
            raise ValueError(f"a prior over known styles with some weight is needed, not {dict(self.prior)}")
        if not 0.0 <= self.win_weight <= 1.0:
            raise ValueError(f"win_weight is a share between 0 and 1, not {self.win_weight}")
        if not 0.0 <= self.bid_stake_power <= 1.0:
            raise ValueError(f"bid_stake_power is an exponent between 0 and 1, not {self.bid_stake_power}")
        for name in ("bid_search", "lookahead_in"):
            if set(getattr(self, name)) - set(VARIANTS):
                raise ValueError(f"{name} names variants, not {getattr(self, name)}")
        if self.lookahead < 0:
            raise ValueError(f"lookahead counts moves, not {self.lookahead}")
        if self.lookahead_first not in ("rule", "own"):
            raise ValueError(f"lookahead_first is 'rule' or 'own', not {self.lookahead_first!r}")
        if not self.lookahead_z >= 0:
            raise ValueError(f"lookahead_z counts standard errors, not {self.lookahead_z}")
        for name, valid, says in (("own", lambda v: v in OWN_STYLES, f"a style of {sorted(OWN_STYLES)}"),
                                  ("hit", lambda v: 0.0 < v <= 1.0, "a likelihood in (0, 1]"),
                                  ("miss", lambda v: 0.0 < v <= 1.0, "a likelihood in (0, 1]"),
                                  ("resample", lambda v: isinstance(v, int) and v >= 1, "a number of worlds, 1 or more")):
            object.__setattr__(self, name, _by_variant(name, getattr(self, name), valid, says))
        if self.max_worlds < MIN_WORLDS:
            raise ValueError(f"max_worlds must be at least {MIN_WORLDS}, not {self.max_worlds}")

    def objective(self, points: float) -> float:
        """What the search maximises, for a world that ends with ``points`` for the side.

        Increasing in the points, so the exact solver's best line (most points) is its best too.

        >>> SearchConfig(win_weight=0.5).objective(4.0), SearchConfig(win_weight=0.5).objective(-1.0)
        (2.5, -1.0)
        """
        return _blend(self.win_weight, points)

    def bid_objective(self, points: float) -> float:
        """What the bid search maximises, for a deal that ends with ``points`` for the bidder
        (the stake included): the points' sign times their size to the power ``bid_stake_power``.

        >>> [SearchConfig(bid_stake_power=g).bid_objective(-4.0) for g in (0.0, 0.5, 1.0)]
        [-1.0, -2.0, -4.0]
        >>> SearchConfig(bid_stake_power=0.5).bid_objective(0.0)
        0.0
        """
        if not points:
            return 0.0
        return math.copysign(abs(points) ** self.bid_stake_power, points)

    def table_of(self, view: View) -> Table:
        """What the earlier rounds at the table say of the other seats, under this configuration."""
        variant = view.variant.name
        if self.table:
            return read_table(view, self.prior, self.hit[variant], self.miss[variant])
        return Table.neutral(view, self.prior, self.hit[variant], self.miss[variant])

    def reading(self, view: View, hands: list[list[int]], rng: random.Random, table: Table | None = None) -> Reading:
        """The world's reading under this configuration (``table``: from :meth:`table_of`)."""
        if self.read:
            return read_world(view, hands, rng, self.prior, table, self.recent)
        return Reading.neutral(view, self.prior, table)


def _by_variant(name: str, given: Any, valid: Callable[[Any], bool], says: str) -> dict[str, Any]:
    """A setting for each variant: ``given`` as one per variant, or one value for all of them.

    >>> _by_variant("resample", 4, lambda v: v >= 1, "a number")
    {'classic': 4, 'duel': 4}
    """
    if isinstance(given, Mapping):
        by_variant = dict(given)
    else:
        by_variant = dict.fromkeys(VARIANTS, given)
    try:
        ok = set(by_variant) == set(VARIANTS) and all(valid(v) for v in by_variant.values())
    except TypeError:  # a value of the wrong type
        ok = False
    if not ok:
        raise ValueError(f"{name} is {says}, or one for each variant, not {given!r}")
    return by_variant


def _blend(w: float, points: float) -> float:
    """``w`` times the win (+1, -1; 0 for a deal dealt again) plus ``1 - w`` times the points."""
    if not w:
        return points
    return w * ((points > 0) - (points < 0)) + (1.0 - w) * points


#: What super-hard plays with: the style mixture ``styles.PRIOR``, read.  At equal
#: search work it ties the frozen 2026-12-01 model (every seat rolled out as intermediate) against
#: the frozen copy, and is ahead of it, not significantly, against the RLCard rule agent; it costs
#: about twice the CPU (benchmarks/results/README.md, issue 11 ablations).  In duel it looks ahead.
SUPER_HARD = SearchConfig(prior=dict(PRIOR), read=True, exact_cards=EXACT_CARDS)
#: The hint's and the review's search: super-hard's without the look-ahead, which costs about four
#: times the CPU a world (``benchmarks/bots.py``) and would not fit the hint's answer in time, and
#: with intermediate for its own later moves (the distilled policy's worlds cost more: ``STEP_COST``).
ADVICE = dataclasses.replace(SUPER_HARD, lookahead=0, own="intermediate")


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
    #: What the search ranks by (:meth:`SearchConfig.objective`, averaged like ``points``).
    score: float = 0.0


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

    @classmethod
    def opening(cls, variant: Variant, hands: list[list[int]], landlord: int, handicap: int) -> "Sim":
        """The round at its first lead: the landlord (holding the bottom) to play, nothing played."""
        sim = cls.__new__(cls)
        sim.hands = hands
        sim.players = variant.players
        sim.landlord = landlord
        sim.handicap = handicap
        sim.to_act = landlord
        sim.last = None
        sim.passes = 0
        sim.left = [sum(h) for h in hands]
        sim.deck = variant.deck_counts
        sim.played = [0] * NUM_RANKS
        sim.plays_made = [0] * variant.players
        sim.doublings = 0
        return sim

    def copy(self) -> "Sim":
        other = Sim.__new__(Sim)
        other.hands = [h[:] for h in self.hands]
        # one by one: a loop over the names costs a third of the search's copying
        other.players = self.players
        other.landlord = self.landlord
        other.handicap = self.handicap
        other.to_act = self.to_act
        other.last = self.last
        other.passes = self.passes
        other.deck = self.deck
        other.doublings = self.doublings
        other.left = self.left[:]
        other.played = self.played[:]
        other.plays_made = self.plays_made[:]
        return other

    def ctx(self) -> Ctx:
        seat = self.to_act
        hand = self.hands[seat]
        unseen = tuple(map(sub, map(sub, self.deck, self.played), hand))
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
        counts = combo.counts
        hand[:] = map(sub, hand, counts)  # in place: C loops, not Python ones
        self.played[:] = map(add, self.played, counts)
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


#: Decisions a rollout makes at most (a round ends long before).
ROLLOUT_LIMIT = 400


def _rollout(sim: Sim, me: int, seats: list, luck: int, limit: int = ROLLOUT_LIMIT, *,
             native: bool = True) -> tuple[float, int]:
    """Play to the end, each seat by its policy in ``seats``: (value for me, decisions made).

    ``luck`` seeds the random choices (the normal style's).  Compiled when every policy is a
    library style (and ``native``): the same plays, but for the normal style's draws, which come
    from the kernel's own generator (tests/test_rollout_native.py).
    """
    found = twins(seats) if native else None
    if found is not None:
        kernel, specs = found
        return kernel.rollout(sim.hands, sim.landlord, sim.handicap, sim.to_act, sim.last, sim.passes,
                              sim.played, sim.deck, sim.plays_made, sim.doublings, specs, me, luck, limit)
    rng = random.Random(luck)
    for step in range(1, limit + 1):
        combo = seats[sim.to_act](sim.ctx(), rng)
        winner = sim.apply(combo)
        if winner is not None:
            return sim.value(winner, me), step
    return 0.0, limit

def _candidates(ctx: Ctx, config: SearchConfig | None = None, *, native: bool = True
                ) -> tuple[list[Combo | None], Combo | None]:
    """The shortlist to search (as ``config`` sizes it), and the intermediate policy's own choice
    (from its compiled twin if ``native``)."""
    config = config or SUPER_HARD
    if not native:
        return shortlist(ctx, config.all_leads, config.small_leads, config.all_replies)
    return shortlist(ctx, config.all_leads, config.small_leads, config.all_replies, _rule_choice)


_NO_DICE = random.Random(0)  # (the intermediate policy throws none)


def _rule_choice(ctx: Ctx) -> Combo | None:
    """The intermediate policy's play at ``ctx``, compiled when the kernel is there."""
    return play(_own, ctx, _NO_DICE)


def evaluate(view: View, rng: random.Random, moves: "list[Combo | None] | None" = None,
             budget: float | None = None, deadline: float | None = None, *,
             config: SearchConfig = SUPER_HARD, race: bool = False) -> list[Estimate]:
    """What each of ``moves`` (None: pass) is worth to the seat of ``view``, in their order.

    ``moves`` defaults to the shortlist :func:`search_move` chooses from.  Every move
    is played out in the same worlds (equal luck), each world weighted by how well it
    explains the round so far (:mod:`dizhu.bots.reading`).  ``budget`` is in seconds
    of one core (``STEPS_PER_SECOND`` simulated decisions a second); ``deadline`` (a
    ``time.monotonic()`` value) stops after the last whole world before it, even
    below ``MIN_WORLDS`` — then the estimates may count no world at all (``worlds == 0``).
    ``config`` says how the other seats are modelled.

    With ``race``, a move that is clearly worse than the leader in the worlds so far
    (:func:`_still_in_race`) is no longer played out, so the budget buys more worlds for
    the moves still in the race; a dropped move's estimate counts fewer worlds.  When
    one move is left, the search stops: the choice is made.  With the look-ahead
    (``config.lookahead``) there is no race: a move's worth in a world is known only once
    the world's whole group is.
    """
    if moves is None:
        moves = _candidates(Ctx.of(view), config)[0]
    budget = DEFAULT_BUDGET if budget is None else budget
    steps_budget = budget * STEPS_PER_SECOND
    steps = 0
    totals = [0.0] * len(moves)
    scores = [0.0] * len(moves)
    wins = [0.0] * len(moves)
    weights = [0.0] * len(moves)
    counts = [0] * len(moves)
    active = list(range(len(moves)))
    seen: list[list[float]] = [[] for _ in moves]  # each move's objective in each world (racing)
    world_weights: list[float] = []
    next_race = RACE_FROM
    worlds = 0
    me = view.seat
    exact = sum(view.cards_left) <= config.exact_cards
    table = config.table_of(view)  # once per decision: the earlier rounds are the same in every world
    objective = config.objective
    own_name = config.own[view.variant.name]
    if own_name in COMPILED_ONLY and compiled() is None:
        own_name = "intermediate"  # in Python it would cost many times the compiled world
    own = OWN_STYLES[own_name]
    cost = 1.0 if exact else STEP_COST.get(own_name, 1.0)  # the exact solver plays no style
    # the look-ahead's groups of worlds, by move: what the bot saw by its next decision -> (the
    # world's weight, each next option's value) per world; its values are known only at the end
    groups: list[dict[tuple, list]] | None = None
    if config.lookahead and view.variant.name in config.lookahead_in and not exact:
        groups = [{} for _ in moves]
        race = False
    while worlds < MIN_WORLDS or steps < steps_budget:
        if deadline is not None and time.monotonic() > deadline:
            break  # before the world's sampling and reading, which take time too
        hands, reading, w, used = _draw_world(view, rng, config, table)
        steps += used
        root = Sim(view, hands)
        seats = [own if s == me else STYLES[reading.draw(s, rng)] for s in range(view.players)]
        luck = rng.getrandbits(32)  # the same for every move: equal luck for the normal style
        solver = Solver()  # one transposition table for the moves of this world
        values: list = []
        for i in active:
            if deadline is not None and time.monotonic() > deadline:
                break
            if groups is not None:
                observed, options, used = to_next_decision(view, root, moves[i], seats, luck, config)
                values.append((observed, options))
            else:
                value, used = play_out(view, root, moves[i], exact, solver, seats, luck)
                values.append(value)
            steps += used * cost
        if len(values) < len(active):
            break  # the deadline fell inside this world: it does not count
        for i, value in zip(active, values):
            weights[i] += w
            counts[i] += 1
            if groups is not None:
                observed, options = value  # (the group's worth comes at the end)
                groups[i].setdefault(observed, []).append((w, options))
                continue
            score = objective(value)
            totals[i] += w * value
            scores[i] += w * score
            wins[i] += w * (value > 0)
            if race:
                seen[i].append(score)
        world_weights.append(w)
        worlds += 1
        if worlds >= config.max_worlds or (exact and worlds >= 40):
            break
        if race and worlds >= next_race:
            next_race *= 2
            active = _still_in_race(active, seen, world_weights)  # the active moves were in every world
            if len(active) == 1:
                break
        if deadline is not None and time.monotonic() > deadline:
            break
    if not worlds:
        return [Estimate(m, 0.0, 0.0, 0) for m in moves]
    if groups is not None:
        for i in range(len(moves)):
            for rows in groups[i].values():
                weight = sum(w for w, _ in rows)
                points, won, score = _group_value(rows, objective, config.lookahead_z)
                totals[i] += weight * points
                scores[i] += weight * score
                wins[i] += weight * won
    return [Estimate(m, totals[i] / weights[i], wins[i] / weights[i], counts[i], scores[i] / weights[i])
            for i, m in enumerate(moves)]


def _draw_world(view: View, rng: random.Random, config: SearchConfig, table: Table
                ) -> tuple[list[list[int]], Reading, float, float]:
    """A world to play out, its reading, its weight, and the simulated decisions the draw took:
    ``config.resample`` worlds are sampled and read, and one of them is drawn by weight; it
    weighs their mean weight, so the estimates stay weighted as the worlds' readings say (one
    world: exactly as sampled).  If none of them explains the round at all, the drawn world
    weighs nothing.

    >>> from dizhu import Round
    >>> round_ = Round.deal("duel", seed=2)
    >>> round_.apply(1, "call"); round_.apply(0, "pass")
    >>> view = View.of(round_.observation(round_.to_act))
    >>> table = Table.neutral(view)
    >>> hands, reading, weight, used = _draw_world(view, random.Random(1), SearchConfig(resample=1), table)
    >>> weight == reading.weight   # the landlord's call is read already
    True
    >>> _draw_world(view, random.Random(1), SearchConfig(resample=3), table)[3] > 2 * used
    True
    """
    drawn = []
    used = 0.0
    for _ in range(config.resample[view.variant.name]):
        hands = sample_world(view, rng)
        reading = config.reading(view, hands, rng, table)
        used += WORLD_COST + reading.cost
        drawn.append((hands, reading))
    if len(drawn) == 1:
        return hands, reading, reading.weight, used
    total = sum(r.weight for _, r in drawn)
    if total <= 0:
        return hands, reading, 0.0, used
    hands, reading = rng.choices(drawn, weights=[r.weight for _, r in drawn])[0]
    return hands, reading, total / len(drawn), used


def _still_in_race(active: list[int], seen: list[list[float]], weights: list[float]) -> list[int]:
    """The moves of ``active`` still in the race: all but those whose weighted mean deficit to
    the leader, world by world (equal luck, so the difference's spread is small), is more than
    ``RACE_Z`` standard errors below zero.  ``seen[i]`` holds move i's values in the worlds
    every active move was played in, ``weights`` those worlds' weights.

    >>> _still_in_race([0, 1, 2], [[1, 1, -1, 1], [-1, -1, -1, -1], [1, -1, -1, 1]], [1.0] * 4)
    [0, 2]
    """
    total = sum(weights)
    if total <= 0:
        return active
    n_eff = _effective_worlds(weights, total)
    means = {i: sum(w * v for w, v in zip(weights, seen[i])) / total for i in active}
    leader = max(active, key=lambda i: means[i])
    kept = []
    for i in active:
        if i != leader:
            diffs = [a - b for a, b in zip(seen[i], seen[leader])]
            mean = means[i] - means[leader]
            if mean + RACE_Z * _mean_error(weights, diffs, total, mean, n_eff) < 0:
                continue
        kept.append(i)
    return kept


def _effective_worlds(weights: list[float], total: float) -> float:
    """How many equally weighted worlds the weighted ones are worth (Kish's effective sample size).

    >>> _effective_worlds([1.0, 1.0, 1.0, 1.0], 4.0), _effective_worlds([3.0, 1.0], 4.0)
    (4.0, 1.6)
    """
    return total * total / sum(w * w for w in weights)


def _mean_error(weights: list[float], diffs: list[float], total: float, mean: float, n_eff: float) -> float:
    """The standard error of the weighted ``mean`` of ``diffs``: their weighted spread over ``n_eff``."""
    return (sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs)) / total / n_eff) ** 0.5


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
    return _rollout(sim, me, seats, luck)


def to_next_decision(view: View, root: Sim, move: Combo | None, seats: list, luck: int,
                     config: SearchConfig, *, native: bool = True) -> tuple[tuple, list[float], int]:
    """``move`` in the world ``root``, the other seats' replies up to ``view``'s seat's next
    decision, then ``config.lookahead`` moves of its shortlist there (first the rule policy's, or
    the own style's: ``lookahead_first``), each played out: (what the seat saw happen by then, each
    of those moves' values, the simulated decisions it took).  A round over before it gives one
    value, and who won in what was seen.  Compiled where the kernel plays as Python does (and
    ``native``): the same replies and values (tests/test_rollout_native.py)."""
    me = view.seat
    found = _native_lookahead(seats, config) if native else None
    if found is not None and not any(throws_dice(style) for s, style in enumerate(seats) if s != me):
        # all in the kernel: the move, the others' replies, the options at the next decision
        seen, winner, values, steps = _lookahead(root, found, me, luck, config, move)
        return (tuple(seen) if winner < 0 else ("over", winner, *seen)), values, steps
    sim = root.copy()
    winner = sim.apply(move)
    rng = random.Random(luck)
    seen: list = []
    steps = 1
    while winner is None and sim.to_act != me:
        style = seats[sim.to_act]
        reply = play(style, sim.ctx(), rng) if native else style(sim.ctx(), rng)
        seen.append(None if reply is None else reply.key)
        winner = sim.apply(reply)
        steps += 1
    if winner is not None:
        return ("over", winner, *seen), [sim.value(winner, me)], steps
    if found is not None:  # the replies were played here (a style threw dice), the rest in the kernel
        _, _, values, used = _lookahead(sim, found, me, luck, config)
        return tuple(seen), values, steps + used
    ctx = sim.ctx()
    shortlist, choice = _candidates(ctx, config, native=native)
    if config.lookahead_first == "own":
        key, = picks([seats[me]], ctx, random.Random(luck))
        choice = next((m for m in shortlist if (None if m is None else m.key) == key), choice)
    values = []
    for option in [choice] + [m for m in shortlist if m is not choice][:config.lookahead - 1]:
        trial = sim.copy()
        won = trial.apply(option)
        if won is not None:
            value, used = trial.value(won, me), 1
        else:
            value, used = _rollout(trial, me, seats, luck, native=native)
        values.append(value)
        steps += used
    return tuple(seen), values, steps


def _lookahead(sim: Sim, found: tuple, me: int, luck: int, config: SearchConfig, *move: Combo | None) -> tuple:
    """The compiled :func:`to_next_decision` (``found``: the kernel and the seats' specs) from ``sim``
    at ``me``'s decision: with a ``move``, from that move on; without, its options there only."""
    kernel, specs = found
    return kernel.lookahead(sim.hands, sim.landlord, sim.handicap, sim.to_act, sim.last, sim.passes, sim.played,
                            sim.deck, sim.plays_made, sim.doublings, specs, me, luck, ROLLOUT_LIMIT,
                            config.lookahead, NATIVE_SPECS[_own], *move)


def _native_lookahead(seats: list, config: SearchConfig) -> "tuple | None":
    """The kernel and ``seats``' specs (:func:`~dizhu.bots.styles.twins`) when the kernel can play
    :func:`to_next_decision` as Python does: it knows the default shortlist and puts the rule
    policy's move first; else None."""
    if config.lookahead < 1 or config.lookahead_first != "rule" or (
            config.all_leads, config.small_leads, config.all_replies) != (ALL_LEADS, SMALL_LEADS, ALL_REPLIES):
        return None
    return twins(seats)


def _group_value(rows: list[tuple[float, list[float]]], objective: Callable[[float], float] | None = None,
                 z: float = LOOKAHEAD_Z) -> tuple[float, float, float]:
    """(points, win share, score) of a group of worlds the seat cannot tell apart, each (weight,
    values of its next options, the rule policy's first): the policy's option, unless another's
    ``objective`` (default: the points) beats it world by world by more than ``z``
    standard errors (the best such, by its mean gain).  Taking the best option of each group
    outright would flatter the moves whose groups are small.

    >>> _group_value([(1.0, [-1.0, 2.0]), (1.0, [1.0, -1.0])])  # a gain in one world, a loss in the other
    (0.0, 0.5, 0.0)
    >>> _group_value([(1.0, [-1.0, 2.0]), (1.0, [1.0, 2.0]), (1.0, [-2.0, 2.0])])  # better in every world
    (2.0, 1.0, 2.0)
    >>> _group_value([(1.0, [0.0, 3.0]), (1.0, [0.0, -0.5])])  # two worlds, a gain and a loss: not clear
    (0.0, 0.0, 0.0)
    >>> _group_value([(0.1, [0.0, 1.0])] * 8)  # the same gain in 8 worlds
    (1.0, 1.0, 1.0)
    >>> rows = [(1.0, [0.0, 1.0]), (1.0, [0.0, -0.2]), (1.0, [0.0, 0.5])]  # a gain 1.2 errors wide
    >>> round(_group_value(rows)[0], 3), _group_value(rows, z=2.0)[0]
    (0.433, 0.0)
    """
    objective = objective or float
    weights = [w for w, _ in rows]
    total = sum(weights)
    if total <= 0:
        return 0.0, 0.0, 0.0  # (no world of the group explains the round at all)
    n_eff = _effective_worlds(weights, total)
    scored = [(w, [objective(v) for v in values]) for w, values in rows]
    pick, gain = 0, 0.0
    slack = 1e-9  # (8 equal weights of 0.1 make 7.999999999999997 worlds)
    for c in range(1, len(rows[0][1]) if n_eff >= 2 - slack else 1):
        diffs = [values[c] - values[0] for _, values in scored]
        mean = sum(w * d for w, d in zip(weights, diffs)) / total
        # A sample's spread understates the worlds' by n / (n - 1): with few worlds, a lot.
        error = _mean_error(weights, diffs, total, mean, n_eff) * math.sqrt(n_eff / (n_eff - 1))
        if mean > gain and mean > z * error and (error > 0 or n_eff >= 8 - slack):
            pick, gain = c, mean
    return (sum(w * values[pick] for w, values in rows) / total,
            sum(w * (values[pick] > 0) for w, values in rows) / total,
            sum(w * values[pick] for w, values in scored) / total)


#: Every seat of a deal played out by the bid search and the review: the intermediate policy (the
#: play search takes the bot's own later moves from ``SearchConfig.own``).
_own = STYLES["intermediate"]


def intermediate_seats(players: int) -> list[StyleFn]:
    """Every seat by the intermediate policy: how the bid search and the review play a deal out."""
    return [_own] * players


def ranked(view: View, rng: random.Random, budget: float | None = None,
           deadline: float | None = None, *, config: SearchConfig = SUPER_HARD
           ) -> tuple[list[Estimate], Combo | None]:
    """The shortlist's estimates, best first, and the rule policy's own choice.

    Ties go to the rule policy's choice, then to the shortlist's order.  With no
    world searched (the deadline came first), the rule policy's choice comes first.
    """
    candidates, choice = _candidates(Ctx.of(view), config)
    if len(candidates) == 1:
        return [Estimate(candidates[0], 0.0, 0.0, 0)], choice
    estimates = evaluate(view, rng, candidates, budget, deadline, config=config, race=config.race)
    most = max(e.worlds for e in estimates)
    # The moves that stayed in the race first: a dropped one's few worlds may flatter it.
    order = sorted(range(len(candidates)),
                   key=lambda i: (estimates[i].worlds < most, -estimates[i].score, candidates[i] is not choice, i))
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

