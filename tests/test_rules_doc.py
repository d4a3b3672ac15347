"""Every "RULES.md §n" cited in the code, tests and docs is a section of docs/RULES.md."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "RULES.md"
# "RULES.md §4-§6", "RULES.md §5, match", "RULES.md §2"
CITATION = re.compile(r"RULES\.md\s+§(\d+)(?:\s*-\s*§(\d+))?")


def sections() -> set[int]:
    return {int(m) for m in re.findall(r"^## (\d+)\. ", RULES.read_text(), re.MULTILINE)}


def citations() -> list[tuple[str, int]]:
    found = []
    files = [*ROOT.glob("src/dizhu/**/*.py"), *ROOT.glob("tests/**/*.py"), *ROOT.glob("docs/*.md"),
             ROOT / "README.md"]
    for path in files:
        for m in CITATION.finditer(path.read_text(encoding="utf-8")):
            first = int(m[1])
            last = int(m[2]) if m[2] else first
            found += [(str(path.relative_to(ROOT)), n) for n in range(first, last + 1)]
    return found


def test_sections_are_numbered_in_order() -> None:
    assert sorted(sections()) == list(range(1, 8))


def test_every_citation_names_a_section() -> None:
    cited = citations()
    assert len({path for path, _ in cited}) >= 5  # the engine, the tests and the docs cite it
    missing = [(path, n) for path, n in cited if n not in sections()]
    assert missing == []
