"""How long a computer's decision appears to take, from public facts only.

A bot's thinking time depends on its cards: a computer that cannot beat a
play has one legal action and answers at once, one that chooses to pass has
weighed several.  Timing an answer would tell a player what is in a hidden
hand.  So the server never lets the thinking time show: every decision is
held to a pace drawn from the level and a jitter, forced moves included.
The decisions of one computers' turn share one deadline, so a decision that
overran its pace is absorbed by the ones after it.

The jitter is keyed by a secret of the server's (``key``) over facts of the
decision (the game, its version, the seat, the number of events so far): the
same decision gets the same pace, and no client can compute it, so none can
subtract it from an answer's time to see past the pace.

>>> pace = DecisionPace.for_level("super-hard")
>>> pace.low <= pace.seconds(b"key", "game", 3, 1, 17) <= pace.high
True
>>> pace.seconds(b"key", "game", 3, 1, 17) == pace.seconds(b"key", "game", 3, 1, 17)
True
>>> pace.seconds(b"key", "game", 3, 1, 17) == pace.seconds(b"other key", "game", 3, 1, 17)
False
>>> DecisionPace.for_level("normal").scaled(0).seconds(b"key", "game", 3, 1, 17)
0.0
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

__all__ = ["DecisionPace", "PACES"]


@dataclass(frozen=True)
class DecisionPace:
    """A computer decision is shown after ``low``..``high`` seconds (a public jitter between)."""

    low: float
    high: float

    @classmethod
    def for_level(cls, level: str) -> "DecisionPace":
        return PACES[level]

    def scaled(self, factor: float) -> "DecisionPace":
        return DecisionPace(self.low * factor, self.high * factor)

    @property
    def think_limit(self) -> float | None:
        """The wall-clock cap on a bot's thinking that keeps it inside the pace
        (a safety net for a loaded machine; None when there is no pace)."""
        return 0.6 * self.low if self.low > 0 else None

    def seconds(self, key: bytes, game_id: str, version: int, seat: int, events: int) -> float:
        """The pace of one decision: ``low`` to ``high``, by an HMAC under ``key``."""
        digest = hmac.digest(key, f"{game_id}:{version}:{seat}:{events}".encode(), "sha256")
        fraction = int.from_bytes(digest[:8], "big") / 2**64
        return self.low + fraction * (self.high - self.low)


#: Each pace lies above nearly every decision of its level on a loaded server, and at most 1 s.
#: Normal and intermediate take 0.3 ms at the 95th percentile; super-hard's slowest, the duel's
#: (it looks ahead to its next move), 0.59 s of CPU at the 95th percentile on a machine five times
#: slower than usual (`benchmarks/bots.py --cpu`), and its search is cut inside the pace anyway
#: (:attr:`DecisionPace.think_limit`, 0.48 s).  docs/DECISIONS.md has the measurements.
PACES: dict[str, DecisionPace] = {
    "normal": DecisionPace(0.008, 0.016),
    "intermediate": DecisionPace(0.008, 0.016),
    "super-hard": DecisionPace(0.8, 1.0),
}
