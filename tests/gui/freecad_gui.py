"""Run a test script in the real FreeCAD GUI under Xvfb and read back what it recorded.

The script gets ``OUT`` (the JSON file it must write), ``TMP``, ``ROOT`` and ``SHOTS``
(``$SIMPHANT_SCREENSHOT_DIR``: where to keep screenshots, or "") defined before its text,
and two functions for its ``finally:`` block: ``close_gui()`` closes every document
(unsaved: the window would ask) and the main window; ``finish(res)`` writes ``res`` to
``OUT`` as JSON and then closes the GUI.
"""
import json
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


_HELPERS = """
def _this_checkout():
    # the GUI loads the workbench from FreeCAD's user Mod folder, where `make setup` links
    # a checkout: it must be the one under test
    import os, json, SimPhantWorkbench
    here = os.path.realpath(os.path.dirname(SimPhantWorkbench.__file__))
    if here != os.path.realpath(os.path.join(PACKAGE_ROOT, "SimPhantWorkbench")):
        with open(OUT, "w") as fh:
            json.dump({"error": "the GUI loaded SimPhantWorkbench from %s, not from the "
                                "checkout under test %s (run make setup there)"
                                % (here, PACKAGE_ROOT)}, fh)
        import FreeCADGui
        FreeCADGui.getMainWindow().close()
        raise SystemExit(1)


_this_checkout()


def close_gui():
    import FreeCAD, FreeCADGui
    for name in list(FreeCAD.listDocuments()):
        FreeCAD.closeDocument(name)
    FreeCADGui.getMainWindow().close()


def finish(res):
    import json
    with open(OUT, "w") as fh:
        json.dump(res, fh)
    close_gui()

"""


def run_gui_script(tmp, name, script, env=None, timeout=600, package_root=ROOT):
    """Run ``script`` as ``tmp/name.py`` in ``freecad`` under Xvfb; returns
    ``(results dict, completed process)``. Fails when it wrote no results. ``env``:
    variables to set (e.g. another ``HOME``: a fresh FreeCAD profile); ``package_root``:
    the folder the GUI must load SimPhantWorkbench from (default this checkout)."""
    assert shutil.which("xvfb-run"), "xvfb-run is missing (make setup installs xvfb)"
    out = tmp / "result.json"
    path = tmp / ("%s.py" % name)
    path.write_text("OUT = %r\nTMP = %r\nROOT = %r\nPACKAGE_ROOT = %r\nSHOTS = %r\n"
                    % (str(out), str(tmp), ROOT, str(package_root),
                       os.environ.get("SIMPHANT_SCREENSHOT_DIR", "")) + _HELPERS + script)
    env = dict(os.environ, QTWEBENGINE_DISABLE_SANDBOX="1", **(env or {}))
    env.pop("PYTHONPATH", None)          # FreeCAD's own environment only
    env.pop("DISPLAY", None)
    proc = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "freecad",
                           str(path)], cwd=str(tmp), env=env, capture_output=True,
                          encoding="utf-8", errors="replace", timeout=timeout)
    assert out.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(out.read_text()), proc


#: script text defining ``arm_on_pin(name)``: a document with a fixed pin along y and a
#: 200 mm arm (a box) hinged at its corner on it, released horizontal; returns
#: (document, study, hinge). Scripts prepend it to their own text.
ARM_ON_PIN = """
def arm_on_pin(name):
    import FreeCAD
    from SimPhantWorkbench import factory
    doc = FreeCAD.newDocument(name)
    pin = doc.addObject("Part::Cylinder", "Pin")
    pin.Radius, pin.Height = 2, 20
    pin.Placement = FreeCAD.Placement(FreeCAD.Vector(0, 0, 0),
                                      FreeCAD.Rotation(FreeCAD.Vector(1, 0, 0), -90))
    arm = doc.addObject("Part::Box", "Arm")
    arm.Length, arm.Width, arm.Height = 200, 10, 10
    doc.recompute()
    study = factory.make_study(doc)
    study.EndTime = 1.0
    factory.make_body(study, pin, fixed=True)
    factory.make_body(study, arm)
    edge = [i for i, e in enumerate(pin.Shape.Edges, 1)
            if e.Curve.__class__.__name__ == "Circle" and abs(e.Curve.Center.y) < 1e-6][0]
    corner = [i for i, v in enumerate(arm.Shape.Vertexes, 1) if v.Point.Length < 1e-9][0]
    hinge = factory.make_joint(study, "revolute", (pin, "Edge%d" % edge),
                               (arm, "Vertex%d" % corner), name="Hinge")
    return doc, study, hinge

"""
