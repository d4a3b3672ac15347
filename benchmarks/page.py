"""Page weight and time to a playable table, on a loopback `dizhu serve`, in Debian's Chromium.

For each language: the bytes on the wire for a first visit (HTML, JS, CSS, dictionaries, icons:
every response's encoded size with its headers, as Chromium's network log counts them), the
requests, the bytes and requests of a repeat visit, and the times from navigation to a ready
start screen and to the player's first turn of a new game; then the same first visit with the
network throttled like Lighthouse's Slow 4G (150 ms round trip, 1.6 Mbit/s down, 0.75 up).
Medians of --runs fresh browser contexts.

"Ready" is timed twice: by the page (performance.now() when <body> gets data-ready, counted
from the navigation's start) and by this script's clock around Playwright's calls, which adds
the round trips between the two processes (large on a loaded machine).

    .venv/bin/python benchmarks/page.py --runs 5
    .venv/bin/python benchmarks/page.py --src /tmp/base/src   # a peer: another tree's server
    .venv/bin/python benchmarks/page.py --waves --languages en  # one Slow-4G visit's requests

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
# Notes, in the page's own clock, the moment <body> first has data-ready.
READY_MARK = """new MutationObserver((_, observer) => {
  if (document.body && document.body.dataset.ready) { window.__readyAt = performance.now(); observer.disconnect(); }
}).observe(document, { attributes: true, subtree: true, childList: true });"""


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
        self.timeline: dict[str, dict] = {}  # request id: url, priority, sent, first byte, done
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.responseReceived", lambda e: self._note(e, "first_byte"))
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.requestServedFromCache", lambda _: self._cached())

    def _sent(self, event: dict) -> None:
        self.timeline.setdefault(event["requestId"], {
            "url": event["request"]["url"], "priority": event["request"].get("initialPriority", ""),
            "sent": event["timestamp"]})

    def _note(self, event: dict, key: str) -> None:
        if event["requestId"] in self.timeline:
            self.timeline[event["requestId"]][key] = event["timestamp"]

    def _finished(self, event: dict) -> None:
        self.bytes += int(event.get("encodedDataLength", 0))
        self.requests += 1
        self._note(event, "done")
        if event["requestId"] in self.timeline:
            self.timeline[event["requestId"]]["bytes"] = int(event.get("encodedDataLength", 0))

    def waves(self) -> list[str]:
        """One line per request: ms from the first request to its sending, first byte and end."""
        start = min(r["sent"] for r in self.timeline.values())
        ms = lambda r, key: (r.get(key, start) - start) * 1000  # noqa: E731
        return [f"    {ms(r, 'sent'):6.0f} {ms(r, 'first_byte'):6.0f} {ms(r, 'done'):6.0f} ms "
                f"{r.get('bytes', 0):6d} B  {r['priority']:<8} {r['url'].split('/', 5)[-1] or '/'}"
                for r in sorted(self.timeline.values(), key=lambda r: r["sent"])]

    def _cached(self) -> None:
        self.from_cache += 1

    def reset(self) -> None:
        self.bytes = self.requests = self.from_cache = 0

    def throttle(self, conditions: dict) -> None:
        self.cdp.send("Network.emulateNetworkConditions", conditions)


def one_visit(browser: Any, url: str, locale: str, throttled: bool, waves: bool = False) -> dict[str, float]:
    context = browser.new_context(locale=locale, viewport={"width": 390, "height": 844})
    context.add_init_script("try { localStorage.setItem('dizhu.setting.speed', '0'); } catch (e) {}")
    context.add_init_script(READY_MARK)
    page = context.new_page()
    wire = Wire(page)
    if throttled:
        wire.throttle(SLOW_4G)
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("body[data-ready]", timeout=60_000)
    ready = time.perf_counter() - started
    page.wait_for_load_state("networkidle")
    result = {"ready_s": ready, "page_ready_s": page.evaluate("window.__readyAt") / 1000,
              "first_bytes": wire.bytes, "first_requests": wire.requests}
    if waves:
        print("\n".join(["    sent  first    end        size  priority (ms from the first request)"] + wire.waves()))
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
    parser.add_argument("--waves", action="store_true", help="print one Slow-4G first visit's requests, per language")
    args = parser.parse_args()
    if args.src:
        os.environ["PYTHONPATH"] = str(Path(args.src).resolve())
    with served_chromium() as (browser, url):
        print(f"page weight and time to playable ({args.runs} runs, medians), server from "
              f"{args.src or 'this tree'}")
        one_visit(browser, url, LOCALES["en"], False)  # the server compresses its files on the first load
        for code in args.languages.split(","):
            if args.waves:
                print(f"  {code}: one Slow-4G first visit")
                one_visit(browser, url, LOCALES[code], True, waves=True)
            runs = [one_visit(browser, url, LOCALES[code], False) for _ in range(args.runs)]
            slow = [one_visit(browser, url, LOCALES[code], True) for _ in range(args.runs)]
            med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
            slow_page = sorted(round(r["page_ready_s"] * 1000) for r in slow)
            print(f"  {code:<8} first load {med['first_bytes'] / 1024:6.1f} KiB in {med['first_requests']:.0f} "
                  f"requests; repeat visit {med['repeat_bytes'] / 1024:5.1f} KiB in "
                  f"{med['repeat_requests']:.0f} requests to the network; ready "
                  f"{med['page_ready_s'] * 1000:5.0f} ms (script's clock {med['ready_s'] * 1000:5.0f}), "
                  f"playable {med['playable_s'] * 1000:5.0f} ms; Slow 4G ready "
                  f"{statistics.median(slow_page):5.0f} ms (runs {slow_page}; script's clock "
                  f"{statistics.median(r['ready_s'] for r in slow) * 1000:5.0f})")


if __name__ == "__main__":
    main()
