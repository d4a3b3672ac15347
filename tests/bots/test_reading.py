"""Reading the table: worlds weighed by the plays, passes and robs they explain, the styles read
at a seat over earlier rounds, the replay done once for all worlds, resampling."""

import random

import pytest
from helpers.players import StylePlayer
from test_round_examples import play

from dizhu import Round
from dizhu.bots import create
from dizhu.combos import classify


def test_the_reading_is_set_by_variant():
    from dizhu.bots.reading import HIT, MISS, RECENT
    from dizhu.bots.search import ADVICE, SUPER_HARD, SearchConfig

    # classic reads as it always has; the duel reads sharper, over resampled worlds
    assert (SUPER_HARD.hit["classic"], SUPER_HARD.miss["classic"], SUPER_HARD.resample["classic"]) == (HIT, MISS, 1)
    assert SUPER_HARD.hit["duel"] > HIT and SUPER_HARD.miss["duel"] < MISS and SUPER_HARD.resample["duel"] > 1
    assert SUPER_HARD.recent == RECENT
    assert ADVICE.resample == SUPER_HARD.resample  # the hint reads the table as super-hard does
    assert SearchConfig(hit=0.9).hit == {"classic": 0.9, "duel": 0.9}  # one value: every variant
    for wrong in ({"resample": 0}, {"resample": 1.5}, {"hit": 1.5}, {"miss": 0.0},
                  {"resample": {"classic": 8}}, {"hit": "sharp"}):
        with pytest.raises(ValueError, match=next(iter(wrong))):
            SearchConfig(**wrong)


def test_resampling_draws_a_world_by_its_weight_and_weighs_their_mean(monkeypatch):
    from dizhu.bots import search
    from dizhu.bots.reading import Reading, Table
    from dizhu.bots.search import SearchConfig, _draw_world
    from dizhu.bots.view import View

    r = Round.deal("duel", seed="resample")
    while r.phase == "bidding":
        r.apply(r.to_act, "call" if "call" in r.legal_actions() else "pass")
    view = View.of(r.observation(r.to_act))
    worlds = iter(range(1000))
    monkeypatch.setattr(search, "sample_world", lambda view, rng: [[next(worlds)]])
    weights = {}

    def reading(self, view, hands, rng, table=None):
        return Reading(weights[hands[0][0] % 4], {}, 10)

    monkeypatch.setattr(SearchConfig, "reading", reading)
    config, table, rng = SearchConfig(resample=4), Table.neutral(view), random.Random(5)
    weights.update({0: 0.0, 1: 0.0, 2: 3.0, 3: 1.0})  # the four worlds of a draw, by their place
    drawn = [_draw_world(view, rng, config, table) for _ in range(200)]
    assert {d[2] for d in drawn} == {1.0} and {d[3] for d in drawn} == {4 * (search.WORLD_COST + 10)}
    places = [d[0][0][0] % 4 for d in drawn]
    assert set(places) == {2, 3} and 120 < places.count(2) < 180  # three to one
    weights.update({2: 0.0, 3: 0.0})  # no world explains the round: the draw weighs nothing
    assert _draw_world(view, rng, config, table)[2] == 0.0
    weights.update({0: 0.5})
    assert _draw_world(view, rng, SearchConfig(resample=1), table)[2] == 0.5  # one world: as read


def _replayed(script_deal, script):
    from dizhu.bots.view import View

    return View.of(play(Round.from_deal("classic", **script_deal), script).observation(0))


def test_reading_weighs_worlds_by_the_passes_they_explain():
    """Farmer 2 passed on the landlord's lone 3 after its partner passed too: a world where
    it held loose singles above the 3 explains that pass worse than one where it could only
    break pairs, and a neutral reading (no plays yet) weighs every world alike."""
    from dizhu.bots.reading import read_world
    from dizhu.bots.search import sample_world

    from collections import Counter

    landlord, bottom = "345678 9TJQK 2 AA KK 5".replace(" ", ""), "BR2"
    deck = Counter({r: 4 for r in "3456789TJQKA2"})
    deck.update({"B": 1, "R": 1})
    rest = sorted((deck - Counter(landlord + bottom)).elements())
    deal = dict(hands=[landlord, "".join(rest[::2]), "".join(rest[1::2])], bottom=bottom, first=0)
    view = _replayed(deal, ["0: bid 3", "0: play 3", "1: pass", "2: pass"])
    rng = random.Random(1)
    weights = []
    for _ in range(3000):  # about 1 world in 100 leaves farmer 2 at most one loose single
        hands = sample_world(view, rng)
        loose = sum(1 for r in range(1, 15) if hands[2][r] == 1)  # singles above the 3
        weights.append((loose, read_world(view, hands, rng).weight))
    few = [w for n, w in weights if n <= 1]
    many = [w for n, w in weights if n >= 4]
    assert few and many
    assert sum(few) / len(few) > sum(many) / len(many)


def test_reading_finds_a_greedy_follower():
    """A seat that always answers with its lowest reply reads as greedy more than the prior says."""
    from dizhu.bots.reading import read_world
    from dizhu.bots.search import sample_world
    from dizhu.bots.styles import PRIOR, STYLE_NAMES, STYLES
    from dizhu.bots.view import View

    greedy = STYLE_NAMES.index("greedy")
    for n in range(6):
        r = Round.deal("duel", seed=f"greedy-{n}")
        bidder = create("intermediate", "duel", seed=n)
        while r.phase == "bidding":
            r.apply(r.to_act, bidder.decide(r.observation(r.to_act)))
        me = r.landlord
        other = 1 - me
        mine = create("intermediate", "duel", seed=n)
        from dizhu.bots.policy import Ctx

        for _ in range(14):
            if r.result is not None:
                break
            seat = r.to_act
            obs = r.observation(seat)
            if seat == me:
                r.apply(seat, mine.decide(obs))
            else:
                move = STYLES["greedy"](Ctx.of(View.of(obs)), random.Random(0))
                r.apply(seat, "pass" if move is None else f"play {move.text}")
        if r.result is not None:
            continue
        view = View.of(r.observation(me))
        rng = random.Random(2)
        posterior = [0.0] * len(STYLE_NAMES)
        for _ in range(40):
            reading = read_world(view, sample_world(view, rng), rng)
            for k, p in enumerate(reading.styles[other]):
                posterior[k] += reading.weight * p
        total = sum(posterior)
        assert posterior[greedy] / total > PRIOR["greedy"], n
        return
    raise AssertionError("no round lasted long enough")


def test_reading_replays_the_round_once_for_all_the_worlds(native_parity):
    """What a seat knew at each decision read is what a plain replay of the round in that world
    gives (below: the hands at the start, spent play by play), in every world, though the plays are
    replayed once per view; a view with a longer history, or another view, is replayed afresh."""
    import dataclasses

    from dizhu.bots.policy import Ctx
    from dizhu.bots.reading import RECENT, _contexts, _play, _replay_of
    from dizhu.bots.search import sample_world
    from dizhu.rules import trick_over

    def replayed(held, plays, view, at):
        played, left = [0] * 15, [sum(h) for h in held]
        last, passes = None, 0
        for i, (seat, combo) in enumerate(plays):
            if i in at:
                hand = tuple(held[seat])
                unseen = tuple(d - p - h for d, p, h in zip(view.variant.deck_counts, played, hand))
                yield seat, None if combo is None else combo.key, Ctx(
                    hand, seat, view.players, view.landlord, left[:], last, unseen, view.handicap)
            if combo is None:
                passes += 1
                if trick_over(passes, view.players):
                    last, passes = None, 0
                continue
            held[seat] = [h - n for h, n in zip(held[seat], combo.counts)]
            played = [p + n for p, n in zip(played, combo.counts)]
            left[seat] -= combo.size
            last, passes = (seat, combo), 0

    rng, checked = random.Random(6), 0
    for view in native_parity.round_views(150, 6, 0.3):
        if not view.history:
            continue
        view = dataclasses.replace(view, history=list(view.history))  # (its own: changed below)
        recent = rng.choice((1, 2, RECENT))
        plays = [(seat, _play(text)) for seat, text in view.history]
        latest: dict[int, int] = {}
        read_at = set()
        for i in range(len(plays) - 1, -1, -1):
            seat = plays[i][0]
            if seat != view.seat and latest.get(seat, 0) < recent:
                latest[seat] = latest.get(seat, 0) + 1
                read_at.add(i)
        replay = _replay_of(view, recent)
        assert replay.wanted == latest
        for _ in range(3):
            hands = sample_world(view, rng)
            held = [h[:] for h in hands]
            for seat, combo in plays:
                if combo is not None:
                    held[seat] = [a + b for a, b in zip(held[seat], combo.counts)]
            assert [list(map(sum, zip(hands[s], replay.spent[s]))) for s in range(view.players)] == held
            full = list(replayed(held, plays, view, read_at))
            found = _contexts(_replay_of(view, recent), hands, view.players, view.landlord, view.handicap)
            assert list(found) == full
            checked += len(full)
        assert _replay_of(view, recent) is replay
        view.history.append([view.seat, "4"])  # (a view changed in place is read again)
        again = _replay_of(view, recent)
        assert again is not replay
        view.history[-1] = [view.seat, "3"]  # (the same length, another last entry)
        assert _replay_of(view, recent) is not again
    assert checked > 500


def test_the_table_reads_each_seat_by_its_earlier_rounds():
    """After a few rounds at one table, the greedy follower at seat 1 reads as greedy and the
    greedy style is trusted further with it; intermediate's seat does not read as greedy; and
    the search plays on what the table says (with no earlier round, exactly as without it)."""
    from dizhu import Match
    from dizhu.bots.reading import HIT, Table, read_table
    from dizhu.bots.search import SearchConfig, evaluate
    from dizhu.bots.styles import PRIOR, STYLE_NAMES
    from dizhu.bots.view import View

    greedy = STYLE_NAMES.index("greedy")
    m = Match("classic", seed="table", target=None)
    seats = [create("intermediate", "classic", seed=0), StylePlayer("greedy", "classic", 1),
             StylePlayer("intermediate", "classic", 1)]
    view = View.of(m.observation(0))
    assert read_table(view) == Table.neutral(view) and read_table(view).decisions == {1: 0, 2: 0}
    for _ in range(3):
        while m.round.result is None:
            seat = m.round.to_act
            m.apply(seat, seats[seat].decide(m.observation(seat)))
        m.another_round()
    while m.round.phase == "bidding" or m.round.to_act != 0:  # to seat 0's first play
        seat = m.round.to_act
        m.apply(seat, seats[seat].decide(m.observation(seat)))
    obs = m.observation(0)
    table = read_table(View.of(obs))
    assert min(table.decisions.values()) >= 5
    assert table.prior[1][greedy] > 0.5 and table.hit[1][greedy] > HIT
    assert table.prior[2][greedy] < PRIOR["greedy"] and max(table.prior[2]) == table.prior[2][0]
    assert SearchConfig(table=False).table_of(View.of(obs)) == Table.neutral(View.of(obs))
    moves = [None] + [classify(a[5:]) for a in obs["legal_actions"] if a != "pass"][:3]
    if obs["trick"]["last"] is None:
        moves = moves[1:]

    def points(o, config):
        return [e.points for e in evaluate(View.of(o), random.Random(5), moves, budget=0.05, config=config)]

    assert points(obs, SearchConfig()) != points(obs, SearchConfig(table=False))
    alone = m.round.observation(0)  # the same round, no table
    assert points(alone, SearchConfig()) == points(obs, SearchConfig(table=False))


def test_the_table_reads_towards_the_variants_own_likelihoods():
    """A style's rate at the table starts from the search's ``hit`` for the variant, not the
    module's: in the duel (0.9 / 0.1) each rate sits ``(0.9 - 0.8) * 10 / (n + 10)`` above the
    one read at 0.8, its miss keeps ``miss / (1 - hit)`` of the rest, and the search's table is
    the one read at the duel's values."""
    from dizhu import Match
    from dizhu.bots.reading import HIT_RANGE, PSEUDO_DECISIONS, read_table
    from dizhu.bots.search import DUEL_READING, SearchConfig
    from dizhu.bots.view import View

    m = Match("duel", seed="table", target=None)
    seats = [create("intermediate", "duel", seed=0), StylePlayer("greedy", "duel", 1)]
    for _ in range(3):
        while m.round.result is None:
            seat = m.round.to_act
            m.apply(seat, seats[seat].decide(m.observation(seat)))
        m.another_round()
    view = View.of(m.observation(0))
    hit, miss, _ = DUEL_READING
    old, new = read_table(view, hit=0.8, miss=0.25), read_table(view, hit=hit, miss=miss)
    n = new.decisions[1]
    assert n >= 5 and old.decisions == new.decisions
    inside = 0
    for before, after, missed in zip(old.hit[1], new.hit[1], new.miss[1]):
        if HIT_RANGE[0] < after < HIT_RANGE[1] and HIT_RANGE[0] < before < HIT_RANGE[1]:
            assert after == pytest.approx(before + (hit - 0.8) * PSEUDO_DECISIONS / (n + PSEUDO_DECISIONS))
            inside += 1
        assert missed == pytest.approx(min(1.0, miss / (1 - hit) * (1 - after)))
    assert inside >= 3 and SearchConfig().table_of(view) == new


def test_reading_takes_a_rob_as_evidence_of_a_strong_hand():
    """In duel, the opponent robbed the caller's landlord seat: a world where robbing was
    worth it to its hand (the bots' own rob rule) explains that better than one where it was not."""
    from dizhu.bots.bidding import wants_rob
    from dizhu.bots.reading import HIT, MISS, read_world
    from dizhu.bots.search import sample_world
    from dizhu.bots.view import View

    seen = set()
    for n in range(10):
        r = Round.deal("duel", seed=f"rob-{n}")
        me = r.to_act
        other = 1 - me
        play(r, [f"{me}: call", f"{other}: rob", f"{me}: pass"])
        assert r.phase == "playing" and r.landlord == other
        view = View.of(r.observation(me))
        rng = random.Random(n)
        for _ in range(30):
            hands = sample_world(view, rng)
            dealt = [c - b for c, b in zip(hands[other], view.bottom)]
            strong = wants_rob(dealt, 0)
            assert read_world(view, hands, rng).weight == pytest.approx(HIT if strong else MISS)
            seen.add(strong)
        if seen == {True, False}:
            return
    raise AssertionError("the worlds never differed on the rob")
