"""Super-hard: search over sampled hidden cards (placeholder until the search lands)."""

from __future__ import annotations

import random

from .policy import Ctx, Decision, intermediate_move
from .view import View


def search_move(view: View, rng: random.Random, budget: float | None) -> Decision:
    combo, reason, params = intermediate_move(Ctx.of(view))
    return Decision("pass" if combo is None else f"play {combo.text}", reason, params)
