"""The exact solver: every hand face up, every seat plays its best.

:func:`solve` finds the value of a :class:`Position` for the side to act —
the points it wins (positive) or loses (negative) at base 1, where each bomb
or rocket doubles and a spring or anti-spring doubles once more — with the
two farmers playing as one team.  It is a negamax alpha-beta search over
the engine's own moves (:func:`dizhu.moves.moves_from_counts`) and the
round's own rules (:mod:`dizhu.rules`: the trick's end, who has won with
the duel's handicap line, spring), with

* move ordering: a play that wins at once first, then the move that was
  best when this position was last searched, then longer plays before
  shorter ones, bombs last, and a pass first on the partner's play;
* a transposition table keyed by one integer per position (the hands' rank
  keys, the trick, and only as much of the play counts as spring needs);
* a bound on the value from the bombs still in hands, so a search stops as
  soon as a move reaches the most the position can give.

Values are relative to the doublings already made: the table's entries
hold for any number of earlier bombs, and :func:`solve` multiplies them in.

>>> p = Position.of("classic", ["33", "4", "5"], landlord=0, to_act=0)
>>> s = solve(p)
>>> s.value, [str(m) for m in s.best]
(1, ['33'])
>>> p = Position.of("classic", ["5 6", "3", "2"], landlord=0, to_act=0)
>>> s = solve(p)          # whatever the landlord leads, the second farmer's 2 beats it
>>> s.value, [(seat, str(m) if m else "pass") for seat, m in s.line]
(-1, [(0, '5'), (1, 'pass'), (2, '2')])
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from .cards import NUM_RANKS, parse_cards
from .combos import Combo, classify
from .game.play import PlayState
from .moves import hand_key, moves_from_counts
from .rules import has_won, next_seat, same_side, spring, trick_over, win_line
from .variants import Variant, get_variant

__all__ = ["Position", "Solution", "SolveTimeout", "Solver", "solve"]

_INF = float("inf")
#: How many nodes between two looks at the clock.
_CLOCK_EVERY = 2048


class SolveTimeout(Exception):
    """The search passed its deadline before it proved the value."""


@dataclass(frozen=True)
class Position:
    """A round in the play phase with every hand known.

    ``hands`` are rank-count vectors, one per seat; ``last`` the (seat, play)
    to beat, or None when ``to_act`` leads; ``passes`` the passes in a row
    since it; ``plays_made`` each seat's plays so far (spring reads them);
    ``doublings`` the bombs and rockets already played; ``handicap`` the
    cards at which a farmer wins (the duel's robs; 0 in classic).
    """

    variant: Variant
    hands: tuple[tuple[int, ...], ...]
    landlord: int
    to_act: int
    last: tuple[int, Combo] | None = None
    passes: int = 0
    plays_made: tuple[int, ...] = ()
    doublings: int = 0
    handicap: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", get_variant(self.variant))  # a name too, as everywhere else
        players = self.variant.players
        if len(self.hands) != players:
            raise ValueError(f"{players} hands expected, got {len(self.hands)}")
        for name in ("landlord", "to_act"):
            if not 0 <= getattr(self, name) < players:
                raise ValueError(f"{name} must be a seat from 0 to {players - 1}, not {getattr(self, name)}")
        if not self.plays_made:
            # no play count given: as if everyone had played twice (no spring to gain)
            object.__setattr__(self, "plays_made", (2,) * players)
        if self.last is None and self.passes:
            raise ValueError("passes without a play to beat")

    @classmethod
    def of(
        cls,
        variant: "str | Variant",
        hands: Sequence[str],
        landlord: int,
        to_act: int,
        last: "tuple[int, str] | None" = None,
        passes: int = 0,
        plays_made: Sequence[int] = (),
        doublings: int = 0,
        handicap: int = 0,
    ) -> "Position":
        """A position from hands in card notation (tests, tools, docs)."""
        v = get_variant(variant)
        counts = tuple(tuple(parse_cards(h, v.name).counts) if h else (0,) * NUM_RANKS for h in hands)
        trick = None if last is None else (last[0], classify(last[1], v))
        return cls(v, counts, landlord, to_act, trick, passes, tuple(plays_made), doublings, handicap)

    @classmethod
    def from_round(cls, round_: "object") -> "Position":
        """The position of a :class:`dizhu.Round` in its play phase (all hands read).

        Hidden information: for tools and tests, never for a player's seat.
        """
        obs = round_.observation(round_.to_act)  # type: ignore[attr-defined]
        if obs["phase"] != "playing":
            raise ValueError("the round is not in its play phase")
        trick = obs["trick"]["last"]
        mult = obs["multiplier"]
        return cls(
            round_.variant,  # type: ignore[attr-defined]
            tuple(tuple(h.counts) for h in round_.all_hands()),  # type: ignore[attr-defined]
            obs["landlord"],
            obs["to_act"],
            None if trick is None else (trick[0], classify(trick[1], obs["variant"])),
            obs["trick"]["passes"],
            tuple(obs["plays_made"]),
            mult["bombs"] + mult["rockets"],
            obs["handicap"] or 0,
        )

    def state(self) -> PlayState:
        """This position as the one play state (:class:`~dizhu.game.play.PlayState`)."""
        return PlayState(self.variant, [list(h) for h in self.hands], self.landlord, self.handicap, self.to_act,
                         self.last, self.passes, None, self.plays_made, self.doublings)

    def moves(self) -> list["Combo | None"]:
        """The legal moves of the seat to act, by the engine (None: pass)."""
        return self.state().legal_plays()

    def play(self, move: "Combo | None") -> "tuple[Position, int | None]":
        """The position after ``move`` and the winner's seat if it ends the round.

        The move must be legal (see :meth:`moves`); this does not check it.  After a win the
        turn has passed on, as after any play (nobody acts in a finished round).
        """
        state = self.state()
        winner = state.apply(move)
        to_act = state.to_act if winner is None else next_seat(winner, self.variant.players)
        return self._with(hands=tuple(map(tuple, state.hands)), to_act=to_act, last=state.last,
                          passes=state.passes, plays_made=tuple(state.plays_made),
                          doublings=state.doublings), winner

    def points(self, winner: int, seat: int) -> int:
        """Points for ``seat``'s side at base 1 once ``winner`` has won from here."""
        return int(self.state().value(winner, seat))

    def _with(self, **changes: object) -> "Position":
        fields = {f: getattr(self, f) for f in ("variant", "hands", "landlord", "to_act", "last", "passes",
                                                "plays_made", "doublings", "handicap")}
        fields.update(changes)
        return Position(**fields)  # type: ignore[arg-type]

    @property
    def cards(self) -> int:
        """Cards in all hands together."""
        return sum(map(sum, self.hands))


@dataclass(frozen=True)
class Solution:
    """What :func:`solve` found.

    ``value``: points for the side to act at base 1, the doublings so far
    included (the landlord's own points are this times the farmers' count).
    ``best``: the moves that reach it (all of them with ``all_moves``, else
    the first found).  ``line``: a principal line to the end of the round, as
    (seat, move).  ``moves``: with ``all_moves``, every legal move and its
    exact value for the side to act.  ``nodes``: positions searched.
    """

    value: int
    best: tuple["Combo | None", ...]
    line: tuple[tuple[int, "Combo | None"], ...]
    moves: tuple[tuple["Combo | None", int], ...] | None = None
    nodes: int = 0


@dataclass
class Solver:
    """A search with its transposition table, reusable across positions of one deal.

    ``max_entries`` bounds the table: past it the table starts afresh.
    """

    deadline: float | None = None
    max_entries: int = 2_000_000
    table: dict = field(default_factory=dict)
    nodes: int = 0
    _moves: dict = field(default_factory=dict)
    _bombs: dict = field(default_factory=dict)
    _counts: dict = field(default_factory=dict)

    # ---- public

    def value(self, position: Position) -> int:
        """The exact value of ``position`` for the side to act (see :class:`Solution`)."""
        self._begin(position)
        return self._search(*self._root(position), -_INF, _INF) << position.doublings

    def wins(self, position: Position) -> bool:
        """Whether the side to act wins: a null-window test, cheaper than :meth:`value`."""
        self._begin(position)
        return self._search(*self._root(position), 0, 0.5) > 0

    def move_values(self, position: Position) -> list[tuple["Combo | None", int]]:
        """Every legal move with its exact value for the side to act."""
        out = []
        for move in self._ordered(position):
            out.append((move, self._after(position, move)))
        return out

    def best_move(self, position: Position) -> "tuple[Combo | None, int]":
        """The first move (in search order) that reaches the value, and the value."""
        target = self.value(position)
        for move in self._ordered(position):
            if self._after(position, move) == target:
                return move, target
        raise AssertionError("no move reaches the position's value")  # pragma: no cover

    def line(self, position: Position) -> Iterator[tuple[int, "Combo | None"]]:
        """A principal line: best moves by every seat to the end of the round."""
        while True:
            move, _ = self.best_move(position)
            yield position.to_act, move
            position, winner = position.play(move)
            if winner is not None:
                return

    # ---- the search

    def _begin(self, position: Position) -> None:
        self._players = position.variant.players
        self._landlord = position.landlord
        self._handicap = position.handicap
        if len(self.table) > self.max_entries:
            self.table.clear()

    def _after(self, position: Position, move: "Combo | None") -> int:
        child, winner = position.play(move)
        if winner is not None:
            return child.points(winner, position.to_act)
        value = self.value(child)
        return value if same_side(child.to_act, position.to_act, position.landlord) else -value

    def _ordered(self, position: Position) -> list["Combo | None"]:
        """The root's legal moves in search order."""
        self._begin(position)
        hands, to_act, last_seat, last, _, _ = self._root(position)
        return self._moves_for(hands, to_act, last_seat, last, None)

    @staticmethod
    def _root(p: Position) -> tuple:
        hands = tuple(hand_key(h) for h in p.hands)
        last_seat, last = (p.last if p.last is not None else (0, None))
        made = tuple(min(n, 2) for n in p.plays_made)
        return hands, p.to_act, last_seat, last, p.passes, made

    def _hand_counts(self, key: int) -> tuple[int, ...]:
        counts = self._counts.get(key)
        if counts is None:
            counts = self._counts[key] = tuple((key >> (3 * r)) & 7 for r in range(NUM_RANKS))
        return counts

    def _bomb_count(self, key: int) -> int:
        n = self._bombs.get(key)
        if n is None:
            counts = self._hand_counts(key)
            n = sum(1 for c in counts if c == 4) + (counts[13] == 1 and counts[14] == 1)
            self._bombs[key] = n
        return n

    def _moves_for(self, hands: tuple, to_act: int, last_seat: int, last: "Combo | None",
                   first: "int | None") -> list["Combo | None"]:
        """The moves in search order; ``first``: a move key to try before the rest."""
        key = hands[to_act]
        cache_key = (key, -1 if last is None else last.key)
        moves = self._moves.get(cache_key)
        if moves is None:
            counts = self._hand_counts(key)
            plays = moves_from_counts(counts) if last is None else moves_from_counts(counts, last)
            left = sum(counts)
            need = left - win_line(to_act, self._landlord, self._handicap)
            # a play that wins at once, then longer plays first; bombs only after the rest
            plays.sort(key=lambda m: (m.size < need, m.is_bomb, -m.size, m.main))
            self._moves[cache_key] = moves = plays
        out: list[Combo | None] = list(moves)
        if last is not None:
            if same_side(last_seat, to_act, self._landlord):
                out.insert(0, None)  # the partner's play stands: passing is the natural try
            else:
                out.append(None)
        if first is not None:
            for i, m in enumerate(out):
                if (0 if m is None else m.key) == first:
                    if i:
                        out.insert(0, out.pop(i))
                    break
        return out

    def _search(self, hands: tuple, to_act: int, last_seat: int, last: "Combo | None", passes: int,
                made: tuple, alpha: float, beta: float) -> int:
        """Value for the side of ``to_act``, relative to the doublings made so far."""
        self.nodes += 1
        if self.deadline is not None and self.nodes % _CLOCK_EVERY == 0 and time.monotonic() > self.deadline:
            raise SolveTimeout
        landlord = self._landlord
        players = self._players
        # one integer per position: hands, trick, and the play counts as far as spring reads them
        tt_key = 0
        for h in hands:
            tt_key = (tt_key << 48) | h
        spring_bits = 0
        for n in made:
            spring_bits = spring_bits * 3 + n
        tt_key = ((((tt_key << 48 | (last.key if last is not None else 0)) << 2 | last_seat) << 2 | to_act)
                  << 1 | passes) << 8 | spring_bits
        # the deal's constants too, so one table may serve any position
        tt_key = (tt_key << 2 | landlord) << 3 | self._handicap
        entry = self.table.get(tt_key)
        first = None
        if entry is not None:
            lo, hi, first = entry
            if lo >= beta:
                return lo
            if hi <= alpha or lo == hi:
                return hi
        # the most any side can still get: every bomb in hands played, and a spring
        bound = 1 << sum(self._bomb_count(h) for h in hands)
        if made[landlord] <= 1 or all(n == 0 for s, n in enumerate(made) if s != landlord):
            bound <<= 1
        alpha0, beta0 = alpha, beta
        if beta > bound:
            beta = bound
        best = -_INF
        best_key = None
        for move in self._moves_for(hands, to_act, last_seat, last, first):
            if move is None:
                n = passes + 1
                if trick_over(n, players):
                    child = (hands, last_seat, 0, None, 0, made)
                else:
                    child = (hands, next_seat(to_act, players), last_seat, last, n, made)
                factor = 1
                winner = False
            else:
                key = hands[to_act] - move.key
                new_hands = hands[:to_act] + (key,) + hands[to_act + 1:]
                new_made = made if made[to_act] == 2 else made[:to_act] + (made[to_act] + 1,) + made[to_act + 1:]
                factor = 2 if move.is_bomb else 1
                left = sum(self._hand_counts(key))
                winner = has_won(left, to_act, landlord, self._handicap)
                if winner:
                    sprung = spring(to_act == landlord, new_made, landlord) is not None
                    value = factor << sprung
                else:
                    child = (new_hands, next_seat(to_act, players), to_act, move, 0, new_made)
            if not winner:
                nxt = child[1]
                if same_side(nxt, to_act, landlord):
                    value = factor * self._search(*child, alpha / factor, beta / factor)
                else:
                    value = -factor * self._search(*child, -beta / factor, -alpha / factor)
            if value > best:
                best = value
                best_key = 0 if move is None else move.key
                if best > alpha:
                    alpha = best
                if alpha >= beta:
                    break
        if best <= alpha0:
            lo, hi = (entry[0] if entry is not None else -_INF), best
        elif best >= beta0 or best >= bound:
            lo, hi = best, (entry[1] if entry is not None else _INF)
            if best >= bound:
                hi = best
        else:
            lo = hi = best
        self.table[tt_key] = (lo, hi, best_key)
        return int(best)


def solve(position: Position, *, all_moves: bool = False, deadline: float | None = None,
          solver: Solver | None = None) -> Solution:
    """Solve ``position`` exactly: its value, best move(s) and a principal line.

    ``deadline`` (a ``time.monotonic()`` value) raises :class:`SolveTimeout`
    when passed; ``solver`` reuses a transposition table (positions of one deal).

    >>> p = Position.of("duel", ["5555 6", "77 8"], landlord=0, to_act=1, handicap=1)
    >>> s = solve(p, all_moves=True)   # the duel farmer at 3 cards wins at 1: the pair 77 does it
    >>> s.value, [str(m) for m in s.best], [(str(m), v) for m, v in s.moves]
    (1, ['77'], [('77', 1), ('7', -2), ('8', -2)])
    """
    solver = solver or Solver()
    solver.deadline = deadline
    if all_moves:
        moves = solver.move_values(position)
        value = max(v for _, v in moves)
        best = tuple(m for m, v in moves if v == value)
    else:
        move, value = solver.best_move(position)
        moves, best = None, (move,)
    line = tuple(solver.line(position))
    return Solution(value, best, line, None if moves is None else tuple(moves), solver.nodes)
