"""Helpers for the game server's tests: games driven through the API, async clients, gated bots."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")  # see conftest.py

import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from dizhu.game import Match, Round, deal_cards  # noqa: E402
from dizhu.web import Settings, create_app  # noqa: E402
from dizhu.web.botpool import BotRunner  # noqa: E402

_ids = itertools.count()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Game:
    """A game created through the API, with shortcuts for its calls."""

    def __init__(self, client: TestClient, created: dict[str, Any]) -> None:
        self.client = client
        self.id = created["game_id"]
        self.token = created["token"]
        self.view = created["view"]

    @property
    def headers(self) -> dict[str, str]:
        return auth(self.token)

    @property
    def obs(self) -> dict[str, Any]:
        return self.view["observation"]

    def get(self, since: int = 0):
        return self.client.get(f"/api/games/{self.id}", params={"since": since}, headers=self.headers)

    def refresh(self) -> dict[str, Any]:
        response = self.get()
        assert response.status_code == 200, response.text
        self.view = response.json()
        return self.view

    def post(self, path: str, body: Any = None, **kwargs: Any):
        return self.client.post(f"/api/games/{self.id}/{path}", json=body, headers=self.headers, **kwargs)

    def write(self, path: str, **body: Any):
        """A write at the current version with a fresh request id."""
        body.setdefault("version", self.view["version"])
        body.setdefault("request_id", f"r{next(_ids)}")
        response = self.post(path, body)
        if response.status_code == 200:
            self.view = response.json()
        return response

    def act(self, action: str, **body: Any):
        return self.write("act", action=action, **body)

    def play_out(self, limit: int = 400) -> dict[str, Any]:
        """Play the round to its end with the first legal action each time."""
        for _ in range(limit):
            if self.obs["phase"] == "over":
                return self.view
            response = self.act(self.obs["legal_actions"][0])
            assert response.status_code == 200, response.text
        raise AssertionError("the round did not end")


def code_with_first_bidder(seat: int, variant: str = "classic") -> str:
    """A fixed deal code whose first bidder is ``seat``."""
    return next(code for n in range(100) if deal_cards(code := f"{variant}-pool{n}", 0).first == seat)


def new_game(client: TestClient, **body: Any) -> Game:
    body.setdefault("level", "normal")
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return Game(client, response.json())


def service_of(client: TestClient):
    return client.app.state.service


def install_round(client: TestClient, game: Game, round_: Round, totals: list[int] | None = None) -> None:
    """Test back door: replace the game's current round with ``round_`` (a new version)."""
    service = service_of(client)

    async def swap() -> None:
        record = await service.store.load(game.id)
        match = Match.from_json(record.state)
        match.round = round_
        if totals is not None:
            match.totals = list(totals)
        new = replace(record, version=record.version + 1, state=match.to_json(),
                      pending=round_.result is None and round_.to_act != 0)
        assert await service.store.save(new, record.version)
        service._sessions.pop(game.id, None)

    client.portal.call(swap)
    game.refresh()


def stored_state(client: TestClient, game_id: str) -> str:
    service = service_of(client)
    return client.portal.call(service.store.load, game_id).state




# ---- asynchronous clients, for concurrency


@contextlib.asynccontextmanager
async def async_client(settings: Settings, **app_kwargs: Any):
    """An httpx.AsyncClient on a fresh app whose lifespan runs around it."""
    app = create_app(settings, **app_kwargs)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            c.app = app  # type: ignore[attr-defined]
            yield c


class GatedBots(BotRunner):
    """Bots on threads whose every decision first waits for ``gate`` to open."""

    def __init__(self) -> None:
        super().__init__(0, None, 30.0)
        self.gate = asyncio.Event()
        self.waiting = asyncio.Event()
        self.decisions = 0

    async def decide(self, *args: Any, **kwargs: Any):
        self.waiting.set()
        await self.gate.wait()
        self.decisions += 1
        return await super().decide(*args, **kwargs)


# ---- a real `dizhu serve` in a subprocess


def dizhu_serve(port: int, data_dir: Path, log: Path, extra: Sequence[str] = ()) -> subprocess.Popen:
    """A server whose per-client limits on games and requests are off (a test sends at machine speed
    from one address); a test of those limits turns them on in ``extra``, which comes last."""
    script = Path(sys.executable).parent / "dizhu"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "dizhu.cli"]
    command += ["serve", "--port", str(port), "--data-dir", str(data_dir), "--workers", "1",
                "--log-level", "warning", "--no-access-log", "--create-limit", "0", "--request-limit", "0", *extra]
    return subprocess.Popen(command, stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, data_dir: Path, log: Path, extra: Sequence[str] = ()) -> None:
        self.port = free_port()
        self.process = dizhu_serve(self.port, data_dir, log, extra)
        self.url = f"http://127.0.0.1:{self.port}"
        self.http = httpx.Client(base_url=self.url, timeout=10)
        deadline = time.monotonic() + 30
        while True:
            assert self.process.poll() is None, log.read_text()
            try:
                if self.http.get("/api/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def children(self) -> list[int]:
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:
                found.append(int(stat.parent.name))
        return found

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.http.close()

    def stop(self) -> None:
        self.http.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
