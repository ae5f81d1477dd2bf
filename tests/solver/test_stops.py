"""End stops (``joint_stop`` force elements, Adams' IMPACT law): the law against its
formula, impacts against the closed form of the Hertz contact and an independent 1-DOF
integration, static loads, unwrapped angles, events, energy and bad input."""
import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.optimize import brentq
from scipy.special import ellipk, gamma

from SimPhantWorkbench.solver import Model, ModelError
from SimPhantWorkbench.solver.forces import stop_force
from SimPhantWorkbench.solver.result_file import read_result_file

G = 9.81


def _impact(p, pdot, k, e, c, d):
    """Adams IMPACT written out: max(0, k p^e + STEP(p, 0, 0, d, c) p_dot) for p > 0."""
    if p <= 0.0:
        return 0.0
    a = min(p / d, 1.0)
    return max(0.0, k * p ** e + c * a * a * (3.0 - 2.0 * a) * pdot)


def _stop_row(model, **kw):
    """The ``frc_par`` row of an end stop of ``kw`` on a revolute joint at rest at 0."""
    b = model.add_body("b%d" % len(model.bodies), mass=1.0, inertia=(1, 1, 1))
    j = model.add_joint("revolute", model.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
    e = model.add_joint_stop(j, **kw)
    return e.coefficients()[0]


@pytest.mark.parametrize("x, xdot", [(0.35, 2.0), (0.35, -2.0), (0.3004, 3.0),
                                     (0.3004, -3.0), (0.3002, -900.0), (0.1, 5.0),
                                     (-0.25, -1.5), (-0.2001, 4.0), (-0.2001, -4.0),
                                     (-0.2005, 1e4), (-0.19, -3.0)])
def test_the_stop_law_is_adams_impact_on_either_side(x, xdot):
    """Upper limit 0.3, lower -0.2: past the upper one the torque on the coordinate is
    minus the IMPACT force of p = x - 0.3, p_dot = x_dot; past the lower one plus that of
    p = -0.2 - x, p_dot = -x_dot; never pulling; zero in between."""
    k, e, c, d = 2000.0, 1.7, 30.0, 1e-3
    par = _stop_row(Model(gravity=(0, 0, 0)), lower=-0.2, upper=0.3, stiffness=k, exponent=e,
                    damping=c, penetration=d)
    expected = _impact(-0.2 - x, -xdot, k, e, c, d) - _impact(x - 0.3, xdot, k, e, c, d)
    assert stop_force(par, x, xdot) == pytest.approx(expected, rel=1e-12, abs=1e-300)


def test_the_stop_law_pushes_and_damps_in_the_right_directions():
    par = _stop_row(Model(gravity=(0, 0, 0)), upper=0.0, stiffness=100.0, exponent=1.0,
                    damping=10.0, penetration=0.01)
    assert stop_force(par, 0.02, 0.0) == pytest.approx(-2.0)        # pushes back
    assert stop_force(par, 0.02, 0.1) == pytest.approx(-3.0)        # more going in
    assert stop_force(par, 0.02, -0.1) == pytest.approx(-1.0)       # less coming out
    assert stop_force(par, 0.02, -1.0) == 0.0                       # never pulls
    assert stop_force(par, 0.005, 0.1) == pytest.approx(-0.5 - 0.5)  # STEP(0.5) = 1/2
    assert stop_force(par, -0.5, 7.0) == 0.0


# --------------------------------------------------------------------------- impacts
def _pendulum(**stop):
    """A rod (mass 1 kg, CoG 0.5 m from the hinge, I_G 0.01) released horizontal about
    the world y axis; its joint angle grows as it falls and is pi/2 at the bottom, where
    the stop's upper limit is (gravity has no moment there)."""
    m = Model(gravity=(0, 0, -G))
    b = m.add_body("rod", mass=1.0, inertia=(0.01, 0.01, 0.01), position=(0.5, 0, 0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint_stop(j, upper=math.pi / 2, name="stop", **stop)
    return m, b, j


I_O = 0.01 + 0.25                         # about the hinge
W0 = math.sqrt(2 * 1.0 * G * 0.5 / I_O)   # at the bottom, from energy
#: release to the bottom: a quarter of the swing of amplitude 90 deg, sqrt(I/mgl) K(1/2)
T_HIT = math.sqrt(I_O / (1.0 * G * 0.5)) * ellipk(0.5)


def _contact(t, p):
    """(start, end) of p > 0, interpolated linearly between the samples."""
    i = np.nonzero(p > 0)[0]
    a, b = i[0], i[-1]
    t0 = t[a - 1] + (t[a] - t[a - 1]) * -p[a - 1] / (p[a] - p[a - 1])
    t1 = t[b] + (t[b + 1] - t[b]) * p[b] / (p[b] - p[b + 1])
    return t0, t1


def test_pendulum_on_a_hertz_stop_matches_the_closed_form_impact():
    """Undamped, F = k p^1.5: max penetration ((e+1) I w0^2 / (2 k))^(1/(e+1)) and contact
    time 2 p_max / w0 sqrt(pi) Gamma(1 + 1/(e+1)) / Gamma(1/2 + 1/(e+1)) (Hertz; Johnson,
    Contact Mechanics, 1985, s. 11.4), here with the stop met at the bottom of the swing.
    Fixed-step RK4 at 2 us: 400 steps in the contact."""
    k, e = 4e8, 1.5
    m, b, j = _pendulum(stiffness=k, exponent=e)
    r = m.simulate(t_end=T_HIT + 1.2e-3, dt=2e-6, output_dt=2e-6)
    p = r.spring_length("stop") - math.pi / 2
    p_max = ((e + 1) * I_O * W0 ** 2 / (2 * k)) ** (1 / (e + 1))
    n = e + 1
    T = 2 * p_max / W0 * math.sqrt(math.pi) * gamma(1 + 1 / n) / gamma(0.5 + 1 / n)
    assert p.max() == pytest.approx(p_max, rel=1e-4)
    t0, t1 = _contact(r.t, p)
    assert t1 - t0 == pytest.approx(T, rel=1e-4)
    assert t0 == pytest.approx(T_HIT, rel=1e-4)
    # the torque is the law's at every sample, and the angle is the joint's
    np.testing.assert_allclose(r.spring_force("stop"), -k * np.maximum(p, 0) ** e,
                               rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(r.spring_length("stop"), r.joint_position(j, "angle"),
                               atol=1e-12)
    # rebounds with the impact speed (no damping); one event, at the upper limit
    assert r.angular_velocity(b)[-1, 1] == pytest.approx(-W0, rel=1e-3)
    (ev,) = r.stop_events()
    assert ev["element"] == "stop" and ev["side"] == "upper"
    assert ev["time"] == pytest.approx(T_HIT, rel=1e-4)
    assert ev["speed"] == pytest.approx(W0, rel=1e-4)


def test_damped_impact_matches_an_independent_one_dof_integration():
    """With c_max and d_max the contact follows I p'' = -IMPACT(p, p') (gravity's moment
    at the bottom is 5e-6 of the stop's): penetration, contact time and rebound speed
    against SciPy's DOP853 on that equation."""
    k, e, c, d = 4e8, 1.5, 200.0, 2e-4
    m, b, j = _pendulum(stiffness=k, exponent=e, damping=c, penetration=d)
    r = m.simulate(t_end=T_HIT + 1.2e-3, dt=2e-6, output_dt=2e-6)
    p = r.spring_length("stop") - math.pi / 2

    def rhs(_t, y):
        return [y[1], -_impact(y[0], y[1], k, e, c, d) / I_O]

    def leave(_t, y):
        return y[0]
    leave.terminal, leave.direction = True, -1
    ref = solve_ivp(rhs, (0, 1e-2), [0.0, W0], method="DOP853", rtol=1e-11, atol=1e-14,
                    events=leave, dense_output=True, max_step=1e-6)
    ts = np.linspace(0, ref.t[-1], 20001)
    assert p.max() == pytest.approx(ref.sol(ts)[0].max(), rel=2e-3)
    t0, t1 = _contact(r.t, p)
    assert t1 - t0 == pytest.approx(ref.t[-1], rel=5e-3)
    w_out = -r.angular_velocity(b)[-1, 1]
    assert w_out == pytest.approx(-ref.y[1][-1], rel=2e-3)
    assert w_out < 0.9 * W0          # it did take energy
    # the energy balance holds with the stop's potential and what it dissipated
    en = r.energy()
    assert en["dissipated"][-1] == pytest.approx(0.5 * I_O * (W0 ** 2 - w_out ** 2), rel=1e-3)
    assert np.ptp(en["balance"]) < 1e-4 * en["kinetic"].max()
    assert en["elastic"].max() > 0.5 * en["kinetic"].max()


def test_a_body_resting_on_a_stop_carries_its_weight():
    """A rod held horizontal by an upper stop at its start angle: at rest the stop's torque
    is m g l cos(p) at the penetration p with k p^e = m g l cos(p); a slider on a
    vertical prismatic resting on a lower stop carries m g."""
    m = Model(gravity=(0, 0, -G))
    rod = m.add_body("rod", mass=2.0, inertia=(0.01, 0.01, 0.01), position=(0.4, 0, 0))
    hinge = m.add_joint("revolute", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint_stop(hinge, upper=0.0, stiffness=1e4, exponent=1.0, damping=150.0,
                     penetration=1e-3, name="arm_stop")
    car = m.add_body("car", mass=3.0, inertia=(0.1, 0.1, 0.1), position=(2, 0, 0))
    rail = m.add_joint("prismatic", m.ground, car, point=(2, 0, 0), axis=(0, 0, 1))
    m.add_joint_stop(rail, lower=0.0, stiffness=1e6, exponent=1.5, damping=500.0,
                     penetration=1e-4, name="floor")
    r = m.simulate(t_end=1.5, dt=1e-4, output_dt=0.01)
    mgl = 2.0 * G * 0.4
    p = brentq(lambda q: 1e4 * q - mgl * math.cos(q), 0.0, 0.1)
    assert r.spring_length("arm_stop")[-1] == pytest.approx(p, rel=1e-6)
    assert r.spring_force("arm_stop")[-1] == pytest.approx(-mgl * math.cos(p), rel=1e-6)
    assert r.spring_force("floor")[-1] == pytest.approx(3.0 * G, rel=1e-6)
    assert -r.spring_length("floor")[-1] == pytest.approx((3.0 * G / 1e6) ** (1 / 1.5),
                                                          rel=1e-6)


@pytest.mark.parametrize("law", ["compliant", "impulsive"])
def test_a_limit_never_reached_changes_nothing_bit_for_bit(law):
    def model(stop):
        m = Model(gravity=(0, 0, -G))
        b = m.add_body("rod", mass=1.0, inertia=(0.01, 0.02, 0.03), position=(0.5, 0, 0),
                       angular_velocity=(0.3, 0.0, 0.0))
        j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
        m.add_joint_spring(j, stiffness=3.0, damping=0.05, name="spring")
        if stop:
            m.add_joint_stop(j, lower=-3.0, upper=3.0, stiffness=1e5, damping=3.0, law=law)
        return m
    a = model(False).simulate(t_end=1.0, dt=1e-3, output_dt=0.01)
    b = model(True).simulate(t_end=1.0, dt=1e-3, output_dt=0.01)
    np.testing.assert_array_equal(a.states, b.states)
    np.testing.assert_array_equal(a.multipliers, b.multipliers)
    assert b.stop_events() == []
    assert not b.spring_force("joint_stop2").any()


# --------------------------------------------------------------------------- turns
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_stop_past_half_a_turn_is_met_at_its_unwrapped_angle(sign):
    """A rotor spinning at 10 rad/s meets a stop at +-1.5 turns (3 pi) after 3 pi / 10 s,
    not before (the angle passes +-pi twice on the way); undamped, it comes back at the
    same speed."""
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("rotor", mass=1.0, inertia=(0.1, 0.1, 0.1),
                   angular_velocity=(0, 0, 10.0 * sign))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
    limit = dict(upper=3 * math.pi) if sign > 0 else dict(lower=-3 * math.pi)
    m.add_joint_stop(j, stiffness=1e3, exponent=1.0, name="stop", **limit)
    r = m.simulate(t_end=1.2, dt=1e-3, output_dt=1e-3)
    theta = r.joint_position(j, "angle")
    np.testing.assert_allclose(r.spring_length("stop"), theta, atol=1e-9)
    (ev,) = r.stop_events()
    assert ev["side"] == ("upper" if sign > 0 else "lower")
    assert ev["time"] == pytest.approx(0.3 * math.pi, rel=1e-6)
    assert ev["speed"] == pytest.approx(10.0, rel=1e-9)
    free = r.t < 0.3 * math.pi - 1e-3
    assert not r.spring_force("stop")[free].any()
    # (to 1e-3: RK4 steps across the kink of the force at first touch)
    assert r.angular_velocity(b)[-1, 2] == pytest.approx(-10.0 * sign, rel=1e-3)
    assert abs(theta[-1]) < 3 * math.pi - 1.0


def test_a_rotor_turning_away_from_a_stop_never_meets_it():
    """Upper stop at 170 deg; the rotor turns the other way through -180 deg (where the
    wrapped angle jumps to +180) and on for two turns without a touch."""
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("rotor", mass=1.0, inertia=(0.1, 0.1, 0.1), angular_velocity=(0, 0, -10.0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
    m.add_joint_stop(j, upper=math.radians(170.0), stiffness=1e4, name="stop")
    r = m.simulate(t_end=1.3, dt=1e-3, output_dt=1e-2)
    assert r.joint_position(j, "angle")[-1] == pytest.approx(-13.0, rel=1e-9)
    assert r.stop_events() == []
    np.testing.assert_allclose(r.angular_velocity(b)[:, 2], -10.0, rtol=1e-12)


def test_energy_balance_through_damped_stops_on_a_slide():
    """A car bouncing between two damped stops: kinetic + the stops' potential + what they
    dissipated stays constant; the stops take energy at every impact."""
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("car", mass=2.0, inertia=(0.1, 0.1, 0.1), velocity=(1.0, 0, 0))
    j = m.add_joint("prismatic", m.ground, b, point=(0, 0, 0), axis=(1, 0, 0))
    m.add_joint_stop(j, lower=-0.02, upper=0.02, stiffness=1e7, exponent=1.5, damping=400.0,
                     penetration=1e-3, name="ends")
    r = m.simulate(t_end=0.3, dt=2e-5, output_dt=2e-5)
    e = r.energy()
    assert e["elastic"].max() > 0.5 * e["kinetic"][0]
    assert 0.1 * e["kinetic"][0] < e["dissipated"][-1] < e["kinetic"][0]
    # grows (to the quadrature's error where the force leaves the stop)
    assert np.all(np.diff(e["dissipated"]) >= -1e-6 * e["kinetic"][0])
    assert np.ptp(e["balance"]) < 1e-4 * e["kinetic"][0]
    assert [ev["side"] for ev in r.stop_events()] == ["upper", "lower", "upper"]


# --------------------------------------------------------------------------- storage
def test_stop_events_survive_save_and_reopen(tmp_path):
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("car", mass=1.0, inertia=(0.1, 0.1, 0.1), velocity=(0.5, 0, 0))
    j = m.add_joint("prismatic", m.ground, b, point=(0, 0, 0), axis=(1, 0, 0))
    m.add_joint_stop(j, lower=-0.1, upper=0.1, stiffness=1e5, exponent=1.0, name="ends")
    r = m.simulate(t_end=1.5, dt=1e-4, output_dt=1e-3)
    events = r.stop_events()
    assert [e["side"] for e in events] == ["upper", "lower", "upper", "lower"]
    assert events[0]["time"] == pytest.approx(0.2, rel=1e-3)
    assert all(e["speed"] == pytest.approx(0.5, rel=1e-5) for e in events)
    path = str(tmp_path / "r.npz")
    r.save(path)
    again = read_result_file(path)
    assert again.stop_events() == events
    np.testing.assert_array_equal(again.spring_force("ends"), r.spring_force("ends"))


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("kw, match", [
    (dict(), "lower or an upper limit"),
    (dict(lower=0.2, upper=0.1), "below the upper"),
    (dict(upper=1.0, stiffness=0.0), "stiffness must be > 0"),
    (dict(upper=1.0, exponent=0.5), "exponent must be >= 1"),
    (dict(upper=1.0, damping=-1.0), "damping must be >= 0"),
    (dict(upper=1.0, penetration=0.0), "penetration must be > 0"),
    (dict(upper=1.0, dof="translation"), "no translation degree of freedom"),
    (dict(upper=float("nan")), "upper must be a finite number"),
])
def test_bad_stops_are_rejected_with_the_element_named(kw, match):
    m = Model()
    b = m.add_body("b", mass=1.0, inertia=(1, 1, 1))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
    with pytest.raises(ModelError, match=match) as err:
        m.add_joint_stop(j, name="lim", **kw)
    assert "'lim'" in str(err.value)


def test_an_adaptive_method_steps_through_the_impact_under_its_error_control():
    """DOP853 (SciPy, error-controlled steps) meets the stop at 1.5 turns as the fixed-step
    loop does and gives the speed back to 2e-8 (1e-8 with SciPy 1.10, 1.2e-8 with the
    SciPy of FreeCAD 1.x's Debian 13): its steps shrink across the contact."""
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("rotor", mass=1.0, inertia=(0.1, 0.1, 0.1), angular_velocity=(0, 0, 10.0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
    m.add_joint_stop(j, upper=3 * math.pi, stiffness=1e3, exponent=1.0, name="stop")
    r = m.simulate(t_end=1.2, method="DOP853", output_dt=1e-3, rtol=1e-10, atol=1e-12)
    (ev,) = r.stop_events()
    assert ev["time"] == pytest.approx(0.3 * math.pi, rel=1e-6)
    assert r.angular_velocity(b)[-1, 2] == pytest.approx(-10.0, rel=2e-8)
    # the contact lasts pi sqrt(I/k) (linear, undamped): out again at the speed it came
    t = r.t[r.spring_force("stop") < 0]
    assert t[-1] - t[0] == pytest.approx(math.pi * math.sqrt(0.1 / 1e3), abs=2.5e-3)
