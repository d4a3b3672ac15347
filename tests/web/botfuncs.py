"""Bot functions with faults, for the pool tests (module level: worker processes import them)."""

from __future__ import annotations

import os
import threading
import time

from dizhu.web.worker import decide as real_decide


def slow_decide(level, variant, seed, budget, observation, think_until=None):
    """Thinks (blocking its process) for a second, then decides like the real bot."""
    time.sleep(1.0)
    return real_decide(level, variant, seed, budget, observation)


def failing_decide(level, variant, seed, budget, observation, think_until=None):
    raise RuntimeError("the bot is broken")


def illegal_decide(level, variant, seed, budget, observation, think_until=None):
    return "play 3333333"


def dying_decide(level, variant, seed, budget, observation, think_until=None):
    os._exit(3)  # the worker process dies, as if killed


def failing_suggest(observation, level, budget):
    raise RuntimeError("the hint is broken")


def slow_deep_decide(level, variant, seed, budget, observation, think_until=None):
    """Super-hard thinks for a second (a stand-in for a long search); other levels as usual."""
    if level == "super-hard":
        time.sleep(1.0)
        return real_decide("normal", variant, seed, budget, observation)
    return real_decide(level, variant, seed, budget, observation)


def leaky_decide(level, variant, seed, budget, observation, think_until=None):
    """A bot whose thinking time gives its cards away: it ponders only when it has a choice."""
    if len(observation["legal_actions"]) > 1:
        time.sleep(0.15)
    return real_decide("normal", variant, seed, budget, observation)


#: Opened by a test to let the gated review steps through (bots on threads only: workers=0).
REVIEW_GATE = threading.Event()


def gated_review_step(round_json, seat, index, budget):
    """A review's decision that waits for REVIEW_GATE first (to catch the review in progress)."""
    from dizhu.web.worker import review_step

    if not REVIEW_GATE.wait(30):
        raise TimeoutError("the test never opened the gate")
    return review_step(round_json, seat, index, budget)


def failing_review_step(round_json, seat, index, budget):
    raise RuntimeError("the review is broken")


def fast_deep_decide(level, variant, seed, budget, observation, think_until=None):
    """Super-hard answers at once (as when it has one legal action)."""
    return real_decide("normal", variant, seed, budget, observation)


#: What each ``deadline_decide`` call had left to think when it started (threads only: workers=0).
THINKING_LEFT: list[float] = []


def deadline_decide(level, variant, seed, budget, observation, think_until=None):
    """Notes the time left until ``think_until``, then thinks all of it (a search using its budget)."""
    left = think_until - time.monotonic()
    THINKING_LEFT.append(left)
    time.sleep(max(0.0, left))
    return real_decide("normal", variant, seed, budget, observation)


#: What ``recording_decide`` saw: the earlier rounds of each computer decision's observation.
SEEN_EARLIER: list[list[dict]] = []


def recording_decide(level, variant, seed, budget, observation, think_until=None):
    """Decides like the real bot and keeps the table's earlier rounds it was shown (threads only)."""
    SEEN_EARLIER.append(observation["earlier"])
    return real_decide(level, variant, seed, budget, observation)


def recording_suggest(observation, level, budget):
    """Suggests like the real hint and keeps the table's earlier rounds it was shown (threads only)."""
    from dizhu.web.worker import suggest

    SEEN_EARLIER.append(observation["earlier"])
    return suggest(observation, level, budget)


#: Opened by a test to let the gated decisions through (bots on threads only: workers=0).
DECIDE_GATE = threading.Event()


def gated_decide(level, variant, seed, budget, observation, think_until=None):
    """A computer's decision that waits for DECIDE_GATE first (a search caught in progress)."""
    if not DECIDE_GATE.wait(30):
        raise TimeoutError("the test never opened the gate")
    return real_decide("normal", variant, seed, budget, observation)
