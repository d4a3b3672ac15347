"""Errors with machine-readable reasons.

Every rejection the library makes is a :class:`DizhuError` (a ``ValueError``)
carrying a stable ``reason`` code, ``params`` for its message, and a message
in plain English.  The site translates by ``reason`` and ``params``, so the
codes and their parameters are part of the public API; :data:`REASONS` lists
them all with their English templates.

>>> err = IllegalAction("too_weak", play="33", previous="44")
>>> err.reason, str(err), err.params
('too_weak', '33 does not beat 44', {'play': '33', 'previous': '44'})
"""

from __future__ import annotations

from typing import Any

__all__ = ["REASONS", "PLAY_REASONS", "DizhuError", "InvalidPlay", "IllegalAction", "NotationError"]

#: Every reason code with its English message template.
REASONS: dict[str, str] = {
    # cards that make no play (InvalidPlay)
    "empty": "no cards were chosen",
    "not_in_deck": "the {variant} deck has no {rank}s",
    "not_a_pair": "two cards make a pair only when they have the same rank",
    "unrelated_cards": "these cards do not make any one play",
    "rocket_not_alone": "the two jokers together are the rocket and are played on their own",
    "both_jokers_as_kickers": "the two jokers cannot both be kickers",
    "chain_two_or_joker": "a chain cannot contain a 2 or a joker",
    "chain_gap": "a chain cannot skip a rank",
    "straight_too_short": "a straight needs at least 5 cards in a row",
    "pair_chain_too_short": "a pair chain needs at least 3 pairs in a row",
    "trio_kicker": "a trio takes one single card or one pair as its kicker",
    "four_split": "four cards of one rank must be played together, as a bomb or with two kickers",
    "four_two_kickers": "four of a rank takes exactly two single cards or two pairs of different ranks",
    "kicker_same_rank": "a kicker cannot have the same rank as the cards it goes with",
    "kicker_rank_limit": "kickers can hold at most two cards of any one rank",
    "plane_kickers_short": "a plane of {trios} trios takes {trios} single kickers or {trios} pairs; {kickers} are too few",
    "plane_kickers_excess": "a plane of {trios} trios takes {trios} single kickers or {trios} pairs; {kickers} are too many",
    "plane_pair_kickers": "a plane with pairs takes exactly one pair per trio, each of a different rank",
}

#: The reasons :class:`InvalidPlay` uses: why cards make no play.
PLAY_REASONS = frozenset(REASONS)

REASONS |= {
    # actions the game refuses (IllegalAction)
    "malformed_action": "cannot read {text!r} as an action",
    "bad_notation": "{detail}",
    "round_over": "the round is over",
    "not_your_turn": "it is seat {to_act}'s turn, not seat {seat}'s",
    "no_such_seat": "there is no seat {seat} in a {players}-player game",
    "not_bidding": "the bidding is over; play cards or pass",
    "still_bidding": "the landlord has not been chosen yet; bid first",
    "not_in_variant": "{action!r} is not part of {variant} bidding",
    "bid_too_low": "a bid must be higher than the current bid of {highest}",
    "nobody_called": "nobody has called the landlord yet: call or pass",
    "already_called": "the landlord has been called: rob or pass",
    "must_lead": "you lead this trick, so you must play",
    "not_in_hand": "you do not hold {cards}",
    "wrong_kind": "{play} cannot answer {previous}: play a {kind} of {size} cards, a bomb or the rocket",
    "too_weak": "{play} does not beat {previous}",
    "unbeatable": "nothing beats {previous}, the rocket: pass",
    "round_in_progress": "the round is still being played",
    "match_over": "the match is over: start a new match",
}


class DizhuError(ValueError):
    """Base of every error with a reason code.  A ``ValueError``."""

    def __init__(self, reason: str, message: str | None = None, **params: Any) -> None:
        if message is None:
            message = REASONS[reason].format(**params)
        super().__init__(message)
        self.reason = reason
        self.params = params

    def to_dict(self) -> dict[str, Any]:
        """``{"reason": ..., "params": ..., "message": ...}``, ready for JSON."""
        return {"reason": self.reason, "params": dict(self.params), "message": str(self)}


class InvalidPlay(DizhuError):
    """Cards that make no legal play (see ``dizhu.classify``)."""


class IllegalAction(DizhuError):
    """An action the game refuses: out of turn, in the wrong phase, too weak..."""


class NotationError(DizhuError):
    """Text or cards that cannot be read as cards from one deck.

    ``symbol`` names the offending symbol when there is one; ``reason`` is
    always ``"bad_notation"``.

    >>> from dizhu import parse_cards
    >>> try:
    ...     parse_cards("3 4 Z")
    ... except NotationError as e:
    ...     print(e.symbol, e.reason, isinstance(e, ValueError))
    Z bad_notation True
    """

    def __init__(self, message: str, *, symbol: str | None = None) -> None:
        super().__init__("bad_notation", message, detail=message)
        self.symbol = symbol


# Public errors show under the package name in tracebacks: dizhu.InvalidPlay.
for _cls in (DizhuError, InvalidPlay, IllegalAction, NotationError):
    _cls.__module__ = "dizhu"
