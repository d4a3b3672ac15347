"""Accessibility: axe-core finds nothing in any state of the page, at desktop and phone sizes.

axe-core comes from PyPI inside axe-playwright-python (its axe.min.js); it is run in the page
through Playwright's evaluate, which the page's Content-Security-Policy does not govern.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .e2e_support import Table

AXE = Path(__import__("axe_playwright_python").__file__).with_name("axe.min.js")

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def violations(table: Table, state: str) -> list[str]:
    """axe-core's violations on the page as it is now, one line each."""
    page = table.page
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))")
    return [f"{state}: {v['id']} ({v['impact']}) at {v['nodes']}" for v in found]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_axe_finds_nothing_in_any_state(make_table, size):
    table = make_table(SIZES[size]).open()
    page = table.page
    found = violations(table, "start")
    table.start("classic")
    table.wait_turn_or_over()
    found += violations(table, f"table {page.get_attribute('body', 'data-phase')}")
    page.click("#menu-btn")
    table.wait("#menu-dialog[open]")
    found += violations(table, "menu")
    page.keyboard.press("Escape")
    page.click("#rules-btn")
    table.wait("#rules-dialog[open]")
    found += violations(table, "rules")
    page.keyboard.press("Escape")
    table.to_my_play_turn("classic")
    found += violations(table, "playing")
    table.play_round("classic")
    found += violations(table, "results")
    page.click("[data-ctl=replay]")
    table.wait("#replay[open], #replay:not([hidden])")
    page.click("#replay-next")
    found += violations(table, "replay")
    assert found == [], "\n".join(found)


LINES = "(el) => el.getClientRects().length"  # an inline box: one rectangle per line


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_readers_own_text_size_is_followed_where_there_is_room(make_table, size):
    # The page's text was 15 px whatever the browser's text size was set to; a reader who asks
    # for larger text gets it on a computer or a tablet (words kept whole), while a phone's table,
    # laid out to the pixel, keeps 15 px (zooming still enlarges it).
    viewport = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 640}}[size]
    table = make_table(viewport)
    table.page.context.new_cdp_session(table.page).send("Page.setFontSizes", {"fontSizes": {"standard": 24}})
    table.open()
    page = table.page
    px = float(page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)"))
    if size == "phone":
        assert px == 15
        return
    assert px == 22.5  # 15/16 of the reader's 24 px
    # the start screen's column widens with its text: no level's name is broken over two lines
    assert page.eval_on_selector(".start-inner", "el => el.getBoundingClientRect().width") > 460 * 1.4
    for option in page.query_selector_all(".choice.levels .option b"):
        assert option.evaluate(LINES) == 1, option.inner_text()
    page.click("#puzzles-btn")
    page.wait_for_selector(".pz-grid button")
    # tiles as wide as their words: not five 150 px tiles with "Landlord ·" over "5 cards"
    assert page.eval_on_selector(".pz-grid button", "el => el.getBoundingClientRect().width") >= 10 * 22.5
