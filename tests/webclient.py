"""Helpers of the web application's tests: a game created through the API, a role's token."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def new_game(client: TestClient, **fields: Any) -> dict[str, str]:
    """A new 3+2 game between Ana and Bea (``fields`` change it); its links."""
    body = {"white": "Ana", "black": "Bea", "time_control": "3+2", **fields}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    links: dict[str, str] = response.json()
    return links


def token(links: dict[str, str], role: str) -> dict[str, str]:
    """The ``Authorization`` header of ``role`` (its token is the fragment of its link)."""
    return {"Authorization": f"Bearer {links[role].split('#', 1)[1]}"}
