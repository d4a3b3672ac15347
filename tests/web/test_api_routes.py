"""Every address docs/API.md describes is served, and every address served is described there."""

from __future__ import annotations

import re
from pathlib import Path

from dizhu.web import Settings, create_app

API_MD = Path(__file__).resolve().parents[2] / "docs" / "API.md"
METHODS = ("GET", "POST", "PATCH", "PUT", "DELETE")
#: `POST /api/games/{game_id}/act`, with a query string or not.
_ADDRESS = re.compile(r"`(" + "|".join(METHODS) + r") (/[^`?\s]*)[^`]*`")


def _shape(path: str) -> str:
    """The path with its parameters unnamed: the doc says `{id}` where the app says `{puzzle_id}`."""
    return re.sub(r"\{[^}]*\}", "{}", path)


def documented() -> set[tuple[str, str]]:
    """The addresses of API.md.  A heading may name siblings after the first address
    (`` `POST /a/b`, `/c` `` is also ``POST /a/c``) or say `` `GET` the same ``."""
    found = set()
    for line in API_MD.read_text(encoding="utf-8").splitlines():
        for method, path in _ADDRESS.findall(line):
            found.add((method, _shape(path)))
        heading = _ADDRESS.match(line.removeprefix("### "))
        if line.startswith("### ") and heading:
            method, path = heading.groups()
            parent = path.rsplit("/", 1)[0]
            found.update((method, _shape(parent + sibling)) for sibling in re.findall(r", `(/[^`]+)`", line))
            if "`GET` the same" in line:
                found.add(("GET", _shape(path)))
    return found


def served(tmp_path) -> set[tuple[str, str]]:
    app = create_app(Settings(data_dir=tmp_path, workers=0))
    return {(method.upper(), _shape(path)) for path, operations in app.openapi()["paths"].items()
            for method in operations}


def test_the_doc_names_addresses_the_way_this_test_reads_them():
    assert {("POST", "/api/games/{}/new-match"), ("GET", "/api/games/{}/rounds/{}/review"),
            ("GET", "/api/puzzles"), ("GET", "/api/health")} <= documented()


def test_every_address_of_the_doc_is_served_and_every_one_served_is_in_the_doc(tmp_path):
    docs, app = documented(), served(tmp_path)
    assert not docs - app, "described in docs/API.md but not served"
    assert not app - docs, "served but not described in docs/API.md"
