"""Playing a world out: to the end of the round, or solved exactly when few cards remain.

Each seat plays by a policy (a style of :mod:`.styles`), and the compiled kernel
(``dizhu.bots._rollout``) plays the whole rollout in one call when every policy is a style of
the library.  The search (:mod:`.search`), the bid search and the review value their moves and
bids with these; the compiled look-ahead (:func:`run_lookahead`) is here too, as it is one call
of the same kernel.
"""

from __future__ import annotations

import random

from ..combos import Combo
from ..rules import same_side
from ..solver import Position, Solver
from .config import SearchConfig
from .shortlist import ALL_LEADS, ALL_REPLIES, SMALL_LEADS
from .styles import NATIVE_SPECS, STYLES, StyleFn, twins
from .view import View
from .worlds import Sim

__all__ = ["ROLLOUT_LIMIT", "INTERMEDIATE", "rollout", "play_out", "intermediate_seats", "native_lookahead",
           "run_lookahead"]

#: Decisions a rollout makes at most (a round ends long before).
ROLLOUT_LIMIT = 400

#: Every seat of a deal played out by the bid search and the review: the intermediate policy (the
#: play search takes the bot's own later moves from ``SearchConfig.own``).  It is the rule policy
#: of the shortlist and the look-ahead too.
INTERMEDIATE = STYLES["intermediate"]


def intermediate_seats(players: int) -> list[StyleFn]:
    """Every seat by the intermediate policy: how the bid search and the review play a deal out."""
    return [INTERMEDIATE] * players


def rollout(sim: Sim, me: int, seats: list, luck: int, limit: int = ROLLOUT_LIMIT, *,
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
    return rollout(sim, me, seats, luck)


def native_lookahead(seats: list, config: SearchConfig) -> "tuple | None":
    """The kernel and ``seats``' specs (:func:`~dizhu.bots.styles.twins`) when the kernel can play
    :func:`.search.to_next_decision` as Python does: it knows the default shortlist and puts the
    rule policy's move first; else None."""
    if config.lookahead < 1 or config.lookahead_first != "rule" or (
            config.all_leads, config.small_leads, config.all_replies) != (ALL_LEADS, SMALL_LEADS, ALL_REPLIES):
        return None
    return twins(seats)


def run_lookahead(sim: Sim, found: tuple, me: int, luck: int, config: SearchConfig, *move: Combo | None) -> tuple:
    """The compiled :func:`.search.to_next_decision` (``found``: from :func:`native_lookahead`) from
    ``sim`` at ``me``'s decision: with a ``move``, from that move on; without, its options there only."""
    kernel, specs = found
    return kernel.lookahead(sim.hands, sim.landlord, sim.handicap, sim.to_act, sim.last, sim.passes, sim.played,
                            sim.deck, sim.plays_made, sim.doublings, specs, me, luck, ROLLOUT_LIMIT,
                            config.lookahead, NATIVE_SPECS[INTERMEDIATE], *move)
