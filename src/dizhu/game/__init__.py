"""The game engine: rounds, bidding, scoring, matches and the player interface."""

from .actions import BIDS, CALL, PASS, ROB, Action
from .deal import commitment, deal_cards, new_deal_code
from .events import Event, event_from_dict
from .match import Match
from .observation import Observation
from .players import Player, RandomPlayer, play_round
from .round import Result, Round

__all__ = [
    "Action",
    "BIDS",
    "CALL",
    "PASS",
    "ROB",
    "Event",
    "event_from_dict",
    "Match",
    "Observation",
    "Player",
    "RandomPlayer",
    "play_round",
    "Result",
    "Round",
    "commitment",
    "deal_cards",
    "new_deal_code",
]
