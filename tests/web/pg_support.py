"""A throwaway PostgreSQL server for the tests (and the load benchmark).

Debian's server binaries live in /usr/lib/postgresql/VERSION/bin.  The
server refuses to run as root, so as root it runs as the ``postgres`` user
(``runuser``), in a directory under /tmp that user owns; it listens on a free
loopback port only, trusts local connections, and is gone with its
directory when stopped.  Tests get a fresh database each.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

__all__ = ["TempPostgres", "find_bindir", "unavailable_reason", "missing"]

_names = itertools.count()


def find_bindir() -> Path | None:
    """The newest installed server's binaries, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[4]))
    return Path(found[-1]).parent if found else None


def unavailable_reason() -> str | None:
    """Why no server can be started here, or None if one can."""
    if find_bindir() is None:
        return "PostgreSQL's server is not installed (Debian package postgresql; scripts/setup.sh installs it)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser: cannot start PostgreSQL as its own user"
    return None


def missing(what: str) -> None:
    """A service the tests need is not here: in CI (``CI`` set) that fails the
    test, so that a broken set-up can never pass as skipped tests; elsewhere
    the test is skipped."""
    import pytest

    if os.environ.get("CI"):
        pytest.fail(f"CI must run this test: {what}")
    pytest.skip(what)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TempPostgres:
    """A PostgreSQL server in a temporary directory, on a free loopback port.

    ``durable=False`` (the tests) turns fsync off: nothing here must survive a
    power cut, only the tests' kills of dizhu hosts, which fsync has no part in.
    """

    def __init__(self, *, durable: bool = False) -> None:
        bindir = find_bindir()
        if bindir is None:
            raise RuntimeError(unavailable_reason() or "no PostgreSQL")
        self.bindir = bindir
        # Under /tmp itself: the postgres user must reach it (pytest's own temp dirs are root's, mode 700).
        self.base = Path(tempfile.mkdtemp(prefix="dizhu-pg-"))
        self.data = self.base / "data"
        self.log = self.base / "server.log"
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self._as:
            shutil.chown(self.base, "postgres", "postgres")
        self.port = _free_port()
        settings = {"listen_addresses": "127.0.0.1", "port": str(self.port), "unix_socket_directories": str(self.base),
                    "max_connections": "200", "log_min_messages": "warning"}
        if not durable:
            settings.update(fsync="off", synchronous_commit="off", full_page_writes="off")
        self._options = " ".join(f"-c {key}={value}" for key, value in settings.items())
        try:
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                      "--locale=C", "--no-sync")
            self._pg_ctl("start")
        except BaseException:
            shutil.rmtree(self.base, ignore_errors=True)
            raise
        self.url = self.database_url("postgres")

    def _run(self, program: str, *args: str) -> None:
        result = subprocess.run([*self._as, str(self.bindir / program), *args], capture_output=True, text=True,
                                cwd=self.base)
        if result.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{program} failed: {result.stdout}\n{result.stderr}\n{log}")

    def _pg_ctl(self, command: str) -> None:
        # -l: the server's output goes to its log, never to a pipe of ours that would then stay open.
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "-o", self._options, command)

    def restart(self) -> None:
        """Stop (closing every connection) and start again on the same port."""
        self._pg_ctl("restart")

    def database_url(self, name: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = f"dizhu_test_{os.getpid()}_{next(_names)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.database_url(name)

    def drop_database(self, url: str) -> None:
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.base, ignore_errors=True)
