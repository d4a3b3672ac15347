"""Drivers that play the same moves on :class:`dizhu.Round` and on another copy of the play phase's
rules, and fail at the first difference (tests/test_play_state.py; benchmarks/parity.py runs them
over millions of steps).

Each returns the number of play-phase steps it checked.
"""

from __future__ import annotations

import random

from dizhu import Round
from dizhu.bots.search import Sim
from dizhu.bots.styles import STYLE_NAMES, STYLES, twins
from dizhu.game.play import PlayState
from dizhu.rules import same_side
from dizhu.solver import Position, Solver


def _to_play(variant: str, seed: str, rng: random.Random) -> Round:
    """A round dealt from ``seed``, bid at random up to its play phase."""
    round_ = Round.deal(variant, seed=seed)
    while round_.phase == "bidding":
        round_.apply(round_.to_act, rng.choice(round_.legal_actions()))
    return round_


def _stake(round_: Round) -> int:
    """The bidding's factor of the settlement (the classic bid, the duel's robs)."""
    return round_.result.breakdown[0]["factor"]


def _settled_alike(round_: Round, winner: int, value_of) -> None:
    """The round's winner is ``winner``, each farmer's points are ``value_of(farmer)`` times the stake,
    and the landlord's the farmers' together, with the sign turned (zero-sum)."""
    result = round_.result
    assert result is not None and (result.winner == "landlord") == (winner == round_.landlord)
    farmers = [s for s in range(round_.players) if s != round_.landlord]
    for seat in farmers:
        assert result.points[seat] == value_of(seat) * _stake(round_), (seat, result.points, value_of(seat))
    assert result.points[round_.landlord] == -sum(result.points[s] for s in farmers)


def against_round(variant: str, seed: str, rng: random.Random) -> int:
    """A round played by random legal moves, and a :class:`PlayState` built from its opening hands
    given the same moves: the same legal moves, turn, trick and cards left at every step, the same
    winner and points."""
    round_ = _to_play(variant, seed, rng)
    state = PlayState.opening(variant, [h.counts for h in round_.all_hands()], round_.landlord, round_.handicap)
    steps = 0
    while round_.result is None:
        actions = round_.legal_actions()
        assert sorted(a.text for a in actions) == sorted(
            "pass" if m is None else f"play {m.text}" for m in state.legal_plays())
        assert (state.to_act, state.left, state.passes) == (round_.to_act, round_.cards_left,
                                                           round_.observation(0)["trick"]["passes"])
        assert state.last == round_.last_play
        # plays more often than passes, so that rounds end in tens of steps
        plays = [a for a in actions if a.kind == "play"]
        action = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(actions)
        round_.apply(round_.to_act, action)
        state.apply(action.combo if action.kind == "play" else None)
        steps += 1
    assert state.winner is not None and state.legal_plays() == []
    _settled_alike(round_, state.winner, lambda seat: state.value(state.winner, seat))
    return steps


def compiled_against_round(variant: str, seed: str, rng: random.Random) -> int:
    """The compiled play state plays a round out with a random style on each seat
    (``kernel.trace``), and a :class:`dizhu.Round` of the same deal is given its moves: each is
    legal there, and the round ends with the kernel's winner and value."""
    round_ = _to_play(variant, seed, rng)
    styles = [STYLES[rng.choice(STYLE_NAMES)] for _ in range(round_.players)]
    found = twins(styles)
    assert found is not None, "the compiled kernel is not built"
    kernel, specs = found
    me = rng.randrange(round_.players)
    sim = Sim.opening(variant, [h.counts for h in round_.all_hands()], round_.landlord, round_.handicap)
    moves, value, steps = kernel.trace(sim.hands, sim.landlord, sim.handicap, sim.to_act, sim.last, sim.passes,
                                       sim.played, sim.deck, sim.plays_made, sim.doublings, specs, me,
                                       rng.getrandbits(32), 1000)
    assert len(moves) == steps
    for key in moves:
        by_key = {0 if a.kind == "pass" else a.combo.key: a for a in round_.legal_actions()}
        assert (key or 0) in by_key, f"the kernel played {key}, not a legal move of the round"
        round_.apply(round_.to_act, by_key[key or 0])
    assert round_.result is not None, "the kernel's game ended before the round's"
    farmer = next(s for s in range(round_.players) if s != round_.landlord)
    assert round_.result.points[farmer] == (value if same_side(me, farmer, round_.landlord) else -value) * _stake(round_)
    return steps


def minimax(p: Position) -> int:
    """The value by definition: every move tried through the play state, no pruning, no table."""
    best = None
    for move in p.moves():
        child, winner = p.play(move)
        if winner is not None:
            value = child.points(winner, p.to_act)
        else:
            value = minimax(child)
            if not same_side(child.to_act, p.to_act, p.landlord):
                value = -value
        best = value if best is None or value > best else best
    return best


def solver_against_state(variant: str, seed: str, rng: random.Random, cards: int = 9) -> int:
    """A round played at random until at most ``cards`` cards remain: the exact solver's value there
    is the one found by trying every line (:func:`minimax`)."""
    round_ = _to_play(variant, seed, rng)
    while round_.result is None and sum(round_.cards_left) > cards:
        actions = round_.legal_actions()
        plays = [a for a in actions if a.kind == "play"]
        round_.apply(round_.to_act, rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(actions))
    if round_.result is not None:
        return 0
    position = Position.from_round(round_)
    assert Solver().value(position) == minimax(position)
    return 1
