"""The Check interference command in the real FreeCAD GUI (under Xvfb): on a bar driven
about a pin into a fixed block (``tests/app/test_interference.py``'s model) it is greyed
out before a run, then lists the pairs (the interval of interference with its closed-form
ends, the wall's smallest clearance, the pairs left out) with the Report view's lines, and
shows the first contact: the bodies at the output frame nearest to it, the two
bodies selected; a double click on another row shows its instant; a second check
replaces the panel.

Set SIMPHANT_SCREENSHOT_DIR=DIR to keep the screenshot of the panel in DIR."""
import textwrap

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
        from test_interference import swinging_bar, contact_times
        from SimPhantWorkbench import runner, playback
        from SimPhantWorkbench.commands import results_commands as rc
        from SimPhantWorkbench.results_gui import interference as gi
        from SimPhantWorkbench.gui import common
        seen = []
        common.message_hook = lambda kind, title, text: seen.append([kind, title, text])
        doc = FreeCAD.newDocument("Swing")
        study = swinging_bar(doc)
        FreeCADGui.updateGui()
        FreeCADGui.SendMsgToActiveView("ViewFit")
        rc.register()
        FreeCADGui.Selection.clearSelection()
        res["active_before_run"] = FreeCADGui.isCommandActive("SimPhant_CheckInterference")
        runner.run_study(study)
        FreeCADGui.updateGui()
        res["active_after_run"] = rc.COMMANDS["SimPhant_CheckInterference"].IsActive()
        FreeCADGui.runCommand("SimPhant_CheckInterference")
        for _ in range(5):
            FreeCADGui.updateGui()
        if not gi.panels(study):
            raise RuntimeError("no panel; messages: %r" % seen)
        panel = gi.panels(study)[-1]
        res["messages"] = seen
        res["rows"] = panel.rows()
        res["lines"] = gi.report_lines(panel.check)
        res["start_end"] = list(contact_times())
        bar = doc.getObject("BarShape")

        def same(a, b):
            return max(abs(x - y) for x, y in zip(a.toMatrix().A, b.toMatrix().A)) < 1e-9

        t0 = panel.check.interfering()[0].first_contact
        expect = playback.frame_placements(study, float(t0))[bar]
        res["shown_first_contact"] = same(bar.Placement, expect)
        res["frame_of_first_contact"] = playback.frame_index(runner.get_result(study), float(t0))
        res["selected"] = sorted(o.Name for o in FreeCADGui.Selection.getSelection())
        if SHOTS:
            mw.grab().save(os.path.join(SHOTS, "interference_panel.png"))
        mw.grab().save(os.path.join(TMP, "interference_panel.png"))
        # the wall's row: its smallest clearance's instant
        row = [r[:3] for r in res["rows"]].index(["Wall", "Bar", "clear"])
        panel.table.cellDoubleClicked.emit(row, 0)
        FreeCADGui.updateGui()
        wall = panel.check.pair("Wall", "Bar")
        res["shown_wall"] = same(
            bar.Placement, playback.frame_placements(study, float(wall.time_of_min))[bar])
        res["selected_wall"] = sorted(o.Name for o in FreeCADGui.Selection.getSelection())
        left_out = [r[:3] for r in res["rows"]].index(["Pin", "Bar", "left out: joint Hinge"])
        res["left_out_shows"] = panel.show_row(left_out)
        # a second check replaces the panel
        gi.check_interference(study, show=False)
        FreeCADGui.updateGui()
        res["panels"] = len(gi.panels(study))
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    pytest.importorskip("fcl", reason="python-fcl (the interference checks) is not installed")
    tmp = tmp_path_factory.mktemp("interference_gui")
    res, _proc = run_gui_script(tmp, "interference_gui", SCRIPT)
    assert "error" not in res, res["error"]
    res["tmp"] = str(tmp)
    return res


def test_the_command_is_active_only_with_a_result(gui):
    assert gui["active_before_run"] is False
    assert gui["active_after_run"] is True


def test_the_panel_lists_the_interval_the_clearance_and_the_pairs_left_out(gui):
    rows = gui["rows"]
    start, end = gui["start_end"]
    first = rows[0]
    assert first[:3] == ["Block", "Bar", "interference"]
    assert float(first[3]) == pytest.approx(start, abs=2e-3)
    assert float(first[4]) == pytest.approx(end, abs=2e-3)
    assert float(first[5]) > 5.0                                 # mm
    wall = next(r for r in rows if r[:2] == ["Wall", "Bar"])
    assert wall[2] == "clear" and float(wall[7]) == pytest.approx(1.0, abs=0.25)
    left_out = sorted(r[2] for r in rows if r[2].startswith("left out"))
    assert left_out == ["left out: both fixed"] * 3 + ["left out: joint Hinge"]
    assert len(rows) == 6
    assert gui["lines"][0].startswith("Interference: 2 pairs checked, 4 left out")
    assert gui["lines"][1].startswith("  Block - Bar interfere from %.4g s to %.4g s"
                                      % (start, end))


def test_the_first_contact_is_shown_and_its_bodies_selected(gui):
    assert gui["shown_first_contact"]
    assert gui["frame_of_first_contact"] == 1                   # 0.25 s, nearest to 0.307
    assert gui["selected"] == ["BarShape", "BlockShape"]
    assert gui["shown_wall"] and gui["selected_wall"] == ["BarShape", "WallShape"]
    assert gui["left_out_shows"] is None
    assert gui["panels"] == 1
    assert gui["messages"] == []
