"""The ``dizhu`` command."""

from __future__ import annotations

import argparse
import secrets
import sys

from .cards import hand_from_counts
from .variants import get_variant


def _deal(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    deck = list(hand_from_counts(variant.deck_counts))
    rng = secrets.SystemRandom()
    rng.shuffle(deck)
    hand = sorted(deck[: variant.hand_size])
    print(f"{variant.name}: " + " ".join(str(card) for card in hand))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dizhu", description="Dou Dizhu (Fight the Landlord).")
    commands = parser.add_subparsers(dest="command")
    deal = commands.add_parser("deal", help="deal and show a random hand")
    deal.add_argument("--variant", default="classic", choices=["classic", "duel"])
    deal.set_defaults(func=_deal)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        args = parser.parse_args(["deal"] + (argv or []))
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
