"""The SimPhant workbench driven in the real FreeCAD GUI (under Xvfb), as a user drives it.

``gui_scenarios.py`` runs once in FreeCAD (commands, selections, task panels,
Solve, playback) and records what it saw; each test here checks one part of
it. Screenshots land in the test's temporary directory, or in
``$SIMPHANT_SCREENSHOT_DIR`` (``docs/images`` is made that way).
"""
import json
import math
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    assert shutil.which("xvfb-run"), "xvfb-run is missing (make setup installs xvfb)"
    out = tmp_path_factory.mktemp("gui_workflow")
    env = dict(os.environ, QTWEBENGINE_DISABLE_SANDBOX="1", SIMPHANT_GUI_OUT=str(out))
    env.pop("PYTHONPATH", None)          # FreeCAD's own environment only
    proc = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "freecad",
                           os.path.join(HERE, "gui_scenarios.py")], cwd=str(out), env=env,
                          capture_output=True, text=True, timeout=1500)
    path = out / "results.json"
    assert path.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    res = json.loads(path.read_text())
    res["_dir"] = str(out)
    return res


def ok(gui, step):
    assert step not in gui["errors"], gui["errors"][step]
    assert step in gui["steps_ok"]


def test_workbench_activates_and_lists_every_command(gui):
    ok(gui, "activate")
    assert gui["active_workbench"] == "SimPhantWorkbench"
    from SimPhantWorkbench.solver import JOINT_TYPES
    expected = {"SimPhant_NewStudy", "SimPhant_AddBody", "SimPhant_AddFixedBody",
                "SimPhant_AddForce", "SimPhant_AddTorque", "SimPhant_ImportAssembly",
                "SimPhant_Solve", "SimPhant_Playback", "SimPhant_Reset", "SimPhant_Check",
                "SimPhant_SetActiveStudy", "SimPhant_Joints"}
    expected |= {"SimPhant_Joint_" + k for k in JOINT_TYPES}
    assert expected <= set(gui["commands"])
    assert all(gui["commands"][n] for n in expected), gui["commands"]
    assert "SimPhant_Joints" in gui["toolbars"][0]          # the joint drop-down


def test_every_command_icon_exists_and_is_a_64px_svg(gui):
    from SimPhantWorkbench.solver import JOINT_TYPES
    for name, info in gui["icons"].items():
        assert info["exists"] and info["svg64"], (name, info)
        assert info["menu"] and info["tooltip"], name
    for kind, spec in JOINT_TYPES.items():     # each kind its own drawing, not the fallback
        assert os.path.basename(gui["icons"]["SimPhant_Joint_" + kind]["path"]) == spec.icon


def test_import_assembly_disabled_on_0_20_with_the_reason(gui):
    ok(gui, "other_commands")
    tip = gui["icons"]["SimPhant_ImportAssembly"]["tooltip"]
    if gui["freecad_version"].startswith("0."):
        assert gui["import_active"] is False
        assert "1.0" in tip and "disabled" in tip


def test_study_bodies_active_study_and_tree(gui):
    ok(gui, "new_study")
    ok(gui, "bodies")
    assert gui["study_created"] and gui["study_active_in_view"]
    assert gui["multi_body_added"] == 2 and gui["multi_body_undo_steps"] == 1
    assert gui["after_undo_bodies"] == ["Pin_body", "Arm_body"]
    assert gui["fixed_flags"] == {"Pin_body": True, "Arm_body": False}
    assert gui["tree_icons"] == {"Pin_body": "FixedBody.svg", "Arm_body": "Body.svg"}
    assert len(gui["study_claims"]) == 2


def test_joint_made_through_the_panel_matches_the_factory(gui):
    ok(gui, "joint_panel")
    assert gui["joint_panel_open"]
    assert gui["panel_refs"] == ["Pin.Face1", "Arm.%s" % gui["arm_edge"]]
    assert gui["joint_accepted"] and gui["joint_undo_steps"] == 1
    assert gui["joints_after_panel"] == ["Joint"]
    assert gui["frame1_matches"] and gui["frame2_matches"], (gui["frame_panel"],
                                                             gui["frame_factory"])
    assert gui["joint_tree_icon"] == "Joint_Revolute.svg"


def test_gate_refuses_other_objects_and_says_why(gui):
    assert gui["refused_selected"] is False
    assert "Loose" in gui["refusal_text"] and "not on a body" in gui["refusal_text"]
    assert "Pin_body" in gui["after_first_pick_status"]        # what is still missing


def test_preview_triads(gui):
    assert gui["hover_visible"]
    # hovering the pin's cylinder: a frame on its axis (x = z = 0), z along y
    p = gui["hover_placement"]
    assert abs(p[0]) < 1e-9 and abs(p[2]) < 1e-9
    assert gui["side_triads_visible"] == [True, True]
    assert gui["triad_at_frame"]
    assert 0.05 < gui["triad_size"] / gui["model_size"] < 0.5      # sized from the model


def test_cancel_leaves_the_document_unchanged(gui):
    ok(gui, "joint_cancel")
    assert gui["cancel_panel_ready"] and gui["kind_changed_ready"]
    assert gui["cancel_dialog_closed"]
    assert gui["cancel_same_objects"] and gui["cancel_same_undo"]
    assert gui["cancel_same_content"] in (True, None)
    assert gui["esc_closed"]
    assert gui["gate_removed"]


def test_loads_and_property_panels(gui):
    ok(gui, "loads")
    ok(gui, "panels")
    assert gui["force_created"] and gui["force_panel_ok"] and gui["torque_panel_ok"]
    assert "never closed" in gui["func_error_bad"] or "cannot read" in gui["func_error_bad"]
    assert gui["func_error_good"] == "OK"
    assert gui["force_function"] == "0, 0, -2*sin(2*pi*t)"
    assert gui["force_marker_visible"]
    assert gui["loads"] == ["Force", "Torque"]
    assert "Runge-Kutta" in gui["study_panel_method_hint"]
    assert math.isclose(gui["body_panel_mass"], gui["arm_mass"], rel_tol=1e-3)
    assert gui["no_dialog_after_panels"]


def test_check_reports_bodies_joints_and_dof(gui):
    ok(gui, "check")
    text = gui["check_message"]
    assert "1 moving (Arm_body)" in text and "1 fixed (Pin_body)" in text
    assert "DOF: 1 (Gruebler: 6 x 1 moving bodies - 5 constraint equations)" in text
    assert "Assembly: max |Phi| = " in text
    # the DOF report: mobility from the rank of the constraint Jacobian
    assert "Mobility: 1 (rank of the constraint Jacobian 5 of 5 equations at t = 0)" in text


def test_solve_keeps_the_event_loop_running(gui):
    ok(gui, "solve")
    assert gui["job_started"] and gui["solve_state"] == "done", gui["solve_error"]
    assert gui["solve_returned_after"] < gui["solve_wall"] / 2       # the command returns at once
    assert gui["ticks_during_solve"] >= 5            # the QTimer fired while solving
    assert gui["result_frames"] == 201
    assert gui["placement_unchanged_by_solve"]


def test_playback_moves_placements_and_reset_restores_them_bit_exactly(gui):
    ok(gui, "playback")
    assert gui["playback_open"] and gui["playback_moved"]
    assert gui["triad_follows"] and gui["cog_marker_follows"]
    assert gui["played_frames"] > gui["playback_index"]
    assert gui["undo_steps_during_playback"] <= 1        # not one entry per frame
    assert gui["reset_bit_exact"]
    assert gui["kept_pose_moved"] and gui["undo_steps_after_keep"] == 1
    name, expected = gui["undo_name_after_keep"]
    assert name == expected
    assert gui["reset_command_bit_exact"]
    assert gui["discard_pose_bit_exact"] and gui["discard_closed"] == [True, False]
    # No takes back every frame shown, the first one too, and Reset: no undo entry
    assert gui["discard_leaves_the_undo_history"] == [True, 0, []]
    assert gui["discard_in_an_open_transaction"] == [True, True, True]


def test_editing_a_joint_by_double_click(gui):
    ok(gui, "joint_edit")
    assert gui["edit_panel_joint"] == "Joint"
    assert gui["edit_panel_refs"] == gui["panel_refs"]
    assert gui["edit_accepted"] and gui["edit_kind"] == "cylindrical"
    assert gui["edit_icon"] == "Joint_Cylindrical.svg"
    assert gui["edit_undo_steps"] == 1 and gui["edit_undone_kind"] == "revolute"
    assert gui["no_dialog_after_edit"]


def test_context_menus(gui):
    ok(gui, "context_menu")
    for key, texts in gui["context_menus"].items():
        assert any(t.startswith("Edit") for t in texts), (key, texts)
        assert any(t.startswith("Solve") for t in texts), (key, texts)
        assert "Set active study" in texts, (key, texts)


def test_a_new_registry_kind_gets_its_command(gui):
    ok(gui, "new_registry_kind")
    c = gui["new_kind_command"]
    assert c["exists"] and c["in_group"] and c["menu"] == "Ball test joint"
    assert c["icon"] == "Joint.svg"          # its own file does not exist: the generic icon


def test_solve_cancel_and_failure_leave_the_document_alone(gui):
    ok(gui, "solve_cancel_and_failure")
    assert gui["cancel_state"] == "cancelled"
    assert gui["cancel_result_unchanged"] and gui["cancel_placement_unchanged"]
    assert gui["cancel_undo_unchanged"]
    assert gui["fail_state"] == "failed"
    assert "Study 'Study'" in gui["fail_message"] and "integration stopped" in gui["fail_message"]
    assert "joint 'Joint'" in gui["fail_message"]          # names the joint at fault
    assert "Keep the partial result" in gui["fail_message"]
    assert gui["fail_result_unchanged"]
    assert 1 < gui["fail_kept_frames"] < 201            # the partial result, kept on request


def test_documents_saved_by_scripts_get_view_providers(gui):
    ok(gui, "example_document")
    assert gui["example_vps"] and all(gui["example_vps"].values()), gui["example_vps"]
    drawn = {k: v for k, v in gui["example_markers"].items() if k != "Study"}
    assert drawn and all(v and all(v) for v in drawn.values()), drawn     # triads, CoGs shown


def test_screenshots_are_written(gui):
    shots = os.environ.get("SIMPHANT_SCREENSHOT_DIR") or gui["_dir"]
    for name in ("gui_joint_panel.png", "gui_joint_triads.png", "gui_timeline.png",
                 "gui_solve_progress.png", "gui_slider_crank.png"):
        path = os.path.join(shots, name)
        assert os.path.getsize(path) > 10000, path


def test_icon_files_are_valid_svg_and_up_to_date():
    """Every icon in resources/icons parses as 64 x 64 SVG; tools/gen_icons.py wrote them."""
    icons = os.path.join(ROOT, "SimPhantWorkbench", "resources", "icons")
    for name in os.listdir(icons):
        root = ET.parse(os.path.join(icons, name)).getroot()
        assert root.tag.endswith("svg") and root.get("viewBox") == "0 0 64 64", name
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_icons.py"),
                           "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
