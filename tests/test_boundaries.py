"""What may import what across the repository's parts: the package never imports the benchmarks,
and the tests import neither the benchmarks nor the tools (what they share lives in the package
or in a test helper), so the suite runs from any checkout of the package and its tests."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMPORTS = re.compile(r"^\s*(?:from|import)\s+(benchmarks|tools)\b"  # an import of either
                     r"|import_module\(\s*[\"'](benchmarks|tools)\b"  # or by name
                     r"|(?:sys\.path\.insert|spec_from_file_location)\(.*[\"'](benchmarks|tools)[\"']", re.M)  # or by path


def _importing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in folder.rglob("*.py") if IMPORTS.search(p.read_text(encoding="utf-8")))


def test_the_package_never_imports_the_benchmarks_or_the_tools():
    assert _importing(ROOT / "src" / "dizhu") == []


def test_no_test_imports_the_benchmarks_or_the_tools():
    assert _importing(ROOT / "tests") == []
