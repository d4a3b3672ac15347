"""A third variant made of data and strategy objects alone (issue 10).

The toy plays the classic 54-card deck with two players: a trick ends after
one pass, 17 cards go undealt, the match ends at 20 points, and the landlord
is chosen by a bidding style defined here — the first speaker takes or
declines a fixed stake of 2, and a decline hands the choice to the next seat.
Nothing in the engine knows this variant; seeded rounds of it play to the end
with random legal actions, zero-sum and with every card accounted for.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

import pytest

from dizhu import Rank, Round
from dizhu.bidding import Auction, PointsBidding
from dizhu.errors import IllegalAction
from dizhu.game.match import Match
from dizhu.rules import next_seat
from dizhu.variants import CLASSIC, VARIANTS, Variant


@dataclass(frozen=True)
class TakeOrLeave:
    """Each seat in turn takes the landlord's seat at a stake of 2 or leaves it; all leave: the first takes."""

    name: str = "take"
    stake_factor: int = 2
    words: frozenset[str] = frozenset({"pass", "call"})
    every_bid: tuple[str, ...] = ("pass", "call")
    has_handicap: bool = False

    @property
    def levels(self) -> int:
        return 1

    def level(self, auction: Auction) -> int:
        return 0

    def start(self, first: int, players: int) -> Auction:
        return Auction(first=first, players=players, to_act=first)

    def preset(self, auction: Auction, landlord: int, bid: int, robs: int) -> None:
        auction.leader = auction.landlord = landlord

    def legal(self, auction: Auction) -> list[str]:
        return ["pass", "call"]

    def bid(self, auction: Auction, seat: int, kind: str, points: int | None) -> None:
        if kind == "call":
            auction.landlord = seat
            return
        auction.spoken += 1
        if auction.spoken == auction.players:
            auction.landlord = auction.first
        else:
            auction.to_act = next_seat(seat, auction.players)

    def base(self, auction: Auction) -> dict[str, Any]:
        return {"source": "stake", "factor": self.stake_factor}

    def stake(self, auction: Auction) -> int:
        return self.stake_factor

    def handicap(self, auction: Auction) -> int:
        return 0

    def public(self, auction: Auction) -> dict[str, Any]:
        return {"base": self.stake_factor, "robs": None, "handicap": None, "event": {}}


TOY = Variant(
    name="toy",
    players=2,
    lowest_rank=Rank.THREE,
    hand_size=17,
    bottom_size=3,
    undealt=54 - 2 * 17 - 3,
    bidding=TakeOrLeave(),
    match_target=20,
)
# the same table with classic points bidding: a stock strategy reused as is
TOY_POINTS = replace(TOY, name="toypoints", bidding=PointsBidding())


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    # deal codes name their variant, so the toys are looked up by name like the others
    monkeypatch.setitem(VARIANTS, TOY.name, TOY)
    monkeypatch.setitem(VARIANTS, TOY_POINTS.name, TOY_POINTS)


def play_out(r: Round, rng: random.Random) -> None:
    while r.result is None:
        r.apply(r.to_act, rng.choice(r.legal_actions()))


@pytest.mark.parametrize("variant", [TOY, TOY_POINTS], ids=lambda v: v.name)
@pytest.mark.parametrize("n", range(8))
def test_seeded_toy_rounds_play_to_a_zero_sum_end(variant: Variant, n: int) -> None:
    rng = random.Random(n)
    r = Round.deal(variant, seed=f"toy-{n}")
    assert [len(h) for h in r.all_hands()] == [17, 17] and len(r.undealt) == 17
    play_out(r, rng)
    result = r.result
    assert sum(result.points) == 0 and abs(result.points[0]) == result.multiplier
    # every card is in a hand, played, or never dealt
    played = sum(len(e["cards"]) for e in r.events if e["type"] == "play")
    assert played + sum(r.cards_left) + len(r.undealt) == CLASSIC.deck_size
    # one pass ends a trick: after any pass the other seat leads
    for before, after in zip(r.events, r.events[1:]):
        if before["type"] == "pass":
            assert after["type"] == "trick"
    if variant is TOY:
        assert result.breakdown[0] == {"source": "stake", "factor": 2}
    # the winner played out: no handicap line in this variant
    winner = result.landlord if result.winner == "landlord" else 1 - result.landlord
    assert r.cards_left[winner] == 0


def test_toy_bidding_is_the_strategys() -> None:
    r = Round.deal(TOY, seed="toy-bid")
    assert [a.text for a in r.legal_actions()] == ["pass", "call"]
    with pytest.raises(IllegalAction) as info:
        r.apply(r.to_act, "bid 2")
    assert info.value.params == {"action": "bid 2", "variant": "toy"}
    first = r.to_act
    r.apply(first, "pass")
    r.apply(1 - first, "pass")  # both left it: the first speaker takes it
    assert r.landlord == first and r.multiplier == 2 and len(r.hand(first)) == 20


def test_toy_match_ends_at_its_own_target() -> None:
    m = Match(TOY, seed="toy-match")
    assert m.target == 20
    rng = random.Random(3)
    while not m.over:
        play_out_match_round(m, rng)
        if not m.over:
            m.another_round()
    assert max(m.totals) >= 20 and sum(m.totals) == 0
    assert m.winners == [s for s, t in enumerate(m.totals) if t >= 20]


def play_out_match_round(m: Match, rng: random.Random) -> None:
    while m.round.result is None:
        m.apply(m.round.to_act, rng.choice(m.round.legal_actions()))
