"""Players the tests seat beside the levels (the package ships none of them)."""

from __future__ import annotations

import random
from typing import Any

from dizhu.bots import create


class StylePlayer:
    """One style of ``dizhu.bots.styles`` at every decision of the play; it bids as intermediate.
    (benchmarks/matchup.py seats it as ``style-NAME``.)"""

    def __init__(self, style: str, variant: str, seed: Any) -> None:
        self._style, self._rng = style, random.Random(repr(seed))
        self._bidder = create("intermediate", variant, seed=repr(seed))

    def decide(self, obs: dict[str, Any]) -> str:
        from dizhu.bots.policy import Ctx
        from dizhu.bots.styles import STYLES
        from dizhu.bots.view import View

        if obs["phase"] == "bidding":
            return self._bidder.decide(obs)
        move = STYLES[self._style](Ctx.of(View.of(obs)), self._rng)
        return "pass" if move is None else f"play {move.text}"
