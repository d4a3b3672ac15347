"""Matches: totals, the 30-point end, co-winners, abandon, reset."""

import json

import pytest

from dizhu import IllegalAction, Match, Round
from dizhu.cards import parse_cards, rank_counts
from dizhu.game import RandomPlayer

from test_round_examples import ANTI_SPRING_DEAL, BOMB_DEAL, play


def scripted_round(match, deal, script):
    match.round = Round.from_deal(match.variant, **deal)
    for line in script:
        seat, _, action = line.partition(":")
        match.apply(int(seat), action.strip())


LANDLORD_WINS_8 = [
    "0: bid 2", "1: pass", "2: pass",
    "0: play 45678", "1: play 6789T", "2: pass",
    "0: play 3333", "1: pass", "2: pass",
    "0: play 9TJQK", "1: pass", "2: pass",
    "0: play AA", "1: pass", "2: pass",
    "0: play 222B",
]
FARMERS_WIN_2_EACH = [
    "0: bid 1", "1: pass", "2: pass",
    "0: play 34567", "1: play 45678", "2: pass", "0: pass",
    "1: play 999TTTJJJ+QKA",
]


def test_totals_accumulate_and_another_round_keeps_them():
    m = Match("classic", seed="t")
    scripted_round(m, BOMB_DEAL, LANDLORD_WINS_8)
    assert m.totals == [8, -4, -4] and not m.over
    m.another_round()
    assert m.totals == [8, -4, -4] and m.round.phase == "bidding"
    scripted_round(m, ANTI_SPRING_DEAL, FARMERS_WIN_2_EACH)
    assert m.totals == [4, -2, -2]
    assert [f["result"]["points"] for f in m.finished] == [[8, -4, -4], [-4, 2, 2]]


def test_thirty_points_ends_the_match_even_past_30():
    m = Match("classic", seed="t")
    m.totals = [24, -12, -12]
    scripted_round(m, BOMB_DEAL, LANDLORD_WINS_8)
    assert m.totals == [32, -16, -16]
    assert m.over and m.winners == [0]
    with pytest.raises(IllegalAction) as info:
        m.another_round()
    assert info.value.reason == "match_over"


def test_two_farmers_reaching_30_together_win_together():
    m = Match("classic", seed="t")
    m.totals = [0, 28, 29]
    scripted_round(m, ANTI_SPRING_DEAL, FARMERS_WIN_2_EACH)
    assert m.totals == [-4, 30, 31]
    assert m.winners == [1, 2]


def test_new_game_abandons_and_scores_nothing():
    m = Match("classic", seed="t")
    m.totals = [5, -3, -2]
    m.round = Round.from_deal("classic", **BOMB_DEAL)
    play(m.round, ["0: bid 2", "1: pass", "2: pass", "0: play 3333"])
    m.new_game()
    assert m.totals == [5, -3, -2] and m.abandoned == 1
    assert m.round.phase == "bidding" and m.finished == []


def test_another_round_needs_a_finished_round():
    m = Match("classic", seed="t")
    with pytest.raises(IllegalAction) as info:
        m.another_round()
    assert info.value.reason == "round_in_progress"


def test_new_match_resets():
    m = Match("classic", seed="t")
    m.totals = [24, -12, -12]
    scripted_round(m, BOMB_DEAL, LANDLORD_WINS_8)
    assert m.over
    m.new_match()
    assert m.totals == [0, 0, 0] and not m.over
    assert len(m.finished) == 1  # the outbox keeps the round not yet taken (see below)


def test_duel_running_totals_without_target():
    m = Match("duel", seed="d")
    assert m.target is None
    total = [0, 0]
    for _ in range(30):
        players = [RandomPlayer(1), RandomPlayer(2)]
        while m.round.result is None:
            seat = m.round.to_act
            m.apply(seat, players[seat].decide(m.round.observation(seat)))
        total = [a + b for a, b in zip(total, m.round.result.points)]
        assert m.totals == total and not m.over
        m.another_round()


def test_match_json_round_trip_mid_round():
    m = Match("classic", seed="j")
    scripted_round(m, BOMB_DEAL, LANDLORD_WINS_8)
    m.another_round()
    seat = m.round.to_act
    m.apply(seat, "pass")
    again = Match.from_json(m.to_json())
    assert again.totals == m.totals and again.finished == m.finished
    assert again.round.to_json() == m.round.to_json()
    assert again.round_number == m.round_number


def test_match_round_counts_the_rounds_of_this_match_only():
    m = Match("classic", seed="rounds")
    m.new_game()  # abandoned: scores nothing, and is not a round of the match
    assert (m.match_round, m.round_number) == (1, 2)
    m.new_match()
    assert (m.match_round, m.round_number) == (1, 3)
    again = Match.from_json(m.to_json())
    assert (again.match_round, again.round_number) == (1, 3)
    # A match saved before match_start was kept reads as one that began with the game.
    data = json.loads(m.to_json())
    del data["match_start"]
    assert Match.from_json(json.dumps(data)).match_round == 3


def _finish(m: Match, seed: int = 1) -> None:
    players = [RandomPlayer(seed + s) for s in range(m.variant.players)]
    while m.round.result is None:
        seat = m.round.to_act
        m.apply(seat, players[seat].decide(m.observation(seat)))


def test_the_table_recalls_its_finished_rounds_as_everyone_saw_them():
    from dizhu.game.events import SettleEvent
    from dizhu.game.observation import EARLIER_KEPT, Observation

    m = Match("classic", seed="recall")
    assert m.observation(0)["earlier"] == []
    _finish(m)
    r = m.round
    settle = next(e for e in r.log if isinstance(e, SettleEvent))
    m.another_round()
    (record,) = m.observation(2)["earlier"]
    # each hand when the play began: the dealt one, the landlord's with the bottom
    for seat, dealt in enumerate(settle.initial_hands):
        expected = list(parse_cards(dealt).counts)
        if seat == r.landlord:
            expected = [n + b for n, b in zip(expected, rank_counts(r.bottom))]
        assert list(parse_cards(record["hands"][seat]).counts) == expected
    assert parse_cards(record["bottom"]).counts == rank_counts(r.bottom)
    obs = r.observation(0)
    assert record["bids"] == obs["bids"] and record["history"] == obs["history"]
    assert record["landlord"] == r.landlord and record["points"] == list(r.result.points)
    # the record is public only once the round is over; the live round has none of its own
    assert m.round.observation(0)["earlier"] == []
    with pytest.raises(IllegalAction):
        m.round.record()
    # typed, and kept across a save, a new game and a new match (the same players)
    assert Observation.from_dict(m.observation(1)).earlier[0].landlord == r.landlord
    again = Match.from_json(m.to_json())
    assert again.observation(1)["earlier"] == m.observation(1)["earlier"]
    m.new_game()
    m.new_match()
    assert len(m.observation(0)["earlier"]) == 1
    # only the latest EARLIER_KEPT, oldest first
    for n in range(EARLIER_KEPT + 2):
        _finish(m, n)
        m.another_round()
    assert len(m.observation(0)["earlier"]) == EARLIER_KEPT
    assert m.observation(0)["earlier"][-1]["history"] == m.earlier[-1]["history"]


def test_an_arena_series_plays_its_deals_at_one_table(monkeypatch):
    """In a series each side's seats keep their players, who recall the series' earlier games."""
    from dizhu import arena

    seen: dict[tuple, set] = {}
    original = arena.make_player

    class Spy:
        def __init__(self, name, variant, seed, budget=None):
            self.bot, self.key = original(name, variant, seed, budget), seed

        def decide(self, obs):
            seen.setdefault(self.key, set()).add(len(obs["earlier"]))
            return self.bot.decide(obs)

    monkeypatch.setattr(arena, "make_player", Spy)
    result = arena.run_arena("normal", "random", "duel", deals=5, series=2, workers=1)
    assert result.deals == 4 and sorted({g["deal"] for g in result.records}) == [0, 1, 2, 3]
    # seed = (arena seed, deal, seat, side): the first deal of a series recalls nothing, the second one game
    assert {key[1]: n for key, n in seen.items() if key[2] == 0 and key[3]} == {0: {0}, 1: {1}, 2: {0}, 3: {1}}
    assert "in series of 2" in arena.format_summary(result.summary())
    with pytest.raises(ValueError):
        arena.run_arena("normal", "random", deals=2, series=0, workers=1)


def test_arena_runs_with_different_seeds_pool_into_one_summary(tmp_path):
    """dizhu.pooling (benchmarks/pooled.py's command) reads two seeds' records as one run over all their deals."""
    from dizhu import arena, pooling

    runs = [arena.run_arena("normal", "random", "duel", deals=3, seed=seed, workers=1) for seed in (1, 2)]
    games = pooling.pooled([r.records for r in runs])
    assert sorted({g["deal"] for g in games}) == list(range(6)) and len(games) == 12
    both = arena.ArenaResult("normal", "random", "duel", 6, "1+2", False, games, 0.0).summary()
    # equal numbers of deals: the pooled mean is the mean of the two runs' means
    for part in ("overall", "a_as_landlord", "a_as_farmers"):
        halves = [r.summary()[part]["adp"]["value"] for r in runs]
        assert both[part]["adp"]["value"] == pytest.approx(sum(halves) / 2)
    files = []
    for i, r in enumerate(runs):
        files.append(tmp_path / f"seed{i}.records.json")
        files[-1].write_text(json.dumps(r.records))
    read = pooling.read_runs(files)
    assert read == [r.records for r in runs]
    result = pooling.pooled_result(read, "normal", "random", "duel")
    assert result.summary()["overall"] == both["overall"]
    names = [f.name for f in files]
    assert "6 deals x 2, douzero" in pooling.format_pooled(result, names)
    assert "6 deals x 2, bidding" in pooling.format_pooled(pooling.pooled_result(read, bidding=True), names)
    with pytest.raises(ValueError):
        pooling.read_runs([files[0], files[0]])


def test_a_new_match_keeps_the_finished_rounds_not_yet_taken():
    m = Match("duel", seed="outbox-new-match")
    while m.round.result is None:
        m.apply(m.round.to_act, m.round.legal_actions()[0])
    m.new_match()
    assert m.totals == [0, 0]
    taken = m.take_finished()
    assert len(taken) == 1 and taken[0]["result"]["points"] and m.take_finished() == []
