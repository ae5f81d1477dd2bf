# SimPhant — make targets. Each target first installs what is missing (idempotent).
SHELL := /bin/bash
ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
ENV_FILE := $(ROOT)/.simphant-env
PYTEST_ARGS ?=

.PHONY: setup test test-solver test-app test-gui demo bench bench-sweep examples clean

setup:
	@$(ROOT)/tools/setup_env.sh > $(ENV_FILE)

# Runs the whole test suite (solver, headless FreeCAD, FreeCAD GUI under Xvfb).
test: setup
	@$(ROOT)/tools/run_python.sh -m pytest -q $(PYTEST_ARGS) tests

test-solver: setup
	@$(ROOT)/tools/run_python.sh -m pytest -q $(PYTEST_ARGS) tests/solver

test-app: setup
	@$(ROOT)/tools/run_python.sh -m pytest -q $(PYTEST_ARGS) tests/app

# The main job: a motion study on a bundled example, outputs in out/demo.
demo: setup
	@$(ROOT)/bin/simphant run --out $(ROOT)/out/demo

examples: setup
	@$(ROOT)/tools/run_python.sh $(ROOT)/examples/make_examples.py

# Speed benchmark (bench/README.md); installs MuJoCo into bench/.deps only.
# make bench BENCH_ARGS=--quick for a ~1 minute run.
bench: setup
	@$(ROOT)/bench/install_deps.sh
	@$(ROOT)/tools/run_python.sh $(ROOT)/bench/bench_chain.py $(BENCH_ARGS)

# Parameter-study benchmark (bench/README.md): 200-variant sweep vs a serial loop, Dask overhead.
bench-sweep: setup
	@$(ROOT)/tools/run_python.sh $(ROOT)/bench/bench_sweep.py $(BENCH_ARGS)

clean:
	rm -rf $(ROOT)/out $(ENV_FILE)
	find $(ROOT) -name __pycache__ -type d -prune -exec rm -rf {} +
