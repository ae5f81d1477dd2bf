"""A tighter lower bound of the distance of two non-convex solids than their convex hulls:
the smallest distance between convex pieces of their surfaces.

A solid's convex hull fills its dents and notches (a dog-bone link's hull bridges the
notch between its two bosses), so two hulls can be much closer than the solids. Here
each solid's surface is cut into ``PIECES`` slabs across its principal axis (the
direction of largest spread of its vertices): the triangles are first split at the
middle of their longest edge until none is longer than a slab's width
(``geometry.subdivide``, the same surface), then each goes to the slab of its centroid,
and a piece is the convex hull of its slab's triangles (Qhull). Every triangle lies in
its piece's hull, so for two solids whose surfaces do not meet

    min over pieces i of a, j of b of dist(hull_i, hull_j) <= dist(surface a, surface b)

-- a lower bound of the solids' distance wherever they do not overlap. Two solids whose
convex hulls are apart neither cross nor contain one another, so there it bounds the
distance itself (one solid inside the other has surfaces apart: the bound is only taken
where the hulls are apart). A slab's hull fills a notch over one slab's width at most.

The pairs of pieces are visited by the gap of their bounding spheres, the smallest
first, GJK on each (``gjk.hull_distance``), until the next sphere gap is no smaller than
the smallest lower bound found (the others cannot go below it); a caller that only asks
whether the distance reaches ``stop`` lets the loop end as soon as a pair falls below.

Pure: NumPy, SciPy and numba only.
"""
import weakref
from collections import namedtuple

import numpy as np
from numba import njit

from .gjk import hull_distance as _hull_gjk

__all__ = ["PIECES", "Pieces", "decompose", "pieces_of", "pieces_distance",
           "pieces_proximity", "warm"]

#: slabs per non-convex solid
PIECES = 8

Pieces = namedtuple("Pieces", ["points", "offsets", "centres", "radii"])
Pieces.__doc__ = """Convex pieces of a solid's surface in its own frame [m]: the hull
vertices of all pieces stacked ``points`` (m, 3), piece ``i`` being
``points[offsets[i]:offsets[i + 1]]``; ``centres`` (p, 3), ``radii`` (p,) a sphere
around each."""

_CACHE = {}         # id(solid.points) -> (weak ref to the points, Pieces): twins share it


def _hull_vertices(points):
    from scipy.spatial import ConvexHull
    try:
        return points[ConvexHull(points).vertices]
    except Exception:  # noqa: BLE001 - flat or degenerate: all its points hold it
        return points


def decompose(points, triangles, count=PIECES):
    """``Pieces`` of the closed or open mesh ``points``, ``triangles`` (module docstring)."""
    from .geometry import subdivide
    points = np.asarray(points, dtype=float)
    _u, _s, vt = np.linalg.svd(points - points.mean(axis=0), full_matrices=False)
    axis = vt[0]
    s = points @ axis
    lo, length = float(s.min()), float(s.max() - s.min())
    parts = []
    if count <= 1 or length <= 0.0:
        parts.append(_hull_vertices(points))
    else:
        width = length / count
        pts, tris = subdivide(points, triangles, width, max_rounds=24)
        slab = np.clip(((pts[tris].mean(axis=1) @ axis - lo) / width).astype(np.int64),
                       0, count - 1)
        for k in range(count):
            mine = tris[slab == k]
            if len(mine):
                parts.append(_hull_vertices(pts[np.unique(mine)]))
    offsets = np.cumsum([0] + [len(p) for p in parts]).astype(np.int64)
    centres = np.array([0.5 * (p.min(axis=0) + p.max(axis=0)) for p in parts])
    radii = np.array([np.linalg.norm(p - c, axis=1).max() for p, c in zip(parts, centres)])
    return Pieces(np.ascontiguousarray(np.vstack(parts)), offsets, centres, radii)


def pieces_of(solid):
    """The ``Pieces`` of ``solid`` (one piece, its hull, for a convex solid), built once
    per mesh."""
    hit = _CACHE.get(id(solid.points))
    if hit is not None and hit[0]() is solid.points:
        return hit[1]
    if solid.convex:
        hp = np.ascontiguousarray(solid.hull_points)
        c = 0.5 * (hp.min(axis=0) + hp.max(axis=0))
        pieces = Pieces(hp, np.array([0, len(hp)], dtype=np.int64), c[None, :],
                        np.array([np.linalg.norm(hp - c, axis=1).max()]))
    else:
        pieces = decompose(solid.points, solid.triangles)
    key = id(solid.points)
    _CACHE[key] = (weakref.ref(solid.points), pieces)
    # dropped with the mesh (a parameter study makes new solids for every variant)
    weakref.finalize(solid.points, _CACHE.pop, key, None)
    return pieces


@njit(cache=True)
def _pieces_distance(va, offa, ca, rada, Ra, ra, vb, offb, cb, radb, Rb, rb, stop):
    na = offa.shape[0] - 1
    nb = offb.shape[0] - 1
    wa = np.empty((na, 3))
    wb = np.empty((nb, 3))
    for i in range(na):
        for j in range(3):
            wa[i, j] = ra[j] + Ra[j, 0] * ca[i, 0] + Ra[j, 1] * ca[i, 1] + Ra[j, 2] * ca[i, 2]
    for i in range(nb):
        for j in range(3):
            wb[i, j] = rb[j] + Rb[j, 0] * cb[i, 0] + Rb[j, 1] * cb[i, 1] + Rb[j, 2] * cb[i, 2]
    gap = np.empty(na * nb)
    for i in range(na):
        for j in range(nb):
            d0 = wa[i, 0] - wb[j, 0]
            d1 = wa[i, 1] - wb[j, 1]
            d2 = wa[i, 2] - wb[j, 2]
            gap[i * nb + j] = max(np.sqrt(d0 * d0 + d1 * d1 + d2 * d2) - rada[i] - radb[j],
                                  0.0)
    order = np.argsort(gap)
    best = np.inf
    upper = np.inf
    pa = np.zeros(3)
    pb = np.zeros(3)
    for n in range(order.shape[0]):
        idx = order[n]
        if gap[idx] >= best:
            break
        i = idx // nb
        j = idx - i * nb
        lo, up, p, q = _hull_gjk(va[offa[i]:offa[i + 1]], Ra, ra, vb[offb[j]:offb[j + 1]],
                                 Rb, rb)
        if lo < best:
            best, upper, pa, pb = lo, up, p, q
        if best < stop:
            break
    return best, upper, pa, pb


def pieces_distance(a, pose_a, b, pose_b, stop=-np.inf):
    """``(lower, upper, point_a, point_b)`` of the closest pair of pieces of solids ``a``,
    ``b`` at poses ``(r, A)``: ``lower`` bounds the distance from below where the two
    hulls are apart (module docstring); the points (world) are that pair's GJK points
    at ``upper``. With ``stop``, a ``lower`` below ``stop`` may be any pair's (the
    answer is only that the distance may be below ``stop``)."""
    pa_, pb_ = pieces_of(a), pieces_of(b)
    from .geometry import kernel_frame
    (Ra, ra), (Rb, rb) = kernel_frame(pose_a), kernel_frame(pose_b)
    return _pieces_distance(pa_.points, pa_.offsets, pa_.centres, pa_.radii, Ra, ra,
                            pb_.points, pb_.offsets, pb_.centres, pb_.radii, Rb, rb,
                            float(stop))


def pieces_proximity(a, pose_a, b, pose_b, hulls_apart):
    """The ``Proximity`` of two solids whose pieces are apart when the closest pieces'
    GJK points have points of the two surfaces no farther apart than the pieces' lower
    bound (``geometry``'s certificate), else None. Pieces apart keep the surfaces apart;
    the solids are then apart unless one lies inside the other, which the convex hulls
    apart (``hulls_apart``) rule out, or else world boxes of the two solids (around their
    hull vertices) neither of which holds the other."""
    from .geometry import hull_witnesses_on_surfaces, world_points
    lower, _upper, pa, pb = pieces_distance(a, pose_a, b, pose_b)
    if not lower > 0.0:
        return None
    if not hulls_apart:
        wa, wb = world_points(a.hull_points, pose_a), world_points(b.hull_points, pose_b)
        lo_a, hi_a, lo_b, hi_b = wa.min(axis=0), wa.max(axis=0), wb.min(axis=0), wb.max(axis=0)
        if np.all(lo_a <= lo_b) and np.all(hi_b <= hi_a) \
                or np.all(lo_b <= lo_a) and np.all(hi_a <= hi_b):
            return None                 # one may hold the other: the meshes tell
    return hull_witnesses_on_surfaces(a, pose_a, pa, b, pose_b, pb, lower)


def warm():
    """Compile the kernel into numba's on-disk cache (or load it)."""
    p = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    off = np.array([0, 4], dtype=np.int64)
    c = np.full((1, 3), 0.25)
    rad = np.array([1.0])
    _pieces_distance(p, off, c, rad, np.eye(3), np.zeros(3), p, off, c, rad, np.eye(3),
                     np.full(3, 3.0), -np.inf)


if __name__ == "__main__":
    warm()
