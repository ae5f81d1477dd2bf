"""Storing a run's result in the study's Result object, and its size before the run."""
import json
import math
import os
import shutil
import tempfile

import FreeCAD

from ..document.base import study_result, transaction
from ..solver.result_file import MAX_RESULT_BYTES
from ..objects import add_object
from ..solver import ModelError

__all__ = ["store_result", "result_size", "check_result_size"]


def result_size(conv, settings):
    """(frames, bytes): an upper estimate of the memory a run of ``conv`` with the
    ``simulate`` keyword arguments ``settings`` needs for its result."""
    t0 = float(settings.get("t0", 0.0) or 0.0)
    span = float(settings["t_end"]) - t0
    dt = settings.get("dt")
    out = settings.get("output_dt") or max(dt or 0.0, span / 1000.0)
    if not (math.isfinite(span) and math.isfinite(out)) or span <= 0.0 or out <= 0.0:
        return 0, 0                 # the solver rejects these settings with its own message
    frames = math.floor(span / out) + 2
    nb = len(conv.moving)
    nj = len(conv.model.joints)
    rows = sum(len(j.spec.rows) for j in conv.model.joints)
    # the states twice (integration, result), the series of Result.from_run, the
    # multipliers twice, reactions and anchors twice
    per_frame = 8 * (2 * 13 * nb + 6 * 3 * nb + 9 * nb + 2 * rows + 2 * 12 * nj + 8)
    return frames, frames * per_frame


def check_result_size(study, conv, settings, overrides):
    """``ModelError`` naming the settings when the result would not fit (before anything
    is allocated), instead of a MemoryError half-way."""
    frames, nbytes = result_size(conv, settings)
    if nbytes <= MAX_RESULT_BYTES:
        return
    end = "t_end %g s" % settings["t_end"] if "t_end" in overrides \
        else "EndTime %g s" % study.EndTime
    interval = settings.get("output_dt")
    if "output_dt" in overrides:
        step = "output_dt %g s" % interval
    elif interval:
        step = "OutputInterval %g s" % interval
    else:
        step = "time step %g s" % settings.get("dt")
    raise ModelError("Study '%s': %s with %s gives %.3g result frames (about %.3g bytes), "
                     "more than the limit of %.3g bytes: raise the output interval or shorten "
                     "the end time" % (study.Label, end, step, frames, nbytes, MAX_RESULT_BYTES))


#: the Result properties a run writes besides ``ResultFile`` (restored together on failure)
_RESULT_PROPERTIES = ("BodyObjects", "ShapeObjects", "CoGLocal", "InitialPlacements",
                      "JointObjects", "NumberOfFrames", "EndTime", "Method", "Steps", "WallTime",
                      "AssemblySummary", "ModelStamp", "Outdated", "OutdatedReason")


def _result_values(conv, result, stamp):
    """Values of ``_RESULT_PROPERTIES`` for ``result``, computed before anything is written."""
    by_name = {conv.body_map[bd.obj.Name].name: bd for bd in conv.moving}
    moving = [by_name[n] for n in result.body_names]
    return dict(
        BodyObjects=[bd.obj.Name for bd in moving],
        ShapeObjects=[bd.shape.Name for bd in moving],
        CoGLocal=[FreeCAD.Vector(*bd.cog_local) for bd in moving],
        InitialPlacements=[FreeCAD.Placement(bd.shape.Placement) for bd in moving],
        JointObjects=[jd.obj.Name for jd in conv.joints],
        NumberOfFrames=len(result.t),
        EndTime=float(result.t[-1]) if len(result.t) else 0.0,
        Method=str(result.settings.get("method", "")),
        Steps=int(result.settings.get("steps", 0) or 0),
        WallTime=float(result.settings.get("wall_time", 0.0) or 0.0),
        AssemblySummary=result.assembly.summary() if result.assembly is not None
        else str(getattr(result, "assembly_summary", "")),
        ModelStamp=json.dumps(stamp, sort_keys=True) if stamp else "",
        Outdated=False, OutdatedReason="")


def store_result(study, conv, result, stamp=None):
    """Write ``result`` (and what playback needs) into the study's Result object.

    ``stamp``: what the run was computed from (``Run.stamp``), kept in ``ModelStamp``
    to tell later whether the model changed since (``freshness``); without it, that
    cannot be told (the result is never marked outdated).

    One undo transaction; creates the Result object if the study has none (the study is
    left untouched when it was: a stored result is no edit to recompute). All or nothing: the values are computed and the new archive written before
    the Result is touched; if setting any property fails, the previous archive
    and properties are put back (undo may be off), so the Result is never left
    with new arrays and old metadata.
    """
    doc = study.Document
    tmpdir = tempfile.mkdtemp(prefix="simphant_")
    created = None
    res_obj = study_result(study)
    previous = None
    try:
        values = _result_values(conv, result, stamp)
        if res_obj is not None:
            previous = {p: getattr(res_obj, p) for p in _RESULT_PROPERTIES}
            previous["ResultFile"] = None
            if res_obj.ResultFile and os.path.isfile(res_obj.ResultFile):
                previous["ResultFile"] = os.path.join(tmpdir, "previous.npz")
                shutil.copyfile(res_obj.ResultFile, previous["ResultFile"])
        with transaction(doc, "SimPhant: store result of '%s'" % study.Label):
            if res_obj is None:
                study_touched = "Touched" in study.State
                res_obj = created = add_object(doc, "SimPhant::Result", "Result", study=study)
                if not study_touched:
                    study.purgeTouched()
            path = os.path.join(tmpdir, "%s.npz" % res_obj.Name)
            result.save(path)
            res_obj.ResultFile = path
            for name in _RESULT_PROPERTIES:
                setattr(res_obj, name, values[name])
            res_obj.purgeTouched()
            res_obj.Proxy.remember(res_obj, result)
    except BaseException:
        if created is not None:
            try:
                doc.removeObject(created.Name)
            except Exception:  # noqa: BLE001 - already removed by the abort
                pass
        elif previous is not None:
            _restore_result(res_obj, previous)
        raise
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def _restore_result(res_obj, previous):
    """Put back what ``store_result`` found (after a failure half-way)."""
    try:
        res_obj.Proxy._cache = None
    except Exception:  # noqa: BLE001 - no proxy state
        pass
    if previous.get("ResultFile"):
        res_obj.ResultFile = previous["ResultFile"]
    for name in _RESULT_PROPERTIES:
        setattr(res_obj, name, previous[name])
    res_obj.purgeTouched()
