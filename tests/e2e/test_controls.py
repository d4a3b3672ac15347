"""Controls: illegal plays, the hint, auto-play, keyboard and drag selection."""

from __future__ import annotations

from .e2e_support import DESKTOP, FOCUSED, PHONE_PORTRAIT, deal_where_i_bid_first, translations


def unrelated_pair(table) -> list[int]:
    """Two cards of different ranks that are not the two jokers (never a legal play)."""
    ids = sorted(table.hand_ids())
    rank = lambda i: i // 4 if i < 52 else 13 + i - 52  # noqa: E731
    low = ids[0]
    for other in reversed(ids):
        if rank(other) != rank(low) and not {low, other} == {52, 53}:
            return [low, other]
    raise AssertionError("hand has a single rank")


def test_illegal_play_shows_a_reason_and_keeps_the_cards(make_table):
    table = make_table(PHONE_PORTRAIT).open()
    en = translations("en")
    # The player leads (a fixed deal they bid 3 first in): answering a play, a tap selects a whole
    # legal reply (smart selection), and the two cards would not stay an illegal pair.
    table.start_deal(deal_where_i_bid_first())
    table.to_my_play_turn()
    assert not table.visible("pass")
    before = table.hand_ids()
    pair = unrelated_pair(table)
    for card in pair:
        table.click_card(card)
    assert sorted(table.selected_ids()) == sorted(pair)
    table.page.click("[data-ctl=play]")
    table.wait("#status.error")
    assert table.text("#status") == en["reason.not_a_pair"]
    # Refused: same hand, same selection, still our turn.
    assert table.hand_ids() == before
    assert sorted(table.selected_ids()) == sorted(pair)
    table.wait("body[data-turn=me]")
    table.shot("phone-portrait-en-illegal")

    # The reason is given in the player's language: the message on the table is redrawn in the
    # new language at once, and a new refusal comes in it too.
    ja = translations("ja")["reason.not_a_pair"]
    table.page.click("#menu-btn")
    table.page.select_option("#menu-language", "ja")
    table.wait("html[lang=ja]")
    table.page.keyboard.press("Escape")
    assert table.text("#status") == ja
    table.page.click("[data-ctl=play]")
    table.page.wait_for_function("document.querySelector('#status').dataset.key.startsWith('error|')")
    assert table.text("#status") == ja
    assert sorted(table.selected_ids()) == sorted(pair)


def test_hint_selects_and_explains_without_submitting(make_table):
    table = make_table(DESKTOP).open()
    table.start("classic", "normal")
    while table.wait_turn_or_over() != "bidding":  # a computer bid 3 before us: deal again
        with table.progressing():
            table.new_game_from_menu()
    # Bidding: the hint lights the recommended button and says why.
    progress = table.progress()
    table.page.click("[data-ctl=hint]")
    table.wait("#status.hint")
    assert table.page.locator("#controls .btn.suggested").count() == 1, table.page.eval_on_selector_all("#controls .btn.suggested", "els => els.map(e => e.outerHTML)")
    assert len(table.text("#status")) > len("Hint")
    assert table.progress() == progress  # nothing was submitted
    assert table.page.get_attribute("body", "data-turn") == "me"

    # Playing: when we lead, the hint must pick cards (a leader cannot pass).
    table.to_my_play_turn()
    for _ in range(60):
        if not table.visible("pass"):
            break
        with table.progressing():
            table.play_turn()
        assert table.wait_turn_or_over() == "playing", "the round ended before we led"
    progress = table.progress()
    table.page.click("[data-ctl=hint]")
    table.wait("#status.hint")
    selected = table.selected_ids()
    assert selected and set(selected) <= set(table.hand_ids())
    assert table.page.locator("#hand .hcard.hinted").count() == len(selected)
    # The status shows the suggested cards as chips, then the reason.
    assert table.page.locator("#status .msg > .chips .chip").count() == len(selected)
    assert table.text("#status .why").strip()
    assert table.progress() == progress and table.page.get_attribute("body", "data-turn") == "me"
    assert table.page.is_enabled("[data-ctl=play]")
    table.shot("desktop-en-hint")


def test_autoplay_plays_a_round_and_stops_on_command(make_table):
    table = make_table(DESKTOP).open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    table.auto_play(500)
    assert table.page.get_attribute("[data-ctl=auto]", "aria-pressed") == "true"
    # Nobody touches anything: the round plays itself to the settlement.
    table.wait("#settle-dialog[open]", timeout=120_000)
    table.another_round()

    # Start again, let it act once, then stop it.
    table.wait("body[data-turn=me]")
    progress = table.progress()
    table.page.click("[data-ctl=auto]")
    table.wait(f'body:not([data-progress="{progress}"])', timeout=20_000)
    table.page.click("[data-ctl=auto]")
    assert table.page.get_attribute("[data-ctl=auto]", "aria-pressed") == "false"
    phase = table.wait_turn_or_over()
    if phase != "over":
        stopped = table.progress()
        # Four intervals go by: nothing more happens on our behalf.
        table.page.wait_for_timeout(2000)
        assert table.progress() == stopped
        assert table.page.get_attribute("body", "data-turn") == "me"


def test_autoplay_waits_behind_a_dialog_and_the_results_come_after_it(make_table):
    # Auto-play went on behind the open menu (8 moves at 0.5 s), the round ended unseen there and
    # the results never opened.
    table = make_table(DESKTOP).open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    table.auto_play(500)
    table.page.click("#menu-btn")
    table.wait("#menu-dialog[open]")
    if table.wait_turn_or_over() == "playing" or table.page.get_attribute("body", "data-turn") == "me":
        before = table.progress()
        table.page.wait_for_timeout(2500)  # five intervals: nothing is played for us behind the menu
        assert table.progress() == before
    table.page.keyboard.press("Escape")
    table.page.wait_for_selector("#menu-dialog[open]", state="detached")
    # Closed, the round plays on by itself, and its results open at the end (also when it ended
    # behind the menu).
    table.wait("#settle-dialog[open]", timeout=120_000)


def test_picking_a_card_takes_the_turn_back_from_auto_play(make_table):
    # A card tapped while auto-play was on stayed picked for a moment, then auto-play played
    # for the player anyway: whoever picks a card wants to choose the play.
    table = make_table(DESKTOP).open()
    table.start("classic", "normal")
    table.to_my_play_turn()
    table.auto_play(3000)
    table.wait("body[data-turn=me]")
    progress = table.progress()
    first = table.hand_ids()[0]
    table.click_card(first)
    assert table.page.get_attribute("[data-ctl=auto]", "aria-pressed") == "false"
    picked = table.selected_ids()  # (smart selection may widen the tap to a whole reply)
    assert first in picked
    table.page.wait_for_timeout(3500)  # past the interval: nothing was played for us
    assert table.progress() == progress
    assert table.selected_ids() == picked


def test_asking_for_a_hint_takes_the_turn_back_from_auto_play(make_table):
    # Hint stopped auto-play only when its advice picked cards: advising a bid (or a pass) left it
    # on, and the game acted by itself a moment later.
    table = make_table(DESKTOP).open()
    table.start_deal(deal_where_i_bid_first())
    table.wait("body[data-turn=me]")
    assert table.page.get_attribute("body", "data-phase") == "bidding"
    table.auto_play(3000)
    progress = table.progress()
    table.page.click("[data-ctl=hint]")
    table.wait("#status.hint")
    assert table.page.get_attribute("[data-ctl=auto]", "aria-pressed") == "false"
    table.page.wait_for_timeout(3500)  # past the interval: nothing was done for us
    assert table.progress() == progress


def test_the_keyboard_is_never_left_on_the_page_itself(make_table):
    # Starting a game from the keyboard left the focus on <body> (the button went with the start
    # screen) until the deal was over; back home by the menu, too; and at a round's end the focus
    # went to the empty hand, a box around nothing.
    table = make_table(DESKTOP).open()
    page = table.page

    def enter(screen: str) -> None:
        page.keyboard.press("Enter")
        table.wait(f"body[data-screen={screen}]")

    table.wait("body[data-screen=start]")
    page.focus("#start-btn")
    enter("table")
    assert page.evaluate(FOCUSED) == "hand"
    page.click("#menu-btn")
    page.click("#menu-home")
    table.wait("body[data-screen=start]")
    assert page.evaluate(FOCUSED) == "continue-btn"
    enter("table")
    assert page.evaluate(FOCUSED) == "hand"
    table.play_round("classic")
    page.keyboard.press("Escape")  # the results closed: the table, the round over
    page.wait_for_selector("#settle-dialog[open]", state="detached")
    page.wait_for_function(f"() => ({FOCUSED})() === 'next-round'")
    # The next round, by the table's button and then by the results' own: the keyboard lands on
    # the hand (the pressed button was hidden with the focus on it, and the focus fell to <body>
    # until the player's first key).
    for _ in range(2):
        with table.progressing():
            page.keyboard.press("Enter")
        table.wait("body:not([data-phase=over])")
        page.wait_for_function(f"() => ({FOCUSED})() === 'hand'")
        table.play_round("classic")
        assert page.evaluate(FOCUSED) == "another-round"
    # The auto-play interval's arrows step through its choices; the first one sent the keyboard
    # to the hand, whose next arrow picked a card.
    page.keyboard.press("Escape")
    page.wait_for_function(f"() => ({FOCUSED})() === 'next-round'")
    with table.progressing():
        page.keyboard.press("Enter")
    table.to_my_play_turn()
    page.focus("[data-ctl=interval]")
    first = page.eval_on_selector("[data-ctl=interval]", "s => s.selectedIndex")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(FOCUSED) == "interval"
    assert page.eval_on_selector("[data-ctl=interval]", "s => s.selectedIndex") == first + 2


def test_keyboard_selects_and_plays(make_table):
    table = make_table(DESKTOP).open()
    table.start("classic", "normal")
    table.to_my_play_turn()
    table.page.focus("#hand")
    if table.visible("pass"):
        # Following: H selects the hint's cards; Escape clears them again.
        table.page.keyboard.press("h")
        table.wait("#status.hint")
        table.page.keyboard.press("Escape")
        assert table.selected_ids() == []
        with table.progressing():
            table.page.keyboard.press("p")
        return
    # Leading: the cursor starts on the first card; X picks it, Enter plays it.
    first = table.hand_ids()[0]
    table.page.keyboard.press("Home")
    table.page.keyboard.press("x")
    assert table.selected_ids() == [first]
    table.page.keyboard.press("ArrowRight")
    table.page.keyboard.press("ArrowUp")
    assert len(table.selected_ids()) == 2
    table.page.keyboard.press("ArrowDown")
    assert table.selected_ids() == [first]
    with table.progressing():
        table.page.keyboard.press("Enter")
    assert first not in table.hand_ids()


def table_with_a_hand(make_table, viewport: dict[str, int], boxes: int):
    """A classic table on ``viewport`` once the first turn is reached: the table, the hand's
    card ids, and the on-screen boxes of the first ``boxes`` cards."""
    table = make_table(viewport).open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    table.settle_hand()  # the deal's cards have landed
    ids = table.hand_ids()
    return table, ids, [table.page.locator(f"#hand .hcard[data-id='{i}']").bounding_box() for i in ids[:boxes]]


def test_drag_across_cards_selects_several(make_table):
    table, ids, boxes = table_with_a_hand(make_table, DESKTOP, 5)
    mouse = table.page.mouse
    mouse.move(boxes[0]["x"] + 8, boxes[0]["y"] + 20)
    mouse.down()
    for box in boxes[1:]:
        mouse.move(box["x"] + 8, box["y"] + 20, steps=3)
    mouse.up()
    assert table.selected_ids() == ids[:5]
    # Dragging back over selected cards deselects them.
    mouse.move(boxes[4]["x"] + 8, boxes[4]["y"] + 10)
    mouse.down()
    mouse.move(boxes[2]["x"] + 8, boxes[2]["y"] + 10, steps=6)
    mouse.up()
    assert table.selected_ids() == ids[:2]


def test_a_finger_swiped_across_cards_selects_them_on_a_phone(make_table):
    table, ids, boxes = table_with_a_hand(make_table, PHONE_PORTRAIT, 6)
    # Real touch input (what a phone sends), not a mouse: the page must not pan instead.
    cdp = table.page.context.new_cdp_session(table.page)

    def touch(kind: str, box=None, dy: float = 20) -> None:
        points = [] if box is None else [{"x": box["x"] + 6, "y": box["y"] + dy}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", boxes[0])
    for box in boxes[1:5]:
        touch("touchMove", box)
    touch("touchEnd")
    assert table.selected_ids() == ids[:5]
    # A tap on a selected card deselects it, and one elsewhere selects that card alone.
    touch("touchStart", boxes[4], dy=8)
    touch("touchEnd")
    touch("touchStart", boxes[5], dy=8)
    touch("touchEnd")
    assert table.selected_ids() == ids[:4] + [ids[5]]
    assert table.page.evaluate("window.scrollX") == 0


_FOCUSED = "() => document.activeElement.id || document.activeElement.dataset.ctl || document.activeElement.tagName"


def active_element(table, expected: str = "hand") -> str:
    """What has the keyboard once the page has settled: a dialog's close event, which moves the
    keyboard, comes a task or more after the click or the key, later on a busy machine.  So this waits
    (generously) for ``expected`` and then says what it is: something else, if it never came."""
    try:
        table.page.wait_for_function(f"() => ({_FOCUSED})() === {expected!r}", timeout=5000)
    except Exception:  # noqa: BLE001 - Playwright's timeout: the answer below tells what went wrong
        pass
    return table.page.evaluate(_FOCUSED)


def test_enter_plays_after_the_menu_sort_or_auto(make_table):
    table = make_table(DESKTOP).open()
    table.start("classic", "normal")
    table.to_my_play_turn()
    for _ in range(200):  # to a lead of ours, where any single card is legal
        if not table.visible("pass"):
            break
        with table.progressing():
            table.play_turn()
        if table.wait_turn_or_over() == "over":  # the round ended before we led: another one
            table.wait("#settle-dialog[open]")
            table.another_round()
            table.to_my_play_turn()
    first = table.hand_ids()[0]
    table.click_card(first)
    # The menu, closed with Escape, and the card counter give the keyboard back to the hand.
    table.page.click("#menu-btn")
    table.wait("#menu-dialog[open]")
    table.page.keyboard.press("Escape")
    assert active_element(table) == "hand"
    table.page.click("#counter-btn")
    assert active_element(table) == "hand"
    table.page.click("#counter-btn")
    # So do Auto (pressed twice: on and off before it acts) and Sort.
    table.auto_play(3000)
    table.page.click("[data-ctl=auto]")
    assert active_element(table) == "hand"
    table.page.click("[data-ctl=sort]")
    assert active_element(table) == "hand"
    assert table.selected_ids() == [first]
    # Enter plays the selected card; it does not press Sort again.
    with table.progressing():
        table.page.keyboard.press("Enter")
    assert first not in table.hand_ids()


def test_a_refused_play_is_explained_without_a_failed_request(make_table):
    table = make_table(DESKTOP).open()
    en = translations("en")
    # The player leads (a fixed deal they bid 3 first in): answering a play, a tap selects a whole
    # legal reply (smart selection), and the two cards would not stay an illegal pair.
    table.start_deal(deal_where_i_bid_first())
    table.to_my_play_turn()
    assert not table.visible("pass")
    acts, checks = [], []
    table.page.on("request", lambda r: acts.append(r.url) if r.url.endswith("/act") else None)
    table.page.on("request", lambda r: checks.append(r.url) if r.url.endswith("/check") else None)
    pair = unrelated_pair(table)
    for card in pair:
        table.click_card(card)
    table.page.click("[data-ctl=play]")
    table.wait("#status.error")
    assert table.text("#status") == en["reason.not_a_pair"]
    # the engine was asked (a 200 answer), nothing was played: the console has no "422"
    assert acts == [] and len(checks) == 1
    assert sorted(table.selected_ids()) == sorted(pair)
    # A play the page accepts still goes to the server, which has the last word.
    table.page.keyboard.press("Escape")
    with table.progressing():
        table.play_turn()
    assert len(acts) == 1


def test_the_prompt_says_so_when_nothing_beats_the_play(make_table):
    from .e2e_support import module

    table = make_table(DESKTOP).open()
    en = translations("en")
    prompts = table.page.evaluate(f"""async () => {{
      const status = await {module("status.js")};
      const ds = {{phase: 'playing', me: 0, players: 3, toAct: 0, rules: {{bidding: 'points', players: 3}},
                   lastPlay: {{seat: 1, play: 'R'}}}};
      const words = (parts) => parts.map((p) => (typeof p === 'string' ? p : p.textContent)).join('');
      return [words(status.promptParts(ds, true, null, false)), words(status.promptParts(ds, true, null, true))];
    }}""")
    assert prompts[0].startswith("Beat ") and prompts[0].endswith(", or pass.")
    assert prompts[1].startswith(en["status.cannot_beat"].split("{play}")[0]) and prompts[1].endswith(": pass.")


def test_a_reloaded_table_on_a_phone_draws_no_keyboard_focus(make_table):
    # Back from a reload, the hand took the keyboard's focus and, nothing touched yet, drew its
    # focus ring (and the cursor's box on its first card) on a touch screen with no keyboard.
    table = make_table(PHONE_PORTRAIT).open()
    table.start("classic", "normal")
    table.to_my_play_turn()
    table.reload()
    table.wait("body[data-screen=table]")
    table.wait_turn_or_over()
    assert table.page.evaluate("!!document.querySelector(':focus-visible')") is False
    # Once touched, a control that vanishes (Play or Pass, once pressed) hands the keyboard to the
    # hand again, as before.
    with table.progressing():
        table.play_turn()
    table.wait_turn_or_over()
    assert table.page.evaluate("document.activeElement.id") == "hand"


def test_results_reloaded_on_a_phone_draw_no_focus_ring(make_table):
    # Reloaded at the results, "Another round" took the focus and drew its ring on a touch screen
    # nobody had touched yet; the sheet itself holds the focus now, and the way on is one tab away.
    table = make_table(PHONE_PORTRAIT).open()
    table.start_deal(deal_where_i_bid_first())
    table.play_round("classic")
    table.reload()
    table.wait("#settle-dialog[open]")
    page = table.page
    assert page.evaluate("!!document.querySelector(':is(button, a, select, input):focus-visible')") is False
    assert page.evaluate("document.activeElement.id") == "settle-dialog"
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "none"
    # A keyboard, once used, gets its focus ring as before.
    page.keyboard.press("Tab")
    assert page.evaluate("!!document.querySelector('#settle-dialog button:focus-visible')") is True


def test_the_cards_picked_come_back_after_a_reload(make_table):
    # Picked but not played, they were lost on a reload (the rest of the table came back).
    table = make_table(DESKTOP).open()
    table.start_deal(deal_where_i_bid_first())  # to lead: a tap picks one card (a reply's may pick a play)
    with table.progressing():
        table.page.click("[data-ctl=bid-bid-3]")
    table.wait("body[data-phase=playing][data-turn=me]")
    picked = table.hand_ids()[:2]
    for card in picked:
        table.click_card(card)
    assert sorted(table.selected_ids()) == sorted(picked)
    table.reload()
    table.wait("body[data-screen=table]")
    table.wait_turn_or_over()
    assert sorted(table.selected_ids()) == sorted(picked)
    assert table.page.is_enabled("[data-ctl=play]")
    # At the next turn they are not picked again: the pick belongs to its turn (and its game).
    with table.progressing():
        table.page.keyboard.press("Escape")
        table.play_turn()
    table.to_my_play_turn()
    stale = table.page.evaluate("""(ids) => { const now = JSON.parse(localStorage.getItem('dizhu.picked'));
      localStorage.setItem('dizhu.picked', JSON.stringify({ ...now, version: now.version - 1, ids }));
      return now; }""", table.hand_ids()[:2])
    table.reload()
    table.wait("body[data-screen=table]")
    table.wait_turn_or_over()
    assert table.selected_ids() == []
    table.page.evaluate("""(now) => localStorage.setItem('dizhu.picked', JSON.stringify(
      { ...now, gameId: 'another-game', ids: [...document.querySelectorAll('#hand .hcard')].slice(0, 2).map((c) => +c.dataset.id) }))""", stale)
    table.reload()
    table.wait("body[data-screen=table]")
    table.wait_turn_or_over()
    assert table.selected_ids() == []
