"""The post-round review through the UI: a round played to the end, then "Review"."""

from __future__ import annotations

import re

import pytest

from .e2e_support import DESKTOP, PHONE_LANDSCAPE, PHONE_PORTRAIT, assert_big_enough, deal_where_i_bid_first, module, translations

PHONE_LANDSCAPE_WIDE = {"width": 844, "height": 390}

REVIEW_TIMEOUT = 120_000  # the server reviews each decision at the search's default budget


def open_review(table):
    """Press "Review" on the settlement sheet and wait for the review."""
    table.page.click("[data-ctl=review]")
    table.wait("#replay:not([hidden]) #review")
    # While the server works, a progress bar and a status line say how far it has got.
    table.wait("#review progress, #replay[data-review=done]")
    table.wait("#replay[data-review=done]", timeout=REVIEW_TIMEOUT)


def test_a_round_is_reviewed_with_marks_on_a_timeline_and_steps_by_keyboard(make_table):
    table = make_table(DESKTOP).open()
    en = translations("en")
    table.start_deal(deal_where_i_bid_first())
    table.play_round("classic")
    open_review(table)
    marks = table.page.locator("#review .review-mark")
    count = marks.count()
    # A fixed deal (a random one sometimes left the player a single decision, and the steps untested).
    assert count > 1, count
    grades = table.page.eval_on_selector_all("#review .review-mark", "els => els.map(e => e.dataset.grade)")
    assert set(grades) <= {"good", "inaccuracy", "mistake", "blunder"}
    counts = table.text("#review .review-counts")
    for grade in ("good", "inaccuracy", "mistake", "blunder"):
        assert f"{en[f'review.grade.{grade}']} {grades.count(grade)}" in counts
    # The replay opened on the first decision: it is marked as the current one, and explained.
    assert marks.nth(0).get_attribute("aria-current") == "step"
    assert "Decision 1:" in marks.nth(0).get_attribute("aria-label")
    detail = table.text("#review .review-detail")
    assert en["review.made"] in detail and "% to win" in detail
    # The face-up line names a move only when it is another than the one made (the same move
    # named twice with two figures read as a contradiction); minus signs are true minus signs.
    made, label, named = table.page.evaluate("""() => {
      const detail = document.querySelector('#review .review-detail');
      const faceup = detail.querySelector('.review-faceup');
      const named = faceup.querySelector('b');
      return [detail.querySelector('p:nth-child(2) b').textContent, faceup.querySelector('.review-label').textContent,
              named && named.textContent];
    }""")
    if named is None:
        assert label == en["review.face_up_same"], (label, made)
    else:
        assert label == en["review.face_up"] and named != made, (label, named, made)
    assert not re.search(r"(?<![\w])-\d", detail), detail
    assert table.page.evaluate(f"async () => (await {module('format.js')}).signed(-3, 1)") == "\u22123.0"
    table.shot("desktop-en-review")
    # ] jumps to the next decision, and the replay's step moves with it.
    step = table.text("#replay-step")
    table.page.keyboard.press("]")
    table.wait("#review .review-mark.current[data-decision='1']")
    assert table.text("#replay-step") != step
    # Enter on "next decision" up to the last: the keyboard then holds "previous decision" (it went
    # to the replay's next step, and further Enters stepped the replay instead)
    table.page.focus("#review [data-ctl=review-next]")
    for _ in range(count):
        if table.page.is_disabled("#review [data-ctl=review-next]"):
            break
        current = table.page.get_attribute("#review .review-mark.current", "data-decision")
        table.page.keyboard.press("Enter")
        table.wait(f"#review .review-mark.current:not([data-decision='{current}'])")
    assert table.page.get_attribute("#review .review-mark.current", "data-decision") == str(count - 1)
    assert table.page.evaluate("document.activeElement.dataset.ctl") == "review-prev"
    marks.nth(0).focus()
    table.page.keyboard.press("Enter")
    table.wait("#review .review-mark.current[data-decision='0']")
    # Escape closes the replay and the review with it, back to the results; a second view is
    # answered at once.
    table.page.keyboard.press("Escape")
    table.wait("#settle-dialog[open]")
    assert table.page.locator("#review").count() == 0
    # on the button that opened the review (it was the replay's, one Enter from the wrong view)
    assert table.page.evaluate("document.activeElement.dataset.ctl") == "review"
    table.page.click("[data-ctl=review]")
    table.wait("#replay[data-review=done]", timeout=5_000)


def test_the_review_in_japanese_on_a_phone(make_table):
    table = make_table(PHONE_PORTRAIT, locale="ja-JP").open()
    ja = translations("ja")
    table.start_deal(deal_where_i_bid_first("duel"))
    table.play_round("duel")
    assert table.text("[data-ctl=review]") == ja["review.open"]
    open_review(table)
    assert table.text("#review-title") == ja["review.title"]
    # On opening, the review's title and its first decision are in sight above the step buttons
    # (at 360 x 640 they were under the replay's seats and the buttons: "Review" showed the replay).
    # The close button stays at the top edge, clear of what scrolls under it (a phone has no Esc).
    assert table.page.evaluate(IN_VIEW, ["#review-title", "#review .review-grade", "#replay-close"]) == []
    grade, nav, head = (table.page.locator(s).bounding_box() for s in ("#review .review-grade", ".replay-nav", ".replay-head"))
    assert head["y"] + head["height"] <= grade["y"] + 0.5 and grade["y"] + grade["height"] <= nav["y"] + 0.5, (head, grade, nav)
    panel = table.page.locator("#review").bounding_box()
    assert panel["width"] <= PHONE_PORTRAIT["width"]
    table.shot("phone-ja-review")
    # Its words and styles come with review.js (i18n/review/, review.css, and replay.css); a language
    # chosen while it is open brings that language's part.
    assert table.page.eval_on_selector("#review", "el => getComputedStyle(el).paddingLeft") == "10px"
    assert table.page.eval_on_selector("#replay-table", "el => getComputedStyle(el).display") == "flex"  # replay.css
    for mark in table.page.locator("#review .review-mark").all():  # big enough for a finger
        box = mark.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    # A decision picked on the timeline brings its explanation into sight, above the step buttons
    # (it was under the replay's seats, off the screen).
    table.page.click("#review .review-mark[data-decision='1']")
    table.wait("#review .review-mark.current[data-decision='1']")
    assert table.page.evaluate(IN_VIEW, ["#review .review-grade", "#replay-close"]) == []
    grade, nav, head = (table.page.locator(s).bounding_box() for s in ("#review .review-grade", ".replay-nav", ".replay-head"))
    assert head["y"] + head["height"] <= grade["y"] + 0.5 and grade["y"] + grade["height"] <= nav["y"] + 0.5, (head, grade, nav)
    table.shot("phone-ja-review-picked")
    assert_big_enough(table, "review")
    for language in ["zh-Hans", "zh-Hant", "en"]:
        table.page.evaluate(f"async (code) => (await {module('i18n.js')}).setLanguage(code)", language)
        table.wait(f"html[lang={language}]")
        words = translations(language)
        assert table.text("#review-title") == words["review.title"]
        assert words["review.made"] in table.text("#review .review-detail")
        if language.startswith("zh"):  # no space after a full-width colon ("原因： …")
            assert "： " not in table.text("#review .review-detail"), table.text("#review .review-detail")


# Whether each element is wholly inside the window (its box, not clipped off by a scroller).
IN_VIEW = """(selectors) => selectors.map((sel) => {
  const els = [...document.querySelectorAll(sel)];
  return [sel, els.length > 0 && els.every((el) => {
    const r = el.getBoundingClientRect();
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) return false;
    for (let p = el.parentElement; p; p = p.parentElement) {  // not scrolled out of a scroller's box
      const st = getComputedStyle(p);
      if (!/(auto|scroll|hidden)/.test(st.overflowY + st.overflowX)) continue;
      const q = p.getBoundingClientRect();
      if (r.top < q.top - 0.5 || r.bottom > q.bottom + 0.5) return false;
    }
    return true;
  })];
}).filter(([, inside]) => !inside).map(([sel]) => sel)"""


@pytest.mark.parametrize("viewport", [PHONE_LANDSCAPE_WIDE, PHONE_LANDSCAPE, {"width": 640, "height": 360}],
                         ids=["844", "740", "640"])
def test_the_replay_and_its_review_fit_a_landscape_phone(make_table, viewport):
    # 844x390: the replay showed two of the three seats (often not the one acting), and pressing
    # Review showed the replay alone, the review out of sight below it. 740x360: beside the
    # review, a seat took three lines and the player's own was cut off at the bottom.
    table = make_table(viewport).open()
    table.start_deal(deal_where_i_bid_first())
    table.play_round("classic")
    table.page.click("[data-ctl=replay]")
    table.wait("#replay[open]")
    for _ in range(5):
        table.page.click("#replay-next")
        outside = table.page.evaluate(IN_VIEW, [".replay-seat", ".replay-seat.acting", "#replay-caption", ".replay-nav button",
                                               "#replay-close"])
        assert outside == [], outside
    table.shot("phone-landscape-844-replay")
    table.page.keyboard.press("Escape")
    table.wait("#settle-dialog[open]")
    open_review(table)
    table.shot("phone-landscape-844-review")
    outside = table.page.evaluate(IN_VIEW, [".replay-seat", "#replay-caption", ".replay-nav button", "#review-title",
                                           "#review .review-counts", "#review .review-mark.current", "#review .review-grade"])
    assert outside == [], outside
    assert table.page.locator("#review .review-mark").count() > 1
    table.page.keyboard.press("]")
    table.wait("#review .review-mark.current[data-decision='1']")
    table.shot(f"phone-landscape-{viewport['width']}-review-next")
    outside = table.page.evaluate(IN_VIEW, [".replay-seat", "#replay-caption", "#review .review-grade",
                                           "#review .review-mark.current"])
    assert outside == [], outside
    # what the panel scrolled out of sight went whole: no half a row of counts at its top
    assert table.page.evaluate(HALF_CUT, "#review") == []
    # Every card's rank shows whole in the strip the next card leaves (a hand of 19 beside the
    # review showed "10" as "1(" at 740 x 360, a hand of 20 at 640 x 360).
    cut = table.page.evaluate(RANKS_CUT, ".replay-hand .card-row")
    assert cut == [], cut
    # The row of marks fades out only at an end with more marks past it.
    row = table.page.locator("#review .review-timeline")
    if row.evaluate("el => el.scrollWidth > el.clientWidth"):
        row.evaluate("el => { el.scrollLeft = 0; el.dispatchEvent(new Event('scroll')); }")
        assert row.get_attribute("data-more") == "end"
        row.evaluate("el => { el.scrollLeft = el.scrollWidth; el.dispatchEvent(new Event('scroll')); }")
        assert row.get_attribute("data-more") == "start"
        table.shot(f"phone-landscape-{viewport['width']}-review-marks-end")


# The cards of the rows whose rank runs under the next card, and by how much.
RANKS_CUT = """(sel) => [...document.querySelectorAll(sel)].flatMap((row) => {
  const cards = [...row.querySelectorAll('.card')];
  return cards.slice(0, -1).flatMap((card, i) => {
    const rank = card.querySelector('.rk');
    const over = rank ? rank.getBoundingClientRect().right - cards[i + 1].getBoundingClientRect().left : 0;
    // (the rank's box holds the glyph's side bearings too, about 1.5 px at this size)
    return over > 2 ? [`${rank.textContent} by ${over.toFixed(1)} px`] : [];
  });
})"""


# The children of a scroller that are neither wholly in its box nor wholly out of it.
HALF_CUT = """(sel) => {
  const box = document.querySelector(sel).getBoundingClientRect();
  return [...document.querySelector(sel).children].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top < box.top - 0.5 && r.bottom > box.top + 0.5;
  }).map((el) => el.className || el.tagName);
}"""


def test_the_review_leaves_the_replays_seats_whole_on_a_desktop(make_table):
    # 1366x768: the replay's third seat was cut off at the bottom, under the review panel.
    table = make_table({"width": 1366, "height": 768}).open()
    table.start_deal(deal_where_i_bid_first())
    table.play_round("classic")
    open_review(table)
    for decision in range(min(3, table.page.locator("#review .review-mark").count())):
        if decision:  # the next decision, whose explanation may take more lines
            table.page.keyboard.press("]")
            table.wait(f"#review .review-mark.current[data-decision='{decision}']")
        outside = table.page.evaluate(IN_VIEW, [".replay-seat", "#replay-caption", ".replay-nav button", "#review-title",
                                               "#review .review-mark.current", "#review .review-grade"])
        assert outside == [], (decision, outside)
    table.shot("desktop-1366-review")


def go_to_decision(table, decision: int, seats: str) -> list:
    """Press a decision's mark; what of ``seats``, the caption, the step buttons, the mark and the
    grade is then out of sight (IN_VIEW)."""
    table.page.locator("#review .review-mark").nth(decision).click()
    table.wait(f"#review .review-mark.current[data-decision='{decision}']")
    table.page.wait_for_timeout(300)  # (the scroll into sight)
    return table.page.evaluate(IN_VIEW, [seats, "#replay-caption", ".replay-nav button",
                                         "#review .review-mark.current", "#review .review-grade"])


def test_the_review_and_all_three_seats_are_in_sight_on_a_tall_phone(make_table):
    # 390x844: the marks took four rows (a long round), so bringing a decision's explanation into
    # sight scrolled the other seats out of it: the play could not be read beside its grade.
    table = make_table({"width": 390, "height": 844}).open()
    table.start_deal(deal_where_i_bid_first())
    table.play_round("classic")
    open_review(table)
    # as long an explanation as a long round's may be: bringing it into sight pushed the seats
    # under the title bar (a CI run met one; the review's words vary with its search)
    table.page.evaluate("document.styleSheets[0].insertRule('.review-detail { padding-bottom: 160px; }')")
    marks = table.page.locator("#review .review-mark")
    for decision in sorted({0, min(3, marks.count() - 1), marks.count() - 1}):
        outside = go_to_decision(table, decision, ".replay-seat")
        assert outside == [], (decision, outside)
        # ... and none of the seats is under the title bar that stays at the top
        head = table.page.locator(".replay-head").bounding_box()
        tops = table.page.eval_on_selector_all(".replay-seat", "els => els.map(e => e.getBoundingClientRect().top)")
        assert min(tops) >= head["y"] + head["height"] - 0.5, (decision, tops, head)
    assert_big_enough(table, "review")
    table.shot("phone-portrait-390-review")


def test_the_review_shows_a_decisions_reason_beside_the_acting_seat_on_a_small_phone(make_table):
    # 360 x 640: the grade alone was in sight; its reason and figures were under the fold
    table = make_table(PHONE_PORTRAIT).open()
    table.start_deal(deal_where_i_bid_first())
    table.play_round("classic")
    open_review(table)
    marks = table.page.locator("#review .review-mark")
    for decision in sorted({0, marks.count() - 1}):
        outside = go_to_decision(table, decision, ".replay-seat.acting")
        assert outside == [], (decision, outside)
        # the grade and what follows it begin well above the step buttons (a long explanation goes
        # on under them, a scroll away)
        detail = table.page.locator("#review .review-detail").bounding_box()
        nav = table.page.locator(".replay-nav").bounding_box()
        assert detail["y"] + 60 <= nav["y"], (decision, detail, nav)
    table.shot("phone-portrait-360-review")


CUT = """(sel) => { const el = document.querySelector(sel), box = document.querySelector('#review').getBoundingClientRect();
  const r = el.getBoundingClientRect(); return r.top < box.top - 0.5 && r.bottom > box.top + 0.5; }"""


ACTING_WHOLE = """() => { const box = document.querySelector('#replay-table').getBoundingClientRect();
  const r = document.querySelector('#replay-table .replay-seat.acting').getBoundingClientRect();
  return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5; }"""


def test_a_review_panel_that_scrolls_never_cuts_its_title_in_half(make_table):
    # 1024x640 with the browser's text at 24 px: the panel scrolled just enough to show the
    # explanation, and its title, counts and arrows were cut in half at its top edge.
    table = make_table({"width": 1024, "height": 640})
    table.page.context.new_cdp_session(table.page).send("Page.setFontSizes", {"fontSizes": {"standard": 24}})
    table.open()
    table.start_deal(deal_where_i_bid_first())
    table.play_round("classic")
    open_review(table)
    marks = table.page.locator("#review .review-mark")
    for decision in sorted({1, marks.count() // 2, marks.count() - 1}):
        marks.nth(decision).click()
        table.wait(f"#review .review-mark.current[data-decision='{decision}']")
        table.page.wait_for_timeout(200)
        assert table.page.evaluate(IN_VIEW, ["#review .review-mark.current", "#review .review-grade"]) == [], decision
        cut = [s for s in ("#review-title", "#review .review-counts", "#review .review-step") if table.page.evaluate(CUT, s)]
        assert cut == [], (decision, cut)
        # the seats' own box, which scrolls at this size, shows the acting seat whole: it stayed at
        # its top and hid the player's row, the one reviewed
        assert table.page.evaluate(ACTING_WHOLE), decision
    table.shot("desktop-1024-24px-review")
