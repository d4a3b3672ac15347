"""What happens in a round, as typed events: the round's one log.

:class:`~dizhu.game.Round` keeps a single list of these (``Round.log``).
The players' actions are in it (:class:`BidEvent`, :class:`PlayEvent`,
:class:`PassEvent`) between what the rules did in answer (:class:`DealEvent`,
:class:`RedealEvent`, :class:`LandlordEvent`, :class:`TrickEvent`,
:class:`SettleEvent`); the bids, the history of plays, the bombs of the
multiplier and the saved game's actions are all read from it.

Each event is frozen and turns into the JSON of docs/API.md ("Events") with
``to_dict()``; :func:`event_from_dict` reads that JSON back (a client, a
stored finished round).  The dictionaries are the wire contract: their keys
and order are fixed, and ``type`` names the event.

>>> e = PlayEvent(seat=1, play="33", kind="pair", cards=(0, 1))
>>> e.to_dict()
{'type': 'play', 'seat': 1, 'play': '33', 'kind': 'pair', 'cards': [0, 1]}
>>> event_from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Literal, Union

from ..combos import Kind

__all__ = [
    "Result",
    "DealEvent",
    "BidEvent",
    "RedealEvent",
    "LandlordEvent",
    "PlayEvent",
    "PassEvent",
    "TrickEvent",
    "SettleEvent",
    "Event",
    "event_from_dict",
    "frozen",
]


def frozen(value: Any) -> Any:
    """JSON lists as tuples, nested too: the form a frozen dataclass keeps them in.

    >>> frozen([[0, "pass"], [1, "33"]])
    ((0, 'pass'), (1, '33'))
    """
    if isinstance(value, list):
        return tuple(frozen(v) for v in value)
    return value


def _wire(cls: type) -> tuple[str, ...]:
    """The fields of ``cls`` that go on the wire (a ``wire=False`` field stays in the engine)."""
    return tuple(f.name for f in fields(cls) if f.metadata.get("wire", True))


class _Event:
    """The JSON of one event: ``type`` first, then the wire fields in their order."""

    type: ClassVar[str]
    _keys: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _TYPES[cls.type] = cls

    def to_dict(self) -> dict[str, Any]:
        # The fields are numbers, text and flat tuples (SettleEvent has its own): one level to convert.
        data: dict[str, Any] = {"type": self.type}
        for key in self._keys:
            value = getattr(self, key)
            data[key] = list(value) if type(value) is tuple else value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "_Event":
        values = {k: frozen(v) for k, v in data.items() if k != "type"}
        return cls(**values)


_TYPES: dict[str, type[_Event]] = {}


@dataclass(frozen=True)
class Result:
    """How a round ended and what it scored.

    ``points`` by seat (zero-sum); ``multiplier`` is P (classic: bid x 2^n)
    or the duel score; ``breakdown`` lists each factor with its source.
    """

    winner: Literal["landlord", "farmers"]
    landlord: int
    points: list[int]
    multiplier: int
    breakdown: list[dict[str, Any]]
    spring: bool = False
    anti_spring: bool = False
    hands: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "landlord": self.landlord,
            "points": list(self.points),
            "multiplier": self.multiplier,
            "breakdown": [dict(b) for b in self.breakdown],
            "spring": self.spring,
            "anti_spring": self.anti_spring,
            "hands": list(self.hands),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Result":
        return cls(**{k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in data.items()})


@dataclass(frozen=True)
class DealEvent(_Event):
    """Cards were dealt: deal ``deal`` of the round (0 first, one more after each re-deal)."""

    type: ClassVar[str] = "deal"
    deal: int
    first: int
    hand_sizes: tuple[int, ...]
    deal_hash: str | None


@dataclass(frozen=True)
class BidEvent(_Event):
    """A bidding action: ``"pass"``, ``"bid 2"``, ``"call"``, ``"rob"``."""

    type: ClassVar[str] = "bid"
    seat: int
    action: str


@dataclass(frozen=True)
class RedealEvent(_Event):
    """Nobody bid on deal ``deal``: a :class:`DealEvent` with the next number follows."""

    type: ClassVar[str] = "redeal"
    deal: int


@dataclass(frozen=True)
class LandlordEvent(_Event):
    """``seat`` is landlord and takes the bottom; ``bid`` (points bidding) or ``robs`` (call/rob)."""

    type: ClassVar[str] = "landlord"
    seat: int
    bottom: str
    bottom_ids: tuple[int, ...]
    bid: int | None = None
    robs: int | None = None

    def to_dict(self) -> dict[str, Any]:
        # the style's number only: a points landlord has no robs, a call/rob one no bid
        data = super().to_dict()
        for key in ("bid", "robs"):
            if data[key] is None:
                del data[key]
        return data


@dataclass(frozen=True)
class PlayEvent(_Event):
    """``seat`` played ``play`` (notation) of ``kind``, these card ids.

    ``chosen`` (not on the wire) records that the player named the exact
    cards, which a saved game must repeat; otherwise the round picked them.
    """

    type: ClassVar[str] = "play"
    seat: int
    play: str
    kind: str
    cards: tuple[int, ...]
    chosen: bool = field(default=False, compare=False, metadata={"wire": False})

    @property
    def is_doubling(self) -> bool:
        """A bomb or the rocket: it doubles the score (RULES.md §5-§6)."""
        return self.kind in _DOUBLING_KINDS


_DOUBLING_KINDS = frozenset({Kind.BOMB.value, Kind.ROCKET.value})


@dataclass(frozen=True)
class PassEvent(_Event):
    """``seat`` passed in the play."""

    type: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True)
class TrickEvent(_Event):
    """Everyone else passed: the trick is over and ``leader`` leads the next."""

    type: ClassVar[str] = "trick"
    leader: int


@dataclass(frozen=True)
class SettleEvent(_Event):
    """The round is over: its result (flattened into the JSON), every hand at the end and at the
    start, and the deal code, revealed now."""

    type: ClassVar[str] = "settle"
    result: Result
    hand_ids: tuple[tuple[int, ...], ...]
    initial_hands: tuple[str, ...]
    initial_ids: tuple[tuple[int, ...], ...]
    deal_code: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            **self.result.to_dict(),
            "hand_ids": [list(h) for h in self.hand_ids],
            "initial_hands": list(self.initial_hands),
            "initial_ids": [list(h) for h in self.initial_ids],
            "deal_code": self.deal_code,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "SettleEvent":
        result = Result.from_dict({f.name: data[f.name] for f in fields(Result)})
        return cls(result, frozen(data["hand_ids"]), frozen(data["initial_hands"]),
                   frozen(data["initial_ids"]), data["deal_code"])


Event = Union[DealEvent, BidEvent, RedealEvent, LandlordEvent, PlayEvent, PassEvent, TrickEvent, SettleEvent]

for _cls in _TYPES.values():
    _cls._keys = _wire(_cls)  # once per class: to_dict runs for every event of every view


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event whose JSON is ``data`` (the inverse of ``to_dict``).

    >>> event_from_dict({"type": "trick", "leader": 2})
    TrickEvent(leader=2)
    >>> event_from_dict({"type": "shuffle"})
    Traceback (most recent call last):
    ...
    ValueError: unknown event type 'shuffle'
    """
    cls = _TYPES.get(data.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    return cls.from_dict(data)  # type: ignore[return-value]
