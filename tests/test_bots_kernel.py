"""The faster simulation kernel (issue 11, session 19) plays exactly as the one before it.

The kernel remembers legal moves (``dizhu.bots.memo``), the split's leads and the
history's plays, and computes counts with C loops.  None of that may change a
single move: the memo must give the engine's own answer for every key, and the
search must give the same rollouts and estimates as the 2026-12-01 kernel kept
in ``benchmarks/frozen/kernel_2026_12_01`` (a source checkout only).  The comparison is with the
Python rollouts and readings, the reference: the compiled ones (``dizhu.bots._rollout``) are
compared with those in tests/test_rollout_native.py.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from dizhu import Round
from dizhu.bots import create, memo
from dizhu.bots import search as live
from dizhu.bots import policy, reading, styles
from dizhu.bots.view import View
from dizhu.combos import Kind, classify
from dizhu.moves import moves_from_counts

ROOT = Path(__file__).resolve().parents[1]
FROZEN = ROOT / "benchmarks" / "frozen" / "kernel_2026_12_01"


def _observations(variant: str, rounds: int, every: int = 1) -> list[dict]:
    """Play-phase observations with a choice, from seeded rounds of intermediate bots."""
    out = []
    for n in range(rounds):
        r = Round.deal(variant, seed=f"kernel-parity-{variant}-{n}")
        bots = [create("intermediate", variant, seed=(n, s)) for s in range(r.players)]
        k = 0
        while r.result is None:
            obs = r.observation(r.to_act)
            if obs["phase"] == "playing" and len(obs["legal_actions"]) > 1:
                if k % every == 0:
                    out.append(obs)
                k += 1
            r.apply(r.to_act, bots[r.to_act].decide(obs))
    return out


@pytest.fixture
def frozen(monkeypatch):
    if not FROZEN.exists():
        pytest.skip("the frozen kernel lives in a source checkout only")
    sys.path.insert(0, str(ROOT))
    from benchmarks.frozen.kernel_2026_12_01 import search, view

    # the Python rollouts and readings (the compiled ones draw the normal style's dice their own way)
    monkeypatch.setattr(live, "compiled", lambda: None)
    # the one deliberate change of play since that kernel (session 37): with an opponent about to go
    # out and only small singles or pairs beside the controls, a control is led first; the frozen
    # kernel led the small one
    monkeypatch.setattr(policy, "_safe_leads", lambda pool, plays, danger: [
        p for p in pool if not (p.size == danger and p.kind in (Kind.SINGLE, Kind.PAIR))])
    # ... and (session 38) a play counts as a control when no opponent holds enough cards to answer
    # it (a pair to an opponent on one card); the frozen kernel looked at the unseen cards alone
    monkeypatch.setattr(policy, "answerable", lambda combo, unseen, most: bool(memo.replies(unseen, combo)))
    monkeypatch.setattr(styles, "compiled", lambda: None)
    return search, view.View


def test_the_memo_gives_the_engines_moves_for_every_hand_and_trick():
    """Thousands of (hand, play to beat) keys, asked twice each (the second answer comes from the memo)."""
    memo._MEMO.clear()
    asked = 0
    for variant in ("classic", "duel"):
        for obs in _observations(variant, 16):
            view = View.of(obs)
            hands = [tuple(view.hand), tuple(view.unseen)]
            previous = [None] if view.last is None else [None, view.last[1]]
            for hand in hands:
                for prev in previous:
                    expected = [m.key for m in moves_from_counts(hand, prev)]
                    for _ in range(2):
                        assert [m.key for m in memo.replies(hand, prev)] == expected
                        asked += 1
    assert asked > 2500


def test_the_memo_keys_the_play_to_beat_not_just_the_hand():
    """A memo keyed on the hand alone would answer a lone 3 for a lone 2."""
    hand = tuple([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0])  # an ace and a 2
    assert [m.text for m in memo.replies(hand, classify("3"))] == ["A", "2"]
    assert [m.text for m in memo.replies(hand, classify("A"))] == ["2"]
    assert [m.text for m in memo.replies(hand)] == ["A", "2"]


def test_the_memo_starts_again_when_full(monkeypatch):
    monkeypatch.setattr(memo, "MAX_ENTRIES", 3)
    memo._MEMO.clear()
    for r in range(5):
        hand = tuple(1 if i == r else 0 for i in range(15))
        assert [m.key for m in memo.replies(hand)] == [m.key for m in moves_from_counts(hand)]
        assert len(memo._MEMO) <= 3


def _as_before(obs: dict) -> dict:
    """``obs`` without what is meant to play differently since that kernel: the bids (judged
    on the hands bid with, see below) and the duel's handicap (the farmer now plans to its line:
    tests/test_bots.py), so its farmer plays out, as a classic one does."""
    return {**obs, "bids": [], "handicap": 0 if obs["variant"] == "duel" else obs["handicap"]}


def _as_configured(old_search) -> live.SearchConfig:
    """The live search with the frozen kernel's style prior (the shipped prior has changed since),
    without the look-ahead, the distilled policy and the duel's sharper, resampled reading it did
    not have."""
    return live.SearchConfig(prior=dict(old_search.SUPER_HARD.prior), lookahead=0, own="intermediate",
                             hit=reading.HIT, miss=reading.MISS, resample=1)


def _same_rollouts(kernel, old_view, view, rng_seed: int, worlds: int) -> int:
    """Play every candidate out in ``worlds`` sampled worlds with both kernels; the count compared."""
    old_search = kernel
    compared = 0
    candidates = live._candidates(live.Ctx.of(view))[0]
    old_candidates = old_search._candidates(old_search.Ctx.of(old_view))[0]
    assert [m and m.key for m in candidates] == [m and m.key for m in old_candidates]
    rng_new, rng_old = random.Random(rng_seed), random.Random(rng_seed)
    for _ in range(worlds):
        hands = live.sample_world(view, rng_new)
        assert hands == old_search.sample_world(old_view, rng_old)
        read = _as_configured(old_search).reading(view, hands, rng_new)
        old_read = old_search.SUPER_HARD.reading(old_view, hands, rng_old)
        assert (read.weight, read.styles, read.cost) == (old_read.weight, old_read.styles, old_read.cost)
        seats = [live._own if s == view.seat else live.STYLES[read.draw(s, rng_new)] for s in range(view.players)]
        old_seats = [old_search._own if s == view.seat else old_search.STYLES[old_read.draw(s, rng_old)]
                     for s in range(view.players)]
        luck = rng_new.getrandbits(32)
        assert luck == rng_old.getrandbits(32)
        root, old_root = live.Sim(view, [h[:] for h in hands]), old_search.Sim(old_view, [h[:] for h in hands])
        for move in candidates:
            got = live.play_out(view, root, move, False, live.Solver(), seats, luck)
            want = old_search.play_out(old_view, old_root, move, False, old_search.Solver(), old_seats, luck)
            assert got == want, (view.hand, move)
            compared += 1
    return compared


def test_rollouts_and_readings_match_the_frozen_kernel(frozen):
    """Every world, reading and rollout value (and the decisions it took) as before."""
    old_search, OldView = frozen
    compared = 0
    for variant in ("classic", "duel"):
        for i, obs in enumerate(_observations(variant, 3, every=2)):
            obs = _as_before(obs)
            compared += _same_rollouts(old_search, OldView.of(obs), View.of(obs), i, 3)
    assert compared > 700


def test_estimates_match_the_frozen_kernel(frozen, monkeypatch):
    """``evaluate`` (worlds, weights, rollouts, exact endgames) gives the same figures as before,
    on the same number of simulated decisions (the compiled split makes a second buy more)."""
    old_search, OldView = frozen
    monkeypatch.setattr(live, "STEPS_PER_SECOND", old_search.STEPS_PER_SECOND)
    for variant in ("classic", "duel"):
        for i, obs in enumerate(_observations(variant, 2, every=4)):
            obs = _as_before(obs)
            got = live.evaluate(View.of(obs), random.Random(i), budget=0.02, config=_as_configured(old_search))
            want = old_search.evaluate(OldView.of(obs), random.Random(i), budget=0.02)
            assert [(e.move and e.move.key, e.points, e.win_chance, e.worlds) for e in got] == \
                   [(e.move and e.move.key, e.points, e.win_chance, e.worlds) for e in want]


def test_bids_are_judged_on_the_hands_the_seats_bid_with(monkeypatch):
    """The reading judges a bid on the hand the seat held when it bid: 17 cards (the
    landlord's without the bottom), never the cards it holds now (the 2026-12-01 kernel
    judged what was left after the replay: few cards, some counts below zero)."""
    judged: list[list[int]] = []

    def spy(real):
        def judge(hand, *args):
            judged.append(list(hand))
            return real(hand, *args)
        return judge

    monkeypatch.setattr(reading, "win_chance", spy(reading.win_chance))
    monkeypatch.setattr(reading, "wants_rob", spy(reading.wants_rob))
    for variant in ("classic", "duel"):
        deal_size = Round.deal(variant, seed=1).observation(0)["cards_left"][0]
        for obs in _observations(variant, 3, every=5):
            if not obs["history"] or not any(seat != obs["seat"] and action != "pass" for seat, action in obs["bids"]):
                continue
            view = View.of(obs)
            judged.clear()
            rng = random.Random(0)
            hands = live.sample_world(view, rng)
            reading.read_world(view, hands, rng)
            assert judged, obs["bids"]
            for hand in judged:
                assert sum(hand) == deal_size and min(hand) >= 0, (variant, hand)
