# One-command set-up: `make demo` runs the main job, `make test` runs the whole suite.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: demo test test-slow lint typecheck bench browser clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/accord report examples/pilot.csv --raters annotator_a annotator_b --study examples/study.toml -o demo-report.html
	@echo "open file://$(CURDIR)/demo-report.html in a browser (one self-contained file, no network needed)"

browser:
	@bash .ci/install-browser

test: $(STAMP) browser
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest -q

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow tests; rc=$$?; if [ $$rc -eq 5 ]; then echo "no slow tests"; exit 0; fi; exit $$rc

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
