"""One round of Dou Dizhu as an explicit state machine (RULES.md §4-§6).

deal -> bidding -> bottom revealed -> playing -> over.  Every action goes
through :meth:`Round.apply`, which validates it completely before changing
anything: a refused action raises :class:`~dizhu.errors.IllegalAction` (or
:class:`~dizhu.errors.InvalidPlay`) and leaves the round as it was.

>>> r = Round.from_deal("classic", ["33344455566677788", "99TTJJQQKKAA22BRT", "3456789JJQQKKAA22"],
...                     bottom="89T", first=0)
>>> r.phase, r.to_act, [str(a) for a in r.legal_actions()]
('bidding', 0, ['pass', 'bid 1', 'bid 2', 'bid 3'])
>>> r.apply(0, "bid 3")
>>> r.phase, r.landlord, str(r.hand(0))
('playing', 0, '3334445556667778889T')
>>> r.apply(0, "play 333444555666+789T")
>>> r.apply(1, "pass"); r.apply(2, "pass")
>>> r.apply(2, "play 99")
Traceback (most recent call last):
...
dizhu.IllegalAction: it is seat 0's turn, not seat 2's
>>> r.apply(0, "pass")
Traceback (most recent call last):
...
dizhu.IllegalAction: you lead this trick, so you must play
>>> r.apply(0, "play 7788")
Traceback (most recent call last):
...
dizhu.InvalidPlay: a pair chain needs at least 3 pairs in a row
>>> r.apply(0, "play 77"); r.to_act, r.last_play[1].text
(1, '77')

A duel landlord who robbed once, bombed and played out before the farmer
played at all scores robs x bomb x spring:

>>> r = Round.from_deal("duel", ["5555 66 77 88 99 TT JJ Q", "6 7 8 9 T J Q K A 2 B R KK AA 2"],
...                     bottom="QQK", landlord=0, robs=1)
>>> r.apply(0, "play 5555"); r.apply(1, "pass"); r.apply(0, "play 66778899TTJJ")
>>> r.apply(1, "pass"); r.apply(0, "play QQQK")
>>> r.result.points, [b["source"] for b in r.result.breakdown], r.result.spring
([8, -8], ['robs', 'bomb', 'spring'], True)

Everything that happened is in one log, :attr:`Round.log`, of typed events
(:mod:`dizhu.game.events`); the bids, the history, the bombs and the saved
actions are read from it:

>>> [e.type for e in r.log][:4], r.log[-1].result.winner
(['deal', 'landlord', 'play', 'pass'], 'landlord')
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from typing import Any

from ..cards import NUM_RANKS, Card, Hand, NotationError, format_counts, parse_cards, rank_counts
from ..combos import Combo, Kind, beats
from ..errors import IllegalAction
from ..rules import settle
from ..variants import Variant, get_variant
from .actions import PASS, Action, play_action
from .deal import Deal, commitment, deal_cards, new_deal_code, parse_deal_code, suit_priorities
from .events import (
    BidEvent,
    DealEvent,
    Event,
    LandlordEvent,
    PassEvent,
    PlayEvent,
    RedealEvent,
    Result,
    SettleEvent,
    TrickEvent,
)
from .observation import Observation
from .play import PlayState

__all__ = ["Round", "Result", "FORMAT_VERSION", "check_answer"]

#: Version 2: a play named by its ranks takes the seat's cards in the deal's secret suit order
#: (:func:`~dizhu.game.deal.suit_priorities`); version 1, the lowest ids.  A round saved at
#: version 1 replays and saves as one, so its plays keep the cards they took; software that
#: knows only version 1 refuses a version 2 round rather than replay its plays with other cards.
FORMAT_VERSION = 2
_LOWEST_IDS = 1
BIDDING, PLAYING, OVER = "bidding", "playing", "over"


def check_answer(combo: Combo, previous: Combo) -> None:
    """Refuse ``combo`` as an answer to the trick's ``previous`` play unless it beats it,
    with the engine's reason: too weak (the same kind, or a bomb), or the wrong kind.

    >>> from dizhu.combos import classify
    >>> check_answer(classify("55"), classify("44"))
    >>> check_answer(classify("33"), classify("44"))
    Traceback (most recent call last):
    ...
    dizhu.IllegalAction: 33 does not beat 44
    >>> check_answer(classify("2222"), classify("BR"))
    Traceback (most recent call last):
    ...
    dizhu.IllegalAction: nothing beats BR, the rocket: pass
    """
    if beats(combo, previous):
        return
    if previous.kind is Kind.ROCKET:  # "a bomb or the rocket" would be no way out here
        raise IllegalAction("unbeatable", play=combo.text, previous=previous.text)
    if combo.is_bomb or (combo.kind is previous.kind and combo.size == previous.size):
        raise IllegalAction("too_weak", play=combo.text, previous=previous.text)
    raise IllegalAction("wrong_kind", play=combo.text, previous=previous.text, kind=previous.kind.value,
                        size=previous.size)


class Round:
    """A round: its deal, bidding, play and settlement.

    Build one with :meth:`deal` (a fresh, verifiable deal),
    :meth:`from_deal` (explicit hands) or :meth:`from_json`.  Seats are
    numbered in turn order from 0.

    Public state is read through attributes and properties (``phase``,
    ``to_act``, ``landlord``, ``cards_left``, ``last_play``, ``multiplier``,
    ``handicap``, ``bidding_level``, ``log``); methods are for what takes a
    seat (:meth:`hand`, :meth:`observe`), does work (:meth:`legal_actions`)
    or shows hidden cards (:meth:`all_hands`).
    """

    # ---- construction

    def __init__(self, variant: "str | Variant") -> None:
        # Use Round.deal / Round.from_deal / Round.from_json.
        self.variant = get_variant(variant)
        self.phase = BIDDING
        #: The one log: every action and what the rules did in answer, in order (see
        #: :mod:`dizhu.game.events`).  Never edited, only appended to.
        self.log: list[Event] = []
        self.result: Result | None = None
        self.landlord: int | None = None
        self.deal_code: str | None = None
        self.deal_hash: str | None = None
        # Where the cards came from (a deal code, or explicit hands): with the log's
        # actions, all a saved round needs.
        self._source: dict[str, Any] = {}
        self._deal_number = 0
        self._deal_start = 0  # where the current deal's events begin in the log
        self._event_json: list[dict[str, Any]] = []
        self._redeal_code = ""
        self._legal: list[Action] | None = None
        self._priority: list[int] | None = None  # the deal's suit priorities, once needed
        self._format = FORMAT_VERSION

    @classmethod
    def deal(cls, variant: "str | Variant" = "classic", seed: "str | int | None" = None) -> "Round":
        """A fresh round dealt from a seed.

        With ``seed=None`` the seed comes from ``secrets``.  The deal code
        (``<variant>-<seed>``) is secret until the round is over; its hash,
        ``deal_hash``, is public from the start.

        >>> r = Round.deal("duel", seed="example")
        >>> r.deal_code is None, r.deal_hash[:12], [len(h) for h in r.all_hands()]
        (True, 'a8bd6c52be99', [17, 17])
        """
        v = get_variant(variant)
        code = new_deal_code(v) if seed is None else f"{v.name}-{seed}"
        return cls.from_code(code)

    @classmethod
    def from_code(cls, code: str) -> "Round":
        """Replay a revealed deal code: the same cards, the same first bidder."""
        variant = parse_deal_code(code)
        self = cls(variant)
        self._redeal_code = code
        self._source = {"code": code}
        self.deal_hash = commitment(code)
        self._start_deal(deal_cards(code, 0))
        return self

    @classmethod
    def from_deal(
        cls,
        variant: "str | Variant",
        hands: Sequence["str | Sequence[Card]"],
        bottom: "str | Sequence[Card]",
        first: int = 0,
        undealt: "str | Sequence[Card] | None" = None,
        *,
        landlord: int | None = None,
        bid: int = 1,
        robs: int = 0,
        redeal_seed: str | None = None,
    ) -> "Round":
        """A round from an explicit deal (seat order = turn order).

        Hands and bottom may be notation text; suits are then assigned so
        that no card is dealt twice.  Duel's undealt cards default to the
        rest of the deck.  With ``landlord`` set, bidding is skipped (classic:
        ``bid``, 1 by default; duel: ``robs``, 0 by default, which also set the
        handicap) and that seat takes the bottom at once.  A classic
        all-pass re-deal draws from ``redeal_seed`` (random by default), which
        also keys which suits a play named by its ranks takes: two rounds from
        the same hands take the same cards for the same actions only with the
        same ``redeal_seed``.
        """
        v = get_variant(variant)
        if len(hands) != v.players:
            raise ValueError(f"{v.name} needs {v.players} hands, not {len(hands)}")
        if not isinstance(first, int) or not 0 <= first < v.players:
            raise ValueError(f"first must be a seat from 0 to {v.players - 1}")
        if landlord is not None and (not isinstance(landlord, int) or not 0 <= landlord < v.players):
            raise ValueError(f"landlord must be a seat from 0 to {v.players - 1}")
        pool: dict[int, list[Card]] = {r: [] for r in range(NUM_RANKS)}
        for card in parse_cards(format_counts(v.deck_counts), v.name):
            pool[card.rank].append(card)

        def take(part: "str | Sequence[Card]", what: str) -> tuple[Card, ...]:
            if isinstance(part, str):
                wanted = parse_cards(part, v.name)
                chosen = []
                for card in wanted:
                    if not pool[card.rank]:
                        raise NotationError(f"{what}: no {card.rank.symbol} left in the deck")
                    chosen.append(pool[card.rank].pop(0))
                return tuple(sorted(chosen))
            cards = Hand.of(list(part), v.name)
            for card in cards:
                if card not in pool[card.rank]:
                    raise NotationError(f"{what}: {card} is dealt twice")
                pool[card.rank].remove(card)
            return tuple(cards)

        dealt_hands = tuple(take(h, f"hand {i}") for i, h in enumerate(hands))
        dealt_bottom = take(bottom, "bottom")
        rest = tuple(sorted(c for cards in pool.values() for c in cards))
        dealt_undealt = rest if undealt is None else take(undealt, "undealt")
        sizes = [len(h) for h in dealt_hands]
        if sizes != [v.hand_size] * v.players or len(dealt_bottom) != v.bottom_size:
            raise ValueError(
                f"{v.name} deals {v.hand_size} cards a hand and {v.bottom_size} to the bottom, "
                f"not {sizes} and {len(dealt_bottom)}"
            )
        if len(dealt_undealt) != v.undealt or (undealt is not None and any(pool.values())):
            raise ValueError(f"{v.name} leaves {v.undealt} cards undealt, and the deal must use the whole deck")
        self = cls(v)
        self._redeal_code = f"{v.name}-{redeal_seed or secrets.token_hex(16)}"
        self._source = {
            "hands": [[c.id for c in h] for h in dealt_hands],
            "bottom": [c.id for c in dealt_bottom],
            "undealt": [c.id for c in dealt_undealt],
            "first": first,
            "landlord": landlord,
            "bid": bid,
            "robs": robs,
            "redeal_code": self._redeal_code,
        }
        self._start_deal(Deal(dealt_hands, dealt_bottom, dealt_undealt, first))
        if landlord is not None:
            v.bidding.preset(self._auction, landlord, bid, robs)
            self._choose_landlord(landlord)
        return self

    def _start_deal(self, deal: Deal) -> None:
        v = self.variant
        self._hands = [list(h) for h in deal.hands]
        self._priority = None
        self._counts = [list(rank_counts(h)) for h in deal.hands]
        self._initial = [list(h) for h in deal.hands]
        self.bottom = deal.bottom
        self.undealt = deal.undealt
        self.first = deal.first
        self.to_act = deal.first
        self.phase = BIDDING
        self._auction = v.bidding.start(deal.first, v.players)
        #: The play phase's state, from the landlord's choice on (its hands are ``_counts``).
        self._play: PlayState | None = None
        self._legal = None
        self._deal_start = len(self.log)
        self.log.append(DealEvent(self._deal_number, deal.first, tuple(len(h) for h in deal.hands), self.deal_hash))

    # ---- reading the state

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def handicap(self) -> int:
        """A farmer wins at this many cards or fewer (duel: the robs; classic: 0)."""
        return self.variant.bidding.handicap(self._auction)

    @property
    def bidding_level(self) -> int:
        """The bidding's one number so far: the highest points bid, or the robs (0 before any)."""
        return self.variant.bidding.level(self._auction)

    @property
    def events(self) -> list[dict[str, Any]]:
        """The log as the JSON of docs/API.md ("Events"), oldest first: a new list each time, of
        dicts shared with other callers (read them, do not edit them)."""
        memo = self._event_json  # a cache of the log's JSON, filled on demand; the log is the record
        if len(memo) < len(self.log):
            memo.extend(e.to_dict() for e in self.log[len(memo):])
        return list(memo)

    def hand(self, seat: int) -> Hand:
        """The cards seat ``seat`` holds now (hidden information: do not show others)."""
        return Hand(self._hands[seat])

    def all_hands(self) -> list[Hand]:
        """Every hand now.  Hidden information: for tests, tools and the
        arena's referee, never for a player's view."""
        return [Hand(h) for h in self._hands]

    @property
    def cards_left(self) -> list[int]:
        """How many cards each seat holds (public)."""
        return [len(h) for h in self._hands]

    @property
    def play_state(self) -> PlayState | None:
        """The play phase's state over rank counts (None while bidding).  Hidden information:
        it holds every hand; for the referee, the environments and tools, never a player's view.
        Read it; the round alone changes it."""
        return self._play

    @property
    def last_play(self) -> tuple[int, Combo] | None:
        """(seat, combo) of the play to beat, or None when the player to act leads."""
        return None if self._play is None else self._play.last

    @property
    def multiplier(self) -> int:
        """The score multiplier so far (P in classic, the stake in duel), spring not counted."""
        return self.variant.bidding.stake(self._auction) << len(self._this_deal()[2])

    # ---- read from the log: the current deal's bids, plays and bombs

    def _this_deal(self) -> tuple[list[list[Any]], list[list[Any]], list[PlayEvent]]:
        """The current deal's bids ``[seat, action]``, its history ``[seat, play or "pass"]`` and
        its bombs and rockets (each doubling the score), in one pass over its part of the log."""
        bids: list[list[Any]] = []
        history: list[list[Any]] = []
        doublings: list[PlayEvent] = []
        for e in self.log[self._deal_start:]:
            kind = type(e)
            if kind is PlayEvent:
                history.append([e.seat, e.play])
                if e.is_doubling:
                    doublings.append(e)
            elif kind is PassEvent:
                history.append([e.seat, "pass"])
            elif kind is BidEvent:
                bids.append([e.seat, e.action])
        return bids, history, doublings

    def _actions(self) -> list[list[Any]]:
        """Every player's action so far, re-deals included, as a saved round lists them:
        ``[seat, text, card ids]``, the ids only when the player chose the cards."""
        out: list[list[Any]] = []
        for e in self.log:
            kind = type(e)
            if kind is PlayEvent:
                out.append([e.seat, f"play {e.play}", list(e.cards) if e.chosen else None])
            elif kind is PassEvent:
                out.append([e.seat, "pass", None])
            elif kind is BidEvent:
                out.append([e.seat, e.action, None])
        return out

    # ---- legal actions

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take (empty once the round is over)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[Action]:
        if self.phase == OVER:
            return []
        if self.phase == BIDDING:
            return [Action.parse(text) for text in self.variant.bidding.legal(self._auction)]
        return [PASS if m is None else play_action(m) for m in self._play.legal_plays()]

    # ---- applying actions

    def apply(self, seat: int, action: "Action | str") -> None:
        """Apply ``seat``'s action, or raise IllegalAction / InvalidPlay and change nothing."""
        if self.phase == OVER:
            raise IllegalAction("round_over")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise IllegalAction("no_such_seat", seat=seat, players=self.players)
        if not isinstance(action, Action):
            action = self._parse(action)
        if seat != self.to_act:
            raise IllegalAction("not_your_turn", seat=seat, to_act=self.to_act)
        if self.phase == BIDDING:
            self._apply_bid(seat, action)
        else:
            self._apply_play(seat, action)
        self._legal = None

    def _parse(self, text: Any) -> Action:
        if isinstance(text, str) and self._legal is not None:
            for action in self._legal:  # the common case: text from legal_actions()
                if action.text == text:
                    return action
        return Action.parse(text, self.variant.name)

    def _apply_bid(self, seat: int, action: Action) -> None:
        v = self.variant
        if action.kind == "play":
            raise IllegalAction("still_bidding")
        if action.kind not in v.bidding.words:
            raise IllegalAction("not_in_variant", action=action.text, variant=v.name)
        auction = self._auction
        v.bidding.bid(auction, seat, action.kind, action.bid)
        self.log.append(BidEvent(seat, action.text))
        if auction.redeal:
            self._redeal()
        elif auction.landlord is not None:
            self._choose_landlord(auction.landlord)
        else:
            self.to_act = auction.to_act

    def _redeal(self) -> None:
        self.log.append(RedealEvent(self._deal_number))
        self._deal_number += 1
        self._start_deal(deal_cards(self._redeal_code, self._deal_number))

    def _choose_landlord(self, seat: int) -> None:
        self.landlord = seat
        self._hands[seat] = sorted(self._hands[seat] + list(self.bottom))
        for card in self.bottom:
            self._counts[seat][card.rank] += 1
        self.phase = PLAYING
        self.to_act = seat
        self._play = PlayState(self.variant, self._counts, seat, self.handicap)
        self.log.append(LandlordEvent(seat, format_counts(rank_counts(self.bottom)),
                                      tuple(c.id for c in self.bottom),
                                      **self.variant.bidding.public(self._auction)["event"]))

    def _apply_play(self, seat: int, action: Action) -> None:
        kind = action.kind
        if kind != "play" and kind != "pass":
            raise IllegalAction("not_bidding")
        state = self._play
        last = state.last
        if kind == "pass":
            if last is None:
                raise IllegalAction("must_lead")
            state.apply(None)
            self.log.append(PassEvent(seat))
            if state.last is None:
                self.log.append(TrickEvent(state.to_act))
            self.to_act = state.to_act
            return
        combo = action.combo
        # an Action built for another variant's deck reaches here unchecked
        self.variant.check_in_deck(combo.counts)
        if last is not None:
            check_answer(combo, last[1])
        cards = self._pick_cards(seat, combo, action.cards)
        hand = self._hands[seat]
        for card in cards:
            hand.remove(card)
        winner = state.apply(combo)
        self.log.append(PlayEvent(seat, combo.text, combo.kind.value, tuple(c.id for c in cards),
                                  chosen=action.cards is not None))
        if winner is not None:
            self._settle(winner)
        else:
            self.to_act = state.to_act

    def _pick_cards(self, seat: int, combo: Combo, chosen: tuple[Card, ...] | None) -> list[Card]:
        hand = self._hands[seat]
        if chosen is not None:
            held = set(hand)
            if any(card not in held for card in chosen):
                raise IllegalAction("not_in_hand", cards=combo.text)
            return list(chosen)
        counts = self._counts[seat]
        if any(n > counts[rank] for rank, n in enumerate(combo.counts)):
            raise IllegalAction("not_in_hand", cards=combo.text)
        need = list(combo.counts)
        picked = []
        if self._format != _LOWEST_IDS:
            # Not lowest ids first, which would tell the table which suits the seat lacks.
            if self._priority is None:
                self._priority = suit_priorities(self._redeal_code, self._deal_number)
            hand = sorted(hand, key=lambda card: self._priority[card.id])
        for card in hand:
            if need[card.rank]:
                need[card.rank] -= 1
                picked.append(card)
        # in id order: the order drawn by priority would say which ranks the seat holds more of
        return sorted(picked)

    # ---- settlement

    def _settle(self, winner_seat: int) -> None:
        landlord = self.landlord
        doublings = [{"source": e.kind, "seat": e.seat, "play": e.play, "factor": 2} for e in self._this_deal()[2]]
        breakdown, multiplier, points, spring = settle(
            self.variant.bidding.base(self._auction), doublings, winner_seat, landlord, self._play.plays_made
        )
        self.result = Result(
            winner="landlord" if winner_seat == landlord else "farmers",
            landlord=landlord,
            points=points,
            multiplier=multiplier,
            breakdown=breakdown,
            spring=spring == "spring",
            anti_spring=spring == "anti_spring",
            hands=[format_counts(c) for c in self._counts],
        )
        self.phase = OVER
        self.to_act = None
        if self._source.get("code"):
            self.deal_code = self._source["code"]
        self.log.append(
            SettleEvent(
                self.result,
                hand_ids=tuple(tuple(c.id for c in h) for h in self._hands),
                initial_hands=tuple(format_counts(rank_counts(h)) for h in self._initial),
                initial_ids=tuple(tuple(c.id for c in h) for h in self._initial),
                deal_code=self.deal_code,
            )
        )

    # ---- what a seat may see

    def observe(self, seat: int) -> Observation:
        """Exactly what ``seat`` may know (:class:`~dizhu.game.observation.Observation`).

        Own hand; everyone's card counts; the bidding; the landlord and the
        bottom once revealed; the public history and the current trick; the
        multiplier so far; the handicap (duel); whose turn; and the seat's
        own legal actions when it is to act.  Nothing else: no other hand,
        no unrevealed bottom, never the duel's undealt cards.
        """
        return Observation.from_dict(self.observation(seat))

    def observation(self, seat: int) -> dict[str, Any]:
        """:meth:`observe` as its JSON (``Observation.to_dict()``): what a bot's ``decide``
        and the API's view get.  Built directly, as every computer decision asks for it."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction("no_such_seat", seat=seat, players=self.players)
        v = self.variant
        public = v.bidding.public(self._auction)
        state = self._play  # None while bidding: nothing played yet
        last = None if state is None else state.last
        revealed = self.landlord is not None
        to_act = self.to_act
        bids, history, doublings = self._this_deal()
        bombs = sum(1 for e in doublings if e.kind == Kind.BOMB.value)
        return {
            "variant": v.name,
            "seat": seat,
            "players": v.players,
            "phase": self.phase,
            "to_act": to_act,
            "hand": format_counts(self._counts[seat]),
            "hand_ids": [c.id for c in self._hands[seat]],
            "cards_left": [len(h) for h in self._hands],
            "first": self.first,
            "bids": bids,
            "landlord": self.landlord,
            "bottom": format_counts(rank_counts(self.bottom)) if revealed else None,
            "bottom_ids": [c.id for c in self.bottom] if revealed else None,
            "history": history,
            "played": format_counts(state.played) if state else "",
            "trick": {
                "last": [last[0], last[1].text] if last else None,
                "passes": state.passes if state else 0,
            },
            "plays_made": state.plays_made[:] if state else [0] * v.players,
            "multiplier": {
                "base": public["base"],
                "robs": public["robs"],
                "bombs": bombs,
                "rockets": len(doublings) - bombs,
                "total": v.bidding.stake(self._auction) << len(doublings),
            },
            "handicap": public["handicap"],
            "deal_hash": self.deal_hash,
            "legal_actions": [a.text for a in self.legal_actions()] if seat == to_act else [],
            "result": self.result.to_dict() if self.result else None,
            "deal_code": self.deal_code,
            "earlier": [],  # a round knows no other round: Match.observation recalls them
        }

    def record(self) -> dict[str, Any]:
        """The finished round as the other rounds at the table recall it: the JSON of
        :class:`~dizhu.game.observation.EarlierRound` (public: the settlement showed every hand).

        >>> r = Round.deal("duel", seed="record")
        >>> while r.result is None:
        ...     r.apply(r.to_act, r.legal_actions()[0])
        >>> rec = r.record()
        >>> sizes = [len(parse_cards(h)) for h in rec["hands"]]
        >>> rec["landlord"] == r.landlord, sizes[r.landlord], sizes[1 - r.landlord]
        (True, 20, 17)
        """
        if self.result is None:
            raise IllegalAction("round_in_progress")
        bids, history, _ = self._this_deal()
        hands = [list(rank_counts(h)) for h in self._initial]
        for c in self.bottom:
            hands[self.landlord][c.rank] += 1
        return {
            "landlord": self.landlord,
            "hands": [format_counts(h) for h in hands],
            "bottom": format_counts(rank_counts(self.bottom)),
            "bids": bids,
            "history": history,
            "handicap": self.variant.bidding.public(self._auction)["handicap"],
            "points": list(self.result.points),
        }

    # ---- saving and restoring

    def to_json(self) -> str:
        """The whole state as versioned JSON (the deal's source and every action).

        The JSON holds hidden cards and the secret deal code: it is for
        storage, never for a player.
        """
        return json.dumps(
            {
                "format": "dizhu-round",
                "version": self._format,
                "variant": self.variant.name,
                "source": self._source,
                "actions": self._actions(),
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: "str | bytes | dict") -> "Round":
        """Restore a round saved by :meth:`to_json`, exactly (re-deals included)."""
        data = json.loads(text) if isinstance(text, (str, bytes)) else text
        if not isinstance(data, dict) or data.get("format") != "dizhu-round":
            raise ValueError("not a saved dizhu round")
        if data.get("version") not in (_LOWEST_IDS, FORMAT_VERSION):
            raise ValueError(f"unsupported saved-round version {data.get('version')!r}")
        source = data["source"]
        if "code" in source:
            self = cls.from_code(source["code"])
        else:
            ids = Card.from_id
            self = cls.from_deal(
                data["variant"],
                [[ids(i) for i in h] for h in source["hands"]],
                [ids(i) for i in source["bottom"]],
                source["first"],
                [ids(i) for i in source["undealt"]],
                landlord=source.get("landlord"),
                bid=source.get("bid", 1),
                robs=source.get("robs", 0),
                redeal_seed=source["redeal_code"].partition("-")[2],
            )
        self._format = data["version"]  # a version 1 round took the lowest ids: so must its replay
        for seat, text_action, card_ids in data["actions"]:
            if card_ids is None:
                self.apply(seat, text_action)
            else:
                action = Action.play([Card.from_id(i) for i in card_ids], self.variant.name)
                self.apply(seat, action)
        return self

