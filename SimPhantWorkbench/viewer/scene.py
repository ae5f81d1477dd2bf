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
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            if meta.get("format") != _FORMAT:
                raise ValueError("'%s' is not a SimPhant scene (format %r)"
                                 % (path, meta.get("format")))
            meshes = [Mesh(d["label"], z["points_%d" % k], z["triangles_%d" % k], d["name"],
                           d["color"], d["closed"]) for k, d in enumerate(meta["meshes"])]
        joints = [JointFrame(d["name"], d["label"], d["body"], d["point"], d["R"])
                  for d in meta["joints"]]
        return cls(meshes, joints, meta.get("title", ""))


# ============================================================================ colours

def hex_color(rgb):
    return "#%02x%02x%02x" % tuple(int(round(255 * max(0.0, min(1.0, c)))) for c in rgb[:3])


def colors_from_gui_xml(xml):
    """``{object Name: "#rrggbb"}`` of the ``ShapeColor`` properties in a ``GuiDocument.xml``
    (bytes or str): the colours FreeCAD shows, also where FreeCAD has no GUI to ask."""
    if isinstance(xml, bytes):
        xml = xml.decode("utf-8", "replace")
    out = {}
    for m in re.finditer(r'<ViewProvider\s+name="([^"]+)"(.*?)</ViewProvider>', xml, re.S):
        c = re.search(r'<Property\s+name="ShapeColor"[^>]*>\s*<PropertyColor\s+value="(\d+)"',
                      m.group(2))
        if c:
            v = int(c.group(1))              # 0xRRGGBBAA
            out[m.group(1)] = "#%02x%02x%02x" % ((v >> 24) & 255, (v >> 16) & 255, (v >> 8) & 255)
    return out
