"""The table while a round goes on: totals that do not give the result away, a repeated pass
that shows, plays written as players read them, the rules page at any time."""

from __future__ import annotations

import pytest

from .e2e_support import DESKTOP, LINES_OF, PHONE_PORTRAIT, assert_big_enough, module, translations

# Every score the table shows while the round is not over, as one "seat scores" string per
# change (a MutationObserver sees each step the controller renders, thinking pauses included).
WATCH_SCORES = """() => {
  window.scoresSeen = new Set();
  const read = () => [...document.querySelectorAll('.seat-panel:not([hidden]) .score, #me-info .score')]
    .map((el) => el.textContent).join('|');
  new MutationObserver(() => {
    if (document.body.dataset.phase !== 'over') window.scoresSeen.add(read());
  }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}"""

LAST_PLAYER = """async () => {
  const saved = JSON.parse(localStorage.getItem('dizhu.game'));
  const response = await fetch(`/api/games/${saved.gameId}?since=0`, { headers: { Authorization: `Bearer ${saved.token}` } });
  const plays = (await response.json()).events.filter((e) => e.type === 'play');
  return plays[plays.length - 1].seat;
}"""


def test_the_totals_change_only_once_the_last_move_is_shown(make_table):
    # Real pacing: each computer move comes after a pause, as a player sees it.
    table = make_table(DESKTOP, speed=150).open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    table.page.evaluate(WATCH_SCORES)
    # The player never beats a play: it leads its lowest card when it must and passes otherwise.
    # So whatever the deal, a computer goes out, with a last play shown after a pause.
    for _ in range(200):
        phase = table.wait_turn_or_over()
        if phase == "over":
            break
        with table.progressing():
            if phase == "bidding":
                table.bid_quickly("classic")
            elif table.visible("pass"):
                table.page.click("[data-ctl=pass]")
            else:
                table.click_card(table.hand_ids()[0])
                table.page.click("[data-ctl=play]")
    table.wait("#settle-dialog[open]")
    assert table.page.evaluate(LAST_PLAYER) != 0
    seen = table.page.evaluate("[...window.scoresSeen]")
    # One set of scores all round: the ones it started with.
    assert len(seen) == 1, seen


PLAY_ON_THE_TABLE = """async () => {
  const { foldEvents } = await import(new URL('tablestate.js', document.querySelector('script[type=module]').src));
  const { renderTable } = await import(new URL('table.js', document.querySelector('script[type=module]').src));
  const { promptParts } = await import(new URL('status.js', document.querySelector('script[type=module]').src));
  const { describeEvent, reasonParts } = await import(new URL('format.js', document.querySelector('script[type=module]').src));
  // Mei leads 3 J J J (the engine writes it 3JJJ), then 8 K K K comes up to beat.
  const events = [
    { type: 'deal', first: 1, hand_sizes: [17, 17, 17] },
    { type: 'bid', seat: 1, action: 'bid 3' },
    { type: 'landlord', seat: 1, bottom: '567', bottom_ids: [8, 12, 16], bid: 3 },
    { type: 'play', seat: 1, play: '3JJJ', kind: 'trio_single', cards: [0, 32, 33, 34] },
    { type: 'pass', seat: 2 },
  ];
  const ds = foldEvents({ rules: { players: 3, bidding: 'points', handicap: false, deck_counts: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1], undealt: 0 }, me: 0 }, events);
  renderTable({ view: { level: 'normal', totals: [0, 0, 0], round_number: 1 }, ds, thinking: null, handCount: 17 });
  const zone = document.getElementById('zone-1');
  const words = (parts) => parts.map((p) => (typeof p === 'string' ? p : p.textContent)).join('');
  return {
    ids: [...zone.querySelectorAll('.play-row .card')].map((el) => Number(el.dataset.id)),
    label: zone.getAttribute('aria-label'),
    prompt: words(promptParts(ds, true, null)),
    chips: promptParts(ds, true, null).filter((p) => typeof p !== 'string').map((p) => [...p.querySelectorAll('.chip')].map((c) => c.textContent).join(' ')),
    caption: describeEvent(events[3], { table: ds }),
    refusal: reasonParts('too_weak', { play: '8KKK', previous: '3JJJ' }, ds).filter((p) => typeof p !== 'string').map((p) => p.querySelector('.sr-only').textContent.trim()),
  };
}"""


def test_plays_read_body_first_then_kickers(make_table):
    table = make_table(DESKTOP).open()
    seen = table.page.evaluate(PLAY_ON_THE_TABLE)
    assert seen["ids"] == [32, 33, 34, 0]  # the trio, then its kicker
    assert seen["label"].endswith("J J J 3")
    assert "J J J 3" in seen["chips"]
    assert seen["caption"].endswith("J J J 3")
    assert seen["refusal"] == ["K K K 8", "J J J 3"]


JOKERS_SMALL = """async () => {
  const { cardRow } = await import(new URL('cardview.js', document.querySelector('script[type=module]').src));
  const { renderCounter } = await import(new URL('counter.js', document.querySelector('script[type=module]').src));
  const row = cardRow([52, 53], 'play-row');
  row.classList.add('zone');
  document.body.append(row);
  const counter = document.createElement('div');
  renderCounter(counter, { deck_counts: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1], undealt: 0 }, [], []);
  document.body.append(counter);
  const star = (el) => {
    const svg = [...el.querySelectorAll('svg')].find((s) => s.getBoundingClientRect().width > 0);
    return svg ? svg.querySelector('use').getAttribute('href') : null;
  };
  const cards = [...row.querySelectorAll('.card')];
  return {
    cards: cards.map(star),
    counter: [13, 14].map((rank) => star(counter.querySelector(`.cell[data-rank="${rank}"]`))),
    hollow: document.querySelector('#joker-hollow path').getAttribute('fill-rule'),
  };
}"""


def test_small_rows_tell_the_jokers_apart_by_shape(make_table):
    table = make_table(DESKTOP).open()
    seen = table.page.evaluate(JOKERS_SMALL)
    # Small rows show no JOKER text: the star itself must differ (hollow or solid), in card
    # rows and in the counter alike, not only its colour.
    assert seen["cards"][0] and seen["cards"][1] and seen["cards"][0] != seen["cards"][1], seen
    assert seen["counter"][0] != seen["counter"][1], seen
    assert seen["hollow"] == "evenodd"


PASS_AGAIN = """async () => {
  const { emptyState, applyEvent } = await import(new URL('tablestate.js', document.querySelector('script[type=module]').src));
  const { renderTable } = await import(new URL('table.js', document.querySelector('script[type=module]').src));
  const ds = emptyState({ rules: { players: 3, bidding: 'points', handicap: false, deck_counts: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1], undealt: 0 }, me: 0 });
  const view = { level: 'normal', totals: [0, 0, 0], round_number: 1 };
  const show = (ev) => { applyEvent(ds, ev); renderTable({ view, ds, thinking: null, handCount: 17 }); };
  for (const ev of [
    { type: 'deal', first: 1, hand_sizes: [17, 17, 17] },
    { type: 'bid', seat: 1, action: 'bid 3' },
    { type: 'landlord', seat: 1, bottom: '567', bottom_ids: [8, 12, 16], bid: 3 },
    { type: 'play', seat: 1, play: '3', kind: 'single', cards: [0] },
    { type: 'pass', seat: 2 },
    { type: 'play', seat: 0, play: '4', kind: 'single', cards: [4] },
  ]) show(ev);
  const first = document.querySelector('#zone-2 .bubble');
  first.dataset.seen = 'yes';
  show({ type: 'play', seat: 1, play: '6', kind: 'single', cards: [13] });
  const beforeAgain = document.querySelector('#zone-2 .bubble');
  show({ type: 'pass', seat: 2 });  // Jun passes again in the same trick
  const again = document.querySelector('#zone-2 .bubble');
  return {
    kept: beforeAgain === first,
    redrawn: again !== first && !again.dataset.seen,
    classes: again.className,
    text: again.textContent,
    animation: getComputedStyle(again).animationName,
  };
}"""


def test_a_second_pass_in_the_same_trick_shows(make_table):
    table = make_table(DESKTOP).open()
    seen = table.page.evaluate(PASS_AGAIN)
    assert seen["kept"]  # nothing new from Jun: the bubble stays as it was
    assert seen["redrawn"] and "again" in seen["classes"] and seen["text"] == "Pass", seen
    assert "again" in seen["animation"]
    # With reduced motion the bubble does not move, but it still flashes.
    table.page.emulate_media(reduced_motion="reduce")
    seen = table.page.evaluate(PASS_AGAIN)
    assert seen["animation"] == "again", seen


def test_question_mark_opens_the_rules_once_the_round_is_over(make_table):
    table = make_table(DESKTOP).open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    table.auto_play(500)
    table.wait("#settle-dialog[open]", timeout=120_000)
    # Over the results…
    table.page.keyboard.press("?")
    table.wait("#rules-dialog[open]")
    table.page.keyboard.press("Escape")
    table.page.wait_for_selector("#rules-dialog:not([open])", state="attached")
    assert table.page.is_visible("#settle-dialog[open]")
    # …and on the table behind them.
    table.page.click("[data-ctl=view-table]")
    table.page.keyboard.press("?")
    table.wait("#rules-dialog[open]")
    assert table.text("#rules-title") == translations("en")["rules.title"]


def test_the_top_bar_shows_the_rounds_whole_stake_once_it_is_over(make_table):
    # After a spring the bar still read "x2 rocket" while the results said the stake was 4; and
    # "bombs x1" read like a multiplier beside the real one.
    table = make_table(DESKTOP).open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    words = table.page.evaluate(f"""async () => {{
      const state = await {module("tablestate.js")};
      const tbl = await {module("table.js")};
      const rules = {{players: 3, bidding: 'points', handicap: false, deck_counts: [4,4,4,4,4,4,4,4,4,4,4,4,4,1,1], undealt: 0}};
      const events = [{{type: 'deal', first: 0, hand_sizes: [17, 17, 17]}},
        {{type: 'landlord', seat: 0, bottom: '345', bottom_ids: [0, 4, 8], bid: 2}},
        {{type: 'play', seat: 0, play: '3333', kind: 'bomb', cards: [0, 1, 2, 3]}}];
      const show = (evs) => {{
        const ds = state.foldEvents({{rules, me: 0}}, evs);
        tbl.renderTable({{view: {{totals: [0, 0, 0], level: 'normal', round_number: 1}}, ds, thinking: null, handCount: 16}});
        return [document.querySelector('#info .mult').textContent, document.querySelector('#info .mult-why').textContent];
      }};
      const during = show(events);
      const over = show([...events, {{type: 'settle', winner: 0, landlord: 0, spring: true, anti_spring: false,
        multiplier: 8, points: [16, -8, -8], breakdown: [], hand_ids: [[], [], []]}}]);
      return [during, over];
    }}""")
    en = translations("en")
    (during, during_why), (over, over_why) = words
    assert during == "×4" and en["mult.bombs_now.one"].format(n=1, factor=2) in during_why, words
    assert over == "×8" and en["mult.spring_now"] in over_why, words


def test_the_round_shown_is_the_round_of_this_match(make_table):
    table = make_table(DESKTOP).open()
    table.start("classic", "normal")
    table.wait_turn_or_over()
    assert "Round 1" in table.text("#info")
    # Dealing again throws the round in: it was never played, so it does not count.
    with table.progressing():
        table.new_game_from_menu()
    table.wait_turn_or_over()
    assert "Round 1" in table.text("#info")
    # A new match starts from its own first round.
    with table.progressing():
        table.page.click("#menu-btn")
        table.page.click("#menu-new-match")
        table.page.click("#confirm-yes")
    table.wait("body[data-progress^='3:']")
    assert "Round 1" in table.text("#info")
    table.page.click("#menu-btn")
    table.page.click("#menu-home")
    assert "Round 1" in table.text("#continue-info")


def test_a_new_matchs_ledger_starts_empty(make_table):
    # The log's ledger of a new match with no round finished listed the whole previous match
    # (slice(-0) is the whole list), under totals that all read 0.
    table = make_table(DESKTOP).open()
    page = table.page
    table.start("duel", "normal")
    table.play_round("duel")
    page.click("[data-ctl=view-table]")
    with table.progressing():
        page.click("#menu-btn")
        page.click("#menu-new-match")
        page.click("#confirm-yes")
    table.wait_turn_or_over()
    for _ in range(2):  # and after a reload
        page.click("#menu-btn")
        page.click("#menu-log")
        table.wait(f"#log-body p:has-text('{translations('en')['log.no_rounds']}')")
        assert page.locator("#log-body table.ledger").count() == 0
        page.keyboard.press("Escape")
        table.reload()


def test_the_menus_buttons_are_all_on_a_landscape_phones_first_screen(make_table):
    # one column showed six of them at 844 x 390; Records and the guide needed a scroll
    table = make_table({"width": 844, "height": 390}).open()
    table.start("classic", "normal")
    table.page.click("#menu-btn")
    table.wait("#menu-dialog[open]")
    sheet = table.page.locator("#menu-dialog").bounding_box()
    buttons = table.page.eval_on_selector_all(
        "#menu-dialog .menu-list > .btn:not([hidden])", "els => els.map((e) => e.getBoundingClientRect().toJSON())")
    assert len(buttons) >= 7
    assert all(b["bottom"] <= sheet["y"] + sheet["height"] + 0.5 for b in buttons), (sheet, buttons)
    assert_big_enough(table, "menu")
    table.shot("menu-landscape")


@pytest.mark.parametrize("size", ["phone", "landscape", "desktop"])
def test_the_rules_contents_are_big_enough_to_tap(make_table, size):
    # The contents' links were lines of small text, 20 px tall.
    viewport = {"phone": PHONE_PORTRAIT, "landscape": {"width": 844, "height": 390}, "desktop": DESKTOP}[size]
    table = make_table(viewport).open()
    table.start("classic", "normal")
    table.page.click("#rules-btn")
    table.wait("#rules-dialog[open] .toc a")
    assert table.page.locator("#rules-dialog .toc a").count() >= 5
    assert_big_enough(table, "rules")
    table.shot(f"rules-{size}-contents")
    if size != "desktop":  # one row that scrolls, not seven rows (two on a landscape phone) before the first rule
        toc = table.page.locator("#rules-dialog .toc").bounding_box()
        assert toc["height"] < 70, toc
        last = table.page.locator("#rules-dialog .toc a").last
        last.scroll_into_view_if_needed()
        box, toc = last.bounding_box(), table.page.locator("#rules-dialog .toc").bounding_box()
        assert box["x"] + box["width"] <= toc["x"] + toc["width"] + 0.5  # the last section within reach
    # A section's link scrolls the rules' body, not the sheet: its head (title, close) stays in sight
    # (the sheet itself scrolled 65 px on a phone, the head out of sight).
    table.page.locator("#rules-dialog .toc a").nth(3).click()
    table.page.wait_for_timeout(300)
    assert table.page.eval_on_selector("#rules-dialog", "d => d.scrollTop") == 0
    assert table.page.eval_on_selector("#rules-body", "b => b.scrollTop") > 0


# The blocks (paragraphs, cells, items) under ``root`` whose last line holds one character, not
# counting punctuation: "难。" or "す。" alone on a line.
LONE_LAST_CHARACTER = f"""(root) => [...document.querySelectorAll(`${{root}} :is(p, td, li)`)]
  .filter((block) => block.getClientRects().length && block.getBoundingClientRect().width > 1)
  .filter((block) => {{
    const lines = ({LINES_OF})(block);
    return lines.length > 1 && lines[lines.length - 1].replace(/[\\s。、，．！？）」』：:,.!?)·]/g, '').length === 1;
  }})
  .map((block) => block.textContent.slice(-12))"""


@pytest.mark.parametrize("locale", ["ja-JP", "zh-CN"])
def test_the_rules_leave_no_character_alone_on_a_last_line(make_table, locale):
    # On a 360 px phone about ten Chinese paragraphs ended "难。", "炸。"… on a line of their own.
    table = make_table(PHONE_PORTRAIT, locale=locale).open()
    table.start("classic", "normal")
    table.page.click("#rules-btn")
    table.wait("#rules-dialog[open] .toc a")
    assert table.page.evaluate(LONE_LAST_CHARACTER, "#rules-dialog") == []
