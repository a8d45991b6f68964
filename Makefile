# One-command set-up: `make demo` runs the main job, `make test` runs the whole suite.
# `make demo` installs accord alone (runtime dependencies only); `make test` adds the test
# and benchmark extras. Every install is constrained by constraints.txt, the lock of the
# development tools and test oracles (`make lock` refreshes it; `make test-latest` runs the
# suite with the newest releases instead, in .venv-latest). Each install is remembered by a
# stamp named after the checksum of pyproject.toml and the lock, so a changed pyproject.toml
# or lock reinstalls, and `make test` after `make demo` installs the extras.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
CONSTRAINTS ?= -c constraints.txt
SUM := $(shell cat pyproject.toml constraints.txt 2>/dev/null | cksum | cut -d' ' -f1)
DEMO_STAMP := $(VENV)/.installed-demo-$(SUM)
TEST_STAMP := $(VENV)/.installed-test-$(SUM)
ENGINES_STAMP := $(VENV)/.installed-engines-$(SUM)
DOCS_STAMP := $(VENV)/.installed-docs-$(SUM)
DIST_STAMP := $(VENV)/.installed-dist-$(SUM)
# a missing or stale lock stops the install and names the command that refreshes it
LOCK_CHECK := $(if $(CONSTRAINTS),$(PYTHON) .ci/lock.py check $(BIN)/python,true)
PIP := $(BIN)/python -m pip install --quiet $(CONSTRAINTS)

.PHONY: demo test test-slow test-engines test-cluster test-latest java lint typecheck bench browser clean install docs dist lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	@$(LOCK_CHECK)
	$(BIN)/python -m pip install --quiet $(CONSTRAINTS) --upgrade pip

$(DEMO_STAMP): pyproject.toml | $(BIN)/python
	@$(LOCK_CHECK)
	$(PIP) -e .
	touch $(DEMO_STAMP)

# the test install includes the runtime one, so it stamps both
$(TEST_STAMP): pyproject.toml | $(BIN)/python
	@$(LOCK_CHECK)
	$(PIP) -e '.[test,bench]'
	touch $(DEMO_STAMP) $(TEST_STAMP)

$(ENGINES_STAMP): pyproject.toml | $(BIN)/python
	@$(LOCK_CHECK)
	$(PIP) -e '.[test,bench,engines]'
	touch $(ENGINES_STAMP)

$(DOCS_STAMP): pyproject.toml | $(BIN)/python
	@$(LOCK_CHECK)
	$(PIP) -e '.[docs]'
	touch $(DOCS_STAMP)

$(DIST_STAMP): pyproject.toml | $(BIN)/python
	@$(LOCK_CHECK)
	$(PIP) -e '.[dist]'
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

# A real cluster on 127.0.0.1: a Dask scheduler with two worker processes and a Spark
# standalone master with two workers (.ci/cluster.py starts them, runs the cluster tests
# against them and stops every process, also when a test fails).
test-cluster: $(ENGINES_STAMP) java
	$(BIN)/python .ci/cluster.py -- $(BIN)/python -m pytest -q -m cluster tests

bench: $(TEST_STAMP)
	$(BIN)/python benchmarks/run_all.py

# The documentation site, into site/; --strict makes a broken link, a missing reference
# or a docstring mkdocstrings cannot read an error (mkdocs.yml says so too).
docs: $(DOCS_STAMP)
	bash .ci/fetch-doc-assets
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

# The sdist and the wheel, into dist/, by the standard build frontend.
dist: $(DIST_STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

# constraints.txt from the newest releases that pyproject.toml allows, resolved in a fresh
# virtualenv with every extra, with the Python version it was made for in its header.
lock:
	rm -rf .venv-lock
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/python -m pip install --quiet --upgrade pip
	.venv-lock/bin/python -m pip install --quiet -e '.[test,bench,docs,dist,engines]'
	$(PYTHON) .ci/lock.py make .venv-lock
	rm -rf .venv-lock

# The suite against the newest releases of every tool, unconstrained, in .venv-latest: what
# `make lock` would pin next. CI does not run it.
test-latest:
	$(MAKE) test VENV=.venv-latest CONSTRAINTS=

clean:
	rm -rf $(VENV) .venv-latest .venv-lock build dist site *.egg-info .pytest_cache .mypy_cache .ruff_cache
