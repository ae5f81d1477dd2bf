"""Finite-difference checks of Phi_q, Phi_dot and gamma for every registry joint.

At random, unassembled poses with random velocities:
* Phi_q column block of each body against central differences of Phi along the 6
  velocity directions (translation in world axes, rotation about body axes by
  quaternion retraction q <- q (x) exp(h e / 2));
* Phi_dot (= Phi_q v) against the difference of Phi along the motion;
* gamma against -(d/dt)(Phi_q(q) v) along the motion with constant v, omega_b.
"""
import zlib

import numpy as np
import pytest

from SimPhantWorkbench.solver import JOINT_TYPES, Model

from .helpers import flow, jacobian_fd, random_inertia, random_rotation

KINDS = list(JOINT_TYPES)


def _random_model(kind, rng, ground_side=None):
    m = Model(gravity=(0.0, 0.0, 0.0))
    bodies = []
    for i in range(2):
        bodies.append(m.add_body("b%d" % i, mass=rng.uniform(0.5, 3.0), inertia=random_inertia(rng),
                                 position=rng.normal(size=3), orientation=random_rotation(rng),
                                 velocity=rng.normal(size=3), angular_velocity=rng.normal(size=3)))
    b1, b2 = bodies
    if ground_side == 0:
        b1 = m.ground
    elif ground_side == 1:
        b2 = m.ground
    f1 = (rng.normal(size=3), random_rotation(rng))
    f2 = (rng.normal(size=3), random_rotation(rng))
    kw = dict(frame1=f1, frame2=f2)
    if kind in ("distance", "revolute_spherical"):
        kw = dict(frame1=f1, frame2=f2, point2=f2[0], length=1.3)
    if "angle" in JOINT_TYPES[kind].needs:
        kw["angle"] = 1.1       # not the random frames' own angle: unassembled
    m.add_joint(kind, b1, b2, **kw)
    return m


@pytest.mark.parametrize("ground_side", [None, 0, 1])
@pytest.mark.parametrize("kind", KINDS)
def test_jacobian_and_gamma_match_finite_differences(kind, ground_side):
    # crc32, not hash(): str hashes change per process, so a failure would not reproduce
    rng = np.random.default_rng(zlib.crc32(("%s/%s" % (kind, ground_side)).encode()))
    for trial in range(3):
        m = _random_model(kind, rng, ground_side)
        sysm = m.compile()
        nb = sysm.nb
        Y = sysm.y0
        phi, J, gamma = sysm.constraint_state(Y)
        assert phi.shape == (len(JOINT_TYPES[kind].rows),)
        assert np.abs(phi).max() > 1e-3   # really unassembled
        h = 1e-6
        J_fd = jacobian_fd(lambda Yx: sysm.constraint_state(Yx)[0], Y, nb, h)
        np.testing.assert_allclose(J, J_fd, rtol=1e-6, atol=1e-7 * max(1.0, np.abs(J).max()))

        v = Y[7 * nb:]
        # Phi_dot along the motion
        pp, _, _ = sysm.constraint_state(flow(Y, nb, h))
        pm, _, _ = sysm.constraint_state(flow(Y, nb, -h))
        np.testing.assert_allclose(J @ v, (pp - pm) / (2 * h), rtol=1e-6, atol=1e-7)
        # the kernel's own Phi_dot (stored during evaluation) is J v too
        sysm.evaluate(0.0, Y)
        np.testing.assert_allclose(sysm.W.phidot[sysm.active_rows], J @ v, rtol=1e-12, atol=1e-12)

        # gamma = -(d/dt)(Phi_q v) with q_ddot = 0 (constant v and omega_b)
        hg = 1e-5
        _, Jp, _ = sysm.constraint_state(flow(Y, nb, hg))
        _, Jm, _ = sysm.constraint_state(flow(Y, nb, -hg))
        gamma_fd = -((Jp - Jm) @ v) / (2 * hg)
        np.testing.assert_allclose(gamma, gamma_fd, rtol=1e-6,
                                   atol=1e-6 * max(1.0, np.abs(gamma).max()))


@pytest.mark.parametrize("kind", KINDS)
def test_assembled_joint_has_zero_residual_and_expected_row_count(kind):
    """Built from point/axis the two sides coincide: Phi = 0 at t0, and the
    number of rows is the number of DOF the joint removes."""
    m = Model()
    b = m.add_body("b", mass=1.0, inertia=(1, 2, 2.5), position=(0.3, 0.2, -0.4),
                   orientation=(0.9, 0.1, -0.3, 0.2))
    kw = dict(point=(0.1, 0.2, 0.3))
    spec = JOINT_TYPES[kind]
    if "axis" in spec.needs:
        kw["axis"] = (1.0, 2.0, 0.5)
    if "axis2" in spec.needs:
        kw["axis2"] = np.cross((1.0, 2.0, 0.5), (0.0, 0.0, 1.0))
    if "point2" in spec.needs:
        kw["point2"] = (0.1, 0.2, 0.3) + 0.7 * np.cross((1.0, 2.0, 0.5), (0, 0, 1.0)) / np.linalg.norm(
            np.cross((1.0, 2.0, 0.5), (0, 0, 1.0)))
    j = m.add_joint(kind, m.ground, b, **kw)
    sysm = m.compile()
    phi, J, _ = sysm.constraint_state(sysm.y0)
    np.testing.assert_allclose(phi, 0.0, atol=1e-12)
    removed = {"fixed": 6, "revolute": 5, "prismatic": 5, "cylindrical": 4, "spherical": 3,
               "planar": 3, "universal": 4, "distance": 1, "revolute_spherical": 2,
               "parallel": 2, "perpendicular": 1, "angle": 1}[kind]
    assert J.shape[0] == removed
    assert np.linalg.matrix_rank(J) == removed
    assert m.degrees_of_freedom() == 6 - removed
    assert j.kind == kind
