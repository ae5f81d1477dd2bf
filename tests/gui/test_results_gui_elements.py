"""Force elements and drivers in the results GUI (real FreeCAD under Xvfb): the plot panel
lists them as targets, "From selection" of a spring switches to its force, the spring's
force and the motor's effort and power are exactly the stored result's, in the units of
their kinds; the GUI exports write the CLI's files (joints, forces, drivers and their
plots included) with the same contents."""
import textwrap

import pytest

from freecad_gui import run_gui_script

SCRIPT = textwrap.dedent('''
    import json, os, traceback
    import numpy as np
    import FreeCAD, FreeCADGui
    res = {}
    def check(name, value):
        res[name] = value
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import factory, output, runner
        from SimPhantWorkbench.document.base import is_type
        from SimPhantWorkbench.results_gui import plot_panel, export
        doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "driven_slider_crank.FCStd"))
        FreeCADGui.updateGui()
        study = [o for o in doc.Objects if is_type(o, "SimPhant::Study")][0]
        motor = [o for o in study.Group if o.Label == "Motor"][0]
        guide = [o for o in study.Group if o.Label == "SliderGuide"][0]
        pin = [o for o in study.Group if o.Label == "CrankPin"][0]
        spring = factory.make_joint_spring(study, guide, stiffness="0.5 N/mm", dof="translation",
                                           name="ReturnSpring")
        torsion = factory.make_joint_spring(study, pin, stiffness="20 N*mm/deg", name="PinSpring")
        r = runner.run_study(study, t_end=0.5)
        check("names", [r.force_names, r.driver_names])
        # ---- from selection: the spring's force
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(spring)
        panel = plot_panel.open_plot_panel(study)
        panel.select_from_gui()
        check("from_selection", [panel.quantity, [t.label for t in panel.selected_targets()]])
        listed = [panel.object_list.item(i).text() for i in range(panel.object_list.count())]
        check("listed_elements", listed)
        curves = panel.select("element_force", [spring], units="mm, deg")
        check("spring_force", [bool(np.array_equal(panel.lines[0].get_ydata(),
                                                   r.spring_force("ReturnSpring"))),
                               float(np.abs(r.spring_force("ReturnSpring")).max()),
                               curves[0].unit, panel.axes.get_ylabel()])
        curves = panel.select("element_force", [torsion], units="mm, deg")
        check("torsion_moment", [bool(np.allclose(panel.lines[0].get_ydata(),
                                                  1e3 * r.spring_force("PinSpring"))),
                                 curves[0].unit])
        # ---- the motor's effort and power
        curves = panel.select("driver_effort", [motor], units="SI")
        listed = [panel.object_list.item(i).text() for i in range(panel.object_list.count())]
        check("driver_effort", [listed, [c.label for c in curves], curves[0].unit,
                                bool(np.array_equal(panel.lines[0].get_ydata(),
                                                    r.driver_effort("Motor"))),
                                float(np.abs(r.driver_effort("Motor")).max())])
        curves = panel.select("driver_power", [motor], units="SI")
        check("driver_power", [curves[0].unit, bool(np.array_equal(panel.lines[0].get_ydata(),
                                                                   r.driver_power("Motor")))])
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(motor)
        panel.select("position")
        panel.select_from_gui()
        check("motor_from_selection", [panel.quantity,
                                       [t.label for t in panel.selected_targets()]])
        # ---- GUI exports = the CLI's files
        gui_dir, cli_dir = os.path.join(TMP, "gui"), os.path.join(TMP, "cli")
        os.makedirs(gui_dir)
        os.makedirs(cli_dir)
        written = [os.path.basename(p) for p in export.export_csv(study, gui_dir)]
        written += [os.path.basename(p) for p in export.export_plots(study, gui_dir)]
        cli = output.write_all(r, cli_dir)
        same = all(open(os.path.join(gui_dir, n), "rb").read() ==
                   open(os.path.join(cli_dir, n), "rb").read() for n in cli if n.endswith(".csv"))
        check("exports", [sorted(written), sorted(cli), same])
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    res, _proc = run_gui_script(tmp_path_factory.mktemp("results_gui_elements"),
                                "results_gui_elements", SCRIPT)
    assert "error" not in res, res["error"]
    return res


def test_the_panel_lists_force_elements_and_drivers(gui):
    assert gui["names"] == [["ReturnSpring", "PinSpring"], ["Motor"]]
    assert gui["from_selection"] == ["element_force", ["ReturnSpring"]]
    assert gui["listed_elements"] == ["Force element: ReturnSpring", "Force element: PinSpring"]
    assert gui["motor_from_selection"] == ["driver_effort", ["Motor"]]


def test_spring_force_and_moment_are_the_results(gui):
    equal, peak, unit, ylabel = gui["spring_force"]
    assert equal and peak > 1e-3 and unit == "N" and ylabel.endswith("[N]")
    assert gui["torsion_moment"] == [True, "N mm"]


def test_driver_effort_and_power_are_the_results(gui):
    listed, labels, unit, equal, peak = gui["driver_effort"]
    assert listed == ["Driver: Motor"] and labels == ["Motor effort"] and unit == "N m"
    assert equal and peak > 1e-3
    assert gui["driver_power"] == ["W", True]


def test_gui_exports_write_the_cli_files(gui):
    written, cli, same = gui["exports"]
    assert written == cli and same
    assert {"joints.csv", "forces.csv", "drivers.csv", "joints.png", "forces.png",
            "drivers.png"} <= set(written)
