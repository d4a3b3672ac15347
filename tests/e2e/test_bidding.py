"""The end of the bidding: the deciding bid, the landlord's name and the bottom cards stay in
view; a throw-in is said without hiding the prompt; the duel's question follows what happened."""

from __future__ import annotations


import pytest

from .e2e_support import DESKTOP, PHONE_PORTRAIT, translations

ROUND_EVENTS = """async () => {
  const saved = JSON.parse(localStorage.getItem('dizhu.game'));
  const response = await fetch(`/api/games/${saved.gameId}?since=0`, { headers: { Authorization: `Bearer ${saved.token}` } });
  return (await response.json()).events;
}"""


def events(table) -> list[dict]:
    return table.page.evaluate(ROUND_EVENTS)


def pass_until_played(table, limit: int = 40) -> None:
    """Never bid: a computer becomes the landlord (a throw-in deals again)."""
    for _ in range(limit):
        table.wait("body[data-turn=me], body[data-phase=playing]")
        if table.page.get_attribute("body", "data-phase") == "playing":
            return
        with table.progressing():
            table.page.click("[data-ctl=bid-pass]")
    raise AssertionError("the bidding never ended")


# In the page's clock, when the news first shows and when it hides again (a busy machine may hand
# the test its turn late, but never makes the page's timers fire early).
NEWS_TIMES = """window.__news = {};
new MutationObserver(() => {
  const news = document.getElementById('news'), at = window.__news;
  if (!news) return;
  if (!news.hidden && at.shown === undefined) at.shown = performance.now();
  if (news.hidden && at.shown !== undefined && at.hidden === undefined) at.hidden = performance.now();
}).observe(document, { attributes: true, subtree: true, childList: true });"""


@pytest.mark.parametrize("reduced", [False, True])
def test_the_deciding_bid_the_landlord_and_the_bottom_stay_in_view(make_table, reduced):
    table = make_table(DESKTOP)
    if reduced:
        table.page.emulate_media(reduced_motion="reduce")
    table.page.context.add_init_script(NEWS_TIMES)
    table.open()
    en = translations("en")
    table.start("classic", "normal")
    pass_until_played(table)
    # Play has not gone on yet: the news is in the middle of the table.
    table.wait("#news:not([hidden])", timeout=1000)
    evs = events(table)
    landlord = next(e for e in evs if e["type"] == "landlord")
    bids = [(e["seat"], e["action"]) for e in evs if e["type"] == "bid"]
    assert landlord["seat"] != 0
    name = en[f"seat.{landlord['seat']}"]
    news = table.text("#news")
    assert en["news.landlord"].replace("{name}", name) in news
    label = lambda a: en["act.bid"].replace("{n}", a[4:]) if a.startswith("bid ") else en["act.no_bid"]  # noqa: E731
    winning = [a for s, a in bids if s == landlord["seat"]][-1]
    assert f"{name}: {label(winning)}" in news
    # The last bid, the one that decided it, is still beside its seat; the bottom is face up.
    seat, action = bids[-1]
    assert table.text(f"#zone-{seat} .bubble") == label(action)
    shown = table.page.eval_on_selector_all("#news .news-bottom .card", "els => els.map(e => Number(e.dataset.id))")
    assert sorted(shown) == sorted(landlord["bottom_ids"])
    # Centred on the board.
    box = table.page.locator("#news").bounding_box()
    board = table.page.locator("#board").bounding_box()
    assert abs((box["x"] + box["width"] / 2) - (board["x"] + board["width"] / 2)) < 2
    animation = table.page.eval_on_selector("#news", "el => getComputedStyle(el).animationName")
    assert (animation == "none") == reduced
    table.shot(f"desktop-en-landlord-news{'-reduced' if reduced else ''}")
    # It stays long enough to read, then the landlord's lead takes over.
    table.page.wait_for_selector("#news[hidden]", state="attached", timeout=10_000)
    times = table.page.evaluate("window.__news")
    assert times["hidden"] - times["shown"] >= 1000, times
    assert table.page.locator("#board .bubble.bid").count() == 0


def test_a_throw_in_is_said_without_hiding_the_prompt(make_table):
    table = make_table(PHONE_PORTRAIT).open()
    en = translations("en")
    table.start("classic", "normal")
    for _ in range(40):
        table.wait_turn_or_over()
        if table.page.get_attribute("body", "data-phase") == "bidding":
            with table.progressing():
                table.page.click("[data-ctl=bid-pass]")
        if any(e["type"] == "redeal" for e in events(table)):
            break
        table.wait("body[data-turn=me], body[data-phase=playing]")
        with table.progressing():
            table.new_game_from_menu()
    else:
        raise AssertionError("no throw-in in 40 deals")
    table.wait("body[data-turn=me]")
    evs = events(table)
    after = evs[max(i for i, e in enumerate(evs) if e["type"] == "deal") + 1:]
    status = table.text("#status")
    if any(e["type"] == "bid" for e in after):
        # Someone has bid in the new deal: the throw-in is old news, the prompt is there.
        assert en["status.redeal"] not in status and status.strip()
    else:
        assert en["status.redeal"] in status and en["status.bid"] in status
        table.shot("phone-portrait-en-redeal")
        with table.progressing():
            table.page.click("[data-ctl=bid-pass]")
    table.wait("body[data-turn=me], body[data-phase=playing]")
    evs = events(table)
    if evs[-1]["type"] == "redeal" or evs[-1]["type"] == "deal":
        return  # thrown in again: the notice is right once more
    assert en["status.redeal"] not in table.text("#status")
    if table.page.get_attribute("body", "data-phase") == "playing":
        table.wait("body[data-turn=me]")
        assert en["status.redeal"] not in table.text("#status")


DUEL_PROMPTS = """async (language) => {
  const { setLanguage } = await import(new URL('i18n.js', document.querySelector('script[type=module]').src));
  const { foldEvents } = await import(new URL('tablestate.js', document.querySelector('script[type=module]').src));
  const { promptParts } = await import(new URL('status.js', document.querySelector('script[type=module]').src));
  await setLanguage(language);
  const deal = (first) => ({ type: 'deal', first, hand_sizes: [17, 17] });
  const text = (evs) => promptParts(foldEvents({ rules: { players: 2, bidding: 'rob', handicap: true, deck_counts: [0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1], undealt: 9 }, me: 0 }, evs), true, null).map((p) => (typeof p === 'string' ? p : p.textContent)).join('');
  return {
    first: text([deal(0)]),
    called: text([deal(1), { type: 'bid', seat: 1, action: 'call' }]),
    robbedMyCall: text([deal(0), { type: 'bid', seat: 0, action: 'call' }, { type: 'bid', seat: 1, action: 'rob' }]),
    robbedMyRob: text([deal(1), { type: 'bid', seat: 1, action: 'call' }, { type: 'bid', seat: 0, action: 'rob' },
                       { type: 'bid', seat: 1, action: 'rob' }]),
  };
}"""


@pytest.mark.parametrize("language", ["en", "ja", "zh-Hans", "zh-Hant"])
def test_the_duel_question_follows_what_the_opponent_did(make_table, language):
    table = make_table(DESKTOP).open()
    words = translations(language)
    seen = table.page.evaluate(DUEL_PROMPTS, language)
    name = words["seat.duel"]
    assert seen["first"] == words["status.call"]
    # Each question says what a rob would give the farmer: the handicap after it.
    one = words.get("status.rob.one", words["status.rob"])  # (a language with a singular of its own)
    assert seen["called"] == one.replace("{name}", name).replace("{n}", "1")
    # A rob of our call (or of our rob) is not "called": the question is whether to rob back.
    assert seen["robbedMyCall"] == words["status.rob_back"].replace("{name}", name).replace("{n}", "2")
    assert seen["robbedMyRob"] == words["status.rob_back"].replace("{name}", name).replace("{n}", "3")
    assert seen["called"] != seen["robbedMyCall"]


def test_a_rob_does_not_look_like_a_call(make_table):
    # The duel's "Rob" and "Call" bubbles were the same gold: a rob, which doubles the stakes and
    # moves the handicap line, passed for a call at a glance.
    from dizhu.game.deal import deal_cards

    looks = "el => { const s = getComputedStyle(el); return [el.className, s.backgroundColor, s.boxShadow]; }"
    codes = (c for c in (f"duel-rob-{n}" for n in range(200)) if deal_cards(c).first == 1)
    for code in codes:  # a deal where the computer speaks first and calls
        table = make_table(PHONE_PORTRAIT).open()
        table.start_deal(code)
        table.wait("body[data-turn=me], body[data-phase=playing]")
        if table.visible("bid-rob"):
            break
    else:
        raise AssertionError("the computer never called first")
    call = table.page.locator("#zone-1 .bubble").evaluate(looks)
    table.page.click("[data-ctl=bid-rob]")
    table.wait("#zone-0 .bubble")
    rob = table.page.locator("#zone-0 .bubble").evaluate(looks)
    assert "rob" in rob[0].split() and "rob" not in call[0].split()
    assert call[1] != rob[1] and call[2] != rob[2], (call, rob)
    table.shot("phone-portrait-rob-bubble")
    # The replay draws the bids with the table's own bubbles (they were all plain white there).
    table.play_round("duel")
    table.wait("#settle-dialog[open]")
    table.page.click("[data-ctl=replay]")
    table.wait("#replay[open]")
    for _ in range(12):
        if table.page.locator("#replay .replay-act .bubble.rob").count():
            break
        table.page.click("#replay-next")
    assert table.page.locator("#replay .replay-act .bubble.rob").first.evaluate(looks)[1:] == rob[1:]
