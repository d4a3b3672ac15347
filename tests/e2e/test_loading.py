"""What a first visit downloads, and the screens whose styles and words come later.

The first load (every response's bytes on the wire, headers included, as Chromium's network
log counts them) stays within 60 KiB in each language. The puzzles, the review and the rules
fetch their style sheet and their part of the dictionary with their module: they must look and
read right in every language, also when the language changes while they are open.
"""

from __future__ import annotations

import pytest

from .e2e_support import DESKTOP, PHONE_PORTRAIT, module, translations

FIRST_LOAD_LIMIT = 60 * 1024
LOCALES = {"en": "en-US", "ja": "ja-JP", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW"}
# Fetched only when their screen opens (the lazy modules' styles and dictionary parts).
LATER = ("puzzles.css", "review.css", "replay.css", "rules.css", "replay.js", "/puzzle/", "/review/", "/rules/", "puzzles.js", "review.js", "rules.js")

SWITCH = f"async (code) => {{ const {{ setLanguage }} = await {module('i18n.js')}; await setLanguage(code); }}"


def first_load(table) -> tuple[int, list[str]]:
    """The bytes and the addresses of a first visit, up to a quiet network."""
    cdp = table.page.context.new_cdp_session(table.page)
    cdp.send("Network.enable")
    sizes: dict[str, int] = {}
    urls: dict[str, str] = {}
    cdp.on("Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
    cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
    table.open()
    table.page.wait_for_load_state("networkidle")
    return sum(sizes.values()), [urls[key] for key in sizes]


@pytest.mark.parametrize("language", LOCALES)
def test_the_first_load_fits_in_60_kib_and_leaves_the_later_screens_out(make_table, language):
    table = make_table(PHONE_PORTRAIT, locale=LOCALES[language])
    total, urls = first_load(table)
    assert table.page.get_attribute("html", "lang") == language
    assert any(url.endswith(f"/i18n/{language}.json") for url in urls), urls  # the counting saw the page
    assert not [url for url in urls if any(part in url for part in LATER)]
    assert total <= FIRST_LOAD_LIMIT, f"{language}: {total} bytes"


def computed(table, selector: str, prop: str) -> str:
    return table.page.eval_on_selector(selector, f"el => getComputedStyle(el).{prop}")


def test_puzzles_and_rules_get_their_styles_and_words_in_every_language(make_table):
    table = make_table(DESKTOP, locale="zh-TW").open()
    table.wait("body[data-screen=start]")
    table.page.click("#puzzles-btn")
    table.wait("body[data-screen=puzzles][data-puzzle=list]")
    # puzzles.css: the list is a grid, its header a row.
    assert computed(table, ".pz-grid", "display") == "grid"
    assert computed(table, ".pz-top", "display") == "flex"
    for language in ["zh-Hant", "en", "ja", "zh-Hans"]:  # the first loaded with the page, then switches
        if language != "zh-Hant":
            table.page.evaluate(SWITCH, language)
        words = translations(language)
        table.wait(f"html[lang={language}]")
        assert table.text("#pz-title") == words["puzzle.title"]
        assert table.text("#pz-back") == words["puzzle.home"]
    table.page.click(".pz-item")
    table.wait("body[data-puzzle$=':playing:0']")
    table.page.evaluate(SWITCH, "ja")
    table.wait("html[lang=ja]")
    assert table.text("#pz-hint") == translations("ja")["puzzle.hint"]
    assert computed(table, ".pz-actions", "display") == "flex"
    table.page.click("#pz-back")
    table.page.click("#pz-back")
    table.wait("body[data-screen=start]")
    # The rules: their words come with rules.js, and follow a switch while the dialog is open.
    table.page.click("#start-rules-btn")
    table.wait("#rules-dialog[open] #rules-about")
    assert computed(table, "#rules-dialog", "display") == "flex"  # rules.css
    for language in ["ja", "zh-Hans", "zh-Hant", "en"]:
        if language != "ja":
            table.page.evaluate(SWITCH, language)
        words = translations(language)
        table.wait(f"html[lang={language}]")
        assert table.text("#rules-about h3") == words["rules.about.h"]
        assert words["rules.kinds.col_kind"] in table.text("#rules-body")
