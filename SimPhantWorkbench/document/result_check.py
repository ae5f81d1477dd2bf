"""Validation of a stored Result before anything uses it.

A Result object's archive (``ResultFile``, an ``.npz`` inside the ``.FCStd``)
and its mapping properties come from a file, so they are checked like any
other input before playback writes a placement from them:

* the archive: a zip of ``.npy`` members, nothing pickled; every member's
  header (dtype, shape) is read before its data, and the members' sizes are
  checked against the shapes they must have and against ``MAX_RESULT_BYTES``
  before anything is decompressed (a small "zip bomb" is refused without
  allocating memory);
* the arrays: float64 of the shapes the body and joint counts imply, finite,
  times increasing, rotation matrices orthonormal and right-handed, as many
  frames as ``NumberOfFrames``;
* the mapping: one entry per result body in ``BodyObjects``, ``ShapeObjects``,
  ``CoGLocal`` (finite) and ``InitialPlacements`` (finite, unit rotations);
  each ``BodyObjects`` entry a Body of the study whose shape object is the
  ``ShapeObjects`` entry.

Everything that fails is a ``ResultError`` (a ``ModelError``) naming the Result
and its study. ``moving_targets`` gives the shape objects playback may move:
moving bodies of the study only.
"""
import json
import math
import os
import zipfile

import numpy as np

from ..solver import ModelError

__all__ = ["ResultError", "MAX_RESULT_BYTES", "MAX_META_BYTES", "read_result_file",
           "check_mapping", "check_placements", "moving_targets", "result_label"]

#: largest result archive content (uncompressed) that is read [bytes]
MAX_RESULT_BYTES = 2 * 1024 ** 3
#: largest metadata member (JSON text) [bytes]
MAX_META_BYTES = 16 * 1024 ** 2
_ROT_TOL = 1e-6


class ResultError(ModelError):
    """A stored result is missing, damaged or does not match its study."""


def result_label(res_obj):
    from .base import find_study
    study = None
    for parent in getattr(res_obj, "InList", ()):
        study = find_study(parent)
        if study is not None:
            break
    text = "Result '%s'" % res_obj.Label
    return text + (" of study '%s'" % study.Label if study is not None else "")


# ============================================================================ the archive

def _expected_shapes(n, nb, nj, derived=False, nf=0, nd=0):
    """Shape of every array of a result with n samples, nb moving bodies, nj joints
    (``None``: any length on that axis): ``R_pu``, or with ``derived`` (format 1) the
    per-body series; the force-element series of its ``nf`` elements and the driver
    series of its ``nd`` driver rows when it has any."""
    out = dict(t=(n,), states=(n, 13 * nb), masses=(nb,), gravity=(3,),
               multipliers=(n, None), phi_max=(n,), phidot_max=(n,), react=(n, nj, 6),
               anchors=(n, nj, 2, 3), acc=(n, nb, 3), alpha_w=(n, nb, 3),
               kinetic=(n,), potential=(n,))
    if derived:
        out.update(pos=(n, nb, 3), A=(n, nb, 3, 3), vel=(n, nb, 3), omega_w=(n, nb, 3),
                   omega_b=(n, nb, 3))
    else:
        out.update(R_pu=(nb, 3, 3))
    if nf:
        out.update(frc=(n, nf, 3), frc_pot=(n, nf), frc_diss=(n, nf), frc_work=(n, nf))
    if nd:
        out.update(driver_effort=(n, nd), driver_power=(n, nd), driver_value=(n, nd),
                   driver_rate=(n, nd))
    return out


def _driver_columns(meta):
    """Columns of the driver series: one per driver row (``driver_rows``, 1 each when
    absent)."""
    names = meta.get("driver_names", [])
    rows = meta.get("driver_rows", [1] * len(names))
    if len(rows) != len(names):
        raise KeyError("driver_rows")
    return sum(int(r) for r in rows)


def _headers(z, what):
    """``{key: (ZipInfo, dtype, shape, header_length)}`` of the ``.npy`` members."""
    out = {}
    for info in z.infolist():
        name = info.filename
        if not name.endswith(".npy"):
            raise ResultError("%s: unexpected member %r in its result file" % (what, name))
        key = name[:-4]
        with z.open(info) as fh:
            try:
                version = np.lib.format.read_magic(fh)
                if version == (1, 0):
                    shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
                elif version == (2, 0):
                    shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
                else:
                    raise ValueError("npy format %s" % (version,))
                header = fh.tell()
            except ValueError as exc:
                raise ResultError("%s: member %r of its result file is not an array (%s)"
                                  % (what, name, exc)) from None
        if dtype.hasobject:
            raise ResultError("%s: member %r holds Python objects; refused" % (what, name))
        out[key] = (info, dtype, tuple(shape), header)
    return out


def read_result_file(path, what="Result", max_bytes=None):
    """The solver ``Result`` in the ``.npz`` at ``path``, validated (sizes before
    decompression, then the arrays); ``ResultError`` naming ``what`` otherwise."""
    from ..solver import Result as SolverResult
    max_bytes = MAX_RESULT_BYTES if max_bytes is None else max_bytes
    if not path or not os.path.isfile(path):
        raise ResultError("%s: its result file is missing (run the study again)" % what)
    try:
        with zipfile.ZipFile(path) as z:
            heads = _headers(z, what)
            if "meta" not in heads:
                raise ResultError("%s: its result file has no metadata" % what)
            info, dtype, shape, header = heads["meta"]
            if dtype.kind != "U" or shape != () or info.file_size > MAX_META_BYTES:
                raise ResultError("%s: its result metadata is damaged" % what)
            try:
                with z.open(info) as fh:
                    meta = json.loads(str(np.lib.format.read_array(fh, allow_pickle=False)))
                body_names = [str(b) for b in meta["body_names"]]
                joint_names = [str(j) for j in meta["joint_names"]]
                nf, nd = len(meta.get("force_names", [])), _driver_columns(meta)
            except (ValueError, KeyError, TypeError) as exc:
                raise ResultError("%s: its result metadata is damaged (%s)" % (what, exc)) \
                    from None
            if len(set(body_names)) != len(body_names):
                raise ResultError("%s: its result names a body twice" % what)
            t_head = heads.get("t")
            if t_head is None or len(t_head[2]) != 1:
                raise ResultError("%s: its result file has no time series" % what)
            n = t_head[2][0]
            expected = _expected_shapes(n, len(body_names), len(joint_names),
                                        derived="R_pu" not in heads,
                                        nf=nf, nd=nd)
            missing = sorted(set(expected) - set(heads))
            if missing:
                raise ResultError("%s: its result file lacks %s" % (what, ", ".join(missing)))
            total = 0
            for key, shape_exp in expected.items():
                info, dtype, shape, header = heads[key]
                if dtype != np.dtype(float) or len(shape) != len(shape_exp) or any(
                        e is not None and s != e for s, e in zip(shape, shape_exp)):
                    raise ResultError(
                        "%s: array %r of its result file is %s %s, expected float64 %s"
                        % (what, key, dtype, shape, tuple("*" if e is None else e
                                                          for e in shape_exp)))
                nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
                if info.file_size != header + nbytes:
                    raise ResultError("%s: array %r of its result file is damaged (size %d, "
                                      "expected %d)" % (what, key, info.file_size,
                                                        header + nbytes))
                total += nbytes
            if total > max_bytes:
                raise ResultError("%s: its result file holds %.3g bytes, more than the limit "
                                  "%.3g" % (what, total, max_bytes))
            arrays = {}
            for key in expected:
                with z.open(heads[key][0]) as fh:
                    arrays[key] = np.lib.format.read_array(fh, allow_pickle=False)
    except ResultError:
        raise
    except (OSError, zipfile.BadZipFile, EOFError, ValueError, RuntimeError) as exc:
        raise ResultError("%s: its result file cannot be read (%s)" % (what, exc)) from None
    _check_arrays(arrays, what)
    arrays["meta"] = np.array(json.dumps(meta))
    try:
        return SolverResult.from_arrays(arrays)
    except (KeyError, TypeError, ValueError) as exc:
        raise ResultError("%s: its result file cannot be read (%s)" % (what, exc)) from None


def _check_arrays(arrays, what):
    for key, a in arrays.items():
        if not np.all(np.isfinite(a)):
            raise ResultError("%s: array %r of its result file holds NaN or Inf" % (what, key))
    t = arrays["t"]
    if len(t) > 1 and not np.all(np.diff(t) > 0.0):
        raise ResultError("%s: the times of its result are not increasing" % what)
    if "A" in arrays:
        _check_rigid(arrays["A"], what)
    else:
        # format 2: rotations from the states' quaternions and R_pu, rigid when both are
        _check_rigid(arrays["R_pu"], what)
        nb = len(arrays["R_pu"])
        q = arrays["states"][:, :7 * nb].reshape(len(t), nb, 7)[:, :, 3:]
        if q.size:
            err = np.abs(np.sqrt(np.einsum("nbi,nbi->nb", q, q)) - 1.0).max()
            if err > _ROT_TOL:
                raise ResultError("%s: its result holds rotations that are not rigid "
                                  "(quaternion norm error %.3g)" % (what, err))


def _check_rigid(A, what):
    if A.size:
        AtA = np.einsum("...ki,...kj->...ij", A, A)
        err = np.abs(AtA - np.eye(3)).max()
        if err > _ROT_TOL or np.linalg.det(A).min() <= 0.0:
            raise ResultError("%s: its result holds rotations that are not rigid (orthonormality "
                              "error %.3g)" % (what, err))


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
