# arbitro: `make run` sets everything up and starts the main job; `make test` sets up and
# passes the tests (pytest, ruff, mypy).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
ARGS   ?=
CLOCK  ?= 3+2

.PHONY: run clock test lint typecheck pytest bench catalogs clean

# The virtual environment, made with the first Python 3.11+ found.
$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "arbitro needs Python 3.11 or newer; set PYTHON=/path/to/python3.11" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamps: reinstall when the project's metadata or a compiled module's source changes.
COMPILED := $(addprefix src/arbitro/adjudication/,_helpmate.c static.py dive.py)
$(VENV)/.run-installed: pyproject.toml setup.py $(COMPILED) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --editable .
	@touch $@

$(VENV)/.test-installed: pyproject.toml setup.py $(COMPILED) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --editable '.[test]'
	@touch $@ $(VENV)/.run-installed

# The web application at http://127.0.0.1:8000 (games in ./arbitro.db).
run: $(VENV)/.run-installed
	$(BIN)/arbitro serve $(ARGS)

# The chess clock in the terminal.
clock: $(VENV)/.run-installed
	$(BIN)/arbitro clock "$(CLOCK)"

test: $(VENV)/.test-installed
	$(BIN)/python -m pytest
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

bench: $(VENV)/.run-installed
	$(BIN)/python benchmarks/clock.py

# Extract messages, merge them into the catalogs, compile them. Translate the .po files between
# the update and the compile step; `make test` checks that the catalogs are complete and compiled.
catalogs: $(VENV)/.test-installed
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output \
	  --project arbitro --copyright-holder "arbitro contributors" \
	  -o src/arbitro/locale/arbitro.pot src
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete -D arbitro -i src/arbitro/locale/arbitro.pot \
	  -d src/arbitro/locale
	$(BIN)/pybabel compile --statistics -D arbitro -d src/arbitro/locale

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
