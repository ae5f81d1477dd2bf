#!/usr/bin/env bash
# Runs Debian's Python 3 (the one FreeCAD embeds) with FreeCAD's modules, the
# Addon-Manager packages (numba) and this repository on sys.path. `import FreeCAD`
# then also runs FreeCAD's module start-up as freecadcmd does (tools/startup/
# sitecustomize.py -> SimPhantWorkbench.document.headless.start), so documents with objects
# of any installed workbench or add-on (Assembly, PartDesign, ...) load whole.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
env_file="$root/.simphant-env"
if [ ! -f "$env_file" ]; then
    "$root/tools/setup_env.sh" > "$env_file"
fi
# shellcheck disable=SC1090
source "$env_file"
export PYTHONPATH="$root/tools/startup:$root:$SIMPHANT_FC_LIB:$SIMPHANT_PYPKG_DIR${PYTHONPATH:+:$PYTHONPATH}"
export MPLBACKEND="${MPLBACKEND:-Agg}"
exec /usr/bin/python3 "$@"
