"""The timing side channel, measured as an attacker would: against a real `dizhu serve`.

    python benchmarks/timing.py [--games 12] [--level super-hard] [--pace 1] [--url http://host:port]

Plays duel games over HTTP (a random legal play each turn, so the computer often answers with
a pass), and times each answer that holds exactly one computer decision, a pass.  When a
round ends its deal code is revealed; replaying the round from it tells which of those passes
were forced (no legal reply) and which were chosen.  Reported: the AUC of "chosen passes take
longer than forced ones" (0.5: the times tell nothing; 1.0: they tell everything), and the
answer times per decision (median, p95, max).  With --pace 0 the server does not pace its
computers, which shows the leak the pace closes.
"""

from __future__ import annotations

import argparse
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from dizhu.game import Round
from served import start_server


def forced_passes(code: str, events: list[dict]) -> dict[int, bool]:
    """For each pass event index: was it the only legal action?  (Replayed from the revealed deal.)"""
    round_ = Round.from_code(code)
    forced: dict[int, bool] = {}
    for index, event in enumerate(events):
        kind = event["type"]
        if kind in ("bid", "play", "pass"):
            if kind == "pass":
                forced[index] = round_.legal_actions() == ["pass"]
            action = event.get("action") if kind == "bid" else ("pass" if kind == "pass" else f"play {event['play']}")
            round_.apply(event["seat"], action)
    return forced


def auc(positives: list[float], negatives: list[float]) -> float:
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--level", default="super-hard", choices=["normal", "intermediate", "super-hard"])
    parser.add_argument("--pace", type=float, default=1.0, help="the server's --pace (default 1)")
    parser.add_argument("--url", default=None, help="use this running server instead of starting one")
    args = parser.parse_args()
    data_dir = Path(tempfile.mkdtemp(prefix="dizhu-timing-"))
    process = None
    try:
        if args.url:
            url = args.url
        else:
            process, url = start_server(data_dir, ["--pace", str(args.pace)])
        samples: list[tuple[float, bool]] = []
        decisions: list[float] = []
        with httpx.Client(base_url=url, timeout=60) as client:
            for game in range(args.games):
                passes, per_decision = play(client, game, args.level)
                samples += passes
                decisions += per_decision
    finally:
        if process is not None:
            process.send_signal(signal.SIGTERM)
            process.wait(20)
        shutil.rmtree(data_dir, ignore_errors=True)
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


if __name__ == "__main__":
    sys.exit(main())
