"""What parameter-study workers rely on, without FreeCAD: models with timed loads pickle
(functions travel as text) and give the same run after a round trip; fingerprints are
exact; metrics by name against closed forms; ``run_batch`` records failures per task."""
import math
import pickle

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model, ModelError
from SimPhantWorkbench.solver.batch import (Task, comparable, description, description_parts,
                                             fingerprint, run_batch)
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


def test_comparable_descriptions_ignore_round_off_and_see_a_change():
    """What a result is compared with (outdated results): round-off, as a document saved
    and reopened gives, changes no part (the body and the joint differ in their bits),
    while a change of a value in its 7th digit changes its part."""
    def model(noise=0.0, mass=2.0):
        m = Model(gravity=(0, 0, -G))
        inertia = np.array([[0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.02]]) \
            + noise * np.array([[1.0, 2.0, 0], [2.0, -1.0, 0], [0, 0, 0]])
        bar = m.add_body("bar", mass=mass, inertia=inertia, position=(0.3, noise, -0.1))
        m.add_joint("revolute", m.ground, bar, point=(noise, 0, 0), axis=(0, 1, 0),
                    name="hinge")
        return m

    def parts(m):
        return description_parts(comparable(description(m, SETTINGS)))

    exact, noisy = description(model(), SETTINGS), description(model(noise=1e-17), SETTINGS)
    assert exact["bodies"] != noisy["bodies"] and exact["joints"] != noisy["joints"]
    assert parts(model(noise=1e-17)) == parts(model())
    changed, base = parts(model(mass=2.0 * (1 + 1e-7))), parts(model())
    assert {k for k in base if changed[k] != base[k]} == {"bodies/bar"}


def test_crossings_through_a_sample_on_the_level():
    """A signal that reaches the level exactly at a sample on its way through crosses
    there (once); one that touches it and turns back does not cross."""
    from SimPhantWorkbench.solver.metrics import REDUCERS
    first, period = REDUCERS["first_crossing"][0], REDUCERS["period"][0]
    t = np.arange(7.0)
    through = np.array([2.0, 1.0, 0.0, 0.0, -1.0, -2.0, -1.0])
    assert first(t, through, 0.0, "down") == 2.0
    assert first(t, through, 0.0, "any") == 2.0
    assert math.isnan(first(t, through, 0.0, "up"))
    touch = np.array([2.0, 1.0, 0.0, 1.0, 2.0, 1.0, 0.5])
    assert math.isnan(first(t, touch, 0.0, "any"))
    assert first(t, touch, 1.5, "down") == pytest.approx(0.5)
    wave = np.array([1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0])
    assert period(t, wave, 0.0) == pytest.approx(4.0)
    assert first(t, np.array([0.0, -1.0, 1.0]), 0.0, "any") == pytest.approx(1.5)


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


def test_metric_arithmetic_percentiles_and_their_errors():
    r = pendulum(0.3).simulate(**dict(SETTINGS, t_end=1.0))
    speed = np.linalg.norm(r.velocity("bob"), axis=1)
    force = np.linalg.norm(r.reaction_force("hinge"), axis=1)
    one = lambda text: parse_metric(text).resolved("bob" if "bob" in text else "hinge")  # noqa
    vmax = one("max(speed(bob))").evaluate(r)
    m = parse_metric("2 * max(speed(bob)) / max(reaction_force(hinge)) - 1").resolved(
        {("body", "bob"): "bob", ("joint", "hinge"): "hinge"})
    assert [t.signal.text for t in m.terms] == ["speed(bob)", "reaction_force(hinge)"]
    assert m.evaluate(r) == 2 * vmax / force.max() - 1
    assert one("percentile(speed(bob), 95)").evaluate(r) == float(np.percentile(speed, 95))
    assert one("median(speed(bob))").evaluate(r) == float(np.median(speed))
    assert one("std(speed(bob))").evaluate(r) == float(np.std(speed))
    assert one("integral(speed(bob))").evaluate(r) == pytest.approx(
        float(np.sum(0.5 * (speed[1:] + speed[:-1]) * np.diff(r.t))), rel=1e-15)
    assert one("sqrt(abs(min(position(bob).z)))").evaluate(r) == \
        math.sqrt(abs(r.position("bob")[:, 2].min()))
    assert one("max(max(speed(bob)), 5)").evaluate(r) == 5.0
    assert parse_metric("-max(energy_drift) + 1e-3").evaluate(r) == pytest.approx(1e-3, abs=1e-9)
    with pytest.raises(ModelError, match="division by zero"):
        one("max(speed(bob)) / (2 - 2)").evaluate(r)
    for text, msg in (("max(speed(bob)) < 1", "expected REDUCER"), ("x + 1", "unknown name"),
                      ("3", "at least one reducer|REDUCER"), ("foo(1)", "unknown reducer or "
                                                                         "function"),
                      ("percentile(speed(bob))", "needs a q"),
                      ("percentile(speed(bob), 101)", "0 .. 100"),
                      ("sqrt(max(speed(bob)), 2)", "takes 1 value"),
                      ("-" * 60 + "max(speed(bob))", "nested too deeply"),
                      ("-" * 500 + "max(speed(bob))", "too long|nested"),
                      ("+".join(["max(speed(bob))"] * 80), "too long"),
                      ("max(speed(%s))" % ("b" * 3000), "characters")):
        with pytest.raises(ModelError, match=msg):
            parse_metric(text)


def test_a_timeout_fails_a_variant_and_kept_series_come_back():
    from SimPhantWorkbench.solver.metrics import parse_signal
    metrics = [parse_metric("max(speed(bob))").resolved("bob")]
    keep = [parse_signal("position(bob).x", "x").resolved("bob"), parse_signal("kinetic_energy")]
    long = dict(SETTINGS, t_end=200.0)
    out = run_batch([Task(0, "a", pendulum(), long, metrics, timeout=0.3),
                     Task(1, "b", pendulum(), dict(SETTINGS, t_end=0.2), metrics, keep)])
    assert out[0]["status"] == "failed" and out[0]["error"] == "Timeout"
    assert "timeout of 0.3 s" in out[0]["message"] and out[0]["sim_time"] < 5.0
    t, x = out[1]["series"]["x"]
    assert len(t) == 201 and x[0] == pytest.approx(0.3 * math.sin(math.radians(5.0)) / 0.3,
                                                   rel=1e-12)
    assert set(out[1]["series"]) == {"x", "kinetic_energy"}


def test_sobol_indices_of_the_ishigami_function():
    """The Saltelli design and estimators against the closed-form indices of
    f = sin x1 + 7 sin^2 x2 + 0.1 x3^4 sin x1 on [-pi, pi]^3 (Ishigami & Homma 1990)."""
    from SimPhantWorkbench.sweep.designs import saltelli_unit
    from SimPhantWorkbench.sweep.sensitivity import sobol_indices
    n, d = 2048, 3
    x = -np.pi + 2 * np.pi * saltelli_unit(n, d, np.random.default_rng(1))
    y = np.sin(x[:, 0]) + 7 * np.sin(x[:, 1]) ** 2 + 0.1 * x[:, 2] ** 4 * np.sin(x[:, 0])
    a, b = 7.0, 0.1
    v1 = 0.5 * (1 + b * np.pi ** 4 / 5) ** 2
    v2 = a * a / 8
    v13 = b * b * np.pi ** 8 * (1 / 18 - 1 / 50)
    v = v1 + v2 + v13
    r = sobol_indices(y, n, d)
    np.testing.assert_allclose(r["S1"], [v1 / v, v2 / v, 0.0], atol=0.03)
    np.testing.assert_allclose(r["ST"], [(v1 + v13) / v, v2 / v, v13 / v], atol=0.03)
    assert np.all(r["S1_conf"] < 0.1) and r["samples"] == n
    y[5] = np.nan                                   # a failed variant: its sample left out
    assert sobol_indices(y, n, d)["samples"] == n - 1
