"""A result archive (``Result.save``'s ``.npz``) read back as untrusted input.

The archive comes from a file (a Result stored in a document, ``result.npz`` of
an output directory), so it is checked before anything uses it:

* a zip of ``.npy`` members, nothing pickled; every member's header (dtype,
  shape) is read before its data, and the members' sizes are checked against
  the shapes they must have and against ``MAX_RESULT_BYTES`` before anything is
  decompressed (a small "zip bomb" is refused without allocating memory);
* the arrays: float64 of the shapes the body and joint counts imply, finite,
  times increasing, rotation matrices orthonormal and right-handed.

Everything that fails is a ``ResultError`` (a ``ModelError``) naming ``what``
(the Result object, or the file).
"""
import json
import os
import zipfile

import numpy as np

from .contact import NCOUT
from .errors import ModelError

__all__ = ["ResultError", "MAX_RESULT_BYTES", "MAX_META_BYTES", "npy_headers",
           "read_result_file"]

#: largest result archive content (uncompressed) that is read [bytes]
MAX_RESULT_BYTES = 2 * 1024 ** 3
#: largest metadata member (JSON text) [bytes]
MAX_META_BYTES = 16 * 1024 ** 2
_ROT_TOL = 1e-6


class ResultError(ModelError):
    """A stored result is missing, damaged or does not match its study."""


def _expected_shapes(n, nb, nj, derived=False):
    """Shape of every array of a result with n samples, nb moving bodies, nj joints
    (``None``: any length on that axis): ``R_pu``, or with ``derived`` (format 1) the
    per-body series."""
    out = dict(t=(n,), states=(n, 13 * nb), masses=(nb,), gravity=(3,),
               multipliers=(n, None), phi_max=(n,), phidot_max=(n,), react=(n, nj, 6),
               anchors=(n, nj, 2, 3), acc=(n, nb, 3), alpha_w=(n, nb, 3),
               kinetic=(n,), potential=(n,))
    if derived:
        out.update(pos=(n, nb, 3), A=(n, nb, 3, 3), vel=(n, nb, 3), omega_w=(n, nb, 3),
                   omega_b=(n, nb, 3))
    else:
        out.update(R_pu=(nb, 3, 3))
    return out


def _optional_shapes(n, meta, what):
    """Shapes of the force-element, driver and coupler series and the reactions'
    indeterminacy counts a result of ``meta`` may hold."""
    try:
        nf = len(list(meta.get("force_names") or ()))
        rows = meta.get("driver_rows")
        if rows is None:
            rows = [1] * len(list(meta.get("driver_names") or ()))
        ncol = sum(int(r) for r in rows)
    except (TypeError, ValueError, AttributeError) as exc:
        raise ResultError("%s: its result metadata is damaged (%s)" % (what, exc)) from None
    out = dict(frc=(n, nf, 3), frc_pot=(n, nf), frc_diss=(n, nf), frc_work=(n, nf))
    # per joint: at how many samples each reaction component was indeterminate
    out["react_indeterminate"] = (len(list(meta.get("joint_names") or ())), None)
    out.update((k, (n, ncol)) for k in ("driver_effort", "driver_power", "driver_value",
                                        "driver_rate", "driver_work"))
    # per coupler: the force and torque it exerts on its second body
    out["coupler_react"] = (n, len(list(meta.get("coupler_names") or ())), 6)
    # per applied load: the power it puts in
    out["load_power"] = out["load_work"] = (n, len(list(meta.get("load_names") or ())))
    # the end stops' contacts: [time, element index, side, impact speed, rebound speed]
    # each (without the rebound in files of earlier versions)
    out["stop_events"] = (None, None)
    # the contacts' outputs (``contact.NCOUT`` columns per force element)
    out["frc_contact"] = (n, nf, NCOUT)
    return out


def npy_headers(z, what, error=None):
    """``{key: (ZipInfo, dtype, shape, header_length)}`` of the ``.npy`` members of the open
    ``.npz`` ``z``, read from their headers only (nothing else is decompressed). A member
    that is not an array, or holds Python objects (pickled), raises ``error`` (default
    ``ResultError``) naming ``what``."""
    error = error or ResultError
    out = {}
    for info in z.infolist():
        name = info.filename
        if not name.endswith(".npy"):
            raise error("%s: unexpected member %r" % (what, name))
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
                raise error("%s: member %r is not an array (%s)" % (what, name, exc)) \
                    from None
        if dtype.hasobject:
            raise error("%s: member %r holds Python objects; refused" % (what, name))
        out[key] = (info, dtype, tuple(shape), header)
    return out


def read_result_file(path, what="Result", max_bytes=None):
    """The solver ``Result`` in the ``.npz`` at ``path``, validated (sizes before
    decompression, then the arrays); ``ResultError`` naming ``what`` otherwise."""
    from .result import Result
    max_bytes = MAX_RESULT_BYTES if max_bytes is None else max_bytes
    if not path or not os.path.isfile(path):
        raise ResultError("%s: its result file is missing (run the study again)" % what)
    try:
        with zipfile.ZipFile(path) as z:
            heads = npy_headers(z, what)
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
                                        derived="R_pu" not in heads)
            missing = sorted(set(expected) - set(heads))
            expected.update((k, v) for k, v in _optional_shapes(n, meta, what).items()
                            if k in heads)
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
    if "stop_events" in arrays:
        _check_events(arrays["stop_events"], len(list(meta.get("force_names") or ())), what)
    arrays["meta"] = np.array(json.dumps(meta))
    try:
        return Result.from_arrays(arrays)
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


def _check_events(ev, nf, what):
    """End-stop events: element indices of the result's force elements, sides 0 or 1."""
    from .forces import NEVT
    if ev.shape[1] not in (NEVT - 1, NEVT):
        raise ResultError("%s: its result's end-stop events have %d columns, expected %d"
                          % (what, ev.shape[1], NEVT))
    idx, side = ev[:, 1], ev[:, 2]
    if len(ev) and not (np.all(idx == np.round(idx)) and idx.min() >= 0 and idx.max() < nf
                        and np.all((side == 0.0) | (side == 1.0))):
        raise ResultError("%s: its result's end-stop events name no element of it" % what)


def _check_rigid(A, what):
    if A.size:
        AtA = np.einsum("...ki,...kj->...ij", A, A)
        err = np.abs(AtA - np.eye(3)).max()
        if err > _ROT_TOL or np.linalg.det(A).min() <= 0.0:
            raise ResultError("%s: its result holds rotations that are not rigid (orthonormality "
                              "error %.3g)" % (what, err))
