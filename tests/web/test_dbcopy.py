"""`dizhu db copy` and `dizhu db backup`: every game moved or kept, row for row."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient

from dizhu.web import Settings, create_app
from dizhu.web.dbcopy import TABLES, CopyError, copy_games, table_digests

from .support import new_game


def dizhu(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dizhu.cli", *args], capture_output=True, text=True, timeout=120)


def fill(settings: Settings) -> list:
    """Games in every state: finished rounds in two matches, requests answered, a new language."""
    with TestClient(create_app(settings)) as client:
        games = [new_game(client, variant=variant) for variant in ("classic", "duel", "duel")]
        first, second, untouched = games
        first.play_out()
        assert first.write("another-round").status_code == 200
        first.play_out()
        assert first.write("new-match").status_code == 200
        second.act(second.obs["legal_actions"][0])
        assert client.patch(f"/api/games/{second.id}", json={"language": "ja"}, headers=second.headers).status_code == 200
        for game in games:
            game.refresh()
        return games


def rows(url: str, data_dir: Path) -> dict[str, list[tuple]]:
    """Every row of every table (pending as a bool), for comparing two databases."""
    if url.startswith("postgresql"):
        with psycopg.connect(url) as conn:
            return {t: [tuple(r) for r in conn.execute(f"SELECT {', '.join(c)} FROM {t} ORDER BY 1, 2")]
                    for t, c in TABLES.items()}
    db = sqlite3.connect(url[len("sqlite:"):] if url else data_dir / "dizhu.sqlite")
    try:
        found = {t: [tuple(r) for r in db.execute(f"SELECT {', '.join(c)} FROM {t} ORDER BY 1, 2")]
                 for t, c in TABLES.items()}
    finally:
        db.close()
    found["games"] = [r[:9] + (bool(r[9]),) + r[10:] for r in found["games"]]
    return found


def test_copy_from_sqlite_to_postgresql_loses_nothing_and_the_games_go_on(tmp_path, pg_url):
    settings = Settings(data_dir=tmp_path / "data", workers=0)
    games = fill(settings)
    source = f"sqlite:{settings.db_path}"
    result = dizhu("db", "copy", "--from", source, "--to", pg_url)
    assert result.returncode == 0, result.stderr
    original = rows(source, tmp_path)
    assert len(original["games"]) == 3 and len(original["rounds"]) == 2 and original["requests"]
    assert rows(pg_url, tmp_path) == original  # a test of its own, beside the command's own check
    assert f"copied 3 games, 2 rounds, {len(original['requests'])} requests" in result.stdout

    again = dizhu("db", "copy", "--from", source, "--to", pg_url)  # never into a database with games
    assert again.returncode == 1 and "already has games" in again.stderr
    assert rows(pg_url, tmp_path) == original

    moved = Settings(data_dir=tmp_path / "unused", workers=0, database=pg_url)
    with TestClient(create_app(moved)) as client:
        for game in games:
            game.client = client
            before = game.view
            assert game.refresh() == before  # the same view, the same token opens it
        rounds = client.get(f"/api/games/{games[0].id}/rounds", headers=games[0].headers).json()
        assert rounds["total"] == 2 and [r["match"] for r in rounds["rounds"]] == [1, 1]
        assert games[1].view["language"] == "ja"
        games[0].play_out()
        assert games[0].write("another-round").status_code == 200


def test_copy_back_to_sqlite_and_the_check_catches_a_difference(tmp_path, pg_url):
    settings = Settings(data_dir=tmp_path / "data", workers=0, database=pg_url)
    fill(settings)
    back = f"sqlite:{tmp_path / 'back' / 'games.sqlite'}"
    report = copy_games(pg_url, back)
    assert report.rows["games"] == 3
    assert rows(back, tmp_path) == rows(pg_url, tmp_path)
    assert (tmp_path / "back" / "games.sqlite").stat().st_mode & 0o777 == 0o600
    digests = table_digests(back)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE games SET state = state || ' ' WHERE id = (SELECT min(id) FROM games)")
    assert table_digests(pg_url)["games"] != digests["games"] and table_digests(pg_url)["rounds"] == digests["rounds"]
    with pytest.raises(CopyError):
        copy_games(back, back)


def test_a_source_changed_during_the_copy_leaves_the_target_empty(tmp_path, pg_url, monkeypatch):
    # a server still writing to the source: the copy is refused before its transaction commits,
    # so the target stays empty and the same command works once the server is stopped
    from dizhu.web import dbcopy

    settings = Settings(data_dir=tmp_path / "data", workers=0)
    fill(settings)
    source = f"sqlite:{settings.db_path}"
    read = dbcopy._rows
    calls = []

    def read_then_write(url, data_dir):
        yield from read(url, data_dir)
        if url == source and not calls:  # the copy's own read of the source: a server writes after it
            calls.append(url)
            db = sqlite3.connect(settings.db_path)
            with db:
                db.execute("UPDATE games SET state = state || ' ' WHERE id = (SELECT min(id) FROM games)")
            db.close()

    monkeypatch.setattr(dbcopy, "_rows", read_then_write)
    for target in (pg_url, f"sqlite:{tmp_path / 'copy.sqlite'}"):
        calls.clear()
        with pytest.raises(CopyError, match="Nothing was copied"):
            copy_games(source, target)
        assert not rows(target, tmp_path)["games"]
    monkeypatch.setattr(dbcopy, "_rows", read)
    assert copy_games(source, pg_url).rows["games"] == 3


def test_backup_while_the_server_runs(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", workers=0)
    with TestClient(create_app(settings)) as client:
        game = new_game(client)
        game.play_out()
        result = dizhu("db", "backup", "--data-dir", str(settings.data_dir), "--to", str(tmp_path / "b.sqlite"))
        assert result.returncode == 0, result.stderr
        assert "backed up 1 games" in result.stdout
    assert (tmp_path / "b.sqlite").stat().st_mode & 0o777 == 0o600
    assert rows(f"sqlite:{tmp_path / 'b.sqlite'}", tmp_path) == rows("", settings.data_dir)
    refused = dizhu("db", "backup", "--data-dir", str(settings.data_dir), "--to", str(tmp_path / "b.sqlite"))
    assert refused.returncode == 1 and "already exists" in refused.stderr
    postgres = dizhu("db", "backup", "--database", "postgresql://nobody@127.0.0.1:1/x", "--to", str(tmp_path / "c"))
    assert postgres.returncode == 1 and "pg_dump" in postgres.stderr


def test_serve_takes_the_database_from_the_option_or_the_environment(monkeypatch):
    from dizhu.cli import main
    from dizhu.web import server

    from dizhu.web import database

    seen: list[Settings] = []
    monkeypatch.setattr(server, "serve", lambda settings, access_log: seen.append(settings))
    monkeypatch.setattr(database, "check_reachable", lambda url: None)  # no db.internal here
    monkeypatch.delenv("DIZHU_DATABASE", raising=False)
    main(["serve"])
    monkeypatch.setenv("DIZHU_DATABASE", "postgresql://site@db.internal/dizhu")
    main(["serve"])
    main(["serve", "--database", "sqlite:/srv/games.sqlite"])
    assert [s.database for s in seen] == ["", "postgresql://site@db.internal/dizhu", "sqlite:/srv/games.sqlite"]
    help_text = dizhu("serve", "--help").stdout
    assert "--database" in help_text and "DIZHU_DATABASE" in help_text
    assert "copy" in dizhu("db", "--help").stdout


def test_an_unknown_database_address_is_refused(tmp_path):
    from dizhu.web.database import open_database

    with pytest.raises(ValueError, match="sqlite:PATH or postgresql"):
        open_database(Settings(data_dir=tmp_path, database="mysql://x/y"))


def test_database_addresses_are_checked_and_passwords_never_logged():
    from dizhu.cli import build_parser
    from dizhu.web.database import describe

    for bad in (["serve", "--database", "mysql://x/y"], ["db", "copy", "--from", "/tmp/a.sqlite", "--to", "sqlite:b"]):
        with pytest.raises(SystemExit):
            build_parser().parse_args(bad)
    shown = describe("postgresql://site:hunter2@db.internal:5433/dizhu")
    assert "hunter2" not in shown and "db.internal" in shown and "5433" in shown
    assert describe("sqlite:/srv/g.sqlite") == "SQLite file /srv/g.sqlite"


def test_a_missing_database_or_nginx_fails_in_ci_and_skips_elsewhere(monkeypatch):
    from .pg_support import missing

    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run this test"):
        missing("no PostgreSQL here")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        missing("no PostgreSQL here")


def test_a_source_that_is_not_a_database_fails_plainly_before_the_target_exists(tmp_path, capsys):
    from dizhu.cli import main

    junk = tmp_path / "junk.txt"
    junk.write_text("not a database")
    target = tmp_path / "copy.sqlite"
    assert main(["db", "copy", "--from", f"sqlite:{junk}", "--to", f"sqlite:{target}"]) == 1
    assert main(["db", "backup", "--database", f"sqlite:{junk}", "--to", str(tmp_path / "b.sqlite")]) == 1
    err = capsys.readouterr().err
    assert err.count("file is not a database") == 2 and "Traceback" not in err
    assert not target.exists() and not (tmp_path / "b.sqlite").exists()


def test_an_unreachable_postgresql_source_fails_plainly_without_its_password(tmp_path, capsys):
    from dizhu.cli import main

    assert main(["db", "copy", "--from", "postgresql://nobody:secret@127.0.0.1:1/x",
                 "--to", f"sqlite:{tmp_path / 'copy.sqlite'}"]) == 1
    err = capsys.readouterr().err
    assert "cannot read the PostgreSQL" in err and "secret" not in err
    assert not (tmp_path / "copy.sqlite").exists()
    # the driver's own message quoted an address it could not read, password and all
    for url in ("postgresql://u:s3cr%zzet@127.0.0.1:1/x", "postgresql://u:s3cret word@127.0.0.1:1/x"):
        assert main(["db", "copy", "--from", url, "--to", f"sqlite:{tmp_path / 'copy.sqlite'}"]) == 1
        assert "s3cr" not in capsys.readouterr().err


def test_serve_says_plainly_why_it_cannot_open_its_database(tmp_path, pg_url, capsys):
    # it used to start, retry for 10 s and stop with the pool's traceback, the cause only in its log
    from dizhu.cli import main

    for url in ("postgresql://nobody:secret@127.0.0.1:1/x", pg_url.rsplit("/", 1)[0] + "/no_such_database"):
        assert main(["serve", "--data-dir", str(tmp_path), "--database", url]) == 2
        err = capsys.readouterr().err
        assert err.startswith("dizhu serve: cannot open the PostgreSQL") and "secret" not in err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_backup_needs_its_directory(tmp_path, capsys):
    from dizhu.cli import main
    from dizhu.web.sqlite_store import SQLiteStore

    SQLiteStore(tmp_path / "dizhu.sqlite").close()
    assert main(["db", "backup", "--data-dir", str(tmp_path), "--to", str(tmp_path / "no" / "b.sqlite")]) == 1
    assert "no directory" in capsys.readouterr().err and not (tmp_path / "no").exists()
