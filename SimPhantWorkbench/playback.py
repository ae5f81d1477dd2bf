"""Playback: write the bodies' placements of one result frame; reset to the start.

Playback only writes ``Placement`` properties (no recompute, no solving). The
solver reports each body's CoG ``r(t)`` [m] and the rotation ``A(t)`` of its own
frame (= the shape object's global frame); the object's origin is not its CoG,
so its global placement is

    rotation A(t),   base = r(t) - A(t) c_local

with ``c_local`` the CoG in the object's frame recorded at run time. An object
inside an ``App::Part`` gets that placement expressed in its parent's frame
(``P_parent^-1 * global``); ``App::Link`` objects are placed the same way.
"""
import numpy as np

import FreeCAD

from .conversion import M_PER_MM, container_placement, matrix_to_rotation
from .objects.base import is_type, transaction
from .objects.study import study_result
from .result_check import ResultError, check_placements, moving_targets, result_label
from .solver import ModelError

__all__ = ["frame_index", "frame_placements", "apply_frame", "reset"]


def _result_parts(study):
    if not is_type(study, "SimPhant::Study"):
        raise ModelError("'%s' is not a SimPhant study" % getattr(study, "Label", study))
    res_obj = study_result(study)
    result = None if res_obj is None else res_obj.Proxy.load(res_obj)
    if result is None:
        raise ModelError("Study '%s' has no result yet: run it first" % study.Label)
    return res_obj, result


def frame_index(result, index_or_time):
    """Index of a frame: an ``int`` is an index (negative counts from the end); a
    ``float`` is a time [s], mapped to the nearest stored frame."""
    n = len(result.t)
    if isinstance(index_or_time, (int, np.integer)) and not isinstance(index_or_time, bool):
        i = int(index_or_time)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise ModelError("frame %d does not exist (the result has %d frames)"
                             % (int(index_or_time), n))
        return i
    t = float(index_or_time)
    if not (result.t[0] - 1e-12 <= t <= result.t[-1] + 1e-12):
        raise ModelError("time %g s is outside the result (%g s to %g s)"
                         % (t, result.t[0], result.t[-1]))
    return int(np.argmin(np.abs(result.t - t)))


def _placements(study, res_obj, result, i):
    out = {}
    what = result_label(res_obj)
    for k, obj in moving_targets(study, res_obj):
        r, A = result.pose(result.body_names[k], i)
        c = np.array(res_obj.CoGLocal[k], dtype=float)
        base = r / M_PER_MM - A @ c
        glob = FreeCAD.Placement(FreeCAD.Vector(*base), matrix_to_rotation(A))
        pl = container_placement(obj).inverse().multiply(glob)
        if not _rigid(pl):
            raise ResultError("%s: frame %d gives '%s' a placement that is not finite and rigid; "
                              "nothing was moved" % (what, i, obj.Label))
        out[obj] = pl
    return out


def _rigid(pl):
    q = tuple(pl.Rotation.Q)
    vals = tuple(pl.Base) + q
    return all(np.isfinite(vals)) and abs(float(np.dot(q, q)) - 1.0) <= 1e-9


def frame_placements(study, index_or_time):
    """``{shape object: Placement}`` (in the object's parent frame) of one frame."""
    res_obj, result = _result_parts(study)
    return _placements(study, res_obj, result, frame_index(result, index_or_time))


def apply_frame(study, index_or_time):
    """Move every moving body's shape object to its pose at a result frame.

    ``index_or_time``: frame index (int) or time [s] (float, nearest frame).
    One undo transaction; returns the frame index used.
    """
    res_obj, result = _result_parts(study)
    i = frame_index(result, index_or_time)
    placements = _placements(study, res_obj, result, i)
    with transaction(study.Document, "SimPhant: show frame %d" % i):
        for obj, pl in placements.items():
            obj.Placement = pl
    return i


def reset(study):
    """Restore the placements the bodies had when the run started, bit-exactly.

    Needs only the Result's ``InitialPlacements`` (not its result file, which
    may be missing or damaged); moves only moving bodies of the study.
    """
    if not is_type(study, "SimPhant::Study"):
        raise ModelError("'%s' is not a SimPhant study" % getattr(study, "Label", study))
    res_obj = study_result(study)
    if res_obj is None:
        raise ModelError("Study '%s' has no result yet: run it first" % study.Label)
    if len(res_obj.BodyObjects) != len(res_obj.ShapeObjects):
        raise ResultError("%s: BodyObjects and ShapeObjects differ in length"
                          % result_label(res_obj))
    _, initial = check_placements(res_obj)
    targets = moving_targets(study, res_obj)
    doc = study.Document
    with transaction(doc, "SimPhant: reset placements"):
        for k, obj in targets:
            pl = initial[k]
            cur = obj.Placement
            if tuple(cur.Base) != tuple(pl.Base) or tuple(cur.Rotation.Q) != tuple(pl.Rotation.Q):
                obj.Placement = pl
