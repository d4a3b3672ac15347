"""Environment steps per second with random agents: dizhu vs RLCard and DouZero, one process.

    python benchmarks/env.py [--steps 20000] [--repeats 3]

A step is one agent's decision: read its observation (the encoded vector and
the legal actions: for dizhu, the mask and the info's list of its indices),
pick uniformly among the legal actions, apply it.  Each
measurement plays whole rounds until ``--steps`` steps are done (new deals as
needed) and the median of the repeats is printed; the repeats of the engines take turns.

- dizhu ``DizhuEnv`` (the PettingZoo AEC environment, unwrapped): classic
  with the DouZero protocol (no bidding), classic with the bidding, duel;
  and classic through PettingZoo's usual wrappers (``dizhu.env.env``);
- RLCard 1.2.0's ``doudizhu`` environment (its state carries the encoded
  observation and the legal actions);
- DouZero 1.1.0: its RL ``Env`` (``get_obs`` encodes the observation) and
  its bare ``GameEnv`` driven by the bundled ``RandomAgent`` (no encoding).

The other engines are optional (they are not dependencies of dizhu):

    pip install numpy termcolor && pip install --no-deps rlcard==1.2.0 douzero==1.1.0
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np  # noqa: E402

from dizhu.env import DizhuEnv, env as wrapped_env  # noqa: E402
from douzero_peer import random_table  # noqa: E402


def dizhu_steps(steps: int, seed: int, variant: str = "classic", bidding: bool = False,
                wrapped: bool = False) -> float:
    env = wrapped_env(variant, bidding=bidding) if wrapped else DizhuEnv(variant, bidding=bidding)
    rng = random.Random(seed)
    done = 0
    env.reset(seed=seed)
    start = time.perf_counter()
    while done < steps:
        env.reset()
        for agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(info["legal_actions"]))
            done += 1
    return done / (time.perf_counter() - start)


def rlcard_steps(steps: int, seed: int) -> float | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("doudizhu", config={"seed": seed})
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            done += 1
    return done / (time.perf_counter() - start)


def douzero_env_steps(steps: int, seed: int) -> float | None:
    try:
        from douzero.env.env import Env
    except ImportError:
        return None
    np.random.seed(seed)
    rng = random.Random(seed)
    env = Env("adp")
    done = 0
    start = time.perf_counter()
    while done < steps:
        obs = env.reset()
        finished = False
        while not finished:
            obs, _, finished, _ = env.step(rng.choice(obs["legal_actions"]))
            done += 1
    return done / (time.perf_counter() - start)


def douzero_game_steps(steps: int, seed: int) -> float | None:
    table = random_table(seed)
    if table is None:
        return None
    env, deal = table
    done = 0
    start = time.perf_counter()
    while done < steps:
        deal()
        while not env.game_over:
            env.step()
            done += 1
        env.reset()
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    DizhuEnv("classic")  # the action table is built once per process, like any engine's tables

    cases = [
        ("dizhu DizhuEnv classic, DouZero protocol", dizhu_steps, {}),
        ("dizhu DizhuEnv classic, with bidding", dizhu_steps, {"bidding": True}),
        ("dizhu DizhuEnv duel, with call/rob", dizhu_steps, {"variant": "duel", "bidding": True}),
        ("dizhu env() (PettingZoo wrappers), classic", dizhu_steps, {"wrapped": True}),
        ("RLCard 1.2.0 doudizhu env", rlcard_steps, {}),
        ("DouZero 1.1.0 Env (get_obs encoding)", douzero_env_steps, {}),
        ("DouZero 1.1.0 GameEnv + RandomAgent (no encoding)", douzero_game_steps, {}),
    ]
    # the repeats take turns, so a change in the machine's load touches every engine alike
    values: list[list[float | None]] = [[] for _ in cases]
    for k in range(args.repeats):
        for i, (_, fn, options) in enumerate(cases):
            values[i].append(fn(args.steps, 100 + k, **options))
    rows = [(name, None if v[0] is None else statistics.median(v)) for (name, _, _), v in zip(cases, values)]
    print(f"{args.steps} steps per measurement, median of {args.repeats}, one process, random agents")
    for name, rate in rows:
        print(f"{name:<52} {'not installed' if rate is None else f'{rate:9.0f} steps/s'}")
    ours = rows[0][1]
    for name, rate in rows[4:]:
        if rate:
            print(f"dizhu (DouZero protocol) vs {name}: {ours / rate:.2f}x")


if __name__ == "__main__":
    main()
