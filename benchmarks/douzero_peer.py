"""DouZero's own engine as the peer of the speed benchmarks (``rounds.py``, ``env.py``).

Its bare ``GameEnv`` with the bundled ``RandomAgent`` in all three seats, dealt as DouZero deals:
the landlord gets the first 20 cards of a shuffled deck, the bottom being the last three of those.
Needs ``pip install numpy termcolor && pip install --no-deps douzero==1.1.0``.
"""

from __future__ import annotations

import random
from typing import Any, Callable


def random_table(seed: int) -> tuple[Any, Callable[[], None]] | None:
    """DouZero's ``GameEnv`` and a function that starts it on a fresh deal; None without DouZero."""
    try:
        from douzero.env.game import GameEnv
        from douzero.evaluation.random_agent import RandomAgent
    except ImportError:
        return None
    random.seed(seed)  # RandomAgent draws from the module's generator
    env = GameEnv({pos: RandomAgent() for pos in ("landlord", "landlord_up", "landlord_down")})
    deck = [r for r in range(3, 15) for _ in range(4)] + [17] * 4 + [20, 30]

    def deal() -> None:
        random.shuffle(deck)
        env.card_play_init({"landlord": sorted(deck[:20]), "landlord_up": sorted(deck[20:37]),
                            "landlord_down": sorted(deck[37:54]), "three_landlord_cards": sorted(deck[17:20])})

    return env, deal
