"""How much super-hard loses by not seeing the cards: an upper bound for its reading of them.

    nice -n 5 python benchmarks/seeing.py --a super-hard-seeing --b rlcard --deals 150 --seed 3 --workers 2

Adds one benchmark-only player to ``benchmarks/matchup.py`` (every other option and player is
matchup's): ``super-hard-seeing`` is super-hard whose every sampled world is the true deal, so
its search knows every hand and still models the other players by their styles.  Comparing it
with ``super-hard`` over the same deals (``--records`` and ``benchmarks/paired.py``) measures
what the hidden cards cost; what is left between it and perfect play is the model of the
other players and the rollouts.

It cheats on purpose, so it lives here only: the arena's rounds hand it the hidden hands
(``_peek``, stripped from every other player's observation), which no real player gets.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from benchmarks import matchup  # noqa: E402
from dizhu.bots import search  # noqa: E402
from dizhu.game.round import Round  # noqa: E402

_observation = Round.observation


def _peeking(self: Round, seat: int) -> dict[str, Any]:
    obs = _observation(self, seat)
    obs["_peek"] = [list(hand.counts) for hand in self.all_hands()]
    return obs


class Seeing:
    """A player whose search's worlds are the true deal (``sample_world`` swapped while it decides)."""

    def __init__(self, player: Any) -> None:
        self._player = player

    def decide(self, obs: dict[str, Any]) -> str:
        hands = obs.pop("_peek")
        sample = search.sample_world
        search.sample_world = lambda view, rng: [list(h) for h in hands]
        try:
            return self._player.decide(obs)
        finally:
            search.sample_world = sample


class _Blind:
    """Any other player: the hidden hands are taken out before it sees the observation."""

    def __init__(self, player: Any) -> None:
        self._player = player

    def decide(self, obs: dict[str, Any]) -> str:
        obs.pop("_peek", None)
        return self._player.decide(obs)


_matchup_make_player = matchup.make_player  # kept: main() swaps in the one below


def _make_player(original, steps: int | None = None):
    inner = _matchup_make_player(original, steps)

    def make(name: str, variant: str, seed: Any, budget: float | None = None):
        if name == "super-hard-seeing":
            return Seeing(inner("super-hard", variant, seed, budget))
        return _Blind(inner(name, variant, seed, budget))

    return make


if __name__ == "__main__":
    Round.observation = _peeking
    matchup.make_player = _make_player
    matchup.EXTRA = matchup.EXTRA + ("super-hard-seeing",)
    matchup.main()
