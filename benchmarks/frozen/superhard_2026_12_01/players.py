"""The frozen super-hard player: ``decide(observation) -> action text``."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from .bidding import decide_bid
from .search import search_move
from .view import View

__all__ = ["FrozenSuperHard"]


class FrozenSuperHard:
    """Super-hard as it played on 2026-12-01 (bidding and play), seeded like the live bots."""

    def __init__(self, seed: Any = None, budget: float | None = None) -> None:
        self.seed = seed
        self.budget = budget

    def decide(self, observation: dict[str, Any]) -> str:
        material = repr((self.seed, observation["hand"], observation["history"], observation["bids"],
                         observation["to_act"], observation["phase"])).encode()
        rng = random.Random(int.from_bytes(hashlib.sha256(material).digest()[:8], "big"))
        view = View.of(observation)
        if view.phase == "bidding":
            return decide_bid(view, "super-hard", rng).action
        return search_move(view, rng, self.budget).action
