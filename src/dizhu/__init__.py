"""dizhu: Dou Dizhu (斗地主 / 闘地主 / Fight the Landlord) rules, game and bots.

The rules engine, in brief:

>>> import dizhu
>>> hand = dizhu.parse_cards("333+444 55 TJQKA")
>>> play = dizhu.classify("333+444 55")
>>> play.kind, str(play)
(<Kind.PLANE_SINGLE: 'plane_single'>, '33344455')
>>> dizhu.beats(dizhu.classify("444555+67"), play)
True
>>> [str(m) for m in dizhu.legal_moves(hand, previous="9TJQK")]
['TJQKA']
"""

from .cards import Card, Hand, NotationError, Rank, Suit, format_cards, parse_cards
from .combos import Combo, Kind, beats, classify
from .errors import REASONS, DizhuError, IllegalAction, InvalidPlay
from .game import Action, Match, Result, Round
from .moves import legal_moves
from .solver import Position, Solution, solve
from .variants import CLASSIC, DUEL, Variant, get_variant

__all__ = [
    "Card",
    "Hand",
    "NotationError",
    "Rank",
    "Suit",
    "format_cards",
    "parse_cards",
    "REASONS",
    "DizhuError",
    "IllegalAction",
    "Action",
    "Match",
    "Result",
    "Round",
    "Combo",
    "InvalidPlay",
    "Kind",
    "beats",
    "classify",
    "legal_moves",
    "Position",
    "Solution",
    "solve",
    "CLASSIC",
    "DUEL",
    "Variant",
    "get_variant",
]

__version__ = "0.1.0"
