"""The API reference builds from the docstrings with pdoc, without a warning."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import api_docs

ROOT = Path(__file__).resolve().parents[1]


def test_api_reference_builds_without_warnings(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "api_docs.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "0 warnings" in done.stdout and not done.stderr.strip()
    for page in ("dizhu.html", "dizhu/env/encoding.html", "dizhu/env/aec.html", "dizhu/ray_arena.html",
                 "dizhu/game/round.html", "dizhu/bots.html", "dizhu/rlcard_agent.html", "dizhu/web.html"):
        assert (tmp_path / page).is_file(), page
    assert "<table" in (tmp_path / "dizhu/env/encoding.html").read_text()


def test_a_warning_fails_the_build(tmp_path, monkeypatch):
    (tmp_path / "broken_doc_module.py").write_text('"""A module."""\n__all__ = ["missing"]\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(api_docs, "modules", lambda: ["broken_doc_module"])
    problems = api_docs.build(tmp_path / "out")
    assert any("missing" in p for p in problems)
