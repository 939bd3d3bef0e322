# gpukb — the two commands of the README, and the targets behind them.
# Python 3.11 or 3.12 (durable-rules 2.0.28 does not import on 3.13).
PYTHON ?= $(shell for p in python3.12 python3.11 python3; do \
	  if command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(not ((3,11) <= sys.version_info[:2] <= (3,12)))' 2>/dev/null; then echo $$p; break; fi; done)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: setup serve site test lint vale bench schema clean

$(BIN)/gpukb: pyproject.toml
	@test -n "$(PYTHON)" || { echo "error: need python3.11 or python3.12 (durable-rules does not run on 3.13)"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[docs,test]'
	@touch $@

# `site` and `test` write kb's byte code first (0.5 s): an editable install has none, and where
# PYTHONDONTWRITEBYTECODE is set every process — each `gpukb` a test starts — would compile kb again.
setup: $(BIN)/gpukb ## create .venv with gpukb and everything the site and tests need

site: setup ## build the knowledge base into site/ (strict; docs/generated/ is written first by kb/docs_hooks.py)
	$(BIN)/python -m compileall -q kb
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

serve: site ## build, then serve the knowledge base on http://$(HOST):$(PORT)/
	@echo "Serving on http://$(HOST):$(PORT)/  (Ctrl-C stops)"
	$(BIN)/python -m http.server $(PORT) --bind $(HOST) --directory site

test: setup ## run every test
	$(BIN)/python -m compileall -q kb
	$(BIN)/python -m pytest

lint: setup ## validate the catalog
	$(BIN)/gpukb lint

vale: ## house style of the prose (needs the vale binary)
	@scripts/vale

bench: setup ## print speed figures: CLI latency and engine throughput, then site build times
	$(BIN)/python scripts/bench
	$(BIN)/python scripts/site-bench
	$(BIN)/python scripts/check-bench

schema: setup ## export the JSON Schema of the catalog files
	$(BIN)/python scripts/export_schema

clean:
	rm -rf $(VENV) site .pytest_cache
