"""Energy balance of driven mechanisms: ``Result.energy()["driver_work"]`` is the time
integral of the summed driver power, and ``balance`` = kinetic + potential + dissipated
- actuator work - driver work stays constant (up to the integration and quadrature
errors) for a driven mechanism, dynamic or kinematic, with springs and dampers too."""

import numpy as np
import pytest
from scipy.integrate import trapezoid

from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.solver.drivers import MotionFunction
from SimPhantWorkbench.solver.zoo import GRAVITY as G

from .helpers import driven_slider_crank


def _drift(e):
    b = e["balance"]
    return float(np.abs(b - b[0]).max())


@pytest.mark.parametrize("mode", ["dynamic", "kinematic"])
def test_driven_slider_crank_keeps_its_balance(mode):
    """The crank driven at constant speed, a spring-damper between the ground and the
    slider and a constant actuator force along the slide: the motor does work, the
    balance is constant."""
    m, motor = driven_slider_crank()
    r = (m.simulate(t_end=1.0, dt=1e-3, output_dt=0.005) if mode == "dynamic"
         else m.kinematic(t_end=1.0, output_dt=0.005))
    e = r.energy()
    P = r.driver_power(motor)
    work = e["driver_work"]
    assert work[0] == 0.0
    # the motor's work is the integral of its power; dampers and actuators take part
    np.testing.assert_allclose(np.gradient(work, r.t)[2:-2], P[2:-2], atol=2e-2 * np.abs(P).max())
    swing = float(np.abs(work).max())
    assert swing > 1.0 and e["dissipated"][-1] > 0.05 and np.abs(e["actuator_work"]).max() > 0.1
    assert _drift(e) < 2e-5 * swing, (_drift(e), swing)
    # without the driver work the balance is far from constant
    b0 = e["balance"] + work
    assert float(np.abs(b0 - b0[0]).max()) > 0.3 * swing


def test_partly_driven_double_pendulum_keeps_its_balance():
    """First link swung harmonically about the ground pin, the second free with a
    torsional damper: a dynamic driven run whose free link exchanges energy."""
    m = Model(gravity=(0.0, -G, 0.0))
    L = 0.5
    b1 = m.add_body("l1", mass=1.0, inertia=(1e-3, 0.02, 0.02), position=(L / 2, 0, 0))
    b2 = m.add_body("l2", mass=0.8, inertia=(1e-3, 0.015, 0.015), position=(1.5 * L, 0, 0))
    z = (0.0, 0.0, 1.0)
    j1 = m.add_joint("revolute", m.ground, b1, point=(0, 0, 0), axis=z, name="pin1")
    j2 = m.add_joint("revolute", b1, b2, point=(L, 0, 0), axis=z, name="pin2")
    d = m.add_driver(j1, MotionFunction("harmonic", amplitude=0.8, frequency=1.3, phase=0.0,
                                        offset=0.0), name="swing")
    m.add_joint_spring(j2, stiffness=2.0, damping=0.05, name="elbow")
    r = m.simulate(t_end=2.0, dt=5e-4, output_dt=0.002)
    e = r.energy()
    swing = float(np.abs(e["total"] - e["total"][0]).max())
    assert swing > 1.0 and abs(e["driver_work"]).max() > 1.0
    assert e["dissipated"][-1] > 0.0 and np.abs(r.spring_force("elbow")).max() > 0.1
    # the driver work is the integral of the driver's power (third-order rule)
    P = r.driver_power(d)
    np.testing.assert_allclose(e["driver_work"][-1], trapezoid(P, r.t), rtol=1e-4)
    assert _drift(e) < 5e-5 * swing, (_drift(e), swing)
