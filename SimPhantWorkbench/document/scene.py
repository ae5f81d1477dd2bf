"""Tessellated bodies of a study, for the outputs and the 3-D viewer.

Only this module of the output path touches FreeCAD: it tessellates each
body's shape once; everything drawn afterwards moves those meshes by the
result's poses.
"""
import numpy as np

from ..output.mesh import Mesh, oriented_closed, signed_volume
from ..output.plots import COLORS, FIXED_COLOR
from ..viewer.scene import DEFAULT_GREY, JointFrame, Scene, hex_color
from .base import study_bodies, study_joints
from .bodies import body_data, reused_body_data
from .joints import joint_data
from .massprops import global_shape
from .results import result_key, result_keys
from .units import M_PER_MM

__all__ = ["tessellate", "body_meshes", "body_mesh", "shape_key", "scene_from_study", "study_joint_frame", "joint_frames",
           "document_colors"]


def _closed(shape, points, triangles):
    """The mesh bounds the shape's solids: their volume, signed (outward), within 2 %."""
    if not shape.Solids:
        return False
    volume = sum(abs(s.Volume) for s in shape.Solids)
    return volume > 0.0 and abs(signed_volume(points, triangles) - volume) < 0.02 * volume


def tessellate(shape, rel_tol=0.004, deflection=None):
    """(points [mm], triangles, closed) of a shape, deviation ``rel_tol`` of its size
    (or ``deflection`` [mm] when given: the largest distance of the triangles from the
    true surface).

    The whole shape in one ``Part.Shape.tessellate`` (shared vertices merged), kept
    when it is a closed, consistently oriented surface that bounds the shape's
    solids (signed volume within 2 %). Otherwise face by face, each face's
    triangles turned to its outward normal (``Face.normalAt`` respects the face
    orientation; the raw triangulation of a reversed face may not); ``closed``
    when the signed volume of that mesh matches the solids'. The first way is
    about 8x faster on CAD parts of a few dozen faces.
    """
    tol = max(rel_tol * shape.BoundBox.DiagonalLength, 1e-3) if deflection is None \
        else float(deflection)
    if deflection is not None:
        # OCC keeps a shape's triangulation in the shape: a finer one than the view's
        # would end up in the saved document; a copy carries it instead
        shape = shape.copy()
    if shape.Solids:
        pts, tris = shape.tessellate(tol)
        if tris:
            p = np.array([(v.x, v.y, v.z) for v in pts], dtype=float)
            t = np.array(tris, dtype=np.int64)
            if oriented_closed(t) and _closed(shape, p, t):
                return p, t, True
    points, triangles = [], []
    offset = 0
    for face in shape.Faces:
        pts, tris = face.tessellate(tol)
        if not tris:
            continue
        p = np.array([[v.x, v.y, v.z] for v in pts], dtype=float)
        t = np.array(tris, dtype=np.int64)
        corners = p[t]
        normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
        k = int(np.argmax(np.linalg.norm(normals, axis=1)))       # the largest triangle
        centre = corners[k].mean(axis=0)
        try:
            u, v = face.Surface.parameter(type(pts[0])(*centre))
            outward = face.normalAt(u, v)
            if np.dot(normals[k], [outward.x, outward.y, outward.z]) < 0.0:
                t = t[:, ::-1]
        except Exception:  # noqa: BLE001 - keep OCC's orientation
            pass
        points.append(p)
        triangles.append(t + offset)
        offset += len(p)
    if not triangles:
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64), False
    points = np.concatenate(points)
    triangles = np.concatenate(triangles)
    return points, triangles, _closed(shape, points, triangles)



def body_meshes(study, result, deflection=None):
    """Tessellate every body of ``study`` once (``Part.Shape.tessellate``; ``deflection``
    [mm]: see ``tessellate``).

    Moving bodies are expressed in their own frame about their CoG, as the
    document shows them now (the poses the run started from), so that
    ``Mesh.world`` places them with the result's ``position``/``rotation_matrix``.
    Bodies whose shape cannot be tessellated are left out.
    """
    meshes = []
    keys = None
    moving = 0
    shared = {}
    for body in study_bodies(study):
        try:
            mesh = body_mesh(body, None, deflection, COLORS[moving % len(COLORS)], shared)
        except Exception:  # noqa: BLE001 - a body we cannot draw is left out
            continue
        if mesh is None:
            continue
        if not body.Fixed:
            if keys is None:
                keys = result_keys(study)
            mesh.name = keys.get(body.Name) or result_key(study, body)   # (raises, naming it)
            moving += 1
        meshes.append(mesh)
    return meshes


def body_mesh(body, name, deflection=None, color=None, shared=None):
    """The ``Mesh`` of one body's shape (None: no triangles): a fixed body's in world
    axes, a moving body's (``name``: its result name) in its own frame about its CoG, as
    the document shows it now. FreeCAD's errors of a shape that cannot be tessellated
    pass through.

    ``shared``: a dict kept over the bodies of one study; a moving body whose shape is,
    in its own frame, the same as an earlier one's (``shape_key``: vertices, edge lengths,
    face kinds, volume and inertia) takes that body's triangles instead of tessellating its own
    (a chain of equal links is tessellated once)."""
    shape = global_shape(body.ShapeObject)
    if body.Fixed:
        pts_mm, tris, closed = tessellate(shape, deflection=deflection)
        if len(tris) == 0:
            return None
        return Mesh(body.Label, pts_mm * M_PER_MM, tris, None, FIXED_COLOR, closed)
    bd = body_data(body, warn=False)
    R = bd.frame[1]
    cog = np.asarray(bd.mass_props.cog, dtype=float)
    key = None if shared is None else shape_key(shape, bd.mass_props, R, deflection)
    if key is not None and key in shared:
        pts, tris, closed = shared[key]
    else:
        pts_mm, tris, closed = tessellate(shape, deflection=deflection)
        if len(tris) == 0:
            return None
        pts = (pts_mm * M_PER_MM - cog) @ R
        if key is not None:
            shared[key] = (pts, tris, closed)
    return Mesh(body.Label, pts, tris, name, color or COLORS[0], closed)


def shape_key(shape, mass_props, R, deflection=None):
    """What identifies a shape in a body's frame (origin its CoG, ``mass_props.cog``
    [m]; axes the columns of ``R``) for sharing its tessellation, None where it cannot be
    read: the deflection, the counts of solids, faces, edges and vertices, the vertices
    in that frame (rounded to 1e-6 mm), the sorted edge lengths (1e-6 mm) and surface
    kinds of the faces, the volume (9 digits) and the inertia per unit mass in that
    frame (to 1e-9 of its largest entry). Two shapes that differ by a rigid motion which carries one body frame to
    the other have the same key; two that differ by less than the rounding may share
    one (far below any deflection)."""
    try:
        verts = np.array([(v.X, v.Y, v.Z) for v in shape.Vertexes], dtype=float)
        edges = sorted(round(e.Length, 6) for e in shape.Edges)
        faces = sorted(type(f.Surface).__name__ for f in shape.Faces)
        solids = len(shape.Solids)
        mass = float(mass_props.mass)
    except Exception:  # noqa: BLE001 - a shape OCC cannot measure is tessellated alone
        return None
    if not mass > 0.0:
        return None
    cog_mm = np.asarray(mass_props.cog, dtype=float) / M_PER_MM
    local = np.round((verts.reshape(-1, 3) - cog_mm) @ R, 6) + 0.0
    local = local[np.lexsort(local.T[::-1])]
    gyration = R.T @ np.asarray(mass_props.inertia, dtype=float) @ R / mass
    scale = max(float(np.abs(gyration).max()), 1e-300)
    integrals = (float("%.9g" % float(mass_props.volume)),) \
        + tuple((np.round(gyration / scale, 9) + 0.0).ravel().tolist())
    return (deflection, solids, len(faces), len(edges), len(local), local.tobytes(),
            tuple(edges), tuple(faces), integrals, float("%.9g" % scale))


def document_colors(study):
    """``{object Name: "#rrggbb"}`` of the study's shape objects from their view providers
    (empty without the GUI)."""
    out = {}
    for body in study_bodies(study):
        obj = body.ShapeObject
        vo = getattr(obj, "ViewObject", None) if obj is not None else None
        color = getattr(vo, "ShapeColor", None) if vo is not None else None
        if color is not None:
            out[obj.Name] = hex_color(color)
    return out


def scene_from_study(study, result, colors=None, title=""):
    """The ``Scene`` of ``study`` for ``result`` (FreeCAD: tessellates every body once).

    ``colors``: ``{shape object Name: "#rrggbb"}`` (``document_colors`` in the GUI,
    ``colors_from_gui_xml`` headless); FreeCAD's default grey and missing entries
    keep the palette colour of ``body_meshes``. Joint frames come from the
    document's joints (``joints.joint_data``), attached to their bodies at the
    poses the run started from.
    """
    with reused_body_data():
        return _scene_from_study(study, result, colors, title)


def _scene_from_study(study, result, colors, title):
    colors = dict(colors if colors is not None else document_colors(study))
    meshes = body_meshes(study, result)
    shape_of = {}
    for body in study_bodies(study):
        if body.ShapeObject is not None:
            shape_of.setdefault(body.Label, body.ShapeObject.Name)
    for m in meshes:
        c = colors.get(shape_of.get(m.label))
        if c is not None and c.lower() != DEFAULT_GREY:
            m.color = c
    keys = result_keys(study)
    joints = [jf for jf in (study_joint_frame(study, j, result, keys=keys)
                            for j in study_joints(study)) if jf is not None]
    return Scene(meshes, joints, title)



def study_joint_frame(study, joint, result, sides=("body2", "body1"), keys=None):
    """The ``JointFrame`` of a document Joint: its frame on the first of ``sides`` whose
    body moves, kept in that body's own frame (about its CoG, so that any pose the
    document shows gives the same local frame); the frame of the last side in world
    axes when none moves. ``None`` if the joint cannot be placed or is not in ``result``.
    """
    try:
        jd = joint_data(joint)
        key = keys[joint.Name] if keys is not None else result_key(study, joint)
    except Exception:  # noqa: BLE001 - a joint we cannot place is not drawn
        return None
    if key not in result.joint_names:
        return None
    side = {"body1": (jd.body1, jd.frame1), "body2": (jd.body2, jd.frame2)}
    for s in sides:
        body, (p, R) = side[s]
        if body is None or body.Fixed:
            continue
        name = keys.get(body.Name) if keys is not None else result_key(study, body)
        if name not in result.body_names:
            continue
        bd = body_data(body, warn=False)
        cog = np.asarray(bd.mass_props.cog, dtype=float)
        A0 = bd.frame[1]
        return JointFrame(key, joint.Label, name, A0.T @ (np.asarray(p) - cog),
                          A0.T @ np.asarray(R))
    _body, (p, R) = side[sides[-1]]
    return JointFrame(key, joint.Label, None, p, R)


def joint_frames(study, result):
    """``{joint result name: JointFrame}`` of the joint frames on the first bodies (FreeCAD)."""
    out = {}
    for joint in study_joints(study):
        jf = study_joint_frame(study, joint, result, sides=("body1",))
        if jf is not None:
            out[jf.name] = jf
    return out
