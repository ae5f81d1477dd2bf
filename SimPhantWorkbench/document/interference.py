"""Interference of a study's bodies along its stored result (FreeCAD, no Qt).

The bodies are tessellated at a stated deflection (``scene.body_meshes``) and handed,
with their motion between the output samples, to the FreeCAD-free collision room
(``collision.along``). Pairs of bodies that share a joint are left out by default (a
pin in its hole touches by design), and so are pairs of fixed bodies (they never move
against each other).
"""
import time

from ..collision import require
from ..collision.along import Interference, check_pairs
from ..collision.geometry import Solid
from ..collision.motion import Trajectory
from ..solver import ModelError
from .base import study_bodies, study_joints
from .joints import joint_data
from .results import require_result
from .scene import body_mesh, body_meshes
from .units import M_PER_MM

__all__ = ["check_study", "study_solids", "body_solid", "joint_pairs", "DEFLECTION_MM", "pair_label"]

#: default largest distance [mm] of the triangles from the true surfaces
DEFLECTION_MM = 0.1


def pair_label(a, b):
    return "%s - %s" % (a, b)


def study_solids(study, result, deflection_mm=DEFLECTION_MM, spacing_mm=None):
    """``[(Solid, Trajectory)]`` of every body of ``study`` that tessellates, in the
    order of ``body_meshes``, for the solver ``result`` (its samples)."""
    require()
    out = []
    spacing = None if spacing_mm is None else spacing_mm * M_PER_MM
    made = {}       # bodies of the same shape share one tessellation, and one Solid
    meshes = body_meshes(study, result, deflection=deflection_mm)
    for m in meshes:
        # (the shared arrays: ``Mesh`` keeps views of them)
        same = (m.points.ctypes.data, m.points.shape, m.triangles.ctypes.data, m.closed)
        twin = made.get(same)
        if twin is None:
            solid = made[same] = _solid(m, spacing)
        else:
            solid = twin.named(m.name, m.label)
        if m.name is None:
            traj = Trajectory.fixed(result.t)
        else:
            traj = Trajectory(result.t, result.position(m.name), result.rotation_matrix(m.name),
                              result.velocity(m.name))
        out.append((solid, traj))
    return out


def _solid(mesh, spacing):
    return Solid(mesh.points, mesh.triangles, closed=mesh.closed, spacing=spacing,
                 name=mesh.name, label=mesh.label)


def body_solid(body, name, deflection_mm=DEFLECTION_MM, spacing_mm=None):
    """The ``Solid`` of one body as the document shows it now (a fixed body's in world
    axes, a moving body's, ``name`` its solver name, about its CoG in its own frame);
    ``ModelError`` naming the body when its shape gives no triangles."""
    require()
    try:
        mesh = body_mesh(body, name, deflection=deflection_mm)
    except Exception as exc:  # noqa: BLE001 - FreeCAD's errors of a broken shape
        raise ModelError("interference: the shape of body '%s' cannot be tessellated (%s: %s)"
                         % (body.Label, type(exc).__name__, exc)) from None
    if mesh is None:
        raise ModelError("interference: body '%s' has no shape to tessellate" % body.Label)
    return _solid(mesh, None if spacing_mm is None else spacing_mm * M_PER_MM)


def joint_pairs(study):
    """``{frozenset({label a, label b}): joint label}`` of the bodies each joint connects."""
    out = {}
    bodies = study_bodies(study)
    for joint in study_joints(study):
        try:
            jd = joint_data(joint, bodies)
        except Exception:  # noqa: BLE001 - a joint that cannot be read connects nothing
            continue
        if jd.body1 is not None and jd.body2 is not None:
            out.setdefault(frozenset((jd.body1.Label, jd.body2.Label)), joint.Label)
    return out


def _chosen_pairs(solids, pairs, study):
    """Index pairs of the ``pairs`` named by label or result name (ModelError naming the
    unknown body)."""
    index = {}
    for i, (s, _t) in enumerate(solids):
        index.setdefault(s.label, i)
        if s.name is not None:
            index.setdefault(s.name, i)
    out = []
    for a, b in pairs:
        for x in (a, b):
            if x not in index:
                raise ModelError("interference: '%s' is not a body of study '%s' with a shape "
                                 "(bodies: %s)" % (x, study.Label,
                                                   ", ".join(s.label for s, _ in solids)))
        i, j = index[a], index[b]
        if i == j:
            raise ModelError("interference: a pair needs two bodies, got '%s' twice" % a)
        out.append((min(i, j), max(i, j)))
    return out


def check_study(study, pairs=None, deflection_mm=DEFLECTION_MM, tolerance_mm=None,
                include_jointed=False, spacing_mm=None, progress=None):
    """The ``collision.along.Interference`` of ``study``'s stored result.

    Parameters
    ----------
    pairs : [(body a, body b)] by label or result name; default every pair of bodies
        but those sharing a joint (``include_jointed``) and those both fixed
    deflection_mm : the tessellation's deflection [mm]; the search resolves times and
        depths to the same distance
    tolerance_mm : overlaps never deeper than this [mm] count as touching (default
        twice the deflection: two tessellated surfaces that touch may overlap so much)
    spacing_mm : surface samples of the penetration depth of non-convex solids [mm]
        (default: their vertices)
    progress : callable(done, total) -> False to stop
    """
    t0 = time.perf_counter()
    _res_obj, result = require_result(study)
    deflection_mm = float(deflection_mm)
    if not deflection_mm > 0.0:
        raise ModelError("interference: the deflection must be > 0 mm, got %g" % deflection_mm)
    tolerance_mm = 2.0 * deflection_mm if tolerance_mm is None else float(tolerance_mm)
    solids = study_solids(study, result, deflection_mm, spacing_mm)
    jointed = joint_pairs(study)
    excluded = []
    if pairs is not None:
        index_pairs = _chosen_pairs(solids, pairs, study)
    else:
        index_pairs = []
        for i in range(len(solids)):
            for j in range(i + 1, len(solids)):
                a, b = solids[i][0], solids[j][0]
                why = None
                if a.name is None and b.name is None:
                    why = "both fixed"
                elif not include_jointed and frozenset((a.label, b.label)) in jointed:
                    why = "joint %s" % jointed[frozenset((a.label, b.label))]
                if why is None:
                    index_pairs.append((i, j))
                else:
                    excluded.append((a.label, b.label, why))
    reports = check_pairs([s for s, _ in solids], [t for _, t in solids], index_pairs,
                          deflection_mm * M_PER_MM, tolerance_mm * M_PER_MM, progress)
    return Interference(reports, excluded, deflection_mm * M_PER_MM, deflection_mm * M_PER_MM,
                        tolerance_mm * M_PER_MM, time.perf_counter() - t0)

