"""Turn flow and settlement of a round, as pure functions over counts.

These are the rules of RULES.md §4-§6 that a round applies after every
action: whose turn is next, when a trick is over, who has won, spring and
anti-spring, and the multiplier with its breakdown.  The game engine
(:class:`dizhu.Round`), the super-hard bot's simulator and the rule
policies all call them, so the rules are stated once.  No function here
knows a variant by name: the duel's only differences are its player count
and its handicap, which are numbers.

>>> next_seat(2, 3), trick_over(passes=1, players=2)
(0, True)
>>> has_won(3, seat=1, landlord=0, handicap=3)   # the duel farmer at the handicap line
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "next_seat",
    "trick_over",
    "same_side",
    "win_line",
    "cards_to_win",
    "has_won",
    "spring",
    "settle",
    "share",
]


def next_seat(seat: int, players: int) -> int:
    """The seat after ``seat`` in turn order.

    >>> [next_seat(s, 3) for s in range(3)]
    [1, 2, 0]
    """
    return (seat + 1) % players


def trick_over(passes: int, players: int) -> bool:
    """Whether ``passes`` passes in a row after a play end the trick: every other player passed.

    >>> trick_over(1, 3), trick_over(2, 3)
    (False, True)
    """
    return passes == players - 1


def same_side(seat: int, other: int, landlord: int) -> bool:
    """Whether two seats win or lose together (farmers are partners; the landlord is alone).

    >>> same_side(1, 2, landlord=0), same_side(0, 2, landlord=0), same_side(0, 0, landlord=0)
    (True, False, True)
    """
    return (seat == landlord) == (other == landlord)


def win_line(seat: int, landlord: int, handicap: int) -> int:
    """How many cards ``seat`` may still hold when it wins.

    The landlord must play out.  A farmer wins at ``handicap`` cards or fewer:
    the duel's robs; 0 in classic, where farmers play out too.

    >>> win_line(0, landlord=0, handicap=2), win_line(1, landlord=0, handicap=2)
    (0, 2)
    """
    return 0 if seat == landlord else handicap


def cards_to_win(left: int, seat: int, landlord: int, handicap: int) -> int:
    """Cards ``seat`` must still shed to win, holding ``left``.

    >>> cards_to_win(5, seat=1, landlord=0, handicap=2), cards_to_win(1, seat=1, landlord=0, handicap=2)
    (3, 0)
    """
    return max(0, left - win_line(seat, landlord, handicap))


def has_won(left: int, seat: int, landlord: int, handicap: int) -> bool:
    """Whether ``seat``, holding ``left`` cards after its own play, has won the round.

    >>> has_won(0, seat=0, landlord=0, handicap=4), has_won(1, seat=0, landlord=0, handicap=4)
    (True, False)
    """
    return left <= (0 if seat == landlord else handicap)


def spring(landlord_won: bool, plays_made: Sequence[int], landlord: int) -> str | None:
    """``"spring"``, ``"anti_spring"`` or None, from each seat's count of plays.

    Spring: the landlord won and no farmer ever played.  Anti-spring: the
    farmers won and the landlord played once, the opening lead.

    >>> spring(True, [5, 0, 0], landlord=0), spring(False, [1, 4, 3], landlord=0), spring(False, [2, 4, 3], 0)
    ('spring', 'anti_spring', None)
    """
    if landlord_won:
        if all(n == 0 for s, n in enumerate(plays_made) if s != landlord):
            return "spring"
        return None
    return "anti_spring" if plays_made[landlord] == 1 else None


def settle(
    base: dict[str, Any],
    doublings: Sequence[dict[str, Any]],
    winner: int,
    landlord: int,
    plays_made: Sequence[int],
) -> tuple[list[dict[str, Any]], int, list[int], str | None]:
    """Score a finished round: (breakdown, multiplier, points by seat, spring).

    ``base`` is the first factor of the breakdown (the classic bid, the duel's
    robs) as ``{"source": ..., "factor": n, ...}``; ``doublings`` one entry a
    bomb or rocket played; spring or anti-spring adds a factor of 2.  Each
    farmer wins or loses the multiplier and the landlord the opposite of the
    farmers together, so the points are zero-sum in any player count.

    >>> bd, m, points, kind = settle({"source": "bid", "factor": 2}, [{"source": "bomb", "factor": 2}],
    ...                              winner=0, landlord=0, plays_made=[6, 1, 0])
    >>> m, points, kind, [b["source"] for b in bd]
    (4, [8, -4, -4], None, ['bid', 'bomb'])
    """
    landlord_won = winner == landlord
    kind = spring(landlord_won, plays_made, landlord)
    breakdown = [dict(base), *(dict(d) for d in doublings)]
    if kind is not None:
        breakdown.append({"source": kind, "factor": 2})
    multiplier = 1
    for entry in breakdown:
        multiplier *= entry["factor"]
    farmer_points = multiplier if not landlord_won else -multiplier
    points = [farmer_points] * len(plays_made)
    points[landlord] = -farmer_points * share(landlord, landlord, len(plays_made))
    return breakdown, multiplier, points, kind


def share(seat: int, landlord: int, players: int) -> int:
    """How many times the multiplier ``seat`` wins or loses: a farmer once, the landlord once
    for every farmer.

    >>> share(0, 0, 3), share(1, 0, 3), share(0, 0, 2)
    (2, 1, 1)
    """
    return players - 1 if seat == landlord else 1
