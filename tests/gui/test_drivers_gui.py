"""Driver commands in the real FreeCAD GUI (under Xvfb): one command per registry driver
kind, in the model toolbar, active only with a joint selected that has its degree of
freedom; running it adds a Driver (tree icon of its kind) that the study solves with;
the joint's tree context menu lists the driver commands; the driver's task panel opens on
creation and on double-click, checks its values as they are typed (through
``document.elements.driver_data``) and writes them on OK only."""
import os
import textwrap

import pytest

from freecad_gui import run_gui_script

pytestmark = pytest.mark.slow

SCRIPT = textwrap.dedent('''
    import json, os, traceback
    import FreeCAD, FreeCADGui
    res = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import commands, runner
        from SimPhantWorkbench.commands import cmd_drivers
        from SimPhantWorkbench.document.base import is_type
        doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "slider_crank.FCStd"))
        FreeCADGui.updateGui()
        study = [o for o in doc.Objects if is_type(o, "SimPhant::Study")][0]
        joints = {o.Label: o for o in study.Group if is_type(o, "SimPhant::Joint")}
        names = [c.name for c in cmd_drivers.commands()]
        res["names"] = names
        res["toolbar"] = list(commands.TOOLBARS[0][1])
        res["registered"] = {n: n in FreeCADGui.listCommands() for n in names}
        res["icons"] = {n: FreeCADGui.Command.get(n).getInfo()["pixmap"]
                        if hasattr(FreeCADGui.Command, "get") else "" for n in names}
        FreeCADGui.Selection.clearSelection()
        res["active_nothing"] = {n: FreeCADGui.isCommandActive(n) for n in names}
        FreeCADGui.Selection.addSelection(joints["CrankPivot"])
        FreeCADGui.updateGui()
        res["active_revolute"] = {n: FreeCADGui.isCommandActive(n) for n in names}
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(joints["SliderGuide"])
        FreeCADGui.updateGui()
        res["active_prismatic"] = {n: FreeCADGui.isCommandActive(n) for n in names}
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(joints["CrankPivot"])
        FreeCADGui.runCommand("SimPhant_Driver_rotation")
        FreeCADGui.updateGui()
        drivers = [o for o in study.Group if is_type(o, "SimPhant::Driver")]
        res["drivers"] = [(d.Label, d.Joint.Label, d.DriverType, d.Function) for d in drivers]
        d = drivers[0]
        vp = d.ViewObject.Proxy
        res["vp"] = type(vp).__name__
        res["tree_icon"] = vp.icon_name()
        # its task panel opened on creation: checked as you type, written on OK only
        from SimPhantWorkbench.taskpanels.widgets import PropertyPanel
        from SimPhantWorkbench.gui import common
        common.message_hook = lambda kind, title, text: res.setdefault("messages", []).append(
            text)
        panel = PropertyPanel.current
        res["panel_open"] = [bool(FreeCADGui.Control.activeDialog()), type(panel).__name__]
        panel.kind.setCurrentIndex(panel.kind.findData("translation"))
        res["panel_wrong_kind"] = panel.status.text()
        panel.kind.setCurrentIndex(panel.kind.findData("rotation"))
        panel.function.setCurrentIndex(panel.function.findData("step"))
        panel.fields["StartTime"].setValue(0.5)
        panel.fields["EndTime"].setValue(0.2)
        res["panel_bad_step"] = [panel.status.text(), panel.accept(), d.Function]
        res["enabled_step"] = sorted(k for k, w in panel.fields.items() if w.isEnabled())
        panel.function.setCurrentIndex(panel.function.findData("ramp"))
        panel.fields["Speed"].setValue(120.0)
        res["enabled_ramp"] = sorted(k for k, w in panel.fields.items() if w.isEnabled())
        res["panel_good"] = [panel.status.text(), panel.accept()]
        FreeCADGui.updateGui()
        res["written"] = [d.Function, d.Speed, d.StartTime,
                          not FreeCADGui.Control.activeDialog()]
        # double-click opens it again; Cancel changes nothing
        vp.doubleClicked(d.ViewObject)
        FreeCADGui.updateGui()
        panel = PropertyPanel.current
        res["reopened"] = [bool(FreeCADGui.Control.activeDialog()), panel.fields["Speed"].value()]
        panel.fields["Speed"].setValue(30.0)
        panel.reject()
        FreeCADGui.updateGui()
        res["cancelled"] = [d.Speed, not FreeCADGui.Control.activeDialog()]
        study.AnalysisMode = "Kinematic"
        study.EndTime = 0.5
        r = runner.run_study(study)
        res["efforts"] = [float(x) for x in r.driver_effort(r.driver_names[0])[:3]]
        res["method"] = r.settings["method"]
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


def test_driver_commands_in_the_gui(tmp_path):
    from SimPhantWorkbench.solver.drivers import DRIVER_TYPES, joint_driver_kinds
    res, proc = run_gui_script(tmp_path, "drivers_gui", SCRIPT)
    assert "error" not in res, res["error"]
    names = ["SimPhant_Driver_" + k for k in joint_driver_kinds()]
    assert res["names"] == names
    assert all(n in res["toolbar"] for n in names)
    assert all(res["registered"].values())
    for n, pix in res["icons"].items():
        if pix:
            assert os.path.basename(pix) == DRIVER_TYPES[n.split("_")[-1]].icon
    assert not any(res["active_nothing"].values())
    assert res["active_revolute"] == {"SimPhant_Driver_rotation": True,
                                      "SimPhant_Driver_translation": False}
    assert res["active_prismatic"] == {"SimPhant_Driver_rotation": False,
                                       "SimPhant_Driver_translation": True}
    assert res["drivers"] == [["Driver", "CrankPivot", "rotation", "ramp"]]
    assert res["vp"] == "VPDriver" and res["tree_icon"] == "Driver_Rotation.svg"
    assert res["panel_open"] == [True, "TaskDriver"]
    assert "CrankPivot" in res["panel_wrong_kind"] and "translation" in res["panel_wrong_kind"]
    text, accepted, function = res["panel_bad_step"]
    assert "0.5" in text and "0.2" in text and accepted is False and function == "ramp"
    assert res["enabled_step"] == ["Angle", "EndAngle", "EndTime", "StartTime"]
    assert res["enabled_ramp"] == ["Angle", "Speed"]
    assert res["panel_good"] == ["OK", True]
    assert res["written"] == ["ramp", 120.0, 0.5, True]
    assert res["reopened"] == [True, 120.0]
    assert res["cancelled"] == [120.0, True]
    assert res["method"] == "kinematic"
    assert any(abs(e) > 0 for e in res["efforts"])
