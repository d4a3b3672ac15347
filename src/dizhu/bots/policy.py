"""Rule policies for play: ``normal`` and ``intermediate``.

Both read a :class:`Ctx` — one seat's knowledge in rank counts — so the
same code runs for a real decision and inside the super-hard bot's
simulations.  A policy returns a :class:`Decision`: the action's text, and
the reason as a message key with parameters (see ``reasons.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from operator import sub as _minus
from typing import Any

from ..cards import RANK_SYMBOLS, format_counts
from ..combos import Combo, Kind
from ..moves import play_table
from ..ranks import RANK_UNITS as _U
from ..ranks import Rank
from ..rules import cards_to_win, next_seat, same_side, trick_over, win_line
from .hands import Group, plays_of, split_counts, to_shed
from .memo import replies
from .view import View

__all__ = ["Decision", "Ctx", "intermediate_move", "normal_move", "leads_from_split", "can_run_out", "is_control",
           "answerable", "rank_name", "sub"]

# plain ints: they index count tuples in the simulations' hot loop
TWO, BLACK, RED = int(Rank.TWO), int(Rank.BLACK_JOKER), int(Rank.RED_JOKER)
_SIZE = attrgetter("size")


@dataclass
class Decision:
    """An action with why: ``reason`` is a message key, ``params`` fill it."""

    action: str
    reason: str
    params: dict[str, Any] = field(default_factory=dict)
    #: The hint's search's own figures for a play or a pass it weighed: {"rate": percent of the
    #: simulated games won, "games": how many} (None for a bid, or with no world searched).
    figures: dict[str, int] | None = None


@dataclass(slots=True)
class Ctx:
    """One seat's knowledge in counts (used for real decisions and in simulations)."""

    hand: tuple[int, ...]
    seat: int
    players: int
    landlord: int
    cards_left: list[int]
    last: tuple[int, Combo] | None
    unseen: tuple[int, ...]
    #: Cards at which a farmer wins (the duel's robs; 0 in classic: farmers play out).
    handicap: int = 0

    @classmethod
    def of(cls, view: View) -> "Ctx":
        return cls(
            hand=tuple(view.hand),
            seat=view.seat,
            players=view.players,
            landlord=view.landlord,
            cards_left=view.cards_left,
            last=view.last,
            unseen=tuple(view.unseen),
            handicap=view.handicap,
        )

    def partner(self, seat: int) -> bool:
        """Whether ``seat`` is on this seat's side (itself included)."""
        return same_side(seat, self.seat, self.landlord)

    @property
    def partnered(self) -> bool:
        """Whether the farmers are a team (more than one farmer)."""
        return self.players > 2

    def need(self, seat: int) -> int:
        """Cards ``seat`` must still shed to win (the duel farmer stops at the handicap)."""
        return cards_to_win(self.cards_left[seat], seat, self.landlord, self.handicap)

    def my_need(self) -> int:
        return self.need(self.seat)

    def line(self) -> int:
        """Cards this seat may still hold when it wins (the duel farmer's handicap; else 0)."""
        return win_line(self.seat, self.landlord, self.handicap)

    def to_shed(self, hand: tuple[int, ...]) -> tuple[int, ...]:
        """The part of ``hand`` this seat must play out: the duel farmer keeps its worst
        ``line()`` cards for the end and plans the rest (:func:`~dizhu.bots.hands.to_shed`)."""
        line = self.line()
        return to_shed(hand, line) if line else hand  # classic rollouts skip the memo's hashing


def _combo(key: int) -> Combo:
    return play_table()[key]


def _group_key(g: Group) -> int:
    if g.width == 0:
        return _U[BLACK] + _U[RED]
    return g.width * sum(_U[g.low : g.high + 1])


def sub(hand: tuple[int, ...], combo: Combo) -> tuple[int, ...]:
    """The hand left after playing ``combo``."""
    return tuple(map(_minus, hand, combo.counts))


def answerable(combo: Combo, unseen: tuple[int, ...], most: int) -> bool:
    """Whether a seat holding ``most`` cards at most could beat ``combo`` with cards ``unseen``
    (one card answers a single only: a pair led to it wins, which counting the unseen cards
    alone missed; two or three cards hold no bomb).

    >>> from dizhu.combos import classify
    >>> unseen = (0,) * 9 + (2, 2) + (0,) * 4   # two queens and two kings out
    >>> answerable(classify("JJ"), unseen, 1), answerable(classify("J"), unseen, 1), answerable(classify("JJ"), unseen, 2)
    (False, True, True)
    """
    answers = replies(unseen, combo)
    if most >= 4 and most >= combo.size:  # (every answer fits: a bomb takes 4 cards, the rocket 2)
        return bool(answers)
    return any(m.size <= most for m in answers)


def _opponents_most(ctx: Ctx) -> int:
    """The most cards one opponent of this seat holds."""
    return max(n for s, n in enumerate(ctx.cards_left) if not ctx.partner(s))


def is_control(combo: Combo, ctx: Ctx) -> bool:
    """Whether no opponent could beat ``combo`` with cards this seat cannot see (it wins its trick)."""
    return not answerable(combo, ctx.unseen, _opponents_most(ctx))


@lru_cache(maxsize=100_000)
def leads_from_split(hand: tuple[int, ...]) -> tuple[Combo, ...]:
    """The split's groups as plays, trios and planes carrying the weakest kickers
    (memoised: the simulations meet the same hands again; the tuple is shared)."""
    groups = list(split_counts(hand).groups)
    # kicker units: singles and pairs that are not chains, weakest first (by index:
    # a split may hold two equal groups, such as two pair chains from four-of-a-kinds)
    spare = sorted((i for i, g in enumerate(groups) if g.width in (1, 2) and not g.is_chain and g.low < TWO),
                   key=lambda i: groups[i].low)
    used: set[int] = set()
    plays: list[Combo] = []
    for i in sorted(range(len(groups)), key=lambda i: (-groups[i].trios, groups[i].low)):
        if i in used:
            continue
        g = groups[i]
        key = _group_key(g)
        if g.width == 3:
            need = g.length
            for width in (1, 2):
                pick = [k for k in spare if groups[k].width == width and k not in used
                        and not g.low <= groups[k].low <= g.high][:need]
                if len(pick) == need:
                    for k in pick:
                        used.add(k)
                        key += _group_key(groups[k])
                    break
        used.add(i)
        plays.append(_combo(key))
    return tuple(plays)


def _finishing(ctx: Ctx, moves: tuple[Combo, ...]) -> Combo | None:
    """A move after which this seat has won, if any (largest first)."""
    if not moves:
        return None
    best = max(moves, key=_SIZE)  # the first of the largest (a C loop)
    return best if best.size >= ctx.my_need() else None


def can_run_out(ctx: Ctx, after: tuple[int, ...]) -> bool:
    """Whether, holding ``after`` with the lead, every play but the last is unbeatable
    (the cards the duel farmer keeps at its line are never played)."""
    plays = leads_from_split(ctx.to_shed(after))
    if len(plays) <= 1:
        return True
    most = _opponents_most(ctx)
    controls = sum(1 for p in plays if not answerable(p, ctx.unseen, most))
    return len(plays) - controls <= 1


def _plays_after(hand: tuple[int, ...], combo: Combo) -> int:
    return plays_of(sub(hand, combo))


def bomb_key(move: Combo, point: str) -> str:
    """The reason's key for a bomb's ``point``: the rocket's own when it is the rocket (players
    call it so, never "the bomb")."""
    return f"rocket_{point}" if move.kind is Kind.ROCKET else f"bomb_{point}"


def core_text(combo: Combo) -> str:
    """The notation of ``combo`` without its kickers: what makes it the control it is.

    >>> from dizhu.combos import classify
    >>> core_text(classify("5557")), core_text(classify("2")), core_text(classify("33344479")), core_text(classify("BR"))
    ('555', '2', '333444', 'BR')
    """
    most = max(combo.counts)
    return format_counts([c if c == most else 0 for c in combo.counts])


def rank_name(rank: int) -> str:
    """The rank's notation symbol, as reasons' ``card`` parameters hold it."""
    return RANK_SYMBOLS[rank]


# ---- intermediate


@dataclass(frozen=True)
class Style:
    """The intermediate policy's thresholds (tuned in the arena)."""

    #: answer with a reply that costs one extra play when the closest opponent needs at most this
    delta1_danger: int = 20
    #: ... always as the landlord, and always in duel (a pass hands the lead straight back)
    delta1_landlord: bool = True
    delta1_duel: bool = True
    #: answer even at two extra plays when the closest opponent needs at most this
    delta2_danger: int = 0
    #: an opponent needing this few cards makes every reply urgent
    urgent_need: int = 2
    #: do not spend a 2 or joker on a low single or pair early
    keep_control: bool = False
    #: a farmer tops a partner's beatable play when the landlord, next, is about to go out
    partner_top: bool = True
    #: when leading, shed plays of 5+ cards and trios before singles and pairs
    lead_many_first: bool = True
    #: when leading, a low single or pair counts this many ranks lower than it is
    lead_small_bonus: int = -4
    #: the duel farmer plans only the cards above its handicap line, keeping the worst for the end
    to_the_line: bool = True


DEFAULT_STYLE = Style()


def intermediate_move(ctx: Ctx, style: Style = DEFAULT_STYLE) -> tuple[Combo | None, str, dict[str, Any]]:
    """The intermediate policy: (combo or None for pass, reason key, params)."""
    if ctx.last is None:
        return _lead(ctx, style)
    return _respond(ctx, style)


def _danger(ctx: Ctx) -> tuple[int, int]:
    """(seat, cards it still needs) of the opponent closest to winning."""
    best = (-1, 99)
    for s in range(ctx.players):
        if not ctx.partner(s):
            n = ctx.need(s)
            if n < best[1]:
                best = (s, n)
    return best


def _lead(ctx: Ctx, style: Style = DEFAULT_STYLE) -> tuple[Combo | None, str, dict[str, Any]]:
    hand = ctx.hand
    moves = replies(hand)
    done = _finishing(ctx, moves)
    if done is not None:
        return done, "finish", {}
    plays = leads_from_split(ctx.to_shed(hand) if style.to_the_line else hand)
    controls = [p for p in plays if is_control(p, ctx)]
    others = [p for p in plays if p not in controls]
    # two plays left and one of them cannot be beaten: play it, then the other
    if len(plays) == 2 and controls:
        return controls[0], "fewest_plays", {"n": 1}
    danger_seat, danger = _danger(ctx)
    nxt = next_seat(ctx.seat, ctx.players)
    # feed a partner who is about to go out
    if ctx.partnered and ctx.seat != ctx.landlord:
        partner = next(s for s in range(ctx.players) if s != ctx.seat and s != ctx.landlord)
        left = ctx.cards_left[partner]
        if left <= 2 and (partner == nxt or danger > 2):
            width = 1 if left == 1 else 2
            low = [m for m in moves if m.kind is (Kind.SINGLE if width == 1 else Kind.PAIR)]
            if low:
                return min(low, key=lambda m: m.main), "feed_partner", {"n": left}
    pool = others or plays
    if danger <= 2:
        safe = _safe_leads(pool, plays, danger)
        if safe:
            pool = safe
        else:
            pick = max(pool, key=lambda p: (p.main, p.size))
            return pick, "stop_opponent", {"n": danger}

    def lead_order(p: Combo) -> tuple:
        # shed chains and trios with kickers early; low cards before high ones
        many = 0 if p.size >= 5 or p.kind in (Kind.TRIO_SINGLE, Kind.TRIO_PAIR, Kind.TRIO) else 1
        if not style.lead_many_first:
            return (p.main, many)
        return (p.main + (0 if many == 0 else 1) - (style.lead_small_bonus if many else 0), many)

    pick = min(pool, key=lead_order)
    if controls and pick not in controls:
        card = max(controls, key=lambda p: p.main)
        return pick, "keep_control", {"card": core_text(card)}
    return pick, "fewest_plays", {"n": len(plays)}


def _safe_leads(pool: list[Combo], plays: tuple[Combo, ...], danger: int) -> list[Combo]:
    """The leads of ``pool`` that do not hand an opponent needing ``danger`` cards a small single
    or pair; when there are none, the safe ones among all the ``plays``, the controls included
    (one keeps the lead: with the opponent on one card, 556677, TJQKA, 2 and then 8 win where
    leading the 8 lost).

    >>> from dizhu.combos import classify
    >>> plays = tuple(classify(t) for t in ("8", "TJQKA", "2"))
    >>> [p.text for p in _safe_leads([plays[0]], plays, 1)]
    ['TJQKA']
    """
    def safe(p: Combo) -> bool:
        return not (p.size == danger and p.kind in (Kind.SINGLE, Kind.PAIR))
    return [p for p in pool if safe(p)] or [p for p in plays if safe(p)]


def _replies(ctx: Ctx) -> tuple[tuple[Combo, ...], tuple | None]:
    """The replies to the play to beat, and the decision when there is no choice to weigh:
    nothing beats it (pass), or a reply wins the round at once."""
    prev = ctx.last[1]
    moves = replies(ctx.hand, prev)
    if not moves:
        return moves, (None, "no_beat", {"play": prev.text})
    done = _finishing(ctx, moves)
    if done is not None:
        return moves, (done, "finish", {})
    return moves, None


@lru_cache(maxsize=100_000)
def _reply_costs(hand: tuple[int, ...], prev: Combo, keep: int) -> tuple[int, tuple, tuple[Combo, ...]]:
    """(plays the hand needs, its ordinary replies to ``prev`` as (extra plays, main rank,
    reply) cheapest first, its bombs), when ``keep`` cards may stay in hand at the end (the duel
    farmer's line): the same for every style and seat, so memoised."""
    base = plays_of(to_shed(hand, keep))
    moves = replies(hand, prev)
    scored = sorted(((plays_of(to_shed(sub(hand, m), keep)) - (base - 1), m.main, m)
                     for m in moves if not m.is_bomb),
                    key=lambda t: (t[0], t[1]))
    return base, tuple(scored), tuple(m for m in moves if m.is_bomb)


def _respond(ctx: Ctx, style: Style = DEFAULT_STYLE) -> tuple[Combo | None, str, dict[str, Any]]:
    hand = ctx.hand
    last_seat, prev = ctx.last
    moves, forced = _replies(ctx)
    if forced is not None:
        return forced
    if ctx.partner(last_seat):
        nxt = next_seat(ctx.seat, ctx.players)
        lord_need = ctx.need(ctx.landlord)
        if (style.partner_top and nxt == ctx.landlord and lord_need <= 2
                and lord_need >= prev.size and answerable(prev, ctx.unseen, ctx.cards_left[ctx.landlord])):
            ordinary = [m for m in moves if not m.is_bomb]
            if ordinary:
                top = max(ordinary, key=lambda m: m.main)
                if is_control(top, ctx) or top.main >= TWO:
                    return top, "stop_landlord", {"n": lord_need}
        return None, "partner_stand", {}
    base, scored, bombs = _reply_costs(hand, prev, ctx.line() if style.to_the_line else 0)
    danger_seat, danger = _danger(ctx)
    owner_need = ctx.need(last_seat)
    urgent = (owner_need <= style.urgent_need or danger <= style.urgent_need
              or (owner_need <= 4 and prev.size >= 4))
    who = "stop_landlord" if (ctx.partnered and last_seat == ctx.landlord) else "stop_opponent"
    if urgent:
        if scored:
            # stop them with the strongest ordinary reply that does not cost too much
            delta, _, m = max(scored, key=lambda t: (t[2].main if t[0] <= 2 else -1, -t[0]))
            return m, who, {"n": owner_need}
        for b in sorted(bombs, key=lambda m: (m.kind is Kind.ROCKET, m.main)):
            # a bomb doubles the stake for both sides: only worth it if the lead it
            # wins can be kept to the end (otherwise it doubles what we pay)
            if can_run_out(ctx, sub(hand, b)):
                return b, who, {"n": owner_need}
        return None, "no_beat", {"play": prev.text}
    for b in sorted(bombs, key=lambda m: (m.kind is Kind.ROCKET, m.main)):
        after = sub(hand, b)
        if can_run_out(ctx, after):
            return b, bomb_key(b, "to_win"), {}
    if scored:
        delta, _, m = scored[0]
        high = m.main >= TWO and m.kind in (Kind.SINGLE, Kind.PAIR)
        if style.keep_control and high and base > 3 and danger > 5 and prev.main < Rank.KING:
            return None, "keep_control", {"card": rank_name(m.main)}
        if delta <= 0:
            return m, "fewest_plays", {"n": base - 1}
        eager = (danger <= style.delta1_danger or (style.delta1_landlord and ctx.seat == ctx.landlord)
                 or (style.delta1_duel and trick_over(1, ctx.players)))
        if delta == 1 and eager:
            return m, "fewest_plays", {"n": base}
        if delta == 2 and danger <= style.delta2_danger:
            return m, "fewest_plays", {"n": base + 1}
    return None, "save_cards", {}


# ---- normal


def normal_move(ctx: Ctx, rng: random.Random) -> tuple[Combo | None, str, dict[str, Any]]:
    """The normal policy: sensible, beatable, no card counting or teamwork."""
    hand = ctx.hand
    if ctx.last is None:
        moves = replies(hand)
        done = _finishing(ctx, moves)
        if done is not None:
            return done, "finish", {}
        plays = leads_from_split(hand)
        ordinary = [p for p in plays if not p.is_bomb] or plays
        if rng.random() < 0.15:
            return rng.choice(ordinary), "fewest_plays", {"n": len(plays)}
        return min(ordinary, key=lambda p: (p.main, -p.size)), "fewest_plays", {"n": len(plays)}
    last_seat, prev = ctx.last
    moves, forced = _replies(ctx)
    if forced is not None:
        return forced
    ordinary = [m for m in moves if not m.is_bomb]
    base = plays_of(hand)
    fitting = [m for m in ordinary if _plays_after(hand, m) <= base]
    if fitting:
        return min(fitting, key=lambda m: m.main), "fewest_plays", {"n": base - 1}
    if ctx.cards_left[last_seat] <= 2 and not ctx.partner(last_seat):
        if ordinary:
            return min(ordinary, key=lambda m: m.main), "stop_opponent", {"n": ctx.cards_left[last_seat]}
        return min(moves, key=lambda m: m.main), "stop_opponent", {"n": ctx.cards_left[last_seat]}
    if ordinary and rng.random() < 0.3:
        return min(ordinary, key=lambda m: m.main), "fewest_plays", {"n": base}
    return None, "save_cards", {}
