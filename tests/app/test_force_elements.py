"""Force-element document objects: factory, conversion (units), save/restore, runs, errors."""
import math

import numpy as np
import pytest

from SimPhantWorkbench import conversion, factory, runner
from SimPhantWorkbench.document.base import study_members
from SimPhantWorkbench.solver import ModelError

from helpers_doc import docs, element_name, pendulum, reopen  # noqa: F401 (fixture)


def _elements(study):
    return study_members(study, "SimPhant::ForceElement")


def test_joint_spring_units_and_run(doc):
    p = pendulum(doc)
    js = factory.make_joint_spring(p["study"], p["joint"], stiffness="2 N*mm/deg",
                                   damping=0.01, rest=5.0, name="Torsion")
    act = factory.make_joint_actuator(p["study"], p["joint"], "0.001*sin(3*t)", name="Motor")
    conv = conversion.convert(p["study"])
    e = conv.force_map[js.Name]
    k, _ = e.params["stiffness"]
    assert k == pytest.approx(2e-3 * 180 / math.pi)
    assert e.params["damping"][0] == pytest.approx(0.01e-3 * 180 / math.pi)
    assert e.params["rest"] == pytest.approx(math.radians(5.0))
    assert conv.force_map[act.Name].is_timed
    r = runner.run_study(p["study"], t_end=0.2)
    th = r.spring_length("Torsion")
    np.testing.assert_allclose(r.spring_force("Torsion"),
                               -k * (th - math.radians(5)) - e.params["damping"][0]
                               * r.spring_rate("Torsion"), atol=1e-12)
    np.testing.assert_allclose(r.spring_force("Motor"), 0.001 * np.sin(3 * r.t), atol=1e-12)


def test_spring_between_picked_points_saved_and_restored(docs, tmp_path):
    doc = docs()
    p = pendulum(doc)
    pin, rod = p["pin"], p["rod"]
    top = element_name(pin, "Face", (2.0, 10.0, 0.0))
    bottom = element_name(rod, "Vertex", (2.0, 0.0, -200.0))
    s = factory.make_spring(p["study"], (pin, top), (rod, bottom), stiffness=0.5,
                            damping="0.001 N*s/mm", name="Spring")
    conv = conversion.convert(p["study"])
    e = conv.force_map[s.Name]
    X1, X2 = e.points
    assert np.linalg.norm(X1 - [0.002, 0.01, 0.0]) < 1e-9
    assert e.params["free_length"] == pytest.approx(np.linalg.norm(X2 - X1))
    assert e.params["stiffness"][0] == pytest.approx(500.0)
    assert e.params["damping"][0] == pytest.approx(1.0)
    name, study_name, stiffness = s.Name, p["study"].Name, s.Stiffness
    doc2 = reopen(doc, tmp_path / "spring.FCStd")
    s2 = doc2.getObject(name)
    assert s2.Kind == "spring_damper" and s2.Stiffness == stiffness
    conv2 = conversion.convert(doc2.getObject(study_name))
    e2 = conv2.force_map[name]
    assert e2.params["free_length"] == e.params["free_length"]
    assert e2.params["stiffness"] == e.params["stiffness"]


def test_bad_force_elements_name_the_object_and_leave_nothing(doc):
    p = pendulum(doc)
    study, pin, rod = p["study"], p["pin"], p["rod"]
    v = element_name(rod, "Vertex", (2.0, 0.0, 0.0))
    edge = element_name(pin, "Edge", (2.0, 0.0, 0.0), curve="Circle")
    with pytest.raises(ModelError, match="'Slide'.*joint 'Hinge' \\(revolute\\).*translation"):
        factory.make_joint_spring(study, p["joint"], 1.0, dof="translation", name="Slide")
    with pytest.raises(ModelError, match="'K'.*coincide"):
        factory.make_spring(study, (pin, edge), (rod, v), 1.0, free_length=5.0, name="K")
    with pytest.raises(ModelError, match="'Neg'.*stiffness must be finite and non-negative"):
        factory.make_joint_spring(study, p["joint"], -1.0, name="Neg")
    with pytest.raises(ModelError, match="'Tab'.*strictly increasing"):
        factory.make_joint_spring(study, p["joint"], [(0, 0), (10, 1), (5, 2)], name="Tab")
    with pytest.raises(ModelError, match="'Units'.*wrong unit"):
        factory.make_joint_spring(study, p["joint"], "3 N/mm", name="Units")
    assert _elements(study) == []


def test_forces_csv_has_each_element(doc, tmp_path):
    import csv

    from SimPhantWorkbench import output
    p = pendulum(doc)
    factory.make_joint_spring(p["study"], p["joint"], stiffness=1.0, name="Torsion")
    r = runner.run_study(p["study"], t_end=0.05)
    names = output.write_all(r, str(tmp_path))
    assert "forces.csv" in names
    with open(tmp_path / "forces.csv") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["time [s]", "Torsion angle [rad]", "Torsion rate [rad/s]",
                       "Torsion moment [N m]", "Torsion power [W]"]
    data = np.array(rows[1:], dtype=float)
    np.testing.assert_array_equal(data[:, 3], r.spring_force("Torsion"))
    np.testing.assert_array_equal(data[:, 4], r.spring_power("Torsion"))


def test_a_sweep_varies_a_stiffness_given_as_quantity_text(doc):
    from SimPhantWorkbench import sweep
    p = pendulum(doc)
    js = factory.make_joint_spring(p["study"], p["joint"], stiffness="20 N*mm/deg",
                                   name="Torsion")
    out = sweep.execute(p["study"], {"Torsion.Stiffness": [20.0, 80.0]},
                        {"period": "period(angular_velocity(Rod).y)"}, executor="in-process",
                        settings={"t_end": 2.0})
    assert [r["status"] for r in out.rows] == ["ok", "ok"], [r["message"] for r in out.rows]
    p20, p80 = (r["period"] for r in out.rows)
    assert p80 < p20                                  # stiffer hinge: faster
    assert js.Stiffness == "20 N*mm/deg"              # restored


@pytest.mark.parametrize("prop, value, message", [
    ("Stiffness", "abc", "Stiffness: 'abc' is not a quantity"),
    ("Stiffness", "1e400 N*mm/deg", "stiffness must be finite"),
    ("Damping", "-1 N*mm*s/deg", "damping must be finite and non-negative"),
    ("StiffnessTable", "0, 0; 1", "row '1' is not 'x, force'"),
    ("ValueFunction", "__import__('os')", "Force element 'Torsion'"),
    ("FreeLength", "3 N", "wrong unit"),
])
def test_hostile_values_are_refused_naming_the_element(doc, prop, value, message):
    p = pendulum(doc)
    kind = "joint_actuator" if prop == "ValueFunction" else "joint_spring"
    el = factory.make_force_element(p["study"], kind, joint=p["joint"], name="Torsion")
    setattr(el, prop, value)
    if prop == "FreeLength":
        el.FreeLengthFromStart = False
    with pytest.raises(ModelError, match="Force element 'Torsion'") as err:
        conversion.convert(p["study"])
    assert message in str(err.value)


def test_the_stored_result_keeps_the_force_elements(doc):
    p = pendulum(doc)
    factory.make_joint_spring(p["study"], p["joint"], stiffness=1.0, damping=0.01,
                              name="Torsion")
    r = runner.run_study(p["study"], t_end=0.1)
    stored = runner.get_result(p["study"])
    assert stored.force_names == ["Torsion"]
    np.testing.assert_array_equal(stored.spring_force("Torsion"), r.spring_force("Torsion"))
    np.testing.assert_array_equal(stored.energy()["balance"], r.energy()["balance"])


def test_forces_plot_shows_each_elements_force_coordinate_and_power(doc, tmp_path):
    """``forces.png`` (written by ``write_all`` with force elements): per element its
    force / moment, its coordinate and its power, with the units of its kind."""
    from SimPhantWorkbench import output
    p = pendulum(doc)
    factory.make_joint_spring(p["study"], p["joint"], stiffness=1.0, damping=0.01, name="Torsion")
    r = runner.run_study(p["study"], t_end=0.05)
    names = output.write_all(r, str(tmp_path))
    assert "forces.png" in names and (tmp_path / "forces.png").stat().st_size > 1000
    fig = output.forces_figure(r)
    force_ax, coord_ax, power_ax = fig.axes[:3]
    assert force_ax.get_ylabel() == "moment [N m]" and coord_ax.get_ylabel() == "angle [rad]"
    np.testing.assert_array_equal(force_ax.lines[0].get_ydata(), r.spring_force("Torsion"))
    np.testing.assert_array_equal(coord_ax.lines[0].get_ydata(), r.spring_length("Torsion"))
    np.testing.assert_array_equal(power_ax.lines[0].get_ydata(), r.spring_power("Torsion"))
    assert np.abs(r.spring_force("Torsion")).max() > 0


def test_cli_writes_the_forces_plot(tmp_path):
    """``simphant run`` of a model with springs and dampers writes forces.csv and
    forces.png."""
    import io
    import os

    from SimPhantWorkbench import cli
    model = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "examples", "quarter_car.FCStd")
    out = tmp_path / "out"
    o, e = io.StringIO(), io.StringIO()
    code = cli.main(["run", model, "--out", str(out), "--no-animation", "--t-end", "0.2"],
                    stdout=o, stderr=e)
    assert code == 0, e.getvalue()
    assert {"forces.csv", "forces.png"} <= set(os.listdir(out))
    from PIL import Image
    with Image.open(out / "forces.png") as im:
        im.load()
        assert im.format == "PNG" and len(im.getcolors(1 << 20)) > 50   # something drawn


def test_end_stop_document_units_run_and_events_kept_on_reopen(docs, tmp_path):
    """An end stop on the pendulum's hinge at +-0.5 deg (it swings 1.15 deg): limits in deg,
    Stiffness the moment at 1 deg of penetration per deg (2000 N mm/deg, e = 1.5: 2 N m at
    1 deg), damping and penetration converted; the run meets a limit; the saved document
    keeps the element and its result the contacts."""
    doc = docs()
    p = pendulum(doc)
    st = factory.make_force_element(p["study"], "joint_stop", joint=p["joint"], lower=-0.5,
                                    upper="0.5 deg", stiffness="2000 N*mm/deg", exponent=1.5,
                                    damping="1 N*mm*s/deg", penetration=0.01, name="Stop")
    e = conversion.convert(p["study"]).force_map[st.Name]
    assert e.params["lower"] == pytest.approx(math.radians(-0.5))
    assert e.params["upper"] == pytest.approx(math.radians(0.5))
    assert e.params["stiffness"] * math.radians(1.0) ** 1.5 == pytest.approx(2.0)
    assert e.params["damping"] == pytest.approx(1e-3 * 180 / math.pi)
    assert e.params["penetration"] == pytest.approx(math.radians(0.01))
    r = runner.run_study(p["study"], t_end=1.0)
    events = r.stop_events()
    assert events and {ev["element"] for ev in events} == {"Stop"}
    assert np.abs(r.spring_length("Stop")).max() < math.radians(0.6)
    name, study_name = st.Name, p["study"].Name
    doc2 = reopen(doc, tmp_path / "stop.FCStd")
    st2 = doc2.getObject(name)
    assert (st2.Kind, st2.EnableLower, st2.EnableUpper, st2.Upper) == ("joint_stop", True,
                                                                        True, "0.5 deg")
    assert runner.get_result(doc2.getObject(study_name)).stop_events() == events


@pytest.mark.parametrize("prop, value, message", [
    ("EnableUpper", False, "lower or an upper limit"),
    ("Exponent", 0.5, "exponent must be >= 1"),
    ("Upper", "3 N", "wrong unit"),
    ("Stiffness", "0 N*mm/deg", "stiffness must be > 0"),
])
def test_bad_end_stops_are_refused_naming_the_element(doc, prop, value, message):
    p = pendulum(doc)
    el = factory.make_force_element(p["study"], "joint_stop", joint=p["joint"], upper=10,
                                    stiffness=100, name="Stop")
    setattr(el, prop, value)
    with pytest.raises(ModelError, match="Force element 'Stop'") as err:
        conversion.convert(p["study"])
    assert message in str(err.value)


def test_a_loaded_pendulum_keeps_its_energy_balance_through_save_and_reopen(docs, tmp_path):
    """A force (a timed one, in body axes, at a picked vertex) and a torque on the bar: the
    balance subtracts their work, in the run and in the result of the reopened document."""
    doc = docs()
    p = pendulum(doc)
    rod = p["rod"]
    tip = element_name(rod, "Vertex", (2.0, 0.0, -200.0))
    factory.make_force(p["study"], rod, "0.01, 0, 0.005*sin(5*t)", ref=(rod, tip), frame="body",
                       name="Push")
    factory.make_torque(p["study"], rod, (0.0, 2e-4, 0.0), name="Twist")
    r = runner.run_study(p["study"], t_end=1.0)
    e = r.energy()
    assert r.load_names == ["Push", "Twist"] and np.ptp(e["load_work"]) > 1e-3
    assert np.ptp(e["balance"]) < 1e-6 * np.ptp(e["load_work"])
    name = p["study"].Name
    doc2 = reopen(doc, tmp_path / "loaded.FCStd")
    stored = runner.get_result(doc2.getObject(name))
    np.testing.assert_array_equal(stored.energy()["balance"], e["balance"])


def test_impulsive_end_stop_through_the_document(docs, tmp_path):
    """The pendulum (it swings 1.15 deg) on an impulsive stop at +-0.5 deg: the law and the
    restitution reach the solver, every impact leaves with e = 0.6 of its speed, the angle
    does not pass the stop until it rests on it, and the saved document keeps the law and the result the
    rebound speeds."""
    doc = docs()
    p = pendulum(doc)
    st = factory.make_force_element(p["study"], "joint_stop", joint=p["joint"], lower=-0.5,
                                    upper=0.5, stiffness="2000 N*mm/deg", law="impulsive",
                                    restitution=0.6, rest_speed="0.01 deg/s", name="Stop")
    e = conversion.convert(p["study"]).force_map[st.Name]
    assert (e.params["law"], e.params["restitution"]) == ("impulsive", 0.6)
    assert e.params["rest_speed"] == pytest.approx(math.radians(0.01))
    r = runner.run_study(p["study"], t_end=1.0)
    events = r.stop_events()
    assert len(events) >= 2
    for ev in events:
        assert ev["rebound"] == pytest.approx(0.6 * ev["speed"], rel=1e-9)
    flying = r.t < events[-1]["time"]       # later it rests, held by the contact law
    assert np.abs(r.spring_length("Stop")[flying]).max() < math.radians(0.5) + 1e-9
    name, study_name = st.Name, p["study"].Name
    doc2 = reopen(doc, tmp_path / "impulsive.FCStd")
    st2 = doc2.getObject(name)
    assert (st2.Law, st2.Restitution) == ("impulsive", 0.6)
    assert runner.get_result(doc2.getObject(study_name)).stop_events() == events


def test_end_stops_of_earlier_documents_stay_compliant(doc):
    """A stop saved before the law existed (its object without Law, Restitution,
    RestSpeed) gains them on restore, compliant."""
    p = pendulum(doc)
    st = factory.make_force_element(p["study"], "joint_stop", joint=p["joint"], upper=0.5,
                                    stiffness=100, name="Stop")
    for prop in ("Law", "Restitution", "RestSpeed"):
        st.removeProperty(prop)
    st.Proxy.onDocumentRestored(st)
    assert st.Law == "compliant"
    e = conversion.convert(p["study"]).force_map[st.Name]
    assert e.params["law"] == "compliant" and not e.is_impulsive


def test_a_bad_law_is_refused_naming_the_stop(doc):
    p = pendulum(doc)
    with pytest.raises(ModelError, match="End stop 'Stop'.*law must be one of"):
        factory.make_force_element(p["study"], "joint_stop", joint=p["joint"], upper=0.5,
                                   law="bouncy", name="Stop")
    el = factory.make_force_element(p["study"], "joint_stop", joint=p["joint"], upper=0.5,
                                    stiffness=100, law="impulsive", name="Stop2")
    el.Restitution = 1.5
    with pytest.raises(ModelError, match="Force element 'Stop2'.*restitution must be in"):
        conversion.convert(p["study"])
