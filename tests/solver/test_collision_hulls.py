"""The convex-hull side of the collision room: GJK's bounds on the distance of two
hulls against FCL's distance between the meshes (an independent implementation), on
random convex pairs and on faces that face each other or touch; the certificate that
turns a non-convex pair's hull distance into its distance (only where two surface
points prove it); and the search along a motion with non-convex solids whose hull
bounds must not hide a near miss or a pass between two samples."""
import math

import numpy as np
import pytest
from scipy.spatial import ConvexHull
from scipy.spatial.transform import Rotation

from SimPhantWorkbench.collision import along, geometry, gjk, motion
from SimPhantWorkbench.collision.geometry import Solid, mesh_proximity, proximity

from .test_collision import I3, MM, box, passing_boxes, rx, rz


def hull_solid(points):
    """The convex hull of ``points`` as a closed, outward ``Solid``."""
    hull = ConvexHull(points)
    tris = hull.simplices.copy()
    centre = points[hull.vertices].mean(axis=0)
    for k, t in enumerate(tris):
        q = points[t]
        if np.dot(np.cross(q[1] - q[0], q[2] - q[0]), q.mean(axis=0) - centre) < 0.0:
            tris[k] = t[::-1]
    return Solid(points, tris)


def prism(outline, height):
    """(points, triangles) of the polygon ``outline`` ((n, 2), counter-clockwise, any
    shape whose fan from vertex 0 stays inside) extruded from z = 0 to ``height``."""
    n = len(outline)
    pts = np.array([(x, y, z) for z in (0.0, height) for x, y in outline])
    tris = []
    for k in range(1, n - 1):
        tris += [(0, k + 1, k), (n, n + k, n + k + 1)]          # bottom (-z), top (+z)
    for k in range(n):
        j = (k + 1) % n
        tris += [(k, j, n + j), (k, n + j, n + k)]
    return pts, np.array(tris)


#: an L (20 x 20 mm, arms 10 mm wide), the reflex corner first so that its fan fills it
L_OUTLINE = np.array([(10, 10), (10, 20), (0, 20), (0, 0), (20, 0), (20, 10)]) * MM


def l_solid(**kw):
    return Solid(*prism(L_OUTLINE, 10 * MM), **kw)


def random_pose(rng, scale):
    return rng.normal(size=3) * scale, Rotation.random(random_state=rng).as_matrix()


def test_gjk_bounds_match_fcl_on_random_convex_pairs():
    """300 random convex polytopes (4 to 60 points, sizes 10 to 100 mm) at random poses:
    GJK's lower and upper bounds bracket FCL's mesh distance and agree with it within
    1e-9 relative; the pairs FCL finds overlapping have a lower bound <= 0."""
    rng = np.random.default_rng(7)
    apart = 0
    for _ in range(300):
        a = hull_solid(rng.normal(size=(rng.integers(4, 60), 3)) * rng.uniform(0.01, 0.1, 3))
        b = hull_solid(rng.normal(size=(rng.integers(4, 60), 3)) * rng.uniform(0.01, 0.1, 3))
        assert a.convex and b.convex
        pa, pb = random_pose(rng, 0.1), random_pose(rng, 0.1)
        lower, upper, wa, wb = geometry.hull_distance(a, pa, b, pb)
        ref = mesh_proximity(a, pa, b, pb)
        if ref.overlap:
            assert lower <= 0.0
            continue
        apart += 1
        d = ref.distance
        assert lower <= d * (1 + 1e-12) and upper >= d * (1 - 1e-12)
        assert abs(upper - d) <= 1e-9 * d and abs(lower - d) <= 1e-9 * d
        assert np.linalg.norm(wa - wb) == pytest.approx(upper, rel=1e-12)
        p = proximity(a, pa, b, pb)                          # the convex shortcut
        assert not p.overlap and abs(p.distance - d) <= 1e-9 * d and p.distance >= lower
    assert apart > 100


def test_gjk_on_faces_that_face_each_other_and_touch():
    """Two boxes face to face 15 mm apart, turned alike about the gap's axis (parallel
    faces: a whole area of closest points); the same edge to edge, crossed at 90 deg; a
    box resting on another (touching): no positive lower bound."""
    a = Solid(*box((10 * MM, 10 * MM, 5 * MM)))
    b = Solid(*box((10 * MM, 10 * MM, 10 * MM)))
    for angle in (0.0, 0.3, 1.0):
        R = rx(angle)
        lower, upper, wa, wb = geometry.hull_distance(a, (R @ [35 * MM, 3 * MM, 0.0], R),
                                                      b, (np.zeros(3), R))
        assert lower == pytest.approx(15 * MM, abs=1e-15)
        assert upper == pytest.approx(15 * MM, abs=1e-15)
    # two bars crossed at 90 deg, 2 mm between their edges (turned 45 deg about them)
    bar = Solid(*box((50 * MM, 5 * MM, 5 * MM)))
    tilt = rx(math.pi / 4)
    gap = 2 * MM + 2 * 5 * math.sqrt(2) * MM
    lower, upper, _, _ = geometry.hull_distance(bar, (np.zeros(3), tilt), bar,
                                                (np.array([0, 0, gap]), rz(math.pi / 2) @ tilt))
    assert lower == pytest.approx(2 * MM, abs=1e-12) and upper == pytest.approx(2 * MM,
                                                                                abs=1e-12)
    lower, upper, _, _ = geometry.hull_distance(b, (np.zeros(3), I3), a,
                                                (np.array([5 * MM, 0, 15 * MM]), I3))
    assert lower <= 1e-15 and upper == pytest.approx(0.0, abs=1e-15)
    p = proximity(b, (np.zeros(3), I3), a, (np.array([5 * MM, 0, 15 * MM]), I3))
    assert p.distance == pytest.approx(0.0, abs=1e-12)


def test_surface_point_matches_fcl():
    """The mesh point nearest a world point, by every triangle in turn, against FCL's
    (``Solid.surface_point``, in the solid's frame) for points around an L."""
    rng = np.random.default_rng(3)
    solid = l_solid()
    pose = random_pose(rng, 0.05)
    for _ in range(200):
        p = pose[0] + rng.normal(size=3) * 0.02
        d, q = gjk.surface_point(solid.points, solid.triangles, np.ascontiguousarray(pose[1]),
                                 pose[0], p)
        local = (p - pose[0]) @ pose[1]
        q_ref, d_ref, _inside = solid.surface_point(local)
        assert d == pytest.approx(np.linalg.norm(local - q_ref), abs=1e-12)
        assert np.linalg.norm(q - p) == pytest.approx(d, abs=1e-12)


def agrees_with_meshes(p, ref):
    """Assert that the ``Proximity`` ``p`` tells the overlap as FCL's ``ref`` does and,
    apart, its distance within 1e-9 relative, never below; True when apart."""
    assert p.overlap == ref.overlap
    if not ref.overlap:
        assert ref.distance * (1 - 1e-12) <= p.distance <= ref.distance * (1 + 1e-9)
    return not ref.overlap


def test_nonconvex_pairs_take_the_hull_distance_only_where_surface_points_prove_it():
    """Two Ls at random poses: ``proximity`` (hull first) gives FCL's mesh distance
    within 1e-9 relative, never below it; some answers come from the hulls, some need
    the meshes (a closest hull point in the other's notch)."""
    rng = np.random.default_rng(11)
    a, b = l_solid(), l_solid()
    assert not a.convex
    certified = needed_meshes = 0
    for _ in range(200):
        pa, pb = random_pose(rng, 0.03), random_pose(rng, 0.03)
        ref = mesh_proximity(a, pa, b, pb)
        if not agrees_with_meshes(proximity(a, pa, b, pb), ref):
            continue
        lower = geometry.hull_distance(a, pa, b, pb)[0]
        if lower > 0.0 and abs(lower - ref.distance) <= 1e-9 * ref.distance:
            certified += 1
        elif lower > 0.0:
            needed_meshes += 1
    assert certified > 20 and needed_meshes > 5
    # an L whose notch holds a small cube 2 mm clear of both inner faces: the hulls
    # overlap, the solids are 2 mm apart
    cube = Solid(*box((3 * MM,) * 3, centre=(15 * MM, 15 * MM, 5 * MM)))
    assert geometry.hull_distance(a, (np.zeros(3), I3), cube, (np.zeros(3), I3))[0] <= 0.0
    p = proximity(a, (np.zeros(3), I3), cube, (np.zeros(3), I3))
    assert not p.overlap and p.distance == pytest.approx(2 * MM, abs=1e-12)


def l_passing(times, y_mm):
    """The L (notch towards +x +y) moving along x at 0.1 m/s from x = -50 mm at
    y = ``y_mm``, past the fixed 20 mm cube centred at the origin (z = -5..5 mm on both):
    the L's lower arm (y 0..10 mm of its frame) meets the cube's +y face at y = 10 mm."""
    t = np.asarray(times, dtype=float)
    pos = np.stack([-0.06 + 0.1 * t, np.full_like(t, y_mm * MM), np.full_like(t, -5 * MM)],
                   axis=1)
    vel = np.tile([0.1, 0.0, 0.0], (len(t), 1))
    traj = motion.Trajectory(t, pos, np.broadcast_to(I3, (len(t), 3, 3)), vel)
    cube = Solid(*box((10 * MM,) * 3), label="cube")
    return l_solid(label="L", name="L"), traj, cube, motion.Trajectory.fixed(t)


@pytest.mark.parametrize("times", [np.linspace(0.0, 1.0, 41), [0.0, 0.1, 0.9, 1.0]],
                         ids=["sampled", "between-two-samples"])
def test_a_nonconvex_near_miss_and_pass_between_samples(times):
    """The L passes the cube 1 mm clear (y = 11 mm), then 2 mm deep (y = 8 mm), with
    samples far before and after the encounter: the hull bounds (positive while the L's
    frame is far off) must not hide the minimum, the interval or its depth."""
    resolution = 0.01 * MM
    a, ta, b, tb = l_passing(times, 11.0)
    rep = along.check_pair(a, ta, b, tb, resolution)
    assert not rep.interferes
    assert rep.min_distance == pytest.approx(1 * MM, abs=resolution)
    assert rep.min_distance >= 1 * MM - 1e-12
    assert rep.hull_queries > 0 or len(times) > 4      # probed between the samples
    # the L's x span is [x, x + 20] mm, x = 0.1 t - 60 mm: over the cube for t in [0.3, 0.7]
    assert 0.3 - 1e-3 <= rep.time_of_min <= 0.7 + 1e-3
    a, ta, b, tb = l_passing(times, 8.0)
    rep = along.check_pair(a, ta, b, tb, resolution)
    assert len(rep.intervals) == 1
    iv = rep.intervals[0]
    assert iv.start == pytest.approx(0.3, abs=resolution / 0.1)
    assert iv.end == pytest.approx(0.7, abs=resolution / 0.1)
    assert iv.max_depth == pytest.approx(2 * MM, abs=resolution)


def test_the_hull_bounds_keep_the_boxes_findings():
    """The passing boxes of ``test_collision`` (convex: GJK's distances) give the same
    interval with and without the samples in between."""
    for times in (np.linspace(0.0, 1.0, 41), [0.0, 0.2, 0.8, 1.0]):
        a, ta, b, tb = passing_boxes(times)
        rep = along.check_pair(a, ta, b, tb, 0.05 * MM)
        assert len(rep.intervals) == 1
        assert rep.intervals[0].max_depth == pytest.approx(3 * MM, abs=0.05 * MM)


def count_mesh_queries(monkeypatch):
    """(the list that records each FCL mesh distance ``proximity`` asks for, the real
    ``mesh_proximity``)."""
    calls = []
    real = geometry.mesh_proximity

    def counting(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(geometry, "mesh_proximity", counting)
    return calls, real


def test_nonconvex_solids_in_parallel_slabs_need_no_mesh_query(monkeypatch):
    """An L turned about z by any angle, its corner anywhere over a fixed L's 20 mm
    square, 10 mm above it (parallel slabs, as the links of a planar chain): where the
    two face each other (FCL's clearance 10 mm) the hulls prove it (two surface points
    that far apart) without FCL's mesh distance but in a few poses, also where a closest
    hull point lies in an L's notch; the search along such a motion finds it with one
    exact query and no mesh distance."""
    calls, real = count_mesh_queries(monkeypatch)
    top, base = l_solid(label="top", name="top"), l_solid(label="base")
    rng = np.random.default_rng(5)
    facing = 0
    for _ in range(100):
        angle = rng.uniform(-math.pi, math.pi)
        pose = (np.array([rng.uniform(0, 20), rng.uniform(0, 20), 20.0]) * MM, rz(angle))
        if abs(real(top, pose, base, (np.zeros(3), I3)).distance - 10 * MM) > 1e-12:
            continue
        facing += 1
        p = proximity(top, pose, base, (np.zeros(3), I3))
        assert not p.overlap and p.distance == pytest.approx(10 * MM, abs=1e-12)
        assert p.point_a[2] == pytest.approx(20 * MM) and p.point_b[2] == pytest.approx(10 * MM)
    assert facing > 60 and len(calls) <= facing // 15
    calls.clear()
    t = np.linspace(0.0, 2.0, 201)
    pos = np.stack([5 * MM + 0 * t, 5 * MM + 0 * t, np.full_like(t, 20 * MM)], axis=1)
    moving = motion.Trajectory(t, pos, np.array([rz(20.0 * x) for x in t]), 0 * pos)
    rep = along.check_pair(top, moving, base, motion.Trajectory.fixed(t), 0.1 * MM, 0.2 * MM)
    assert rep.min_distance == pytest.approx(10 * MM, abs=1e-12)
    assert not rep.interferes and rep.queries == 1 and calls == []


def test_the_compiled_probe_places_both_solids_as_the_interpolant():
    """``probe.hull_between`` (poses and GJK in one compiled call) against GJK at poses
    from SciPy's interpolants (the CoG's ``CubicHermiteSpline`` through the sampled
    positions and velocities, the attitude's ``Slerp``: rotation at a constant rate
    between two samples), a tumbling bar against a box moving on its own curve and
    against a fixed one, at the samples and between them."""
    from scipy.interpolate import CubicHermiteSpline
    from scipy.spatial.transform import Slerp

    from SimPhantWorkbench.collision import probe
    from .test_collision import tumbling_trajectory

    t = np.linspace(0.0, 1.5, 7)
    ta = tumbling_trajectory(t)
    tb = motion.Trajectory(t, np.stack([0.3 - 0.1 * t, 0.05 * t, 0 * t], axis=1),
                           Rotation.from_rotvec(np.outer(t, [0.0, 0.0, -1.2])).as_matrix(),
                           np.stack([-0.1 + 0 * t, 0.05 + 0 * t, 0 * t], axis=1))
    fixed = motion.Trajectory.fixed(t)
    bar = Solid(*box((40 * MM, 5 * MM, 3 * MM), centre=(10 * MM, 0, 0)), label="bar")
    cube = Solid(*box((10 * MM,) * 3, centre=(0.02, 0.01, 0.0)), label="cube")

    def reference(traj, time):
        if traj.is_fixed:
            return traj.pos[0], traj.A[0]
        r = CubicHermiteSpline(traj.t, traj.pos, traj.vel)(time)
        return r, Slerp(traj.t, Rotation.from_matrix(traj.A))([time]).as_matrix()[0]

    rng = np.random.default_rng(5)
    times = np.concatenate([t, rng.uniform(0.0, 1.5, 30)])
    lowers = []
    for other in (tb, fixed):
        for time in times:
            k = ta.segment(time)
            got = probe.hull_between(bar, ta, cube, other, k, time)
            pa, pb = reference(ta, time), reference(other, time)
            want = gjk.hull_distance(bar.hull_points, pa[1], pa[0], cube.hull_points,
                                     pb[1], pb[0])
            assert got[0] == pytest.approx(want[0], abs=1e-9), (time, other.is_fixed)
            assert got[1] == pytest.approx(want[1], abs=1e-9)
            np.testing.assert_allclose(got[2], want[2], atol=1e-9)
            lowers.append(got[0])
    assert min(lowers) < 0.05 < max(lowers)           # near and far instants both


def test_a_named_twin_shares_the_mesh_and_is_placed_on_its_own():
    """``Solid.named`` (two bodies of the same shape): the twin answers FCL's mesh
    queries against its original as a separately built solid does, at other poses,
    overlapping or apart (both placed at once in one query)."""
    a = l_solid(label="a", name="a")
    twin = a.named("b", "B")
    fresh = l_solid(label="B", name="b")
    assert (twin.label, twin.name, a.label) == ("B", "b", "a")
    assert twin.hull_points is a.hull_points
    for offset, angle in (((25 * MM, 3 * MM, 0.0), 0.3), ((12 * MM, 4 * MM, 2 * MM), 1.1)):
        pose_a, pose_b = (np.zeros(3), I3), (np.array(offset), rz(angle))
        got = mesh_proximity(a, pose_a, twin, pose_b)
        want = mesh_proximity(a, pose_a, fresh, pose_b)
        assert got.distance == pytest.approx(want.distance, abs=1e-12)
        assert got.overlap == want.overlap
    assert mesh_proximity(a, (np.zeros(3), I3), twin, (np.array([25 * MM, 3 * MM, 0.0]),
                                                        rz(0.3))).distance > 0.0
