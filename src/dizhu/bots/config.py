"""How the super-hard search thinks: its budget, its costs, and how it models the other seats.

:class:`SearchConfig` holds every setting the search (:mod:`.search`), its look-ahead and the bid
search (:mod:`.bidsearch`) read; :data:`SUPER_HARD` is what the bot plays with, :data:`ADVICE`
what the hint and the review search with.  The module constants are the defaults and the costs
the thinking budget is counted in, kept apart from the search so that the bid search, the review
and the benchmarks can read them without the search itself.
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from ..moves import NATIVE as MOVES_NATIVE
from ..variants import VARIANTS
from .hands import NATIVE
from .reading import HIT, MISS, RECENT, Reading, Table, read_table, read_world
from .shortlist import ALL_LEADS, ALL_REPLIES, SMALL_LEADS
from .styles import COMPILED, OWN_STYLES, PRIOR, STYLES
from .view import View

__all__ = ["SearchConfig", "SUPER_HARD", "ADVICE", "DEFAULT_BUDGET", "STEPS_PER_SECOND", "MIN_WORLDS", "MAX_WORLDS",
           "WORLD_COST", "STEP_COST", "COMPILED_ONLY", "EXACT_CARDS", "LOOKAHEAD_Z", "RACE_FROM", "RACE_Z",
           "DUEL_READING"]

#: Seconds of thinking per decision by default (one core).
DEFAULT_BUDGET = 0.3
#: Simulated decisions (rollout moves, style evaluations) per second of one core, a little under
#: what benchmarks/kernel.py measures with all three compiled kernels (564k a CPU-second; a 0.3 s
#: budget takes about 0.26 s); with any of them missing, the rate without it (88k with the compiled
#: move generation and hand split alone, 44k in Python).
STEPS_PER_SECOND = (460_000 if COMPILED else 88_000) if NATIVE and MOVES_NATIVE else 44_000
#: Worlds at least, even when the budget runs out (keeps decisions stable).
MIN_WORLDS = 4
#: Worlds at most.
MAX_WORLDS = 1000
#: What sampling a world costs, in simulated decisions (fresh hands must be split).
WORLD_COST = 25
#: What a rollout's simulated decision costs, in simulated decisions, when the bot's own later moves
#: are played by this style (by default 1): the distilled policy scores its whole shortlist at each
#: of them.  At equal worlds, ``benchmarks/charge.py`` times duel decisions with it at 1.67 times
#: the CPU; the charge keeps a little over, as a world's sampling is charged alike for every style.
STEP_COST = {"distilled": 1.8}
#: The own styles played only by the compiled rollouts: a pure-Python install plays intermediate
#: instead (in Python a distilled world costs about 14 times a compiled one).
COMPILED_ONLY = frozenset({"distilled"})
#: Solve a world exactly when this few cards remain in all hands together.
EXACT_CARDS = 9
#: The look-ahead (``SearchConfig.lookahead``) leaves the rule policy's next move in a group of
#: worlds only for a move that beats it there, world by world, by more than this many standard errors.
#: One, not two: the looser test won a little more often in the duel (+0.011 [-0.000, +0.022] over
#: 600 paired deals; docs/DECISIONS.md, "The look-ahead").
LOOKAHEAD_Z = 1.0
#: Racing the shortlist: from this many worlds on (and at each doubling), a candidate that
#: trails the leader, world by world, by more than ``RACE_Z`` standard errors is played out
#: no further; its rollouts go to more worlds for the others.
RACE_FROM = 8
RACE_Z = 2.0

#: The duel's reading (``SearchConfig``'s ``hit``, ``miss`` and ``resample`` there): an agreement
#: with a style weighs 9 times a disagreement (classic: 3.2), over 8 worlds drawn for each one
#: played out.  Against intermediate it wins 1.7 games in a hundred more than classic's reading
#: (1,600 paired deals); resampled, because a sharp reading weighs most uniform worlds near zero
#: (docs/DECISIONS.md, "The other players").
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
    #: Race the shortlist (:func:`.search.evaluate`'s ``race``): drop the clearly worse candidates early.
    race: bool = True
    #: Read the earlier rounds at the table too (:func:`.reading.read_table`): each other seat's
    #: own style prior, and how far each style is trusted with it.
    table: bool = True
    #: What the search maximises: ``win_weight`` times the win (+1 or -1) plus ``1 - win_weight``
    #: times the points.  0 ranks moves by expected points alone; 1 by the chance to win alone.
    win_weight: float = 0.0
    #: The shortlist (``search._candidates``): every lead when the hand has at most this many, ...
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
    #: weight and counts for their mean weight (importance resampling, ``search._draw_world``).  A
    #: sharp reading weighs most worlds near zero; played out one by one, a decision's estimates
    #: would rest on a handful of them.
    resample: Mapping[str, int] | int = field(default_factory=lambda: {"classic": 1, "duel": DUEL_READING[2]})
    #: Worlds at most in one decision (a longer budget needs a higher cap to buy more worlds).
    max_worlds: int = MAX_WORLDS
    #: The variants in which it bids by playing each bid out in sampled deals (:mod:`.bidsearch`);
    #: in the others it bids by the bidding model, as intermediate does.  Classic is not among them:
    #: there the search took the landlord's seat far too often and lost to the model's bids
    #: (-0.040 [-0.077, -0.003]; docs/DECISIONS.md, "Bidding").  The
    #: bid search always weighs its deals by the bids so far and has its own cap of deals
    #: (``bidsearch.MAX_DEALS``): ``read`` and ``max_worlds`` are the play search's.
    bid_search: tuple[str, ...] = ("duel",)
    #: How much the stake weighs in the bids (:meth:`bid_objective`): 0 maximises the chance to
    #: win, 1 the expected points.  The win alone won the most games but robbed whatever the
    #: doubled stake, and lost points to a strong opponent; the points alone won fewer games
    #: and, noisier, no more points.  The square root won more games than the model's bids
    #: against the 2026-12-01 super-hard, and no fewer points against either opponent measured
    #: (docs/DECISIONS.md, "Bidding").
    bid_stake_power: float = 0.5
    #: The style that plays this bot's own later moves in the rollouts, by variant (one name: in
    #: every variant).  In the duel, the distilled policy (:mod:`.distilled`): it won more against
    #: the 2026-12-01 super-hard (+0.025 [+0.005, +0.045], 600 deals), the same against
    #: intermediate.  Classic keeps intermediate: its own network moved nothing against
    #: intermediate or the RLCard agent, for twice the CPU (docs/DECISIONS.md, "The rollouts").
    own: Mapping[str, str] | str = field(default_factory=lambda: {"classic": "intermediate", "duel": "distilled"})
    #: Look ahead to the bot's next decision (:func:`.search.to_next_decision`): this many moves of its
    #: shortlist there, the rule policy's first, each played out in every world; the worlds the bot
    #: could not tell apart by then are grouped, and in each group its next move is one move for
    #: all of them (0: off, the own style plays it).  Chosen world by world, with the world's cards
    #: in sight, it lost; grouped, it won 3.3 games in a hundred more in the duel
    #: (docs/DECISIONS.md, "The look-ahead").
    lookahead: int = 4
    #: The variants it looks ahead in.  Not classic: there it tied (and took ten times the CPU).
    lookahead_in: tuple[str, ...] = ("duel",)
    #: How many standard errors a move must beat the rule policy's by, world by world, to be the
    #: next move of a group of worlds in the look-ahead (:func:`.statistics.group_value`).
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


#: What super-hard plays with: the style mixture ``styles.PRIOR``, read.  It ties the plain model
#: (every seat rolled out as intermediate in uniform worlds) against the 2026-12-01 super-hard and
#: leads it, not significantly, against the RLCard agent, for about twice the CPU: the model that
#: can follow an opponent unlike intermediate (docs/DECISIONS.md, "The other players").  In duel
#: it looks ahead.
SUPER_HARD = SearchConfig(prior=dict(PRIOR), read=True, exact_cards=EXACT_CARDS)
#: The hint's and the review's search: super-hard's without the look-ahead, which costs about four
#: times the CPU a world (``benchmarks/bots.py``) and would not fit the hint's answer in time, and
#: with intermediate for its own later moves (the distilled policy's worlds cost more: ``STEP_COST``).
ADVICE = dataclasses.replace(SUPER_HARD, lookahead=0, own="intermediate")
