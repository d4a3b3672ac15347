"""Reading the table: which hidden hands and which styles explain what the others did.

Super-hard samples *worlds* (deals of the cards it cannot see).  A uniform
sample ignores what the table has shown: a player who passed on a lone 6
while holding three loose 7s in some world makes that world less likely, and
a player who keeps answering with its lowest reply is probably a greedy
follower.  For a world, :func:`read_world` replays the round's plays from
each other seat's point of view (its hand in that world, plus what it played
since) and asks every style of :mod:`dizhu.bots.styles` what it would have
done at that seat's recent decisions.  The likelihood of the observed action
under a style is ``HIT`` when the style agrees and ``MISS`` when it does not
(no style is exact; people are not either), so

    P(world) ∝ Π_seat Σ_style PRIOR(style) Π_t P(action_t | style, hand_t)

weights the world, and the same sums give each seat's style posterior in that
world, from which the rollouts draw the style the seat plays by.  Only the
seat's own actions are evidence — never who the player is.

A decision with one legal action (a forced pass) is no evidence, and a
decision where every style agrees weighs every world and style alike.

How far an agreement is trusted (``HIT`` against ``MISS``) is the search's to
set, by variant (``SearchConfig.hit``, ``miss``).  In the duel, where one
opponent's hand is all there is to read and 17 cards go to nobody, super-hard
trusts it further (0.9 against 0.1); so sharp a reading leaves most uniformly
sampled worlds weighing next to nothing, and the search draws each world it
plays out from several it has read (``SearchConfig.resample``,
``search._draw_world``) rather than play out worlds that count for nothing.

The earlier rounds at the table (the observation's ``earlier``: finished, so
every hand in them is known) say more, and with no guessing: :func:`read_table`
asks every style what it would have played at each of a seat's decisions
there, and gives the seat a prior of its own (the styles that agreed with it
most weigh most) and, per style, how often that style predicts it — a style
that called 19 of its 20 choices is trusted further than the 0.8 of ``HIT``
(the table's rates start from the variant's ``hit``, as the round's reading does).
The evidence is the seat's own play at this table: never who the player is.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cached_property, lru_cache
from operator import add, sub
from typing import Mapping

from ..cards import NUM_RANKS
from ..combos import Combo, classify
from ..game.play import PlayState
from ..variants import Variant, get_variant
from .bidding import CLASSIC_THRESHOLDS, wants_rob, win_chance
from .policy import Ctx
from .styles import PRIOR, STYLE_NAMES, STYLES, picks, twins
from .view import View, counts_of

__all__ = ["Reading", "Table", "read_world", "read_table", "bids_likelihood", "HIT", "MISS", "RECENT"]

#: The likelihood of an action when a style agrees with it, and when it does not.
HIT, MISS = 0.8, 0.25
#: How many of each seat's latest decisions are read (older ones matter less, and each costs time).
RECENT = 5
#: Reading the table: a style's agreement rate with a seat starts from the search's ``hit`` as if it had been
#: seen at this many decisions, and stays within these bounds (no style is exact).
PSEUDO_DECISIONS = 10
HIT_RANGE = (0.3, 0.97)
#: The share of a seat's table prior kept on the neutral mixture: no style is ever ruled out.
NEUTRAL_SHARE = 0.1
#: How much one agreement at the table counts towards a style, against the in-round reading's
#: ``log(hit / (1 - hit))`` (the styles' errors are alike, so their agreements are not independent).
EVIDENCE_WEIGHT = 1.0


@dataclass(frozen=True)
class Table:
    """What the earlier rounds at the table say of each other seat, in STYLE_NAMES order:
    ``prior`` its style mixture, ``hit`` and ``miss`` each style's likelihood of an action it
    agrees with and of one it does not (with no earlier round: the neutral mixture, HIT, MISS)."""

    prior: dict[int, tuple[float, ...]]
    hit: dict[int, tuple[float, ...]]
    miss: dict[int, tuple[float, ...]]
    #: The decisions read, per seat.
    decisions: dict[int, int]
    #: The likelihoods of an action when every style agrees on it, and when they agree otherwise.
    agree: tuple[float, float] = (HIT, MISS)

    @cached_property
    def asked(self) -> list[int]:
        """The styles (their places in STYLE_NAMES) some seat's prior gives weight to: the others are not
        asked (kept once a table: every world of a decision reads by it)."""
        return [k for k in range(len(STYLE_NAMES)) if any(w[k] > 0 for w in self.prior.values())]

    @classmethod
    def neutral(cls, view: View, prior: Mapping[str, float] = PRIOR, hit: float = HIT,
                miss: float = MISS) -> "Table":
        """Nothing known of anyone: every other seat read against ``prior`` with ``hit`` and ``miss``."""
        weights = _weights(prior)
        others = [s for s in range(view.players) if s != view.seat]
        flat = len(STYLE_NAMES)
        return cls({s: weights for s in others}, {s: (hit,) * flat for s in others},
                   {s: (miss,) * flat for s in others}, {s: 0 for s in others}, (hit, miss))


@dataclass(frozen=True)
class Reading:
    """What a world's replay says: its weight, and per seat the style posterior in it."""

    #: Relative likelihood of the world given every seat's read decisions (1: no evidence).
    weight: float
    #: seat -> probabilities of STYLE_NAMES (in that order); absent for this bot's own seat.
    styles: dict[int, tuple[float, ...]]
    #: Style evaluations it took (the search counts them against its budget).
    cost: int

    def draw(self, seat: int, rng: random.Random) -> str:
        """A style for ``seat`` drawn from its posterior in this world."""
        return rng.choices(STYLE_NAMES, weights=self.styles[seat])[0]

    @classmethod
    def neutral(cls, view: View, prior: Mapping[str, float] = PRIOR, table: "Table | None" = None) -> "Reading":
        """No reading: the world weighs 1 and every other seat plays by ``prior`` (or by its
        prior at the ``table``).

        >>> from dizhu import Round
        >>> view = View.of(Round.deal("duel", seed=1).observation(0))
        >>> Reading.neutral(view, {"greedy": 2.0}).styles[1][STYLE_NAMES.index("greedy")]
        1.0
        """
        table = table or Table.neutral(view, prior)
        return cls(1.0, dict(table.prior), 0)


def _weights(prior: Mapping[str, float]) -> tuple[float, ...]:
    """``prior`` as probabilities of STYLE_NAMES, in that order."""
    total = sum(prior.values())
    return tuple(prior.get(name, 0.0) / total for name in STYLE_NAMES)


def read_world(view: View, hands: list[list[int]], rng: random.Random,
               prior: Mapping[str, float] = PRIOR, table: "Table | None" = None, recent: int = RECENT) -> Reading:
    """Replay the round in the world ``hands`` (every seat's cards now) and weigh it,
    each other seat read against the style mixture ``prior`` — or, given the ``table``
    (:func:`read_table`), against its own prior there, with its own HIT and MISS per style —
    at its latest ``recent`` decisions."""
    table = table or Table.neutral(view, prior)
    players, me = view.players, view.seat
    replay = _replay_of(view, recent)
    wanted = replay.wanted
    # each seat's hand when the play began (the bids were made on these): its cards now plus all it played
    dealt = [list(map(add, hands[s], replay.spent[s])) for s in range(players)]
    likelihood = {s: [1.0] * len(STYLE_NAMES) for s in range(players) if s != me}
    asked = table.asked
    asked_styles = [STYLES[STYLE_NAMES[k]] for k in asked]
    cost = 0
    for seat, actual, said in _answers(replay, hands, view, asked_styles, rng):
        row = likelihood[seat]
        if len(set(said)) == 1:  # the styles agree: the world is weighed, no style is
            factor = table.agree[0] if said[0] == actual else table.agree[1]
            for k in asked:
                row[k] *= factor
        else:  # they differ: each by how far it predicts this seat (the table's rates are for such decisions)
            hit, miss = table.hit[seat], table.miss[seat]
            for k, pick in zip(asked, said):
                row[k] *= hit[k] if pick == actual else miss[k]
        cost += 3 * len(asked) // 2  # a style evaluation is dearer than a rollout move
    weight = bids_likelihood(view, dealt)
    styles: dict[int, tuple[float, ...]] = {}
    for seat, row in likelihood.items():
        joint = [p * q for p, q in zip(table.prior[seat], row)]
        total = sum(joint)
        # relative to a world where every style agreed with every decision
        weight *= total / (table.agree[0] ** wanted.get(seat, 0))
        styles[seat] = tuple(j / total for j in joint)
    return Reading(weight, styles, cost)


@dataclass(frozen=True)
class _Replay:
    """The round's plays replayed once for all the worlds of a decision: what does not depend on
    the hidden cards."""

    #: Per seat, the rank counts it has played this round.
    spent: tuple[tuple[int, ...], ...]
    #: The decisions read, in order: (seat, its action's key or None for a pass, the counts it plays
    #: from then on, the cards not yet played then, every seat's cards left then, the play to beat).
    decisions: tuple[tuple, ...]
    #: How many decisions are read per seat.
    wanted: dict[int, int]


_last_replay: tuple = (None, None, None)


def _replay_of(view: View, recent: int) -> _Replay:
    """The replay of ``view``'s round, its seats' latest ``recent`` decisions read; the last one is
    kept, as a decision reads hundreds of worlds of one view."""
    global _last_replay
    seen, key, replay = _last_replay
    history = view.history
    # (a view changed in place since is replayed again)
    now = (recent, len(history), tuple(history[-1]) if history else None, view.seat, tuple(view.cards_left))
    if seen is view and key == now:
        return replay
    plays = [(seat, _play(text)) for seat, text in view.history]
    wanted: dict[int, int] = {}
    read_at: set[int] = set()
    for i in range(len(plays) - 1, -1, -1):
        seat = plays[i][0]
        if seat != view.seat and wanted.get(seat, 0) < recent:
            wanted[seat] = wanted.get(seat, 0) + 1
            read_at.add(i)
    replay = _replay(plays, view.variant, view.cards_left, view.landlord, view.handicap, read_at, wanted)
    _last_replay = (view, now, replay)
    return replay


def _replay(plays: list, variant: Variant, cards_left: list[int], landlord: int, handicap: int,
            read_at: "set[int] | None", wanted: "dict[int, int] | None" = None) -> _Replay:
    """Replay ``plays`` ((seat, combo or None), in order) whose seats hold ``cards_left`` cards at
    the end, reading the decisions whose index is in ``read_at`` (None: all).  The play state's
    hands are what each seat has still to play of the plays: the rest of its cards is not known."""
    spent = [[0] * NUM_RANKS for _ in range(variant.players)]
    for seat, combo in plays:
        if combo is not None:
            spent[seat][:] = map(add, spent[seat], combo.counts)
    left = [n + sum(row) for n, row in zip(cards_left, spent)]
    state = PlayState(variant, [row[:] for row in spent], landlord, handicap, plays[0][0] if plays else 0,
                      left=left)
    deck = variant.deck_counts
    decisions = []
    for i, (seat, combo) in enumerate(plays):
        if read_at is None or i in read_at:
            decisions.append((seat, None if combo is None else combo.key, tuple(state.hands[seat]),
                              tuple(map(sub, deck, state.played)), tuple(state.left), state.last))
        state.apply(combo)
    return _Replay(tuple(map(tuple, spent)), tuple(decisions), wanted or {})


def _contexts(replay: _Replay, hands: list[list[int]], players: int, landlord: int, handicap: int):
    """``(seat, the key of its action or None, what it knew then)`` at each decision ``replay`` reads,
    in the world ``hands`` (every seat's cards at the end of the plays)."""
    for seat, actual, to_come, unplayed, left, last in replay.decisions:
        hand = tuple(map(add, hands[seat], to_come))  # the seat's hand then, in this world
        yield seat, actual, Ctx(hand, seat, players, landlord, list(left), last, tuple(map(sub, unplayed, hand)),
                                handicap)


def _answers(replay: _Replay, hands: list[list[int]], view: View, styles: list, rng: random.Random):
    """``(seat, the key of its action or None, what each of ``styles`` plays there)`` at each decision
    ``replay`` reads, in the world ``hands``: every decision in one call of the compiled kernel when each
    style has a twin there, the normal style's two draws at each decision taken from ``rng`` in the
    order :func:`~dizhu.bots.styles.picks` takes them; else decision by decision."""
    found = twins(styles)
    if found is None:
        contexts = _contexts(replay, hands, view.players, view.landlord, view.handicap)
        return ((seat, actual, picks(styles, ctx, rng)) for seat, actual, ctx in contexts)
    kernel, specs = found
    decisions = replay.decisions
    draws = [rng.random() for _ in range(2 * len(decisions))]
    said = kernel.read(specs, hands, view.landlord, view.handicap, decisions, draws)
    return ((d[0], d[1], answer) for d, answer in zip(decisions, said))


def read_table(view: View, prior: Mapping[str, float] = PRIOR, hit: float = HIT, miss: float = MISS) -> Table:
    """Each other seat's style prior and per-style HIT and MISS, from the earlier rounds at
    the table (``view.earlier``).  A style's agreement rate with the seat is counted over the
    seat's decisions where the styles disagree (elsewhere they say nothing), shrunk towards
    ``hit`` (the search's, by variant); the seat's prior weighs each style by its record, ``hit``
    for an agreement and ``1 - hit`` for a miss, and keeps ``NEUTRAL_SHARE`` on ``prior``.  A
    style's miss keeps the ratio of ``miss`` to ``1 - hit``.  With no earlier round, the neutral
    table (``hit`` and ``miss`` for every style).

    >>> from dizhu import Match
    >>> m = Match("duel", seed="table")
    >>> read_table(View.of(m.observation(0))).decisions   # a new table: nothing read
    {1: 0}
    """
    table = Table.neutral(view, prior, hit, miss)
    if not view.earlier:
        return table
    base = table.prior[next(iter(table.prior))]
    agree = {s: [0] * len(STYLE_NAMES) for s in table.prior}
    seen = dict.fromkeys(table.prior, 0)
    for record in view.earlier:
        for seat, (agreed, decisions) in _round_evidence(_record_key(record), view.variant.name).items():
            if seat in agree:
                agree[seat] = [a + b for a, b in zip(agree[seat], agreed)]
                seen[seat] += decisions
    low, high = HIT_RANGE
    ratio = EVIDENCE_WEIGHT * math.log(hit / (1 - hit))
    prior_of, hit_of, miss_of = {}, {}, {}
    for seat, counts in agree.items():
        n = seen[seat]
        rates = [min(high, max(low, (a + hit * PSEUDO_DECISIONS) / (n + PSEUDO_DECISIONS))) for a in counts]
        hit_of[seat] = tuple(rates)
        miss_of[seat] = tuple(min(1.0, miss / (1 - hit) * (1 - r)) for r in rates)
        # log-likelihood of the record under "the seat plays by style k" (agrees at ``hit``)
        logs = [math.log(w) + ratio * a if w > 0 else -math.inf for w, a in zip(base, counts)]
        top = max(logs)
        post = [math.exp(x - top) for x in logs]
        total = sum(post)
        prior_of[seat] = tuple((1 - NEUTRAL_SHARE) * p / total + NEUTRAL_SHARE * w for p, w in zip(post, base))
    return Table(prior_of, hit_of, miss_of, seen, (hit, miss))


def _record_key(record: Mapping) -> tuple:
    return (record["landlord"], tuple(record["hands"]), tuple(map(tuple, record["history"])),
            record["handicap"])


@lru_cache(maxsize=256)
def _round_evidence(key: tuple, variant: str) -> dict[int, tuple[tuple[int, ...], int]]:
    """Replay a finished round (every hand known) and ask each style what it would have
    played at each decision: seat -> (agreements per style, decisions where styles differ)."""
    landlord, hands, history, handicap = key
    v = get_variant(variant)
    players = v.players
    plays = [(seat, _play(text)) for seat, text in history]
    dealt = [counts_of(h) for h in hands]
    left = [sum(h) for h in dealt]
    for seat, combo in plays:
        if combo is not None:
            left[seat] -= combo.size
    replay = _replay(plays, v, left, landlord, handicap or 0, None)
    end = [list(map(sub, h, spent)) for h, spent in zip(dealt, replay.spent)]  # every hand at the end
    agree = {s: [0] * len(STYLE_NAMES) for s in range(players)}
    seen = dict.fromkeys(range(players), 0)
    rng = random.Random(0)  # the normal style's dice: the same every time the round is read
    every = [STYLES[name] for name in STYLE_NAMES]
    for seat, actual, ctx in _contexts(replay, end, players, landlord, handicap or 0):
        said = picks(every, ctx, rng)
        if len(set(said)) > 1:
            seen[seat] += 1
            for k, pick in enumerate(said):
                agree[seat][k] += pick == actual
    return {s: (tuple(agree[s]), seen[s]) for s in range(players)}


@lru_cache(maxsize=4096)
def _play(text: str) -> Combo | None:
    """A history entry's play (None: pass); memoised, as every world replays the same history."""
    return None if text == "pass" else classify(text)


def bids_likelihood(view: View, held: list[list[int]]) -> float:
    """How well the world's hands (``held``: each seat's cards when the play began)
    explain the other seats' bids: a bid of 3 says a strong hand, a pass a weak one.

    Judged by the bidding model the bots bid with (:mod:`dizhu.bots.bidding`): a
    points bid of k is likely if the hand's chance as landlord reaches the k-th
    threshold, a pass if it stays below the next bid's; a duel call if the
    chance is at least even, a pass on the call if it is not; a rob if robbing
    at one more card of handicap is worth it, a pass on a rob if it is not.
    """
    style = view.variant.bidding.name
    likelihood = 1.0
    highest = 0
    called = False
    robs = 0
    for seat, action in view.bids:
        if seat == view.seat:
            if action.startswith("bid "):
                highest = int(action[4:])
            called = called or action == "call"
            robs += action == "rob"
            continue
        hand = held[seat]
        if seat == view.landlord:
            hand = [n - b for n, b in zip(hand, view.bottom)]  # its 17 cards before the bottom
        if action.startswith("bid "):
            k = int(action[4:])
            likelihood *= HIT if win_chance(hand, style) >= CLASSIC_THRESHOLDS[k - 1] else MISS
            highest = k
        elif action == "call":
            likelihood *= HIT if win_chance(hand, style) >= 0.5 else MISS
            called = True
        elif action == "rob":
            likelihood *= HIT if wants_rob(hand, robs) else MISS
            robs += 1
        elif action == "pass" and style == "rob":
            if called:  # it let the caller (or the last robber) keep the landlord's seat
                likelihood *= MISS if wants_rob(hand, robs) else HIT
            else:
                likelihood *= HIT if win_chance(hand, style) < 0.5 else MISS
        elif action == "pass" and style == "points" and highest < len(CLASSIC_THRESHOLDS):
            likelihood *= HIT if win_chance(hand, style) < CLASSIC_THRESHOLDS[highest] else MISS
    return likelihood
