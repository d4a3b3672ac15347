"""The moves worth a closer look at a decision: what the search plays out, and what the
distilled policy scores (:mod:`.distilled`).

>>> from dizhu import Round
>>> from dizhu.bots.policy import Ctx
>>> from dizhu.bots.view import View
>>> r = Round.deal("duel", seed="shortlist")
>>> while r.phase == "bidding":
...     r.apply(r.to_act, "call" if "call" in r.legal_actions() else "pass")
>>> moves, choice = shortlist(Ctx.of(View.of(r.observation(r.to_act))))
>>> choice in moves, len({m.key for m in moves}) == len(moves)
(True, True)
"""

from __future__ import annotations

from typing import Callable

from ..combos import Combo
from .memo import replies
from .policy import Ctx, intermediate_move, leads_from_split

__all__ = ["shortlist", "ALL_LEADS", "SMALL_LEADS", "ALL_REPLIES"]

#: The sizes the search shortlists with by default (``SearchConfig``), and the distilled policy
#: always (its network was fitted on these shortlists; ``_rollout.c`` has the same numbers).
ALL_LEADS, SMALL_LEADS, ALL_REPLIES = 12, 4, 10


def _rule(ctx: Ctx) -> Combo | None:
    return intermediate_move(ctx)[0]


def shortlist(ctx: Ctx, all_leads: int = ALL_LEADS, small_leads: int = SMALL_LEADS, all_replies: int = ALL_REPLIES,
              rule: Callable[[Ctx], Combo | None] = _rule) -> tuple[list[Combo | None], Combo | None]:
    """The moves to weigh at ``ctx`` (None: pass), each once, and the intermediate policy's own
    choice, which is among them.  Leading: every lead when there are at most ``all_leads``, else
    the plays of the hand's split (and, for the duel farmer, of the cards above its line) and its
    ``small_leads`` lowest singles and pairs.  Answering: the pass and every reply when there are
    at most ``all_replies`` choices, else the pass and the lowest replies, bombs last.  ``rule``
    is the intermediate policy's choice at a ctx (the search passes its compiled twin's)."""
    choice = rule(ctx)
    hand = ctx.hand
    if ctx.last is None:
        moves = replies(hand)
        pool: list[Combo | None] = list(leads_from_split(hand))
        if len(moves) <= all_leads:
            pool = list(moves)
        else:
            if ctx.line():
                pool += leads_from_split(ctx.to_shed(hand))
            pool += sorted((m for m in moves if m.size <= 2), key=lambda m: m.main)[:small_leads]
    else:
        moves = replies(hand, ctx.last[1])
        pool = [None] + list(moves)
        if len(pool) > all_replies:
            pool = [None] + sorted(moves, key=lambda m: (m.is_bomb, m.main))[:all_replies - 1]
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
