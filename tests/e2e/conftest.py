"""Browser tests: Playwright drives Debian's Chromium against a real `dizhu serve`.

The server runs as a subprocess on a free port with a temporary data
directory; each test gets a fresh browser context (its own localStorage).
Tests wait on UI state exposed as attributes of <body> (data-ready,
data-screen, data-phase, data-turn, data-progress), never on fixed sleeps.
Screenshots go to artifacts/screenshots/ (gitignored).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from .e2e_support import CHROMIUM, CHROMIUM_ARGS, DESKTOP, ROOT, Table


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="package")
def server(tmp_path_factory) -> Iterator[str]:
    """A real `dizhu serve` on a free port; yields its base URL."""
    data = tmp_path_factory.mktemp("dizhu-data")
    port = _free_port()
    log = open(data / "server.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "dizhu.cli", "serve", "--port", str(port), "--data-dir", str(data),
         "--workers", "1", "--no-access-log", "--log-level", "warning",
         # Every test's browser comes from this one address: the per-address limits on new games and
         # rounds would add up across the package; and the tables' helpers answer each play through
         # the hint at machine speed, past a game's hint limit within a few rounds (all three are
         # tested through the API).
         "--create-limit", "0", "--round-limit", "0", "--hint-limit", "0", "--request-limit", "0",
         # the helpers' hints at once too (the pace of hints is tested through the API)
         "--hint-pace", "0",
         # Reviews at a small budget: the browser test checks the review's screens, not its depth.
         "--review-limit", "0", "--review-budget", "0.02"],
        stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/health", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"dizhu serve did not start: {(data / 'server.log').read_text()}")
        time.sleep(0.1)
    yield url
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


# Package scope, not session: Playwright's sync API keeps an event loop running
# in this thread while it is open, which would break later asyncio-based tests.
@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (scripts/test does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def make_table(browser, server):
    """Factory: a fresh context (own storage) with the given viewport and locale."""
    contexts = []
    tables: list[Table] = []

    def make(viewport: dict[str, int] = DESKTOP, locale: str = "en-US", speed: int = 0) -> Table:
        scale = 2 if viewport["width"] < 800 else 1
        context = browser.new_context(viewport=viewport, locale=locale, device_scale_factor=scale,
                                      has_touch=viewport["width"] < 800)
        # Computers' moves are shown at once (the thinking pause is a setting).
        context.add_init_script(f"try {{ if (!localStorage.getItem('dizhu.setting.speed')) "
                                f"localStorage.setItem('dizhu.setting.speed', '{speed}'); }} catch (e) {{}}")
        # The first game's guide is a modal dialog: the tests of other things start past it
        # (test_features.py clears this to see it).
        context.add_init_script("try { if (!localStorage.getItem('dizhu.setting.coachSeen')) "
                                "localStorage.setItem('dizhu.setting.coachSeen', 'true'); } catch (e) {}")
        contexts.append(context)
        table = Table(context.new_page(), server)
        tables.append(table)
        return table

    yield make
    for table in tables:
        # Any console error fails the test: a CSP violation, a script error, and
        # a failed request too (an expected refusal, such as an illegal play, is
        # explained by the page without an error status).
        assert not table.errors, f"browser errors: {table.errors}"
    for context in contexts:
        context.close()
