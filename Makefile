# Everything starts from a plain Python 3.11+: the first target run creates .venv and installs the
# project with its dev tools; it reinstalls only when pyproject.toml is newer than the stamp.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help install run test lint fmt typecheck pytest pytest-quick pytest-sqlite bench clean

help:
	@echo "make run    set up, migrate, load demo data and serve on http://127.0.0.1:8000 (DEBUG on)"
	@echo "make test   set up and run the whole suite: ruff, ruff format --check, mypy, pytest"
	@echo "make lint | fmt | typecheck | pytest | pytest-quick | pytest-sqlite | bench | clean"

# Python 3.11 or newer, for the venv and for whatever made an existing .venv (one made by an older
# Python is replaced, not reused: the install would fail in it again).
PY_OK := import sys; sys.exit(sys.version_info < (3, 11))

$(STAMP): pyproject.toml
	@$(PYTHON) -c '$(PY_OK)' 2>/dev/null || { echo "make: Tute Arena needs Python 3.11 or newer, and $(PYTHON) is $$($(PYTHON) -V 2>&1 || echo missing). Install one and run e.g. make install PYTHON=python3.11" >&2; exit 1; }
	@if [ -e $(VENV) ] && ! $(BIN)/python -c '$(PY_OK)' 2>/dev/null; then echo "make: $(VENV) was made by $$($(BIN)/python -V 2>&1 || echo a missing Python), older than 3.11: replacing it" >&2; rm -rf $(VENV); fi
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Supervised: web, worker and beat (tute_site/run_local.py); Ctrl-C stops them all.
run: $(STAMP)
	DJANGO_DEBUG=1 $(BIN)/python -m tute_site.run_local

# pytest runs in front, its progress live; lint, typecheck and the SQLite pass run beside it (-j3, each
# one's output kept whole in var/test-side.log and printed once pytest is done): pytest waits on real
# processes much of its time (workers, browsers, servers), which they fill. Any part failing fails it.
test: $(STAMP)
	@mkdir -p var; \
	$(MAKE) --no-print-directory -j3 -Otarget lint typecheck pytest-sqlite > var/test-side.log 2>&1 & side=$$!; \
	status=0; $(MAKE) --no-print-directory pytest || status=$$?; \
	side_status=0; wait $$side || side_status=$$?; \
	echo "--- beside pytest: lint, typecheck and the SQLite pass"; cat var/test-side.log; \
	if [ $$side_status -ne 0 ]; then echo "make test: lint, typecheck or the SQLite pass failed" >&2; fi; \
	[ $$status -eq 0 ] && [ $$side_status -eq 0 ]

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

fmt: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The django-stubs plugin imports the settings; DEBUG lets them load without a production secret key.
typecheck: $(STAMP)
	DJANGO_DEBUG=1 $(BIN)/mypy

# pytest exits 5 when it collected no test: that is a failure here, not a pass. The suite runs on
# PYTEST_WORKERS processes (pytest-xdist; each its own test database and two Redis databases, see
# tests/workers.py; 0: one process), a test file to a process, so that its module fixtures (a real
# worker, a browser) start once, in the order tests/conftest.py gives them (longest first;
# --no-loadscope-reorder keeps pytest-xdist from handing out the files with the most tests first
# instead). Four on two vCPUs: much of a test's time is spent waiting on a real worker, a browser or a
# server, which the other processes fill. pytest-quick leaves out the tests marked slow (real workers,
# browsers, servers a test starts) for a quick loop; make test runs everything.
PYTEST_WORKERS ?= 4
pytest: $(STAMP)
	@status=0; $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS) || status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; \
	exit $$status

pytest-quick: $(STAMP)
	@$(MAKE) --no-print-directory pytest PYTEST_ARGS='-m "not slow" $(PYTEST_ARGS)'

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
