"""The compiled rollouts (``dizhu.bots._rollout``) play as the Python styles and rollouts do.

Super-hard's rollouts and its reading of the other seats run compiled when every seat plays a
style of the library (:data:`dizhu.bots.styles.NATIVE_SPECS`).  The Python styles are the
reference: each compiled style must pick the same play at every decision (the normal style given
the same two random draws: compiled, it rolls its own dice), and a rollout by deterministic
styles must end the same way after the same decisions.  ``tools/native_parity.py --decisions``
runs the same comparison on a million decisions.
"""

from __future__ import annotations

import random

import pytest

from dizhu import Round
from dizhu.bots import create, reading, search, styles
from dizhu.bots.view import View
from dizhu.bots.styles import NATIVE_SPECS, OWN_STYLES, STYLE_NAMES, STYLES, native_spec
from dizhu.combos import classify, combo_from_counts
from dizhu.native import pure_python_asked


@pytest.fixture(scope="module")
def kernel():
    found = styles.compiled()
    assert found is not None, "the compiled rollouts are built with the install (a C compiler is set up)"
    return found


def test_the_compiled_rollouts_run_unless_pure_python_is_asked_for():
    assert (styles.compiled() is not None) is (not pure_python_asked())


def test_every_library_style_has_a_compiled_twin_and_only_those():
    assert set(NATIVE_SPECS) == set(OWN_STYLES.values())
    assert styles.twins([STYLES["greedy"], search._own])[1] == [native_spec("greedy"), native_spec("intermediate")]
    assert styles.twins([STYLES["greedy"], lambda ctx, rng: None]) is None


@pytest.mark.parametrize("seed", [1, 2])
def test_every_style_picks_the_same_play_compiled(seed, kernel, native_parity):
    cases = list(native_parity.decision_cases(2500, seed))
    # the positions cover both variants, leads and replies, and each style both plays and passes
    assert {c[0].players for c in cases} == {2, 3}
    assert sum(c[0].last is None for c in cases) > 300 and sum(c[0].last is not None for c in cases) > 1000
    picks = [native_parity.picks_python(*c) for c in cases]
    for k in range(len(native_parity.NAMES)):
        assert any(p[k] is None for p in picks) and any(p[k] is not None for p in picks)
    # the distilled policy overrules intermediate's move now and then, compiled as in Python
    distilled, intermediate = native_parity.NAMES.index("distilled"), native_parity.NAMES.index("intermediate")
    assert sum(p[distilled] != p[intermediate] for p in picks) > 20
    found = [native_parity.decision_disagreement(*c) for c in cases]
    assert [f for f in found if f] == []


@pytest.mark.parametrize("seed", [1, 2])
def test_rollouts_end_the_same_compiled(seed, kernel, native_parity):
    cases = list(native_parity.rollout_cases(150, seed))
    results = [native_parity.rollout_python(*c) for c in cases]
    assert len({v for v, _ in results}) >= 3  # wins and losses, some doubled
    assert [f for f in (native_parity.rollout_disagreement(*c) for c in cases) if f] == []


def test_the_normal_style_plays_by_its_draws(kernel, native_parity):
    """Leading, the normal style plays a random play of its split when the first draw is below
    0.15 (the second draw picks which), else its lowest: the same rule as the Python style."""
    normal = STYLE_NAMES.index("normal")
    ctx = next(c for c, _, _ in native_parity.decision_cases(400, 3) if c.last is None and len(set(
        native_parity.picks_compiled(c, 0.0, u)[normal] for u in (0.0, 0.5, 0.99))) > 1)
    lowest = native_parity.picks_compiled(ctx, 0.5, 0.0)[normal]
    assert native_parity.picks_compiled(ctx, 0.9, 0.99)[normal] == lowest
    assert len({native_parity.picks_compiled(ctx, 0.1, u / 10)[normal] for u in range(10)}) > 1


def test_an_unhashable_policy_replies_in_python_in_the_look_ahead(native_parity):
    class Greedy:  # a policy object with an __eq__ and so no hash
        def __eq__(self, other):
            return isinstance(other, Greedy)

        def __call__(self, ctx, rng):
            return STYLES["greedy"](ctx, rng)

    view, root, move, _, luck, config = next(native_parity.lookahead_cases(1, 3))
    assert styles.throws_dice(Greedy())
    seats = [search._own if s == view.seat else Greedy() for s in range(view.players)]
    plain = [search._own if s == view.seat else STYLES["greedy"] for s in range(view.players)]
    assert search.to_next_decision(view, root, move, seats, luck, config) == \
        search.to_next_decision(view, root, move, plain, luck, config, native=False)


def test_a_policy_outside_the_library_is_played_in_python(native_parity):
    sim, me, seats, luck = next(native_parity.rollout_cases(1, 4))
    asked = []

    def mine(ctx, rng):
        asked.append(ctx.seat)
        return STYLES["greedy"](ctx, rng)

    value, used = search._rollout(sim.copy(), me, [mine] * sim.players, luck)
    assert len(asked) == used
    assert (value, used) == search._rollout(sim.copy(), me, [STYLES["greedy"]] * sim.players, luck)


def test_the_styles_are_asked_compiled_and_answer_as_in_python(kernel, monkeypatch, native_parity):
    """The question of the reading and the look-ahead (what would each style play here?) goes to
    the kernel, and gets the Python answer: a deterministic style's pick is the same either way."""
    ctx, _, _ = next(native_parity.decision_cases(50, 5))
    deterministic = [STYLES[name] for name in STYLE_NAMES if name != "normal"]
    calls, compiled_picks = [], kernel.picks
    monkeypatch.setattr(kernel, "picks", lambda *args: calls.append(args) or compiled_picks(*args))
    got = styles.picks(deterministic, ctx, random.Random(1))
    assert len(calls) == 1 and len(got) == len(deterministic)
    monkeypatch.setattr(styles, "compiled", lambda: None)
    assert styles.picks(deterministic, ctx, random.Random(1)) == got
    assert len(calls) == 1


def test_one_style_plays_compiled_the_very_play_python_gives(kernel, monkeypatch, native_parity):
    """``styles.play`` (the look-ahead's replies, the shortlist's rule choice) takes a dice-free
    style's play from the kernel: the same interned play the Python style returns; the normal
    style plays in Python and draws from the caller's generator as it always did."""
    cases = [c for c, _, _ in native_parity.decision_cases(1500, 6)]
    calls, compiled_picks = [], kernel.picks
    monkeypatch.setattr(kernel, "picks", lambda *args: calls.append(args) or compiled_picks(*args))
    dice_free = [style for name, style in OWN_STYLES.items() if name != "normal"]
    wrong = [(ctx, style.__name__) for ctx in cases for style in dice_free
             if styles.play(style, ctx, random.Random(1)) is not style(ctx, random.Random(1))]
    assert wrong == [] and len(calls) == len(cases) * len(dice_free)
    normal = STYLES["normal"]
    for k, ctx in enumerate(cases[:300]):
        mine, theirs = random.Random(k), random.Random(k)
        assert styles.play(normal, ctx, mine) == normal(ctx, theirs)
        assert mine.random() == theirs.random()
    assert len(calls) == len(cases) * len(dice_free)  # the normal style never went to the kernel


def test_the_look_ahead_ends_compiled_as_in_python(kernel, monkeypatch, native_parity):
    """The look-ahead runs in one call of the kernel: the bot's move, the others' replies (in Python if
    a style there throws dice), then at the bot's next decision its options (the rule policy's play
    first, then the shortlist's), each played out: the same replies, values and decisions as the
    Python loop, in both variants, with every style of the library at the other seats."""
    cases = list(native_parity.lookahead_cases(600, 8, [STYLES[name] for name in STYLE_NAMES]))
    # every option of the shortlist, however many the configuration allows
    cases += [(*case[:5], search.SearchConfig(lookahead=100)) for case in cases[:150]]
    calls, compiled_lookahead = [], kernel.lookahead
    monkeypatch.setattr(kernel, "lookahead", lambda *args: calls.append(args) or compiled_lookahead(*args))
    found = [search.to_next_decision(*case) for case in cases]
    # from the move on when no other seat throws dice, else from the bot's next decision
    whole = [args for args in calls if len(args) == 17]
    assert len(cases) > 300 and len(whole) > len(cases) // 2 and len(calls) - len(whole) > 30
    assert any(seen[:1] == ("over",) for seen, _, _ in found)  # (rounds that end on the way)
    assert {len(values) for _, values, _ in found} >= {1, 2, 3, 4, 5, 6, 10}
    monkeypatch.setattr(search, "_native_lookahead", lambda seats, config: None)
    assert [search.to_next_decision(*case) for case in cases] == found
    # a shortlist of other sizes, or the own style's move first: the kernel does not know them
    monkeypatch.undo()
    for other in ({"all_leads": 8}, {"small_leads": 2}, {"all_replies": 6}, {"lookahead_first": "own"}):
        assert search._native_lookahead([STYLES["greedy"]] * 2, search.SearchConfig(**other)) is None
    assert search._native_lookahead([STYLES["greedy"]] * 2, search.SearchConfig()) is not None
    view, root = cases[0][:2]
    args = (root.hands, root.landlord, root.handicap, root.to_act, root.last, root.passes, root.played, root.deck,
            root.plays_made, root.doublings, [NATIVE_SPECS[STYLES["normal"]]] * root.players, view.seat, 1, 400, 3,
            NATIVE_SPECS[search._own])
    with pytest.raises(ValueError, match="not in me's hand"):
        missing = root.hands[view.seat].index(0)  # (a rank the bot does not hold)
        kernel.lookahead(*args, combo_from_counts([int(r == missing) for r in range(15)]))
    with pytest.raises(ValueError, match="throws dice"):
        kernel.lookahead(*args, cases[0][2])

    class Liar(list):  # says it holds three hands and holds two
        def __len__(self):
            return 3

    with pytest.raises(ValueError, match="2 or 3 seats"):
        kernel.lookahead(Liar(root.hands[:2]), *args[1:], cases[0][2])
    sim = root.copy()
    sim.apply(cases[0][2])
    with pytest.raises(ValueError, match="me's own decision"):
        kernel.lookahead(sim.hands, sim.landlord, sim.handicap, sim.to_act, sim.last, sim.passes, sim.played,
                         sim.deck, sim.plays_made, sim.doublings, [NATIVE_SPECS[STYLES["greedy"]]] * sim.players,
                         view.seat, 1, 400, 3, NATIVE_SPECS[search._own])


def test_a_world_is_read_in_one_call_as_decision_by_decision(kernel, monkeypatch, native_parity):
    """The reading asks the kernel about every decision it reads in a world at once
    (``_rollout.read``): the same answers, the same draws for the normal style, so the same weight
    and style posteriors as asking decision by decision (``styles.picks``)."""
    rng = random.Random(12)
    cases = [(view, search.sample_world(view, rng), rng.getrandbits(32))
             for view in native_parity.round_views(150, 12, 0.3) if len(view.history) > 3]
    calls, compiled_read = [], kernel.read
    monkeypatch.setattr(kernel, "read", lambda *args: calls.append(args) or compiled_read(*args))
    found = [reading.read_world(view, hands, random.Random(luck)) for view, hands, luck in cases]
    assert len(calls) == len(cases) > 100
    assert len({r.weight for r in found}) > len(found) // 2  # the worlds weigh differently
    monkeypatch.setattr(reading, "twins", lambda styles: None)  # (styles.picks still asks the kernel)
    assert [reading.read_world(view, hands, random.Random(luck)) for view, hands, luck in cases] == found
    assert len(calls) == len(cases)
    view, hands, _ = cases[0]
    decisions = reading._replay_of(view, reading.RECENT).decisions
    specs = [NATIVE_SPECS[STYLES[name]] for name in STYLE_NAMES]
    wrong = [list(h) for h in hands]
    wrong[decisions[0][0]] = [min(4, c + 4) if r < 13 else c for r, c in enumerate(wrong[decisions[0][0]])]
    with pytest.raises(ValueError, match="more cards than were unplayed"):
        kernel.read(specs, wrong, view.landlord, view.handicap, decisions, [0.5] * (2 * len(decisions)))
    with pytest.raises(ValueError, match="two for each decision"):
        kernel.read(specs, hands, view.landlord, view.handicap, decisions, [0.5])

    class Liar(list):  # says it holds three hands and holds two
        def __len__(self):
            return 3

    with pytest.raises(ValueError, match="2 or 3 seats"):
        kernel.read(specs, Liar(hands[:2]), view.landlord, view.handicap, decisions, [0.5] * (2 * len(decisions)))


@pytest.mark.parametrize("seed", [1, 2])
def test_look_aheads_and_readings_agree_with_python_to_the_end(seed, kernel, native_parity):
    """Played wholly in Python (the replies, the options, their rollouts; every style asked in Python
    at each decision read), the look-ahead and the reading give the kernel's answers."""
    ahead = list(native_parity.lookahead_cases(120, seed))
    assert [native_parity.lookahead_disagreement(*case) for case in ahead] == [None] * len(ahead)
    assert {len(values) for _, values, _ in (native_parity.lookahead_python(*case) for case in ahead)} >= {1, 6}
    readings = list(native_parity.reading_cases(120, seed))
    assert [native_parity.reading_disagreement(*case) for case in readings] == [None] * len(readings)
    assert sum(len(native_parity.reading_compiled(*case)) for case in readings) > 400


def test_bad_input_is_refused_with_a_clear_error(kernel):
    hand, unseen = (1,) + (0,) * 14, (0, 4) + (0,) * 13
    spec = native_spec("intermediate")
    assert kernel.picks([spec], hand, 0, 0, [1, 17, 17], None, unseen, 0, 0.5, 0.5) == [1]  # the lone 3
    with pytest.raises(ValueError, match="no policy"):
        kernel.picks([(9,) + spec[1:]], hand, 0, 0, [1, 17, 17], None, unseen, 0, 0.5, 0.5)
    with pytest.raises(ValueError, match="rank count"):
        kernel.picks([spec], (5,) + (0,) * 14, 0, 0, [1, 17, 17], None, unseen, 0, 0.5, 0.5)
    with pytest.raises(ValueError, match="the seat must be 0 to 2"):
        kernel.picks([spec], hand, 3, 0, [1, 17, 17], None, unseen, 0, 0.5, 0.5)
    with pytest.raises(TypeError, match="last"):
        kernel.picks([spec], hand, 0, 0, [1, 17, 17], "3", unseen, 0, 0.5, 0.5)
    with pytest.raises(ValueError, match="a style for each seat"):
        kernel.rollout([hand, hand], 0, 0, 0, None, 0, (0,) * 15, (4,) * 13 + (1, 1), [0, 0], 0, [spec], 0, 1, 400)
    with pytest.raises(ValueError, match="draws"):
        kernel.picks([native_spec("normal")], hand, 0, 0, [1, 17, 17], None, unseen, 0, 0.0, -1e6)
    with pytest.raises(ValueError, match="draws"):
        kernel.picks([native_spec("normal")], hand, 0, 0, [1, 17, 17], None, unseen, 0, float("nan"), 0.5)
    with pytest.raises(ValueError, match="cannot lead"):
        kernel.picks([native_spec("greedy")], (0,) * 15, 0, 0, [0, 17, 17], None, unseen, 0, 0.5, 0.5)
    with pytest.raises(ValueError, match="rank 13"):
        kernel.picks([spec], (0,) * 13 + (2, 0), 0, 0, [2, 17, 17], None, unseen, 0, 0.5, 0.5)
    with pytest.raises(ValueError, match="seat"):
        kernel.picks([spec], hand, 2 ** 32, 0, [1, 17, 17], None, unseen, 0, 0.5, 0.5)
    deck, empty = (4,) * 13 + (1, 1), (0,) * 15
    with pytest.raises(ValueError, match="already won"):
        kernel.rollout([hand, empty], 0, 0, 0, None, 0, empty, deck, [0, 0], 0, [spec, spec], 0, 1, 400)
    with pytest.raises(ValueError, match="deck"):
        kernel.rollout([(4,) + (0,) * 14, (4,) + (0,) * 14], 0, 0, 0, None, 0, empty, deck, [0, 0], 0, [spec, spec],
                       0, 1, 400)
    # a trick to beat: a single 4 answers the lone 3
    assert kernel.picks([spec], (0, 1) + (0,) * 13, 0, 1, [1, 17, 17], (1, classify("3")), unseen, 0, 0.5,
                        0.5) == [classify("4").key]


def test_a_replaced_style_is_read_in_python(kernel, monkeypatch, native_parity):
    """The kernel is asked only about the library's own styles: with one replaced (a benchmark's
    variation, say), the whole question goes to Python, so the compiled answer can never stand
    in for it."""
    ctx, _, _ = next(native_parity.decision_cases(50, 6))
    asked = []

    def mine(ctx, rng):
        asked.append(ctx.seat)
        return None

    monkeypatch.setitem(STYLES, "greedy", mine)
    monkeypatch.setattr(kernel, "picks", None)  # asking the kernel would fail
    intermediate = STYLES["intermediate"](ctx, random.Random(1))
    assert styles.picks([STYLES["intermediate"], STYLES["greedy"]], ctx, random.Random(1)) == [
        None if intermediate is None else intermediate.key, None]
    assert asked == [ctx.seat]
    # ... and the reading asks the style the library holds when it reads, not one kept from before
    round_ = Round.deal("duel", seed="replaced")
    bots = [create("intermediate", "duel", seed=s) for s in range(round_.players)]
    while len(round_.observation(0)["history"]) < 6:
        round_.apply(round_.to_act, bots[round_.to_act].decide(round_.observation(round_.to_act)))
    view, rng = View.of(round_.observation(round_.to_act)), random.Random(0)
    asked.clear()
    reading.read_world(view, search.sample_world(view, rng), rng)
    assert asked and set(asked) == {1 - view.seat}


def test_a_style_with_a_fraction_has_no_compiled_twin():
    from dizhu.bots.policy import Style

    with pytest.raises(TypeError, match="whole-number"):
        native_spec("intermediate", Style(delta1_danger=2.5))


def test_the_compiled_styles_count_the_opponents_cards_too(kernel, native_parity):
    # a pair to an opponent holding one card is a control: the bomb that runs the hand out is played
    from helpers.positions import bomb_to_win_ctx

    ctx = bomb_to_win_ctx()
    assert native_parity.decision_disagreement(ctx, 0.5, 0.5) is None
    assert native_parity.picks_compiled(ctx, 0.5, 0.5)[STYLE_NAMES.index("intermediate")] == classify("7777").key
    # and a partner's play the landlord, on two cards, cannot answer stands
    from helpers.positions import partner_stands_ctx

    ctx = partner_stands_ctx()
    assert native_parity.decision_disagreement(ctx, 0.5, 0.5) is None
    assert native_parity.picks_compiled(ctx, 0.5, 0.5)[STYLE_NAMES.index("intermediate")] is None


def test_a_refused_network_leaves_the_one_set(kernel, native_parity):
    from dizhu.bots.distilled import net

    weights = net(2)
    good = weights.kernel_args(2)
    w1 = good[3]
    case = next(c for c in native_parity.decision_cases(400, 3)
                if c[0].players == 2 and native_parity.picks_python(*c)[native_parity.NAMES.index("distilled")] !=
                native_parity.picks_python(*c)[native_parity.NAMES.index("intermediate")])
    before = native_parity.picks_compiled(*case)
    refused = [(*good[:5], weights.w2[:-1], good[6]), (*good[:2], [0.0] * len(weights.scale), *good[3:]),
               (*good[:3], w1 + [0.0], *good[4:]), (*good[:4], list(weights.b1) * 3, *good[5:]),
               (*good[:6], "a"), (4, *good[1:]), good[1:],
               (*good[:2], good[2][:-1], *good[3:]),  # a scale for each feature but one
               (good[0], [*good[1], 0.0], [*good[2], 1.0], w1 + [0.0] * len(weights.b1), *good[4:])]  # 148 inputs
    for args in refused:
        with pytest.raises((ValueError, TypeError)):
            kernel.set_net(*args)
        assert native_parity.picks_compiled(*case) == before  # the network it had still plays
    kernel.set_net(*good)


def test_each_table_has_its_own_network(kernel, native_parity):
    # the duel's network set for three players would play classic's decisions otherwise
    from dizhu.bots.distilled import net

    distilled = native_parity.NAMES.index("distilled")
    cases = [c for c in native_parity.decision_cases(600, 5) if c[0].players == 3]
    assert all(native_parity.decision_disagreement(*c) is None for c in cases)
    try:
        kernel.set_net(*net(2).kernel_args(3))
        moved = [c for c in cases if native_parity.picks_compiled(*c)[distilled] != native_parity.picks_python(*c)[distilled]]
    finally:
        kernel.set_net(*net(3).kernel_args(3))
    assert moved, "classic's decisions played the same with the duel's network"


def test_a_network_of_any_width_scores_compiled_as_in_python(kernel, native_parity, monkeypatch):
    # the shipped networks' widths (32 and 64 units) have paths of their own in the kernel; another takes the other
    from dizhu.bots import distilled

    shipped, rng = distilled.net(3), random.Random(9)
    narrow = distilled.Net(shipped.mean, shipped.scale, tuple(tuple(rng.gauss(0, 0.3) for _ in range(20))
                                                            for _ in shipped.w1),
                           tuple(rng.gauss(0, 0.1) for _ in range(20)), tuple(rng.gauss(0, 1) for _ in range(20)))
    which = native_parity.NAMES.index("distilled")
    cases = [c for c in native_parity.decision_cases(600, 7) if c[0].players == 3]
    before = [native_parity.picks_python(*c)[which] for c in cases]
    monkeypatch.setattr(distilled, "net", lambda players: narrow if players == 3 else shipped)
    try:
        kernel.set_net(*narrow.kernel_args(3))
        found = [native_parity.picks_compiled(*c)[which] for c in cases]
        assert found == [native_parity.picks_python(*c)[which] for c in cases]
    finally:
        kernel.set_net(*shipped.kernel_args(3))
    assert found != before  # (the narrow network plays otherwise)


@pytest.mark.parametrize("width", [64, 20])
def test_the_compiled_scores_agree_with_python_to_the_last_bit(kernel, native_parity, monkeypatch, width):
    # The policy leaves its own move for the best scored one only if the gap passes the margin: with
    # the margin one float below the gap Python computes, and then at the gap, the compiled kernel
    # must switch exactly there.  Any difference in how the two sum (order, the folded weights, the
    # decision's common features summed once) would move a gap by a bit and miss a switch.
    import math

    from dizhu.bots import distilled
    from dizhu.bots.shortlist import shortlist

    shipped, rng = distilled.net(2), random.Random(width)
    weights = shipped if width == 64 else distilled.Net(
        shipped.mean, shipped.scale, tuple(tuple(rng.gauss(0, 0.3) for _ in range(width)) for _ in shipped.w1),
        tuple(rng.gauss(0, 0.1) for _ in range(width)), tuple(rng.gauss(0, 1) for _ in range(width)))
    which = native_parity.NAMES.index("distilled")
    switched = 0
    try:
        for ctx, u1, u2 in native_parity.decision_cases(500, 21):
            if ctx.players != 2:
                continue
            moves, choice = shortlist(ctx)
            scores = [weights.score(x) for x in distilled.features(ctx, moves, choice)]
            policy = distilled.policy_index(moves, choice)
            best = max(range(len(moves)), key=lambda i: (scores[i], -i))
            if best == policy or scores.count(scores[best]) > 1:
                continue
            gap = scores[best] - scores[policy]
            while scores[policy] + gap < scores[best]:  # the largest margin the best still passes
                gap = math.nextafter(gap, math.inf)
            while scores[policy] + gap >= scores[best]:
                gap = math.nextafter(gap, -math.inf)
            for margin, move in ((gap, moves[best]), (math.nextafter(gap, math.inf), choice)):
                kernel.set_net(*weights.kernel_args(2)[:-1], margin)
                assert native_parity.picks_compiled(ctx, u1, u2)[which] == (None if move is None else move.key)
            switched += 1
    finally:
        kernel.set_net(*shipped.kernel_args(2))
    assert switched > 20


def test_the_compiled_features_sit_where_names_puts_them():
    # _rollout.c places the features by its F_* numbers: a feature moved in NAMES alone, with a
    # small weight, could change no move the parity tests meet
    from dizhu.bots.distilled import DECISION, NAMES

    places = {"policy": 0, "pass": 1, "pass_partner": 2, "play_partner": 3,  # F_POLICY .. F_PLAY_PARTNER
              "lead_single": 4, "reply_single": 4 + 35,  # F_PHASE, F_PHASE_SIZE
              "lead_delta": 4 + 5, "lead_after_controls": 4 + 13,  # F_DELTA .. F_AFTER_CONTROLS
              "lead_d1_single": 4 + 14, "reply_d2_bomb": 39 + 14 + 6 + 2, "lead_d34_delta": 4 + 14 + 12 + 5,  # F_BAND
              "reply_me12_bomb": 39 + 32 + 2,  # F_ME12
              "reply_d1_pass": 74, "reply_owner_near_pass": 77, "reply_landlord_pass": 78,  # F_REPLY_BAND_PASS ..
              "landlord_bomb": 79, "duel_bomb": 80,
              "after_0": 81, "move_0": 96, "unseen_0": 111, "trick_14": 140,  # F_AFTER .. F_TRICK
              "held_0": 141, "landlord_2": 146}  # F_HELD, F_IS_LANDLORD
    assert {name: NAMES.index(name) for name in places} == places and len(NAMES) == 81 + 66  # N_FEATURES
    assert DECISION == places["unseen_0"]  # F_DECISION
