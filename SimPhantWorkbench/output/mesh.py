"""Triangle meshes of bodies (what the animation and the 3-D viewer draw), in SI units."""
import numpy as np

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



def subdivide(points, triangles, max_edge, max_rounds=12):
    """Split triangles at the middle of their longest edge until no edge is longer
    than ``max_edge`` (or ``max_rounds`` rounds). Winding is kept.

    Painter's algorithm sorts whole triangles by their mean depth; a long triangle
    (a rail, the side of a long bar) can then be drawn over a nearer small one.
    Short triangles keep those errors below the size of a pixel or two.
    """
    points = np.asarray(points, dtype=float)
    tris = np.asarray(triangles, dtype=np.int64)
    for _ in range(max_rounds):
        p = points[tris]
        edges = np.stack([np.linalg.norm(p[:, 1] - p[:, 0], axis=1),
                          np.linalg.norm(p[:, 2] - p[:, 1], axis=1),
                          np.linalg.norm(p[:, 0] - p[:, 2], axis=1)], axis=1)
        longest = edges.argmax(axis=1)
        split = np.nonzero(edges[np.arange(len(tris)), longest] > max_edge)[0]
        if len(split) == 0:
            break
        # rotate each split triangle so that its longest edge is (a, b)
        t = tris[split]
        k = longest[split]
        rot = np.stack([t[np.arange(len(t)), (k + j) % 3] for j in range(3)], axis=1)
        a, b, c = rot[:, 0], rot[:, 1], rot[:, 2]
        mid = len(points) + np.arange(len(t))
        points = np.concatenate([points, 0.5 * (points[a] + points[b])])
        keep = np.ones(len(tris), dtype=bool)
        keep[split] = False
        tris = np.concatenate([tris[keep], np.stack([a, mid, c], axis=1),
                               np.stack([mid, b, c], axis=1)])
    return points, tris
