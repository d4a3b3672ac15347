"""Page weight and time to a playable table, on a loopback `dizhu serve`, in Debian's Chromium.

For each language: the bytes on the wire for a first visit (HTML, JS, CSS, dictionaries, icons:
every response's encoded size with its headers, as Chromium's network log counts them), the
requests, the bytes and requests of a repeat visit, and the times from navigation to a ready
start screen and to the player's first turn of a new game; then the same first visit with the
network throttled like Lighthouse's Slow 4G (150 ms round trip, 1.6 Mbit/s down, 0.75 up).
Medians of --runs fresh browser contexts.

    .venv/bin/python benchmarks/page.py --runs 5
    .venv/bin/python benchmarks/page.py --src /tmp/base/src   # a peer: another tree's server

``--src`` runs the server from another source tree (for instance ``git archive <commit> src``
unpacked somewhere), so two versions are measured side by side on the same machine.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))
from served import start_server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SLOW_4G = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 0.75e6 / 8}
LOCALES = {"en": "en-US", "ja": "ja-JP", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW"}


@contextlib.contextmanager
def served_chromium() -> Iterator[tuple[Any, str]]:
    """Debian's Chromium (through Playwright) and the URL of a fresh loopback `dizhu serve`."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data:
        server, url = start_server(Path(data), ["--workers", "1", "--create-limit", "0", "--round-limit", "0"])
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                yield browser, url
                browser.close()
        finally:
            server.terminate()
            server.wait(10)


class Wire:
    """Counts the bytes and requests Chromium's network log sees on one page."""

    def __init__(self, page: Any) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.bytes = 0
        self.requests = 0
        self.from_cache = 0
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.requestServedFromCache", lambda _: self._cached())

    def _finished(self, event: dict) -> None:
        self.bytes += int(event.get("encodedDataLength", 0))
        self.requests += 1

    def _cached(self) -> None:
        self.from_cache += 1

    def reset(self) -> None:
        self.bytes = self.requests = self.from_cache = 0

    def throttle(self, conditions: dict) -> None:
        self.cdp.send("Network.emulateNetworkConditions", conditions)


def one_visit(browser: Any, url: str, locale: str, throttled: bool) -> dict[str, float]:
    context = browser.new_context(locale=locale, viewport={"width": 390, "height": 844})
    context.add_init_script("try { localStorage.setItem('dizhu.setting.speed', '0'); } catch (e) {}")
    page = context.new_page()
    wire = Wire(page)
    if throttled:
        wire.throttle(SLOW_4G)
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("body[data-ready]", timeout=60_000)
    ready = time.perf_counter() - started
    page.wait_for_load_state("networkidle")
    result = {"ready_s": ready, "first_bytes": wire.bytes, "first_requests": wire.requests}
    if not throttled:
        page.click("#start-btn")
        page.wait_for_selector("body[data-screen=table][data-turn=me], body[data-phase=over]", timeout=60_000)
        result["playable_s"] = time.perf_counter() - started
        wire.reset()
        page.goto(url)  # a repeat visit: the resumed table
        page.wait_for_selector("body[data-ready]", timeout=60_000)
        page.wait_for_load_state("networkidle")
        result["repeat_bytes"] = wire.bytes
        result["repeat_requests"] = wire.requests - wire.from_cache
    context.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--languages", default="en,ja,zh-Hans,zh-Hant")
    parser.add_argument("--src", help="run the server from this source tree (a peer)")
    args = parser.parse_args()
    if args.src:
        os.environ["PYTHONPATH"] = str(Path(args.src).resolve())
    with served_chromium() as (browser, url):
        print(f"page weight and time to playable ({args.runs} runs, medians), server from "
              f"{args.src or 'this tree'}")
        for code in args.languages.split(","):
            runs = [one_visit(browser, url, LOCALES[code], False) for _ in range(args.runs)]
            slow = [one_visit(browser, url, LOCALES[code], True) for _ in range(args.runs)]
            med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
            print(f"  {code:<8} first load {med['first_bytes'] / 1024:6.1f} KB in {med['first_requests']:.0f} "
                  f"requests; repeat visit {med['repeat_bytes'] / 1024:5.1f} KB in "
                  f"{med['repeat_requests']:.0f} requests to the network; ready "
                  f"{med['ready_s'] * 1000:5.0f} ms, playable {med['playable_s'] * 1000:5.0f} ms; "
                  f"Slow 4G ready {statistics.median(r['ready_s'] for r in slow) * 1000:5.0f} ms")


if __name__ == "__main__":
    main()
