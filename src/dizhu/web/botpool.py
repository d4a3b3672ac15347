"""Computer players run in a pool of worker processes.

The event loop only waits on futures: a bot thinking for a second holds up
nobody else.  If a worker fails or overruns its time limit, the server
plays a simple fallback move rather than leaving a game stuck; that is a
safety net and is logged (without any cards).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

from ..bots import create, hint
from . import worker
from .logs import log_failure

__all__ = ["BotRunner", "fallback_action"]

log = logging.getLogger("dizhu.web.bots")


def fallback_action(variant: str, seed: str, observation: dict[str, Any]) -> str:
    """The normal level's move, or the first legal action if even that fails."""
    try:
        action = create("normal", variant, seed=seed).decide(observation)
        if action in observation["legal_actions"]:
            return action
    except Exception as exc:  # noqa: BLE001 - the last line of defence must not raise
        log_failure(log, "the fallback bot failed", exc)
    return observation["legal_actions"][0]


class BotRunner:
    """Runs bot decisions and hints off the event loop.

    ``workers`` processes (0: a small thread pool inside the server, for
    tests).  ``decide_fn``/``suggest_fn`` are module-level functions with
    the signatures of :func:`dizhu.web.worker.decide` and
    :func:`~dizhu.web.worker.suggest`; tests may swap them.
    """

    def __init__(
        self,
        workers: int,
        budget: float | None,
        timeout: float,
        *,
        decide_fn: Callable[..., str] = worker.decide,
        suggest_fn: Callable[..., dict[str, Any]] = worker.suggest,
    ) -> None:
        self.workers = workers
        self.budget = budget
        self.timeout = timeout
        self._decide_fn = decide_fn
        self._suggest_fn = suggest_fn
        self._executor: Executor | None = None

    # ---- life cycle

    def _new_executor(self) -> Executor:
        if self.workers <= 0:
            return ThreadPoolExecutor(max_workers=2, thread_name_prefix="dizhu-bot")
        # spawn, not fork: the server has threads (storage, event loop) a fork would copy mid-flight.
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=worker.init_worker,
            initargs=(os.getpid(),),
        )

    async def start(self) -> None:
        """Start the workers now rather than on the first decision."""
        self._executor = self._new_executor()
        loop = asyncio.get_running_loop()
        count = max(1, self.workers)
        await asyncio.gather(*(loop.run_in_executor(self._executor, worker.warm) for _ in range(count)))

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    # ---- work

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self._executor is None:
            self._executor = self._new_executor()
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._executor, fn, *args)
        except BrokenProcessPool:
            self._restart()
            raise
        try:
            return await asyncio.wait_for(future, self.timeout)
        except BrokenProcessPool:
            self._restart()
            raise

    def _restart(self) -> None:
        """A worker died (killed, out of memory): start a fresh pool."""
        log.error("a bot worker died; restarting the pool")
        old, self._executor = self._executor, self._new_executor()
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)

    async def decide(self, level: str, variant: str, seed: str, observation: dict[str, Any]) -> tuple[str, float]:
        """The computer's action for ``observation`` and the seconds it took."""
        start = time.perf_counter()
        try:
            action = await self._run(self._decide_fn, level, variant, seed, self.budget, observation)
            if not isinstance(action, str) or action not in observation["legal_actions"]:
                raise ValueError("the bot chose an action that is not legal")
        except Exception as exc:  # noqa: BLE001 - any failure gets the fallback move
            log.error("bot decision failed (%s, level %s): %s; playing the fallback move",
                      variant, level, type(exc).__name__)
            action = await asyncio.to_thread(fallback_action, variant, seed, observation)
        return action, time.perf_counter() - start

    async def suggest(self, observation: dict[str, Any], level: str) -> dict[str, Any]:
        """The hint for the human's observation."""
        try:
            return await self._run(self._suggest_fn, observation, level, self.budget)
        except Exception as exc:  # noqa: BLE001
            log.error("hint failed at level %s: %s; using the normal level", level, type(exc).__name__)
            return await asyncio.to_thread(hint, observation, "normal")
