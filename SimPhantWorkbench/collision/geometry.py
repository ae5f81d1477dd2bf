"""The narrow phase: signed distance of two solids given as triangle meshes.

A ``Solid`` is a body's tessellation in the body's own frame (for a moving body about
its CoG, as ``output.mesh.Mesh`` keeps it; a fixed body's in world axes, pose
identity). ``proximity(a, pose_a, b, pose_b)`` answers, at poses ``(r, A)`` (world
position of the frame's origin [m], rotation body -> world):

* apart: the clearance, the shortest distance between the two surfaces, with the two
  closest points. First the distance of the two meshes' convex hulls (GJK,
  ``hull_distance``), a lower bound of the clearance: for two convex solids it is the
  clearance; for others too when two points of the two surfaces are found that far
  apart (the meshes' points nearest the hulls' closest points, or nearest one another
  from there: faces that face each other). Otherwise FCL's distance between
  bounding-volume hierarchies of the triangles (``mesh_proximity``, exact for the
  meshes);
* overlapping (the surfaces cross, or one solid lies inside the other): minus the
  penetration depth, the shortest translation that separates the two solids. When both
  solids are convex (their mesh is its own convex hull) the Expanding Polytope Algorithm
  on their hulls (``gjk.penetration_depth``; FCL's signed distance where they only touch)
  gives it exactly, with the deepest points of each. Otherwise it is estimated from
  below by the intrusion depth: the largest distance from a surface sample of one solid
  lying inside the other to that other solid's surface (moving the sample out of the
  other solid takes at least that far). The samples are the mesh's vertices and the
  midpoints added until no edge is longer than ``spacing``; the distance to a surface
  changing no faster than the point moves, the intrusion depth of the whole surface is
  at most ``spacing / sqrt(3)`` more. For a shallow overlap of faces it is the depth.
  Witness points: the deepest point and its closest point on the other surface.

Whether a point ``p`` is inside a closed mesh is told by the sign of ``(p - q) . n``, ``q``
its closest surface point and ``n`` the angle-weighted pseudo-normal of the feature
holding ``q`` (J. A. Baerentzen, H. Aanaes, "Signed distance computation using the angle
weighted pseudonormal", IEEE TVCG 11 (2005) 243-253): the face normal inside a triangle,
the sum of the two faces' normals on an edge, the normals of the faces around a vertex
weighted by their angles there. The normal of whichever triangle holds a ``q`` on an edge
or a vertex can give the wrong sign: a point in the plane of a face beside the edge
(flush faces, ``(p - q) . n = 0`` to rounding), or off a sharp edge whose other face
turns its normal more than 90 degrees away. With the pseudo-normal the sign is right for
every point of a closed, consistently oriented, manifold mesh. (An open mesh is a
surface that can cross others but holds no inside.)
"""
from collections import namedtuple

import numpy as np

from . import require

__all__ = ["Solid", "Proximity", "proximity", "overlapping", "world_points", "subdivide",
           "world_box", "hull_distance", "mesh_proximity", "convex_hull", "mesh_volume",
           "hull_witnesses_on_surfaces", "kernel_frame", "pseudo_normals",
           "barycentric_rows"]

#: at most this many surface samples per solid for the penetration depth: a finer
#: ``spacing`` is coarsened until the samples fit
MAX_SAMPLES = 6000

#: a closest surface point whose barycentric coordinate on its triangle is at most this
#: is on the opposite edge (on a vertex with two of them): within rounding of it. The
#: pseudo-normal of an edge holds the sign of a point over either face beside it (the
#: faces are not folded onto one another), so a point taken as on the edge while just
#: inside the face is judged alike; so does a vertex's for the faces around it that lean
#: towards it (its pseudo-normal . their normal > 0: every face of a convex corner)
FEATURE_TOL = 1e-9


Proximity = namedtuple("Proximity", ["distance", "point_a", "point_b", "overlap"])
Proximity.__doc__ = """Signed distance of two solids at one instant.

distance : float [m], the clearance (> 0) or minus the penetration depth (<= 0)
point_a, point_b : (3,) world points [m]: the closest points (apart) or the deepest
    point and its closest point on the other surface (overlapping)
overlap : bool, the solids overlap (surfaces cross or one contains the other)
"""


def world_points(points, pose):
    """``points`` (n, 3) of a body's frame in world axes at ``pose = (r, A)``."""
    r, A = pose
    return np.asarray(r, dtype=float) + np.asarray(points, dtype=float) @ np.asarray(A).T


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


def _surface_samples(points, triangles, spacing):
    """Vertices plus edge midpoints until no edge is longer than ``spacing`` (coarsened
    so that at most ``MAX_SAMPLES`` points result); (samples, spacing used)."""
    if len(triangles) == 0:
        return points.copy(), 0.0
    p = points[triangles]
    area = 0.5 * np.linalg.norm(np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]), axis=1).sum()
    longest = max(float(np.linalg.norm(p[:, 1] - p[:, 0], axis=1).max()),
                  float(np.linalg.norm(p[:, 2] - p[:, 1], axis=1).max()),
                  float(np.linalg.norm(p[:, 0] - p[:, 2], axis=1).max()))
    spacing = float(spacing) if spacing and spacing > 0 else longest
    # about 2 area / spacing^2 vertices for a mesh with edges of ``spacing``
    spacing = max(spacing, np.sqrt(2.0 * area / MAX_SAMPLES))
    if longest <= spacing:
        return points.copy(), longest
    pts, _ = subdivide(points, triangles, spacing, max_rounds=24)
    # midpoints of shared edges appear once per side: keep each position once
    return np.unique(np.round(pts, 12), axis=0), spacing


class Solid:
    """A body's triangle mesh for the distance queries, in the body's own frame [m].

    ``points`` (k, 3), ``triangles`` (m, 3) counter-clockwise seen from outside;
    ``closed``: the triangles bound a solid (else only its surface counts);
    ``spacing`` [m]: the largest gap between the surface samples of the penetration
    depth (default: the mesh's own vertices only). ``name``/``label``: the body's
    result name and label, carried for the reports.
    """

    def __init__(self, points, triangles, closed=True, spacing=None, name=None, label=None):
        fcl = require()
        self.points = np.ascontiguousarray(points, dtype=float).reshape(-1, 3)
        self.triangles = np.ascontiguousarray(triangles, dtype=np.int64).reshape(-1, 3)
        if len(self.triangles) == 0:
            raise ValueError("solid %r has no triangles" % (label or name,))
        self.closed = bool(closed)
        self.name, self.label = name, label
        #: largest distance of a vertex from the frame's origin [m]
        self.radius = float(np.linalg.norm(self.points, axis=1).max())
        self.lo, self.hi = self.points.min(axis=0), self.points.max(axis=0)
        p = self.points[self.triangles]
        n = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
        self.normals = n / np.maximum(np.linalg.norm(n, axis=1), 1e-300)[:, None]
        #: the inside test's pseudo-normals of the triangles' edges and of the vertices,
        #: and the rows giving a point's barycentric coordinates on each triangle
        #: (``pseudo_normals``, ``barycentric_rows``; closed meshes only)
        self._edge_normals = self._vertex_normals = self._barycentric = None
        if self.closed:
            self._edge_normals, self._vertex_normals = pseudo_normals(
                self.points, self.triangles, self.normals)
            self._barycentric = barycentric_rows(self.points, self.triangles)
        self.samples, self.spacing = _surface_samples(self.points, self.triangles, spacing)
        model = fcl.BVHModel()
        model.beginModel(len(self.points), len(self.triangles))
        model.addSubModel(self.points, self.triangles.astype(np.int32))
        model.endModel()
        self._model = model
        self._object = fcl.CollisionObject(model, fcl.Transform())
        self._probe = fcl.CollisionObject(fcl.Sphere(0.0), fcl.Transform())
        #: the vertices of the mesh's convex hull (GJK's ``hull_distance``: a lower bound
        #: of the distance, exact for convex solids)
        hull, convex = convex_hull(self.points, mesh_volume(self.points, self.triangles))
        # a flat or degenerate point set keeps all its points (their hull is still theirs)
        self.hull_points = np.ascontiguousarray(self.points if hull is None
                                                else self.points[hull.vertices])
        #: the mesh is its own convex hull (then the depth is exact: ``proximity``)
        self.convex = self.closed and convex
        self._hull = self._convex = None
        if self.convex:
            faces = np.hstack([np.full((len(self.triangles), 1), 3),
                               self.triangles]).astype(np.int32).ravel()
            self._convex = fcl.Convex(self.points, len(self.triangles), faces)
            self._hull = fcl.CollisionObject(self._convex, fcl.Transform())

    def named(self, name, label):
        """A ``Solid`` of the same mesh for another body (``name``, ``label``): the arrays,
        the hull and FCL's models shared, FCL objects of its own (a pair of two such
        solids places both at once)."""
        fcl = require()
        twin = object.__new__(Solid)
        twin.__dict__.update(self.__dict__)
        twin.name, twin.label = name, label
        twin._object = fcl.CollisionObject(self._model, fcl.Transform())
        twin._probe = fcl.CollisionObject(fcl.Sphere(0.0), fcl.Transform())
        if self._convex is not None:
            twin._hull = fcl.CollisionObject(self._convex, fcl.Transform())
        return twin

    def __getstate__(self):       # sent to parameter-study workers: the arrays only
        return dict(points=self.points, triangles=self.triangles, closed=self.closed,
                    spacing=self.spacing or None, name=self.name, label=self.label)

    def __setstate__(self, state):
        self.__init__(**state)

    def placed(self, pose, hull=False):
        """The FCL object of this solid (its convex one with ``hull``) at ``pose`` (r, A)."""
        fcl = require()
        r, A = pose
        obj = self._hull if hull else self._object
        obj.setTransform(fcl.Transform(np.asarray(A, dtype=float), np.asarray(r, dtype=float)))
        return obj

    def surface_point(self, local):
        """(closest surface point (3,), distance, inside) of a point given in this
        solid's own frame (``surface_points`` of one point)."""
        q, d, inside = self.surface_points(np.reshape(local, (1, 3)))
        return q[0], float(d[0]), bool(inside[0])

    def surface_points(self, local):
        """(closest surface points (n, 3), distances (n,), inside (n,)) of the points
        ``local`` (n, 3) given in this solid's own frame (answered in that frame: FCL
        reports the mesh's closest point to a sphere in the mesh's frame). Inside: by the
        pseudo-normal of the closest point's feature (module docstring)."""
        fcl = require()
        self._object.setTransform(fcl.Transform())
        request = fcl.DistanceRequest(enable_nearest_points=True)
        local = np.asarray(local, dtype=float)
        q, d = np.empty_like(local), np.empty(len(local))
        tri = np.empty(len(local), dtype=np.int64)
        for i, p in enumerate(local):
            self._probe.setTranslation(p)
            result = fcl.DistanceResult()
            d[i] = fcl.distance(self._object, self._probe, request, result)
            q[i], tri[i] = result.nearest_points[0], result.b1
        inside = np.zeros(len(local), dtype=bool)
        if self.closed:
            k = np.nonzero((tri >= 0) & (tri < len(self.triangles)))[0]
            n = self._pseudo_normals_at(tri[k], q[k])
            inside[k] = (d[k] <= 0.0) | (((local[k] - q[k]) * n).sum(axis=1) < 0.0)
        return q, np.maximum(d, 0.0), inside

    def _pseudo_normals_at(self, t, q):
        """(n, 3): the pseudo-normals of the features of triangles ``t`` (n,) holding
        their points ``q`` (n, 3): the interior, an edge or a vertex by ``q``'s barycentric
        coordinates (module docstring)."""
        tri = self.triangles[t]
        lam = np.empty((len(t), 3))
        lam[:, 1:] = (self._barycentric[t] @ (q - self.points[tri[:, 0]])[:, :, None])[:, :, 0]
        lam[:, 0] = 1.0 - lam[:, 1] - lam[:, 2]
        small = lam <= FEATURE_TOL
        n = self.normals[t]
        if not small.any():                     # all in their triangles' interiors
            return n
        count = small.sum(axis=1)
        edge = np.nonzero(count == 1)[0]        # edge k + 1 (corners k + 1, k + 2) faces corner k
        n[edge] = self._edge_normals[t[edge], (np.argmax(small[edge], axis=1) + 1) % 3]
        corner = np.nonzero(count >= 2)[0]      # the corner whose coordinate is not small
        n[corner] = self._vertex_normals[tri[corner, np.argmin(small[corner], axis=1)]]
        return n


def pseudo_normals(points, triangles, normals):
    """Angle-weighted pseudo-normals (Baerentzen and Aanaes 2005) of a triangle mesh with
    unit face ``normals`` (m, 3): ``(edges, vertices)``, ``edges`` (m, 3, 3) the sum of the
    normals of the faces sharing edge k of triangle i (corner k to k + 1; both faces
    weighted by their angle pi there), ``vertices`` (len(points), 3) the sum of the normals
    of the faces around each vertex times their angle at it. Not normalised: only their
    sign against a direction counts."""
    tris = np.asarray(triangles, dtype=np.int64)
    corner = np.asarray(points, dtype=float)[tris]                 # (m, 3 corners, 3)
    e1 = np.roll(corner, -1, axis=1) - corner                       # to the next corner
    e2 = np.roll(corner, -2, axis=1) - corner                       # to the one after
    angle = np.arctan2(np.linalg.norm(np.cross(e1, e2), axis=2),
                       np.einsum("ijk,ijk->ij", e1, e2))
    weighted = (angle[:, :, None] * normals[:, None, :]).reshape(-1, 3)
    vertices = np.stack([np.bincount(tris.ravel(), weighted[:, j], minlength=len(points))
                         for j in range(3)], axis=1)
    ends = np.roll(tris, -1, axis=1)
    key = (np.minimum(tris, ends) * len(points) + np.maximum(tris, ends)).ravel()
    _key, edge = np.unique(key, return_inverse=True)
    face = np.repeat(normals, 3, axis=0)
    sums = np.stack([np.bincount(edge, face[:, j]) for j in range(3)], axis=1)
    return sums[edge].reshape(-1, 3, 3), vertices


def barycentric_rows(points, triangles):
    """(m, 2, 3): the rows ``M`` giving the barycentric coordinates ``(u, v) = M (q - a)`` of
    a point ``q`` of the plane of each triangle ``(a, b, c)`` (``q = a + u (b - a) +
    v (c - a)``); zero for a degenerate triangle (its points are taken at its corner a)."""
    p = np.asarray(points, dtype=float)[np.asarray(triangles)]
    e0, e1 = p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]
    a, b, c = (np.einsum("ij,ij->i", x, y)[:, None] for x, y in ((e0, e0), (e0, e1), (e1, e1)))
    det = a * c - b * b
    det = np.where(det > 0.0, det, np.inf)
    return np.stack([(c * e0 - b * e1) / det, (a * e1 - b * e0) / det], axis=1)


def mesh_volume(points, triangles):
    """The volume a closed, outward-wound triangle mesh encloses (divergence theorem)."""
    p = np.asarray(points, dtype=float)[np.asarray(triangles)]
    return float(np.einsum("ij,ij->i", p[:, 0], np.cross(p[:, 1], p[:, 2])).sum()) / 6.0


def convex_hull(points, volume, rel_tol=1e-9):
    """(SciPy's ``ConvexHull`` of ``points`` (n, 3), or None for a flat or degenerate set;
    the solid of ``volume`` whose surface holds these points is convex).

    A solid whose surface points these are is convex when its volume is not short of the
    hull's by more than ``rel_tol`` relative (a dent or a notch of the surface leaves room
    between the two; Qhull builds the hull in O(n log n), where testing every point against
    every face plane costs points x faces). The hull of a convex solid's tessellation lies
    inside the solid, so a solid's exact volume may exceed it; a mesh's own volume
    (``mesh_volume``) can only equal it."""
    from scipy.spatial import ConvexHull
    try:
        hull = ConvexHull(np.asarray(points, dtype=float))
    except Exception:  # noqa: BLE001 - flat or degenerate: no volume to hold
        return None, False
    return hull, bool(hull.volume > 0.0 and volume >= (1.0 - rel_tol) * hull.volume)


def _inside_samples(a, pose_a, b, pose_b):
    """The deepest of ``a``'s surface samples inside ``b``: (depth, point, point on b),
    world points; depth 0 and None points with no sample inside."""
    best = (0.0, None, None)
    if not b.closed:
        return best
    rb, Ab = (np.asarray(x, dtype=float) for x in pose_b)
    local = (world_points(a.samples, pose_a) - rb) @ Ab      # into b's frame
    within = np.all((local >= b.lo) & (local <= b.hi), axis=1)
    if not within.any():
        return best
    local = local[within]
    q, d, inside = b.surface_points(local)
    d = np.where(inside, d, 0.0)
    k = int(np.argmax(d))
    if d[k] <= 0.0:
        return best
    return float(d[k]), rb + Ab @ local[k], rb + Ab @ q[k]


def overlapping(a, pose_a, b, pose_b):
    """The two solids overlap at these poses: their surfaces cross, or a vertex of one
    lies inside the other (containment)."""
    fcl = require()
    oa, ob = a.placed(pose_a), b.placed(pose_b)
    if fcl.collide(oa, ob, fcl.CollisionRequest(), fcl.CollisionResult()):
        return True
    return _contains(a, pose_a, b, pose_b) or _contains(b, pose_b, a, pose_a)


def _contains(outer, pose_outer, inner, pose_inner):
    """One vertex of ``inner`` inside ``outer`` (called when the surfaces do not cross:
    then all of ``inner`` is inside or none of it)."""
    if not outer.closed:
        return False
    p = world_points(inner.points[:1], pose_inner)[0]
    local = (p - np.asarray(pose_outer[0])) @ np.asarray(pose_outer[1])
    if np.any(local < outer.lo) or np.any(local > outer.hi):
        return False
    return outer.surface_point(local)[2]


def _convex_proximity(a, pose_a, b, pose_b):
    """Penetration of two overlapping convex solids (FCL's EPA). Only for overlaps: FCL's
    GJK on convex shapes can stop short of the closest points of two parallel faces
    (15 mm apart reported as 21.2 mm), its distance between meshes does not."""
    fcl = require()
    result = fcl.DistanceResult()
    request = fcl.DistanceRequest(enable_nearest_points=True, enable_signed_distance=True)
    d = float(fcl.distance(a.placed(pose_a, hull=True), b.placed(pose_b, hull=True), request,
                           result))
    pa, pb = (np.asarray(x, dtype=float) for x in result.nearest_points)
    return Proximity(-min(-min(d, 0.0), _projected_overlap(a, pose_a, b, pose_b)), pa, pb,
                     True)


def _projected_overlap(a, pose_a, b, pose_b):
    """An upper bound of the penetration depth of two solids: the smallest overlap of
    their projections on the world axes and on either body's axes (moving one solid that
    far along such an axis parts the projections, hence the solids). FCL's EPA can
    answer far more for two faces that just touch (a 10 mm cube whose face lies on a
    block's face, 1 mm over its edge: 20 mm, the block's height, in one order of the
    pair, 0 in the other); this bound takes it back."""
    axes = np.vstack([np.eye(3), np.asarray(pose_a[1]).T, np.asarray(pose_b[1]).T])
    pa = world_points(a.points, pose_a) @ axes.T
    pb = world_points(b.points, pose_b) @ axes.T
    return max(float(np.minimum(pa.max(axis=0) - pb.min(axis=0),
                                pb.max(axis=0) - pa.min(axis=0)).min()), 0.0)


def world_box(r, A, lo, hi):
    """``(lo, hi)``: the world axis-aligned box around the body-frame box ``lo``..``hi``
    at the pose ``(r, A)`` -- or, with ``r`` (n, 3) and ``A`` (n, 3, 3), at each of n
    poses ((n, 3) each). It holds every point of the body-frame box."""
    A = np.asarray(A, dtype=float)
    c = np.asarray(r, dtype=float) + A @ (0.5 * (lo + hi))
    e = np.abs(A) @ (0.5 * (hi - lo))
    return c - e, c + e


def _boxes_apart(a, pose_a, b, pose_b):
    """The world axis-aligned boxes around the two solids' body-frame boxes are
    disjoint (then the solids can neither cross nor contain one another)."""
    lo_a, hi_a = world_box(pose_a[0], pose_a[1], a.lo, a.hi)
    lo_b, hi_b = world_box(pose_b[0], pose_b[1], b.lo, b.hi)
    return bool(np.any(lo_b > hi_a) or np.any(lo_a > hi_b))


def hull_distance(a, pose_a, b, pose_b):
    """``(lower, upper, point_a, point_b)``: bounds of the distance between the convex
    hulls of solids ``a`` and ``b`` at poses ``(r, A)`` and the hull points (world) at
    ``upper`` (GJK, ``gjk.hull_distance``). ``lower`` bounds the solids' distance from
    below too (each solid lies in its hull); it is not > 0 when the hulls overlap."""
    return _gjk().hull_distance(a.hull_points, *kernel_frame(pose_a),
                                b.hull_points, *kernel_frame(pose_b))


def proximity(a, pose_a, b, pose_b, hull=None):
    """The ``Proximity`` of solids ``a`` and ``b`` at poses ``(r, A)`` (see the module
    docstring). Two convex solids whose hulls are apart get GJK's distance
    (``hull_distance``, or ``hull`` when the caller has it: its ``upper``, the distance of
    two surface points, within 1e-12 relative of the exact one) without FCL; when they
    overlap by more than touching, minus the depth of their hulls (EPA,
    ``gjk.penetration_depth``), also without FCL."""
    lower, upper, pa, pb = hull_distance(a, pose_a, b, pose_b) if hull is None else hull
    if a.convex and b.convex and lower <= 0.0:
        # overlapping convex solids: the depth of their hulls (EPA) without FCL
        depth, _up, _n, da, db = _gjk().penetration_depth(
            a.hull_points, *kernel_frame(pose_a), b.hull_points, *kernel_frame(pose_b))
        if depth > 0.0:
            return Proximity(-float(depth), da, db, True)
    if lower > 0.0:
        if a.convex and b.convex:
            return Proximity(float(upper), pa, pb, False)
        on_surfaces = hull_witnesses_on_surfaces(a, pose_a, pa, b, pose_b, pb, lower)
        if on_surfaces is not None:
            return on_surfaces
    if not (a.convex and b.convex):
        from .pieces import pieces_proximity         # numba, as hull_distance
        on_pieces = pieces_proximity(a, pose_a, b, pose_b, lower > 0.0)
        if on_pieces is not None:
            return on_pieces
    return mesh_proximity(a, pose_a, b, pose_b)


def hull_witnesses_on_surfaces(a, pose_a, pa, b, pose_b, pb, lower):
    """The ``Proximity`` of two solids whose hulls are ``lower`` > 0 apart when two
    points of their surfaces are found no farther apart than that (to 1e-9 relative):
    then the hulls' distance is the solids'. Tried: the meshes' points nearest GJK's
    closest hull points ``pa``, ``pb``; and, for faces that face each other where
    one hull point is off its solid (in a notch), the nearest point of one mesh and
    the other mesh's point nearest to it. None when no pair is that close."""
    surface_point = _gjk().surface_point
    fa, fb = kernel_frame(pose_a), kernel_frame(pose_b)
    qa = surface_point(a.points, a.triangles, *fa, pa)[1]
    qb = surface_point(b.points, b.triangles, *fb, pb)[1]
    pairs = ((qa, qb), (qa, None), (None, qb))
    for qa, qb in pairs:
        if qb is None:
            qb = surface_point(b.points, b.triangles, *fb, qa)[1]
        elif qa is None:
            qa = surface_point(a.points, a.triangles, *fa, qb)[1]
        d = float(np.sqrt(np.dot(qa - qb, qa - qb)))
        if d <= lower * (1.0 + 1e-9):
            return Proximity(d, qa, qb, False)
    return None


_GJK = []


def _gjk():
    """The ``gjk`` module, imported on the first use only: it needs numba, which what only
    reads results (``simphant doctor`` through ``output.mesh``) does without."""
    if not _GJK:
        from . import gjk
        _GJK.append(gjk)
    return _GJK[0]


def kernel_frame(pose):
    """(R, r) of ``pose`` (r, R) as contiguous float arrays, the kernels' order (copies:
    writable whatever the pose, one compiled variant of each kernel to load)."""
    return np.array(pose[1], dtype=float), np.array(pose[0], dtype=float)


def mesh_proximity(a, pose_a, b, pose_b):
    """``proximity`` by FCL's queries on the two meshes alone (no hull)."""
    fcl = require()
    oa, ob = a.placed(pose_a), b.placed(pose_b)
    result = fcl.DistanceResult()
    d = fcl.distance(oa, ob, fcl.DistanceRequest(enable_nearest_points=True), result)
    if d > 0.0 and _boxes_apart(a, pose_a, b, pose_b):
        crossing = contained = False
    else:
        crossing = d <= 0.0 or fcl.collide(oa, ob, fcl.CollisionRequest(),
                                           fcl.CollisionResult())
        contained = not crossing and (_contains(a, pose_a, b, pose_b)
                                      or _contains(b, pose_b, a, pose_a))
    if not crossing and not contained:
        pa, pb = (np.asarray(x, dtype=float) for x in result.nearest_points)
        return Proximity(float(d), pa, pb, False)
    if a.convex and b.convex:
        return _convex_proximity(a, pose_a, b, pose_b)
    depth_ab, pa, qb = _inside_samples(a, pose_a, b, pose_b)
    depth_ba, pb, qa = _inside_samples(b, pose_b, a, pose_a)
    if depth_ab >= depth_ba and pa is not None:
        return Proximity(-depth_ab, pa, qb, True)
    if pb is not None:
        return Proximity(-depth_ba, qa, pb, True)
    # the surfaces cross but no sample is inside: touching at the samples' resolution
    pa, pb = (np.asarray(x, dtype=float) for x in result.nearest_points)
    return Proximity(0.0, pa, pb, True)
