# The README's two commands live here: `make serve` (the main job) and `make test`.
# Both build the local virtual environment first, from nothing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv play serve test lint typecheck bench golden clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

play: $(STAMP)
	$(BIN)/decklab play $(GAME)

# The web platform on the embedded SQLite database; it prints the address to open.
serve: $(STAMP)
	$(BIN)/decklab serve $(SERVE)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

test: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/pytest -q

$(VENV)/.bench: $(STAMP)
	$(BIN)/pip install -q -e '.[bench]'
	touch $(VENV)/.bench

bench: $(VENV)/.bench
	$(BIN)/python bench/playouts.py

golden: $(STAMP)
	$(BIN)/python -m decklab.engine.playthrough --write tests/golden

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .mypy_cache .pytest_cache .ruff_cache
