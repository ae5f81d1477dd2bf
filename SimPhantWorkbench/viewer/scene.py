"""What the viewer draws: tessellated bodies with their colours and the joint frames.

A ``Scene`` is made once from a study (``document.scene.scene_from_study``: FreeCAD
tessellates each body's shape) and then only moved by a solver
``Result``: a moving body's mesh is kept in its own frame about its CoG, so its
world points at sample ``i`` are ``r_i + A_i p`` (``Result.pose``). Joint frames
are kept the same way, attached to the joint's second body (its first when the
second is fixed), so a triad follows the body it sits on.

``Scene.save`` writes ``scene.npz`` (NumPy only, SI units), which ``Scene.load``
reads back without FreeCAD: ``simphant run`` writes it beside ``result.npz`` and
``simphant view DIR`` shows the two on a machine that has only the Python side.
"""
import json
import re

import numpy as np

from ..output.mesh import Mesh
from ..solver.result_file import npy_headers

__all__ = ["Scene", "JointFrame", "SCENE_FILE", "RESULT_FILE", "DEFAULT_GREY",
           "colors_from_gui_xml", "hex_color"]

SCENE_FILE = "scene.npz"
RESULT_FILE = "result.npz"
_FORMAT = "simphant-scene-1"
#: FreeCAD's default shape colour (0.8, 0.8, 0.8): such bodies get the palette instead
DEFAULT_GREY = "#cccccc"


class JointFrame:
    """A joint's frame, drawn as a small triad.

    ``body``: the result name of the body it is attached to, or ``None`` (fixed:
    ``point``/``R`` are in world axes). Otherwise ``point`` [m] and ``R`` (3x3,
    columns = the frame's x, y, z axes) are in that body's own frame about its CoG.
    """

    def __init__(self, name, label, body, point, R):
        self.name = name
        self.label = label
        self.body = body
        self.point = np.asarray(point, dtype=float).reshape(3)
        self.R = np.asarray(R, dtype=float).reshape(3, 3)

    def pose(self, result=None, i=None):
        """(origin (3,), axes (3, 3)) in world at sample ``i``."""
        if self.body is None:
            return self.point.copy(), self.R.copy()
        r, A = result.pose(self.body, i)
        return r + A @ self.point, A @ self.R


class Scene:
    """Meshes (``output.mesh.Mesh``) and joint frames (``JointFrame``) of a study; SI units."""

    def __init__(self, meshes, joints=(), title=""):
        self.meshes = list(meshes)
        self.joints = list(joints)
        self.title = title

    def moving(self):
        return [m for m in self.meshes if m.name is not None]

    def bounds(self, result, indices):
        """(lo (3,), hi (3,)) [m] of every mesh over the samples ``indices``."""
        lo = np.full(3, np.inf)
        hi = np.full(3, -np.inf)
        for m in self.meshes:
            if len(m.points) == 0:
                continue
            for i in (indices if m.name is not None else indices[:1]):
                w = m.world(result, i)
                lo, hi = np.minimum(lo, w.min(axis=0)), np.maximum(hi, w.max(axis=0))
        if not np.all(np.isfinite(lo)):
            lo, hi = -np.ones(3), np.ones(3)
        return lo, hi

    def check(self, result):
        """Raise ``ValueError`` naming what does not fit ``result`` (another run's scene)."""
        names = set(result.body_names)
        for m in self.meshes:
            if m.name is not None and m.name not in names:
                raise ValueError("the scene's body '%s' is not in the result (bodies: %s)"
                                 % (m.name, ", ".join(result.body_names) or "none"))
        for j in self.joints:
            if j.body is not None and j.body not in names:
                raise ValueError("the scene's joint '%s' sits on body '%s', which is not in "
                                 "the result" % (j.label, j.body))

    # ------------------------------------------------------------------ file
    def save(self, path):
        """Write ``path`` (``.npz``: one points and one triangles array per mesh, JSON meta)."""
        arrays = {}
        meta = dict(format=_FORMAT, title=self.title, meshes=[], joints=[])
        for k, m in enumerate(self.meshes):
            arrays["points_%d" % k] = m.points
            arrays["triangles_%d" % k] = m.triangles.astype(np.int64)
            meta["meshes"].append(dict(label=m.label, name=m.name, color=m.color,
                                       closed=bool(m.closed)))
        for j in self.joints:
            meta["joints"].append(dict(name=j.name, label=j.label, body=j.body,
                                       point=j.point.tolist(), R=j.R.ravel().tolist()))
        arrays["meta"] = np.array(json.dumps(meta))
        np.savez_compressed(path, **arrays)
        return path

    @classmethod
    def load(cls, path):
        """The scene in ``path``, checked as untrusted input before anything draws it:
        member sizes from their headers before decompressing (``MAX_SCENE_BYTES``), no
        pickles, float64 points (k, 3) finite, int64 triangles (m, 3) indexing them,
        meshes and joint frames of the types ``save`` writes. ``ValueError`` naming the
        file and what is wrong otherwise."""
        import zipfile
        what = "'%s'" % path
        try:
            with zipfile.ZipFile(path) as z:
                heads = npy_headers(z, what, error=ValueError)
                meta = _read_meta(z, heads, what)
                arrays = _read_meshes(z, heads, meta, what)
        except (OSError, zipfile.BadZipFile, EOFError, RuntimeError) as exc:
            raise ValueError("%s cannot be read (%s)" % (what, exc)) from None
        meshes = [Mesh(d["label"], arrays[k][0], arrays[k][1], d["name"], d["color"],
                       d["closed"]) for k, d in enumerate(meta["meshes"])]
        joints = [JointFrame(d["name"], d["label"], d["body"], d["point"], d["R"])
                  for d in meta["joints"]]
        return cls(meshes, joints, meta["title"])


#: the largest content of a scene file that is read [bytes]
MAX_SCENE_BYTES = 1024 ** 3
_META_BYTES = 16 * 1024 ** 2
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _read_meta(z, heads, what):
    """The checked metadata of a scene file."""
    info, dtype, shape, header = heads.get("meta", (None, None, None, None))
    if info is None or dtype.kind != "U" or shape != () or info.file_size > _META_BYTES:
        raise ValueError("%s is not a SimPhant scene (no readable metadata)" % what)
    with z.open(info) as fh:
        text = str(np.lib.format.read_array(fh, allow_pickle=False))
    try:
        meta = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ValueError("%s: its metadata is damaged (%s)" % (what, exc)) from None
    if not isinstance(meta, dict) or meta.get("format") != _FORMAT:
        raise ValueError("%s is not a SimPhant scene (format %r)"
                         % (what, meta.get("format") if isinstance(meta, dict) else None))
    meta.setdefault("title", "")
    meshes, joints = meta.get("meshes"), meta.get("joints")
    if not isinstance(meshes, list) or not isinstance(joints, list) \
            or not isinstance(meta["title"], str):
        raise ValueError("%s: its metadata is damaged (meshes, joints, title)" % what)
    for k, d in enumerate(meshes):
        if not (isinstance(d, dict) and isinstance(d.get("label"), str)
                and isinstance(d.get("name"), (str, type(None)))
                and (d.get("color") is None or (isinstance(d.get("color"), str)
                                                and _COLOR.match(d["color"])))
                and isinstance(d.get("closed"), bool)):
            raise ValueError("%s: mesh %d of its metadata is damaged" % (what, k))
    for k, d in enumerate(joints):
        try:
            ok = (isinstance(d, dict) and isinstance(d.get("name"), str)
                  and isinstance(d.get("label"), str)
                  and isinstance(d.get("body"), (str, type(None)))
                  and np.isfinite(np.array(d.get("point"), dtype=float).reshape(3)).all()
                  and np.isfinite(np.array(d.get("R"), dtype=float).reshape(9)).all())
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise ValueError("%s: joint frame %d of its metadata is damaged" % (what, k))
    return meta


def _read_meshes(z, heads, meta, what):
    """``[(points, triangles)]`` of the meshes of ``meta``, sizes checked before reading."""
    total = 0
    keys = []
    for k in range(len(meta["meshes"])):
        for key, dtype, cols in (("points_%d" % k, np.dtype(float), 3),
                                 ("triangles_%d" % k, np.dtype(np.int64), 3)):
            if key not in heads:
                raise ValueError("%s lacks the array %r" % (what, key))
            info, dt, shape, header = heads[key]
            if dt != dtype or len(shape) != 2 or shape[1] != cols:
                raise ValueError("%s: array %r is %s %s, expected %s (*, %d)"
                                 % (what, key, dt, shape, dtype, cols))
            nbytes = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
            if info.file_size != header + nbytes:
                raise ValueError("%s: array %r is damaged (size %d, expected %d)"
                                 % (what, key, info.file_size, header + nbytes))
            total += nbytes
            keys.append(key)
    if total > MAX_SCENE_BYTES:
        raise ValueError("%s holds %.3g bytes of meshes, more than the limit %.3g"
                         % (what, total, MAX_SCENE_BYTES))
    out = []
    for k in range(len(meta["meshes"])):
        with z.open(heads["points_%d" % k][0]) as fh:
            points = np.lib.format.read_array(fh, allow_pickle=False)
        with z.open(heads["triangles_%d" % k][0]) as fh:
            triangles = np.lib.format.read_array(fh, allow_pickle=False)
        label = meta["meshes"][k]["label"]
        if not np.isfinite(points).all():
            raise ValueError("%s: the points of mesh '%s' hold NaN or Inf" % (what, label))
        if len(triangles) and (triangles.min() < 0 or triangles.max() >= len(points)):
            raise ValueError("%s: the triangles of mesh '%s' index points outside its %d "
                             "points" % (what, label, len(points)))
        out.append((points, triangles))
    return out


# ============================================================================ colours

def hex_color(rgb):
    return "#%02x%02x%02x" % tuple(int(round(255 * max(0.0, min(1.0, c)))) for c in rgb[:3])


def colors_from_gui_xml(xml):
    """``{object Name: "#rrggbb"}`` of the ``ShapeColor`` properties in a ``GuiDocument.xml``
    (bytes or str): the colours FreeCAD shows, also where FreeCAD has no GUI to ask.
    Parsed in linear time; a file that does not parse (or declares entities) gives none."""
    import xml.etree.ElementTree as ET
    if isinstance(xml, str):
        xml = xml.encode("utf-8")
    if b"<!DOCTYPE" in xml or b"<!ENTITY" in xml:
        return {}
    try:
        root = ET.fromstring(xml)
    except ET.ParseError:
        return {}
    out = {}
    for vp in root.iter("ViewProvider"):
        for prop in vp.iter("Property"):
            if prop.get("name") != "ShapeColor":
                continue
            c = prop.find("PropertyColor")
            try:
                v = int(c.get("value")) if c is not None else None
            except (TypeError, ValueError):
                v = None
            if v is not None and vp.get("name"):           # 0xRRGGBBAA
                out[vp.get("name")] = "#%02x%02x%02x" % ((v >> 24) & 255, (v >> 16) & 255,
                                                          (v >> 8) & 255)
            break
    return out
