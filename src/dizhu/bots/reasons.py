"""The hint's reasons: message keys with English templates.

A bot's decision carries ``reason`` (a key below) and ``params``; the site
translates the key and fills the parameters.  Parameters named ``card``,
``cards`` or ``play`` hold card notation (``"2"``, ``"33344455"``).
"""

from __future__ import annotations

import re
from typing import Any

HINT_REASONS: dict[str, str] = {
    "finish": "this plays out your hand",
    "fewest_plays": "fewest plays left: {n}",
    "keep_control": "keeps your {card} for control",
    "partner_stand": "lets your partner's play stand",
    "stop_landlord": "stops the landlord, who has {n} cards left",
    "stop_opponent": "stops your opponent, who needs only {n} more cards",
    "no_beat": "no play beats {play}",
    "save_cards": "passing keeps your hand together",
    "feed_partner": "leads low so your partner, with {n} cards left, can go out",
    "bomb_to_win": "the bomb takes the lead and you can go out",
    "bid_strong": "a strong hand: {plays} plays, {controls} control cards",
    "bid_weak": "a weak hand ({plays} plays, {controls} control cards): better as a farmer",
    "rob_strong": "strong enough to rob: the farmer would then win at {handicap} cards",
    "rob_weak": "robbing would let the farmer win at {handicap} cards",
    "search": "won {rate}% of {games} simulated games",
    "control_to_end": "wins this trick, and every later play but the last wins its trick too",
    "stop_last_card": "your opponent holds one card: this keeps it from going out",
    "stop_last_landlord": "the landlord holds one card: this keeps it from going out",
    "reach_line": "takes you to the handicap line: you win holding {n} cards",
    "keep_bomb": "only your bomb {play} could answer: keep it",
    "play_to_line": "heads for the handicap line: {cards} can stay in your hand to the end",
    "bomb_take": "the bomb takes the trick from {play}: the stakes double and you lead next",
    "bomb_beat": "bombs {play}: the stakes double, and only a higher bomb or the rocket can answer",
    "rocket_to_win": "the rocket takes the lead and you can go out",
    "rocket_take": "the rocket takes the trick from {play}: the stakes double and you lead next",
    "keep_rocket": "only your rocket could answer: keep it",
    "take_lead": "no opponent can beat it: you lead next, with {n} plays left",
    "beat_in_plan": "beats {play} with a play your hand needs anyway: {n} plays left after it",
    "shed_plan": "leads one of the plays your hand needs: {n} plays left after it",
    "raise_partner": "raises your partner's {play}: the landlord, next to play, must answer higher or pass",
    "keep_together": "passing keeps your {play} together",
    "hold_back": "passing holds back your {play} for a later trick",
    "contest": "beats {play} rather than let it through, though it breaks up your hand: won {rate}% of {games} simulated games",
    "break_to_beat": "beats {play} rather than let it through, though it breaks up your hand",
}


_ONE = re.compile(r"\b1 (card|play|control card|simulated game|more card)s\b")


def describe(reason: dict[str, Any]) -> str:
    """A reason (``{"key", "params"}``) as an English sentence, its counts singular at one
    (the site's own dictionaries have their plural forms; this is for the terminal).

    >>> describe({"key": "rob_weak", "params": {"handicap": 1}})
    'robbing would let the farmer win at 1 card'
    >>> describe({"key": "bid_strong", "params": {"plays": 1, "controls": 3}})
    'a strong hand: 1 play, 3 control cards'
    """
    return _ONE.sub(r"1 \1", HINT_REASONS[reason["key"]].format(**reason["params"]))
