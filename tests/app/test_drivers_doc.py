"""Driver document objects: factory, conversion (units), save/restore, the study's
analysis mode, bad input, and the driver outputs of ``simphant run``."""
import math
import os

import numpy as np
import pytest

import FreeCAD

from SimPhantWorkbench import cli, conversion, factory, runner
from SimPhantWorkbench.cli.common import fmt
from SimPhantWorkbench.document.base import is_type
from SimPhantWorkbench.solver import ModelError

from helpers_doc import G, docs, pendulum, reopen  # noqa: F401 (docs: a fixture)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _held(doc, angle="30 deg", mode="Kinematic"):
    p = pendulum(doc)
    study = p["study"]
    study.EndTime = 0.2
    study.OutputInterval = 0.05
    study.AnalysisMode = mode
    drv = factory.make_driver(study, p["joint"], function="constant", name="Hold", Angle=angle)
    return p, study, drv


@pytest.mark.parametrize("mode", ["Kinematic", "Dynamic"])
def test_held_pendulum_torque_is_the_gravity_moment(doc, mode):
    p, study, drv = _held(doc, mode=mode)
    r = runner.run_study(study)
    assert r.settings["method"] == ("kinematic" if mode == "Kinematic" else "rk4")
    mass = r.masses[0]
    cog = r.position(r.body_names[0])
    lever = np.hypot(*(cog[:, :2] - p["pivot"][:2]).T)       # horizontal arm, gravity -z
    np.testing.assert_allclose(np.abs(r.driver_effort("Hold")), mass * G * lever, rtol=1e-6)
    np.testing.assert_allclose(r.driver_value("Hold"), math.radians(30.0))
    # held 30 deg away from where it started (2 mm beside the vertical)
    assert lever[-1] > 0.05
    stored = runner.get_result(study)
    np.testing.assert_allclose(stored.driver_effort("Hold"), r.driver_effort("Hold"))


def test_units_of_the_properties_reach_the_solver_in_si(doc):
    p = pendulum(doc)
    study = p["study"]
    motor = factory.make_driver(study, p["joint"], function="ramp", name="Motor",
                                Angle="90 deg", Speed=60.0)
    m = conversion.driver_motion(motor)
    np.testing.assert_allclose(m.value_at(0.5), [math.pi / 2 + math.pi, 2 * math.pi, 0.0])
    motor.Function = "harmonic"
    motor.AngleAmplitude = "10 deg"
    motor.Frequency = 2.0
    motor.Phase = 90.0
    np.testing.assert_allclose(conversion.driver_motion(motor).value_at(0.0),
                               [math.pi / 2 + math.radians(10), 0.0,
                                -math.radians(10) * (4 * math.pi) ** 2], atol=1e-12)
    motor.Function = "step5"
    motor.StartTime, motor.EndTime, motor.EndAngle = 0.1, 0.3, "45 deg"
    np.testing.assert_allclose(conversion.driver_motion(motor).value_at(1.0)[0], math.pi / 4)
    motor.Function = "expression"
    motor.Expression = "2*t"
    np.testing.assert_allclose(conversion.driver_motion(motor).value_at(1.5), [3.0, 2.0, 0.0],
                               atol=1e-6)


def test_saved_and_restored(docs, tmp_path):
    doc = docs()
    p, study, drv = _held(doc, angle="25 deg")
    path = str(tmp_path / "held.FCStd")
    doc2 = reopen(doc, path)
    drivers = [o for o in doc2.Objects if is_type(o, "SimPhant::Driver")]
    assert len(drivers) == 1
    d = drivers[0]
    assert d.Label == "Hold" and d.Joint.Label == "Hinge" and d.Function == "constant"
    assert d.Angle.getValueAs("deg") == pytest.approx(25.0)
    study2 = next(o for o in doc2.Objects if is_type(o, "SimPhant::Study"))
    assert study2.AnalysisMode == "Kinematic"
    conv = conversion.convert(study2)
    assert [x.name for x in conv.model.drivers] == ["Hold"]
    np.testing.assert_allclose(conv.model.drivers[0].value_at(0.0)[0], math.radians(25.0))


def test_bad_input_names_the_driver_and_the_joint(doc):
    p = pendulum(doc)
    study = p["study"]
    n = len(study.Group)
    with pytest.raises(ModelError, match=r"Driver 'Push'.*'Hinge'.*revolute.*translation"):
        factory.make_driver(study, p["joint"], "translation", "constant", name="Push")
    with pytest.raises(ModelError, match="unknown function"):
        factory.make_driver(study, p["joint"], function="sawtooth", name="Saw")
    with pytest.raises(ModelError, match="unknown property"):
        factory.make_driver(study, p["joint"], Angel="3 deg", name="Typo")
    with pytest.raises(ModelError, match=r"Driver 'Bad'.*'t \+\* 2'"):
        factory.make_driver(study, p["joint"], function="expression", Expression="t +* 2",
                            name="Bad")
    with pytest.raises(ModelError, match="not a joint"):
        factory.make_driver(study, p["link"], name="NoJoint")
    assert len(study.Group) == n                      # nothing left behind
    # a document edited afterwards: the joint changed kind -> the run names both
    drv = factory.make_driver(study, p["joint"], function="constant", name="Hold")
    p["joint"].JointType = "spherical"
    with pytest.raises(ModelError, match=r"Driver 'Hold'.*'Hinge'.*spherical"):
        conversion.convert(study)
    assert drv.Joint == p["joint"]


def test_kinematic_mode_on_an_undriven_study_states_the_dof(doc):
    p = pendulum(doc)
    p["study"].AnalysisMode = "Kinematic"
    with pytest.raises(ModelError, match=r"1 degree\(s\) of freedom remain"):
        runner.run_study(p["study"])


def test_cli_writes_the_driver_outputs(tmp_path):
    import io
    out = tmp_path / "out"
    model = os.path.join(ROOT, "examples", "driven_slider_crank.FCStd")
    o, e = io.StringIO(), io.StringIO()
    code = cli.main(["run", model, "--out", str(out), "--no-animation"], stdout=o, stderr=e)
    assert code == 0, e.getvalue()
    names = os.listdir(out)
    assert "drivers.csv" in names and "drivers.png" in names
    import csv
    with open(out / "drivers.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["time [s]", "Motor value [rad]", "Motor rate [rad/s]",
                       "Motor torque [N m]", "Motor power [W]", "Motor work [J]"]
    data = np.array([[float(x) for x in r] for r in rows[1:]])
    np.testing.assert_allclose(data[:, 2], 120 * 2 * math.pi / 60)
    np.testing.assert_allclose(data[:, 4], data[:, 3] * data[:, 2])
    summary = (out / "summary.txt").read_text()
    assert "driver     Motor (rotation): max |torque|" in summary
    line = [ln for ln in summary.splitlines() if ln.startswith("driver     Motor")][0]
    assert line.endswith(", work = %s" % fmt(data[-1, 5], "J")), line
    assert "kinematic" in summary
    # the energy line reports the drift of the balance, driver work included
    assert "(E = kinetic + potential - driver work)" in summary
    assert "not conserved" not in summary
    import json
    info = json.loads((out / "run.json").read_text())
    assert 0 < info["energy_drift_relative"] < 2e-3


def test_drivers_csv_and_plot_of_a_point_driver(tmp_path):
    """A point driver's three rows get x, y, z columns; the plot is written."""
    import csv
    from SimPhantWorkbench import output
    from SimPhantWorkbench.solver import Model
    m = Model(gravity=(0.0, 0.0, -G))
    b = m.add_body("puck", mass=1.0, inertia=(0.01, 0.01, 0.01))
    m.add_point_driver(b, ("0.1*sin(t)", 0.0, 0.0), name="path")
    r = m.simulate(t_end=0.2, dt=1e-3, output_dt=0.05)
    names = output.write_all(r, str(tmp_path))
    assert "drivers.csv" in names and "drivers.png" in names
    with open(tmp_path / "drivers.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["time [s]"] + ["path %s_%s [%s]" % (w, c, u) for w, u in
                                      (("value", "m"), ("rate", "m/s"), ("force", "N"))
                                      for c in "xyz"] + ["path power [W]", "path work [J]"]
    data = np.array([[float(x) for x in row] for row in rows[1:]])
    np.testing.assert_allclose(data[:, 9], G, rtol=1e-6)          # holds it against gravity
    np.testing.assert_allclose(data[:, -2], r.driver_power("path"))
    # its work is the puck's kinetic energy gained: v = 0.1 cos t, m = 1 kg
    np.testing.assert_allclose(data[:, -1], 0.5 * 0.01 * (np.cos(r.t) ** 2 - 1.0), atol=1e-9)


def test_parameter_study_of_the_motor_speed(docs):
    """A sweep over a Driver property of a kinematic study: the runs are kinematic
    analyses, and the motor-torque metric grows with the speed squared (no gravity
    torque: inertial torque only)."""
    from SimPhantWorkbench import sweep
    doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "driven_slider_crank.FCStd"))
    try:
        study = next(o for o in doc.Objects if is_type(o, "SimPhant::Study"))
        study.GravityAcceleration = 0.0
        out = sweep.execute(study, {"Motor.Speed": [60.0, 120.0]},
                            {"torque": "absmax(driver_effort(Motor))",
                             "power": "mean(driver_power(Motor))"},
                            settings={"t_end": 0.5}, executor="in-process")
        rows = out.rows
        assert [r["status"] for r in rows] == ["ok", "ok"], rows
        t60, t120 = rows[0]["torque"], rows[1]["torque"]
        assert t60 > 0 and t120 / t60 == pytest.approx(4.0, rel=1e-6)
        # 0.5 s at 120 rpm is one revolution: the kinetic energy comes back, the mean
        # power is ~0 (trapezoid-free sample mean: a small fraction of the peak)
        assert abs(rows[1]["power"]) < 0.02 * t120 * 4 * math.pi
    finally:
        FreeCAD.closeDocument(doc.Name)
