"""Impulsive end stops (``joint_stop`` with ``law="impulsive"``): rebound heights of a
dropped pendulum against e^2, the impact time against the closed-form fall time, the
velocity jump of a two-link chain against its impact equation solved by hand, a body
resting on a stop, saved events, refusals and bad input (a limit never reached:
test_stops.py, for both laws)."""
import math

import numpy as np
import pytest
from scipy.integrate import quad

from SimPhantWorkbench.solver import Model, ModelError, SimulationError
from SimPhantWorkbench.solver.impacts import ImpactStops
from SimPhantWorkbench.solver.result_file import read_result_file

G = 9.81
M, L, IG = 1.0, 0.5, 0.01          # the rod: mass, hinge to CoG, inertia about its CoG
IO = IG + M * L * L                # about the hinge
STOP = math.pi / 4                 # the stop: 45 deg below the horizontal


def _pendulum(**stop):
    """The rod released horizontal about the world y axis; its joint angle grows as it
    falls (the CoG at height -L sin(angle)); an impulsive stop at ``STOP``."""
    m = Model(gravity=(0, 0, -G))
    b = m.add_body("rod", mass=M, inertia=(IG, IG, IG), position=(L, 0, 0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    kw = dict(upper=STOP, law="impulsive", restitution=0.5)
    kw.update(stop)
    m.add_joint_stop(j, name="stop", **kw)
    return m


def _height_above_stop(states):
    """Energy height of the rod's states above its CoG at the stop: (T + V - V_stop) / m g
    from the positions and velocities of the states (nb = 1)."""
    z = states[:, 2]
    v = states[:, 7:10]
    w = states[:, 10:13]
    T = 0.5 * M * np.einsum("ni,ni->n", v, v) + 0.5 * IG * np.einsum("ni,ni->n", w, w)
    return (T + M * G * (z + L * math.sin(STOP))) / (M * G)


def _fall_time(angle):
    """Time for the rod released horizontal to fall to ``angle``: the integral of
    dtheta / sqrt(2 m g L sin(theta) / I_O) (theta = u^2 takes the root at 0 away)."""
    c = 2.0 * M * G * L / IO
    return quad(lambda u: 2.0 * u / math.sqrt(c * math.sin(u * u)), 0.0,
                math.sqrt(angle), epsabs=1e-14, epsrel=1e-13)[0]


@pytest.mark.parametrize("e", [0.5, 0.8])
def test_a_dropped_pendulum_rebounds_to_e_squared_of_its_drop_height(e):
    r = _pendulum(restitution=e).simulate(t_end=1.0, dt=1e-3, output_dt=1e-3)
    ev = r.stop_events()
    first = ev[0]
    # the impact: the closed-form time and speed of the fall
    speed = math.sqrt(2.0 * M * G * L * math.sin(STOP) / IO)
    assert first["element"] == "stop" and first["side"] == "upper"
    assert first["time"] == pytest.approx(_fall_time(STOP), rel=1e-7)
    assert first["speed"] == pytest.approx(speed, rel=1e-7)
    assert first["rebound"] == pytest.approx(e * first["speed"], rel=1e-9)
    # the energy of the states between the first and the second impact: e^2 of the drop
    later = [x["time"] for x in ev[1:]]
    after = (r.t > first["time"]) & (r.t < (later[0] if later else np.inf))
    assert after.sum() > 10
    drop = L * math.sin(STOP)
    rebound = _height_above_stop(r.states[after])
    np.testing.assert_allclose(rebound / drop, e * e, rtol=1e-3)
    # before it: the whole drop
    np.testing.assert_allclose(_height_above_stop(r.states[r.t < first["time"]]) / drop, 1.0,
                               rtol=1e-6)
    # and the rod never passes the stop: its CoG never below the height at the stop
    assert (r.states[:, 2] >= -L * math.sin(STOP) - 1e-9).all()


def test_the_energy_an_impact_takes_is_the_stops_dissipated_energy():
    r = _pendulum(restitution=0.6).simulate(t_end=1.3, dt=1e-3, output_dt=2e-3)
    assert len(r.stop_events()) >= 6
    E = _height_above_stop(r.states) * M * G
    lost = r.element_energy("stop")["dissipated"]
    assert lost[-1] > 0.5 * E[0]
    np.testing.assert_allclose(E + lost, E[0], rtol=0, atol=1e-8 * E[0] + 1e-9)
    assert np.ptp(r.energy()["balance"]) < 1e-8 * E[0]


def _chain():
    """Two rods in the x-z plane hinged about y (ground - rod1 at the origin, rod1 - rod2
    at x = L1), both horizontal, with angular velocities w1, w2 about y and the matching
    CoG velocities; an impulsive stop on the first joint at its angle 0."""
    m = Model(gravity=(0, 0, -G))
    m1, m2, L1, c1, c2 = 1.3, 0.7, 0.6, 0.25, 0.35
    I1 = (0.011, 0.021, 0.031)
    I2 = (0.012, 0.017, 0.023)
    w1, w2 = 2.0, -1.5
    b1 = m.add_body("rod1", mass=m1, inertia=I1, position=(c1, 0, 0),
                    velocity=(0, 0, -w1 * c1), angular_velocity=(0, w1, 0))
    b2 = m.add_body("rod2", mass=m2, inertia=I2, position=(L1 + c2, 0, 0),
                    velocity=(0, 0, -w1 * L1 - w2 * c2), angular_velocity=(0, w2, 0))
    j1 = m.add_joint("revolute", m.ground, b1, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint("revolute", b1, b2, point=(L1, 0, 0), axis=(0, 1, 0))
    m.add_joint_stop(j1, upper=0.0, law="impulsive", restitution=0.7, name="stop")
    return m, (m1, m2, L1, c1, c2, I1[1], I2[1], w1, w2, 0.7)


def test_a_chain_hitting_a_stop_on_its_first_joint_jumps_as_its_impact_equation():
    """The planar impact of a double pendulum in absolute angles q = (th1, th2), written
    out: M(q) dq = [P, 0] (the stop's impulse acts on joint 1 only), dth1 = -(1 + e) w1;
    the second rod takes its share through the joint between them."""
    model, (m1, m2, L1, c1, c2, J1, J2, w1, w2, e) = _chain()
    system = model.compile(alpha=0.0, beta=0.0)
    Y = system.y0.copy()
    stops = ImpactStops(system, None, 0, 1.0)
    row = stops.jump(Y, 0.0, 0, 1)
    Mq = np.array([[J1 + m1 * c1 ** 2 + m2 * L1 ** 2, m2 * L1 * c2],
                   [m2 * L1 * c2, J2 + m2 * c2 ** 2]])
    Minv = np.linalg.inv(Mq)
    P = -(1.0 + e) * w1 / Minv[0, 0]
    dq = Minv @ np.array([P, 0.0])
    v = Y[14:26].reshape(2, 6)
    assert v[0, 4] == pytest.approx(w1 + dq[0], rel=1e-10)
    assert v[0, 4] == pytest.approx(-e * w1, rel=1e-10)
    assert v[1, 4] == pytest.approx(w2 + dq[1], rel=1e-10)
    # the rods still move as their joints allow: CoG velocities from the new rates
    np.testing.assert_allclose(v[0, :3], [0, 0, -v[0, 4] * c1], atol=1e-12)
    np.testing.assert_allclose(v[1, :3], [0, 0, -v[0, 4] * L1 - v[1, 4] * c2], atol=1e-12)
    # the event: impact and rebound rates of the first joint's angle
    assert row[3] == pytest.approx(w1, rel=1e-12)
    assert row[4] == pytest.approx(e * w1, rel=1e-10)
    # the second rod's angular momentum about the joint between them did not change
    # (no impulse acts on it but the joint's, through that point)
    def h2(a1, a2):
        return J2 * a2 + m2 * c2 * (L1 * a1 + c2 * a2)
    assert h2(v[0, 4], v[1, 4]) == pytest.approx(h2(w1, w2), rel=1e-10)


def test_a_falling_chain_rebounds_off_the_stop_on_its_first_joint_with_its_energy_kept():
    """The chain released at rest falls onto its first joint's stop at 0.5 rad: every impact
    leaves at e times its speed, the joints hold through it, and the energy balance (with
    the impacts' losses as the stop's dissipated energy) stays constant."""
    m = Model(gravity=(0, 0, -G))
    b1 = m.add_body("rod1", mass=1.3, inertia=(0.011, 0.021, 0.031), position=(0.25, 0, 0))
    b2 = m.add_body("rod2", mass=0.7, inertia=(0.012, 0.017, 0.023), position=(0.95, 0, 0))
    j1 = m.add_joint("revolute", m.ground, b1, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint("revolute", b1, b2, point=(0.6, 0, 0), axis=(0, 1, 0))
    m.add_joint_stop(j1, upper=0.5, law="impulsive", restitution=0.7, name="stop")
    r = m.simulate(t_end=1.5, dt=1e-3, output_dt=2e-3)
    ev = r.stop_events()
    assert len(ev) >= 2
    for x in ev:
        assert x["rebound"] == pytest.approx(0.7 * x["speed"], rel=1e-9)
    e = r.energy()
    assert e["dissipated"][-1] > 0.05 * np.ptp(e["kinetic"])
    assert np.ptp(e["balance"]) < 1e-5 * np.ptp(e["kinetic"])      # RK4 at 1 ms
    assert r.constraint_violation()["position"].max() < 1e-8


def test_a_body_resting_on_a_stop_carries_its_static_load():
    """Dropped from 2 deg above the stop, it bounces a few times; the impacts slower than
    its rest speed are taken by the contact law, which (damped) then holds it: the stop's
    torque equals the weight's moment about the hinge, m g times the CoG's horizontal
    distance from it (read from the state)."""
    m = Model(gravity=(0, 0, -G))
    a0 = STOP - math.radians(2.0)
    b = m.add_body("rod", mass=M, inertia=(IG, IG, IG),
                   position=(L * math.cos(a0), 0, -L * math.sin(a0)),
                   orientation=(math.cos(a0 / 2), 0, math.sin(a0 / 2), 0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    # the joint angle is 0 at the start: the stop 2 deg further
    m.add_joint_stop(j, upper=math.radians(2.0), law="impulsive", restitution=0.5, rest_speed=0.05,
                     stiffness=1e5, exponent=1.0, damping=200.0, penetration=1e-4,
                     name="stop")
    r = m.simulate(t_end=2.0, dt=1e-3, output_dt=1e-2)
    ev = r.stop_events()
    assert 1 <= len(ev) < 20
    assert all(x["speed"] >= 0.05 for x in ev)
    torque = r.spring_force("stop")[-1]
    x_cog = r.states[-1, 0]
    assert -torque == pytest.approx(M * G * x_cog, rel=1e-3)
    assert abs(r.states[-1, 11]) < 1e-4


def test_impacts_survive_save_and_reopen(tmp_path):
    r = _pendulum(restitution=0.8).simulate(t_end=1.0, dt=1e-3, output_dt=1e-2)
    events = r.stop_events()
    assert events and all(x["rebound"] is not None for x in events)
    path = str(tmp_path / "impacts.npz")
    r.save(path)
    again = read_result_file(path)
    assert again.stop_events() == events


def test_events_of_earlier_result_files_read_without_a_rebound(tmp_path):
    """A result file of an earlier version holds (m, 4) event rows (compliant stops only):
    read with no rebound; rows of another width are refused naming the file's problem."""
    r = _pendulum(restitution=0.8).simulate(t_end=0.5, dt=1e-3, output_dt=1e-2)
    path = str(tmp_path / "new.npz")
    r.save(path)
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["stop_events"] = arrays["stop_events"][:, :4]
    old = str(tmp_path / "old.npz")
    np.savez(old, **arrays)
    (ev,) = read_result_file(old).stop_events()
    assert ev["rebound"] is None
    assert ev["time"] == r.stop_events()[0]["time"]
    arrays["stop_events"] = arrays["stop_events"][:, :3]
    bad = str(tmp_path / "bad.npz")
    np.savez(bad, **arrays)
    with pytest.raises(Exception, match="end-stop events have 3 columns"):
        read_result_file(bad)


def test_a_compliant_stops_events_have_no_rebound():
    r = _pendulum(law="compliant", stiffness=1e4, exponent=1.0).simulate(
        t_end=0.6, dt=1e-4, output_dt=1e-3)
    (ev,) = r.stop_events()[:1]
    assert ev["rebound"] is None


def test_scipy_methods_refuse_an_impulsive_stop_naming_it():
    with pytest.raises(ModelError, match=r"end stop 'stop'.*impulsive.*RK45"):
        _pendulum().simulate(t_end=0.1, method="RK45")


def test_a_run_with_an_impulsive_stop_past_its_violation_limit_names_the_joint():
    """The same stop of the run when the constraints drift past the limit, as every
    fixed-step run says it (the joint at fault), not an internal error."""
    with pytest.raises(SimulationError, match=r"constraint violation .* exceeds the limit "
                                              r"1e-14, worst at joint"):
        _pendulum().simulate(t_end=0.5, dt=0.02, violation_limit=1e-14)


@pytest.mark.parametrize("kw, text", [(dict(restitution=1.5), "restitution must be in"),
                                      (dict(restitution=-0.1), "restitution must be in"),
                                      (dict(law="bouncy"), "law must be one of"),
                                      (dict(rest_speed=0.0), "rest_speed must be > 0")])
def test_bad_impulsive_stop_input_names_the_stop(kw, text):
    with pytest.raises(ModelError, match="end stop 'stop'.*" + text):
        _pendulum(**kw)
