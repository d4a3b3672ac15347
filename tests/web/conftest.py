"""Fixtures for the game server's tests: a fresh app per test (see support.py for helpers)."""

from __future__ import annotations

import warnings
from typing import Iterator

# Starlette suggests another HTTP client package for its test client; httpx is what we install.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

import pytest  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from dizhu.web import Settings, create_app  # noqa: E402


@pytest.fixture(autouse=True)
def in_process_host_names(monkeypatch):
    """The in-process clients' own host names (Starlette's ``testserver``, httpx's ``test``) are
    served as loopback names are; a real server in these tests is reached on 127.0.0.1."""
    from dizhu.web import guard

    monkeypatch.setattr(guard, "LOOPBACK_NAMES", guard.LOOPBACK_NAMES | {"testserver", "test"})


@pytest.fixture
def settings(tmp_path) -> Settings:
    # hints at once: what the pace of hints hides is tested with it on (test_guard.py)
    return Settings(data_dir=tmp_path / "data", workers=0, prune_every=3600, hint_pace=0.0)


@pytest.fixture
def client(settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c


# ---- PostgreSQL (see pg_support.py): one throwaway server per test session, a fresh database per test


@pytest.fixture(scope="session")
def postgres_server():
    from .pg_support import TempPostgres, missing, unavailable_reason

    reason = unavailable_reason()
    if reason is not None:
        missing(reason)  # fails in CI: never a silent skip there
    server = TempPostgres()
    yield server
    server.stop()


@pytest.fixture
def pg_url(postgres_server) -> Iterator[str]:
    url = postgres_server.new_database()
    yield url
    postgres_server.drop_database(url)
