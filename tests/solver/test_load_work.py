"""Work of the applied loads: ``Result.energy()["load_work"]`` is the work the forces and
torques of ``Model.add_force``/``add_torque`` put in since the first sample, and the
balance (kinetic + potential + dissipated - actuator, driver and load work) stays
constant with them, whatever frame and point the loads act in."""
import math

import numpy as np

from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.solver.result import Result
from SimPhantWorkbench.solver.result_file import read_result_file
from SimPhantWorkbench.solver.rotations import quat_from_axis_angle


def test_a_free_body_pushed_and_twisted_from_rest_gains_the_closed_form_work():
    """From rest in zero gravity, a constant world force F at the CoG and a constant
    torque T along a principal axis: v = F t / m, omega = T t / I, so the work is
    |F|^2 t^2 / (2 m) + T^2 t^2 / (2 I) (linear powers: the trapezoid rule is exact)."""
    m = Model(gravity=(0.0, 0.0, 0.0))
    mass, inertia = 2.0, (0.3, 0.5, 0.7)
    b = m.add_body("b", mass=mass, inertia=inertia, position=(0.1, 0.2, 0.3))
    F = np.array([3.0, -4.0, 12.0])
    m.add_force(b, F, name="push")
    m.add_torque(b, (0.0, 0.0, 1.5), name="twist")
    r = m.simulate(t_end=1.0, dt=1e-3, output_dt=0.01)
    t = r.t
    expect = F @ F * t ** 2 / (2 * mass) + 1.5 ** 2 * t ** 2 / (2 * inertia[2])
    e = r.energy()
    np.testing.assert_allclose(e["load_work"], expect, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(e["kinetic"], expect, rtol=1e-9, atol=1e-12)
    assert np.abs(e["balance"]).max() < 1e-9 * expect[-1]
    assert r.load_names == ["push", "twist"]


def _loaded_pendulum():
    """A bar hinged at one end, its body frame turned away from its principal axes, with
    gravity, a force in body axes at its tip, a world force at another point and a
    timed torque in body axes."""
    m = Model(gravity=(0.0, 0.0, -9.81))
    q = quat_from_axis_angle(np.array([1.0, 1.0, 0.0]) / math.sqrt(2.0), 0.4)
    tensor = np.array([[0.02, 0.004, 0.0], [0.004, 0.05, 0.003], [0.0, 0.003, 0.06]])
    bar = m.add_body("bar", mass=1.5, inertia=tensor, position=(0.25, 0.0, 0.0),
                     orientation=q)
    m.add_joint("revolute", m.ground, bar, point=(0, 0, 0), axis=(0, 1, 0), name="pin")
    m.add_force(bar, (0.0, 2.0, -3.0), local_point=(0.2, 0.01, 0.0), frame="body",
                name="tip")
    m.add_force(bar, (1.0, 0.0, 4.0), point=(0.1, 0.0, 0.02), name="side")
    m.add_torque(bar, lambda t: (0.0, 0.8 * math.sin(3.0 * t), 0.0), frame="body",
                 name="pulse")
    return m


def test_the_balance_of_a_loaded_pendulum_holds_with_the_load_work(tmp_path):
    r = _loaded_pendulum().simulate(t_end=2.0, dt=5e-4, output_dt=0.002)
    e = r.energy()
    swing = float(np.ptp(e["total"]))
    work = e["load_work"]
    assert swing > 1.0 and np.abs(work).max() > 0.5
    drift = float(np.ptp(e["balance"]))
    assert drift < 2e-5 * swing, (drift, swing)
    # without it the balance is far from constant
    assert float(np.ptp(e["balance"] + work)) > 0.3 * swing
    # stored and read back, bit for bit
    path = tmp_path / "r.npz"
    r.save(str(path))
    for back in (Result.from_arrays(r.to_arrays()), read_result_file(str(path))):
        assert back.load_names == r.load_names
        np.testing.assert_array_equal(back.energy()["balance"], e["balance"])
