"""How the landlord is chosen: one strategy object per bidding style.

A :class:`~dizhu.variants.Variant` carries one of these, and the round asks
it everything that depends on the style: the legal bids, what a bid does,
who becomes landlord (or whether the cards are dealt again), the base factor
of the score, and the farmer's handicap.  The round itself never asks which
style it is playing.  Bids are handled as their words (``"pass"``,
``"bid 2"``, ``"call"``, ``"rob"``), so this module needs only the errors.

>>> style = PointsBidding()
>>> auction = style.start(first=1, players=3)
>>> style.legal(auction)
['pass', 'bid 1', 'bid 2', 'bid 3']
>>> style.bid(auction, 1, "bid", 2); style.legal(auction), auction.to_act
(['pass', 'bid 3'], 2)
>>> style.bid(auction, 2, "pass", None); style.bid(auction, 0, "pass", None); auction.landlord
1
>>> style.base(auction), style.handicap(auction)
({'source': 'bid', 'factor': 2}, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .errors import IllegalAction
from .rules import next_seat

__all__ = ["Auction", "BiddingStyle", "PointsBidding", "CallRobBidding"]


@dataclass
class Auction:
    """The bidding of one deal so far.

    ``leader`` is the seat that would be landlord if bidding stopped now (the
    highest bidder, or the call/rob candidate); ``highest`` the highest
    points bid; ``robs`` the robs made.  Once ``landlord`` is set, or
    ``redeal`` is true, the bidding is over.
    """

    first: int
    players: int
    to_act: int
    spoken: int = 0
    highest: int = 0
    leader: int | None = None
    robs: int = 0
    landlord: int | None = None
    redeal: bool = False


class BiddingStyle(Protocol):
    """What a variant's bidding must answer.  ``name`` is the style's word in the JSON."""

    name: str
    #: The action words this style uses; the round refuses the others.
    words: frozenset[str]
    #: Every bidding action there is, in a fixed order (for encodings).
    every_bid: tuple[str, ...]
    #: Whether farmers win at a handicap line rather than by playing out.
    has_handicap: bool

    @property
    def levels(self) -> int:
        """How many values :meth:`level` takes (0 included)."""
        ...

    def level(self, auction: Auction) -> int:
        """The bidding's one number so far: the top points bid, or the robs."""
        ...

    def start(self, first: int, players: int) -> Auction: ...

    def preset(self, auction: Auction, landlord: int, bid: int, robs: int) -> None: ...

    def legal(self, auction: Auction) -> list[str]: ...

    def bid(self, auction: Auction, seat: int, kind: str, points: int | None) -> None: ...

    def base(self, auction: Auction) -> dict[str, Any]: ...

    def stake(self, auction: Auction) -> int: ...

    def handicap(self, auction: Auction) -> int: ...

    def public(self, auction: Auction) -> dict[str, Any]: ...


@dataclass(frozen=True)
class PointsBidding:
    """Classic 1-2-3 (RULES.md §5): each seat speaks once; the top bid wins; all pass: deal again."""

    name: str = "points"
    top: int = 3
    words: frozenset[str] = frozenset({"pass", "bid"})
    every_bid: tuple[str, ...] = ("pass", "bid 1", "bid 2", "bid 3")
    has_handicap: bool = False

    @property
    def levels(self) -> int:
        return self.top + 1

    def level(self, auction: Auction) -> int:
        return auction.highest

    def start(self, first: int, players: int) -> Auction:
        return Auction(first=first, players=players, to_act=first)

    def preset(self, auction: Auction, landlord: int, bid: int, robs: int) -> None:
        """Skip the bidding: ``landlord`` won it with ``bid`` (robs must be 0)."""
        if not 1 <= bid <= self.top or robs:
            raise ValueError(f"{self.name} bidding takes a bid from 1 to {self.top} and no robs")
        auction.highest, auction.leader, auction.landlord = bid, landlord, landlord

    def legal(self, auction: Auction) -> list[str]:
        return ["pass"] + [f"bid {n}" for n in range(auction.highest + 1, self.top + 1)]

    def bid(self, auction: Auction, seat: int, kind: str, points: int | None) -> None:
        """Apply ``seat``'s pass or bid, one of :attr:`words` (a refused bid changes nothing)."""
        if kind == "bid" and points <= auction.highest:
            raise IllegalAction("bid_too_low", highest=auction.highest)
        auction.spoken += 1
        if kind == "bid":
            auction.highest, auction.leader = points, seat
            if points == self.top:  # nobody can outbid the top: bidding stops at once
                auction.landlord = seat
                return
        if auction.spoken == auction.players:
            if auction.leader is None:
                auction.redeal = True
            else:
                auction.landlord = auction.leader
            return
        auction.to_act = next_seat(seat, auction.players)

    def base(self, auction: Auction) -> dict[str, Any]:
        return {"source": "bid", "factor": auction.highest}

    def stake(self, auction: Auction) -> int:
        # before the first bid the stake reads as 1, not 0
        return max(auction.highest, 1)

    def handicap(self, auction: Auction) -> int:
        return 0  # farmers play out, like the landlord

    def public(self, auction: Auction) -> dict[str, Any]:
        """The observation's style-dependent numbers, and the landlord event's."""
        return {"base": auction.highest, "robs": None, "handicap": None, "event": {"bid": auction.highest}}


@dataclass(frozen=True)
class CallRobBidding:
    """Duel call/rob (RULES.md §6): each rob doubles the stake and is one card of handicap."""

    name: str = "rob"
    max_robs: int = 4
    words: frozenset[str] = frozenset({"pass", "call", "rob"})
    every_bid: tuple[str, ...] = ("pass", "call", "rob")
    has_handicap: bool = True

    @property
    def levels(self) -> int:
        return self.max_robs + 1

    def level(self, auction: Auction) -> int:
        return auction.robs

    def start(self, first: int, players: int) -> Auction:
        return Auction(first=first, players=players, to_act=first)

    def preset(self, auction: Auction, landlord: int, bid: int, robs: int) -> None:
        """Skip the bidding: ``landlord`` took it after ``robs`` robs (``bid`` is ignored)."""
        if not (isinstance(robs, int) and 0 <= robs <= self.max_robs):
            raise ValueError(f"{self.name} bidding takes from 0 to {self.max_robs} robs")
        auction.robs, auction.leader, auction.landlord = robs, landlord, landlord

    def legal(self, auction: Auction) -> list[str]:
        return ["pass", "rob"] if auction.leader is not None else ["pass", "call"]

    def bid(self, auction: Auction, seat: int, kind: str, points: int | None) -> None:
        """Apply ``seat``'s call, rob or pass, one of :attr:`words` (a refused one changes nothing)."""
        other = next_seat(seat, auction.players)
        if auction.leader is None:
            if kind == "rob":
                raise IllegalAction("nobody_called")
            auction.spoken += 1
            if kind == "call":
                auction.leader, auction.to_act = seat, other
            elif seat == auction.first:
                auction.to_act = other
            else:  # neither called: the first speaker is landlord with no robs
                auction.landlord = auction.first
            return
        if kind == "call":
            raise IllegalAction("already_called")
        auction.spoken += 1
        if kind == "rob":
            auction.robs += 1
            auction.leader = seat
            if auction.robs == self.max_robs:
                auction.landlord = seat
                return
            auction.to_act = other
        else:  # "don't rob": the candidate keeps it
            auction.landlord = auction.leader

    def base(self, auction: Auction) -> dict[str, Any]:
        return {"source": "robs", "count": auction.robs, "factor": 1 << auction.robs}

    def stake(self, auction: Auction) -> int:
        return 1 << auction.robs

    def handicap(self, auction: Auction) -> int:
        return auction.robs

    def public(self, auction: Auction) -> dict[str, Any]:
        """The observation's style-dependent numbers, and the landlord event's."""
        return {"base": 1 << auction.robs, "robs": auction.robs, "handicap": auction.robs,
                "event": {"robs": auction.robs}}
