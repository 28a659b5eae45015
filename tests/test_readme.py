"""The README's commands work as written."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent


def shell_lines() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_readme_starts_with_what_arbitro_is_and_the_two_commands() -> None:
    assert README.startswith("# arbitro\n")
    assert "make run" in README and "make test" in README
    assert "make run" in shell_lines()[0] and "make test" in shell_lines()[1]


TOUR = [line for line in shell_lines() if line.startswith(".venv/bin/")]


SHARED_DATA = ROOT.parent / "shared" / "data"
NEEDS_SHARED = ("benchmarks/game.py", "benchmarks/can_mate.py", "benchmarks/notation.py")


@pytest.mark.parametrize("line", TOUR)
def test_tour_commands_run(line: str) -> None:
    if (
        any(script in line for script in NEEDS_SHARED)
        and not SHARED_DATA.is_dir()
        and os.environ.get("CI") != "true"
    ):
        pytest.skip("the shared reference data (../shared/data) is not on this machine")
    argv = shlex.split(line)
    argv[0] = str(BIN / Path(argv[0]).name)
    if argv[1:2] == ["clock"]:
        # Interactive: needs a terminal (tests/test_cli.py drives it in a pseudo-terminal).
        # Here: the control is valid and the command asks for a terminal.
        result = subprocess.run(
            argv, check=False, capture_output=True, text=True, cwd=ROOT, timeout=60
        )
        assert result.returncode == 2
        assert "terminal" in result.stderr
        return
    env = dict(os.environ, LANG="C.UTF-8")
    result = subprocess.run(
        argv, check=False, capture_output=True, text=True, cwd=ROOT, timeout=300, env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


def test_makefile_and_ci_are_in_place() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run:", makefile, flags=re.M)
    assert re.search(r"^test:", makefile, flags=re.M)
    assert "make test" in (ROOT / ".ci" / "run").read_text()
