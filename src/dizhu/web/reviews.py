"""Post-round reviews on the server: asked for, computed in the background, kept.

A review is computed from a finished round as the server keeps it (its
revealed deal code and its public events) and nothing else, for the human's
seat.  ``POST .../rounds/{number}/review`` starts it; each decision is one job
in the bot pool's review lane (its own worker, fair between clients: no
player's move waits for it), so the answer can say how far it has got;
``GET`` reads the progress or the result.  The result is stored with the
round: every later view is a read.  One client address computes
``client_reviews`` reviews at once and starts at most ``review_per_minute``
new ones, so no client keeps the review worker to itself.

The jobs in progress live in this process: on a shared database, another host
sees a review once it is stored (until then it answers ``no_review``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .. import analysis
from .botpool import BotRunner
from .errors import ApiError, json_bytes
from .logs import log_failure
from .ratelimit import TokenBuckets
from .settings import Settings
from .store import AsyncStore
from .views import HUMAN, Snapshot

__all__ = ["Reviews"]

log = logging.getLogger("dizhu.web")

#: Seconds a finished review is still answered from memory after it was stored.
KEEP_DONE_SECONDS = 60.0


@dataclass
class _Job:
    total: int
    done: int = 0
    failed: bool = False
    result: dict[str, Any] | None = None
    task: "asyncio.Task[None] | None" = field(default=None, repr=False)


class Reviews:
    """The reviews of every game served here: jobs in progress and the stored results."""

    def __init__(self, settings: Settings, store: AsyncStore, bots: BotRunner) -> None:
        self.settings = settings
        self.store = store
        self.bots = bots
        self._jobs: dict[tuple[str, int], _Job] = {}
        self._running: Counter[str] = Counter()  # reviews being computed, by client address
        self._limit = TokenBuckets(settings.review_per_minute, settings.review_burst)

    async def answer(self, game_id: str, number: int, snap: Snapshot, client: str, *, start: bool) -> tuple[int, bytes]:
        """(status, body) for the review of round ``number``: 200 done, 202 in progress
        (started now when ``start``), or an :class:`ApiError`."""
        key = (game_id, number)
        stored = await self.store.review(game_id, number, HUMAN)
        if stored is not None:
            return 200, _body("done", number, json.loads(stored))
        job = self._jobs.get(key)
        if job is not None:
            if job.failed:
                del self._jobs[key]  # reported once; asking again starts afresh
                raise ApiError(503, "review_failed", "the review could not be computed: ask again",
                               headers={"Retry-After": "1"})
            if job.result is not None:
                return 200, _body("done", number, job.result)
            return 202, _body("running", number, None, job)
        if number == snap.round_number and snap.observation["phase"] != "over":
            raise ApiError(409, "round_in_progress", "this round is not over yet: a round is reviewed "
                           "once it is finished", number=number)
        if number > snap.round_number:
            raise _unknown_round(number)
        if not start:
            raise ApiError(404, "no_review", "this round's review was not asked for: POST to start it",
                           number=number)
        self._admit(client)  # before the rounds are read: asking costs, even for a round not kept
        # In place before the first wait: a request meanwhile for this review finds it.
        job = self._jobs[key] = _Job(0)
        try:
            item = await self.store.round_numbered(game_id, number)
            if item is None or not item.get("deal_code"):
                raise _unknown_round(number)
            index = item["index"]
            round_json, job.total = await asyncio.to_thread(_prepare, item)
        except BaseException:
            del self._jobs[key]
            self._release(client)
            raise
        job.task = asyncio.create_task(self._run(key, job, index, round_json, client))
        return 202, _body("running", number, None, job)

    def _admit(self, client: str) -> None:
        """Take a place for a new review of ``client`` (:meth:`_release` gives it back),
        or 429: as many computing already, or too many started lately."""
        limit = self.settings.client_reviews
        if limit > 0 and self._running[client] >= limit:
            raise ApiError(429, "too_busy", f"this address already has {limit} reviews being computed: "
                           "try again when it is done", headers={"Retry-After": "2"}, limit=limit, retry_after=2)
        wait = self._limit.wait(client)
        if wait > 0:
            seconds = max(1, int(wait + 0.999))
            raise ApiError(429, "too_many_reviews", f"too many reviews from this address: try again in {seconds} s",
                           headers={"Retry-After": str(seconds)}, retry_after=seconds)
        self._running[client] += 1

    def _release(self, client: str) -> None:
        self._running[client] -= 1
        if not self._running[client]:
            del self._running[client]

    async def _run(self, key: tuple[str, int], job: _Job, index: int, round_json: str, client: str) -> None:
        game_id, number = key
        budget = self.settings.review_budget
        try:
            judged = []
            for i in range(job.total):
                judged.append(await self.bots.review_step(round_json, HUMAN, i, budget, client))
                job.done = i + 1
            review = await asyncio.to_thread(_assemble, round_json, judged, budget)
            await self.store.save_review(game_id, number, HUMAN, index, json.dumps(review, separators=(",", ":")))
            # Answered from memory a little longer: a request that missed the stored copy
            # just before it was written must not start the review again.
            job.result = review
            asyncio.get_running_loop().call_later(KEEP_DONE_SECONDS, self._jobs.pop, key, None)
        except asyncio.CancelledError:
            self._jobs.pop(key, None)
            raise
        except Exception as exc:  # noqa: BLE001 - reported to the player who asks next
            log_failure(log, "a review failed", exc)
            job.failed = True
        finally:
            self._release(client)

    async def close(self) -> None:
        """Stop the reviews in progress (the server is stopping)."""
        tasks = [job.task for job in self._jobs.values() if job.task is not None and not job.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _unknown_round(number: int) -> ApiError:
    return ApiError(404, "unknown_round", "this game has no finished round of that number", number=number)


def _prepare(item: dict[str, Any]) -> tuple[str, int]:
    """The finished round rebuilt from what its end revealed, and how many decisions it holds."""
    round_ = analysis.replayed(item["deal_code"], item["events"])
    if round_.result is None:
        raise ApiError(409, "round_in_progress", "this round is not over")
    return round_.to_json(), len(analysis.moments(round_, HUMAN))


def _assemble(round_json: str, judged: list[Any], budget: float | None) -> dict[str, Any]:
    from ..game import Round

    return analysis.assemble(Round.from_json(round_json), HUMAN, judged, budget, analysis.REVIEW_SEED).to_dict()


def _body(status: str, number: int, review: dict[str, Any] | None, job: _Job | None = None) -> bytes:
    total = job.total if job is not None else len(review["decisions"]) if review else 0
    done = job.done if job is not None else total
    return json_bytes({"status": status, "number": number, "progress": {"done": done, "total": total},
                       "review": review})
