"""Time fields of the panels typed as a user types them: "0.1 ms", "100 us", "100 µs" and
"2 s" give those times in seconds (FreeCAD 0.20's quantity box knew no ms or us: it kept
the number and dropped the unit, 0.1 ms became 0.1 s), and a time is shown in the unit
that fits ("1 ms", never "0.00 s"). The properties stay plain seconds."""
import os
import textwrap

import pytest

from freecad_gui import ROOT, run_gui_script

PENDULUM = os.path.join(ROOT, "examples", "pendulum.FCStd")
DRIVEN = os.path.join(ROOT, "examples", "driven_slider_crank.FCStd")
TYPED = ["0.1 ms", "100 us", "100 \u00b5s", "2 s", "0,5ms", "3"]

SCRIPT = textwrap.dedent('''
    import os, sys, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtCore, QtGui
    sys.path.insert(0, os.path.join(ROOT, "tests", "gui"))
    from gui_events import pump
    res = {}

    def type_into(box, text, enter=False):
        box.setFocus()
        box.lineEdit().selectAll()
        # key presses as a keyboard sends them, to the focused spin box
        for ch in text:
            for kind in (QtCore.QEvent.KeyPress, QtCore.QEvent.KeyRelease):
                QtGui.QApplication.sendEvent(box, QtGui.QKeyEvent(
                    kind, QtCore.Qt.Key_unknown, QtCore.Qt.NoModifier, ch))
        pump(0.05)
        if enter:       # Return in a task panel is its OK button: the panel closes
            QtGui.QApplication.sendEvent(box, QtGui.QKeyEvent(
                QtCore.QEvent.KeyPress, QtCore.Qt.Key_Return, QtCore.Qt.NoModifier))
            pump(0.1, deferred_deletes=True)
            return None
        box.focusNextChild()            # Tab to the next field: the field shows what it took
        pump(0.05)
        return box.value(), box.text()

    def open_panel(obj):
        pump(0.1, deferred_deletes=True)
        obj.ViewObject.Proxy.doubleClicked(obj.ViewObject)        # as in the tree
        pump(0.2)
        return PropertyPanel.current

    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench.document.base import studies, is_type
        from SimPhantWorkbench.taskpanels.widgets import PropertyPanel
        from SimPhantWorkbench.gui import common
        common.message_hook = lambda kind, title, text: res.setdefault("messages", []).append(
            text)
        doc = FreeCAD.openDocument(PENDULUM)
        pump(0.3, deferred_deletes=True)
        study = studies(doc)[0]
        study.TimeStep = 0.001
        study.EndTime = 5.0
        study.TimeConstant = 2.5e-5
        panel = open_panel(study)
        res["panel"] = type(panel).__name__
        res["shown"] = [panel.step.text(), panel.tc.text(), panel.end.text()]
        res["width"] = [panel.form.sizeHint().width(), panel.step.sizeHint().width()]
        res["typed"] = {}
        for text in TYPED:
            value, shown = type_into(panel.step, text)
            panel.accept()
            pump(0.1)
            res["typed"][text] = [value, shown, study.TimeStep,
                                  type(study.getPropertyByName("TimeStep")).__name__]
            panel = open_panel(study)
        # Return takes what is typed, as the OK button
        res["entered"] = [type_into(panel.step, "40 us", enter=True),
                          FreeCADGui.Control.activeDialog(), study.TimeStep]
        panel = open_panel(study)
        res["reopened"] = panel.step.text()
        type_into(panel.step, "0.25 ms")
        if SHOTS:
            QtGui.QGuiApplication.primaryScreen().grabWindow(0).save(
                os.path.join(SHOTS, "time_fields_study_panel.png"))
        res["arrow"] = [panel.step.value()]
        panel.step.stepBy(1)
        res["arrow"].append(panel.step.value())
        res["bad"] = type_into(panel.step, "5 kg")
        panel.reject()
        pump(0.1)
        res["cancelled"] = study.TimeStep
        # the driver panel's step times
        doc2 = FreeCAD.openDocument(DRIVEN)
        pump(0.3, deferred_deletes=True)
        driver = [o for o in doc2.Objects if is_type(o, "SimPhant::Driver")][0]
        panel = open_panel(driver)
        panel.function.setCurrentIndex(panel.function.findData("step"))
        res["driver"] = [type_into(panel.fields["StartTime"], "250 ms"),
                         type_into(panel.fields["EndTime"], "0.75"),
                         panel.values()["StartTime"], panel.values()["EndTime"]]
        panel.reject()
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def typed(tmp_path_factory):
    script = "PENDULUM = %r\nDRIVEN = %r\nTYPED = %r\n" % (PENDULUM, DRIVEN, TYPED) + SCRIPT
    res, _proc = run_gui_script(tmp_path_factory.mktemp("time_fields"), "time_fields", script,
                                 timeout=300)
    assert "error" not in res, res["error"]
    return res


def test_a_small_step_is_shown_in_the_unit_that_fits(typed):
    assert typed["shown"][:2] == ["1 ms", "25 \u00b5s"]
    assert typed["shown"][2].endswith(" s")


@pytest.mark.parametrize("text, seconds, shown", [
    ("0.1 ms", 1e-4, "100 \u00b5s"), ("100 us", 1e-4, "100 \u00b5s"),
    ("100 \u00b5s", 1e-4, "100 \u00b5s"), ("2 s", 2.0, "2 s"), ("0,5ms", 5e-4, "500 \u00b5s"),
    ("3", 3.0, "3 s")])
def test_typed_times_reach_the_study_in_seconds(typed, text, seconds, shown):
    value, text_shown, stored, prop_type = typed["typed"][text]
    assert value == pytest.approx(seconds, rel=1e-12)
    assert stored == pytest.approx(seconds, rel=1e-12)
    assert text_shown == shown
    assert prop_type == "float"            # a plain float property in seconds, as before


def test_return_in_a_time_field_takes_the_time(typed):
    assert typed["entered"][1:] == [False, pytest.approx(4e-5, rel=1e-12)]
    assert typed["reopened"] == "40 \u00b5s"


def test_the_arrows_step_by_one_of_the_unit_shown(typed):
    assert typed["arrow"] == pytest.approx([2.5e-4, 2.51e-4], rel=1e-9)


def test_a_time_with_another_unit_is_not_taken(typed):
    value, shown = typed["bad"]
    assert value == pytest.approx(2.51e-4, rel=1e-9)
    assert typed["cancelled"] == pytest.approx(4e-5, rel=1e-12)      # Cancel: unchanged


def test_the_driver_panel_takes_ms(typed):
    (start, start_text), (end, end_text), start_v, end_v = typed["driver"]
    assert (start, start_text, start_v) == (pytest.approx(0.25), "250 ms", pytest.approx(0.25))
    assert (end, end_text, end_v) == (pytest.approx(0.75), "750 ms", pytest.approx(0.75))
