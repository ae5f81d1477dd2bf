"""An outdated result in the real FreeCAD GUI (under Xvfb): an edit of the model after a
run turns the Result's tree icon into the outdated one and shows a note in the plot and
playback panels (and the plot's title) once the edits stop; playback frames and labels do
not; undo and a new run clear it. Playback and exports of an outdated result ask first
(anyway / Solve again / Cancel); resting the pointer on it puts the reason in the status
bar; a Solve ends with a note beside the work. The screenshot is kept in SHOTS as outdated_result.png."""
import textwrap

import pytest

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
        # ---- playback and export of the outdated result ask first
        from SimPhantWorkbench.gui import outdated, solve_job
        from SimPhantWorkbench.commands import results_commands as rc
        asked, answers, dirs = [], [], []
        outdated.ask_hook = lambda st, action, reason: (asked.append([st.Label, action, reason])
                                                        or answers.pop(0))
        rc._ask_directory = lambda title: dirs.append(title) or ""
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(res_obj)
        prompts = []
        for cmd, answer in (("SimPhant_Playback", outdated.CANCEL),
                            ("SimPhant_ExportResultsCSV", outdated.CANCEL),
                            ("SimPhant_ExportResultsCSV", outdated.ANYWAY),
                            ("SimPhant_Playback", outdated.ANYWAY)):
            answers.append(answer)
            FreeCADGui.runCommand(cmd)
            pump(0.3)
            prompts.append([cmd, answer, len(asked), len(dirs),
                            bool(FreeCADGui.Control.activeDialog())])
        res["prompts"] = prompts
        res["asked"] = asked[0]
        task_playback.TaskPlayback.current.close(keep=False)
        pump(0.3)
        # the reason in the status bar while the pointer rests on the Result
        FreeCADGui.Selection.setPreselection(res_obj)
        pump(0.2)
        res["status_note"] = mw.statusBar().currentMessage()
        FreeCADGui.Selection.clearPreselection()
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
        # "Solve again" starts the solve instead of playing back
        answers.append(outdated.SOLVE)
        n_asked = len(asked)
        FreeCADGui.runCommand("SimPhant_Playback")
        job = solve_job.current_job(study)
        res["solve_again"] = [len(asked) - n_asked, job is not None,
                              job.wait(300) if job is not None else None,
                              bool(FreeCADGui.Control.activeDialog())]
        note = mw.findChild(QtGui.QMessageBox, "SimPhantSolvedNote")
        res["solved_note"] = [note is not None and note.isVisible() and not note.isModal(),
                              note.text() if note is not None else "",
                              mw.statusBar().currentMessage()]
        if note is not None:
            note.close()
        pump(1.0)
        res["solved_by_prompt"] = bool(res_obj.Outdated)
        # a result up to date asks nothing
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(res_obj)
        n_asked, n_dirs = len(asked), len(dirs)
        FreeCADGui.runCommand("SimPhant_ExportResultsCSV")
        res["fresh_export"] = [len(asked) - n_asked, len(dirs) - n_dirs]
        motor.Speed = speed
        runner.run_study(study, t_end=0.1)
        pump(1.0)
        res["solved"] = state()
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    res, proc = run_gui_script(tmp_path_factory.mktemp("outdated"), "outdated_gui", SCRIPT)
    assert "error" not in res, res.get("error", "") + proc.stderr[-2000:]
    return res


def test_an_edit_marks_the_result_outdated_in_the_tree_and_the_panels(gui):
    res = gui
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


def test_playback_and_export_of_an_outdated_result_ask_first(gui):
    res = gui
    # [command, answer, questions so far, folder dialogs so far, panel open]
    assert res["prompts"] == [
        ["SimPhant_Playback", "cancel", 1, 0, False],
        ["SimPhant_ExportResultsCSV", "cancel", 2, 0, False],        # no folder asked
        ["SimPhant_ExportResultsCSV", "anyway", 3, 1, False],
        ["SimPhant_Playback", "anyway", 4, 1, True]]
    label, action, reason = res["asked"]
    assert action == "Play back" and reason == "changed since the run: driver 'Motor'"
    assert "driver 'Motor'" in res["status_note"] and "Outdated" in res["status_note"]
    # Solve again: the solve runs (no playback panel) and the result is up to date
    assert res["solve_again"] == [1, True, "done", False]
    assert res["solved_by_prompt"] is False
    shown, text, status = res["solved_note"]
    assert shown and "solved" in text and "solved" in status
    assert res["fresh_export"] == [0, 1]
