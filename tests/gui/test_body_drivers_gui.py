"""Body driver commands in the real FreeCAD GUI (under Xvfb): one command per body driver
kind in the model toolbar; an angle driver made from two elements selected in the 3D view
(the arm's edge, the pin's circle) through the command, one undo step; its task panel
takes picks from the selection, names the driver when a pick is wrong (an element of the
fixed pin as the driven vector), writes on OK only; its markers show in the 3D view; the
study solves with it (the arm turns at the prescribed rate)."""
import math
import textwrap

import pytest

from freecad_gui import ARM_ON_PIN, run_gui_script

pytestmark = pytest.mark.slow

SCRIPT = ARM_ON_PIN + textwrap.dedent('''
    import json, os, sys, traceback
    import FreeCAD, FreeCADGui
    sys.path.insert(0, os.path.join(ROOT, "tests", "gui"))
    from gui_events import pump
    res = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import commands, runner
        from SimPhantWorkbench.commands import cmd_body_drivers
        from SimPhantWorkbench.document.base import is_type
        from SimPhantWorkbench.gui import common
        from SimPhantWorkbench.taskpanels.widgets import PropertyPanel
        common.message_hook = lambda kind, title, text: res.setdefault("messages", []).append(
            text)
        doc, study, hinge = arm_on_pin("BodyDriverGui")
        doc.UndoMode = 1
        FreeCADGui.updateGui()
        pin, arm = doc.getObject("Pin"), doc.getObject("Arm")
        names = [c.name for c in cmd_body_drivers.commands()]
        res["names"] = names
        res["in_toolbar"] = all(n in commands.TOOLBARS[0][1] for n in names)
        res["registered"] = all(n in FreeCADGui.listCommands() for n in names)
        arm_edge = [i for i, e in enumerate(arm.Shape.Edges, 1)
                    if e.Curve.__class__.__name__ == "Line"
                    and (e.CenterOfMass - FreeCAD.Vector(100, 0, 0)).Length < 1e-9][0]
        pin_edge = [i for i, e in enumerate(pin.Shape.Edges, 1)
                    if e.Curve.__class__.__name__ == "Circle" and abs(e.Curve.Center.y) < 1e-6][0]
        # nothing selected: the command says what to pick
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.runCommand("SimPhant_Driver_angle")
        pump()
        res["refused"] = list(res.get("messages", []))
        steps = len(doc.UndoNames)
        # the real selection: the arm's edge (the driven vector), then the pin's circle (axis)
        FreeCADGui.Selection.addSelection(doc.Name, arm.Name, "Edge%d" % arm_edge)
        FreeCADGui.Selection.addSelection(doc.Name, pin.Name, "Edge%d" % pin_edge)
        pump()
        FreeCADGui.runCommand("SimPhant_Driver_angle")
        pump()
        drivers = [o for o in study.Group if is_type(o, "SimPhant::BodyDriver")]
        d = drivers[0]
        res["made"] = [d.DriverType, d.Body.Label, d.Body1 is None, d.Reference[1],
                       d.Axis[1], d.Reference[0].Name, d.Axis[0].Name]
        panel = PropertyPanel.current
        res["panel"] = [bool(FreeCADGui.Control.activeDialog()), type(panel).__name__,
                        panel.status.text()]
        # a wrong pick through the selection: the fixed pin's circle as the driven vector
        panel.pick_buttons.button(0).setChecked(True)
        FreeCADGui.Selection.addSelection(doc.Name, pin.Name, "Edge%d" % pin_edge)
        pump()
        res["bad_pick"] = [panel.status.text(), panel.accept(), d.Body.Label]
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(doc.Name, arm.Name, "Edge%d" % arm_edge)
        pump()
        panel.functions[""].setCurrentIndex(panel.functions[""].findData("ramp"))
        panel.fields["Rate"].setValue(90.0)
        res["enabled"] = sorted(k for k, w in panel.fields.items() if w.isEnabled())
        res["good"] = [panel.status.text(), panel.accept()]
        pump()
        res["written"] = [d.Function, d.Rate, d.Body.Label, not FreeCADGui.Control.activeDialog()]
        res["undo_steps"] = len(doc.UndoNames) - steps
        vp = d.ViewObject.Proxy
        vp.refresh()
        res["vp"] = [type(vp).__name__, vp.icon_name(), len(vp.markers),
                     [m.visible for m in vp.markers]]
        if SHOTS:
            FreeCADGui.ActiveDocument.ActiveView.viewIsometric()
            FreeCADGui.SendMsgToActiveView("ViewFit")
            pump(0.3)
            FreeCADGui.ActiveDocument.ActiveView.saveImage(
                os.path.join(SHOTS, "body_driver_angle.png"), 800, 600)
        study.AnalysisMode = "Kinematic"
        study.EndTime, study.OutputInterval = 0.5, 0.1
        r = runner.run_study(study)
        res["t"] = [float(x) for x in r.t]
        res["cog"] = [[float(c) for c in p] for p in r.position(r.body_names[0])]
        res["value"] = [float(x) for x in r.driver_value(r.driver_names[0])]
        res["effort"] = [float(x) for x in r.driver_effort(r.driver_names[0])]
        # undo takes the driver (and its edit) back out, redo brings it
        doc.undo()                  # the result stored by the run
        doc.undo()                  # the command and its panel: one step
        res["after_undo"] = [o.Label for o in study.Group if is_type(o, "SimPhant::BodyDriver")]
        doc.redo()
        res["after_redo"] = [(o.Label, o.Function, o.Rate) for o in study.Group
                             if is_type(o, "SimPhant::BodyDriver")]
        # a point driver from a selected vertex of the arm, accepted as it opens (it holds)
        far = [i for i, v in enumerate(arm.Shape.Vertexes, 1)
               if (v.Point - FreeCAD.Vector(200, 0, 0)).Length < 1e-9][0]
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(doc.Name, arm.Name, "Vertex%d" % far)
        pump()
        FreeCADGui.runCommand("SimPhant_Driver_point")
        pump()
        panel = PropertyPanel.current
        res["point"] = [type(panel).__name__, panel.status.text(), panel.accept()]
        res["points"] = [(o.DriverType, o.Reference[1][0] == "Vertex%d" % far)
                         for o in study.Group if is_type(o, "SimPhant::BodyDriver")
                         and o.DriverType == "point"]
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


def test_angle_driver_through_the_command_and_the_selection(tmp_path):
    from SimPhantWorkbench.solver.drivers import body_driver_kinds
    res, proc = run_gui_script(tmp_path, "body_drivers_gui", SCRIPT)
    assert "error" not in res, res["error"]
    assert res["names"] == ["SimPhant_Driver_" + k for k in body_driver_kinds()]
    assert res["in_toolbar"] and res["registered"]
    assert res["refused"] and "Select 2 element(s)" in res["refused"][0]
    kind, body, ground, ref, axis, ref_obj, axis_obj = res["made"]
    assert (kind, body, ground, ref_obj, axis_obj) == ("angle", "Arm_body", True, "Arm", "Pin")
    assert res["panel"] == [True, "TaskBodyDriver", "OK"]
    text, accepted, body_now = res["bad_pick"]
    assert "Driver 'Driver'" in text and "'Pin_body' is fixed" in text
    assert accepted is False and body_now == "Arm_body"
    assert res["enabled"] == ["Rate", "Value"]
    assert res["good"] == ["OK", True]
    assert res["written"] == ["ramp", 90.0, "Arm_body", True]
    assert res["vp"][:3] == ["VPDriver", "Driver_Angle.svg", 2] and all(res["vp"][3])
    # the arm's CoG (100, 5, 5) mm turns about the pin's y axis by 90 deg/s
    for t, (x, y, z), value in zip(res["t"], res["cog"], res["value"]):
        assert y == pytest.approx(0.005, abs=1e-9)
        assert math.hypot(x, z) == pytest.approx(math.hypot(0.1, 0.005), abs=1e-9)
        swept = math.atan2(x * 0.005 - z * 0.1, x * 0.1 + z * 0.005)
        assert abs(swept) == pytest.approx(math.radians(90.0) * t, abs=1e-9)
        assert abs(value) == pytest.approx(math.radians(90.0) * t, abs=1e-12)
    assert max(abs(e) for e in res["effort"]) > 0.1        # holds the arm against gravity
    assert res["undo_steps"] == 1
    assert res["after_undo"] == [] and res["after_redo"] == [["Driver", "ramp", 90.0]]
    assert res["point"] == ["TaskBodyDriver", "OK", True]
    assert res["points"] == [["point", True]]
