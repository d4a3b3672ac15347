"""Puzzle mode in the browser: solved with the hints, failed with a losing move, on desktop and phone."""

from __future__ import annotations

import pytest

from dizhu.moves import moves_from_counts
from dizhu.puzzles import load
from dizhu.puzzles.grade import action_text

from .e2e_support import DESKTOP, FOCUSED, PHONE_PORTRAIT, ROW_SIZES, TEXT_LINES, assert_big_enough, translations

SIZES = {"desktop": DESKTOP, "phone": PHONE_PORTRAIT}


def farmer_with_partner():
    return next(p for p in load("classic") if p.seat != p.position.landlord and p.position.last is None)


def open_puzzle(table, puzzle):
    table.wait("body[data-screen=start]")
    table.page.click("#puzzles-btn")
    table.wait("body[data-screen=puzzles][data-puzzle=list]")
    if puzzle.variant == "duel":
        table.page.click(".pz-tabs button:nth-child(2)")
    table.page.click(f".pz-item[data-id='{puzzle.id}']")
    table.wait(f"body[data-puzzle='{puzzle.id}:playing:0']")


def rank_of(card_id: int) -> int:
    return card_id // 4 if card_id < 52 else 13 + (card_id - 52)


def select(table, notation_counts):
    """Click the hand's cards of the given rank counts."""
    want = list(notation_counts)
    ids = []
    for card_id in table.page.eval_on_selector_all(".pz-hand .pz-card", "els => els.map(e => +e.dataset.id)"):
        if want[rank_of(card_id)]:
            want[rank_of(card_id)] -= 1
            ids.append(card_id)
    assert not any(want)
    for card_id in ids:  # each click redraws the hand: find the card afresh
        table.page.click(f".pz-card[data-id='{card_id}']")


@pytest.mark.parametrize("size", SIZES)
def test_a_puzzle_solved_by_following_the_hints(make_table, size):
    puzzle = farmer_with_partner()
    table = make_table(SIZES[size]).open()
    open_puzzle(table, puzzle)
    assert table.page.is_visible("#pz-partner-note")  # who plays the partner is said
    table.shot(f"puzzle-start-{size}")
    for n in range(40):
        status = table.page.get_attribute("body", "data-puzzle")
        if not status.endswith(f":playing:{n}"):
            break
        table.page.click("#pz-hint")
        table.wait("#pz-status .chips, #pz-status .pz-pass")
        if table.page.query_selector(".pz-card.selected"):
            table.page.click("#pz-play")
        else:
            table.page.click("#pz-pass")
        table.wait(f"body[data-puzzle^='{puzzle.id}:'][data-puzzle$=':{n + 1}']")
        if n == 0:
            # progress survives a reload: the same position comes back
            table.reload()
            table.wait("body[data-screen=puzzles][data-puzzle$=':1']")
    assert table.page.get_attribute("body", "data-puzzle").startswith(f"{puzzle.id}:solved:")
    assert table.page.is_visible("#pz-result.win") and table.page.is_visible("#pz-next")
    following = table.page.locator("#pz-next").bounding_box()  # in the verdict, on the screen
    assert 0 <= following["y"] and following["y"] + following["height"] <= SIZES[size]["height"], following
    history = table.page.locator(".pz-history summary").bounding_box()  # the moves so far: a finger opens them
    assert history["height"] >= (44 if size == "phone" else 24), history
    table.page.click("#pz-solution")
    table.wait("#pz-explain li")
    table.shot(f"puzzle-solved-{size}")
    table.page.click("#pz-back")
    table.wait(f".pz-item.solved[data-id='{puzzle.id}']")
    table.shot(f"puzzle-list-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_a_losing_move_fails_the_puzzle_and_shows_the_refutation(make_table, size):
    puzzle = next(p for p in load("duel") if p.position.last is None)
    losing = next(m for m in moves_from_counts(puzzle.position.hands[puzzle.seat])
                  if action_text(m) not in puzzle.grade.winning)
    table = make_table(SIZES[size]).open()
    open_puzzle(table, puzzle)
    assert not table.page.is_visible("#pz-partner-note")
    select(table, losing.counts)
    table.page.click("#pz-play")
    table.wait(f"body[data-puzzle='{puzzle.id}:failed:1']")
    assert table.page.is_visible("#pz-result.loss")
    assert table.page.query_selector_all("#pz-result .pz-line li")
    table.shot(f"puzzle-failed-{size}")
    # "start again" is in the verdict, on the screen: on a phone the bar under the hand was below the fold
    again = table.page.locator("#pz-again").bounding_box()
    assert 0 <= again["y"] and again["y"] + again["height"] <= SIZES[size]["height"], again
    assert table.page.evaluate("document.activeElement.id") == "pz-again"  # the keyboard goes on from it
    assert not table.page.query_selector("#pz-retry")  # one such button, not two
    assert not table.page.query_selector("#pz-play, #pz-pass, #pz-hint")  # the moves' buttons went with the moves
    table.page.click("#pz-again")
    table.wait(f"body[data-puzzle='{puzzle.id}:playing:0']")


PHONE_390 = {"width": 390, "height": 844}


def assert_on_screen(table, viewport, *selectors: str) -> None:
    """Every element of each selector lies wholly on the first screen of ``viewport``."""
    for selector in selectors:
        for b in table.page.eval_on_selector_all(selector, "es => es.map((e) => e.getBoundingClientRect().toJSON())"):
            assert 0 <= b["top"] and b["bottom"] <= viewport["height"] and b["right"] <= viewport["width"], (selector, b)


def test_an_illegal_play_is_explained_with_the_engines_reason(make_table):
    # classic-004: the player holds JKK22 and must answer QQ; a lone J is the wrong kind
    puzzle = next(p for p in load("classic") if p.id == "classic-004")
    table = make_table(PHONE_390).open()
    open_puzzle(table, puzzle)
    counts = [0] * len(puzzle.position.hands[puzzle.seat])
    counts[8] = 1  # the J (ranks from 3: 3=0 ... J=8)
    select(table, counts)
    table.page.click("#pz-play")
    table.wait("#pz-status:has-text('cannot answer')")
    said = table.text("#pz-status")
    # the table's sentence for the engine's wrong_kind, with the trick's play in it
    english = translations("en")["reason.wrong_kind"]
    assert english.split("{play}")[1].split("{previous}")[0].strip() in said and "QQ" in said.replace(" ", "")
    assert "(pair, 2 cards)" in said  # the kind in lower case inside the sentence
    assert table.page.get_attribute("body", "data-puzzle") == f"{puzzle.id}:playing:0"  # nothing was played
    table.shot("puzzle-illegal-phone-390")


def test_the_seat_headers_card_count_stays_on_one_line_on_a_phone(make_table):
    puzzle = farmer_with_partner()  # the partner's header is the longest: "Your partner (computer)"
    table = make_table(PHONE_390).open()
    open_puzzle(table, puzzle)
    table.shot("puzzle-start-phone-390")
    for seat in table.page.query_selector_all(".pz-seat"):
        name = seat.query_selector(".pz-name b").bounding_box()
        for count in seat.query_selector_all(".pz-name small"):
            box = count.bounding_box()
            line = float(count.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
            assert box["height"] < line * 1.5, count.inner_text()  # "7 cards", not "7" over "cards"
            assert box["y"] < name["y"] + name["height"], seat.inner_text()  # beside the name, not below it


@pytest.mark.parametrize("locale", ["ja-JP", "zh-CN", "en-US"])
def test_the_puzzle_header_and_hand_wrap_cleanly_on_a_narrow_phone(make_table, locale):
    """"第 2 問・2人闘地主・やさしい" once left "い" alone on a line, the back button broke "問題一覧",
    and a 17-card hand wrapped as 8 + 8 + 1."""
    puzzle = next(p for p in load("duel") if p.difficulty == "easy")
    table = make_table(PHONE_PORTRAIT, locale=locale).open()
    open_puzzle(table, puzzle)
    table.shot(f"puzzle-duel-header-{locale}")
    back = table.page.query_selector("#pz-back")
    assert back.evaluate("e => e.getClientRects().length === 1 && e.scrollWidth <= e.clientWidth")
    parts = table.page.query_selector_all("#pz-title .pz-part")
    assert len(parts) == 3
    for part in parts:
        assert part.evaluate(TEXT_LINES) == 1, part.inner_text()
    title = table.page.query_selector("#pz-title").bounding_box()
    assert title["x"] + title["width"] <= PHONE_PORTRAIT["width"]
    lines = table.page.eval_on_selector_all(".pz-hand .pz-card", ROW_SIZES)
    assert sum(lines) == 17 and len(lines) > 1 and max(lines) - min(lines) <= 1, lines


@pytest.mark.parametrize("locale", ["ja-JP", "en-US"])
def test_the_duel_farmers_header_keeps_its_name_whole_on_a_narrow_phone(make_table, locale):
    # Its count and handicap line squeezed the name onto two lines ("Farmer / (computer)",
    # "農民（コンピュー / ター）"); they go under it instead.
    puzzle = next(p for p in load("duel") if p.seat == p.position.landlord and p.position.handicap)
    table = make_table(PHONE_PORTRAIT, locale=locale).open()
    open_puzzle(table, puzzle)
    table.shot(f"puzzle-duel-farmer-header-{locale}")
    name = table.page.query_selector(".pz-name b")
    assert name.evaluate(TEXT_LINES) == 1, name.inner_text()
    assert table.page.query_selector_all(".pz-name small")[-1].evaluate(TEXT_LINES) == 1


# The look of the table's error line (table.css), drawn beside the puzzle to compare with.
TABLE_ERROR = """() => {
  const probe = document.createElement('div');
  probe.className = 'status error';
  probe.innerHTML = '<span class="msg over">x</span>';  // a message lies over the prompt
  document.body.append(probe);
  const st = getComputedStyle(probe.firstChild);
  // its edge is an inset ring (--ring), the puzzle's a border: compared as colours
  const ring = document.createElement('i');
  ring.style.color = st.getPropertyValue('--ring');
  probe.append(ring);
  const look = [st.backgroundColor, getComputedStyle(ring).color, 'solid', st.color];
  probe.remove();
  return look;
}"""


@pytest.mark.parametrize("size", SIZES)
def test_an_illegal_plays_reason_looks_and_sounds_like_the_tables_errors(make_table, size):
    # The reason showed as plain text under the trick, unlike the table's red error line.
    puzzle = next(p for p in load("classic") if p.id == "classic-004")  # a lone J against QQ
    table = make_table(SIZES[size]).open()
    open_puzzle(table, puzzle)
    counts = [0] * len(puzzle.position.hands[puzzle.seat])
    counts[8] = 1
    select(table, counts)
    hand = table.page.locator("#pz-hand").bounding_box()
    table.page.click("#pz-play")
    table.wait("#pz-status:has-text('cannot answer')")
    look = table.page.eval_on_selector(
        "#pz-status", "el => { const st = getComputedStyle(el); return [st.backgroundColor, st.borderTopColor, st.borderTopStyle, st.color]; }")
    assert look == table.page.evaluate(TABLE_ERROR)
    assert table.page.get_attribute("#pz-status", "aria-live") == "assertive"  # spoken at once, as the table's
    if size == "desktop":  # on one line, the hand stays put (on a phone the reason takes two)
        assert abs(table.page.locator("#pz-hand").bounding_box()["y"] - hand["y"]) < 1
    table.shot(f"puzzle-illegal-{size}")
    # A hint afterwards is no error.
    table.page.click("#pz-hint")
    table.wait("#pz-status:not(.error) .chips")
    assert translations("en")["puzzle.hint_is"] in table.text("#pz-status")
    assert table.page.get_attribute("#pz-status", "aria-live") is None


def test_the_puzzle_tiles_keep_each_part_whole_on_a_landscape_phone(make_table):
    # "Landlord · 14 / cards": the count broke from its word on the list's narrow tiles.
    table = make_table({"width": 740, "height": 360}).open()
    table.wait("body[data-screen=start]")
    table.page.click("#puzzles-btn")
    table.wait("body[data-screen=puzzles][data-puzzle=list]")
    split = table.page.eval_on_selector_all(
        ".pz-item small .pz-part", f"(parts) => parts.filter((p) => ({TEXT_LINES})(p) > 1).map((p) => p.textContent)")
    assert table.page.locator(".pz-item small .pz-part").count() > 10 and split == []
    table.shot("puzzles-list-landscape-740")
    # And the tiles are wide enough for the whole line: "Landlord · / 10 cards" broke on some
    # tiles of the duel's list and not on the others.
    for tab in (1, 2):
        table.page.click(f".pz-tabs button:nth-child({tab})")
        broken = table.page.eval_on_selector_all(
            ".pz-item small", f"(lines) => lines.filter((p) => ({TEXT_LINES})(p) > 1).map((p) => p.textContent)")
        assert broken == [], broken


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_the_hand_and_its_buttons_are_on_screen_on_a_landscape_phone(make_table, variant):
    # One under the other, the goal, the notes and the other hands pushed the player's hand to
    # 400 px on a 360 px screen, and its buttons lower still: the first screen had nothing to press.
    puzzle = farmer_with_partner() if variant == "classic" else next(p for p in load("duel") if p.position.last is None)
    viewport = {"width": 740, "height": 360}
    table = make_table(viewport).open()
    open_puzzle(table, puzzle)
    table.shot(f"puzzle-start-landscape-{variant}")
    assert_on_screen(table, viewport, ".pz-card", "#pz-play", "#pz-pass", "#pz-hint")


def test_a_puzzle_solved_with_the_keyboard_alone(make_table):
    # Every press redrew the board and dropped the keyboard to <body>: a second card, the hint or
    # the next move each needed the Tab key from the page's top again.
    puzzle = farmer_with_partner()
    table = make_table(DESKTOP).open()
    page = table.page
    table.wait("body[data-screen=start]")
    page.focus("#puzzles-btn")
    page.keyboard.press("Enter")
    table.wait("body[data-screen=puzzles][data-puzzle=list]")
    assert page.evaluate(FOCUSED) == "pz-tab-classic"  # the list opens on its tabs
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the duel's tab, and back: the tab keeps the keyboard
    table.wait("#pz-tab-duel[aria-selected=true]")
    assert page.evaluate(FOCUSED) == "pz-tab-duel"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    table.wait("#pz-tab-classic[aria-selected=true]")
    page.focus(f".pz-item[data-id='{puzzle.id}']")
    page.keyboard.press("Enter")
    table.wait(f"body[data-puzzle='{puzzle.id}:playing:0']")
    assert page.evaluate("document.activeElement.classList.contains('pz-card')")  # a new position: its hand
    for n in range(40):
        if not page.get_attribute("body", "data-puzzle").endswith(f":playing:{n}"):
            break
        page.focus("#pz-hint")
        page.keyboard.press("Enter")
        table.wait("#pz-status .chips, #pz-status .pz-pass")
        assert page.evaluate(FOCUSED) == "pz-hint"
        picked = page.eval_on_selector_all(".pz-card.selected", "els => els.map(e => e.dataset.id)")
        if picked:
            # a card pressed twice by Enter: picked, then put back, the keyboard on it throughout
            page.focus(f".pz-card[data-id='{picked[0]}']")
            page.keyboard.press("Enter")
            page.keyboard.press("Enter")
            assert page.evaluate(FOCUSED) == picked[0]
            assert page.is_visible(f".pz-card.selected[data-id='{picked[0]}']")
        page.focus("#pz-play" if picked else "#pz-pass")
        page.keyboard.press("Enter")
        table.wait(f"body[data-puzzle^='{puzzle.id}:'][data-puzzle$=':{n + 1}']")
        if page.get_attribute("body", "data-puzzle").split(":")[1] == "playing":
            assert page.evaluate(FOCUSED) not in ("BODY", None)
    assert page.get_attribute("body", "data-puzzle").startswith(f"{puzzle.id}:solved:")
    assert page.evaluate(FOCUSED) == "pz-next"
    page.keyboard.press("Enter")  # the next puzzle opens on its hand
    table.wait(f"body[data-puzzle$=':playing:0']:not([data-puzzle^='{puzzle.id}:'])")
    assert page.evaluate("document.activeElement.classList.contains('pz-card')")
    page.focus("#pz-back")
    page.keyboard.press("Enter")  # the list, then home: back on the button that opened the puzzles
    table.wait("body[data-puzzle=list]")
    page.keyboard.press("Enter")
    table.wait("body[data-screen=start]")
    assert page.evaluate(FOCUSED) == "puzzles-btn"


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_a_puzzles_cards_and_buttons_are_big_enough_to_tap_on_a_phone(make_table, locale):
    # The hand's cards were 38 px wide on a phone, under the 44 px the table keeps to
    table = make_table(PHONE_PORTRAIT, locale=locale).open()
    open_puzzle(table, farmer_with_partner())
    assert_big_enough(table, "puzzle")
    table.shot(f"puzzle-phone-tap-{locale}")


@pytest.mark.parametrize("viewport", [PHONE_PORTRAIT, {"width": 740, "height": 360}], ids=["portrait", "landscape"])
def test_the_last_moves_show_the_defences_answers_to_the_players_move(make_table, viewport):
    # The solver answers at once: once its passes ended the trick, the board said only "your lead",
    # and what had happened was folded away in "Moves so far".
    puzzle = farmer_with_partner()
    table = make_table(viewport).open()
    open_puzzle(table, puzzle)
    assert not table.page.query_selector("#pz-recent")  # nothing played yet
    table.page.click("#pz-hint")
    table.wait("#pz-status .chips")
    table.page.click("#pz-play")
    table.wait(f"body[data-puzzle='{puzzle.id}:playing:1']")
    recent = table.page.eval_on_selector_all("#pz-recent li", "els => els.map(e => e.textContent)")
    every = table.page.eval_on_selector_all(".pz-history li", "els => els.map(e => e.textContent)")
    you = translations("en")["puzzle.you"].split("{role}")[0]  # "You (", not "Your partner"
    assert len(recent) >= 2 and recent[0].startswith(you), recent  # the player's move, then the answers
    assert every[-len(recent):] == recent and not any(m.startswith(you) for m in recent[1:]), (recent, every)
    table.shot(f"puzzle-last-moves-{viewport['width']}")
    if viewport["width"] < viewport["height"]:
        # on a phone the notes on how the puzzle works make room for them once the player has moved
        assert not table.page.is_visible("#pz-partner-note")
        return
    # on a landscape phone the hand and its buttons stay on the first screen, beside the last moves
    assert_on_screen(table, viewport, ".pz-card", "#pz-play", "#pz-pass", "#pz-hint", "#pz-recent")


def test_a_puzzle_failed_by_a_pass_still_shows_the_play_passed_on(make_table):
    # Once over, the trick box went, the last moves standing for it: a pass on the puzzle's opening
    # play (classic-001: 4JJJ, from before the player's move) left that play shown nowhere.
    puzzle = next(p for p in load("classic") if p.id == "classic-001")
    assert puzzle.position.last is not None and "pass" not in puzzle.grade.winning
    table = make_table(PHONE_PORTRAIT).open()
    open_puzzle(table, puzzle)
    table.page.click("#pz-pass")
    table.wait(f"body[data-puzzle='{puzzle.id}:failed:1']")
    shown = table.page.eval_on_selector("#pz-trick", "e => e.textContent").split()[-1]  # the chips' text: JJJ4
    assert sorted(shown) == sorted(puzzle.position.last[1].text), shown
    assert table.page.eval_on_selector_all("#pz-recent li", "els => els.length") >= 1
