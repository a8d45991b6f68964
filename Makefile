# One-command set-up: `make demo` runs the main job, `make test` runs the whole suite.
# `make demo` installs accord alone (runtime dependencies only); `make test` adds the test
# and benchmark extras. Each install is remembered by a stamp named after pyproject.toml's
# checksum, so a changed pyproject.toml reinstalls, and `make test` after `make demo`
# installs the extras.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SUM := $(shell cat pyproject.toml | cksum | cut -d' ' -f1)
DEMO_STAMP := $(VENV)/.installed-demo-$(SUM)
TEST_STAMP := $(VENV)/.installed-test-$(SUM)
ENGINES_STAMP := $(VENV)/.installed-engines-$(SUM)
DOCS_STAMP := $(VENV)/.installed-docs-$(SUM)
DIST_STAMP := $(VENV)/.installed-dist-$(SUM)

.PHONY: demo test test-slow test-engines java lint typecheck bench browser clean install docs dist

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(DEMO_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(DEMO_STAMP)

# the test install includes the runtime one, so it stamps both
$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(DEMO_STAMP) $(TEST_STAMP)

$(ENGINES_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,engines]'
	touch $(ENGINES_STAMP)

$(DOCS_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $(DOCS_STAMP)

$(DIST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dist]'
	touch $(DIST_STAMP)

install: $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/accord report examples/pilot.csv --raters annotator_a annotator_b --study examples/study.toml -o demo-report.html
	@echo "open file://$(CURDIR)/demo-report.html in a browser (one self-contained file, no network needed)"
	@echo "accord is in $(BIN): run 'source $(BIN)/activate' to type accord, or call $(BIN)/accord"

browser:
	@bash .ci/install-browser

test: $(TEST_STAMP) browser
	$(BIN)/ruff check src tests benchmarks docs/_tools
	$(BIN)/mypy
	$(BIN)/python -m pytest -q

test-slow: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -m slow tests; rc=$$?; if [ $$rc -eq 5 ]; then echo "no slow tests"; exit 0; fi; exit $$rc

java:
	@bash .ci/install-java

# DuckDB, Dask (also on a LocalCluster) and PySpark in local mode, all on 127.0.0.1.
# Under CI (CI=1 or CI=true) an engine that cannot be had fails the lane; elsewhere it skips.
test-engines: $(ENGINES_STAMP) java
	$(BIN)/python -m pytest -q -m engines tests

bench: $(TEST_STAMP)
	$(BIN)/python benchmarks/run_all.py

# The documentation site, into site/; --strict makes a broken link, a missing reference
# or a docstring mkdocstrings cannot read an error (mkdocs.yml says so too).
docs: $(DOCS_STAMP)
	$(BIN)/mkdocs build --strict --site-dir site

# The sdist and the wheel, into dist/, by the standard build frontend.
dist: $(DIST_STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

clean:
	rm -rf $(VENV) build dist site *.egg-info .pytest_cache .mypy_cache .ruff_cache
