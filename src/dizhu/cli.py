"""The ``dizhu`` command."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path

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


def _serve(args: argparse.Namespace) -> int:
    # Imported here so that the other commands work without the web dependencies loaded.
    from .web.server import serve
    from .web.settings import Settings, default_data_dir

    settings = Settings(
        data_dir=args.data_dir or default_data_dir(),
        host=args.host,
        port=args.port,
        workers=args.workers,
        bot_budget=args.bot_budget,
        retention_days=args.retention_days,
        log_level=args.log_level,
        sync=args.sync,
    )
    serve(settings, access_log=not args.no_access_log)
    return 0


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return value


def _add_serve(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    serve = commands.add_parser(
        "serve",
        help="run the game server: the web site and its API",
        description="Serve the browser game and its JSON API (docs/API.md) from one origin. "
        "Games are kept in an SQLite file in the data directory and survive restarts and crashes.",
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default: 127.0.0.1, this machine only; 0.0.0.0 for every interface)")
    serve.add_argument("--port", type=int, default=8000, help="TCP port to listen on (default: 8000)")
    serve.add_argument("--data-dir", type=Path, default=None, metavar="DIR",
                       help="directory for the games database "
                       "(default: $DIZHU_DATA_DIR, else $XDG_DATA_HOME/dizhu, else ~/.local/share/dizhu)")
    serve.add_argument("--workers", type=_count, default=os.cpu_count() or 1, metavar="N",
                       help="processes that run the computer players (default: one per CPU; "
                       "0 runs them on threads inside the server, for debugging)")
    serve.add_argument("--bot-budget", type=_positive, default=None, metavar="SECONDS",
                       help="thinking time per computer decision (default: each level's own)")
    serve.add_argument("--retention-days", type=_positive, default=30.0, metavar="DAYS",
                       help="delete games, finished or abandoned, untouched for this long (default: 30)")
    serve.add_argument("--sync", choices=["full", "normal"], default="full",
                       help="full (default): every answered move survives a power cut; "
                       "normal: faster, survives a crash of the server but not of the machine")
    serve.add_argument("--log-level", choices=["critical", "error", "warning", "info", "debug"],
                       default="info", help="least important messages to log (default: info)")
    serve.add_argument("--no-access-log", action="store_true", help="do not log each request")
    serve.set_defaults(func=_serve)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dizhu", description="Dou Dizhu (Fight the Landlord).")
    commands = parser.add_subparsers(dest="command")
    deal = commands.add_parser("deal", help="deal and show a random hand")
    deal.add_argument("--variant", default="classic", choices=["classic", "duel"])
    deal.set_defaults(func=_deal)
    _add_serve(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        args = parser.parse_args(["deal"] + (argv or []))
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
