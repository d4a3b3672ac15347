"""Helpers for the browser tests: constants, translations and the Table driver.

A module with a unique name (not conftest) so that importing it can never
pick up another directory's conftest.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("DIZHU_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
I18N = ROOT / "src" / "dizhu" / "web" / "static" / "i18n"

PHONE_PORTRAIT = {"width": 360, "height": 640}
PHONE_LANDSCAPE = {"width": 740, "height": 360}
DESKTOP = {"width": 1280, "height": 800}

# Generous: normal-level computers answer in milliseconds, but CI machines vary.
TURN_TIMEOUT = 30_000


def module(name: str) -> str:
    """A JavaScript expression importing the page's own copy of js/<name> (from its versioned prefix)."""
    return f"import(new URL('{name}', document.querySelector('script[type=module]').src))"


def deal_where_i_bid_first(variant: str = "classic", first: int = 0) -> str:
    """A fixed deal code whose first bidder is the player (seat 0; or ``first``): bidding 3 (or
    calling, in the duel) at once makes them the landlord, to lead. Tests start from it rather
    than from a random deal whose first turn may offer a single legal play."""
    from dizhu.game.deal import deal_cards

    return next(code for code in (f"{variant}-e2e-{n}" for n in range(100)) if deal_cards(code).first == first)


def translations(language: str) -> dict[str, str]:
    """A language's words: its first load's dictionary and the parts of the screens loaded later."""
    words = json.loads((I18N / f"{language}.json").read_text(encoding="utf-8"))
    for part in sorted(I18N.glob(f"*/{language}.json")):
        words.update(json.loads(part.read_text(encoding="utf-8")))
    return words


class Table:
    """The page plus the few UI gestures the tests need, all through the UI."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.url = url
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)

    # ---- navigation and waiting

    def open(self) -> "Table":
        self.page.goto(self.url)
        self.page.wait_for_selector("body[data-ready]")
        return self

    def reload(self) -> None:
        self.page.reload()
        self.page.wait_for_selector("body[data-ready]")

    def wait(self, selector: str, timeout: int = TURN_TIMEOUT) -> None:
        self.page.wait_for_selector(selector, timeout=timeout)

    def wait_turn_or_over(self) -> str:
        """Wait until the player must act or the round is over; returns the phase."""
        self.wait("body[data-turn=me], body[data-phase=over]")
        return self.page.get_attribute("body", "data-phase")

    def start(self, variant: str = "classic", level: str = "normal") -> None:
        self.wait("body[data-screen=start]")
        self.page.check(f"input[name=variant][value={variant}]")
        self.page.check(f"input[name=level][value={level}]")
        self.page.click("#start-btn")
        self.wait("body[data-screen=table]")

    def start_deal(self, code: str, level: str = "normal") -> None:
        """Start the deal ``code`` from the start screen's deal form."""
        self.wait("body[data-screen=start]")
        self.page.check(f"input[name=level][value={level}]")
        self.page.fill("#deal-input", code)
        self.page.click("#deal-btn")
        self.wait("body[data-screen=table]")

    def shot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path

    # ---- reading the table

    def visible(self, ctl: str) -> bool:
        return self.page.is_visible(f"[data-ctl={ctl}]")

    def hand_ids(self) -> list[int]:
        return [int(x) for x in self.page.eval_on_selector_all("#hand .hcard", "els => els.map(e => e.dataset.id)")]

    def selected_ids(self) -> list[int]:
        return [int(x) for x in self.page.eval_on_selector_all(
            "#hand .hcard[aria-selected=true]", "els => els.map(e => e.dataset.id)")]

    def zone_ids(self, seat: int) -> list[int]:
        return [int(x) for x in self.page.eval_on_selector_all(
            f"#zone-{seat} .play-row .card", "els => els.map(e => e.dataset.id)")]

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector)

    # ---- acting

    def settle_hand(self) -> None:
        """Wait until the hand's cards stand still (the deal flies them in)."""
        self.wait("#hand:not(.deal)")
        self.page.evaluate("""() => Promise.all([...document.querySelectorAll('#hand .hcard')]
          .flatMap((el) => el.getAnimations().map((a) => a.finished.catch(() => null))))""")

    def click_card(self, card_id: int) -> None:
        """Tap a card where it is visible (its left strip, near the top)."""
        self.settle_hand()
        box = self.page.locator(f"#hand .hcard[data-id='{card_id}']").bounding_box()
        self.page.mouse.click(box["x"] + 6, box["y"] + 10)

    def auto_play(self, interval_ms: int = 500) -> None:
        """Set auto-play's interval and turn it on, through its controls."""
        self.page.select_option("[data-ctl=interval]", str(interval_ms))
        self.page.click("[data-ctl=auto]")

    def bid_quickly(self, variant: str, rob: bool = False) -> None:
        """Settle the bidding fast: take the landlord at once when offered (in the duel, with
        ``rob``, also by robbing it)."""
        order = ["bid-bid-3", "bid-bid-2", "bid-bid-1", "bid-pass"] if variant == "classic" else \
            ["bid-call", *(["bid-rob"] if rob else []), "bid-pass"]
        for ctl in order:
            if self.visible(ctl):
                self.page.click(f"[data-ctl={ctl}]")
                return
        raise AssertionError("no bidding button is offered")

    def play_turn(self) -> None:
        """One turn of play through the UI: lead the lowest card, else follow the hint."""
        if not self.visible("pass"):
            # Leading: a single card is always legal.
            self.click_card(self.hand_ids()[0])
            self.page.click("[data-ctl=play]")
            return
        self.page.click("[data-ctl=hint]")
        self.wait("#status.hint")
        if self.selected_ids():
            self.page.click("[data-ctl=play]")
        else:
            self.page.click("[data-ctl=pass]")

    def play_round(self, variant: str, limit: int = 200) -> None:
        """Play the round to its settlement using only the buttons and cards."""
        for _ in range(limit):
            phase = self.wait_turn_or_over()
            if phase == "over":
                self.wait("#settle-dialog[open]")
                return
            with self.progressing():
                if phase == "bidding":
                    self.bid_quickly(variant)
                else:
                    self.play_turn()
        raise AssertionError("the round did not end")

    def progress(self) -> str:
        return self.page.get_attribute("body", "data-progress") or ""

    @contextlib.contextmanager
    def progressing(self):
        """Around an action: afterwards, wait until the table has moved on."""
        before = self.progress()
        yield
        self.wait(f'body:not([data-progress="{before}"])')

    def to_my_play_turn(self, variant: str = "classic") -> None:
        """Bid through to the playing phase and wait for the player's turn."""
        for _ in range(50):
            phase = self.wait_turn_or_over()
            if phase == "playing":
                return
            if phase == "over":
                raise AssertionError("round ended before the player could play")
            with self.progressing():
                self.bid_quickly(variant)
        raise AssertionError("never reached the playing phase")

    def another_round(self) -> None:
        """Press "Another round" on the settlement sheet and wait for the new deal."""
        round_number = int(self.progress().split(":")[0])
        self.page.click("[data-ctl=another-round]")
        self.wait(f"body[data-progress^='{round_number + 1}:']")  # the stamp starts with the round

    def new_game_from_menu(self) -> None:
        self.page.click("#menu-btn")
        self.page.click("#menu-new-game")
        if self.page.is_visible("#confirm-dialog[open]"):
            self.page.click("#confirm-yes")


# What a player taps: buttons, selects, inputs (a check box or radio by its whole label), links, and
# the summaries that open a disclosure.
# In the page: how many of ``els`` sit on each row (by their top, to the pixel).
ROW_SIZES = """(els) => {
  const rows = {};
  for (const el of els) { const top = Math.round(el.getBoundingClientRect().top); rows[top] = (rows[top] || 0) + 1; }
  return Object.values(rows);
}"""

# In the page: how many lines the text of ``el`` takes.
# What holds the keyboard: its id, else its control's name (data-ctl), else its card's or puzzle's
# id, else its tag ("BODY": nothing).
FOCUSED = "() => { const el = document.activeElement; return el.id || el.dataset.ctl || el.dataset.id || el.tagName; }"

TEXT_LINES = """(el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""

# In the page: the lines of the text of ``el``, as strings (a character within 6 px of a line's
# middle is on it; characters without width, such as spaces at a break, are left out).
LINES_OF = """(el) => {
  const lines = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    for (let i = 0; i < node.textContent.length; i += 1) {
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
      const r = range.getBoundingClientRect();
      if (!r.width) continue;
      const middle = (r.top + r.bottom) / 2;
      const line = lines.find((l) => Math.abs(l.middle - middle) < 6);
      if (line) line.text += node.textContent[i]; else lines.push({middle, text: node.textContent[i]});
    }
  }
  return lines.sort((a, b) => a.middle - b.middle).map((l) => l.text);
}"""

SMALL_TARGETS = """(minimum) => {
  const modal = [...document.querySelectorAll('dialog[open]')].pop();
  return [...document.querySelectorAll('button, select, input, a[href], summary')]
    .filter((el) => el.getClientRects().length && (!modal || modal.contains(el)) && !el.closest('[hidden]'))
    .map((el) => (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) || el)
    .map((el) => { const r = el.getBoundingClientRect();
      return {what: el.id || el.dataset.ctl || el.className || el.tagName, w: Math.round(r.width), h: Math.round(r.height)}; })
    .filter((b) => b.w < minimum || b.h < minimum);
}"""


def assert_big_enough(table, state: str) -> None:
    minimum = 44 if table.page.viewport_size["width"] < 1000 else 24  # WCAG 2.5.5 on touch screens
    small = table.page.evaluate(SMALL_TARGETS, minimum)
    assert not small, (state, minimum, small)
