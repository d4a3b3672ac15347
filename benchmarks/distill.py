"""A policy distilled from super-hard's search: collect its choices, fit a move score, screen it.

    nice -n 10 python benchmarks/distill.py collect --variant duel --rounds 700 --out F.jsonl [--start 0]
        [--own distilled --budget 0.27]
    python benchmarks/distill.py fit F.jsonl [G.jsonl ...] [--hidden 32] [--role farmer] [--out M.json]
    python benchmarks/distill.py compare M.json [farmer=F.json,landlord=L.json ...] --data F.jsonl [...]
    nice -n 10 python benchmarks/distill.py again F.jsonl [...] --decisions 1000 --models M.json [...]
    nice -n 10 python benchmarks/distill.py screen M.json --variant duel --deals 3000 [--margin 0.25] [--records F]

``collect`` plays seeded rounds of intermediate bots (``benchmarks/selfplay.py``) and, at each
play decision with a choice, asks the search (:func:`dizhu.bots.search.ranked`, the seat's own view,
0.15 s of simulated decisions) what each move of its shortlist is worth; one JSON line a decision.
With ``--own distilled`` the search's worlds play its own later moves by the shipped distilled
policy (the next step of a policy iteration: the worth of a move followed by better play); its
rollout steps are charged ``search.STEP_COST`` decisions each (1.8 today), so ``--budget 0.27``
buys about as many worlds as 0.15 did (a few more: a world's fixed cost and the exactly solved
endgames are charged alike).  It needs the compiled rollouts (pure Python plays intermediate there
instead).  Each line records its ``own`` and ``budget``.
``fit`` learns a score of (position, move) from features of both (``dizhu.bots.distilled.features``, the rule
policy's own move among them): each move's worth above its decision's mean (its advantage), fitted
by ridge least squares or, with ``--hidden``, by a network of one hidden layer; each move weighs
the square root of the worlds it counts.  It prints the points a decision the policy's move and the
score's best lie below the search's best, on the decisions learnt from and on those held out
(every fifth round); ``--role`` learns from one seat's decisions.  ``compare`` prints, for each
model (or pair of role models), the points it loses to the search's best on the held-out
decisions, by role, played as the policy plays it (``--margins``).  ``again`` values held-out
decisions a second time, to see how much of what a score loses is the search's own noise.
``screen`` plays intermediate with the score choosing among the shortlist, leaving the policy's
own move only for one scored ``--margin`` points higher, against intermediate as it ships,
DouZero protocol, seed "ab" (as ``benchmarks/thresholds.py``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from dizhu.bots.distilled import FIGURES, NAMES, features, policy_index  # noqa: E402
from dizhu.bots.policy import Ctx  # noqa: E402
from dizhu.bots.search import ADVICE, _candidates, ranked  # noqa: E402
from dizhu.bots.styles import compiled  # noqa: E402
from dizhu.bots.view import View  # noqa: E402


def collect(variant: str, rounds: int, start: int, out: Path, own: str = "intermediate",
            budget: float = 0.15) -> None:
    from benchmarks.selfplay import decisions

    if own == "distilled" and compiled() is None:
        raise SystemExit("--own distilled needs the compiled rollouts (dizhu.bots._rollout): "
                         "pure Python would play intermediate in their place")
    config = dataclasses.replace(ADVICE, own={**ADVICE.own, variant: own})

    n, index, current = 0, -1, None
    with out.open("a") as f:
        for round_, seat, obs in decisions(variant, start + rounds, "distill"):
            if round_ is not current:
                current, index = round_, index + 1
            if obs["phase"] != "playing" or len(obs["legal_actions"]) < 2:
                continue
            n += 1
            if index < start:
                continue
            view = View.of(obs)
            # the search without the look-ahead, as the shipped networks' data was collected
            estimates, choice = ranked(view, random.Random(n), budget, config=config)
            if estimates[0].worlds == 0 or len(estimates) < 2:
                continue
            f.write(json.dumps({"round": index, "obs": obs,
                                "moves": [e.move.text if e.move else None for e in estimates],
                                "points": [e.points for e in estimates], "worlds": [e.worlds for e in estimates],
                                "own": own, "budget": budget})
                    + "\n")
            f.flush()


def again(paths: list[str], decisions: int, models: list[str]) -> None:
    """The search's own noise: the first ``decisions`` held-out decisions of the files valued a
    second time (another seed, the record's budget and own policy).  On the second values, it
    prints the points lost a decision by the first search's best, by the rule policy, and by each
    model as the policy plays it (margin :data:`dizhu.bots.distilled.MARGIN`): a learnt score
    cannot be expected to lose much less than the search that taught it."""
    from dizhu.bots.distilled import MARGIN

    loaded = {name: _models(name) for name in models}
    lost = {"search, first run": 0.0, "rule policy": 0.0, **dict.fromkeys(models, 0.0)}
    n = 0
    for record in _records(paths):
        if n >= decisions:
            break
        if not _held_out(record):
            continue
        view = View.of(record["obs"])
        ctx = Ctx.of(view)
        moves, choice = _candidates(ctx)
        first = _in_order(moves, record["moves"], record["points"])
        if first is None:
            continue
        config = dataclasses.replace(ADVICE, own={**ADVICE.own, record["obs"]["variant"]: record["own"]})
        estimates, _ = ranked(view, random.Random(f"again|{n}"), record["budget"], config=config)
        second = _in_order(moves, [e.move.text if e.move else None for e in estimates], [e.points for e in estimates])
        if second is None:
            continue
        n += 1
        x, p = features(ctx, moves, choice), policy_index(moves, choice)
        lost["search, first run"] += max(second) - second[max(range(len(first)), key=first.__getitem__)]
        lost["rule policy"] += max(second) - second[p]
        for name, by_role in loaded.items():
            lost[name] += max(second) - second[_pick(by_role[_role(record["obs"])], x, p, MARGIN)]
    print(f"{n} held-out decisions valued again; points lost a decision to the second search's best:")
    for name, total in lost.items():
        print(f"  {name:40} {total / max(1, n):.4f}")


def _decision(record: dict[str, Any]) -> tuple[list[list[float]], list[float], list[float], int] | None:
    """(features of the shortlist, each move's worth to the search in points, the worlds it
    counts, the index of the policy's move); None if the shortlist is not the one searched."""
    ctx = Ctx.of(View.of(record["obs"]))
    moves, choice = _candidates(ctx)
    points = _in_order(moves, record["moves"], record["points"])
    if points is None:
        return None
    worlds = _in_order(moves, record["moves"], record["worlds"])
    return features(ctx, moves, choice), points, worlds, policy_index(moves, choice)


def _in_order(moves: list, texts: list, values: list) -> list | None:
    """``values`` (one for each move of ``texts``, None: pass) in ``moves``' order; None if the
    moves valued are not the shortlist's."""
    found = dict(zip(texts, values))
    order = [None if m is None else m.text for m in moves]
    return [found[t] for t in order] if set(found) == set(order) else None


ROLES = ("landlord", "farmer")


def _role(obs: dict[str, Any]) -> str:
    return "landlord" if obs["landlord"] == obs["seat"] else "farmer"


def _records(paths: list[str]):
    """The files' records, one a decision, in order."""
    for path in paths:
        for line in Path(path).read_text().splitlines():
            yield json.loads(line)


def _held_out(record: dict[str, Any]) -> bool:
    return record["round"] % 5 == 0  # every fifth round


def _load(paths: list[str], role: str | None = None):
    """The decisions of the files (only ``role``'s, if given), learnt from and held out."""
    train, held = [], []
    for record in _records(paths):
        if role and _role(record["obs"]) != role:
            continue
        d = _decision(record)
        if d is not None:
            (held if _held_out(record) else train).append(d)
    return train, held


def fit(paths: list[str], out: str | None, l2: float, hidden: int, steps: int, role: str | None = None,
        extra: bool = False) -> None:
    """Each move's worth above its decision's mean, fitted on its features (a move's advantage),
    the worlds' square root as weight: by ridge least squares (``hidden`` 0), else by a network
    of one hidden layer of that many units, trained by Adam on the same loss.  With ``role``, on
    that seat's decisions only; with ``extra``, on the raw counts as well (``dizhu.bots.distilled.FIGURES`` on)."""
    import numpy as np

    train, held = _load(paths, role)
    width = len(NAMES) if extra else FIGURES
    train = [([row[:width] for row in x], v, n, p) for x, v, n, p in train]
    print(f"{len(train)} decisions to learn from, {len(held)} held out; {width} features")
    xs, ys, cs, ds = [], [], [], []
    for k, (x, v, n, _) in enumerate(train):
        x, v, c = np.array(x), np.array(v), np.sqrt(np.array(n, dtype=float))
        xs.append(x)
        ys.append(v - (c @ v) / c.sum())
        cs.append(c)
        ds.append(np.full(len(v), k))
    X, y, c, d = np.vstack(xs), np.concatenate(ys), np.concatenate(cs), np.concatenate(ds)
    if hidden:
        model = _train_net(X, y, c, d, len(train), hidden, l2, steps)
    else:
        centred = X - _group_mean(X, c, d, len(train))
        A = centred.T @ (centred * c[:, None]) + l2 * len(train) * np.eye(X.shape[1])
        model = {"kind": "linear", "w": np.linalg.solve(A, centred.T @ (c * y)).tolist()}
    for name, data in (("train", train), ("held out", held)):
        policy, score, agree = _regret(data, model)
        print(f"{name}: points lost to the search's best a decision: policy {policy:.4f}, score {score:.4f}; "
              f"the score picks the policy's move in {agree:.3f}")
    if model["kind"] == "linear":
        for name, value in sorted(zip(NAMES, model["w"]), key=lambda t: -abs(t[1])):
            print(f"  {name:28} {value:+.3f}")
    if out:
        Path(out).write_text(json.dumps(model))


def _group_mean(X, c, d, groups: int):
    """Each row's decision's weighted mean of ``X``'s rows."""
    import numpy as np

    sums = np.zeros((groups, X.shape[1]))
    np.add.at(sums, d, c[:, None] * X)
    return (sums / np.bincount(d, c, minlength=groups)[:, None])[d]


def _train_net(X, y, c, d, groups: int, hidden: int, l2: float, steps: int) -> dict:
    import numpy as np

    rng = np.random.default_rng(1)
    mean, scale = X.mean(0), X.std(0) + 1e-6
    Z = (X - mean) / scale
    params = [rng.normal(0, 1 / np.sqrt(Z.shape[1]), (Z.shape[1], hidden)), np.zeros(hidden),
              rng.normal(0, 1 / np.sqrt(hidden), hidden)]
    moments = [[np.zeros_like(p), np.zeros_like(p)] for p in params]
    total = c.sum()
    for step in range(1, steps + 1):
        W1, b1, w2 = params
        H = np.maximum(Z @ W1 + b1, 0)
        f = H @ w2
        r = f - y
        e = r - _group_mean(r[:, None], c, d, groups)[:, 0]
        g = 2 * c * e / total
        grads = [Z.T @ ((g[:, None] * w2) * (H > 0)) + l2 * W1, ((g[:, None] * w2) * (H > 0)).sum(0), H.T @ g + l2 * w2]
        for p, (m, v), gr in zip(params, moments, grads):
            m *= 0.9
            m += 0.1 * gr
            v *= 0.999
            v += 0.001 * gr * gr
            p -= 0.003 * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        if step % 500 == 0:
            print(f"  step {step}: loss {(c * e * e).sum() / total:.4f}", flush=True)
    W1, b1, w2 = params
    return {"kind": "net", "mean": mean.tolist(), "scale": scale.tolist(), "W1": W1.tolist(), "b1": b1.tolist(),
            "w2": w2.tolist()}


def scores(model: dict, x):
    """The model's score of each row of ``x`` (a move's features)."""
    import numpy as np

    x = np.asarray(x, dtype=float)
    if model["kind"] == "linear":
        return x[:, :len(model["w"])] @ np.array(model["w"])
    x = x[:, :len(model["mean"])]
    z = (x - np.array(model["mean"])) / np.array(model["scale"])
    return np.maximum(z @ np.array(model["W1"]) + np.array(model["b1"]), 0) @ np.array(model["w2"])


def _regret(data, model: dict) -> tuple[float, float, float]:
    """(points the policy's move lies below the best, the same for the score's move, how often
    the score keeps the policy's move), averaged over ``data``."""
    policy = scored = agree = 0.0
    for x, v, _, p in data:
        pick = int(scores(model, x).argmax())
        policy += max(v) - v[p]
        scored += max(v) - v[pick]
        agree += pick == p
    n = max(1, len(data))
    return policy / n, scored / n, agree / n


def compare(models: list[str], paths: list[str], margins: list[float]) -> None:
    """Points each model, played as the policy plays it (the rule policy's move unless another
    scores ``margin`` more), lies below the search's best a decision on the files' held-out
    decisions, by role.  A model named ``farmer=F,landlord=L`` scores each role's decisions by its own."""
    held: dict[str, list] = {role: [] for role in ROLES}
    for record in _records(paths):
        if _held_out(record) and (d := _decision(record)) is not None:
            held[_role(record["obs"])].append(d)
    n = [len(held[r]) for r in ROLES]
    print(f"held out: {n[0]} landlord decisions, {n[1]} farmer; "
          f"rule policy {' / '.join(f'{_lost(held[r], None, 0):.4f}' for r in ROLES)}")
    for name in models:
        loaded = _models(name)
        for margin in margins:
            lost = [_lost(held[r], loaded[r], margin) for r in ROLES]
            both = sum(a * b for a, b in zip(lost, n)) / sum(n)
            print(f"{name}  margin {margin}: landlord {lost[0]:.4f}  farmer {lost[1]:.4f}  both {both:.4f}")


def _lost(data, model: dict | None, margin: float) -> float:
    """Points a decision the policy's move (``model`` None), or the model's as the policy plays
    it, lies below the search's best, averaged over ``data``."""
    total = 0.0
    for x, v, _, p in data:
        total += max(v) - v[p if model is None else _pick(model, x, p, margin)]
    return total / max(1, len(data))


def _pick(model: dict, x, policy: int, margin: float) -> int:
    """The move the policy plays by ``model``: the best scored, if it beats the rule policy's
    (index ``policy``) by more than ``margin``."""
    value = scores(model, x)
    best = int(value.argmax())
    return best if value[best] > value[policy] + margin else policy


class Distilled:
    """Intermediate with the learnt score (each role's, ``models``) choosing among the search's shortlist."""

    def __init__(self, models: dict[str, dict], variant: str, seed: Any, margin: float = 0.0) -> None:
        from dizhu.bots import create

        self.models = models
        self.margin = margin
        self.base = create("intermediate", variant, seed=seed)

    def decide(self, obs: dict) -> str:
        if obs["phase"] != "playing" or len(obs["legal_actions"]) < 2:
            return self.base.decide(obs)
        ctx = Ctx.of(View.of(obs))
        moves, choice = _candidates(ctx)
        x = features(ctx, moves, choice)
        m = moves[_pick(self.models[_role(obs)], x, policy_index(moves, choice), self.margin)]
        return "pass" if m is None else f"play {m.text}"


def _models(name: str) -> dict[str, dict]:
    """Each role's model: one file for both, or ``farmer=F,landlord=L``."""
    parts = dict(p.split("=", 1) for p in name.split(",")) if "=" in name else dict.fromkeys(ROLES, name)
    if set(parts) != set(ROLES):
        raise SystemExit(f"{name}: name one file, or farmer=F,landlord=L")
    return {role: json.loads(Path(parts[role]).read_text()) for role in ROLES}


def screen(path: str, variant: str, deals: int, workers: int, margin: float, records: str | None = None) -> None:
    from dizhu import arena

    models = _models(path)
    original = arena.make_player

    def make(name: str, variant: str, seed: Any, budget: float | None = None):
        if name == "distilled":
            return Distilled(models, variant, seed, margin)
        return original(name, variant, seed, budget)

    arena.make_player = make
    arena.PLAYERS = arena.PLAYERS + ("distilled",)
    result = arena.run_arena("distilled", "intermediate", variant, deals=deals, seed="ab", workers=workers)
    if records:  # one record per game, for benchmarks/paired.py
        Path(records).write_text(json.dumps(result.records) + "\n")
    summary = result.summary()
    s = summary["overall"]
    print(f"distilled {variant} margin {margin}: WP {s['wp']['value']:.3f} [{s['wp']['low']:.3f}, {s['wp']['high']:.3f}]  "
          f"ADP {s['adp']['value']:+.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub_ = parser.add_subparsers(dest="command", required=True)
    c = sub_.add_parser("collect")
    c.add_argument("--variant", default="duel", choices=["classic", "duel"])
    c.add_argument("--rounds", type=int, default=400)
    c.add_argument("--start", type=int, default=0)
    c.add_argument("--out", required=True)
    c.add_argument("--own", default="intermediate", choices=["intermediate", "distilled"],
                   help="the policy of the search's own later moves in its worlds")
    c.add_argument("--budget", type=float, default=0.15, help="seconds of simulated decisions a decision")
    f = sub_.add_parser("fit")
    f.add_argument("paths", nargs="+")
    f.add_argument("--out")
    f.add_argument("--l2", type=float, default=0.001)
    f.add_argument("--hidden", type=int, default=0, help="units of the network's hidden layer (0: linear)")
    f.add_argument("--steps", type=int, default=3000, help="the network's training steps")
    f.add_argument("--role", choices=["landlord", "farmer"], help="learn from this seat's decisions only")
    f.add_argument("--extra", action="store_true", help="learn from the raw counts as well (every feature of NAMES)")
    g = sub_.add_parser("again")
    g.add_argument("paths", nargs="+")
    g.add_argument("--decisions", type=int, default=1000)
    g.add_argument("--models", nargs="*", default=[], help="model files, or farmer=F,landlord=L")
    k = sub_.add_parser("compare")
    k.add_argument("models", nargs="+", help="model files, or farmer=F,landlord=L")
    k.add_argument("--data", nargs="+", required=True)
    k.add_argument("--margins", nargs="+", type=float, default=[0.0, 0.15])
    s = sub_.add_parser("screen")
    s.add_argument("model", help="a model file, or farmer=F,landlord=L")
    s.add_argument("--variant", default="duel", choices=["classic", "duel"])
    s.add_argument("--deals", type=int, default=3000)
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--margin", type=float, default=0.0, help="leave the policy only for a move scored this much higher")
    s.add_argument("--records", help="write each game's record to this file (for benchmarks/paired.py)")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.variant, args.rounds, args.start, Path(args.out), args.own, args.budget)
    elif args.command == "fit":
        fit(args.paths, args.out, args.l2, args.hidden, args.steps, args.role, args.extra)
    elif args.command == "again":
        again(args.paths, args.decisions, args.models)
    elif args.command == "compare":
        compare(args.models, args.data, args.margins)
    else:
        screen(args.model, args.variant, args.deals, args.workers, args.margin, args.records)


if __name__ == "__main__":
    main()
