"""The convex pieces of a non-convex solid (``collision.pieces``): the smallest GJK
distance between the pieces of two solids is a lower bound of their distance (against
FCL's distance between the meshes, an independent implementation) on random poses of
non-convex and convex solids; it is tighter than the convex hulls' where a hull fills a
notch, and it answers the exact query there without FCL's mesh distance (only where two
surface points prove it)."""
import numpy as np
import pytest

from SimPhantWorkbench.collision import geometry, pieces
from SimPhantWorkbench.collision.geometry import Solid, proximity

from .test_collision import I3, MM, box
from .test_collision_hulls import (agrees_with_meshes, count_mesh_queries, hull_solid,
                                   l_solid, random_pose)


def dog_bone(length=50.0, boss=10.0, half_boss=6.0, half_bar=3.0, height=5.0, **kw):
    """A link [mm -> m]: a bar (``half_bar`` wide each side of the x axis) between two
    square bosses ``boss`` long and ``half_boss`` wide, extruded from z = 0 to
    ``height``; the caps triangulated per convex part (left boss, bar, right boss)."""
    x0, x1, x2, x3 = 0.0, boss, length - boss, length
    outline = [(x0, -half_boss), (x1, -half_boss), (x1, -half_bar), (x2, -half_bar),
               (x2, -half_boss), (x3, -half_boss), (x3, half_boss), (x2, half_boss),
               (x2, half_bar), (x1, half_bar), (x1, half_boss), (x0, half_boss)]
    parts = [[0, 1, 2, 9, 10, 11], [2, 3, 8, 9], [3, 4, 5, 6, 7, 8]]   # convex, ccw
    n = len(outline)
    pts = np.array([(x, y, z) for z in (0.0, height) for x, y in outline]) * MM
    tris = []
    for part in parts:
        for k in range(1, len(part) - 1):
            tris.append((part[0], part[k + 1], part[k]))                 # bottom (-z)
            tris.append((n + part[0], n + part[k], n + part[k + 1]))     # top (+z)
    for k in range(n):
        j = (k + 1) % n
        tris += [(k, j, n + j), (k, n + j, n + k)]
    return Solid(pts, np.array(tris), **kw)


def fcl_distance(a, pose_a, b, pose_b):
    """FCL's distance between the two meshes (BVH, triangle against triangle)."""
    import fcl
    return float(fcl.distance(a.placed(pose_a), b.placed(pose_b), fcl.DistanceRequest(),
                              fcl.DistanceResult()))


def test_the_dog_bone_is_a_closed_nonconvex_solid():
    link = dog_bone()
    assert link.closed and not link.convex
    p = link.points[link.triangles]
    volume = np.einsum("ij,ij->i", p[:, 0], np.cross(p[:, 1], p[:, 2])).sum() / 6.0
    assert volume == pytest.approx((2 * 10 * 12 + 30 * 6) * 5 * MM ** 3, rel=1e-12)


@pytest.mark.parametrize("make", [dog_bone, l_solid], ids=["dog-bone", "L"])
def test_every_triangle_lies_in_the_hull_of_a_piece(make):
    """Each vertex of the solid and each point of its surface samples lies within 1e-12 m
    of the hull of some piece (its triangle's), checked with Qhull's facet planes."""
    from scipy.spatial import ConvexHull
    solid = make()
    pc = pieces.pieces_of(solid)
    assert len(pc.offsets) - 1 == pieces.PIECES
    hulls = [ConvexHull(pc.points[pc.offsets[i]:pc.offsets[i + 1]])
             for i in range(len(pc.offsets) - 1)]
    pts, tris = geometry.subdivide(solid.points, solid.triangles, 0.5 * MM)
    for q in pts[tris].mean(axis=1):                    # points all over the surface
        assert min(float((h.equations[:, :3] @ q + h.equations[:, 3]).max())
                   for h in hulls) <= 1e-12


def test_pieces_bound_the_distance_from_below_on_random_pairs():
    """300 random poses of two dog-bones, an L and a dog-bone, a dog-bone and a random
    convex polytope: wherever the convex hulls are apart, the pieces' lower bound is not
    above FCL's mesh distance, never below the hulls' and is the distance (within 1e-9)
    in many poses where the hulls' is not; ``proximity`` agrees with FCL."""
    rng = np.random.default_rng(3)
    tighter = apart = misread = 0
    for n in range(300):
        a = dog_bone() if n % 3 else l_solid()
        b = dog_bone() if n % 2 else hull_solid(rng.normal(size=(rng.integers(4, 40), 3))
                                                 * rng.uniform(0.005, 0.03, 3))
        pa, pb = random_pose(rng, 0.04), random_pose(rng, 0.04)
        hull = geometry.hull_distance(a, pa, b, pb)[0]
        if not hull > 0.0:
            continue
        apart += 1
        d = fcl_distance(a, pa, b, pb)
        assert d > 0.0
        lower, upper, wa, wb = pieces.pieces_distance(a, pa, b, pb)
        assert lower <= d * (1 + 1e-12) + 1e-15
        assert lower >= hull * (1 - 1e-12)
        assert np.linalg.norm(wa - wb) == pytest.approx(upper, rel=1e-9)
        if abs(lower - d) <= 1e-9 * d < abs(hull - d):
            tighter += 1
        p = proximity(a, pa, b, pb)
        if p.overlap:
            # (the containment test of ``mesh_proximity`` can take a point near an edge
            # of a convex polytope for inside: the normal of one face next to that edge)
            misread += 1
            continue
        assert d * (1 - 1e-12) <= p.distance <= d * (1 + 1e-9)
    assert apart > 150 and tighter > 10 and misread <= 3


def test_a_stop_ends_the_search_once_below_it():
    """With ``stop`` above the distance the answer is only below ``stop``; with ``stop``
    below it, the full lower bound."""
    a, b = dog_bone(), dog_bone()
    pa, pb = (np.zeros(3), I3), (np.array([0.0, 0.0, 10 * MM]), I3)
    full = pieces.pieces_distance(a, pa, b, pb)[0]
    assert full == pytest.approx(5 * MM, abs=1e-12)
    assert pieces.pieces_distance(a, pa, b, pb, stop=1.0)[0] < 1.0
    assert pieces.pieces_distance(a, pa, b, pb, stop=1 * MM)[0] == full


def test_links_in_parallel_slabs_need_no_mesh_query_where_the_hulls_fill_a_notch(
        monkeypatch):
    """Two dog-bones in parallel slabs 10 mm apart (5 mm clearance), the upper one
    turned about z so that its boss hangs over the lower one's notch: the hulls are
    closer than the links (the hull bridges the notch), the surface points cannot prove
    the hulls' distance; the pieces' can, and no FCL mesh distance is made. The same
    with the upper link shifted off in x and y: the answers are FCL's."""
    calls, real = count_mesh_queries(monkeypatch)
    lower_link, upper_link = dog_bone(), dog_bone()
    rng = np.random.default_rng(9)
    notch = 0
    for _ in range(60):
        angle = rng.uniform(-np.pi, np.pi)
        c, s = np.cos(angle), np.sin(angle)
        R = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
        pose = (np.array([rng.uniform(0, 50), rng.uniform(-30, 30),
                          rng.uniform(6.0, 12.0)]) * MM, R)
        base = (np.zeros(3), I3)
        ref = real(upper_link, pose, lower_link, base)
        calls.clear()
        if not agrees_with_meshes(proximity(upper_link, pose, lower_link, base), ref):
            continue
        hull = geometry.hull_distance(upper_link, pose, lower_link, base)[0]
        if 0.0 < hull < ref.distance * (1 - 1e-6):
            notch += 1
            assert calls == []
    assert notch > 5


def test_pieces_apart_prove_nothing_when_one_solid_may_hold_the_other(monkeypatch):
    """A 2 mm cube inside a dog-bone's boss, 1.5 mm above its bottom face: the surfaces
    are 1.5 mm apart, the solids overlap (containment). Even with pieces that report
    1.5 mm between the two bottom faces (a bound the surface points certify), the answer
    stays an overlap: the hulls overlap and the cube's box lies in the link's."""
    link = dog_bone()
    cube = Solid(*box((1 * MM,) * 3, centre=(5 * MM, 0.0, 2.5 * MM)))
    base = (np.zeros(3), I3)
    assert geometry.hull_distance(link, base, cube, base)[0] <= 0.0
    real = pieces.pieces_distance

    def apart(a, pa, b, pb, stop=-np.inf):
        if a is link:
            return (1.5 * MM, 1.5 * MM, np.array([5 * MM, 0.0, 0.0]),
                    np.array([5 * MM, 0.0, 1.5 * MM]))
        return real(a, pa, b, pb, stop)

    monkeypatch.setattr(pieces, "pieces_distance", apart)
    p = proximity(link, base, cube, base)
    assert p.overlap and p.distance < 0.0


def test_the_pieces_are_built_once_per_mesh_and_dropped_with_it():
    """A named twin shares its mesh's pieces; once the mesh is gone so are they."""
    import gc
    link = dog_bone(name="a", label="A")
    first = pieces.pieces_of(link)
    assert pieces.pieces_of(link.named("b", "B")) is first
    key = id(link.points)
    assert key in pieces._CACHE
    del link, first
    gc.collect()
    assert key not in pieces._CACHE
