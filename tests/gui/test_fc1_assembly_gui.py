"""FreeCAD 1.x GUI (under Xvfb): an Assembly made by FreeCAD's Assembly workbench opens with
the SimPhant workbench active, imports into a study, runs, saves, and reopens with every
object, the Assembly's joints and the study's result."""
import os
import shutil
import subprocess
import textwrap

import pytest

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "app", "fixtures")

SCRIPT = textwrap.dedent('''
    import traceback
    import FreeCAD, FreeCADGui
    out = open(OUT, "w")
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import runner
        from SimPhantWorkbench.document import inventory
        from SimPhantWorkbench.assembly_import import import_assembly
        before = inventory.file_inventory(MODEL)
        doc = FreeCAD.openDocument(MODEL)
        out.write("lost_on_open=%d\\n" % len(inventory.lost_objects(before, doc)))
        report = import_assembly(doc.getObject("Assembly"), strict=True)
        r = runner.run_study(report.study, t_end=0.2, dt=1e-3, output_dt=0.01)
        out.write("samples=%d\\n" % len(r.t))
        view = FreeCADGui.getDocument(doc.Name).activeView()
        for obj in doc.Objects:     # saved headless, the parts and the Assembly are hidden
            if obj.TypeId.startswith("Part::") or obj.TypeId == "Assembly::AssemblyObject":
                obj.Visibility = True
        view.viewIsometric()
        view.fitAll()
        FreeCADGui.updateGui()
        view.saveImage(IMAGE, 640, 480, "White")
        doc.save()
        FreeCAD.closeDocument(doc.Name)
        doc = FreeCAD.openDocument(MODEL)
        out.write("lost_on_reopen=%d\\n" % len(inventory.lost_objects(before, doc)))
        joints = [o for o in doc.Objects if type(getattr(o, "Proxy", None)).__module__
                  == "JointObject" and hasattr(o, "JointType")]     # the Assembly's joints
        out.write("joints=%s\\n" % ",".join(sorted("%s:%s:%s" % (
            o.Label, o.JointType, type(o.Proxy).__name__) for o in joints)))
        study = next(o for o in doc.Objects if o.Name.startswith("Study"))
        out.write("stored=%d\\n" % len(runner.get_result(study).t))
    except Exception:
        out.write("error=" + traceback.format_exc().replace("\\n", " | ") + "\\n")
    finally:
        out.close()
        for name in list(FreeCAD.listDocuments()):
            FreeCAD.closeDocument(name)
        FreeCADGui.getMainWindow().close()
''')


@pytest.mark.fc1
def test_assembly_document_imports_runs_and_keeps_every_object_in_the_gui(tmp_path):
    assert shutil.which("xvfb-run"), "xvfb-run is missing (make setup installs xvfb)"
    model = tmp_path / "slider_crank.FCStd"
    shutil.copy(os.path.join(FIXTURES, "fc1_slider_crank.FCStd"), model)
    out, image = tmp_path / "result.txt", tmp_path / "view.png"
    script = tmp_path / "gui_assembly.py"
    script.write_text("OUT, MODEL, IMAGE = %r, %r, %r\n" % (str(out), str(model), str(image))
                      + SCRIPT)
    env = dict(os.environ, QTWEBENGINE_DISABLE_SANDBOX="1")
    env.pop("PYTHONPATH", None)          # FreeCAD's own environment only
    proc = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "freecad",
                           str(script)], cwd=str(tmp_path), env=env, capture_output=True,
                          text=True, timeout=600)
    assert out.exists(), proc.stdout[-2000:] + proc.stderr[-2000:]
    res = dict(line.split("=", 1) for line in out.read_text().splitlines())
    assert "error" not in res, res.get("error")
    assert res["lost_on_open"] == "0" and res["lost_on_reopen"] == "0"
    assert int(res["samples"]) == 21 and res["stored"] == "21"
    assert res["joints"] == ("CrankPin:Revolute:Joint,CrankPivot:Revolute:Joint,"
                             "SliderGuide:Slider:Joint,WristPin:Revolute:Joint")
    if os.environ.get("SIMPHANT_GUI_IMAGE"):
        shutil.copy(image, os.environ["SIMPHANT_GUI_IMAGE"])
    from PIL import Image
    pixels = Image.open(image).convert("L")
    assert pixels.size == (640, 480)
    dark = sum(1 for v in pixels.getdata() if v < 200)
    assert dark > 0.01 * 640 * 480, "the parts are not drawn"
