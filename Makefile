# Two commands on a fresh clone: `make demo` and `make test`. Each sets up .venv itself.
# `make demo` at a terminal keeps its referee serving the web client (the URL it prints) until Ctrl-C.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := clients/node/node_modules/.installed
WEB_STAMP := clients/web/node_modules/.installed

.PHONY: demo test check lint deep venv bench conformance clean browser

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The Node.js client the tests run (skipped by its test only where Node.js is not installed).
$(NODE_STAMP): clients/node/package.json clients/node/package-lock.json
	if command -v npm >/dev/null; then npm ci --prefix clients/node --no-audit --no-fund --loglevel=error && touch $(NODE_STAMP); fi

# The web client's build tools (its built files are checked in; this is for the test that they are current).
$(WEB_STAMP): clients/web/package.json clients/web/package-lock.json
	if command -v npm >/dev/null; then npm ci --prefix clients/web --no-audit --no-fund --loglevel=error && touch $(WEB_STAMP); fi

# The browser tests drive Debian's chromium; install it where we may (root with apt), else they skip.
browser:
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends chromium >/dev/null; } || \
	    echo "note: could not install chromium; the browser tests will skip"; \
	  else echo "note: no chromium (apt-get install chromium as root); the browser tests will skip"; fi; }

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m smear_dsl tournament run --rules four_point_ne_wisconsin --entrants 8 --rounds 2 --duplicate --seed demo --out demo-out/tournament
	$(BIN)/python -m smear_dsl demo --game four_point_ne_wisconsin:widow=2@4 --game cutthroat_canadian@3 --web 8080 \
	  $$( [ -t 0 ] && [ -z "$$CI" ] && echo --serve )

# Three workers on this 2-core machine (pytest-xdist; TEST_JOBS=1 for one): servers and browsers mostly wait, so
# the suite takes ~7 min here (measured 7:15; ~8:20 on two). The chaos test (`alone`) runs by itself afterwards: it loads the machine, and the others time
# takeovers and connections; it kills a PostgreSQL cluster of its own (tests/pgcluster.py).
TEST_JOBS ?= 3
test: $(STAMP) $(NODE_STAMP) $(WEB_STAMP) browser lint
	$(BIN)/python -m pytest -n $(TEST_JOBS) -m "not alone" --durations=15
	$(BIN)/python -m pytest -m alone --durations=5

# The fast loop for edits: the language, engine, records, sheets and simulations (tests/ but the
# `system` tier, which starts servers, browsers and databases, and the `slow` sweeps: both run in
# `make test`); stops at the first failure. Properties run a quarter of their examples (the `dev`
# Hypothesis profile, tests/conftest.py).
check: $(STAMP) lint
	HYPOTHESIS_PROFILE=dev $(BIN)/python -m pytest -n $(TEST_JOBS) -x -q -m "not slow and not system"

# The checkers (make check and make test run them first): ruff's lint, mypy (pyproject.toml says what
# each covers), and the web client's eslint and the node tests of its pure helpers (where npm is).
lint: $(STAMP) $(WEB_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	if command -v npm >/dev/null; then npm run --silent --prefix clients/web lint && npm test --silent --prefix clients/web; \
	  else echo "note: no npm: the web client's eslint and node tests are skipped"; fi

# The properties and sweeps with ten times the examples (the `deep` profile): a hunt, not a gate.
deep: $(STAMP)
	HYPOTHESIS_PROFILE=deep $(BIN)/python -m pytest -q tests/deep tests/language/test_expr_oracle.py -m "not system"

conformance: $(STAMP)
	$(BIN)/python ../shared/tools/check_conformance.py --cmd $(BIN)/smear-dsl

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_referee.py
	$(BIN)/python benchmarks/bench_web.py

clean:
	rm -rf $(VENV) build *.egg-info clients/node/node_modules clients/web/node_modules
