"""Save and resume: reload, a reopened tab and a rotated phone land on the same table."""

from __future__ import annotations

from .e2e_support import PHONE_LANDSCAPE, PHONE_PORTRAIT, translations


def snapshot(table) -> dict:
    """Everything the player sees that must survive a reload."""
    page = table.page
    return {
        "hand": table.hand_ids(),  # in display order
        "selected": table.selected_ids(),
        "zones": {seat: table.zone_ids(seat) for seat in (0, 1, 2)},
        "seats": [page.inner_text(f"#seat-{seat}") for seat in (1, 2)],
        "info": page.inner_text("#info"),
        "me": page.inner_text("#me-info"),
        "bottom": page.eval_on_selector_all("#bottom-cards .card", "els => els.map(e => e.dataset.id || 'back')"),
        "status": page.inner_text("#status"),
        "controls": [c for c in ("pass", "play", "hint") if table.visible(c)],
    }


def reach_trick_in_progress(table) -> None:
    """Play on until it is our turn to answer somebody's play."""
    table.to_my_play_turn()
    for _ in range(40):
        if table.visible("pass") and any(table.zone_ids(seat) for seat in (1, 2)):
            return
        with table.progressing():
            table.play_turn()
        if table.wait_turn_or_over() == "over":
            table.another_round()
            table.to_my_play_turn()
    raise AssertionError("never had to answer a play")


def test_reload_in_the_middle_of_a_trick_resumes_identically(make_table):
    table = make_table(PHONE_PORTRAIT).open()
    table.start("classic", "normal")
    reach_trick_in_progress(table)
    before = snapshot(table)
    assert before["hand"] and any(before["zones"].values())

    table.reload()
    table.wait("body[data-turn=me]")
    assert snapshot(table) == before

    # Closing the tab and opening the site again resumes too.
    context = table.page.context
    table.page.close()
    table.page = context.new_page()
    table.page.on("pageerror", lambda e: table.errors.append(f"page error: {e}"))
    table.open()
    table.wait("body[data-turn=me]")
    assert snapshot(table) == before

    # Rotating the phone keeps the game and refits the hand, without scrolling.
    table.page.set_viewport_size(PHONE_LANDSCAPE)
    table.wait("body[data-turn=me]")
    assert table.hand_ids() == before["hand"]
    sizes = table.page.evaluate("[document.documentElement.scrollWidth, innerWidth, document.documentElement.scrollHeight, innerHeight]")
    assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3]
    table.shot("phone-landscape-en-table")


def test_continue_from_the_start_screen_restores_hand_and_totals(make_table):
    table = make_table(PHONE_PORTRAIT).open()
    table.start("classic", "normal")
    table.play_round("classic")
    table.another_round()
    table.wait_turn_or_over()
    before = snapshot(table)
    table.page.click("#menu-btn")
    table.page.click("#menu-home")
    table.wait("body[data-screen=start]")
    assert table.page.is_visible("#continue-btn")
    # Going on with the saved game is the one way forward that stands out (two gold buttons competed).
    assert table.page.eval_on_selector_all(".start .btn.primary:not([hidden])", "els => els.map((e) => e.id)") == ["continue-btn"]
    table.reload()  # even after a reload the table comes back by itself
    table.wait("body[data-screen=table]")
    table.wait_turn_or_over()
    assert snapshot(table) == before
    table.page.click("#menu-btn")
    table.page.click("#menu-home")
    table.page.click("#continue-btn")
    table.wait("body[data-screen=table]")
    table.wait_turn_or_over()
    assert snapshot(table) == before
    assert "Round 2" in before["info"]


def test_new_game_asks_before_abandoning_a_round(make_table):
    table = make_table(PHONE_PORTRAIT).open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    table.page.click("#menu-btn")
    table.page.click("#menu-new-game")
    table.wait("#confirm-dialog[open]")
    table.page.click("#confirm-no")
    assert "Round 1" in table.text("#info")
    table.page.click("#menu-btn")
    table.page.click("#menu-new-game")
    table.page.click("#confirm-yes")
    table.wait("body[data-progress^='2:']")  # the stamp starts with the round number
    assert "Round 1" in table.text("#info")  # the abandoned round is not a round of the match
    # Nobody scored for the abandoned round.
    assert "0 pts" in table.text("#me-info")


def test_a_hint_in_a_tab_the_game_has_left_brings_the_tab_up_to_date(make_table):
    # Two tabs on one game: the one behind asked for a hint and was advised on the position the
    # other had moved to, while it still showed its old hand.
    table = make_table(PHONE_PORTRAIT).open()
    table.start("classic", "normal")
    reach_trick_in_progress(table)
    behind = table.page.context.new_page()
    behind.goto(table.url)
    behind.wait_for_selector("body[data-turn=me]")
    hand = table.hand_ids()
    with table.progressing():
        table.play_turn()
    table.wait_turn_or_over()
    behind.click("[data-ctl=hint]")
    behind.wait_for_selector(f"#status:has-text({translations('en')['error.stale']!r})")
    assert not behind.is_visible("#status.hint")
    ids = behind.eval_on_selector_all("#hand .hcard", "els => els.map(e => +e.dataset.id)")
    assert sorted(ids) == sorted(table.hand_ids()) and len(ids) <= len(hand)
