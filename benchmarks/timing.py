"""The timing side channel, measured as an attacker would: against a real `dizhu serve`.

    python benchmarks/timing.py [--games 12] [--level super-hard] [--pace 1] [--url http://host:port]
    python benchmarks/timing.py --cross-game [--decisions 1000] [--delay 0.12] [--server-option=--no-pin-cores]

Plays duel games over HTTP (a random legal play each turn, so the computer often answers with
a pass), and times each answer that holds exactly one computer decision, a pass.  When a
round ends its deal code is revealed; replaying the round from it tells which of those passes
were forced (no legal reply) and which were chosen.  Reported: the AUC of "chosen passes take
longer than forced ones" (0.5: the times tell nothing; 1.0: they tell everything), and the
answer times per decision (median, p95, max).  With --pace 0 the server does not pace its
computers, which shows the leak the pace closes.

--cross-game times what another client can time instead: in a second game (normal computers,
another address), a hint asked --delay seconds after each move sent in the super-hard duel, while
its computer decides.  The hint is answered at once (it is not paced), so if a search slows it,
its time tells a forced decision (one legal action: no search) from a chosen one.  Reported: the
AUC of "hints during chosen decisions take longer", with a bootstrap 95% interval, over
--decisions computer decisions, and the hints' medians.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator

import httpx

from dizhu.game import Round
from served import start_server


def forced_passes(code: str, events: list[dict]) -> dict[int, bool]:
    """For each pass event index: was it the only legal action?  (Replayed from the revealed deal.)"""
    return {i: forced for i, forced in forced_decisions(code, events).items() if events[i]["type"] == "pass"}


def auc(positives: list[float], negatives: list[float]) -> float:
    """The chance that a positive is above a negative (ties half), by ranks: O(n log n)."""
    ranked = sorted([(v, 1) for v in positives] + [(v, 0) for v in negatives])
    rank_sum, i = 0.0, 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            j += 1
        mean_rank = (i + j + 1) / 2  # ranks i+1 .. j, tied
        rank_sum += mean_rank * sum(flag for _, flag in ranked[i:j])
        i = j
    n_pos, n_neg = len(positives), len(negatives)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def auc_interval(positives: list[float], negatives: list[float], draws: int = 1000) -> tuple[float, float]:
    """A bootstrap 95% interval of :func:`auc`."""
    rng = random.Random(0)
    values = sorted(auc(rng.choices(positives, k=len(positives)), rng.choices(negatives, k=len(negatives)))
                    for _ in range(draws))
    return values[int(0.025 * draws)], values[int(0.975 * draws) - 1]


def cross_game(url: str, decisions: int, delay: float) -> tuple[list[float], list[float]]:
    """Hint times in a normal game, asked while the super-hard duel's computer decides: (forced, chosen)."""
    player = httpx.Client(base_url=url, timeout=60, transport=httpx.HTTPTransport(local_address="127.0.0.1"))
    prober = httpx.Client(base_url=url, timeout=60, transport=httpx.HTTPTransport(local_address="127.0.0.3"))
    forced_times: list[float] = []
    chosen_times: list[float] = []

    def new(client: httpx.Client, level: str) -> tuple[str, dict, dict]:
        created = client.post("/api/games", json={"variant": "duel", "level": level}).json()
        return f"/api/games/{created['game_id']}", {"Authorization": f"Bearer {created['token']}"}, created["view"]

    probe_base, probe_headers, probe_view = new(prober, "normal")
    game = 0

    def probe() -> float:
        """One hint in the probe's game (then its move, so that the next hint is a new position)."""
        nonlocal probe_view
        if probe_view["observation"]["phase"] == "over":
            probe_view = act(prober, f"{probe_base}/another-round", probe_headers, {
                "version": probe_view["version"], "request_id": f"p{probe_view['version']}"})
        start = time.perf_counter()
        hint = prober.post(f"{probe_base}/hint", headers=probe_headers, json={})
        elapsed = time.perf_counter() - start
        hint.raise_for_status()
        probe_view = act(prober, f"{probe_base}/act", probe_headers, {
            "action": hint.json()["action"], "version": probe_view["version"],
            "request_id": f"p{probe_view['version']}"})
        return elapsed

    with ThreadPoolExecutor(1) as pool:
        while len(forced_times) + len(chosen_times) < decisions:
            game += 1
            rng = random.Random(game)
            base, headers, view = new(player, "super-hard")
            timed: list[tuple[float, int]] = []
            while view["observation"]["phase"] != "over":
                obs = view["observation"]
                plays = [a for a in obs["legal_actions"] if a.startswith("play ")]
                # half the time the longest play: the computer then often has no reply (a forced pass)
                choice = max(plays, key=len) if plays and rng.random() < 0.5 else rng.choice(plays or [""])
                action = choice if plays and obs["phase"] == "playing" else obs["legal_actions"][0]
                since = view["event_count"]
                sent = pool.submit(act, player, f"{base}/act", headers, {
                    "action": action, "version": view["version"], "request_id": f"g{game}-{view['version']}",
                    "since": since})
                time.sleep(delay)
                elapsed = probe()
                view = sent.result()
                computer = [since + i for i, e in enumerate(view["events"])
                            if e.get("seat", 0) != 0 and e["type"] in ("bid", "play", "pass")]
                if len(computer) >= 1:
                    timed.append((elapsed, computer[0]))  # the hint was asked during the first decision
            events = player.get(base, headers=headers).json()["events"]
            forced = forced_decisions(view["observation"]["deal_code"], events)
            for elapsed, index in timed:
                (forced_times if forced[index] else chosen_times).append(elapsed)
            print(f"  game {game}: {len(forced_times)} forced, {len(chosen_times)} chosen", file=sys.stderr)
    player.close()
    prober.close()
    return forced_times, chosen_times


def act(client: httpx.Client, path: str, headers: dict, body: dict) -> dict:
    """A write, sent again (the same request id) for as long as the server says to wait."""
    while True:
        response = client.post(path, headers=headers, json=body)
        if response.status_code != 429:
            response.raise_for_status()
            return response.json()
        time.sleep(float(response.headers.get("retry-after", "1")))


def forced_decisions(code: str, events: list[dict]) -> dict[int, bool]:
    """For each action event index: was it the only legal action?  (Replayed from the revealed deal.)"""
    round_ = Round.from_code(code)
    forced: dict[int, bool] = {}
    for index, event in enumerate(events):
        kind = event["type"]
        if kind in ("bid", "play", "pass"):
            forced[index] = len(round_.legal_actions()) == 1
            action = event.get("action") if kind == "bid" else ("pass" if kind == "pass" else f"play {event['play']}")
            round_.apply(event["seat"], action)
    return forced


def play(client: httpx.Client, game: int, level: str) -> tuple[list[tuple[float, bool]], list[float]]:
    rng = random.Random(game)
    created = client.post("/api/games", json={"variant": "duel", "level": level}).json()
    base, headers = f"/api/games/{created['game_id']}", {"Authorization": f"Bearer {created['token']}"}
    view = created["view"]
    timed: list[tuple[float, int]] = []
    per_decision: list[float] = []
    while view["observation"]["phase"] != "over":
        obs = view["observation"]
        plays = [a for a in obs["legal_actions"] if a.startswith("play ")]
        action = rng.choice(plays) if plays and obs["phase"] == "playing" else obs["legal_actions"][0]
        since = view["event_count"]
        start = time.perf_counter()
        response = client.post(f"{base}/act", headers=headers, json={
            "action": action, "version": view["version"], "request_id": f"g{game}-{view['version']}",
            "since": since})
        elapsed = time.perf_counter() - start
        response.raise_for_status()
        view = response.json()
        computer = [(since + i, e) for i, e in enumerate(view["events"])
                    if e.get("seat", 0) != 0 and e["type"] in ("bid", "play", "pass")]
        if computer:
            per_decision.append(elapsed / len(computer))
        if obs["phase"] == "playing" and len(computer) == 1 and computer[0][1]["type"] == "pass":
            timed.append((elapsed, computer[0][0]))
    events = client.get(base, headers=headers).json()["events"]
    forced = forced_passes(view["observation"]["deal_code"], events)
    return [(elapsed, forced[index]) for elapsed, index in timed], per_decision


@contextlib.contextmanager
def served(args: argparse.Namespace) -> Iterator[str]:
    """The URL of --url, or of a server started here with --pace and the --server-option's."""
    if args.url:
        yield args.url
        return
    data_dir = Path(tempfile.mkdtemp(prefix="dizhu-timing-"))
    process, url = start_server(data_dir, ["--pace", str(args.pace), *args.server_option])
    try:
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(20)
        shutil.rmtree(data_dir, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--level", default="super-hard", choices=["normal", "intermediate", "super-hard"])
    parser.add_argument("--pace", type=float, default=1.0, help="the server's --pace (default 1)")
    parser.add_argument("--url", default=None, help="use this running server instead of starting one")
    parser.add_argument("--cross-game", action="store_true",
                        help="time hints in another game instead of the computers' answers (see above)")
    parser.add_argument("--decisions", type=int, default=1000, help="--cross-game: computer decisions to time")
    parser.add_argument("--delay", type=float, default=0.12, help="--cross-game: seconds from a move to the hint")
    parser.add_argument("--server-option", action="append", default=[],
                        help="an option for the server started here (e.g. --server-option=--no-pin-cores)")
    args = parser.parse_args()
    if args.cross_game:
        return main_cross_game(args)
    samples: list[tuple[float, bool]] = []
    decisions: list[float] = []
    with served(args) as url, httpx.Client(base_url=url, timeout=60) as client:
        for game in range(args.games):
            passes, per_decision = play(client, game, args.level)
            samples += passes
            decisions += per_decision
    forced = [t for t, f in samples if f]
    chosen = [t for t, f in samples if not f]
    print(f"dizhu timing side channel: {args.games} duel games at {args.level}, server --pace {args.pace}")
    for name, values in (("forced passes", forced), ("chosen passes", chosen)):
        if values:
            print(f"  {name:<14} n={len(values):>4}  median={statistics.median(values) * 1000:7.1f}  "
                  f"min={min(values) * 1000:7.1f}  max={max(values) * 1000:7.1f} ms")
    if forced and chosen:
        print(f"  AUC (chosen slower than forced): {auc(chosen, forced):.3f}  (0.5 = the times tell nothing)")
    ordered = sorted(decisions)
    if ordered:
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        print(f"  per computer decision: n={len(ordered)}  median={statistics.median(ordered) * 1000:.1f}  "
              f"p95={p95 * 1000:.1f}  max={ordered[-1] * 1000:.1f} ms")
    return 0


def main_cross_game(args: argparse.Namespace) -> int:
    args.server_option = ["--hint-limit", "0", *args.server_option]  # a hint a second is over a game's limit
    with served(args) as url:
        forced, chosen = cross_game(url, args.decisions, args.delay)
    print(f"dizhu cross-game timing: a hint in another game {args.delay:.2f} s after each move in a super-hard "
          f"duel, server options {' '.join(args.server_option)}")
    for name, values in (("during forced decisions", forced), ("during chosen decisions", chosen)):
        ordered = sorted(values)
        print(f"  hints {name:<24} n={len(values):>5}  median={statistics.median(values) * 1000:6.1f}  "
              f"p90={ordered[int(0.9 * len(values))] * 1000:6.1f}  p99={ordered[int(0.99 * len(values))] * 1000:6.1f}"
              f"  max={ordered[-1] * 1000:6.1f} ms")
    low, high = auc_interval(chosen, forced)
    print(f"  AUC (hints slower during chosen decisions): {auc(chosen, forced):.3f} [{low:.3f}, {high:.3f}] "
          f"over {len(forced) + len(chosen)} decisions (0.5 = the times tell nothing)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
