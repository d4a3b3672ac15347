"""Seeded rounds of intermediate bots on every seat, decision by decision (for the benchmarks
that look at positions a typical round of the site reaches)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from dizhu import Round  # noqa: E402
from dizhu.bots import create  # noqa: E402


def decisions(variant: str, rounds: int, prefix: str) -> Iterator[tuple[Round, int, dict[str, Any]]]:
    """(round, seat to act, its observation) before every decision of ``rounds`` rounds dealt
    from the seeds ``{prefix}-0``, ``{prefix}-1``...; the bots play on once the caller is done."""
    for n in range(rounds):
        round_ = Round.deal(variant, seed=f"{prefix}-{n}")
        bots = [create("intermediate", variant, seed=(n, s)) for s in range(round_.players)]
        while round_.result is None:
            seat = round_.to_act
            obs = round_.observation(seat)
            yield round_, seat, obs
            round_.apply(seat, bots[seat].decide(obs))
