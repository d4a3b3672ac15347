"""dizhu's bots as agents inside RLCard's own Dou Dizhu environment."""

from __future__ import annotations

import rlcard
from rlcard.agents import RandomAgent

from dizhu.rlcard_agent import RLCardAgent, observation_from_rlcard


class Blindfolded:
    """Passes the agent RLCard's state without the other hands, and records every answer."""

    def __init__(self, agent: RLCardAgent) -> None:
        self.agent = agent
        self.use_raw = True
        self.answers: list[tuple[str, list[str], dict]] = []

    def eval_step(self, state):
        raw = dict(state["raw_obs"])
        del raw["others_hand"]  # the agent must not need it
        action, info = self.agent.eval_step({**state, "raw_obs": raw})
        self.answers.append((action, list(raw["actions"]), info))
        return action, info


def _play(env, agents, games):
    payoffs = []
    for _ in range(games):
        env.set_agents(agents)
        _, p = env.run(is_training=False)
        payoffs.append(list(p))
    return payoffs


def test_bots_play_legally_in_rlcards_env_and_beat_random_agents():
    env = rlcard.make("doudizhu", config={"seed": 3})
    random_agent = RandomAgent(env.num_actions)
    landlord = Blindfolded(RLCardAgent("intermediate", seed=1))
    as_landlord = _play(env, [landlord, random_agent, random_agent], 25)
    farmers = [Blindfolded(RLCardAgent("normal", seed=2)), Blindfolded(RLCardAgent("intermediate", seed=3))]
    as_farmers = _play(env, [random_agent, *farmers], 25)
    for agent in [landlord, *farmers]:
        assert agent.answers
        for action, legal, info in agent.answers:
            assert action in legal and not info.get("fallback")
    assert sum(p[0] > 0 for p in as_landlord) >= 17
    assert sum(p[1] > 0 for p in as_farmers) >= 17


def test_observation_follows_tricks_and_the_bottom():
    raw = {"self": 2, "landlord": 0, "current_hand": "3344567TTJQKA22", "seen_cards": "K",
           "trace": [(0, "KKK5"), (1, "pass"), (2, "pass"), (0, "9"), (1, "J")],
           "played_cards": ["KKK59", "J", ""], "num_cards_left": [15, 16, 17],
           "actions": ["pass", "Q", "A", "2"]}
    obs = observation_from_rlcard(raw)
    assert obs["trick"] == {"last": [1, "J"], "passes": 0}
    assert obs["history"][0] == [0, "5KKK"] and obs["plays_made"] == [2, 1, 0]
    assert obs["legal_actions"] == ["pass", "play Q", "play A", "play 2"]
    # RLCard still shows one K of the bottom: the landlord is known to hold it
    from dizhu.bots.view import View

    assert View.of(obs).bottom_left[10] == 1
    leading = observation_from_rlcard({**raw, "trace": raw["trace"][:3], "actions": ["3", "pass"]})
    assert leading["trick"]["last"] is None and leading["legal_actions"] == ["play 3"]
