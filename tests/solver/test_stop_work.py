"""The work of the force elements and loads summed in the run (``kernels.accumulate_work``):
the energy balance closes at any output step, an impulsive stop's impact adds the exact
kinetic energy it took, a load's work is its closed form, and a SciPy run carries the
work as part of its state."""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model

G = 9.81
I_O = 0.01 + 0.25                          # the rod about its hinge
W0 = math.sqrt(2 * 1.0 * G * 0.5 / I_O)    # its speed at the bottom, from energy
SCALE = 1.0 * G * 0.5                      # m g l: the energy it swings with [J]


def _pendulum(**stop):
    """A rod (1 kg, CoG 0.5 m from the hinge) released horizontal about the world y axis;
    its joint angle is pi/2 at the bottom, where the stop's upper limit is."""
    m = Model(gravity=(0, 0, -G))
    b = m.add_body("rod", mass=1.0, inertia=(0.01, 0.01, 0.01), position=(0.5, 0, 0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint_stop(j, upper=math.pi / 2, name="stop", **stop)
    return m


DAMPED = dict(stiffness=1e4, exponent=1.0, damping=20.0, penetration=1e-3)


def test_the_balance_of_a_damped_stop_closes_at_a_coarse_output_step():
    """Output steps of 10 and 100 steps, each interval through much of a damped contact:
    the dissipated energy is the run's, not the samples', so kinetic + potential +
    dissipated stays constant to the integration error (second order through the
    contact law's kinks: 1e-5 of the energy at dt = 1e-4, 3e-7 at 2e-5), and both
    output steps give the same dissipated energy at their common samples."""
    dt = 2e-5
    runs = {}
    for coarse in (10, 100):
        r = runs[coarse] = _pendulum(**DAMPED).simulate(t_end=1.0, dt=dt,
                                                        output_dt=coarse * dt)
        e = r.energy()
        assert e["dissipated"][-1] > 0.5 * SCALE          # the stop took energy
        assert len(r.stop_events()) >= 1
        assert np.ptp(e["balance"]) < 1e-6 * SCALE
    d10 = runs[10].energy()["dissipated"][::10]
    d100 = runs[100].energy()["dissipated"]
    assert np.allclose(d100, d10, rtol=0, atol=1e-12 * SCALE)


def test_each_impact_adds_the_kinetic_energy_it_took():
    """An impulsive stop of restitution e at the bottom: the first impact takes
    (1 - e^2) I_O W0^2 / 2 of the rod's energy (closed form), at once, whatever the
    output step; the balance closes through the impacts."""
    e_rest = 0.6
    r = _pendulum(law="impulsive", restitution=e_rest).simulate(
        t_end=0.9, dt=1e-4, output_dt=0.05)
    ev = r.stop_events()
    assert len(ev) >= 1
    e = r.energy()
    k = np.searchsorted(r.t, ev[0]["time"])
    jump = e["dissipated"][k] - e["dissipated"][k - 1]
    assert jump == pytest.approx((1.0 - e_rest ** 2) * 0.5 * I_O * W0 ** 2, rel=1e-6)
    assert np.ptp(e["balance"]) < 1e-6 * SCALE


def test_the_work_of_the_steps_an_impact_takes_again_counts_once():
    """A damped, driven pendulum on an impulsive stop: the steps that locate each impact
    are taken again from the step's start, and the damper's and the actuator's work
    in them counts once: the balance closes through the impacts at a coarse output."""
    m = _pendulum(law="impulsive", restitution=0.6)
    j = m.joints[0]
    m.add_joint_spring(j, 0.0, damping=0.02, name="damper")
    m.add_joint_actuator(j, 0.3, name="motor")
    r = m.simulate(t_end=1.5, dt=1e-4, output_dt=0.05)
    e = r.energy()
    assert len(r.stop_events()) >= 2
    assert e["dissipated"][-1] > 0.3 * SCALE and abs(e["actuator_work"][-1]) > 0.05 * SCALE
    assert np.ptp(e["balance"]) < 1e-6 * SCALE


def test_a_loads_work_and_an_actuators_are_their_closed_forms():
    """A wheel (I = 0.2) on a free hinge under a world torque T about its axis and a joint
    actuator's moment A, against a joint damper c: the run's load work is the integral
    of T omega and the actuator's of A omega, omega(t) = (T + A)/c (1 - exp(-c t / I))
    (closed form), at an output step of 50 steps; the balance closes."""
    T, A, c, I = 0.3, 0.2, 0.05, 0.2
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("wheel", mass=1.0, inertia=(I, I, I))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
    m.add_torque(b, (0.0, 0.0, T), name="torque")
    m.add_joint_actuator(j, A, name="motor")
    m.add_joint_spring(j, 0.0, damping=c, name="damper")
    r = m.simulate(t_end=2.0, dt=1e-3, output_dt=0.05)
    t = r.t
    tau = I / c
    angle = (T + A) / c * (t - tau * (1.0 - np.exp(-t / tau)))    # integral of omega
    e = r.energy()
    assert e["load_work"] == pytest.approx(T * angle, rel=1e-9, abs=1e-12)
    assert e["actuator_work"] == pytest.approx(A * angle, rel=1e-9, abs=1e-12)
    omega = (T + A) / c * (1.0 - np.exp(-t / tau))
    # dissipated: integral of c omega^2
    a = (T + A) / c
    diss = c * a * a * (t - 2 * tau * (1 - np.exp(-t / tau))
                        + 0.5 * tau * (1 - np.exp(-2 * t / tau)))
    assert e["dissipated"] == pytest.approx(diss, rel=1e-9, abs=1e-12)
    assert e["kinetic"] == pytest.approx(0.5 * I * omega ** 2, rel=1e-9, abs=1e-12)
    assert np.ptp(e["balance"]) < 1e-9


def test_an_adaptive_run_integrates_the_work_with_the_state():
    """DOP853 carries the work as part of its state: the balance through a damped stop
    closes to its tolerance at an output step far longer than a contact."""
    r = _pendulum(**DAMPED).simulate(t_end=1.0, method="DOP853", output_dt=0.05,
                                     rtol=1e-10, atol=1e-12)
    e = r.energy()
    assert e["dissipated"][-1] > 0.05 * SCALE
    assert np.ptp(e["balance"]) < 1e-6 * SCALE


def test_the_load_work_survives_save_and_reopen(tmp_path):
    """The run's load work is stored with the result (not integrated again over the
    samples when it is read back)."""
    from SimPhantWorkbench.solver.result_file import read_result_file
    m = Model(gravity=(0, 0, -G))
    b = m.add_body("rod", mass=1.0, inertia=(0.01, 0.01, 0.01), position=(0.5, 0, 0))
    m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_torque(b, (0.0, 0.5, 0.0), name="torque")
    r = m.simulate(t_end=1.0, dt=1e-3, output_dt=0.1)
    path = str(tmp_path / "r.npz")
    r.save(path)
    again = read_result_file(path)
    assert np.array_equal(again.energy()["load_work"], r.energy()["load_work"])
    assert np.ptp(again.energy()["balance"]) < 1e-7
