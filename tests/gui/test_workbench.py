"""The real FreeCAD GUI (under Xvfb) lists and activates the SimPhant workbench, and
FreeCAD's own Python imports numba (installed in AdditionalPythonPackages) and runs a
motion study from the workbench's modules."""
import os
import shutil
import subprocess
import textwrap

import pytest

SCRIPT = textwrap.dedent('''
    import traceback
    import FreeCAD, FreeCADGui
    out = open(OUT, "w")
    try:
        out.write("listed=%s\\n" % ("SimPhantWorkbench" in FreeCADGui.listWorkbenches()))
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        out.write("active=%s\\n" % FreeCADGui.activeWorkbench().name())
        import numba, SimPhantWorkbench
        out.write("numba=%s\\n" % numba.__version__)
        out.write("package=%s\\n" % SimPhantWorkbench.__file__)
        import Part
        from SimPhantWorkbench import factory, runner
        doc = FreeCAD.newDocument("GuiSmoke")
        base = doc.addObject("Part::Box", "Base")
        rod = doc.addObject("Part::Cylinder", "Rod")
        rod.Radius, rod.Height = 5, 200
        rod.Placement = FreeCAD.Placement(FreeCAD.Vector(5, 5, -200), FreeCAD.Rotation())
        doc.recompute()
        study = factory.make_study(doc)
        study.EndTime = 0.2
        factory.make_body(study, base, fixed=True)
        factory.make_body(study, rod)
        face = [i for i, f in enumerate(rod.Shape.Faces, 1)
                if f.Surface.__class__.__name__ == "Plane" and abs(f.CenterOfMass.z) < 1e-6][0]
        factory.make_joint(study, "spherical", (base, "Vertex1"), (rod, "Face%d" % face))
        r = runner.run_study(study)
        out.write("samples=%d\\n" % len(r.t))
        # no document was open at activation: nothing was prepared but what the solve
        # needed (a spherical joint: block size 3)
        import os, time
        from PySide import QtGui
        from SimPhantWorkbench.gui import kernel_warmup
        from SimPhantWorkbench.solver import warmup
        out.write("kernels=%s\\n" % ",".join(str(b) for b in warmup.ready_sizes()))
        # opening a document queues what its study needs (revolute joints: block size 5)
        FreeCAD.openDocument(os.path.join(os.path.dirname(os.path.dirname(
            SimPhantWorkbench.__file__)), "examples", "slider_crank.FCStd"))
        t0 = time.time()
        while (5 not in warmup.ready_sizes() or not kernel_warmup.idle()) \
                and time.time() - t0 < 400:
            QtGui.QApplication.processEvents()
            time.sleep(0.05)
        out.write("kernels_after_open=%s\\n" % ",".join(str(b) for b in warmup.ready_sizes()))
    except Exception:
        out.write("error=" + traceback.format_exc().replace("\\n", " | ") + "\\n")
    finally:
        out.close()
        for name in list(FreeCAD.listDocuments()):   # unsaved: the window would ask
            FreeCAD.closeDocument(name)
        FreeCADGui.getMainWindow().close()
''')


@pytest.mark.slow
def test_freecad_gui_lists_the_workbench_and_runs_a_study(tmp_path):
    assert shutil.which("xvfb-run"), "xvfb-run is missing (make setup installs xvfb)"
    out = tmp_path / "result.txt"
    script = tmp_path / "gui_smoke.py"
    script.write_text("OUT = %r\n" % str(out) + SCRIPT)
    env = dict(os.environ, QTWEBENGINE_DISABLE_SANDBOX="1")
    env.pop("PYTHONPATH", None)          # FreeCAD's own environment only
    proc = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "freecad",
                           str(script)], cwd=str(tmp_path), env=env, capture_output=True,
                          text=True, timeout=600)
    assert out.exists(), proc.stdout[-2000:] + proc.stderr[-2000:]
    res = dict(line.split("=", 1) for line in out.read_text().splitlines())
    assert "error" not in res, res.get("error")
    assert res["listed"] == "True"
    assert res["active"] == "SimPhantWorkbench"
    assert res["numba"]
    assert int(res["samples"]) > 1
    assert res["kernels"] == "3"
    assert res["kernels_after_open"] == "3,5"
