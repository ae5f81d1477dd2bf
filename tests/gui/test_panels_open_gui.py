"""Task panels always open. A ``Gui::QuantitySpinBox`` is made by C++; when C++ deletes it
while Python still refers to its wrapper, the next spin box allocated at the same address
used to get that dead wrapper ("Internal C++ object (QAbstractSpinBox) already deleted")
and its panel failed to open. The script processes deferred deletions as the interactive
event loop does (a script's event pump alone never deletes the closed panels' widgets,
so their addresses are never reused). A command that adds an object and opens its panel
leaves nothing behind when the panel fails, nor when its Cancel button is pressed."""
import os
import shutil
import textwrap

import pytest

from freecad_gui import ROOT, run_gui_script

ROUNDS = 12

SCRIPT = textwrap.dedent('''
    import os, sys, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtGui
    sys.path.insert(0, os.path.join(ROOT, "tests", "gui"))
    from gui_events import pump
    res = {"messages": []}

    def settle():
        pump(deferred_deletes=True)

    def close_panel():
        for box in FreeCADGui.getMainWindow().findChildren(QtGui.QDialogButtonBox):
            for which in (QtGui.QDialogButtonBox.Cancel, QtGui.QDialogButtonBox.Close):
                b = box.button(which)
                if b is not None and b.isVisible():
                    b.click()
                    settle()
                    return True
        return False

    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench.document.base import is_simphant, study_drivers, study_joints
        from SimPhantWorkbench.gui import common
        from SimPhantWorkbench.taskpanels import widgets
        common.message_hook = lambda kind, title, text: res["messages"].append([kind, text])

        # a spin box deleted by C++ while Python keeps its wrapper, then a new one
        kept, failed = [], 0
        for i in range(20):
            try:
                box = widgets.quantity_box("mm", 1.0)
                box.setProperty("rawValue", 2.0)
            except RuntimeError:
                failed += 1
                continue
            kept.append(box)
            box.deleteLater()
            settle()
        res["boxes_failed"] = failed

        doc = FreeCAD.openDocument(MODEL)
        settle()
        gdoc = FreeCADGui.getDocument(doc.Name)
        objs = [o for o in doc.Objects if is_simphant(o)]     # every kind has a panel
        res["without_proxy"] = sorted(o.Name for o in objs if not hasattr(
            getattr(o.ViewObject, "Proxy", None), "task_panel"))
        res["objects"] = sorted(o.Name for o in objs)
        commands = ["SimPhant_Joint_revolute", "SimPhant_Joint_spherical"]
        opened, closed, panels = {}, {}, []
        for r in range(ROUNDS):
            for what in objs + commands:
                name = what if isinstance(what, str) else what.Name
                if isinstance(what, str):
                    FreeCADGui.Selection.clearSelection()
                    FreeCADGui.runCommand(what)
                elif hasattr(getattr(what.ViewObject, "Proxy", None), "doubleClicked"):
                    what.ViewObject.Proxy.doubleClicked(what.ViewObject)   # as in the tree
                else:
                    gdoc.setEdit(what.Name)
                settle()
                ok = bool(common.in_edit())
                opened[name] = opened.get(name, 0) + ok
                panels.append(FreeCADGui.Control.activeDialog() and
                              [widgets.PropertyPanel.current])  # kept, as a session does
                closed[name] = closed.get(name, 0) + (close_panel() and not common.in_edit())
                if common.in_edit():
                    FreeCADGui.Control.closeDialog()
                    gdoc.resetEdit()
                    settle()
        res["opened"], res["closed"] = opened, closed

        # the motor command when its panel fails to open, then when it opens
        from SimPhantWorkbench.taskpanels import task_driver
        study = [o for o in doc.Objects if o.Name.startswith("Study")][0]
        joint = [j for j in study_joints(study) if j.JointType == "revolute"][0]
        for d in study_drivers(study):
            doc.removeObject(d.Name)
        doc.recompute()
        names0, undo0 = sorted(o.Name for o in doc.Objects), doc.UndoCount
        original = task_driver.TaskDriver.__init__

        def broken(self, obj):
            raise RuntimeError("the panel cannot be built")

        task_driver.TaskDriver.__init__ = broken
        try:
            for attempt in range(2):
                FreeCADGui.Selection.clearSelection()
                FreeCADGui.Selection.addSelection(joint)
                FreeCADGui.runCommand("SimPhant_Driver_rotation")
                settle()
        finally:
            task_driver.TaskDriver.__init__ = original
        res["failed_motor_added"] = sorted(set(o.Name for o in doc.Objects) - set(names0))
        res["failed_motor_undo_steps"] = doc.UndoCount - undo0
        res["failed_motor_in_edit"] = bool(common.in_edit())
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(joint)
        FreeCADGui.runCommand("SimPhant_Driver_rotation")
        settle()
        res["motor_panel_open"] = bool(common.in_edit())
        res["motor_added"] = [d.Label for d in study_drivers(study)]
        res["motor_undo_steps"] = doc.UndoCount - undo0     # its step, open with the panel
        close_panel()                                          # its Cancel button
        res["motor_cancelled"] = [sorted(set(o.Name for o in doc.Objects) - set(names0)),
                                  doc.UndoCount - undo0, doc.RedoCount,
                                  bool(common.in_edit())]
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def panels(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("panels")
    model = tmp / "driven_slider_crank.FCStd"
    shutil.copy(os.path.join(ROOT, "examples", "driven_slider_crank.FCStd"), model)
    res, _ = run_gui_script(tmp, "panels", "MODEL = %r\nROUNDS = %d\n" % (str(model), ROUNDS)
                            + SCRIPT)
    assert "error" not in res, res["error"]
    return res


def test_a_spin_box_made_where_a_deleted_one_was_is_usable(panels):
    assert panels["boxes_failed"] == 0


def test_every_panel_opens_and_closes_every_time(panels):
    names = panels["objects"] + ["SimPhant_Joint_revolute", "SimPhant_Joint_spherical"]
    assert {"Study", "Crank", "CrankPivot", "Motor"} <= set(panels["objects"])
    assert panels["opened"] == {n: ROUNDS for n in names}
    assert panels["closed"] == {n: ROUNDS for n in names}


def test_the_motor_command_leaves_nothing_when_its_panel_fails(panels):
    assert panels["failed_motor_added"] == []
    assert panels["failed_motor_undo_steps"] == 0 and not panels["failed_motor_in_edit"]
    assert any(kind == "error" and "did not open" in text for kind, text in panels["messages"])
    assert panels["motor_panel_open"] and len(panels["motor_added"]) == 1
    assert panels["motor_undo_steps"] == 1          # counted while open
    # Cancel (the panel's button) takes the new motor back out: no object, no undo step
    assert panels["motor_cancelled"] == [[], 0, 0, False]
