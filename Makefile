# Two commands on a fresh clone: `make demo` and `make test`. Each sets up .venv itself.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test venv bench conformance clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m smear_dsl demo --game four_point_ne_wisconsin:widow=2@4 --game cutthroat_canadian@3

test: $(STAMP)
	$(BIN)/python -m pytest

conformance: $(STAMP)
	$(BIN)/python ../shared/tools/check_conformance.py --cmd $(BIN)/smear-dsl

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) build *.egg-info
