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

``penetration_depth`` answers overlapping hulls with the Expanding Polytope Algorithm
(G. van den Bergen, "Proximity queries and penetration depth computation on 3D game
objects", Game Developers Conference 2001; Ericson ch. 9): from GJK's tetrahedron holding
the origin it grows a polytope inside ``C`` towards ``C``'s boundary, one support point
per step along the normal of its face nearest the origin, until that face is a face of
``C`` within the tolerance. The nearest face's distance bounds the depth from below, the
support's reach along it from above (``C``'s supporting plane); both are returned.

Pure: NumPy and numba only.
"""
import numpy as np
from numba import njit

__all__ = ["hull_distance", "penetration_depth", "surface_point", "warm", "MAX_ITERATIONS"]

#: support steps before GJK stops with the bounds reached so far
MAX_ITERATIONS = 128
#: GJK stops once the two bounds are this close (relative, and absolute [m])
REL_TOL = 1e-12
ABS_TOL = 1e-15
#: EPA: at most this many points of the difference, faces and expansions; it stops once
#: the bounds of the depth are this close (absolute [m], and ``REL_TOL`` relative)
EPA_VERTICES = 256
EPA_FACES = 1024
EPA_ITERATIONS = 250
EPA_TOL = 1e-12
#: ``_gjk``'s outcomes
APART, INSIDE, TOUCH = range(3)


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
def _gjk(va, Ra, ra, vb, Rb, rb, W, WA, WB, lam):
    """GJK's walk over the difference of the two hulls (``hull_distance``'s arguments):
    fills the simplex ``W[:m]`` (the hulls' points ``WA``, ``WB``) and its weights
    ``lam``; returns ``(m, lower, state)``: ``state`` ``APART`` (the loop ended with 0
    outside the simplex), ``INSIDE`` (a tetrahedron holds 0: the hulls overlap) or
    ``TOUCH`` (the simplex's closest point is 0)."""
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
            return m, 0.0, TOUCH
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
            return m, min(lower, 0.0), INSIDE
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
    return m, lower, APART


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
    m, lower, state = _gjk(va, Ra, ra, vb, Rb, rb, W, WA, WB, lam)
    # the points of the current simplex point on each hull
    pa = np.zeros(3)
    pb = np.zeros(3)
    total = 0.0
    for i in range(m):
        total += lam[i]
    for i in range(m):
        pa += lam[i] / total * WA[i]
        pb += lam[i] / total * WB[i]
    if state == INSIDE:
        return lower, 0.0, pa, pa.copy()
    upper = np.sqrt(_dot(pa - pb, pa - pb))
    return min(lower, upper), upper, pa, pb


@njit(cache=True)
def _face(V, a, b, c, out):
    """Unit normal of the triangle ``V[a], V[b], V[c]`` (counter-clockwise) into ``out``;
    returns its offset ``n . V[a]`` (inf for a degenerate triangle)."""
    e1 = V[b] - V[a]
    e2 = V[c] - V[a]
    n0 = e1[1] * e2[2] - e1[2] * e2[1]
    n1 = e1[2] * e2[0] - e1[0] * e2[2]
    n2 = e1[0] * e2[1] - e1[1] * e2[0]
    ln = np.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
    if ln == 0.0:
        out[0] = out[1] = out[2] = 0.0
        return np.inf
    out[0], out[1], out[2] = n0 / ln, n1 / ln, n2 / ln
    return out[0] * V[a, 0] + out[1] * V[a, 1] + out[2] * V[a, 2]


@njit(cache=True)
def penetration_depth(va, Ra, ra, vb, Rb, rb):
    """Penetration depth of the convex hulls of ``va`` and ``vb`` (``hull_distance``'s
    arguments): the shortest translation that parts them (EPA).

    Returns ``(lower, upper, normal, point_a, point_b)``: ``lower <= depth <= upper``;
    moving hull A by ``-depth * normal`` (or B by ``+depth * normal``) makes them touch;
    ``point_a``, ``point_b``: the deepest points of each hull, ``point_a - point_b =
    lower * normal``. All zero when the hulls do not overlap."""
    V = np.zeros((EPA_VERTICES, 3))
    VA = np.zeros((EPA_VERTICES, 3))
    VB = np.zeros((EPA_VERTICES, 3))
    lam = np.zeros(4)
    m, _lower, state = _gjk(va, Ra, ra, vb, Rb, rb, V[:4], VA[:4], VB[:4], lam)
    zero = np.zeros(3)
    if state == APART:
        return 0.0, 0.0, zero, zero.copy(), zero.copy()
    # a tetrahedron of the difference holding 0 (GJK may stop on a smaller simplex)
    axes = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0],
                     [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])
    n = np.zeros(3)
    k = 0
    while m < 4 and k < 12:
        if m == 1:
            d = axes[k % 6].copy()
        elif m == 2:
            e = V[1] - V[0]
            a = axes[k % 3]
            d = np.array([e[1] * a[2] - e[2] * a[1], e[2] * a[0] - e[0] * a[2],
                          e[0] * a[1] - e[1] * a[0]])
            if k >= 3:
                d = -d
        else:
            _face(V, 0, 1, 2, n)
            d = n.copy() if k % 2 == 0 else -n
        k += 1
        if _dot(d, d) == 0.0:
            continue
        sa = _support(va, Ra, ra, d[0], d[1], d[2])
        sb = _support(vb, Rb, rb, -d[0], -d[1], -d[2])
        w = sa - sb
        # a new point only when it leaves the simplex's line or plane
        if m == 3:
            if abs(_dot(n, w - V[0])) <= 1e-12 * (1.0 + np.sqrt(_dot(w, w))):
                continue
        elif m == 2:
            e = V[1] - V[0]
            c = np.array([e[1] * (w[2] - V[0, 2]) - e[2] * (w[1] - V[0, 1]),
                          e[2] * (w[0] - V[0, 0]) - e[0] * (w[2] - V[0, 2]),
                          e[0] * (w[1] - V[0, 1]) - e[1] * (w[0] - V[0, 0])])
            if _dot(c, c) <= 1e-24 * (1.0 + _dot(e, e) * _dot(w, w)):
                continue
        elif _dot(w - V[0], w - V[0]) <= 1e-24 * (1.0 + _dot(w, w)):
            continue
        V[m], VA[m], VB[m] = w, sa, sb
        m += 1
    if m < 4:               # a flat difference: no volume to part
        return 0.0, 0.0, zero, zero.copy(), zero.copy()
    F = np.zeros((EPA_FACES, 3), dtype=np.int64)
    N = np.zeros((EPA_FACES, 3))
    D = np.zeros(EPA_FACES)
    alive = np.zeros(EPA_FACES, dtype=np.bool_)
    centre = 0.25 * (V[0] + V[1] + V[2] + V[3])
    nf = 0
    for f in ((0, 1, 2), (0, 3, 1), (0, 2, 3), (1, 3, 2)):
        a, b, c = f
        D[nf] = _face(V, a, b, c, N[nf])
        if _dot(N[nf], V[a] - centre) < 0.0:       # turn it outwards
            b, c = c, b
            D[nf] = _face(V, a, b, c, N[nf])
        F[nf, 0], F[nf, 1], F[nf, 2] = a, b, c
        alive[nf] = True
        nf += 1
    nv = 4
    edges = np.zeros((3 * EPA_FACES, 2), dtype=np.int64)
    best = 0
    upper = np.inf
    for _ in range(EPA_ITERATIONS):
        best = -1
        for i in range(nf):
            if alive[i] and (best < 0 or D[i] < D[best]):
                best = i
        nb = N[best]
        sa = _support(va, Ra, ra, nb[0], nb[1], nb[2])
        sb = _support(vb, Rb, rb, -nb[0], -nb[1], -nb[2])
        w = sa - sb
        reach = _dot(nb, w)          # the support of the difference along the face
        upper = min(upper, reach)
        if reach - D[best] <= REL_TOL * max(reach, 0.0) + EPA_TOL or nv == EPA_VERTICES:
            break
        V[nv], VA[nv], VB[nv] = w, sa, sb
        # remove the faces w sees; their edges not shared between two of them: the horizon
        ne = 0
        for i in range(nf):
            if alive[i] and _dot(N[i], w - V[F[i, 0]]) > 0.0:
                alive[i] = False
                for j in range(3):
                    a, b = F[i, j], F[i, (j + 1) % 3]
                    shared = -1
                    for q in range(ne):
                        if edges[q, 0] == b and edges[q, 1] == a:
                            shared = q
                    if shared >= 0:         # seen from both sides: inside the hole
                        edges[shared] = edges[ne - 1]
                        ne -= 1
                    else:
                        edges[ne, 0], edges[ne, 1] = a, b
                        ne += 1
        if nf + ne > EPA_FACES:
            break
        for q in range(ne):
            a, b = edges[q, 0], edges[q, 1]
            F[nf, 0], F[nf, 1], F[nf, 2] = a, b, nv
            D[nf] = _face(V, a, b, nv, N[nf])
            alive[nf] = True
            nf += 1
        nv += 1
    # the closest point of the difference to 0: on the face's plane at depth * normal, in
    # that face or in a face of the same plane (a flat face of the difference comes in
    # triangles); its weights give the points of each hull
    depth = D[best]
    p = depth * N[best]
    wts = np.empty(3)
    tw = np.empty(3)
    miss = np.inf
    fb = best
    for i in range(nf):
        if not alive[i] or D[i] > depth + REL_TOL * abs(depth) + EPA_TOL:
            continue
        a, b, c = F[i, 0], F[i, 1], F[i, 2]
        _triangle(V[a] - p, V[b] - p, V[c] - p, tw)
        q = tw[0] * V[a] + tw[1] * V[b] + tw[2] * V[c] - p
        if _dot(q, q) < miss:
            miss = _dot(q, q)
            fb = i
            wts[:] = tw
    a, b, c = F[fb, 0], F[fb, 1], F[fb, 2]
    pa = wts[0] * VA[a] + wts[1] * VA[b] + wts[2] * VA[c]
    pb = wts[0] * VB[a] + wts[1] * VB[b] + wts[2] * VB[c]
    return depth, max(upper, depth), N[best].copy(), pa, pb


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
    penetration_depth(p, R, r, p, R, np.array([0.1, 0.1, 0.1]))
    surface_point(p, np.array([[0, 1, 2]], dtype=np.int64), R, r, np.ones(3))


if __name__ == "__main__":
    warm()
