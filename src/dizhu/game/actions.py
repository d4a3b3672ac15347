"""Actions and their canonical text.

``pass``, ``bid 1``, ``bid 2``, ``bid 3``, ``call``, ``rob`` and
``play <cards>``.  In duel bidding, ``pass`` means "no call" or "no rob".

>>> Action.parse("play 333+444 55")
Action('play 33344455')
>>> str(Action.parse("  BID 2 "))
'bid 2'
>>> Action.parse("play 34")
Traceback (most recent call last):
...
dizhu.InvalidPlay: two cards make a pair only when they have the same rank
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, Hand, NotationError
from ..combos import Combo, classify
from ..errors import IllegalAction

__all__ = ["Action", "PASS", "CALL", "ROB", "BIDS", "ActionLike"]


class Action:
    """One action of one player.

    ``kind`` is ``"pass"``, ``"bid"``, ``"call"``, ``"rob"`` or ``"play"``;
    ``bid`` the value of a bid; ``combo`` the play; ``cards`` the exact cards
    of a play when the player chose them (otherwise the game picks cards of
    the right ranks from the hand).  Actions compare by their text.
    """

    __slots__ = ("kind", "bid", "combo", "cards", "text")

    def __init__(
        self,
        kind: str,
        *,
        bid: int | None = None,
        combo: Combo | None = None,
        cards: tuple[Card, ...] | None = None,
    ) -> None:
        self.kind = kind
        self.bid = bid
        self.combo = combo
        self.cards = cards
        if kind == "bid":
            self.text = f"bid {bid}"
        elif kind == "play":
            self.text = f"play {combo}"
        else:
            self.text = kind

    @classmethod
    def play(cls, cards: "Combo | str | Sequence[Card]", variant: str = "classic") -> "Action":
        """A play action.  Given card objects, exactly those cards are played.

        >>> Action.play("777A").combo.kind.value
        'trio_single'
        """
        if isinstance(cards, Combo):
            return play_action(cards)
        combo = classify(cards, variant)
        if isinstance(cards, str):
            return play_action(combo)
        return cls("play", combo=combo, cards=tuple(Hand.of(list(cards), variant)))

    @classmethod
    def parse(cls, text: "str | Action", variant: str = "classic") -> "Action":
        """Read an action's text form; raises IllegalAction or InvalidPlay."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise IllegalAction("malformed_action", text=repr(text)[:40])
        words = text.strip().lower().split(None, 1)
        if not words:
            raise IllegalAction("malformed_action", text=text[:40])
        head = words[0]
        rest = words[1].strip() if len(words) > 1 else ""
        if head in _SIMPLE and not rest:
            return _SIMPLE[head]
        if head == "bid" and rest in ("1", "2", "3"):
            return BIDS[int(rest)]
        if head == "play" and rest:
            try:
                return cls.play(rest, variant)
            except NotationError:
                raise IllegalAction("malformed_action", text=text[:40]) from None
        raise IllegalAction("malformed_action", text=text[:40])

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Action):
            return other.text == self.text
        if isinstance(other, str):
            return other == self.text
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)


def play_action(combo: Combo) -> Action:
    """The (shared) rank-only play action of a combo."""
    action = combo._action
    if action is None:
        action = combo._action = Action("play", combo=combo)
    return action


PASS = Action("pass")
CALL = Action("call")
ROB = Action("rob")
BIDS = {n: Action("bid", bid=n) for n in (1, 2, 3)}
_SIMPLE = {"pass": PASS, "call": CALL, "rob": ROB}

ActionLike = "Action | str"
