"""Couplers (gear pair, belt, rack and pinion, screw): finite-difference checks of the
coupler row's Jacobian, Phi_dot and gamma, and closed-form dynamics of coupled
mechanisms (reflected inertia: the coupling law and the tooth force follow from
Newton-Euler on each body by hand, not from the code under test)."""
import math
import zlib

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model, ModelError
from SimPhantWorkbench.solver.couplers import COUPLER_TYPES
from SimPhantWorkbench.solver.rotations import quat_from_axis_angle, quat_multiply

from .helpers import flow, jacobian_fd, random_inertia, random_rotation


def _unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def _coupled_model(kind, rng, carrier_ground):
    """Random bodies (random velocities) and the joints a coupler of ``kind`` needs, with a
    moving carrier or ground, and the coupler itself."""
    m = Model(gravity=(0.0, 0.0, 0.0))

    def body(name):
        return m.add_body(name, mass=rng.uniform(0.5, 3.0), inertia=random_inertia(rng),
                          position=rng.normal(size=3), orientation=random_rotation(rng),
                          velocity=rng.normal(size=3), angular_velocity=rng.normal(size=3))
    carrier = m.ground if carrier_ground else body("carrier")
    b1, b2 = body("b1"), body("b2")
    z = _unit(rng.normal(size=3))
    x = _unit(np.cross(z, rng.normal(size=3)))
    if kind in ("gear", "belt"):
        j1 = m.add_joint("revolute", carrier, b1, point=rng.normal(size=3), axis=z)
        j2 = m.add_joint("revolute", b2, carrier, point=rng.normal(size=3), axis=-z)
        c = m.add_coupler(kind, j1, j2, ratio=7.0 / 3.0)
    elif kind == "rack_pinion":
        j1 = m.add_joint("revolute", carrier, b1, point=rng.normal(size=3), axis=z)
        j2 = m.add_joint("prismatic", carrier, b2, point=rng.normal(size=3), axis=x)
        c = m.add_coupler(kind, j1, j2, radius=0.37)
    elif kind == "lead_screw":
        p = rng.normal(size=3)
        j1 = m.add_joint("revolute", carrier, b1, point=p, axis=z)
        j2 = m.add_joint("prismatic", b2, carrier, point=p + 0.3 * z, axis=-z)
        c = m.add_coupler(kind, j1, j2, lead=0.21)
    else:
        j1 = m.add_joint("cylindrical", b1, b2, point=rng.normal(size=3), axis=z)
        c = m.add_coupler(kind, j1, lead=0.21)
    return m, c


def _perturbed(sysm, rng, size=0.05):
    """The initial state moved off the constraints (positions and rotations)."""
    nb = sysm.nb
    Y = sysm.y0.copy()
    for b in range(nb):
        p = 7 * b
        Y[p:p + 3] += size * rng.normal(size=3)
        axis = _unit(rng.normal(size=3))
        Y[p + 3:p + 7] = quat_multiply(Y[p + 3:p + 7], quat_from_axis_angle(axis, size))
    return Y


@pytest.mark.parametrize("carrier_ground", [True, False])
@pytest.mark.parametrize("kind", list(COUPLER_TYPES))
def test_coupler_row_jacobian_and_gamma_match_finite_differences(kind, carrier_ground):
    rng = np.random.default_rng(zlib.crc32(("%s/%s" % (kind, carrier_ground)).encode()))
    for _trial in range(3):
        m, c = _coupled_model(kind, rng, carrier_ground)
        sysm = m.compile()
        nb = sysm.nb
        phi0, _, _ = sysm.constraint_state(sysm.y0)
        np.testing.assert_allclose(phi0, 0.0, atol=1e-12)     # assembled at t0: Phi = 0
        Y = _perturbed(sysm, rng)
        phi, J, gamma = sysm.constraint_state(Y)
        assert np.abs(phi).max() > 1e-3
        h = 1e-6
        J_fd = jacobian_fd(lambda Yx: sysm.constraint_state(Yx)[0], Y, nb, h)
        np.testing.assert_allclose(J, J_fd, rtol=1e-6, atol=1e-7 * max(1.0, np.abs(J).max()))
        v = Y[7 * nb:]
        pp = sysm.constraint_state(flow(Y, nb, h))[0]
        pm = sysm.constraint_state(flow(Y, nb, -h))[0]
        np.testing.assert_allclose(J @ v, (pp - pm) / (2 * h), rtol=1e-6, atol=1e-7)
        sysm.evaluate(0.0, Y)
        np.testing.assert_allclose(sysm.W.phidot[sysm.active_rows], J @ v, rtol=1e-12,
                                   atol=1e-12)
        hg = 1e-5
        Jp = sysm.constraint_state(flow(Y, nb, hg))[1]
        Jm = sysm.constraint_state(flow(Y, nb, -hg))[1]
        gamma_fd = -((Jp - Jm) @ v) / (2 * hg)
        np.testing.assert_allclose(gamma, gamma_fd, rtol=1e-6,
                                   atol=1e-6 * max(1.0, np.abs(gamma).max()))


def _disc(m, name, position, mass, i_axial, axis=(0.0, 0.0, 1.0)):
    a = _unit(axis)
    inertia = 0.7 * i_axial * (np.eye(3) - np.outer(a, a)) + i_axial * np.outer(a, a)
    return m.add_body(name, mass=mass, inertia=inertia, position=position)


def _two_discs(axis2=(0.0, 0.0, 1.0)):
    """Two discs on revolutes to ground, about z at the origin and about ``axis2`` at x = 1:
    ``(model, disc a, disc b, joint a, joint b)``."""
    m = Model()
    a = _disc(m, "a", (0, 0, 0), 1.0, 0.01)
    b = _disc(m, "b", (1, 0, 0), 1.0, 0.01)
    ja = m.add_joint("revolute", m.ground, a, point=(0, 0, 0), axis=(0, 0, 1))
    jb = m.add_joint("revolute", m.ground, b, point=(1, 0, 0), axis=axis2)
    return m, a, b, ja, jb


def _angle(r, body, axis=2):
    """Unwrapped rotation angle of a body about world z (planar motion)."""
    A = r.rotation_matrix(body)
    return np.unwrap(np.arctan2(A[:, 1, 0], A[:, 0, 0]))


@pytest.mark.parametrize("kind, sense", [("gear", -1.0), ("belt", 1.0)])
def test_gear_pair_under_torque_matches_reflected_inertia(kind, sense):
    """Gear 1 (N1 = 18, J1) driven by a torque T, gear 2 (N2 = 42, J2) free: with
    rho = N2/N1, w2 = sense w1 / rho, so (J1 + J2 / rho^2) a1 = T; gear 2 gets the torque
    J2 a2 from the teeth. Relation to 1e-9 rad over 10 s, torque to 1e-6, energy =
    work of T."""
    rho = 42.0 / 18.0
    J1, J2, T = 0.02, 0.3, 0.5
    m = Model(gravity=(0.0, 0.0, -9.81))
    g1 = _disc(m, "g1", (0.0, 0.0, 0.0), 1.0, J1)
    g2 = _disc(m, "g2", (0.3, 0.1, 0.0), 2.0, J2)
    j1 = m.add_joint("revolute", m.ground, g1, point=(0, 0, 0), axis=(0, 0, 1))
    j2 = m.add_joint("revolute", m.ground, g2, point=(0.3, 0.1, 0.0), axis=(0, 0, 1))
    c = m.add_coupler(kind, j1, j2, ratio=rho)
    m.add_torque(g1, (0.0, 0.0, T))
    r = m.simulate(10.0, dt=5e-4, method="rk4", output_dt=0.01)
    th1, th2 = _angle(r, g1), _angle(r, g2)
    a1 = T / (J1 + J2 / rho ** 2)
    np.testing.assert_allclose(th1, 0.5 * a1 * r.t ** 2, rtol=1e-7, atol=1e-9)
    assert np.abs(th2 - sense * th1 / rho).max() < 1e-9
    tz = r.coupler_torque(c)[:, 2]
    np.testing.assert_allclose(tz, J2 * sense * a1 / rho, rtol=1e-6)
    e = r.energy()
    np.testing.assert_allclose(e["kinetic"], T * th1, rtol=1e-7, atol=1e-9)


def test_rack_and_pinion_under_force_matches_reflected_mass():
    """A force F on the rack (mass M on a prismatic along x) turns the pinion (radius
    r, J on a revolute about z): s = r theta and (M + J / r^2) s'' = F; the teeth push
    the pinion with the torque J theta''."""
    M, J, F, rad = 3.0, 0.05, 2.0, 0.04
    m = Model(gravity=(0.0, 0.0, -9.81))
    pin = _disc(m, "pinion", (0.0, 0.0, 0.0), 0.5, J)
    rack = m.add_body("rack", mass=M, inertia=(0.01, 0.1, 0.1), position=(0.0, -rad, 0.0))
    jp = m.add_joint("revolute", m.ground, pin, point=(0, 0, 0), axis=(0, 0, 1))
    jr = m.add_joint("prismatic", m.ground, rack, point=(0.0, -rad, 0.0), axis=(1, 0, 0))
    c = m.add_coupler("rack_pinion", jp, jr, radius=rad)
    m.add_force(rack, (F, 0.0, 0.0))
    r = m.simulate(5.0, dt=1e-3, method="rk4", output_dt=0.05)
    s = r.position(rack)[:, 0]
    th = _angle(r, pin)
    acc = F / (M + J / rad ** 2)
    np.testing.assert_allclose(s, 0.5 * acc * r.t ** 2, rtol=1e-7, atol=1e-9)
    assert np.abs(th - s / rad).max() < 1e-9
    np.testing.assert_allclose(r.coupler_torque(c)[:, 2], J * acc / rad, rtol=1e-6)


def test_screw_descends_at_the_closed_form_rate():
    """A nut (m, J about the axis) on a vertical cylindrical joint with a lead L falls:
    theta = 2 pi s / L, (m + J (2 pi / L)^2) s'' = -m g."""
    mass, J, lead, g = 1.5, 0.004, 0.01, 9.81
    m = Model(gravity=(0.0, 0.0, -g))
    nut = _disc(m, "nut", (0.0, 0.0, 0.0), mass, J)
    jc = m.add_joint("cylindrical", m.ground, nut, point=(0, 0, 0), axis=(0, 0, 1))
    m.add_coupler("screw", jc, lead=lead)
    r = m.simulate(2.0, dt=1e-3, method="rk4", output_dt=0.02)
    k = 2.0 * math.pi / lead
    acc = -mass * g / (mass + J * k * k)
    s = r.position(nut)[:, 2]
    np.testing.assert_allclose(s, 0.5 * acc * r.t ** 2, rtol=1e-7, atol=1e-9)
    assert np.abs(_angle(r, nut) - k * s).max() < 1e-8
    assert np.abs(r.joint_position(jc, "angle") - k * r.joint_position(jc, "slide")).max() \
        < 1e-8


@pytest.mark.parametrize("lead, nut_axis", [(0.01, 1.0), (0.01, -1.0), (-0.02, 1.0)])
def test_lead_screw_turns_at_the_closed_form_rate(lead, nut_axis):
    """A screw (J about its vertical axis) on a revolute, a nut (m) on a vertical slider
    (its axis up or down), a lead L between them: the falling nut turns the screw,
    theta_screw = -2 pi s / L (the nut advances by L per turn relative to the screw,
    right-handed: the screw turns the other way), (m + J (2 pi / L)^2) s'' = -m g; the
    coupler's torque on the screw is J theta''."""
    mass, J, g = 1.5, 0.004, 9.81
    m = Model(gravity=(0.0, 0.0, -g))
    screw = _disc(m, "screw", (0.0, 0.0, 0.0), 0.7, J)
    nut = m.add_body("nut", mass=mass, inertia=np.eye(3) * 1e-3, position=(0.0, 0.0, 0.3))
    jr = m.add_joint("revolute", m.ground, screw, point=(0, 0, 0), axis=(0, 0, 1))
    jn = m.add_joint("prismatic", m.ground, nut, point=(0, 0, 0.3), axis=(0, 0, nut_axis))
    c = m.add_coupler("lead_screw", jr, jn, lead=lead)
    r = m.simulate(1.0, dt=1e-3, method="rk4", output_dt=0.02)
    k = 2.0 * math.pi / lead
    acc = -mass * g / (mass + J * k * k)
    s = r.position(nut)[:, 2] - 0.3
    np.testing.assert_allclose(s, 0.5 * acc * r.t ** 2, rtol=1e-7, atol=1e-9)
    assert np.abs(_angle(r, screw) + k * s).max() < 1e-8
    np.testing.assert_allclose(r.coupler_torque(c)[:, 2], -J * k * acc, rtol=1e-6)


def test_planetary_gear_follows_the_willis_equation():
    """Sun (N = 20) driven at w_s, planet (N = 20) on a carrier that turns freely in a
    fixed internal ring (N = 60): the carrier turns at w_s N_s / (N_s + N_r) and the
    planet at w_c - (w_s - w_c) N_s / N_p (Willis), the centres orbiting."""
    from SimPhantWorkbench.solver.drivers import MotionFunction
    m = Model(gravity=(0.0, 0.0, 0.0))
    z = (0, 0, 1)
    ring = _disc(m, "ring", (0.0, 0.0, 0.0), 2.0, 0.1)
    sun = _disc(m, "sun", (0.0, 0.0, 0.0), 1.0, 0.01)
    carrier = _disc(m, "carrier", (0.0, 0.0, 0.0), 1.0, 0.02)
    planet = _disc(m, "planet", (0.2, 0.0, 0.0), 0.3, 0.002)
    m.add_joint("fixed", m.ground, ring, point=(0, 0, 0))
    js = m.add_joint("revolute", m.ground, sun, point=(0, 0, 0), axis=z)
    jc = m.add_joint("revolute", ring, carrier, point=(0, 0, 0), axis=z)
    jp = m.add_joint("revolute", carrier, planet, point=(0.2, 0, 0), axis=z)
    m.add_driver(js, MotionFunction("ramp", value=0.0, rate=2.0))
    m.add_coupler("gear", js, jp, ratio=1.0)
    m.add_coupler("belt", jp, jc, ratio=3.0)      # planet in the internal ring
    r = m.simulate(3.0, dt=1e-3, method="rk4", output_dt=0.05)
    wc = 2.0 * 20 / (20 + 60)
    np.testing.assert_allclose(_angle(r, carrier), wc * r.t, atol=1e-9)
    np.testing.assert_allclose(_angle(r, planet), (wc - (2.0 - wc)) * r.t, atol=1e-9)


def test_coupler_errors_name_the_coupler():
    m, a, b, ja, jb = _two_discs(axis2=(0, 1, 0))
    jp = m.add_joint("prismatic", m.ground, b, point=(1, 0, 0), axis=(0, 0, 1), name="slide")
    with pytest.raises(ModelError, match="'g'.*not parallel"):
        m.add_coupler("gear", ja, jb, ratio=2.0, name="g")
    jc = m.add_joint("revolute", m.ground, b, point=(1, 0, 0), axis=(0, 0, 1), name="c")
    with pytest.raises(ModelError, match="'g'.*whole numbers"):
        m.add_coupler("gear", ja, jc, ratio=math.pi, name="g")
    with pytest.raises(ModelError, match="'g'.*joint 'slide' is prismatic"):
        m.add_coupler("gear", ja, jp, ratio=2.0, name="g")
    with pytest.raises(ModelError, match="'rp'.*not normal"):
        m.add_coupler("rack_pinion", ja, jp, radius=0.1, name="rp")
    with pytest.raises(ModelError, match="'s'.*takes lead="):
        m.add_coupler("screw", ja, ratio=2.0, name="s")
    with pytest.raises(ModelError, match="unknown coupler kind"):
        m.add_coupler("cam", ja, jb)


def test_coupler_removes_one_degree_of_freedom():
    m, a, b, ja, jb = _two_discs()
    assert m.degrees_of_freedom() == 2
    m.add_coupler("gear", ja, jb, ratio=2.0)
    assert m.degrees_of_freedom() == 1
    rep = m.dof_report()
    assert rep.mobility == 1 and rep.equations == 11


def test_fingerprint_and_pickle_see_couplers():
    """A parameter study's cache key changes with a coupler's ratio; a model with
    couplers travels to another process (pickle) whole."""
    import pickle
    from SimPhantWorkbench.solver.batch import fingerprint

    def pair(ratio=None):
        m, a, b, ja, jb = _two_discs()
        if ratio is not None:
            m.add_coupler("gear", ja, jb, ratio=ratio, name="g")
        return m
    assert fingerprint(pair(2.0), {}) != fingerprint(pair(3.0), {})
    assert fingerprint(pair(2.0), {}) != fingerprint(pair(), {})
    assert fingerprint(pair(2.0), {}) == fingerprint(pair(2.0), {})
    m2 = pickle.loads(pickle.dumps(pair(2.0)))
    assert m2.couplers[0].coefficients == pair(2.0).couplers[0].coefficients
    assert m2.couplers[0].joints[0] is m2.joints[0]
