# Everything starts from a plain Python 3.11+: the first target run creates .venv and installs the
# project with its dev tools; it reinstalls only when pyproject.toml is newer than the stamp.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help install run test lint fmt typecheck pytest pytest-sqlite bench clean

help:
	@echo "make run    set up, migrate, load demo data and serve on http://127.0.0.1:8000 (DEBUG on)"
	@echo "make test   set up and run the whole suite: ruff, ruff format --check, mypy, pytest"
	@echo "make lint | fmt | typecheck | pytest | pytest-sqlite | bench | clean"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	DJANGO_DEBUG=1 PYTHON=$(BIN)/python scripts/run_local.sh

test: lint typecheck pytest pytest-sqlite

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

fmt: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The django-stubs plugin imports the settings; DEBUG lets them load without a production secret key.
typecheck: $(STAMP)
	DJANGO_DEBUG=1 $(BIN)/mypy

# pytest exits 5 when it collected no test: that is a failure here, not a pass.
pytest: $(STAMP)
	@status=0; $(BIN)/pytest $(PYTEST_ARGS) || status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; \
	exit $$status

# The match services and the API's move path again on SQLite, the embedded default `make run` serves
# from: whatever DATABASE_URL says (CI's is PostgreSQL), these run on a SQLite test database too.
SQLITE_TESTS := tests/games/test_services_matches.py tests/games/test_selectors.py \
	tests/games/test_clocks.py tests/games/test_tasks.py tests/games/test_api_errors.py \
	tests/games/test_apis_matches.py tests/games/test_replay_matches.py
pytest-sqlite: $(STAMP)
	DATABASE_URL=sqlite:///$(CURDIR)/var/test-sqlite.sqlite3 $(BIN)/pytest -p no:cacheprovider $(SQLITE_TESTS)

bench: $(STAMP)
	$(BIN)/python -m pip install -e '.[dev,bench]'
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis *.egg-info
