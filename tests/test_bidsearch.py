"""Super-hard's bids (dizhu.bots.bidsearch): each legal bid played out in sampled deals."""

import random
import time

import pytest

from dizhu import Round
from dizhu.bots import create
from dizhu.bots.bidding import model_bid
from dizhu.bots.bidsearch import auction_of, bid_out, estimate_bids, finish_bidding, sample_deal, search_bid
from dizhu.bots.search import SearchConfig
from dizhu.bots.view import View
from dizhu.cards import NUM_RANKS, format_counts

from test_round_examples import play


def _view(r):
    return View.of(r.observation(r.to_act))


def _model_bids(r):
    """Bid the whole auction by the bidding model (intermediate's bids)."""
    while r.phase == "bidding":
        r.apply(r.to_act, create("intermediate", r.variant.name, seed=0).decide(r.observation(r.to_act)))
    return r


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_the_auction_is_replayed_by_the_rules(variant):
    for n in range(30):
        r = Round.deal(variant, seed=f"auction-{n}")
        while r.phase == "bidding":
            auction = auction_of(_view(r))
            assert auction.to_act == r.to_act and auction.landlord is None and not auction.redeal
            assert r.variant.bidding.handicap(auction) == r.handicap
            assert r.variant.bidding.level(auction) == r.bidding_level
            r.apply(r.to_act, create("intermediate", variant, seed=n).decide(r.observation(r.to_act)))


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_a_sampled_deal_keeps_the_bidders_hand_and_the_deck(variant):
    r = Round.deal(variant, seed="sample")
    view = _view(r)
    v = r.variant
    rng = random.Random(3)
    for _ in range(200):
        hands, bottom = sample_deal(view, rng)
        assert hands[view.seat] == view.hand
        assert [sum(h) for h in hands] == [v.hand_size] * v.players and sum(bottom) == v.bottom_size
        for rank in range(NUM_RANKS):
            held = sum(h[rank] for h in hands) + bottom[rank]
            assert held <= v.deck_counts[rank]
        assert v.deck_size - sum(map(sum, hands)) - sum(bottom) == v.undealt


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_the_simulated_bidding_ends_as_a_real_one_would(variant):
    """finish_bidding on a deal's true hands names the landlord and stake that the model's bids
    give in a real round of that deal."""
    checked = 0
    for n in range(40):
        r = Round.deal(variant, seed=f"finish-{n}")
        hands = [_counts(h) for h in r.all_hands()]
        auction = auction_of(_view(r))
        assert finish_bidding(r.variant, auction, hands) >= 1
        _model_bids(r)
        if any(e["type"] == "redeal" for e in r.events):
            assert auction.redeal
            continue
        assert auction.landlord == r.landlord and r.variant.bidding.stake(auction) == r.multiplier
        checked += 1
    assert checked >= 20


def _counts(cards):
    counts = [0] * NUM_RANKS
    for card in cards:
        counts[card.rank] += 1
    return counts


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_a_bid_out_deal_scores_what_the_real_round_would(variant):
    """bid_out's points for a bid are the seat's points in a real round of the same deal, the seat
    making that bid and every other decision made by intermediate (the model's bids and the
    intermediate play): stake, bombs, spring and the landlord's share all as the engine counts them."""
    rng = random.Random(5)
    checked = set()
    for n in range(30):
        r = Round.deal(variant, seed=f"bid-out-{n}")
        view = _view(r)
        hands, bottom = sample_deal(view, rng)
        action = rng.choice(view.legal)
        points, steps = bid_out(view, auction_of(view), hands, bottom, action, {})
        assert steps >= 1
        undealt = [d - sum(h[k] for h in hands) - bottom[k] for k, d in enumerate(r.variant.deck_counts)]
        real = Round.from_deal(variant, [format_counts(h) for h in hands], format_counts(bottom), r.to_act,
                               format_counts(undealt) if r.variant.undealt else None)
        real.apply(view.seat, action)
        bots = [create("intermediate", variant, seed=0) for _ in range(real.players)]
        while real.result is None and not any(e["type"] == "redeal" for e in real.events):
            real.apply(real.to_act, bots[real.to_act].decide(real.observation(real.to_act)))
        if real.result is None:
            assert points == 0.0
            continue
        assert points == real.result.points[view.seat]
        checked.add(real.landlord == view.seat)
    assert checked == {True, False}


def test_a_strong_hand_calls_and_its_chances_are_read_from_the_hand():
    strong = "5555 6666 R B 2222 AAA"  # two bombs, the rocket, four 2s
    plain = "777 8 99 T J Q K 7 8 T J Q 9 A"
    r = Round.from_deal("duel", [strong, plain], "JQK", first=0)
    assert search_bid(_view(r), random.Random(0)).action == "call"
    call = {e.action: e for e in estimate_bids(_view(r), random.Random(0))}["call"]
    assert call.win_chance > 0.6 and call.deals > 100
    r = Round.from_deal("duel", [plain, strong], "JQK", first=0)
    plain_call = {e.action: e for e in estimate_bids(_view(r), random.Random(0))}["call"]
    assert plain_call.win_chance < call.win_chance - 0.1


def test_super_hard_bids_what_its_search_rates_best():
    """Across a few deals the search's choice is the top estimate, and it sometimes differs from
    the model's bid (else the search would add nothing); ablated, super-hard bids the model's."""
    differs = 0
    for n in range(12):
        r = Round.deal("duel", seed=f"choose-{n}")
        view = _view(r)
        estimates = estimate_bids(view, random.Random(n), budget=0.05)
        best = max(e.score for e in estimates)
        decision = search_bid(view, random.Random(n), budget=0.05)
        chosen = next(e for e in estimates if e.action == decision.action)
        assert chosen.score == best
        model = model_bid(view.hand, view.legal, view.handicap, "rob")
        if decision.action != model:
            differs += 1  # the reason is then the search's own finding
            assert decision.reason == "search"
            assert decision.params == {"rate": round(100 * chosen.win_chance), "games": chosen.deals}
        ablated = create("super-hard", "duel", seed=1, config=SearchConfig(bid_search=()))
        assert ablated.decide(r.observation(r.to_act)) == model
    assert differs >= 1


def test_a_bid_out_of_time_is_the_models():
    r = Round.deal("classic", seed="late")
    view = _view(r)
    estimates = estimate_bids(view, random.Random(0), deadline=time.monotonic() - 1)
    assert all(e.deals == 0 for e in estimates)
    decision = search_bid(view, random.Random(0), deadline=time.monotonic() - 1)
    assert decision.action == model_bid(view.hand, view.legal, 0, "points")
    assert decision.reason in ("bid_strong", "bid_weak")


def test_a_bid_does_not_depend_on_the_hidden_cards():
    """The same hand and the same bids, the other cards dealt otherwise: the same estimates."""
    rng = random.Random(9)
    for n in range(6):
        r = Round.deal("duel", seed=f"hidden-bid-{n}")
        play(r, [f"{r.to_act}: call"])
        seat = r.to_act
        mine = list(r.all_hands()[seat])
        rest = [c for h in r.all_hands() for c in h if c not in mine] + list(r.bottom) + list(r.undealt)
        rng.shuffle(rest)
        hands = [None, None]
        hands[seat], hands[1 - seat] = mine, rest[:17]
        other = Round.from_deal("duel", hands, rest[17:20], 1 - seat, rest[20:])
        play(other, [f"{1 - seat}: call"])
        a, b = r.observation(seat), other.observation(seat)
        assert a["hand"] == b["hand"] and a["bids"] == b["bids"]
        assert r.all_hands()[1 - seat] != other.all_hands()[1 - seat]
        first = estimate_bids(View.of(a), random.Random(n), budget=0.02)
        assert first == estimate_bids(View.of(b), random.Random(n), budget=0.02)
        bot = create("super-hard", "duel", seed=n, budget=0.02)
        assert bot.explain(a) == bot.explain(b)


def test_a_bid_search_refuses_what_is_not_a_bid_here():
    r = Round.deal("duel", seed="refuse")
    view = _view(r)
    hands, bottom = sample_deal(view, random.Random(0))
    with pytest.raises(ValueError, match="not a legal bid"):
        bid_out(view, auction_of(view), hands, bottom, "bid 2", {})  # a points bid in call/rob
    with pytest.raises(ValueError, match="not a legal bid"):
        bid_out(view, auction_of(view), hands, bottom, "rob", {})  # nobody has called
    _model_bids(r)
    with pytest.raises(ValueError, match="playing phase"):
        estimate_bids(View.of(r.observation(r.to_act)), random.Random(0))
