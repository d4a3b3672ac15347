"""The hint: the strongest move that fits in a server's answer, ranked alternatives, and why.

The hint searches like super-hard (:func:`dizhu.bots.search.ranked`) with a
budget that fits a server's answer (``HINT_BUDGET``), so it never repeats the intermediate
policy's blunders (that policy only proposes candidates).  Each suggestion's
reason names the point of the move — it plays out the hand, stops the last
card, keeps control to the end, lets the partner's play stand — as a message
key with parameters (``reasons.HINT_REASONS``), never a finished sentence.
"""

from __future__ import annotations

import random
import time
from itertools import combinations
from typing import Any

from ..cards import Card, format_counts, parse_cards
from ..combos import Combo, Kind
from ..moves import moves_from_counts
from ..ranks import Rank
from ..rules import cards_to_win
from .hands import Group, plays_of, split_counts
from .policy import Ctx, Decision, answerable, bomb_key, can_run_out, is_control, rank_name, sub
from .search import ADVICE, Estimate, ranked
from .view import View

__all__ = ["HINT_BUDGET", "suggestions", "point_of", "cards_for"]

#: The hint's thinking budget, in seconds of one core, counted in simulated decisions
#: so that the same position always gets the same hint (whatever the machine's load:
#: the answer must not vary with anything but what the player may know).  It fits the
#: 0.3 s a server must answer in (``benchmarks/bots.py --levels hint`` measures it).
HINT_BUDGET = 0.06
#: An alternative is offered only if its share of simulated games won is at least this share of
#: the first suggestion's (a 7 that won none of its games, beside 77 that plays out the hand, is
#: no advice).
WORST_SHARE = 0.5


def suggestions(view: View, rng: random.Random, n: int, budget: float | None = None,
                time_limit: float | None = None) -> list[Decision]:
    """Up to ``n`` play-phase suggestions, best first, each with the reason it is played.

    ``time_limit`` (wall-clock seconds) may cut the search short; then the
    suggestions depend on the machine's load."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    estimates, _ = ranked(view, rng, HINT_BUDGET if budget is None else budget, deadline, config=ADVICE)
    ctx = Ctx.of(view)
    out: list[Decision] = []
    best = estimates[0]
    for est in estimates:
        if len(out) == max(1, n):
            break
        if out and est.worlds and est.win_chance < best.win_chance * WORST_SHARE:
            continue  # a move that wins far less often than the first is no advice worth cycling to
        key, params = point_of(ctx, est)
        figures = _figures(est)
        if figures and any(d.reason == key and d.params == params for d in out):
            # the same point as a better suggestion says nothing of this one: its own figures do
            key, params = "search", dict(figures)
        out.append(Decision("pass" if est.move is None else f"play {est.move.text}", key, params, figures))
    return out


def _figures(est: Estimate) -> dict[str, int] | None:
    """The search's figures for a move (percent of its simulated games won, how many); None
    when no world was searched."""
    return {"rate": round(100 * est.win_chance), "games": est.worlds} if est.worlds else None


def point_of(ctx: Ctx, est: Estimate) -> tuple[str, dict[str, Any]]:
    """Why ``est.move`` is worth playing for the seat of ``ctx``: (reason key, params).

    The first point that holds, most decisive first: the round ends, a last card
    is stopped, the lead is kept to the end, a threat is answered, control is kept
    for later; then what the play does: a bomb takes the trick, no opponent
    beats it, it is a part of the hand's plan, it raises a partner's play the
    landlord must answer next; else it breaks the plan up to beat a play, or
    leads against it, which the search's own figures justify.
    """
    move = est.move
    if move is None:
        return _why_pass(ctx)
    after = sub(ctx.hand, move)
    left = ctx.cards_left[ctx.seat] - move.size
    if cards_to_win(left, ctx.seat, ctx.landlord, ctx.handicap) == 0:
        return ("reach_line", {"n": left}) if left else ("finish", {})
    closest = min((s for s in range(ctx.players) if not ctx.partner(s)), key=ctx.need)
    # (one card held, not one more to shed: a duel farmer a card above its line can answer a pair)
    if ctx.cards_left[closest] == 1 and not answerable(move, ctx.unseen, 1):
        return ("stop_last_landlord" if ctx.partnered and closest == ctx.landlord else "stop_last_card"), {}
    if is_control(move, ctx) and can_run_out(ctx, after):
        # this play wins the trick, and every later one but the last does too
        return (bomb_key(move, "to_win") if move.is_bomb else "control_to_end"), {}
    if ctx.last is not None and not ctx.partner(ctx.last[0]) and ctx.need(ctx.last[0]) <= 2:
        owner = ctx.last[0]
        key = "stop_landlord" if ctx.partnered and owner == ctx.landlord else "stop_opponent"
        return key, {"n": ctx.need(owner)}
    saved = _saved_for_line(ctx, move, after)
    if saved:
        return "play_to_line", {"cards": saved}
    kept = [r for r in range(len(after)) if after[r] and not _beaten_single(ctx, r)]
    plays_left = plays_of(ctx.to_shed(after))
    # Kept control is the point once the cards that win the lead back can see the hand out: one
    # for this lead, if it is beaten, and one for each later lead but the last; with more plays to
    # go, what the lead does to the plan says more (and holding a joker would otherwise name every
    # lead).  Both jokers win the lead back once, as the rocket.
    controls = sum(after[r] for r in kept) - (after[Rank.RED_JOKER] and after[Rank.BLACK_JOKER])
    if ctx.last is None and kept and not is_control(move, ctx) and plays_left <= 2 * controls:
        return "keep_control", {"card": rank_name(max(kept))}
    return _plan_point(ctx, est, plays_left)


def _plan_point(ctx: Ctx, est: Estimate, plays_left: int) -> tuple[str, dict[str, Any]]:
    """The point of a play with nothing decisive about it: what it does to the trick and to the
    hand's plan; the search's own figures only when it breaks the plan up to beat a play."""
    move = est.move
    assert move is not None
    beaten = ctx.last[1].text if ctx.last is not None else None
    if is_control(move, ctx):
        return (bomb_key(move, "take"), {"play": beaten}) if move.is_bomb and beaten else ("take_lead", {"n": plays_left})
    if move.is_bomb and beaten:
        return "bomb_beat", {"play": beaten}
    if _in_plan(ctx, move):
        return ("beat_in_plan", {"play": beaten, "n": plays_left}) if beaten else ("shed_plan", {"n": plays_left})
    against = ctx.last is not None and not ctx.partner(ctx.last[0])
    if beaten and not against and (ctx.seat + 1) % ctx.players == ctx.landlord:
        return "raise_partner", {"play": beaten}
    figures = _figures(est)
    if figures:
        return ("contest", {"play": beaten, **figures}) if against else ("search", figures)
    # no world searched (a wall-clock limit came first): what the move does, without figures
    return ("break_to_beat", {"play": beaten}) if against else ("fewest_plays", {"n": plays_left})


def _in_plan(ctx: Ctx, move: Combo) -> bool:
    """Whether ``move`` is made of whole combinations of the hand's plan (the best split of the
    cards it must still play), kickers included, and breaks no bomb or rocket of the hand.

    Cards the duel farmer keeps for its line are not in the plan; a single from a bomb, or a
    bomb played with two kickers, breaks it up though the count of plays may not grow."""
    touched = _touched(ctx, move)
    if not move.is_bomb and (any(h == 4 and m for h, m in zip(ctx.hand, move.counts))  # (however the plan splits it)
                             or any(sum(g) == 2 and g[-1] and g[-2] for g in touched)):  # the plan's rocket
        return False
    # some of the groups it touches add up to the move exactly (a hand may hold two groups of one rank)
    return any(tuple(map(sum, zip(*chosen))) == move.counts
               for k in range(1, len(touched) + 1) for chosen in combinations(touched, k))


def _saved_for_line(ctx: Ctx, move: Combo, after: tuple[int, ...]) -> str:
    """The cards a duel farmer's lead leaves for its handicap line, when that is its point:
    the lead comes from the cards it must still play, and the plan after it needs fewer plays
    than playing out the whole hand would ("" otherwise)."""
    if ctx.last is not None or not ctx.line():
        return ""
    shed = ctx.to_shed(ctx.hand)
    if any(m > s for m, s in zip(move.counts, shed)):
        return ""
    if plays_of(ctx.to_shed(after)) >= plays_of(after):
        return ""
    return format_counts([h - s for h, s in zip(ctx.hand, shed)])


def _why_pass(ctx: Ctx) -> tuple[str, dict[str, Any]]:
    if ctx.last is None:
        raise ValueError("the lead cannot pass")
    seat, prev = ctx.last
    if ctx.partner(seat):
        return "partner_stand", {}
    replies = moves_from_counts(ctx.hand, prev)
    if not replies:
        return "no_beat", {"play": prev.text}
    ordinary = [m for m in replies if not m.is_bomb]
    if not ordinary:
        lowest = min(replies, key=lambda m: (m.size == 2, m.main))
        return ("keep_rocket", {}) if lowest.kind is Kind.ROCKET else ("keep_bomb", {"play": lowest.text})
    return _what_passing_keeps(ctx, ordinary)


def _what_passing_keeps(ctx: Ctx, replies: list[Combo]) -> tuple[str, dict[str, Any]]:
    """The point of passing when a reply without a bomb exists: the cheapest reply (the fewest
    plays left after it) would break up a combination of the hand's plan — the biggest it
    breaks is kept together — or it plays a whole one, which passing holds back."""
    cheapest = min(replies, key=lambda m: (plays_of(ctx.to_shed(sub(ctx.hand, m))), m.main))
    if _in_plan(ctx, cheapest):
        return "hold_back", {"play": cheapest.text}
    touched = _touched(ctx, cheapest)
    broken = [g for g in touched if any(c > m for m, c in zip(cheapest.counts, g))] or touched
    if broken:
        return "keep_together", {"play": format_counts(max(broken, key=sum))}
    return "save_cards", {}  # (only cards kept for the duel's line: nothing of the plan to name)


def _touched(ctx: Ctx, move: Combo) -> list[tuple[int, ...]]:
    """The rank counts of each group of the hand's plan (the best split of what it must play)
    that ``move`` takes cards from."""
    groups = (_group_counts(g, len(ctx.hand)) for g in split_counts(ctx.to_shed(ctx.hand)).groups)
    return [g for g in groups if any(m and c for m, c in zip(move.counts, g))]


def _group_counts(group: Group, ranks: int) -> tuple[int, ...]:
    """The rank counts of one group of a split (width 0 is the rocket: one of each joker)."""
    if group.width == 0:
        return tuple(1 if r >= ranks - 2 else 0 for r in range(ranks))
    return tuple(group.width if group.low <= r <= group.high else 0 for r in range(ranks))


def _beaten_single(ctx: Ctx, rank: int) -> bool:
    """Whether a single of ``rank`` could be beaten by cards this seat cannot see."""
    return any(ctx.unseen[r] for r in range(rank + 1, len(ctx.unseen)))


def cards_for(action: str, hand_ids: list[int]) -> list[int]:
    """The card ids a player would select from its hand for ``action`` (none for a pass or bid)."""
    cards: list[int] = []
    if action.startswith("play "):
        wanted = list(parse_cards(action[5:]).counts)
        for card_id in hand_ids:
            rank = Card.from_id(card_id).rank
            if wanted[rank]:
                wanted[rank] -= 1
                cards.append(card_id)
    return cards
