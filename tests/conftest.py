"""Shared test helpers."""

from __future__ import annotations

import importlib.util
import itertools
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from dizhu.cards import NUM_RANKS
from dizhu.combos import beats, combo_from_counts, read_counts

settings.register_profile(
    "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def brute_force_moves(counts, previous=None):
    """Every sub-multiset of the hand that classifies (and beats ``previous``).

    Independent of the move generator: it tries every choice of cards by rank.
    """
    found = {}
    ranges = [range(n + 1) for n in counts]
    for choice in itertools.product(*ranges):
        if read_counts(choice) is None:
            continue
        combo = combo_from_counts(choice)
        if previous is None or beats(combo, previous):
            found[combo.key] = combo
    return found


def counts_of(text: str) -> tuple[int, ...]:
    from dizhu import parse_cards

    return parse_cards(text).counts


__all__ = ["brute_force_moves", "counts_of", "NUM_RANKS"]


@pytest.fixture(scope="session")
def native_parity():
    """tools/native_parity.py as a module: the seeded positions and the compiled-against-Python checks."""
    path = Path(__file__).resolve().parents[1] / "tools" / "native_parity.py"
    spec = importlib.util.spec_from_file_location("native_parity", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
