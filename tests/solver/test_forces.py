"""Force elements (solver/forces.py): laws against finite differences of their
potentials, closed-form oscillators, energy balances, actuators and bad input."""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import kernels, Model, ModelError
from SimPhantWorkbench.solver.forces import (FORCE_TYPES, GEOM_JOINT_ROT, check_element,
                                             table_integral)
from SimPhantWorkbench.solver.rotations import matrix_to_quat, quat_to_matrix


# --------------------------------------------------------------------------- helpers
def _quat(axis, angle):
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.r_[math.cos(angle / 2), math.sin(angle / 2) * a]


def _forces(system, Y):
    """Q per body: [world force, body-frame (principal) torque] at state Y (t = 0)."""
    system.set_loads(0.0)
    kernels.update_bodies(np.ascontiguousarray(Y), system.S, system.W)
    kernels.build_forces(system.S, system.W)
    return system.W.Q.copy()


def _perturb(Y, b, k, h):
    """Y with body b moved by h along generalised direction k (0-2 translation world,
    3-5 rotation about the body-frame axis k-3)."""
    Z = Y.copy()
    p = 7 * b
    if k < 3:
        Z[p + k] += h
    else:
        q = Z[p + 3:p + 7]
        e = np.zeros(3)
        e[k - 3] = 1.0
        dq = _quat(e, h)
        w1, v1 = q[0], q[1:]
        w2, v2 = dq[0], dq[1:]
        Z[p + 3:p + 7] = np.r_[w1 * w2 - v1 @ v2, w1 * v2 + w2 * v1 + np.cross(v1, v2)]
    return Z


def _check_gradient(system, Y, V, rtol=1e-6, atol=1e-9):
    """Generalised force (no gravity) equals -dV/dq in every body coordinate."""
    Q = _forces(system, Y)
    h = 1e-6
    for b in range(system.nb):
        for k in range(6):
            dV = (V(_perturb(Y, b, k, h)) - V(_perturb(Y, b, k, -h))) / (2 * h)
            assert Q[b, k] == pytest.approx(-dV, rel=rtol, abs=atol), (b, k)


def _two_free_bodies(m):
    b1 = m.add_body("b1", mass=1.0, inertia=(0.1, 0.2, 0.3), position=(0.1, -0.2, 0.3),
                    orientation=_quat((1, 2, 3), 0.7))
    b2 = m.add_body("b2", mass=2.0, inertia=(0.3, 0.2, 0.4), position=(0.9, 0.4, -0.2),
                    orientation=_quat((-1, 0.5, 2), 1.1))
    return b1, b2


def _points_world(system, e, Y):
    """World positions of a point element's two points at state Y."""
    out = []
    for side, body in enumerate((e.body1, e.body2)):
        u = system.S.frc_point[e.index, side]
        if body.is_ground:
            out.append(u)
        else:
            p = 7 * body.index
            out.append(Y[p:p + 3] + quat_to_matrix(Y[p + 3:p + 7]) @ u)
    return out


def _joint_frames(system, j, Y):
    k = system.joint_pos[j.index]
    S = system.S
    frames = []
    for side, body in enumerate((j.body1, j.body2)):
        if body.is_ground:
            A, r = np.eye(3), np.zeros(3)
        else:
            p = 7 * body.index
            A, r = quat_to_matrix(Y[p + 3:p + 7]), Y[p:p + 3]
        frames.append((r + A @ S.jnt_anchor[k, side], A @ S.jnt_frame[k, side]))
    return frames


# --------------------------------------------------------------------------- finite differences
@pytest.mark.parametrize("law", ["linear", "table"])
def test_point_spring_force_is_minus_gradient_of_its_potential(law):
    m = Model(gravity=(0, 0, 0))
    b1, b2 = _two_free_bodies(m)
    X1, X2 = (0.3, -0.1, 0.5), (0.7, 0.6, -0.4)
    if law == "linear":
        k = 350.0
    else:
        k = [(-1.0, -50.0), (0.0, 0.0), (0.1, 80.0), (2.0, 400.0)]
    e = m.add_spring(b1, X1, b2, X2, stiffness=k, free_length=0.8, preload=7.0, name="s")
    s = m.compile()
    Y = s.y0.copy()
    Y[1] += 0.05          # away from the free length: the spring is loaded

    def V(Z):
        P1, P2 = _points_world(s, e, Z)
        d = np.linalg.norm(P2 - P1) - 0.8
        el = 0.5 * 350.0 * d * d if law == "linear" else table_integral(np.array(k), d)[0]
        return el - 7.0 * d

    _check_gradient(s, Y, V)


def test_contractile_force_is_minus_gradient_of_its_potential():
    m = Model(gravity=(0, 0, 0))
    b1, b2 = _two_free_bodies(m)
    e = m.add_contractile_force(b1, (0.2, 0, 0), b2, (1.0, 0.2, 0.1), force=12.0)
    s = m.compile()

    def V(Z):
        P1, P2 = _points_world(s, e, Z)
        return 12.0 * np.linalg.norm(P2 - P1)

    _check_gradient(s, s.y0, V)


def test_joint_slide_spring_force_is_minus_gradient_of_its_potential():
    """Translational joint law: exact gradient of V(s), s = (P2 - P1) . z1, in all 12
    coordinates, even with the joint not assembled."""
    m = Model(gravity=(0, 0, 0))
    b1, b2 = _two_free_bodies(m)
    j = m.add_joint("cylindrical", b1, b2, point=(0.5, 0.1, 0.0), axis=(0.3, 1.0, 0.2))
    m.add_joint_spring(j, stiffness=500.0, rest=-0.1, dof="translation")
    s = m.compile()
    Y = _perturb(_perturb(s.y0, 1, 0, 0.07), 1, 4, 0.2)

    def V(Z):
        (P1, R1), (P2, R2) = _joint_frames(s, j, Z)
        d = (P2 - P1) @ R1[:, 2] + 0.1
        return 0.5 * 500.0 * d * d

    _check_gradient(s, Y, V)


def test_joint_torsion_spring_torque_is_minus_gradient_of_its_potential():
    """Rotational joint law: with the joint axes aligned, the torque about every axis of
    either body is -dV/dphi of V(theta), theta from frame 1's x axis to frame 2's x
    axis about z1."""
    m = Model(gravity=(0, 0, 0))
    b1, b2 = _two_free_bodies(m)
    j = m.add_joint("revolute", b1, b2, point=(0.5, 0.1, 0.0), axis=(0.3, 1.0, 0.2))
    m.add_joint_spring(j, stiffness=40.0, rest=0.3)
    s = m.compile()
    # turn body 2 about the joint axis by 1.2 rad: the axes stay aligned
    (P1, R1), _ = _joint_frames(s, j, s.y0)
    z = R1[:, 2]
    Y = s.y0.copy()
    A2 = quat_to_matrix(Y[10:14])       # body 2: position Y[7:10], quaternion Y[10:14]
    A2n = quat_to_matrix(_quat(z, 1.2)) @ A2
    Y[10:14] = matrix_to_quat(A2n)
    # body 2 rotated about an axis through the joint point: move its CoG accordingly
    r2 = Y[7:10]
    Y[7:10] = P1 + quat_to_matrix(_quat(z, 1.2)) @ (r2 - P1)

    def V(Z):
        (_, R1), (_, R2) = _joint_frames(s, j, Z)
        th = math.atan2(np.cross(R1[:, 0], R2[:, 0]) @ R1[:, 2], R1[:, 0] @ R2[:, 0])
        d = (th - 0.3 + math.pi) % (2 * math.pi) - math.pi
        return 0.5 * 40.0 * d * d

    assert V(Y) > 0.1
    Q = _forces(s, Y)
    h = 1e-6
    for b in range(2):
        for k in range(3, 6):
            dV = (V(_perturb(Y, b, k, h)) - V(_perturb(Y, b, k, -h))) / (2 * h)
            assert Q[b, k] == pytest.approx(-dV, rel=1e-6, abs=1e-9), (b, k)
        assert np.allclose(Q[b, :3], 0.0)


def test_damper_force_opposes_the_rate_of_change_of_length():
    """Virtual power: sum Q . q_dot = f L_dot = -c L_dot^2 with L_dot from finite differences."""
    m = Model(gravity=(0, 0, 0))
    b1, b2 = _two_free_bodies(m)
    e = m.add_damper(b1, (0.3, -0.1, 0.5), b2, (0.7, 0.6, -0.4), damping=25.0)
    s = m.compile()
    Y = s.y0.copy()
    rng = np.random.default_rng(3)
    Y[14:] = rng.normal(size=12)
    Q = _forces(s, Y)

    def L(Z):
        P1, P2 = _points_world(s, e, Z)
        return np.linalg.norm(P2 - P1)

    h = 1e-7
    dY = s.evaluate(0.0, Y)
    Ldot = (L(Y + h * dY) - L(Y - h * dY)) / (2 * h)
    power = sum(Q[b] @ Y[14 + 6 * b:20 + 6 * b] for b in range(2))
    assert abs(Ldot) > 0.1
    assert power == pytest.approx(-25.0 * Ldot ** 2, rel=1e-6)
    assert s.W.frc_out[0, 1] == pytest.approx(Ldot, rel=1e-6)


# --------------------------------------------------------------------------- closed forms
def _slider(k=200.0, c=0.0, mass=2.0, x0=1.1, L0=1.0):
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("mass", mass=mass, inertia=(0.1, 0.1, 0.1), position=(x0, 0, 0))
    m.add_joint("prismatic", m.ground, b, point=(0, 0, 0), axis=(1, 0, 0))
    m.add_spring(m.ground, (0, 0, 0), b, (x0, 0, 0), stiffness=k, free_length=L0, damping=c,
                 name="s")
    return m, b


def _up_crossings(t, x):
    i = np.nonzero((x[:-1] < 0) & (x[1:] >= 0))[0]
    return t[i] - x[i] * (t[i + 1] - t[i]) / (x[i + 1] - x[i])


def test_spring_mass_period():
    m, b = _slider()
    r = m.simulate(t_end=2.0, dt=1e-3, output_dt=1e-3)
    x = r.position(b)[:, 0] - 1.0
    T = np.diff(_up_crossings(r.t, x)).mean()
    assert T == pytest.approx(2 * math.pi / math.sqrt(200.0 / 2.0), rel=1e-5)
    assert r.spring_force("s")[0] == pytest.approx(-200.0 * 0.1)
    assert r.spring_length("s")[0] == pytest.approx(1.1)


def test_damped_logarithmic_decrement():
    k, c, mass = 200.0, 4.0, 2.0
    m, b = _slider(k=k, c=c, mass=mass)
    r = m.simulate(t_end=3.0, dt=1e-3, output_dt=1e-3)
    x = r.position(b)[:, 0] - 1.0
    wn = math.sqrt(k / mass)
    zeta = c / (2 * math.sqrt(k * mass))
    peaks = [i for i in range(1, len(x) - 1) if x[i] > x[i - 1] and x[i] >= x[i + 1]]
    # parabolic refinement of the peak values
    vals = []
    for i in peaks:
        a, bb, cc = x[i - 1], x[i], x[i + 1]
        vals.append(bb - 0.125 * (cc - a) ** 2 / (a - 2 * bb + cc))
    dec = np.log(np.array(vals[:-1]) / np.array(vals[1:]))
    assert dec.mean() == pytest.approx(2 * math.pi * zeta / math.sqrt(1 - zeta ** 2), rel=1e-3)
    Td = np.diff(_up_crossings(r.t, x)).mean()
    assert Td == pytest.approx(2 * math.pi / (wn * math.sqrt(1 - zeta ** 2)), rel=1e-4)
    e = r.energy()
    assert e["dissipated"][-1] > 0.9 * 0.5 * k * 0.1 ** 2
    assert np.ptp(e["balance"]) < 1e-4 * 0.5 * k * 0.1 ** 2


def test_torsional_pendulum_period():
    I, k = 0.5, 8.0
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("disc", mass=3.0, inertia=(0.3, 0.3, I), position=(0, 0, 0),
                   angular_velocity=(0, 0, 1.0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
    m.add_joint_spring(j, stiffness=k, name="torsion")
    r = m.simulate(t_end=5.0, dt=1e-3, output_dt=1e-3)
    th = r.spring_length("torsion")
    T = np.diff(_up_crossings(r.t, th)).mean()
    assert T == pytest.approx(2 * math.pi * math.sqrt(I / k), rel=1e-5)
    # amplitude w0 / wn, torque -k theta about +z
    assert np.abs(th).max() == pytest.approx(1.0 / math.sqrt(k / I), rel=1e-4)
    np.testing.assert_allclose(r.spring_force("torsion"), -k * th, atol=1e-12)


def test_free_length_defaults_to_the_initial_distance():
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("b", mass=1.0, inertia=(0.1, 0.1, 0.1), position=(0.3, 0.4, 0))
    e = m.add_spring(m.ground, (0, 0, 0), b, (0.3, 0.4, 0), stiffness=100.0)
    assert e.params["free_length"] == pytest.approx(0.5)
    s = m.compile()
    assert np.allclose(_forces(s, s.y0)[0], 0.0)


def test_energy_conserved_with_springs():
    """A body hanging on two springs in gravity, swinging in 3D: kinetic + gravity +
    elastic energy stays constant."""
    m = Model(gravity=(0, 0, -9.81))
    b = m.add_body("bob", mass=1.5, inertia=(0.02, 0.03, 0.04), position=(0.2, 0.1, -1.0),
                   velocity=(0.3, -0.5, 0.2), angular_velocity=(1.0, 0.5, -0.3))
    m.add_spring(m.ground, (0, 0, 0), b, (0.25, 0.1, -0.95), stiffness=300.0, free_length=0.7)
    m.add_spring(m.ground, (0.5, 0, 0), b, (0.15, 0.1, -0.95), stiffness=[(-1, -200), (0, 0),
                                                                        (1, 400)],
                 free_length=0.9, preload=2.0)
    r = m.simulate(t_end=2.0, dt=5e-4, output_dt=0.01)
    e = r.energy()
    assert np.ptp(e["elastic"]) > 1.0
    # RK4 loses a little at each crossing of the table's kink (a jump in stiffness)
    assert np.ptp(e["total"]) < 2e-6 * np.abs(e["elastic"]).max()


def test_energy_balance_with_dampers_and_actuators():
    m = Model(gravity=(0, 0, -9.81))
    arm = m.add_body("arm", mass=2.0, inertia=(0.01, 0.2, 0.2), position=(0.5, 0, 0))
    j = m.add_joint("revolute", m.ground, arm, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint_spring(j, stiffness=30.0, damping=0.8, name="hinge_spring")
    m.add_joint_actuator(j, lambda t: 3.0 * math.sin(4 * t), name="motor")
    m.add_damper(m.ground, (0.5, 0, 0.5), arm, (0.5, 0, 0), damping=[(-10, -40), (0, 0),
                                                                      (10, 30)])
    r = m.simulate(t_end=2.0, dt=5e-4, output_dt=1e-3)
    e = r.energy()
    assert e["dissipated"][-1] > 0.1
    assert np.abs(e["actuator_work"]).max() > 0.1
    scale = np.abs(e["kinetic"]).max()
    assert np.ptp(e["balance"]) < 1e-4 * scale
    # the dissipated energy grows monotonically
    assert np.all(np.diff(e["dissipated"]) >= -1e-12)


# --------------------------------------------------------------------------- actuators
def test_actuator_torque_accelerates_as_torque_over_inertia():
    I, T = 0.4, 2.0
    m = Model(gravity=(0, 0, -9.81))
    b = m.add_body("rotor", mass=1.0, inertia=(0.3, 0.3, I))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
    m.add_joint_actuator(j, T, name="motor")
    r = m.simulate(t_end=1.0, dt=1e-3, output_dt=0.1)
    np.testing.assert_allclose(r.angular_velocity(b)[:, 2], T / I * r.t, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(r.energy()["actuator_work"], r.energy()["kinetic"], rtol=1e-3)


def test_timed_actuator_force_along_a_slider():
    mass = 2.0
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("carriage", mass=mass, inertia=(0.1, 0.1, 0.1))
    j = m.add_joint("prismatic", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint_actuator(j, lambda t: 6.0 * t, dof="translation", name="push")
    r = m.simulate(t_end=1.0, dt=1e-3, output_dt=0.1)
    np.testing.assert_allclose(r.velocity(b)[:, 1], 3.0 * r.t ** 2 / mass, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(r.spring_force("push"), 6.0 * r.t, atol=1e-12)
    # the same with a SciPy integrator (loads set per evaluation)
    r2 = m.simulate(t_end=1.0, method="RK45", output_dt=0.1)
    np.testing.assert_allclose(r2.velocity(b)[:, 1], 3.0 * r2.t ** 2 / mass, rtol=1e-6,
                               atol=1e-9)


def test_result_with_force_elements_round_trips():
    m, b = _slider(c=1.0)
    r = m.simulate(t_end=0.2, dt=1e-3, output_dt=0.05)
    from SimPhantWorkbench.solver.result import Result
    r2 = Result.from_arrays(r.to_arrays())
    np.testing.assert_array_equal(r2.spring_force("s"), r.spring_force("s"))
    np.testing.assert_array_equal(r2.energy()["balance"], r.energy()["balance"])
    with pytest.raises(KeyError, match="nope"):
        r.spring_force("nope")


# --------------------------------------------------------------------------- bad input
def test_bad_input_is_rejected_with_the_element_named():
    m = Model()
    b = m.add_body("b", mass=1.0, inertia=(0.1, 0.1, 0.1))
    ball = m.add_joint("spherical", m.ground, b, point=(0, 0, 0), name="ball")
    slider = m.add_joint("prismatic", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1),
                         name="slider")
    with pytest.raises(ModelError, match="'k1'.*coincide"):
        m.add_spring(m.ground, (0, 0, 0), b, (0, 0, 0), stiffness=10.0, free_length=0.1,
                     name="k1")
    with pytest.raises(ModelError, match="'k2'.*stiffness must be finite and non-negative"):
        m.add_spring(m.ground, (0, 0, 0), b, (1, 0, 0), stiffness=-10.0, name="k2")
    with pytest.raises(ModelError, match="'k3'.*damping must be finite and non-negative"):
        m.add_spring(m.ground, (0, 0, 0), b, (1, 0, 0), stiffness=1.0, damping=-1, name="k3")
    with pytest.raises(ModelError, match="'d1'.*damping must be"):
        m.add_damper(m.ground, (0, 0, 0), b, (1, 0, 0), damping=-2.0, name="d1")
    with pytest.raises(ModelError, match="'t1'.*joint 'ball' \\(spherical\\).*rotation"):
        m.add_joint_spring(ball, stiffness=1.0, name="t1")
    with pytest.raises(ModelError, match="'a1'.*joint 'slider' \\(prismatic\\).*rotation"):
        m.add_joint_actuator(slider, 1.0, dof="rotation", name="a1")
    with pytest.raises(ModelError, match="'k4'.*stiffness.*strictly increasing"):
        m.add_spring(m.ground, (0, 0, 0), b, (1, 0, 0), stiffness=[(0, 0), (1, 5), (0.5, 9)],
                     name="k4")
    with pytest.raises(ModelError, match="'c1'.*force must be non-negative"):
        m.add_contractile_force(m.ground, (0, 0, 0), b, (1, 0, 0), force=-1.0, name="c1")
    with pytest.raises(ModelError, match="'d2'.*coincide"):
        m.add_damper(m.ground, (0, 0, 0), b, (0, 0, 0), damping=2.0, name="d2")
    with pytest.raises(ModelError, match="unknown force element kind"):
        check_element("bungee", "x", {})
    assert m.force_elements == []
    # a zero-length spring between coincident points is well defined (force -k d)
    m.add_spring(m.ground, (0, 0, 0), b, (0, 0, 0), stiffness=10.0, name="zero")
    # a slider accepts a translational spring and defaults its actuator to translation
    m.add_joint_spring(slider, stiffness=1.0, dof="translation")
    assert m.add_joint_actuator(slider, 1.0).params["dof"] == "translation"


def test_registry_specs_are_complete():
    for name, spec in FORCE_TYPES.items():
        assert spec.name == name and spec.label and spec.doc and spec.icon.endswith(".svg")
        assert spec.attach in ("points", "joint", "bodies")
        assert spec.params
    assert GEOM_JOINT_ROT != 0


def test_metrics_read_force_elements():
    from SimPhantWorkbench.solver.metrics import parse_metric
    m, b = _slider(c=1.0)
    r = m.simulate(t_end=0.5, dt=1e-3, output_dt=0.01)
    assert parse_metric("max(spring_force(s))").resolved("s").evaluate(r) == pytest.approx(
        r.spring_force("s").max())
    assert parse_metric("at(spring_length(s), 0)").resolved("s").evaluate(r) == pytest.approx(1.1)
    assert parse_metric("max(dissipated_energy)").evaluate(r) == pytest.approx(
        r.energy()["dissipated"][-1])
    with pytest.raises(ModelError, match="needs a element"):
        parse_metric("max(spring_force)")


def test_a_model_with_force_elements_pickles_and_runs_the_same():
    """Parameter studies send models to worker processes: a time function given as text
    (the document's actuator functions) and tables travel with the model."""
    import pickle

    from SimPhantWorkbench.solver.forces import ScalarTimeFunction
    m = Model(gravity=(0, 0, -9.81))
    b = m.add_body("arm", mass=1.0, inertia=(0.01, 0.1, 0.1), position=(0.5, 0, 0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint_actuator(j, ScalarTimeFunction("2*sin(3*t)", "motor"), name="motor")
    m.add_joint_spring(j, stiffness=[(-1, -5), (0, 0), (1, 8)], damping=0.1, name="k")
    r1 = m.simulate(t_end=0.3, dt=1e-3, output_dt=0.05)
    r2 = pickle.loads(pickle.dumps(m)).simulate(t_end=0.3, dt=1e-3, output_dt=0.05)
    np.testing.assert_array_equal(r1.spring_force("motor"), r2.spring_force("motor"))
    np.testing.assert_array_equal(r1.states, r2.states)
    np.testing.assert_allclose(r1.spring_force("motor"), 2 * np.sin(3 * r1.t), atol=1e-12)


def test_fingerprints_tell_force_elements_apart():
    """A parameter study caches variants by model fingerprint: a changed stiffness, damping
    table or actuator function is another model; a Python callable cannot be described."""
    from SimPhantWorkbench.solver.batch import fingerprint
    from SimPhantWorkbench.solver.forces import ScalarTimeFunction

    def build(k=100.0, c=1.0, fn="sin(t)", lam=False):
        m, b = _slider(k=k, c=c)
        j = m.joints[0]
        m.add_joint_actuator(j, (lambda t: 1.0) if lam else ScalarTimeFunction(fn), name="a")
        return m

    s = dict(dt=1e-3)
    base = fingerprint(build(), s)
    assert base == fingerprint(build(), s)
    assert base != fingerprint(build(k=101.0), s)
    assert base != fingerprint(build(c=[(-1, -1), (1, 1.5)]), s)
    assert base != fingerprint(build(fn="cos(t)"), s)
    assert fingerprint(build(lam=True), s) is None
    plain, _ = _slider()
    assert fingerprint(plain, s) != base


def test_energy_integral_over_the_samples_is_third_order():
    from SimPhantWorkbench.solver.forces import cumtrapz
    for n in (41, 81):
        t = np.linspace(0.0, 2.0, n)
        err = np.abs(cumtrapz(t, np.cos(3 * t)) - np.sin(3 * t) / 3).max()
        if n == 41:
            e41 = err
    assert err < e41 / 7.0                        # halving h: 8x smaller (third order)
    t = np.r_[np.linspace(0.0, 1.0, 11), 1.05]    # a last, shorter interval: trapezoid
    ref = np.sin(3 * t) / 3
    assert np.abs(cumtrapz(t, np.cos(3 * t)) - ref).max() < 2e-3
