"""Computer players run in worker processes, scheduled fairly between clients.

The event loop only waits on futures: a bot thinking for a second holds up
nobody else.  The work is split into *lanes* so that cheap decisions
never queue behind expensive ones:

- the **deep** lane (``workers`` processes) runs the searching level
  (super-hard);
- the **hint** lane (``hint_workers`` processes) runs the searching level's hints, and
  auto-play's moves by them.  Not in the deep lane: a hint is answered as soon
  as it is found, so a hint queued behind a computer's search would time that
  search, which is long when the computer has a choice and nil when it has
  none (what the pace hides).  The deep lane now runs paced jobs alone;
- the **quick** lane (``quick_workers`` processes) runs the other levels,
  their hints and the fallback moves, which take a millisecond or less;
- the **review** lane (one process, started on its first job, at the lowest
  priority) runs the post-round reviews, a decision a job: a review never
  holds a worker that a player's move waits for.

Inside a lane, waiting jobs are served round-robin by client address, so a
client with fifty games waiting gets one worker at a time like everyone
else; how many games one client may have thinking at once is limited by
the service (``429 too_busy``).  Round-robin alone is not enough on a small
machine: a client that always has a search waiting keeps a deep worker busy
all the time, and that core's load slows every other request.  So each
client also has a *share* of the deep lane (:class:`ThinkingShare`); over it,
the service answers ``429 too_much_thinking`` until its use has decayed.
What a search is charged is public (its level's cap on thinking), never the
time it really took: that depends on the cards, and a refusal must not tell
a client anything about them.

Each worker is a process of its own with a pipe to the server.  A worker
that dies (killed, out of memory) costs only its own job, which is retried
once on a fresh worker; one over its time limit is killed and replaced.
Only then does the server play a simple fallback move (logged, without any
cards) rather than leave a game stuck.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Protocol

from ..bots import create, hint
from ..bots.advice import HINT_BUDGET
from . import worker
from .logs import log_failure

__all__ = ["BotRunner", "ThinkingShare", "fallback_action", "DEEP_LEVELS", "WorkerDied"]

log = logging.getLogger("dizhu.web.bots")

#: Seconds one decision of a review may take, the review worker's start included: it runs at
#: the lowest priority, so on a busy machine it gets the CPU last (a safety net, not a pace).
REVIEW_STEP_TIMEOUT = 120.0

#: Levels whose decisions search (hundreds of milliseconds): they get the deep lane.
DEEP_LEVELS = frozenset({"super-hard"})


class WorkerDied(RuntimeError):
    """The worker running a job exited before it answered."""


class JobFailed(RuntimeError):
    """The job raised inside the worker (only the exception's type is kept: its text may name cards)."""


def fallback_action(variant: str, seed: str, observation: dict[str, Any]) -> str:
    """The normal level's move, or the first legal action if even that fails."""
    try:
        action = create("normal", variant, seed=seed).decide(observation)
        if action in observation["legal_actions"]:
            return action
    except Exception as exc:  # noqa: BLE001 - the last line of defence must not raise
        log_failure(log, "the fallback bot failed", exc)
    return observation["legal_actions"][0]


class _Slot(Protocol):
    name: str
    pid: int | None

    async def start(self) -> None: ...
    async def call(self, fn: Callable[..., Any], args: tuple, timeout: float) -> Any: ...
    def close(self) -> None: ...


class _ProcessSlot:
    """One worker process running one job at a time, over a pipe read by the event loop."""

    def __init__(self, name: str, niceness: int, cores: frozenset[int] | None = None) -> None:
        self.name = name
        self.niceness = niceness
        self.cores = cores
        self.pid: int | None = None
        self._process: Any = None
        self._conn: Any = None
        self._ready: asyncio.Future[None] | None = None
        self._job: asyncio.Future[tuple[str, Any]] | None = None

    def _spawn(self) -> None:
        loop = asyncio.get_running_loop()
        # spawn, not fork: the server has threads (storage, event loop) a fork would copy mid-flight.
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        process = context.Process(target=worker.serve, args=(child, os.getpid(), self.niceness, self.cores),
                                  name=self.name, daemon=True)
        process.start()
        child.close()
        self._process, self._conn, self.pid = process, parent, None
        self._ready = loop.create_future()
        loop.add_reader(parent.fileno(), self._readable, parent)

    def _readable(self, conn: Any) -> None:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            self._lost(conn)
            return
        if message[0] == "ready":
            self.pid = message[1]
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(None)
        elif self._job is not None and not self._job.done():
            self._job.set_result(message)

    def _lost(self, conn: Any) -> None:
        """The pipe closed: the worker is gone.  Fail whoever waits on it."""
        if conn is not self._conn:
            return
        self._detach()
        for future in (self._ready, self._job):
            if future is not None and not future.done():
                future.set_exception(WorkerDied())

    def _detach(self) -> None:
        conn, process = self._conn, self._process
        self._conn = self._process = None
        if conn is not None:
            # No running loop (closing at exit) or a closed pipe: there is no reader to remove.
            with contextlib.suppress(RuntimeError, OSError, ValueError):
                asyncio.get_running_loop().remove_reader(conn.fileno())
            conn.close()
        if process is not None:
            if process.is_alive():
                process.kill()
            # Reap it off the event loop (a killed process exits at once, but join may still wait).
            threading.Thread(target=process.join, args=(5,), daemon=True).start()

    async def start(self) -> None:
        if self._conn is None:
            self._spawn()
        assert self._ready is not None
        await self._ready

    async def call(self, fn: Callable[..., Any], args: tuple, timeout: float) -> Any:
        if self._conn is None:
            self._spawn()
        loop = asyncio.get_running_loop()
        self._job = job = loop.create_future()
        try:
            try:
                self._conn.send((fn, args))
            except OSError:
                self._detach()
                raise WorkerDied() from None
            # The worker may still be starting (after a restart): the deadline covers that too.
            status, value = await asyncio.wait_for(job, timeout)
        except BaseException:
            # Timed out, cancelled or dead: the worker's late answer must not reach the next
            # job, so it goes; a new one starts at once for the jobs that follow.
            self._detach()
            self._spawn()
            raise
        finally:
            self._job = None
        if status == "error":
            raise JobFailed(value)
        return value

    def close(self) -> None:
        if self._conn is not None:
            self._detach()


class _ThreadSlot:
    """A thread inside the server (``workers=0``: tests and debugging)."""

    def __init__(self, name: str, niceness: int = 0, cores: frozenset[int] | None = None) -> None:
        self.name = name
        self.pid: int | None = os.getpid()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)

    async def start(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._executor, worker.warm)

    async def call(self, fn: Callable[..., Any], args: tuple, timeout: float) -> Any:
        future = asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except asyncio.TimeoutError:
            # A thread cannot be killed: leave it to finish on its own and go on with a new one.
            self._executor.shutdown(wait=False)
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self.name)
            raise

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


class ThinkingShare:
    """How much search each client address asked for lately, in worker-seconds.

    The use decays exponentially (``half_life`` seconds), so a client that asks
    for ``r`` seconds of search per second settles at ``r * tau`` (``tau =
    half_life / ln 2``); it is *over* its share when that exceeds ``share *
    tau``.  A player whose one game searches for a second between moves stays
    below; a client that never lets the worker rest is over within seconds.
    ``share`` 0 turns the limit off.

    >>> now = [0.0]
    >>> shares = ThinkingShare(0.5, half_life=5.0, clock=lambda: now[0])
    >>> shares.charge("a", 1.0); shares.over("a")
    False
    >>> for _ in range(10):
    ...     now[0] += 1.0; shares.charge("a", 1.0)
    >>> shares.over("a"), shares.over("b"), 0 < shares.wait("a") < 20
    (True, False, True)
    >>> now[0] += shares.wait("a"); shares.over("a")
    False
    """

    #: Clients remembered at most (those with the least use are forgotten first).
    KEPT = 4096

    def __init__(self, share: float, half_life: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.share = share
        self.tau = half_life / math.log(2)
        self.clock = clock
        self._used: dict[str, tuple[float, float]] = {}  # client -> (seconds, when)

    def used(self, client: str) -> float:
        seconds, when = self._used.get(client, (0.0, 0.0))
        return seconds * math.exp((when - self.clock()) / self.tau) if seconds else 0.0

    def charge(self, client: str, seconds: float) -> None:
        if self.share <= 0 or seconds <= 0:
            return
        self._used[client] = (self.used(client) + seconds, self.clock())
        if len(self._used) > self.KEPT:
            # Forget a quarter at once, so the sort runs once per thousand new clients, not per client.
            for name in sorted(self._used, key=self.used)[: len(self._used) - self.KEPT * 3 // 4]:
                del self._used[name]

    def over(self, client: str) -> bool:
        return self.share > 0 and self.used(client) > self.share * self.tau

    def wait(self, client: str) -> float:
        """Seconds until ``client`` is back within its share (0 if it is)."""
        if not self.over(client):
            return 0.0
        return self.tau * math.log(self.used(client) / (self.share * self.tau)) + 1e-6


class _Lane:
    """Worker slots and the jobs waiting for them, served round-robin by client."""

    def __init__(self, name: str, slots: list[_Slot]) -> None:
        self.name = name
        self.slots = slots
        self._idle = list(slots)
        self._waiting: OrderedDict[str, deque[asyncio.Future[_Slot]]] = OrderedDict()

    def waiting(self) -> int:
        return sum(len(queue) for queue in self._waiting.values())

    async def run(self, client: str, fn: Callable[..., Any], args: tuple, timeout: float) -> Any:
        slot = await self._take(client)
        try:
            try:
                return await slot.call(fn, args, timeout)
            except WorkerDied:
                log.error("a bot worker died; its job is retried once on a fresh worker")
                return await slot.call(fn, args, timeout)
        finally:
            self._give_back(slot)

    async def _take(self, client: str) -> _Slot:
        future: asyncio.Future[_Slot] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(client, deque()).append(future)
        self._dispatch()
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._give_back(future.result())  # handed a slot just as the request went away
            else:
                queue = self._waiting.get(client)
                if queue is not None and future in queue:
                    queue.remove(future)
                    if not queue:
                        del self._waiting[client]
            raise

    def _dispatch(self) -> None:
        while self._idle and self._waiting:
            client, queue = next(iter(self._waiting.items()))
            future = queue.popleft()
            if queue:
                self._waiting.move_to_end(client)  # its next job waits for everyone else's turn
            else:
                del self._waiting[client]
            if not future.done():
                future.set_result(self._idle.pop())

    def _give_back(self, slot: _Slot) -> None:
        self._idle.append(slot)
        self._dispatch()


class BotRunner:
    """Runs bot decisions and hints off the event loop, fairly between clients.

    ``workers`` processes for the deep lane, ``hint_workers`` for the hints of its
    level and ``quick_workers`` for the quick lane (``workers=0``: one thread each
    inside the server, for tests).
    ``timeout`` bounds one job's run, not its wait in the queue.
    ``think_share`` is the fraction of a deep worker one client may ask for
    lately (:class:`ThinkingShare`; 0: no limit).
    ``pin_cores``: the searches (deep and review lanes) run on cores of their own, the other
    lanes on the rest, the server's (:func:`~dizhu.web.worker.core_plan`; ``cores`` says which,
    None when not pinned).
    ``decide_fn``/``suggest_fn`` are module-level functions with the
    signatures of :func:`dizhu.web.worker.decide` and
    :func:`~dizhu.web.worker.suggest`; tests may swap them.
    """

    def __init__(
        self,
        workers: int,
        budget: float | None,
        timeout: float,
        *,
        quick_workers: int = 1,
        hint_workers: int = 1,
        think_share: float = 0.0,
        pin_cores: bool = False,
        decide_fn: Callable[..., str] = worker.decide,
        suggest_fn: Callable[..., dict[str, Any]] = worker.suggest,
        review_fn: Callable[..., Any] = worker.review_step,
    ) -> None:
        self.workers = workers
        self.budget = budget
        self.timeout = timeout
        self._decide_fn = decide_fn
        self._suggest_fn = suggest_fn
        self._review_fn = review_fn
        threads = workers <= 0
        make: Callable[[str, int, frozenset[int] | None], _Slot] = _ThreadSlot if threads else _ProcessSlot
        self.cores = (worker.core_plan(workers, 1 + hint_workers + quick_workers)
                      if pin_cores and not threads else None)

        def lane(name: str, size: int) -> _Lane:
            """``size`` workers at the lane's priority (one thread for tests), on the lane's cores."""
            cores = None
            if self.cores is not None:
                cores = self.cores["search" if name in ("deep", "review") else "serve"]
            slots = [make(f"dizhu-bot-{name}-{i}", worker.WORKER_NICENESS[name], cores)
                     for i in range(1 if threads else max(1, size))]
            return _Lane(name, slots)

        self.lanes = {"deep": lane("deep", workers), "hint": lane("hint", hint_workers),
                      "quick": lane("quick", quick_workers), "review": lane("review", 1)}
        self.shares = ThinkingShare(think_share * len(self.lanes["deep"].slots))

    def lane(self, level: str) -> _Lane:
        return self.lanes["deep" if level in DEEP_LEVELS else "quick"]

    # ---- life cycle

    async def start(self) -> None:
        """Start (and warm up) the players' workers now rather than on the first decision
        (the review's starts with the first review: many servers never need it)."""
        await asyncio.gather(*(slot.start() for name in ("deep", "hint", "quick") for slot in self.lanes[name].slots))

    def close(self) -> None:
        for lane in self.lanes.values():
            for slot in lane.slots:
                slot.close()

    # ---- work

    async def decide(self, level: str, variant: str, seed: str, observation: dict[str, Any],
                     client: str = "", time_limit: float | None = None) -> tuple[str, bool]:
        """The computer's action for ``observation``, and whether it is the fallback move.
        ``time_limit`` caps the bot's thinking in wall-clock seconds from now, the wait for a
        worker included; a search is charged that cap, a public figure, against the client's share."""
        think_until = None
        if time_limit is not None:
            think_until = time.monotonic() + time_limit
            if level in DEEP_LEVELS:
                self.shares.charge(client, time_limit)
        try:
            action = await self.lane(level).run(
                client, self._decide_fn, (level, variant, seed, self.budget, observation, think_until),
                self.timeout)
            if not isinstance(action, str) or action not in observation["legal_actions"]:
                raise ValueError("the bot chose an action that is not legal")
            return action, False
        except Exception as exc:  # noqa: BLE001 - any failure gets the fallback move
            log.error("bot decision failed (%s, level %s): %s; playing the fallback move",
                      variant, level, type(exc).__name__)
            return await asyncio.to_thread(fallback_action, variant, seed, observation), True

    async def review_step(self, round_json: str, seat: int, index: int, budget: float | None,
                          client: str = "") -> Any:
        """One decision of a post-round review, in the review lane (fair between clients).
        Failures are the caller's to handle."""
        return await self.lanes["review"].run(client, self._review_fn, (round_json, seat, index, budget),
                                              max(REVIEW_STEP_TIMEOUT, self.timeout))

    async def suggest(self, observation: dict[str, Any], level: str, client: str = "") -> dict[str, Any]:
        """The hint for the human's observation."""
        lane = self.lanes["quick"]
        if level in DEEP_LEVELS:
            self.shares.charge(client, HINT_BUDGET)
            lane = self.lanes["hint"]
        try:
            return await lane.run(client, self._suggest_fn, (observation, level, self.budget), self.timeout)
        except Exception as exc:  # noqa: BLE001
            log.error("hint failed at level %s: %s; using the normal level", level, type(exc).__name__)
            return await asyncio.to_thread(hint, observation, "normal")
