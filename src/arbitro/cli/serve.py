"""``arbitro serve``: the web application, with uvicorn."""

from __future__ import annotations

import argparse
import gc
import sys
from typing import Any

from arbitro.store.db import DEFAULT_URL


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
    )
    return 0


def _steady_collector() -> None:
    """Keep the cycle collector's full passes shorter: a full pass walks every object, and a
    server's own modules and tables (some 100,000 objects, which live as long as it does)
    would add tens of ms to each one while moves wait. They are set apart once, at start.

    Setting apart, every few seconds, whatever has lived that long would cut the passes at
    500 games from some hundreds of ms to a few, but the connections and tasks of finished
    games are garbage cycles that only a full pass frees: memory grew by some 45 MB a minute.
    """
    gc.collect()
    gc.freeze()
