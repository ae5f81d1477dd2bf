"""Running studies: a Part-primitive pendulum against the analytic period, result storage
in the document across save/reopen, and bad input that must fail cleanly."""
import numpy as np
import pytest

import FreeCAD
import Part

from helpers_doc import (all_placements, docs, element_name, free_box, pendulum,  # noqa: F401
                         reopen, vec, zero_crossings)
from SimPhantWorkbench import factory, runner
from SimPhantWorkbench.document.base import study_result
from SimPhantWorkbench.solver import ModelError, SimulationCancelled, SimulationError


@pytest.fixture
def swing(docs):
    doc = docs()
    p = pendulum(doc)
    p["doc"] = doc
    return p


def _measured_period(result, name, pivot_x):
    x = result.position(name)[:, 0] - pivot_x
    crossings = zero_crossings(result.t, x)
    assert len(crossings) >= 4
    return 2.0 * np.mean(np.diff(crossings))


def test_pendulum_from_part_primitives_has_the_compound_pendulum_period(swing):
    """Cylinder rod hinged on a fixed pin's circular edge: T = 2 pi sqrt(I_O / (m g d))."""
    r = runner.run_study(swing["study"])
    name = runner.result_key(swing["study"], swing["link"])
    T = _measured_period(r, name, swing["pivot"][0])
    # the finite amplitude (about 1.1 deg) lengthens the period by theta0^2/16 = 2.5e-5
    assert T == pytest.approx(swing["period"], rel=2e-4)
    assert T == pytest.approx(swing["period"] * (1 + swing["amplitude"] ** 2 / 16), rel=2e-5)
    # the hinge point stays on the pin
    top = np.array([0.002, 0.0, 0.1])    # rod's rim vertex relative to the CoG, rod axes [m]
    assert np.abs(r.point_position(name, top) - swing["pivot"]).max() < 1e-7


def test_run_stores_the_result_in_the_study(swing):
    st = swing["study"]
    assert study_result(st) is None
    r = runner.run_study(st)
    res_obj = study_result(st)
    assert res_obj is not None and res_obj.Proxy.Type == "SimPhant::Result"
    assert res_obj.NumberOfFrames == len(r.t) and res_obj.EndTime == pytest.approx(2.0)
    assert res_obj.Method == "rk4" and res_obj.Steps == 2000
    assert list(res_obj.BodyObjects) == [swing["link"].Name]
    assert list(res_obj.ShapeObjects) == [swing["rod"].Name]
    assert list(res_obj.JointObjects) == [swing["joint"].Name]
    stored = runner.get_result(st)
    assert stored.body_names == r.body_names
    np.testing.assert_array_equal(stored.t, r.t)
    np.testing.assert_array_equal(stored.states, r.states)
    # a second run replaces the result, in the same Result object
    runner.run_study(st, t_end=0.5)
    assert study_result(st) == res_obj and runner.get_result(st).t[-1] == pytest.approx(0.5)
    assert len([o for o in st.Group if o.Proxy.Type == "SimPhant::Result"]) == 1


def test_save_close_reopen_keeps_study_and_result_and_rerun_is_identical(swing, tmp_path):
    doc, st = swing["doc"], swing["study"]
    st.EndTime = 1.0
    r = runner.run_study(st)
    arrays = r.to_arrays()
    names = dict(study=st.Name, link=swing["link"].Name, rod=swing["rod"].Name,
                 joint=swing["joint"].Name, ground=swing["ground"].Name)
    doc2 = reopen(doc, tmp_path / "pendulum.FCStd")
    st2 = doc2.getObject(names["study"])
    assert st2.Proxy.Type == "SimPhant::Study" and st2.EndTime == 1.0
    assert [o.Name for o in st2.Group][:3] == [names["ground"], names["link"], names["joint"]]
    stored = runner.get_result(st2)          # no solving: read from the document
    for key, value in arrays.items():
        if key == "meta":
            continue
        np.testing.assert_array_equal(stored.to_arrays()[key], value, err_msg=key)
    assert stored.body_names == r.body_names and stored.settings["method"] == "rk4"
    assert runner.result_key(st2, doc2.getObject(names["rod"])) == r.body_names[0]
    # re-run on the reopened document: the same numbers, to round-off. Not bit-exact:
    # FreeCAD 0.20 writes placements with 16 significant digits and shapes as BREP
    # text, so the reopened geometry differs from the original in the last bits.
    r2 = runner.run_study(st2)
    np.testing.assert_array_equal(r2.t, r.t)
    n = r.body_names[0]
    for accessor in ("position", "rotation_matrix", "velocity", "angular_velocity"):
        np.testing.assert_allclose(getattr(r2, accessor)(n), getattr(r, accessor)(n),
                                   rtol=1e-9, atol=1e-12, err_msg=accessor)
    np.testing.assert_allclose(r2.reaction_force(r2.joint_names[0]),
                               r.reaction_force(r.joint_names[0]), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(r2.energy()["total"], r.energy()["total"], rtol=1e-9,
                               atol=1e-15)


def test_undo_removes_the_stored_result(swing):
    doc = swing["doc"]
    doc.UndoMode = 1
    runner.run_study(swing["study"], t_end=0.2)
    assert study_result(swing["study"]) is not None
    doc.undo()
    assert study_result(swing["study"]) is None


def _state(doc, study):
    """What a failed run must not change: every placement, the study's members and the
    stored result (its arrays)."""
    res = runner.get_result(study)
    return (all_placements(doc), [o.Name for o in study.Group],
            None if res is None else res.states.copy())


def _assert_unchanged(doc, study, before):
    after = _state(doc, study)
    assert after[0] == before[0]
    assert after[1] == before[1]
    if before[2] is None:
        assert after[2] is None
    else:
        np.testing.assert_array_equal(after[2], before[2])


def test_cancelled_run_raises_and_changes_nothing(swing):
    doc, st = swing["doc"], swing["study"]
    runner.run_study(st, t_end=0.3)
    before = _state(doc, st)
    calls = []

    def progress(t, t_end):
        calls.append(t)
        return False

    with pytest.raises(SimulationCancelled, match="Study 'Study'.*cancelled"):
        runner.run_study(st, progress=progress)
    assert calls
    _assert_unchanged(doc, st, before)


def test_failing_solve_raises_and_changes_nothing(swing):
    doc, st = swing["doc"], swing["study"]
    before = _state(doc, st)
    with pytest.raises(SimulationError, match="Study 'Study'"):
        # explicit Euler with a huge step and no stabilisation blows the joint apart
        runner.run_study(st, method="euler", dt=0.05, output_dt=0.05, baumgarte=(0.0, 0.0),
                         t_end=20.0)
    _assert_unchanged(doc, st, before)


def test_bad_setting_names_the_study(swing):
    swing["study"].TimeStep = -1.0
    before = _state(swing["doc"], swing["study"])
    with pytest.raises(ModelError, match="Study 'Study'.*TimeStep"):
        runner.run_study(swing["study"])
    _assert_unchanged(swing["doc"], swing["study"], before)


# ----------------------------------------------------------------------------- bad input

def _two_boxes(doc):
    a = free_box(doc, "Frame", size=(20, 20, 20))
    b = free_box(doc, "Arm", placement=FreeCAD.Placement(vec(20, 0, 0), FreeCAD.Rotation()),
                 size=(100, 20, 20))
    st = factory.make_study(doc)
    st.EndTime = 0.1
    ba = factory.make_body(st, a, fixed=True)
    bb = factory.make_body(st, b, density=1000.0)
    edge = element_name(a, "Edge", (20, 10, 20), curve="Line")     # shared edge along y
    j = factory.make_joint(st, "revolute", (a, edge), (b, element_name(b, "Edge", (20, 10, 20),
                                                                        curve="Line")),
                           name="Hinge")
    return dict(study=st, a=a, b=b, ba=ba, bb=bb, joint=j)


def _edit_to_wire(m, doc):
    arm = doc.addObject("Part::Feature", "ArmWire")
    arm.Shape = Part.Wire(Part.makeCircle(5.0))
    m["bb"].ShapeObject = arm
    return "ArmWire"


def _edit_to_flat(m, doc):
    flat = doc.addObject("Part::Feature", "Flat")
    flat.Shape = Part.Solid(Part.Shell([Part.makePlane(10, 10)]))
    m["bb"].ShapeObject = flat
    return "Flat"


def _edit_stale_edge(m, doc):
    # the joint picked Edge12 of a box-shaped arm; the arm is then remodelled as a
    # cylinder, which has 3 edges
    arm = doc.addObject("Part::Feature", "ArmShape")
    arm.Shape = m["b"].Shape.copy()
    m["bb"].ShapeObject = arm
    m["joint"].Reference2 = (arm, ["Edge12"])
    arm.Shape = Part.makeCylinder(5.0, 100.0)
    return "Hinge.*Edge12 of 'ArmShape' no longer exists"


def _edit_same_body(m, doc):
    m["joint"].Reference2 = (m["a"], ["Vertex1"])
    return "Hinge.*both references are on body"


def _edit_both_fixed(m, doc):
    free = free_box(doc, "Loose", placement=FreeCAD.Placement(vec(0, 300, 0),
                                                              FreeCAD.Rotation()))
    factory.make_body(m["study"], free, density=1000.0)     # something still moves
    m["bb"].Fixed = True
    return "Joint 'Hinge': both bodies .* are fixed; a joint needs a moving body"


def _edit_all_fixed(m, doc):
    m["bb"].Fixed = True
    return "Study 'Study': all bodies are fixed"


def _edit_no_bodies(m, doc):
    st = factory.make_study(doc, "Empty")
    m["study"] = st
    return "Study 'Empty' has no bodies"


def _edit_not_a_body(m, doc):
    other = free_box(doc, "Stranger")
    m["joint"].Reference2 = (other, ["Vertex1"])
    return "Hinge.*'Stranger' is not the shape of a body"


def _edit_empty_reference(m, doc):
    m["joint"].Reference1 = None
    return "Hinge.*Reference1 is empty"


def _edit_deleted_shape(m, doc):
    m["bb"].ShapeObject = None
    return "Body 'Arm_body' has no shape object"


def _edit_axisless_revolute(m, doc):
    m["joint"].Reference1 = (m["a"], ["Vertex1"])
    m["joint"].Reference2 = (m["b"], ["Vertex1"])
    return "Hinge.*needs an axis"


BAD_EDITS = {"no solid (wire)": _edit_to_wire, "zero volume": _edit_to_flat,
             "sub-element gone after a model edit": _edit_stale_edge,
             "both references on one body": _edit_same_body,
             "joint between two fixed bodies": _edit_both_fixed,
             "all bodies fixed": _edit_all_fixed, "no bodies": _edit_no_bodies,
             "reference on a non-body": _edit_not_a_body,
             "empty reference": _edit_empty_reference, "no shape object": _edit_deleted_shape,
             "revolute without axis": _edit_axisless_revolute}


@pytest.mark.parametrize("case", sorted(BAD_EDITS))
def test_bad_input_raises_naming_the_object_and_changes_nothing(docs, case):
    doc = docs()
    m = _two_boxes(doc)
    runner.run_study(m["study"])            # a good run first: its result must survive
    before_result = runner.get_result(m["study"]).states.copy()
    match = BAD_EDITS[case](m, doc)
    before = _state(doc, m["study"])
    with pytest.raises(ModelError, match=match):
        runner.run_study(m["study"])
    _assert_unchanged(doc, m["study"], before)
    if case != "no bodies":
        np.testing.assert_array_equal(runner.get_result(m["study"]).states, before_result)


def test_unknown_density_warns_and_runs_with_the_default(docs, monkeypatch):
    doc = docs()
    m = _two_boxes(doc)
    m["bb"].Density = 0.0
    warnings = []
    monkeypatch.setattr(FreeCAD.Console, "PrintWarning", warnings.append)
    runner.run_study(m["study"])
    assert any("'Arm'" in w and "default density" in w for w in warnings), warnings
    from SimPhantWorkbench.document.massprops import DEFAULT_DENSITY
    r = runner.get_result(m["study"])
    assert r.masses[0] == pytest.approx(DEFAULT_DENSITY * 100e-3 * 20e-3 * 20e-3)


def test_the_default_density_warning_is_given_once_per_body_until_it_changes(docs,
                                                                            monkeypatch):
    from SimPhantWorkbench.run import prepare
    doc = docs()
    m = _two_boxes(doc)
    m["bb"].Density = 0.0
    warnings = []
    monkeypatch.setattr(FreeCAD.Console, "PrintWarning", warnings.append)

    def density_warnings(action):
        del warnings[:]
        action()
        return [w for w in warnings if "default density" in w]
    solve = lambda: runner.run_study(m["study"])        # noqa: E731
    assert len(density_warnings(solve)) == 1
    assert density_warnings(solve) == []                 # a second solve: not again
    assert density_warnings(lambda: prepare(m["study"])) == []     # Check model: neither
    m["bb"].Density = 2000.0                             # a density: no warning ...
    assert density_warnings(solve) == []
    m["bb"].Density = 0.0                                # ... and without it again: once
    assert len(density_warnings(solve)) == 1
    m["b"].Length = 120.0                                # another mass: said again
    again = density_warnings(lambda: (doc.recompute(), solve()))
    assert len(again) == 1 and "(mass 0.3768 kg)" in again[0]      # 7850 * 120 x 20 x 20 mm
    # another document's body of the same name is warned about on its own
    other = docs()
    m2 = _two_boxes(other)
    m2["bb"].Density = 0.0
    assert len(density_warnings(lambda: runner.run_study(m2["study"]))) == 1


def test_unknown_override_is_rejected_before_anything_runs(swing):
    with pytest.raises(ModelError, match="Study 'Study': unknown simulation setting.*t_stop"):
        runner.run_study(swing["study"], t_stop=1.0)
    assert study_result(swing["study"]) is None


def test_reopens_a_study_saved_by_simphant_0_1(docs, tmp_path):
    """``fixtures/study_v0_1.FCStd`` was saved by SimPhant 0.1 on FreeCAD 0.20.2: its
    objects, settings and result must load, replay and run in every later version."""
    import os
    import shutil
    from SimPhantWorkbench import playback
    src = os.path.join(os.path.dirname(__file__), "fixtures", "study_v0_1.FCStd")
    path = tmp_path / "study_v0_1.FCStd"
    shutil.copy(src, path)
    doc = FreeCAD.openDocument(str(path))
    st = doc.getObject("Study")
    kinds = sorted(o.Proxy.Type for o in st.Group)
    assert kinds == ["SimPhant::Body", "SimPhant::Body", "SimPhant::Force", "SimPhant::Joint",
                     "SimPhant::Result", "SimPhant::Torque"]
    for o in [st] + list(st.Group):
        assert set(s.name for s in type(o.Proxy).PROPERTIES) <= set(o.PropertiesList)
    stored = runner.get_result(st)
    assert len(stored.t) == 26 and stored.t[-1] == pytest.approx(0.5)
    rod = doc.getObject("Rod")
    start = rod.Placement.Base
    playback.apply_frame(st, -1)
    assert (rod.Placement.Base - start).Length > 1e-3
    playback.reset(st)
    assert tuple(rod.Placement.Base) == tuple(start)
    r = runner.run_study(st, t_end=0.5, output_dt=0.02)
    np.testing.assert_allclose(r.position(r.body_names[0]), stored.position(r.body_names[0]),
                               rtol=1e-9, atol=1e-12)
