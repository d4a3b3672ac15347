"""Any two players in the arena, including ones that exist for benchmarks only.

    nice -n 10 python benchmarks/matchup.py --a super-hard --b frozen-super-hard --variant classic --deals 100
    nice -n 10 python benchmarks/matchup.py --a super-hard --b rlcard --deals 300
    nice -n 10 python benchmarks/matchup.py --a super-hard --b outsider --variant duel --deals 200
    nice -n 10 python benchmarks/matchup.py --a super-hard-plain --b frozen-super-hard --steps 4400 --deals 40

Besides the arena's players (``dizhu arena --help``), ``--a``/``--b`` take:

- ``frozen-super-hard``: super-hard as of 2026-12-01 (the git tag ``frozen-superhard-2026-12-01``,
  checked out into a temporary worktree by ``benchmarks/frozen.py``);
- ``rlcard``: DouZero's bundled RLCard rule agent (classic only; see benchmarks/vs_public.py);
- ``super-hard-full``, ``super-hard-nomix``, ``super-hard-noread``, ``super-hard-plain``,
  ``super-hard-norace``, ``super-hard-lean``, ``super-hard-notable``, ``super-hard-wp*``,
  ``super-hard-wide``, ``super-hard-narrow``, ``super-hard-recent10``, ``super-hard-recentall``, ``super-hard-exact*``,
  ``super-hard-sharp``, ``super-hard-deep``, ``super-hard-told``, ``super-hard-told1``, ``super-hard-oldread``,
  ``super-hard-sir1``, ``super-hard-sharper``, ``super-hard-own*``, ``super-hard-nolook``, ``super-hard-look*``: the
  super-hard search with one part of it on or off, to find what it is worth (same budget and seeds; ``dizhu.bots.search.SearchConfig``): ``full`` reads every other seat
  against the style mixture ``styles.PRIOR`` and weighs the worlds by it; ``nomix`` reads every
  seat as intermediate only (worlds weighed, no style mixture); ``noread`` weighs every world
  alike and draws styles from the prior; ``plain`` neither (every seat rolled out as
  intermediate in uniform worlds, as the frozen copy does); ``norace`` plays every candidate out in
  every world, as the frozen copy does, instead of racing the shortlist (``SearchConfig.race``);
  ``lean`` reads against a prior that leans harder on intermediate (0.7, the other styles 0.075
  each; super-hard's ``styles.PRIOR`` is 0.4 and 0.15); ``notable`` does not read the earlier
  rounds at the table (``SearchConfig.table``; with ``--series`` they exist); ``wp25``, ``wp50``,
  ``wp90``, ``wp100`` rank moves by a blend of the chance to win and the points (``SearchConfig.win_weight``
  0.25, 0.5, 0.9, 1; super-hard's is 0, points alone); ``wide`` searches a longer shortlist (every lead
  up to 40, else the split's plays and every single and pair; every reply up to 30 choices:
  ``SearchConfig.all_leads``, ``small_leads``, ``all_replies``); ``recent10`` (``recentall``) reads each other
  seat's latest 10 decisions (all of them) instead of 5 (``SearchConfig.recent``); ``exact15`` solves a world
  exactly from 15 cards left in all hands together instead of 9 (``SearchConfig.exact_cards``);
  ``sharp`` reads with likelihoods 0.9 and 0.1 in both variants (``SearchConfig.hit``, ``miss``;
  classic's are 0.8 and 0.25, the duel's 0.9 and 0.1: a world one style fails to explain weighs
  less); ``deep`` stops at 4,000 worlds instead of
  1,000 (``SearchConfig.max_worlds``), for runs with a longer ``--budget``; ``told`` is
  *told* that every other seat plays exactly as intermediate (prior intermediate alone, likelihoods
  0.999 and 0.001, the earlier rounds of a ``--series`` not read): against intermediate, the most any reading of the hidden cards from the
  other seats' play can give, since it is the true model; never a player for the site; ``told1``
  the same with every sampled world played out (``SearchConfig.resample`` 1: so sharp a reading
  then leaves a handful of worlds that count, as ``told`` did before resampling); ``oldread`` reads the duel as
  classic does (likelihoods 0.8 and 0.25, no resampling: the duel's super-hard before eccad68); ``sir1``
  keeps the duel's likelihoods (0.9 and 0.1) without resampling; ``sharper`` reads with 0.95 and
  0.05 every decision of the round (``SearchConfig.recent`` 100) in both variants; ``narrow``
  searches a shorter shortlist (every lead up to 8 choices, else the split's plays and 2 singles
  or pairs; every reply up to 6);
  ``owngreedy``, ``owncautious``, ``ownbombs``, ``ownintermediate`` play the bot's own later moves
  in the play search's rollouts by that library style in both variants, instead of intermediate in
  classic and the distilled policy in duel (``SearchConfig.own``; the bid search
  still plays its deals out as intermediate); ``nolook`` plays the bot's next move by the rule
  policy, as super-hard did before the duel looked ahead, rather than looking ahead to it
  (``SearchConfig.lookahead`` 0; in duel super-hard weighs 4 moves there, grouping the worlds it
  cannot tell apart by then); ``look2``, ``look8`` weigh 2 (8) moves there; ``lookall`` looks ahead
  in classic too (``SearchConfig.lookahead_in``);
- ``super-hard-served``: super-hard as the site serves it, its search cut at the wall-clock cap the
  site sets inside its pace (``pacing.PACES["super-hard"].think_limit``, 0.48 s); the arena runs
  super-hard without it to stay reproducible, so this player's results depend on the machine's
  speed and load: give each game a core of its own (no more processes than cores), pair it with
  super-hard's records on the same deals (``benchmarks/paired.py``), and quote the machine's speed
  beside it;
- ``intermediate-noline``: intermediate whose duel farmer plans its whole hand, as before
  it learnt to keep its worst cards for the handicap line (``policy.Style.to_the_line`` off);
- ``style-greedy``, ``style-cautious``, ``style-bombs``: one style of the bots' own opponent
  library (``dizhu.bots.styles``) at every decision of the play, bidding as intermediate: to see
  whether super-hard finds a player that plays like a style it knows (``--series``);
- ``outsider``: a style that is deliberately *not* in the bots' opponent library, to check that
  super-hard is not tuned to the opponents it models: it leads the play of its legal actions
  with the most cards (lowest first among equals), answers an opponent with its *highest*
  ordinary reply (never a bomb, unless that opponent holds 2 cards or fewer), and never
  answers its partner.  It bids like intermediate.

Same protocol and summary as ``dizhu arena`` (DouZero protocol unless ``--bidding``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from dizhu import arena  # noqa: E402
from dizhu.bots.reading import HIT, MISS  # noqa: E402
from dizhu.bots.search import SUPER_HARD, SearchConfig  # noqa: E402
from dizhu.combos import classify  # noqa: E402

#: Benchmark-only super-hard variants: player name -> how it models the other seats.
ABLATIONS = {
    "super-hard-full": {},
    "super-hard-nomix": {"prior": {"intermediate": 1.0}},
    "super-hard-noread": {"read": False},
    "super-hard-plain": {"prior": {"intermediate": 1.0}, "read": False},
    "super-hard-norace": {"race": False},
    "super-hard-lean": {"prior": {"intermediate": 0.7, "normal": 0.075, "greedy": 0.075, "cautious": 0.075,
                                  "bombs": 0.075}},
    "super-hard-notable": {"table": False},
    "super-hard-wp25": {"win_weight": 0.25},
    "super-hard-wp50": {"win_weight": 0.5},
    "super-hard-wp90": {"win_weight": 0.9},
    "super-hard-wp100": {"win_weight": 1.0},
    "super-hard-wide": {"all_leads": 40, "small_leads": 30, "all_replies": 30},
    "super-hard-narrow": {"all_leads": 8, "small_leads": 2, "all_replies": 6},
    "super-hard-recent10": {"recent": 10},
    "super-hard-recentall": {"recent": 100},
    "super-hard-exact15": {"exact_cards": 15},
    "super-hard-exact5": {"exact_cards": 5},
    "super-hard-exact0": {"exact_cards": 0},
    "super-hard-sharp": {"hit": 0.9, "miss": 0.1},
    "super-hard-deep": {"max_worlds": 4000},
    "super-hard-modelbid": {"bid_search": ()},
    "super-hard-bidpoints": {"bid_search": ("classic", "duel"), "bid_stake_power": 1.0},
    "super-hard-bidwin": {"bid_search": ("classic", "duel"), "bid_stake_power": 0.0},
    "super-hard-bidsqrt": {"bid_search": ("classic", "duel"), "bid_stake_power": 0.5},
    "super-hard-bidcbrt": {"bid_search": ("classic", "duel"), "bid_stake_power": 0.33},
    "super-hard-owngreedy": {"own": "greedy"},
    "super-hard-owncautious": {"own": "cautious"},
    "super-hard-ownbombs": {"own": "bombs"},
    "super-hard-ownintermediate": {"own": "intermediate"},
    "super-hard-owndistilled": {"own": "distilled"},
    "super-hard-nolook": {"lookahead": 0},
    "super-hard-lookall": {"lookahead_in": ("classic", "duel")},
    "super-hard-look2": {"lookahead": 2},
    "super-hard-look8": {"lookahead": 8},
    "super-hard-lookz2": {"lookahead_z": 2.0},
    "super-hard-lookz05": {"lookahead_z": 0.5},
    "super-hard-ownfirst": {"lookahead_first": "own"},
    "super-hard-told": {"prior": {"intermediate": 1.0}, "hit": 0.999, "miss": 0.001, "table": False},
    "super-hard-told1": {"prior": {"intermediate": 1.0}, "hit": 0.999, "miss": 0.001, "table": False,
                         "resample": 1},
    "super-hard-oldread": {"hit": HIT, "miss": MISS, "resample": 1},
    "super-hard-sir1": {"resample": 1},
    "super-hard-sharper": {"hit": 0.95, "miss": 0.05, "recent": 100},
}
#: Benchmark-only players that play one style of the bots' opponent library (bidding as intermediate).
STYLE_PLAYERS = ("style-greedy", "style-cautious", "style-bombs")
EXTRA = ("frozen-super-hard", "rlcard", "outsider", "super-hard-served", "intermediate-noline", *STYLE_PLAYERS, *ABLATIONS)


class Outsider:
    """The benchmark-only style described in the module docstring (reads only its observation)."""

    def __init__(self, variant: str, seed: Any) -> None:
        from dizhu.bots import create

        self._bidder = create("intermediate", variant, seed=repr(seed))

    def decide(self, obs: dict[str, Any]) -> str:
        if obs["phase"] == "bidding":
            return self._bidder.decide(obs)
        plays = [(classify(a[5:]), a) for a in obs["legal_actions"] if a != "pass"]
        last = obs["trick"]["last"]
        if last is None:
            return min(plays, key=lambda p: (-p[0].size, p[0].main))[1]
        landlord, seat = obs["landlord"], obs["seat"]
        if (last[0] == landlord) == (seat == landlord):
            return "pass"  # the partner's play stands
        ordinary = [p for p in plays if not p[0].is_bomb]
        if ordinary:
            return max(ordinary, key=lambda p: p[0].main)[1]
        if plays and obs["cards_left"][last[0]] <= 2:
            return min(plays, key=lambda p: p[0].main)[1]
        return "pass"


class StyledIntermediate:
    """Intermediate with other thresholds (a ``policy.Style``) in the play; it bids as intermediate.
    ``intermediate-noline`` is ``Style(to_the_line=False)``; benchmarks/thresholds.py screens more."""

    def __init__(self, style: Any, variant: str, seed: Any) -> None:
        from dizhu.bots import create

        self._style = style
        self._bot = create("intermediate", variant, seed=repr(seed))

    def decide(self, obs: dict[str, Any]) -> str:
        from dizhu.bots.policy import Ctx, intermediate_move
        from dizhu.bots.view import View

        if obs["phase"] == "bidding":
            return self._bot.decide(obs)
        move = intermediate_move(Ctx.of(View.of(obs)), self._style)[0]
        return "pass" if move is None else f"play {move.text}"


# One style at every decision of the play (``style-NAME``): the tests' helper, shared.
from tests.helpers.players import StylePlayer  # noqa: E402


def make_player(original, steps: int | None = None):
    """Players by name; with ``steps``, every searching player gets that many simulated
    decisions per decision (each converts it by its own steps-per-second), so a comparison
    is at equal search work and cheaper than at the default budgets."""

    def make(name: str, variant: str, seed: Any, budget: float | None = None):
        if name == "frozen-super-hard":
            from benchmarks import frozen

            if steps is not None:
                budget = steps / frozen.superhard_steps_per_second()
            return frozen.FrozenSuperHard(seed=repr(seed), budget=budget)
        if steps is not None:
            from dizhu.bots.search import STEPS_PER_SECOND

            budget = steps / STEPS_PER_SECOND
        if name == "rlcard":
            from benchmarks.vs_public import RLCardPlayer

            return RLCardPlayer(seed)
        if name == "outsider":
            return Outsider(variant, seed)
        if name == "super-hard-served":
            from dizhu.bots import create
            from dizhu.web.pacing import PACES

            return create("super-hard", variant, seed=repr(seed), budget=budget,
                          time_limit=PACES["super-hard"].think_limit)
        if name == "intermediate-noline":
            from dizhu.bots.policy import Style

            return StyledIntermediate(Style(to_the_line=False), variant, seed)
        if name in STYLE_PLAYERS:
            return StylePlayer(name[len("style-"):], variant, seed)
        if name in ABLATIONS:
            from dizhu.bots import create

            return create("super-hard", variant, seed=repr(seed), budget=budget, config=config_of(name))
        return original(name, variant, seed, budget)

    return make


def config_of(name: str) -> SearchConfig:
    """The search configuration of ``super-hard`` or one of its ``ABLATIONS``."""
    return SUPER_HARD if name == "super-hard" else SearchConfig(**ABLATIONS[name])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    names = arena.PLAYERS + EXTRA
    parser.add_argument("--a", default="super-hard", choices=names)
    parser.add_argument("--b", default="frozen-super-hard", choices=names)
    parser.add_argument("--variant", default="classic", choices=["classic", "duel"])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--bidding", action="store_true")
    parser.add_argument("--budget", type=float, default=None)
    parser.add_argument("--steps", type=int, default=None,
                        help="simulated decisions per search decision for every searching player (overrides --budget)")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--series", type=int, default=1,
                        help="deals in a row at one table (the players recall the earlier ones)")
    parser.add_argument("--json", default=None, help="write the summary to this file")
    parser.add_argument("--records", default=None,
                        help="write every game's record (deal, seats, result) to this file, for paired comparisons")
    args = parser.parse_args()
    arena.PLAYERS = names  # read by run_arena's check
    arena.make_player = make_player(arena.make_player, args.steps)  # inherited by the forked workers
    if "frozen-super-hard" in (args.a, args.b):  # its worktree made here, before the workers fork
        from benchmarks import frozen

        frozen.load(frozen.SUPER_HARD)
    result = arena.run_arena(args.a, args.b, args.variant, deals=args.deals, seed=args.seed,
                             bidding=args.bidding, workers=args.workers, budget=args.budget,
                             progress=arena.progress_bar, series=args.series)
    summary = result.summary()
    print(arena.format_summary(summary))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    if args.records:
        Path(args.records).write_text(json.dumps(result.records) + "\n")


if __name__ == "__main__":
    main()
