"""The command line: ``arbitro timecontrol`` and the terminal clock."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from arbitro.cli import main
from arbitro.cli.clock import ClockFace, big, format_time
from arbitro.color import BLACK, WHITE
from arbitro.timecontrol import TimeControl


def test_timecontrol_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["timecontrol", "40/90, 30 + 30s", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pgn"] == "40/5400+30:1800+30"
    assert data["t_minutes"] == 150
    assert data["kind"]["fide-2023"] == "standard"


def test_timecontrol_table_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "es", "timecontrol", "180+2", "--pgn"]) == 0
    out = capsys.readouterr().out
    assert "3 min + 2 s" in out
    assert "relámpago" in out


def test_bad_time_control_exits_2_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "timecontrol", "3 +"]) == 2
    err = capsys.readouterr().err
    assert "Cannot read the time control '3 +'" in err


def test_clock_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "clock", "3+2"]) == 2
    assert "interactive terminal" in capsys.readouterr().err


def test_clock_refuses_an_untimed_control(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "clock", "-"]) == 2
    assert "needs a time control" in capsys.readouterr().err


def test_help_mentions_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert "clock" in out and "timecontrol" in out


# -- the clock face -------------------------------------------------------------------------------


def test_format_time() -> None:
    assert format_time(3_723_000) == "1:02:03"
    assert format_time(185_999) == "3:05"
    assert format_time(20_000) == "0:20"
    assert format_time(19_999) == "0:19.9"
    assert format_time(0) == "0:00.0"
    assert format_time(-1) == "0:00.0"


def test_big_digits_have_five_rows() -> None:
    assert len(big("3:00").splitlines()) == 5


def screen(face: ClockFace, now: int, width: int = 100) -> str:
    console = Console(record=True, width=width, color_system=None)
    console.print(face.render(now, width))
    return console.export_text()


def test_space_starts_then_presses_and_p_pauses() -> None:
    face = ClockFace(TimeControl.parse("3+2"), "en")
    assert "space: start" in screen(face, 0)
    assert face.key(" ", 0)
    assert face.clock.running and face.clock.turn == WHITE
    assert face.key(" ", 2_000)
    assert face.clock.turn == BLACK
    assert face.clock.remaining(WHITE, 2_000) == 180_000
    assert face.key("p", 3_000)
    assert not face.clock.running
    assert "p: resume" in screen(face, 10_000)
    assert face.key(" ", 4_000)  # a press while paused only says so
    assert face.clock.turn == BLACK
    assert "Paused" in screen(face, 4_000)
    assert face.key("p", 5_000)
    assert face.clock.running
    assert not face.key("q", 6_000)


def test_the_screen_shows_tenths_flags_and_the_side_to_move() -> None:
    face = ClockFace(TimeControl.parse("25s+0"), "en")
    face.key(" ", 0)
    text = screen(face, 6_000, width=60)  # narrow: plain digits
    assert "0:19.0" in text
    assert "▶ White" in text
    text = screen(face, 30_000, width=60)
    assert "flag fell" in text
    assert "0:00.0" in text


def test_the_screen_in_spanish() -> None:
    face = ClockFace(TimeControl.parse("40/90, 30 + 30s"), "es")
    face.key(" ", 0)
    text = screen(face, 1_000)
    assert "Blancas" in text and "Negras" in text
    assert "periodo 1" in text
    assert "40 jugadas en 90 min" in text
    assert "Blancas 1:29:59, 0 jugadas" in face.summary(1_000)


def test_summary_after_a_flag_fall() -> None:
    face = ClockFace(TimeControl.parse("1+0"), "en")
    face.key(" ", 0)
    assert face.summary(61_000) == ("White 0:00.0, 0 moves (flag fell) · Black 1:00, 0 moves")


# -- the real thing, in a pseudo-terminal ----------------------------------------------------------


def read_until(fd: int, needle: bytes, timeout: float = 20.0) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"{needle!r} not seen; got {seen[-500:]!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_terminal_clock_in_a_pseudo_terminal() -> None:
    primary, secondary = pty.openpty()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100", LINES="30", LANG="C.UTF-8")
    env.pop("LANGUAGE", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "arbitro.cli", "clock", "1 min + 1 s"],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env=env,
        cwd=Path(__file__).parent,
        close_fds=True,
    )
    os.close(secondary)
    try:
        read_until(primary, b"space")
        os.write(primary, b" ")  # start White's clock
        time.sleep(0.3)
        os.write(primary, b" ")  # White completes a move
        read_until(primary, b"1 move")
        os.write(primary, b"q")
        output = read_until(primary, b"Black")
        assert process.wait(timeout=20) == 0
        output += read_until(primary, b"moves", timeout=5)
        assert b"White 1:00, 1 move" in output or b"White 0:59, 1 move" in output
    finally:
        if process.poll() is None:
            process.kill()
        os.close(primary)
