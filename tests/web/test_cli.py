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
                                 ["--sync", "off"], ["--port", "x"]])
def test_bad_options_are_refused(bad, capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", *bad])


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
