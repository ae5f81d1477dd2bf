"""The penetration depth of two convex hulls (``gjk.penetration_depth``, EPA) against the
closed form of two boxes: the smallest overlap of their projections on the 15 axes of the
separating-axis theorem (the face normals of each box and the cross products of their
edges hold every face normal of the Minkowski difference), and its translation: moving
one box by the depth along the normal parts them, moving it less does not."""
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from SimPhantWorkbench.collision import gjk


def corners(half):
    return np.array([(sx * half[0], sy * half[1], sz * half[2]) for sx in (-1, 1)
                     for sy in (-1, 1) for sz in (-1, 1)], dtype=float)


def sat_depth(ha, Ra, ra, hb, Rb, rb):
    """The boxes' penetration depth: min over the 15 axes L of rA(L) + rB(L) - |d . L|
    (negative: apart along that axis)."""
    axes = [Ra[:, i] for i in range(3)] + [Rb[:, i] for i in range(3)]
    axes += [np.cross(Ra[:, i], Rb[:, j]) for i in range(3) for j in range(3)]
    d = rb - ra
    best = np.inf
    for L in axes:
        n = np.linalg.norm(L)
        if n < 1e-9:
            continue
        L = L / n
        s = (np.abs(Ra.T @ L) @ ha + np.abs(Rb.T @ L) @ hb - abs(d @ L))
        best = min(best, s)
    return best


def _pair(rng, turn=True):
    ha = rng.uniform(0.01, 0.05, size=3)
    hb = rng.uniform(0.01, 0.05, size=3)
    Ra = Rotation.random(random_state=rng).as_matrix() if turn else np.eye(3)
    Rb = Rotation.random(random_state=rng).as_matrix() if turn else np.eye(3)
    ra = rng.normal(size=3) * 0.01
    rb = ra + rng.normal(size=3) * 0.02
    return ha, Ra, ra, hb, Rb, rb


def _cases(turn, n):
    rng = np.random.default_rng(7 if turn else 8)
    out = []
    while len(out) < n:
        ha, Ra, ra, hb, Rb, rb = _pair(rng, turn)
        if sat_depth(ha, Ra, ra, hb, Rb, rb) > 1e-4:
            out.append((ha, Ra, ra, hb, Rb, rb))
    return out


@pytest.mark.parametrize("turn", [False, True])
def test_depth_of_overlapping_boxes_is_the_separating_axis_closed_form(turn):
    for ha, Ra, ra, hb, Rb, rb in _cases(turn, 25):
        ref = sat_depth(ha, Ra, ra, hb, Rb, rb)
        lower, upper, n, pa, pb = gjk.penetration_depth(corners(ha), Ra, ra, corners(hb),
                                                        Rb, rb)
        assert lower <= upper
        assert lower == pytest.approx(ref, rel=1e-9, abs=1e-12)
        assert upper == pytest.approx(ref, rel=1e-9, abs=1e-12)
        assert np.linalg.norm(n) == pytest.approx(1.0, abs=1e-12)
        assert pa - pb == pytest.approx(lower * n, abs=1e-12)


def test_moving_a_box_by_the_depth_along_the_normal_parts_the_pair():
    for ha, Ra, ra, hb, Rb, rb in _cases(True, 10):
        va, vb = corners(ha), corners(hb)
        lower, upper, n, _pa, _pb = gjk.penetration_depth(va, Ra, ra, vb, Rb, rb)
        apart = gjk.hull_distance(va, Ra, ra - (upper + 1e-7) * n, vb, Rb, rb)[0]
        assert apart > 0.0
        still = gjk.hull_distance(va, Ra, ra - 0.99 * lower * n, vb, Rb, rb)[0]
        assert still <= 0.0
        # and by the closed form: 1 % short of the depth they still overlap
        assert sat_depth(ha, Ra, ra - 0.99 * lower * n, hb, Rb, rb) > 0.0


def test_boxes_apart_have_no_depth():
    I3 = np.eye(3)
    lower, upper, n, pa, pb = gjk.penetration_depth(
        corners((0.01, 0.01, 0.01)), I3, np.zeros(3), corners((0.01, 0.01, 0.01)), I3,
        np.array([0.05, 0.0, 0.0]))
    assert (lower, upper) == (0.0, 0.0) and not n.any()


def test_proximity_of_overlapping_convex_solids_takes_epa_not_fcl(monkeypatch):
    """Two turned box ``Solid``s overlapping: ``proximity`` answers minus the closed-form
    depth from the hulls alone (FCL's queries are not called), the same as FCL's answer for
    them (``mesh_proximity``: its signed distance, bounded by the projections)."""
    from SimPhantWorkbench.collision import geometry
    from .test_collision import box
    ha, Ra, ra, hb, Rb, rb = _cases(True, 3)[2]
    a, b = geometry.Solid(*box(ha)), geometry.Solid(*box(hb))
    assert a.convex and b.convex
    fcl_answer = geometry.mesh_proximity(a, (ra, Ra), b, (rb, Rb))

    def no_fcl(*_args):
        raise AssertionError("FCL asked")
    monkeypatch.setattr(geometry, "mesh_proximity", no_fcl)
    p = geometry.proximity(a, (ra, Ra), b, (rb, Rb))
    ref = sat_depth(ha, Ra, ra, hb, Rb, rb)
    assert p.overlap and p.distance == pytest.approx(-ref, rel=1e-9)
    assert fcl_answer.overlap and fcl_answer.distance == pytest.approx(-ref, rel=1e-6)
