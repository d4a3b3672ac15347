"""The answer's timing tells nothing of a computer's cards.

A super-hard computer with no possible reply has one legal action and would
answer at once; one that chooses to pass searches first.  Over seeded duel
games, the answer times of forced and chosen passes must be
indistinguishable (AUC near 0.5); with the pace turned off, a bot that
thinks only when it has a choice is seen through, which shows that the test
can tell.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from dizhu.web import Settings
from dizhu.web.botpool import BotRunner

from . import botfuncs
from .support import async_client, auth


class LabellingBots(BotRunner):
    """The real bots, noting for each decision whether it was forced (test only: the
    server itself never looks)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.decisions: dict[str, list[tuple[bool, str]]] = {}

    async def decide(self, level, variant, seed, observation, client="", time_limit=None):
        action, fell_back = await super().decide(level, variant, seed, observation, client, time_limit)
        forced = len(observation["legal_actions"]) == 1
        self.decisions.setdefault(seed, []).append((forced, action))
        return action, fell_back


def auc(positives: list[float], negatives: list[float]) -> float:
    """The chance that a random positive is timed above a random negative (ties count half)."""
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


async def _collect(settings: Settings, passes_wanted: int, games: int, each_at_least: int = 3,
                   **bot_options: Any) -> tuple[list[float], list[float]]:
    bots = LabellingBots(settings.workers, settings.bot_budget, settings.bot_timeout, **bot_options)
    forced_times: list[float] = []
    chosen_times: list[float] = []

    def enough() -> bool:
        # Both kinds seen often enough, not just in total: which passes a game brings depends on
        # the bots' seeds, which are random.
        return (len(forced_times) + len(chosen_times) >= passes_wanted
                and min(len(forced_times), len(chosen_times)) >= each_at_least)

    async with async_client(settings, bots=bots) as c:

        async def one_game(n: int) -> None:
            rng = random.Random(n)
            created = (await c.post("/api/games", json={"variant": "duel", "level": "super-hard",
                                                         "deal_code": f"duel-timing{n}"})).json()
            gid, headers, view = created["game_id"], auth(created["token"]), created["view"]
            seed = f"{(await _bot_seed(c, gid))}:1"
            while not enough():
                obs = view["observation"]
                if obs["phase"] == "over":
                    break
                plays = [a for a in obs["legal_actions"] if a.startswith("play ")]
                action = rng.choice(plays) if plays and obs["phase"] == "playing" else obs["legal_actions"][0]
                before = len(bots.decisions.get(seed, []))
                start = time.perf_counter()
                response = await c.post(f"/api/games/{gid}/act", headers=headers, json={
                    "action": action, "version": view["version"], "request_id": f"t{view['version']}"})
                elapsed = time.perf_counter() - start
                assert response.status_code == 200, response.text
                view = response.json()
                made = bots.decisions.get(seed, [])[before:]
                if obs["phase"] == "playing" and len(made) == 1 and made[0][1] == "pass":
                    (forced_times if made[0][0] else chosen_times).append(elapsed)

        n = 0
        while not enough() and n < 90:
            await asyncio.gather(*(one_game(n + k) for k in range(games)))
            n += games
    return forced_times, chosen_times


async def _bot_seed(c, game_id: str) -> str:
    record = await c.app.state.service.store.load(game_id)
    return record.bot_seed


def test_forced_and_chosen_passes_take_the_same_time(tmp_path):
    # The pace and the search budget scaled down together (a third of the real ones) to keep
    # the suite short; benchmarks/timing.py measures the real ones against `dizhu serve`.
    # Six games at once from one address is a greedy client: no share limit here (test_fairness),
    # nor a limit on new games (how many it takes depends on the bots' seeds).
    settings = Settings(data_dir=tmp_path / "paced", workers=2, pace=0.35, bot_budget=0.03, client_thinking=8,
                        think_share=0, create_per_minute=0)
    # ~120 passes: over 40 (the minimum) the AUC of two identical distributions still
    # strays past 0.35-0.65 about one run in eight (its standard error is ~0.1); over 120 it is
    # ~0.06, and a real leak (the unpaced control below) is far outside the window.
    forced, chosen = asyncio.run(_collect(settings, passes_wanted=120, games=6, each_at_least=25))
    assert len(forced) + len(chosen) >= 100 and len(forced) >= 25 and len(chosen) >= 25, (len(forced), len(chosen))
    score = auc(chosen, forced)
    print(f"paced: AUC {score:.3f} over {len(forced)} forced and {len(chosen)} chosen passes; "
          f"max answer {max(forced + chosen):.3f} s")
    assert 0.35 <= score <= 0.65, score
    # The pace keeps answers inside its window, most of them: a loaded machine (seen: load
    # average 14 on 2 cores) makes a tenth overrun it, forced and chosen passes alike, which tells
    # nothing of the cards (the AUC above is the test of that).
    everything = sorted(forced + chosen)
    assert everything[len(everything) // 2] < 0.35 * 1.5, everything[-5:]


def test_without_the_pace_the_passes_are_told_apart(tmp_path):
    """The control: with the pace off, the same measurement sees a bot that thinks only when it
    has a choice (a stand-in for the search, quick enough for the suite)."""
    settings = Settings(data_dir=tmp_path / "unpaced", workers=1, pace=0, create_per_minute=0)
    forced, chosen = asyncio.run(_collect(settings, passes_wanted=14, games=1, each_at_least=5,
                                         decide_fn=botfuncs.leaky_decide))
    assert len(forced) >= 5 and len(chosen) >= 5, (len(forced), len(chosen))
    assert auc(chosen, forced) > 0.85
