"""The ``dizhu`` command."""

from __future__ import annotations

import argparse
import math
import os
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .cards import deck as full_deck
from .variants import VARIANTS, get_variant

if TYPE_CHECKING:
    from .web.settings import Settings


def _deal(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    deck = full_deck(variant)
    rng = secrets.SystemRandom()
    rng.shuffle(deck)
    hand = sorted(deck[: variant.hand_size])
    print(f"{variant.name}: " + " ".join(str(card) for card in hand))
    return 0


def _serve(args: argparse.Namespace) -> int:
    # Imported here so that the other commands work without the web dependencies loaded.
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as error:
        print(f"dizhu serve needs the web extra ({error.name} is not installed): "
              "pip install 'dizhu[web]'", file=sys.stderr)
        return 2
    from .web.server import serve

    from .web.settings import private_dir

    settings = serve_settings(args)
    try:
        private_dir(settings.data_dir)
    except PermissionError as error:
        print(f"dizhu serve: cannot use the data directory: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"dizhu serve: cannot use the data directory {settings.data_dir}: {error.strerror}", file=sys.stderr)
        return 2
    from .web.database import DatabaseError, check_reachable, is_postgres

    if is_postgres(settings.database):
        try:
            check_reachable(settings.database)
        except DatabaseError as error:
            print(f"dizhu serve: {error}", file=sys.stderr)
            return 2
    serve(settings, access_log=not args.no_access_log)
    return 0


#: ``dizhu serve`` options that set a setting of another name; the others share their setting's name.
_SETTING_OF = {"request_limit": "request_per_minute", "create_limit": "create_per_minute", "hint_limit": "hint_per_minute",
               "round_limit": "round_per_minute", "review_limit": "review_per_minute"}


def serve_settings(args: argparse.Namespace) -> "Settings":
    """The server's :class:`~dizhu.web.settings.Settings` from ``dizhu serve``'s parsed options.

    The options' defaults are read from the settings (``_add_serve``), so an
    option left out gives the setting's own default.
    """
    from dataclasses import fields

    from .web.settings import DATABASE_ENV, Settings, default_data_dir

    names = {f.name for f in fields(Settings)}
    values = {_SETTING_OF.get(option, option): value for option, value in vars(args).items()
              if _SETTING_OF.get(option, option) in names}
    values["data_dir"] = args.data_dir or default_data_dir()
    values["database"] = args.database or os.environ.get(DATABASE_ENV, "")
    return Settings(**values)


def _number(text: str, kind: type, what: str) -> "int | float":
    """``text`` read as ``kind``; an argparse error that says what was wanted, not the converter's name."""
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be {what}, not {text!r}") from None


def _count(text: str) -> int:
    value = _number(text, int, "a whole number, 0 or more")
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _at_least_one(text: str) -> int:
    value = _number(text, int, "a whole number, 1 or more")
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _non_negative(text: str) -> float:
    value = _number(text, float, "a number, 0 or more")
    # (not inf: an infinite pace scale came out as nan, and no pace at all hid nothing)
    if not (value >= 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError("must be a number, 0 or more")
    return value


def _ipv6_prefix(text: str) -> int:
    value = _number(text, int, "a prefix length, 1 to 128")
    if not 1 <= value <= 128:
        raise argparse.ArgumentTypeError("must be a prefix length, 1 to 128")
    return value


def _database(text: str) -> str:
    if not text.startswith(("sqlite:", "postgresql://", "postgres://")) or text == "sqlite:":
        raise argparse.ArgumentTypeError("must be sqlite:PATH or postgresql://...")
    return text


def _positive(text: str) -> float:
    value = _number(text, float, "a number more than 0")
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError("must be a number more than 0")
    return value


def _port(text: str) -> int:
    value = _number(text, int, "a TCP port, 0 to 65535")
    if not 0 <= value <= 65535:  # (70000 listened on 4464)
        raise argparse.ArgumentTypeError("must be a TCP port, 0 to 65535 (0: any free port)")
    return value


def _add_serve(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    # settings.py holds every default; it needs only the standard library, not the web extra
    from .web.settings import default

    serve = commands.add_parser(
        "serve",
        help="run the game server: the web site and its API",
        description="Serve the browser game and its JSON API (docs/API.md) from one origin. "
        "Games are kept in an SQLite file in the data directory and survive restarts and crashes.",
    )
    serve.add_argument("--host", default=default("host"),
                       help="address to listen on (default: %(default)s, this machine only; 0.0.0.0 for every "
                       "interface)")
    serve.add_argument("--port", type=_port, default=default("port"), help="TCP port to listen on (default: %(default)s)")
    serve.add_argument("--data-dir", type=Path, default=None, metavar="DIR",
                       help="directory for the games database "
                       "(default: $DIZHU_DATA_DIR, else $XDG_DATA_HOME/dizhu, else ~/.local/share/dizhu)")
    serve.add_argument("--workers", type=_count, default=default("workers"), metavar="N",
                       help="processes that run the searching computer players (default: one per CPU "
                       "but one; normal and intermediate have a process of their own; "
                       "0 runs them on threads inside the server, for debugging)")
    serve.add_argument("--quick-workers", type=_at_least_one, default=default("quick_workers"), metavar="N",
                       help="processes that run normal and intermediate, the fallback moves and the hints "
                       "of those levels (default: %(default)s)")
    serve.add_argument("--hint-workers", type=_at_least_one, default=default("hint_workers"), metavar="N",
                       help="processes that run super-hard's hints and auto-play's moves, apart from the "
                       "computers' searches (default: half of --workers' default, at least one: %(default)s)")
    serve.add_argument("--bot-budget", type=_positive, default=default("bot_budget"), metavar="SECONDS",
                       help="thinking time per computer decision (default: each level's own)")
    serve.add_argument("--retention-days", type=_positive, default=default("retention_days"), metavar="DAYS",
                       help="delete games, finished or abandoned, untouched for this long (default: %(default)s)")
    serve.add_argument("--sync", choices=["full", "normal"], default=default("sync"),
                       help="full: every answered move survives a power cut; normal: faster, survives a crash "
                       "of the server but not of the machine (default: %(default)s)")
    # The limits below protect the players from one another; docs/SERVER.md explains each.
    serve.add_argument("--request-limit", type=_non_negative, default=default("request_per_minute"),
                       metavar="UNITS_PER_MINUTE", help="request units one client may spend per minute, after a "
                       "first burst (a file or a read costs 1, a write 2, a puzzle move 8; default: %(default)s; "
                       "0: no limit)")
    serve.add_argument("--request-burst", type=_at_least_one, default=default("request_burst"), metavar="UNITS",
                       help="request units one client may spend at once (default: %(default)s)")
    serve.add_argument("--ipv6-prefix", type=_ipv6_prefix, default=default("ipv6_prefix"), metavar="BITS",
                       help="IPv6 clients count as one per network of this prefix for every per-client limit "
                       "(default: %(default)s)")
    serve.add_argument("--thinking-total", type=_count, default=default("thinking_total"), metavar="N",
                       help="requests of all clients together that may keep computers thinking at once; more "
                       "are answered 429 too_busy (default: %(default)s; 0: no limit)")
    serve.add_argument("--allowed-hosts", default=default("allowed_hosts"), metavar="NAMES",
                       help="comma-separated host names the site is reached by, besides loopback names and IP "
                       "addresses (default: none; '*': any); other Host headers are refused (DNS rebinding)")
    serve.add_argument("--no-pin-cores", dest="pin_cores", action="store_false",
                       help="let the computers' searches share cores with the server and the hints (by default "
                       "they keep to cores of their own, so that no answer's time depends on them)")
    serve.add_argument("--create-limit", type=_non_negative, default=default("create_per_minute"),
                       metavar="PER_MINUTE", help="new games one client address may create per minute, after a "
                       "first burst (default: %(default)s; 0: no limit)")
    serve.add_argument("--create-burst", type=_count, default=default("create_burst"), metavar="N",
                       help="new games one client address may create at once (default: %(default)s)")
    serve.add_argument("--client-thinking", type=_count, default=default("client_thinking"), metavar="N",
                       help="requests of one client address that may keep computers thinking at once; more "
                       "are answered 429 too_busy (default: %(default)s; 0: no limit)")
    serve.add_argument("--hint-pace", type=_non_negative, default=default("hint_pace"), metavar="SECONDS",
                       help="answer a hint no sooner than this after its search began, so that its time tells "
                       "nothing of other games' searches (default: %(default)s; 0: at once)")
    serve.add_argument("--think-share", type=_non_negative, default=default("think_share"), metavar="FRACTION",
                       help="fraction of a search worker one client address may ask for lately; more is "
                       "answered 429 too_much_thinking (default: %(default)s; 0: no limit)")
    serve.add_argument("--hint-limit", type=_non_negative, default=default("hint_per_minute"),
                       metavar="PER_MINUTE", help="hints one game may ask for per minute, after a first "
                       f"{default('hint_burst')} (default: %(default)s; 0: no limit)")
    serve.add_argument("--round-limit", type=_non_negative, default=default("round_per_minute"),
                       metavar="PER_MINUTE", help="new rounds one client address may deal per minute, after a "
                       f"first {default('round_burst')} (default: %(default)s; 0: no limit)")
    serve.add_argument("--review-limit", type=_non_negative, default=default("review_per_minute"),
                       metavar="PER_MINUTE", help="post-round reviews one client address may start per minute, "
                       f"after a first {default('review_burst')} (default: %(default)s; 0: no limit)")
    serve.add_argument("--review-budget", type=_positive, default=None, metavar="SECONDS",
                       help="the review's thinking per decision (default: the search's, docs/REVIEW.md)")
    serve.add_argument("--rounds-kept", type=_count, default=default("rounds_kept"), metavar="N",
                       help="finished rounds kept per game for replay; older ones are deleted, the totals "
                       "stay (default: %(default)s)")
    serve.add_argument("--max-header-bytes", type=_count, default=default("max_header_bytes"), metavar="BYTES",
                       help="largest request head; larger ones are answered 431 (default: %(default)s)")
    serve.add_argument("--header-timeout", type=_positive, default=default("header_timeout"), metavar="SECONDS",
                       help="time a client has to send a request's head, and then its body (default: %(default)s)")
    serve.add_argument("--keep-alive", type=_positive, default=default("keep_alive"), metavar="SECONDS",
                       help="how long an idle connection is kept open (default: %(default)s)")
    serve.add_argument("--max-connections", type=_at_least_one, default=default("max_connections"), metavar="N",
                       help="connections and requests at once; more are answered 503 (default: %(default)s)")
    serve.add_argument("--client-connections", type=_at_least_one, default=default("client_connections"), metavar="N",
                       help="connections one client address may hold open at once (default: %(default)s)")
    serve.add_argument("--pace", type=_non_negative, default=default("pace"), metavar="SCALE",
                       help="scale of the computers' decision pace, which hides their thinking time "
                       "(default: %(default)s; 0 shows how long they thought: for benchmarks only)")
    serve.add_argument("--forwarded-allow-ips", default=default("forwarded_allow_ips"), metavar="ADDRESSES",
                       help="comma-separated addresses of reverse proxies whose X-Forwarded-For is believed "
                       "(default: none; behind a proxy on this machine: 127.0.0.1)")
    serve.add_argument("--database", type=_database, default=None, metavar="URL",
                       help="where the games are: a postgresql://user@host/db URL shared by several hosts "
                       "(docs/DEPLOY.md), or sqlite:PATH (default: $DIZHU_DATABASE, else the SQLite file "
                       "in the data directory)")
    serve.add_argument("--log-level", choices=["critical", "error", "warning", "info", "debug"],
                       default=default("log_level"), help="least important messages to log (default: %(default)s)")
    serve.add_argument("--no-access-log", action="store_true", help="do not log each request")
    serve.set_defaults(func=_serve)


def _db_copy(args: argparse.Namespace) -> int:
    from .web.database import is_postgres
    from .web.dbcopy import CopyError, copy_games

    if any(is_postgres(url) for url in (args.source, args.target)):
        try:
            import psycopg  # noqa: F401
        except ImportError:
            print("dizhu db copy: PostgreSQL needs the web extra (psycopg is not installed): "
                  "pip install 'dizhu[web]'", file=sys.stderr)
            return 2

    try:
        report = copy_games(args.source, args.target)
    except CopyError as exc:
        print(f"dizhu db copy: {exc}", file=sys.stderr)
        return 1
    counts = ", ".join(f"{n} {table}" for table, n in report.rows.items())
    print(f"copied {counts}; the target holds exactly the source's rows")
    return 0


def _db_backup(args: argparse.Namespace) -> int:
    from .web.database import is_postgres, sqlite_path
    from .web.dbcopy import CopyError, backup_sqlite
    from .web.settings import DATABASE_ENV, default_data_dir

    database = args.database or os.environ.get(DATABASE_ENV, "")
    if is_postgres(database):
        print("dizhu db backup: back a PostgreSQL database up with pg_dump (docs/DEPLOY.md)", file=sys.stderr)
        return 1
    try:
        games = backup_sqlite(sqlite_path(database, args.data_dir or default_data_dir()), args.to)
    except CopyError as exc:
        print(f"dizhu db backup: {exc}", file=sys.stderr)
        return 1
    print(f"backed up {games} games to {args.to}")
    return 0


def _add_db(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    db = commands.add_parser("db", help="copy the games to another database, or back them up")
    actions = db.add_subparsers(dest="db_command", required=True, metavar="{copy,backup}")
    copy = actions.add_parser(
        "copy", help="copy every game from one database to another",
        description="Copy every game, finished round and remembered request into an empty database, "
        "then check that both hold the same rows. Stop the servers on the source first.")
    copy.add_argument("--from", dest="source", type=_database, required=True, metavar="URL",
                      help="sqlite:PATH or postgresql://...")
    copy.add_argument("--to", dest="target", type=_database, required=True, metavar="URL",
                      help="sqlite:PATH or postgresql://... (must hold no games)")
    copy.set_defaults(func=_db_copy)
    backup = actions.add_parser(
        "backup", help="back the SQLite database up into a new file, while the server runs",
        description="SQLite's online backup: a consistent copy even while a server writes. "
        "For PostgreSQL use pg_dump.")
    backup.add_argument("--to", type=Path, required=True, metavar="FILE", help="the new backup file")
    backup.add_argument("--data-dir", type=Path, default=None, metavar="DIR",
                        help="the server's data directory (default: as dizhu serve)")
    backup.add_argument("--database", type=_database, default=None, metavar="URL",
                        help="sqlite:PATH instead of the data directory's file")
    backup.set_defaults(func=_db_backup)


def _play(args: argparse.Namespace) -> int:
    from .terminal import play

    return play(args.variant, args.level, args.seed)


def _arena(args: argparse.Namespace) -> int:
    import json

    from .arena import format_summary, progress_bar, run_arena

    if args.json and not (Path(args.json).parent.is_dir() and not Path(args.json).is_dir()):
        # checked first: the results of a long run were lost to a traceback at its end
        print(f"dizhu arena: cannot write {args.json}: no such directory, or a directory", file=sys.stderr)
        return 2
    result = run_arena(args.a, args.b, args.variant, deals=args.deals, seed=args.seed,
                       bidding=args.bidding, workers=args.workers, budget=args.budget,
                       progress=None if args.quiet else progress_bar, ray=args.ray,
                       review=args.review, review_budget=args.review_budget, series=args.series)
    summary = result.summary()
    print(format_summary(summary))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
        print(f"results written to {args.json}")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from .bench import run

    run(args.seconds)
    return 0


def _add_tools(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    from .arena import PLAYERS
    from .bots import LEVELS

    play = commands.add_parser("play", help="play a match in the terminal against computer players")
    play.add_argument("--variant", default="classic", choices=list(VARIANTS), help="(default: %(default)s)")
    play.add_argument("--level", default="intermediate", choices=LEVELS,
                      help="the computers' level (default: %(default)s)")
    play.add_argument("--seed", default=None, help="deal seed, to replay the same deals")
    play.set_defaults(func=_play)

    arena = commands.add_parser(
        "arena", help="pit two computer levels against each other",
        description="Play DEALS deals twice each, sides swapped (DouZero protocol: no bidding, the "
        "landlord is dealt the first 20 cards), and report A's win share (WP) and average points "
        "difference per game (ADP) with 95% confidence intervals, overall and by seat.")
    arena.add_argument("--a", required=True, choices=PLAYERS, help="player A")
    arena.add_argument("--b", required=True, choices=PLAYERS, help="player B")
    arena.add_argument("--variant", default="classic", choices=list(VARIANTS), help="(default: %(default)s)")
    arena.add_argument("--deals", type=_at_least_one, default=2000,
                       help="deals, each played twice (default: %(default)s)")
    arena.add_argument("--seed", default="1", help="seed of the deals (default: 1)")
    arena.add_argument("--bidding", action="store_true", help="play the bidding too")
    arena.add_argument("--workers", type=_at_least_one, default=None, help="processes (default: every core)")
    arena.add_argument("--budget", type=_positive, default=None, help="super-hard thinking budget, seconds")
    arena.add_argument("--ray", default=None, metavar="ADDRESS",
                       help="play the deals on a Ray cluster: auto, HOST:PORT, or local "
                       "(a Ray instance on this machine); needs the ray extra")
    arena.add_argument("--review", action="store_true",
                       help="review every decision of A (docs/REVIEW.md) and summarise where A loses "
                       "expected points; seconds a game, so use few deals")
    arena.add_argument("--review-budget", type=_positive, default=None, metavar="SECONDS",
                       help="the review's budget per decision (default: the search's)")
    arena.add_argument("--series", type=_at_least_one, default=1, metavar="N",
                       help="play the deals in runs of N at one table: the players see the run's "
                       "earlier games, as in a match (default: 1, every deal on its own)")
    arena.add_argument("--json", default=None, metavar="FILE", help="also write the results as JSON")
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.set_defaults(func=_arena)

    bench = commands.add_parser("bench", help="quick speed check of the rules engine and game engine")
    bench.add_argument("--seconds", type=_positive, default=2.0, help="time per measurement (default: %(default)s)")
    bench.set_defaults(func=_bench)


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = argparse.ArgumentParser(prog="dizhu", description="Dou Dizhu (Fight the Landlord).")
    parser.add_argument("--version", action="version", version=f"dizhu {__version__}")
    commands = parser.add_subparsers(dest="command")
    deal = commands.add_parser("deal", help="deal and show a random hand")
    deal.add_argument("--variant", default="classic", choices=list(VARIANTS), help="(default: %(default)s)")
    deal.set_defaults(func=_deal)
    _add_serve(commands)
    _add_db(commands)
    _add_tools(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        args = parser.parse_args(["deal"] + (argv or []))
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)  # Ctrl-C: stop quietly, with the shell's code for it
        return 130


if __name__ == "__main__":
    sys.exit(main())
