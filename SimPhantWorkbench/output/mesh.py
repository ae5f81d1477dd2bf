"""Triangle meshes of bodies (what the animation and the 3-D viewer draw), in SI units."""
import numpy as np

from ..collision.geometry import subdivide

__all__ = ["Mesh", "signed_volume", "oriented_closed", "subdivide"]


class Mesh:
    """A tessellated body for the animation.

    ``points`` (k, 3) [m]: in the body's own frame relative to its CoG for a
    moving body (``name`` = its result name), in world coordinates for a fixed
    one (``name`` None). ``triangles`` (m, 3) indices into ``points``.
    ``closed``: the triangles bound a solid and all run counter-clockwise seen
    from outside, so those facing away from the viewer can be skipped.
    """

    def __init__(self, label, points, triangles, name=None, color=None, closed=False):
        self.label = label
        self.points = np.asarray(points, dtype=float).reshape(-1, 3)
        self.triangles = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
        self.name = name
        self.color = color
        self.closed = bool(closed)

    def world(self, result=None, i=None):
        """World coordinates [m] of the points at sample ``i`` (fixed: always the same)."""
        if self.name is None:
            return self.points
        r, A = result.pose(self.name, i)
        return r + self.points @ A.T


def signed_volume(points, triangles):
    p = points[triangles]
    return float(np.einsum("ij,ij->i", p[:, 0], np.cross(p[:, 1], p[:, 2])).sum() / 6.0)


def oriented_closed(triangles):
    """Every edge of the mesh is used once in each direction: a closed, consistently
    oriented surface (a flipped or missing face breaks it)."""
    t = np.asarray(triangles, dtype=np.int64)
    n = int(t.max()) + 1
    a = t.reshape(-1)
    b = t[:, [1, 2, 0]].reshape(-1)
    codes = a * n + b
    return (len(np.unique(codes)) == len(codes)
            and bool(np.isin(b * n + a, codes, assume_unique=True).all()))
