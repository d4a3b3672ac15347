"""The application's lifespan: what starts with it and stops with it.

At start-up: the storage (database.py), the bot pool, the game service and
three background jobs (resume the computer turns a crash interrupted, prune
old games, the storage's housekeeping); at shut-down, the same in reverse.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import AsyncIterator, Callable

from fastapi import FastAPI

from ..moves import play_table
from . import worker
from .botpool import BotRunner
from .database import open_database
from .logs import log_failure
from .service import GameService
from .settings import Settings
from .store import AsyncStore

__all__ = ["lifespan"]

log = logging.getLogger("dizhu.web")

Lifespan = Callable[[FastAPI], "contextlib.AbstractAsyncContextManager[None]"]


def lifespan(settings: Settings, bots: BotRunner | None, pin_server: bool) -> Lifespan:
    """The lifespan of an application of ``settings``; it sets ``app.state.creation_limit``
    and ``app.state.service``.  ``bots`` and ``pin_server``: see :func:`~dizhu.web.app.create_app`."""

    @contextlib.asynccontextmanager
    async def run(app: FastAPI) -> AsyncIterator[None]:
        database = open_database(settings)
        store = database.store
        app.state.creation_limit = database.creation_limit
        runner = bots or BotRunner(settings.workers, settings.bot_budget, settings.bot_timeout,
                                   quick_workers=settings.quick_workers, hint_workers=settings.hint_workers,
                                   think_share=settings.think_share, pin_cores=settings.pin_cores)
        cores = getattr(runner, "cores", None)
        if pin_server and cores is not None:
            worker.pin(cores["serve"])  # beside the hints, apart from the searches
        # The workers start while this process builds the engine's move tables (half a
        # second on first use: better now than in a player's first request).
        starting = asyncio.create_task(runner.start())
        await asyncio.to_thread(play_table)
        await starting
        worker.freeze_startup_objects()
        service = GameService(settings, store, runner, claims=database.claims)
        app.state.service = service
        jobs = [asyncio.create_task(_resume(service, database.resume_every)),
                asyncio.create_task(_prune_forever(service, settings)),
                asyncio.create_task(_maintain_forever(store))]
        try:
            yield
        finally:
            for job in jobs:
                job.cancel()
            await asyncio.gather(*jobs, return_exceptions=True)
            await service.reviews.close()
            runner.close()
            database.close()

    return run


async def _resume(service: GameService, every: float | None) -> None:
    """Finish the computer turns a crash interrupted: at start-up, and every
    ``every`` seconds when other hosts (which may die) share the database."""
    while True:
        try:
            count = await service.resume_pending()
            if count:
                log.info("resumed %d games interrupted mid-turn", count)
        except Exception as exc:  # noqa: BLE001 - start-up must go on
            log_failure(log, "resuming interrupted games failed", exc)
        if every is None:
            return
        await asyncio.sleep(every)


async def _prune_forever(service: GameService, settings: Settings) -> None:
    while True:
        try:
            await service.prune()
        except Exception as exc:  # noqa: BLE001 - try again next time
            log_failure(log, "pruning old games failed", exc)
        await asyncio.sleep(settings.prune_every)


async def _maintain_forever(store: AsyncStore) -> None:
    while True:
        await asyncio.sleep(1.0)
        try:
            await store.maintain()
        except Exception as exc:  # noqa: BLE001 - try again in a second
            log_failure(log, "storage housekeeping failed", exc)
