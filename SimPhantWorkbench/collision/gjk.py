"""Distance between the convex hulls of two point sets at given poses (GJK), in numba.

The Gilbert-Johnson-Keerthi algorithm (E. G. Gilbert, D. W. Johnson, S. S. Keerthi,
"A fast procedure for computing the distance between complex objects in
three-dimensional space", IEEE J. Robotics and Automation 4 (1988) 193-203; the
closest point of a simplex after C. Ericson, *Real-Time Collision Detection*, 2005,
sections 5.1.5 and 9.5) walks the Minkowski difference ``C = A - B`` of the two hulls
towards the origin, one support point per step. Each step gives both bounds of the
distance ``|z|min`` over ``C``:

* above: ``|v|``, the norm of the closest point ``v`` of the current simplex (a point of
  ``C``: the difference of two hull points, ``point_a - point_b``);
* below: ``v . w / |v|`` with ``w`` the support point of ``C`` in direction ``-v``
  (every ``z`` of ``C`` has ``v . z >= v . w``, hence ``|z| >= v . w / |v|``).

``hull_distance`` returns both; the lower bound is rigorous whenever the loop stops
(converged, stalled, or at the iteration cap), which is what a conservative search needs.
The hulls overlap (or touch) when the lower bound is not > 0.

Pure: NumPy and numba only.
"""
import numpy as np
from numba import njit

__all__ = ["hull_distance", "surface_point", "warm", "MAX_ITERATIONS"]

#: support steps before GJK stops with the bounds reached so far
MAX_ITERATIONS = 128
#: GJK stops once the two bounds are this close (relative, and absolute [m])
REL_TOL = 1e-12
ABS_TOL = 1e-15


@njit(cache=True)
def _support(verts, R, r, d0, d1, d2):
    """World point of ``verts`` (local, (n, 3)) at pose (r, R) farthest along d."""
    l0 = R[0, 0] * d0 + R[1, 0] * d1 + R[2, 0] * d2
    l1 = R[0, 1] * d0 + R[1, 1] * d1 + R[2, 1] * d2
    l2 = R[0, 2] * d0 + R[1, 2] * d1 + R[2, 2] * d2
    best = 0
    top = verts[0, 0] * l0 + verts[0, 1] * l1 + verts[0, 2] * l2
    for i in range(1, verts.shape[0]):
        s = verts[i, 0] * l0 + verts[i, 1] * l1 + verts[i, 2] * l2
        if s > top:
            top = s
            best = i
    out = np.empty(3)
    for j in range(3):
        out[j] = r[j] + R[j, 0] * verts[best, 0] + R[j, 1] * verts[best, 1] \
            + R[j, 2] * verts[best, 2]
    return out


@njit(cache=True)
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True)
def _segment(a, b, lam):
    """Barycentric weights (into lam[0:2]) of the point of segment ab nearest 0."""
    ab = b - a
    den = _dot(ab, ab)
    t = 0.0
    if den > 0.0:
        t = -_dot(a, ab) / den
        t = min(max(t, 0.0), 1.0)
    lam[0], lam[1] = 1.0 - t, t


@njit(cache=True)
def _triangle(a, b, c, lam):
    """Barycentric weights (lam[0:3]) of the point of triangle abc nearest 0
    (Ericson 5.1.5, the point p = 0)."""
    ab0, ab1, ab2 = b[0] - a[0], b[1] - a[1], b[2] - a[2]
    ac0, ac1, ac2 = c[0] - a[0], c[1] - a[1], c[2] - a[2]
    d1 = -(ab0 * a[0] + ab1 * a[1] + ab2 * a[2])
    d2 = -(ac0 * a[0] + ac1 * a[1] + ac2 * a[2])
    if d1 <= 0.0 and d2 <= 0.0:
        lam[0], lam[1], lam[2] = 1.0, 0.0, 0.0
        return
    d3 = -(ab0 * b[0] + ab1 * b[1] + ab2 * b[2])
    d4 = -(ac0 * b[0] + ac1 * b[1] + ac2 * b[2])
    if d3 >= 0.0 and d4 <= d3:
        lam[0], lam[1], lam[2] = 0.0, 1.0, 0.0
        return
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        v = d1 / (d1 - d3)
        lam[0], lam[1], lam[2] = 1.0 - v, v, 0.0
        return
    d5 = -(ab0 * c[0] + ab1 * c[1] + ab2 * c[2])
    d6 = -(ac0 * c[0] + ac1 * c[1] + ac2 * c[2])
    if d6 >= 0.0 and d5 <= d6:
        lam[0], lam[1], lam[2] = 0.0, 0.0, 1.0
        return
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        w = d2 / (d2 - d6)
        lam[0], lam[1], lam[2] = 1.0 - w, 0.0, w
        return
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and (d4 - d3) >= 0.0 and (d5 - d6) >= 0.0:
        w = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        lam[0], lam[1], lam[2] = 0.0, 1.0 - w, w
        return
    den = va + vb + vc
    if den == 0.0:          # degenerate (collinear) triangle: its edge ab
        _segment(a, b, lam)
        lam[2] = 0.0
        return
    v = vb / den
    w = vc / den
    lam[0], lam[1], lam[2] = 1.0 - v - w, v, w


@njit(cache=True)
def _det(a, b, c):
    return (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
            + a[2] * (b[0] * c[1] - b[1] * c[0]))


@njit(cache=True)
def _closest(W, m, lam):
    """Closest point to 0 of the simplex ``W[:m]``: fills ``lam[:m]`` (barycentric
    weights); returns False when 0 lies inside a full tetrahedron (overlap)."""
    if m == 1:
        lam[0] = 1.0
        return True
    if m == 2:
        _segment(W[0], W[1], lam)
        return True
    if m == 3:
        _triangle(W[0], W[1], W[2], lam)
        return True
    # tetrahedron: inside when 0 lies on the side of each face that holds the 4th vertex
    inside = True
    faces = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0))
    for f in faces:
        a, b, c, d = W[f[0]], W[f[1]], W[f[2]], W[f[3]]
        s_origin = _det(b - a, c - a, -a)
        s_vertex = _det(b - a, c - a, d - a)
        if not s_origin * s_vertex > 0.0:
            inside = False
    if inside:
        for i in range(4):
            lam[i] = 0.25
        return False
    best = np.inf
    tri = np.empty(3)
    for f in faces:
        _triangle(W[f[0]], W[f[1]], W[f[2]], tri)
        p = tri[0] * W[f[0]] + tri[1] * W[f[1]] + tri[2] * W[f[2]]
        q = _dot(p, p)
        if q < best:
            best = q
            for i in range(4):
                lam[i] = 0.0
            lam[f[0]], lam[f[1]], lam[f[2]] = tri[0], tri[1], tri[2]
    return True


@njit(cache=True)
def hull_distance(va, Ra, ra, vb, Rb, rb):
    """Distance between the convex hulls of ``va`` (body-frame points (n, 3)) at pose
    ``(ra, Ra)`` and ``vb`` at ``(rb, Rb)`` (world = r + R @ local).

    Returns ``(lower, upper, point_a, point_b)``: ``lower <= distance <= upper``,
    ``upper = |point_a - point_b|`` with ``point_a``, ``point_b`` world points of the two
    hulls; ``lower`` <= 0 when the hulls overlap or touch (then ``upper`` is 0 for an
    overlap found)."""
    W = np.empty((4, 3))
    WA = np.empty((4, 3))
    WB = np.empty((4, 3))
    lam = np.zeros(4)
    # start from the difference of the two frames' origins' direction
    d = ra - rb
    if _dot(d, d) == 0.0:
        d[0] = 1.0
    pa = _support(va, Ra, ra, -d[0], -d[1], -d[2])
    pb = _support(vb, Rb, rb, d[0], d[1], d[2])
    WA[0], WB[0] = pa, pb
    W[0] = pa - pb
    m = 1
    lam[0] = 1.0
    v = W[0].copy()
    lower = -np.inf
    for _ in range(MAX_ITERATIONS):
        vv = _dot(v, v)
        if vv == 0.0:
            lower = 0.0
            break
        nv = np.sqrt(vv)
        sa = _support(va, Ra, ra, -v[0], -v[1], -v[2])
        sb = _support(vb, Rb, rb, v[0], v[1], v[2])
        w = sa - sb
        lower = max(lower, _dot(v, w) / nv)
        if nv - lower <= REL_TOL * nv + ABS_TOL:
            break
        dup = False
        for i in range(m):
            if W[i, 0] == w[0] and W[i, 1] == w[1] and W[i, 2] == w[2]:
                dup = True
        if dup:
            break
        W[m], WA[m], WB[m] = w, sa, sb
        m += 1
        kept = lam.copy()
        apart = _closest(W, m, lam)
        if not apart:
            # 0 inside the tetrahedron: the hulls overlap
            lower = min(lower, 0.0)
            pa = lam[0] * WA[0] + lam[1] * WA[1] + lam[2] * WA[2] + lam[3] * WA[3]
            return lower, 0.0, pa, pa.copy()
        nvnew = np.zeros(3)
        for i in range(m):
            nvnew += lam[i] * W[i]
        if _dot(nvnew, nvnew) >= vv:
            # no progress (rounding): keep the previous simplex point
            m -= 1
            lam[:] = kept
            break
        # drop the vertices of zero weight
        k = 0
        for i in range(m):
            if lam[i] > 0.0:
                W[k], WA[k], WB[k] = W[i], WA[i], WB[i]
                lam[k] = lam[i]
                k += 1
        m = k
        v = nvnew
    # the points of the current simplex point on each hull
    pa = np.zeros(3)
    pb = np.zeros(3)
    total = 0.0
    for i in range(m):
        total += lam[i]
    for i in range(m):
        pa += lam[i] / total * WA[i]
        pb += lam[i] / total * WB[i]
    upper = np.sqrt(_dot(pa - pb, pa - pb))
    return min(lower, upper), upper, pa, pb


@njit(cache=True)
def surface_point(points, triangles, R, r, p):
    """``(distance, q)``: the point ``q`` (world) of the triangle mesh ``points`` /
    ``triangles`` (body frame, at pose (r, R)) nearest the world point ``p``, by every
    triangle in turn (Ericson 5.1.5): the check of a hull's witness point that lies on
    the surface."""
    # p into the body frame
    x = np.empty(3)
    for j in range(3):
        x[j] = R[0, j] * (p[0] - r[0]) + R[1, j] * (p[1] - r[1]) + R[2, j] * (p[2] - r[2])
    best = np.inf
    q = np.zeros(3)
    lam = np.zeros(3)
    a = np.empty(3)
    b = np.empty(3)
    c = np.empty(3)
    for t in range(triangles.shape[0]):
        i, j, k = triangles[t, 0], triangles[t, 1], triangles[t, 2]
        # the triangle's box alone is farther than the nearest so far: skip it
        gap = 0.0
        for m in range(3):
            lo = min(points[i, m], points[j, m], points[k, m]) - x[m]
            hi = max(points[i, m], points[j, m], points[k, m]) - x[m]
            if lo > 0.0:
                gap += lo * lo
            elif hi < 0.0:
                gap += hi * hi
        if gap >= best:
            continue
        for m in range(3):
            a[m] = points[i, m] - x[m]
            b[m] = points[j, m] - x[m]
            c[m] = points[k, m] - x[m]
        _triangle(a, b, c, lam)
        d = 0.0
        for m in range(3):
            y = lam[0] * a[m] + lam[1] * b[m] + lam[2] * c[m]
            d += y * y
        if d < best:
            best = d
            for m in range(3):
                q[m] = lam[0] * a[m] + lam[1] * b[m] + lam[2] * c[m] + x[m]
    out = np.empty(3)
    for j in range(3):
        out[j] = r[j] + R[j, 0] * q[0] + R[j, 1] * q[1] + R[j, 2] * q[2]
    return np.sqrt(best), out


def warm():
    """Compile the kernels into numba's on-disk cache (or load them from it), so that the
    first interference check does not wait for them (``make setup`` runs this)."""
    p = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    R, r = np.eye(3), np.zeros(3)
    hull_distance(p, R, r, p, R, np.array([3.0, 0.0, 0.0]))
    surface_point(p, np.array([[0, 1, 2]], dtype=np.int64), R, r, np.ones(3))


if __name__ == "__main__":
    warm()
