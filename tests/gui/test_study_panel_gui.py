"""The study panel checks its fields with the check every run makes
(``document.settings.settings_problem``): what it refuses, a run of the same settings
refuses with the same words, and what it accepts runs."""
import os
import textwrap

import pytest

import FreeCAD

from freecad_gui import ROOT, run_gui_script
from SimPhantWorkbench.document.base import studies
from SimPhantWorkbench.document.settings import check_study_settings
from SimPhantWorkbench.solver import ModelError

MODEL = os.path.join(ROOT, "examples", "pendulum.FCStd")

#: name -> (what is typed into the panel: [(field, value)], the same as Study properties)
CASES = {
    "end_zero": ([("end", 0.0)], {"EndTime": 0.0}),
    "rk4_without_step": ([("step", 0.0)], {"TimeStep": 0.0}),
    "gravity_without_direction": ([("gdir", 0.0)], {"GravityDirection": (0.0, 0.0, 0.0)}),
    "adaptive_without_tolerance": ([("method", "RK45"), ("rtol", "0")],
                                   {"Integrator": "RK45", "RelativeTolerance": 0.0}),
}

SCRIPT = textwrap.dedent('''
    import os, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtGui
    res = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench.document.base import studies
        from SimPhantWorkbench.taskpanels.task_study import TaskStudy
        doc = FreeCAD.openDocument(MODEL)
        study = studies(doc)[0]
        study.Integrator = "rk4"
        res["ok"] = TaskStudy(study).validate()
        res["cases"] = {}
        for name, typed in CASES.items():
            panel = TaskStudy(study)
            for field, value in typed:
                widget = getattr(panel, field)
                if field == "method":
                    widget.setCurrentIndex(widget.findData(value))
                elif isinstance(widget, QtGui.QLineEdit):
                    widget.setText(value)
                else:
                    for box in (widget if isinstance(widget, list) else [widget]):
                        if isinstance(box, QtGui.QDoubleSpinBox):
                            box.setValue(value)
                        else:
                            box.setProperty("rawValue", value)
            QtGui.QApplication.processEvents()
            res["cases"][name] = panel.validate()
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def panel(tmp_path_factory):
    script = "MODEL = %r\nCASES = %r\n" % (MODEL, {k: v[0] for k, v in CASES.items()}) + SCRIPT
    res, _proc = run_gui_script(tmp_path_factory.mktemp("study_panel"), "study_panel", script)
    assert "error" not in res, res["error"]
    return res


def test_the_panel_accepts_the_settings_the_study_runs_with(panel):
    assert panel["ok"] == ""


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_panel_refuses_what_a_run_refuses_in_the_same_words(panel, name):
    doc = FreeCAD.openDocument(MODEL)
    try:
        study = studies(doc)[0]
        study.Integrator = "rk4"
        for prop, value in CASES[name][1].items():
            setattr(study, prop, value)
        with pytest.raises(ModelError) as exc:
            check_study_settings(study)
    finally:
        FreeCAD.closeDocument(doc.Name)
    run_message = str(exc.value).split(": ", 1)[1]       # without "Study 'Study': "
    assert panel["cases"][name] == run_message + "."
