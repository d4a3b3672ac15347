"""`dizhu serve`: its options, their defaults, and where the data goes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dizhu.cli import build_parser
from dizhu.web.settings import DATA_DIR_ENV, default_data_dir


def test_help_documents_every_option():
    result = subprocess.run([sys.executable, "-m", "dizhu.cli", "serve", "--help"], capture_output=True,
                            text=True, check=True)
    for option in ["--host", "--port", "--data-dir", "--workers", "--bot-budget", "--retention-days", "--sync",
                   "--create-limit", "--create-burst", "--log-level", DATA_DIR_ENV, "XDG_DATA_HOME"]:
        assert option in result.stdout


def test_options_are_parsed():
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9000", "--data-dir", "/tmp/d",
                                      "--workers", "3", "--bot-budget", "0.5", "--retention-days", "7",
                                      "--create-limit", "0", "--create-burst", "5"])
    assert (args.host, args.port, args.data_dir, args.workers) == ("0.0.0.0", 9000, Path("/tmp/d"), 3)
    assert (args.bot_budget, args.retention_days, args.sync) == (0.5, 7.0, "full")
    assert (args.create_limit, args.create_burst) == (0.0, 5)
    defaults = build_parser().parse_args(["serve"])
    assert defaults.host == "127.0.0.1" and defaults.data_dir is None and defaults.workers >= 1


@pytest.mark.parametrize("bad", [["--workers", "-1"], ["--bot-budget", "0"], ["--retention-days", "-2"],
                                 ["--create-limit", "-1"], ["--create-burst", "-3"],
                                 ["--sync", "off"], ["--port", "x"],
                                 # 70000 listened on 4464; an infinite pace scale switched the pace off
                                 ["--port", "70000"], ["--port", "-1"], ["--pace", "inf"], ["--pace", "nan"],
                                 ["--bot-budget", "inf"], ["--client-connections", "0"],
                                 ["--max-connections", "0"], ["--database", "sqlite:"]])
def test_bad_options_are_refused(bad, capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", *bad])
    assert "error: argument" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["bench", "--seconds", "0"], ["bench", "--seconds", "inf"],
                                     ["arena", "--a", "normal", "--b", "normal", "--workers", "-3"],
                                     ["arena", "--a", "normal", "--b", "normal", "--series", "0"],
                                     ["arena", "--a", "normal", "--b", "normal", "--deals", "0"],
                                     ["arena", "--a", "normal", "--b", "normal", "--budget", "-1"],
                                     ["arena", "--a", "normal", "--b", "normal", "--review-budget", "-1"]])
def test_the_tools_refuse_numbers_they_cannot_use(command, capsys):
    # Each was a traceback, a division by zero, a run without end or a review graded backwards.
    with pytest.raises(SystemExit):
        build_parser().parse_args(command)
    assert "error: argument" in capsys.readouterr().err


def test_an_arena_refuses_a_results_file_it_could_not_write_before_it_plays(tmp_path, capsys):
    from dizhu.cli import main

    assert main(["arena", "--a", "normal", "--b", "normal", "--deals", "1", "--quiet",
                 "--json", str(tmp_path / "missing" / "x.json")]) == 2
    assert main(["arena", "--a", "normal", "--b", "normal", "--deals", "1", "--quiet", "--json", str(tmp_path)]) == 2
    out = capsys.readouterr()
    assert "cannot write" in out.err and "WP" not in out.out  # refused before the run


def test_serve_explains_a_data_directory_it_cannot_use(tmp_path, capsys):
    from dizhu.cli import main

    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["serve", "--data-dir", str(blocker / "data")]) == 2
    assert "cannot use the data directory" in capsys.readouterr().err


def test_the_data_directory_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "explicit"))
    assert default_data_dir() == tmp_path / "explicit"
    monkeypatch.delenv(DATA_DIR_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "xdg" / "dizhu"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_data_dir() == tmp_path / "home" / ".local" / "share" / "dizhu"


def test_deal_still_works():
    result = subprocess.run([sys.executable, "-m", "dizhu.cli", "deal", "--variant", "duel"], capture_output=True,
                            text=True, check=True)
    assert result.stdout.startswith("duel: ") and len(result.stdout.split()) == 18


def test_options_left_out_give_the_settings_own_defaults(monkeypatch):
    from dataclasses import fields

    from dizhu.cli import serve_settings
    from dizhu.web.settings import DATABASE_ENV, Settings

    monkeypatch.delenv(DATABASE_ENV, raising=False)
    assert serve_settings(build_parser().parse_args(["serve"])) == Settings()
    # every option reaches a setting: each one changed changes exactly its setting
    chosen = serve_settings(build_parser().parse_args(
        ["serve", "--hint-limit", "7", "--round-limit", "3", "--create-limit", "2", "--keep-alive", "9",
         "--forwarded-allow-ips", "10.0.0.1", "--pace", "0.5", "--rounds-kept", "11"]))
    changed = {f.name for f in fields(Settings) if getattr(chosen, f.name) != getattr(Settings(), f.name)}
    assert changed == {"hint_per_minute", "round_per_minute", "create_per_minute", "keep_alive",
                       "forwarded_allow_ips", "pace", "rounds_kept"}


@pytest.mark.parametrize("command, says", [
    (["arena", "--a", "normal", "--b", "normal", "--deals", "x"], "--deals: must be a whole number, 1 or more, not 'x'"),
    (["serve", "--port", "abc"], "--port: must be a TCP port, 0 to 65535, not 'abc'"),
    (["serve", "--workers", "x"], "--workers: must be a whole number, 0 or more, not 'x'"),
    (["bench", "--seconds", "abc"], "--seconds: must be a number more than 0, not 'abc'"),
    (["db"], "required: {copy,backup}"),
])
def test_a_wrong_argument_is_named_in_the_players_words(command, says, capsys):
    # argparse named the converters: "invalid _at_least_one value", "arguments are required: db_command"
    with pytest.raises(SystemExit):
        build_parser().parse_args(command)
    err = capsys.readouterr().err
    assert says in err and "invalid _" not in err and "db_command" not in err


def test_version_help_and_the_module_entry_point():
    from dizhu import __version__

    out = subprocess.run([sys.executable, "-m", "dizhu", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"dizhu {__version__}"
    arena = subprocess.run([sys.executable, "-m", "dizhu", "arena", "--help"], capture_output=True, text=True,
                           check=True).stdout
    assert "95% confidence" in arena and "%%" not in arena and "(default: 2000)" in arena


def test_ctrl_c_stops_a_command_quietly(monkeypatch, capsys):
    from dizhu import cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_deal", interrupted)
    assert cli.main(["deal"]) == 130
    assert "Traceback" not in capsys.readouterr().err
