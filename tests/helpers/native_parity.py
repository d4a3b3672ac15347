"""The compiled kernels against their Python twins, on seeded positions: every answer must agree.

    python tools/native_parity.py [--hands 1000000] [--positions 1000000] [--decisions 1000000]
                                  [--seed 1]

- The hand split (``dizhu.bots._split`` against ``dizhu.bots.hands``): ``--hands`` hands from the
  classic and the duel decks (0 to 20 cards; a third of them rich in chains: runs of ranks), each
  with a number 0 to 3 that is the kicker capacity for ``best`` and the cards to keep for
  ``to_shed``.
- Move generation (``dizhu._moves`` against ``dizhu.moves._moves_python``): ``--positions`` hands
  (a third of them runs of pairs, trios and quads), each with nothing to beat (a lead) or a play
  another seeded hand can lead, of every kind; the same plays in the same order.
- The styles and rollouts (``dizhu.bots._rollout`` against ``dizhu.bots.styles`` and
  ``search._rollout``): ``--decisions`` decisions met while playing seeded deals out (classic and
  duel, from the first play after a normal bidding, each seat by a style drawn at random), where
  every style of the library must pick the same play (the normal style given the same two random
  draws); at each deal's start, a rollout for each seat by deterministic styles must end with
  the same value after the same number of decisions; in seeded rounds, the look-ahead from a move
  (the others' replies, the options at the next decision, each played out) must see the same
  replies and give the same values, and the reading's one call for a world's decisions must give
  every style's Python play at each.

Prints how many disagree (and the first few) and the CPU time of each side.  The test suite runs
the same checks on fewer (tests/test_split_native.py, tests/test_moves_native.py); this is the
long run, for the background.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from dizhu import Round, _moves, moves  # noqa: E402
from dizhu.bots import _split, create, reading, search  # noqa: E402
from dizhu.bots.policy import Ctx  # noqa: E402
from dizhu.bots.styles import NATIVE_SPECS, OWN_STYLES, STYLE_NAMES, STYLES, compiled  # noqa: E402
from dizhu.bots.view import View  # noqa: E402
from dizhu.bots.hands import _best_python, _to_shed_python  # noqa: E402
from dizhu.combos import Combo  # noqa: E402
from dizhu.variants import get_variant  # noqa: E402

Hand = tuple[int, ...]
_DECKS = [get_variant(v).deck_counts for v in ("classic", "duel")]
_CARDS = [[r for r in range(len(d)) for _ in range(d[r])] for d in _DECKS]


def _runs(rng: random.Random, deck: Hand, widths: tuple[int, int], longest: int) -> list[int]:
    """Up to three runs of ranks, ``widths`` cards of each (no more than the deck has; 20 at most)."""
    c = [0] * len(deck)
    for _ in range(rng.randint(1, 3)):
        low, width = rng.randint(0, 10), rng.randint(*widths)
        for r in range(low, min(12, low + rng.randint(2, longest))):
            if sum(c) + width <= 20:
                c[r] = max(c[r], min(deck[r], width))
    return c


def seeded_hands(n: int, seed: int, loose: int = 0, widths: tuple[int, int] = (1, 3),
                 longest: int = 8) -> Iterator[Hand]:
    """``n`` hands, the same for the same seed: random ones, and every third made of runs
    (``widths`` cards a rank) plus up to ``loose`` random cards."""
    rng = random.Random(seed)
    for i in range(n):
        deck, pool = _DECKS[i % 2], _CARDS[i % 2]
        if i % 3 == 2:
            c = _runs(rng, deck, widths, longest)
            for r in rng.sample(pool, rng.randint(0, loose)):
                if sum(c) < 20 and c[r] < deck[r]:
                    c[r] += 1
        else:
            c = [0] * len(deck)
            for r in rng.sample(pool, rng.randint(0, 20)):
                c[r] += 1
        yield tuple(c)


def split_cases(n: int, seed: int) -> Iterator[tuple[Hand, int]]:
    """(hand, capacity or cards to keep) pairs for the split."""
    rng = random.Random(seed + 1)
    for hand in seeded_hands(n, seed):
        yield hand, rng.choice((0, 0, 0, 1, 2, 3))


def split_disagreement(c: Hand, n: int) -> str | None:
    """How the compiled and the Python split differ for ``c`` (capacity and keep ``n``), or None."""
    for name, native, python in (("best", _split.best, _best_python),
                                 ("to_shed", _split.to_shed, _to_shed_python)):
        found, expected = native(c, n), python(c, n)
        if found != expected:
            return f"{name}{(c, n)}: compiled {found}, Python {expected}"
    return None


def move_cases(n: int, seed: int) -> Iterator[tuple[Hand, Combo | None]]:
    """(hand, play to beat or None) pairs: a lead, or a play some other seeded hand can lead."""
    rng = random.Random(seed + 1)
    others = seeded_hands(n, seed + 2, loose=4, widths=(2, 4), longest=6)
    for hand, other in zip(seeded_hands(n, seed, loose=4, widths=(2, 4), longest=6), others):
        leads = moves._moves_python(other) if rng.random() < 0.8 else []
        yield hand, rng.choice(leads) if leads else None


def move_disagreement(hand: Hand, previous: Combo | None) -> str | None:
    """How the compiled and the Python moves differ for the position, or None."""
    found, expected = moves._moves_native(hand, previous, _moves), moves._moves_python(hand, previous)
    if found == expected:
        return None
    return f"{hand} against {previous}: compiled {[m.text for m in found]}, Python {[m.text for m in expected]}"


class Draws:
    """The normal style's dice, given: ``random()`` is ``u1``, ``choice`` picks by ``u2``."""

    def __init__(self, u1: float, u2: float) -> None:
        self.u1, self.u2 = u1, u2

    def random(self) -> float:
        return self.u1

    def choice(self, seq):  # noqa: ANN001, ANN201
        return seq[int(self.u2 * len(seq))]


def deal_starts(n: int, seed: int) -> Iterator[tuple[View, list[list[int]]]]:
    """``n`` deals at their first play (after a normal bidding), classic and duel in turn: the
    landlord's view and a world consistent with it (all hands)."""
    rng = random.Random(seed + 3)
    for i in range(n):
        variant = ("classic", "duel")[i % 2]
        r = Round.deal(variant, seed=f"parity-{seed}-{i}")
        bots = [create("normal", variant, seed=(seed, i, s)) for s in range(r.players)]
        while r.result is None and r.observation(r.to_act)["phase"] != "playing":
            r.apply(r.to_act, bots[r.to_act].decide(r.observation(r.to_act)))
        if r.result is not None:
            continue  # nobody bid: no play
        view = View.of(r.observation(r.to_act))
        yield view, search.sample_world(view, rng)


def decision_cases(n: int, seed: int) -> Iterator[tuple]:
    """``n`` decisions (a ``Ctx`` and two random draws), met while seeded deals are played out,
    each seat by a style drawn at random."""
    rng = random.Random(seed + 4)
    made = 0
    for view, hands in deal_starts(10 ** 9, seed):
        sim = search.Sim(view, hands)
        seats = [STYLES[rng.choice(STYLE_NAMES)] for _ in range(view.players)]
        while True:
            ctx = sim.ctx()
            yield ctx, rng.random(), rng.random()
            made += 1
            if made >= n:
                return
            if sim.apply(seats[sim.to_act](ctx, rng)) is not None:
                break


#: Every style with a compiled twin: the library's, and the distilled policy the search plays its
#: own moves by.
NAMES = tuple(OWN_STYLES)
_SPECS = [NATIVE_SPECS[OWN_STYLES[name]] for name in NAMES]


def picks_python(ctx, u1: float, u2: float) -> list:  # noqa: ANN001
    """What every style (``NAMES``) plays at ``ctx`` in Python (keys; None: pass)."""
    picks = []
    for name in NAMES:
        move = OWN_STYLES[name](ctx, Draws(u1, u2))
        picks.append(None if move is None else move.key)
    return picks


def picks_compiled(ctx, u1: float, u2: float) -> list:  # noqa: ANN001
    return compiled().picks(_SPECS, ctx.hand, ctx.seat, ctx.landlord, ctx.cards_left, ctx.last, ctx.unseen,
                            ctx.handicap, u1, u2)


def decision_disagreement(ctx, u1: float, u2: float) -> str | None:  # noqa: ANN001
    found, expected = picks_compiled(ctx, u1, u2), picks_python(ctx, u1, u2)
    if found == expected:
        return None
    return f"{ctx} (draws {u1}, {u2}): compiled {found}, Python {expected} ({NAMES})"


#: The styles whose rollouts must agree play for play (the normal style rolls its own dice).
DETERMINISTIC = [OWN_STYLES[name] for name in NAMES if name != "normal"]


def rollout_cases(n: int, seed: int) -> Iterator[tuple]:
    """``n`` rollouts: a deal's start, a seat to score for, deterministic styles for the seats, a luck."""
    rng = random.Random(seed + 5)
    made = 0
    for view, hands in deal_starts(10 ** 9, seed + 6):
        for me in range(view.players):
            yield search.Sim(view, hands), me, [rng.choice(DETERMINISTIC) for _ in range(view.players)], rng.getrandbits(32)
            made += 1
            if made >= n:
                return


def rollout_python(sim, me: int, seats: list, luck: int) -> tuple[float, int]:  # noqa: ANN001
    return search._rollout(sim.copy(), me, seats, luck, native=False)


def rollout_compiled(sim, me: int, seats: list, luck: int) -> tuple[float, int]:  # noqa: ANN001
    return search._rollout(sim.copy(), me, seats, luck)


def rollout_disagreement(sim, me: int, seats: list, luck: int) -> str | None:  # noqa: ANN001
    found, expected = rollout_compiled(sim, me, seats, luck), rollout_python(sim, me, seats, luck)
    if found == expected:
        return None
    return f"hands {sim.hands}, me {me}: compiled {found}, Python {expected}"


def round_views(n: int, seed: int, share: float) -> Iterator[View]:
    """``n`` views of the seat to act, met while seeded rounds (classic and duel in turn) are played by
    normal bots, a ``share`` of the play's decisions."""
    rng = random.Random(seed + 7)
    made = 0
    for i in range(10 ** 9):
        variant = ("classic", "duel")[i % 2]
        r = Round.deal(variant, seed=f"parity-round-{seed}-{i}")
        bots = [create("normal", variant, seed=(seed, i, s)) for s in range(r.players)]
        while r.result is None:
            obs = r.observation(r.to_act)
            if obs["phase"] == "playing" and rng.random() < share:
                yield View.of(obs)
                made += 1
                if made >= n:
                    return
            r.apply(r.to_act, bots[r.to_act].decide(obs))


def lookahead_cases(n: int, seed: int, styles: "list | None" = None) -> Iterator[tuple]:
    """``n`` look-aheads (``search.to_next_decision``'s arguments): a seat's decision in a seeded
    round, a world of its view, a move of its shortlist, a style of ``styles`` (default: the
    deterministic ones) for each seat, a luck, 1 to 6 options."""
    rng = random.Random(seed + 8)
    for view in round_views(n, seed, 0.3):
        root = search.Sim(view, search.sample_world(view, rng))
        move = rng.choice(search._candidates(Ctx.of(view))[0])
        seats = [rng.choice(styles or DETERMINISTIC) for _ in range(view.players)]
        yield view, root, move, seats, rng.getrandbits(32), search.SearchConfig(lookahead=rng.randint(1, 6))


def lookahead_python(*case) -> tuple:  # noqa: ANN002
    return search.to_next_decision(*case, native=False)


def lookahead_disagreement(*case) -> str | None:  # noqa: ANN002
    found, expected = search.to_next_decision(*case), lookahead_python(*case)
    if found == expected:
        return None
    return f"{case[0]}, hands {case[1].hands}, move {case[2]}: compiled {found}, Python {expected}"


def reading_cases(n: int, seed: int) -> Iterator[tuple]:
    """``n`` readings of a world: a seat's view in a seeded round, a world of it, two draws per
    decision read."""
    rng = random.Random(seed + 9)
    for view in round_views(n, seed + 1, 0.3):
        replay = reading._replay_of(view, reading.RECENT)
        yield view, search.sample_world(view, rng), [rng.random() for _ in range(2 * len(replay.decisions))]


def reading_python(view: View, hands: list, draws: list) -> list:
    """What every style plays at each decision the reading reads, in Python."""
    contexts = reading._contexts(reading._replay_of(view, reading.RECENT), hands, view.players, view.landlord,
                                 view.handicap)
    return [picks_python(ctx, draws[2 * j], draws[2 * j + 1]) for j, (_, _, ctx) in enumerate(contexts)]


def reading_compiled(view: View, hands: list, draws: list) -> list:
    decisions = reading._replay_of(view, reading.RECENT).decisions
    return compiled().read(_SPECS, hands, view.landlord, view.handicap, decisions, draws)


def reading_disagreement(view: View, hands: list, draws: list) -> str | None:
    found, expected = reading_compiled(view, hands, draws), reading_python(view, hands, draws)
    if found == expected:
        return None
    return f"{view}, hands {hands}: compiled {found}, Python {expected} ({NAMES})"


def _check(name: str, cases: Iterator[tuple], python: Callable, compiled: Callable,
           disagreement: Callable) -> int:
    python_s = compiled_s = 0.0
    wrong = total = 0
    for total, case in enumerate(cases, 1):
        t0 = time.process_time()
        expected = python(*case)
        t1 = time.process_time()
        found = compiled(*case)
        compiled_s += time.process_time() - t1
        python_s += t1 - t0
        if found != expected:
            wrong += 1
            if wrong <= 5:
                print(disagreement(*case))
        if total % 200_000 == 0:
            print(f"{name}: {total:,}, {wrong} disagree", flush=True)
    print(f"{name}: {total:,} cases, {wrong} disagree; CPU Python {python_s:.1f} s, compiled {compiled_s:.1f} s",
          flush=True)
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands for the split (0: skip)")
    parser.add_argument("--positions", type=int, default=1_000_000, help="positions for the moves (0: skip)")
    parser.add_argument("--decisions", type=int, default=1_000_000,
                        help="decisions for the styles, and a tenth as many rollouts, a hundredth as many "
                             "look-aheads, a twentieth as many readings (0: skip)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    moves.play_table()
    wrong = _check("split", split_cases(args.hands, args.seed),
                   lambda c, n: (_best_python(c, n), _to_shed_python(c, n)),
                   lambda c, n: (_split.best(c, n), _split.to_shed(c, n)), split_disagreement)
    wrong += _check("moves", move_cases(args.positions, args.seed), moves._moves_python,
                    lambda h, p: moves._moves_native(h, p, _moves), move_disagreement)
    if args.decisions:
        wrong += _check("styles", decision_cases(args.decisions, args.seed), picks_python, picks_compiled,
                        decision_disagreement)
        wrong += _check("rollouts", rollout_cases(args.decisions // 10, args.seed), rollout_python,
                        rollout_compiled, rollout_disagreement)
        wrong += _check("look-aheads", lookahead_cases(args.decisions // 100, args.seed), lookahead_python,
                        search.to_next_decision, lookahead_disagreement)
        wrong += _check("readings", reading_cases(args.decisions // 20, args.seed), reading_python,
                        reading_compiled, reading_disagreement)
    print(f"seed {args.seed}: {wrong} disagree in all")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
