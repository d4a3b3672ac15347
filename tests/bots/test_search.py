"""Super-hard's search: evaluate() and its objective, the cap of worlds, its own later moves, the
look-ahead, racing, the wall-clock cap, the opponent model's switches and what ships."""

import random

import pytest
from helpers.positions import blunder_position
from test_round_examples import play

from dizhu import Round
from dizhu.bots import create
from dizhu.combos import classify


def test_a_search_out_of_time_plays_the_rule_policys_move(monkeypatch):
    """The server's wall-clock cap: with no time left, super-hard answers at once with the
    intermediate level's move instead of searching (a pace must never be overrun)."""
    from dizhu.bots import search

    def no_world(*_):
        raise AssertionError("a world was sampled after the deadline")

    monkeypatch.setattr(search, "sample_world", no_world)  # (counted, not timed: CI machines are noisy)
    checked = 0
    for n in range(30):
        round_ = Round.deal("classic", seed=f"cap{n}")
        round_.apply(round_.to_act, "bid 3")  # the bidder becomes the landlord and leads
        obs = round_.observation(round_.to_act)
        if len(obs["legal_actions"]) < 5:
            continue
        capped = create("super-hard", "classic", seed=1, time_limit=0.0).decide(obs)
        assert capped == create("intermediate", "classic", seed=1).decide(obs)
        checked += 1
    assert checked >= 5


def test_evaluate_scores_the_given_moves_in_order():
    from dizhu.bots.search import Estimate, evaluate, ranked, search_move
    from dizhu.bots.view import View

    obs = blunder_position()
    view = View.of(obs)
    moves = [classify("R"), None, classify("J")]
    est = evaluate(view, random.Random(3), moves, budget=0.05)
    assert [e.move for e in est] == moves
    assert all(isinstance(e, Estimate) and e.worlds >= 4 and 0 <= e.win_chance <= 1 for e in est)
    assert all(-64 <= e.points <= 64 for e in est)
    assert est[0].worlds == est[1].worlds == est[2].worlds  # the same worlds for every move
    # search_move picks the move its shortlist's search scores best
    best = ranked(view, random.Random(3), budget=0.05)[0][0].move
    assert search_move(view, random.Random(3), budget=0.05).action == ("pass" if best is None else f"play {best.text}")
    # and with worlds enough (R and J are close: a few dozen worlds can go either way) not the blunder
    for seed in (3, 4):
        assert search_move(view, random.Random(seed), budget=1.0).action != "play R"


def test_the_search_objective_blends_the_win_and_the_points():
    from dizhu.bots.search import SearchConfig, evaluate, ranked
    from dizhu.bots.view import View

    view = View.of(blunder_position())
    moves = [classify("R"), None, classify("J")]
    points = evaluate(view, random.Random(3), moves, budget=0.05, config=SearchConfig(lookahead=0))
    assert all(e.score == e.points for e in points)  # the default: points alone
    wins = evaluate(view, random.Random(3), moves, budget=0.05, config=SearchConfig(win_weight=1.0, lookahead=0))
    # the same worlds and rollouts; the score is then the chance to win, from -1 to +1
    assert [(e.points, e.win_chance) for e in wins] == [(e.points, e.win_chance) for e in points]
    assert all(e.score == pytest.approx(2 * e.win_chance - 1) for e in wins)
    # the search ranks by the score, not the points
    ranked_wins, _ = ranked(view, random.Random(3), budget=0.05, config=SearchConfig(win_weight=1.0, lookahead=0))
    in_race = [e for e in ranked_wins if e.worlds == ranked_wins[0].worlds]
    assert [e.score for e in in_race] == sorted((e.score for e in in_race), reverse=True)
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError):
            SearchConfig(win_weight=bad)


def test_the_search_stops_at_its_cap_of_worlds():
    from dizhu.bots.search import MIN_WORLDS, SearchConfig, evaluate
    from dizhu.bots.view import View

    view = View.of(blunder_position())
    moves = [classify("R"), None, classify("J")]
    capped = evaluate(view, random.Random(3), moves, budget=1.0, config=SearchConfig(max_worlds=7))
    assert [e.worlds for e in capped] == [7, 7, 7]  # the budget would buy far more
    wider = evaluate(view, random.Random(3), moves, budget=1.0, config=SearchConfig(max_worlds=30))
    assert [e.worlds for e in wider] == [30, 30, 30]
    with pytest.raises(ValueError):
        SearchConfig(max_worlds=MIN_WORLDS - 1)


def test_the_search_plays_its_own_later_moves_by_the_style_it_is_given():
    from dizhu.bots.search import SearchConfig, evaluate
    from dizhu.bots.view import View

    view = View.of(blunder_position())
    moves = [classify("R"), None, classify("J")]
    default = evaluate(view, random.Random(3), moves, budget=0.05)
    assert default == evaluate(view, random.Random(3), moves, budget=0.05, config=SearchConfig(own="intermediate"))
    greedy = evaluate(view, random.Random(3), moves, budget=0.05, config=SearchConfig(own="greedy"))
    assert [e.points for e in greedy] != [e.points for e in default]  # the same worlds, played otherwise
    with pytest.raises(ValueError, match="own"):
        SearchConfig(own="oracle")
    with pytest.raises(ValueError, match="own"):
        SearchConfig(own={"classic": "greedy"})  # every variant is named
    with pytest.raises(ValueError, match="prior over known styles"):
        SearchConfig(own="distilled", prior={"distilled": 1.0})  # never an opponent's style


def test_in_duel_the_search_plays_its_own_later_moves_by_the_distilled_policy():
    from dizhu.bots.search import ADVICE, SUPER_HARD, SearchConfig, evaluate
    from dizhu.bots.styles import compiled
    from dizhu.bots.view import View

    assert SUPER_HARD.own == {"classic": "intermediate", "duel": "distilled"}
    assert set(ADVICE.own.values()) == {"intermediate"}  # the hint and the review must answer sooner
    r = Round.deal("duel", seed="own-distilled")
    while r.phase == "bidding":
        r.apply(r.to_act, "call" if "call" in r.legal_actions() else "pass")
    view = View.of(r.observation(r.to_act))
    distilled = evaluate(view, random.Random(3), budget=0.1)
    plain = evaluate(view, random.Random(3), budget=0.1, config=SearchConfig(own="intermediate"))
    if compiled() is None:  # in Python it would cost many times a world: intermediate plays instead
        assert distilled == plain
    else:  # its steps are charged more (STEP_COST): the same budget buys fewer worlds
        assert distilled[0].worlds < plain[0].worlds


def test_the_look_ahead_groups_the_worlds_by_what_the_bot_sees():
    from dizhu.bots.search import STYLES, SearchConfig, Sim, _rollout, evaluate, sample_world, to_next_decision
    from dizhu.bots.view import View

    view = View.of(blunder_position())
    moves = [classify("R"), None, classify("J")]
    plain = evaluate(view, random.Random(3), moves, budget=0.05, config=SearchConfig(lookahead=0))
    # super-hard looks 4 moves ahead in duel only: this classic position is searched plainly
    assert SearchConfig().lookahead == 4 and SearchConfig().lookahead_in == ("duel",)
    assert evaluate(view, random.Random(3), moves, budget=0.05) == plain
    config = SearchConfig(lookahead_in=("classic", "duel"))
    ahead = evaluate(view, random.Random(3), moves, budget=0.05, config=config)
    assert ahead == evaluate(view, random.Random(3), moves, budget=0.05, config=config)
    # each world costs several play-outs now: the same budget buys fewer worlds
    assert ahead[0].worlds < plain[0].worlds
    # ranked by the chance to win, a group's move is the one that wins more there, and the score
    # is the chance to win of the moves so chosen
    wins = evaluate(view, random.Random(3), moves, budget=0.05, config=SearchConfig(win_weight=1.0, lookahead_in=("classic",)))
    assert all(e.score == pytest.approx(2 * e.win_chance - 1) for e in wins)
    with pytest.raises(ValueError, match="lookahead_in"):
        SearchConfig(lookahead_in=("poker",))
    # in duel super-hard looks ahead: each world costs several play-outs, the budget buys fewer
    round_ = Round.deal("duel", seed="look")
    play(round_, ["1: call", "0: pass"])
    duel = View.of(round_.observation(round_.to_act))
    assert duel.variant.name == "duel" and duel.last is None
    looked = evaluate(duel, random.Random(3), budget=0.05)
    flat = evaluate(duel, random.Random(3), budget=0.05, config=SearchConfig(lookahead=0))
    assert [e.move for e in looked] == [e.move for e in flat]
    assert looked[0].worlds < flat[0].worlds
    for wrong in ({"lookahead": -1}, {"lookahead_z": -1.0}, {"lookahead_z": float("nan")}):
        with pytest.raises(ValueError, match="lookahead"):
            SearchConfig(**wrong)
    # What a world is grouped by is what the bot saw: the others' replies, never their cards. Two
    # worlds whose replies to the bot's J are the same fall in one group.
    config, seats = SearchConfig(lookahead=3, lookahead_in=("classic",)), [STYLES["intermediate"]] * 3
    rng = random.Random(5)
    seen: dict[tuple, list] = {}
    for _ in range(40):
        hands = sample_world(view, rng)
        root = Sim(view, hands)
        key, values, _ = to_next_decision(view, root, classify("J"), seats, 7, config)
        assert all(k is None or isinstance(k, int) for k in key), key
        seen.setdefault(key, []).append(hands)
        assert 1 <= len(values) <= 3
        if len(values) > 1:
            # its first option is the rule policy's next move: played out, it is the plain rollout
            sim = root.copy()
            sim.apply(classify("J"))
            assert values[0] == _rollout(sim, view.seat, seats, 7)[0]
    assert any(len({str(h) for h in worlds}) > 1 for worlds in seen.values())  # unlike worlds, one group


def test_the_look_ahead_may_start_from_the_own_style():
    from dizhu.bots.search import STYLES, SearchConfig, Sim, _candidates, _rollout, sample_world, to_next_decision
    from dizhu.bots.styles import picks
    from dizhu.bots.view import View

    view = View.of(blunder_position())
    me, rng = view.seat, random.Random(4)
    # a group's default move is the rule policy's, or with lookahead_first="own" the own style's:
    # here greedy's, which often differs from the rule policy's
    seats = [STYLES["greedy"] if s == me else STYLES["intermediate"] for s in range(3)]
    own, rule = SearchConfig(lookahead_first="own", lookahead=3), SearchConfig(lookahead=3)
    differed = 0
    for _ in range(20):
        root = Sim(view, sample_world(view, rng))
        key, values, _ = to_next_decision(view, root, classify("J"), seats, 9, own)
        if len(values) == 1:
            continue  # (the round ended before the bot's next decision)
        sim = root.copy()
        sim.apply(classify("J"))
        while sim.to_act != me:  # the others' replies, as the look-ahead plays them
            sim.apply(seats[sim.to_act](sim.ctx(), random.Random(9)))
        key, = picks([seats[me]], sim.ctx(), random.Random(9))
        sim.apply(next(m for m in _candidates(sim.ctx())[0] if (None if m is None else m.key) == key))
        assert values[0] == _rollout(sim, me, seats, 9)[0]
        differed += values != to_next_decision(view, root, classify("J"), seats, 9, rule)[1]
    assert differed  # (the two defaults are not the same move here)
    with pytest.raises(ValueError, match="lookahead_first"):
        SearchConfig(lookahead_first="policy")


def test_racing_drops_the_clearly_worse_moves_and_gives_the_rest_more_worlds(monkeypatch):
    import dataclasses

    from dizhu.bots import search
    from dizhu.bots.view import View

    view = View.of(blunder_position())
    moves = [classify("R"), None, classify("J"), classify("8")]

    def play_out(view, root, move, exact, solver, seats, luck):
        # the big joker and the 8 always lose; pass and J win or lose by the world's luck
        if move is not None and move.text in ("R", "8"):
            return -2.0, 100
        return (1.0 if (luck + (move is not None)) % 3 else -1.0), 100

    monkeypatch.setattr(search, "play_out", play_out)
    plain = dataclasses.replace(search.SUPER_HARD, lookahead=0)  # (the look-ahead's worlds are not raced)
    raced = search.evaluate(view, random.Random(3), moves, budget=0.3, race=True, config=plain)
    flat = search.evaluate(view, random.Random(3), moves, budget=0.3, config=plain)
    assert [e.move for e in raced] == moves
    assert raced[0].worlds == raced[3].worlds == search.RACE_FROM  # out at the first look
    assert min(raced[1].worlds, raced[2].worlds) > flat[0].worlds  # their rollouts bought more worlds for the rest
    assert len({e.worlds for e in flat}) == 1  # without racing every move sees every world
    assert raced[0].points == flat[0].points == -2.0
    # the moves that stayed in the race come first, however well a dropped one's few worlds went:
    # J scores 0 and trails pass and 8, which score 1 in the first worlds and -0.5 after
    calls = {}

    def fading(view, root, move, *rest):
        text = "pass" if move is None else move.text
        calls[text] = calls.get(text, 0) + 1
        if text in ("J", "R"):
            return (0.0 if text == "J" else -2.0), 100
        return (1.0 if calls[text] <= search.RACE_FROM else -0.5), 100

    monkeypatch.setattr(search, "play_out", fading)
    monkeypatch.setattr(search, "_candidates", lambda ctx, config=None: (moves, None))
    estimates, _ = search.ranked(view, random.Random(3), budget=0.3, config=plain)
    assert [e.move.text if e.move else "pass" for e in estimates] == ["pass", "8", "J", "R"]
    assert estimates[0].points < estimates[2].points == 0.0  # J's few worlds look better than the end
    plain, _ = search.ranked(view, random.Random(3), budget=0.05,
                             config=dataclasses.replace(plain, race=False))
    assert len({e.worlds for e in plain}) == 1 and plain[0].move.text == "J"  # flat: J's 0 beats the rest


# ---- issue 11: how super-hard models the other seats (the ablation switches)


def _endgame(low, high):
    """A classic position, played by intermediate bots, with low..high cards in all hands and a choice."""
    from dizhu.bots.view import View

    for n in range(50):
        r = Round.deal("classic", seed=f"endgame-{n}")
        bots = [create("intermediate", seed=s) for s in range(3)]
        while r.result is None:
            obs = r.observation(r.to_act)
            if r.phase == "playing" and low <= sum(obs["cards_left"]) <= high and len(obs["legal_actions"]) > 2:
                return View.of(obs)
            r.apply(r.to_act, bots[r.to_act].decide(obs))
    raise AssertionError("no such position")


def test_the_opponent_model_switches_change_the_search():
    """Each switch of SearchConfig changes what the search sees: the reading off weighs every
    world alike, a one-style prior reads every seat as that style; with both off the seats
    play as intermediate in every world (as the frozen copy rolls them out)."""
    from dizhu.bots.reading import Reading, read_world
    from dizhu.bots.search import SearchConfig, evaluate, sample_world
    from dizhu.bots.styles import STYLE_NAMES
    from dizhu.bots.view import View

    view = View.of(blunder_position())
    only = SearchConfig(prior={"intermediate": 1.0})
    rng = random.Random(4)
    for _ in range(20):
        hands = sample_world(view, rng)
        assert all(p[STYLE_NAMES.index("intermediate")] == 1.0
                   for p in read_world(view, hands, rng, only.prior).styles.values())
        plain = SearchConfig(prior={"intermediate": 1.0}, read=False).reading(view, hands, rng)
        assert plain == Reading(1.0, plain.styles, 0) and set(plain.styles) == {1, 2}
    weights = {SearchConfig().reading(view, sample_world(view, rng), rng).weight for _ in range(20)}
    assert len(weights) > 1  # the reading on: worlds weigh differently
    moves = [classify("R"), None, classify("J")]
    # an even mixture: with the shipped one, which leans on intermediate, this small search may
    # draw intermediate at every seat of every world and see what the one-style prior sees
    mixed = {"intermediate": 0.4, "normal": 0.15, "greedy": 0.15, "cautious": 0.15, "bombs": 0.15}
    by_config = [tuple(e.points for e in evaluate(view, random.Random(3), moves, budget=0.03, config=c))
                 for c in (SearchConfig(prior=mixed), only, SearchConfig(prior=mixed, read=False),
                           SearchConfig(prior={"intermediate": 1.0}, read=False))]
    assert len(set(by_config)) == 4
    # the endgame's reach: solved exactly, the search stops at 40 worlds
    end = _endgame(10, 12)
    plain = {"prior": {"intermediate": 1.0}, "read": False}
    far = evaluate(end, random.Random(3), None, budget=0.5, config=SearchConfig(**plain, exact_cards=12))
    near = evaluate(end, random.Random(3), None, budget=0.5, config=SearchConfig(**plain))
    assert far[0].worlds == 40 < near[0].worlds
    with pytest.raises(ValueError):
        SearchConfig(prior={"nobody": 1.0})


#: What super-hard ships with, as measured best (benchmarks/results/README.md, issue 11 ablation).
SHIPPED_PRIOR = {"intermediate": 0.4, "normal": 0.15, "greedy": 0.15, "cautious": 0.15, "bombs": 0.15}
SHIPPED_READ = True


def test_super_hard_and_the_hint_search_with_the_shipped_model():
    from dizhu.bots import players
    from dizhu.bots.search import SUPER_HARD, SearchConfig, evaluate, ranked, search_move

    assert create("super-hard").config is SUPER_HARD
    for fn in (evaluate, ranked, search_move):
        assert fn.__kwdefaults__["config"] is SUPER_HARD
    assert players.decide_play.__defaults__[-1] is SUPER_HARD
    assert SUPER_HARD == SearchConfig(prior=SHIPPED_PRIOR, read=SHIPPED_READ)
