"""The page's own logic checked in the browser against the real server.

The table is drawn from a fold of the round's events (tablestate.js); here
that fold is compared with the server's observation at many points of real
rounds. And the settlement sheet is rendered for a match that is over, which
a test cannot reach quickly by playing.
"""

from __future__ import annotations

import pytest

from .e2e_support import DESKTOP, translations

FOLD_VS_SERVER = """async () => {
  const { foldEvents, currentMultiplier } = await import(new URL('tablestate.js', document.querySelector('script[type=module]').src));
  const saved = JSON.parse(localStorage.getItem('dizhu.game'));
  const response = await fetch(`/api/games/${saved.gameId}?since=0`, { headers: { Authorization: `Bearer ${saved.token}` } });
  const view = await response.json();
  const obs = view.observation;
  const ds = foldEvents({ rules: view.rules, me: view.human_seat }, view.events);
  return {
    fold: {
      phase: ds.phase, toAct: ds.toAct, landlord: ds.landlord, cardsLeft: ds.cardsLeft,
      bottom: ds.bottomIds, multiplier: currentMultiplier(ds), played: ds.playedIds.length,
      last: ds.lastPlay ? [ds.lastPlay.seat, ds.lastPlay.play] : null, robs: ds.robs,
      points: ds.result ? ds.result.points : null,
    },
    server: {
      phase: obs.phase, toAct: obs.to_act, landlord: obs.landlord, cardsLeft: obs.cards_left,
      bottom: obs.bottom_ids, multiplier: obs.multiplier.total, played: obs.played.length,
      last: obs.trick.last, robs: view.variant === 'duel' ? obs.handicap : 0,
      points: obs.result ? obs.result.points : null,
    },
    hand: obs.hand_ids,
  };
}"""


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_the_table_fold_agrees_with_the_server_all_round(make_table, variant):
    table = make_table(DESKTOP).open()
    table.start(variant, "normal")
    checks = 0
    for _ in range(200):
        phase = table.wait_turn_or_over()
        seen = table.page.evaluate(FOLD_VS_SERVER)
        assert seen["fold"] == seen["server"], seen
        checks += 1
        if phase == "over":
            break
        with table.progressing():
            if phase == "bidding":
                table.bid_quickly(variant)
            else:
                table.play_turn()
    assert checks > 3 and seen["server"]["phase"] == "over"
    # What the table shows agrees as well: cards left beside each opponent.
    for seat in range(1, 3 if variant == "classic" else 2):
        shown = table.page.inner_text(f"#seat-{seat} .count .n")
        assert int(shown) == seen["server"]["cardsLeft"][seat]


SETTLE_MATCH_OVER = """async () => {
  const { renderSettlement } = await import(new URL('settlement.js', document.querySelector('script[type=module]').src));
  const body = document.createElement('div');
  const view = { variant: 'classic', level: 'normal', match_over: true, winners: [1, 2],
                 totals: [-62, 31, 31], target: 30 };
  const result = { winner: 'farmers', landlord: 0, points: [-16, 8, 8], multiplier: 8, spring: false,
                   anti_spring: true, hand_ids: [[0, 1, 52], [], [20]], deal_code: 'classic-abc',
                   breakdown: [{ source: 'bid', factor: 2 }, { source: 'bomb', seat: 1, play: '7777', factor: 2 },
                               { source: 'anti_spring', factor: 2 }] };
  const noop = () => {};
  const table = { players: 3, me: 0, rules: { players: 3, bidding: 'points', handicap: false, deck_counts: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1], undealt: 0 } };
  renderSettlement(body, { view, table, result, handlers: { replay: noop, close: noop, anotherRound: noop, newMatch: noop, replayDeal: noop } });
  return {
    text: body.textContent,
    another: !!body.querySelector('[data-ctl=another-round]'),
    newMatch: !!body.querySelector('[data-ctl=new-match]'),
    primary: [...body.querySelectorAll('.btn.primary')].map((b) => b.dataset.ctl),
    target: !!body.querySelector('.target'),
    rows: body.querySelectorAll('tr.player').length,
    handCards: body.querySelectorAll('tr.hand-line .card').length,
  };
}"""


@pytest.mark.parametrize("language", ["en", "ja"])
def test_settlement_of_a_finished_match_names_the_winners(make_table, language):
    table = make_table(DESKTOP, locale={"en": "en-US", "ja": "ja-JP"}[language]).open()
    words = translations(language)
    seen = table.page.evaluate(SETTLE_MATCH_OVER)
    names = words["settle.and"].join([words["seat.1"], words["seat.2"]])
    assert words["settle.match_winner"].replace("{names}", names) in seen["text"]
    assert words["settle.anti_spring"] in seen["text"]
    assert words["mult.bomb"].replace("{name}", words["seat.1"]) in seen["text"]
    assert not seen["another"] and seen["newMatch"]  # the match is over: only a new one
    assert seen["primary"] == ["new-match"] and not seen["target"]  # the way on, and no rule of a match won
    assert seen["rows"] == 3 and seen["handCards"] == 4  # every hand left, face up


SETTLE_DUEL = """async (farmerLeft) => {
  const { renderSettlement } = await import(new URL('settlement.js', document.querySelector('script[type=module]').src));
  const body = document.createElement('div');
  const view = { variant: 'duel', level: 'normal', match_over: false, totals: [-4, 4], target: null };
  const result = { winner: 'farmer', landlord: 0, points: [-4, 4], multiplier: 4, spring: false, anti_spring: false,
                   hand_ids: [[0, 1, 2, 3, 4, 5], farmerLeft], breakdown: [{ source: 'robs', count: 2, factor: 4 }] };
  const noop = () => {};
  const table = { players: 2, me: 0, rules: { players: 2, bidding: 'rob', handicap: true, deck_counts: [0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1], undealt: 9 } };
  renderSettlement(body, { view, table, result, handlers: { replay: noop, close: noop, anotherRound: noop, newMatch: noop, replayDeal: noop } });
  // the replay's last caption and the spoken news say the same
  const { describeEvent } = await import(new URL('format.js', document.querySelector('script[type=module]').src));
  const said = describeEvent({ type: 'settle', ...result }, { table });
  return said === body.querySelector('.who').textContent ? said : `sheet and caption differ: ${said}`;
}"""


@pytest.mark.parametrize("language", ["en", "ja", "zh-Hans"])
def test_a_duel_farmer_who_wins_at_the_handicap_line_is_said_to(make_table, language):
    # The sheet said "The farmer wins." over a farmer still holding cards: it read as a win by
    # someone who never went out.
    table = make_table(DESKTOP).open()
    table.page.evaluate(f"""async () => {{ const {{ setLanguage }} = await import(new URL('i18n.js',
      document.querySelector('script[type=module]').src)); await setLanguage('{language}'); }}""")
    words = translations(language)
    assert table.page.evaluate(SETTLE_DUEL, [20, 24]) == words["settle.farmer_wins_line"].replace("{n}", "2")
    one = words.get("settle.farmer_wins_line.one", words["settle.farmer_wins_line"])
    assert table.page.evaluate(SETTLE_DUEL, [20]) == one.replace("{n}", "1")
    assert table.page.evaluate(SETTLE_DUEL, []) == words["settle.farmer_wins"]  # played out


def test_thinking_is_shown_and_a_new_game_mid_animation_is_clean(make_table):
    # Real pacing: each computer decision is shown after a visible pause.
    table = make_table(DESKTOP, speed=900).open()
    table.start("classic", "normal")
    table.to_my_play_turn()
    with table.progressing():
        table.play_turn()  # then the computers answer, one visible pause each
    table.wait(".seat-panel.thinking")
    assert table.page.locator(".seat-panel.thinking").count() == 1
    assert table.page.get_attribute("body", "data-turn") == "other"
    assert "thinking" in table.text("#status")
    assert table.page.is_disabled("[data-ctl=hint]")
    # Deal again while the computers are still being shown.
    table.page.click("#menu-btn")
    table.page.click("#menu-new-game")
    if table.page.is_visible("#confirm-dialog[open]"):
        table.page.click("#confirm-yes")
    table.wait("body[data-progress^='2:']")
    table.wait_turn_or_over()
    seen = table.page.evaluate(FOLD_VS_SERVER)
    assert seen["fold"] == seen["server"], seen
    # The thrown-in round does not count: this is still the match's first round.
    assert "Round 1" in table.text("#info")
    # What is on screen is the new deal, untouched by the old animation.
    assert sorted(table.hand_ids()) == sorted(seen["hand"])
    for seat in (1, 2):
        assert int(table.page.inner_text(f"#seat-{seat} .count .n")) == seen["server"]["cardsLeft"][seat]
