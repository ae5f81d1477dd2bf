"""Solve in the workbench says what the run warns about, as the command line does: every
warning of the run (``Result.warnings``: a step that distorts the springs' vibrations, joint
residuals above their tolerance, an over-driven mechanism ...) goes to the Report view naming
the study; a step the springs cannot be followed with is the error dialog naming the
frequency, the element and the step that works, and stores nothing."""
import textwrap

from freecad_gui import run_gui_script

SCRIPT = textwrap.dedent('''
    import os, sys, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtGui
    res = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        sys.path.insert(0, os.path.join(ROOT, "tests", "app"))
        from helpers_doc import pendulum
        from SimPhantWorkbench import factory
        from SimPhantWorkbench.document.base import study_result
        from SimPhantWorkbench.gui import common, solve_job
        seen = []
        common.message_hook = lambda kind, title, text: seen.append([kind, title, text])
        report = FreeCADGui.getMainWindow().findChild(QtGui.QDockWidget, "Report view")

        def report_text(needle, wait=20.0):
            """The Report view's text once it holds ``needle``, or after ``wait`` s
            (FreeCAD posts console messages to it as events: under load they arrive
            after the job's end)."""
            import time
            end = time.time() + wait
            while True:
                QtGui.QApplication.processEvents()
                text = "\\n".join(w.toPlainText()
                                  for w in report.findChildren(QtGui.QTextEdit))
                if needle in text or time.time() > end:
                    return text
                time.sleep(0.05)

        for name, stiffness in (("soft", 0.5), ("stiff", 1000.0)):
            doc = FreeCAD.newDocument(name)
            p = pendulum(doc)
            factory.make_joint_spring(p["study"], p["joint"], stiffness=stiffness,
                                      name="Torsion")
            p["study"].Label = "Swing " + name
            p["study"].Integrator = "euler"
            p["study"].EndTime = 1.0
            p["study"].OutputInterval = 0.01
            doc.recompute()
            before = len(seen)
            job = solve_job.start(p["study"], show_dialog=False)
            res[name] = dict(state=job.wait(timeout=300), messages=seen[before:],
                             report=report_text("study '%s': warning" % p["study"].Label,
                                                20.0 if name == "soft" else 0.0),
                             stored=study_result(p["study"]) is not None)
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')

DISTORTED = ("the vibration of 4.653 Hz (undamped) of force element 'Torsion' is unstable by "
             "euler with dt = 0.001 s: its amplitude comes out 1.53 times the true one over "
             "t = 0 .. 1 s; use dt <= 0.00011 s")


def test_solve_reports_the_runs_warnings_and_refuses_a_step_the_springs_cannot_follow(
        tmp_path):
    res, _proc = run_gui_script(tmp_path, "solve_warnings_gui", SCRIPT)
    assert "error" not in res, res["error"]
    soft, stiff = res["soft"], res["stiff"]
    assert soft["state"] == "done" and soft["stored"], soft
    assert soft["messages"] == []
    assert "SimPhant: study 'Swing soft': warning: " + DISTORTED in soft["report"], \
        soft["report"][-2000:]
    assert stiff["state"] == "error" and not stiff["stored"], stiff
    [(kind, title, text)] = stiff["messages"]
    assert kind == "error" and title == "SimPhant: cannot solve"
    assert "208.1 Hz (undamped) of force element 'Torsion' is unstable" in text
    assert "use dt <= 5.7e-08 s" in text
