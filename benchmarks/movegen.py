"""Legal-move generation speed: dizhu against RLCard and DouZero, in one run.

    python benchmarks/movegen.py [--situations 2000] [--seed 7] [--rounds 5]

Builds a fixed, seeded set of classic situations (random 17- and 20-card
hands; half leading, half responding to a random legal play of another hand
from the same deck), parses every input beforehand into each engine's own
format, then times each engine over the whole set several times and reports
the median round as mean microseconds per call.  Nothing is cached between
situations.

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

from dizhu import CLASSIC, legal_moves  # noqa: E402
from dizhu.cards import Hand, hand_from_counts  # noqa: E402
from dizhu.moves import play_table  # noqa: E402


def make_situations(count: int, seed: int):
    rng = random.Random(seed)
    deck = list(hand_from_counts(CLASSIC.deck_counts))
    situations = []
    for i in range(count):
        rng.shuffle(deck)
        size = 17 if i % 4 < 2 else 20
        hand = Hand(sorted(deck[:size]))
        previous = None
        if i % 2:
            other = Hand(sorted(deck[size : size + 17]))
            previous = rng.choice(legal_moves(other))
        situations.append((hand, previous))
    return situations


def time_rounds(calls, rounds: int) -> float:
    """Median over ``rounds`` of the mean seconds per call."""
    results = []
    for _ in range(rounds):
        start = time.perf_counter()
        for call in calls:
            call()
        results.append((time.perf_counter() - start) / len(calls))
    return statistics.median(results)


# ---- dizhu


def dizhu_calls(situations):
    play_table()  # built once per process, like any engine's static tables
    return [lambda h=h, p=p: legal_moves(h, p) for h, p in situations]


# ---- DouZero

DOUZERO_RANK = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]


def douzero_calls(situations):
    try:
        from douzero.env.game import GameEnv
    except ImportError:
        return None
    calls = []
    for hand, previous in situations:
        env = GameEnv(players=None)
        env.acting_player_position = "landlord"
        env.info_sets["landlord"].player_hand_cards = [DOUZERO_RANK[c.rank] for c in hand]
        if previous is None:
            env.card_play_action_seq = []
        else:
            env.card_play_action_seq = [[DOUZERO_RANK[r] for r in previous.ranks]]
        calls.append(env.get_legal_card_play_actions)
    return calls


# ---- RLCard


class _RLCard:
    def __init__(self, rank: str) -> None:
        self.rank = rank
        self.suit = "S"


class _RLPlayer:
    def __init__(self, hand=None, played: str = "") -> None:
        self.current_hand = hand or []
        self.played_cards = played


def rlcard_calls(situations):
    try:
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        from rlcard.games.doudizhu.utils import CARD_TYPE, get_gt_cards
    except ImportError:
        return None, 0
    calls = []
    skipped = 0
    for hand, previous in situations:
        text = str(hand)
        if previous is None:
            calls.append(lambda text=text: DoudizhuJudger.playable_cards_from_hand(text))
        else:
            played = str(previous)
            if played not in CARD_TYPE[0]:
                skipped += 1  # a play RLCard's action space does not list
                continue
            player = _RLPlayer([_RLCard(ch) for ch in text])
            greater = _RLPlayer(played=played)
            calls.append(lambda a=player, b=greater: get_gt_cards(a, b))
    return calls, skipped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--situations", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    situations = make_situations(args.situations, args.seed)
    lead = [s for s in situations if s[1] is None]
    reply = [s for s in situations if s[1] is not None]
    print(f"{len(situations)} classic situations (seed {args.seed}): {len(lead)} leading, {len(reply)} responding")
    print(f"mean moves per situation (dizhu): {statistics.mean(len(legal_moves(h, p)) for h, p in situations):.1f}")

    rows = []
    for name, factory in (("dizhu", dizhu_calls), ("DouZero 1.1.0", douzero_calls)):
        parts = [factory(s) for s in (lead, reply, situations)]
        if parts[0] is None:
            print(f"{name}: not installed, skipped")
            continue
        rows.append((name, [time_rounds(p, args.rounds) for p in parts], ""))
    rl = [rlcard_calls(s) for s in (lead, reply, situations)]
    if rl[0][0] is None:
        print("RLCard 1.2.0: not installed, skipped")
    else:
        note = f"(responding: {rl[1][1]} plays outside RLCard's action space skipped)" if rl[1][1] else ""
        rows.append(("RLCard 1.2.0", [time_rounds(c, args.rounds) for c, _ in rl], note))

    print()
    print(f"{'engine':<16}{'leading':>12}{'responding':>12}{'all':>12}   (mean µs per call, median of {args.rounds} rounds)")
    for name, (a, b, c), note in rows:
        print(f"{name:<16}{a * 1e6:>12.2f}{b * 1e6:>12.2f}{c * 1e6:>12.2f}   {note}")
    ours = rows[0][1]
    for name, theirs, _ in rows[1:]:
        ratios = "  ".join(f"{t / o:.2f}x" for t, o in zip(theirs, ours))
        print(f"dizhu speed-up over {name}: {ratios}  (leading, responding, all)")

    worst = Hand.of("333444555666777888BR")
    n = len(legal_moves(worst))
    t = time_rounds([lambda: legal_moves(worst)] * 200, args.rounds)
    line = f"\nworst case, leading from 333444555666777888BR: {n} moves, dizhu {t * 1e6:.1f} µs"
    dz = douzero_calls([(worst, None)])
    if dz:
        moves = dz[0]()
        line += f"; DouZero {time_rounds(dz * 200, args.rounds) * 1e6:.1f} µs ({len(moves)} moves listed, {len({tuple(m) for m in moves})} distinct)"
    print(line)


if __name__ == "__main__":
    main()
