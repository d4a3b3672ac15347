"""The simulation kernel's memos, and its estimates against those of the 2026-12-01 kernel.

The kernel remembers legal moves (``dizhu.bots.memo``), the split's leads and the
history's plays, and computes counts with C loops.  None of that may change a
single move: the memo must give the engine's own answer for every key, and the
search must give the estimates the 2026-12-01 kernel gave on the same positions, recorded
below (:data:`EXPECTED`).  The comparison is with the Python rollouts and readings, the
reference: the compiled ones (``dizhu.bots._rollout``) are compared with those in
tests/test_rollout_native.py.
"""

from __future__ import annotations

import random

import pytest

from dizhu import Round
from dizhu.bots import create, memo
from dizhu.bots import search as live
from dizhu.bots import policy, reading, styles
from dizhu.bots.view import View
from dizhu.combos import Kind, classify
from dizhu.moves import moves_from_counts


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
def as_in_2026_12_01(monkeypatch):
    """The live search made to play as the 2026-12-01 kernel did, where play has changed since on purpose."""
    # the Python rollouts and readings (the compiled ones draw the normal style's dice their own way)
    monkeypatch.setattr(live, "compiled", lambda: None)
    monkeypatch.setattr(styles, "compiled", lambda: None)
    # that kernel's step rate: the budget is counted in its simulated decisions
    monkeypatch.setattr(live, "STEPS_PER_SECOND", 44_000)
    # with an opponent about to go out and only small singles or pairs beside the controls, a
    # control is now led first; that kernel led the small one
    monkeypatch.setattr(policy, "_safe_leads", lambda pool, plays, danger: [
        p for p in pool if not (p.size == danger and p.kind in (Kind.SINGLE, Kind.PAIR))])
    # ... and a play now counts as a control when no opponent holds enough cards to answer it (a
    # pair to an opponent on one card); that kernel looked at the unseen cards alone
    monkeypatch.setattr(policy, "answerable", lambda combo, unseen, most: bool(memo.replies(unseen, combo)))


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


#: That kernel's style prior (the shipped one may change).
PRIOR_2026_12_01 = {"intermediate": 0.4, "normal": 0.15, "greedy": 0.15, "cautious": 0.15, "bombs": 0.15}


def _as_configured() -> live.SearchConfig:
    """The live search with that kernel's style prior, without the look-ahead, the distilled
    policy and the duel's sharper, resampled reading it did not have."""
    return live.SearchConfig(prior=dict(PRIOR_2026_12_01), lookahead=0, own="intermediate",
                             hit=reading.HIT, miss=reading.MISS, resample=1)


#: What the 2026-12-01 kernel's ``evaluate`` gave (budget 0.02 s at 44,000 simulated decisions a
#: second, ``random.Random(i)``) at the i-th position of ``_observations(variant, 2, every=4)``,
#: as ``_as_before`` shows it: (move key or None for a pass, points, win chance, worlds) by move.
#: Its code is the git tag ``frozen-kernel-2026-12-01``; ``benchmarks/frozen.py`` imports it from
#: a worktree (``module(KERNEL, "bots.search").evaluate``) to record them again.
EXPECTED: dict[str, list[list[tuple]]] = {
    "classic": [
        [(1, 0.0, 0.5, 4), (1168, 0.0, 0.5, 4), (8, 0.0, 0.5, 4), (9817030656, 0.5, 0.75, 4),
         (262144, -0.5, 0.25, 4), (4194304, -0.5, 0.25, 4), (137438953472, -0.5, 0.25, 4),
         (4398046511104, -0.5, 0.25, 4), (16, -1.0, 0.0, 4), (64, -0.5, 0.25, 4)],
        [(None, 0.46824852557948143, 0.6357152653956932, 4), (262144, 0.27143053079138657, 0.6357152653956932, 4),
         (2097152, 0.029351254971883116, 0.4162666300918941, 4),
         (16777216, 0.46824852557948143, 0.6357152653956932, 4),
         (134217728, 0.46824852557948143, 0.6357152653956932, 4), (1073741824, 1.196817994788095, 1.0, 4),
         (8589934592, 0.27143053079138657, 0.6357152653956932, 4), (68719476736, 1.196817994788095, 1.0, 4),
         (4398046511104, 0.27143053079138657, 0.6357152653956932, 4)],
        [(8, 0.5453109432170443, 0.7726554716085222, 4), (9817030656, 0.5453109432170443, 0.7726554716085222, 4),
         (4194304, -0.49379547443527194, 0.253102262782364, 4), (137438953472, -1.0, 0.0, 4),
         (262144, 0.012409051129455922, 0.506204525564728, 4), (2097152, -0.49379547443527194, 0.253102262782364, 4)],
        [(None, 1.0, 1.0, 7), (68719476736, 0.9782818593078053, 0.9891409296539027, 7)],
        [(4096, 1.0, 1.0, 5), (8192, 1.0, 1.0, 5), (1073741824, 1.0, 1.0, 5), (2147483648, 1.0, 1.0, 5),
         (3221225472, 1.0, 1.0, 5), (8589934592, 1.0, 1.0, 5), (17179869184, 1.0, 1.0, 5), (3221229568, 1.0, 1.0, 5),
         (11811160064, 0.8916686977512965, 0.9458343488756482, 5), (3221233664, 1.0, 1.0, 5),
         (20401094656, 1.0, 1.0, 5)],
        [(16, 1.25, 1.0, 4), (19173888, 1.25, 1.0, 4), (153387008, 1.25, 1.0, 4), (2147483648, 1.25, 1.0, 4),
         (17179869184, 0.75, 0.75, 4), (137438953472, 1.25, 1.0, 4), (549755813888, 1.0, 1.0, 4), (8, 0.5, 0.75, 4),
         (512, 0.0, 0.5, 4), (4096, 1.0, 1.0, 4)],
        [(None, 1.0, 1.0, 11), (137438953472, 0.8651159743618781, 0.932557987180939, 11)],
        [(None, 0.2548759755297647, 0.48791882521451624, 4), (12289, 0.2548759755297647, 0.48791882521451624, 4),
         (12296, 0.2548759755297647, 0.48791882521451624, 4), (12352, 0.2548759755297647, 0.48791882521451624, 4),
         (12800, 0.2548759755297647, 0.48791882521451624, 4), (45056, 0.2548759755297647, 0.48791882521451624, 4),
         (274432, 0.2548759755297647, 0.48791882521451624, 4), (2109440, 0.2548759755297647, 0.48791882521451624, 4),
         (1073754112, 0.2548759755297647, 0.48791882521451624, 4),
         (8589946880, 0.2548759755297647, 0.48791882521451624, 4)],
    ],
    "duel": [
        [(704, 1.2, 1.0, 5), (206158434304, 0.0, 0.4, 5), (9817030656, 1.2, 1.0, 5), (262144, 1.6, 1.0, 5),
         (2097152, 1.6, 1.0, 5), (2147483648, 1.0, 0.8, 5), (4947802324992, -0.4, 0.4, 5), (64, 0.4, 0.6, 5),
         (128, 0.6, 0.6, 5), (512, 1.4, 1.0, 5), (4096, 0.8, 0.8, 5)],
        [(262144, 1.375, 1.0, 8), (2097152, 1.375, 1.0, 8), (1073741824, 1.375, 1.0, 8), (2147483648, 2.0, 1.0, 8),
         (549755813888, 0.5, 0.75, 8), (4398046511104, 0.5, 0.75, 8), (4947802324992, 1.0, 0.75, 8)],
        [(None, 0.6891918113903173, 0.638013000873193, 11), (549755813888, 1.0, 1.0, 11),
         (4398046511104, 1.0, 1.0, 11), (4947802324992, 0.27360046570292035, 0.5684001164257301, 11)],
        [(45056, 0.6666666666666666, 0.8333333333333334, 6), (402654208, 1.0, 1.0, 6),
         (25770328064, 0.6666666666666666, 0.8333333333333334, 6),
         (206191984640, 0.3333333333333333, 0.6666666666666666, 6), (549755813888, 1.0, 1.0, 6),
         (512, 0.6666666666666666, 0.8333333333333334, 6), (1024, 1.0, 1.0, 6),
         (4096, 0.3333333333333333, 0.6666666666666666, 6), (8192, 0.6666666666666666, 0.8333333333333334, 6)],
        [(262144, 0.011035910502428567, 0.5055179552512142, 8), (524288, 1.0, 1.0, 8),
         (16777216, 0.39098972848156693, 0.6954948642407834, 8), (33554432, 1.0, 1.0, 8),
         (68719476736, -0.04528067521299472, 0.4773596623935026, 8), (137438953472, 1.0, 1.0, 8),
         (206158430208, 0.6200461820208616, 0.8100230910104308, 8),
         (206158692352, -0.3689179074767099, 0.3155410462616451, 8),
         (206175207424, 0.6200461820208616, 0.8100230910104308, 8), (206158954496, 1.0, 1.0, 8),
         (206191984640, 1.0, 1.0, 8)],
    ],
}


def test_estimates_match_the_2026_12_01_kernel(as_in_2026_12_01):
    """``evaluate`` (worlds, weights, rollouts, exact endgames) gives the figures that kernel gave,
    on the same number of simulated decisions (the compiled split makes a second buy more)."""
    for variant, expected in EXPECTED.items():
        observations = _observations(variant, 2, every=4)
        assert len(observations) == len(expected)
        for i, obs in enumerate(observations):
            got = live.evaluate(View.of(_as_before(obs)), random.Random(i), budget=0.02, config=_as_configured())
            assert [(e.move and e.move.key, e.points, e.win_chance, e.worlds) for e in got] == expected[i], (variant, i)


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
