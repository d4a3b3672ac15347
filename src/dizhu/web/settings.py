"""The game server's settings, with their defaults.

Everything ``dizhu serve`` can be told lives in :class:`Settings`; the
command line fills it, tests build their own.
"""

from __future__ import annotations

import os
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any

__all__ = ["Settings", "default", "default_data_dir", "private_dir", "DATA_DIR_ENV", "DATABASE_ENV", "STATIC_DIR"]

#: The environment variable that chooses the data directory.
DATA_DIR_ENV = "DIZHU_DATA_DIR"
#: The environment variable that chooses the database (``dizhu serve --database``).
DATABASE_ENV = "DIZHU_DATABASE"

#: The browser UI's files, served at ``/``.
STATIC_DIR = Path(__file__).resolve().parent / "static"

DAY = 86400.0


def default_data_dir() -> Path:
    """``$DIZHU_DATA_DIR``, else ``$XDG_DATA_HOME/dizhu``, else ``~/.local/share/dizhu``."""
    explicit = os.environ.get(DATA_DIR_ENV)
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "dizhu"


def private_dir(path: "Path | str") -> Path:
    """Make the directory ``path`` for the games, readable and writable by its owner only (700,
    whatever the umask), or check the one there: a data directory that other users may write to
    would let them replace the database under the server, so it is refused (``PermissionError``).

    >>> import tempfile; base = Path(tempfile.mkdtemp())
    >>> oct(private_dir(base / "data").stat().st_mode & 0o777)
    '0o700'
    >>> (base / "open").mkdir(); (base / "open").chmod(0o777); private_dir(base / "open")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    PermissionError: ... is writable by other users (mode 777): make it 700 (chmod 700 ...) or choose another directory
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        path.mkdir(mode=0o700)
        os.chmod(path, 0o700)  # (mkdir's mode is cut by the umask, never widened; this is exact)
    except FileExistsError:
        mode = path.stat().st_mode & 0o777
        if mode & 0o022:
            raise PermissionError(f"{path} is writable by other users (mode {mode:o}): make it 700 "
                                  f"(chmod 700 {path}) or choose another directory") from None
    return path


def default_workers() -> int:
    """Searching bot processes: one per CPU but one, which is left to the server and the
    quick lane (on 2 cores a second search process doubled the other players' p99)."""
    return max(1, (os.cpu_count() or 1) - 1)


@dataclass(frozen=True)
class Settings:
    """How one server runs.

    ``workers`` is the number of processes that run the computer players;
    0 runs them on threads of the server process (for tests and
    debugging only: a slow bot then competes with the server for the GIL).
    ``bot_budget`` is the thinking time per decision in seconds handed to
    the bots (None: each level's own default).  Games untouched for
    ``retention_days`` are deleted.
    """

    data_dir: Path = field(default_factory=default_data_dir)
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = field(default_factory=default_workers)
    bot_budget: float | None = None
    retention_days: float = 30.0
    #: The level whose choice the hint and auto-play show (super-hard: a search of
    #: 0.06 s of one core, dizhu.bots.advice.HINT_BUDGET).
    hint_level: str = "super-hard"
    #: A hint (and auto-play's move, which is the hint's) is answered no sooner than this many
    #: seconds after its search began: a search slows one running beside it even on another
    #: core (two cores may be one core's two threads), so how long a hint took would say whether
    #: a computer in another game was searching.  Above 99% of hints' own times on 2 cores with
    #: a computer searching beside them.
    hint_pace: float = 0.25
    #: Largest request body accepted, in bytes.
    max_body: int = 16 * 1024
    static_dir: Path = STATIC_DIR
    log_level: str = "info"
    #: SQLite ``synchronous``: "full" makes each commit survive a power cut,
    #: "normal" only a crash of the server process.
    sync: str = "full"
    #: How often the pruning of old games runs, in seconds.
    prune_every: float = 3600.0
    #: Games one client address may create: ``create_burst`` at once, then
    #: ``create_per_minute`` (0 turns the limit off).
    create_per_minute: float = 20.0
    create_burst: int = 60
    #: Scale of the computers' decision pace (pacing.py): 1 hides their thinking time
    #: from every client; 0 turns the pace off (tests and benchmarks of raw speed only).
    pace: float = 1.0
    #: Processes for the quick lane (normal, intermediate, their hints, fallbacks).
    quick_workers: int = 1
    #: Processes for the hint lane (the searching level's hints and auto-play's moves):
    #: half the searching workers, at least one.
    hint_workers: int = field(default_factory=lambda: max(1, default_workers() // 2))
    #: Requests of one client address that may keep computers thinking at once;
    #: more answer ``429 too_busy`` before anything is applied.
    client_thinking: int = 4
    #: The fraction of a deep worker one client address may ask for lately (a half-life
    #: of 5 s; a search is charged its public cap): more answers ``429 too_much_thinking``.
    think_share: float = 0.5
    #: Hints one game may ask for: ``hint_burst`` at once, then ``hint_per_minute``.
    hint_per_minute: float = 60.0
    hint_burst: int = 20
    #: New rounds (another round, new game, new match) one client address may deal:
    #: ``round_burst`` at once, then ``round_per_minute``.
    round_per_minute: float = 6.0
    round_burst: int = 20
    #: Post-round reviews: computed at once per client address, new ones one client
    #: may ask for (``review_burst`` at once, then ``review_per_minute``), and the
    #: evaluator's budget per decision (None: the search's default).
    client_reviews: int = 1
    review_per_minute: float = 4.0
    review_burst: int = 10
    review_budget: float | None = None
    #: Finished rounds kept per game (older ones are deleted; totals are kept).
    rounds_kept: int = 200
    #: Bytes of finished rounds in one answer of GET .../rounds, and per client address:
    #: ``read_burst`` bytes at once, then ``read_per_minute``.
    rounds_page_bytes: int = 64 * 1024
    read_per_minute: float = 8 * 1024 * 1024
    read_burst: int = 2 * 1024 * 1024
    #: HTTP: the largest request head (431 above), seconds to send it, seconds an idle
    #: keep-alive connection is kept, connections at once in all and per client address.
    max_header_bytes: int = 16 * 1024
    header_timeout: float = 10.0
    keep_alive: float = 5.0
    max_connections: int = 1024
    client_connections: int = 32
    #: Every request costs its client units (guard.request_cost: a file or a read 1, a write 2, a
    #: puzzle move 8) from a bucket of ``request_burst`` units refilled at ``request_per_minute``
    #: (0 turns it off); over it, ``429 too_many_requests`` after a pause of a second.  A page's
    #: files are about 40 units at once; auto-play at its fastest (a move each 0.5 s) spends 4 a second.
    request_per_minute: float = 1200.0
    request_burst: int = 600
    #: IPv6 clients count as one per network of this prefix for every per-client limit.
    ipv6_prefix: int = 64
    #: Requests that may keep the computers thinking at once, from all clients together: more
    #: answer ``429 too_busy`` (0: no limit).  Bounds the queue whatever the number of addresses.
    thinking_total: int = 128
    #: Host names the server answers besides loopback names, IP literals and ``host``
    #: (comma-separated; "*": any).  Others get ``421 unknown_host`` (DNS rebinding).
    allowed_hosts: str | None = None
    #: Keep the searches (the deep and review workers) on cores of their own, apart from the server,
    #: the hints and the quick lane, so that a search does not slow what another client can time.
    pin_cores: bool = True
    #: Addresses of reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are trusted
    #: (comma-separated, as uvicorn takes them); None trusts no forwarding header.
    forwarded_allow_ips: str | None = None
    #: Where the games are: "" (the SQLite file in ``data_dir``), "sqlite:PATH", or a
    #: "postgresql://" URL shared by several hosts (see docs/DEPLOY.md).
    database: str = ""
    #: On a shared database: connections per host, and how often a host looks
    #: for computer turns left by a host that died (seconds).
    database_pool: int = 8
    resume_every: float = 2.0

    @property
    def db_path(self) -> Path:
        return Path(self.data_dir) / "dizhu.sqlite"

    @property
    def retention_seconds(self) -> float:
        return self.retention_days * DAY

    @property
    def bot_timeout(self) -> float:
        """How long the server waits for one bot decision before it plays a
        simple fallback move instead (a safety net: bots keep their budget)."""
        return max(5.0, 4.0 * (self.bot_budget or 1.0))


def default(name: str) -> Any:
    """The default of setting ``name``: the one place it is written (the command line shows it).

    >>> default("port"), default("retention_days"), default("workers") >= 1
    (8000, 30.0, True)
    """
    (spec,) = [f for f in fields(Settings) if f.name == name]
    return spec.default_factory() if spec.default is MISSING else spec.default  # type: ignore[misc]
