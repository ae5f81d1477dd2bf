"""Validation of a stored Result before anything uses it.

A Result object's archive (``ResultFile``, an ``.npz`` inside the ``.FCStd``)
and its mapping properties come from a file, so they are checked like any
other input before playback writes a placement from them:

* the archive: ``solver.result_file.read_result_file`` (sizes from the
  members' headers before anything is decompressed, nothing pickled, float64
  arrays of the right shapes, finite, times increasing, rigid rotations), as
  many frames as ``NumberOfFrames``;
* the mapping: one entry per result body in ``BodyObjects``, ``ShapeObjects``,
  ``CoGLocal`` (finite) and ``InitialPlacements`` (finite, unit rotations);
  each ``BodyObjects`` entry a Body of the study whose shape object is the
  ``ShapeObjects`` entry.

Everything that fails is a ``ResultError`` (a ``ModelError``) naming the Result
and its study. ``moving_targets`` gives the shape objects playback may move:
moving bodies of the study only.
"""
import math

from ..solver.result_file import MAX_META_BYTES, MAX_RESULT_BYTES, ResultError, read_result_file

__all__ = ["ResultError", "MAX_RESULT_BYTES", "MAX_META_BYTES", "read_result_file",
           "check_mapping", "check_placements", "moving_targets", "result_label"]


def result_label(res_obj):
    from .base import find_study
    study = None
    for parent in getattr(res_obj, "InList", ()):
        study = find_study(parent)
        if study is not None:
            break
    text = "Result '%s'" % res_obj.Label
    return text + (" of study '%s'" % study.Label if study is not None else "")


# ============================================================================ the mapping

def _placement_ok(pl):
    vals = list(pl.Base) + list(pl.Rotation.Q)
    if not all(math.isfinite(v) for v in vals):
        return False
    return abs(math.sqrt(sum(q * q for q in pl.Rotation.Q)) - 1.0) <= 1e-9


def check_placements(res_obj):
    """``InitialPlacements`` and ``ShapeObjects``: as many, finite, unit rotations."""
    what = result_label(res_obj)
    shapes = list(res_obj.ShapeObjects)
    pls = list(res_obj.InitialPlacements)
    if len(pls) != len(shapes):
        raise ResultError("%s: %d initial placements for %d moved objects"
                          % (what, len(pls), len(shapes)))
    for name, pl in zip(shapes, pls):
        if not _placement_ok(pl):
            raise ResultError("%s: the initial placement of '%s' is not a finite rigid "
                              "placement" % (what, name))
    return shapes, pls


def check_mapping(res_obj, result):
    """The mapping properties against ``result`` (the loaded archive)."""
    what = result_label(res_obj)
    nb = len(result.body_names)
    for prop in ("BodyObjects", "ShapeObjects", "CoGLocal", "InitialPlacements"):
        if len(getattr(res_obj, prop)) != nb:
            raise ResultError("%s: %s has %d entries for %d bodies of the result"
                              % (what, prop, len(getattr(res_obj, prop)), nb))
    if int(res_obj.NumberOfFrames) != len(result.t):
        raise ResultError("%s: NumberOfFrames is %d but the result file has %d frames"
                          % (what, res_obj.NumberOfFrames, len(result.t)))
    for c in res_obj.CoGLocal:
        if not all(math.isfinite(v) for v in c):
            raise ResultError("%s: CoGLocal holds NaN or Inf" % what)
    check_placements(res_obj)


def moving_targets(study, res_obj):
    """``[(k, shape object)]``: the entries of the mapping playback may move -- those whose
    ``BodyObjects`` entry is a moving Body of ``study`` with that very shape object.

    Entries of bodies deleted or made fixed since the run are left out;
    an entry whose shape object is not its body's (an edited mapping) is a
    ``ResultError``: playback never moves an object that is not a moving body.
    """
    from .base import study_bodies
    what = result_label(res_obj)
    doc = study.Document
    bodies = {b.Name: b for b in study_bodies(study)}
    out = []
    for k, (body_name, shape_name) in enumerate(zip(res_obj.BodyObjects, res_obj.ShapeObjects)):
        body = bodies.get(body_name)
        obj = doc.getObject(shape_name)
        if body is None or obj is None or body.Fixed:
            continue
        if body.ShapeObject is None or body.ShapeObject.Name != shape_name:
            raise ResultError("%s: its mapping moves '%s' for body '%s', whose shape object is "
                              "'%s'; refused (run the study again)"
                              % (what, obj.Label, body.Label,
                                 getattr(body.ShapeObject, "Label", None)))
        out.append((k, obj))
    return out
