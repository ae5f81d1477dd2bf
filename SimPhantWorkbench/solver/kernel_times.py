"""How long compiling the kernels took on this computer: the ETA of the next compile.

After each compile ``warmup`` records the seconds it took and the kernel
specialisations it made, per part (block size, fixed-step or adaptive), in a small
JSON file next to numba's cache (``FILE``), keyed by numba's version (another numba
compiles at another speed). ``estimate`` gives the expected seconds and kernel count of
a part: its own measurement, else that of another block size in the same mode (the
kernels are the same, unrolled to another size), else None -- the very first compile
on a computer has no measurement, and then no ETA is shown rather than a guess.
"""
import json
import os

__all__ = ["FILE", "record", "estimate", "load", "preparation_text"]

FILE = "simphant-compile-times.json"


def _key(block_size, adaptive):
    """``adaptive``: True, False (fixed-step) or the name of another part ("inlined")."""
    if not isinstance(adaptive, str):
        adaptive = "adaptive" if adaptive else "fixed"
    return "%d-%s" % (block_size, adaptive)


def _numba_version():
    try:
        import numba
        return numba.__version__
    except ImportError:
        return ""


def load(directory):
    """The recorded parts ``{key: {"seconds": s, "kernels": n}}`` for this numba."""
    if not directory:
        return {}
    try:
        with open(os.path.join(directory, FILE)) as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("numba") != _numba_version():
        return {}
    parts = data.get("parts")
    return parts if isinstance(parts, dict) else {}


def record(directory, block_size, adaptive, seconds, kernels):
    """Keep the measurement of a compile (a directory that cannot be written is fine:
    then the next compile has no ETA)."""
    if not directory or kernels <= 0:
        return
    parts = load(directory)
    parts[_key(block_size, adaptive)] = dict(seconds=round(float(seconds), 2),
                                             kernels=int(kernels))
    tmp = os.path.join(directory, FILE + ".%d.tmp" % os.getpid())
    try:
        with open(tmp, "w") as fh:
            json.dump(dict(numba=_numba_version(), parts=parts), fh, indent=1, sort_keys=True)
        os.replace(tmp, os.path.join(directory, FILE))
    except OSError:
        try:
            os.remove(tmp)
        except OSError:
            pass


def estimate(directory, block_size, adaptive):
    """``(seconds, kernels)`` a compile of this part is expected to take here, or None."""
    parts = load(directory)
    own = parts.get(_key(block_size, adaptive))
    if own:
        return own["seconds"], own["kernels"]
    mode = _key(0, adaptive).split("-", 1)[1]
    same_mode = [v for k, v in sorted(parts.items()) if k.endswith("-" + mode)]
    if same_mode:
        return same_mode[0]["seconds"], same_mode[0]["kernels"]
    return None


def preparation_text(settings, compiled="%.1f s compiling the solver kernels (first use on "
                     "this computer)", loaded="%.2f s loading the solver kernels"):
    """How a run's kernels were made ready, from its settings (``compile_time``,
    ``kernels_compiled``): "12.3 s compiling the solver kernels (first use on this
    computer)", "0.41 s loading the solver kernels", or "" when it took no time.
    ``compiled`` and ``loaded`` are the patterns (the GUI passes them translated)."""
    sec = settings.get("compile_time") or 0.0
    if sec < 0.05:
        return ""
    return (compiled if settings.get("kernels_compiled") else loaded) % sec
