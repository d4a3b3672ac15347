"""Super-hard: search over the hidden cards, reading the other players.

For a decision, the bot

1. samples *worlds*: deals of the cards it cannot see that agree with all it
   knows (its hand, every card played, each player's card count, the
   revealed bottom cards the landlord still holds, and in duel the 9 cards
   that were never dealt; :mod:`.worlds`);
2. weighs each world by how well it explains what the other players did this
   round, and reads in it which style each of them plays (:mod:`.reading`),
   starting from what the earlier rounds at the table said of each of them;
3. shortlists candidate actions (the intermediate policy's choice, the plays
   of its best hand split, and every reply when there are few);
4. plays each candidate out in each world — each other seat by a style drawn
   from its reading, its own later moves by the intermediate policy (in duel by the
   distilled policy, :mod:`.distilled`) — or,
   when few cards remain, solves the world exactly (:mod:`dizhu.solver`: points
   with bombs and spring, farmers as a team; :mod:`.rollouts`);
5. in duel, looks ahead to its own next decision (:func:`to_next_decision`): there a few
   moves of its shortlist are played out too, and in each group of worlds it
   could not tell apart by then, one of them is its move in all of them: the
   rule policy's, unless another is clearly better there (:func:`.statistics.group_value`);
6. without the look-ahead (classic, the hint, the review), races the candidates: one that
   is clearly behind the leader in the worlds so far is played out no further,
   and the search ends when one is left (:func:`.statistics.still_in_race`);
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

How the search is set (the budget's costs, the presets) is :mod:`.config`'s; the names of
:mod:`.config`, :mod:`.worlds` and :mod:`.rollouts` that its callers use can be imported from
here too.  The search looks up ``sample_world``, ``play_out``, ``_draw_world``,
``_native_lookahead``, ``compiled`` and ``STEPS_PER_SECOND`` in this module's namespace when it
runs, so a test or a benchmark that replaces one of them here (to count, to fix the worlds, to
force the Python path) replaces what the search uses.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..combos import Combo
from ..solver import Solver
from .config import (ADVICE, COMPILED_ONLY, DEFAULT_BUDGET, DUEL_READING, EXACT_CARDS, MIN_WORLDS, RACE_FROM,
                     STEP_COST, STEPS_PER_SECOND, SUPER_HARD, WORLD_COST, SearchConfig)
from .policy import Ctx, Decision, intermediate_move
from .reading import Reading, Table
# (_own, _rollout and _native_lookahead: the names tests and tools/native_parity.py use here)
from .rollouts import INTERMEDIATE as _own, intermediate_seats, play_out, run_lookahead
from .rollouts import native_lookahead as _native_lookahead, rollout as _rollout
from .shortlist import shortlist
from .statistics import group_value, still_in_race
from .styles import OWN_STYLES, STYLES, StyleFn, compiled, picks, play, throws_dice
from .view import View
from .worlds import Sim, sample_world

__all__ = ["search_move", "evaluate", "to_next_decision", "ranked", "Estimate",
           # defined in .config, .worlds and .rollouts, and imported from here by their callers
           "SearchConfig", "SUPER_HARD", "ADVICE", "DEFAULT_BUDGET", "EXACT_CARDS", "DUEL_READING", "sample_world",
           "Sim", "play_out", "intermediate_seats"]


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
        seen, winner, values, steps = run_lookahead(root, found, me, luck, config, move)
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
        _, _, values, used = run_lookahead(sim, found, me, luck, config)
    else:
        values, used = _next_options(sim, me, seats, luck, config, native)
    return tuple(seen), values, steps + used


def _next_options(sim: Sim, me: int, seats: list, luck: int, config: SearchConfig,
                  native: bool) -> tuple[list[float], int]:
    """At ``me``'s decision in ``sim``, ``config.lookahead`` moves of its shortlist, the first one
    first (the rule policy's, or the own style's), each played out: (their values, the simulated
    decisions it took)."""
    ctx = sim.ctx()
    options, choice = _candidates(ctx, config, native=native)
    if config.lookahead_first == "own":
        key, = picks([seats[me]], ctx, random.Random(luck))
        choice = next((m for m in options if (None if m is None else m.key) == key), choice)
    values = []
    steps = 0
    for option in [choice] + [m for m in options if m is not choice][:config.lookahead - 1]:
        trial = sim.copy()
        won = trial.apply(option)
        if won is not None:
            value, used = trial.value(won, me), 1
        else:
            value, used = _rollout(trial, me, seats, luck, native=native)
        values.append(value)
        steps += used
    return values, steps


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
    (:func:`.statistics.still_in_race`) is no longer played out, so the budget buys more worlds
    for the moves still in the race; a dropped move's estimate counts fewer worlds.  When
    one move is left, the search stops: the choice is made.  With the look-ahead
    (``config.lookahead``) there is no race: a move's worth in a world is known only once
    the world's whole group is.
    """
    if moves is None:
        moves = _candidates(Ctx.of(view), config)[0]
    spent = _Budget(DEFAULT_BUDGET if budget is None else budget, deadline)
    setting = _Setting.of(view, config)
    tally = _Tally(len(moves), config.objective, grouped=setting.grouped, raced=race and not setting.grouped)
    active = list(range(len(moves)))
    next_race = RACE_FROM
    while tally.worlds < MIN_WORLDS or spent.steps < spent.limit:
        if spent.past_deadline():
            break  # before the world's sampling and reading, which take time too
        values, weight = _play_world(setting, rng, moves, active, spent)
        if len(values) < len(active):
            break  # the deadline fell inside this world: it does not count
        tally.add(active, values, weight)
        if tally.worlds >= config.max_worlds or (setting.exact and tally.worlds >= 40):
            break
        if tally.raced and tally.worlds >= next_race:
            next_race *= 2
            active = still_in_race(active, tally.seen, tally.world_weights)  # the active moves were in every world
            if len(active) == 1:
                break
        if spent.past_deadline():
            break
    return tally.estimates(moves, config.lookahead_z)


class _Budget:
    """The simulated decisions a search has spent, those its budget buys, and its wall-clock deadline."""

    def __init__(self, seconds: float, deadline: float | None) -> None:
        self.steps = 0.0
        self.limit = seconds * STEPS_PER_SECOND
        self.deadline = deadline

    def spend(self, steps: float) -> None:
        self.steps += steps

    def past_deadline(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline


@dataclass(frozen=True)
class _Setting:
    """What stays the same in every world of one decision's search."""

    view: View
    config: SearchConfig
    #: What the earlier rounds say of the other seats: the same in every world, so read once.
    table: Table
    #: The style that plays the seat's own later moves.
    own: StyleFn
    #: What a simulated decision of a rollout is charged (``STEP_COST``).
    cost: float
    #: Few cards left: each world is solved exactly.
    exact: bool
    #: Each move looks ahead to the seat's next decision (:func:`to_next_decision`).
    grouped: bool

    @classmethod
    def of(cls, view: View, config: SearchConfig) -> "_Setting":
        """The setting of ``view``'s decision under ``config``."""
        exact = sum(view.cards_left) <= config.exact_cards
        own_name = config.own[view.variant.name]
        if own_name in COMPILED_ONLY and compiled() is None:
            own_name = "intermediate"  # in Python it would cost many times the compiled world
        cost = 1.0 if exact else STEP_COST.get(own_name, 1.0)  # the exact solver plays no style
        grouped = bool(config.lookahead) and view.variant.name in config.lookahead_in and not exact
        return cls(view, config, config.table_of(view), OWN_STYLES[own_name], cost, exact, grouped)


def _play_world(setting: _Setting, rng: random.Random, moves: list[Combo | None], active: list[int],
                spent: _Budget) -> tuple[list, float]:
    """Draws a world and plays each of the ``active`` moves out in it: (their values, the world's
    weight).  Fewer values than moves when the deadline fell inside the world."""
    view = setting.view
    hands, reading, weight, used = _draw_world(view, rng, setting.config, setting.table)
    spent.spend(used)
    root = Sim(view, hands)
    seats = [setting.own if s == view.seat else STYLES[reading.draw(s, rng)] for s in range(view.players)]
    luck = rng.getrandbits(32)  # the same for every move: equal luck for the normal style
    solver = Solver()  # one transposition table for the moves of this world
    values: list = []
    for i in active:
        if spent.past_deadline():
            break
        if setting.grouped:  # the move's worth comes with its group's, at the end
            observed, options, used = to_next_decision(view, root, moves[i], seats, luck, setting.config)
            values.append((observed, options))
        else:
            value, used = play_out(view, root, moves[i], setting.exact, solver, seats, luck)
            values.append(value)
        spent.spend(used * setting.cost)
    return values, weight


class _Tally:
    """Each move's weighted sums over the worlds searched so far, and what racing reads of them."""

    def __init__(self, moves: int, objective: Callable[[float], float], *, grouped: bool, raced: bool) -> None:
        self.objective = objective
        self.totals = [0.0] * moves  # points
        self.scores = [0.0] * moves  # the objective
        self.wins = [0.0] * moves
        self.weights = [0.0] * moves
        self.counts = [0] * moves
        self.worlds = 0
        self.world_weights: list[float] = []
        self.raced = raced
        self.seen: list[list[float]] = [[] for _ in range(moves)]  # each move's objective in each world
        # the look-ahead's groups of worlds, by move: what the bot saw by its next decision -> (the
        # world's weight, each next option's value) per world; their worth is known only at the end
        self.groups: list[dict[tuple, list]] | None = [{} for _ in range(moves)] if grouped else None

    def add(self, active: list[int], values: list, weight: float) -> None:
        """One world's values of the ``active`` moves, the world weighing ``weight``."""
        for i, value in zip(active, values):
            self.weights[i] += weight
            self.counts[i] += 1
            if self.groups is not None:
                observed, options = value
                self.groups[i].setdefault(observed, []).append((weight, options))
                continue
            score = self.objective(value)
            self.totals[i] += weight * value
            self.scores[i] += weight * score
            self.wins[i] += weight * (value > 0)
            if self.raced:
                self.seen[i].append(score)
        self.world_weights.append(weight)
        self.worlds += 1

    def estimates(self, moves: list[Combo | None], z: float) -> list[Estimate]:
        """Each move's estimate, the look-ahead's groups counted (``z``: :func:`.statistics.group_value`'s)."""
        if not self.worlds:
            return [Estimate(m, 0.0, 0.0, 0) for m in moves]
        if self.groups is not None:
            self._add_groups(z)
        return [Estimate(m, self.totals[i] / self.weights[i], self.wins[i] / self.weights[i], self.counts[i],
                         self.scores[i] / self.weights[i]) for i, m in enumerate(moves)]

    def _add_groups(self, z: float) -> None:
        """Each look-ahead group's worth, counted for all of its worlds' weight."""
        for i, groups in enumerate(self.groups or ()):
            for rows in groups.values():
                weight = sum(w for w, _ in rows)
                points, won, score = group_value(rows, self.objective, z)
                self.totals[i] += weight * points
                self.scores[i] += weight * score
                self.wins[i] += weight * won


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
