"""Positions the bots' tests share (tests/bots/, test_rollout_native.py): a seat to act at a known
moment of a known deal."""

from test_round_examples import play

from dizhu import DUEL, Round
from dizhu.combos import classify


# Farmer 1 is about to go out: it leads a 9 with one card (a J) left.
STOP_DEAL = dict(
    hands=["33 QQ KK AA 44 66 88 TT 2", "4 5566778899TTJJ 9 J", "33 4 55 77 9 J QQ KK AA 22"],
    bottom="2BR",
    first=0,
)
STOP_SCRIPT = ["0: bid 3", "0: play 3", "1: play 4", "2: pass", "0: pass",
               "1: play 5566778899TTJJ", "2: pass", "0: pass", "1: play 9", "2: pass"]


def bomb_to_win_ctx(opponent_cards: int = 1):
    """Duel: the opponent plays 22 and keeps ``opponent_cards``; the landlord holds 6 7777 TT QQ."""
    from dizhu import parse_cards
    from dizhu.bots.policy import Ctx

    hand = tuple(parse_cards("6 7777 TT QQ").counts)
    played = tuple(parse_cards("22").counts)
    unseen = tuple(d - h - p for d, h, p in zip(DUEL.deck_counts, hand, played))
    return Ctx(hand, 0, 2, 0, [9, opponent_cards], (1, classify("22")), unseen)


def partner_stands_ctx():
    """Classic: farmer 1 plays QQ; the landlord (seat 0, next after seat 2) holds two cards, and
    among the cards seat 2 cannot see only the bomb 3333 beats QQ."""
    from dizhu import parse_cards
    from dizhu.bots.policy import Ctx

    return Ctx(tuple(parse_cards("AA 22 7 8").counts), 2, 3, 0, [2, 10, 6], (1, classify("QQ")),
               tuple(parse_cards("3333 44 5 6 9 T J").counts))


def blunder_position():
    """The landlord holds 44 88 TT JJ AA 22 R and must answer a farmer's lone 6: the
    intermediate policy spends the big joker on it ("fewest plays: 6")."""
    from collections import Counter

    deck = Counter({r: 4 for r in "3456789TJQKA2"})
    deck.update({"B": 1, "R": 1})
    landlord = "3456789" + "4488TTJJAA22R"
    farmer = "56789TJ" + "6" + "3QQKK57B3"
    other = "".join(sorted((deck - Counter(landlord) - Counter(farmer)).elements()))
    r = Round.from_deal("classic", [landlord[:17], farmer, other], bottom=landlord[17:], landlord=0)
    play(r, ["0: play 3456789", "1: play 56789TJ", "2: pass", "0: pass", "1: play 6", "2: pass"])
    return r.observation(0)
