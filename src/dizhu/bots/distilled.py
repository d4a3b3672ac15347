"""The distilled policy: the intermediate policy, overruled where a network fitted to the search's
own valuations says another move of the shortlist is clearly better.

At 32,302 duel decisions of intermediate self-play, super-hard's search valued every move of its
shortlist (:mod:`.shortlist`); a network of one hidden layer (64 units) learnt each move's worth
above its decision's mean from 147 features of the position and the move (:data:`NAMES`): 81
figures (its kind, the plays it saves, whether it keeps control, whether the hand then runs out,
how close the nearest opponent is...), then 66 raw counts (by rank the hand after the move, the
move, the cards unseen and the trick; each seat's cards and who is landlord).  ``benchmarks/distill.py``
collects, fits and screens it; the weights are ``distilled_duel.json``.  Classic has a network of its
own, fitted the same way on 7,322 decisions and on the figures alone (``distilled_classic.json``,
the first :data:`FIGURES` features): a table of three plays by it, a table of two by the duel's
(:data:`FILES`).  The search plays its own later moves in the rollouts by it where
``SearchConfig.own`` says so.  The compiled rollouts (``_rollout.c``, policy 4) compute the same
features and scores, each table's network set apart; tests/test_rollout_native.py holds the two
to the same moves.

>>> from dizhu import Round
>>> from dizhu.bots.view import View
>>> r = Round.deal("duel", seed="distilled")
>>> while r.phase == "bidding":
...     r.apply(r.to_act, "call" if "call" in r.legal_actions() else "pass")
>>> ctx = Ctx.of(View.of(r.observation(r.to_act)))
>>> move = distilled_move(ctx)
>>> move is not None and move.key in {m.key for m in shortlist(ctx)[0] if m}
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources

from ..combos import Combo, Kind
from .hands import plays_of, to_shed
from .policy import TWO, Ctx, can_run_out, is_control, leads_from_split, sub
from .shortlist import shortlist

__all__ = ["NAMES", "FIGURES", "DECISION", "features", "Net", "FILES", "net", "distilled_move", "MARGIN"]

#: The intermediate policy's move stays unless another scores this many points more: screened as
#: a policy against intermediate, 0.532 at 0.15 and 0.502 at 0 over 3,000 duel deals (the score
#: alone only ties).
MARGIN = 0.15

_KINDS = {Kind.SINGLE: 0, Kind.PAIR: 1, Kind.TRIO: 2, Kind.TRIO_SINGLE: 2, Kind.TRIO_PAIR: 2}


def _kind_slot(m: Combo) -> int:
    """single 0, pair 1, trio 2, chains and planes 3, bomb or rocket 4, the rest (four with two) 3."""
    if m.is_bomb:
        return 4
    return _KINDS.get(m.kind, 3)


def _names() -> list[str]:
    names = ["policy", "pass", "pass_partner", "play_partner"]
    for phase in ("lead", "reply"):
        names += [f"{phase}_{k}" for k in ("single", "pair", "trio", "chain", "bomb")]
        names += [f"{phase}_{k}" for k in ("delta", "delta_pos", "main", "high", "control", "size",
                                           "run_out", "after_plays", "after_controls")]
        for d in ("d1", "d2", "d34"):
            names += [f"{phase}_{d}_{k}" for k in ("single", "pair", "bomb", "control", "high", "delta")]
        names += [f"{phase}_me12_{k}" for k in ("control", "delta", "bomb")]
    names += ["reply_d1_pass", "reply_d2_pass", "reply_d34_pass", "reply_owner_near_pass", "reply_landlord_pass"]
    names += ["landlord_bomb", "duel_bomb"]
    ranks = range(15)
    for what in ("after", "move", "unseen", "trick"):
        names += [f"{what}_{r}" for r in ranks]
    names += [f"held_{k}" for k in range(3)] + [f"landlord_{k}" for k in range(3)]
    return names


#: The figures' count: the rest of :data:`NAMES` are raw counts (:func:`_raw`), which a network
#: fitted on the figures alone does not read.
FIGURES = 81


#: The features of a move, in the network's order (``_rollout.c`` numbers them the same).
NAMES = tuple(_names())
_INDEX = {n: i for i, n in enumerate(NAMES)}
#: From this feature on (the cards unseen, the trick, the seats' cards, the landlord), every move of a
#: decision has the same values (``_rollout.c``: ``F_DECISION``).
DECISION = _INDEX["unseen_0"]


def features(ctx: Ctx, moves: list[Combo | None], choice: Combo | None) -> list[list[float]]:
    """Each of ``moves``' features (:data:`NAMES`) at ``ctx``, the rule policy's ``choice`` known."""
    hand = ctx.hand
    line = ctx.line()
    base = plays_of(to_shed(hand, line))
    danger = min(ctx.need(s) for s in range(ctx.players) if not ctx.partner(s))
    mine = ctx.my_need()
    lead = ctx.last is None
    partner_last = not lead and ctx.partner(ctx.last[0])
    phase = "lead" if lead else "reply"
    band = "d1" if danger == 1 else "d2" if danger == 2 else "d34" if danger <= 4 else None
    out = []
    policy = policy_index(moves, choice)
    for k, m in enumerate(moves):
        x = [0.0] * FIGURES + _raw(ctx, m)

        def put(name: str, value: float = 1.0) -> None:
            x[_INDEX[name]] += value

        if k == policy:
            put("policy")
        if m is None:
            put("pass")
            if partner_last:
                put("pass_partner")
            if band:
                put(f"reply_{band}_pass")
            if not partner_last and ctx.need(ctx.last[0]) <= 4:
                put("reply_owner_near_pass")
            if ctx.seat == ctx.landlord:
                put("reply_landlord_pass")
            out.append(x)
            continue
        if partner_last:
            put("play_partner")
        slot = ("single", "pair", "trio", "chain", "bomb")[_kind_slot(m)]
        after = sub(hand, m)
        after_plays = plays_of(to_shed(after, line))
        delta = after_plays - (base - 1)
        control = is_control(m, ctx)
        high = m.main >= TWO
        put(f"{phase}_{slot}")
        put(f"{phase}_delta", delta)
        put(f"{phase}_delta_pos", max(0, delta))
        put(f"{phase}_main", m.main / 14)
        put(f"{phase}_high", high)
        put(f"{phase}_control", control)
        put(f"{phase}_size", m.size / 10)
        put(f"{phase}_run_out", can_run_out(ctx, after))
        put(f"{phase}_after_plays", min(after_plays, 10) / 10)
        splits = leads_from_split(to_shed(after, line)) if after_plays <= 6 else ()
        put(f"{phase}_after_controls", sum(1 for p in splits if is_control(p, ctx)) / 3)
        if band:
            if slot in ("single", "pair", "bomb"):
                put(f"{phase}_{band}_{slot}")
            put(f"{phase}_{band}_control", control)
            put(f"{phase}_{band}_high", high)
            put(f"{phase}_{band}_delta", delta)
        if mine <= 2 or after_plays <= 2:
            put(f"{phase}_me12_control", control)
            put(f"{phase}_me12_delta", delta)
            put(f"{phase}_me12_bomb", m.is_bomb)
        if m.is_bomb:
            if ctx.seat == ctx.landlord:
                put("landlord_bomb")
            if not ctx.partnered:
                put("duel_bomb")
        out.append(x)
    return out


def _raw(ctx: Ctx, move: Combo | None) -> list[float]:
    """The raw counts of ``move`` at ``ctx``: by rank, the hand after it, the move, the cards
    unseen and the trick to beat; the cards each seat holds (this one first, then round the table)
    and who is landlord, for three seats (a duel's third is 0)."""
    moved = move.counts if move is not None else (0,) * len(ctx.hand)
    trick = ctx.last[1].counts if ctx.last is not None else (0,) * len(ctx.hand)
    seats = [(ctx.seat + k) % ctx.players for k in range(ctx.players)]
    pad = [0.0] * (3 - ctx.players)
    return [*(float(h - c) for h, c in zip(ctx.hand, moved)), *map(float, moved), *map(float, ctx.unseen),
            *map(float, trick), *(ctx.cards_left[s] / 20 for s in seats), *pad,
            *(float(s == ctx.landlord) for s in seats), *pad]


def policy_index(moves: list[Combo | None], choice: Combo | None) -> int:
    """Where the rule policy's own move (``choice``; None: pass) is in ``moves``."""
    key = None if choice is None else choice.key
    return next(i for i, m in enumerate(moves) if (None if m is None else m.key) == key)


@dataclass(frozen=True)
class Net:
    """A move's score from its features: standardised, one hidden layer of rectified units, a sum."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    #: feature by feature, each hidden unit's weight
    w1: tuple[tuple[float, ...], ...]
    b1: tuple[float, ...]
    w2: tuple[float, ...]

    @cached_property
    def rows(self) -> tuple[tuple[float, ...], ...]:
        """``w1`` with the standardisation folded in: feature by feature, each unit's weight per unit
        of the raw feature."""
        return tuple(tuple(w / scale for w in row) for row, scale in zip(self.w1, self.scale))

    @cached_property
    def bias(self) -> tuple[float, ...]:
        """Each unit's sum when every feature is 0 (``b1`` less each feature's mean's terms)."""
        bias = list(self.b1)
        for mean, row in zip(self.mean, self.rows):
            for h, w in enumerate(row):
                bias[h] -= mean * w
        return tuple(bias)

    @cached_property
    def order(self) -> tuple[int, ...]:
        """The features in the order the units sum them: a decision's common ones (from
        :data:`DECISION`) first, which the compiled kernel sums once a decision, then the move's."""
        inputs = len(self.mean)
        return (*range(DECISION, inputs), *range(min(DECISION, inputs)))

    def score(self, x: list[float]) -> float:
        """The score of one move's features ``x``: the units sum only the features that are not 0,
        in :attr:`order`, as the compiled kernel does, so the two agree to the last bit.

        >>> weights, x = net(2), [0.0] * len(NAMES)
        >>> x[_INDEX["pass"]] = x[_INDEX["held_0"]] = 1.0
        >>> z = [(v - m) / s for v, m, s in zip(x, weights.mean, weights.scale)]
        >>> units = [b + sum(v * row[h] for v, row in zip(z, weights.w1)) for h, b in enumerate(weights.b1)]
        >>> abs(weights.score(x) - sum(a * w for a, w in zip(units, weights.w2) if a > 0)) < 1e-9
        True
        """
        hidden = list(self.bias)
        rows = self.rows
        for i in self.order:
            value = x[i]
            if value:
                for h, w in enumerate(rows[i]):
                    hidden[h] += value * w
        out = 0.0
        for a, w in zip(hidden, self.w2):
            if a > 0:
                out += a * w
        return out

    def kernel_args(self, players: int) -> tuple:
        """The arguments of the compiled kernel's ``set_net`` that make it play this network at a
        table of ``players`` (the weights of ``w1`` in one row, feature by feature).

        >>> args = net(3).kernel_args(3)
        >>> args[0], len(args[3]) == len(args[1]) * len(args[4]), args[-1] == MARGIN
        (3, True, True)
        """
        return players, self.mean, self.scale, [w for row in self.w1 for w in row], self.b1, self.w2, MARGIN


#: Each table's network, by its number of players (the features see partners; the weights differ).
FILES = {2: "distilled_duel.json", 3: "distilled_classic.json"}


@lru_cache(maxsize=None)
def net(players: int) -> Net:
    """The network for a table of ``players`` (:data:`FILES`, fitted by ``benchmarks/distill.py``).

    >>> len(net(3).b1), len(net(3).mean) == FIGURES, len(net(2).b1), len(net(2).mean) == len(NAMES)
    (32, True, 64, True)
    """
    name = FILES[players]
    data = json.loads(resources.files(__package__).joinpath(name).read_text())
    w1 = tuple(tuple(row) for row in data["W1"])
    hidden = len(data["b1"])
    inputs = len(data["mean"])  # the figures alone, or every feature
    shapes = inputs in (FIGURES, len(NAMES)) and [len(data["scale"]), len(w1)] == [inputs] * 2 and \
        {len(row) for row in w1} == {hidden} and len(data["w2"]) == hidden
    if data.get("kind") != "net" or not shapes or min(data["scale"]) <= 0:
        raise ValueError(f"{name} is not a network over the first {FIGURES} or all {len(NAMES)} features of NAMES")
    return Net(tuple(data["mean"]), tuple(data["scale"]), w1, tuple(data["b1"]), tuple(data["w2"]))


def distilled_move(ctx: Ctx) -> Combo | None:
    """The distilled policy's move at ``ctx`` (None: pass)."""
    moves, choice = shortlist(ctx)
    if len(moves) < 2:
        return choice
    weights = net(ctx.players)
    scores = [weights.score(x) for x in features(ctx, moves, choice)]
    best = max(range(len(moves)), key=lambda i: (scores[i], -i))  # the first of the best
    policy = policy_index(moves, choice)
    return moves[best] if scores[best] > scores[policy] + MARGIN else choice
