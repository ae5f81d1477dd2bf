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
#  3. The workbench linked into FreeCAD's user Mod directory (after the optional extras: the
#     results viewer, the parameter studies' optimiser and dashboard, and calculix-ccx and
#     gmsh for Loads to FEM).
#  4. The solver's numba kernels compiled into numba's cache (python -m
#     SimPhantWorkbench.solver), so no solve waits for them; likewise the interference
#     checks' GJK kernels (python -m SimPhantWorkbench.collision.gjk, .probe and .pieces).
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

# apt_optional WHAT PACKAGE...: the missing Debian packages (refreshing the package lists once
# if they are not found); a failure only disables WHAT
apt_optional() {
    local what=$1 missing="" p SUDO=""
    shift
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    [ -n "$missing" ] || return 0
    log "installing Debian packages for $what:$missing"
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get install -y -q --no-install-recommends $missing >&2 \
        || { $SUDO apt-get update -q >&2 && $SUDO apt-get install -y -q --no-install-recommends $missing >&2; } \
        || log "warning: could not install$missing ($what stays disabled)"
}

# pip_optional WHAT MODULES PIP-ARGUMENTS...: pip install --no-deps into FreeCAD's
# AdditionalPythonPackages when MODULES ("a, b") do not import; a failure only disables WHAT
pip_optional() {
    local what=$1 modules=$2 PIP="/usr/bin/python3 -m pip"
    shift 2
    PYTHONPATH="$SIMPHANT_PYPKG_DIR" /usr/bin/python3 -c "import $modules" >/dev/null 2>&1 && return 0
    log "installing $what into $SIMPHANT_PYPKG_DIR"
    $PIP --version >/dev/null 2>&1 || PIP="python3 -m pip"
    $PIP install -q --disable-pip-version-check --no-deps --target "$SIMPHANT_PYPKG_DIR" "$@" >&2 \
        || log "warning: could not install $what (it stays disabled)"
}

# --- stress analysis (Loads to FEM): CalculiX and the Gmsh mesher that FreeCAD FEM drives ----
# Debian 13 has no calculix-ccx (nor the SPOOLES library it links): there it comes from
# Debian 12's archive, the same mirror as the system's, with its dependencies from Debian 13
# (arpack, LAPACK, gfortran, Open MPI), fetched with a private package list that leaves the
# system's sources alone. Debian 12's SPOOLES names Open MPI 4's package (libopenmpi3), which
# Debian 13 replaced by libopenmpi40 with the same library (libmpi.so.40): its dependency is
# rewritten to that before apt installs it (ccx uses SPOOLES' serial solver, not MPI).
install_calculix_from_debian12() {
    local SUDO="" tmp mirror
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    mirror=$(apt-get indextargets --format '$(REPO_URI)' 2>/dev/null | grep -v -- -security | head -n 1)
    [ -n "$mirror" ] || return 1
    tmp=$(mktemp -d)
    mkdir -p "$tmp/lists/partial" "$tmp/archives/partial"
    echo "deb $mirror bookworm main" > "$tmp/sources.list"
    local opts=(-o "Dir::Etc::SourceList=$tmp/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
                -o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache::Archives=$tmp/archives"
                -o "APT::Sandbox::User=root")
    log "calculix-ccx is not in this Debian release: installing Debian 12's build"
    if $SUDO apt-get "${opts[@]}" update -q >&2 \
        && (cd "$tmp" && $SUDO apt-get "${opts[@]}" download calculix-ccx libspooles2.2 >&2) \
        && $SUDO dpkg-deb -R "$tmp"/libspooles2.2_*.deb "$tmp/spooles" \
        && $SUDO sed -i 's/^Depends: .*/Depends: libc6 (>= 2.14), libopenmpi40 | libopenmpi3/' \
            "$tmp/spooles/DEBIAN/control" \
        && $SUDO dpkg-deb -b "$tmp/spooles" "$tmp/spooles-libmpi40.deb" >&2 \
        && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends \
            "$tmp"/calculix-ccx_*.deb "$tmp/spooles-libmpi40.deb" >&2 \
        && { ccx -v 2>/dev/null || true; } | grep -q "Version"; then
        $SUDO rm -rf "$tmp"
        return 0
    fi
    $SUDO rm -rf "$tmp"
    return 1
}
apt_optional "Loads to FEM" gmsh
if ! dpkg-query -W -f='${Status}' calculix-ccx 2>/dev/null | grep -q "install ok installed"; then
    if [ -n "$(apt-cache madison calculix-ccx 2>/dev/null)" ]; then   # in this release's archive
        apt_optional "Loads to FEM" calculix-ccx
    else
        install_calculix_from_debian12 \
            || log "warning: could not install calculix-ccx (Loads to FEM stays disabled and says so)"
    fi
fi

# --- optional 3-D results viewer (PyVista on Debian's VTK; MP4 through ffmpeg) -------------
apt_optional "the results viewer" python3-vtk9 python3-qtpy ffmpeg
pip_optional "PyVista (the results viewer)" "pyvista, pyvistaqt" --upgrade \
    -r "$here/requirements-viewer.txt"

# --- optional parameter-study extras: the optimiser and the Dask dashboard ------------------
# Optuna from Debian (Debian 12: 3.1, Debian 13: 4.1; both have TPE with constraints, CMA-ES
# through python3-cmaes (installed here) and NSGA-II, and Debian builds them and their dependencies, SQLAlchemy
# and alembic, for the Python FreeCAD uses); python3-cryptography gives the local cluster its
# TLS. Bokeh, which the dashboard needs, is not in Debian: it goes into FreeCAD's
# AdditionalPythonPackages with --no-deps (its dependencies from Debian, so numpy stays
# Debian's), in the version the installed distributed accepts (2022.x: bokeh < 3; later: 3.x).
EXTRA_APT="python3-optuna python3-cmaes python3-cryptography python3-jinja2 python3-yaml python3-typing-extensions"
if dpkg --compare-versions "$(dpkg-query -W -f='${Version}' python3-distributed 2>/dev/null || echo 0)" ge 2023; then
    EXTRA_APT="$EXTRA_APT python3-contourpy python3-xyzservices"
    BOKEH="bokeh>=3.1,<3.7"
else
    BOKEH="bokeh>=2.4.2,<3"
fi
apt_optional "the optimiser and the dashboard" $EXTRA_APT
pip_optional "$BOKEH (the Dask dashboard)" bokeh --only-binary=:all: "$BOKEH"

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
    # the interference checks' GJK kernels (collision/gjk.py, about 20 s the first time)
    PYTHONPATH="$here:$SIMPHANT_PYPKG_DIR" /usr/bin/python3 -m SimPhantWorkbench.collision.gjk >&2 \
        || log "warning: could not compile the collision kernels now (they compile on first use)"
    # and the search's compiled probe (collision/probe.py: poses and GJK in one call)
    PYTHONPATH="$here:$SIMPHANT_PYPKG_DIR" /usr/bin/python3 -m SimPhantWorkbench.collision.probe >&2 \
        || log "warning: could not compile the collision probe now (it compiles on first use)"
    # and the convex pieces' distance (collision/pieces.py)
    PYTHONPATH="$here:$SIMPHANT_PYPKG_DIR" /usr/bin/python3 -m SimPhantWorkbench.collision.pieces >&2 \
        || log "warning: could not compile the convex pieces now (they compile on first use)"
fi

echo "SIMPHANT_PYPKG_DIR=$SIMPHANT_PYPKG_DIR"
echo "SIMPHANT_FC_LIB=$SIMPHANT_FC_LIB"
echo "SIMPHANT_MOD_DIR=$SIMPHANT_MOD_DIR"
echo "SIMPHANT_PYVER=$SIMPHANT_PYVER"
