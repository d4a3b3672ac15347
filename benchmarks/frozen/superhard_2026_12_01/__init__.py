"""Super-hard as of 2026-12-01, frozen for benchmarks only (issue 11).

A self-contained copy of that day's bots: search, rule policy, hand
split and bidding, importing only the current engine (cards, combos, moves,
rules, variants), so that a new super-hard can be measured against the old
one: ``python benchmarks/matchup.py --a super-hard --b frozen-super-hard``.
Nothing under ``src/`` imports it; do not edit it (it is the yardstick).
"""

from .players import FrozenSuperHard

__all__ = ["FrozenSuperHard"]
