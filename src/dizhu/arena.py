"""The arena: two players (or levels) play many deals against each other.

Default protocol, as in the DouZero paper: no bidding; the landlord is dealt
the first 20 cards of a shuffled deck (17 + the 3 bottom cards), the farmers
the next ones (duel: 17, the last 9 stay undealt).  Every deal is played
twice with the sides swapped: A as landlord against B as the farmers, then B
as landlord against A.  With ``bidding=True`` the bidding is played too, and
the swap exchanges A's and B's seats.

Reported for A, overall and by A's seat (landlord / farmers):

- **WP**: the share of games A's side won;
- **ADP**: A's side's average points per game, by our rules with base 1
  (a side wins or loses 2P in classic: the landlord 2P, or two farmers P
  each; in duel the score itself).

Confidence intervals (95%) treat each deal (its two games) as one sample.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import os
import random
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

from .bots import LEVELS, create
from .cards import deck
from .game import RandomPlayer, Round
from .game.match import recall
from .variants import get_variant

__all__ = ["run_arena", "play_deal", "ArenaResult", "make_player"]

PLAYERS = ("random", *LEVELS)


def make_player(name: str, variant: str, seed: Any, budget: float | None = None):
    """A player by name: a bot level or ``random`` (uniform over legal actions)."""
    if name == "random":
        return RandomPlayer(seed=repr(seed))
    return create(name, variant, seed=repr(seed), budget=budget)


def _deck(variant: str, rng: random.Random) -> list:
    cards = deck(variant)
    rng.shuffle(cards)
    return cards


def play_deal(job: tuple) -> list[dict[str, Any]]:
    """Play one deal twice (sides swapped), or with ``series`` > 1 that many deals in a row
    (deal ``index * series`` on), each side's seats keeping their players; returns one record
    per game.

    In a series the players are at one table: every observation recalls the series' earlier
    games in the same seats (``earlier``, as :meth:`dizhu.game.Match.observation` gives it).
    With ``review`` set, A's decisions are reviewed (:mod:`dizhu.analysis`) at
    ``review_budget`` and each record lists them under ``"review"``.
    """
    a, b, variant, seed, index, bidding, budget, review, review_budget, *more = job
    series = more[0] if more else 1
    earlier: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
    records = []
    for deal in range(index * series, (index + 1) * series):
        records += _play_twice(a, b, variant, seed, deal, bidding, budget, review, review_budget, earlier)
    return records


def _play_twice(a: str, b: str, variant: str, seed: Any, index: int, bidding: bool, budget: float | None,
                review: bool, review_budget: float | None,
                earlier: dict[bool, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    v = get_variant(variant)
    rng = random.Random(f"{seed}|{index}")
    deck = _deck(variant, rng)
    deal_seed = f"arena-{seed}-{index}"
    records = []
    for a_is_landlord_side in (True, False):
        if bidding:
            r = Round.deal(variant, seed=deal_seed)
            a_seats = {0} if a_is_landlord_side else set(range(1, v.players))
        else:
            hands = [deck[:17]] + [deck[20 + 17 * k : 37 + 17 * k] for k in range(v.players - 1)]
            r = Round.from_deal(variant, hands, deck[17:20], landlord=0,
                                undealt=deck[20 + 17 * (v.players - 1):])
            a_seats = {0} if a_is_landlord_side else set(range(1, v.players))
        players = [
            make_player(a if s in a_seats else b, variant, (seed, index, s, a_is_landlord_side), budget)
            for s in range(v.players)
        ]
        table = earlier[a_is_landlord_side]
        while r.result is None:
            seat = r.to_act
            observation = r.observation(seat)
            observation["earlier"] = table[:]
            r.apply(seat, players[seat].decide(observation))
        earlier[a_is_landlord_side] = recall(table, r)
        res = r.result
        a_points = sum(res.points[s] for s in a_seats)
        record: dict[str, Any] = {
            "deal": index,
            "a_landlord": res.landlord in a_seats,
            "a_seat0": 0 in a_seats,  # which of the deal's two seatings (with bidding, not the same as a_landlord)
            "a_won": a_points > 0,
            "a_points": a_points,
            "multiplier": res.multiplier,
        }
        if review:
            record["review"] = _reviewed(r, sorted(a_seats), review_budget)
        records.append(record)
    return records


def _reviewed(round_: Round, seats: list[int], budget: float | None) -> list[dict[str, Any]]:
    """A's decisions in a finished game, each with its role, situation, loss and grade."""
    from .analysis import review

    found = []
    for seat in seats:
        role = "landlord" if seat == round_.landlord else "farmer"
        for d in review(round_, seat, budget=budget).decisions:
            found.append({"seat": seat, "role": role, "situation": d.situation, "loss": d.loss, "grade": d.grade,
                          "made": d.made.action, "better": d.better})
    return found


def review_summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Where A loses: by role and situation, the decisions, their mean loss (expected
    points) and their grades; the loss per game; and the five costliest decisions."""
    from .analysis import GRADES

    groups: dict[str, list[dict[str, Any]]] = {}
    worst = []
    for game in records:
        for d in game.get("review", []):
            groups.setdefault(f"{d['role']} {d['situation']}", []).append(d)
            worst.append({"deal": game["deal"], **d})
    # the costliest decisions that had a better move (a move graded good has none to show)
    worst = sorted((d for d in worst if d.get("better") is not None), key=lambda d: -d["loss"])
    games = max(1, sum(1 for g in records if "review" in g))
    return {
        "games": games,
        "loss_per_game": sum(d["loss"] for ds in groups.values() for d in ds) / games,
        "by_situation": {
            name: {"decisions": len(ds), "mean_loss": sum(d["loss"] for d in ds) / len(ds),
                   "loss_per_game": sum(d["loss"] for d in ds) / games,
                   "grades": {g: sum(1 for d in ds if d["grade"] == g) for g in GRADES}}
            for name, ds in sorted(groups.items(), key=lambda item: -sum(d["loss"] for d in item[1]))
        },
        "worst": worst[:5],
    }


@dataclass
class ArenaResult:
    a: str
    b: str
    variant: str
    deals: int
    seed: Any
    bidding: bool
    records: list[dict[str, Any]]
    elapsed: float
    #: Deals in a row at one table (1: each deal on its own).
    series: int = 1

    def summary(self) -> dict[str, Any]:
        def stats(games: list[dict[str, Any]]) -> dict[str, Any]:
            by_deal: dict[int, list[dict[str, Any]]] = {}
            for g in games:
                by_deal.setdefault(g["deal"], []).append(g)
            wins = [sum(g["a_won"] for g in gs) / len(gs) for gs in by_deal.values()]
            points = [sum(g["a_points"] for g in gs) / len(gs) for gs in by_deal.values()]
            return {
                "games": len(games),
                "wp": _mean_ci(wins, within=(0.0, 1.0)),
                "adp": _mean_ci(points),
            }

        summary = {
            "a": self.a,
            "b": self.b,
            "variant": self.variant,
            "deals": self.deals,
            "seed": self.seed,
            "protocol": "bidding" if self.bidding else "douzero (no bidding, landlord dealt 20)",
            "series": self.series,
            "elapsed_s": round(self.elapsed, 1),
            "overall": stats(self.records),
            "a_as_landlord": stats([g for g in self.records if g["a_landlord"]]),
            "a_as_farmers": stats([g for g in self.records if not g["a_landlord"]]),
        }
        if any("review" in g for g in self.records):
            summary["review"] = review_summary(self.records)
        return summary


def _mean_ci(values: list[float], within: tuple[float, float] = (-math.inf, math.inf)) -> dict[str, float]:
    """The mean and its 95% normal interval, cut to ``within`` (a share stays in [0, 1]).

    >>> _mean_ci([1.0, 1.0, 0.0, 1.0, 1.0, 1.0], within=(0.0, 1.0))["high"]
    1.0
    """
    n = len(values)
    if n == 0:
        return {"value": float("nan"), "low": float("nan"), "high": float("nan")}
    mean = sum(values) / n
    var = sum((x - mean) ** 2 for x in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return {"value": mean, "low": max(within[0], mean - half), "high": min(within[1], mean + half)}


def run_arena(
    a: str,
    b: str,
    variant: str = "classic",
    deals: int = 2000,
    seed: Any = 1,
    bidding: bool = False,
    workers: int | None = None,
    budget: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    ray: str | None = None,
    review: bool = False,
    review_budget: float | None = None,
    series: int = 1,
) -> ArenaResult:
    """Play ``deals`` deals (each twice, sides swapped) between players ``a`` and ``b``.

    With ``series``, the deals are played in runs of that many at one table (``deals``
    rounded down to whole runs): the players see the run's earlier games (:func:`play_deal`).

    With ``review``, every decision of A is reviewed too (seconds per game: use
    a few dozen deals), and the summary says where A loses (``"review"``).

    With ``ray`` (``"auto"``, ``"HOST:PORT"`` or ``"local"``) the deals are played
    on a Ray cluster instead of local processes, with the same results
    (:mod:`dizhu.ray_arena`).
    """
    for name in (a, b):
        if name not in PLAYERS:
            raise ValueError(f"unknown player {name!r} (expected one of {', '.join(PLAYERS)})")
    get_variant(variant)
    if series < 1:
        raise ValueError(f"a series is one deal or more, not {series}")
    jobs = [(a, b, variant, seed, i, bidding, budget, review, review_budget, series)
            for i in range(deals // series)]
    deals = len(jobs) * series
    workers = workers or os.cpu_count() or 1
    start = time.perf_counter()
    records: list[dict[str, Any]] = []
    if ray is not None:
        from .ray_arena import play_on_ray  # imported only here: Ray is an optional extra

        records = play_on_ray(jobs, play_deal, ray, progress and (lambda done, _: progress(done * series, deals)))
    elif workers == 1:
        for done, job in enumerate(jobs, 1):
            records += play_deal(job)
            if progress:
                progress(done * series, deals)
    else:
        ctx = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        with ctx.Pool(workers) as pool:
            for done, recs in enumerate(pool.imap_unordered(play_deal, jobs, chunksize=1), 1):
                records += recs
                if progress:
                    progress(done * series, deals)
    records.sort(key=lambda g: (g["deal"], not g["a_seat0"]))
    return ArenaResult(a, b, variant, deals, seed, bidding, records, time.perf_counter() - start, series)


def format_summary(s: dict[str, Any]) -> str:
    def line(name: str, part: dict[str, Any]) -> str:
        wp, adp = part["wp"], part["adp"]
        return (f"  {name:<14} games {part['games']:>6}   WP {wp['value']:.3f} [{wp['low']:.3f}, {wp['high']:.3f}]"
                f"   ADP {adp['value']:+.3f} [{adp['low']:+.3f}, {adp['high']:+.3f}]")

    lines = [
        f"{s['a']} (A) vs {s['b']} (B), {s['variant']}, {s['deals']} deals x 2, seed {s['seed']}, "
        f"{s['protocol']}{_in_series(s)}, {s['elapsed_s']} s",
        line("overall", s["overall"]),
        line("A landlord", s["a_as_landlord"]),
        line("A farmers", s["a_as_farmers"]),
    ]
    review = s.get("review")
    if review:
        lines.append(f"review of A: {review['loss_per_game']:.2f} expected points lost per game, where:")
        for name, part in review["by_situation"].items():
            grades = ", ".join(f"{g} {n}" for g, n in part["grades"].items())
            lines.append(f"  {name:<16} {part['decisions']:>5} decisions, {part['loss_per_game']:.2f} a game "
                         f"(mean {part['mean_loss']:.2f}): {grades}")
        for d in review["worst"]:
            lines.append(f"  worst: deal {d['deal']} seat {d['seat']} {d['made']!r} lost {d['loss']:.2f} "
                         f"({d['grade']}), better {d['better']!r}")
    return "\n".join(lines)


def _in_series(s: dict[str, Any]) -> str:
    n = s.get("series", 1)
    return f", in series of {n} at one table" if n > 1 else ""


def progress_bar(done: int, total: int, stream=sys.stderr, start=[None]) -> None:  # noqa: B006
    if start[0] is None or done == 1:
        start[0] = time.perf_counter()
    width = 30
    filled = int(width * done / total)
    elapsed = time.perf_counter() - start[0]
    eta = elapsed / done * (total - done) if done else 0
    stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals, "
                 f"{elapsed:.0f}s elapsed, ~{eta:.0f}s left ")
    if done == total:
        stream.write("\n")
    stream.flush()
