"""Hidden information at the API: for the same public history, what the player receives
(view, events, hint, refusals) is identical whatever the hidden cards are."""

from __future__ import annotations

import json
import logging
import random

import pytest

from dizhu import Action, Card, Round
from dizhu.game import RandomPlayer

from .support import install_round, new_game
from test_round_properties import _hidden_swap, _initial_hands

HUMAN = 0


def replay(variant, hands, bottom, first, undealt, log):
    r = Round.from_deal(variant, hands, bottom, first, undealt)
    for seat, text, ids in log:
        r.apply(seat, text if ids is None else Action.play([Card.from_id(i) for i in ids], variant))
    return r


def positions(variant: str, count: int, seed: int):
    """Pairs of rounds with the same public past, the human to act, other hidden cards."""
    rng = random.Random(seed)
    made = n = 0
    while made < count:
        n += 1
        r = Round.deal(variant, seed=f"api-hide-{seed}-{n}")
        players = [RandomPlayer(seed=n * 10 + s) for s in range(r.players)]
        stop = rng.randrange(0, 50)
        log = []
        while r.result is None and (len(log) < stop or r.to_act != HUMAN):
            seat = r.to_act
            r.apply(seat, players[seat].decide(r.observation(seat)))
            log.append(json.loads(r.to_json())["actions"][-1])
        if r.result is not None or any(e["type"] == "redeal" for e in r.events):
            continue
        # The exact cards of every play are public: replay them with their ids.
        plays = iter(e["cards"] for e in r.events if e["type"] == "play")
        log = [[s, text, next(plays) if text.startswith("play") else None] for s, text, _ in log]
        hands, bottom, undealt = _hidden_swap(r, HUMAN, rng)
        original = replay(r.variant.name, _initial_hands(r), list(r.bottom), r.first, list(r.undealt), log)
        swapped = replay(r.variant.name, hands, bottom, r.first, undealt, log)
        others = range(1, r.players)
        if all(original.hand(s) == swapped.hand(s) for s in others):
            continue  # nothing hidden moved: not a useful pair
        made += 1
        yield original, swapped


def public(view: dict) -> dict:
    # The game's id and version say which game and how many commits, nothing about cards.
    return {k: v for k, v in view.items() if k not in ("game_id", "version")}


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_what_the_player_receives_does_not_depend_on_hidden_cards(client, variant, caplog):
    checked = 0
    with caplog.at_level(logging.DEBUG):
        for original, swapped in positions(variant, 12, seed=7 if variant == "classic" else 8):
            answers = []
            for round_ in (original, swapped):
                game = new_game(client, variant=variant)
                install_round(client, game, round_)
                got = {
                    "view": public(game.get().json()),
                    "tail": public(game.get(since=2).json()),
                    "hint": game.post("hint", {}).json(),
                    # a refusal quotes only what the player sent and what is public
                    "refused": game.act("play " + "2" * 3).json(),
                    "wrong_cards": game.act("play 3", cards=[53, 52]).json(),
                }
                answers.append(got)
            assert answers[0] == answers[1]
            assert answers[0]["view"]["observation"]["to_act"] == HUMAN
            checked += 1
    assert checked == 12
    # nothing in the logs names a hand
    assert "hand" not in caplog.text.lower()


def test_a_finished_round_shows_every_hand_but_only_once_it_is_over(client):
    game = new_game(client, variant="duel")
    assert "initial_hands" not in game.get().text and "hand_ids" in game.get().text
    game.play_out()
    settle = game.view["events"][-1] if game.view["events"] else game.get().json()["events"][-1]
    assert settle["type"] == "settle" and len(settle["initial_ids"]) == 2
