# memctl: set-up, demo, tests and benchmarks. Everything installs from package registries;
# nothing is fetched from a model hub (HF_HUB_OFFLINE=1 throughout).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
MEMCTL := $(VENV)/bin/memctl
STAMP  := $(VENV)/.installed
DEMO   := demo-store
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: setup demo test test-fast bench docs clean

setup: $(STAMP)

# torch first, pinned: the CPU build on this machine's disk. A bare or newer torch
# requested by sentence-transformers would pull a multi-GB CUDA build instead.
$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[st,dev]'
	touch $(STAMP)

demo: setup
	rm -rf $(DEMO)
	$(MEMCTL) init $(DEMO)
	$(MEMCTL) ingest sample_conversations/ --store $(DEMO)
	$(MEMCTL) recall "帮我推荐三亚的餐厅" --user xiaolin --store $(DEMO) --explain --table
	$(MEMCTL) recall "How should I structure my first Rust service?" --user sam --store $(DEMO) --table
	$(MEMCTL) recall "plan my week" --user kai --store $(DEMO) --format prompt --budget 120

test: setup
	$(PY) -m pytest -q

test-fast: setup
	$(PY) -m pytest -q -m "not integration"

bench: setup
	$(PY) bench/run.py

# docs/cli.md is generated from the commands' help (a test checks it is current).
docs: setup
	$(PY) -m typer memctl.cli utils docs --name memctl --output docs/cli.md

clean:
	rm -rf $(DEMO) .pytest_cache
