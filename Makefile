# The README's two commands live here: `make serve` (the main job) and `make test`.
# Both build the local virtual environment first, from nothing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SERVE_STAMP := $(VENV)/.installed-serve

.PHONY: venv build play serve test test-pure test-sb3 lint typecheck bench golden clean system-deps

$(VENV)/bin/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip 'setuptools>=68' wheel

# What serving needs: the package and its compiler (mypyc, in the `build` extra), nothing else.
$(SERVE_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install -q -e '.[build]'
	touch $(SERVE_STAMP)

# Everything: the test tools and every extra the tests exercise.
$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install -q -e '.[dev,rl,lab,cluster]'
	touch $(SERVE_STAMP) $(STAMP)

venv: $(STAMP)

# The machine's programs the tests drive (chromium, PostgreSQL, nginx, openssl), from
# Debian's packages where this user may install them; otherwise it says what is missing
# and those tests skip, each saying why (scripts/system-deps.sh).
system-deps:
	@scripts/system-deps.sh

# The compiled build (mypyc, see src/decklab/_native.py): recompiled only when a compiled
# module's source changed since the last build; skipped with DECKLAB_PURE=1; without a C
# compiler setup.py says so and the package stays pure Python.
build: $(SERVE_STAMP)
	@if [ "$${DECKLAB_PURE:-0}" != "0" ]; then echo "DECKLAB_PURE=$$DECKLAB_PURE: pure Python, nothing to build"; \
	elif $(BIN)/python -W ignore -c 'import sys, decklab._native as n; sys.exit(n.stale_reason() is not None)'; then :; \
	else echo "compiling the engine, games and search with mypyc (a minute or two) ..."; \
	  $(BIN)/python setup.py -q build_ext --inplace; fi

play: $(SERVE_STAMP)
	-@$(MAKE) --no-print-directory build
	$(BIN)/decklab play $(GAME)

# The web platform on the embedded SQLite database; it prints the address to open.
serve: $(SERVE_STAMP)
	-@$(MAKE) --no-print-directory build
	$(BIN)/decklab serve $(SERVE)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# The suite runs on every core (pytest-xdist; JOBS=1 for one process): most of its wall
# time is servers, browsers and subprocesses waiting, not CPU.
JOBS ?= auto
test: $(STAMP) system-deps build
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/pytest -q -n $(JOBS)

# The pure-Python fallback must behave exactly as the compiled build: the suite again,
# with the compiled modules switched off, but for the tests marked `once` (the web
# platform's: tests/server, tests/web, tests/deploy). The builds differ only in the
# compiled modules (decklab/_native.py's COMPILED: engine, games, bots' search); every
# test of those runs here, tests/test_build.py's move-for-move comparison of both
# builds included. The platform's tests test the interpreted layers above them, the
# same code on either build: tests/conftest.py gives the whole argument.
test-pure: $(STAMP)
	DECKLAB_PURE=1 $(BIN)/pytest -q -n $(JOBS) -m "not once"

# Stable-Baselines3 through the Gymnasium interface (MaskablePPO on the Cabin). Its own
# extra and target because it pulls torch, gigabytes of CUDA libraries: .ci/run runs it,
# `make test` leaves it out and the test says so when it skips.
$(VENV)/.sb3: $(STAMP)
	$(BIN)/pip install -q -e '.[sb3]'
	touch $(VENV)/.sb3

test-sb3: $(VENV)/.sb3
	DECKLAB_REQUIRE_SB3=1 $(BIN)/pytest -q -p no:randomly -n 0 tests/interop -k sb3

$(VENV)/.bench: $(STAMP)
	$(BIN)/pip install -q -e '.[bench]'
	touch $(VENV)/.bench

bench: $(VENV)/.bench build
	$(BIN)/python bench/playouts.py

golden: $(STAMP)
	$(BIN)/python -m decklab.engine.playthrough --write tests/golden

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .mypy_cache .pytest_cache .ruff_cache
	find src -name '*.so' -delete; rm -f src/decklab/_native.json
