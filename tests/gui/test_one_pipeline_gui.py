"""Every entry point runs a study through the one run pipeline (``SimPhantWorkbench.run``).

The workbench's Solve on the bundled driven slider-crank (a Kinematic study) stores a
kinematic result, and its metrics are bit for bit those of ``runner.run_study``,
``simphant run`` and a one-variant parameter study of the same document.

A document holding an object of every SimPhant type, made and saved without the GUI,
opens in the GUI with each object's view provider and tree icon (the type registry
``objects.OBJECT_TYPES``)."""
import json
import os
import textwrap

import pytest

import FreeCAD

from freecad_gui import ROOT, run_gui_script
from SimPhantWorkbench import cli, factory, runner, sweep
from SimPhantWorkbench.document.base import studies
from SimPhantWorkbench.objects import OBJECT_TYPES
from SimPhantWorkbench.solver import Result
from SimPhantWorkbench.solver.metrics import parse_metric

MODEL = os.path.join(ROOT, "examples", "driven_slider_crank.FCStd")

#: metric name -> (expression, the label of the object it reads)
METRICS = {"motor_torque": ("absmax(driver_effort(Motor))", "Motor"),
           "wrist_pin_force": ("max(reaction_force(WristPin))", "WristPin"),
           "slider_stroke": ("max(position(Slider).x)", "Slider")}

GUI_SCRIPT = textwrap.dedent('''
    import json, os, time, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtCore, QtGui
    res = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import runner
        from SimPhantWorkbench.gui import common, solve_job
        from SimPhantWorkbench.document.base import studies, study_result
        from SimPhantWorkbench.solver.metrics import parse_metric
        seen = []
        common.message_hook = lambda kind, title, text: seen.append([kind, title, text])
        doc = FreeCAD.openDocument(MODEL)
        FreeCADGui.updateGui()
        study = studies(doc)[0]
        res["mode"] = study.AnalysisMode
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(study)
        FreeCADGui.runCommand("SimPhant_Solve")
        job = solve_job.current_job(study)
        res["state"] = job.wait(timeout=300) if job is not None else "not started"
        res["messages"] = seen
        stored = study_result(study)
        res["method"] = stored.Method
        res["frames"] = stored.NumberOfFrames
        result = runner.get_result(study)
        res["metrics"] = {}
        for name, (text, label) in METRICS.items():
            res["metrics"][name] = parse_metric(text, name).resolved(label).evaluate(result)
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


def _metrics(result):
    """The METRICS of a solver ``result`` (its bodies, joints and drivers are named after
    the document objects' labels, as the parameter study resolves them)."""
    return {name: parse_metric(text, name).resolved(label).evaluate(result)
            for name, (text, label) in METRICS.items()}


@pytest.fixture(scope="module")
def gui_solve(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("one_pipeline_gui")
    script = "MODEL = %r\nMETRICS = %r\n" % (MODEL, METRICS) + GUI_SCRIPT
    res, _proc = run_gui_script(tmp, "one_pipeline_gui", script)
    assert "error" not in res, res["error"]
    return res


def test_gui_solve_of_a_kinematic_study_stores_a_kinematic_result(gui_solve):
    assert gui_solve["mode"] == "Kinematic"
    assert gui_solve["state"] == "done", gui_solve["messages"]
    assert gui_solve["method"] == "kinematic"
    assert gui_solve["frames"] == 301


def test_every_entry_point_gives_the_same_metrics_bit_for_bit(gui_solve, tmp_path):
    expected = gui_solve["metrics"]
    assert all(isinstance(v, float) and v == v for v in expected.values()), expected
    doc = FreeCAD.openDocument(MODEL)
    try:
        study = studies(doc)[0]
        # the scripting call
        assert _metrics(runner.run_study(study)) == expected
        # a parameter study of one variant: the motor speed it has
        speed = float(doc.getObjectsByLabel("Motor")[0].Speed)
        out = sweep.execute(study, {"Motor.Speed": [speed]},
                            {name: text for name, (text, _) in METRICS.items()},
                            executor="in-process")
        assert out.rows[0]["status"] == "ok", out.rows[0]["message"]
        assert {name: out.rows[0][name] for name in METRICS} == expected
    finally:
        FreeCAD.closeDocument(doc.Name)
    # the command line
    code = cli.main(["run", MODEL, "--out", str(tmp_path / "out"), "--no-animation"])
    assert code == 0
    run_json = json.loads((tmp_path / "out" / "run.json").read_text())
    assert run_json["method"] == "kinematic"
    assert _metrics(Result.load(str(tmp_path / "out" / "result.npz"))) == expected


# ----------------------------------------------------------------------------- registry

VP_SCRIPT = textwrap.dedent('''
    import os, traceback
    import FreeCAD, FreeCADGui
    res = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from PySide import QtCore, QtGui
        from SimPhantWorkbench.objects import OBJECT_TYPES, proxy_type
        from SimPhantWorkbench.gui.common import icon_path
        doc = FreeCAD.openDocument(MODEL)
        for _ in range(5):
            FreeCADGui.updateGui()
            QtGui.QApplication.processEvents()
        res["objects"] = {}
        for obj in doc.Objects:
            t = proxy_type(obj)
            if not str(t).startswith("SimPhant::"):
                continue
            vp = getattr(obj.ViewObject, "Proxy", None)
            res["objects"][obj.Name] = dict(
                type=t, label=obj.Label, view_provider=type(vp).__name__ if vp is not None else None,
                icon=vp.getIcon() if vp is not None else None,
                icon_exists=os.path.isfile(vp.getIcon()) if vp is not None else False,
                expected_icon=icon_path(vp.icon_name()) if vp is not None else None)
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


def _document_of_every_type(path):
    """The driven slider-crank with a force, a torque, a spring, a result, a parameter
    study, a coupler and a body driver added headless (its study, bodies, joints and driver come with it)."""
    doc = FreeCAD.openDocument(MODEL)
    try:
        study = studies(doc)[0]
        rod = doc.getObjectsByLabel("ConnectingRod")[0]
        crank = doc.getObjectsByLabel("Crank")[0]
        factory.make_force(study, rod, (0, 0, 1), name="Push")
        factory.make_torque(study, crank, (0, 1, 0), name="Twist")
        factory.make_joint_spring(study, doc.getObjectsByLabel("WristPin")[0], 1.0,
                                  name="PinSpring")
        factory.make_parameter_study(study, {"variables": [{"target": "Motor.Speed",
                                                            "values": [60, 120]}],
                                             "metrics": {"t": "absmax(driver_effort(Motor))"}})
        runner.run_study(study, t_end=0.1)
        # (a coupler after the run: the slider-crank has no degree of freedom to spare)
        factory.make_coupler(study, doc.getObjectsByLabel("CrankPivot")[0],
                             doc.getObjectsByLabel("SliderGuide")[0], "rack_pinion",
                             name="Rack")
        factory.make_body_driver(study, "point", rod, (rod.ShapeObject, "Vertex1"), name="Carry")
        assert sorted({o.Proxy.Type for o in doc.Objects if hasattr(o, "Proxy")
                       and str(getattr(o.Proxy, "Type", "")).startswith("SimPhant::")}) \
            == sorted(OBJECT_TYPES)
        doc.saveAs(str(path))
    finally:
        FreeCAD.closeDocument(doc.Name)


#: what each object of the document shows in the tree: view provider class, icon
EXPECTED = {"Study": ("VPStudy", "Study.svg"), "Post": ("VPBody", "FixedBody.svg"),
            "Crank": ("VPBody", "Body.svg"), "WristPin": ("VPJoint", "Joint_Revolute.svg"),
            "SliderGuide": ("VPJoint", "Joint_Prismatic.svg"),
            "Motor": ("VPDriver", "Driver_Rotation.svg"), "Push": ("VPLoad", "Force.svg"),
            "Twist": ("VPLoad", "Torque.svg"), "PinSpring": ("VPForceElement", "JointSpring.svg"),
            "Result": ("VPResult", "Result.svg"),
            "ParameterStudy": ("VPParameterStudy", "ParameterStudy.svg"),
            "Rack": ("VPCoupler", "Coupler_RackPinion.svg")}


def test_objects_saved_headless_get_their_view_provider_and_icon_in_the_gui(tmp_path):
    model = tmp_path / "every_type.FCStd"
    _document_of_every_type(model)
    res, _proc = run_gui_script(tmp_path, "every_type_gui", "MODEL = %r\n" % str(model)
                                + VP_SCRIPT)
    assert "error" not in res, res["error"]
    types = set()
    for name, o in res["objects"].items():
        assert o["view_provider"] is not None and o["icon_exists"], (name, o)
        assert o["icon"] == o["expected_icon"], (name, o)
        types.add(o["type"])
    assert types == set(OBJECT_TYPES)
    labels = {o["label"]: o for o in res["objects"].values()}
    for label, (view_provider, icon) in EXPECTED.items():
        assert (labels[label]["view_provider"], os.path.basename(labels[label]["icon"])) \
            == (view_provider, icon), label
