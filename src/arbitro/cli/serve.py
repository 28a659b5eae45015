"""``arbitro serve``: the web application, with uvicorn."""

from __future__ import annotations

import argparse
import gc
import sys
import threading
import time
from typing import Any

from arbitro.store.db import DEFAULT_URL

#: Seconds between two settings apart of what has lived that long, and between two full
#: collections of everything (see :func:`_steady_collector`).
SET_APART_EVERY_S = 10.0
FULL_COLLECTION_EVERY_S = 600.0


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "serve",
        help="the web application: play and arbitrate games in the browser",
        description=(
            "Serve the web application: create a game on the home page, then play it from the "
            "players' links while the arbiter follows from his console. Games are kept in the "
            "database (SQLite by default; PostgreSQL with --database "
            "postgresql+psycopg://USER@HOST/DB, which also lets several server processes share "
            "live games)."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="default: 8000")
    parser.add_argument("--database", default=DEFAULT_URL, help=f"default: {DEFAULT_URL}")
    parser.add_argument(
        "--seal-key",
        metavar="FILE",
        help="the secret that opens sealed-move envelopes, kept outside the database (default: "
        "beside a SQLite database, or ./arbitro-seal.key; ARBITRO_SEAL_SECRET overrides it)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn  # noqa: PLC0415 - only this command needs the server

    from arbitro.web.app import create_app  # noqa: PLC0415
    from arbitro.web.limits import MAX_FRAME  # noqa: PLC0415

    try:
        app = create_app(args.database, seal_key=args.seal_key)
    except Exception as error:  # a database URL that cannot be used
        print(f"arbitro: {error}", file=sys.stderr)
        return 2
    _steady_collector()
    print(f"arbitro: http://{args.host}:{args.port}/ (database {args.database})", flush=True)
    # No access log (log_level warning): request lines would carry game ids and client
    # addresses; tokens never reach the server in a URL, as they travel in the fragment.
    # No compression of WebSocket messages: they are small views, and compressing every one
    # costs the server (and each client) more time than the bytes saved.
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws_max_size=MAX_FRAME,
        ws_per_message_deflate=False,
        http=_http_protocol(),
    )
    return 0


def _steady_collector() -> None:
    """Keep the cycle collector's pauses short while moves wait.

    A full pass walks every object; at 500 games, their plies and their connections make that
    some hundreds of ms. So the server's own modules and tables are set apart at start, and
    then, every ten seconds, whatever has lived that long (``gc.freeze``): the collector walks
    only what is newer. Objects set apart are still freed as soon as nothing refers to them;
    only a reference cycle among them waits, so the server's objects are kept free of cycles
    (a game, a finished connection), and one full pass every ten minutes collects any left.
    """
    gc.collect()
    gc.freeze()

    def set_apart() -> None:
        full = time.monotonic() + FULL_COLLECTION_EVERY_S
        while True:
            time.sleep(SET_APART_EVERY_S)
            if time.monotonic() >= full:
                gc.unfreeze()
                gc.collect()
                full = time.monotonic() + FULL_COLLECTION_EVERY_S
            else:
                gc.collect(1)  # young garbage cycles are freed first, not set apart
            gc.freeze()

    threading.Thread(target=set_apart, name="arbitro-collector", daemon=True).start()


def _http_protocol() -> type:
    """uvicorn's HTTP protocol, which leaves no reference cycle behind when a connection
    becomes a WebSocket (its parser calls back into it: uvicorn breaks that cycle only when
    the connection is lost, which an upgraded connection's HTTP protocol never hears)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol  # noqa: PLC0415

    class Protocol(HttpToolsProtocol):
        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            self.parser = None  # type: ignore[assignment]

    return Protocol
