"""The table's features: 报单/报双 lights, effects and sound (with its remembered switch and reduced
motion), the deal, hint cycling, smart selection, this round's log and the match ledger, records,
the first game's guide, and the accessibility behaviours (focus, the replay as a modal, one polite
live region, sentences with "You" as subject, parts of the table kept between renders).

Several checks share one page, to keep the browser time small.
"""

from __future__ import annotations

import json
import re

import pytest

from .e2e_support import PHONE_LANDSCAPE, PHONE_PORTRAIT, deal_where_i_bid_first, module, translations
from .test_layout import become_landlord

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 768}
NOTATION = "3456789TJQKA2BR"


def rank_of(card: int) -> int:
    return card >> 2 if card < 52 else 13 + card - 52


def server_view(page) -> dict:
    """The game's view from the server, with the token the page keeps."""
    return page.evaluate("""async () => {
      const saved = JSON.parse(localStorage.getItem('dizhu.game'));
      const r = await fetch(`/api/games/${saved.gameId}?since=0`, {headers: {Authorization: `Bearer ${saved.token}`}});
      return r.json();
    }""")


def test_the_banner_leaves_the_players_own_bomb_in_sight_on_a_landscape_phone(make_table):
    # At 740 x 360 the banner, in the board's middle, covered the bomb it named when it was the
    # player's own: it goes over the others' row then; theirs keeps the middle (over the player's).
    table = make_table(PHONE_LANDSCAPE).open()
    page = table.page
    table.start("classic")
    table.wait_turn_or_over()
    show = f"""async (seat) => {{
      const state = await {module('tablestate.js')};
      const tbl = await {module('table.js')};
      const fx = await {module('effects.js')};
      const rules = {{players: 3, bidding: 'points', handicap: false, deck_counts: [4,4,4,4,4,4,4,4,4,4,4,4,4,1,1], undealt: 0}};
      const ev = {{type: 'play', seat, play: '9999', kind: 'bomb', cards: [24, 25, 26, 27]}};
      const ds = state.foldEvents({{rules, me: 0}}, [{{type: 'deal', first: 0, hand_sizes: [17, 17, 17]}},
        {{type: 'landlord', seat: 0, bottom: '345', bottom_ids: [0, 4, 8], bid: 3}}, ev]);
      tbl.renderTable({{view: {{totals: [0, 0, 0], level: 'normal', round_number: 1}}, ds, thinking: null, handCount: 16}});
      fx.effectOf(ev, 0);
      const el = document.getElementById('effect');
      for (const a of el.getAnimations()) {{ a.pause(); a.currentTime = 700; }}  // mid-way, at rest
      const box = (e) => {{ const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }};
      return {{banner: box(el), cards: [...document.querySelectorAll(`#zone-${{seat}} .card`)].map(box)}};
    }}"""
    mine = page.evaluate(show, 0)
    assert len(mine["cards"]) == 4
    b = mine["banner"]
    covered = [c for c in mine["cards"] if min(b[2], c[2]) - max(b[0], c[0]) > 1 and min(b[3], c[3]) - max(b[1], c[1]) > 1]
    assert not covered, (b, covered)
    table.shot("feature-banner-own-bomb-landscape")


def test_seat_lights_effects_sound_and_reduced_motion(make_table):
    """Drawn from synthetic events through the page's own modules, at the phone size."""
    table = make_table(PHONE).open()
    page = table.page
    table.start("classic")
    table.wait_turn_or_over()
    # A seat left with two cards, then one: the panel lights and says so (报双, then 报单).
    words = translations("en")
    lit = page.evaluate(f"""async () => {{
      const state = await {module('tablestate.js')};
      const table = await {module('table.js')};
      const rules = {{players: 3, bidding: 'points', handicap: false, deck_counts: [4,4,4,4,4,4,4,4,4,4,4,4,4,1,1], undealt: 0}};
      const seen = [];
      const events = [{{type: 'deal', first: 0, hand_sizes: [17, 17, 17]}},
        {{type: 'landlord', seat: 0, bottom: '345', bottom_ids: [0, 4, 8], bid: 3}}];
      const ds = state.foldEvents({{rules, me: 0}}, events);
      for (const left of [3, 2, 1]) {{
        ds.cardsLeft[1] = left;
        table.renderTable({{view: {{totals: [0, 0, 0], level: 'normal', round_number: 1}}, ds, thinking: null, handCount: 20}});
        const panel = document.getElementById('seat-1');
        seen.push([left, panel.classList.contains('alarm'), (panel.querySelector('.alarm-tag') || {{}}).textContent || '']);
      }}
      return seen;
    }}""")
    assert lit == [[3, False, ""], [2, True, words["table.last_two"]], [1, True, words["table.last_card"]]]
    table.shot("feature-seat-alarm-phone")
    # A bomb: the banner names it, it animates, and the sound is asked for.
    effect = f"""async (kind) => {{
      const fx = await {module('effects.js')};
      fx.effectOf({{type: 'play', seat: 1, kind, play: '3333', cards: [0, 1, 2, 3]}});
      const el = document.getElementById('effect');
      return {{shown: !el.hidden, text: el.textContent, animation: getComputedStyle(el).animationName,
               sound: document.body.dataset.sound || ''}};
    }}"""
    bomb = page.evaluate(effect, "bomb")
    assert bomb["shown"] and bomb["text"] == words["kind.bomb"] and "effect-pop" in bomb["animation"]
    assert bomb["sound"] == "bomb"
    plane = page.evaluate(effect, "plane_pair")
    assert plane["text"] == words["kind.plane_pair"] and plane["animation"] == "effect-fly"
    spring = page.evaluate(f"""async () => {{
      const fx = await {module('effects.js')};
      return fx.effectOf({{type: 'settle', spring: true, anti_spring: false, points: [4, -2, -2]}});
    }}""")
    assert spring == "spring" and page.inner_text("#effect") == words["settle.spring"]
    # The switch: off in the menu, remembered after a reload, and then nothing is played.
    page.click("#menu-btn")
    assert page.is_checked("#menu-sound")
    page.uncheck("#menu-sound")
    page.keyboard.press("Escape")
    table.reload()
    page.click("#menu-btn")
    assert not page.is_checked("#menu-sound")
    page.keyboard.press("Escape")
    page.evaluate("() => { delete document.body.dataset.sound; }")
    assert page.evaluate(effect, "rocket")["sound"] == ""
    # Reduced motion: the same banner fades in place, the deal does not fly.
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(effect, "rocket")["animation"] == "effect-fade"
    assert page.evaluate(
        "() => getComputedStyle(document.querySelector('#hand .hcard')).animationName") in ("none", "")


def test_no_sound_is_tried_before_the_players_first_gesture(make_table):
    """A resumed game's computers may play before the player touches the page: the browser would
    refuse an audio context then, with a console warning, so the page stays silent until a gesture.
    The browser's own activation state is not relied on (on a loaded machine it was once found set
    before the page loaded): the page is told there was no gesture, then that there was one."""
    table = make_table(PHONE)
    page = table.page
    page.add_init_script(f"""(() => {{
      let active = false;
      Object.defineProperty(navigator, 'userActivation', {{ configurable: true, get: () => ({{ hasBeenActive: active, isActive: active }}) }});
      window.contextsMade = 0;
      const Real = window.AudioContext;
      window.AudioContext = class extends Real {{ constructor(...args) {{ super(...args); window.contextsMade += 1; }} }};
      document.addEventListener('DOMContentLoaded', async () => {{
        const sound = await {module('sound.js')};
        sound.playSound('bomb');
        const before = window.contextsMade;
        active = true;  // the player's first tap
        sound.playSound('bomb');
        window.soundProbe = {{before, after: window.contextsMade, asked: document.body.dataset.sound}};
      }});
    }})()""")
    table.open()
    page.wait_for_function("() => window.soundProbe")
    # no context before the gesture (none made, none refused with a warning); one after it (the
    # browser, not fooled, then warns: that one is the stub's doing)
    assert page.evaluate("() => window.soundProbe") == {"before": 0, "after": 1, "asked": "bomb"}


def test_the_deal_flies_in_and_the_guide_comes_once(make_table):
    table = make_table(PHONE_PORTRAIT)
    page = table.page
    page.context.add_init_script("try { localStorage.removeItem('dizhu.setting.coachSeen'); } catch (e) {}")
    page.context.add_init_script("window.__dealt = false; new MutationObserver(() => { "
                                 "if (document.querySelector('#hand.deal .hcard')) window.__dealt = true; })"
                                 ".observe(document, {subtree: true, attributes: true, childList: true});")
    table.open()
    table.start("classic")
    table.wait("#coach[open]")
    assert page.evaluate("window.__dealt")
    words = translations("en")
    # Inside the screen, its buttons big enough to tap, pointing at the hand first.
    box = page.locator("#coach").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 640 and box["x"] >= 0 and box["x"] + box["width"] <= 360
    for button in page.locator("#coach .btn").all():
        b = button.bounding_box()
        assert b["height"] >= 44 and b["width"] >= 44
    assert page.inner_text("#coach-text") == words["coach.hand"]
    assert page.evaluate("document.getElementById('hand').classList.contains('coach-target')")
    page.click("[data-ctl=coach-next]")
    assert page.inner_text("#coach-text") == words["coach.controls"]
    page.click("[data-ctl=coach-skip]")
    assert not page.is_visible("#coach")
    table.shot("feature-guide-skipped-phone")
    # Seen: not again on a reload; the menu opens it again, and it can be done to the end.
    table.reload()
    assert not page.is_visible("#coach")
    page.click("#menu-btn")
    page.click("#menu-guide")
    table.wait("#coach[open]")
    for _ in range(3):
        page.click("[data-ctl=coach-next]")
    assert page.inner_text("[data-ctl=coach-next]") == words["coach.done"]
    page.click("[data-ctl=coach-next]")
    assert not page.is_visible("#coach")


def legal_plays(page) -> list[str]:
    return [a for a in server_view(page)["observation"]["legal_actions"] if a.startswith("play ")]


def ids_for(hand: list[int], notation: str) -> list[int]:
    pool, picked = list(hand), []
    for ch in notation:
        card = next(c for c in pool if rank_of(c) == NOTATION.index(ch))
        pool.remove(card)
        picked.append(card)
    return picked


def test_hint_cycles_through_alternatives_and_degrades_to_one(make_table):
    table = make_table(WIDE).open()
    page = table.page
    # A fixed deal the player bids first in: bid 3, the landlord leads, and any single is a play
    # (a random deal could make them a farmer facing a trick only one play beats).
    table.start_deal(deal_where_i_bid_first())
    table.to_my_play_turn()
    assert not table.visible("pass")  # leading
    singles = {p for p in legal_plays(page) if len(p) == 6}
    options = sorted(singles, key=lambda p: NOTATION.index(p[5]))[:3]
    assert len(options) == 3, singles
    hand = table.hand_ids()
    alternatives = [{"action": a, "cards": ids_for(hand, a[5:]), "reason": None} for a in options]
    asked = []

    def answer(route, body):
        asked.append(1)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route("**/hint", lambda route: answer(route, {**alternatives[0], "alternatives": alternatives}))
    picked = []
    for _ in range(4):
        page.click("[data-ctl=hint]")
        table.wait("#status.hint")
        picked.append(sorted(table.selected_ids()))
    expected = [sorted(a["cards"]) for a in alternatives]
    assert picked == expected + [expected[0]], picked  # round and round, best first
    assert len(asked) == 1  # the server is asked once per turn
    assert "2" in page.inner_text("#status .hint-count") or "1" in page.inner_text("#status .hint-count")
    # An answer without alternatives (today's server): one suggestion, pressed again it stays.
    table.page.unroute("**/hint")
    table.reload()
    table.wait("body[data-turn=me]")
    page.route("**/hint", lambda route: answer(route, alternatives[1]))
    for _ in range(2):
        page.click("[data-ctl=hint]")
        table.wait("#status.hint")
        assert sorted(table.selected_ids()) == expected[1]
    assert page.locator("#status .hint-count").count() == 0


def test_every_hinted_play_says_how_it_did_in_the_search_once(make_table):
    # the options compare: each shows the search's figures, in its reason or beside it, not twice
    table = make_table(WIDE).open()
    page = table.page
    table.start_deal(deal_where_i_bid_first())
    table.to_my_play_turn()
    shown = []
    for _ in range(3):
        page.click("[data-ctl=hint]")
        table.wait("#status.hint")
        beside = page.locator("#status .hint-figures")
        shown.append((page.inner_text("#status"), beside.inner_text() if beside.count() else None))
    assert all(text.count("simulated games") == 1 for text, _ in shown), shown
    assert any(beside for _, beside in shown), shown  # a reason of its own, and the figures beside it
    assert "of 3" in shown[0][0], shown  # (three options, each looked at)


def test_smart_selection_picks_the_smallest_reply_and_can_be_turned_off(make_table):
    table = make_table(WIDE).open()
    page = table.page
    table.start("classic")
    for _ in range(300):
        phase = table.wait_turn_or_over()
        if phase == "over":  # no such reply this round: another one
            table.wait("#settle-dialog[open]")
            table.another_round()
            continue
        if phase == "bidding":
            with table.progressing():
                table.bid_quickly("classic")
            continue
        plays = legal_plays(page) if table.visible("pass") else []
        longer = [p[5:] for p in plays if len(p) > 6]
        if longer:
            break
        with table.progressing():
            table.play_turn()
    else:
        raise AssertionError("no reply of two cards or more came up")
    target = min(longer, key=len)
    rank = target[0]
    smallest = min(len(p[5:]) for p in plays if rank in p[5:])
    card = next(c for c in table.hand_ids() if NOTATION[rank_of(c)] == rank)
    table.click_card(card)
    picked = table.selected_ids()
    notation = "".join(sorted((NOTATION[rank_of(c)] for c in picked), key=NOTATION.index))
    assert card in picked and len(picked) == smallest
    assert any(sorted(p[5:], key=NOTATION.index) == list(notation) for p in plays), (notation, plays)
    table.click_card(card)  # a second tap takes it back, as before
    table.page.keyboard.press("Escape")
    # Off in the menu: a tap picks one card.
    page.click("#menu-btn")
    assert page.is_checked("#menu-smart")
    page.uncheck("#menu-smart")
    page.keyboard.press("Escape")
    page.evaluate("() => document.getElementById('hand').focus()")
    table.page.keyboard.press("Escape")
    assert table.selected_ids() == []
    table.click_card(card)
    assert table.selected_ids() == [card]


FIRST_ROW = """() => { const cards = [...document.querySelectorAll('#hand .hcard')];
  const row = cards.filter((c) => c.style.top === cards[0].style.top);
  return row.map((c) => { const r = c.getBoundingClientRect();
    return {id: Number(c.dataset.id), x: r.left + 5, y: r.top + 14}; }); }"""


def longest_straight(plays: list[str], row: list[int]) -> list[int]:
    """The cards of the longest legal play of 3+ distinct ranks among ``row`` (the lowest of equals),
    each the row's first card of its rank; [] when there is none."""
    first = {}
    for card in row:
        first.setdefault(rank_of(card), card)
    runs = [[NOTATION.index(ch) for ch in p[5:]] for p in plays]
    runs = [r for r in runs if len(r) >= 3 and len(set(r)) == len(r) and all(x in first for x in r)]
    if not runs:
        return []
    best = max(runs, key=lambda r: (len(r), -min(r)))
    return [first[x] for x in best]


def landlord_with_a_straight(table) -> tuple[list[dict], list[int]]:
    """Deal until the player leads as landlord with a straight in the hand's first row."""
    for _ in range(20):
        become_landlord(table)
        table.settle_hand()
        row = table.page.evaluate(FIRST_ROW)
        want = longest_straight(legal_plays(table.page), [c["id"] for c in row])
        if want and len(want) < len(row):  # some crossed cards are not part of it
            return row, want
        with table.progressing():
            table.new_game_from_menu()
    raise AssertionError("no straight dealt")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_drag_across_a_run_selects_its_longest_straight(make_table, size):
    table = make_table(WIDE if size == "desktop" else PHONE).open()
    page = table.page
    table.start("classic")
    row, want = landlord_with_a_straight(table)
    cdp = page.context.new_cdp_session(page) if size == "phone" else None

    def drag(points: list[dict]) -> None:
        """Across the cards at ``points``: a mouse on the desktop, a finger (real touch events) on a phone.
        The moves jump from the first card to the last few, as a quick swipe does."""
        path = points[:1] + points[-3:]
        if cdp is None:
            page.mouse.move(path[0]["x"], path[0]["y"])
            page.mouse.down()
            for p in path[1:]:
                page.mouse.move(p["x"], p["y"])
            page.mouse.up()
            return
        for kind, p in [("touchStart", path[0])] + [("touchMove", p) for p in path[1:]] + [("touchEnd", None)]:
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [] if p is None else [{"x": p["x"], "y": p["y"]}]})

    drag(row)
    assert table.selected_ids() == want, (row, want)
    notation = "".join(NOTATION[rank_of(c)] for c in want)
    assert f"play {notation}" in legal_plays(page)
    table.shot(f"feature-drag-straight-{size}")
    # With smart selection off, the same drag picks every card crossed.
    page.keyboard.press("Escape")
    page.click("#menu-btn")
    page.uncheck("#menu-smart")
    page.keyboard.press("Escape")
    page.evaluate("() => document.getElementById('hand').focus()")
    page.keyboard.press("Escape")
    assert table.selected_ids() == []
    drag(row)
    assert table.selected_ids() == [c["id"] for c in row]


def test_log_ledger_records_focus_replay_and_live_regions(make_table):
    table = make_table(PHONE).open()
    page = table.page
    words = translations("en")
    table.start("classic")
    table.wait_turn_or_over()
    # One polite live region at a time, and no "thinking" ever in it.
    page.evaluate("""() => { window.__spoken = []; new MutationObserver(() => window.__spoken.push(
      document.getElementById('announce').textContent)).observe(document.getElementById('announce'),
      {childList: true, characterData: true, subtree: true}); }""")
    polite = page.evaluate("""() => [...document.querySelectorAll('[aria-live=polite], [role=status]')]
      .filter((el) => !el.closest('dialog:not([open])') && !el.closest('[hidden]')).map((el) => el.id)""")
    assert polite == ["announce"], polite
    # A bid button vanishes once pressed: the keyboard lands on the hand, not on <body>.
    if page.get_attribute("body", "data-phase") == "bidding":
        with table.progressing():
            table.bid_quickly("classic")
        assert page.evaluate("document.activeElement.id") == "hand"
    table.to_my_play_turn()
    # A render that changes nothing at a seat keeps its elements.
    page.evaluate("() => { window.__name = document.querySelector('#seat-1 .name'); }")
    table.click_card(table.hand_ids()[0])
    assert page.evaluate("() => document.querySelector('#seat-1 .name') === window.__name")
    table.page.keyboard.press("Escape")
    with table.progressing():
        table.play_turn()
    table.wait_turn_or_over()
    # This round's tricks, and the ledger (empty in the first round).
    page.click("#menu-btn")
    page.click("#menu-log")
    table.wait("#log-dialog[open]")
    table.wait(f"#log-body p:has-text('{words['log.no_rounds']}')")
    moves = page.locator("#log-body .trick-list li li").all_inner_texts()
    assert moves and any(m.startswith("You: ") for m in moves), moves
    assert page.locator("#log-body .trick-list > li").first.inner_text().startswith(words["log.bidding"])
    table.shot("feature-round-log-phone")
    page.keyboard.press("Escape")
    table.play_round("classic")
    spoken = page.evaluate("window.__spoken")
    assert spoken and not any("thinking" in s for s in spoken), spoken
    # The ledger has the finished round, with the totals.
    page.click("[data-ctl=view-table]")
    page.click("#menu-btn")
    page.click("#menu-log")
    table.wait("#log-body table.ledger")
    totals = server_view(page)["totals"]
    row = page.locator("#log-body table.ledger tbody tr").all_inner_texts()
    assert len(row) == 1 and all(f"({n})".replace("-", "\u2212") in row[0] for n in totals), (row, totals)  # a true minus
    page.keyboard.press("Escape")
    # Records: one round, kept over a reload without counting it twice.
    for _ in range(2):
        page.click("#menu-btn")
        page.click("#menu-records")
        # The records module loads on demand: the dialog opens once its table is drawn.
        table.wait("#records-dialog[open] #records-body tbody tr td")
        cells = page.locator("#records-body tbody tr td").all_inner_texts()
        assert cells[0] == "1" and cells[1] in ("0%", "100%"), cells
        page.keyboard.press("Escape")
        table.reload()
        table.wait("#settle-dialog[open]")  # a finished round opens at its results
        page.click("[data-ctl=view-table]")
    # The replay is modal: no Tab stop behind it (past its last control the browser's own UI
    # comes, <body> here); Escape goes back to the results, on the replay button.
    page.click("[data-ctl=results]")
    table.wait("#settle-dialog[open]")
    page.click("[data-ctl=replay]")
    table.wait("#replay[open]")
    for _ in range(10):
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('#replay') || document.activeElement === document.body")
    # "You" as subject takes the verb's own form in every caption.
    captions = []  # the replay opens at its first step
    for _ in range(120):
        captions.append(page.inner_text("#replay-caption"))
        if page.is_disabled("#replay-next"):
            break
        page.click("#replay-next")
    assert not [c for c in captions if re.search(r"\bYou (leads|becomes|speaks|takes)\b", c)], captions
    page.keyboard.press("Escape")
    table.wait("#settle-dialog[open]")
    assert page.evaluate("document.activeElement.dataset.ctl") == "replay"


def test_at_400_percent_zoom_every_control_can_be_reached(make_table):
    """320x256 CSS px (a 1280x1024 screen at 400%): the page scrolls, and no control is covered."""
    table = make_table({"width": 320, "height": 256}).open()
    page = table.page
    covered = """() => [...document.querySelectorAll('button, select, input, [tabindex="0"]')]
      .filter((el) => el.offsetParent !== null && !el.closest('dialog:not([open])'))
      .filter((el) => { el.scrollIntoView({block: 'center', inline: 'center'});
        const r = el.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + Math.min(r.height / 2, 10);
        const hit = document.elementFromPoint(x, y);
        return !(hit && (hit === el || el.contains(hit) || hit.closest('label') === el.closest('label'))); })
      .map((el) => el.id || el.dataset.ctl || el.name || el.tagName)"""
    assert page.evaluate(covered) == []
    page.evaluate("window.scrollTo(0, 0)")
    table.start("classic")
    table.wait_turn_or_over()
    assert page.evaluate("document.scrollingElement.scrollHeight > innerHeight")
    assert page.evaluate(covered) == []


def test_duel_bid_buttons_are_named_by_the_call_and_rob_bidding(make_table):
    table = make_table(PHONE_PORTRAIT).open()
    table.start("duel")
    words = translations("en")
    for _ in range(20):
        if table.wait_turn_or_over() != "bidding":
            break
        assert table.text("[data-ctl=bid-pass]") in (words["act.no_call"], words["act.no_rob"])
        assert words["act.no_bid"] != table.text("[data-ctl=bid-pass]")
        with table.progressing():
            table.bid_quickly("duel")


def test_a_springs_banner_is_seen_whole_before_the_results(make_table):
    # The results covered a spring's banner 0.8 s after it came (0.3 s at "Instant"): the round's end
    # waits for what the banner has still to go, which effects.js tells; and the banner is opaque
    # (a "Pass" bubble showed through the rocket's).
    table = make_table(PHONE_LANDSCAPE).open()
    table.start("classic")
    table.wait_turn_or_over()
    left, background, after = table.page.evaluate(f"""async () => {{
      const fx = await {module('effects.js')};
      fx.effectOf({{type: 'settle', spring: true, anti_spring: false, points: [4, -2, -2]}}, 0);
      const left = fx.effectRemaining();
      const background = getComputedStyle(document.getElementById('effect')).backgroundColor;
      fx.clearEffect();
      return [left, background, fx.effectRemaining()];
    }}""")
    assert left > 1200 and after == 0, (left, after)
    assert background.startswith("rgb("), background  # no alpha
