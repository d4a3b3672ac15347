"""Whole rounds through the UI only: classic and duel, settlement, replay."""

from __future__ import annotations

import re

from .e2e_support import DESKTOP, PHONE_PORTRAIT, assert_big_enough, translations


def settlement_points(table) -> tuple[list[int], list[int]]:
    """(round points, totals) read from the settlement sheet."""
    def read(selector: str) -> list[int]:  # figures are written with a true minus sign (U+2212)
        return [int(x.replace("\u2212", "-")) for x in table.page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")]
    pts, totals = read("#settle-body .scores .pts"), read("#settle-body .scores .total")
    return pts, totals


def test_classic_round_from_start_screen_to_settlement(make_table):
    table = make_table(DESKTOP).open()
    en = translations("en")
    table.start("classic", "normal")
    # Three seats: two computers with name, level and cards left.
    assert table.page.is_visible("#seat-1") and table.page.is_visible("#seat-2")
    assert en["level.normal"] in table.text("#seat-1")
    table.play_round("classic")

    heading = table.text("#settle-title")
    assert heading in (en["settle.you_win"], en["settle.you_lose"])
    pts, totals = settlement_points(table)
    assert len(pts) == 3 and sum(pts) == 0 and pts == totals  # zero-sum; first round of the match
    # Every multiplier's source: the winning bid comes first.
    breakdown = table.text("#settle-body .breakdown")
    assert re.search(r"Winning bid: [123]", breakdown)
    assert table.page.locator("#settle-body .deal-share code").inner_text().startswith("classic-")
    table.shot("desktop-en-settlement")

    # The table behind shows the hands that were left, face up.
    table.page.click("[data-ctl=view-table]")
    assert table.page.locator("#board .reveal .card").count() > 0
    assert table.text("#status") == en["status.over"]

    # Another round keeps the totals.
    table.page.click("[data-ctl=next-round]")
    table.wait("body[data-progress^='2:']")  # the stamp starts with the round number
    assert "Round 2" in table.text("#info")
    me_total = totals[0]
    shown = f"+{me_total}" if me_total > 0 else str(me_total).replace("-", "\u2212")  # a true minus
    assert f"{shown} pts" in table.text("#me-info")


def test_duel_round(make_table):
    table = make_table(PHONE_PORTRAIT).open()
    table.start("duel", "normal")
    # One opponent at the top; the card counter is always on, with its note.
    assert table.page.is_visible("#seat-1") and not table.page.is_visible("#seat-2")
    assert table.page.is_visible("#counter")
    assert "9 undealt" in table.text("#counter")
    # Duel decks have no 3s or 4s: the counter starts at 5.
    ranks = table.page.eval_on_selector_all("#counter .cell", "els => els.map(e => e.dataset.rank)")
    assert ranks[0] == "2" and len(ranks) == 13
    assert "Handicap" in table.text("#info")
    table.to_my_play_turn("duel")
    table.shot("phone-portrait-en-duel")
    table.play_round("duel")
    pts, totals = settlement_points(table)
    assert len(pts) == 2 and pts[0] == -pts[1] and pts == totals
    assert re.search(r"Robs: \d", table.text("#settle-body .breakdown"))
    assert_big_enough(table, "settlement")
    # Behind the results the hands lie face up: the counter, which would still call them unseen, is gone.
    table.page.click("[data-ctl=view-table]")
    assert not table.page.is_visible("#counter") and not table.page.is_visible("#counter-btn")


def test_replay_steps_through_the_round_and_replays_the_deal(make_table):
    table = make_table(DESKTOP).open()
    table.start("classic", "normal")
    table.play_round("classic")
    code = table.page.locator("#settle-body .deal-share code").inner_text()

    table.page.click("[data-ctl=replay]")
    table.wait("#replay:not([hidden])")
    assert table.text("#replay-step").startswith("1 /")
    first_caption = table.text("#replay-caption")
    assert "dealt" in first_caption
    # Step one: every hand face up, 17 cards each, bottom still face down.
    hands = table.page.locator("#replay-table .replay-hand")
    assert hands.count() == 3
    assert all(hands.nth(i).locator(".card").count() == 17 for i in range(3))
    mine = sorted(int(x) for x in hands.nth(2).locator(".card").evaluate_all("els => els.map(e => e.dataset.id)"))
    table.page.click("#replay-next")
    assert table.text("#replay-step").startswith("2 /")
    assert table.text("#replay-caption") != first_caption
    # The step buttons are drawn (inline SVG), not font glyphs that may be missing.
    for button in ("#replay-first", "#replay-prev", "#replay-next", "#replay-last", "#replay-close"):
        icon = table.page.locator(f"{button} svg path").bounding_box()
        assert icon and icon["width"] > 8 and icon["height"] > 8, button
    table.page.click("#replay-last")
    assert table.text("#replay-caption") in ("The landlord wins.", "The farmers win.")
    table.shot("desktop-en-replay")
    # The keys still step the replay once a pressed button is disabled at an end (the focus fell
    # to <body>, outside the dialog whose keys they are).
    last = table.text("#replay-step")
    table.page.keyboard.press("ArrowLeft")
    assert table.text("#replay-step") != last
    table.page.keyboard.press("End")
    assert table.text("#replay-step") == last
    table.page.keyboard.press("Home")
    assert table.text("#replay-step").startswith("1 /")
    table.page.keyboard.press("ArrowRight")
    assert table.text("#replay-step").startswith("2 /")
    table.page.click("#replay-last")
    table.page.click("#replay-close")
    table.wait("#settle-dialog[open]")  # closing the replay comes back to the results

    # The code can be copied, alone or as a link that opens the deal.
    table.page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=table.url)
    table.page.click("[data-ctl=copy-code]")
    table.wait("#settle-body .copied:has-text('Copied.')")
    assert table.page.evaluate("navigator.clipboard.readText()") == code
    table.page.click("[data-ctl=copy-link]")
    table.wait("#settle-body .copied:has-text('Copied.')")
    link = table.page.evaluate("navigator.clipboard.readText()")
    assert link == f"{table.url}/#deal={code}"
    assert table.page.get_attribute("#settle-body .deal-link", "href") == link

    # Replay the same deal against a harder level: the match would be lost, so it asks first.
    game_id = table.page.evaluate("JSON.parse(localStorage.getItem('dizhu.game')).gameId")
    table.page.select_option("#settle-body .replay-level", "intermediate")
    table.page.click("[data-ctl=replay-deal]")
    table.wait("#confirm-dialog[open]")
    table.page.click("#confirm-no")
    table.wait("#settle-dialog[open]")  # back on the results, same game
    assert table.page.evaluate("JSON.parse(localStorage.getItem('dizhu.game')).gameId") == game_id
    assert table.page.eval_on_selector("#settle-body .replay-level", "s => s.value") == "intermediate"  # kept
    table.page.click("[data-ctl=replay-deal]")
    table.page.click("#confirm-yes")
    table.wait("#seat-1:has-text('Intermediate')")
    table.wait_turn_or_over()
    # The computers act until it is our turn: nothing of ours is played yet.
    assert sorted(table.hand_ids()) == mine
    assert code.startswith("classic-")


def starting_hand(table) -> list[int]:
    """The player's 17 dealt cards (the round may already be past the bidding)."""
    return table.page.evaluate("""async () => {
      const saved = JSON.parse(localStorage.getItem('dizhu.game'));
      const r = await fetch(`/api/games/${saved.gameId}?since=0`, { headers: { Authorization: `Bearer ${saved.token}` } });
      const view = await r.json();
      const mine = view.observation.hand_ids.slice();
      for (const ev of view.events) if (ev.type === 'play' && ev.seat === 0) mine.push(...ev.cards);
      const landlord = view.events.find((e) => e.type === 'landlord');
      return (landlord && landlord.seat === 0 ? mine.filter((id) => !landlord.bottom_ids.includes(id)) : mine).sort((a, b) => a - b);
    }""")


def test_a_deal_code_typed_or_linked_opens_that_deal(make_table):
    en = translations("en")
    typed = make_table(DESKTOP).open()
    # Not a code: said at once, nothing is sent (no failed request in the console).
    typed.page.fill("#deal-input", "hello")
    typed.page.click("#deal-btn")
    # ... under the field itself (at the foot of the screen, under the other buttons, a phone showed
    # only the field's red edge), in place of its help; typing again takes it away.
    assert typed.text("#deal-error") == en["start.bad_code"] and not typed.page.is_visible("#deal-help")
    field, said = (typed.page.locator(s).bounding_box() for s in ("#deal-input", "#deal-error"))
    assert 0 <= said["y"] - (field["y"] + field["height"]) < 30, (field, said)
    assert typed.page.get_attribute("#deal-input", "aria-invalid") == "true"
    assert typed.page.get_attribute("#deal-input", "aria-describedby") == "deal-error"
    # the language selector is on this screen: the error follows it (it stayed in the old one)
    typed.page.select_option("#start-language", "ja")
    typed.page.wait_for_function("() => document.documentElement.lang === 'ja'")
    assert typed.text("#deal-error") == translations("ja")["start.bad_code"]
    typed.page.select_option("#start-language", "en")
    typed.page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert typed.text("#deal-error") == en["start.bad_code"]
    typed.page.type("#deal-input", "!")
    assert not typed.page.is_visible("#deal-error") and typed.page.is_visible("#deal-help")
    assert typed.page.get_attribute("#deal-input", "aria-invalid") is None
    typed.page.click("#deal-btn")
    assert typed.page.is_visible("#deal-error")
    typed.page.fill("#deal-input", "  classic-e2e.typed  ")
    typed.page.click("#deal-btn")
    typed.wait("body[data-screen=table]")
    typed.wait_turn_or_over()
    hand = starting_hand(typed)
    assert len(hand) == 17

    # The link opens the same deal.
    linked = make_table(DESKTOP)
    linked.page.goto(f"{linked.url}/#deal=classic-e2e.typed")
    linked.wait("body[data-ready]")
    linked.wait("body[data-screen=table]")
    linked.wait_turn_or_over()
    assert starting_hand(linked) == hand
    assert "#deal=" not in linked.page.url  # used once: a reload resumes the game instead
    # With a round in progress, a link asks before leaving it.
    game_id = linked.page.evaluate("JSON.parse(localStorage.getItem('dizhu.game')).gameId")
    linked.page.evaluate("location.hash = '#deal=duel-e2e.linked'")
    linked.wait("#confirm-dialog[open]")
    assert linked.text("#confirm-text") == en["confirm.replay_deal"]
    linked.page.click("#confirm-no")
    assert linked.page.evaluate("JSON.parse(localStorage.getItem('dizhu.game')).gameId") == game_id
    linked.page.evaluate("location.hash = '#deal=duel-e2e.linked'")
    linked.page.click("#confirm-yes")
    linked.wait("body[data-screen=table] #board.seats-2")
    assert linked.page.evaluate("JSON.parse(localStorage.getItem('dizhu.game')).gameId") != game_id
