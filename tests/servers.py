"""A real arbitro server in a subprocess, for the tests that need one (browser, restarts)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

# A 58-ply game that does not end early (a long, ordinary middlegame), for load and restarts.
_SCORE = (
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 cxb5 axb5 "
    "Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6 Nc4 Nxc4 Bxc4 Nb6 "
    "Ne5 Rae8 Bxf7+ Rxf7 Nxf7 Rxe1+ Qxe1 Kxf7 Qe3 Qg5 Qxg5 hxg5 b3 Ke6"
)
LONG_GAME = tuple(_SCORE.split())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    database: str, port: int, *, output: Path | None = None
) -> subprocess.Popen[bytes]:
    """``arbitro serve`` on ``port``, once it answers; ``output``: a file that receives what it
    writes on stdout and stderr (by default it is discarded)."""
    sink = open(output, "ab") if output is not None else None  # noqa: SIM115 - the child keeps it
    try:
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "arbitro.cli", "serve"),
                *("--port", str(port), "--database", database),
            ],
            stdout=sink or subprocess.DEVNULL,
            stderr=subprocess.STDOUT if sink else subprocess.DEVNULL,
        )
    finally:
        if sink is not None:
            sink.close()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games/none", timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the server did not start")
