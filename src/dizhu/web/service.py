"""The game service: what each API call does to a game.

One human (seat 0) against computer players.  A write goes:

1. check the token; a repeated ``request_id`` gets its first answer back;
2. take the game's lock (a second write meanwhile is ``busy``), check the
   client's ``version``;
3. apply the human's action and **commit**;
4. let each computer act (thinking in the worker pool) until the human must
   act again or the round is over, and **commit** their moves together with
   the answer, stored under the ``request_id``.

A crash at any point leaves a committed state; a game left with a computer
to act is resumed by the next request for it, or at start-up.  Storage
writes are compare-and-swap on the version, so even two servers sharing one
database cannot both apply a move.

Beside it: who may open a game (keys.py), a game's in-memory companions
(sessions.py), how much thinking a client may ask for (thinking.py), the hints
(hints.py) and the post-round reviews (reviews.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, AsyncIterator, Awaitable, Callable

from ..cards import Card
from ..errors import DizhuError, IllegalAction
from ..game import Action, Match
from ..game.deal import parse_deal_code
from .botpool import DEEP_LEVELS, BotRunner, fallback_action
from .database import GameClaims, LocalClaims
from .conditional import matches
from .errors import ApiError, engine_error, json_bytes, limited
from .hints import Hints
from .keys import GAME_ID_PATTERN, GameKey, authorized, check_key, hash_token, unknown_game
from .logs import log_failure
from .pacing import PACES
from .ratelimit import TokenBuckets
from .reviews import Reviews
from .schemas import ROUNDS_PAGE, Act, Check, CreateGame, Step
from .sessions import InFlight, Session, load_match
from .settings import Settings
from .store import AsyncStore, GameRecord, RequestEntry
from .thinking import Thinking
from .views import HUMAN, Snapshot, render, snapshot

__all__ = ["GameService", "GameKey", "Reply", "hash_token", "check_key", "GAME_ID_PATTERN"]

log = logging.getLogger("dizhu.web")

#: Games whose sessions are kept in memory (the least recently used beyond are dropped).
SESSIONS_KEPT = 2048


@dataclass
class Reply:
    """An answer: JSON bytes, status and extra headers."""

    body: bytes
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Write:
    """One write request as the service carries it out: which game, what kind of
    change, the client's body, the change itself and who asked.

    ``since_from_now``: the answer's events start at this write (a move), not at
    the round's start; ``deals``: the write deals a new round, which counts
    against the client's round limit.
    """

    game: GameKey
    kind: str
    request: Step
    change: Callable[[Match, GameRecord], "Awaitable[None] | None"]
    client: str = ""
    since_from_now: bool = False
    deals: bool = False

    @functools.cached_property
    def fingerprint(self) -> str:
        """What a retry with the same request id must repeat exactly."""
        return hashlib.sha256(f"{self.kind}\n{self.request.model_dump_json()}".encode()).hexdigest()


def _bots_to_act(match: Match) -> bool:
    round_ = match.round
    return round_.result is None and round_.to_act != HUMAN


class GameService:
    """Creates games and carries out every API call on them."""

    def __init__(self, settings: Settings, store: AsyncStore, bots: BotRunner,
                 clock: Callable[[], float] = time.time, *, claims: GameClaims | None = None) -> None:
        self.settings = settings
        self.store = store
        self.bots = bots
        self.clock = clock
        # Across hosts sharing a database: which one works on a game (see pg_store.py).
        self.claims: GameClaims = claims or LocalClaims()
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._pace_key = secrets.token_bytes(32)  # the computers' pace jitter: nobody else's to compute
        self._round_limit = TokenBuckets(settings.round_per_minute, settings.round_burst)
        self._read_limit = TokenBuckets(settings.read_per_minute, settings.read_burst)
        self.thinking = Thinking(settings, bots)
        self.hints = Hints(settings, bots, self.thinking)
        self.reviews = Reviews(settings, store, bots)

    def check_room(self, client: str) -> None:
        """429 ``too_busy`` if one more request of ``client`` may not keep computers thinking now
        (thinking.py)."""
        self.thinking.check_room(client)

    # ---- sessions and access

    def _session(self, game_id: str) -> Session:
        session = self._sessions.get(game_id)
        if session is None:
            session = self._sessions[game_id] = Session()
            if len(self._sessions) > SESSIONS_KEPT:
                self._evict()
        else:
            self._sessions.move_to_end(game_id)
        return session

    def _evict(self) -> None:
        for game_id in list(self._sessions)[: len(self._sessions) - SESSIONS_KEPT]:
            if not self._sessions[game_id].lock.locked():
                del self._sessions[game_id]

    async def _open(self, game: GameKey) -> tuple[GameRecord, Session]:
        """The game if its token opens it: 401 without a token, 404 unknown, 403 wrong token."""
        token = check_key(game)
        return authorized(await self.store.load(game.game_id), token), self._session(game.game_id)

    async def _open_for_write(self, game: GameKey,
                              request_id: str) -> tuple[GameRecord, Session, RequestEntry | None]:
        """As :meth:`_open`, with the entry of ``request_id`` if it was seen before (one read)."""
        token = check_key(game)
        record, seen = await self.store.load_for_write(game.game_id, request_id)
        return authorized(record, token), self._session(game.game_id), seen

    @contextlib.asynccontextmanager
    async def _claim(self, game_id: str) -> AsyncIterator[bool]:
        """Hold the game against other hosts (taken under the game's own lock):
        yields False, holding nothing, if another host is working on it."""
        held = await self.claims.claim(game_id)
        try:
            yield held
        finally:
            if held:
                await self.claims.release(game_id)

    def _match(self, session: Session, record: GameRecord) -> Match:
        """The live match at the record's version (under the lock only)."""
        if session.match is None or session.match_version != record.version:
            session.match = load_match(record.state)
            session.match_version = record.version
        return session.match

    def _snapshot(self, session: Session, record: GameRecord) -> Snapshot:
        """The public snapshot of the committed ``record``."""
        if session.snap is not None and session.snap.version == record.version:
            return session.snap
        if session.lock.locked():
            # A write is changing the live match: read the committed state instead.
            return snapshot(load_match(record.state), record.version)
        snap = snapshot(self._match(session, record), record.version)
        session.snap = snap
        return snap

    # ---- committing and the computers' turns

    async def _commit(
        self,
        session: Session,
        record: GameRecord,
        match: Match,
        *,
        request: RequestEntry | None = None,
        answer_since: int | None = None,
    ) -> tuple[GameRecord, Snapshot, bytes | None]:
        """Store ``match`` as the next version.  With ``answer_since`` set, the
        answer (the View from that event) is rendered and stored with it."""
        rounds = match.take_finished()  # finished rounds live in their own table, not in the state
        new = replace(record, version=record.version + 1, state=match.to_json(),
                      pending=_bots_to_act(match), updated_at=self.clock())
        snap = snapshot(match, new.version)
        body = None
        if answer_since is not None:
            body = json_bytes(render(new, snap, answer_since))
            if request is not None:
                request = replace(request, response=body.decode())
        try:
            saved = await self.store.save(new, record.version, rounds=rounds, request=request)
        except BaseException:
            session.forget()  # the live match is ahead of the database: drop it
            raise
        if not saved:
            # Another server changed the game first: ours is out of date.
            session.forget()
            current = await self.store.load(record.game_id)
            raise _stale(current.version if current else record.version)
        session.match_version = new.version
        session.snap = snap
        return new, snap, body

    async def _play_computers(
        self,
        session: Session,
        record: GameRecord,
        match: Match,
        *,
        request: RequestEntry | None = None,
        answer_since: int | None = None,
        client: str = "",
    ) -> tuple[GameRecord, bytes | None]:
        """Let the computers act until the human must act or the round ends,
        then commit their moves, with the answer when ``answer_since`` is set.

        Returns the new record (the same if nobody moved) and the answer.  The
        moves are committed no sooner than the sum of their paces (pacing.py),
        so the answer's timing says nothing of the computers' cards.  A crash
        before the commit loses only moves nobody was told about: the
        computers make them again.
        """
        loop = asyncio.get_running_loop()
        pace = PACES[record.level].scaled(self.settings.pace)
        deadline = loop.time()
        moved = False
        try:
            while _bots_to_act(match):
                seat = match.round.to_act
                observation = match.observation(seat)  # with the earlier rounds: how the others play
                deadline += pace.seconds(self._pace_key, record.game_id, record.version, seat, len(match.round.log))
                seed = f"{record.bot_seed}:{seat}"
                action, fell_back = await self.bots.decide(record.level, record.variant, seed, observation, client,
                                                           pace.think_limit)
                try:
                    match.apply(seat, action)
                except DizhuError:
                    fell_back = True
                    log.error("a computer's action was refused; playing the fallback move")
                    match.apply(seat, fallback_action(record.variant, seed, observation))
                if fell_back:
                    # The id's start names the game for the operator (it opens nothing without the token).
                    log.warning("fallback move in game %s", record.game_id[:8])
                moved = True
            delay = deadline - loop.time()
            if moved and delay > 0:
                await asyncio.sleep(delay)
        except BaseException:
            session.forget()  # the live match holds moves that were never stored
            raise
        if not moved:
            return record, None
        record, _, body = await self._commit(session, record, match, request=request, answer_since=answer_since)
        return record, body

    async def _settle_pending(self, game_id: str, session: Session, record: GameRecord) -> GameRecord:
        """Resume a game left with a computer to act (after a crash or restart)."""
        if not record.pending or session.lock.locked():
            return record
        async with session.lock, self._claim(game_id) as held:
            if not held:
                return record  # another host is finishing this turn
            fresh = await self.store.load(game_id)
            if fresh is None:
                raise unknown_game()
            if fresh.pending:
                log.info("resuming the computers' turn in a game")
                fresh, _ = await self._play_computers(session, fresh, self._match(session, fresh))
            return fresh

    # ---- reads

    async def create(self, request: CreateGame, client: str = "") -> Reply:
        """A new game: dealt, with the computers' opening bids already made."""
        with self.thinking.admit(client):
            return await self._create(request, client)

    async def _create(self, request: CreateGame, client: str) -> Reply:
        variant = request.variant
        if request.deal_code is not None:
            code_variant = parse_deal_code(request.deal_code).name
            if "variant" in request.model_fields_set and code_variant != variant:
                raise ApiError(422, "deal_code_variant", f"this deal code is for {code_variant}, not {variant}",
                               code_variant=code_variant, variant=variant)
            variant = code_variant
        match = Match(variant)
        if request.deal_code is not None:
            match.deal_known(request.deal_code)  # a known deal: the client can work out every hand
        game_id = secrets.token_urlsafe(16)
        token = secrets.token_urlsafe(32)
        now = self.clock()
        record = GameRecord(
            game_id=game_id, token_hash=hash_token(token), variant=variant, level=request.level,
            language=request.language, bot_seed=secrets.token_hex(8), version=1, state=match.to_json(),
            match_no=1, pending=_bots_to_act(match), created_at=now, updated_at=now,
        )
        session = self._session(game_id)
        # Hold the game's lock from the moment it exists: the start-up job that resumes
        # interrupted games must not take this new game's first computer turn as its own.
        async with session.lock, self._claim(game_id):
            await self.store.create(record)
            session.match, session.match_version = match, record.version
            session.snap = snapshot(match, record.version)
            record, _ = await self._play_computers(session, record, match, client=client)
            view = render(record, self._snapshot(session, record), 0)
        body = json_bytes({"game_id": game_id, "token": token, "view": view})
        return Reply(body, status=201)

    async def view(self, game: GameKey, since: int) -> Reply:
        record, session = await self._open(game)
        record = await self._settle_pending(game.game_id, session, record)
        return Reply(json_bytes(render(record, self._snapshot(session, record), since)))

    async def hint(self, game: GameKey, client: str = "", version: int | None = None) -> Reply:
        record, session = await self._open(game)
        record = await self._settle_pending(game.game_id, session, record)
        if version is not None and version != record.version:
            raise _stale(record.version)  # (another tab moved the game on: this one shows the past)
        observation = self._snapshot(session, record).observation
        _check_humans_turn(observation)
        suggestion = await self.hints.suggestion(session, record, observation, client, limited=True)
        shown = {k: suggestion[k] for k in ("action", "cards", "reason", "figures") if k in suggestion}
        return Reply(json_bytes({**shown, "cards": list(suggestion["cards"]),
                                 "alternatives": list(suggestion.get("alternatives", [suggestion]))}))

    async def check(self, game: GameKey, request: Check) -> Reply:
        """Judge the human's action on the committed position without applying it: the
        engine's own verdict, so the page can explain a refusal without a 4xx answer."""
        record, _ = await self._open(game)
        match = load_match(record.state)  # a private copy: nothing here touches the live game
        act = Act(action=request.action, cards=request.cards, version=record.version, request_id="check")
        try:
            match.apply(HUMAN, _human_action(act, record.variant))
        except DizhuError as exc:
            return Reply(json_bytes({"legal": False, "error": engine_error(exc).body()["error"]}))
        except ApiError as exc:
            if exc.status != 422:
                raise
            return Reply(json_bytes({"legal": False, "error": exc.body()["error"]}))
        return Reply(json_bytes({"legal": True, "error": None}))

    async def rounds(self, game: GameKey, offset: int = 0, limit: int = ROUNDS_PAGE,
                     client: str = "", if_none_match: str | None = None) -> Reply:
        await self._open(game)
        game_id = game.game_id
        wait = self._read_limit.wait(client, cost=self.settings.rounds_page_bytes)
        if wait > 0:
            raise limited("too_many_reads", "too many finished rounds read from this address", wait)
        page, total = await self.store.rounds_page(game_id, offset, limit, self.settings.rounds_page_bytes)
        following = offset + len(page)
        if page and page[0]["index"] > offset + 1:
            following = page[0]["index"] - 1 + len(page)  # older rounds were deleted: the page starts later
        body = json_bytes({"rounds": page, "total": total,
                           "next_offset": following if following < total else None})
        # Finished rounds never change: a client that has this page gets a 304 instead of it again.
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
        if matches(etag, if_none_match):
            return Reply(b"", status=304, headers=headers)
        return Reply(body, headers=headers)

    async def review(self, game: GameKey, number: int, client: str = "", *, start: bool = False) -> Reply:
        """The review of finished round ``number`` for the human (reviews.py): started
        when ``start``, else only read."""
        record, session = await self._open(game)
        status, body = await self.reviews.answer(game.game_id, number, self._snapshot(session, record), client,
                                                 start=start)
        return Reply(body, status=status, headers={} if status == 200 else {"Retry-After": "1"})

    async def set_language(self, game: GameKey, language: str) -> Reply:
        record, session = await self._open(game)
        await self.store.set_language(game.game_id, language, self.clock())
        record = replace(record, language=language)
        return Reply(json_bytes(render(record, self._snapshot(session, record), 0)))

    # ---- writes

    async def act(self, game: GameKey, request: Act, client: str = "") -> Reply:
        def apply(match: Match, record: GameRecord) -> None:
            match.apply(HUMAN, _human_action(request, record.variant))

        return await self._write(_Write(game, "act", request, apply, client, since_from_now=True))

    async def autoplay(self, game: GameKey, request: Step, client: str = "") -> Reply:
        session = self._session(game.game_id)

        async def apply(match: Match, record: GameRecord) -> None:
            observation = match.round.observation(HUMAN)
            _check_humans_turn(observation)
            suggestion = await self.hints.suggestion(session, record, observation, client, limited=False)
            action = suggestion["action"]
            if action not in observation["legal_actions"]:
                action = fallback_action(record.variant, "autoplay", observation)
            match.apply(HUMAN, action)

        return await self._write(_Write(game, "autoplay", request, apply, client, since_from_now=True))

    async def another_round(self, game: GameKey, request: Step, client: str = "") -> Reply:
        return await self._write(_Write(game, "another-round", request,
                                        lambda match, record: match.another_round(), client, deals=True))

    async def new_game(self, game: GameKey, request: Step, client: str = "") -> Reply:
        return await self._write(_Write(game, "new-game", request, lambda match, record: match.new_game(),
                                        client, deals=True))

    async def new_match(self, game: GameKey, request: Step, client: str = "") -> Reply:
        def apply(match: Match, record: GameRecord) -> None:
            match.new_match()
            record.match_no += 1

        return await self._write(_Write(game, "new-match", request, apply, client, deals=True))

    async def _write(self, write: _Write) -> Reply:
        """Carry out one write (see the module's docstring for the steps)."""
        with self.thinking.admit(write.client):
            return await self._write_admitted(write)

    async def _write_admitted(self, write: _Write) -> Reply:
        record, session, seen = await self._open_for_write(write.game, write.request.request_id)
        game_id = write.game.game_id
        request_id = write.request.request_id
        if session.lock.locked():
            inflight = session.inflight
            if inflight is not None and inflight.request_id == request_id:
                _check_fingerprint(inflight.fingerprint, write.fingerprint)
                return await self._await_first(inflight.future)  # a double tap: the first one's answer
            raise _busy()
        async with session.lock, self._claim(game_id) as held:
            if not held:
                raise _busy()  # another host is answering a write of this game
            future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
            session.inflight = InFlight(request_id, write.fingerprint, future)
            try:
                if session.match_version > record.version or self.claims.shared:
                    # This server (or, on a shared database, another host before our claim)
                    # committed a newer version since our read: read again.
                    record, seen = await self.store.load_for_write(game_id, request_id)
                    if record is None:
                        raise unknown_game()
                reply = await self._write_locked(session, record, seen, write)
            except asyncio.CancelledError:
                future.cancel()
                raise
            except BaseException as exc:
                future.set_exception(exc)
                future.exception()  # marks it retrieved: nobody else may be waiting
                raise
            else:
                future.set_result(reply)
                return reply
            finally:
                session.inflight = None

    @staticmethod
    async def _await_first(future: "asyncio.Future[Reply]") -> Reply:
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            if future.cancelled():  # the first request was dropped, not this one
                raise _busy() from None
            raise

    async def _write_locked(self, session: Session, record: GameRecord, seen: RequestEntry | None,
                            write: _Write) -> Reply:
        # `record` may be older than the database if another server wrote meanwhile; then
        # the compare-and-swap of the commit refuses our write (409 stale).
        if seen is not None:
            _check_fingerprint(seen.fingerprint, write.fingerprint)
            if seen.response is not None:
                return Reply(seen.response.encode())
            # Applied, but the server stopped before it answered: finish and answer now.
            match = self._match(session, record)
            record, body = await self._play_computers(session, record, match, request=seen,
                                                      answer_since=seen.since, client=write.client)
            if body is not None:
                return Reply(body)
            # The computers' turn was already finished (at start-up): just answer.
            body = json_bytes(render(record, snapshot(match, record.version), seen.since))
            await self.store.save(record, record.version, request=replace(seen, response=body.decode()))
            return Reply(body)
        if record.pending:
            record, _ = await self._play_computers(session, record, self._match(session, record), client=write.client)
        if write.request.version != record.version:
            raise _stale(record.version)
        if record.level in DEEP_LEVELS:
            self.thinking.check_share(write.client)
        if write.deals:
            wait = self._round_limit.wait(write.client)
            if wait > 0:
                raise limited("too_many_rounds", "too many new rounds from this address", wait)
        match = self._match(session, record)
        since = len(match.round.log) if write.since_from_now else 0
        if write.request.since is not None:
            since = write.request.since
        record = replace(record)  # `change` may edit it (new match)
        try:
            outcome = write.change(match, record)
            if asyncio.iscoroutine(outcome):
                await outcome
        except (DizhuError, ApiError) as exc:  # refused before anything changed
            if write.deals:
                self._round_limit.refund(write.client)  # no round was dealt
            if isinstance(exc, ApiError):
                raise
            raise engine_error(exc) from None
        except BaseException:
            session.forget()  # the live match may be half-changed: reload it next time
            raise
        entry = RequestEntry(write.request.request_id, write.fingerprint, since, None, self.clock())
        try:
            if not _bots_to_act(match):
                _, _, body = await self._commit(session, record, match, request=entry, answer_since=since)
                return Reply(body)
            # The human's move is stored before the computers think.
            record, _, _ = await self._commit(session, record, match, request=entry)
        except BaseException:
            if write.deals:  # dealt in memory, never stored (409 stale, a database error): no round
                self._round_limit.refund(write.client)
            raise
        _, body = await self._play_computers(session, record, match, request=entry, answer_since=since,
                                             client=write.client)
        return Reply(body)

    # ---- background work

    async def resume_pending(self) -> int:
        """At start-up: let the computers finish their turns in games a crash interrupted."""
        game_ids = await self.store.pending_games()
        for game_id in game_ids:
            record = await self.store.load(game_id)
            if record is not None:
                try:
                    await self._settle_pending(game_id, self._session(game_id), record)
                except Exception as exc:  # noqa: BLE001 - one broken game must not stop the others
                    log_failure(log, "could not resume a game", exc)
        return len(game_ids)

    async def prune(self) -> int:
        """Delete games untouched for longer than the retention."""
        removed = await self.store.prune(self.clock() - self.settings.retention_seconds)
        if removed:
            log.info("pruned %d old games", removed)
        return removed


def _human_action(request: Act, variant: str) -> Action:
    """The human's action, with exactly the chosen cards when ``cards`` is given."""
    action = Action.parse(request.action, variant)
    if request.cards is None or (not request.cards and action.kind != "play"):
        return action  # a pass or a bid holds no cards: the hint's `"cards": []` is sent on as it is
    if action.kind != "play":
        raise ApiError(422, "cards_mismatch", f"cards are only sent with a play, not with {action.text!r}",
                       action=action.text)
    chosen = Action.play([Card.from_id(i) for i in request.cards], variant)
    if chosen.text != action.text:
        raise ApiError(422, "cards_mismatch", f"the chosen cards make {chosen.text[5:]}, not {action.text[5:]}",
                       action=action.text, cards=chosen.text[5:])
    return chosen


def _check_humans_turn(observation: dict[str, Any]) -> None:
    if observation["phase"] == "over":
        raise engine_error(IllegalAction("round_over"))
    if observation["to_act"] != HUMAN:
        raise engine_error(IllegalAction("not_your_turn", seat=HUMAN, to_act=observation["to_act"]))


def _check_fingerprint(seen: str, now: str) -> None:
    if not hmac.compare_digest(seen, now):
        raise ApiError(422, "request_id_reused",
                       "this request_id was already used for a different request; make a new one")


def _stale(current: int) -> ApiError:
    return ApiError(409, "stale", "the game has moved on since this view; reload it", version=current)


def _busy() -> ApiError:
    return ApiError(429, "busy", "the game is still answering another request", headers={"Retry-After": "1"})

