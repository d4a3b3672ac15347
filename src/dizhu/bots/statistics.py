"""The statistics of the search: comparing moves over the same weighted worlds.

Every move is played out in the same worlds (equal luck), so two moves are compared world by
world: the mean of their differences, against its standard error over the worlds' effective
number.  The race drops a move clearly behind the leader (:func:`still_in_race`); the look-ahead
leaves the rule policy's next move only for one clearly better (:func:`group_value`).
"""

from __future__ import annotations

import math
from typing import Callable

from .config import LOOKAHEAD_Z, RACE_Z

__all__ = ["still_in_race", "group_value"]


def still_in_race(active: list[int], seen: list[list[float]], weights: list[float]) -> list[int]:
    """The moves of ``active`` still in the race: all but those whose weighted mean deficit to
    the leader, world by world (equal luck, so the difference's spread is small), is more than
    ``RACE_Z`` standard errors below zero.  ``seen[i]`` holds move i's values in the worlds
    every active move was played in, ``weights`` those worlds' weights.

    >>> still_in_race([0, 1, 2], [[1, 1, -1, 1], [-1, -1, -1, -1], [1, -1, -1, 1]], [1.0] * 4)
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


def group_value(rows: list[tuple[float, list[float]]], objective: Callable[[float], float] | None = None,
                 z: float = LOOKAHEAD_Z) -> tuple[float, float, float]:
    """(points, win share, score) of a group of worlds the seat cannot tell apart, each (weight,
    values of its next options, the rule policy's first): the policy's option, unless another's
    ``objective`` (default: the points) beats it world by world by more than ``z``
    standard errors (the best such, by its mean gain).  Taking the best option of each group
    outright would flatter the moves whose groups are small.

    >>> group_value([(1.0, [-1.0, 2.0]), (1.0, [1.0, -1.0])])  # a gain in one world, a loss in the other
    (0.0, 0.5, 0.0)
    >>> group_value([(1.0, [-1.0, 2.0]), (1.0, [1.0, 2.0]), (1.0, [-2.0, 2.0])])  # better in every world
    (2.0, 1.0, 2.0)
    >>> group_value([(1.0, [0.0, 3.0]), (1.0, [0.0, -0.5])])  # two worlds, a gain and a loss: not clear
    (0.0, 0.0, 0.0)
    >>> group_value([(0.1, [0.0, 1.0])] * 8)  # the same gain in 8 worlds
    (1.0, 1.0, 1.0)
    >>> rows = [(1.0, [0.0, 1.0]), (1.0, [0.0, -0.2]), (1.0, [0.0, 0.5])]  # a gain 1.2 errors wide
    >>> round(group_value(rows)[0], 3), group_value(rows, z=2.0)[0]
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
