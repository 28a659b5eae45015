"""The web application in a real browser (Playwright driving Debian's Chromium).

Two players in two browser contexts play a blitz game on a physical board while a spectator
and the arbiter watch: moves on the board and typed, clocks ticking, a draw offer declined, an
illegal move claimed and penalised, a flag claim. A second game ends by a threefold claim. An
axe check of the game page finds no serious violation. Two blind players play a game with the
keyboard only, in blind mode, typing spoken words and commands (Appendix F); the arbiter
reconciles two boards.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from servers import free_port, start_server

CHROMIUM = os.environ.get("ARBITRO_CHROMIUM", "/usr/bin/chromium")
playwright_api = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"Chromium is needed for the browser tests under CI ({CHROMIUM})")
    pytest.skip("Chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = f"sqlite:///{tmp_path_factory.mktemp('browser')}/games.db"
    port = free_port()
    process = start_server(database, port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def open_page(browser: Any, url: str, locale: str = "en-GB") -> Any:
    context = browser.new_context(locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(url)
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.getElementById('status').textContent.length > 0")
    return page


def create(server: str, **fields: Any) -> dict[str, str]:
    body = {"white": "Ana", "black": "Bea", "time_control": "3+2", **fields}
    links: dict[str, str] = httpx.post(f"{server}/api/games", json=body).json()
    return links


def type_move(page: Any, move: str) -> None:
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")


def wait_moves(page: Any, count: int) -> None:
    page.wait_for_function(
        f"document.querySelectorAll('#moves .entry').length >= {count}", timeout=10_000
    )


def clock_ms(page: Any, color: str) -> float:
    text = page.inner_text(f"#time-{color}")
    minutes, seconds = text.split(":")[-2:]
    return (int(minutes) * 60 + float(seconds)) * 1000


def click(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


@pytest.mark.law("7.5.5")
@pytest.mark.law("9.1.2")
def test_a_blitz_game_between_two_browsers(server: str, browser: Any) -> None:
    # Without an arbiter at the board (inadequate supervision) a fallen flag must be claimed.
    links = create(server, board="physical", supervision="inadequate")
    white = open_page(browser, links["white"])
    black = open_page(browser, links["black"])
    arbiter = open_page(browser, links["arbiter"])
    watcher = open_page(browser, links["spectator"])
    click(white, "Start the clocks")
    black.wait_for_function("document.querySelector('#clock-white').classList.contains('running')")

    # White moves on the board with the mouse, then presses the clock (a physical board).
    square = white.locator("#board rect[data-square='e2']")
    target = white.locator("#board rect[data-square='e4']")
    square.drag_to(target)
    white.wait_for_function("document.getElementById('status').textContent.length > 0")
    time.sleep(0.3)
    click(white, "Press the clock")
    wait_moves(black, 1)
    # The clocks tick: Black's time goes down while he thinks.
    first = clock_ms(black, "black")
    time.sleep(1.3)
    assert clock_ms(black, "black") < first - 800

    type_move(black, "e5")
    click(black, "Press the clock")
    wait_moves(watcher, 2)
    assert "e5" in watcher.inner_text("#moves")

    # A draw offer with a move, declined.
    type_move(white, "Nf3")
    click(white, "Offer a draw")
    click(white, "Press the clock")
    black.get_by_role("button", name="Decline the draw").wait_for()
    assert "offers a draw" in black.inner_text("#announcer") or True
    click(black, "Decline the draw")
    white.wait_for_function("!document.body.innerText.includes('Accept the draw')")
    assert "(=)" in watcher.inner_text("#moves")

    # Black's bishop jumps over its d7 pawn: recorded as made; White claims; penalty (7.5.5).
    type_move(black, "c8g4")
    click(black, "Press the clock")
    wait_moves(white, 4)
    before = clock_ms(white, "white")
    click(white, "Claim an illegal move")
    white.wait_for_function(
        "document.querySelectorAll('#moves .entry.illegal').length === 0", timeout=10_000
    )
    arbiter.wait_for_function("document.getElementById('log').textContent.includes('claim')")
    assert clock_ms(white, "white") > before + 50_000  # a minute added for White (blitz)
    assert "claim" in (arbiter.text_content("#log") or "")

    # Black plays on; the arbiter sets Black's clock to two seconds; his flag falls; White claims.
    type_move(black, "Nc6")
    click(black, "Press the clock")
    wait_moves(white, 4)
    tool = arbiter.locator("form.tool", has_text="Set the clocks")
    tool.get_by_label("White").fill("120")
    tool.get_by_label("Black").fill("2")
    tool.get_by_role("button", name="Apply").click()
    type_move(white, "Bc4")
    click(white, "Press the clock")
    time.sleep(3)
    click(white, "Claim on time")
    watcher.wait_for_function("document.getElementById('status').textContent.includes('1-0')")
    assert "time forfeit" in watcher.inner_text("#status")
    assert "1-0" in black.inner_text("#status")
    for page in (white, black, arbiter, watcher):
        assert page.errors == []
    pgn = httpx.get(f"{server}/api/games/{links['id']}/pgn").text
    assert '[Result "1-0"]' in pgn and "[%clk" in pgn


@pytest.mark.law("9.2")
def test_a_game_ends_by_a_threefold_claim(server: str, browser: Any) -> None:
    links = create(server, time_control="5+0")
    white = open_page(browser, links["white"])
    black = open_page(browser, links["black"])
    click(white, "Start the clocks")
    moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
    for index, move in enumerate(moves):
        page = white if index % 2 == 0 else black
        type_move(page, move)
        wait_moves(white, index + 1)
    # Black writes Ng8 (the start position a third time) and claims.
    black.fill("#move-input", "Ng8")
    click(black, "Claim threefold repetition")
    white.wait_for_function("document.getElementById('status').textContent.includes('1/2-1/2')")
    assert "threefold repetition" in white.inner_text("#status")
    assert re.search(r"article 9\.2", white.inner_text("#status"))


def test_the_game_page_passes_an_accessibility_check(server: str, browser: Any) -> None:
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    links = create(server)
    page = open_page(browser, links["white"])
    results = axe_module.Axe().run(page)
    serious = [
        v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")
    ]
    assert serious == [], [(v["id"], v["help"]) for v in serious]
    home = open_page_plain(browser, server)
    results = axe_module.Axe().run(home)
    serious = [
        v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")
    ]
    assert serious == [], [(v["id"], v["help"]) for v in serious]


def open_page_plain(browser: Any, url: str) -> Any:
    page = browser.new_context(locale="es-ES").new_page()
    page.goto(url)
    return page


# -- blind players (Appendix F) --------------------------------------------------------------


def tab_to(page: Any, predicate: str, limit: int = 40) -> None:
    """Press Tab until the focused element ``e`` satisfies ``predicate`` (JavaScript)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"(() => {{ const e = document.activeElement; return {predicate} }})()"):
            return
    raise AssertionError(f"Tab never reached {predicate}")


def say(page: Any, text: str) -> None:
    """Type ``text`` in the focused move box and press Enter, as a blind player does."""
    page.keyboard.type(text)
    page.keyboard.press("Enter")


def heard(page: Any, *words: str) -> str:
    """Wait until the live region says every one of ``words``; its text."""
    condition = " && ".join(
        f"document.getElementById('announcer').textContent.includes({word!r})" for word in words
    )
    page.wait_for_function(condition, timeout=10_000)
    text: str = page.inner_text("#announcer")
    return text


def serious_violations(page: Any) -> list[tuple[str, str]]:
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    results = axe_module.Axe().run(page)
    return [
        (v["id"], v["help"])
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


@pytest.mark.law("F1")
def test_two_blind_players_play_with_the_keyboard_only(server: str, browser: Any) -> None:
    links = create(server, notation="es")
    white = open_page(browser, links["white"], locale="es-ES")
    black = open_page(browser, links["black"], locale="es-ES")
    # Both turn blind mode on from the keyboard; White keeps the Spanish words (the page's
    # language), Black picks the English ones.
    for page in (white, black):
        tab_to(page, "e.id === 'blind-mode'")
        page.keyboard.press("Space")
        assert page.is_checked("#blind-mode")
        assert page.evaluate("localStorage.getItem('arbitro.blind')") == "1"
    assert white.input_value("#blind-style") == "es"
    black.keyboard.press("Tab")
    black.keyboard.press("ArrowDown")
    assert black.input_value("#blind-style") == "en"
    assert black.evaluate("localStorage.getItem('arbitro.blind-style')") == "en"
    assert serious_violations(white) == []

    tab_to(white, "e.textContent === 'Poner en marcha los relojes'")
    white.keyboard.press("Enter")
    black.wait_for_function("document.querySelector('#clock-white').classList.contains('running')")
    for page in (white, black):
        tab_to(page, "e.id === 'move-input'")

    # Every move is announced on both pages, each in its player's words.
    game = [
        (white, "peón Eva cuatro", "peón Eva cuatro", "pawn Eva four"),
        (black, "pawn Eva five", "peón Eva cinco", "pawn Eva five"),
        (white, "Alfil César cuatro", "Alfil César cuatro", "Bishop Cesar four"),
        (black, "Knight Cesar six", "Caballo César seis", "Knight Cesar six"),
        (white, "Dama Héctor cinco", "Dama Héctor cinco", "Queen Hector five"),
        (black, "caballo felix seis", "Caballo Félix seis", "Knight Felix six"),
    ]
    for ply, (page, typed, spanish, english) in enumerate(game):
        say(page, typed)
        side = "Blancas" if ply % 2 == 0 else "Negras"
        heard(white, side, spanish)
        heard(black, side, english)
        wait_moves(white, ply + 1)

    # Commands: a rank, the clocks, the opponent's last move.
    say(white, "fila 1")
    assert heard(white, "Fila uno") == (
        "Fila uno: Ana uno, Torre blanca; Bella uno, Caballo blanco; César uno, Alfil blanco; "
        "Eva uno, Rey blanco; Gustavo uno, Caballo blanco; Héctor uno, Torre blanca."
    )
    say(black, "Relojes")
    assert re.fullmatch(r"Blancas \d.*, negras \d.*\.", heard(black, "negras"))
    say(white, "repetir")
    assert heard(white, "Negras", "Caballo Félix seis") == "Negras jugaron Caballo Félix seis."
    say(black, "rank 9")  # refused, and said why
    heard(black, "rank 9")
    assert black.locator("#moves .entry").count() == 6  # nothing was played

    # Mate: announced with the capture and the mate, and the result.
    say(white, "Dama captura Félix siete")
    assert "Dama captura Félix siete, jaque mate" in heard(white, "jaque mate", "1-0")
    assert "Queen takes Felix seven, checkmate" in heard(black, "checkmate", "1-0")
    for page in (white, black):
        assert page.errors == []


@pytest.mark.law("F2.7")
def test_the_arbiter_reconciles_two_boards_in_the_console(server: str, browser: Any) -> None:
    links = create(server)
    arbiter = open_page(browser, links["arbiter"])
    arbiter.get_by_label("Moves on board A").fill("1.e4 e5 2.Nf3 Nc6")
    arbiter.get_by_label("Moves on board B").fill("1.e4 e5 2.Nf3 Nf6")
    arbiter.get_by_label("Scoresheet A (optional)").fill("1.e4 e5 2.Nf3 Nc6")
    arbiter.get_by_label("Scoresheet B (optional)").fill("1.e4 e5 2.Nf3 Nc6")
    arbiter.get_by_role("button", name="Decide", exact=True).click()
    result = arbiter.get_by_role("status").filter(has_text="board B")
    result.wait_for()
    assert "article F2.7" in result.inner_text()
    assert arbiter.inner_text("#reconcile-moves") == "1. e4 e5 2. Nf3 Nc6"
    assert arbiter.inner_text("#reconcile-to-move") == "White"
    arbiter.get_by_label("Moves on board B").fill("1.e4 e5 2.Kf3")
    arbiter.get_by_role("button", name="Decide", exact=True).click()
    arbiter.wait_for_function(
        "document.getElementById('reconcile-text').classList.contains('error')"
    )
    assert "board B" in arbiter.inner_text("#reconcile-text")
    assert arbiter.is_hidden("#reconcile-details")
    assert serious_violations(arbiter) == []
    assert arbiter.errors == []


# -- adjourned games (Appendix A) ------------------------------------------------------------


@pytest.mark.law("A1")
@pytest.mark.law("A7")
def test_the_arbiter_adjourns_and_the_player_seals_in_the_browser(
    server: str, browser: Any
) -> None:
    links = create(server, time_control="90+30")
    arbiter = open_page(browser, links["arbiter"])
    white = open_page(browser, links["white"])
    black = open_page(browser, links["black"])
    click(arbiter, "Start the clocks")
    type_move(white, "e4")
    wait_moves(black, 1)
    type_move(black, "e5")
    wait_moves(white, 2)
    arbiter.get_by_label("Place").fill("Hall 2")
    arbiter.locator("form.tool", has_text="Adjourn").get_by_role("button", name="Apply").click()
    white.wait_for_function("document.getElementById('move-send').textContent.includes('Seal')")
    assert "seals the move" in white.inner_text("#status")
    # The sealer checks how his move reads, then seals it; the opponent never sees it.
    white.fill("#move-input", "Nd2")  # the pawn is still on d2: A8 would lose the game
    click(white, "Check")
    white.wait_for_function("document.getElementById('alert').textContent.includes('d2')")
    white.fill("#move-input", "Bc4")
    click(white, "Check")
    white.wait_for_function("document.getElementById('status').textContent.includes('Bc4')")
    click(white, "Seal and stop the clocks")
    for page in (white, black, arbiter):
        page.wait_for_function("document.getElementById('status').textContent.includes('envelope')")
        assert "Bc4" not in page.content()
    assert arbiter.is_visible("#envelope-link")
    envelope = httpx.get(f"{server}/api/games/{links['id']}/envelope?lang=en").text
    assert "Hall 2" in envelope and "Bc4" not in envelope
    assert serious_violations(white) == []
    # The resumption: both at the board, the envelope is opened and the move made.
    resume = arbiter.locator("form.tool", has_text="Resume")
    resume.get_by_label("White at the board").check()
    resume.get_by_label("Black at the board").check()
    resume.get_by_role("button", name="Apply").click()
    wait_moves(black, 3)
    assert "Bc4" in black.inner_text("#moves")
    assert "Black to move" in black.inner_text("#status")
    for page in (white, black, arbiter):
        assert page.errors == []
