"""Languages: the browser's language by default, and a switch that relabels everything."""

from __future__ import annotations

import pytest

from .e2e_support import DESKTOP, PHONE_PORTRAIT, assert_big_enough, translations

LANGUAGES = ["ja", "zh-Hans", "zh-Hant", "en"]


@pytest.mark.parametrize("locale, language", [("ja-JP", "ja"), ("zh-CN", "zh-Hans"), ("zh-TW", "zh-Hant"), ("en-GB", "en")])
def test_default_language_follows_the_browser(make_table, locale, language):
    table = make_table(DESKTOP, locale=locale).open()
    table.wait(f"html[lang={language}]")
    words = translations(language)
    assert table.text("#start-btn") == words["start.new_game"]
    assert table.page.title() == words["app.title"]


def test_switching_each_language_changes_the_texts(make_table):
    table = make_table(PHONE_PORTRAIT).open()
    page = table.page
    for language in LANGUAGES:
        page.select_option("#start-language", language)
        table.wait(f"html[lang={language}]")
        words = translations(language)
        assert table.text("#start-btn") == words["start.new_game"]
        assert table.text("label.option:has(input[value=duel]) b") == words["variant.duel"]
        assert table.text("label.option:has(input[value=super-hard]) b") == words["level.super-hard"]

    page.select_option("#start-language", "en")
    table.start("classic", "normal")
    table.to_my_play_turn()
    with table.progressing():  # past the first play: the landlord's news is hidden
        table.play_turn()
    table.to_my_play_turn()
    for language in LANGUAGES:
        page.click("#menu-btn")
        page.select_option("#menu-language", language)
        table.wait(f"html[lang={language}]")
        page.keyboard.press("Escape")
        words = translations(language)
        assert table.text("[data-ctl=play]") == words["ctl.play"]
        assert table.text("[data-ctl=hint]") == words["ctl.hint"]
        assert table.text("[data-ctl=sort]") == words["ctl.sort"]
        assert_big_enough(table, f"table {language}")  # "过", one character, was a 35 px wide Pass
        assert words["role.landlord"] in table.text("#board") + table.text("#me-info")
        assert table.page.get_attribute("#hand", "aria-label") == words["hand.label"].replace("{n}", str(len(table.hand_ids())))
        # No label on the table is left in English, shown or not (the landlord's news, hidden after
        # the first play, kept its cards' names in the language it was drawn in).
        if language != "en":
            english = page.evaluate(r"""() => [...document.querySelectorAll('#table-screen [aria-label]')]
              .map((e) => e.getAttribute('aria-label')).filter((l) => /\b(?!JOKER\b)[A-Za-z]{3,}\b/.test(l))""")
            assert english == [], (language, english)
        # The bottom cards are spoken in it too.
        bottom = table.page.get_attribute("#bottom-cards", "aria-label")
        assert bottom.startswith(words["table.bottom_shown"].split("{cards}")[0]), (language, bottom)
        names = table.page.eval_on_selector_all("#bottom-cards .card", "cs => cs.map((c) => c.getAttribute('aria-label'))")
        assert all(any(words[f"suit.{s}"] in n for s in range(4)) or n in (words["card.small_joker"], words["card.big_joker"])
                   for n in names), (language, names)
        # A hint's reason arrives as a key and is shown in this language.
        page.click("[data-ctl=hint]")
        table.wait("#status.hint")
        assert words["status.hint_tag"] in table.text("#status")
        table.shot(f"phone-portrait-{language}-table")
        # The rules page speaks it too, with all 14 kinds of play.
        page.click("#rules-btn")
        table.wait("#rules-dialog[open]")
        assert table.text("#rules-title") == words["rules.title"]
        assert page.locator("#rules-body table.kinds tbody tr").count() == 14
        assert words["kind.plane_pair"] in table.text("#rules-body")
        # On a phone the table of kinds fits: no sideways scrolling, every example whole.
        assert page.evaluate("""() => {
          const body = document.querySelector('#rules-body'), edge = body.getBoundingClientRect().right;
          return body.scrollWidth <= body.clientWidth
            && [...body.querySelectorAll('table.kinds .card')].every((c) => c.getBoundingClientRect().right <= edge);
        }"""), language
        if language == "ja":
            table.shot("phone-portrait-ja-rules")
        page.keyboard.press("Escape")
        page.keyboard.press("Escape")  # clear the hint selection
    # The server keeps the game's language too (PATCH /api/games/{id}).
    table.reload()
    table.wait("html[lang=en]")


def test_settlement_in_each_language(make_table):
    table = make_table(DESKTOP, locale="zh-CN").open()
    table.start("classic", "normal")
    table.play_round("classic")
    for language in ["zh-Hans", "ja", "zh-Hant"]:
        table.page.keyboard.press("Escape")
        table.page.click("#menu-btn")
        table.page.select_option("#menu-language", language)
        table.wait(f"html[lang={language}]")
        table.page.keyboard.press("Escape")
        table.page.click("[data-ctl=results]")
        table.wait("#settle-dialog[open]")
        words = translations(language)
        assert table.text("#settle-title") in (words["settle.you_win"], words["settle.you_lose"])
        assert table.text("[data-ctl=another-round]") == words["settle.another_round"]
        table.shot(f"desktop-{language}-settlement")


ICON_BUTTONS = """() => [...document.querySelectorAll('button')].map((b) => ({
  id: b.id || b.outerHTML.slice(0, 80), text: b.textContent.trim(), svg: !!b.querySelector('svg path'),
  label: b.getAttribute('aria-label') || '', ctl: !!b.dataset.ctl,
}))"""


def test_every_icon_is_drawn_and_named(make_table):
    table = make_table(DESKTOP).open()
    buttons = table.page.evaluate(ICON_BUTTONS)
    # Symbols from fonts (arrows, media controls, crosses) render as empty boxes on some
    # systems: a button either says its words or draws its icon, and names it.
    symbols = [b for b in buttons if any(0x2190 <= ord(c) <= 0x2BFF or ord(c) >= 0x1F000 for c in b["text"])]
    assert not symbols, symbols
    icons = [b for b in buttons if not b["text"] and not b["ctl"]]  # action buttons get words later
    assert len(icons) >= 8, buttons
    for b in icons:
        assert b["svg"] and b["label"], b


COUNTS = """async (language) => {
  const { setLanguage, t } = await import(new URL('i18n.js', document.querySelector('script[type=module]').src));
  const { hintParts, signed } = await import(new URL('format.js', document.querySelector('script[type=module]').src));
  await setLanguage(language);
  const words = (parts) => parts.map((p) => (typeof p === 'string' ? p : p.textContent)).join('');
  return {
    one: words(hintParts('bid_strong', { plays: 1, controls: 1 })),
    many: words(hintParts('bid_weak', { plays: 5, controls: 2 })),
    rob: words(hintParts('rob_weak', { handicap: 1 })),
    line: words(hintParts('play_to_line', { cards: '35' })),
    cards: [0, 1, 2].map((n) => t('table.cards_left', { n })),
    points: [-2, -1, 0, 1, 2].map((n) => t('table.points', { n: signed(n) })),
  };
}"""


def test_counts_agree_with_their_number(make_table):
    table = make_table(DESKTOP).open()
    seen = table.page.evaluate(COUNTS, "en")
    assert seen["one"] == "A strong hand: 1 play, 1 high card."
    assert seen["many"] == "A weak hand (5 plays, 2 high cards): better as a farmer."
    assert seen["rob"].endswith("win at 1 card.")
    assert seen["cards"] == ["0 cards", "1 card", "2 cards"]
    # a signed figure keeps its plural: the minus is U+2212, which Number() does not read
    assert seen["points"] == ["\u22122 pts", "\u22121 pt", "0 pts", "+1 pt", "+2 pts"]
    assert seen["line"].startswith("Heads for the handicap line: ") and "35" in seen["line"].replace(" ", "")
    # Languages without plural forms say the count the same way whatever the number.
    seen = table.page.evaluate(COUNTS, "zh-Hans")
    # (a number and its counter are never split by a line break: a no-break space between them)
    assert seen["one"] == "手牌很强：1\u00a0手，1\u00a0张大牌。"
    assert seen["cards"] == ["0\u00a0张", "1\u00a0张", "2\u00a0张"]


# The first character of every line but the first, in each element's text as laid out.
LINE_STARTS = """(selector) => [...document.querySelectorAll(selector)].filter((el) => el.getClientRects().length).flatMap((el) => {
  const starts = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let top = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i += 1) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = [...range.getClientRects()].pop();
      if (!rect || !rect.width || !node.data[i].trim()) continue;
      if (top !== null && rect.top > top + rect.height / 2) starts.push(node.data.slice(i, i + 6));
      top = rect.top;
    }
  }
  return starts;
})"""

# What Japanese never starts a line with (kinsoku): small kana, the long-vowel mark, closing
# punctuation.
NOT_AT_LINE_START = set("ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶー・、。，．）」』】！？")


def test_japanese_lines_never_start_with_a_small_kana_or_a_long_vowel_mark(make_table):
    # "コンピ / ューター", "カ / ードゲーム": lines broken before ュ and ー on a 390 px phone.
    table = make_table({"width": 390, "height": 844}, locale="ja-JP").open()
    table.wait("html[lang=ja]")
    starts = table.page.evaluate(LINE_STARTS, ".tagline, .option small, #deal-help")
    assert starts, "no text wraps here: the test sees nothing"
    bad = [line for line in starts if line[0] in NOT_AT_LINE_START]
    assert not bad, bad
    table.page.click("#start-rules-btn")
    table.wait("#rules-dialog[open] .rules-body p")
    starts = table.page.evaluate(LINE_STARTS, "#rules-body p, #rules-body td")
    bad = [line for line in starts if line[0] in NOT_AT_LINE_START]
    assert not bad, bad
