"""The collision room: signed distance of two meshes (clearance, penetration depth,
containment, witness points), the interpolated motion between output samples, and the
search along a motion that finds interference between the samples too, against closed
forms (boxes on straight paths) and a dense brute-force reference (a rotating bar)."""
import math

import numpy as np
import pytest

from SimPhantWorkbench.collision import along, geometry, motion
from SimPhantWorkbench.collision.geometry import Solid, proximity

MM = 1e-3


def box(half, centre=(0.0, 0.0, 0.0)):
    """(points, triangles) of an axis-aligned box, outward counter-clockwise."""
    hx, hy, hz = half
    p = np.array([[sx * hx, sy * hy, sz * hz] for sx in (-1, 1) for sy in (-1, 1)
                  for sz in (-1, 1)]) + np.asarray(centre)
    # faces as quads of corner indices (x-major numbering: index = 4 ix + 2 iy + iz)
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4),
             (1, 5, 7, 3)]
    tris = []
    for a, b, c, d in quads:
        tris += [(a, b, c), (a, c, d)]
    tris = np.array(tris)
    # orient outward: the normal must point away from the centre
    for k, t in enumerate(tris):
        q = p[t]
        n = np.cross(q[1] - q[0], q[2] - q[0])
        if np.dot(n, q.mean(axis=0) - np.asarray(centre)) < 0:
            tris[k] = t[::-1]
    return p, tris


def rx(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def rz(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


I3 = np.eye(3)


def test_clearance_and_witness_points():
    a = Solid(*box((10 * MM, 10 * MM, 5 * MM)), label="A")
    b = Solid(*box((10 * MM, 10 * MM, 10 * MM)), label="B")
    p = proximity(a, (np.array([0.035, 0.0, 0.0]), I3), b, (np.zeros(3), I3))
    assert not p.overlap
    assert p.distance == pytest.approx(15 * MM, abs=1e-12)
    assert p.point_a[0] == pytest.approx(25 * MM) and p.point_b[0] == pytest.approx(10 * MM)


def test_penetration_depth_of_a_shallow_overlap():
    """A (20 x 20 x 10 mm) beside B (20 mm cube) 17 mm over in y: 3 mm deep once the x
    overlap exceeds 3 mm, the x overlap before that."""
    a = Solid(*box((10 * MM, 10 * MM, 5 * MM)))
    b = Solid(*box((10 * MM, 10 * MM, 10 * MM)))
    for x, depth in ((0.0, 3.0), (15.0, 3.0), (18.5, 1.5)):
        p = proximity(a, (np.array([x * MM, 17 * MM, 0.0]), I3), b, (np.zeros(3), I3))
        assert p.overlap
        assert -p.distance == pytest.approx(depth * MM, abs=1e-9), x
        assert np.linalg.norm(p.point_a - p.point_b) == pytest.approx(depth * MM, abs=1e-9)


#: corners and triangles of a box as FreeCAD tessellates it (``Part::Box``)
FC_TRIANGLES = np.array([[0, 1, 2], [2, 1, 3], [4, 5, 6], [4, 6, 7], [5, 4, 0], [0, 4, 1],
                         [7, 6, 2], [7, 2, 3], [2, 6, 0], [0, 6, 5], [7, 3, 1], [7, 1, 4]])


def fc_box(lo, hi):
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    return np.array([[x0, y0, z0], [x0, y0, z1], [x0, y1, z0], [x0, y1, z1], [x1, y0, z1],
                     [x1, y0, z0], [x1, y1, z0], [x1, y1, z1]]) * MM, FC_TRIANGLES


def test_faces_that_just_touch_are_no_deeper_than_their_projections_overlap():
    """A 10 mm cube whose face lies on a block's face (1e-14 m into it: rounding), 1 mm
    over the block's edge in y: depth 0 in either order of the pair (FCL's EPA alone says
    20 mm, the block's height, in one), and 1 mm once it moves 2 mm into the block; from
    the hulls' EPA (``proximity``) and from FCL's queries (``mesh_proximity``) alike."""
    cube = Solid(*fc_box((-5, -5, -5), (5, 5, 5)), label="Cube")
    block = Solid(*fc_box((-5, 9, -10), (5, 29, 20)), label="Block")
    assert cube.convex and block.convex
    for x, depth in ((10.0 - 1e-11, 0.0), (8.0, 1.0)):
        pose = (np.array([x, 5.0, 5.0]) * MM, I3)
        for query in (proximity, geometry.mesh_proximity):
            for p in (query(cube, pose, block, (np.zeros(3), I3)),
                      query(block, (np.zeros(3), I3), cube, pose)):
                assert p.overlap and -p.distance == pytest.approx(depth * MM, abs=1e-12), x


def test_containment_counts_as_overlap():
    """A small cube wholly inside a large one: the surfaces never cross."""
    a = Solid(*box((5 * MM,) * 3))
    b = Solid(*box((50 * MM,) * 3))
    p = proximity(a, (np.array([10 * MM, 0, 0]), I3), b, (np.zeros(3), I3))
    assert p.overlap
    assert -p.distance == pytest.approx(45 * MM, abs=1e-9)   # out through x = 50 mm
    assert geometry.overlapping(b, (np.zeros(3), I3), a, (np.array([10 * MM, 0, 0]), I3))
    far = proximity(a, (np.array([80 * MM, 0, 0]), I3), b, (np.zeros(3), I3))
    assert not far.overlap and far.distance == pytest.approx(25 * MM, abs=1e-9)


def test_the_pose_rotates_the_body_frame_into_world():
    """A box offset 4 mm along its body z, turned +90 deg about x: the offset goes to
    world -y (body -> world), so it clears a cube 15 mm away in +y by 15 - 10 + 4 mm."""
    a = Solid(*box((10 * MM, 5 * MM, 10 * MM), centre=(0, 0, 4 * MM)))
    b = Solid(*box((10 * MM,) * 3))
    p = proximity(a, (np.array([0.0, 25 * MM, 0.0]), rx(math.pi / 2)), b,
                  (np.zeros(3), I3))
    # a spans world y 25 - 4 -/+ 10 = [11, 31] mm; b reaches 10 mm
    assert p.distance == pytest.approx(1 * MM, abs=1e-9)


def passing_boxes(times):
    """A (20 x 20 x 10 mm) at y = 17 mm moving along x at 0.1 m/s from x = -50 mm,
    past the fixed 20 mm cube B: overlapping while |x| < 20 mm, t in (0.3, 0.7) s,
    3 mm deep while |x| <= 17 mm."""
    t = np.asarray(times, dtype=float)
    pos = np.stack([-0.05 + 0.1 * t, np.full_like(t, 17 * MM), np.zeros_like(t)], axis=1)
    vel = np.tile([0.1, 0.0, 0.0], (len(t), 1))
    traj_a = motion.Trajectory(t, pos, np.broadcast_to(I3, (len(t), 3, 3)), vel)
    a = Solid(*box((10 * MM, 10 * MM, 5 * MM)), label="A", name="A")
    b = Solid(*box((10 * MM,) * 3), label="B")
    return a, traj_a, b, motion.Trajectory.fixed(t)


@pytest.mark.parametrize("times", [np.linspace(0.0, 1.0, 41), [0.0, 0.2, 0.8, 1.0]],
                         ids=["sampled", "between-two-samples"])
def test_boxes_passing_interval_and_depth(times):
    resolution = 0.05 * MM
    a, ta, b, tb = passing_boxes(times)
    rep = along.check_pair(a, ta, b, tb, resolution)
    assert rep.interferes and len(rep.intervals) == 1
    iv = rep.intervals[0]
    # times to within the resolution of relative motion (0.1 m/s)
    assert iv.start == pytest.approx(0.3, abs=resolution / 0.1)
    assert iv.end == pytest.approx(0.7, abs=resolution / 0.1)
    assert rep.first_contact == iv.start
    assert iv.max_depth == pytest.approx(3 * MM, abs=resolution)
    assert 0.33 - resolution / 0.1 <= iv.time_of_max <= 0.67 + resolution / 0.1
    assert rep.min_distance == pytest.approx(-3 * MM, abs=resolution)
    assert rep.interference_time == pytest.approx(0.4, abs=2 * resolution / 0.1)


def test_a_near_miss_between_samples_gives_the_minimum_clearance():
    """A passes B 1 mm clear (y = 21 mm) with samples far before and after."""
    t = np.array([0.0, 0.2, 0.8, 1.0])
    a, ta, b, tb = passing_boxes(t)
    ta = motion.Trajectory(t, ta.pos + [0.0, 4 * MM, 0.0], ta.A, ta.vel)
    rep = along.check_pair(a, ta, b, tb, 0.01 * MM)
    assert not rep.interferes and math.isnan(rep.first_contact)
    assert rep.min_distance == pytest.approx(1 * MM, abs=0.01 * MM)
    assert 0.3 - 1e-3 <= rep.time_of_min <= 0.7 + 1e-3


def test_tolerance_drops_overlaps_no_deeper_than_it():
    a, ta, b, tb = passing_boxes(np.linspace(0.0, 1.0, 11))
    assert along.check_pair(a, ta, b, tb, 0.05 * MM, tolerance=3.5 * MM).intervals == []
    assert len(along.check_pair(a, ta, b, tb, 0.05 * MM, tolerance=2.5 * MM).intervals) == 1


def test_hermite_and_constant_rate_rotation_between_samples():
    """Uniform circular motion sampled every 30 deg: the interpolated CoG stays on the
    circle to O(h^4) and the rotation turns at the constant rate."""
    w, R = 2.0, 0.1
    t = np.arange(0.0, 1.0001, math.pi / 6 / w)
    pos = np.stack([R * np.cos(w * t), R * np.sin(w * t), 0 * t], axis=1)
    vel = np.stack([-R * w * np.sin(w * t), R * w * np.cos(w * t), 0 * t], axis=1)
    traj = motion.Trajectory(t, pos, np.array([rz(w * x) for x in t]), vel)
    for time in np.linspace(0.0, t[-1], 37):
        r, A = traj.pose(time)
        assert np.linalg.norm(r) == pytest.approx(R, rel=2e-4)
        assert np.allclose(A, rz(w * time), atol=1e-12)
    assert np.allclose(traj.omega, w)
    # a point 0.05 m from the CoG: speed R w + w 0.05 at most (within the Bezier bound)
    assert motion.speed_bound(traj, 0.05, motion.Trajectory.fixed(t), 0.0, 0) \
        >= R * w + 0.05 * w - 1e-12


@pytest.mark.parametrize("bar_first", [True, False], ids=["bar-cube", "cube-bar"])
def test_rotating_bar_matches_a_dense_brute_force_scan(bar_first):
    """A 100 mm bar turning about z at 1 rev/s, sampled every 45 deg, sweeps through a
    small fixed cube at 40 mm: the search finds what a scan every 0.1 deg finds (either
    solid first)."""
    w = 2 * math.pi
    t = np.arange(0.0, 1.0 + 1e-9, 1.0 / 8)
    traj = motion.Trajectory(t, np.zeros((len(t), 3)), np.array([rz(w * x) for x in t]),
                             np.zeros((len(t), 3)))
    bar = Solid(*box((50 * MM, 2 * MM, 2 * MM)), label="bar", name="bar")
    cube = Solid(*box((3 * MM,) * 3, centre=(0.0, 40 * MM, 0.0)), label="cube")
    fixed = motion.Trajectory.fixed(t)
    rep = along.check_pair(bar, traj, cube, fixed, 0.01 * MM) if bar_first \
        else along.check_pair(cube, fixed, bar, traj, 0.01 * MM)
    dense = np.linspace(0.0, 1.0, 3601)
    inside = np.array([proximity(bar, traj.pose(x), cube, fixed.pose(x)).overlap
                       for x in dense])
    edges = dense[1:][np.diff(inside.astype(int)) != 0]
    assert len(rep.intervals) == 2          # both ends of the bar pass the cube
    found = sorted([iv.start for iv in rep.intervals] + [iv.end for iv in rep.intervals])
    assert np.allclose(found, edges, atol=1.0 / 3600 + 1e-6)
    # speed at the cube ~ 0.25 m/s: 0.01 mm of resolution is 4e-5 s
    depths = [-proximity(bar, traj.pose(x), cube, fixed.pose(x)).distance
              for x in dense[inside]]
    assert rep.max_depth == pytest.approx(max(depths), abs=0.05 * MM)


def test_the_broad_phase_bounds_the_distance_from_below():
    """The gap between the world boxes never exceeds the exact distance (random poses of a
    turned bar and a box), and equals it for boxes turned by 90 deg apart along x."""
    rng = np.random.default_rng(7)
    bar = Solid(*box((50 * MM, 2 * MM, 5 * MM), centre=(10 * MM, 0, 0)), label="bar")
    cube = Solid(*box((8 * MM, 6 * MM, 4 * MM)), label="cube")
    n = 60
    t = np.linspace(0.0, 1.0, n)
    from scipy.spatial.transform import Rotation
    turns = Rotation.random(n, random_state=7).as_matrix()
    pos = rng.uniform(-0.08, 0.08, (n, 3))
    ta = motion.Trajectory(t, pos, turns, np.zeros((n, 3)))
    tb = motion.Trajectory.fixed(t)
    bounds = along.box_bounds(bar, ta, cube, tb)
    exact = np.array([proximity(bar, ta.pose(x), cube, tb.pose(x)).distance for x in t])
    assert np.all(bounds <= np.maximum(exact, 0.0) + 1e-12)
    assert np.count_nonzero(bounds > 0) > n // 3          # not a trivial bound
    # turned 90 deg about z: the bar (x -40 .. 60 mm about its frame) along world y from
    # 76 - 40 mm, 30 mm beyond the cube's face at 6 mm; its box is the bar itself
    tc = motion.Trajectory(t[:1], [[0.0, 0.076, 0.0]], [rz(math.pi / 2)])
    gap = along.box_bounds(bar, tc, cube, motion.Trajectory.fixed(t[:1]))[0]
    assert gap == pytest.approx(0.030, abs=1e-12)
    assert proximity(bar, tc.pose(0.0), cube, (np.zeros(3), I3)).distance \
        == pytest.approx(0.030, abs=1e-12)


def test_far_pairs_skip_the_exact_queries():
    t = np.linspace(0.0, 1.0, 201)
    a, ta, b, tb = passing_boxes(t)
    far = motion.Trajectory(t, ta.pos + [0.0, 1.0, 0.0], ta.A, ta.vel)
    rep = along.check_pair(a, far, b, tb, 0.05 * MM)
    assert rep.min_distance == pytest.approx(1.0 - 3 * MM, abs=0.05 * MM)
    assert rep.queries < 20


def test_solids_pickle_as_their_arrays():
    import pickle
    a = Solid(*box((10 * MM,) * 3), label="A", name="a", spacing=2 * MM)
    b = pickle.loads(pickle.dumps(a))
    assert b.label == "A" and np.array_equal(a.samples, b.samples)
    assert proximity(b, (np.array([0.05, 0, 0]), I3), a, (np.zeros(3), I3)).distance \
        == pytest.approx(0.03)


def tumbling_trajectory(t):
    """A body tumbling about a skew axis at a varying rate while its CoG swings on a
    curve: sampled poses and velocities (the closed-form motion)."""
    from scipy.spatial.transform import Rotation
    axis = np.array([1.0, 2.0, 0.5]) / np.linalg.norm([1.0, 2.0, 0.5])
    angle = 3.0 * t + 2.0 * t * t
    A = Rotation.from_rotvec(angle[:, None] * axis).as_matrix()
    pos = np.stack([0.2 * np.sin(2 * t), 0.1 * t * t, 0.05 * np.cos(3 * t)], axis=1)
    vel = np.stack([0.4 * np.cos(2 * t), 0.2 * t, -0.15 * np.sin(3 * t)], axis=1)
    return motion.Trajectory(t, pos, A, vel)


def test_swept_boxes_hold_the_solid_between_the_samples():
    """Every vertex of a tumbling bar, at 40 instants inside each segment, lies in that
    segment's swept box; and the swept gap of two solids never exceeds their exact
    distance anywhere in the segment."""
    t = np.linspace(0.0, 1.5, 7)
    traj = tumbling_trajectory(t)
    bar = Solid(*box((40 * MM, 5 * MM, 3 * MM), centre=(10 * MM, 0, 0)), label="bar")
    lo, hi = traj.swept_boxes(bar.lo, bar.hi)
    cube = Solid(*box((10 * MM,) * 3, centre=(0.25, 0.0, 0.0)), label="cube")
    fixed = motion.Trajectory.fixed(t)
    gaps = along.swept_bounds(bar, traj, cube, fixed)
    assert np.count_nonzero(gaps > 0) >= 2                 # not a trivial bound
    for k in range(len(t) - 1):
        for time in np.linspace(t[k], t[k + 1], 40):
            pose = traj.pose(time, k)
            w = geometry.world_points(bar.points, pose)
            assert np.all(w >= lo[k] - 1e-12) and np.all(w <= hi[k] + 1e-12), (k, time)
            assert gaps[k] <= max(proximity(bar, pose, cube, fixed.pose(time)).distance,
                                  0.0) + 1e-12


def test_parallel_slabs_in_planar_motion_cost_few_queries():
    """Two plates in parallel slabs 10 mm apart (y), one spinning about y at 20 rad/s and
    sliding in x-z over the other: the clearance is 10 mm whenever they face each other
    (the swept boxes keep the exact slab gap: rotation about y moves no point in y), so
    the search needs a handful of exact queries, not one per millimetre of motion."""
    t = np.linspace(0.0, 2.0, 201)
    angle = 20.0 * t
    c, s = np.cos(angle), np.sin(angle)
    A = np.zeros((len(t), 3, 3))
    A[:, 0, 0], A[:, 0, 2], A[:, 1, 1], A[:, 2, 0], A[:, 2, 2] = c, s, 1.0, -s, c
    pos = np.stack([0.1 * np.sin(t), np.full_like(t, 15 * MM), 0.05 * t], axis=1)
    vel = np.stack([0.1 * np.cos(t), 0 * t, np.full_like(t, 0.05)], axis=1)
    spinning = motion.Trajectory(t, pos, A, vel)
    plate = Solid(*box((50 * MM, 5 * MM, 8 * MM)), label="plate", name="plate")
    base = Solid(*box((200 * MM, 0.5 * MM, 200 * MM)), label="base")
    rep = along.check_pair(plate, spinning, base, motion.Trajectory.fixed(t), 0.1 * MM,
                           0.2 * MM)
    assert rep.min_distance == pytest.approx(9.5 * MM, abs=1e-9)   # 15 - 5 - 0.5 mm
    assert not rep.interferes
    assert rep.queries <= 5
    lo, hi = spinning.swept_boxes(plate.lo, plate.hi)
    assert np.allclose(lo[:, 1], 10 * MM, atol=1e-12) and np.allclose(hi[:, 1], 20 * MM,
                                                                      atol=1e-12)


def test_convexity_of_a_mesh():
    """A box and a 24-sided prism are convex; a box with one corner pushed in is not."""
    assert Solid(*box((10 * MM, 20 * MM, 5 * MM))).convex
    n = 24
    ring = [(math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n)) for k in range(n)]
    pts = np.array([(x, y, z) for z in (0.0, 1.0) for x, y in ring] + [(0, 0, 0), (0, 0, 1)])
    tris = []
    for k in range(n):
        j = (k + 1) % n
        tris += [(k, j, n + j), (k, n + j, n + k), (2 * n, j, k), (2 * n + 1, n + k, n + j)]
    assert Solid(pts * 0.01, np.array(tris)).convex
    p, tri = box((10 * MM,) * 3)
    p = p.copy()
    p[7] *= 0.5                                     # the (+, +, +) corner halfway in
    assert not Solid(p, tri).convex


def box_surface_distance(p, half, centre):
    """Distance [m] of point ``p`` from the surface of the axis-aligned box (closed form)."""
    q = np.abs(np.asarray(p, dtype=float) - np.asarray(centre)) - np.asarray(half)
    outside = np.linalg.norm(np.maximum(q, 0.0))
    return outside if outside > 0.0 else -float(q.max())


def test_witness_points_at_the_samples_inside_the_interval():
    """At every output sample inside the interval, and only there, the report keeps the
    witness points: the deepest point of A (on its face y = 7 mm) and the nearest point
    of B (on its face y = 10 mm), 3 mm apart along y while |x| <= 17 mm; both on their
    own box's surface."""
    t = np.linspace(0.0, 1.0, 41)
    a, ta, b, tb = passing_boxes(t)
    rep = along.check_pair(a, ta, b, tb, 0.05 * MM)
    points = rep.frame_points
    # the samples at 0.3 s and 0.7 s, where the faces touch, may come either way (rounding)
    inside = np.nonzero((t > 0.3 + 1e-9) & (t < 0.7 - 1e-9))[0]
    assert len(inside) == 15
    assert set(inside) <= set(points) <= set(inside) | {12, 28}
    for i in points:
        pa, pb = points[i]
        x = -0.05 + 0.1 * t[i]
        assert box_surface_distance(pa, (10 * MM, 10 * MM, 5 * MM), (x, 17 * MM, 0.0)) \
            == pytest.approx(0.0, abs=1e-9)
        assert box_surface_distance(pb, (10 * MM,) * 3, (0.0, 0.0, 0.0)) \
            == pytest.approx(0.0, abs=1e-9)
        if abs(x) <= 17 * MM - 1e-9:
            assert pa[1] == pytest.approx(7 * MM, abs=1e-9)
            assert pb[1] == pytest.approx(10 * MM, abs=1e-9)
            assert np.linalg.norm(pa - pb) == pytest.approx(3 * MM, abs=1e-9)
