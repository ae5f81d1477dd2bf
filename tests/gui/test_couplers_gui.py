"""Coupler commands in the real FreeCAD GUI (under Xvfb): one command per registry coupler
kind, in the model toolbar, active only with the joints it couples selected (in order);
running it adds a Coupler (tree icon of its kind) whose task panel opens, checks its values
as they are typed (through ``document.couplers.coupler_data``) and writes them on OK only."""
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
        from SimPhantWorkbench import commands
        from SimPhantWorkbench.commands import cmd_couplers
        from SimPhantWorkbench.document.base import is_type
        doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "slider_crank.FCStd"))
        FreeCADGui.updateGui()
        study = [o for o in doc.Objects if is_type(o, "SimPhant::Study")][0]
        joints = {o.Label: o for o in study.Group if is_type(o, "SimPhant::Joint")}
        names = [c.name for c in cmd_couplers.commands()]
        res["names"] = names
        res["toolbar"] = list(commands.TOOLBARS[0][1])
        res["registered"] = {n: n in FreeCADGui.listCommands() for n in names}
        FreeCADGui.Selection.clearSelection()
        res["active_nothing"] = {n: FreeCADGui.isCommandActive(n) for n in names}
        FreeCADGui.Selection.addSelection(joints["CrankPivot"])
        FreeCADGui.Selection.addSelection(joints["SliderGuide"])
        FreeCADGui.updateGui()
        res["active_pair"] = {n: FreeCADGui.isCommandActive(n) for n in names}
        FreeCADGui.runCommand("SimPhant_Coupler_rack_pinion")
        FreeCADGui.updateGui()
        couplers = [o for o in study.Group if is_type(o, "SimPhant::Coupler")]
        res["couplers"] = [(c.Label, c.CouplerType, c.Joint1.Label, c.Joint2.Label)
                           for c in couplers]
        c = couplers[0]
        vp = c.ViewObject.Proxy
        res["vp"] = type(vp).__name__
        res["tree_icon"] = vp.icon_name()
        from SimPhantWorkbench.taskpanels.widgets import PropertyPanel
        from SimPhantWorkbench.gui import common
        common.message_hook = lambda kind, title, text: res.setdefault("messages", []).append(
            text)
        panel = PropertyPanel.current
        res["panel_open"] = [bool(FreeCADGui.Control.activeDialog()), type(panel).__name__]
        panel.kind.setCurrentIndex(panel.kind.findData("gear"))
        res["panel_wrong_kind"] = [panel.status.text(), panel.accept(), c.CouplerType]
        panel.kind.setCurrentIndex(panel.kind.findData("rack_pinion"))
        res["enabled_rack"] = sorted(k for k, w in panel.fields.items() if w.isEnabled())
        from SimPhantWorkbench.taskpanels.widgets import set_quantity
        set_quantity(panel.fields["Radius"], 25.0)
        res["panel_good"] = [panel.status.text(), panel.accept()]
        FreeCADGui.updateGui()
        res["written"] = [c.CouplerType, c.Radius.Value, not FreeCADGui.Control.activeDialog()]
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


def test_coupler_commands_in_the_gui(tmp_path):
    from SimPhantWorkbench.solver.couplers import COUPLER_TYPES
    res, proc = run_gui_script(tmp_path, "couplers_gui", SCRIPT)
    assert "error" not in res, res["error"]
    names = ["SimPhant_Coupler_" + k for k in COUPLER_TYPES]
    assert res["names"] == names
    assert all(n in res["toolbar"] for n in names)
    assert all(res["registered"].values())
    assert not any(res["active_nothing"].values())
    # a revolute then a prismatic: only the rack and pinion and the lead screw couple those
    assert res["active_pair"] == {n: n.endswith(("rack_pinion", "lead_screw")) for n in names}
    assert res["couplers"] == [["Coupler", "rack_pinion", "CrankPivot", "SliderGuide"]]
    assert res["vp"] == "VPCoupler" and res["tree_icon"] == "Coupler_RackPinion.svg"
    assert res["panel_open"] == [True, "TaskCoupler"]
    text, accepted, kind = res["panel_wrong_kind"]
    assert "SliderGuide" in text and "prismatic" in text and accepted is False
    assert kind == "rack_pinion"
    assert res["enabled_rack"] == ["Radius"]
    assert res["panel_good"] == ["OK", True]
    assert res["written"] == ["rack_pinion", 25.0, True]
