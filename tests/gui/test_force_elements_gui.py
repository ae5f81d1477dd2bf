"""Force-element commands in the real FreeCAD GUI (under Xvfb): one command per registry
kind, in the SimPhant menu; a spring added with its command from two picked points and
a joint spring from a picked joint, with the kind's tree icon, then run."""
import textwrap

import pytest

from freecad_gui import ARM_ON_PIN, run_gui_script

SCRIPT = textwrap.dedent('''
    import json, os, traceback
    import FreeCAD, FreeCADGui
    R = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import factory, runner
        from SimPhantWorkbench.gui import common
        from SimPhantWorkbench.document.base import study_members
        from SimPhantWorkbench.solver.forces import FORCE_TYPES
        common.message_hook = lambda kind, title, text: R.setdefault("messages", []).append(text)
        doc = FreeCAD.newDocument("ForceGui")
        base = doc.addObject("Part::Box", "Base")
        rod = doc.addObject("Part::Cylinder", "Rod")
        rod.Radius, rod.Height = 5, 200
        # the rod's top face centre on the box's corner Vertex1: assembled as given
        rod.Placement = FreeCAD.Placement(FreeCAD.Vector(0, 0, -200), FreeCAD.Rotation())
        doc.recompute()
        study = factory.make_study(doc)
        study.EndTime = 0.1
        common.set_active_study(study)
        factory.make_body(study, base, fixed=True)
        factory.make_body(study, rod)
        top = [i for i, f in enumerate(rod.Shape.Faces, 1)
               if f.Surface.__class__.__name__ == "Plane" and abs(f.CenterOfMass.z) < 1e-6][0]
        bottom = [i for i, f in enumerate(rod.Shape.Faces, 1)
                  if f.Surface.__class__.__name__ == "Plane" and f.CenterOfMass.z < -100][0]
        origin = [i for i, v in enumerate(base.Shape.Vertexes, 1) if v.Point.Length < 1e-9][0]
        hinge = factory.make_joint(study, "spherical", (base, "Vertex%d" % origin),
                                   (rod, "Face%d" % top),
                                   name="Ball")
        menu = FreeCADGui.getWorkbench("SimPhantWorkbench")
        R["commands"] = [k for k in FORCE_TYPES
                         if ("SimPhant_Force_" + k) in FreeCADGui.listCommands()]
        # a spring from two picked points
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(doc.Name, base.Name, "Vertex8")
        FreeCADGui.Selection.addSelection(doc.Name, rod.Name, "Face%d" % bottom)
        FreeCADGui.runCommand("SimPhant_Force_spring_damper")
        FreeCADGui.updateGui()
        els = study_members(study, "SimPhant::ForceElement")
        R["spring_added"] = [e.Kind for e in els]
        if els:
            R["icon"] = os.path.basename(els[0].ViewObject.Proxy.getIcon())
            R["selected"] = [o.Name for o in FreeCADGui.Selection.getSelection()] == [els[0].Name]
            # its task panel is open: a wrong unit is refused, a right one written on OK
            from SimPhantWorkbench.taskpanels.widgets import PropertyPanel
            panel = PropertyPanel.current
            R["panel_open"] = bool(FreeCADGui.Control.activeDialog())
            panel.fields["Stiffness"].setText("2 N*s/mm")
            R["panel_bad"] = panel.status.text()
            R["bad_accepted"] = panel.accept()
            panel.fields["Stiffness"].setText("2 N/mm")
            R["panel_good"] = panel.status.text()
            R["good_accepted"] = panel.accept()
            FreeCADGui.updateGui()
            R["stiffness"] = els[0].Stiffness
            R["panel_closed"] = not FreeCADGui.Control.activeDialog()
            vp = els[0].ViewObject.Proxy
            vp.refresh()
            R["spring_line"] = [m.visible for m in vp.markers]
            R["line_points"] = vp.markers[0].coords.point.getNum() if vp.markers else 0
        # a joint spring on a spherical joint: refused, nothing added
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(hinge)
        FreeCADGui.runCommand("SimPhant_Force_joint_spring")
        FreeCADGui.updateGui()
        R["after_refusal"] = len(study_members(study, "SimPhant::ForceElement"))
        from SimPhantWorkbench.commands.cmd_run import check_report
        R["check"] = list(check_report(study))
        r = runner.run_study(study)
        R["force_names"] = list(r.force_names)
        R["force0"] = float(r.spring_force(r.force_names[0])[0]) if r.force_names else None
    except Exception:
        R["error"] = traceback.format_exc()
    finally:
        finish(R)
''')


@pytest.mark.slow
def test_force_element_commands_create_elements(tmp_path):
    R, proc = run_gui_script(tmp_path, "force_gui", SCRIPT)
    assert "error" not in R, R.get("error")
    from SimPhantWorkbench.solver.forces import FORCE_TYPES
    assert R["commands"] == list(FORCE_TYPES)
    assert R["spring_added"] == ["spring_damper"]
    assert R["icon"] == "Spring.svg" and R["selected"]
    assert R["panel_open"] and "wrong unit" in R["panel_bad"] and R["bad_accepted"] is False
    assert R["panel_good"] == "OK" and R["good_accepted"] and R["panel_closed"]
    assert R["stiffness"] == "2 N/mm"
    assert R["spring_line"] == [True] and R["line_points"] > 10       # the zigzag drawn
    assert R["after_refusal"] == 1
    assert any("'Ball' (spherical)" in m for m in R.get("messages", []))
    assert len(R["force_names"]) == 1
    assert any(line.startswith("Elements: ") and "(spring-damper)" in line
               for line in R["check"]), R["check"]
    assert R["force0"] == pytest.approx(0.0, abs=1e-9)     # free length = initial distance


STOP_SCRIPT = ARM_ON_PIN + textwrap.dedent('''
    import json, traceback
    import FreeCAD, FreeCADGui
    R = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import factory, runner
        from SimPhantWorkbench.gui import common
        from SimPhantWorkbench.document.base import study_members
        common.message_hook = lambda kind, title, text: R.setdefault("messages", []).append(text)
        doc, study, hinge = arm_on_pin("StopGui")
        common.set_active_study(study)
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(hinge)
        FreeCADGui.runCommand("SimPhant_Force_joint_stop")
        FreeCADGui.updateGui()
        (el,) = study_members(study, "SimPhant::ForceElement")
        R["start"] = [el.Kind, el.EnableLower, el.Lower, el.EnableUpper, el.Upper, el.Stiffness]
        from SimPhantWorkbench.taskpanels.widgets import PropertyPanel
        panel = PropertyPanel.current
        R["fields"] = sorted(panel.fields)
        panel.switches["EnableLower"].setChecked(False)
        panel.switches["EnableUpper"].setChecked(False)
        R["no_limit"] = panel.status.text()
        R["no_limit_accepted"] = panel.accept()
        panel.switches["EnableLower"].setChecked(True)
        panel.switches["EnableUpper"].setChecked(True)
        panel.fields["Lower"].setText("-20 deg")
        panel.fields["Upper"].setText("20 deg")
        panel.fields["Exponent"].setValue(1.0)
        panel.fields["Penetration"].setText("3 N")
        R["bad_penetration"] = panel.status.text()
        panel.fields["Penetration"].setText("0.2 deg")
        panel.law.setCurrentIndex(panel.law.findData("impulsive"))
        panel.fields["Restitution"].setValue(0.4)
        panel.fields["RestSpeed"].setText("2 N")
        R["bad_rest_speed"] = panel.status.text()
        panel.fields["RestSpeed"].setText("0.5 deg/s")
        R["good"] = panel.status.text()
        R["accepted"] = panel.accept()
        FreeCADGui.updateGui()
        R["after"] = [el.EnableLower, el.Lower, el.EnableUpper, el.Upper, el.Exponent,
                      el.Penetration, el.Law, el.Restitution, el.RestSpeed]
        r = runner.run_study(study)
        R["events"] = [e["element"] for e in r.stop_events()]
        R["rebounds"] = [e["rebound"] / e["speed"] for e in r.stop_events()]
        R["max_angle"] = float(abs(r.spring_length(r.force_names[0])).max())
    except Exception:
        R["error"] = traceback.format_exc()
    finally:
        finish(R)
''')


@pytest.mark.slow
def test_end_stop_command_and_panel(tmp_path):
    """The End stop command on a picked hinge starts with limits at -90/+90 deg; its panel
    switches limits on and off (none is refused), takes the exponent and penetration with
    units (a wrong unit refused), the impulsive law with its restitution and rest speed,
    and writes them on OK; the arm falling from horizontal is stopped at about 20 deg
    (whichever way its joint angle counts), rebounding with 0.4 of its speed."""
    R, proc = run_gui_script(tmp_path, "stop_gui", STOP_SCRIPT)
    assert "error" not in R, R.get("error")
    assert R["start"] == ["joint_stop", True, "-90.0 deg", True, "90.0 deg",
                          "1000.0 N*mm/deg"]
    assert {"Lower", "Upper", "Exponent", "Penetration", "Stiffness",
            "Damping"} <= set(R["fields"]) and "StiffnessTable" not in R["fields"]
    assert "lower or an upper limit" in R["no_limit"] and R["no_limit_accepted"] is False
    assert "wrong unit" in R["bad_penetration"]
    assert "RestSpeed" in R["bad_rest_speed"] and "wrong unit" in R["bad_rest_speed"]
    assert {"Restitution", "RestSpeed"} <= set(R["fields"])
    assert R["good"] == "OK" and R["accepted"]
    assert R["after"] == [True, "-20 deg", True, "20 deg", 1.0, "0.2 deg", "impulsive", 0.4,
                          "0.5 deg/s"]
    assert R["events"] and len(set(R["events"])) == 1
    assert R["rebounds"] == pytest.approx([0.4] * len(R["rebounds"]), rel=1e-9)
    assert 0.349 < R["max_angle"] < 0.5          # past 20 deg only when resting on it


CONTACT_SCRIPT = textwrap.dedent('''
    import json, traceback
    import FreeCAD, FreeCADGui, Part
    R = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import factory, runner
        from SimPhantWorkbench.gui import common
        from SimPhantWorkbench.document.base import study_members
        common.message_hook = lambda kind, title, text: R.setdefault("messages", []).append(text)
        doc = FreeCAD.newDocument("ContactGui")
        ball = doc.addObject("Part::Sphere", "Ball")
        ball.Radius = 10
        ball.Placement.Base = FreeCAD.Vector(0, 0, 10.5)
        plate = doc.addObject("Part::Box", "Plate")
        plate.Length, plate.Width, plate.Height = 100, 100, 10
        plate.Placement.Base = FreeCAD.Vector(-50, -50, -10)
        doc.recompute()
        study = factory.make_study(doc)
        study.EndTime = 0.2
        study.TimeStep = 1e-5
        study.OutputInterval = 1e-3
        common.set_active_study(study)
        factory.make_body(study, plate, fixed=True)
        factory.make_body(study, ball)
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(doc.Name, ball.Name, "Face1")
        FreeCADGui.Selection.addSelection(doc.Name, plate.Name, "Face6")
        FreeCADGui.runCommand("SimPhant_Force_contact")
        FreeCADGui.updateGui()
        (el,) = study_members(study, "SimPhant::ForceElement")
        R["start"] = [el.Kind, el.Stiffness]
        R["icon"] = el.ViewObject.Proxy.getIcon().rsplit("/", 1)[-1]
        from SimPhantWorkbench.taskpanels.widgets import PropertyPanel
        panel = PropertyPanel.current
        R["fields"] = sorted(panel.fields)
        R["seen"] = list(panel.solids_seen)
        panel.fields["FrictionSpeed"].setText("0.01 mm/s")
        R["bad_speeds"] = panel.status.text()
        R["bad_accepted"] = panel.accept()
        panel.fields["FrictionSpeed"].setText("2 mm/s")
        panel.fields["MuStatic"].setValue(0.4)
        panel.fields["MuDynamic"].setValue(0.3)
        panel.fields["Damping"].setText("0.05 N*s/mm")
        panel.fields["Penetration"].setText("0.001 mm")
        panel.contact_law.setCurrentIndex(panel.contact_law.findData("impact"))
        R["good"] = panel.status.text()
        R["accepted"] = panel.accept()
        FreeCADGui.updateGui()
        R["after"] = [el.FrictionSpeed, el.MuStatic, el.MuDynamic, el.Damping, el.Penetration,
                      el.ContactLaw]
        r = runner.run_study(study)
        out = r.contact(r.force_names[0])
        R["final_force"] = [float(x) for x in out["normal_force"][-1]]
        R["weight"] = float(r.masses[0] * abs(r.gravity[2]))
    except Exception:
        R["error"] = traceback.format_exc()
    finally:
        finish(R)
''')


@pytest.mark.slow
def test_contact_command_and_panel(tmp_path):
    """The Contact command on a face of a ball and one of a plate adds a contact between
    their solids (10000 N/mm at 1 mm); its panel refuses a friction speed below the
    stiction speed and writes friction and damping on OK; the ball dropped 0.5 mm comes to
    rest on the plate, which carries its weight."""
    R, proc = run_gui_script(tmp_path, "contact_gui", CONTACT_SCRIPT)
    assert "error" not in R, R.get("error")
    assert R["start"] == ["contact", "10000.0 N/mm"] and R["icon"] == "Contact.svg"
    assert {"Stiffness", "Damping", "Exponent", "Penetration", "MuStatic", "MuDynamic",
            "StictionSpeed", "FrictionSpeed", "SampleSpacing", "Deflection"} <= set(R["fields"])
    assert R["seen"] == ["Ball: sphere, radius 10 mm", "Plate: convex hull of its tessellation"]
    assert "friction_speed" in R["bad_speeds"] and R["bad_accepted"] is False
    assert R["good"] == "OK" and R["accepted"]
    assert R["after"] == ["2 mm/s", 0.4, 0.3, "0.05 N*s/mm", "0.001 mm", "impact"]
    assert R["final_force"][:2] == pytest.approx([0, 0], abs=1e-6)
    assert R["final_force"][2] == pytest.approx(R["weight"], rel=1e-3)
