"""Picking aids in the real FreeCAD GUI (under Xvfb), on the bundled slider-crank (a
document saved without GUI data: its markers get their view providers when it opens)
and on a joint made in the GUI:

* Space (Std_ToggleVisibility) hides and shows a joint's triads, selected plainly or
  through its study in the tree;
* a click on a triad goes through it to the part behind unless "Markers selectable" is
  on (the pick FreeCAD's 3-D view makes at that pixel); "Show markers" hides them all;
  both toggles are kept in the preferences;
* "Hide other parts" hides every part but the selected one, SimPhant objects and the
  undo stack untouched, and "Show hidden parts" shows exactly those again; the markers
  of the hidden bodies (centres of gravity, triads of joints none of whose bodies is
  shown) hide with them and come back as they were (a joint's triads hidden by the user
  before stay hidden);
* with the joint panel open a tree click on a part selects it (to hide it) without
  becoming a reference, and a face pick afterwards still fills the reference.

The screenshot picking_aids.png (joint panel open, other parts hidden) is kept in SHOTS.
"""
import textwrap

import pytest

from freecad_gui import run_gui_script


SCRIPT = textwrap.dedent('''
    import os, sys, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtGui
    sys.path.insert(0, os.path.join(ROOT, "tests", "gui"))
    from gui_events import pump
    res = {}
    try:
        for key in ("MarkersSelectable", "ShowMarkers"):     # the defaults of a new profile
            FreeCAD.ParamGet("User parameter:BaseApp/Preferences/Mod/SimPhant").RemBool(key)
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        mw = FreeCADGui.getMainWindow()
        mw.resize(1280, 800)
        from pivy import coin
        from SimPhantWorkbench import factory
        from SimPhantWorkbench.document.base import studies, study_bodies, study_joints
        from SimPhantWorkbench.gui import picking_aids
        doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "slider_crank.FCStd"))
        pump(1.0)
        view = FreeCADGui.ActiveDocument.ActiveView
        view.setAnimationEnabled(False)
        view.viewFront()
        FreeCADGui.SendMsgToActiveView("ViewFit")
        pump(0.5)
        study = studies(doc)[0]
        bodies = {b.Label: b for b in study_bodies(study)}
        joint = study_joints(study)[0]
        made = factory.make_joint(study, "spherical", (bodies["Crank"].ShapeObject, "Vertex1"),
                                  (bodies["ConnectingRod"].ShapeObject, "Vertex1"),
                                  name="MadeHere")
        pump(0.5)

        # ---- Space on joints: a restored one (plain and through the study) and a new one
        def space(obj, sub=None):
            FreeCADGui.Selection.clearSelection()
            if sub is None:
                FreeCADGui.Selection.addSelection(obj)
            else:
                FreeCADGui.Selection.addSelection(doc.Name, study.Name, sub)
            FreeCADGui.runCommand("Std_ToggleVisibility")
            pump(0.2)
            # what is drawn: the object's display-mode switch holds the triads
            return [obj.ViewObject.isVisible(), obj.ViewObject.SwitchNode.whichChild.getValue()]
        res["space"] = [space(joint), space(joint), space(joint, joint.Name + "."),
                        space(joint, joint.Name + "."), space(made), space(made)]
        FreeCADGui.Selection.clearSelection()

        # ---- clicks on a triad: through it unless markers are selectable
        marker = joint.ViewObject.Proxy.markers[0]
        pl = marker.placement()
        pixels = [tuple(int(c) for c in view.getPointOnScreen(pl.multVec(FreeCAD.Vector(*d))))
                  for f in (0.95, 0.8, 0.6, 0.4) for d in ((f * marker.size, 0, 0),
                                                           (0, f * marker.size, 0),
                                                           (0, 0, f * marker.size))]

        def picked(px):
            info = view.getObjectInfo(px)
            return info["Object"] if info else None

        def toggle(name):      # as a click on the toolbar button: the action toggles
            action = [a for a in mw.findChildren(QtGui.QAction) if a.objectName() == name][0]
            action.trigger()
            pump(0.3)
            return action.isChecked()
        res["pref_default"] = [picking_aids.markers_selectable(), picking_aids.markers_shown()]
        res["checked"] = [toggle("SimPhant_MarkersSelectable")]
        on_triad = [px for px in pixels if picked(px) == joint.Name]
        res["click_selectable"] = bool(on_triad)
        prefs = FreeCAD.ParamGet(picking_aids.PREFERENCES)
        res["pref_selectable"] = prefs.GetBool("MarkersSelectable", False)
        res["checked"].append(toggle("SimPhant_MarkersSelectable"))
        res["click_again"] = [[picked(px) for px in on_triad],
                              prefs.GetBool("MarkersSelectable", True)]
        res["checked"].append(toggle("SimPhant_ShowMarkers"))
        vps = [o.ViewObject.Proxy for o in study.Group if hasattr(o.ViewObject.Proxy, "markers")]
        res["markers_hidden"] = [prefs.GetBool("ShowMarkers", True),
                                 sorted({m.visible for vp in vps for m in vp.markers})]
        res["checked"].append(toggle("SimPhant_ShowMarkers"))
        res["markers_back"] = [prefs.GetBool("ShowMarkers", False),
                               sorted({m.visible for vp in vps for m in vp.markers})]

        # ---- hide the other parts, show them again; no undo step, SimPhant objects as they were
        def shown():
            return sorted(o.Name for o in doc.Objects if o.ViewObject is not None
                          and o.ViewObject.Visibility)
        def marker_states():
            """{Label: [whether each of its markers is drawn]} of the study's members: the
            marker's switch on, under the object's display-mode switch on (Space)."""
            out = {}
            for o in study.Group:
                vp = getattr(o.ViewObject, "Proxy", None)
                if getattr(vp, "markers", None):
                    mode_on = o.ViewObject.SwitchNode.whichChild.getValue() != -1
                    out[o.Label] = [m.visible and mode_on for m in vp.markers]
            return out
        space(made)                   # triads the user hid: they stay hidden throughout
        markers_before = marker_states()
        before, undo0 = shown(), doc.UndoCount
        crank = bodies["Crank"].ShapeObject
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(crank)
        FreeCADGui.runCommand("SimPhant_HideOthers")
        pump(0.3)
        after = shown()
        res["markers_hide_others"] = [markers_before, marker_states()]
        if SHOTS:
            FreeCADGui.Selection.clearSelection()
            pump(0.3)
            QtGui.QGuiApplication.primaryScreen().grabWindow(0).save(
                os.path.join(SHOTS, "hide_others_markers.png"))
            FreeCADGui.Selection.addSelection(crank)
        # the rod shown again by itself (Space): the joints and the CoG on it come back
        rod_shape = bodies["ConnectingRod"].ShapeObject
        rod_shape.ViewObject.Visibility = True
        pump(0.3)
        res["markers_rod_shown"] = marker_states()
        rod_shape.ViewObject.Visibility = False
        pump(0.3)
        res["hide_others"] = [crank.Name in after,
                              sorted(b.ShapeObject.Name for b in bodies.values()
                                     if b.ShapeObject.Name in after),
                              sorted(set(before) - set(after)), doc.UndoCount - undo0,
                              sorted(o.Name for o in study.Group if o.Name not in after
                                     and o.Name in before)]
        res["show_active"] = FreeCADGui.isCommandActive("SimPhant_ShowHidden")
        FreeCADGui.runCommand("SimPhant_ShowHidden")
        pump(0.3)
        res["show_hidden"] = [shown() == before, doc.UndoCount - undo0,
                              FreeCADGui.isCommandActive("SimPhant_ShowHidden")]
        res["markers_shown_again"] = marker_states()

        # ---- the joint panel: a tree click selects a part (to hide it), no reference
        from SimPhantWorkbench.taskpanels.task_joint import TaskJoint
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.runCommand("SimPhant_Joint_revolute")
        pump(0.3)
        panel = TaskJoint.current
        rod = bodies["ConnectingRod"].ShapeObject
        FreeCADGui.Selection.addSelection(doc.Name, rod.Name)
        pump(0.3)
        res["tree_pick"] = [[o.Name for o in FreeCADGui.Selection.getSelection()],
                            panel.refs == [None, None], panel.refusal.text()]
        FreeCADGui.runCommand("SimPhant_HideOthers")
        pump(0.3)
        res["hidden_in_panel"] = [rod.ViewObject.Visibility, crank.ViewObject.Visibility]
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(doc.Name, rod.Name, "Face1")
        pump(0.3)
        res["face_pick"] = None if panel.refs[0] is None else [panel.refs[0][1].Name,
                                                               panel.refs[0][2]]
        if SHOTS:
            from PySide import QtCore
            dock = mw.findChild(QtGui.QDockWidget, "Combo View")
            mw.resizeDocks([dock], [430], QtCore.Qt.Horizontal)
            report = mw.findChild(QtGui.QDockWidget, "Report view")
            if report is not None:
                report.hide()
            FreeCADGui.SendMsgToActiveView("ViewFit")
            pump(0.5)
            QtGui.QGuiApplication.primaryScreen().grabWindow(0).save(
                os.path.join(SHOTS, "picking_aids.png"))
        panel.reject()
        pump(0.3)
        FreeCADGui.runCommand("SimPhant_ShowHidden")
        pump(0.3)
        res["all_back"] = shown() == before
        space(made)
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    res, proc = run_gui_script(tmp_path_factory.mktemp("aids"), "picking_aids_gui", SCRIPT)
    assert "error" not in res, res.get("error", "") + proc.stderr[-2000:]
    return res


def test_space_hides_a_joints_triads_restored_or_made_in_the_gui(gui):
    hidden, shown = [False, -1], [True, 0]
    assert gui["space"] == [hidden, shown, hidden, shown, hidden, shown]


def test_clicks_go_through_markers_unless_they_are_selectable(gui):
    assert gui["pref_default"] == [False, True]
    assert gui["checked"] == [True, False, False, True]     # the buttons show the state
    assert gui["click_selectable"] is True           # pixels where a click gives the joint
    behind, pref = gui["click_again"]
    assert behind and "CrankPivot" not in behind and pref is False    # now the part behind
    assert gui["pref_selectable"] is True
    assert gui["markers_hidden"] == [False, [False]]
    assert gui["markers_back"] == [True, [True]]


def test_hide_other_parts_and_show_them_again(gui):
    kept, bodies_shown, hidden, undo_steps, members_hidden = gui["hide_others"]
    assert kept and bodies_shown == [gui["hide_others"][1][0]] and hidden
    assert undo_steps == 0 and members_hidden == []
    assert gui["show_active"] is True
    assert gui["show_hidden"] == [True, 0, False]


def test_joint_panel_lets_a_tree_click_select_a_part_without_taking_it(gui):
    selected, no_refs, note = gui["tree_pick"]
    assert len(selected) == 1 and no_refs and "not as a reference" in note
    assert gui["hidden_in_panel"] == [True, False]
    assert gui["face_pick"] is not None and gui["face_pick"][1] == "Face1"
    assert gui["all_back"] is True


def test_markers_follow_the_parts_hidden_and_shown_again(gui):
    """With the crank kept: its CoG and the triads of the joints on it (to the hidden post,
    to the hidden rod) stay; the rod's and the slider's CoG and the triads of the joints
    between hidden parts (wrist pin, slider guide) hide; the rod shown again by itself
    brings its CoG and the wrist pin back; Show hidden parts restores every marker as it
    was, the triads the user hid included."""
    before, hidden = gui["markers_hide_others"]
    assert before["MadeHere"] == [False, False]               # hidden by the user (Space)
    assert all(all(v) for k, v in before.items() if k != "MadeHere"), before
    assert hidden["Crank"] == [True]
    assert hidden["CrankPivot"] == [True, True] and hidden["CrankPin"] == [True, True]
    for label in ("ConnectingRod", "Slider", "WristPin", "SliderGuide", "MadeHere"):
        assert not any(hidden[label]), (label, hidden)
    rod = gui["markers_rod_shown"]
    assert rod["ConnectingRod"] == [True] and rod["WristPin"] == [True, True]
    assert rod["MadeHere"] == [False, False]
    assert not any(rod["Slider"]) and not any(rod["SliderGuide"])
    assert gui["markers_shown_again"] == before
