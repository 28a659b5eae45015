"""The web application: play and arbitrate a rapid or blitz game in the browser.

HTTP API (documented at ``/docs``): ``POST /api/games`` creates a game and returns the links
of White, Black, the arbiter (each with a secret token) and spectators; ``GET
/api/games/{id}`` reads a game (state, moves, log); ``POST /api/games/{id}/commands`` sends
a command with the token in ``Authorization: Bearer ...``. The browser uses the same commands
over the WebSocket ``/ws/{id}`` and is told of every change.

For blind players (Appendix F) every move in a view carries its spoken announcement in each
style, ``GET /api/games/{id}/read?text=...&style=...`` answers the commands typed in the move
box in blind mode (a rank, a file, the clocks, the last move, help), and the arbiter's ``POST
/api/games/{id}/reconcile`` decides how two boards that differ are corrected (F2.7, F2.8).

Pages: ``/`` (create a game), ``/play/{id}#token`` (a player, or both players on one device),
``/arbiter/{id}#token`` (the arbiter's console), ``/watch/{spectator}`` (read-only). Tokens
travel in the URL fragment, which browsers never send to the server, so no log holds them.

Every refusal is ``{"error": {"code": ..., "message": ...}}`` (403 the token does not allow
it, 404 no such game, 409 the game refuses it, 413 too large, 422 unreadable, 429 too many
commands); sizes and commands per second are limited as :mod:`arbitro.web.limits` says.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from arbitro.editions import Edition
from arbitro.errors import ArbitroError, GameError
from arbitro.game import GameSetup
from arbitro.i18n import LANGUAGES, N_, gettext, normalize_language
from arbitro.notation.algebraic import format as write_move
from arbitro.notation.algebraic import read as read_written
from arbitro.notation.board_reading import check_style, parse_command
from arbitro.notation.envelope_sheet import render_html as render_envelope
from arbitro.notation.letters import LANGUAGES as NOTATIONS
from arbitro.notation.pgn import game_to_pgn, write_pgn
from arbitro.notation.reconcile import reconcile
from arbitro.notation.scoresheet import Scoresheet, render_html
from arbitro.store import EventStore, StoreError, notifications
from arbitro.store.db import database_url, is_postgresql
from arbitro.web.limits import BURST, RATE, BodyLimit, Buckets, TokenBucket
from arbitro.web.live import Hub, LiveGame, Refused, read_aloud, view
from arbitro.web.seal import ENVIRONMENT as SEAL_ENVIRONMENT
from arbitro.web.seal import SealSecret
from arbitro.web.texts import PRESETS, client_texts

try:
    # What Starlette 1 raises on a send to a connection closed meanwhile (the client left
    # while a view or a reply was on its way); earlier versions raise a RuntimeError.
    from starlette.websockets import WebSocketDisconnected as SendAfterClose
except ImportError:  # pragma: no cover - Starlette before 1.0
    SendAfterClose = RuntimeError  # type: ignore[assignment,misc]

HERE = Path(__file__).parent
_templates = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html"]),
    extensions=["jinja2.ext.i18n"],
)
#: Largest request body (a reconciliation's excepted) or WebSocket message accepted, in bytes.
MAX_MESSAGE = 4096
#: Longest text read as a blind player's command, and longest movetext to reconcile.
MAX_READ = 200
MAX_MOVETEXT = 20_000
#: Largest body of a reconciliation: four movetexts and their JSON.
MAX_RECONCILE = 4 * MAX_MOVETEXT + 1000


def _body_limit(path: str) -> int:
    return MAX_RECONCILE if path.endswith("/reconcile") else MAX_MESSAGE


class ErrorDetail(BaseModel):
    code: str = Field(description="stable code, e.g. not-allowed, illegal-move, rate-limited")
    message: str
    article: str | None = Field(None, description="the article of the Laws, where one applies")
    full: str | None = Field(None, description="the message followed by the article")


class ErrorBody(BaseModel):
    """Every refusal of the API: ``{"error": {"code": ..., "message": ...}}``."""

    error: ErrorDetail


_STATUS = {
    403: "the token does not allow this",
    404: "no such game (or no envelope in it)",
    409: "the game refuses the command (nothing changed)",
    413: "the body is too large",
    422: "the request cannot be read",
    429: "too many commands: send it again a moment later",
}


def _errors(*statuses: int, json_route: bool = True) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of a route's refusals, all in the project's error shape. A
    route that answers HTML or PGN refuses in JSON all the same: FastAPI would describe a
    ``model`` in the route's own media type, so those name the schema (which the JSON routes
    put in the document)."""
    if json_route:
        return {status: {"model": ErrorBody, "description": _STATUS[status]} for status in statuses}
    schema = {"$ref": "#/components/schemas/ErrorBody"}
    return {
        status: {
            "description": _STATUS[status],
            "content": {"application/json": {"schema": schema}},
        }
        for status in statuses
    }


_MOVETEXT = {"type": "string", "maxLength": MAX_MOVETEXT}
#: The body of a reconciliation, as :func:`_reconcile_fields` reads it (described here, read
#: there, so that every refusal has the project's error shape).
_RECONCILE_SCHEMA = {
    "type": "object",
    "required": ["board_a", "board_b"],
    "properties": {
        "board_a": _MOVETEXT,
        "board_b": _MOVETEXT,
        "sheet_a": {**_MOVETEXT, "type": ["string", "null"]},
        "sheet_b": {**_MOVETEXT, "type": ["string", "null"]},
        "notation": {"type": "string", "enum": list(NOTATIONS)},
    },
}


class PGNResponse(Response):
    media_type = "application/x-chess-pgn"


class NewGame(BaseModel):
    """A game to create."""

    white: str = Field("", max_length=80, description="White's name")
    black: str = Field("", max_length=80, description="Black's name")
    time_control: str = Field("3+2", max_length=80, description="any TimeControl.parse form")
    edition: str | None = Field(None, description="edition id; default: in force today")
    board: str = Field("enforced", description="enforced or physical")
    notation: str = Field("en", description="language of the move list")
    supervision: str = Field(
        "adequate",
        description="adequate (an arbiter watches, and sees flags) or inadequate (players claim)",
    )


class Links(BaseModel):
    id: str
    white: str
    black: str
    arbiter: str
    spectator: str


def _lang(request: Request) -> str:
    asked = request.query_params.get("lang") or request.cookies.get("lang")
    if asked:
        return normalize_language(asked)
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return "en"


def _error(error: ArbitroError, lang: str, status: int = 409) -> JSONResponse:
    return JSONResponse(
        {"error": {**error.to_dict(lang), "full": error.full_message(lang)}}, status_code=status
    )


def _too_large(limit: int) -> GameError:
    return GameError("too-large", N_("At most {limit} bytes are accepted."), limit=limit)


def _rate_limited() -> GameError:
    return GameError("rate-limited", N_("Too many commands at once: send it again in a moment."))


def create_app(
    database: str = "sqlite:///./arbitro.db",
    *,
    hub: Hub | None = None,
    seal_key: str | Path | None = None,
    rate: float = RATE,
    burst: int = BURST,
) -> FastAPI:
    """The application, on the store at ``database`` (or the given ``hub``); ``seal_key`` is
    the file of the secret that opens sealed-move envelopes (default: beside the database, see
    :mod:`arbitro.web.seal`); ``rate`` and ``burst`` meter the commands of each WebSocket
    connection and of each credential over HTTP (see :mod:`arbitro.web.limits`)."""
    store = hub.store if hub is not None else None
    state: dict[str, Hub] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        nonlocal store
        if hub is not None:
            state["hub"] = hub
        else:
            store = await asyncio.to_thread(EventStore, database)
            secret = (
                SealSecret(Path(seal_key), os.environ.get(SEAL_ENVIRONMENT))
                if seal_key is not None
                else SealSecret.for_database(database)
            )
            state["hub"] = Hub(store, seal_secret=secret)
        listener = None
        if is_postgresql(database_url(state["hub"].store.url)):
            listener = asyncio.create_task(_listen(state["hub"]))
        try:
            yield
        finally:
            if listener is not None:
                listener.cancel()
            if hub is None and store is not None:
                store.close()

    app = FastAPI(
        title="arbitro",
        summary="Play and arbitrate chess games under the FIDE Laws.",
        lifespan=lifespan,
    )
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.add_middleware(
        BodyLimit,
        limit_for=_body_limit,
        refuse=lambda scope, limit: _error(_too_large(limit), _lang(Request(scope)), 413),
    )
    # HTTP commands are metered per credential (a game and a role): a connection is no
    # identity over HTTP, and every client on one machine or behind one proxy shares an address.
    buckets = Buckets(rate, burst)

    @app.exception_handler(RequestValidationError)
    async def unreadable(request: Request, error: RequestValidationError) -> JSONResponse:
        """A body or parameter the route cannot read: the project's error shape, not
        FastAPI's (the locations and problems, never the values, which may be secrets)."""
        problems = "; ".join(
            f"{'.'.join(str(part) for part in problem.get('loc', ()))}: {problem.get('msg', '')}"
            for problem in error.errors()[:5]
        )
        refusal = GameError("bad-request", N_("The request cannot be read: {problems}."),
                            problems=problems[:500])  # fmt: skip
        return _error(refusal, _lang(request), 422)

    @app.exception_handler(HTTPException)
    async def http_refusal(request: Request, error: HTTPException) -> Response:
        """Starlette's own refusals (a body it cannot parse, an unknown path or method) in the
        project's error shape; a body that cannot be parsed is a 422 like any unreadable one."""
        status = 422 if error.status_code == 400 else error.status_code
        if status < 400:
            return Response(status_code=error.status_code, headers=error.headers)
        refusal = GameError("bad-request", N_("The request cannot be read: {problems}."),
                            problems=str(error.detail)[:200])  # fmt: skip
        if status == 404:
            refusal = GameError("not-found", N_("There is nothing at this address."))
        response = _error(refusal, _lang(request), status)
        response.headers.update(error.headers or {})
        return response

    def the_hub() -> Hub:
        return state["hub"]

    # -- API --------------------------------------------------------------------------------

    @app.post("/api/games", response_model=Links, status_code=201, responses=_errors(413, 422))
    async def create_game(request: Request, new: NewGame) -> Any:
        """Create a game; the links for White, Black and the arbiter carry secret tokens."""
        lang = _lang(request)
        try:
            edition = new.edition or Edition.for_date(datetime.date.today()).id
            players = (new.white.strip(), new.black.strip())
            setup = GameSetup.create(
                edition,
                new.time_control,
                board=new.board,
                notation=new.notation,
                supervision=new.supervision,
                players=players if any(players) else None,
            )
        except ArbitroError as error:
            return _error(error, lang, 422)
        live, tokens = await the_hub().create(setup)
        base = str(request.base_url).rstrip("/")
        return Links(
            id=live.id,
            white=f"{base}/play/{live.id}#{tokens['white']}",
            black=f"{base}/play/{live.id}#{tokens['black']}",
            arbiter=f"{base}/arbiter/{live.id}#{tokens['arbiter']}",
            spectator=f"{base}/watch/{live.spectator_id}",
        )

    async def _live(game_id: str, lang: str) -> LiveGame | JSONResponse:
        try:
            return await the_hub().get(game_id)
        except ArbitroError as error:
            return _error(error, lang, 404)

    def _token(authorization: str | None) -> str | None:
        if authorization and authorization.lower().startswith("bearer "):
            return authorization[7:].strip()
        return None

    @app.get("/api/games/{game_id}", responses=_errors(404, 422))
    async def read_game(
        request: Request, game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> Any:
        """The game as its role (from the token; spectators without one) sees it now."""
        lang = _lang(request)
        live = await _live(game_id, lang)
        if isinstance(live, JSONResponse):
            return live
        role = await the_hub().role(live, _token(authorization))
        return view(live, the_hub().now(live), role)

    @app.post("/api/games/{game_id}/commands", responses=_errors(403, 404, 409, 413, 422, 429))
    async def send_command(
        request: Request,
        game_id: str,
        command: Annotated[dict[str, Any], Body(examples=[{"do": "play", "move": "e4"}])],
        authorization: Annotated[str | None, Header()] = None,
    ) -> Any:
        """One command (``{"do": "play", "move": "e4"}``, ``{"do": "claim", "claim":
        "threefold", "move": "Nf3"}``, ``{"do": "arbiter", "action": "add-time", ...}``)."""
        lang = _lang(request)
        live = await _live(game_id, lang)
        if isinstance(live, JSONResponse):
            return live
        role = await the_hub().role(live, _token(authorization))
        if role is None:
            return _error(GameError("not-allowed", N_("A valid token is needed.")), lang, 403)
        if not buckets.take((live.id, role)):
            return _error(_rate_limited(), lang, 429)
        try:
            await the_hub().command(live, role, command)
        except Refused as refused:
            return _error(refused.error, lang, refused.status)
        except ArbitroError as error:
            return _error(error, lang, 409)
        return view(live, the_hub().now(live), role)

    @app.get("/api/games/{game_id}/read", responses=_errors(404, 422))
    async def read_command(
        request: Request,
        game_id: str,
        text: str = "",
        style: str = "en",
        authorization: Annotated[str | None, Header()] = None,
    ) -> Any:
        """A blind player's command typed in the move box (``fila 1``, ``columna Eva``,
        ``relojes``, ``repetir``, ``ayuda``; ``rank 1``, ``file e``, ``clocks``, ``repeat``,
        ``help``), answered in words: ``{"command": "rank", "text": "Fila uno: ..."}``. Text
        that is no command answers ``{"command": null, "text": null}``: it is a move, to be
        played as usual. Ranks, files and moves are read in the spoken ``style`` (``fide``,
        ``es`` or ``en``), the rest in the page's language; ``repeat`` needs the player's token
        to know his opponent (without one it repeats the last move)."""
        lang = _lang(request)
        live = await _live(game_id, lang)
        if isinstance(live, JSONResponse):
            return live
        if len(text) > MAX_READ:
            return _error(GameError("bad-request", N_("The text is too long.")), lang, 422)
        try:
            check_style(style)
            command = parse_command(text)
        except ArbitroError as error:
            return _error(error, lang, 422)
        if command is None:
            return {"command": None, "text": None}
        role = await the_hub().role(live, _token(authorization))
        answer = read_aloud(live, the_hub().now(live), role, command, style=style, lang=lang)
        return {"command": command.kind, "text": answer}

    @app.post(
        "/api/games/{game_id}/reconcile",
        responses=_errors(403, 404, 413, 422),
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": _RECONCILE_SCHEMA,
                        "example": {
                            "board_a": "1.e4 e5 2.Nf3 Nc6",
                            "board_b": "1.e4 e5 2.Nf3 Nf6",
                            "sheet_a": "1.e4 e5 2.Nf3 Nc6",
                            "sheet_b": "1.e4 e5 2.Nf3 Nc6",
                        },
                    }
                },
            }
        },
    )
    async def reconcile_boards(
        request: Request, game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> Any:
        """The arbiter's decision when the two boards of a game with a blind player differ
        (Appendix F2.7, F2.8): ``board_a`` and ``board_b`` (the moves on each board) and
        optionally ``sheet_a`` and ``sheet_b`` (each scoresheet; one not given is taken to be
        that player's board), movetext in the game's notation language unless ``notation``
        names another. Only the arbiter's token is accepted."""
        lang = _lang(request)
        live = await _live(game_id, lang)
        if isinstance(live, JSONResponse):
            return live
        if await the_hub().role(live, _token(authorization)) != "arbiter":
            return _error(GameError("not-allowed", N_("Only the arbiter decides this.")), lang, 403)
        fields = _reconcile_fields(await request.body(), live.game.setup.notation)
        if isinstance(fields, ArbitroError):
            return _error(fields, lang, 422)
        try:
            decision = reconcile(*fields)
        except ArbitroError as error:
            return _error(error, lang, 422)
        return {
            "kind": decision.kind,
            "article": decision.article,
            "ply": decision.ply,
            "fen": decision.fen,
            "moves": decision.moves,
            "to_move": decision.to_move,
            "behind": decision.behind,
            "explanation": decision.explain(lang),
        }

    @app.get(
        "/api/games/{game_id}/pgn",
        response_class=PGNResponse,
        responses=_errors(404, 422, json_route=False),
    )
    async def pgn(request: Request, game_id: str) -> Response:
        """The game as PGN, with the clock after every move."""
        live = await _live(game_id, _lang(request))
        if isinstance(live, JSONResponse):
            return live
        text = write_pgn(game_to_pgn(live.game, {"Site": str(request.base_url)}))
        return PGNResponse(
            text,
            headers={"Content-Disposition": f'attachment; filename="{game_id}.pgn"'},
        )

    @app.get(
        "/api/games/{game_id}/scoresheet",
        response_class=HTMLResponse,
        responses=_errors(404, 422, json_route=False),
    )
    async def scoresheet(request: Request, game_id: str) -> Response:
        """The printable scoresheet (in Spanish unless ``?lang=en``)."""
        live = await _live(game_id, "es")
        if isinstance(live, JSONResponse):
            return live
        lang = request.query_params.get("lang", "es")
        return HTMLResponse(render_html(Scoresheet.from_game(live.game, lang=lang)))

    @app.get(
        "/api/games/{game_id}/envelope",
        response_class=HTMLResponse,
        responses=_errors(404, 422, json_route=False),
    )
    async def envelope(request: Request, game_id: str) -> Response:
        """The printable envelope of an adjourned game (A2): names, the position before the
        sealed move, the times, who sealed, the move number, a standing draw offer and the
        resumption; never the move itself (in Spanish unless ``?lang=en``)."""
        lang = request.query_params.get("lang", "es")
        live = await _live(game_id, lang)
        if isinstance(live, JSONResponse):
            return live
        record = live.game.envelope
        if record is None:
            missing = GameError("no-envelope", N_("This game has no sealed-move envelope."))
            return _error(missing, lang, 404)
        return HTMLResponse(render_envelope(record, lang=normalize_language(lang)))

    @app.post("/api/games/{game_id}/seal-check", responses=_errors(403, 404, 413, 422))
    async def seal_check(
        request: Request,
        game_id: str,
        body: Annotated[dict[str, Any], Body(examples=[{"move": "Cf3"}])],
        authorization: Annotated[str | None, Header()] = None,
    ) -> Any:
        """How the move the player to seal has written reads (A8: an ambiguous, unreadable or
        illegal sealed move loses), before he seals it; nothing is stored. Only the token of
        the player who must seal is accepted."""
        lang = _lang(request)
        live = await _live(game_id, lang)
        if isinstance(live, JSONResponse):
            return live
        game = live.game
        role = await the_hub().role(live, _token(authorization))
        sealer = "white" if game.state().to_move else "black"
        if game.adjournment != "ordered" or role != sealer:
            refusal = GameError(
                "not-allowed", N_("Only the player asked to seal his move can check it.")
            )
            return _error(refusal, lang, 403)
        text = body.get("move")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_READ:
            needed = GameError("bad-argument", N_("A move is needed (SAN or UCI)."))
            return _error(needed, lang, 422)
        notation = game.setup.notation
        board = game.board
        reading = read_written(text.strip(), board, notation)
        return {
            "ok": reading.ok,
            "status": reading.status,
            "move": write_move(reading.move, board, notation) if reading.move else None,
            "explanation": reading.explain(lang),
        }

    # -- WebSocket --------------------------------------------------------------------------

    @app.websocket("/ws/{game_id}")
    async def socket(websocket: WebSocket, game_id: str) -> None:
        """First message: ``{"token": ...}`` (a player or the arbiter) or ``{"spectator":
        id}``. Then commands ``{"id": n, "do": ...}``, answered ``{"type": "reply", "id": n,
        "ok": ..., "error": ...}``; a ``state`` message follows every change. A refused first
        message, or one that is too large or no JSON object, is answered ``{"type": "error",
        "error": ...}`` and the connection is closed."""
        await websocket.accept()
        lang = normalize_language(websocket.query_params.get("lang", "en"))
        hub_ = the_hub()
        try:
            hello = await _receive(websocket)
            # Only texts are ids and tokens (the text of a deeply nested list cannot be made).
            watched, token = hello.get("spectator"), hello.get("token")
            if watched:
                live = await hub_.by_spectator(watched if isinstance(watched, str) else "")
                role = None
            else:
                live = await hub_.get(game_id)
                role = await hub_.role(live, token if isinstance(token, str) else None)
                if role is None:
                    needed = GameError("not-allowed", N_("A valid token is needed."))
                    await _refuse_socket(websocket, needed, lang, 4403)
                    return
        except _BadMessage as bad:
            await _refuse_socket(websocket, bad.error, lang, bad.close_code)
            return
        except ArbitroError as error:
            await _refuse_socket(websocket, error, lang, 4404)
            return
        except WebSocketDisconnect:
            return
        queue = hub_.subscribe(live)
        sender = asyncio.create_task(_push(websocket, hub_, live, role, queue))
        # Per connection: each connection costs the server its own work, whoever opened it.
        bucket = TokenBucket(rate, burst)
        try:
            await websocket.send_json(view(live, hub_.now(live), role))
            while True:
                message = await _receive(websocket)
                reply: dict[str, Any] = {"type": "reply", "id": _reply_id(message), "ok": True}
                refusal: ArbitroError | None = None
                if not bucket.take():
                    refusal = _rate_limited()
                elif message.get("do") == "state":
                    await websocket.send_json(view(live, hub_.now(live), role))
                    continue
                elif role is None:
                    refusal = GameError("not-allowed", N_("Spectators only watch."))
                else:
                    try:
                        await hub_.command(live, role, message)
                    except Refused as refused:
                        refusal = refused.error
                    except ArbitroError as error:
                        refusal = error
                if refusal is not None:
                    reply.update(
                        ok=False,
                        error={**refusal.to_dict(lang), "full": refusal.full_message(lang)},
                    )
                await websocket.send_json(reply)
        except _BadMessage as bad:
            await _refuse_socket(websocket, bad.error, lang, bad.close_code)
        except (WebSocketDisconnect, SendAfterClose):
            return  # the client left
        finally:
            hub_.unsubscribe(live, queue)
            sender.cancel()

    # -- pages ------------------------------------------------------------------------------

    def page(request: Request, name: str, **context: Any) -> HTMLResponse:
        lang = _lang(request)
        env = _templates
        env.install_gettext_callables(  # type: ignore[attr-defined]
            lambda message: gettext(message, lang),
            lambda singular, plural, n: gettext(singular if n == 1 else plural, lang),
            newstyle=True,
        )
        html = env.get_template(name).render(
            lang=lang,
            other_lang="en" if lang == "es" else "es",
            texts=json.dumps(client_texts(lang), ensure_ascii=False),
            **context,
        )
        response = HTMLResponse(html)
        if request.query_params.get("lang"):
            response.set_cookie("lang", lang, samesite="lax")
        return response

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home(request: Request) -> HTMLResponse:
        today = Edition.for_date(datetime.date.today()).id
        return page(
            request,
            "home.html",
            presets=PRESETS,
            editions=[e.id for e in Edition.all()],
            today=today,
            notations=list(NOTATIONS),
        )

    @app.get("/play/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def play(request: Request, game_id: str) -> HTMLResponse:
        return page(request, "game.html", game_id=game_id, mode="player", spectator="")

    @app.get("/arbiter/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def arbiter(request: Request, game_id: str) -> HTMLResponse:
        return page(request, "game.html", game_id=game_id, mode="arbiter", spectator="")

    @app.get("/watch/{spectator}", response_class=HTMLResponse, include_in_schema=False)
    async def watch(request: Request, spectator: str) -> HTMLResponse:
        return page(request, "game.html", game_id="", mode="spectator", spectator=spectator)

    return app


def _reconcile_fields(
    raw: bytes, notation: str
) -> tuple[str, str, str | None, str | None, str] | ArbitroError:
    """The arguments of :func:`reconcile` from a request's body, or why they are wrong (read
    here rather than by a model, so that every refusal has the project's error shape)."""
    try:
        body = json.loads(raw) if len(raw) <= MAX_RECONCILE else None
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        body = None
    if not isinstance(body, dict):
        return GameError("bad-request", N_("Send a JSON object with board_a and board_b."))
    texts: dict[str, str | None] = {}
    for name in ("board_a", "board_b", "sheet_a", "sheet_b"):
        value = body.get(name)
        if value is None or (value == "" and name.startswith("sheet")):
            if name.startswith("board"):
                return GameError("bad-request", N_("{field} is missing."), field=name)
            texts[name] = None  # no scoresheet: that player's board stands for it
        elif not isinstance(value, str) or len(value) > MAX_MOVETEXT:
            return GameError(
                "bad-request",
                N_("{field} must be movetext, at most {limit} characters."),
                field=name,
                limit=MAX_MOVETEXT,
            )
        else:
            texts[name] = value
    lang = body.get("notation") or notation
    if not isinstance(lang, str) or lang not in NOTATIONS:
        return GameError(
            "unknown-language",
            N_("Unknown notation language {lang!r}; known: {known}."),
            lang=str(lang),
            known=", ".join(NOTATIONS),
        )
    return body["board_a"], body["board_b"], texts["sheet_a"], texts["sheet_b"], lang


class _BadMessage(Exception):
    """A WebSocket message that is no command: why, and the code to close the connection with."""

    def __init__(self, error: ArbitroError, close_code: int) -> None:
        super().__init__(error.code)
        self.error = error
        self.close_code = close_code


async def _receive(websocket: WebSocket) -> dict[str, Any]:
    """The next message, a JSON object of at most :data:`MAX_MESSAGE` bytes.

    :raises _BadMessage: for anything else (a binary frame, a larger or unreadable message).
    :raises WebSocketDisconnect: the client left.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        text = (message.get("bytes") or b"").decode("utf-8", "replace")
    if len(text) > MAX_MESSAGE or len(text.encode("utf-8")) > MAX_MESSAGE:
        raise _BadMessage(_too_large(MAX_MESSAGE), 1009)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        data = None
    if not isinstance(data, dict):
        not_json = GameError("bad-message", N_("A message is a JSON object: {example}."),
                             example='{"id": 1, "do": "play", "move": "e4"}')  # fmt: skip
        raise _BadMessage(not_json, 1003)
    return data


def _reply_id(message: dict[str, Any]) -> str | int | float | None:
    """The ``id`` a reply echoes: a number or a short text (anything else could be a value
    too deep to write back)."""
    given = message.get("id")
    if isinstance(given, str):
        return given[:100]
    return given if isinstance(given, int | float) and not isinstance(given, bool) else None


async def _refuse_socket(websocket: WebSocket, error: ArbitroError, lang: str, code: int) -> None:
    """Say why, then close (the client may be gone already: nothing to do then)."""
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "error": error.to_dict(lang)})
        await websocket.close(code=code)


async def _push(
    websocket: WebSocket,
    hub: Hub,
    live: LiveGame,
    role: str | None,
    queue: asyncio.Queue[dict[str, Any]],
) -> None:
    """Send the client its view after every change of the game (with the moves it lacks)."""
    known: tuple[int, int] | None = None
    with contextlib.suppress(Exception):
        while True:
            await queue.get()
            while not queue.empty():  # several changes: one view of the latest
                queue.get_nowait()
            text, known = hub.view_text(live, role, known)
            await websocket.send_text(text)


async def _listen(hub: Hub) -> None:
    """On PostgreSQL: events committed by other server processes reach this one's clients."""
    while True:
        try:
            async for game_id, seq in notifications(hub.store.url):
                await hub.refresh(game_id, seq)
        except asyncio.CancelledError:
            raise
        except (OSError, StoreError, Exception):
            await asyncio.sleep(1)  # the connection failed: listen again
