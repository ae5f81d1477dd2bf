"""Every task panel fits FreeCAD's side pane as it comes: in the main window at the size
of the screen (1280 x 800) with the combo view at its default width, each panel (study,
body, joint in every kind, force, torque, every force-element kind, driver, coupler,
parameter study with its results, playback) opens with a minimum size no wider than the
task view shows, no horizontal scroll bar and no widget cut off at the right edge.
Dragged wider (420 px), nothing is cut off either.

Set SIMPHANT_SCREENSHOT_DIR=DIR to keep panel_<width>_<name>.png of each."""
import os
import shutil
import textwrap

import pytest

from freecad_gui import ROOT, run_gui_script

WIDE = 420

SCRIPT = textwrap.dedent('''
    import os, sys, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtCore, QtGui
    sys.path.insert(0, os.path.join(ROOT, "tests", "gui"))
    from gui_events import pump
    res = {"panels": {}, "docks": {}}

    def task_dock():
        """The dock holding the task view: the combo view (FreeCAD 0.20, 1.0) or the
        task view's own dock."""
        docks = [d for d in mw.findChildren(QtGui.QDockWidget)
                 if any(a.metaObject().className() == "Gui::TaskView::TaskView"
                        for a in d.findChildren(QtGui.QScrollArea))]
        return mw.findChild(QtGui.QDockWidget, "Combo View") or (docks[0] if docks else None)

    def task_area(dock):
        """The task view: the scroll area showing the panel's widgets."""
        areas = [a for a in dock.findChildren(QtGui.QScrollArea) if a.isVisible()
                 and a.widget() is not None and a.widget().isVisible()
                 and not isinstance(a, QtGui.QAbstractItemView)]
        return max(areas, key=lambda a: a.widget().sizeHint().height()) if areas else None

    def clipped(area):
        """Visible widgets of the panel whose right edge is past the task view's (the
        insides of tables, spin boxes and combo boxes scroll or elide on their own)."""
        out = []
        view = area.viewport()
        for w in area.widget().findChildren(QtGui.QWidget):
            if not w.isVisible() or w.width() <= 0:
                continue
            p = w.parentWidget()
            inner = False
            while p is not None and p is not area.widget():
                if isinstance(p, (QtGui.QAbstractScrollArea, QtGui.QAbstractSpinBox,
                                  QtGui.QComboBox)):
                    inner = True
                    break
                p = p.parentWidget()
            if inner:
                continue
            right = w.mapTo(view, QtCore.QPoint(w.width(), 0)).x()
            if right > view.width() + 1:
                text = w.text() if hasattr(w, "text") and callable(w.text) else ""
                out.append("%s %r right %d" % (type(w).__name__, str(text)[:40], right))
        return out

    def measure(name, width):
        area = task_area(task_dock())
        entry = {"open": bool(FreeCADGui.Control.activeDialog())}
        if area is not None:
            entry.update(hbar=area.horizontalScrollBar().isVisible(),
                         viewport=area.viewport().width(),
                         content_min=area.widget().minimumSizeHint().width(),
                         clipped=clipped(area))
        res["panels"].setdefault(width, {})[name] = entry
        if SHOTS:
            mw.grab().save(os.path.join(SHOTS, "panel_%s_%s.png" % (width, name)))

    try:
        mw = FreeCADGui.getMainWindow()
        mw.showMaximized()
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import factory, runner, sweep
        from SimPhantWorkbench.document.base import (is_simphant, study_bodies, study_joints)
        from SimPhantWorkbench.gui import common, outdated
        from SimPhantWorkbench.solver import JOINT_TYPES
        from SimPhantWorkbench.taskpanels import task_joint, task_playback, widgets
        common.message_hook = lambda kind, title, text: None
        outdated.ask_hook = lambda study, action, reason: outdated.ANYWAY
        doc = FreeCAD.openDocument(MODEL)
        pump(1.0)
        study = [o for o in doc.Objects if o.Name.startswith("Study")][0]
        bodies = [b for b in study_bodies(study) if not b.Fixed]
        joints = [j for j in study_joints(study) if j.JointType == "revolute"]
        runner.run_study(study, t_end=0.05)        # a result (playback panel) first
        a, b = (bodies[0].ShapeObject, "Vertex1"), (bodies[1].ShapeObject, "Vertex1")
        factory.make_force(study, bodies[0], (0, 0, -10))
        factory.make_torque(study, bodies[0], (0, 0, 1))
        factory.make_spring(study, a, b, 100.0)
        factory.make_damper(study, a, b, 1.0)
        factory.make_contractile_force(study, a, b, 5.0)
        factory.make_joint_spring(study, joints[0], 1.0)
        factory.make_joint_actuator(study, joints[0], 1.0)
        factory.make_force_element(study, "joint_stop", joint=joints[0], lower=-30, upper=30,
                                   stiffness=1e3)
        factory.make_coupler(study, joints[0], joints[1], "gear")
        factory.make_body_driver(study, "point", bodies[0], a)
        pstudy = factory.make_parameter_study(study, {
            "design": "grid", "variables": [{"target": "%s.Density" % bodies[0].Name,
                                             "name": "density", "values": [1000, 2000]}],
            "metrics": {"peak": "max(speed(%s))" % bodies[0].Name},
            "settings": {"t_end": 0.02}})
        sweep.run_parameter_study(pstudy, executor="in-process")   # the results page too
        doc.recompute()
        pump(0.5)
        gdoc = FreeCADGui.getDocument(doc.Name)
        dock = task_dock()
        res["dock_name"] = dock.objectName()
        objs = [o for o in doc.Objects if is_simphant(o)]
        for width in ("default", WIDE):
            if width != "default":
                mw.resizeDocks([dock], [width], QtCore.Qt.Horizontal)
                pump(0.5)
            res["docks"][width] = dock.width()
            for obj in objs:
                gdoc.setEdit(obj.Name)
                pump(1.0)                      # the task box's unfolding animation
                measure(obj.Name, width)
                playing = task_playback.TaskPlayback.current
                if obj.Name.startswith("Result") and playing is not None:
                    for button in (playing.prev_event, playing.next_event):
                        button.setVisible(True)     # as a result with end stop contacts
                    pump(0.3)
                    measure("Result_contacts", width)
                panel = task_joint.TaskJoint.current
                if obj.Name == joints[0].Name and panel is not None:
                    for kind in JOINT_TYPES:     # each kind's texts, and the gap buttons
                        panel.kind_box.setCurrentIndex(list(JOINT_TYPES).index(kind))
                        widgets.set_quantity(panel.offset, 5.0)
                        panel.update()
                        pump(0.3)
                        measure("%s_%s" % (obj.Name, kind), width)
                FreeCADGui.Control.closeDialog()
                gdoc.resetEdit()
                pump(0.3)
            FreeCADGui.runCommand("SimPhant_Joint_revolute")    # a new joint: nothing picked
            pump(0.5)
            measure("NewJoint", width)
            FreeCADGui.Control.closeDialog()
            pump(0.3)
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def widths(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("widths")
    model = tmp / "driven_slider_crank.FCStd"
    shutil.copy(os.path.join(ROOT, "examples", "driven_slider_crank.FCStd"), model)
    # a fresh FreeCAD profile (a used one keeps the side pane as it was left): the
    # workbench and its Python packages linked from this one
    share = os.path.join(".local", "share", "FreeCAD")
    (tmp / "home" / share / "Mod").mkdir(parents=True)
    os.symlink(ROOT, str(tmp / "home" / share / "Mod" / "SimPhant"))
    packages = os.path.join(os.path.expanduser("~"), share, "AdditionalPythonPackages")
    if os.path.isdir(packages):
        os.symlink(packages, str(tmp / "home" / share / "AdditionalPythonPackages"))
    res, _ = run_gui_script(tmp, "widths", "MODEL = %r\nWIDE = %d\n" % (str(model), WIDE)
                            + SCRIPT, env=dict(HOME=str(tmp / "home")), timeout=600)
    assert "error" not in res, res["error"]
    return res


def _misfits(panels, min_width=True):
    return {name: p for name, p in panels.items()
            if not p["open"] or "viewport" not in p or p["clipped"]
            or (min_width and (p["hbar"] or p["content_min"] > p["viewport"]))}


def test_every_panel_is_measured(widths):
    panels = widths["panels"]["default"]
    names = set(panels)
    expected = {"Study", "Crank", "CrankPivot", "Motor", "Force", "Torque", "Springdamper",
                "Damper", "Contractileforce", "Jointspringdamper", "Jointactuator", "Endstop",
                "Coupler", "ParameterStudy", "Result", "NewJoint"}
    stems = {n.rstrip("0123456789") for n in names}
    assert expected <= stems | names, sorted(names)
    assert {"CrankPivot_revolute", "CrankPivot_prismatic", "CrankPivot_spherical",
            "Result_contacts"} <= names


def test_every_panel_fits_the_side_pane_at_its_default_width(widths):
    assert _misfits(widths["panels"]["default"]) == {}, widths["docks"]


def test_nothing_is_cut_off_in_a_wide_side_pane(widths):
    wide = widths["panels"][str(WIDE)]
    assert min(p["viewport"] for p in wide.values()) > max(
        p["viewport"] for p in widths["panels"]["default"].values())
    assert _misfits(wide, min_width=False) == {}, widths["docks"]
