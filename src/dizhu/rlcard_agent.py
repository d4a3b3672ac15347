"""dizhu's bots as RLCard agents, for RLCard's own Dou Dizhu environment.

RLCard (``pip install rlcard``, tested with 1.2.0) plays the DouZero
protocol: no bidding, player 0 is the landlord with 20 cards.  An
:class:`RLCardAgent` reads only the public part of RLCard's state and its
own hand (never ``others_hand``), turns it into a dizhu observation and asks
a dizhu bot, then answers with one of RLCard's legal actions::

    import rlcard
    from rlcard.agents import RandomAgent
    from dizhu.rlcard_agent import RLCardAgent

    env = rlcard.make("doudizhu", config={"seed": 1})
    env.set_agents([RLCardAgent("super-hard"), RandomAgent(env.num_actions), RandomAgent(env.num_actions)])
    trajectories, payoffs = env.run(is_training=False)

The conversion needs nothing from RLCard itself:

>>> state = {"raw_obs": {"self": 1, "landlord": 0, "current_hand": "3345567TTJQKA22BR", "seen_cards": "5KA",
...          "trace": [(0, "8")], "played_cards": ["8", "", ""], "num_cards_left": [19, 17, 17],
...          "actions": ["pass", "T", "J", "Q", "K", "A", "2", "B", "R", "BR"]}}
>>> obs = observation_from_rlcard(state["raw_obs"])
>>> obs["trick"]["last"], obs["legal_actions"][:3], obs["cards_left"]
([0, '8'], ['pass', 'play T', 'play J'], [19, 17, 17])
>>> RLCardAgent("intermediate", seed=1).eval_step(state)[0] in state["raw_obs"]["actions"]
True
"""

from __future__ import annotations

from typing import Any

from .bots import create
from .cards import NUM_RANKS, format_counts, parse_cards
from .combos import classify
from .errors import DizhuError

__all__ = ["RLCardAgent", "observation_from_rlcard"]


def _canonical(rlcard_action: str) -> str | None:
    """dizhu's action text for an RLCard action string, or None if dizhu has no such play."""
    if rlcard_action == "pass":
        return "pass"
    try:
        return "play " + classify(rlcard_action).text
    except DizhuError:
        return None


def _add(total: list[int], text: str) -> None:
    for rank, n in enumerate(parse_cards(text).counts):
        total[rank] += n


def observation_from_rlcard(raw: dict[str, Any]) -> dict[str, Any]:
    """A dizhu observation (as ``Round.observation``) from RLCard's ``raw_obs``.

    Only the seat's own hand and public facts are read.  RLCard's
    ``seen_cards`` are the bottom cards the landlord still holds (RLCard
    drops them as they are played); the observation's bottom is chosen so
    that the bots derive exactly those.
    """
    seat, landlord = raw["self"], raw["landlord"]
    history: list[list[Any]] = []
    played = [0] * NUM_RANKS
    landlord_played = [0] * NUM_RANKS
    plays_made = [0, 0, 0]
    bombs = rockets = 0
    last = None
    passes = 0
    for who, action in raw["trace"]:
        if action == "pass":
            history.append([who, "pass"])
            passes += 1
            if passes == 2:  # two passes hand the lead back: a new trick
                last, passes = None, 0
            continue
        combo = classify(action)
        history.append([who, combo.text])
        _add(played, action)
        if who == landlord:
            _add(landlord_played, action)
        plays_made[who] += 1
        bombs += combo.kind.value == "bomb"
        rockets += combo.kind.value == "rocket"
        last, passes = [who, combo.text], 0
    held = parse_cards(raw["seen_cards"]).counts if raw["seen_cards"] else (0,) * NUM_RANKS
    bottom = [held[r] + landlord_played[r] for r in range(NUM_RANKS)]
    legal = [text for text in map(_canonical, raw["actions"]) if text is not None]
    if last is None:  # leading: RLCard lists no pass then, and neither do we
        legal = [text for text in legal if text != "pass"]
    total = 1 << (bombs + rockets)
    return {
        "variant": "classic",
        "seat": seat,
        "players": 3,
        "phase": "playing",
        "to_act": seat,
        "hand": raw["current_hand"],
        "hand_ids": [],
        "cards_left": list(raw["num_cards_left"]),
        "first": landlord,
        "bids": [],
        "landlord": landlord,
        "bottom": format_counts(bottom),
        "bottom_ids": [],
        "history": history,
        "played": format_counts(played),
        "trick": {"last": last, "passes": passes},
        "plays_made": plays_made,
        "multiplier": {"base": 1, "robs": None, "bombs": bombs, "rockets": rockets, "total": total},
        "handicap": None,
        "deal_hash": None,
        "legal_actions": legal,
        "result": None,
        "deal_code": None,
    }


class RLCardAgent:
    """An RLCard agent backed by a dizhu bot (``normal``, ``intermediate`` or ``super-hard``).

    It answers with RLCard's raw action strings (``use_raw = True``), so
    RLCard's ``env.run`` and ``env.step`` take them as they are.
    """

    use_raw = True

    def __init__(self, level: str = "intermediate", seed: int | str | None = 0,
                 budget: float | None = None) -> None:
        self.level = level
        self.bot = create(level, "classic", seed=seed, budget=budget)

    def step(self, state: dict[str, Any]) -> str:
        """RLCard's training-time call: the same decision as :meth:`eval_step`."""
        return self.eval_step(state)[0]

    def eval_step(self, state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        raw = state["raw_obs"]
        observation = observation_from_rlcard(raw)
        by_text = {_canonical(a): a for a in raw["actions"]}
        if not observation["legal_actions"]:  # no play dizhu knows: take RLCard's first
            return raw["actions"][0], {"level": self.level, "fallback": True}
        choice = self.bot.decide(observation)
        return by_text[choice], {"level": self.level, "action": choice}
