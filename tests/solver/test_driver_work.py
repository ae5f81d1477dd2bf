"""The drivers' work summed in the run (``kernels.driver_powers``, ``accumulate_work``):
the power ``-lambda (Phi_q v)`` of each driver's rows summed with the integration
method's own stage weights, as the force elements' work, so that the energy balance of a
driven mechanism closes at any output step. References: closed forms (a mass lifted at
constant speed against gravity, an inertia spun up by a prescribed angle law) and the
mechanism's own kinetic and potential energies (the balance)."""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model, Result
from SimPhantWorkbench.solver.drivers import MotionFunction
from SimPhantWorkbench.solver.zoo import GRAVITY as G

from .helpers import driven_slider_crank

DT = 1e-3
#: output steps 1x, 10x and 100x the integration step
FACTORS = (1, 10, 100)


def _lift(speed=0.4, mass=3.0):
    """A block on a vertical prismatic guide, driven up at constant ``speed``."""
    m = Model(gravity=(0.0, 0.0, -G))
    b = m.add_body("block", mass=mass, inertia=(0.01, 0.02, 0.03))
    j = m.add_joint("prismatic", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1), name="guide")
    d = m.add_driver(j, MotionFunction("ramp", value=0.0, rate=speed), name="lift")
    return m, d


def _spin(J=0.25, theta1=3.0, t1=0.8):
    """A disc on a revolute about its symmetry axis (along gravity: no gravity torque),
    turned by a quintic step of its angle from 0 to ``theta1`` over [0, ``t1``]."""
    m = Model(gravity=(0.0, 0.0, -G))
    b = m.add_body("disc", mass=2.0, inertia=(0.5 * J, 0.5 * J, J))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1), name="axle")
    d = m.add_driver(j, MotionFunction("step5", t0=0.0, value0=0.0, t1=t1, value1=theta1),
                     name="motor")
    return m, d


def _spin_rate(t, theta1=3.0, t1=0.8):
    x = np.clip(t / t1, 0.0, 1.0)
    return theta1 / t1 * 30.0 * x * x * (1.0 - x) ** 2


@pytest.mark.parametrize("method", ["rk4", "euler", "DOP853"])
@pytest.mark.parametrize("factor", FACTORS)
def test_lifting_a_mass_at_constant_speed_does_m_g_v_t(method, factor):
    speed, mass = 0.4, 3.0
    m, d = _lift(speed, mass)
    r = m.simulate(t_end=1.0, dt=DT, method=method, output_dt=factor * DT)
    np.testing.assert_allclose(r.driver_work(d), mass * G * speed * r.t, rtol=1e-9,
                               atol=1e-12)
    np.testing.assert_allclose(r.energy()["driver_work"], mass * G * speed * r.t, rtol=1e-9,
                               atol=1e-12)


@pytest.mark.parametrize("method", ["rk4", "DOP853"])
@pytest.mark.parametrize("factor", FACTORS)
def test_spinning_an_inertia_up_does_half_j_omega_squared(method, factor):
    """The power J omega omega' of the quintic step is of degree 7 in t: integrated over
    output samples 100 steps apart it misses (``test_driver_work_outlives_saving...``); the
    work summed in the run is 1/2 J omega^2 at every sample (to 1e-7 of its peak: the
    run's own integration error, a few 1e-9)."""
    J = 0.25
    m, d = _spin(J)
    r = m.simulate(t_end=1.0, dt=DT, method=method, output_dt=factor * DT)
    w = _spin_rate(r.t)
    ref = 0.5 * J * w * w
    scale = ref.max()
    assert scale > 5.0
    np.testing.assert_allclose(r.driver_work(d), ref, atol=1e-7 * scale)
    np.testing.assert_allclose(r.energy()["balance"], 0.0, atol=1e-7 * scale)


def _point_driven_pendulum():
    """A pendulum whose pivot (a point of the bar) a point driver moves sideways and up and
    down; the bar swings free about it (a spherical pivot)."""
    m = Model(gravity=(0.0, 0.0, -G))
    L = 0.6
    b = m.add_body("bar", mass=1.5, inertia=(1e-3, 0.05, 0.05), position=(0.0, 0.0, -L / 2),
                   orientation=(math.cos(0.3), 0.0, math.sin(0.3), 0.0))
    d = m.add_point_driver(b, ("0.15*sin(4*t)", "0.05*sin(3*t)", "0.1*(1-cos(5*t))"),
                           point=(0.0, 0.0, 0.0), name="pivot")
    return m, d


def _angle_driven_double_pendulum():
    """Link 1 turned about the ground pin by a body angle driver (a harmonic law), link 2
    free on a pin with a torsional spring-damper."""
    m = Model(gravity=(0.0, -G, 0.0))
    L = 0.5
    z = (0.0, 0.0, 1.0)
    b1 = m.add_body("l1", mass=1.0, inertia=(1e-3, 0.02, 0.02), position=(L / 2, 0, 0))
    b2 = m.add_body("l2", mass=0.8, inertia=(1e-3, 0.015, 0.015), position=(1.5 * L, 0, 0))
    m.add_joint("revolute", m.ground, b1, point=(0, 0, 0), axis=z, name="pin1")
    j2 = m.add_joint("revolute", b1, b2, point=(L, 0, 0), axis=z, name="pin2")
    d = m.add_angle_driver(m.ground, b1, axis=z, vector1=(1, 0, 0), vector2=(1, 0, 0),
                           position=MotionFunction("harmonic", amplitude=0.8, frequency=1.3,
                                                   phase=0.0, offset=0.0), name="swing")
    m.add_joint_spring(j2, stiffness=2.0, damping=0.05, name="elbow")
    return m, d


def _direction_driven_top():
    """A body whose axis a direction driver tilts on a cone (world axes), with a second
    body hung from it by a damped revolute."""
    m = Model(gravity=(0.0, 0.0, -G))
    b = m.add_body("holder", mass=1.0, inertia=(0.02, 0.02, 0.01), position=(0, 0, 0))
    m.add_joint("spherical", m.ground, b, point=(0, 0, 0), name="ball")
    arm = m.add_body("arm", mass=0.5, inertia=(1e-3, 0.01, 0.01), position=(0.2, 0, 0))
    j = m.add_joint("revolute", b, arm, point=(0.0, 0, 0), axis=(0, 0, 1), name="hinge")
    m.add_joint_spring(j, stiffness=0.5, damping=0.02, name="hinge damper")
    d = m.add_direction_driver(b, (0, 0, 1), ("0.4*sin(2*t)", "0.4*(1-cos(2*t))", 1.0),
                               name="tilt")
    return m, d


MODELS = {"slider_crank": driven_slider_crank, "point": _point_driven_pendulum,
          "angle": _angle_driven_double_pendulum, "direction": _direction_driven_top}


def _balance_error(r):
    e = r.energy()
    scale = max(np.abs(e["total"] - e["total"][0]).max(), np.abs(e["driver_work"]).max(),
                e["kinetic"].max())
    b = e["balance"]
    return float(np.abs(b - b[0]).max()) / scale, scale, e


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("factor", FACTORS)
def test_driven_balance_closes_at_any_output_step(name, factor):
    m, d = MODELS[name]()
    r = m.simulate(t_end=1.0, dt=DT, output_dt=factor * DT)
    err, scale, e = _balance_error(r)
    assert scale > 0.05 and np.abs(e["driver_work"]).max() > 0.05 * scale
    assert err < 1e-6, err
    # the work is the driver's own: without it the balance is far off
    b0 = e["balance"] + r.driver_work(d)
    assert np.abs(b0 - b0[0]).max() > 0.05 * scale


@pytest.mark.parametrize("name", ["slider_crank", "angle"])
def test_driven_balance_closes_with_scipy_methods(name):
    m, d = MODELS[name]()
    r = m.simulate(t_end=1.0, dt=None, method="DOP853", output_dt=0.1, rtol=1e-10,
                   atol=1e-12)
    err, _scale, _e = _balance_error(r)
    assert err < 1e-6, err


def test_driver_work_outlives_saving_and_old_archives_fall_back():
    """The work is saved with the result; an archive without it (earlier versions) reads
    as the power integrated over the samples (``forces.cumtrapz``), as before."""
    from SimPhantWorkbench.solver.forces import cumtrapz
    m, d = _spin()
    r = m.simulate(t_end=1.0, dt=DT, output_dt=0.1)
    a = r.to_arrays()
    assert "driver_work" in a
    again = Result.from_arrays(a)
    np.testing.assert_array_equal(again.driver_work(d), r.driver_work(d))
    old = {k: v for k, v in a.items() if k != "driver_work"}
    back = Result.from_arrays(old)
    quad = cumtrapz(r.t, r.driver_power(d))
    np.testing.assert_allclose(back.driver_work(d), quad, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(back.energy()["driver_work"], quad, rtol=1e-12, atol=1e-12)
    # at 100 steps per sample the quadrature is off where the summed work is not
    ref = 0.5 * 0.25 * _spin_rate(r.t) ** 2
    assert np.abs(quad - ref).max() > 1e3 * np.abs(r.driver_work(d) - ref).max()


def test_driver_work_of_a_point_driver_sums_its_rows():
    """A point driver's work is one number per sample: its force dotted into the point's
    velocity, summed in the run; here the gain of the bar's mechanical energy."""
    m, d = _point_driven_pendulum()
    r = m.simulate(t_end=0.5, dt=DT, output_dt=0.05)
    w = r.driver_work(d)
    assert w.shape == r.t.shape
    e = r.energy()
    np.testing.assert_allclose(w - (e["total"] - e["total"][0]), 0.0,
                               atol=1e-7 * np.abs(w).max())


@pytest.mark.parametrize("case", ["lift", "spin"])
def test_kinematic_driver_work_is_the_power_over_the_samples(case):
    """In a kinematic analysis there is no integration step: the driver work is the power
    (from the inverse dynamics at each sample) integrated over the output samples
    (``forces.cumtrapz``, third order), exact for a constant or linear power: a lift at
    constant speed (m g v t) and a spin-up at constant angular acceleration a
    (1/2 J (a t)^2)."""
    if case == "lift":
        m, d = _lift(0.4, 3.0)
        r = m.kinematic(t_end=1.0, output_dt=0.1)
        ref = 3.0 * G * 0.4 * r.t
    else:
        J, a = 0.25, 3.0
        m = Model(gravity=(0.0, 0.0, -G))
        b = m.add_body("disc", mass=2.0, inertia=(0.5 * J, 0.5 * J, J))
        j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
        d = m.add_driver(j, "0.5*%r*t**2" % a, name="motor")
        r = m.kinematic(t_end=1.0, output_dt=0.1)
        ref = 0.5 * J * (a * r.t) ** 2
    assert r.settings["method"] == "kinematic"
    np.testing.assert_allclose(r.driver_work(d), ref, rtol=1e-7, atol=1e-9)


def test_kinematic_balance_converges_with_the_output_step():
    """The kinematic slider-crank: the quadrature of the power over the samples is third
    order, so the balance's drift falls about 8 times per halved output step."""
    errs = []
    for out in (0.02, 0.01):
        m, d = driven_slider_crank()
        r = m.kinematic(t_end=1.0, output_dt=out)
        errs.append(_balance_error(r)[0])
    assert errs[1] < errs[0] / 5.0, errs
