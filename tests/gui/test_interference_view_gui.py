"""The interference check drawn in the real FreeCAD GUI (under Xvfb): the bar of
``tests/app/test_interference.py`` swings through the block (two boxes, first contact
and end in closed form), output every 0.05 s. After *Check interference* the timeline
is stepped through every frame: the two boxes' outlines and their witness points are
drawn exactly at the frames inside the closed-form interval, the points lie on the two
boxes' surfaces at the bar's closed-form pose (within the deflection) and are as far
apart as the separating-axis depth; the timeline's slider and the plot mark the
interval; the bodies' colours are never touched; a save while the overlay shows holds
nothing of it (save, reopen, compare with a save from before the check); closing the
panel takes the drawing and the marks away.

Set SIMPHANT_SCREENSHOT_DIR=DIR to keep the 3-D view's screenshot in DIR."""
import math
import textwrap
import zipfile
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from freecad_gui import run_gui_script

SCRIPT = textwrap.dedent('''
    import os, sys, traceback
    import FreeCAD, FreeCADGui
    res = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        mw = FreeCADGui.getMainWindow()
        mw.resize(1280, 800)
        sys.path.insert(0, os.path.join(ROOT, "tests", "app"))
        from test_interference import swinging_bar
        from SimPhantWorkbench import runner
        from SimPhantWorkbench.commands import results_commands as rc
        from SimPhantWorkbench.results_gui import interference as gi
        from SimPhantWorkbench.results_gui import interference_view as iv
        from SimPhantWorkbench.results_gui import plot_panel
        from SimPhantWorkbench.taskpanels import task_playback

        def looks(doc):
            out = {}
            for o in doc.Objects:
                vo = getattr(o, "ViewObject", None)
                if vo is None:
                    continue
                out[o.Name] = {p: repr(getattr(vo, p)) for p in
                               ("ShapeColor", "DiffuseColor", "LineColor", "PointColor",
                                "LineWidth", "Transparency", "Visibility", "DisplayMode")
                               if hasattr(vo, p)}
            return out

        def overlays(doc):
            n = 0
            for view in FreeCADGui.getDocument(doc.Name).mdiViewsOfType("Gui::View3DInventor"):
                sg = view.getSceneGraph()
                n += sum(1 for k in range(sg.getNumChildren())
                         if sg.getChild(k).getName() == "SimPhantInterference")
            return n

        doc = FreeCAD.newDocument("Pass")
        study = swinging_bar(doc, output_interval=0.05)
        FreeCADGui.updateGui()
        FreeCADGui.SendMsgToActiveView("ViewFit")
        rc.register()
        runner.run_study(study)
        FreeCADGui.updateGui()
        doc.saveAs(os.path.join(TMP, "before.FCStd"))
        res["looks_before"] = looks(doc)
        # a timeline and a plot open before the check get its marks too
        tl0 = task_playback.show(study, ask_on_close=False)
        plot0 = plot_panel.open_plot_panel(study)
        FreeCADGui.updateGui()
        FreeCADGui.runCommand("SimPhant_CheckInterference")
        for _ in range(5):
            FreeCADGui.updateGui()
        res["early_spans"] = [[list(s[:2]) for s in tl0.slider.spans],
                              [list(s[:2]) for s in plot0.spans]]
        tl0.close(keep=False)
        FreeCADGui.updateGui()
        panel = gi.panels(study)[-1]
        ov = panel.overlay
        res["overlays_open"] = overlays(doc)
        res["t"] = list(map(float, runner.get_result(study).t))
        tl = task_playback.show(study, ask_on_close=False)
        FreeCADGui.updateGui()
        res["slider_spans"] = [list(s[:2]) for s in tl.slider.spans]
        res["slider_tip"] = tl.slider.text_at(
            (tl.slider.span_marks()[0][0] + tl.slider.span_marks()[0][1]) // 2)
        plot = plot_panel.open_plot_panel(study)
        FreeCADGui.updateGui()
        res["plot_spans"] = [list(s[:2]) for s in plot.spans]
        res["plot_patches"] = len(plot.span_patches)
        frames = []
        for i in range(len(res["t"])):
            tl.show_frame(i)
            FreeCADGui.updateGui()
            frames.append(ov.state())
            if i == 12:
                res["looks_inside"] = looks(doc)
                doc.saveAs(os.path.join(TMP, "inside.FCStd"))
                view = FreeCADGui.ActiveDocument.ActiveView
                FreeCADGui.Selection.clearSelection()
                view.viewIsometric()
                view.fitAll()
                view.getCameraNode().scaleHeight(0.6)
                FreeCADGui.updateGui()
                view.saveImage(os.path.join(TMP, "interference_view.png"), 800, 600, "White")
                if SHOTS:
                    view.saveImage(os.path.join(SHOTS, "interference_view.png"), 800, 600,
                                   "White")
        res["frames"] = frames
        # moved by hand: in no frame of the result, nothing drawn
        bar = doc.getObject("BarShape")
        tl.show_frame(12)
        bar.Placement.Base = bar.Placement.Base + FreeCAD.Vector(0.5, 0, 0)
        FreeCADGui.updateGui()
        res["by_hand"] = ov.state()
        tl.close(keep=False)
        FreeCADGui.updateGui()
        res["looks_after_playback"] = looks(doc)
        # solved again: the check belongs to the replaced result, a new timeline has no marks
        runner.run_study(study)
        tl = task_playback.show(study, ask_on_close=False)
        FreeCADGui.updateGui()
        res["spans_after_rerun"] = len(tl.slider.spans)
        res["state_after_rerun"] = ov.state()
        tl.close(keep=False)
        FreeCADGui.updateGui()
        panel.dock.close()
        for _ in range(5):
            FreeCADGui.updateGui()
        res["overlays_closed"] = overlays(doc)
        res["removed"] = ov.removed
        res["plot_spans_closed"] = len(plot.spans)
        reopened = FreeCAD.openDocument(os.path.join(TMP, "inside.FCStd"))
        FreeCADGui.updateGui()
        res["looks_reopened"] = looks(reopened)
        res["overlays_reopened"] = overlays(reopened)
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    pytest.importorskip("fcl", reason="python-fcl (the interference checks) is not installed")
    tmp = tmp_path_factory.mktemp("interference_view_gui")
    res, _proc = run_gui_script(tmp, "interference_view_gui", SCRIPT)
    assert "error" not in res, res["error"]
    res["tmp"] = tmp
    return res


def _interval():
    import sys
    import os
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "app"))
    from test_interference import OMEGA, contact_times, sat_depth, BAR, BLOCK
    return contact_times(), OMEGA, sat_depth, BAR, BLOCK


def _surface_distance(p, lo, hi):
    """Distance [mm] of ``p`` from the surface of the box ``lo``..``hi`` (closed form)."""
    import sys
    import os
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "solver"))
    from test_collision import box_surface_distance
    return box_surface_distance(p, (np.asarray(hi) - lo) / 2.0, (np.asarray(lo) + hi) / 2.0)


def test_drawn_exactly_at_the_frames_inside_the_interval(gui):
    (start, end), _, _, _, _ = _interval()
    t = np.array(gui["t"])
    for i, state in enumerate(gui["frames"]):
        assert state["frame"] == i
        inside = start <= t[i] <= end
        assert state["outlined"] == (["Bar", "Block"] if inside else []), (i, t[i])
        assert sorted(state["points"]) == (["Block - Bar"] if inside else []), (i, t[i])
    assert sum(bool(s["points"]) for s in gui["frames"]) == 12       # 0.35 .. 0.9 s
    assert gui["by_hand"] == {"frame": None, "outlined": [], "poses": {}, "points": {}}


def test_the_outlines_follow_the_bodies(gui):
    """The bar's outline at its closed-form pose (Coin keeps single precision): turned by
    omega t about z through the pivot, its corner (0, -10, 0) with it; the fixed block's
    where it stands."""
    (start, end), omega, _, bar, block = _interval()
    t = np.array(gui["t"])
    for i, state in enumerate(gui["frames"]):
        if not state["outlined"]:
            continue
        theta = omega * t[i]
        x, y, z, qx, qy, qz, qw = state["poses"]["Bar"]
        assert [x, y, z] == pytest.approx([bar[1] * math.sin(theta),
                                           -bar[1] * math.cos(theta), 0.0], abs=1e-5)
        assert [qx, qy, qz, abs(qw)] == pytest.approx(
            [0.0, 0.0, math.sin(theta / 2) * np.sign(qw), math.cos(theta / 2)], abs=1e-6)
        assert state["poses"]["Block"][:3] == pytest.approx([b[0] for b in block], abs=1e-5)


def test_the_witness_points_lie_on_the_two_boxes_as_deep_apart(gui):
    (start, end), omega, sat_depth, bar, block = _interval()
    t = np.array(gui["t"])
    checked = 0
    for i, state in enumerate(gui["frames"]):
        if not state["points"]:
            continue
        on_block, on_bar = (np.array(p) for p in state["points"]["Block - Bar"])
        theta = omega * t[i]
        c, s = math.cos(theta), math.sin(theta)
        local = np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]]) @ on_bar     # rz(-theta)
        assert abs(_surface_distance(local, (0, -bar[1], 0), (bar[0], 0, bar[2]))) <= 0.1, i
        assert abs(_surface_distance(on_block, *zip(*block))) <= 0.1, i
        assert np.linalg.norm(on_block - on_bar) == pytest.approx(sat_depth(theta), abs=0.2)
        checked += 1
    assert checked == 12


def test_the_timeline_and_the_plot_mark_the_interval(gui):
    (start, end), _, _, _, _ = _interval()
    t = np.array(gui["t"])
    first, last = gui["slider_spans"][0]
    assert len(gui["slider_spans"]) == 1
    assert t[first - 1] < start <= t[first] and t[last] <= end < t[last + 1]
    assert "Block - Bar interfere from" in gui["slider_tip"]
    assert len(gui["plot_spans"]) == 1 and gui["plot_patches"] == 1
    assert gui["plot_spans"][0] == pytest.approx([start, end], abs=2e-3)
    assert gui["early_spans"] == [gui["slider_spans"], gui["plot_spans"]]
    assert gui["spans_after_rerun"] == 0
    assert gui["state_after_rerun"] == {"frame": None, "outlined": [], "poses": {},
                                        "points": {}}


def _view_props(path):
    """``{object: {property: value xml}}`` of a saved GuiDocument.xml (no camera)."""
    with zipfile.ZipFile(path) as z:
        root = ET.fromstring(z.read("GuiDocument.xml"))
    out = {}
    for vp in root.iter("ViewProvider"):
        props = {}
        for prop in vp.iter("Property"):
            props[prop.get("name")] = ET.tostring(prop)
        out[vp.get("name")] = props
    return out


def _doc_props(path):
    with zipfile.ZipFile(path) as z:
        root = ET.fromstring(z.read("Document.xml"))
    return {o.get("name"): sorted(p.get("name") for p in o.iter("Property"))
            for o in root.iter("Object") if o.find("Properties") is not None}


def test_nothing_is_saved_and_the_colours_are_never_touched(gui):
    assert gui["overlays_open"] == 1
    assert gui["looks_inside"] == gui["looks_before"]
    assert gui["looks_after_playback"] == gui["looks_before"]
    before, inside = gui["tmp"] / "before.FCStd", gui["tmp"] / "inside.FCStd"
    assert _view_props(inside) == _view_props(before)
    assert _doc_props(inside) == _doc_props(before)
    assert gui["looks_reopened"] == gui["looks_before"]
    assert gui["overlays_reopened"] == 0


def test_closing_the_panel_takes_the_drawing_and_the_marks_away(gui):
    assert gui["removed"] is True
    assert gui["overlays_closed"] == 0
    assert gui["plot_spans_closed"] == 0


def test_the_screenshot_shows_the_outlines_and_the_points(gui):
    from PIL import Image
    img = np.asarray(Image.open(gui["tmp"] / "interference_view.png").convert("RGB"),
                     dtype=int)
    red = (img[..., 0] > 180) & (img[..., 1] < 90) & (img[..., 2] < 90)       # outline
    orange = (img[..., 0] > 200) & (abs(img[..., 1] - 140) < 50) & (img[..., 2] < 80)
    assert red.sum() > 200 and orange.sum() > 10
