"""The compiled forms of the mate analysis (``setup.py``): built where CI runs, and never older
than their sources (a stale one would run instead of the code being edited)."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from types import ModuleType

import pytest

from arbitro.adjudication import search

SOURCES = Path(search.__file__).resolve().parent


def compiled_forms() -> list[tuple[ModuleType | None, str]]:
    return [
        (search._helpmate, "_helpmate.c"),
        (importlib.import_module("arbitro.adjudication.static"), "static.py"),
        (importlib.import_module("arbitro.adjudication.dive"), "dive.py"),
    ]


@pytest.mark.parametrize("index", range(3))
def test_a_compiled_module_is_built_in_ci_and_newer_than_its_source(index: int) -> None:
    module, source = compiled_forms()[index]
    path = Path(module.__file__) if module is not None and module.__file__ else None
    if path is None or path.suffix == ".py":
        assert os.environ.get("CI") != "true", f"{source} was not compiled"
        pytest.skip(f"{source} runs as it is (not compiled here)")
    assert path.stat().st_mtime >= (SOURCES / source).stat().st_mtime, (
        f"{path.name} is older than {source}: `make test` (or pip install -e .) builds it again"
    )
