# SimPhant — make targets. Each target first installs what is missing (idempotent).
SHELL := /bin/bash
ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
ENV_FILE := $(ROOT)/.simphant-env
PYTEST_ARGS ?=

.PHONY: setup test test-solver test-app test-gui test-fc1 test-addon test-addon-fc1 demo bench bench-sweep bench-outputs bench-first-solve examples translations clean

setup:
	@$(ROOT)/tools/setup_env.sh > $(ENV_FILE)

# Runs the whole test suite (solver, headless FreeCAD, FreeCAD GUI under Xvfb).
test: setup
	@$(ROOT)/tools/run_python.sh -m pytest -q $(PYTEST_ARGS) --ignore=tests/addon tests

# SimPhant installed as FreeCAD's Addon Manager does it, in fresh profiles, used from the
# GUI under Xvfb (tests/addon; pip downloads into /var/cache/simphant/pip). On FreeCAD 1.x:
# make test-addon-fc1 (the chroot of test-fc1).
test-addon: setup
	@$(ROOT)/tools/run_python.sh -m pytest -q $(PYTEST_ARGS) tests/addon

test-addon-fc1:
	@PYTEST_ARGS="$(PYTEST_ARGS)" $(ROOT)/tools/test_fc1.sh addon

test-solver: setup
	@$(ROOT)/tools/run_python.sh -m pytest -q $(PYTEST_ARGS) tests/solver

test-app: setup
	@$(ROOT)/tools/run_python.sh -m pytest -q $(PYTEST_ARGS) tests/app

# The whole suite again on FreeCAD 1.x, in a Debian 13 chroot built (or reused) by
# tools/test_fc1.sh (as root; SIMPHANT_FC1_ROOT, default /var/cache/simphant/debian13).
test-fc1:
	@PYTEST_ARGS="$(PYTEST_ARGS)" $(ROOT)/tools/test_fc1.sh

# The workbench in the real FreeCAD GUI under Xvfb (tests/gui). With
# SIMPHANT_SCREENSHOT_DIR=docs/images it also refreshes the documentation's screenshots.
test-gui: setup
	@$(ROOT)/tools/run_python.sh -m pytest -q $(PYTEST_ARGS) tests/gui

# The main job: a motion study on a bundled example, outputs in out/demo. DEMO=<name> runs
# examples/<name>.FCStd instead of the default slider-crank (e.g. DEMO=gripper, disc_cam, ramp).
DEMO ?=
demo: setup
	@$(ROOT)/bin/simphant run --interference --out $(ROOT)/out/demo $(if $(DEMO),$(ROOT)/examples/$(DEMO).FCStd)

examples: setup
	@$(ROOT)/tools/run_python.sh $(ROOT)/examples/make_examples.py

# The GUI's translatable strings into SimPhantWorkbench/resources/translations/SimPhant.ts
# (the template translators start from); installs Debian's pyside2-tools for it.
translations:
	@$(ROOT)/tools/setup_env.sh --translations > $(ENV_FILE)
	@$(ROOT)/tools/run_python.sh $(ROOT)/tools/translations.py

# Speed benchmark (bench/README.md); installs MuJoCo into bench/.deps only.
# make bench BENCH_ARGS=--quick for a ~1 minute run. make bench BENCH_BASE=<commit>: A/B
# mode, this checkout against that commit (a git worktree under bench/.ab with its own
# numba cache) and MuJoCo, paired per-step samples of the revolute chain (bench_ab.py).
BENCH_BASE ?=
bench: setup
	@$(ROOT)/bench/install_deps.sh
	@if [ -n "$(BENCH_BASE)" ]; then \
		$(ROOT)/tools/run_python.sh $(ROOT)/bench/bench_ab.py --base "$(BENCH_BASE)" --mujoco --forces $(BENCH_ARGS); \
	else \
		$(ROOT)/tools/run_python.sh $(ROOT)/bench/bench_chain.py $(BENCH_ARGS); \
	fi

# Parameter-study benchmark (bench/README.md): 120-variant sweep vs a serial loop, Dask overhead,
# a rerun from the cache.
bench-sweep: setup
	@$(ROOT)/tools/run_python.sh $(ROOT)/bench/bench_sweep.py $(BENCH_ARGS)

# After the solve (bench/README.md): Result building, store_result and the CLI's files on a
# 50-body CAD study; peak memory of a 256-link run next to MuJoCo (installed into bench/.deps).
bench-outputs: setup
	@$(ROOT)/bench/install_deps.sh
	@$(ROOT)/tools/run_python.sh $(ROOT)/bench/bench_outputs.py $(BENCH_ARGS)

# First solve after an Addon Manager install, cold (nothing compiled) and warm (a second
# FreeCAD session): the tier of make test-addon, timed; JSON in bench/results/.
bench-first-solve: setup
	@$(ROOT)/tools/run_python.sh $(ROOT)/bench/bench_first_solve.py $(BENCH_ARGS)

# Curated mutant suite (tools/mutants.py): every planted bug must make its tests fail.
# Not part of `make test` (about 7 minutes). make mutants MUTANTS_ARGS="--only ID,ID".
.PHONY: mutants
mutants: setup
	@$(ROOT)/tools/run_python.sh $(ROOT)/tools/mutants.py $(MUTANTS_ARGS)

clean:
	rm -rf $(ROOT)/out $(ENV_FILE)
	find $(ROOT) -name __pycache__ -type d -prune -exec rm -rf {} +
