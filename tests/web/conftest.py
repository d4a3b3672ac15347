"""Fixtures for the game server's tests: a fresh app per test (see support.py for helpers)."""

from __future__ import annotations

from typing import Iterator

import pytest
from fastapi.testclient import TestClient

from dizhu.web import Settings, create_app

from . import support  # noqa: F401 - sets the warning filters first


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(data_dir=tmp_path / "data", workers=0, prune_every=3600)


@pytest.fixture
def client(settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c
