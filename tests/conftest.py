"""Shared test helpers."""

from __future__ import annotations

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
    """tests/helpers/native_parity.py (tools/native_parity.py runs it at scale): the seeded positions
    and the compiled-against-Python checks."""
    from helpers import native_parity as module

    return module


# ---- lanes: every test gets one marker, so that `./scripts/test -m quick` runs the fast ones

#: Test modules (under tests/, without .py) that start real servers: `dizhu serve` processes,
#: PostgreSQL, nginx, or worker processes timed against each other.
SERVICE_MODULES = frozenset({
    "web/test_crash", "web/test_fuzz", "web/test_http_limits", "web/test_multihost", "web/test_nginx",
    "web/test_timing", "web/test_fairness", "web/test_dbcopy", "web/test_store_contract", "web/test_cli",
    "web/test_botpool",
})
#: Fixtures that start such a server.
SERVICE_FIXTURES = frozenset({"pg_url", "postgres_server", "live_server", "live_game"})
#: Test modules that take long on their own: whole arenas, Ray, builds, seeded parity runs.
SLOW_MODULES = frozenset({
    "test_ray_arena", "test_packaging", "test_pure_python", "test_api_docs", "test_env", "test_rlcard_agent",
    "test_rollout_native", "bots/test_levels", "test_bots_kernel", "test_bidsearch", "test_analysis", "test_split_native",
})
LANES = ("browser", "services", "slow", "quick")

# ---- in parallel: scripts/test runs the tests in one process per core (pytest-xdist, --dist loadgroup).
# Each process starts its own session-, package- and module-scoped fixtures (every server, PostgreSQL,
# nginx and Chromium on a free port, in a temporary directory of its own), so the tests of a module
# below, which share one costly fixture or one cluster, all run in the same process.

#: Test modules whose tests run in one process: a wheel built and installed once, one Ray cluster
#: (the arena joins "the running cluster"), one server a module's tests take turns on.
SHARED_FIXTURE_MODULES = frozenset({"test_packaging", "test_ray_arena", "web/test_http_limits", "web/test_fuzz"})


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` with the modules above as the groups.  (Not by ``xdist_group`` marks,
    which pytest-xdist 3.8 no longer sees under pytest 9.2: pytest-dev/pytest-xdist#1386.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class ModuleGroups(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0].removeprefix("tests/").removesuffix(".py")
            return module if module in SHARED_FIXTURE_MODULES else super()._split_scope(nodeid)

    return ModuleGroups(config, log)


def pytest_configure(config):
    for lane, what in zip(LANES, ("drives Chromium against a real server", "starts real servers or databases",
                                  "takes long on its own", "none of the above: the quick lane")):
        config.addinivalue_line("markers", f"{lane}: {what}")


def _module_of(item, tests: Path) -> str:
    """The test's module under tests/, without .py ("" for a doctest of the package or the README)."""
    try:
        return Path(item.fspath).resolve().relative_to(tests).with_suffix("").as_posix()
    except ValueError:
        return ""


def pytest_collection_modifyitems(config, items):
    tests = Path(__file__).resolve().parent
    for item in items:
        if any(item.get_closest_marker(lane) for lane in LANES):
            continue  # marked by hand
        module = _module_of(item, tests)
        if module.startswith("e2e/"):
            lane = "browser"
        elif module in SERVICE_MODULES or SERVICE_FIXTURES & set(getattr(item, "fixturenames", ())):
            lane = "services"
        elif module in SLOW_MODULES:
            lane = "slow"
        else:
            lane = "quick"
        item.add_marker(lane)
    if hasattr(config, "workerinput"):
        # A pytest-xdist worker: the longest lanes first, the quick tests last to even out the
        # processes' ends (every worker sorts alike; the sort is stable: e2e/ stays in one piece).
        first = ("slow", "services", "browser", "quick")
        items.sort(key=lambda item: next(i for i, lane in enumerate(first) if item.get_closest_marker(lane)))
