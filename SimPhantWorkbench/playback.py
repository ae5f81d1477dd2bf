"""Playback: write the bodies' placements of one result frame; reset to the start.

Playback only writes ``Placement`` properties (no recompute, no solving). The
solver reports each body's CoG ``r(t)`` [m] and the rotation ``A(t)`` of its own
frame (= the shape object's global frame); the object's origin is not its CoG,
so its global placement is

    rotation A(t),   base = r(t) - A(t) c_local

with ``c_local`` the CoG in the object's frame recorded at run time. An object
inside an ``App::Part`` gets that placement expressed in its parent's frame
(``P_parent^-1 * global``); ``App::Link`` objects are placed the same way.

A ``Session`` (the timeline panel keeps one while it is open) reads and
validates the result once, works out every frame's global poses for all
moving bodies in one vectorised pass (checked finite and rigid there, so a
damaged result is refused before anything moves), remembers the objects'
containers and their inverse placements, and then only writes placements per
frame. ``apply_frame`` is a one-frame session: it validates on every call.
"""
import os

import numpy as np

import FreeCAD

from .document.units import M_PER_MM, global_placement
from .document.massprops import ancestors
from .document.base import require_study, study_result, transaction
from .document.results import require_result
from .document.result_check import ResultError, check_placements, moving_targets, result_label
from .solver import ModelError
from .solver.rotations import matrices_to_quats

__all__ = ["Session", "frame_index", "frame_placements", "apply_frame", "reset"]


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


def _rigid(pl):
    q = tuple(pl.Rotation.Q)
    vals = tuple(pl.Base) + q
    return all(np.isfinite(vals)) and abs(float(np.dot(q, q)) - 1.0) <= 1e-9


def _key(pl):
    return tuple(pl.Base) + tuple(pl.Rotation.Q)


def _file_key(path):
    """``(path, modification time [ns], size)`` of a result archive; None if it is gone."""
    try:
        st = os.stat(path)
    except (OSError, TypeError, ValueError):
        return None
    return (path, st.st_mtime_ns, st.st_size)


class Session:
    """Playback of one study's stored result: read and validated once, then cheap frames.

    At construction the result is loaded and validated (``result_check``), the
    objects playback may move are found (``moving_targets``), and the global
    pose of every moving body at every frame is computed in one vectorised pass
    and checked finite and rigid (a ``ResultError`` naming the frame and object
    otherwise: nothing is moved). Per frame only the ``Placement`` properties are
    written; an object inside containers gets its pose in its parent's frame,
    with the containers' inverse placement cached while they do not move.
    """

    def __init__(self, study, index_or_time=None):
        self.study = study
        self.doc = study.Document
        self.res_obj, self.result = require_result(study)
        self.what = result_label(self.res_obj)
        targets = moving_targets(self.study, self.res_obj)
        self._file = _file_key(self.res_obj.ResultFile)
        self.t = self.result.t
        self.n = len(self.t)
        if index_or_time is None:
            frames = slice(None)
        else:
            i = frame_index(self.result, index_or_time)
            frames = slice(i, i + 1)
        self._first = 0 if index_or_time is None else frames.start
        self.names = [obj.Name for _, obj in targets]
        self.objects = [obj for _, obj in targets]
        bodies = [self.result.body_names[k] for k, _ in targets]
        # the containers of each object, outermost last (walked once per session)
        self._ancestors = [ancestors(obj) for obj in self.objects]
        # objects inside a moving object go after it: its new placement carries them
        self._order = sorted(range(len(self.objects)), key=lambda j: len(self._ancestors[j]))
        self._inverse = {}
        m = len(targets)
        if m:
            pos = np.stack([self.result.position(b)[frames] for b in bodies], axis=1)
            A = np.stack([self.result.rotation_matrix(b)[frames] for b in bodies], axis=1)
            c = np.array([tuple(self.res_obj.CoGLocal[k]) for k, _ in targets], dtype=float)
            # base = r - A c  (mm), rotation A, for every frame and body at once
            with np.errstate(over="ignore", invalid="ignore"):   # refused just below
                self._base = pos / M_PER_MM - np.matmul(A, c[None, :, :, None])[..., 0]
                self._quat = matrices_to_quats(A)               # (w, x, y, z)
        else:
            self._base = np.zeros((self.n if index_or_time is None else 1, 0, 3))
            self._quat = np.zeros(self._base.shape[:2] + (4,))
        finite = np.isfinite(self._base).all(axis=2) & np.isfinite(self._quat).all(axis=2)
        unit = np.abs(np.sum(self._quat * self._quat, axis=2) - 1.0) <= 1e-9
        bad = np.argwhere(~(finite & unit))
        if len(bad):
            f, j = bad[0]
            raise ResultError("%s: frame %d gives '%s' a placement that is not finite and rigid; "
                              "nothing was moved" % (self.what, self._first + f,
                                                     self.objects[j].Label))

    def frame_index(self, index_or_time):
        return frame_index(self.result, index_or_time)

    def frame_shown(self, tol=1e-6):
        """Index of a frame whose poses the moving objects have now (playback put them
        there), within ``tol`` mm and a rotation of about ``tol`` rad; ``None`` if none."""
        if not self.objects:
            return None
        now = [global_placement(obj) for obj in self.objects]
        base = np.array([tuple(pl.Base) for pl in now])
        quat = np.array([(pl.Rotation.Q[3],) + tuple(pl.Rotation.Q[:3]) for pl in now])
        with np.errstate(invalid="ignore"):
            far = np.abs(self._base - base).max(axis=(1, 2))
            turned = (1.0 - np.abs(np.sum(self._quat * quat, axis=2))).max(axis=1)
        hit = np.flatnonzero((far <= tol) & (turned <= tol * tol))
        return int(hit[0]) + self._first if len(hit) else None

    def current(self):
        """False once the result file was replaced (a new run writes an archive of the same
        name: its modification time and size tell) or a moved object deleted: make a new
        session then."""
        if _file_key(self.res_obj.ResultFile) != self._file:
            return False
        get = self.doc.getObject
        return all(get(name) is not None for name in self.names)

    def _container_inverse(self, j, new):
        """Inverse global placement of object ``j``'s containers (``new``: placements
        written this frame, for a container that is itself a moving body)."""
        pls = [new[p.Name] if p.Name in new else p.Placement for p in self._ancestors[j]]
        key = tuple(_key(p) for p in pls)
        inv = self._inverse.get(key)
        if inv is None:
            total = FreeCAD.Placement()
            for p in pls:                                  # innermost first
                total = p.multiply(total)
            inv = self._inverse[key] = total.inverse()
            if len(self._inverse) > 64:                    # a container moving every frame
                self._inverse = {key: inv}
        return inv

    def placements(self, index_or_time):
        """``[(object, Placement in its parent's frame)]`` of one frame, checked."""
        i = self.frame_index(index_or_time)
        f = i - self._first
        if not 0 <= f < len(self._base):
            raise ModelError("frame %d was not prepared by this session" % i)
        base, quat = self._base[f].tolist(), self._quat[f].tolist()
        new = {}
        out = [None] * len(self.objects)
        for j in self._order:
            b, (w, x, y, z) = base[j], quat[j]
            pl = FreeCAD.Placement(FreeCAD.Vector(*b), FreeCAD.Rotation(x, y, z, w))
            if self._ancestors[j]:
                pl = self._container_inverse(j, new).multiply(pl)
                if not _rigid(pl):
                    raise ResultError("%s: frame %d gives '%s' a placement that is not finite "
                                      "and rigid; nothing was moved"
                                      % (self.what, i, self.objects[j].Label))
            new[self.names[j]] = pl
            out[j] = (self.objects[j], pl)
        return out

    def apply(self, index_or_time):
        """Write one frame's placements (inside one undo transaction, or the one open);
        returns the frame index."""
        i = self.frame_index(index_or_time)
        placements = self.placements(i)
        with transaction(self.doc, "SimPhant: show frame %d" % i):
            for obj, pl in placements:
                obj.Placement = pl
        return i


def frame_placements(study, index_or_time):
    """``{shape object: Placement}`` (in the object's parent frame) of one frame."""
    return dict(Session(study, index_or_time).placements(index_or_time))


def apply_frame(study, index_or_time):
    """Move every moving body's shape object to its pose at a result frame.

    ``index_or_time``: frame index (int) or time [s] (float, nearest frame).
    One undo transaction; returns the frame index used. Reads and validates the
    result on every call; a timeline keeps a ``Session`` instead.
    """
    return Session(study, index_or_time).apply(index_or_time)


def reset(study):
    """Restore the placements the bodies had when the run started, bit-exactly.

    Needs only the Result's ``InitialPlacements`` (not its result file, which
    may be missing or damaged); moves only moving bodies of the study.
    """
    require_study(study)
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
