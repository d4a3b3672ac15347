"""Standard environments for reinforcement learning (the ``dizhu[rl]`` extra).

- :class:`DizhuEnv` (:mod:`dizhu.env.aec`): PettingZoo's AEC API, every seat an agent;
- :class:`SeatEnv` (:mod:`dizhu.env.seat`): Gymnasium's API, one seat learns and
  dizhu bots of a chosen level play the others;
- :mod:`dizhu.env.encoding`: the action enumeration and the observation vector,
  the one place that defines them (docs/ENV.md says the same in prose).

Both environments serve the classic and the duel variant.
"""

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as error:  # pragma: no cover - only without the extra
    raise ImportError(
        f"dizhu.env needs the rl extra ({error.name} is missing): pip install 'dizhu[rl]'"
    ) from error

from .aec import DizhuEnv, env, raw_env
from .encoding import ActionSpace, Layout, Table
from .seat import SeatEnv

# gymnasium.make("dizhu/Seat-v0", variant="duel", opponents="super-hard") builds a SeatEnv
if "dizhu/Seat-v0" not in gymnasium.registry:
    gymnasium.register(id="dizhu/Seat-v0", entry_point="dizhu.env.seat:SeatEnv")

__all__ = ["DizhuEnv", "SeatEnv", "env", "raw_env", "ActionSpace", "Layout", "Table"]
