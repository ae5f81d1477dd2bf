#!/usr/bin/env bash
# Installs what SimPhant needs on a Debian machine, idempotently, then prints the
# environment the other make targets use (as shell assignments, see env.mk).
#
#  1. Debian packages: FreeCAD and the Python packages FreeCAD's own Python uses
#     (numpy, scipy, matplotlib, pytest, dask.distributed, pandas), pip (to install
#     numba) and xvfb for the GUI tests. The same list on Debian 12 (FreeCAD 0.20) and
#     Debian 13 (FreeCAD 1.x).
#  2. numba + llvmlite into FreeCAD's AdditionalPythonPackages directory (the
#     Addon Manager's place), with --no-deps so Debian's numpy stays in charge.
#  3. The workbench linked into FreeCAD's user Mod directory.
#  4. The solver's numba kernels compiled into numba's cache (python -m
#     SimPhantWorkbench.solver), so no solve waits for them.
#  5. python-fcl (optional: the interference checks) like numba, --no-deps.
#  6. With --translations (make translations) also pyside2-tools: pyside2-lupdate, the
#     extractor of translatable strings that reads Python.
#
# Nothing is done twice: each step checks first.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
log() { echo "[setup] $*" >&2; }

# python3-distributed (with python3-dask) runs parameter studies on Dask; python3-pandas gives
# their results as a DataFrame. Both are Debian's, built for the Python FreeCAD uses.
APT_PACKAGES="freecad python3-numpy python3-scipy python3-matplotlib python3-pil python3-pytest python3-pip xvfb xauth python3-distributed python3-dask python3-pandas"
[ "${1:-}" = "--translations" ] && APT_PACKAGES="$APT_PACKAGES pyside2-tools"
missing=""
for p in $APT_PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    log "installing Debian packages:$missing"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q >&2
    $SUDO apt-get install -y -q --no-install-recommends $missing >&2
fi

# Ask FreeCAD where its user data lives, which Python it runs and where its libs are.
info=$(freecadcmd "$here/tools/freecad_info.py" 2>/dev/null | grep '^SIMPHANT_' || true)
if [ -z "$info" ]; then
    log "could not query freecadcmd"; exit 1
fi
eval "$info"

mkdir -p "$SIMPHANT_PYPKG_DIR"
if ! PYTHONPATH="$SIMPHANT_PYPKG_DIR" /usr/bin/python3 -c "import numba" >/dev/null 2>&1; then
    log "installing numba into $SIMPHANT_PYPKG_DIR (python $SIMPHANT_PYVER)"
    PIP="/usr/bin/python3 -m pip"
    $PIP --version >/dev/null 2>&1 || PIP="python3 -m pip"
    $PIP install -q --disable-pip-version-check --no-deps --only-binary=:all: \
        --python-version "$SIMPHANT_PYVER" --target "$SIMPHANT_PYPKG_DIR" \
        -r "$here/requirements-freecad.txt" >&2
fi

# --- optional 3-D results viewer (PyVista on Debian's VTK; MP4 through ffmpeg) -------------
# Failure here only disables the viewer: the rest of SimPhant does not need it.
VIEWER_APT="python3-vtk9 python3-qtpy ffmpeg"
vmissing=""
for p in $VIEWER_APT; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || vmissing="$vmissing $p"
done
if [ -n "$vmissing" ]; then
    log "installing Debian packages for the results viewer:$vmissing"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $vmissing >&2 \
        || log "warning: could not install$vmissing (the results viewer stays disabled)"
fi
if ! PYTHONPATH="$SIMPHANT_PYPKG_DIR" /usr/bin/python3 -c "import pyvista, pyvistaqt" >/dev/null 2>&1; then
    log "installing PyVista (results viewer) into $SIMPHANT_PYPKG_DIR"
    PIP="/usr/bin/python3 -m pip"
    $PIP --version >/dev/null 2>&1 || PIP="python3 -m pip"
    $PIP install -q --disable-pip-version-check --no-deps --upgrade \
        --target "$SIMPHANT_PYPKG_DIR" -r "$here/requirements-viewer.txt" >&2 \
        || log "warning: could not install PyVista (the results viewer stays disabled)"
fi
# --- end of the results viewer block ------------------------------------------------------

# --- optional interference checks (python-fcl: FCL's mesh distance and collision queries) ---
# A self-contained wheel; --no-deps so that Debian's NumPy stays in charge. Failure here only
# disables the interference commands.
if ! PYTHONPATH="$SIMPHANT_PYPKG_DIR" /usr/bin/python3 -c "import fcl" >/dev/null 2>&1; then
    log "installing python-fcl (interference checks) into $SIMPHANT_PYPKG_DIR"
    PIP="/usr/bin/python3 -m pip"
    $PIP --version >/dev/null 2>&1 || PIP="python3 -m pip"
    $PIP install -q --disable-pip-version-check --no-deps --only-binary=:all: \
        --python-version "$SIMPHANT_PYVER" --target "$SIMPHANT_PYPKG_DIR" \
        -r "$here/requirements-collision.txt" >&2 \
        || log "warning: could not install python-fcl (the interference checks stay disabled)"
fi
# --- end of the interference block -------------------------------------------------------

mkdir -p "$SIMPHANT_MOD_DIR"
link="$SIMPHANT_MOD_DIR/SimPhant"
if [ "$(readlink -f "$link" 2>/dev/null)" != "$here" ]; then
    log "linking workbench: $link -> $here"
    rm -rf "$link"
    ln -s "$here" "$link"
fi

# The solver's numba kernels, compiled for every joint block size into numba's on-disk
# cache (about 2 minutes the first time, ~1 s to check afterwards), so that the first solve
# in FreeCAD or the CLI starts at once. SIMPHANT_SKIP_WARMUP=1 skips it.
if [ "${SIMPHANT_SKIP_WARMUP:-0}" != "1" ]; then
    PYTHONPATH="$here:$SIMPHANT_PYPKG_DIR" /usr/bin/python3 -m SimPhantWorkbench.solver >&2 \
        || log "warning: could not compile the solver kernels now (they compile on first use)"
fi

echo "SIMPHANT_PYPKG_DIR=$SIMPHANT_PYPKG_DIR"
echo "SIMPHANT_FC_LIB=$SIMPHANT_FC_LIB"
echo "SIMPHANT_MOD_DIR=$SIMPHANT_MOD_DIR"
echo "SIMPHANT_PYVER=$SIMPHANT_PYVER"
