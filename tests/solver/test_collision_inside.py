"""The inside/outside test of a point near a mesh's edges and vertices
(``Solid.surface_point``: the sign against the angle-weighted pseudo-normal of the feature
holding the closest surface point), against the closed-form containment of the solids the
meshes bound: a box (two tessellations), an L (a concave edge, vertices where concave and
convex edges meet) and a 30 deg wedge (an edge sharper than 90 deg). The points lie 1e-3
and 1e-2 of the solid's size off every vertex and every edge, along the axes, the
bisectors of faces and corners and skew directions: many of them have their closest point
on an edge or a vertex, where the normal of the triangle FCL names can give the wrong
sign (a point in the plane of a face beside the edge, or off a sharp edge). Then the
containment of small cubes at those points (``overlapping``: surfaces apart, one vertex
decides) and the penetration depth of blocks into the L (its deepest surface sample inside
the other solid)."""
import itertools
import math

import numpy as np
import pytest

from SimPhantWorkbench.collision.geometry import Solid, mesh_proximity, overlapping, proximity

from .test_collision import I3, MM, box, fc_box
from .test_collision_hulls import L_OUTLINE, prism

#: the 30 deg wedge's outline (counter-clockwise) [mm]
WEDGE = np.array([(0.0, 0.0), (20.0, 0.0),
                  (20.0 * math.cos(math.pi / 6), 20.0 * math.sin(math.pi / 6))])


def slab(lo, hi):
    """The open box ``lo`` < x < ``hi`` [mm] as half-spaces (A, b): A x < b."""
    return np.vstack([np.eye(3), -np.eye(3)]), np.concatenate([hi, -np.asarray(lo)]) * MM


def wedge_halfspaces(height):
    """The open prism of ``WEDGE`` from z = 0 to ``height`` [mm] as half-spaces."""
    rows, rhs = [[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]], [height * MM, 0.0]
    for a, b in zip(WEDGE, np.roll(WEDGE, -1, axis=0)):
        n = np.array([b[1] - a[1], a[0] - b[0], 0.0])     # outward: right of the edge
        rows.append(n)
        rhs.append(float(n[:2] @ a) * MM)
    return np.array(rows), np.array(rhs)


#: (solid, its size [m], its interior as a union of open convex parts A x < b)
CASES = {
    "box": lambda: (Solid(*box((10 * MM, 15 * MM, 5 * MM))), 30 * MM,
                    [slab((-10, -15, -5), (10, 15, 5))]),
    "freecad-box": lambda: (Solid(*fc_box((0, 0, 0), (20, 30, 10))), 30 * MM,
                            [slab((0, 0, 0), (20, 30, 10))]),
    "L": lambda: (Solid(*prism(L_OUTLINE, 10 * MM)), 20 * MM,
                  [slab((0, 0, 0), (10, 20, 10)), slab((0, 0, 0), (20, 10, 10))]),
    "wedge": lambda: (Solid(*prism(WEDGE * MM, 10 * MM)), 20 * MM, [wedge_halfspaces(10)]),
}


def inside(parts, p):
    return any(np.all(A @ p < b) for A, b in parts)


def near_edges_and_vertices(solid, size):
    """Points 1e-3 and 1e-2 ``size`` off every vertex and off every edge (at 0.3 and 0.5
    of its length) along the 26 directions to the neighbours of a cube's lattice point
    (axes, bisectors) and 16 skew ones."""
    t = solid.triangles
    edges = np.unique(np.sort(np.concatenate([t[:, :2], t[:, 1:], t[:, ::2]]), axis=1),
                      axis=0)
    a, b = solid.points[edges[:, 0]], solid.points[edges[:, 1]]
    anchors = np.concatenate([solid.points, 0.7 * a + 0.3 * b, 0.5 * (a + b)])
    lattice = [d for d in itertools.product((-1.0, 0.0, 1.0), repeat=3) if any(d)]
    dirs = np.concatenate([lattice, np.random.default_rng(5).normal(size=(16, 3))])
    dirs /= np.linalg.norm(dirs, axis=1)[:, None]
    off = np.concatenate([1e-3 * size * dirs, 1e-2 * size * dirs])
    return (anchors[:, None, :] + off[None, :, :]).reshape(-1, 3)


@pytest.mark.parametrize("case", sorted(CASES))
def test_points_near_edges_and_vertices_are_inside_as_the_solid_says(case):
    """Every point judged as the closed-form solid holds it (those on the surface, closer
    than 1e-9 of the size, left out). On the face normal of the closest triangle alone
    66 of 3024 points of the box were misjudged, 29 of 3024 of the FreeCAD box, 74 of 4928
    of the L, 122 of 2240 of the wedge."""
    solid, size, parts = CASES[case]()
    judged, wrong = 0, []
    for p in near_edges_and_vertices(solid, size):
        _q, d, verdict = solid.surface_point(p)
        if d < 1e-9 * size:
            continue
        judged += 1
        if verdict != inside(parts, p):
            wrong.append((p / MM, verdict))
    assert judged > 2000
    assert not wrong, "%d of %d points misjudged, e.g. %s" % (len(wrong), judged, wrong[:3])


@pytest.mark.parametrize("case", ["L", "wedge"])
def test_small_cubes_near_edges_are_contained_as_the_solid_says(case):
    """A cube 1e-5 of the size wide at each point (its surface never meets the solid's
    there, its first vertex at the point): ``overlapping`` (containment, one vertex's
    inside test) as the closed form. On the face normal alone 28 of 4886 cubes of the L
    and 10 of 2226 of the wedge were misjudged."""
    solid, size, parts = CASES[case]()
    half = 0.5e-5 * size
    cube = Solid(*box((half,) * 3))
    corners = np.array(list(itertools.product((-half, half), repeat=3)))
    wrong = checked = 0
    for p in near_edges_and_vertices(solid, size):
        verdicts = {inside(parts, c) for c in p + half + corners}
        if len(verdicts) > 1 or solid.surface_point(p)[1] < 4 * half:
            continue                                      # the cube reaches the surface
        checked += 1
        wrong += overlapping(solid, (np.zeros(3), I3), cube, (p + half, I3)) != verdicts.pop()
    assert checked > 2000
    assert wrong == 0, "%d of %d cubes misjudged" % (wrong, checked)


@pytest.mark.parametrize("lo, hi, depth", [((5, 10, 10), (20, 20, 12), 0.0),
                                           ((12, 9, 2), (18, 18, 8), 1.0)],
                         ids=["plate-flush-on-top-over-the-notch", "block-1mm-into-an-arm"])
def test_the_depth_into_the_l_counts_the_samples_inside_it_only(lo, hi, depth):
    """The penetration depth of a non-convex pair (``mesh_proximity``: its deepest surface
    sample inside the other solid), in either order and through ``proximity``: a plate
    lying flush on the L's top and reaching over its notch only touches it (its samples
    over the notch lie in the plane of the top, beside the top's edges: taken as inside by
    the face normal, 5 mm deep); a block in the notch reaching 1 mm into an arm is 1 mm
    deep (not the 5 mm of its samples in the notch, outside the L)."""
    l_shape = Solid(*prism(L_OUTLINE, 10 * MM), spacing=1 * MM)
    block = Solid(*fc_box(lo, hi), spacing=1 * MM)
    at = (np.zeros(3), I3)
    for p in (mesh_proximity(l_shape, at, block, at), mesh_proximity(block, at, l_shape, at),
              proximity(l_shape, at, block, at)):
        assert p.overlap and -p.distance == pytest.approx(depth * MM, abs=1e-12)
        if depth:                      # the deepest sample and its closest point on the other
            assert np.linalg.norm(p.point_a - p.point_b) == pytest.approx(depth * MM,
                                                                          abs=1e-12)
