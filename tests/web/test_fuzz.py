"""Fuzzing the API from its own OpenAPI schema (schemathesis) against a real `dizhu serve`.

Every generated request is sent twice: as generated (random ids and tokens: the refusals),
and aimed at a real game with its token and current version (the game's own logic).  No
answer may be a 5xx or break the schema; the run is bounded by a fixed number of examples.
"""

from __future__ import annotations

import os

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from dizhu.web import Settings, create_app

from .support import Server

# Per operation (eleven of them); DIZHU_FUZZ_EXAMPLES=500 for a longer hunt.
EXAMPLES = int(os.environ.get("DIZHU_FUZZ_EXAMPLES", "25"))

# The schema the server publishes, built from the app itself (no server needed to collect the
# tests); test_the_served_schema_is_this_one checks that the live server serves the same.
SCHEMA = create_app(Settings(data_dir="/nonexistent", workers=0)).openapi()
schema = schemathesis.openapi.from_dict(SCHEMA)
# A request that breaks the schema may also be over the body limit (dozens of over-long strings
# once made 16 KB), and 413 refuses it as well as 422 would: a refusal all the same.
_rejection = schema.config.checks.negative_data_rejection
schema.config.checks.negative_data_rejection = type(_rejection)(
    expected_statuses=[*_rejection.expected_statuses, "413"])


class LiveGame:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.new()

    def new(self) -> None:
        created = self.server.http.post("/api/games", json={"variant": "classic", "level": "normal"}).json()
        self.id, self.token = created["game_id"], created["token"]

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def version(self) -> int:
        return self.server.http.get(f"/api/games/{self.id}", headers=self.headers).json()["version"]


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz")
    server = Server(path / "data", path / "server.log")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def live_game(live_server):
    return LiveGame(live_server)


def valid_requests_pass_validation(ctx, response, case):
    """Schema-valid requests may be refused by the rules (422 with an engine code: an illegal
    move, docs/API.md) but never by the request validation: the schema must not promise more
    than the server accepts.  Replaces schemathesis' stricter positive_data_acceptance."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code not in (400, 422):
        return None
    code = response.json()["error"]["code"]
    assert code not in ("invalid_request", "malformed_json"), f"a schema-valid request got {code}: {response.text}"
    return None


CHECKS = dict(excluded_checks=[positive_data_acceptance], additional_checks=[valid_requests_pass_validation])

#: Headers that frame the HTTP message itself.  A generated value for one (``Content-Length:
#: imGr``) is refused by the HTTP server before the app sees the request (uvicorn's 400 "Invalid
#: HTTP request received."): a fault of the message, not of the API's input, so none is sent.
FRAMING = {"content-length", "transfer-encoding", "host", "connection", "expect", "upgrade", "te", "trailer"}


def without_framing(case) -> None:
    if case.headers:
        for name in [n for n in case.headers if n.lower() in FRAMING]:
            del case.headers[name]


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_holds_against_generated_requests(case, live_server, live_game):
    without_framing(case)
    case.call_and_validate(base_url=live_server.url, **CHECKS)
    # Aimed at a real game: only schema-valid requests (a token would make invalid ones valid).
    if case.meta.generation.mode.is_positive and case.path_parameters and "game_id" in case.path_parameters:
        case.path_parameters["game_id"] = live_game.id
        if isinstance(case.body, dict) and isinstance(case.body.get("version"), int):
            case.body["version"] = live_game.version()
        response = case.call_and_validate(base_url=live_server.url, headers=live_game.headers, **CHECKS)
        assert response.status_code < 500


def test_the_served_schema_is_this_one(live_server):
    assert httpx.get(f"{live_server.url}/openapi.json").json() == SCHEMA


def test_the_schema_describes_every_operation():
    spec = SCHEMA
    operations = [(path, method) for path, methods in spec["paths"].items() for method in methods]
    assert len(operations) == 14 + 6  # health, the games' and the reviews'; the puzzles' (web/routes/)
    for path, method in operations:
        responses = spec["paths"][path][method]["responses"]
        if path.startswith("/api/games/{game_id}"):
            assert {"401", "403", "404", "422"} <= set(responses), (path, method)
        if path.startswith("/api/puzzles/{puzzle_id}"):
            assert {"404", "422"} <= set(responses), (path, method)
