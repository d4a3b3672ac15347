"""Saved games written before the rules kernel (issue 10) still load.

``fixtures/saved_games.json`` was written by the code of main before issue
10 changed the engine: classic and duel rounds stopped mid-play (one from an
explicit deal with robs), and a classic and a duel match with two finished
rounds each and a round in progress.  A running site keeps such JSON in its
database, so restoring it must give back the same state, seat by seat.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dizhu import Round
from dizhu.game.match import Match

SAVED = json.loads((Path(__file__).parent / "fixtures" / "saved_games.json").read_text())
ROUNDS = ["classic_round", "duel_round", "duel_from_deal"]
MATCHES = ["classic_match", "duel_match"]


@pytest.mark.parametrize("name", ROUNDS)
def test_saved_round_loads_with_the_same_observations(name: str) -> None:
    saved = SAVED[name]
    r = Round.from_json(json.dumps(saved["json"]))
    assert [_as_saved(r.observation(s)) for s in range(r.players)] == saved["observations"]
    # saving again writes the same JSON, so a second load is the same too
    assert json.loads(r.to_json()) == saved["json"]


def _as_saved(observation: dict) -> dict:
    """An observation without the keys added since the fixtures were written (checked empty)."""
    assert observation.pop("earlier") == []  # a lone round recalls no other
    return observation


@pytest.mark.parametrize("name", MATCHES)
def test_saved_match_loads_with_its_totals_and_round(name: str) -> None:
    saved = SAVED[name]
    m = Match.from_json(json.dumps(saved["json"]))
    assert m.totals == saved["totals"] and len(m.finished) == 2
    assert [_as_saved(m.round.observation(s)) for s in range(m.variant.players)] == saved["observations"]
    resaved = json.loads(m.to_json())
    # Fields added since the fixture was written come back with the value an old save means:
    # match_start 0, the match began with the game (#12's round of the match); no earlier
    # rounds for the computers to recall (#11).
    assert resaved.pop("match_start") == 0
    assert resaved.pop("earlier") == [] and m.observation(0)["earlier"] == []
    assert resaved == saved["json"]
    # the restored match goes on: finish the round and the totals move by its points
    before = list(m.totals)
    while m.round.result is None:
        m.apply(m.round.to_act, m.round.legal_actions()[0])
    assert [t - b for t, b in zip(m.totals, before)] == m.round.result.points
