"""The engine's legal moves, remembered for the simulations.

A super-hard decision plays thousands of simulated moves, and the same
(hand, play to beat) comes up again and again: every candidate move is
played out in the same world, the reading replays the same round for each
style, and ``is_control`` asks about the same unseen cards at every step of a
trick.  :func:`replies` asks the engine (:func:`dizhu.moves.moves_from_counts`)
once per key and keeps the answer; the rules stay in the engine.

The answer is a tuple shared by every caller: read it, never change it.

>>> from dizhu.combos import classify
>>> [m.text for m in replies((0, 2) + (0,) * 13, classify("3"))]
['4']
>>> replies((0, 2) + (0,) * 13) is replies((0, 2) + (0,) * 13)
True
"""

from __future__ import annotations

from ..combos import Combo
from ..moves import moves_from_counts

__all__ = ["replies", "MAX_ENTRIES"]

#: Entries kept at most; when full the memo starts again (cheaper than tracking
#: use, and a decision's own positions come back quickly).  About 40 MB at most.
MAX_ENTRIES = 120_000

_MEMO: dict[tuple, tuple[Combo, ...]] = {}


def replies(hand: tuple[int, ...], previous: Combo | None = None) -> tuple[Combo, ...]:
    """Every play from the rank counts ``hand`` that leads (``previous`` None) or beats ``previous``.

    The engine's answer, as a shared tuple.  A play is keyed by its ranks
    (``Combo.key``): a set of cards reads as at most one play (RULES.md §2).
    """
    key = (hand, -1 if previous is None else previous.key)
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) >= MAX_ENTRIES:
            _MEMO.clear()
        found = _MEMO[key] = tuple(moves_from_counts(hand, previous))
    return found
