"""The table while a round goes on: totals that do not give the result away, a repeated pass
that shows, plays written as players read them, the rules page at any time."""

from __future__ import annotations

from .e2e_support import DESKTOP, translations

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
    table.page.select_option("[data-ctl=interval]", "500")
    table.page.click("[data-ctl=auto]")
    for _ in range(4):
        table.wait("#settle-dialog[open]", timeout=120_000)
        seen = table.page.evaluate("[...window.scoresSeen]")
        # One set of scores all round: the ones it started with.
        assert len(seen) == 1, seen
        if table.page.evaluate(LAST_PLAYER) != 0:
            return  # a computer went out: its last play was revealed after a pause
        table.page.evaluate("window.scoresSeen.clear()")
        table.another_round()
        table.wait_turn_or_over()
        table.page.click("[data-ctl=auto]")
    raise AssertionError("a computer never went out in four rounds")
