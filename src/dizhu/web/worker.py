"""What runs inside a bot worker process.

Module-level functions only, so the process pool can find them by name.
Each receives one seat's observation and nothing else.
"""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
from typing import Any, Iterable

from .. import analysis
from ..bots import create, hint
from ..bots.advice import HINT_BUDGET
from ..game import Round

__all__ = ["init_worker", "pin", "core_plan", "warm", "freeze_startup_objects", "serve", "decide", "suggest", "review_step"]


#: Workers run at a lower priority than the server: when the CPUs are busy, answering a
#: request (milliseconds) goes before a bot's search (a budget of up to a second), and a
#: quick decision (normal, intermediate, a hint) goes before a search too, and a
#: post-round review goes after everything a player is waiting for.  A hint also goes
#: before a search so that a computer's search slows it as little as can be: its answer
#: is not paced, and how long it took must not tell whether a computer is thinking.
WORKER_NICENESS = {"quick": 5, "hint": 5, "deep": 15, "review": 19}
#: Suggestions a hint carries (the table cycles through them on repeated presses).
HINT_ALTERNATIVES = 3


def init_worker(parent_pid: int, niceness: int = WORKER_NICENESS["quick"],
                cores: "frozenset[int] | None" = None) -> None:
    """Set up a worker: lower priority, on ``cores`` (None: any), leave Ctrl-C to the server, and
    exit with it.

    A server killed with SIGKILL cannot stop its pool; the watchdog makes
    the workers notice that their parent is gone and exit too.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(niceness)
    except OSError:  # not allowed here: run at the normal priority
        pass
    pin(cores)

    def watch() -> None:
        while True:
            if os.getppid() != parent_pid:
                os._exit(0)
            time.sleep(0.5)

    threading.Thread(target=watch, name="dizhu-parent-watch", daemon=True).start()


def pin(cores: "frozenset[int] | None") -> None:
    """Run this process on ``cores`` only (None, or a system without affinity: anywhere)."""
    if cores and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, cores)
        except OSError:  # cores this process may not use: leave it where it is
            pass


def core_plan(searchers: int, servers: int = 3,
              available: "Iterable[int] | None" = None) -> "dict[str, frozenset[int]] | None":
    """Which cores the searches get and which the rest (the server, hints, quick moves: ``servers``
    processes): a core per two serving processes, at least one, but the cores that ``searchers``
    leaves over if more; the searches get the others.  None when there are not two cores to split.

    A search on the core that answers another client's hint makes that hint slower exactly when a
    computer had a choice; on cores of their own, how long anything else takes does not depend on
    whether a computer searches.

    >>> core_plan(1, 3, [0, 1])
    {'serve': frozenset({0}), 'search': frozenset({1})}
    >>> core_plan(7, 5, range(8))["serve"], core_plan(3, 3, range(8))["serve"], core_plan(2, 3, [0]), core_plan(0)
    (frozenset({0, 1, 2}), frozenset({0, 1, 2, 3, 4}), None, None)
    """
    if available is None:
        if not hasattr(os, "sched_getaffinity"):
            return None
        available = os.sched_getaffinity(0)
    cores = sorted(available)
    if searchers < 1 or len(cores) < 2:
        return None
    serving = min(len(cores) - 1, max(len(cores) - searchers, (servers + 1) // 2, 1))
    return {"serve": frozenset(cores[:serving]), "search": frozenset(cores[serving:])}


def warm() -> int:
    """Start a worker before the first game: one decision per variant builds
    the move tables (half a second) that would otherwise delay a player."""
    for variant, bid in (("classic", "bid 3"), ("duel", "call")):
        round_ = Round.deal(variant, seed="warm-up")
        round_.apply(round_.to_act, bid)
        if round_.phase == "bidding":
            round_.apply(round_.to_act, "pass")
        seat = round_.to_act
        create("normal", variant, seed="warm-up").decide(round_.observation(seat))
    return os.getpid()


def serve(conn: Any, parent_pid: int, niceness: int = WORKER_NICENESS["quick"],
          cores: "frozenset[int] | None" = None) -> None:
    """A worker process's life: set up, warm up, say ready, then run jobs one at a time.

    Each job is ``(function, args)``; the answer is ``("ok", result)`` or
    ``("error", exception type name)`` -- never the exception's text, which
    could name cards.
    """
    init_worker(parent_pid, niceness, cores)
    warm()
    freeze_startup_objects()
    answer: tuple[str, Any] = ("ready", os.getpid())
    while True:
        try:
            conn.send(answer)
            fn, args = conn.recv()
        except (EOFError, OSError):  # the server is gone (killed mid-job: a broken pipe): so are we
            return
        try:
            answer = ("ok", fn(*args))
        except Exception as exc:  # noqa: BLE001 - reported to the server, which falls back
            answer = ("error", type(exc).__name__)


def freeze_startup_objects() -> None:
    """Keep what start-up built (the move tables, the imported modules: ~90,000 objects) out of
    the cyclic garbage collector's way, in the server and in each worker.  A full collection
    walked them all, 65 ms during which the process answered nobody; after ``gc.freeze()`` it
    takes microseconds."""
    gc.collect()
    gc.freeze()


def decide(level: str, variant: str, seed: str, budget: float | None, observation: dict[str, Any],
           think_until: float | None = None) -> str:
    """The computer player's action text for this observation, thinking no later than
    ``think_until`` (``time.monotonic()``, one clock for every process of the machine).

    An instant rather than a duration: the job's wait in the queue counts against it, so
    on a loaded server a search still ends inside the pace that hides its length."""
    time_limit = None if think_until is None else max(0.0, think_until - time.monotonic())
    return create(level, variant, seed=seed, budget=budget, time_limit=time_limit).decide(observation)


def suggest(observation: dict[str, Any], level: str, budget: float | None) -> dict[str, Any]:
    """The hint for the human's observation: action, cards to select, reason and alternatives.

    The hint searches with its own budget, which fits the 0.3 s it must answer in;
    a smaller budget for the site's computers lowers it too."""
    budget = HINT_BUDGET if budget is None else min(budget, HINT_BUDGET)
    return hint(observation, level=level, budget=budget, n=HINT_ALTERNATIVES)


def review_step(round_json: str, seat: int, index: int, budget: float | None) -> "analysis.DecisionReview":
    """One decision of a finished round's review (the server asks for them one by one,
    so a review takes turns with everyone's moves and reports its progress)."""
    moment = analysis.moments(Round.from_json(round_json), seat)[index]
    return analysis.review_moment(moment, budget)
