"""Results in the real FreeCAD GUI (under Xvfb): the plot panel draws exactly the stored
result (reaction force, unit switching, joint frame, cursor and clicks, PNG/SVG/CSV export),
the GUI exports write the CLI's files and a GIF/MP4 of the 3-D view with the frames and size
asked for (placements put back), the viewer opens inside FreeCAD, and the commands are
active or, without PyVista, the viewer's is disabled with a tooltip saying how to install it.

Set SIMPHANT_SCREENSHOT_DIR=DIR to keep the panel's and the viewer's screenshots in DIR
(docs/images holds the ones the documentation shows)."""
import textwrap

import pytest

from freecad_gui import run_gui_script


SCRIPT = textwrap.dedent('''
    import json, os, sys, traceback, zipfile, io, csv
    import numpy as np
    import FreeCAD, FreeCADGui
    from PySide import QtCore, QtGui
    res = {}
    def check(name, value):
        res[name] = value
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        mw = FreeCADGui.getMainWindow()
        mw.resize(1280, 800)
        from SimPhantWorkbench import runner, output, viewer
        from SimPhantWorkbench.document.base import is_type
        from SimPhantWorkbench.results_gui import plot_panel, export
        from SimPhantWorkbench.commands import results_commands as rc
        from SimPhantWorkbench.viewer.video import video_indices
        from PIL import Image
        doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "slider_crank.FCStd"))
        FreeCADGui.updateGui()
        FreeCADGui.SendMsgToActiveView("ViewFit")
        study = [o for o in doc.Objects if is_type(o, "SimPhant::Study")][0]
        param = FreeCAD.ParamGet("User parameter:BaseApp/Preferences/Units")
        param.SetInt("UserSchema", 0)
        # ---- commands before a run: nothing to plot yet
        names = rc.register()
        check("commands", names)
        check("active_before_run", FreeCADGui.isCommandActive("SimPhant_PlotResults"))
        r = runner.run_study(study, t_end=1.0)
        check("active_after_run", {n: rc.COMMANDS[n].IsActive() for n in names})
        joint = [o for o in study.Group if o.Label == "CrankPin"][0]
        crank = [o for o in study.Group if o.Label == "Crank"][0]
        jkey, ckey = runner.result_key(study, joint), runner.result_key(study, crank)

        # ---- plot panel: reaction force of one joint, exactly the result's
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(joint)
        panel = plot_panel.open_plot_panel(study)
        check("from_selection", [panel.quantity, [t.key for t in panel.selected_targets()]])
        curves = panel.select("reaction_force", [joint], ["x", "y", "z", "magnitude"],
                              frame="world", units="SI")
        F = r.reaction_force(jkey)
        check("force_equal", [bool(np.array_equal(l.get_ydata(), F[:, k]))
                              for k, l in enumerate(panel.lines[:3])])
        check("force_magnitude", float(np.abs(panel.lines[3].get_ydata()
                                              - np.linalg.norm(F, axis=1)).max()))
        check("force_time", bool(np.array_equal(panel.lines[0].get_xdata(), r.t)))
        check("force_labels", [panel.axes.get_ylabel(), panel.axes.get_xlabel(),
                               [t.get_text() for t in panel.axes.get_legend().get_texts()]])
        # in the joint frame of body 1: same length, other components
        panel.select("reaction_force", [joint], ["x", "y", "z"], frame="joint")
        Fj = np.column_stack([l.get_ydata() for l in panel.lines])
        check("joint_frame", [float(np.abs(np.linalg.norm(Fj, axis=1)
                                           - np.linalg.norm(F, axis=1)).max()),
                              float(np.abs(Fj - F).max())])
        from SimPhantWorkbench.document import scene
        jf = scene.joint_frames(study, r)[jkey]
        R = r.rotation_matrix(jf.body) @ jf.R
        check("joint_frame_exact", float(np.abs(Fj - np.einsum("nji,nj->ni", R, F)).max()))
        # units: SI, mm, preference
        panel.select("position", [crank], ["x", "z"], units="SI")
        si = [l.get_ydata().copy() for l in panel.lines]
        lab_si = panel.axes.get_ylabel()
        panel.select("position", [crank], ["x", "z"], units="mm, deg")
        mm = [l.get_ydata().copy() for l in panel.lines]
        check("units", [lab_si, panel.axes.get_ylabel(),
                        float(max(np.abs(b - 1e3 * a).max() for a, b in zip(si, mm)))])
        panel.select("euler_angles", [crank], ["y"], units="SI")
        rad = panel.lines[0].get_ydata().copy()
        lab_rad = panel.axes.get_ylabel()
        panel.select("euler_angles", [crank], ["y"], units="preference")
        check("angles", [lab_rad, panel.axes.get_ylabel(),
                         float(np.abs(panel.lines[0].get_ydata() - np.degrees(rad)).max())])
        param.SetInt("UserSchema", 1)                       # MKS
        other = plot_panel.PlotPanel(study)
        other.select("velocity", [crank], ["magnitude"], units="preference")
        check("preference_mks", [other.units_box.itemText(0), other.axes.get_ylabel()])
        param.SetInt("UserSchema", 0)
        other.deleteLater()
        # a picked vertex of the crank: its position curve starts at the vertex
        shape = crank.ShapeObject
        v = shape.Shape.Vertexes[0]
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(shape, "Vertex1")
        target = panel.add_point_from_gui()
        start = np.array([v.Point.x, v.Point.y, v.Point.z]) * 1e-3
        check("vertex", [target.label, panel.quantity,
                         float(np.abs(np.array([l.get_ydata()[0] for l in panel.lines[:3]])
                                      - 1e3 * start).max()),
                         float(np.abs(panel.lines[0].get_ydata()
                                      - 1e3 * r.point_position(ckey, target.point)[:, 0]).max())])
        # several objects, energy, violation
        panel.select("energy", [], ["kinetic", "total", "drift"])
        check("energy", [len(panel.lines), bool(np.array_equal(panel.lines[1].get_ydata(),
                                                               r.energy()["total"]))])
        # cursor and clicks
        panel.select("reaction_force", [joint], ["x", "y", "z", "magnitude"], frame="world",
                     units="SI")
        panel.set_time(0.5)
        check("cursor", list(map(float, panel.cursor.get_xdata())))
        got = []
        panel.time_clicked.append(got.append)
        emitted = []
        panel.timeClicked.connect(emitted.append)
        from matplotlib.backend_bases import MouseEvent
        panel.canvas.draw()
        x, y = panel.axes.transData.transform((0.7, float(np.mean(panel.axes.get_ylim()))))
        ev = MouseEvent("button_press_event", panel.canvas, x, y, button=1)
        panel.canvas.callbacks.process("button_press_event", ev)
        check("click", [list(got), list(emitted), list(map(float, panel.cursor.get_xdata()))])
        from SimPhantWorkbench import playback
        shown = playback.frame_placements(study, got[0])
        def same(a, b, tol):
            return (a.Base - b.Base).Length < tol and \
                max(abs(x - y) for x, y in zip(a.Rotation.Q, b.Rotation.Q)) < tol
        check("click_shows_frame", all(same(o.Placement, pl, 1e-9) for o, pl in shown.items())
              and not same(crank.ShapeObject.Placement,
                           playback.frame_placements(study, 0)[crank.ShapeObject], 1e-6))
        playback.reset(study)
        # the timeline playback moves the cursor; a click on the plot moves the timeline
        from SimPhantWorkbench.taskpanels import task_playback
        timeline = task_playback.show(study, ask_on_close=False)
        timeline.show_frame(7)
        at_frame = [float(timeline.t[7])] * 2
        cursor_follows = list(map(float, panel.cursor.get_xdata()))
        panel.canvas.callbacks.process("button_press_event", ev)     # the click at t = 0.7
        check("timeline", [cursor_follows == at_frame, float(timeline.t[timeline.index]),
                           float(timeline.t[abs(timeline.t - got[0]).argmin()])])
        timeline.close(keep=False)
        check("in_workbench", all(n in FreeCADGui.listCommands() for n in rc.COMMANDS))
        playback.reset(study)
        # exports of what is shown
        panel.export_png(os.path.join(TMP, "plot.png"))
        panel.export_svg(os.path.join(TMP, "plot.svg"))
        panel.export_csv(os.path.join(TMP, "plot.csv"))
        rows = list(csv.reader(open(os.path.join(TMP, "plot.csv"))))
        data = np.array([[float(x) for x in row] for row in rows[1:]])
        check("csv", [rows[0], bool(np.array_equal(data[:, 1:4], F)),
                      bool(np.array_equal(data[:, 0], r.t))])
        with Image.open(os.path.join(TMP, "plot.png")) as im:
            check("png", list(im.size))
        check("svg", open(os.path.join(TMP, "plot.svg")).read().count("<svg"))
        if SHOTS:
            panel.select("reaction_force", [joint], ["x", "y", "z", "magnitude"], frame="world",
                         units="SI")
            panel.object_list.item(0).setSelected(True)
            panel.dock.setFloating(True)
            panel.dock.resize(1000, 480)
            FreeCADGui.updateGui()
            panel.redraw()
            panel.canvas.draw()
            FreeCADGui.updateGui()
            panel.dock.grab().save(os.path.join(SHOTS, "plot_panel.png"))

        # ---- exports of the CLI's files
        d = os.path.join(TMP, "csv")
        os.makedirs(d)
        written = [os.path.basename(p) for p in export.export_csv(study, d)]
        ref = os.path.join(TMP, "ref.csv")
        output.write_reactions_csv(r, ref)
        check("export_csv", [sorted(written), open(ref).read() ==
                             open(os.path.join(d, "reactions.csv")).read()])
        check("export_plots", sorted(os.path.basename(p) for p in export.export_plots(study, d)))

        # ---- animation of the 3-D view
        shapes = [o for o in doc.Objects if o.isDerivedFrom("Part::Feature")]
        before = {o.Name: (tuple(o.Placement.Base), tuple(o.Placement.Rotation.Q))
                  for o in shapes}
        path, n = export.export_view_animation(study, os.path.join(TMP, "view.gif"), (320, 240),
                                               fps=10)
        after = {o.Name: (tuple(o.Placement.Base), tuple(o.Placement.Rotation.Q))
                 for o in shapes}
        with Image.open(path) as im:
            frames = []
            for k in (0, im.n_frames // 2):
                im.seek(k)
                frames.append(np.asarray(im.convert("RGB"), dtype=int))
            check("gif", [im.n_frames, list(im.size), n, len(video_indices(r, 10)),
                          int(np.abs(frames[0] - frames[1]).max()), before == after])
        # what the export dialog says it will write: real time is one frame per 1/fps s
        check("animation_summary", [export.animation_summary(study, 25),
                                    export.animation_summary(study, 25, 0.1),
                                    export.animation_summary(study, 10, 2.0)])
        path, n = export.export_view_animation(study, os.path.join(TMP, "view.mp4"), (330, 250),
                                               fps=20, speed=2.0)
        check("mp4", [os.path.basename(path), n, len(video_indices(r, 20, 2.0))])

        # ---- the viewer inside FreeCAD
        check("viewer_available", viewer.available(interactive=True))
        from SimPhantWorkbench.results_gui.viewer import open_viewer
        win = open_viewer(study, parent=mw)
        # a window of its own (a child window would stay above FreeCAD), closed with it
        check("viewer_own_window", [win.parent() is None, bool(
            int(win.windowFlags()) & int(QtCore.Qt.WindowStaysOnTopHint))])
        win.resize(900, 640)
        FreeCADGui.updateGui()
        win.set_time(0.5)
        M = np.asarray(win.renderer.actors["Crank"].user_matrix)
        check("viewer_pose", float(np.abs(M[:3, 3] - r.position(ckey)[win.index]).max()))
        check("viewer_colours", {m.label: m.color for m in win.scene.meshes})
        from SimPhantWorkbench.document.scene import document_colors
        check("shown_colour", [document_colors(study).get(crank.ShapeObject.Name),
                               int(FreeCAD.Version()[0])])
        if SHOTS:
            win.trails_box.setChecked(True)
            win.pick_body(ckey)
            win.reset_camera()
            FreeCADGui.updateGui()
            win.snapshot(os.path.join(SHOTS, "viewer.png"))
        win.close()
        # left open: FreeCAD closing closes it (else FreeCAD would not exit and this
        # test would time out)
        open_viewer(study, parent=mw)

        # ---- a reopened document plots its stored result without solving again
        saved = os.path.join(TMP, "reopened.FCStd")
        doc.saveAs(saved)
        FreeCAD.closeDocument(doc.Name)
        doc = FreeCAD.openDocument(saved)
        study = [o for o in doc.Objects if is_type(o, "SimPhant::Study")][0]
        p3 = plot_panel.PlotPanel(study)
        p3.select("reaction_force", ["CrankPin"], ["x", "y", "z"], units="SI")
        check("reopened", bool(np.array_equal(np.column_stack([l.get_ydata() for l in p3.lines]),
                                              F)))
        p3.deleteLater()

        # ---- without PyVista: the viewer command is disabled, says how to install it
        sys.modules["pyvista"] = None
        sys.modules["pyvistaqt"] = None
        viewer._forget()
        cmd = rc.COMMANDS["SimPhant_ResultsViewer"]
        check("no_pyvista", [cmd.IsActive(), cmd.GetResources()["ToolTip"],
                             {n: rc.COMMANDS[n].IsActive() for n in names
                              if n != "SimPhant_ResultsViewer"}])
        p2 = plot_panel.PlotPanel(study)
        p2.select("reaction_force", ["CrankPin"], ["x"])
        check("no_pyvista_plot", bool(np.array_equal(p2.lines[0].get_ydata(), F[:, 0])))
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    res, _proc = run_gui_script(tmp_path_factory.mktemp("results_gui"), "results_gui", SCRIPT)
    assert "error" not in res, res["error"]
    return res


def test_commands_are_active_with_a_result(gui):
    assert gui["commands"] == ["SimPhant_PlotResults", "SimPhant_ResultsViewer",
                               "SimPhant_CheckInterference", "SimPhant_ExportResultsCSV", "SimPhant_ExportResultPlots",
                               "SimPhant_ExportAnimation"]
    assert gui["active_before_run"] is False
    assert all(gui["active_after_run"].values()), gui["active_after_run"]


def test_plot_panel_draws_the_reaction_force_of_the_result(gui):
    assert gui["from_selection"][0] == "reaction_force"       # the selected joint's quantity
    assert gui["from_selection"][1] == ["CrankPin"]
    assert gui["force_equal"] == [True, True, True] and gui["force_time"]
    assert gui["force_magnitude"] < 1e-12
    ylabel, xlabel, legend = gui["force_labels"]
    assert ylabel == "reaction force on body 2, world axes [N]" and xlabel == "time [s]"
    assert legend == ["CrankPin x", "CrankPin y", "CrankPin z", "CrankPin magnitude"]


def test_reaction_in_the_joint_frame_is_the_world_force_turned(gui):
    norm_diff, component_diff = gui["joint_frame"]
    assert norm_diff < 1e-9 and component_diff > 1e-3
    assert gui["joint_frame_exact"] < 1e-12


def test_unit_switching_changes_labels_and_scales(gui):
    lab_si, lab_mm, diff = gui["units"]
    assert lab_si == "CoG position [m]" and lab_mm == "CoG position [mm]" and diff < 1e-12
    lab_rad, lab_pref, diff = gui["angles"]
    assert lab_rad.endswith("[rad]") and lab_pref.endswith("[deg]") and diff < 1e-9
    item, label = gui["preference_mks"]
    assert item == "Preferences (m, deg)" and label == "CoG velocity [m/s]"


def test_picked_vertex_is_followed_on_its_body(gui):
    label, quantity, start_error, curve_error = gui["vertex"]
    assert label == "Crank Vertex1" and quantity == "point_position"
    assert start_error < 1e-9 and curve_error < 1e-12       # [mm] (units: preferences)


def test_energy_cursor_and_clicks(gui):
    assert gui["energy"] == [3, True]
    assert gui["cursor"] == [0.5, 0.5]
    got, emitted, cursor = gui["click"]
    assert got == emitted and len(got) == 1 and got[0] == pytest.approx(0.7, abs=0.01)
    assert cursor == [got[0], got[0]]
    assert gui["click_shows_frame"] is True        # the document shows the frame clicked
    cursor_follows, shown, nearest = gui["timeline"]
    assert cursor_follows is True                  # playback frame -> cursor line
    assert shown == nearest and shown != 0.0       # click -> the timeline's frame
    assert gui["in_workbench"] is True             # the workbench registers the commands


def test_a_reopened_document_plots_its_stored_result(gui):
    assert gui["reopened"] is True


def test_plot_exports(gui):
    header, forces_equal, time_equal = gui["csv"]
    assert header == ["time [s]", "CrankPin x [N]", "CrankPin y [N]", "CrankPin z [N]",
                      "CrankPin magnitude [N]"]
    assert forces_equal and time_equal
    assert gui["png"] == [800, 500] and gui["svg"] == 1


def test_gui_exports_write_the_cli_files(gui):
    names, same = gui["export_csv"]
    assert names == ["body_ConnectingRod.csv", "body_Crank.csv", "body_Slider.csv",
                     "energy.csv", "joints.csv", "reactions.csv"] and same
    assert gui["export_plots"] == ["energy.png", "joints.png", "positions.png", "reactions.png"]


def test_view_animation_has_the_frames_and_size_and_puts_the_parts_back(gui):
    frames, size, n, expected, motion, restored = gui["gif"]
    assert frames == n == expected == 11 and size == [320, 240]
    assert motion > 60 and restored
    name, n, expected = gui["mp4"]
    assert name == "view.mp4" and n == expected == 11
    # 1 s of motion: at real time 25 fps is 26 frames (one each 40 ms, both ends), ten
    # times slower 251, twice as fast at 10 fps 6
    assert gui["animation_summary"] == [
        "26 frames, 1.04 s of video for 1 s of motion",
        "251 frames, 10 s of video for 1 s of motion",
        "6 frames, 0.6 s of video for 1 s of motion"]


def test_viewer_opens_inside_freecad_with_the_document_colours(gui):
    assert gui["viewer_available"] is True
    assert gui["viewer_own_window"] == [True, False]     # FreeCAD can come in front of it
    assert gui["viewer_pose"] < 1e-12
    shown, major = gui["shown_colour"]
    assert gui["viewer_colours"]["Crank"] == shown           # the colour FreeCAD shows
    if major == 0:
        # FreeCAD 0.20 shows the file's ShapeColor; 1.x takes a ShapeAppearance instead and
        # shows its own default for these documents (a ShapeColor only), as the viewer does
        assert shown == "#1f77b4"


def test_without_pyvista_the_viewer_command_is_disabled_and_the_rest_works(gui):
    active, tooltip, others = gui["no_pyvista"]
    assert active is False
    assert "Not available" in tooltip and "make setup" in tooltip and "pyvista" in tooltip
    assert all(others.values()), others
    assert gui["no_pyvista_plot"] is True
