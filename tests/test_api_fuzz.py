"""Bad input to the HTTP API: schemathesis generates requests from the OpenAPI document (valid
ones and invalid ones) against the application in this process, on a real game and on random
ids, with every role's token or none; every answer must be no server error, a documented status
with a documented content type and schema, and every refusal the project's error shape. Then
commands built from the game's own vocabulary (Hypothesis) with arguments of every JSON kind.

The number of examples is bounded so that this file runs in seconds; ``CI=true`` does not
raise it (the profile's 300 examples per test would take minutes here).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from arbitro.game.events import COMMANDS
from arbitro.web.app import create_app
from arbitro.web.live import ROLES

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
EXAMPLES = {GenerationMode.POSITIVE: 30, GenerationMode.NEGATIVE: 15}


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,  # each run explores afresh; a failure prints its seed
        suppress_health_check=list(HealthCheck),
    )


class Target:
    """The application as schemathesis calls it, and a game in it with its tokens."""

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        create = schema["/api/games"]["POST"]
        links = create.Case(body={"time_control": "90+30", "notation": "es"}).call().json()
        self.game = links["id"]
        self.tokens = {role: links[role].split("#", 1)[1] for role in ROLES}
        commands = schema["/api/games/{game_id}/commands"]["POST"]
        for role, body in (
            ("arbiter", {"do": "start"}),
            ("white", {"do": "play", "move": "e4"}),
            ("black", {"do": "play", "move": "e5"}),
        ):
            response = commands.Case(
                path_parameters={"game_id": self.game},
                headers=self.auth(role),
                body=body,
            ).call()
            assert response.status_code == 200, response.text

    def auth(self, role: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[role]}"} if role else {}


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    folder: Path = tmp_path_factory.mktemp("fuzz")
    app = create_app(f"sqlite:///{folder}/fuzz.db", rate=10_000, burst=10_000)
    yield Target(schemathesis.openapi.from_asgi("/openapi.json", app))
    # schemathesis keeps the application's lifespan running for the process: end it here.
    from schemathesis.python import asgi  # noqa: PLC0415

    stop = getattr(asgi, "shutdown_lifespans", None)
    if stop is not None:
        stop()


def _typed(response: Any) -> None:
    """A refusal of the API is ``{"error": {"code": ..., "message": ...}}``."""
    if response.status_code >= 400:
        error = response.json()["error"]
        assert isinstance(error["code"], str) and isinstance(error["message"], str)


@pytest.mark.parametrize("mode", list(EXAMPLES), ids=str)
def test_the_api_answers_every_request_as_documented(target: Target, mode: GenerationMode) -> None:
    operations = [result.ok() for result in target.schema.get_all_operations()]
    assert len(operations) >= 9  # every route of the API is in the document
    fuzzed = 0
    for operation in operations:
        if mode is GenerationMode.NEGATIVE and not _can_be_invalid(operation.definition.raw):
            continue  # only text in the path and headers: no request of it is invalid
        _fuzz_operation(target, operation, mode)
        fuzzed += 1
    assert fuzzed >= 4, fuzzed


def _can_be_invalid(definition: dict[str, Any]) -> bool:
    """Whether an operation has something a request can get wrong: a query parameter, or a
    body with a schema."""
    if any(parameter.get("in") == "query" for parameter in definition.get("parameters", [])):
        return True
    content = definition.get("requestBody", {}).get("content", {})
    return any(media.get("schema") for media in content.values())


def _fuzz_operation(target: Target, operation: Any, mode: GenerationMode) -> None:
    on_game = "{game_id}" in operation.path

    @fuzz(EXAMPLES[mode])
    @given(
        case=operation.as_strategy(generation_mode=mode),
        real=st.booleans(),
        role=st.sampled_from([None, *ROLES]),
    )
    def run(case: Any, real: bool, role: str | None) -> None:
        if on_game and real and isinstance(case.path_parameters, dict):
            # Half the requests reach the real game, with some role's token or none.
            case.path_parameters["game_id"] = target.game
            case.headers = {**(case.headers or {}), **target.auth(role)}
        response = case.call_and_validate(checks=CHECKS)
        _typed(response)

    run()


_WORDS = st.sampled_from(
    ["e4", "e2e4", "Nf3", "Cf3", "Caballo Félix tres", "O-O", "e8=Q", "white", "black",
     "add-time", "set-clock", "penalty", "decide", "restore", "result", "threefold",
     "fifty-moves", "time", "illegal-move", "1-0", "0-1", "1/2-1/2", "accept", "reject",
     "2026-12-01", "10:00", "1:30", ""]
)  # fmt: skip
_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | _WORDS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
_ARGUMENTS = sorted({key for keys in COMMANDS.values() for key in keys})


@fuzz(100)
@given(
    do=st.sampled_from(sorted(COMMANDS)),
    role=st.sampled_from(ROLES),
    args=st.dictionaries(st.sampled_from(_ARGUMENTS), _VALUES, max_size=4),
)
def test_commands_with_any_arguments_are_applied_or_refused_typed(
    do: str, role: str, args: dict[str, Any]
) -> None:
    """Every command of every role with arguments of every kind, on games that move on (a
    game that ends is replaced): applied (200), or refused typed — and the game stays
    readable either way."""
    client, game = _COMMAND_GAME.get()
    tokens = game["tokens"]
    url = f"/api/games/{game['id']}/commands"
    response = client.post(url, json={"do": do, **args}, headers=tokens[role])
    assert response.status_code in (200, 403, 409, 422), response.text
    _typed(response)
    view = client.get(f"/api/games/{game['id']}", headers=tokens["arbiter"])
    assert view.status_code == 200, view.text
    if view.json()["state"]["result"] != "*" or len(view.json()["log"]) > 40:
        _COMMAND_GAME.replace()


class _Games:
    """One application for the whole Hypothesis run (a fixture cannot be given to ``@given``
    examples cheaply), and the game its examples play on."""

    def __init__(self) -> None:
        self.client: TestClient | None = None
        self.game: dict[str, Any] = {}

    def get(self) -> tuple[TestClient, dict[str, Any]]:
        assert self.client is not None, "the fixture below opens it"
        if not self.game:
            self.replace()
        return self.client, self.game

    def replace(self) -> None:
        assert self.client is not None
        links = self.client.post("/api/games", json={"time_control": "3+2"}).json()
        tokens = {r: {"Authorization": f"Bearer {links[r].split('#', 1)[1]}"} for r in ROLES}
        self.client.post(
            f"/api/games/{links['id']}/commands", json={"do": "start"}, headers=tokens["arbiter"]
        )
        self.game = {"id": links["id"], "tokens": tokens}


_COMMAND_GAME = _Games()


@pytest.fixture(autouse=True, scope="module")
def _command_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    folder = tmp_path_factory.mktemp("commands")
    # Generous limits: the fuzzer sends far faster than any client.
    app = create_app(f"sqlite:///{folder}/commands.db", rate=10_000, burst=10_000)
    with TestClient(app) as client:
        _COMMAND_GAME.client = client
        yield
        _COMMAND_GAME.client = None
        _COMMAND_GAME.game = {}
