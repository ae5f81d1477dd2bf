"""Drivers (prescribed joint motions), driver efforts and kinematic analysis.

* finite-difference checks of the driver rows (Phi_q, Phi_dot = Phi_q v - nu, gamma);
* a slider-crank driven at constant crank speed against its closed-form kinematics,
  with motor power = d/dt of the mechanical energy (dynamic and kinematic mode);
* a pendulum held by a driver: torque m g l sin(theta), beyond +-pi too;
* angles continuous over several revolutions;
* kinematic and dynamic mode agree on a fully driven mechanism;
* bad input: wrong joint, over-driven, under-driven.
"""
import math
import zlib

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model, ModelError
from SimPhantWorkbench.solver.drivers import FUNCTION_TYPES, MotionFunction
from SimPhantWorkbench.solver.errors import AssemblyError
from SimPhantWorkbench.solver.zoo import GRAVITY as G, held_pendulum, slider_crank

from .helpers import flow, jacobian_fd, random_inertia, random_rotation


# --------------------------------------------------------------------------- closed forms
def slider_closed_form(theta, omega, r=0.1, l=0.35):
    s, c = np.sin(theta), np.cos(theta)
    S = np.sqrt(l * l - (r * s) ** 2)
    x = r * c + S
    x1 = -r * s - r * r * s * c / S
    x2 = -r * c - r * r * (c * c - s * s) / S - r ** 4 * s * s * c * c / S ** 3
    return x, x1 * omega, x2 * omega ** 2


# --------------------------------------------------------------------------- finite differences
def _random_driven(kind, driver_kind, rng):
    m = Model(gravity=(0.0, 0.0, 0.0))
    bodies = [m.add_body("b%d" % i, mass=rng.uniform(0.5, 3.0), inertia=random_inertia(rng),
                         position=rng.normal(size=3), orientation=random_rotation(rng),
                         velocity=rng.normal(size=3), angular_velocity=rng.normal(size=3))
              for i in range(2)]
    R = random_rotation(rng)
    f1 = (rng.normal(size=3), R)
    # frame 2 near frame 1: the joint rows are nearly satisfied, the angle well defined
    f2 = (f1[0] + 0.1 * rng.normal(size=3), R + 0.1 * rng.normal(size=4))
    j = m.add_joint(kind, bodies[0], bodies[1], frame1=f1, frame2=f2)
    motion = MotionFunction("harmonic", amplitude=0.7, frequency=0.9, phase=0.3, offset=0.2)
    m.add_driver(j, motion, kind=driver_kind)
    return m, motion


@pytest.mark.parametrize("kind,driver_kind", [("revolute", "rotation"),
                                              ("cylindrical", "rotation"),
                                              ("cylindrical", "translation"),
                                              ("prismatic", "translation")])
def test_driver_rows_match_finite_differences(kind, driver_kind):
    rng = np.random.default_rng(zlib.crc32(("%s/%s" % (kind, driver_kind)).encode()))
    for trial in range(3):
        m, motion = _random_driven(kind, driver_kind, rng)
        sysm = m.compile()
        nb = sysm.nb
        Y = sysm.y0
        t = rng.uniform(0.0, 2.0)
        f, fd, fdd = motion.value_at(t)
        assert abs(fdd) > 0.1

        def phi_at(Yx, tx):
            sysm.set_loads(tx)
            return sysm.constraint_state(Yx)[0]

        sysm.set_loads(t)
        phi, J, gamma = sysm.constraint_state(Y)
        h = 1e-6
        J_fd = jacobian_fd(lambda Yx: phi_at(Yx, t), Y, nb, h)
        np.testing.assert_allclose(J, J_fd, rtol=1e-6, atol=1e-7 * max(1.0, np.abs(J).max()))
        v = Y[7 * nb:]
        r = sysm.driver_rows[0]
        k = list(sysm.active_rows).index(r)
        # total time derivative of Phi(q(t), t) along the motion = Phi_q v - nu
        dphi = (phi_at(flow(Y, nb, h), t + h) - phi_at(flow(Y, nb, -h), t - h)) / (2 * h)
        np.testing.assert_allclose(dphi, J @ v - np.eye(len(phi))[k] * fd, rtol=1e-6, atol=1e-7)
        # the kernel's Phi_dot (Baumgarte, residuals) is that derivative too
        sysm.evaluate(t, Y)
        np.testing.assert_allclose(sysm.W.phidot[sysm.active_rows], J @ v - np.eye(len(phi))[k] * fd,
                                   rtol=1e-10, atol=1e-10)
        # gamma = -(d/dt)(Phi_q v) (constant v, omega_b) + theta_d''
        hg = 1e-5
        sysm.set_loads(t)
        Jp = sysm.constraint_state(flow(Y, nb, hg))[1]
        Jm = sysm.constraint_state(flow(Y, nb, -hg))[1]
        gamma_fd = -((Jp - Jm) @ v) / (2 * hg)
        gamma_fd[k] += fdd
        np.testing.assert_allclose(gamma, gamma_fd, rtol=1e-5, atol=1e-6)


def test_driver_row_owner_is_named():
    m, _bodies, motor = slider_crank()
    sysm = m.compile()
    assert sysm.joint_name_of_row(sysm.driver_rows[0][0]) == "motor"
    assert len(m.drivers) == 1 and m.drivers[0].name == "motor" and m.drivers[0].nrows == 1


# --------------------------------------------------------------------------- time functions
@pytest.mark.parametrize("kind,params", [
    ("constant", dict(value=0.3)),
    ("ramp", dict(value=0.3, rate=-2.0)),
    ("step", dict(t0=0.2, value0=0.1, t1=1.1, value1=0.9)),
    ("step5", dict(t0=0.2, value0=0.1, t1=1.1, value1=0.9)),
    ("harmonic", dict(amplitude=0.5, frequency=1.3, phase=0.4, offset=0.1)),
    ("expression", dict(text="0.5*sin(3*t) + t**2")),
])
def test_motion_derivatives_match_finite_differences(kind, params):
    mf = MotionFunction(kind, **params)
    t = np.linspace(0.05, 1.5, 23)
    v = mf.values(t)
    h = 1e-5
    vp, vm = mf.values(t + h), mf.values(t - h)
    np.testing.assert_allclose(v[:, 1], (vp[:, 0] - vm[:, 0]) / (2 * h), atol=1e-6)
    np.testing.assert_allclose(v[:, 2], (vp[:, 1] - vm[:, 1]) / (2 * h), atol=1e-4)
    assert set(FUNCTION_TYPES) >= {kind}


def test_callable_motion_uses_complex_step_or_differences():
    m = Model()
    b = m.add_body("b", mass=1.0, inertia=(1, 1, 1))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
    d1 = m.add_driver(j, lambda t: np.sin(2 * t), name="cs")           # complex step works
    t = 0.7
    np.testing.assert_allclose(d1.value_at(t), [math.sin(1.4), 2 * math.cos(1.4),
                                                -4 * math.sin(1.4)], rtol=1e-7)
    m2 = Model()
    b2 = m2.add_body("b", mass=1.0, inertia=(1, 1, 1))
    j2 = m2.add_joint("revolute", m2.ground, b2, point=(0, 0, 0), axis=(0, 0, 1))
    d2 = m2.add_driver(j2, lambda t: math.sin(2 * t))                  # math: real only
    np.testing.assert_allclose(d2.value_at(t), d1.value_at(t), rtol=1e-5, atol=1e-5)
    d3 = Model()
    b3 = d3.add_body("b", mass=1.0, inertia=(1, 1, 1))
    j3 = d3.add_joint("revolute", d3.ground, b3, point=(0, 0, 0), axis=(0, 0, 1))
    dd = d3.add_driver(j3, lambda t: 1.0, velocity=lambda t: 2.0, acceleration=lambda t: 3.0)
    np.testing.assert_allclose(dd.value_at(0.3), [1.0, 2.0, 3.0])


# --------------------------------------------------------------------------- slider-crank
@pytest.mark.parametrize("mode", ["dynamic", "kinematic"])
def test_slider_crank_matches_closed_form_and_energy(mode):
    omega = 2 * math.pi
    theta0 = math.radians(30.0)
    m, (crank, rod, slider), motor = slider_crank(omega=omega, theta0=theta0)
    if mode == "dynamic":
        r = m.simulate(t_end=1.5, dt=1e-3, output_dt=0.005)
    else:
        r = m.kinematic(t_end=1.5, output_dt=0.005)
    theta = theta0 + omega * r.t
    x, xd, xdd = slider_closed_form(theta, omega)
    np.testing.assert_allclose(r.position(slider)[:, 0], x, atol=1e-8)
    np.testing.assert_allclose(r.velocity(slider)[:, 0], xd, atol=1e-6)
    np.testing.assert_allclose(r.acceleration(slider)[:, 0], xdd, atol=1e-4)
    np.testing.assert_allclose(r.driver_value(motor), omega * r.t)
    np.testing.assert_allclose(r.driver_rate(motor), omega)
    # motor power = d/dt (kinetic + potential energy)
    E = r.energy()["total"]
    P = r.driver_power(motor)
    np.testing.assert_allclose(P, r.driver_effort(motor) * omega)
    dE = np.gradient(E, r.t, edge_order=2)
    scale = np.abs(P).max()
    assert scale > 1.0
    np.testing.assert_allclose(P[2:-2], dE[2:-2], atol=2e-3 * scale)
    # ... and its integral is the energy change (trapezoid rule)
    work = np.concatenate([[0.0], np.cumsum(0.5 * (P[1:] + P[:-1]) * np.diff(r.t))])
    np.testing.assert_allclose(work, E - E[0], atol=1e-3 * scale * r.t[-1])
    # the driver row's effort is not part of the joint's reaction: no torque about z
    np.testing.assert_allclose(r.reaction_torque("crank_pin")[:, 2], 0.0, atol=1e-6 * scale)


def test_kinematic_and_dynamic_agree():
    m, (crank, rod, slider), motor = slider_crank()
    rd = m.simulate(t_end=1.0, dt=1e-3, output_dt=0.01)
    rk = m.kinematic(t_end=1.0, output_dt=0.01)
    np.testing.assert_allclose(rk.t, rd.t)
    for b in (crank, rod, slider):
        np.testing.assert_allclose(rk.position(b), rd.position(b), atol=1e-8)
        np.testing.assert_allclose(rk.velocity(b), rd.velocity(b), atol=1e-6)
        np.testing.assert_allclose(rk.acceleration(b), rd.acceleration(b), atol=1e-4)
    eff = np.abs(rd.driver_effort(motor)).max()
    np.testing.assert_allclose(rk.driver_effort(motor), rd.driver_effort(motor), atol=1e-5 * eff)
    for j in ("crank_pin", "rod_pin", "slider_pin", "slide"):
        F = np.abs(rd.reaction_force(j)).max()
        np.testing.assert_allclose(rk.reaction_force(j), rd.reaction_force(j), atol=1e-5 * F)
    assert rk.settings["method"] == "kinematic"


# --------------------------------------------------------------------------- pendulum held
@pytest.mark.parametrize("theta", [0.6, -1.2, 2 * math.pi + 0.5, -3 * math.pi + 0.3])
@pytest.mark.parametrize("mode", ["dynamic", "kinematic"])
def test_held_pendulum_torque(theta, mode):
    mass, length = 2.0, 0.8
    m, bob, j, d = held_pendulum(theta, mass, length)
    r = m.simulate(t_end=0.2, dt=1e-3, output_dt=0.05) if mode == "dynamic" \
        else m.kinematic(t_end=0.2, output_dt=0.05)
    # rotated by theta about +y from hanging at -z
    np.testing.assert_allclose(r.position(bob)[-1],
                               [-length * math.sin(theta), 0.0, -length * math.cos(theta)],
                               atol=1e-9)
    np.testing.assert_allclose(r.driver_effort(d), mass * G * length * math.sin(theta),
                               rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(r.driver_value(d), theta)
    np.testing.assert_allclose(r.driver_power(d), 0.0, atol=1e-12)


# --------------------------------------------------------------------------- continuity
def test_angle_continuous_over_revolutions():
    """A motor turning a wheel 5 revolutions (and back) follows theta_d(t) throughout."""
    m = Model(gravity=(0.0, 0.0, -G))
    wheel = m.add_body("wheel", mass=1.0, inertia=(0.02, 0.02, 0.04), position=(0.1, 0, 0))
    j = m.add_joint("revolute", m.ground, wheel, point=(0, 0, 0), axis=(0, 0, 1))
    d = m.add_driver(j, MotionFunction("harmonic", amplitude=10 * math.pi, frequency=0.25,
                                       phase=0.0, offset=0.0))
    r = m.simulate(t_end=4.0, dt=1e-3, output_dt=0.01)
    A = r.rotation_matrix(wheel)
    ang = np.unwrap(np.arctan2(A[:, 1, 0], A[:, 0, 0]))
    np.testing.assert_allclose(ang, r.driver_value(d), atol=1e-7)
    assert r.driver_value(d).max() > 9 * math.pi
    assert r.constraint_violation()["position"].max() < 1e-6
    w = r.angular_velocity(wheel)[:, 2]
    np.testing.assert_allclose(w, r.driver_rate(d), atol=1e-6)


def test_velocity_motor_many_revolutions_kinematic():
    m = Model(gravity=(0.0, 0.0, -G))
    wheel = m.add_body("wheel", mass=1.0, inertia=(0.02, 0.02, 0.04), position=(0.1, 0, 0))
    j = m.add_joint("revolute", m.ground, wheel, point=(0, 0, 0), axis=(0, 0, 1))
    d = m.add_driver(j, MotionFunction("ramp", value=0.0, rate=25.0))
    r = m.kinematic(t_end=3.0, output_dt=0.02)
    A = r.rotation_matrix(wheel)
    ang = np.unwrap(np.arctan2(A[:, 1, 0], A[:, 0, 0]))
    np.testing.assert_allclose(ang, 25.0 * r.t, atol=1e-8)
    np.testing.assert_allclose(r.angular_velocity(wheel)[:, 2], 25.0, atol=1e-8)
    # centripetal acceleration of the CoG
    np.testing.assert_allclose(np.linalg.norm(r.acceleration(wheel), axis=1), 0.1 * 25.0 ** 2,
                               rtol=1e-7)


def test_translation_driver_force():
    """A vertical actuator lifting a mass: force = m (g + x'')."""
    m = Model(gravity=(0.0, 0.0, -G))
    b = m.add_body("ram", mass=3.0, inertia=(0.1, 0.1, 0.1))
    j = m.add_joint("prismatic", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
    d = m.add_driver(j, MotionFunction("harmonic", amplitude=0.2, frequency=1.0, phase=0.0,
                                       offset=0.0))
    for r in (m.simulate(t_end=1.0, dt=1e-3, output_dt=0.01), m.kinematic(1.0, 0.01)):
        x, _xd, xdd = d.values(r.t).T
        np.testing.assert_allclose(r.position(b)[:, 2], x, atol=1e-9)
        np.testing.assert_allclose(r.driver_effort(d), 3.0 * (G + xdd), rtol=1e-6)


def test_result_round_trip_keeps_driver_series(tmp_path):
    m, _bodies, motor = slider_crank()
    r = m.kinematic(0.2, 0.02)
    p = tmp_path / "r.npz"
    r.save(str(p))
    from SimPhantWorkbench.solver import Result
    r2 = Result.load(str(p))
    assert r2.driver_names == ["motor"]
    np.testing.assert_allclose(r2.driver_effort("motor"), r.driver_effort(motor))
    np.testing.assert_allclose(r2.driver_power("motor"), r.driver_power(motor))
    with pytest.raises(KeyError):
        r2.driver_effort("nope")


# --------------------------------------------------------------------------- bad input
def test_driver_on_joint_without_that_dof():
    m = Model()
    b = m.add_body("b", mass=1.0, inertia=(1, 1, 1))
    j = m.add_joint("prismatic", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1), name="slide")
    with pytest.raises(ModelError, match=r"'spin'.*'slide'.*prismatic"):
        m.add_driver(j, 0.1, kind="rotation", name="spin")
    s = m.add_joint("spherical", m.ground, b, point=(0, 0, 0), name="ball")
    with pytest.raises(ModelError, match="ball"):
        m.add_driver(s, 0.1)
    with pytest.raises(ModelError, match="unknown driver kind"):
        m.add_driver(j, 0.1, kind="twist")
    m.add_driver(j, 0.1, name="lift")
    with pytest.raises(ModelError, match="already has"):
        m.add_driver(j, 0.2, name="lift2")
    j2 = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1), name="hinge")
    with pytest.raises(ModelError, match="'bad'.*function failed"):
        m.add_driver(j2, lambda t: 1 / 0, name="bad")


def test_over_driven_mechanism_is_diagnosed():
    # consistent: the slider held where the (stopped) crank puts it: a warning naming it
    m, _bodies, motor = slider_crank(omega=0.0)
    m.add_driver("slide", 0.0, name="slide_hold")
    r = m.simulate(t_end=0.05, dt=1e-3, output_dt=0.01)
    assert any("over-driven" in w and ("slide_hold" in w or "motor" in w) for w in r.warnings)
    rk = m.kinematic(0.05, 0.01)
    assert any("over-driven" in w for w in rk.warnings)
    # conflicting: the slider held 5 cm away from where the crank puts it
    m2, _bodies2, _motor2 = slider_crank(omega=0.0)
    m2.add_driver("slide", 0.05, name="slide_push")
    with pytest.raises(AssemblyError, match="slide_push|motor"):
        m2.simulate(t_end=0.05, dt=1e-3)
    with pytest.raises(AssemblyError, match="slide_push|motor"):
        m2.kinematic(0.05, 0.01)


def test_kinematic_needs_all_dof_driven():
    m, bodies, joints = _two_link()
    with pytest.raises(ModelError, match=r"2 degree\(s\) of freedom remain"):
        m.kinematic(1.0, 0.1)
    m.add_driver(joints[0], MotionFunction("ramp", value=0.0, rate=1.0))
    with pytest.raises(ModelError, match=r"1 degree\(s\) of freedom remain"):
        m.kinematic(1.0, 0.1)
    m.add_driver(joints[1], 0.3)
    r = m.kinematic(0.5, 0.1)
    assert len(r.t) == 6


def _two_link():
    m = Model(gravity=(0.0, 0.0, -G))
    b1 = m.add_body("l1", mass=1.0, inertia=(0.01, 0.1, 0.1), position=(0.5, 0, 0))
    b2 = m.add_body("l2", mass=1.0, inertia=(0.01, 0.1, 0.1), position=(1.5, 0, 0))
    j1 = m.add_joint("revolute", m.ground, b1, point=(0, 0, 0), axis=(0, 1, 0))
    j2 = m.add_joint("revolute", b1, b2, point=(1, 0, 0), axis=(0, 1, 0))
    return m, (b1, b2), (j1, j2)


def test_fingerprint_sees_drivers():
    from SimPhantWorkbench.solver.batch import fingerprint
    m1 = slider_crank(omega=1.0)[0]
    m2 = slider_crank(omega=2.0)[0]
    assert fingerprint(m1, {}) is not None
    assert fingerprint(m1, {}) != fingerprint(m2, {})
    assert fingerprint(m1, {}) == fingerprint(slider_crank(omega=1.0)[0], {})
    m, bob, j, d = held_pendulum(0.3)
    m.drivers[0].motions = [type(d.motion).from_callables(lambda t: 0.3)]
    assert fingerprint(m, {}) is None       # a Python callable cannot be described


def test_expression_errors_show_the_users_text():
    with pytest.raises(ModelError, match=r"'sin\(t\) \+'"):
        MotionFunction("expression", what="driver 'x'", text="sin(t) +")
    with pytest.raises(ModelError, match="one value"):
        MotionFunction("expression", what="driver 'x'", text="t, 2")
    with pytest.raises(ModelError, match="not allowed.*'os.system'"):
        MotionFunction("expression", what="driver 'x'", text="os.system")
    with pytest.raises(ModelError, match="unknown name"):
        MotionFunction("expression", what="driver 'x'", text="2*x")


# --------------------------------------------------------------------------- point trajectory
def _check_driver_rows(sysm, t, f):
    """The rows of ``sysm`` at its initial state and time ``t`` against finite
    differences: Phi_q, the total time derivative Phi_q v - nu along the flow, and
    gamma = -(Phi_q)_dot v + f''. ``f`` (rows, 3): each row's prescribed (f, f', f'').
    Returns (Phi_q, v, nu)."""
    nb = sysm.nb
    Y = sysm.y0

    def phi_at(Yx, tx):
        sysm.set_loads(tx)
        return sysm.constraint_state(Yx)[0]

    sysm.set_loads(t)
    phi, J, gamma = sysm.constraint_state(Y)
    assert phi.shape == (len(f),)
    h = 1e-6
    J_fd = jacobian_fd(lambda Yx: phi_at(Yx, t), Y, nb, h)
    np.testing.assert_allclose(J, J_fd, rtol=1e-6, atol=1e-7)
    v = Y[7 * nb:]
    dphi = (phi_at(flow(Y, nb, h), t + h) - phi_at(flow(Y, nb, -h), t - h)) / (2 * h)
    np.testing.assert_allclose(dphi, J @ v - f[:, 1], rtol=1e-6, atol=1e-7)
    hg = 1e-5
    sysm.set_loads(t)
    Jp = sysm.constraint_state(flow(Y, nb, hg))[1]
    Jm = sysm.constraint_state(flow(Y, nb, -hg))[1]
    np.testing.assert_allclose(gamma, -((Jp - Jm) @ v) / (2 * hg) + f[:, 2], rtol=1e-5,
                               atol=1e-6)
    return J, v, f[:, 1]


def test_point_driver_rows_match_finite_differences():
    rng = np.random.default_rng(zlib.crc32(b"point-driver"))
    m = Model(gravity=(0.0, 0.0, 0.0))
    b = m.add_body("b", mass=1.3, inertia=random_inertia(rng), position=rng.normal(size=3),
                   orientation=random_rotation(rng), velocity=rng.normal(size=3),
                   angular_velocity=rng.normal(size=3))
    motions = [MotionFunction("harmonic", amplitude=0.3 + 0.1 * c, frequency=0.7, phase=c,
                              offset=0.1) for c in range(3)]
    m.add_point_driver(b, motions, local_point=(0.2, -0.1, 0.3), name="tp")
    sysm = m.compile()
    assert sysm.nb == 1
    t = 0.37
    J, v, nu = _check_driver_rows(sysm, t, np.array([mf.value_at(t) for mf in motions]))
    sysm.evaluate(t, sysm.y0)        # the kernel's Phi_dot (Baumgarte, residuals) too
    np.testing.assert_allclose(sysm.W.phidot[sysm.active_rows], J @ v - nu, rtol=1e-10,
                               atol=1e-10)


@pytest.mark.parametrize("mode", ["dynamic", "kinematic"])
def test_point_driver_moves_a_pendulum_pivot(mode):
    """A point driver at the CoG of a free body carries it on a circle: the point follows
    its path and the driver's force is m a - m g (world axes), its power F . v. The
    body's rotation is left free: a kinematic analysis names the 3 DOF left."""
    m = Model(gravity=(0.0, 0.0, -G))
    R, w = 0.3, 3.0
    b = m.add_body("puck", mass=2.0, inertia=(0.01, 0.01, 0.01), position=(R, 0.0, 0.0))
    traj = ("%g*cos(%g*t)" % (R, w), "%g*sin(%g*t)" % (R, w), 0.0)
    d = m.add_point_driver(b, traj, name="circle")
    if mode == "kinematic":
        with pytest.raises(ModelError, match=r"3 degree\(s\) of freedom remain"):
            m.kinematic(1.0, 0.05)
        return
    r = m.simulate(t_end=1.0, dt=1e-3, output_dt=0.01)
    p = r.position(b)
    np.testing.assert_allclose(p[:, 0], R * np.cos(w * r.t), atol=1e-6)
    np.testing.assert_allclose(p[:, 1], R * np.sin(w * r.t), atol=1e-6)
    np.testing.assert_allclose(p[:, 2], 0.0, atol=1e-9)
    F = r.driver_effort(d)
    assert F.shape == (len(r.t), 3)
    acc = -w * w * p                              # centripetal
    np.testing.assert_allclose(F, 2.0 * (acc - np.array([0, 0, -G])), atol=1e-4)
    # power = F . v, and it is the rate of change of the energy
    np.testing.assert_allclose(r.driver_power(d), np.einsum("ni,ni->n", F, r.velocity(b)),
                               atol=1e-6)
    assert r.driver_value(d).shape == (len(r.t), 3)
    assert r.driver_names == ["circle"] and r.driver_row_counts == [3]


# --------------------------------------------------------------------------- angle driver
@pytest.mark.parametrize("ground_side", [None, 0, 1])
def test_angle_driver_row_matches_finite_differences(ground_side):
    rng = np.random.default_rng(zlib.crc32(("angle-driver/%s" % ground_side).encode()))
    m = Model(gravity=(0.0, 0.0, 0.0))
    bodies = [m.add_body("b%d" % i, mass=rng.uniform(0.5, 3.0), inertia=random_inertia(rng),
                         position=rng.normal(size=3), orientation=random_rotation(rng),
                         velocity=rng.normal(size=3), angular_velocity=rng.normal(size=3))
              for i in range(2)]
    if ground_side is not None:
        bodies[ground_side] = m.ground
    motion = MotionFunction("harmonic", amplitude=0.7, frequency=0.9, phase=0.3, offset=2.9)
    m.add_angle_driver(bodies[0], bodies[1], axis=rng.normal(size=3), vector1=rng.normal(size=3),
                       vector2=rng.normal(size=3), position=motion, name="ar")
    sysm = m.compile()
    t = 0.8
    _check_driver_rows(sysm, t, np.atleast_2d(motion.value_at(t)))


@pytest.mark.parametrize("mode", ["dynamic", "kinematic"])
def test_angle_driver_holds_a_pendulum_like_the_joint_driver(mode):
    """The orientation of the bob's x vector about the world y axis, prescribed by an
    angle driver from ground, holds the pendulum as the joint driver does."""
    mass, length, theta = 2.0, 0.8, 0.6
    m = Model(gravity=(0.0, 0.0, -G))
    bob = m.add_body("bob", mass=mass, inertia=(1e-3, 1e-3, 1e-3), position=(0.0, 0.0, -length))
    m.add_joint("revolute", m.ground, bob, point=(0, 0, 0), axis=(0.0, 1.0, 0.0), name="pivot")
    d = m.add_angle_driver(m.ground, bob, axis=(0, 1, 0), vector1=(0, 0, 1), position=theta,
                           name="tilt")
    r = m.simulate(t_end=0.2, dt=1e-3, output_dt=0.05) if mode == "dynamic" \
        else m.kinematic(0.2, 0.05)
    np.testing.assert_allclose(r.position(bob)[-1],
                               [-length * math.sin(theta), 0.0, -length * math.cos(theta)],
                               atol=1e-9)
    np.testing.assert_allclose(r.driver_effort(d), mass * G * length * math.sin(theta),
                               rtol=1e-6)
    # the pivot carries no torque about its axis: the driver does it all
    np.testing.assert_allclose(r.reaction_torque("pivot")[:, 1], 0.0, atol=1e-6)


def test_models_with_drivers_pickle_and_run_with_scipy_methods():
    """Motion functions pickle as their kind and parameters (an expression as its text),
    so a driven model goes to a process pool; an adaptive SciPy method follows the
    driver as the fixed-step one does."""
    import pickle
    m, (crank, rod, slider), motor = slider_crank()
    m2 = pickle.loads(pickle.dumps(m))
    np.testing.assert_allclose(m2.drivers[0].value_at(0.3), motor.value_at(0.3))
    mf = pickle.loads(pickle.dumps(MotionFunction("expression", text="sin(t)")))
    np.testing.assert_allclose(mf.value_at(0.5)[0], math.sin(0.5))
    r = m2.simulate(t_end=0.5, method="RK45", output_dt=0.01, rtol=1e-10, atol=1e-12)
    theta = math.radians(30.0) + 2 * math.pi * r.t
    x, _xd, _xdd = slider_closed_form(theta, 2 * math.pi)
    np.testing.assert_allclose(r.position("slider")[:, 0], x, atol=1e-6)


def test_driver_metrics_and_batch_kinematic_runs():
    from SimPhantWorkbench.solver.batch import Task, run_task
    from SimPhantWorkbench.solver.metrics import parse_metric
    m, _bodies, motor = slider_crank()
    metric = parse_metric("absmax(driver_effort(motor))").resolved("motor")
    r = m.kinematic(0.5, 0.01)
    assert metric.evaluate(r) == pytest.approx(np.abs(r.driver_effort(motor)).max())
    power = parse_metric("mean(driver_power(motor))").resolved("motor")
    assert power.evaluate(r) == pytest.approx(r.driver_power(motor).mean())
    task = Task(index=0, key="k", model=m, settings=dict(t_end=0.5, output_dt=0.01,
                                                          analysis="kinematic"),
                metrics=[metric])
    out = run_task(task)
    assert out["status"] == "ok", out
    assert out["metrics"][metric.name] == pytest.approx(metric.evaluate(r))


def test_kinematic_analysis_stops_where_the_position_equations_have_no_solution():
    """The slider pushed outwards at constant speed past the crank's reach (r + l): the
    kinematic analysis stops there with a SimulationError carrying the samples so far."""
    from SimPhantWorkbench.solver import SimulationError
    m, (crank, rod, slider), motor = slider_crank()
    m.drivers.clear()
    x0 = slider.position[0]
    reach = 0.1 + 0.35
    d = m.add_driver("slide", MotionFunction("ramp", value=0.0, rate=0.05), name="push")
    t_hit = (reach - x0) / 0.05
    with pytest.raises(SimulationError, match="kinematic analysis stopped") as info:
        m.kinematic(t_end=t_hit + 0.5, output_dt=0.01)
    r = info.value.result
    assert r is not None and 0.5 * t_hit < r.t[-1] <= t_hit + 1e-9
    np.testing.assert_allclose(r.position(slider)[:, 0], x0 + 0.05 * r.t, atol=1e-9)
    assert d.name in r.driver_names


def test_shifted_motion_adds_its_offset_and_keeps_the_derivatives():
    """``ShiftedMotion`` (a point trajectory as a displacement from the start): the value
    is offset + f, its first and second derivatives match central differences of the
    value; it pickles, describes itself apart from the unshifted motion, and a point
    driver takes it as a component."""
    import pickle
    from SimPhantWorkbench.solver.drivers import ShiftedMotion
    base = MotionFunction("harmonic", amplitude=0.05, frequency=1.3, phase=0.4, offset=-0.02)
    m = ShiftedMotion(base, 0.7)
    t = np.array([0.1, 0.55, 1.2])
    f, h = m.values(t), 1e-4
    np.testing.assert_allclose(f[:, 0], base.values(t)[:, 0] + 0.7, rtol=0, atol=1e-15)
    fp, fm = m.values(t + h)[:, 0], m.values(t - h)[:, 0]
    np.testing.assert_allclose(f[:, 1], (fp - fm) / (2 * h), atol=1e-8)
    np.testing.assert_allclose(f[:, 2], (fp - 2 * f[:, 0] + fm) / h ** 2, atol=1e-5)
    np.testing.assert_allclose(pickle.loads(pickle.dumps(m)).values(t), f)
    assert m.describe() != base.describe() and m.kind == "harmonic"
    model = Model(gravity=(0.0, 0.0, 0.0))
    b = model.add_body("b", mass=1.0, inertia=(0.1, 0.1, 0.1), position=(0.7, 0.0, 0.0))
    d = model.add_point_driver(b, [m, 0.0, 0.0], name="p")
    np.testing.assert_allclose(d.row_values(0, t), f)
