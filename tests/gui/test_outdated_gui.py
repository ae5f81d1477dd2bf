"""An outdated result in the real FreeCAD GUI (under Xvfb): an edit of the model after a
run turns the Result's tree icon into the outdated one and shows a note in the plot and
playback panels (and the plot's title) once the edits stop; playback frames and labels do
not; undo and a new run clear it. The screenshot is kept in SHOTS as outdated_result.png."""
import textwrap

from freecad_gui import run_gui_script


SCRIPT = textwrap.dedent('''
    import os, shutil, sys, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtGui
    sys.path.insert(0, os.path.join(ROOT, "tests", "gui"))
    from gui_events import pump
    res = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        mw = FreeCADGui.getMainWindow()
        mw.resize(1280, 800)
        from SimPhantWorkbench import runner
        from SimPhantWorkbench.document.base import studies, study_result
        from SimPhantWorkbench.results_gui import plot_panel
        from SimPhantWorkbench.taskpanels import task_playback
        path = os.path.join(TMP, "crank.FCStd")
        shutil.copy(os.path.join(ROOT, "examples", "driven_slider_crank.FCStd"), path)
        doc = FreeCAD.openDocument(path)
        study = studies(doc)[0]
        runner.run_study(study, t_end=0.1)
        res_obj = study_result(study)
        vp = res_obj.ViewObject.Proxy
        panel = plot_panel.open_plot_panel(study)
        pump(1.0)

        def state():
            return dict(outdated=bool(res_obj.Outdated), reason=res_obj.OutdatedReason,
                        icon=os.path.basename(vp.getIcon()),
                        note=panel.outdated_note.text() if not panel.outdated_note.isHidden()
                        else "", title=panel.axes.get_title())
        res["fresh"] = state()
        motor = doc.getObject("Motor")
        speed = motor.Speed
        doc.openTransaction("speed")
        motor.Speed = speed * 2
        doc.commitTransaction()
        pump(1.5)
        res["edited"] = state()
        tl = task_playback.show(study, ask_on_close=False)
        pump(0.5)
        res["playback_note"] = tl.outdated_note.text() if not tl.outdated_note.isHidden() else ""
        mw.grab().save(os.path.join(TMP, "outdated_result.png"))
        if SHOTS:
            mw.grab().save(os.path.join(SHOTS, "outdated_result.png"))
        tl.show_frame(5)
        pump(1.0)
        res["playback_frame"] = state()
        tl.close(keep=False)
        pump(0.5)
        res["undo_names"] = list(doc.UndoNames)
        while "speed" in doc.UndoNames:
            doc.undo()
        pump(1.5)
        res["undone"] = state()
        for o in study.Group:
            o.Label = o.Label + "_x"
        pump(1.5)
        res["renamed"] = state()
        motor.Speed = speed * 3
        pump(1.5)
        res["edited_again"] = state()["outdated"]
        runner.run_study(study, t_end=0.1)
        pump(1.0)
        res["solved"] = state()
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


def test_an_edit_marks_the_result_outdated_in_the_tree_and_the_panels(tmp_path):
    res, proc = run_gui_script(tmp_path, "outdated_gui", SCRIPT)
    assert "error" not in res, res.get("error", "") + proc.stderr[-2000:]
    fresh = res["fresh"]
    assert fresh == dict(outdated=False, reason="", icon="Result.svg", note="",
                         title=fresh["title"]) and "outdated" not in fresh["title"]
    edited = res["edited"]
    assert edited["outdated"] and edited["reason"] == "changed since the run: driver 'Motor'"
    assert edited["icon"] == "ResultOutdated.svg"
    assert "Outdated" in edited["note"] and "driver 'Motor'" in edited["note"]
    assert "(outdated" in edited["title"]
    assert "driver 'Motor'" in res["playback_note"]
    assert res["playback_frame"]["outdated"]            # a frame shown changes nothing
    assert not [n for n in res["undo_names"] if "frame" in n or "playback" in n]   # No
    for key in ("undone", "renamed", "solved"):
        title = res[key].pop("title")
        assert res[key] == dict(outdated=False, reason="", icon="Result.svg", note=""), key
        assert "(outdated" not in title, key
    assert res["edited_again"]
