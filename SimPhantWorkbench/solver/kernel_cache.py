"""Kernels compiled next to the sources, reused where numba caches elsewhere.

numba caches a kernel next to its source (``solver/__pycache__``) when that folder
is writable, else in the user's cache folder (``~/.cache/numba/...``;
``NUMBA_CACHE_DIR`` overrides both), and then never looks next to the source again.
An administrator who installed SimPhant read-only (a system-wide ``Mod`` folder) can
pre-fill ``solver/__pycache__`` once (``python3 -m SimPhantWorkbench.solver``
as the owner of the folder); ``prefill`` copies those compiled kernels into the folder
numba uses for this user, when they were made from today's sources (the
``kernels.CACHE_STAMP`` next to them matches) and numba has none there yet, so that
the user's first solve loads them instead of compiling for minutes.
"""
import os
import shutil
import sys

from . import kernels

__all__ = ["prefill", "source_cache_dir", "INLINED_MARKER"]

#: marker file next to the cache, one per block size and Python version (numba keeps each
#: Python's kernels apart, ``kernels.integrate_fixed_inlined-972.py311.nbi``: two FreeCAD
#: versions sharing one ``Mod`` folder each have their own), written when the inlined
#: fixed-step loop (``kernels.integrate_fixed_inlined``) was compiled into it; its text
#: is the sources digest and numba version it was compiled with (``warmup``)
INLINED_MARKER = "simphant-inlined-%d" + ".py%d%d.ready" % sys.version_info[:2]


def source_cache_dir():
    """``solver/__pycache__``: where numba caches when the install is writable."""
    return os.path.join(os.path.dirname(os.path.abspath(kernels.__file__)), "__pycache__")


def _stamp(directory):
    try:
        with open(os.path.join(directory, kernels.CACHE_STAMP)) as fh:
            return fh.read().strip()
    except OSError:
        return None


def prefill(source=None, targets=None):
    """Copy the compiled kernels of ``source`` (default ``source_cache_dir()``) into each
    of ``targets`` (default: the folders numba uses, ``kernels.cache_dirs()``) that is
    another folder and holds no kernels yet; returns the names copied."""
    source = source or source_cache_dir()
    digest = kernels.sources_digest()
    if _stamp(source) != digest:
        return []
    prefixes = tuple(name[:-len("py")] for name in kernels.CACHE_SOURCES)
    try:
        marker = INLINED_MARKER.split("%")[0]
        names = sorted(n for n in os.listdir(source)
                       if n.startswith(prefixes) and n.endswith((".nbi", ".nbc"))
                       or n.startswith(marker))
    except OSError:
        return []
    copied = []
    for target in kernels.cache_dirs() if targets is None else targets:
        if os.path.realpath(target) == os.path.realpath(source):
            continue
        try:
            present = [n for n in os.listdir(target) if n.endswith(".nbi")
                       and n.startswith(prefixes)]
        except OSError:
            continue
        if present:
            continue
        try:
            for name in names:
                shutil.copy2(os.path.join(source, name), os.path.join(target, name))
                copied.append(name)
            with open(os.path.join(target, kernels.CACHE_STAMP), "w") as fh:
                fh.write(digest + "\n")
        except OSError:
            pass
    return copied
