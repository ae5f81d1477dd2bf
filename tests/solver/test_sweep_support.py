"""What parameter-study workers rely on, without FreeCAD: models with timed loads pickle
(functions travel as text) and give the same run after a round trip; fingerprints are
exact; metrics by name against closed forms; ``run_batch`` records failures per task."""
import math
import pickle

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model, ModelError
from SimPhantWorkbench.solver.batch import Task, fingerprint, run_batch
from SimPhantWorkbench.solver.expressions import TimeFunction
from SimPhantWorkbench.solver.metrics import parse_metric

G = 9.81
SETTINGS = dict(t_end=2.0, dt=1e-3, method="rk4", output_dt=1e-3)


def pendulum(length=1.0, push="0, 0, 0"):
    """A point-like bob (tiny inertia) on a massless-rod revolute hinge at the origin,
    released at 5 degrees; ``push`` a timed force on the bob."""
    m = Model(gravity=(0, 0, -G))
    th = math.radians(5.0)
    bob = m.add_body("bob", mass=1.0, inertia=(1e-6, 1e-6, 1e-6),
                     position=(length * math.sin(th), 0, -length * math.cos(th)))
    m.add_joint("revolute", m.ground, bob, point=(0, 0, 0), axis=(0, 1, 0), name="hinge")
    m.add_force(bob, TimeFunction(push, "force 'push'"), name="push")
    return m


def test_a_model_with_a_timed_load_pickles_and_runs_identically():
    m = pendulum(push="0.2*sin(3*t), 0, 0")
    m2 = pickle.loads(pickle.dumps(m))
    assert isinstance(m2.loads[0].value, TimeFunction)
    assert m2.loads[0].value.source == "0.2*sin(3*t), 0, 0"
    r1 = m.simulate(**SETTINGS)
    r2 = m2.simulate(**SETTINGS)
    np.testing.assert_array_equal(r1.states, r2.states)
    assert fingerprint(m, SETTINGS) == fingerprint(m2, SETTINGS)


def test_time_functions_reject_code_and_bad_shapes():
    for bad, msg in (("__import__('os')", "not allowed|only math"), ("t, t", "3 comma"),
                     ("x, 0, 0", "unknown name"), ("1/t, 0, 0", "fails at t = 0")):
        with pytest.raises(ModelError, match=msg):
            TimeFunction(bad, "force 'F'")


def test_fingerprints_see_every_bit_and_the_settings():
    a, b = pendulum(), pendulum()
    assert fingerprint(a, SETTINGS) == fingerprint(b, SETTINGS)
    b.bodies[0].mass = np.nextafter(1.0, 2.0)
    assert fingerprint(a, SETTINGS) != fingerprint(b, SETTINGS)
    assert fingerprint(a, dict(SETTINGS, t_end=2.5)) != fingerprint(a, SETTINGS)
    assert fingerprint(pendulum(push="0, 0, 1"), SETTINGS) != fingerprint(a, SETTINGS)
    # every joint frame counts (side 2 differs from side 1 before assembly)
    keys = set()
    for dx in (0.0, 1e-9):
        for dz in (0.0, 1e-9):
            m = Model()
            body = m.add_body("b", mass=1.0, inertia=(1, 1, 1), position=(1, 0, 0))
            m.add_joint("revolute", m.ground, body, frame1=((dz, 0, 0), np.eye(3)),
                        frame2=((1 + dx, 0, 0), np.eye(3)), name="j")
            keys.add(fingerprint(m, SETTINGS))
    assert len(keys) == 4
    c = pendulum()
    c.loads[0].value = lambda t: np.zeros(3)       # a Python callable cannot be described
    assert fingerprint(c, SETTINGS) is None


def test_metrics_against_the_simple_pendulum():
    L = 0.3
    r = pendulum(L).simulate(**SETTINGS)
    T = 2 * math.pi * math.sqrt(L / G) * (1 + math.radians(5.0) ** 2 / 16)
    period = parse_metric("period(velocity(bob).x)").resolved("bob")
    assert period.evaluate(r) == pytest.approx(T, rel=1e-4)
    # released at rest at +x: x first falls through 0 a quarter period later
    quarter = parse_metric("first_crossing(position(bob).x, 0, down)").resolved("bob")
    assert quarter.evaluate(r) == pytest.approx(T / 4, rel=1e-4)
    up = parse_metric("first_crossing(position(bob).x, direction=up)").resolved("bob")
    assert up.evaluate(r) == pytest.approx(3 * T / 4, rel=1e-4)
    assert math.isnan(parse_metric("first_crossing(position(bob).x, 5)").resolved("bob")
                      .evaluate(r))
    # bottom speed from energy: v = sqrt(2 g L (1 - cos th0))
    vmax = math.sqrt(2 * G * L * (1 - math.cos(math.radians(5.0))))
    assert parse_metric("max(speed(bob))").resolved("bob").evaluate(r) == pytest.approx(
        vmax, rel=1e-4)
    # the hinge carries m g (3 - 2 cos th0) at the bottom
    peak = parse_metric("max(reaction_force(hinge))").resolved("hinge").evaluate(r)
    assert peak == pytest.approx(G * (3 - 2 * math.cos(math.radians(5.0))), rel=1e-4)
    z0 = -L * math.cos(math.radians(5.0))
    at0 = parse_metric("at(position(bob).z, 0.0)").resolved("bob")
    assert at0.evaluate(r) == pytest.approx(z0, abs=1e-12)
    x = r.position("bob")[:, 0]
    assert parse_metric("rms(position(bob).x)").resolved("bob").evaluate(r) == pytest.approx(
        float(np.sqrt(np.mean(x * x))))
    assert parse_metric("range(position(bob).x)").resolved("bob").evaluate(r) == pytest.approx(
        x.max() - x.min())
    # the hinge angle: the swing of +-5 degrees
    swing = parse_metric("range(joint_angle(hinge))").resolved("hinge").evaluate(r)
    assert swing == pytest.approx(math.radians(10.0), rel=1e-3)
    assert parse_metric("max(joint_angle_rate(hinge))").resolved("hinge").evaluate(r) == \
        pytest.approx(vmax / L, rel=1e-4)
    assert parse_metric("max(energy_drift)").evaluate(r) < 1e-6
    assert parse_metric("max(violation)").evaluate(r) == r.constraint_violation()["position"].max()


def test_metric_expressions_are_checked_with_clear_messages():
    for text, msg in (("speed(bob)", "reduce it"), ("max(sped(bob))", "unknown quantity"),
                      ("max(speed(bob).x)", "scalar"), ("max(position(bob).w)", "component"),
                      ("max(energy_drift(bob))", "whole model"), ("max(position)", "needs a body"),
                      ("at(position(bob).z)", "needs a time"), ("max(", "cannot read"),
                      ("first_crossing(position(bob).x, 0, sideways)", "direction"),
                      ("max(speed(bob), 3)", "at most 0")):
        with pytest.raises(ModelError, match=msg):
            parse_metric(text)
    m = parse_metric("max(reaction_force(\"Crank pin\"))", "peak")
    assert (m.name, m.quantity, m.target, m.kind) == ("peak", "reaction_force", "Crank pin",
                                                      "joint")


def test_run_batch_records_failures_and_goes_on():
    good = pendulum()
    bad = Model()
    b = bad.add_body("b", mass=1.0, inertia=(1, 1, 1), position=(1, 0, 0))
    bad.add_joint("revolute", bad.ground, b, frame1=((0, 0, 0), np.eye(3)),
                  frame2=((5, 0, 0), np.eye(3)), name="j")
    bad.add_joint("revolute", bad.ground, b, frame1=((0, 0, 3), np.eye(3)),
                  frame2=((1, 0, 0), np.eye(3)), name="k")
    metrics = [parse_metric("max(speed(bob))").resolved("bob")]
    short = dict(SETTINGS, t_end=0.1)
    out = run_batch([Task(0, "a", bad, short, metrics), Task(1, "b", good, short, metrics),
                     Task(2, "c", good, dict(short, dt=-1.0), metrics)])
    assert [o["status"] for o in out] == ["failed", "ok", "failed"]
    assert out[0]["error"] == "AssemblyError" and math.isnan(out[0]["metrics"]["max(speed(bob))"])
    assert out[1]["metrics"]["max(speed(bob))"] > 0 and out[1]["steps"] == 100
    assert "dt" in out[2]["message"]
    assert out[1]["new_kernels"] == 0      # the kernels were loaded by the first task


def test_energy_drift_is_the_drift_of_the_energy_balance():
    """A damped spring-mass loses its energy to the damper: the metric (as the CLI's drift)
    follows the balance total + dissipated, not the total, which falls by the lost energy."""
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("mass", mass=2.0, inertia=(1, 1, 1), position=(0.1, 0, 0))
    m.add_spring(m.ground, (-1, 0, 0), b, (0.1, 0, 0), stiffness=200.0,
                 damping=4.0, free_length=1.0)
    r = m.simulate(t_end=2.0, dt=1e-3)
    e = r.energy()
    lost = e["total"][0] - e["total"][-1]
    assert lost > 0.5 * e["total"][0]
    assert parse_metric("max(energy_drift)").evaluate(r) < 1e-6 * e["total"][0]
