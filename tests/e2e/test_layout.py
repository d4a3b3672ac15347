"""Layouts: all 20 cards of a landlord's hand visible and tappable on a 360x640 phone."""

from __future__ import annotations

import re

import pytest

from dizhu.puzzles import load

from .e2e_support import (DESKTOP, LINES_OF, PHONE_LANDSCAPE, PHONE_PORTRAIT, ROW_SIZES, TEXT_LINES, assert_big_enough,
                           deal_where_i_bid_first, module, translations)


def become_landlord(table) -> None:
    """Bid 3 at the first chance (dealing again until the chance comes: at once, from a deal the
    player bids first in)."""
    for _ in range(30):
        table.wait("body[data-turn=me], body[data-phase=playing]")
        if table.visible("bid-bid-3"):
            with table.progressing():
                table.page.click("[data-ctl=bid-bid-3]")
            table.wait("body[data-phase=playing][data-turn=me]")
            return
        with table.progressing():
            table.new_game_from_menu()
    raise AssertionError("never got to bid 3")


def card_targets(table) -> list[dict]:
    """For each hand card: its box and the point we tap (inside its visible strip)."""
    return table.page.evaluate("""async () => {
      const cards = [...document.querySelectorAll('#hand .hcard')];
      // Let cards that were just tapped finish moving up or down.
      // (an animation cut short by another rejects its promise: that one has stopped too)
      await Promise.all(cards.flatMap((el) => el.getAnimations().map((a) => a.finished.catch(() => null))));
      return cards.map((el, i, all) => {
        const r = el.getBoundingClientRect();
        const next = all[i + 1];
        // The next card in the same row covers this one from its left edge on.
        const sameRow = next && next.style.top === el.style.top;
        const visibleRight = sameRow ? next.getBoundingClientRect().left : r.right;
        const x = (r.left + visibleRight) / 2, y = r.top + 12;
        const hit = document.elementFromPoint(x, y);
        return {id: el.dataset.id, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                strip: visibleRight - r.left, x, y, hits: !!hit && hit.closest('.hcard') === el};
      });
    }""")


def assert_regions_apart(table) -> None:
    """The top bar, the seats, the buttons and the hand never overlap."""
    boxes = table.page.evaluate("""() => {
      const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
      const shown = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetParent !== null).map(box);
      return { top: box(document.querySelector('.topbar')), seats: shown('.seat-panel'),
               buttons: shown('#controls .btn, #tools .btn'), cards: shown('#hand .hcard:not(.selected)') };
    }""")
    card_top = min(c["top"] for c in boxes["cards"])
    for seat in boxes["seats"]:
        assert seat["top"] >= boxes["top"]["bottom"] - 1, boxes
    for button in boxes["buttons"]:
        assert button["bottom"] <= card_top + 1, boxes
        assert button["right"] <= table.page.viewport_size["width"] + 0.5, boxes


def assert_no_scrolling(table) -> None:
    sizes = table.page.evaluate(
        "[document.documentElement.scrollWidth, innerWidth, document.documentElement.scrollHeight, innerHeight]")
    assert sizes[0] <= sizes[1], f"horizontal scrolling: {sizes}"
    assert sizes[2] <= sizes[3], f"vertical scrolling: {sizes}"


def test_phone_portrait_shows_all_20_cards_without_overlap_or_scrolling(make_table):
    table = make_table(PHONE_PORTRAIT).open()
    table.shot("phone-portrait-en-start")
    table.start_deal(deal_where_i_bid_first())
    become_landlord(table)
    targets = card_targets(table)
    assert len(targets) == 20
    for t in targets:
        # Inside the screen, with a strip wide enough for a finger that no
        # other card covers.
        assert 0 <= t["left"] and t["right"] <= 360 and 0 <= t["top"] and t["bottom"] <= 640, t
        assert t["strip"] >= 24, t
        assert t["hits"], t
    assert_no_scrolling(table)
    assert_regions_apart(table)
    table.shot("phone-portrait-en-20-cards")
    # Every card really answers a tap.
    for t in targets:
        table.page.mouse.click(t["x"], t["y"])
    assert len(table.selected_ids()) == 20
    for t in card_targets(table):  # selected cards moved up: tap them where they are now
        assert t["hits"], t
        table.page.mouse.click(t["x"], t["y"])
    assert table.selected_ids() == []


def test_landscape_and_desktop_layouts_fit(make_table):
    for name, viewport in (("phone-landscape", PHONE_LANDSCAPE), ("small-landscape", {"width": 640, "height": 360}),
                           ("desktop", DESKTOP), ("tablet", {"width": 768, "height": 1024})):
        table = make_table(viewport).open()
        table.start_deal(deal_where_i_bid_first())
        become_landlord(table)
        targets = card_targets(table)
        assert len(targets) == 20
        assert all(t["hits"] and t["strip"] >= 24 for t in targets), targets
        assert all(t["right"] <= viewport["width"] and t["bottom"] <= viewport["height"] for t in targets)
        assert_no_scrolling(table)
        assert_regions_apart(table)
        table.shot(f"{name}-en-20-cards")


PHONE_LANDSCAPE_WIDE = {"width": 844, "height": 390}


def box(table, selector: str) -> dict:
    return table.page.locator(selector).first.bounding_box()


def test_phone_landscape_top_bar_results_and_duel_bubbles(make_table):
    table = make_table(PHONE_LANDSCAPE_WIDE).open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    # One top bar: the tools' band reaches the menu's band, same height, no notch between.
    top, tools = box(table, ".topbar"), box(table, "#tools")
    assert abs(top["y"] - tools["y"]) < 1 and abs(top["height"] - tools["height"]) < 1, (top, tools)
    assert tools["x"] <= top["x"] + top["width"] + 1, (top, tools)
    table.shot("phone-landscape-844-top-bar")
    # The results open at their headline.
    table.auto_play(500)
    table.wait("#settle-dialog[open]", timeout=120_000)
    assert table.page.eval_on_selector("#settle-dialog", "d => d.scrollTop") == 0
    head, sheet = box(table, "#settle-title"), box(table, "#settle-dialog")
    assert head["y"] >= sheet["y"] and head["y"] + head["height"] <= 390, (head, sheet)
    table.shot("phone-landscape-844-settlement")
    # The table behind: a hand left at the end, made 17 cards long, keeps every index whole (the
    # next card in its row starts after the index's glyphs), wrapping rather than squeezing.
    table.page.click("[data-ctl=view-table]")
    table.wait("#board .reveal .card")
    covered, lines = table.page.evaluate(f"""() => {{
      const row = document.querySelector('#board .reveal-row');
      const slots = [...row.children];
      for (let i = 0; row.children.length < 17; i += 1) row.append(slots[i % slots.length].cloneNode(true));
      const cards = [...row.querySelectorAll('.card')];
      const covered = cards.slice(0, -1).filter((card, i) => {{
        const next = cards[i + 1].getBoundingClientRect(), here = card.getBoundingClientRect();
        if (Math.abs(next.top - here.top) > 1) return false;  // the next card is on the row below
        const range = document.createRange();
        range.selectNodeContents(card.querySelector('.idx'));
        return range.getBoundingClientRect().right > next.left + 0.5;
      }}).length;
      return [covered, ({ROW_SIZES})(cards)];
    }}""")
    assert covered == 0, covered
    # a hand that wraps splits evenly: no row of one lone card
    assert len(lines) > 1 and max(lines) - min(lines) <= 1, lines
    table.shot("phone-landscape-844-hands-left")

    duel = make_table(PHONE_LANDSCAPE_WIDE).open()
    duel.start("duel", "normal")
    for _ in range(10):  # until the opponent has said something
        if duel.page.locator("#zone-1 .bubble").count():
            break
        duel.wait_turn_or_over()
        with duel.progressing():
            duel.bid_quickly("duel")
    bubble, panel = box(duel, "#zone-1 .bubble"), box(duel, "#seat-1")
    # Beside the panel, not adrift in the middle of the table.
    assert 0 <= bubble["x"] - (panel["x"] + panel["width"]) <= 40, (bubble, panel)
    duel.shot("phone-landscape-844-duel")


PHONE_PORTRAIT_TALL = {"width": 390, "height": 844}

HAND_ROWS = """() => {
  const cards = [...document.querySelectorAll('#hand .hcard')];
  const tops = [...new Set(cards.map((c) => c.style.top))];
  const rows = tops.map((top) => cards.filter((c) => c.style.top === top));
  const upper = rows[0].map((c) => c.querySelector('.idx').getBoundingClientRect().bottom);
  const lower = rows[rows.length - 1].map((c) => c.getBoundingClientRect().top);
  return { rows: rows.length, lowerIds: rows[rows.length - 1].map((c) => c.dataset.id),
           indexBottom: Math.max(...upper), lowerTop: Math.min(...lower) };
}"""


def test_phone_portrait_rows_apart_buttons_still_and_your_turn_shown(make_table):
    table = make_table(PHONE_PORTRAIT_TALL).open()
    table.start_deal(deal_where_i_bid_first())
    become_landlord(table)
    seen = table.page.evaluate(HAND_ROWS)
    assert seen["rows"] == 2
    # Pick every card of the lower row: raised, they still leave the upper row's corners clear.
    for card in seen["lowerIds"]:
        table.click_card(int(card))
    table.page.wait_for_timeout(300)  # the cards' lift transition
    seen = table.page.evaluate(HAND_ROWS)
    assert seen["lowerTop"] >= seen["indexBottom"], seen
    # "Your turn" is said in your bar, narrow screen or not.
    assert table.page.is_visible("#me-info .turn")
    # The others' plays are drawn at a readable size on a tall phone.
    assert table.page.eval_on_selector("#zone-1", "el => getComputedStyle(el).getPropertyValue('--cw').trim()") == "44px"
    table.shot("phone-portrait-390-rows")
    # When the hand shrinks to one row, Play does not move.
    play = table.page.locator("[data-ctl=play]").bounding_box()
    table.page.evaluate("""() => new Promise((done) => {
      [...document.querySelectorAll('#hand .hcard')].slice(8).forEach((c) => c.remove());
      window.dispatchEvent(new Event('resize'));
      requestAnimationFrame(() => requestAnimationFrame(done));
    })""")
    assert table.page.evaluate(HAND_ROWS)["rows"] == 1
    assert table.page.locator("[data-ctl=play]").bounding_box() == play


# ---- the elements added lately (the landlord's news, the hint's count, the 报单/报双 tags, the
# round's log, the records, the guide's marks, the menu): apart from the rest, and big enough to tap.

SIZES = {"desktop": {"width": 1366, "height": 768}, "portrait": PHONE_PORTRAIT_TALL, "landscape": PHONE_LANDSCAPE_WIDE,
         "small": PHONE_PORTRAIT}

# Measured a frame later: what a resize observer sets (the status's spill) is in place, as on screen.
BOXES = """async (selectors) => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const out = {};
  for (const [name, sel] of Object.entries(selectors)) {
    out[name] = [...document.querySelectorAll(sel)]
      .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
      .map((el) => { const r = el.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, what: el.id || el.className || el.tagName}; })
      .filter((r) => r.right > r.left && r.bottom > r.top);
  }
  return out;
}"""

def overlaps(a: dict, b: dict) -> bool:
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1 and \
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1


def assert_apart(table, selectors: dict[str, str], pairs: list[tuple[str, str]]) -> None:
    """No element of one group overlaps one of the other, for each pair of groups."""
    boxes = table.page.evaluate(BOXES, selectors)
    bad = [(one, x, other, y) for one, other in pairs for x in boxes[one] for y in boxes[other] if overlaps(x, y)]
    assert not bad, bad


def assert_inside(table, selector: str) -> None:
    view = table.page.viewport_size
    for b in table.page.evaluate(BOXES, {"it": selector})["it"]:
        assert b["left"] >= -0.5 and b["top"] >= -0.5 and b["right"] <= view["width"] + 0.5 \
            and b["bottom"] <= view["height"] + 0.5, (selector, b, view)


TABLE_PARTS = {
    "news": "#news:not([hidden])", "seats": ".seat-panel", "topbar": ".topbar, #tools",
    "bubbles": ".zone .bubble", "status": "#status > *", "buttons": "#controls .btn, #tools .btn",
    "cards": "#hand .hcard:not(.selected)", "me": "#me-info > *",
}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_new_elements_stay_apart_and_big_enough_to_tap(make_table, size):
    table = make_table(SIZES[size]).open()
    page = table.page
    assert_big_enough(table, "start")
    # The seat on the left bids before the player: its bid is on the table when the news comes.
    table.start_deal(deal_where_i_bid_first(first=2))
    become_landlord(table)
    table.settle_hand()
    # The landlord's news stays until the first play: clear of the seats, their bubbles, the status,
    # the buttons and the hand.
    assert page.is_visible("#news")
    table.shot(f"layout-{size}-news")
    assert_apart(table, TABLE_PARTS, [("news", p) for p in ("seats", "topbar", "bubbles", "status", "buttons", "cards")]
                 + [("status", "buttons"), ("status", "cards"), ("me", "buttons")])
    assert_inside(table, "#news, #status > *, .seat-panel")
    assert_big_enough(table, "table")
    # The counter open (a shorter board): still clear.
    if page.is_visible("#counter-btn"):
        page.click("#counter-btn")
        assert_apart(table, TABLE_PARTS, [("news", p) for p in ("seats", "bubbles", "status", "buttons", "cards")])
        page.click("#counter-btn")
    # The hint, pressed twice (its count "2 / n" when the server ranks several).
    for _ in range(2):
        page.click("[data-ctl=hint]")
        table.wait("#status.hint")
    assert_apart(table, TABLE_PARTS, [("status", p) for p in ("buttons", "cards", "seats", "me")])
    assert_inside(table, "#status > *, #status .hint-count")
    table.shot(f"layout-{size}-hint")
    # Seats down to one and two cards: the tag sits inside its panel, clear of the name and the count.
    page.evaluate(f"""async () => {{
      const state = await {module("tablestate.js")};
      const tbl = await {module("table.js")};
      const rules = {{players: 3, bidding: 'points', handicap: false, deck_counts: [4,4,4,4,4,4,4,4,4,4,4,4,4,1,1], undealt: 0}};
      const ds = state.foldEvents({{rules, me: 0}}, [{{type: 'deal', first: 0, hand_sizes: [17, 17, 17]}},
        {{type: 'landlord', seat: 0, bottom: '345', bottom_ids: [0, 4, 8], bid: 3}},
        {{type: 'play', seat: 0, play: '3', kind: 'single', cards: [0]}}]);
      ds.cardsLeft = [19, 1, 2];
      tbl.renderTable({{view: {{totals: [12, -6, -6], level: 'super-hard', round_number: 12}}, ds, thinking: 2, handCount: 19}});
    }}""")
    table.shot(f"layout-{size}-alarm")
    for seat in (1, 2):
        panel = f"#seat-{seat}"
        assert page.locator(f"{panel} .alarm-tag").count() == 1
        parts = {"tag": f"{panel} .alarm-tag", "others": f"{panel} .who, {panel} .count, {panel} .avatar, {panel} .score, {panel} .role",
                 "panel": panel}
        boxes = page.evaluate(BOXES, parts)
        tag, outer = boxes["tag"][0], boxes["panel"][0]
        assert tag["left"] >= outer["left"] and tag["right"] <= outer["right"] and tag["bottom"] <= outer["bottom"], boxes
        assert_apart(table, parts, [("tag", "others")])
    assert_apart(table, TABLE_PARTS, [("seats", "topbar"), ("seats", "buttons"), ("seats", "status")])
    table.reload()
    # The dialogs added lately: inside the screen, their buttons big enough, none over another.
    dialogs = [("#menu-btn", None, "#menu-dialog"), ("#menu-btn", "#menu-log", "#log-dialog"),
               ("#menu-btn", "#menu-records", "#records-dialog")]
    for opener, item, dialog in dialogs:
        page.click(opener)
        if item:
            page.click(item)
        table.wait(f"{dialog}[open]")
        page.wait_for_timeout(50)  # drawn once its module and (for the log) the ledger came
        assert_inside(table, f"{dialog}")
        assert_big_enough(table, dialog)
        controls = f"{dialog} button, {dialog} select, {dialog} label.check"
        boxes = page.evaluate(BOXES, {"it": controls})["it"]
        bad = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if overlaps(a, b)]
        assert not bad, (dialog, bad)
        table.shot(f"layout-{size}-{dialog[1:]}")
        page.keyboard.press("Escape")
    # The guide's marks: inside the screen, beside (not over) what each explains.
    page.click("#menu-btn")
    page.click("#menu-guide")
    for step in range(4):
        table.wait("#coach[open]")
        assert_inside(table, "#coach")
        assert_big_enough(table, f"coach {step}")
        assert_apart(table, {"coach": "#coach", "target": ".coach-target"}, [("coach", "target")])
        table.shot(f"layout-{size}-coach-{step}")
        page.click("[data-ctl=coach-next]")
    assert not page.is_visible("#coach")


@pytest.mark.parametrize("viewport", [PHONE_LANDSCAPE_WIDE, PHONE_LANDSCAPE], ids=["844", "740"])
def test_landscape_seats_stay_under_the_open_counter(make_table, viewport):
    # The counter's row leaves the board too short for a seat's three lines: centred, the panels
    # rose under the counter, which cut their tops off.
    table = make_table(viewport).open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    table.page.click("#counter-btn")
    table.wait("#counter:not([hidden])")
    counter = box(table, "#counter")
    # The seats, and the plays beside them: play on until the player answers someone's play.
    table.to_my_play_turn()
    for _ in range(20):
        if table.page.locator("#zone-1 .play-row, #zone-2 .play-row").count():
            break
        with table.progressing():
            table.play_turn()
        assert table.wait_turn_or_over() == "playing"
    below = table.page.evaluate(BOXES, {"it": ".seat-panel, #zone-1 > *, #zone-2 > *"})["it"]
    assert len(below) >= 3, below
    for b in below:
        assert b["top"] >= counter["y"] + counter["height"] - 0.5, (b, counter)
    assert_apart(table, TABLE_PARTS, [("seats", "status"), ("seats", "buttons"), ("seats", "cards")])
    table.shot(f"layout-landscape-{viewport['width']}-counter-seats")


@pytest.mark.parametrize("viewport", [PHONE_LANDSCAPE_WIDE, {"width": 640, "height": 360}], ids=["844", "640"])
def test_the_landlords_news_keeps_off_the_prompt_with_the_counter_open(make_table, viewport):
    # 640 x 360, the counter open: the news, centred on the short board, lay over the first prompt
    # ("Your lead: play any combination") for as long as it showed.
    table = make_table(viewport).open()
    table.start_deal(deal_where_i_bid_first())
    table.page.click("#counter-btn")
    table.wait("#counter:not([hidden])")
    become_landlord(table)
    table.wait("#news:not([hidden])")
    assert_apart(table, TABLE_PARTS, [("news", p) for p in ("status", "seats", "topbar", "buttons", "cards")])
    table.shot(f"layout-landscape-{viewport['width']}-counter-news")


@pytest.mark.parametrize("viewport", [PHONE_LANDSCAPE_WIDE, {"width": 640, "height": 360}], ids=["844", "640"])
def test_the_top_bar_stays_one_band_once_the_round_is_over(make_table, viewport):
    # Landscape phones: the tools share the top bar's band; once the round was over they went, and
    # the band stopped short of the screen's edge (479 of 640 px in Japanese), bare felt beyond.
    table = make_table(viewport).open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    table.auto_play(500)
    table.wait("#settle-dialog[open]", timeout=120_000)
    table.page.click("[data-ctl=view-table]")
    table.page.wait_for_selector("#tools[hidden]", state="attached")
    band = box(table, ".topbar")
    assert band["x"] <= 0.5 and band["x"] + band["width"] >= viewport["width"] - 0.5, band
    table.shot(f"layout-landscape-{viewport['width']}-over-top-bar")


@pytest.mark.parametrize("locale", ["ja", "en-US"])
def test_the_stakes_reasons_show_whole_in_the_top_bar_of_a_narrow_phone(make_table, locale):
    # 360 x 640: "bid 3 · rocket (×2)" lost its "×2" under an ellipsis in Japanese; it may take two
    # small lines beside the multiplier, which are no taller than the bar was.
    table = make_table(PHONE_PORTRAIT, locale=locale).open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    page = table.page
    words = translations(locale.split("-")[0])
    height = box(table, ".topbar")["height"]
    why = f"{words['mult.bid_now'].replace('{n}', '3')} · {words['mult.rocket_now']}"
    page.eval_on_selector(".mult-why", "(el, text) => { el.textContent = text; }", why)
    sizes = page.eval_on_selector(".mult-why", "el => [el.scrollWidth, el.clientWidth, el.scrollHeight, el.clientHeight]")
    assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3] + 0.5, (why, sizes)
    assert box(table, ".topbar")["height"] == height
    table.shot(f"layout-small-{locale}-stake-reasons")


@pytest.mark.parametrize("locale", ["ja", "zh-CN", "en-US"])
def test_the_top_bar_keeps_its_buttons_whole_after_a_bomb_and_the_rocket(make_table, locale):
    # 360 x 640: with "bid 3 · 1 bomb (×2) · rocket (×2)" in the bar, its round buttons shrank to
    # 26-31 px ovals and the reasons lost their end under an ellipsis (a helper's review)
    table = make_table(PHONE_PORTRAIT, locale=locale).open()
    words = translations({"ja": "ja", "zh-CN": "zh-Hans", "en-US": "en"}[locale])
    table.start_deal("classic-look-116")  # the player bids first and holds 6666 and the rocket
    table.wait_turn_or_over()
    with table.progressing():
        table.page.click("[data-ctl=bid-bid-3]")
    for cards in ([12, 13, 14, 15], [52, 53]):  # nobody can answer either: the player leads both
        table.wait_turn_or_over()
        for card in cards:
            table.click_card(card)
        with table.progressing():
            table.page.click("[data-ctl=play]")
    table.wait_turn_or_over()
    page = table.page
    bomb = words["mult.bombs_now.one"].replace("{n}", "1").replace("{factor}", "2")
    assert page.inner_text(".mult").strip() == "×12"
    parts = page.eval_on_selector_all(".mult-why .why-part", "els => els.map((e) => e.textContent)")
    assert parts == [words["mult.bid_now"].replace("{n}", "3"), bomb, words["mult.rocket_now"]]
    sizes = page.eval_on_selector(".mult-why", "el => [el.scrollWidth, el.clientWidth, el.scrollHeight, el.clientHeight]")
    assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3] + 0.5, (parts, sizes)  # nothing cut off
    for button in ("#menu-btn", "#counter-btn", "#rules-btn"):
        b = box(table, button)
        assert b["width"] >= 44 and b["height"] >= 44, (button, b)
    table.shot(f"layout-small-{locale}-bomb-and-rocket")


@pytest.mark.parametrize("locale", ["ja", "en-US"])
def test_the_results_buttons_keep_to_even_rows_on_a_phone(make_table, locale):
    # 390 x 844 wrapped them 3 + 1, "新しい試合" alone at the right (a helper's review)
    table = make_table(PHONE_PORTRAIT_TALL, locale=locale).open()
    table.start("classic", "normal")
    table.play_round("classic")
    rows = table.page.eval_on_selector_all(".settle-foot > .buttons:not(.way-on) > .btn", ROW_SIZES)
    assert sum(rows) == 4 and max(rows) - min(rows) == 0, rows
    table.shot(f"layout-results-buttons-{locale}")


def test_the_replay_on_a_portrait_tablet_has_large_cards_in_the_screens_middle(make_table):
    # 768 x 1024: the phone's 30 px cards over the upper half, the lower half empty
    table = make_table({"width": 768, "height": 1024}).open()
    table.start("classic", "normal")
    table.play_round("classic")
    table.page.click("[data-ctl=replay]")
    table.wait("#replay:not([hidden]) .replay-seat")
    card = table.page.locator("#replay .replay-hand .card").first.bounding_box()
    assert card["width"] >= 44, card
    seats = table.page.eval_on_selector_all("#replay .replay-seat", "els => els.map((e) => e.getBoundingClientRect().toJSON())")
    nav = box(table, "#replay .replay-nav")
    head = box(table, "#replay .replay-head")
    above, below = seats[0]["top"] - (head["y"] + head["height"]), nav["y"] - seats[-1]["bottom"]
    assert abs(above - below) < 0.2 * (above + below) + 40, (above, below)  # in the middle, not up at the top
    table.shot("layout-tablet-portrait-replay")


def test_the_results_fit_a_short_computer_screen_without_a_scroll(make_table):
    # 1366 x 768: the sheet, 560 px wide, needed a scroll to reach the deal code under the scores
    table = make_table({"width": 1366, "height": 768}).open()
    table.start("classic", "normal")
    table.play_round("classic")
    # the deal code in sight without a scroll (what a round adds, a spring's badge or a bomb's
    # line, may push the "replay this deal" row under the fold)
    code, sheet = box(table, "#settle-dialog .deal-share code"), box(table, "#settle-dialog")
    assert code["y"] + code["height"] <= sheet["y"] + sheet["height"], (code, sheet)
    breakdown, scores = box(table, "#settle-body > .breakdown"), box(table, "#settle-body > .scores")
    assert scores["x"] >= breakdown["x"] + breakdown["width"] - 1  # side by side
    table.shot("layout-results-1366x768")


def test_the_others_plays_on_a_portrait_tablet_are_large_and_off_the_edges(make_table):
    # 768 x 1024 kept the phone's 34 px cards, against the screen's edges, with 400 px of felt
    # empty between them (a helper's review)
    table = make_table({"width": 768, "height": 1024}).open()
    table.start_deal("classic-look-116")
    table.wait_turn_or_over()
    with table.progressing():
        table.page.click("[data-ctl=bid-bid-3]")
    table.wait_turn_or_over()
    with table.progressing():
        table.click_card(table.hand_ids()[0])  # a low single: both computers answer it
        table.page.click("[data-ctl=play]")
    table.wait_turn_or_over()
    board = box(table, "#board")
    for seat in (1, 2):
        cards = table.page.locator(f"#zone-{seat} .play-row .card")
        assert cards.count() >= 1, seat
        first, last = cards.first.bounding_box(), cards.last.bounding_box()
        assert first["width"] >= 44, (seat, first)
        assert first["x"] >= 30 and last["x"] + last["width"] <= 768 - 30, (seat, first, last)
        middle = first["y"] + first["height"] / 2
        assert board["y"] + 0.25 * board["height"] < middle < board["y"] + 0.75 * board["height"], (seat, first, board)
    table.shot("layout-tablet-portrait-plays")


@pytest.mark.parametrize("size", ["landscape", "small-landscape", "small"])
def test_the_results_way_on_is_on_screen_on_a_phone(make_table, size):
    # At 740 x 360 "Another round" was two screens down (548 px, under the header band, the
    # breakdown, the scores and four other buttons, one under the other); side by side it was still
    # below the fold there, and on 360 x 640 too. It stays at the sheet's bottom edge now.
    viewport = {"landscape": PHONE_LANDSCAPE, "small-landscape": {"width": 640, "height": 360}, "small": PHONE_PORTRAIT}[size]
    table = make_table(viewport).open()
    table.start_deal(deal_where_i_bid_first())  # (a random deal may end the match: no Another round)
    table.play_round("classic")
    table.wait("#settle-dialog[open]")
    page = table.page
    page.wait_for_function("() => document.querySelector('#settle-dialog').getAnimations({subtree: true}).every((a) => a.playState !== 'running')")
    table.shot(f"layout-{size}-results")
    # On a landscape phone the other four buttons too: they were under the way on's bar, unseen.
    landscape = size.endswith("landscape")
    for ctl in ["another-round"] + (["replay", "review", "view-table", "new-match"] if landscape else []):
        button = page.locator(f"[data-ctl={ctl}]").bounding_box()
        assert 0 <= button["y"] and button["y"] + button["height"] <= viewport["height"], (ctl, button)
        # on top of whatever scrolls under it, not under it
        assert page.evaluate("""(ctl) => { const b = document.querySelector(`[data-ctl=${ctl}]`).getBoundingClientRect();
          return document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2).closest(`[data-ctl=${ctl}]`) !== null; }""", ctl), ctl
    if landscape:  # in one row (two took a third of a 640 x 360 screen), and the breakdown beside the scores
        tops = {round(page.locator(f"[data-ctl={ctl}]").bounding_box()["y"]) for ctl in ("replay", "new-match", "another-round")}
        assert len(tops) == 1, tops
        breakdown, scores = (page.locator(s).bounding_box() for s in ("#settle-body .breakdown", "#settle-body .scores"))
        assert breakdown["x"] + breakdown["width"] <= scores["x"] + 0.5, (breakdown, scores)  # side by side
    # The bar is the sheet's end: scrolled down, the deal code shows whole above it, not under it (in
    # portrait the way on sat above the deal code there, the code following it in the page).
    page.eval_on_selector("#settle-dialog", "d => { d.scrollTop = d.scrollHeight; }")
    bar = "#settle-body .settle-foot" if landscape else "#settle-body .way-on"
    bar, share = (page.locator(s).bounding_box() for s in (bar, "#settle-body .deal-share"))
    assert share["y"] + share["height"] <= bar["y"] + 0.5, (share, bar)
    table.shot(f"layout-{size}-results-end")
    assert_tab_order_is_drawn_order(page)
    # A random deal's code (40 characters) broke before its last character on a phone; too long
    # for a line, it breaks after the variant's hyphen.
    lines = page.eval_on_selector("#settle-body .deal-share code", """(code) => {
      code.textContent = 'classic-843b531e53c626fc24d4967816195001';
      return [...code.getClientRects()].map((r) => r.width); }""")
    assert len(lines) <= 2 and min(lines) > 60, lines
    # Turned the other way, the page's order follows the new layout (the deal code moves), and
    # the focus stays where it was, in the code's buttons.
    page.focus("[data-ctl=copy-code]")
    page.set_viewport_size({"width": viewport["height"], "height": viewport["width"]})
    page.wait_for_timeout(100)
    assert page.evaluate("document.activeElement.dataset.ctl") == "copy-code"
    page.eval_on_selector("#settle-dialog", "d => { d.scrollTop = d.scrollHeight; }")
    assert_tab_order_is_drawn_order(page)


def assert_tab_order_is_drawn_order(page) -> None:
    # The controls in the page's order (the tab order, and a screen reader's) must come top to
    # bottom, left to right, as drawn: the way on's bar, placed last with CSS order, came before
    # the deal code's buttons in the page, above them on screen.
    boxes = page.evaluate("""() => [...document.querySelectorAll('#settle-body :is(button, a[href], select)')]
      .map((el) => { const b = el.getBoundingClientRect();
        return {name: el.dataset.ctl || el.className, top: b.top, bottom: b.bottom, left: b.left}; })""")
    assert len(boxes) >= 8, boxes
    for before, after in zip(boxes, boxes[1:]):
        same_line = after["top"] < before["bottom"] - 1 and before["top"] < after["bottom"] - 1
        assert (after["left"] > before["left"]) if same_line else (after["top"] >= before["bottom"] - 1), (before, after)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_prompt_keeps_off_the_players_line_with_the_counter_open_on_a_small_phone(make_table, locale):
    # Classic on 360 x 640 with the counter open: a board about 200 px tall, and a two-line prompt
    # ("Beat ... from Mei, or pass.") ran 8 px over the player's own line, the more so once a seat's
    # alarm took a row of its own.
    table = make_table(PHONE_PORTRAIT, locale=locale).open()
    table.start("classic", "normal")
    table.to_my_play_turn()
    page = table.page
    page.click("#counter-btn")
    table.wait("#counter:not([hidden])")
    page.evaluate(f"""async () => {{
      const state = await {module("tablestate.js")};
      const tbl = await {module("table.js")};
      const status = await {module("status.js")};
      const rules = {{players: 3, bidding: 'points', handicap: false, deck_counts: [4,4,4,4,4,4,4,4,4,4,4,4,4,1,1], undealt: 0}};
      const ds = state.foldEvents({{rules, me: 0}}, [{{type: 'deal', first: 0, hand_sizes: [17, 17, 17]}},
        {{type: 'landlord', seat: 2, bottom: '345', bottom_ids: [0, 4, 8], bid: 3}},
        {{type: 'play', seat: 2, play: '3334445556', kind: 'plane_single', cards: [0, 1, 2, 4, 5, 6, 8, 9, 10, 12]}},
        {{type: 'pass', seat: 0}},
        {{type: 'play', seat: 1, play: '7778889994', kind: 'plane_single', cards: [16, 17, 18, 20, 21, 22, 24, 25, 26, 13]}}]);
      ds.cardsLeft = [17, 1, 2];
      tbl.renderTable({{view: {{totals: [12, -6, -6], level: 'normal', round_number: 12}}, ds, thinking: null, handCount: 17}});
      status.renderStatus(null, status.promptParts(ds, true, null), {{myTurn: true}});
    }}""")
    assert page.evaluate(TEXT_LINES, page.query_selector("#status .msg")) >= 2
    table.shot(f"layout-small-counter-prompt-{locale}")
    # the player's own pass (in the middle, under the others' plays) ran over both plays
    assert page.is_visible("#zone-0 .bubble")
    assert_apart(table, TABLE_PARTS | {"plays": "#zone-1 > *, #zone-2 > *", "mine": "#zone-0 > *"},
                 [("status", "me"), ("status", "seats"), ("status", "plays"), ("seats", "plays"), ("mine", "plays"),
                  ("mine", "status")])
    assert page.locator(".seat-panel .alarm-tag").count() == 2


@pytest.mark.parametrize("size", ["portrait", "landscape"])
def test_a_long_hint_or_error_is_not_hidden_under_the_news_on_a_phone(make_table, size):
    # Japanese, the counter open: the hint's three lines reached up under the landlord's news,
    # which hid the hinted cards.
    table = make_table(SIZES[size], locale="ja-JP").open()
    page = table.page
    table.start_deal(deal_where_i_bid_first())
    become_landlord(table)
    table.settle_hand()
    page.click("#counter-btn")
    table.wait("#counter:not([hidden])")
    assert page.is_visible("#news")
    page.click("[data-ctl=hint]")
    table.wait("#status.hint")
    table.shot(f"layout-{size}-ja-hint-news")
    assert_apart(table, TABLE_PARTS, [("news", "status")])
    assert page.is_visible("#status .chips")
    # An illegal play's reason too.
    page.keyboard.press("Escape")
    ids = table.hand_ids()
    table.click_card(ids[0])
    table.click_card(ids[-1])
    page.click("[data-ctl=play]")
    table.wait("#status.error")
    assert_apart(table, TABLE_PARTS, [("news", "status")])
    # Once the message goes, the news is back until the first play.
    page.keyboard.press("Escape")
    table.wait("#status:not(.error):not(.hint)")
    assert page.locator("#news").evaluate("el => getComputedStyle(el).visibility") == "visible"


def test_puzzle_seat_headers_keep_the_card_count_whole_on_a_phone(make_table):
    """A long seat name ("Farmer (computer)", "Your partner (computer)") beside "7 cards" on 390 px."""
    table = make_table(PHONE_PORTRAIT_TALL).open()
    page = table.page
    page.click("#puzzles-btn")
    table.wait("body[data-screen=puzzles][data-puzzle=list]")
    partner = next(p for p in load("classic") if p.seat != p.position.landlord)  # a farmer: two seats shown
    page.click(f".pz-item[data-id='{partner.id}']")
    table.wait(f"body[data-puzzle='{partner.id}:playing:0']")
    counts = page.evaluate("""() => [...document.querySelectorAll('.pz-name small')].map((el) => {
      const r = el.getBoundingClientRect();
      return {text: el.textContent, height: r.height, size: parseFloat(getComputedStyle(el).fontSize)}; })""")
    assert counts
    for c in counts:
        assert c["height"] < 2 * c["size"], c  # one line
    table.shot("layout-portrait-puzzle")


# Whether each inner element's text (its glyphs, not its box, which may stretch) stays inside the
# outer element's box, padding and border aside.
BOX_INSIDE = """(pairs) => pairs.every(([inner, outer]) => {
  const range = document.createRange();
  range.selectNodeContents(inner);
  const a = range.getBoundingClientRect(), b = outer.getBoundingClientRect(), st = getComputedStyle(outer);
  return a.left >= b.left + parseFloat(st.borderLeftWidth) - 0.5 && a.right <= b.right - parseFloat(st.borderRightWidth) + 0.5;
})"""


def test_phone_portrait_level_names_counter_ranks_and_duel_news_stay_clear(make_table):
    table = make_table(PHONE_PORTRAIT_TALL).open()
    # Three levels to a row: each name stays inside its button ("Intermediate" ran over it).
    assert table.page.evaluate(f"({BOX_INSIDE})([...document.querySelectorAll('fieldset.levels .option span')]"
                               ".map((s) => [s.querySelector('b'), s]))")
    table.start("classic", "normal")
    table.wait_turn_or_over()
    table.page.click("#counter-btn")
    table.wait("#counter:not([hidden])")
    # Each rank label inside its own cell ("10" ran into "J"), the cells in a row, apart.
    assert table.page.evaluate(f"({BOX_INSIDE})([...document.querySelectorAll('#counter .cell')]"
                               ".map((c) => [c.querySelector('.rank'), c]))")
    widths = table.page.eval_on_selector_all("#counter .cell", "els => els.map((e) => e.getBoundingClientRect().width)")
    assert len(widths) == 15 and min(widths) >= 16, widths
    table.shot("phone-portrait-390-counter")

    # The duel: the opponent's bid steps back while the landlord's news shows over it.
    assert_duel_news_clear(make_table(PHONE_PORTRAIT_TALL).open(), "phone-portrait-390-duel-news")


# The bubbles that the landlord's news covers (their words).
NEWS_CLASH = """() => {
  const news = document.getElementById('news').getBoundingClientRect();
  return [...document.querySelectorAll('#board .bubble')].filter((b) => {
    const r = b.getBoundingClientRect();
    return getComputedStyle(b).visibility !== 'hidden' && r.width > 0 && r.left < news.right
      && r.right > news.left && r.top < news.bottom && r.bottom > news.top;
  }).map((b) => b.textContent);
}"""


def assert_duel_news_clear(duel, shot: str) -> None:
    """Bid through a duel in which the opponent calls first (and so has a bid on the table when
    the news comes) and check that the news covers no bubble."""
    duel.page.fill("#deal-input", "duel-e2e-0")
    duel.page.click("#deal-btn")
    duel.wait("body[data-screen=table]")
    for _ in range(6):
        if duel.wait_turn_or_over() != "bidding":
            break
        with duel.progressing():
            duel.bid_quickly("duel", rob=True)
    duel.wait("body[data-news]")
    assert duel.page.locator("#zone-1 .bubble").count() == 1  # the opponent's last bid is there
    clash = duel.page.evaluate(NEWS_CLASH)
    assert clash == [], clash
    duel.shot(shot)
    # and none of the opponent's panel (its count of cards) or of the prompt under it
    assert_apart(duel, TABLE_PARTS, [("news", "seats"), ("news", "status")])


@pytest.mark.parametrize("size", ["desktop", "landscape", "small-landscape"])
def test_duel_news_keeps_clear_of_the_opponents_bid(make_table, size):
    # On a desktop the news, in the middle of the board, covered the opponent's "Rob" above it; at
    # 740 x 360 (the counter always open in the duel) it covered the opponent's count of cards and
    # the player's first prompt ("Your lead: ...") until the first play.
    viewport = PHONE_LANDSCAPE if size == "small-landscape" else SIZES[size]
    assert_duel_news_clear(make_table(viewport).open(), f"layout-{size}-duel-news")


START_CHOICES = "#start-form fieldset.choice, #start-language, #start-btn"


@pytest.mark.parametrize("viewport", [PHONE_LANDSCAPE_WIDE, PHONE_LANDSCAPE], ids=["844", "740"])
def test_landscape_start_screen_shows_the_choices_and_new_game_unscrolled(make_table, viewport):
    # A phone held sideways: in one column the level choice and New game were below the fold.
    for locale in ["en-US", "ja-JP", "zh-CN", "zh-TW"]:
        table = make_table(viewport, locale=locale).open()
        table.wait("body[data-screen=start]")
        assert table.page.eval_on_selector("#start-screen", "el => el.scrollTop") == 0
        assert_inside(table, START_CHOICES)
        assert len(table.page.evaluate(BOXES, {"it": START_CHOICES})["it"]) == 4
        # Each choice's words inside its button ("Intermediate" whole), nothing wider than the screen.
        assert table.page.evaluate(f"({BOX_INSIDE})([...document.querySelectorAll('#start-form .option span')]"
                                   ".map((s) => [s.querySelector('b'), s]))")
        assert table.page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert_big_enough(table, f"start {locale}")
        table.shot(f"start-landscape-{viewport['width']}-{locale}")
    # A game to continue: its button is in sight too, beside New game.
    table.start("classic", "normal")
    table.wait_turn_or_over()
    table.page.click("#menu-btn")
    table.page.click("#menu-home")
    table.wait("body[data-screen=start] #continue-btn:not([hidden])")
    assert_inside(table, f"#continue-btn, {START_CHOICES}")
    table.shot(f"start-landscape-{viewport['width']}-continue")


STILL_PARTS = "#board, .me-bar, #controls, #hand-wrap"


# Where the parts are (not their classes: the player's bar lights up for the first bid).
CORNERS = "(el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
WHERE = f"(a) => [...document.querySelectorAll(a.it)].map({CORNERS})"


@pytest.mark.parametrize("size", ["phone", "tall", "desktop"])
def test_the_table_holds_still_while_the_cards_fly_in(make_table, size):
    # The flying hand took the results' margin and border (both were ".deal"): for the second
    # it flew, on every deal and when the landlord took the bottom, the table sat 14 px higher.
    viewport = {"phone": PHONE_PORTRAIT, "tall": PHONE_PORTRAIT_TALL, "desktop": DESKTOP}[size]
    table = make_table(viewport).open()
    page = table.page
    # The boxes taken the moment the flight starts (a wait for it could miss a short flight).
    page.evaluate(f"""(parts) => {{
      const hand = document.getElementById('hand');
      new MutationObserver((changes, observer) => {{
        if (!hand.classList.contains('deal')) return;
        window.__flying = [...document.querySelectorAll(parts)].map({CORNERS});
        observer.disconnect();
      }}).observe(hand, {{attributes: true, attributeFilter: ['class']}});
    }}""", STILL_PARTS)
    table.start("classic", "normal")
    page.wait_for_function("window.__flying !== undefined")
    table.wait("#hand:not(.deal)")
    assert page.evaluate(WHERE, {"it": STILL_PARTS}) == page.evaluate("window.__flying")


# What a hint must leave in sight: the plays to beat, the seats, the buttons and the hand.
HINT_CLEAR_OF = {"hint": "#status .msg.over", "plays": "#zone-1 > *, #zone-2 > *", "seats": ".seat-panel",
                 "buttons": "#controls .btn", "cards": "#hand .hcard", "me": "#me-info > *, #tools > *"}
# Whether the message over the prompt reaches past the status line.
SPILLS = """() => { const s = document.querySelector('#status');
  return s.querySelector('.msg.over').offsetHeight > s.clientHeight + 1; }"""


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_a_hint_or_an_error_does_not_move_the_table(make_table, size, variant):
    # The status line grew for a hint of two lines or more and pushed the plays up, and back down
    # when it went: on a 360 x 640 phone a four-line hint took the plays' room at every press (and
    # on a tall phone a fourth line pushed past the room kept for three). The message now lies
    # over the prompt, which keeps its place.
    table = make_table(SIZES[size]).open()
    table.start(variant, "normal")
    page = table.page
    parts = "#zone-0, #zone-1, #zone-2, #status, .me-bar, #controls"

    def boxes() -> list[tuple]:
        """The parts' boxes once they hold still (a play just made may still be sliding in: on a
        busy machine the first look caught one mid-way)."""
        last = None
        for _ in range(40):
            now = [tuple(map(round, corners)) for corners in page.evaluate(WHERE, {"it": parts})]  # seen or not
            if now == last:
                return now
            last = now
            page.wait_for_timeout(100)
        return last

    hinted = 0
    for _ in range(3):  # turns: the lead, then replies with plays to beat on the table
        if table.wait_turn_or_over() != "playing":
            table.to_my_play_turn(variant)
        page.evaluate(LANDED)
        before = boxes()
        for _ in range(2):  # the hint, and its next option
            page.click("[data-ctl=hint]")
            table.wait("#status.hint")
            assert boxes() == before
            assert_apart(table, HINT_CLEAR_OF, [("hint", p) for p in ("plays", "seats", "buttons", "cards", "me")])
            assert_inside(table, "#status .msg.over")
            if size == "small":  # grown down over the player's line, which steps back; only then
                page.wait_for_function(f"({SPILLS})() === document.querySelector('#status').classList.contains('spills')")
                assert page.eval_on_selector(".me-bar", "el => getComputedStyle(el).visibility") == \
                    ("hidden" if page.evaluate(SPILLS) else "visible")
            hinted += 1
        table.shot(f"hint-still-{variant}-{size}")
        page.keyboard.press("Escape")
        table.wait("#status:not(.hint)")
        assert boxes() == before
        # An illegal play's reason, over the same line.
        ids = table.hand_ids()
        table.click_card(ids[0])
        table.click_card(ids[-1])
        page.click("[data-ctl=play]")
        table.wait("#status.error")
        assert boxes() == before
        assert_apart(table, HINT_CLEAR_OF, [("hint", p) for p in ("plays", "seats", "buttons")])
        page.keyboard.press("Escape")
        # Play what the hint says, and go on to the next turn.
        page.click("[data-ctl=hint]")
        table.wait("#status.hint")
        with table.progressing():
            page.click("[data-ctl=play]" if page.is_enabled("[data-ctl=play]") else "[data-ctl=pass]")
        if table.wait_turn_or_over() == "over":
            break
    assert hinted >= 2
    if size == "small" and table.wait_turn_or_over() == "playing":
        # A message of one line stays within the line: the player's own line stays in sight.
        page.evaluate(f"""async () => {{
          const status = await {module("status.js")};
          const fmt = await {module("format.js")};
          status.renderStatus({{kind: 'error', parts: () => [fmt.playChips('33'), ' x']}}, ['x'], {{myTurn: true}});
        }}""")
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")  # the observer's turn
        assert page.eval_on_selector(".me-bar", "el => getComputedStyle(el).visibility") == "visible"
        assert not page.evaluate(SPILLS)


# The smallest words on the table (a seat's level, role and points, a play's kind, the round's line).
SMALL_WORDS = """() => [...document.querySelectorAll(
    '.seat-panel .level, .seat-panel .score, .role, .zone .kind, .info-line, .mult-why')]
  .filter((el) => el.getClientRects().length && el.textContent.trim())
  .map((el) => [el.className, parseFloat(getComputedStyle(el).fontSize)])"""


def test_the_tables_small_words_are_readable_on_a_desktop(make_table):
    # On a 1280 x 800 screen the levels, roles and kinds of play were 11 px, on a table with room to spare.
    table = make_table(DESKTOP).open()
    table.start("classic", "normal")
    page = table.page
    for _ in range(6):  # play the hint until some play has its kind on the table
        table.to_my_play_turn()
        if page.locator(".zone .kind").count():
            break
        page.click("[data-ctl=hint]")
        table.wait("#status.hint")
        with table.progressing():
            page.click("[data-ctl=play]" if page.is_enabled("[data-ctl=play]") else "[data-ctl=pass]")
    sizes = page.evaluate(SMALL_WORDS)
    assert {name.split()[0] for name, _ in sizes} >= {"level", "score", "role", "kind", "info-line"}, sizes
    assert min(size for _, size in sizes) >= 12, sizes
    assert_apart(table, TABLE_PARTS, [("seats", "bubbles"), ("seats", "status")])


# Resolves once the plays on the table have landed (their animation moves them).
LANDED = """() => Promise.all(document.getAnimations()
  .filter((a) => a.effect && a.effect.target && a.effect.target.closest('.zone'))
  .map((a) => a.finished.catch(() => null)))"""


# The player's line keeps inside the screen, its last word 6 px clear of the edge.
ME_LINE_FITS = """() => { const el = document.querySelector('#me-info');
  const last = [...el.children].filter((c) => c.getClientRects().length).pop().getBoundingClientRect();
  return el.scrollWidth <= el.clientWidth && last.right <= innerWidth - 6; }"""


def test_the_duel_farmers_line_fits_a_narrow_phone_at_its_longest(make_table):
    # "You, Farmer, wins with 4 left, 17 cards, −45 pts, Your turn" ran off a 360 px screen (a test
    # playing random rounds caught it once, with a score of two digits): the longest line, made so.
    table = make_table(PHONE_PORTRAIT).open()
    table.start("duel", "normal")
    table.wait_turn_or_over()
    en = translations("en")
    table.page.evaluate("""([role, wins, turn]) => { const el = document.querySelector('#me-info');
      const add = (after, cls, text) => { const x = document.createElement('span'); x.className = cls; x.textContent = text;
        after ? after.after(x) : el.append(x); return x; };
      el.querySelector('.role') || add(el.querySelector('.name'), 'role farmer', role);
      el.querySelector('.wins-at') || add(el.querySelector('.role'), 'wins-at', wins);
      el.querySelector('.turn') || add(null, 'turn', turn);
      el.querySelector('.score').textContent = '−45 pts'; el.querySelector('.count').textContent = '17 cards'; }""",
                        [en["role.farmer"], en["table.wins_at"].replace("{n}", "4"), en["table.your_turn"]])
    assert table.page.evaluate(ME_LINE_FITS)


def test_the_duel_opponents_play_keeps_off_its_panel_on_a_short_phone(make_table):
    # The counter, always open in the duel, leaves a short board on a 360 x 640 phone: the
    # opponent's play, centred in the little room left it, covered its panel's points; the more
    # so once the panel's alarm (one or two cards left) took a row of its own.
    table = make_table(PHONE_PORTRAIT).open()
    table.start("duel", "normal")
    parts = {"panel": "#seat-1", "theirs": "#zone-1 .play-row, #zone-1 .kind, #zone-1 .bubble",
             "mine": "#zone-0 .play-row, #zone-0 .kind, #zone-0 .bubble", "status": "#status > *"}
    seen = alarmed = 0
    for _ in range(4):  # rounds, until the opponent has been seen with its alarm on
        for _ in range(60):
            phase = table.wait_turn_or_over()
            if phase == "over":
                break
            if phase == "playing" and table.page.locator("#zone-1 .play-row").count():
                table.page.evaluate(LANDED)
                assert_apart(table, parts, [("theirs", "panel"), ("theirs", "mine"), ("mine", "status")])
                # the player's line ("You, Farmer, wins with 1 left, 17 cards, 0 pts, Your turn") keeps
                # clear of the screen's edge: it ran 5 px over its padding, "Your turn" at the very edge
                assert table.page.evaluate(ME_LINE_FITS)
                seen += 1
                if table.page.locator("#seat-1.alarm").count():
                    alarmed += 1
                    table.shot("phone-portrait-360-duel-alarm")
            with table.progressing():
                if phase == "bidding":
                    table.bid_quickly("duel")
                elif table.visible("pass"):  # the opponent keeps the lead and runs its hand down
                    table.page.click("[data-ctl=pass]")
                else:
                    table.play_turn()
        if alarmed:
            break
        table.wait("#settle-dialog[open]")
        table.another_round()
    assert seen >= 2 and alarmed, (seen, alarmed)
    table.shot("phone-portrait-360-duel-plays")
    # At the end the hand left over stays under the last play, not squeezed in beside it.
    table.wait("#settle-dialog[open]")
    table.page.click("[data-ctl=view-table]")
    for seat in (0, 1):
        play, left = (table.page.locator(f"#zone-{seat} {part}") for part in (".play-row", ".reveal"))
        if play.count() and left.count():
            assert left.bounding_box()["y"] >= play.bounding_box()["y"] + play.bounding_box()["height"] - 0.5


def test_the_duel_fits_a_short_computer_screen_with_large_text(make_table):
    # 1024 x 640 with the browser's text at 24 px: the duel's board came 30 px short, its
    # opponent's play lay over the opponent's panel and the bidding question over the player's bar.
    table = make_table({"width": 1024, "height": 640})
    table.page.context.new_cdp_session(table.page).send("Page.setFontSizes", {"fontSizes": {"standard": 24}})
    table.open()
    table.start("duel", "normal")
    parts = {"panel": "#seat-1", "theirs": "#zone-1 .play-row, #zone-1 .kind, #zone-1 .bubble",
             "mine": "#zone-0 .play-row, #zone-0 .kind, #zone-0 .bubble", "status": "#status > *",
             "bar": ".me-bar"}
    seen = 0
    for _ in range(40):
        phase = table.wait_turn_or_over()
        if phase == "over":
            break
        table.page.evaluate(LANDED)
        assert_apart(table, parts, [("status", "bar"), ("mine", "bar")])
        if phase == "playing" and table.page.locator("#zone-1 .play-row").count():
            assert_apart(table, parts, [("theirs", "panel"), ("theirs", "mine"), ("theirs", "status")])
            seen += 1
            if seen == 1:
                table.shot("desktop-1024x640-text24-duel")
                # a hint with a long reason grows up over the player's own zone, not over the play
                # it answers (four lines, "option 1 of 3" on one of its own, covered it)
                table.page.click("[data-ctl=hint]")
                table.wait("#status.hint")
                table.page.evaluate("""(s) => {
                  document.querySelector('#status .why').textContent = s;
                  const msg = document.querySelector('#status .msg.over');
                  if (!msg.querySelector('.hint-count')) {  // as when it has alternatives
                    const count = document.createElement('small');
                    count.className = 'hint-count';
                    count.textContent = 'option 1 of 3';
                    msg.append(count);
                  }
                }""", "Beats 33344455 rather than let it through, though it breaks up your hand: "
                      "won 48% of 175 simulated games.")
                assert_apart(table, parts, [("status", "theirs"), ("status", "panel")])
                table.shot("desktop-1024x640-text24-duel-hint")
        with table.progressing():
            if phase == "bidding":
                table.bid_quickly("duel")
            else:
                table.play_turn()
    assert seen >= 2


def test_the_landlords_news_covers_no_bid_on_a_short_computer_screen_with_large_text(make_table):
    # 1024 x 640 with the text at 24 px: the news, centred on the short board, lay over the
    # player's own "Bid 3" (which showed through it).
    table = make_table({"width": 1024, "height": 640})
    table.page.context.new_cdp_session(table.page).send("Page.setFontSizes", {"fontSizes": {"standard": 24}})
    table.open()
    table.start_deal(deal_where_i_bid_first())
    table.wait_turn_or_over()
    table.page.click("[data-ctl=bid-bid-3]")
    table.wait("body[data-news]")
    assert table.page.evaluate(NEWS_CLASH) == []


NUMBER_FITS = """() => [...document.querySelectorAll('.seat-panel .count')].every((count) => {
  const card = count.querySelector('.card').getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(count.querySelector('.n'));
  const n = range.getBoundingClientRect();
  return n.width > 0 && n.left >= card.left && n.right <= card.right;
})"""


@pytest.mark.parametrize("viewport", [{"width": 1920, "height": 1080}, {"width": 1366, "height": 768}])
def test_the_seats_hold_large_text(make_table, viewport):
    # The browser's text at 24 px: the side seats kept their 230 px, a role ran under the count of
    # cards and the level under the avatar, and "18" ran past the edges of its little card.
    table = make_table(viewport)
    table.page.context.new_cdp_session(table.page).send("Page.setFontSizes", {"fontSizes": {"standard": 24}})
    table.open()
    table.start("classic", "normal")
    table.to_my_play_turn("classic")
    parts = {"count": ".seat-panel .count", "words": ".seat-panel :is(.avatar, .who > *, .tags > *, .score)"}
    assert_apart(table, parts, [("count", "words")])
    assert table.page.evaluate(NUMBER_FITS)
    table.shot(f"desktop-{viewport['width']}-text24-classic")


@pytest.mark.parametrize("width", [320, 360, 390])
def test_each_level_name_keeps_to_one_line_on_a_narrow_phone(make_table, width):
    # At 360 px "Intermediate" broke before its last letter ("Intermediat / e").
    for locale in ["en-US", "ja-JP", "zh-CN"]:
        table = make_table({"width": width, "height": 700}, locale=locale).open()
        table.wait("body[data-screen=start]")
        lines = table.page.eval_on_selector_all(
            "fieldset.levels .option b", f"(names) => names.map((b) => [b.textContent, ({TEXT_LINES})(b)])")
        assert len(lines) == 3 and all(n == 1 for _, n in lines), (locale, lines)


@pytest.mark.parametrize("width", [320, 360, 390])
def test_the_chinese_start_notes_break_only_at_their_punctuation(make_table, width):
    # At 360 px the duel's note broke "抢地 / 主" (Chinese has no phrase breaking in the browser).
    for locale in ["zh-CN", "zh-TW"]:
        table = make_table({"width": width, "height": 700}, locale=locale).open()
        table.wait("body[data-screen=start]")
        notes = table.page.eval_on_selector_all("#start-form .option small", f"(els) => els.map({LINES_OF})")
        assert notes, locale
        for lines in notes:
            assert all(line[-1] in "：，、" for line in lines[:-1]), (locale, lines)
            assert all(len(line) > 1 for line in lines), (locale, lines)


@pytest.mark.parametrize("locale", ["ja-JP", "zh-CN"])
def test_the_records_break_no_word_on_a_narrow_phone(make_table, locale):
    # At 360 px the records' headings broke "局 / 数" and "最多連 / 勝", the level "普 / 通".
    table = make_table(PHONE_PORTRAIT, locale=locale).open()
    record = {"played": 12, "won": 12, "streak": 12, "best": 12}
    table.page.evaluate("""(r) => localStorage.setItem('dizhu.setting.records', JSON.stringify(
      {seen: [], by: {'classic|normal': r, 'duel|super-hard': r}}))""", record)
    table.start("classic", "normal")
    table.wait_turn_or_over()
    table.page.click("#menu-btn")
    table.page.click("#menu-records")
    table.wait("#records-dialog[open] #records-body tbody tr td")
    cells = table.page.eval_on_selector_all("#records-body :is(th, td)", f"(els) => els.map({LINES_OF})")
    assert len(cells) == 12, cells
    for lines in cells:
        # a cell breaks only where its words are apart: after "·" ("3人闘地主 · / 普通")
        assert all(line.endswith("·") for line in lines[:-1]), (locale, lines)
    table.shot(f"layout-small-{locale}-records")


def test_the_japanese_menu_breaks_its_long_label_between_phrases(make_table):
    # At 360 px the smart selection's label broke "ご / と" and "スト / レート" (browsers break
    # Japanese between any two characters unless told to break between phrases).
    table = make_table(PHONE_PORTRAIT, locale="ja-JP").open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    table.page.click("#menu-btn")
    table.wait("#menu-dialog[open]")
    lines = table.page.eval_on_selector("#menu-smart + span", LINES_OF)
    assert len(lines) > 1, lines
    katakana = re.compile("[\u30a0-\u30ff]")
    for before, after in zip(lines, lines[1:]):
        assert not (katakana.match(before[-1]) and katakana.match(after[0])), lines
        assert (before[-1], after[0]) != ("ご", "と"), lines


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_the_replay_shows_every_seat_whole_on_a_landscape_phone(make_table, locale):
    # Once the roles were set each seat's name, role and count took three lines, and the third
    # seat (the player's own) was cut off under the others by 15 px.
    table = make_table(PHONE_LANDSCAPE, locale=locale).open()
    table.start("classic", "normal")
    table.play_round("classic")
    table.page.click("[data-ctl=replay]")
    table.wait("#replay:not([hidden])")
    for _ in range(8):  # into the play: the roles are on every seat
        table.page.click("#replay-next")
    assert table.page.locator("#replay-table .replay-seat .role").count() == 3
    seats, scroller = table.page.evaluate("""() => [
      [...document.querySelectorAll('#replay-table .replay-seat')].map((s) => { const r = s.getBoundingClientRect(); return [r.top, r.bottom]; }),
      (({top, bottom}) => [top, bottom])(document.getElementById('replay-table').getBoundingClientRect())]""")
    assert all(top >= scroller[0] - 0.5 and bottom <= scroller[1] + 0.5 for top, bottom in seats), (seats, scroller)
    table.shot(f"replay-landscape-740-{locale}")


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
@pytest.mark.parametrize("size", ["small", "small-landscape"])
def test_the_rob_question_keeps_clear_of_the_table_on_a_phone(make_table, size, locale):
    # The question says what a rob gives the farmer, two lines on a phone: clear of the seat, the
    # player's own line and tools, the buttons and the hand.
    table = make_table(PHONE_LANDSCAPE if size == "small-landscape" else PHONE_PORTRAIT, locale=locale).open()
    table.page.fill("#deal-input", "duel-e2e-0")  # the player calls first; the opponent robs it
    table.page.click("#deal-btn")
    table.wait("body[data-screen=table]")
    for _ in range(3):
        table.wait_turn_or_over()
        if table.visible("bid-rob"):
            break
        with table.progressing():
            table.page.click("[data-ctl=bid-call]")
    assert table.visible("bid-rob")
    table.shot(f"layout-{size}-rob-question-{locale}")
    assert_apart(table, TABLE_PARTS, [("status", p) for p in ("seats", "me", "buttons", "cards")])
    assert_inside(table, "#status > *")
