#!/usr/bin/env bash
# Installs the benchmark-only dependencies into bench/.deps, idempotently:
#   mujoco (pinned; its cp311 wheel imports fine with Debian's numpy 1.24)
#   typing_extensions (imported by mujoco/__init__.py; Debian's python3 lacks it)
# Installed with --no-deps into a --target directory that the benchmark appends
# to the END of sys.path, so nothing here can shadow Debian's numpy/scipy that
# FreeCAD's Python (and the solver) use. mujoco is imported with
# MUJOCO_GL=disable, so its optional OpenGL deps (glfw, pyopengl) are not needed.
# A failure here is not fatal: the benchmark then reports MuJoCo as unavailable.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
deps="$here/.deps"
MUJOCO_VERSION="${SIMPHANT_BENCH_MUJOCO:-3.3.7}"
PY=/usr/bin/python3

check() {
    MUJOCO_GL=disable PYTHONPATH="$deps" "$PY" -c \
        "import sys, mujoco; sys.exit(0 if mujoco.__version__ == '$MUJOCO_VERSION' else 1)" >/dev/null 2>&1
}

if check; then
    exit 0
fi
echo "[bench] installing mujoco==$MUJOCO_VERSION into $deps" >&2
mkdir -p "$deps"
if ! "$PY" -m pip install -q --disable-pip-version-check --no-deps --only-binary=:all: \
        --upgrade --target "$deps" "mujoco==$MUJOCO_VERSION" typing_extensions >&2; then
    echo "[bench] WARNING: could not install mujoco; the MuJoCo columns will be empty" >&2
    exit 0
fi
if ! check; then
    echo "[bench] WARNING: mujoco installed but does not import; the MuJoCo columns will be empty" >&2
fi
# Debian's numpy must still be the one this Python sees.
"$PY" -c "import numpy; print('[bench] numpy', numpy.__version__, numpy.__file__)" >&2
exit 0
