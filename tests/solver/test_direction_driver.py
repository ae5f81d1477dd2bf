"""Direction driver (a body vector pointed along a prescribed direction u(t)):

* finite-difference checks of its rows (Phi_q, Phi_dot = Phi_q v - nu, gamma), from
  ground and from a second body, with a direction that is not of unit length;
* the unit direction's derivatives against finite differences;
* a rod on a spherical joint, its axis on a cone: follows the direction (dynamic), and
  with a universal joint the mechanism is fully driven (kinematic = dynamic);
* a held pendulum: the driver torque balances the gravity moment;
* bad input names the driver.
"""
import math
import zlib

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model, ModelError
from SimPhantWorkbench.solver.drivers import MotionFunction, direction_motions

from .helpers import flow, jacobian_fd, random_inertia, random_rotation

G = 9.81


def _harmonic_direction(rng):
    return [MotionFunction("harmonic", amplitude=0.4 + 0.2 * c, frequency=0.6 + 0.3 * c,
                           phase=rng.uniform(0, 6), offset=rng.normal()) for c in range(3)]


@pytest.mark.parametrize("with_body1", [False, True])
def test_direction_rows_match_finite_differences(with_body1):
    rng = np.random.default_rng(zlib.crc32(("direction/%s" % with_body1).encode()))
    for trial in range(3):
        m = Model(gravity=(0.0, 0.0, 0.0))
        bodies = [m.add_body("b%d" % i, mass=rng.uniform(0.5, 3.0), inertia=random_inertia(rng),
                             position=rng.normal(size=3), orientation=random_rotation(rng),
                             velocity=rng.normal(size=3), angular_velocity=rng.normal(size=3))
                  for i in range(2)]
        direction = _harmonic_direction(rng)
        u0 = np.array([mf.value_at(0.0)[0] for mf in direction])
        u0 /= np.linalg.norm(u0)
        R1 = bodies[0].A_user if with_body1 else np.eye(3)
        vector = R1 @ u0 + 0.3 * rng.normal(size=3)
        d = m.add_direction_driver(bodies[1], vector, direction,
                                   body1=bodies[0] if with_body1 else None, name="ov")
        assert d.nrows == 2 and d.nslots == 3
        sysm = m.compile()
        nb = sysm.nb
        Y = sysm.y0
        t = rng.uniform(0.1, 2.0)

        def phi_at(Yx, tx):
            sysm.set_loads(tx)
            return sysm.constraint_state(Yx)[0]

        sysm.set_loads(t)
        phi, J, gamma = sysm.constraint_state(Y)
        assert phi.shape == (2,)
        assert np.abs(phi).max() > 1e-3        # off the constraint: a real check
        h = 1e-6
        J_fd = jacobian_fd(lambda Yx: phi_at(Yx, t), Y, nb, h)
        np.testing.assert_allclose(J, J_fd, rtol=1e-6, atol=1e-8)
        if not with_body1:
            assert np.all(J[:, :6] == 0.0)     # only the driven body's columns
        # the kernel's Phi_dot = total time derivative of Phi(q(t), t) = Phi_q v - nu
        v = Y[7 * nb:]
        dphi = (phi_at(flow(Y, nb, h), t + h) - phi_at(flow(Y, nb, -h), t - h)) / (2 * h)
        sysm.evaluate(t, Y)
        np.testing.assert_allclose(sysm.W.phidot[sysm.active_rows], dphi, rtol=1e-6, atol=1e-8)
        nu = J @ v - dphi
        assert np.abs(nu).max() > 1e-2         # the direction moves: nu is exercised
        # gamma: Phi_q a = gamma with a = 0 along the flow (constant v, body omega), so
        # gamma = -(second total derivative of Phi along the flow)
        hg = 1e-4
        d2 = (phi_at(flow(Y, nb, hg), t + hg) - 2.0 * phi_at(Y, t)
              + phi_at(flow(Y, nb, -hg), t - hg)) / hg ** 2
        np.testing.assert_allclose(gamma, -d2, rtol=1e-5, atol=1e-5)


def test_unit_direction_derivatives_match_finite_differences():
    rng = np.random.default_rng(7)
    slots = direction_motions(_harmonic_direction(rng), what="ov")
    t = 0.83
    h = 1e-5

    def u(x):
        return np.array([s.value_at(x)[0] for s in slots])

    vals = np.array([s.value_at(t) for s in slots])
    assert abs(np.linalg.norm(vals[:, 0]) - 1.0) < 1e-14
    np.testing.assert_allclose(vals[:, 1], (u(t + h) - u(t - h)) / (2 * h), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(vals[:, 2], (u(t + h) - 2 * u(t) + u(t - h)) / h ** 2,
                               rtol=1e-4, atol=1e-5)
    assert np.abs(vals[:, 2]).max() > 0.1


# --------------------------------------------------------------------------- conical motion
BETA, OMEGA, LENGTH, MASS = math.radians(30.0), 4.0, 0.5, 1.5


def cone(t):
    return (math.sin(BETA) * math.cos(OMEGA * t), math.sin(BETA) * math.sin(OMEGA * t),
            -math.cos(BETA))


def conical_rod(joint):
    """A rod hanging from a ground joint at the origin, its axis (body z, from the pivot to
    the CoG at L/2) driven around a cone of half-angle BETA about -z."""
    m = Model(gravity=(0.0, 0.0, -G))
    d0 = np.array(cone(0.0))
    R = np.column_stack([np.cross([0, 1.0, 0], d0), [0, 1.0, 0], d0])
    rod = m.add_body("rod", mass=MASS, inertia=(0.03, 0.03, 0.002),
                     position=0.5 * LENGTH * d0, orientation=R)
    if joint == "spherical":
        m.add_joint("spherical", m.ground, rod, point=(0, 0, 0), name="pivot")
    else:
        m.add_joint("universal", m.ground, rod, point=(0, 0, 0), axis=(1.0, 0, 0),
                    axis2=(0, 1.0, 0), name="pivot")
    d = m.add_direction_driver(rod, d0, cone, name="cone")
    return m, rod, d


@pytest.mark.parametrize("joint,mode", [("spherical", "dynamic"), ("universal", "dynamic"),
                                        ("universal", "kinematic")])
def test_rod_axis_follows_a_cone(joint, mode):
    m, rod, d = conical_rod(joint)
    r = m.simulate(t_end=1.5, dt=1e-3, output_dt=0.05) if mode == "dynamic" \
        else m.kinematic(1.5, 0.05)
    want = np.array([cone(t) for t in r.t])
    np.testing.assert_allclose(r.rotation_matrix(rod)[:, :, 2], want, atol=1e-6)
    np.testing.assert_allclose(r.position(rod), 0.5 * LENGTH * want, atol=1e-6)
    np.testing.assert_allclose(r.driver_value(d), want, atol=1e-12)
    tau = r.driver_effort(d)
    assert tau.shape == (len(r.t), 3)
    # the driver torque is normal to the driven axis; its power = torque . omega
    np.testing.assert_allclose(np.einsum("ni,ni->n", tau, want), 0.0,
                               atol=1e-6 * np.abs(tau).max())
    np.testing.assert_allclose(r.driver_power(d),
                               np.einsum("ni,ni->n", tau, r.angular_velocity(rod)), atol=1e-9)
    if joint == "universal":
        # the joint does no work: the driver's work is the change of kinetic + potential
        # energy
        e = r.energy()
        work = np.concatenate([[0.0], np.cumsum(0.5 * (r.driver_power(d)[1:]
                                                       + r.driver_power(d)[:-1])
                                                * np.diff(r.t))])
        mech = e["kinetic"] + e["potential"]
        np.testing.assert_allclose(mech - mech[0], work, atol=2e-3 * max(1.0, np.abs(work).max()))


def test_kinematic_and_dynamic_agree_on_the_cone():
    m, rod, d = conical_rod("universal")
    rk = m.kinematic(1.0, 0.1)
    rd = m.simulate(t_end=1.0, dt=1e-3, output_dt=0.1)
    np.testing.assert_allclose(rk.quaternion(rod), rd.quaternion(rod), atol=1e-6)
    np.testing.assert_allclose(rk.driver_effort(d), rd.driver_effort(d), rtol=1e-5,
                               atol=1e-6 * np.abs(rd.driver_effort(d)).max())


def test_spherical_cone_leaves_the_spin_free():
    m, _rod, _d = conical_rod("spherical")
    with pytest.raises(ModelError, match=r"1 degree\(s\) of freedom remain"):
        m.kinematic(1.0, 0.1)


# --------------------------------------------------------------------------- held pendulum
@pytest.mark.parametrize("mode", ["dynamic", "kinematic"])
def test_held_pendulum_torque_is_the_gravity_moment(mode):
    """A bob on a rod from a ground revolute about y, the rod direction held at theta from
    -z by a direction driver (in the plane of the hinge the driver is the only one
    resisting gravity): torque = -(r x m g), about -y."""
    theta, L = 0.7, 0.8
    m = Model(gravity=(0.0, 0.0, -G))
    d0 = np.array([math.sin(theta), 0.0, -math.cos(theta)])
    # starts a little off: the assembly turns it to theta
    ds = np.array([math.sin(theta + 0.05), 0.0, -math.cos(theta + 0.05)])
    bob = m.add_body("bob", mass=MASS, inertia=(1e-3, 1e-3, 1e-3), position=L * ds)
    m.add_joint("revolute", m.ground, bob, point=(0, 0, 0), axis=(0.0, 1.0, 0.0), name="pivot")
    # given in the axes of a second body: a ground-fixed "frame" body welded to ground
    frame = m.add_body("frame", mass=1.0, inertia=(0.1, 0.1, 0.1), position=(0, 0, 1.0),
                       orientation=np.array([[0, -1.0, 0], [1.0, 0, 0], [0, 0, 1.0]]))
    m.add_joint("fixed", m.ground, frame, point=(0, 0, 1.0), name="weld")
    local = frame.A_user.T @ d0
    d = m.add_direction_driver(bob, ds, tuple(local), body1=frame, name="hold")
    r = m.simulate(t_end=0.3, dt=1e-3, output_dt=0.1) if mode == "dynamic" \
        else m.kinematic(0.3, 0.1)
    np.testing.assert_allclose(r.position(bob)[-1], L * d0, atol=1e-9)
    gravity_moment = np.cross(L * d0, [0.0, 0.0, -MASS * G])
    tau = r.driver_effort(d)
    # the hinge takes the torque components normal to its axis; about y the driver does it all
    np.testing.assert_allclose(tau[:, 1], -gravity_moment[1], rtol=1e-6)
    np.testing.assert_allclose(r.reaction_torque("pivot")[:, 1], 0.0, atol=1e-6)
    np.testing.assert_allclose(r.driver_power(d), 0.0, atol=1e-9)


def test_free_body_held_by_direction_and_point_drivers():
    """Without a joint: a point driver holds the CoG, the direction driver the axis. The
    driver torque is the only moment: with the CoG held, gravity has none, so it is 0;
    hold an off-centre point instead and it balances m g about that point."""
    m = Model(gravity=(0.0, 0.0, -G))
    d0 = np.array([0.6, 0.0, 0.8])
    b = m.add_body("b", mass=MASS, inertia=(0.02, 0.02, 0.02), position=0.5 * d0)
    m.add_point_driver(b, (0.0, 0.0, 0.0), point=(0.0, 0.0, 0.0), name="pin")
    d = m.add_direction_driver(b, d0, d0, name="axis")
    r = m.simulate(t_end=0.2, dt=1e-3, output_dt=0.1)
    tau = r.driver_effort(d)
    want = -np.cross(0.5 * d0, [0.0, 0.0, -MASS * G])
    # about the axis the body is free (and not loaded); normal to it the driver balances
    np.testing.assert_allclose(tau, np.broadcast_to(want, tau.shape), atol=1e-6)


# --------------------------------------------------------------------------- bad input
def test_bad_input_names_the_driver():
    m = Model()
    b = m.add_body("b", mass=1.0, inertia=(1, 1, 1))
    with pytest.raises(ModelError, match=r"'aim'.*zero vector"):
        m.add_direction_driver(b, (0, 0, 0), (1, 0, 0), name="aim")
    with pytest.raises(ModelError, match=r"'aim'.*zero vector at t=0"):
        m.add_direction_driver(b, (1, 0, 0), lambda t: (0.0, 0.0, 0.0), name="aim")
    with pytest.raises(ModelError, match=r"'aim'.*opposite direction"):
        m.add_direction_driver(b, (1, 0, 0), (-1, 0.1, 0), name="aim")
    with pytest.raises(ModelError, match=r"'aim'.*3 components"):
        m.add_direction_driver(b, (1, 0, 0), (1, 0), name="aim")
    with pytest.raises(ModelError, match=r"'aim'.*cannot drive ground"):
        m.add_direction_driver(m.ground, (1, 0, 0), (1, 0, 0), name="aim")
    assert not m.drivers
    # zero later in the run: the run stops naming the driver
    m.add_direction_driver(b, (1, 0, 0), lambda t: (max(0.0, 1.0 - t), 0.0, 0.0), name="aim")
    with pytest.raises(ModelError, match=r"'aim'.*zero vector at t=1"):
        m.simulate(t_end=2.0, dt=0.01)


# --------------------------------------------------------------------------- plumbing
def _pendulum_on_cone(direction):
    m = Model(gravity=(0.0, 0.0, -G))
    b = m.add_body("b", mass=1.0, inertia=(0.1, 0.1, 0.1), position=(0.0, 0.0, -1.0))
    m.add_joint("spherical", m.ground, b, point=(0, 0, 0), name="pivot")
    d = m.add_direction_driver(b, (0, 0, -1), direction, name="ov")
    return m, d


def test_round_trip_pickle_and_fingerprint(tmp_path):
    """Expression directions pickle (a process pool runs the model), the batch fingerprint
    tells two directions apart, and a saved result keeps the driver's (n, 3) series."""
    import pickle

    from SimPhantWorkbench.solver import Result
    from SimPhantWorkbench.solver.batch import fingerprint
    cone_a = ("0.3*cos(2*t)", "0.3*sin(2*t)", -1.0)
    m, d = _pendulum_on_cone(cone_a)
    r = pickle.loads(pickle.dumps(m)).simulate(t_end=0.3, dt=1e-3, output_dt=0.1)
    assert r.driver_row_counts == [3] and r.driver_effort("ov").shape == (4, 3)
    assert np.abs(r.driver_effort("ov")).max() > 1.0
    p = tmp_path / "r.npz"
    r.save(str(p))
    r2 = Result.load(str(p))
    for get in ("driver_effort", "driver_value", "driver_rate", "driver_power"):
        np.testing.assert_allclose(getattr(r2, get)("ov"), getattr(r, get)("ov"))
    assert fingerprint(m, {}) is not None
    assert fingerprint(m, {}) == fingerprint(_pendulum_on_cone(cone_a)[0], {})
    assert fingerprint(m, {}) != fingerprint(
        _pendulum_on_cone(("0.3*cos(3*t)", "0.3*sin(3*t)", -1.0))[0], {})


def test_a_compiled_system_scales_the_direction_rows_with_the_drivers_values():
    """The rows' Tikhonov scales and rank are taken when the system is compiled: with the
    direction's values at t = 0, not with none (then the rows were zero, taken as
    redundant, their eps 0 and its inverse infinite)."""
    from SimPhantWorkbench.solver.joints import PRIM_DIR
    rng = np.random.default_rng(7)
    m = Model(gravity=(0.0, 0.0, -G))
    b = m.add_body("rod", mass=1.0, inertia=(0.1, 0.1, 0.02), position=(0.0, 0.0, -0.5))
    m.add_joint("spherical", m.ground, b, point=(0.0, 0.0, 0.0))
    direction = _harmonic_direction(rng)
    u0 = np.array([mf.value_at(0.0)[0] for mf in direction])
    m.add_direction_driver(b, u0 / np.linalg.norm(u0) + 0.1 * rng.normal(size=3), direction,
                           name="cone")
    sysm = m.compile()
    rows = sysm.S.row_prim == PRIM_DIR
    assert rows.sum() == 2
    assert np.all(np.isfinite(sysm.S.row_eps_inv))
    assert np.all(sysm.S.row_eps[rows] > 1e-15)
    assert not sysm.redundant[rows].any()
