#!/usr/bin/env python3
"""Curated mutant suite: small deliberate bugs that the tests must catch (``make mutants``).

Each mutant replaces one exact piece of source text (its *anchor*, which must occur
exactly once in its file) and names the tests that should fail because of it. For each
mutant, one at a time, this script writes the mutated file, runs only those tests
(``pytest -x``), records whether they failed (killed) or passed (survived), and puts the
original file back byte for byte, with its modification time.

It exits non-zero when a mutant survives, when an anchor is missing or not unique (after
a refactor: the table says which), when a mutant does not compile, or when the unmutated
tests fail (baseline).

Files are always restored: in a ``finally`` block, on Ctrl-C and on SIGTERM (the test run
is stopped first), and, should the process be killed outright, at the start of the next
run from the copy kept in ``.mutants-restore/`` while a mutant is applied.

Mutants of files that numba compiles (``kernels.py``, ``blocks.py``, ``joints.py``) run
with ``NUMBA_DISABLE_JIT=1``: the mutated source then executes as written, with no
compiled kernel to go stale (numba's cache is keyed on the source file, and a kernel
compiled from the unmutated file would hide the bug). The tests chosen for them are
quick in pure Python. ``--jit`` runs them compiled instead, each with a fresh
``NUMBA_CACHE_DIR`` (a full compile per mutant, several minutes each), and checks that
numba did recompile the mutated file.

Usage::

    tools/run_python.sh tools/mutants.py [--list] [--only ID,ID] [--all-killers] [--jit]
                                         [--no-baseline] [--timeout S]
"""
import argparse
import glob
import hashlib
import json
import os
import py_compile
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import namedtuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN_PYTHON = os.path.join(ROOT, "tools", "run_python.sh")
RESTORE_DIR = os.path.join(ROOT, ".mutants-restore")
#: files whose functions numba compiles (or whose globals compiled kernels freeze)
JIT_FILES = {"SimPhantWorkbench/solver/kernels.py", "SimPhantWorkbench/solver/blocks.py",
             "SimPhantWorkbench/solver/joints.py", "SimPhantWorkbench/solver/forces.py",
             "SimPhantWorkbench/solver/vec3.py", "SimPhantWorkbench/collision/gjk.py",
             "SimPhantWorkbench/solver/contact.py", "SimPhantWorkbench/collision/probe.py",
             "SimPhantWorkbench/collision/pieces.py"}

#: ``fc1``: the tests that kill it run on FreeCAD 1.x only (``pytest.mark.fc1``); on 0.x
#: the mutant is listed as needing 1.x and not run (run it in the chroot of ``make test-fc1``:
#: ``tools/test_fc1.sh shell "tools/run_python.sh tools/mutants.py --only ID"``)
Mutant = namedtuple("Mutant", ["id", "file", "anchor", "replacement", "tests", "description",
                               "fc1"], defaults=(False,))

K = "SimPhantWorkbench/solver/kernels.py"
SIM = "SimPhantWorkbench/solver/simulation.py"
ROT = "SimPhantWorkbench/solver/rotations.py"
INTEG = "SimPhantWorkbench/solver/integrators.py"
RES = "SimPhantWorkbench/solver/result.py"
REF = "SimPhantWorkbench/document/references.py"
SIG = "SimPhantWorkbench/document/signatures.py"
PLAY = "SimPhantWorkbench/playback.py"
OUT = "SimPhantWorkbench/output/__init__.py"
DOF = "SimPhantWorkbench/solver/dof.py"
JOUT = "SimPhantWorkbench/solver/joint_outputs.py"
WARM = "SimPhantWorkbench/solver/warmup.py"
FRC = "SimPhantWorkbench/solver/forces.py"
CNT = "SimPhantWorkbench/solver/contact.py"
T_CNT = "tests/solver/test_contact.py"
T_DWORK = "tests/solver/test_driver_work.py"
T_CYL = "tests/solver/test_contact_cylinder.py"

THF = "tests/app/test_hostile_files.py"
THV = "tests/app/test_hostile_viewer.py"
THS = "tests/app/test_hostile_steps.py"
T_FRAMES = "tests/solver/test_frames.py"
T_RHS = "tests/solver/test_schur.py::test_whole_right_hand_side_against_an_independent_reference"
T_FD = "tests/solver/test_joints_fd.py"
T_INTEG = "tests/solver/test_integrators.py"
T_MOTIONS = "tests/solver/test_joint_motions.py"
T_ROT = "tests/solver/test_rotations.py"
T_API = "tests/solver/test_api.py"
T_PHYS = "tests/solver/test_physics.py"
T_DOF = "tests/solver/test_dof.py"
T_JOUT = "tests/solver/test_joint_outputs.py"
T_FRC = "tests/solver/test_forces.py"
T_STOP = "tests/solver/test_stops.py"
T_IMPACT = "tests/solver/test_impacts.py"
T_WORK = "tests/solver/test_stop_work.py"
T_CONTACT = "tests/solver/test_stop_contact.py"
STAB = "SimPhantWorkbench/solver/stability.py"
IMP = "SimPhantWorkbench/solver/impacts.py"
T_TRUST = "tests/app/test_sweep_trust.py"
T_HOSTILE_SWEEP = "tests/app/test_hostile_sweep.py"
T_DRV = "tests/solver/test_drivers.py"
T_DRV_FD = T_DRV + "::test_driver_rows_match_finite_differences"
T_DRV_HOLD = T_DRV + "::test_held_pendulum_torque"
T_DIR = "tests/solver/test_direction_driver.py"
T_DIR_FD = T_DIR + "::test_direction_rows_match_finite_differences"
DRV = "SimPhantWorkbench/solver/drivers.py"
REACT = "SimPhantWorkbench/solver/reactions.py"
T_REACT = "tests/solver/test_reactions.py"
T_ORIENT = "tests/solver/test_orientation_joints.py"
T_REACT_QUICK = T_REACT + "::test_four_bar_out_of_plane_load_least_norm_and_flags"
CPL = "SimPhantWorkbench/solver/couplers.py"
T_CPL = "tests/solver/test_couplers.py"
T_CPL_FD = T_CPL + "::test_coupler_row_jacobian_and_gamma_match_finite_differences"
T_CPL_GEAR = T_CPL + "::test_gear_pair_under_torque_matches_reflected_inertia"
T_EX = "tests/app/test_examples.py"
T_EX_STEER = T_EX + "::test_steering_rack_travels_the_pitch_radius_times_the_pinion_turn"
T_EX_SCREW = T_EX + "::test_lead_screw_rises_a_lead_per_turn_and_strikes_its_stop_on_time"
T_EX_DOOR = T_EX + "::test_door_swings_shut_onto_its_end_stop_which_carries_the_closer_preload"
T_EX_CAM = T_EX + "::test_disc_cam_roller_rides_on_the_cam_profile_within_the_tessellation"
T_EX_RAMP = (T_EX + "::test_ramp_box_stops_after_the_closed_form_distance_and_time_the_other_"
             "slides_on")
T_EX_GRIP = T_EX + "::test_gripper_lifts_the_cube_held_by_friction_with_the_closed_form_forces"

T_IVIEW = "tests/gui/test_interference_view_gui.py"

# (id, file, anchor, replacement, tests, description)
MUTANTS = [
    # ---------------------------------------------------------------- kernels (numba)
    Mutant("gyroscopic-sign", K,
           "W.Q[b, 3] = -gx\n        W.Q[b, 4] = -gy\n        W.Q[b, 5] = -gz",
           "W.Q[b, 3] = gx\n        W.Q[b, 4] = gy\n        W.Q[b, 5] = gz",
           [T_FRAMES, T_RHS], "Q_v = +w x (J w) instead of -w x (J w)"),
    Mutant("gyroscopic-world-omega", K,
           "Jw0 = S.body_inertia[b, 0] * W.omega_b[b, 0]\n"
           "        Jw1 = S.body_inertia[b, 1] * W.omega_b[b, 1]\n"
           "        Jw2 = S.body_inertia[b, 2] * W.omega_b[b, 2]",
           "Jw0 = S.body_inertia[b, 0] * W.omega_w[b, 0]\n"
           "        Jw1 = S.body_inertia[b, 1] * W.omega_w[b, 1]\n"
           "        Jw2 = S.body_inertia[b, 2] * W.omega_w[b, 2]",
           [T_FRAMES, T_RHS], "gyroscopic term with J times the world-frame omega"),
    Mutant("baumgarte-drop-phi", K,
           "gstar = gam - 2.0 * alpha * pd - beta2 * phi",
           "gstar = gam - 2.0 * alpha * pd",
           [T_INTEG, T_RHS], "gamma* without the -beta^2 Phi term"),
    Mutant("baumgarte-damping-sign", K,
           "gstar = gam - 2.0 * alpha * pd - beta2 * phi",
           "gstar = gam + 2.0 * alpha * pd - beta2 * phi",
           [T_INTEG, T_RHS], "gamma* with +2 alpha Phi_dot (anti-damping)"),
    Mutant("baumgarte-beta-not-squared", K,
           "beta2 = S.beta * S.beta",
           "beta2 = S.beta",
           [T_INTEG, T_RHS], "beta Phi instead of beta^2 Phi"),
    Mutant("world-load-not-rotated", K,
           "fb0, fb1, fb2 = _rot_t(A, b, f0, f1, f2)",
           "fb0, fb1, fb2 = f0, f1, f2",
           [T_FRAMES, T_RHS], "world-frame forces and torques used as body-frame ones"),
    Mutant("world-load-rotated-backwards", K,
           "fb0, fb1, fb2 = _rot_t(A, b, f0, f1, f2)",
           "fb0, fb1, fb2 = _rot(A, b, f0, f1, f2)",
           [T_FRAMES, T_RHS], "world loads rotated with A instead of A^T"),
    Mutant("load-moment-arm-sign", K,
           "tx, ty, tz = _cross(S.load_point[i, 0], S.load_point[i, 1], S.load_point[i, 2],\n"
           "                                fb0, fb1, fb2)",
           "tx, ty, tz = _cross(fb0, fb1, fb2,\n"
           "                                S.load_point[i, 0], S.load_point[i, 1], S.load_point[i, 2])",
           [T_FRAMES, T_RHS], "moment of a point force F x p instead of p x F"),
    Mutant("kernel-quaternion-matrix", K,
           "A[b, 0, 1] = qx * y - qw * z",
           "A[b, 0, 1] = qx * y + qw * z",
           [T_FRAMES, T_RHS], "a wrong entry of the kernel's rotation matrix"),
    Mutant("quaternion-rate-world-omega", K,
           "dY[p + 4] = 0.5 * (qw * wx + qy * wz - qz * wy)\n"
           "        dY[p + 5] = 0.5 * (qw * wy + qz * wx - qx * wz)\n"
           "        dY[p + 6] = 0.5 * (qw * wz + qx * wy - qy * wx)",
           "dY[p + 4] = 0.5 * (qw * wx - qy * wz + qz * wy)\n"
           "        dY[p + 5] = 0.5 * (qw * wy - qz * wx + qx * wz)\n"
           "        dY[p + 6] = 0.5 * (qw * wz - qx * wy + qy * wx)",
           [T_FRAMES, T_API], "q_dot = 1/2 (0, w) (x) q: body omega used as a world one"),
    Mutant("gamma-dot1-cross-term", K,
           "return -(ia * ib + ja * jb - 2.0 * ib * ja + (2.0 * wij - wii - wjj) * phi)",
           "return -(ia * ib + ja * jb - 2.0 * ia * jb + (2.0 * wij - wii - wjj) * phi)",
           [T_FD, T_RHS], "DOT1 gamma: (w_i.b)(w_j.a) taken as (w_i.a)(w_j.b)"),
    Mutant("gamma-dot2-coriolis", K,
           "                        + 2.0 * (dd0 * wa0 + dd1 * wa1 + dd2 * wa2)\n"
           "                        + wd * wa - wii * phi)",
           "                        + (dd0 * wa0 + dd1 * wa1 + dd2 * wa2)\n"
           "                        + wd * wa - wii * phi)",
           [T_FD, T_RHS], "DOT2 gamma: Coriolis term 2 d_dot.(w_i x a) without its 2"),
    Mutant("gamma-distance-term", K,
           "gam = -((dd0 * dd0 + dd1 * dd1 + dd2 * dd2)",
           "gam = -((dd0 * dd0 + dd1 * dd1)",
           [T_FD + "::test_jacobian_and_gamma_match_finite_differences", T_RHS],
           "DIST gamma: d_dot.d_dot misses its z component"),
    Mutant("gamma-body-omega", K,
           "wi0 = W.omega_w[bi, 0]\n        wi1 = W.omega_w[bi, 1]\n        wi2 = W.omega_w[bi, 2]",
           "wi0 = W.omega_b[bi, 0]\n        wi1 = W.omega_b[bi, 1]\n        wi2 = W.omega_b[bi, 2]",
           [T_FD, T_RHS], "gamma and Phi_dot with body 1's body-frame omega"),
    Mutant("gamma-centripetal-dropped", K,
           "ci0, ci1, ci2 = _cross(wi0, wi1, wi2, sdi0, sdi1, sdi2)",
           "ci0, ci1, ci2 = 0.0 * wi0, 0.0 * wi1, 0.0 * wi2",
           [T_FD, T_RHS], "POINT/DOT2/DIST gamma without body 1's centripetal term"),
    Mutant("reaction-torque-about-cog", K,
           "return f0, f1, f2, tw0 - x0, tw1 - x1, tw2 - x2",
           "return f0, f1, f2, tw0, tw1, tw2",
           [T_MOTIONS, T_API], "reaction torque about body 2's CoG, not its joint point"),
    Mutant("reaction-force-sign", K,
           "f0 -= W.J[r, 1, 0] * lr\n        f1 -= W.J[r, 1, 1] * lr\n"
           "        f2 -= W.J[r, 1, 2] * lr",
           "f0 += W.J[r, 1, 0] * lr\n        f1 += W.J[r, 1, 1] * lr\n"
           "        f2 += W.J[r, 1, 2] * lr",
           [T_MOTIONS, T_API], "reaction force on body 1 reported as the one on body 2"),
    Mutant("symplectic-euler-explicit", K,
           "Y[p + c] += h * Y[v + c]",
           "Y[p + c] += h * (Y[v + c] - h * W.dY[v + c])",
           [T_INTEG, T_PHYS + "::test_symplectic_euler_keeps_energy_bounded_where_explicit_euler_gains"],
           "symplectic Euler moves positions with the old velocities"),
    Mutant("rk4-weights", K,
           "ksum[i] += 2.0 * dY[i]\n                        Yt[i] = Y[i] + h * dY[i]",
           "ksum[i] += dY[i]\n                        Yt[i] = Y[i] + h * dY[i]",
           [T_FRAMES, T_PHYS + "::test_rk4_converges_with_order_four"],
           "RK4 weighs k3 by 1 instead of 2"),
    Mutant("rk4-midpoint-load-time", K,
           "set_loads(S, W, tab, row + 1)",
           "set_loads(S, W, tab, row)",
           [T_API + "::test_world_torque_and_time_dependent_force", T_INTEG],
           "RK4 midpoint stages see the time-dependent loads of the step start"),
    # ---------------------------------------------------------------- simulation
    Mutant("output-sample-shift", SIM,
           "if split else self.Ys[1:]",
           "if split else self.Ys[:-1]",
           [T_INTEG, T_API + "::test_output_sampling_is_independent_of_the_step"],
           "each fixed-step sample stored one slot early (off by one)"),
    Mutant("step-count-unchecked", SIM,
           "    check_counts(t0, t_end, dt, output_dt)\n",
           "    pass\n",
           ["tests/solver/test_step_counts.py", THS + "::test_dt_1e_300_is_exit_2_naming_dt"],
           "dt = 1e-300 overflows the step count and runs no step"),
    Mutant("intervals-not-cut", SIM,
           "if len(nsub) == 0 or nsub.max() <= most:",
           "if True:",
           ["tests/solver/test_step_counts.py::"
            "test_cancel_is_honoured_inside_an_output_interval_of_many_steps",
            "tests/solver/test_step_counts.py::test_pieces_give_the_same_motion_as_whole_intervals"],
           "a cancel waits for an output interval of any number of steps"),
    Mutant("first-chunk-unbounded", SIM,
           "int(min(2000, self.most) // max(1, nsub_all[0]))",
           "int(2000 // max(1, nsub_all[0]))",
           ["tests/solver/test_step_counts.py::"
            "test_a_model_of_many_bodies_is_cancellable_before_its_first_output"],
           "a model of many bodies runs 2000 steps (seconds) before its first cancel check"),
    Mutant("piece-start-time", SIM,
           "starts = tstart[interval] + (j * most) * h",
           "starts = tstart[interval] + j * h",
           ["tests/solver/test_step_counts.py"],
           "the pieces of an interval start at the wrong times"),
    Mutant("step-check-ignores-joints", "SimPhantWorkbench/solver/stability.py",
           "N = sl.null_space(J) if J.shape[0] else np.eye(6 * nb)",
           "N = np.eye(6 * nb)",
           ["tests/solver/test_step_check.py"],
           "the step check counts the directions the joints forbid as vibrations"),
    Mutant("step-check-rk4-polynomial", "SimPhantWorkbench/solver/stability.py",
           "z + z ** 2 / 2 + z ** 3 / 6 + z ** 4 / 24",
           "z + z ** 2 / 2 + z ** 3 / 6",
           ["tests/solver/test_step_check.py"],
           "RK4's amplification without its fourth-order term"),
    Mutant("step-check-semi-implicit-matrix", "SimPhantWorkbench/solver/stability.py",
           "step = np.array([[1.0 - hk, 1.0 - hc], [-hk, 1.0 - hc]])",
           "step = np.array([[1.0, 1.0 - hc], [-hk, 1.0 - hc]])",
           ["tests/solver/test_step_check.py"],
           "the semi-implicit Euler's positions updated with the old velocities"),
    Mutant("step-check-refusal-ignored", SIM,
           "        if refusal is not None:\n            raise ModelError(refusal)",
           "        if False:\n            raise ModelError(refusal)",
           ["tests/solver/test_step_check.py",
            THS + "::test_explicit_euler_on_a_stiff_spring_is_exit_2_naming_the_step_that_works",
            THS + "::test_a_sweep_variant_the_step_cannot_follow_fails_naming_it"],
           "a run the method cannot follow returns garbage instead of being refused"),
    Mutant("gui-run-warnings-not-reported", "SimPhantWorkbench/gui/solve_job.py",
           "                for text in self.result.warnings:",
           "                for text in []:",
           ["tests/gui/test_solve_warnings_gui.py"],
           "Solve in the workbench keeps the run's warnings to itself"),
    Mutant("step-warnings-dropped", SIM,
           "    result.warnings += step_warnings\n",
           "    result.warnings += []\n",
           ["tests/solver/test_step_check.py::test_a_moderate_distortion_is_a_warning",
            THS + "::test_explicit_euler_on_a_stiff_spring_is_exit_2_naming_the_step_that_works",
            THS + "::test_a_sweep_variant_the_step_cannot_follow_fails_naming_it"],
           "a step that distorts the springs' vibrations runs without a warning"),
    Mutant("default-time-constant", SIM,
           "time_constant = max(0.02, 5.0 * dt) if dt else 0.02",
           "time_constant = max(0.02, 0.5 * dt) if dt else 0.02",
           [T_INTEG], "default Baumgarte time constant max(0.02, 0.5 dt)"),
    Mutant("damping-ratio-ignored", SIM,
           "return zeta / tc, 1.0 / tc",
           "return 1.0 / tc, 1.0 / tc",
           [T_INTEG], "Baumgarte alpha ignores the damping ratio"),
    # ---------------------------------------------------------------- integrator table
    Mutant("table-symplectic-is-explicit", INTEG,
           'MethodInfo("symplectic_euler", True, 1, 1, None, 1,',
           'MethodInfo("symplectic_euler", True, 0, 1, None, 1,',
           [T_INTEG, T_PHYS + "::test_symplectic_euler_keeps_energy_bounded_where_explicit_euler_gains"],
           "symplectic_euler dispatched to the explicit Euler kernel"),
    Mutant("table-rk4-evaluations", INTEG,
           'MethodInfo("rk4", True, 2, 4, None, 4,',
           'MethodInfo("rk4", True, 2, 1, None, 4,',
           [T_INTEG], "RK4 counted as one evaluation per step"),
    # ---------------------------------------------------------------- rotations
    Mutant("quaternion-matrix-entry", ROT,
           "A[..., 1, 2] = 2.0 * (y * z - w * x)",
           "A[..., 1, 2] = 2.0 * (y * z + w * x)",
           [T_ROT, T_API], "a wrong entry of quat_to_matrix"),
    Mutant("hamilton-product-order", ROT,
           "pw * qy - px * qz + py * qw + pz * qx,",
           "pw * qy + px * qz + py * qw - pz * qx,",
           [T_ROT, T_FD, "tests/solver/test_assembly.py"],
           "quat_multiply's y component of q (x) p instead of p (x) q"),
    Mutant("shepperd-trace-branch", ROT,
           "q = (0.25 * s, (a21 - a12) / s, (a02 - a20) / s, (a10 - a01) / s)",
           "q = (0.25 * s, (a21 - a12) / s, (a20 - a02) / s, (a10 - a01) / s)",
           [T_ROT, T_API], "matrix_to_quat (trace branch): y component of the inverse"),
    Mutant("shepperd-z-branch", ROT,
           "q = ((a10 - a01) / s, (a02 + a20) / s, (a12 + a21) / s, 0.25 * s)",
           "q = ((a01 - a10) / s, (a02 + a20) / s, (a12 + a21) / s, 0.25 * s)",
           [T_ROT], "matrix_to_quat (A33 branch): w of the inverse rotation"),
    Mutant("euler-wrong-entry", ROT,
           "tx = np.arctan2(A[..., 2, 1], A[..., 2, 2])",
           "tx = np.arctan2(A[..., 1, 2], A[..., 2, 2])",
           [T_ROT, "tests/app/test_outputs.py"], "Z-Y-X angle x from A23 instead of A32"),
    Mutant("euler-pitch-sign", ROT,
           "ty = np.arcsin(np.clip(-A[..., 2, 0], -1.0, 1.0))",
           "ty = np.arcsin(np.clip(A[..., 2, 0], -1.0, 1.0))",
           [T_ROT, "tests/app/test_outputs.py"], "Z-Y-X angle y with the wrong sign"),
    Mutant("frame-left-handed", ROT,
           "y = np.cross(z, x)",
           "y = np.cross(x, z)",
           [T_ROT, "tests/app/test_conversion.py"], "orthonormal_frame returns a left-handed frame"),
    # ---------------------------------------------------------------- result extraction
    Mutant("result-body-omega-frame", RES,
           "return wb_p @ Rpu                                  # R_pu^T w_p, row-wise",
           "return wb_p @ Rpu.T",
           [T_API + "::test_inertia_tensor_input_equals_principal_moments_input", T_FRAMES],
           "body-frame omega in principal axes mapped the wrong way to user axes"),
    Mutant("result-alpha-not-rotated", RES,
           "acc[c:c + step, :, 3:] = _rotate(quat, acc[c:c + step, :, 3:])",
           "acc[c:c + step, :, 3:] = acc[c:c + step, :, 3:]",
           [T_FRAMES, T_API], "angular acceleration reported in body axes as world"),
    Mutant("result-potential-sign", RES,
           'potential = -np.einsum("nbi,i,b->n", qs[:, :, :3], gravity, masses)',
           'potential = np.einsum("nbi,i,b->n", qs[:, :, :3], gravity, masses)',
           [T_API, T_PHYS], "potential energy of gravity with the wrong sign"),
    Mutant("result-reaction-about-body1", RES,
           "T = T + np.cross(self._anchor(k, 1) - self._anchor(k, 0), F)",
           "T = T - np.cross(self._anchor(k, 1) - self._anchor(k, 0), F)",
           [T_MOTIONS, "tests/solver/test_adams.py::test_adams_case[Prismatic_Case02]"],
           "reaction torque about body 1's joint point: moment arm reversed"),
    Mutant("result-quaternion-jumps", RES,
           "flip = np.einsum(\"ij,ij->i\", q[1:], q[:-1]) < 0.0",
           "flip = np.einsum(\"ij,ij->i\", q[1:], q[:-1]) < -2.0",
           [T_ROT, "tests/app/test_outputs.py"], "quaternion series not kept sign-continuous"),
    Mutant("result-point-velocity", RES,
           'return self._series("vel", b) + np.cross(self._series("omega_w", b), s)',
           'return self._series("vel", b) + np.cross(s, self._series("omega_w", b))',
           [T_FRAMES, T_API], "point velocity s x w instead of w x s"),
    Mutant("result-derived-rotation-principal", RES,
           "            return Ap @ Rpu\n",
           "            return Ap\n",
           ["tests/solver/test_result_storage.py"],
           "rotation derived from the states in principal instead of the user's axes"),
    Mutant("result-archive-deflated", RES,
           "mode = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED",
           "mode = zipfile.ZIP_DEFLATED",
           ["tests/solver/test_result_storage.py"],
           "result archives deflated again by default (the cost store_result sheds)"),
    Mutant("cli-early-cancel-forgotten", "SimPhantWorkbench/cli/progress.py",
           "            self.requested = True\n            raise EarlyCancel",
           "            raise EarlyCancel",
           ["tests/app/test_cli.py::test_early_ctrl_c_still_cancels_when_its_exception_is_swallowed"],
           "an early Ctrl-C swallowed by a FreeCAD callback lets the run go to its end"),
    Mutant("cli-gif-job-no-fallback", "SimPhantWorkbench/cli/run.py",
           "    if job.wait() is not None:\n        _render_animation(",
           "    if job.wait() is not None and False:\n        _render_animation(",
           ["tests/app/test_gif_job.py"],
           "a failed animation process leaves the run without animation.gif"),
    # ---------------------------------------------------------------- conversion
    Mutant("conversion-quaternion-order-in", "SimPhantWorkbench/document/units.py",
           "x, y, z, w = rot.Q", "w, x, y, z = rot.Q",
           ["tests/app/test_conversion.py"], "FreeCAD Rotation.Q read as (w, x, y, z)"),
    Mutant("conversion-quaternion-order-out", "SimPhantWorkbench/document/units.py",
           "return FreeCAD.Rotation(x, y, z, w)", "return FreeCAD.Rotation(w, x, y, z)",
           ["tests/app/test_conversion.py", "tests/app/test_playback.py"],
           "solver quaternion written to FreeCAD in (w, x, y, z) order"),
    Mutant("conversion-velocity-mm", "SimPhantWorkbench/document/bodies.py",
           "v = vector_array(body.InitialVelocity) * M_PER_MM",
           "v = vector_array(body.InitialVelocity)",
           ["tests/app/test_conversion.py"], "initial velocity mm/s passed as m/s"),
    Mutant("conversion-omega-degrees", "SimPhantWorkbench/document/bodies.py",
           "w = np.radians(vector_array(body.InitialAngularVelocity))",
           "w = vector_array(body.InitialAngularVelocity)",
           ["tests/app/test_conversion.py"], "initial angular velocity deg/s passed as rad/s"),
    Mutant("conversion-cog-local-frame", "SimPhantWorkbench/document/bodies.py",
           "else R.T @ (np.asarray(mp.cog, dtype=float) - origin) / M_PER_MM",
           "else R @ (np.asarray(mp.cog, dtype=float) - origin) / M_PER_MM",
           ["tests/app/test_conversion.py", "tests/app/test_playback.py"],
           "CoG in the object's frame rotated the wrong way"),
    Mutant("conversion-offset-direction", "SimPhantWorkbench/document/joints.py",
           "p2 = p2 - offset * R1[:, 2]", "p2 = p2 + offset * R1[:, 2]",
           ["tests/app/test_objects.py", "tests/app/test_assembly_import.py"],
           "joint Offset applied against the joint axis"),
    Mutant("conversion-gravity-direction", "SimPhantWorkbench/document/settings.py",
           "return g * d / n", "return g * d",
           ["tests/app/test_conversion.py"], "gravity direction not normalised"),
    Mutant("conversion-pin-and-hole", "SimPhantWorkbench/document/joints.py",
           "z2 = -z2       # a pin and its hole: keep the mechanism as modelled",
           "pass",
           ["tests/app/test_objects.py", "tests/app/test_runner.py"],
           "anti-parallel reference axes not aligned (a pin in its hole flips)"),
    # ---------------------------------------------------------------- references
    Mutant("reference-mm-to-m", REF,
           "return RefFrame(kind, point * M_PER_MM, axis, label)",
           "return RefFrame(kind, point, axis, label)",
           ["tests/app/test_references.py"], "reference points left in mm"),
    Mutant("reference-line-midpoint", REF,
           'return "line", (first + last) * 0.5, last - first',
           'return "line", first, last - first',
           ["tests/app/test_references.py"], "straight edge: first vertex instead of the mid-point"),
    Mutant("reference-plane-normal", REF,
           'return "plane", face.CenterOfMass, normal',
           'return "plane", face.CenterOfMass, -normal',
           ["tests/app/test_references.py"], "planar face: inward normal"),
    Mutant("reference-cylinder-projection", REF,
           'return "cylinder", centre + axis * (offset @ axis), axis',
           'return "cylinder", centre, axis',
           ["tests/app/test_references.py"], "cylinder: point not projected from the face centre"),
    # ---------------------------------------------------------------- playback
    Mutant("playback-cog-offset-sign", PLAY,
           "self._base = pos / M_PER_MM - np.matmul(", "self._base = pos / M_PER_MM + np.matmul(",
           ["tests/app/test_playback.py"], "object base = r + A c_local"),
    Mutant("playback-container-ignored", PLAY,
           "pl = self._container_inverse(j, new).multiply(pl)",
           "pl = pl",
           ["tests/app/test_playback.py"], "global placement written into an App::Part child"),
    Mutant("playback-next-frame", PLAY,
           "return int(np.argmin(np.abs(result.t - t)))",
           "return int(np.searchsorted(result.t, t))",
           ["tests/app/test_playback.py"], "time -> next frame instead of the nearest"),
    Mutant("playback-negative-index", PLAY,
           "        if i < 0:\n            i += n\n",
           "        if i < 0:\n            i += n - 1\n",
           ["tests/app/test_playback.py"], "frame -1 is the second to last"),
    # ---------------------------------------------------------------- outputs
    Mutant("csv-euler-columns", "SimPhantWorkbench/output/tables.py",
           "cols += list(result.euler_angles(name).T)",
           "cols += list(result.euler_angles(name)[:, ::-1].T)",
           ["tests/app/test_outputs.py"], "body CSV angle columns in z, y, x order"),
    # ---------------------------------------------------------------- DOF report
    Mutant("dof-rank-tolerance", DOF,
           "RANK_TOLERANCE = 1e-8", "RANK_TOLERANCE = 1e-20",
           [T_DOF], "rank tolerance below round-off: redundant equations counted as rank"),
    Mutant("dof-gruebler-count", DOF,
           "gruebler = 6 * nb - m", "gruebler = 6 * nb - rank",
           [T_DOF], "Gruebler count from the Jacobian rank instead of the equation count"),
    Mutant("dof-singular-step", DOF,
           "SINGULAR_STEP = 1e-5", "SINGULAR_STEP = 1e-12",
           [T_DOF], "singular-configuration probe too short to see the rank come back"),
    Mutant("dof-suggestion-first-not-best", DOF,
           "if gain > 0 and (best is None or gain > best[0]):",
           "if gain > 0 and best is None:",
           [T_DOF], "suggestions take the first kind that helps, not the one removing most"),
    Mutant("dof-driver-count", DOF,
           "if ndriver > max(mobility, 0):", "if ndriver > max(mobility, 0) + 1:",
           [T_DOF], "one driver equation too many not reported as over-driven"),
    # ---------------------------------------------------------------- joint outputs
    Mutant("joint-angle-sign", JOUT,
           "np.arctan2(Q[:, 1, 0], Q[:, 0, 0])", "np.arctan2(Q[:, 0, 1], Q[:, 0, 0])",
           [T_JOUT], "joint angle left-handed about frame 1's z"),
    Mutant("joint-angle-unwrap", JOUT,
           "return np.unwrap(np.arctan2(", "return (np.arctan2(",
           [T_JOUT], "joint angle wrapped to (-pi, pi]"),
    Mutant("joint-slide-coriolis", JOUT,
           "2.0 * _dot(dd, wz)", "1.0 * _dot(dd, wz)",
           [T_JOUT], "slide acceleration without the full Coriolis term of a turning frame 1"),
    Mutant("joint-reaction-frame", JOUT,
           'return np.einsum("nji,nj->ni", R1, V)', 'return np.einsum("nij,nj->ni", R1, V)',
           [T_JOUT], "reaction to the joint frame with R1 instead of R1^T"),
    Mutant("joint-translation-world", JOUT,
           'return np.einsum("nji,nj->ni", R1, d)', "return d",
           [T_JOUT], "relative translation left in world axes"),
    Mutant("joint-coordinates-from-rows", JOUT,
           "if free(5) and not free(3) and not free(4):", "if free(5):",
           [T_JOUT], "a spherical joint offered an angle about z"),
    Mutant("joint-frame-torque-point", RES,
           'about = "body1" if frame == "joint" else "body2"', 'about = "body2"',
           [T_JOUT], "joint-frame torque about body 2's point instead of the frame's origin"),
    Mutant("joint-frame-principal", JOUT,
           "system.R_pu[b].T @ S.jnt_frame[s, side]", "system.R_pu[b] @ S.jnt_frame[s, side]",
           [T_JOUT], "joint frame stored with the principal-to-user rotation inverted"),
    Mutant("kernel-cache-stale-kept", K,
           'if name.startswith(_CACHED_MODULES) and name.endswith((".nbi", ".nbc")):',
           'if name.startswith(_CACHED_MODULES) and name.endswith(".nbc"):',
           ["tests/solver/test_warmup.py::test_cached_kernels_of_other_sources_are_dropped"],
           "a cached kernel made from an older forces.py or blocks.py stays indexed"),
    # ---------------------------------------------------------------- kernel preparation
    Mutant("warmup-not-remembered", WARM,
           "    _ready.add((block_size, adaptive))\n",
           "",
           ["tests/solver/test_warmup.py"], "kernels prepared again at every simulate"),
    Mutant("warmup-wrong-joint", WARM,
           "if kernels.block_size(len(spec.rows)) == block_size:",
           "if kernels.block_size(len(spec.rows)) >= block_size:",
           ["tests/solver/test_warmup.py"], "warm-up model of another block size"),
    Mutant("compile-time-not-reported", SIM,
           "t0=t0, t_end=t_end, compile_time=compile_time,",
           "t0=t0, t_end=t_end, compile_time=0.0,",
           ["tests/solver/test_warmup.py"], "kernel preparation time dropped from settings"),
    Mutant("block-typed-dispatch-wrong-size", "SimPhantWorkbench/solver/blocks.py",
           "    kernel = {3: chol_3, 5: chol_5, 6: chol_6}[bsize.count]",
           "    kernel = {3: chol_3, 5: chol_6, 6: chol_6}[bsize.count]",
           ["tests/solver/test_blocks.py::"
            "test_the_typed_dispatch_picks_the_kernel_of_the_tuples_length"],
           "the factorisation of 5-row blocks runs the 6-row Cholesky"),
    Mutant("rotation-matrix-of-the-unnormalised-quaternion", K,
           "n = 2.0 / (qw * qw + qx * qx + qy * qy + qz * qz)",
           "n = 2.0",
           ["tests/solver/test_frames.py::"
            "test_an_evaluation_sees_the_rotation_of_the_normalised_quaternion"],
           "the rotation matrix of a quaternion off unit length (mid-step stages) not scaled "
           "by 1 / |q|^2"),
    Mutant("chol-inverse-entry-sign", "SimPhantWorkbench/solver/blocks.py",
           "    v4_3 = -(l4_3 * i3) * i4\n    blk[d, 0, 0] = l0_0",
           "    v4_3 = (l4_3 * i3) * i4\n    blk[d, 0, 0] = l0_0",
           ["tests/solver/test_blocks.py::test_block_kernels_match_dense_algebra",
            "tests/solver/test_schur.py"],
           "an entry of the inverse of a 5-row diagonal factor block with the wrong sign "
           "(the forward and backward solves multiply by it)"),
    Mutant("chol-right-looking-update-skipped", "SimPhantWorkbench/solver/blocks.py",
           "    m4_4 -= t4 * m4_3\n    s = m4_4",
           "    s = m4_4",
           ["tests/solver/test_blocks.py::test_block_kernels_match_dense_algebra",
            "tests/solver/test_schur.py"],
           "the last pivot of a 5-row block misses the update from the column before"),
    Mutant("schur-coupling-side-of-the-other-joint", K,
           "blocks.couple_for(S.bsize, blk, b, J, ok, sk, ol, sl,",
           "blocks.couple_for(S.bsize, blk, b, J, ok, sk, ol, sk,",
           ["tests/solver/test_schur.py"],
           "a coupling through a body reads the other joint's rows on the wrong side"),
    Mutant("constraint-rhs-point-row-sign", K,
           "                    trans = fi1 - fj1",
           "                    trans = fj1 - fi1",
           [T_RHS, "tests/solver/test_schur.py"],
           "the free accelerations of a POINT row's two bodies swapped in the Schur "
           "right-hand side"),
    Mutant("multiplier-force-on-body-2-from-body-1-columns", K,
           "        b1 += J[r, 1, c + 1] * xr",
           "        b1 += J[r, 0, c + 1] * xr",
           ["tests/solver/test_naive_reference.py", T_PHYS + "::test_small_angle_period_matches_analytic"],
           "a joint's constraint force and torque on its second body taken from the first "
           "body's Jacobian columns"),
    Mutant("multiplier-point-force-same-sign-on-both-bodies", K,
           "            e1 = -f1",
           "            e1 = f1",
           ["tests/solver/test_naive_reference.py", T_PHYS + "::test_small_angle_period_matches_analytic"],
           "a POINT joint's constraint force pushes both bodies the same way"),
    Mutant("non-finite-state-not-caught", K,
           "        ok &= math.isfinite(y)",
           "        ok &= True",
           [T_INTEG + "::test_a_state_that_overflows_stops_the_run_at_that_step"],
           "a step that leaves NaN in the state goes on"),
    Mutant("state-never-flushed", K,
           "STATE_FLUSH = 1e-100",
           "STATE_FLUSH = 0.0",
           ["tests/solver/test_integrators.py::"
            "test_state_entries_below_the_flush_are_zero_after_a_step"],
           "a damped mode decays into subnormal numbers (every operation slow)"),
    Mutant("direction-rows-scaled-without-their-values", "SimPhantWorkbench/solver/system.py",
           "        if np.any(row_prim == PRIM_DIR):\n            self.set_loads(0.0)\n",
           "",
           ["tests/solver/test_direction_driver.py::"
            "test_a_compiled_system_scales_the_direction_rows_with_the_drivers_values"],
           "a direction driver's rows taken as redundant (zero) when the system is compiled"),
    Mutant("redundant-rows-picked-over-all-loop-rows", "SimPhantWorkbench/solver/system.py",
           "            closing = np.isin(self.row_joint[rows], self.closing_joints())\n",
           "            closing = np.ones(len(rows), dtype=bool)\n",
           ["tests/solver/test_closed_loops.py::"
            "test_a_planar_loop_loses_the_out_of_plane_rows_of_the_joint_that_closes_it",
            "tests/solver/test_closed_loops.py::"
            "test_the_rows_kept_in_a_planar_loop_stay_independent_over_a_full_crank_turn"],
           "redundant rows picked among equal pivots by round-off: the kept rows lose rank"),
    Mutant("closing-joint-taken-from-the-tree", "SimPhantWorkbench/solver/system.py",
           "            if a == b:\n                closing.append(int(k))\n",
           "            if a != b:\n                closing.append(int(k))\n",
           ["tests/solver/test_closed_loops.py::"
            "test_a_planar_loop_loses_the_out_of_plane_rows_of_the_joint_that_closes_it"],
           "the spanning tree's joints taken as the ones that close loops"),
    Mutant("inlined-loop-never-taken", WARM,
           "        if (block_size, INLINED) in _ready:\n            kind = INLINED\n",
           "        if (block_size, INLINED) in _ready:\n            kind = \"plain\"\n",
           ["tests/solver/test_warmup.py::"
            "test_a_run_takes_the_inlined_loop_only_when_it_is_ready_or_cached"],
           "runs stay on the plain loop after the inlined one was compiled"),
    Mutant("inlined-marker-memo-never-refreshed", WARM,
           "    if _marker_memo[0] != stamps:\n",
           "    if _marker_memo[1] is None:\n",
           ["tests/solver/test_warmup.py::"
            "test_the_inlined_marker_follows_the_sources_without_hashing_them_each_run"],
           "an edited kernel source keeps the old digest: a stale inlined loop is taken"),
    Mutant("inlined-loop-taken-uncompiled", WARM,
           "        else:\n            kind = \"plain\"\n",
           "        else:\n            kind = INLINED\n",
           ["tests/solver/test_warmup.py::"
            "test_a_run_takes_the_inlined_loop_only_when_it_is_ready_or_cached"],
           "a first solve compiles the inlined loop in the foreground"),
    Mutant("inlined-marker-not-checked", WARM,
           "            return fh.read().strip() == _marker_text()",
           "            return bool(fh.read())",
           ["tests/solver/test_warmup.py::"
            "test_a_run_takes_the_inlined_loop_only_when_it_is_ready_or_cached"],
           "a marker of older sources makes a solve compile the inlined loop in the foreground"),
    Mutant("inlined-stages-not-bound", "SimPhantWorkbench/solver/jit.py",
           "        space.update(made)\n", "",
           ["tests/solver/test_warmup.py::test_the_inlined_evaluator_inlines_every_hot_stage"],
           "the inlined evaluator calls the plain stages (no faster than the plain loop)"),
    Mutant("inlined-loop-not-in-setup", WARM,
           "        out[bs] += ensure_inlined(bs, model_class=model_class)\n", "",
           ["tests/solver/test_warmup.py::test_setup_prepares_every_part_of_every_block_size"],
           "make setup leaves the inlined loop to the first solves"),
    Mutant("inlined-loop-not-in-background", "SimPhantWorkbench/gui/kernel_warmup.py",
           "                todo = _inlined_todo(warmup)\n", "                todo = []\n",
           ["tests/app/test_kernel_warmup.py::"
            "test_the_background_prepares_the_inlined_loop_after_the_parts_studies_need"],
           "the GUI never compiles the faster loop"),
    Mutant("inlined-marker-not-prefilled", "SimPhantWorkbench/solver/kernel_cache.py",
           "                       or n.startswith(marker))", ")",
           ["tests/solver/test_warmup.py::"
            "test_kernels_compiled_next_to_the_sources_prefill_another_cache"],
           "a read-only install's users compile the inlined loop again"),
    Mutant("warmup-status-inverted", "SimPhantWorkbench/gui/kernel_warmup.py",
           'if p["elapsed"] < NOTICE_AFTER:',
           'if p["elapsed"] > NOTICE_AFTER:',
           ["tests/app/test_kernel_warmup.py"], "solve dialog hides a long compile"),
    # ---------------------------------------------------------------- force elements (numba)
    Mutant("damper-sign", FRC,
           "        damp = S.frc_par[i, PAR_C] * xdot",
           "        damp = -S.frc_par[i, PAR_C] * xdot",
           [T_FRC + "::test_damper_force_opposes_the_rate_of_change_of_length"],
           "linear damper force along the rate instead of against it"),
    Mutant("spring-free-length-default", FRC,
           "                L0 = dist\n",
           "                L0 = 0.0\n",
           [T_FRC + "::test_free_length_defaults_to_the_initial_distance"],
           "a spring's default free length 0 instead of |X2 - X1| at t0"),
    Mutant("joint-axis-frame", FRC,
           "                e0, e1, e2 = frame_axis(A, bi, F, k, 0, 2)\n                x = d0",
           "                e0, e1, e2 = frame_axis(A, bj, F, k, 0, 2)\n                x = d0",
           [T_FRC + "::test_joint_slide_spring_force_is_minus_gradient_of_its_potential"],
           "joint axis z1 of a slide element (body-1 components) turned with body 2's "
           "rotation"),
    Mutant("joint-torsion-axis-frame", FRC,
           "            e0, e1, e2 = frame_axis(A, bi, F, k, 0, 2)\n            x10",
           "            e0, e1, e2 = frame_axis(A, bj, F, k, 0, 2)\n            x10",
           [T_FRC + "::test_joint_torsion_spring_torque_is_minus_gradient_of_its_potential"],
           "joint axis z1 of a torsion element (body-1 components) turned with body 2's "
           "rotation"),
    Mutant("joint-torsion-reaction-on-body-1", FRC,
           "                W.Q[bi, 4] -= f * F[k, 0, 1, 2]",
           "                W.Q[bi, 4] += f * F[k, 0, 1, 2]",
           [T_FRC + "::test_joint_torsion_spring_torque_is_minus_gradient_of_its_potential"],
           "a torsion element's torque on body 1 with the wrong sign"),
    Mutant("joint-torsion-x2-frame", FRC,
           "x20, x21, x22 = frame_axis(A, bj, F, k, 1, 0)",
           "x20, x21, x22 = frame_axis(A, bi, F, k, 1, 0)",
           [T_FRC + "::test_joint_torsion_spring_torque_is_minus_gradient_of_its_potential"],
           "frame 2's x axis turned with body 1's rotation (joint angle of the wrong body)"),
    Mutant("joint-slide-reaction-point", FRC,
           "si0 + d0, si1 + d1, si2 + d2,",
           "si0, si1, si2,",
           [T_FRC + "::test_joint_slide_spring_force_is_minus_gradient_of_its_potential"],
           "slide force on body 1 applied at its joint point instead of at P2"),
    Mutant("stop-damping-sign", FRC,
           "return k * pen ** e + step * c * rate",
           "return k * pen ** e - step * c * rate",
           [T_STOP + "::test_the_stop_law_pushes_and_damps_in_the_right_directions"],
           "an end stop's damping along the rate of penetration instead of against it"),
    Mutant("contact-friction-sign", CNT,
           "g = -fn * friction_over_speed(",
           "g = fn * friction_over_speed(",
           [T_CNT + "::test_a_ball_sliding_on_the_plate_is_braked_against_its_motion",
            T_CNT + "::test_block_below_the_friction_angle_sticks"],
           "a contact's friction along the sliding velocity instead of against it"),
    Mutant("contact-normal-frame", CNT,
           "n0, n1, n2 = rot(A, b, m0, m1, m2)",
           "n0, n1, n2 = rot_t(A, b, m0, m1, m2)",
           [T_CNT + "::test_penetration_and_normal_match_an_independent_evaluation"],
           "a polytope face's normal turned to the world by the transpose of its rotation"),
    Mutant("contact-rate-sign", CNT,
           "rate = -vn          # penetration rate",
           "rate = vn           # penetration rate",
           [T_CNT + "::test_damped_impact_matches_hunt_crossley_closed_form",
            T_CNT + "::test_damped_normal_force_is_adams_impact_of_the_approach_speed"],
           "a contact's damping against the separation speed instead of the approach"),
    Mutant("cylinder-rim-normal", CNT,
           "(dr * u1 + dz * sz * a1) / dist",
           "(dr * u1 - dz * sz * a1) / dist",
           [T_CYL + "::test_normal_is_the_gradient_of_the_signed_distance"],
           "a cylinder's normal around a rim turned along the axis the wrong way"),
    Mutant("cylinder-end-sign", CNT,
           "dz = sz * z - half                  # beyond the end face",
           "dz = z - half                       # beyond the end face",
           [T_CYL + "::test_signed_distance_matches_the_clamped_closest_point_in_any_pose"],
           "a cylinder's lower end face taken at the far end (the axial distance unsigned)"),
    Mutant("cylinder-half-length", CNT,
           "np.array([np.append(a, R), np.append(c, h)])",
           "np.array([np.append(a, R), np.append(c, 2.0 * h)])",
           [T_CYL + "::test_signed_distance_matches_the_clamped_closest_point_in_any_pose"],
           "a cylinder stored with its whole length where the kernel takes the half length"),
    Mutant("cylinder-axis-frame", CNT,
           "                ax = ax @ e.body2.A_principal",
           "                ax = e.body2.A_principal @ ax",
           [T_CYL + "::test_kernel_penetration_and_force_are_minus_the_gradient_of_the_potential"],
           "a moving cylinder's axis turned into its body by the rotation instead of its "
           "transpose"),
    Mutant("cylinder-centre-frame", CNT,
           "np.append(_local(e.body2, cen)[0], half)",
           "np.append(cen, half)",
           [T_CYL + "::test_kernel_penetration_and_force_are_minus_the_gradient_of_the_potential"],
           "a moving cylinder's centre left in world coordinates instead of its body's frame"),
    Mutant("cylinder-doc-radius-unit", "SimPhantWorkbench/document/contact_shapes.py",
           "return centre * M_PER_MM, axis, radius * M_PER_MM, half * M_PER_MM",
           "return centre * M_PER_MM, axis, radius, half * M_PER_MM",
           ["tests/app/test_contact_doc.py::test_cylinders_are_recognised_from_their_part_"
            "geometry"],
           "a recognised cylinder's radius left in mm where the solver takes metres"),
    Mutant("epa-support-sign", "SimPhantWorkbench/collision/gjk.py",
           "        sb = _support(vb, Rb, rb, -nb[0], -nb[1], -nb[2])",
           "        sb = _support(vb, Rb, rb, nb[0], nb[1], nb[2])",
           ["tests/solver/test_collision_epa.py::test_depth_of_overlapping_boxes_is_the_"
            "separating_axis_closed_form"],
           "EPA's support of the difference A - B takes B's point along the face normal "
           "instead of against it"),
    Mutant("epa-new-face-winding", "SimPhantWorkbench/collision/gjk.py",
           "            F[nf, 0], F[nf, 1], F[nf, 2] = a, b, nv",
           "            F[nf, 0], F[nf, 1], F[nf, 2] = b, a, nv",
           ["tests/solver/test_collision_epa.py::test_depth_of_overlapping_boxes_is_the_"
            "separating_axis_closed_form"],
           "EPA's new faces wound inwards (normals into the polytope)"),
    Mutant("hull-convex-tolerance", "SimPhantWorkbench/collision/geometry.py",
           "volume >= (1.0 - rel_tol) * hull.volume",
           "volume >= (1.0 + rel_tol) * hull.volume",
           ["tests/app/test_contact_doc.py::test_ball_on_plate_converts_runs_to_hertz_and_"
            "survives_reopen"],
           "a solid that fills its convex hull exactly taken as not convex"),
    Mutant("contact-damping-step", FRC,
           "        step = a * a * (3.0 - 2.0 * a)\n    return k",
           "        step = a\n    return k",
           [T_CNT + "::test_damped_normal_force_is_adams_impact_of_the_approach_speed"],
           "the IMPACT law's damping ramp linear instead of Adams' cubic STEP"),
    Mutant("stop-exponent", FRC,
           "return k * pen ** e + step",
           "return k * pen + step",
           [T_STOP + "::test_the_stop_law_is_adams_impact_on_either_side"],
           "an end stop's force linear in the penetration whatever its exponent"),
    Mutant("stop-sides-swapped", FRC,
           "                f += push if side == 0 else -push",
           "                f += -push if side == 0 else push",
           [T_STOP + "::test_the_stop_law_is_adams_impact_on_either_side"],
           "an end stop pulling past its lower limit and pushing past its upper one the "
           "wrong way"),
    Mutant("stop-angle-wrapped", FRC,
           "                x = prev + dx - TWO_PI * math.floor((dx + math.pi) / TWO_PI)",
           "                x = x + 0.0 * prev",
           [T_STOP + "::test_a_rotor_turning_away_from_a_stop_never_meets_it"],
           "an end stop on the wrapped joint angle (met at -190 deg when set at 170 deg)"),
    Mutant("stop-angle-not-restarted", RES,
           "        if n and nf:\n            restart_coordinates(S, W)\n",
           "        if n and nf:\n",
           [T_STOP + "::test_a_stop_past_half_a_turn_is_met_at_its_unwrapped_angle"],
           "the force outputs go on from the run's last angle instead of the angle at t0"),
    Mutant("stop-potential-dropped", FRC,
           "        pot += k * np.maximum(pen, 0.0) ** (e + 1.0) / (e + 1.0)",
           "        pot += 0.0 * pen",
           [T_STOP + "::test_energy_balance_through_damped_stops_on_a_slide"],
           "an end stop's elastic energy left out of the energy balance"),
    Mutant("stop-events-dropped-on-reopen", "SimPhantWorkbench/solver/result_file.py",
           '    out["stop_events"] = (None, None)\n',
           "",
           [T_STOP + "::test_stop_events_survive_save_and_reopen"],
           "a reopened result loses its end-stop contact events"),
    Mutant("load-power-point-lever-sign", RES,
           '"ni,ni->n", np.cross(S.load_point[i], f_p), w_p)',
           '"ni,ni->n", np.cross(f_p, S.load_point[i]), w_p)',
           ["tests/solver/test_load_work.py::test_the_balance_of_a_loaded_pendulum_holds_with_the_load_work"],
           "the power of a force at a body point takes its moment with the wrong sign"),
    Mutant("load-power-frame", RES,
           "if S.load_frame[i] == kernels.LOAD_WORLD else val)",
           "if S.load_frame[i] != kernels.LOAD_WORLD else val)",
           ["tests/solver/test_load_work.py::test_the_balance_of_a_loaded_pendulum_holds_with_the_load_work"],
           "a load's power read in the other frame (world for body axes and back)"),
    Mutant("load-work-dropped-on-reopen", "SimPhantWorkbench/solver/result_file.py",
           '    out["load_power"] = out["load_work"] = (n, len(list(meta.get("load_names") or ())))\n',
           "",
           ["tests/solver/test_load_work.py::test_the_balance_of_a_loaded_pendulum_holds_with_the_load_work",
            "tests/solver/test_stop_work.py::test_the_load_work_survives_save_and_reopen"],
           "a reopened result loses the applied loads' work from its energy balance"),
    Mutant("event-frame-one-early", "SimPhantWorkbench/output/events.py",
           'np.searchsorted(t, float(time), side="right")',
           'np.searchsorted(t, float(time), side="right") - 1',
           ["tests/app/test_events.py::test_event_frame_is_the_first_sample_in_contact"],
           "an end stop contact's frame is the sample before it (not yet in contact)"),
    Mutant("event-slider-mark-one-frame-late", "SimPhantWorkbench/results_gui/timeline.py",
           "        return [(self.value_x(f), f, text) for f, text in zip(self.frames, "
           "self.texts)]",
           "        return [(self.value_x(f + 1), f, text) for f, text in zip(self.frames, "
           "self.texts)]",
           ["tests/gui/test_events_gui.py"],
           "the slider's contact marks drawn one frame after the contact's frame"),
    Mutant("events-csv-speed-unit-swapped", "SimPhantWorkbench/output/events.py",
           'return "rad/s" if element in names and is_rotation(result, names.index(element)) \\\n'
           '        else "m/s"',
           'return "m/s" if element in names and is_rotation(result, names.index(element)) \\\n'
           '        else "rad/s"',
           ["tests/app/test_events.py::test_events_csv_holds_the_results_events_at_the_closed_"
            "form_times"],
           "events.csv gives an angle's impact speed in m/s"),
    Mutant("events-not-marked-in-plot-dock", "SimPhantWorkbench/results_gui/plot_panel.py",
           "        self.event_lines = draw_event_marks(ax, self.events, self.event_labels)\n",
           "        self.event_lines = draw_event_marks(ax, [], self.event_labels)\n",
           ["tests/gui/test_events_gui.py"],
           "the plot dock draws no end stop contacts"),
    Mutant("stop-arc-on-body-2", "SimPhantWorkbench/viewproviders/view_force_element.py",
           "        self.markers[0].set_placement(f1)\n",
           "        self.markers[0].set_placement(f2)\n",
           ["tests/gui/test_events_gui.py"],
           "an end stop's arc drawn in its joint's frame on body 2 (it turns with the arm)"),
    Mutant("stop-bar-in-metres", "SimPhantWorkbench/viewproviders/view_force_element.py",
           "        lo = (upper * 1000.0 - size) if lower is None else lower * 1000.0\n",
           "        lo = (upper * 1000.0 - size) if lower is None else lower\n",
           ["tests/app/test_events.py::test_stop_range_geometry_of_slides_and_angles"],
           "an end stop's bar on a slide takes its lower limit (m) for mm"),
    Mutant("stop-arc-limits-as-degrees", "SimPhantWorkbench/viewproviders/view_force_element.py",
           "    lo = upper - OPEN_SIDE if lower is None else lower\n",
           "    lo = upper - OPEN_SIDE if lower is None else math.radians(lower)\n",
           ["tests/gui/test_events_gui.py"],
           "an end stop's arc takes its lower limit (radians) for degrees"),
    Mutant("impact-restitution-sign", IMP,
           "    b[-1] = -(1.0 + e) * approach",
           "    b[-1] = -(1.0 - e) * approach",
           [T_IMPACT + "::test_a_dropped_pendulum_rebounds_to_e_squared_of_its_drop_height"],
           "Newton's restitution applied as +e (g_q v+ = e g_q v-) instead of -e"),
    Mutant("impact-on-one-body-only", IMP,
           "    dv = minv * (G.T @ lam)",
           "    dv = minv * (row * lam[-1])",
           [T_IMPACT + "::test_a_chain_hitting_a_stop_on_its_first_joint_jumps_as_its_impact_"
            "equation", T_IMPACT + "::test_a_falling_chain_rebounds_off_the_stop_on_its_first_"
            "joint_with_its_energy_kept"],
           "the stop's impulse without the joints' impulses (the other bodies of the chain "
           "get no share)"),
    Mutant("impact-time-not-located", IMP,
           "        tau, Ya = self._locate(Y, t0, h, mask)",
           "        tau, Ya = 0.0, Y.copy()",
           [T_IMPACT + "::test_a_dropped_pendulum_rebounds_to_e_squared_of_its_drop_height"],
           "the impact applied at the start of the step it happens in (not located)"),
    Mutant("impact-no-rest", IMP,
           "        if speed < self.rest_speed[s]:",
           "        if speed < 0.0 * self.rest_speed[s]:",
           [T_IMPACT + "::test_a_body_resting_on_a_stop_carries_its_static_load"],
           "no resting contact: a body on an impulsive stop bounces ever lower, ever faster"),
    Mutant("impact-loss-not-dissipated", IMP,
           "        sysm.W.frc_out[self.index[s], OUT_ED] += loss\n",
           "",
           [T_IMPACT + "::test_the_energy_an_impact_takes_is_the_stops_dissipated_energy",
            T_WORK + "::test_each_impact_adds_the_kinetic_energy_it_took"],
           "the kinetic energy an impact takes missing from the stop's dissipated energy"),
    Mutant("lasting-solids-not-remembered", "SimPhantWorkbench/document/massprops.py",
           "        props = _remembered(key, solid)\n",
           "        props = None\n",
           ["tests/app/test_sweep.py::test_the_solid_property_cache_reuses_unchanged_solids_only"],
           "every Solve integrates every unchanged solid again (the GUI thread's cost)"),
    Mutant("lasting-solids-by-location-only", "SimPhantWorkbench/document/massprops.py",
           "        if k == key and seen.isPartner(solid):",
           "        if k == key:",
           ["tests/app/test_sweep.py::test_the_solid_property_cache_reuses_unchanged_solids_only"],
           "a changed solid at the same place takes the remembered properties of the old one"),
    Mutant("work-rk4-middle-stages-weighed-as-ends", "SimPhantWorkbench/solver/kernels.py",
           "                else:\n                    accumulate_work(S, W, h / 3.0)",
           "                else:\n                    accumulate_work(S, W, h / 6.0)",
           [T_WORK + "::test_a_loads_work_and_an_actuators_are_their_closed_forms"],
           "RK4's quadrature of the elements' and loads' power weighs its middle stages "
           "h/6 instead of h/3"),
    Mutant("work-of-trial-steps-kept", IMP,
           "            sysm.set_work_state(work0)\n",
           "",
           [T_WORK + "::test_the_work_of_the_steps_an_impact_takes_again_counts_once"],
           "the steps an impact's location takes again from a step's start add their work "
           "on top of each other's"),
    Mutant("scipy-work-not-integrated", SIM,
           "            return np.concatenate([dy, sysm.work_rates()]) if len(y) > ny else dy",
           "            return np.concatenate([dy, 0.0 * sysm.work_rates()]) if len(y) > ny else dy",
           [T_WORK + "::test_an_adaptive_run_integrates_the_work_with_the_state"],
           "an adaptive SciPy run leaves the dissipated energy at zero"),
    Mutant("contact-steps-threshold-low", STAB,
           "CONTACT_STEPS = 10\n",
           "CONTACT_STEPS = 3\n",
           [T_CONTACT + "::test_a_step_too_long_for_the_contact_is_warned_about_with_the_step_to_use"],
           "a compliant stop's contact of 4 steps passes unwarned"),
    Mutant("contact-steps-threshold-high", STAB,
           "CONTACT_STEPS = 10\n",
           "CONTACT_STEPS = 14\n",
           [T_CONTACT + "::test_a_step_too_long_for_the_contact_is_warned_about_with_the_step_to_use"],
           "a compliant stop's contact of 12.8 steps is warned about"),
    Mutant("contact-duration-quarter-wave", STAB,
           "    return 2.0 * p_max / v * math.sqrt(math.pi)",
           "    return 1.0 * p_max / v * math.sqrt(math.pi)",
           [T_CONTACT + "::test_the_contact_duration_matches_an_integration_of_the_law"],
           "the contact duration half its length (to the deepest penetration only)"),
    Mutant("contact-mass-ignores-joints", STAB,
           "    N = sl.null_space(J) if J.shape[0] else np.eye(6 * nb)\n",
           "    N = np.eye(6 * nb)\n",
           [T_CONTACT + "::test_a_slider_crank_stop_sees_the_mass_the_crank_carries"],
           "the effective mass of a stop's coordinate without the coupling the joints "
           "make between the bodies' velocities"),
    Mutant("impact-run-violation-unnamed", SIM,
           "            if status == 2:\n                self._violation_error(t_stop, sysm.residuals(Y)[0], Y)\n                return\n            if end >= 0:",
           "            if status == 2:\n                raise RuntimeError('violation')\n            if end >= 0:",
           ["tests/solver/test_impacts.py::test_a_run_with_an_impulsive_stop_past_its_violation_limit_names_the_joint"],
           "a run with impulsive stops that drifts past its violation limit ends in an internal error"),
    Mutant("fingerprint-without-force-elements", "SimPhantWorkbench/solver/batch.py",
           '        out["force_elements"] = elements\n',
           "        pass\n",
           [T_FRC + "::test_fingerprints_tell_force_elements_apart"],
           "model fingerprints blind to force elements (a sweep would reuse another "
           "stiffness's cached result)"),
    # ---------------------------------------------------------------- drivers
    Mutant("driver-nu-sign", K,
           "                pd -= W.load_val[dv, 1]\n                gam",
           "                pd += W.load_val[dv, 1]\n                gam",
           [T_DRV_FD], "driver row: Phi_dot = Phi_q q_dot + nu (sign of nu)"),
    Mutant("driver-gamma-without-acceleration", K,
           "                gam += W.load_val[dv, 2]\n            # rotational",
           "                gam += 0.0 * W.load_val[dv, 2]\n            # rotational",
           [T_DRV_FD], "driver row: gamma misses theta_d''"),
    Mutant("driver-angle-reference-axis", K,
           "xa0, xa1, xa2 = _frame_axis(A, bi, F, k, 0, 0)",
           "xa0, xa1, xa2 = _frame_axis(A, bi, F, k, 0, 2)",
           [T_DRV_HOLD], "driver angle measured from joint frame 1's z axis, not its x axis"),
    Mutant("driver-angle-frame-2-side", K,
           "b0, b1, b2 = _frame_axis(A, bj, F, k, 1, 0)\n    c = xa0",
           "b0, b1, b2 = _frame_axis(A, bj, F, k, 1, 1)\n    c = xa0",
           [T_DRV_HOLD], "driver angle of joint frame 2's y axis instead of its x axis"),
    Mutant("driver-angle-not-wrapped", K,
           "if prim == PRIM_ANGLE:\n                    phi -= TWO_PI * math.floor(phi / TWO_PI + 0.5)",
           "if prim == PRIM_ANGLE:\n                    phi -= 0.0",
           [T_DRV_HOLD], "driver angle residual not wrapped to (-pi, pi] (no turns past pi)"),
    Mutant("driver-effort-in-joint-reaction", K,
           "continue    # a driver's effort is reported on its own, not as reaction",
           "pass",
           [T_DRV + "::test_slider_crank_matches_closed_form_and_energy"],
           "the motor torque counted in its joint's reaction"),
    Mutant("driver-effort-sign", RES,
           'a["driver_effort"][:, c] = -lam[:, system.driver_rows[i][k]]',
           'a["driver_effort"][:, c] = lam[:, system.driver_rows[i][k]]',
           [T_DRV_HOLD], "driver effort = +lambda (the reaction on body 1, not the drive on body 2)"),
    Mutant("point-driver-nu-sign", K,
           "                    pd -= W.load_val[dv, 1]",
           "                    pd += W.load_val[dv, 1]",
           [T_DRV + "::test_point_driver_rows_match_finite_differences"],
           "point driver row: Phi_dot = Phi_q q_dot + nu"),
    Mutant("point-driver-gamma-without-acceleration", K,
           "                    gam += W.load_val[dv, 2]",
           "                    gam += 0.0 * W.load_val[dv, 2]",
           [T_DRV + "::test_point_driver_rows_match_finite_differences"],
           "point driver row: gamma misses the trajectory's acceleration"),
    Mutant("driver-rpm-not-converted", "SimPhantWorkbench/document/elements.py",
           '"rpm": (None, 2.0 * math.pi / 60.0)',
           '"rpm": (None, 1.0 / 60.0)',
           ["tests/app/test_drivers_doc.py::test_units_of_the_properties_reach_the_solver_in_si"],
           "a driver's Speed [rpm] taken as rev/s, not rad/s"),
    Mutant("body-driver-point-mm-as-m", "SimPhantWorkbench/document/body_drivers.py",
           'DOCUMENT_UNITS = {"m": "mm", "m/s": "mm/s",',
           'DOCUMENT_UNITS = {"m": "m", "m/s": "mm/s",',
           ["tests/app/test_body_drivers_doc.py::test_point_driver_carries_a_vertex_on_a_circle"],
           "a point driver's trajectory [mm] reaches the solver unconverted, as m"),
    Mutant("body-driver-phase-as-rad", "SimPhantWorkbench/document/body_drivers.py",
           '"rate": spec.rate_unit, "deg": "rad"}',
           '"rate": spec.rate_unit, "deg": "deg"}',
           ["tests/app/test_body_drivers_doc.py::test_point_driver_units_and_the_part_moved"],
           "a body driver's Phase [deg] taken as rad"),
    Mutant("body-driver-shift-sign", DRV,
           "        out[:, 0] += self.offset",
           "        out[:, 0] -= self.offset",
           ["tests/app/test_body_drivers_doc.py::test_point_driver_carries_a_vertex_on_a_circle"],
           "a point trajectory is the displacement subtracted from the start point"),
    Mutant("body-driver-pick-on-any-body", "SimPhantWorkbench/document/body_drivers.py",
           "        if (owner != wanted) if wanted is not None else not owner.Fixed:",
           "        if False:",
           ["tests/app/test_body_drivers_doc.py::test_bad_picks_and_values_name_the_driver"],
           "an element of another body is accepted as a body driver's pick"),
    Mutant("body-driver-angle-from-the-axis", "SimPhantWorkbench/document/body_drivers.py",
           '                                       vector1=_axis(d.frames["Reference"]),',
           '                                       vector1=_axis(d.frames["Axis"]),',
           ["tests/app/test_body_drivers_doc.py::test_angle_driver_turns_a_pendulum"],
           "an angle driver measured from its axis, not from the picked vector"),
    Mutant("analysis-mode-ignored", "SimPhantWorkbench/document/settings.py",
           'return "kinematic" if str(getattr(study, "AnalysisMode", "Dynamic")) == "Kinematic"',
           'return "dynamic" if str(getattr(study, "AnalysisMode", "Dynamic")) == "Kinematic"',
           ["tests/app/test_drivers_doc.py::test_held_pendulum_torque_is_the_gravity_moment"],
           "the study's AnalysisMode Kinematic runs a dynamic simulation"),
    Mutant("driver-csv-power-column", "SimPhantWorkbench/output/tables.py",
           "        cols += [result.driver_power(d), result.driver_work(d)]",
           "        cols += [result.driver_effort(d) if result.driver_effort(d).ndim == 1 "
           "else result.driver_power(d), result.driver_work(d)]",
           ["tests/app/test_drivers_doc.py::test_cli_writes_the_driver_outputs"],
           "drivers.csv: the power column holds the effort"),
    Mutant("direction-gamma-without-acceleration", K,
           "- (b0 * q0 + b1 * q1 + b2 * q2)",
           "- 0.0 * (b0 * q0 + b1 * q1 + b2 * q2)",
           [T_DIR_FD], "direction driver row: gamma misses b . u'' (the direction's acceleration)"),
    Mutant("direction-gamma-coupling-sign", K,
           "- 2.0 * (x0 * p0 + x1 * p1 + x2 * p2)",
           "+ 2.0 * (x0 * p0 + x1 * p1 + x2 * p2)",
           [T_DIR_FD], "direction driver row: sign of gamma's 2 ((w_j - w_i) x b) . u' term"),
    Mutant("direction-gamma-relative-omega", K,
           "x0, x1, x2 = _cross(wj0 - wi0, wj1 - wi1, wj2 - wi2, b0, b1, b2)",
           "x0, x1, x2 = _cross(wj0, wj1, wj2, b0, b1, b2)",
           [T_DIR_FD + "[True]"],
           "direction driver row: gamma's u' term forgets body 1's rotation"),
    Mutant("direction-nu-sign", K,
           "+ (b0 * p0 + b1 * p1 + b2 * p2))",
           "- (b0 * p0 + b1 * p1 + b2 * p2))",
           [T_DIR_FD], "direction driver row: Phi_dot = Phi_q q_dot + nu (sign of nu)"),
    Mutant("direction-unit-second-derivative", DRV,
           "u2 = (d2 - 2.0 * n1[:, None] * u1 - n2[:, None] * u)",
           "u2 = (d2 + 2.0 * n1[:, None] * u1 - n2[:, None] * u)",
           [T_DIR + "::test_unit_direction_derivatives_match_finite_differences"],
           "normalised direction: sign of the 2 n' u' term of u''"),
    Mutant("direction-effort-sign", DRV,
           "torque -= lam[:, r][:, None] * np.cross(b, c)",
           "torque += lam[:, r][:, None] * np.cross(b, c)",
           [T_DIR + "::test_held_pendulum_torque_is_the_gravity_moment"],
           "direction driver torque = the reaction on body 1, not the drive on the body"),
    Mutant("direction-opposite-accepted", "SimPhantWorkbench/solver/model.py",
           "if not np.dot(R1 @ u0, a) > 0.0:",
           "if False:",
           [T_DIR + "::test_bad_input_names_the_driver"],
           "a vector pointing away from the direction accepted (driven to -u)"),
    Mutant("step-derivative-span", DRV,
           "np.where(inside, dh * ds / span, 0.0)",
           "np.where(inside, dh * ds, 0.0)",
           [T_DRV + "::test_motion_derivatives_match_finite_differences"],
           "smooth step rate not divided by its time span"),
    Mutant("driver-work-sign", RES,
           '"balance": total + diss - work - drive - loads}',
           '"balance": total + diss - work + drive - loads}',
           ["tests/solver/test_driver_energy.py"],
           "energy balance adds the driver work instead of subtracting it"),
    Mutant("driver-work-left-out", RES,
           "drive = self._driver_work.sum(axis=1)",
           "drive = np.zeros(len(self.t))",
           ["tests/app/test_examples.py::test_every_example_keeps_its_energy_balance",
            T_DWORK + "::test_driven_balance_closes_at_any_output_step"],
           "energy balance without the driver work"),
    Mutant("driver-power-sign", K,
           "            W.load_val[dv, LOAD_POWER] -= W.lam[r] * jv",
           "            W.load_val[dv, LOAD_POWER] += W.lam[r] * jv",
           [T_DWORK + "::test_lifting_a_mass_at_constant_speed_does_m_g_v_t[100-rk4]"],
           "the drivers' power summed in the run with the wrong sign (the multiplier's "
           "force taken as the driver's)"),
    Mutant("driver-work-rk4-end-stages-weighed-as-middle", K,
           "                elif stage == 0 or stage == 3:\n"
           "                    accumulate_work(S, W, h / 6.0)",
           "                elif stage == 0 or stage == 3:\n"
           "                    accumulate_work(S, W, h / 3.0)",
           [T_DWORK + "::test_lifting_a_mass_at_constant_speed_does_m_g_v_t[100-rk4]"],
           "RK4's quadrature of the drivers' (and elements') power weighs its end stages "
           "h/3 instead of h/6"),
    Mutant("driver-work-rows-of-one-slot-only", K,
           "            if dv < 0:\n                continue\n",
           "            if dv < 0 or r > S.jnt_row0[k] + S.jnt_nrow[k] - 2:\n"
           "                continue\n",
           [T_DWORK + "::test_driver_work_of_a_point_driver_sums_its_rows"],
           "a multi-row driver's power leaves out its last row"),
    Mutant("driver-work-scipy-rates-stale", "SimPhantWorkbench/solver/system.py",
           "            kernels.driver_powers(self.S, self.W)\n",
           "            pass\n",
           [T_DWORK + "::test_driven_balance_closes_with_scipy_methods"],
           "an adaptive SciPy run integrates the drivers' power of an earlier evaluation"),
    Mutant("driver-work-old-archive-not-integrated", RES,
           "            self._driver_work = _sample_work(self.t, self._driver_power)\n",
           "            self._driver_work = 0.0 * self._driver_power\n",
           [T_DWORK + "::test_driver_work_outlives_saving_and_old_archives_fall_back"],
           "a result saved before the driver work was kept reads it as zero"),
    Mutant("forces-plot-rate-as-force", "SimPhantWorkbench/output/plots.py",
           "ax.plot(result.t, result.spring_force(name), color=COLORS[0])",
           "ax.plot(result.t, result.spring_rate(name), color=COLORS[0])",
           ["tests/app/test_force_elements.py::"
            "test_forces_plot_shows_each_elements_force_coordinate_and_power"],
           "forces.png plots the element's rate as its force"),
    Mutant("forces-plot-not-written", OUT,
           'step("forces.png", plot_forces, result, os.path.join(out_dir, "forces.png"), title)',
           "pass",
           ["tests/app/test_force_elements.py::test_cli_writes_the_forces_plot"],
           "write_all leaves out forces.png"),
    Mutant("quantity-element-moment-as-force", "SimPhantWorkbench/output/quantities.py",
           'return "torque" if _element_rotation(result, target) else "force"',
           'return "force"',
           ["tests/app/test_quantities.py::"
            "test_force_element_and_driver_quantities_read_the_result"],
           "plot panel: a torsional element's moment in force units"),
    Mutant("quantity-driver-power-reads-effort", "SimPhantWorkbench/output/quantities.py",
           "return result.driver_power(target.key)[:, None]",
           "return result.driver_effort(target.key)[:, None]",
           ["tests/app/test_quantities.py::"
            "test_force_element_and_driver_quantities_read_the_result"],
           "plot panel: driver power shows the effort"),
    Mutant("gui-export-csv-misses-member-files", "SimPhantWorkbench/results_gui/export.py",
           "only=lambda name: name.endswith(ext))",
           "only=lambda name: name.endswith(ext) and not name.startswith(('forces', "
           "'drivers')))",
           ["tests/gui/test_results_gui_elements.py::test_gui_exports_write_the_cli_files"],
           "GUI export leaves out forces/drivers files"),
    Mutant("panel-member-targets-left-out", "SimPhantWorkbench/results_gui/plot_panel.py",
           "    out.update(member_targets(study, result).values())\n",
           "",
           ["tests/gui/test_results_gui_elements.py::"
            "test_the_panel_lists_force_elements_and_drivers"],
           "plot panel does not list a study's force elements and drivers"),
    Mutant("driver-panel-not-validated", "SimPhantWorkbench/taskpanels/task_driver.py",
           "driver_data(probe, study_joints(find_study(self.obj)))",
           "study_joints(find_study(self.obj))",
           ["tests/gui/test_drivers_gui.py"],
           "the driver task panel accepts values driver_data refuses"),
    Mutant("driver-panel-not-opened", "SimPhantWorkbench/gui/common.py",
           "            FreeCADGui.getDocument(doc.Name).setEdit(obj.Name)\n",
           "            pass\n",
           ["tests/gui/test_drivers_gui.py"],
           "adding a driver does not open its task panel"),
    Mutant("warmup-fixed-step-loads-adaptive", SIM,
           "warmup.ensure(block_size, adaptive=not info.fixed_step,",
           "warmup.ensure(block_size, adaptive=True,",
           ["tests/solver/test_warmup.py::test_simulate_reports_the_kernel_preparation_apart",
            "tests/solver/test_warmup.py::"
            "test_a_fixed_step_run_does_not_load_the_adaptive_machinery"],
           "a fixed-step run loads the SciPy methods' evaluator and scipy.integrate"),
    Mutant("warmup-adaptive-not-prepared", "SimPhantWorkbench/solver/warmup.py",
           "    parts = [(block_size, False)] + ([(block_size, True)] if adaptive else [])",
           "    parts = [(block_size, False)]",
           ["tests/solver/test_warmup.py::test_simulate_reports_the_kernel_preparation_apart"],
           "an adaptive run compiles its evaluator inside the solve"),
    Mutant("result-joint-order-not-applied", RES,
           "    for c in range(0, len(a), _CHUNK):\n        a[c:c + _CHUNK] = a[c:c + _CHUNK][:, order]",
           "    pass",
           ["tests/solver/test_constraint_forces.py::"
            "test_reactions_are_reported_in_model_joint_order"],
           "reactions stay in the system's elimination order"),
    Mutant("tessellation-orientation-unchecked", "SimPhantWorkbench/document/scene.py",
           "            if oriented_closed(t) and _closed(shape, p, t):",
           "            if _closed(shape, p, t) or True:",
           ["tests/app/test_outputs.py::"
            "test_whole_shape_tessellation_is_checked_before_it_is_used"],
           "a one-call tessellation is used without checking it"),
    Mutant("oriented-closed-ignores-direction", "SimPhantWorkbench/output/mesh.py",
           "and bool(np.isin(b * n + a, codes, assume_unique=True).all()))",
           ")",
           ["tests/app/test_outputs.py::"
            "test_whole_shape_tessellation_is_checked_before_it_is_used"],
           "a flipped triangle passes the orientation check"),
    Mutant("scene-body-data-not-reused", "SimPhantWorkbench/document/scene.py",
           "    with reused_body_data():\n        return _scene_from_study(",
           "    if True:\n        return _scene_from_study(",
           ["tests/app/test_viewer.py::test_the_scene_evaluates_each_body_once"],
           "the scene integrates each body's mass properties several times"),
    Mutant("archive-quaternions-unchecked", "SimPhantWorkbench/solver/result_file.py",
           "            if err > _ROT_TOL:\n                raise ResultError(\"%s: its result holds rotations that are not rigid \"\n                                  \"(quaternion",
           "            if False:\n                raise ResultError(\"%s: its result holds rotations that are not rigid \"\n                                  \"(quaternion",
           ["tests/app/test_hostile.py::test_damaged_results_are_refused_naming_the_result"],
           "a stored result whose quaternions are not unit plays back sheared bodies"),
    Mutant("archive-keeps-derived-series", RES,
           "        if derived or self._R_pu is None:",
           "        if True:",
           ["tests/solver/test_result_storage.py::test_archives_load_to_the_same_values",
            "tests/app/test_result_archive.py::test_store_result_writes_the_archive_uncompressed"],
           "archives hold the series derived from the states again (37 % larger)"),
    Mutant("gif-job-not-used", "SimPhantWorkbench/cli/run.py",
           "    if job is None or scene is None:\n        if job is not None:",
           "    if True:\n        if job is not None:",
           ["tests/app/test_gif_job.py::test_the_animation_comes_from_the_second_process"],
           "the prepared animation process is left idle and the run renders the GIF itself"),
    Mutant("gif-job-renders-without-files", "SimPhantWorkbench/viewer/gif_job.py",
           "        if not line.strip():\n            return 0",
           "        if not line.strip():\n            return 1",
           ["tests/app/test_gif_job.py::"
            "test_a_waiting_child_exits_quietly_when_the_run_ends_without_it"],
           "a waiting animation process fails when the run ends without it"),
    Mutant("energy-drift-of-the-total", "SimPhantWorkbench/solver/metrics.py",
           'e = r.energy()["balance"]', 'e = r.energy()["total"]',
           ["tests/solver/test_sweep_support.py::"
            "test_energy_drift_is_the_drift_of_the_energy_balance"],
           "the sweep's energy drift counts a damper's dissipation as drift"),
    Mutant("legend-not-capped", "SimPhantWorkbench/output/plots.py",
           "    if len(handles) > LEGEND_MAX:",
           "    if False:",
           ["tests/app/test_outputs.py::test_many_bodies_get_a_legend_that_fits"],
           "fifty bodies' names cover the positions plot"),
    # ---------------------------------------------------------------- the run pipeline
    Mutant("pipeline-ignores-analysis-mode", "SimPhantWorkbench/run/pipeline.py",
           "    return Run(study, conversion, settings, analysis_mode(study), dict(overrides))",
           '    return Run(study, conversion, settings, "dynamic", dict(overrides))',
           ["tests/gui/test_one_pipeline_gui.py::"
            "test_gui_solve_of_a_kinematic_study_stores_a_kinematic_result"],
           "every entry point integrates a Kinematic study"),
    Mutant("blas-threads-left-alone", "SimPhantWorkbench/solver/blas.py",
           "            if getter() != 1:\n                setter(1)",
           "            pass",
           ["tests/app/test_determinism.py::"
            "test_a_run_gives_the_same_bits_with_one_blas_thread_as_with_several"],
           "the principal axes depend on the process's BLAS threads"),
    Mutant("registry-torque-view-provider", "SimPhantWorkbench/objects/__init__.py",
           'ObjectType("SimPhant::Torque", _FEATURE, "load", "Torque", "view_load", "VPLoad",',
           'ObjectType("SimPhant::Torque", _FEATURE, "load", "Torque", "view_body", "VPBody",',
           ["tests/gui/test_one_pipeline_gui.py::"
            "test_objects_saved_headless_get_their_view_provider_and_icon_in_the_gui"],
           "a torque gets a body's view provider"),
    Mutant("layers-upward-import", "SimPhantWorkbench/document/results.py",
           "from ..solver import ModelError\nfrom .base import require_study, study_result",
           "from ..objects import add_object  # noqa: F401\nfrom ..solver import ModelError\n"
           "from .base import require_study, study_result",
           ["tests/app/test_layers.py::test_imports_between_rooms_go_down"],
           "the document room imports the objects room above it"),
    Mutant("layers-private-import", "SimPhantWorkbench/run/store.py",
           "from ..document.base import study_result, transaction",
           "from ..document.base import _KIND_WORDS, study_result, transaction  # noqa: F401",
           ["tests/app/test_layers.py::test_no_private_names_imported_from_other_modules"],
           "a module takes another module's private name"),
    Mutant("settings-fixed-step-without-step", "SimPhantWorkbench/document/settings.py",
           '    if info is not None and info.fixed_step and not float(values["TimeStep"]) > 0.0:',
           "    if False:",
           ["tests/gui/test_study_panel_gui.py"],
           "a fixed-step method with TimeStep 0 passes the panel and fails in the solver"),
    Mutant("check-lines-mobility-from-gruebler", "SimPhantWorkbench/run/check.py",
           '"t = 0)" % (facts["mobility"], facts["jacobian_rank"],',
           '"t = 0)" % (facts["gruebler_dof"], facts["jacobian_rank"],',
           ["tests/gui/test_check_gui.py", "tests/app/test_cli.py::"
            "test_run_without_model_runs_the_bundled_slider_crank_and_prints_the_summary"],
           "the check and the summary report the Gruebler count as the mobility"),
    # ---------------------------------------------------------------- loads to FEM
    Mutant("fem-body1-reaction-sign", "SimPhantWorkbench/fem/loads.py",
           "sign = 1.0 if jd.body2 == body else -1.0", "sign = 1.0",
           ["tests/app/test_fem.py::test_connecting_rod_at_peak_wrist_pin_force"],
           "the reaction on a joint's first body taken as the one on its second"),
    Mutant("fem-acceleration-world-axes", "SimPhantWorkbench/fem/loads.py",
           "acceleration=R.T @ result.acceleration(key)[k],",
           "acceleration=result.acceleration(key)[k],",
           ["tests/app/test_fem.py::test_spinning_bar_radial_stress_and_no_support_load"],
           "the CoG acceleration left in world axes instead of the body's"),
    Mutant("fem-joint-moment-unit", "SimPhantWorkbench/fem/solve.py",
           "jl.force, jl.moment * M_TO_MM, jl.point", "jl.force, jl.moment, jl.point",
           ["tests/app/test_fem.py::test_connecting_rod_at_peak_wrist_pin_force"],
           "joint moments put on the mesh in N m where the deck is in N mm"),
    Mutant("fem-centrif-axis-at-origin", "SimPhantWorkbench/fem/solve.py",
           "centrif = (w2, cog, w / np.sqrt(w2))", "centrif = (w2, 0.0 * cog, w / np.sqrt(w2))",
           ["tests/app/test_fem.py::test_spinning_bar_radial_stress_and_no_support_load"],
           "the centrifugal load's axis through the frame origin instead of the CoG"),
    Mutant("fem-uniform-sign", "SimPhantWorkbench/fem/loads.py",
           "return self.gravity - self.acceleration", "return self.acceleration - self.gravity",
           ["tests/app/test_fem.py::test_spinning_bar_radial_stress_and_no_support_load"],
           "the d'Alembert load of the CoG acceleration with the wrong sign"),
    Mutant("fem-alpha-field-sign", "SimPhantWorkbench/fem/solve.py",
           "-density * _skew(case.alpha), cog)", "density * _skew(case.alpha), cog)",
           ["tests/app/test_fem.py::test_bar_with_angular_acceleration_only_bending_moment"],
           "the angular-acceleration part of the inertial field with the wrong sign"),
    Mutant("fem-density-unit", "SimPhantWorkbench/fem/solve.py",
           "KG_M3_TO_T_MM3 = 1e-12", "KG_M3_TO_T_MM3 = 1e-9",
           ["tests/app/test_fem.py::test_spinning_bar_radial_stress_and_no_support_load"],
           "the density written in kg/mm^3 instead of t/mm^3"),
    Mutant("fem-distribute-moment-transfer", "SimPhantWorkbench/fem/meshload.py",
           "M = np.asarray(moment, dtype=float) + np.cross(np.asarray(point, dtype=float) - c, F)",
           "M = np.asarray(moment, dtype=float)",
           ["tests/app/test_fem.py::test_distribute_reproduces_force_and_moment"],
           "a joint's moment taken about the element's centre instead of the joint point"),
    Mutant("fem-solid-shown-when-shaped", "SimPhantWorkbench/fem/analysis.py",
           "        solid.ViewObject.Visibility = False\n    solid.Shape = case.solid\n",
           "        pass\n    solid.Shape = case.solid\n"
           "    if FreeCAD.GuiUp:\n        solid.ViewObject.Visibility = False\n",
           ["tests/gui/test_undo_gui.py::"
            "test_undo_of_every_changing_command_gives_back_the_document_and_redo_repeats_it"],
           "the FEM solid tessellated by its view provider: its saved and reopened shape "
           "bounds differently"),
    # ---- the dependency check, its advice, the GUI and the kernel preparation
    Mutant("deps-too-old-ignored", "SimPhantWorkbench/deps/probe.py",
           'if req.minimum and not versions.satisfies(version, ">=" + req.minimum):',
           'if False:',
           ["tests/solver/test_deps.py::test_numba_older_than_the_tested_range_is_an_error"],
           "a numba below the tested range passes the check"),
    Mutant("deps-any-missing-module-is-missing", "SimPhantWorkbench/deps/probe.py",
           "if isinstance(exc, ModuleNotFoundError) and exc.name == req.name:",
           "if isinstance(exc, ModuleNotFoundError):",
           ["tests/solver/test_deps.py::"
            "test_scipy_built_for_a_newer_numpy_is_named_with_both_versions"],
           "a scipy failing on numpy's missing module is called missing, not mismatched"),
    Mutant("deps-mismatch-ignored", "SimPhantWorkbench/deps/probe.py",
           "if spec and not versions.satisfies(loaded[other], spec):",
           "if spec and False:",
           ["tests/solver/test_deps.py::test_numba_and_llvmlite_that_do_not_match",
            "tests/solver/test_deps.py::test_scipy_that_imports_but_declares_another_numpy"],
           "a package's declared requirement on numpy/llvmlite is not compared"),
    Mutant("deps-metadata-first-blank", "SimPhantWorkbench/deps/probe.py",
           'elif line in ("\\n", "\\r\\n"):',
           "elif not line.strip():",
           ["tests/solver/test_deps.py::"
            "test_scipy_built_for_a_newer_numpy_is_named_with_both_versions"],
           "the METADATA headers end at a folded field's blank line (scipy's License)"),
    Mutant("deps-version-less-than", "SimPhantWorkbench/deps/versions.py",
           '"<": c < 0,', '"<": c <= 0,',
           ["tests/solver/test_deps.py::test_version_helpers"],
           "'<' compares as '<='"),
    Mutant("advice-numba-with-deps", "SimPhantWorkbench/deps/advice.py",
           'cmds.append(_pip(ctx, ["%s==%s" % p for p in TESTED_PINS]))',
           'cmds.append(_pip(ctx, ["%s==%s" % p for p in TESTED_PINS], no_deps=False))',
           ["tests/solver/test_deps.py::"
            "test_missing_numba_is_named_with_the_command_that_installs_it"],
           "numba advised with its dependencies (pip would put a numpy next to it)"),
    Mutant("advice-no-distribution-scipy", "SimPhantWorkbench/deps/advice.py",
           "            if distro:\n", "            if False:\n",
           ["tests/solver/test_deps.py::"
            "test_scipy_built_for_a_newer_numpy_is_named_with_both_versions"],
           "scipy advised from pip where FreeCAD's numpy is the distribution's"),
    Mutant("jit-standin-runs-python", "SimPhantWorkbench/solver/jit.py",
           "            return unavailable\n", "            return func\n",
           ["tests/solver/test_deps.py::test_the_solver_imports_without_numba_and_refuses_to_run"],
           "without numba the kernels run as pure Python instead of refusing"),
    Mutant("gui-needs-solver-ignored", "SimPhantWorkbench/gui/common.py",
           "            return self.unavailable() is None and bool(self.active())",
           "            return bool(self.active())",
           ["tests/gui/test_dependencies_gui.py"],
           "Solve stays active without numba"),
    Mutant("warmup-wait-not-counted", "SimPhantWorkbench/solver/warmup.py",
           "    t0 = time.perf_counter()\n    with _lock:\n",
           "    with _lock:\n        t0 = time.perf_counter()\n",
           ["tests/solver/test_warmup.py::"
            "test_time_waiting_for_another_threads_preparation_is_compile_time"],
           "time waiting for the background preparation is counted as solve time"),
    Mutant("warmup-no-prefill", "SimPhantWorkbench/solver/warmup.py",
           "_prefilled.append(kernel_cache.prefill())", "_prefilled.append([])",
           ["tests/solver/test_warmup.py::"
            "test_kernels_compiled_next_to_the_sources_prefill_another_cache"],
           "a read-only install's pre-compiled kernels are not used"),
    Mutant("kernel-times-own-ignored", "SimPhantWorkbench/solver/kernel_times.py",
           "    if own:\n", "    if False:\n",
           ["tests/app/test_kernel_warmup.py::test_eta_comes_from_a_compile_measured_here"],
           "the ETA ignores the measurement of the same block size"),
    Mutant("status-loading-called-compiling", "SimPhantWorkbench/gui/kernel_warmup.py",
           '    if not p["compiling"]:\n', '    if False:\n',
           ["tests/app/test_kernel_warmup.py::test_status_text_tells_loading_from_compiling"],
           "loading from the cache is announced as compiling"),
    Mutant("package-xml-optional-depend", "package.xml",
           '<depend type="python" version_gte="0.61">numba</depend>',
           '<depend type="python" version_gte="0.61">numba</depend>\n'
           '  <depend type="python" optional="true">pyvista</depend>',
           ["tests/app/test_package_xml.py::test_every_depend_is_what_a_solve_needs"],
           "an optional extra in package.xml (0.20 would install it)"),
    Mutant("warmup-every-block-size", "SimPhantWorkbench/gui/kernel_warmup.py",
           "            parts += study_parts(study)\n",
           "            parts += [(3, False), (5, False), (6, False)]\n",
           ["tests/gui/test_workbench.py"],
           "opening a document compiles every block size, not the ones its studies need"),
    Mutant("doctor-exit-ok", "SimPhantWorkbench/cli/doctor.py",
           'return EXIT_OK if rep["ok"] else EXIT_DEPENDENCIES', "return EXIT_OK",
           ["tests/app/test_doctor.py::test_doctor_in_a_fresh_profile_names_numba_and_exits_4"],
           "simphant doctor exits 0 when numba is missing"),
    # ---------------------------------------------------------------- parameter studies
    Mutant("sweep-element-metric-as-body", "SimPhantWorkbench/sweep/engine.py",
           "        if kind in maps:\n",
           "        if kind in maps and kind != \"element\":\n",
           [T_TRUST + "::test_force_element_metrics_of_every_family_match_three_hand_runs_bit_"
            "for_bit"],
           "a force element's metric looked up among the bodies: every variant failed"),
    Mutant("fingerprint-without-solver", "SimPhantWorkbench/solver/batch.py",
           "    if solver:\n        out[\"solver\"] = solver_digest()",
           "    if False:\n        out[\"solver\"] = solver_digest()",
           [T_TRUST + "::test_the_cache_serves_no_result_of_another_solver"],
           "the cache serves numbers of another SimPhant's solver"),
    Mutant("workers-version-not-compared", "SimPhantWorkbench/sweep/executors.py",
           "        other = sorted(w for w, dg in digests.items() if dg != mine)",
           "        other = []",
           [T_TRUST + "::test_workers_of_another_solver_are_refused"],
           "workers of another SimPhant accepted at connect"),
    Mutant("task-digest-not-checked", "SimPhantWorkbench/solver/batch.py",
           "        if t.solver is not None and t.solver != mine:",
           "        if False:",
           [T_TRUST + "::test_workers_of_another_solver_are_refused"],
           "a worker that joined later runs tasks of another solver's client"),
    Mutant("lost-variants-pick-a-best", "SimPhantWorkbench/sweep/outcome.py",
           '    if objective is None or any(r.get("status") == "lost" for r in rows):',
           "    if objective is None:",
           [T_TRUST + "::test_lost_batches_are_retried_then_reported_apart_and_never_pick_a_"
            "best"],
           "a best named from the variants the infrastructure left"),
    Mutant("lost-batches-not-retried", "SimPhantWorkbench/sweep/engine.py",
           "            if not fatal and attempt < self.retries and self.ex.connected():",
           "            if False:",
           [T_TRUST + "::test_lost_batches_are_retried_then_reported_apart_and_never_pick_a_"
            "best"],
           "a batch lost to a dying worker is not submitted again"),
    Mutant("lost-variants-exit-0", "SimPhantWorkbench/cli/sweep.py",
           '        if info["lost"]:',
           "        if False:",
           [T_TRUST + "::test_a_scheduler_without_workers_stops_with_a_hint"],
           "variants lost to the infrastructure end the command with exit 0"),
    Mutant("cluster-started-for-a-cached-rerun", "SimPhantWorkbench/sweep/engine.py",
           "            self.new_row(i, self.source.ask(i))\n            task = self.prepare_"
           "variant(i)",
           "            self.new_row(i, self.source.ask(i))\n            self.ex.start()\n"
           "            task = self.prepare_variant(i)",
           [T_TRUST + "::test_a_rerun_from_the_cache_starts_no_cluster_and_skipped_files_say_"
            "why"],
           "a rerun served by the cache starts the local cluster all the same"),
    Mutant("embedded-cluster-without-tls", "SimPhantWorkbench/sweep/executors.py",
           '                                      protocol="tls://", security=security,',
           '                                      protocol="tcp://", security=security,',
           [T_TRUST + "::test_the_embedded_cluster_refuses_other_processes"],
           "the local cluster listens without TLS: other processes can reach it"),
    Mutant("worker-not-started-again", "SimPhantWorkbench/sweep/executors.py",
           "            if self.attempts[k] < WORKER_START_ATTEMPTS:",
           "            if self.attempts[k] < 1:",
           [T_TRUST + "::test_a_worker_that_ends_while_starting_is_started_again_then_given_up"],
           "a worker that loses its first connection fails the whole local cluster"),
    Mutant("sigpipe-kept-at-its-default", "SimPhantWorkbench/sweep/executors.py",
           "        self.started = True\n        ignore_broken_pipes()\n",
           "        self.started = True\n",
           [T_TRUST + "::test_a_connection_closed_by_its_peer_does_not_end_a_process_that_runs_"
            "dask"],
           "FreeCAD 1.x ends on the first write to a connection a worker closed"),
    Mutant("cmaes-missing-unexplained", "SimPhantWorkbench/sweep/optimize.py",
           "                import cmaes  # noqa: F401",
           "                pass",
           ["tests/app/test_sweep.py::test_cma_es_without_cmaes_names_the_package"],
           "CMA-ES without the cmaes package fails inside Optuna instead of naming it"),
    Mutant("sigterm-not-handled", "SimPhantWorkbench/cli/progress.py",
           '    SIGNALS = ("SIGINT", "SIGTERM")',
           '    SIGNALS = ("SIGINT",)',
           [T_TRUST + "::test_sigterm_is_handled_like_ctrl_c"],
           "SIGTERM kills the sweep without writing the finished variants"),
    Mutant("dashboard-not-printed", "SimPhantWorkbench/cli/sweep.py",
           '        self.say("Dask dashboard %s" % p.dashboard if p.dashboard else "")',
           "        pass",
           [T_TRUST + "::test_the_dashboard_address_is_printed_when_dask_can_serve_it"],
           "the Dask dashboard's address is not printed"),
    Mutant("reserved-names-taken", "SimPhantWorkbench/sweep/values.py",
           "    if name in RESERVED_NAMES:",
           "    if False:",
           [T_HOSTILE_SWEEP + "::test_reserved_column_names_are_refused"],
           "a metric named status overwrites the table's own column"),
    Mutant("grid-size-unbounded", "SimPhantWorkbench/sweep/spec.py",
           "        if n > MAX_VARIANTS:",
           "        if False:",
           [T_HOSTILE_SWEEP + "::test_a_1000_to_the_4_grid_and_a_negative_seed_are_bad_input"],
           "a 1000^4 grid is not refused by its size"),
    Mutant("negative-seed-taken", "SimPhantWorkbench/sweep/values.py",
           "not 0 <= seed < 2 ** 63",
           "not -2 ** 63 <= seed < 2 ** 63",
           [T_HOSTILE_SWEEP + "::test_a_1000_to_the_4_grid_and_a_negative_seed_are_bad_input"],
           "a negative seed reaches NumPy (internal error)"),
    Mutant("settings-variable-clash-ignored", "SimPhantWorkbench/sweep/spec.py",
           "            if setting in self.settings:",
           "            if False:",
           [T_HOSTILE_SWEEP + "::test_a_study_endtime_variable_next_to_settings_t_end_is_"
            "refused"],
           "a Study.EndTime variable silently overridden by [settings] t_end"),
    Mutant("density-warning-lost", "SimPhantWorkbench/sweep/engine.py",
           '        row["warnings"] = "; ".join(filter(None, (density_warning(bd) for bd in '
           'conv.moving)))',
           '        row["warnings"] = ""',
           [T_HOSTILE_SWEEP + "::test_density_zero_keeps_its_warning"],
           "a variant with density 0 loses its default-density warning"),
    Mutant("plot-names-collide", "SimPhantWorkbench/sweep/spec.py",
           "            if f in files:",
           "            if False:",
           [T_HOSTILE_SWEEP + "::test_metrics_a_b_and_a_under_b_writing_the_same_plot_are_"
            "refused"],
           "metrics a/b and a_b write the same plot"),
    Mutant("long-names-taken", "SimPhantWorkbench/sweep/values.py",
           "    if not name or len(name) > MAX_NAME_LENGTH:",
           "    if not name:",
           [T_HOSTILE_SWEEP + "::test_a_300_character_metric_name_fails_before_simulating"],
           "a 300-character metric name fails only when its plot is written"),
    Mutant("inputs-in-out-overwritten", "SimPhantWorkbench/cli/sweep.py",
           "        if real in outputs or os.path.commonpath([real, cache]) == cache:",
           "        if False:",
           [T_HOSTILE_SWEEP + "::test_a_spec_named_sweep_json_inside_out_is_never_overwritten"],
           "a specification named sweep.json inside --out is overwritten"),
    Mutant("sweep-document-not-checked", "SimPhantWorkbench/cli/sweep.py",
           '            if zf.testzip() is not None or "Document.xml" not in zf.namelist():',
           "            if False:",
           [T_HOSTILE_SWEEP + "::test_a_full_disk_leaves_no_broken_sweep_document"],
           "a truncated _sweep.FCStd (a full disk) takes the document's place"),
    Mutant("damaged-cache-entry-raises", "SimPhantWorkbench/sweep/cache.py",
           "        except (ValueError, TypeError, KeyError, AttributeError):\n"
           "            self.damaged += 1",
           "        except (KeyError,):\n            self.damaged += 1",
           [T_HOSTILE_SWEEP + "::test_a_damaged_cache_is_bad_input_and_a_damaged_entry_runs_"
            "again"],
           "a damaged cache entry is an internal error"),
    Mutant("kept-series-not-cached", "SimPhantWorkbench/sweep/cache.py",
           "                for name, (sig, t, x) in (series or {}).items():",
           "                for name, (sig, t, x) in {}.items():",
           ["tests/app/test_sweep.py::test_kept_series_are_written_per_variant_and_come_back_"
            "from_the_cache"],
           "kept series are not stored with the cached variant"),
    Mutant("variant-timeout-ignored", "SimPhantWorkbench/solver/batch.py",
           "    progress = _until(t0 + float(task.timeout)) if task.timeout else None",
           "    progress = None",
           ["tests/solver/test_sweep_support.py::test_a_timeout_fails_a_variant_and_kept_series_"
            "come_back"],
           "the per-variant timeout never stops a run"),
    Mutant("metric-minus-adds", "SimPhantWorkbench/solver/metrics.py",
           'ast.Sub: ("-", operator.sub)',
           'ast.Sub: ("-", operator.add)',
           ["tests/solver/test_sweep_support.py::test_metric_arithmetic_percentiles_and_their_"
            "errors"],
           "a - b in a metric expression adds"),
    Mutant("sobol-total-index-halved", "SimPhantWorkbench/sweep/sensitivity.py",
           "    st = 0.5 * np.mean((fa - fab) ** 2, axis=1) / var",
           "    st = np.mean((fa - fab) ** 2, axis=1) / var",
           ["tests/solver/test_sweep_support.py::test_sobol_indices_of_the_ishigami_function"],
           "Jansen's total index without its factor 1/2"),
    Mutant("quasi-random-is-random", "SimPhantWorkbench/sweep/designs.py",
           '    if design in ("sobol", "halton"):',
           '    if design in ("sobol", "halton"):\n        return rng.random((n, d))',
           ["tests/app/test_sweep.py::test_quasi_random_designs_fill_the_ranges_evenly_and_"
            "repeat_with_their_seed"],
           "Sobol' and Halton designs are plain random samples"),
    Mutant("pareto-keeps-dominated", "SimPhantWorkbench/sweep/outcome.py",
           "    return [r for r, v in zip(ok, vec) if not any(dominates(w, v) for w in vec)]",
           "    return ok",
           [T_TRUST + "::test_a_pareto_front_of_two_conflicting_metrics_is_non_dominated"],
           "the Pareto front keeps dominated variants"),
    Mutant("best-ignores-constraints", "SimPhantWorkbench/sweep/outcome.py",
           '    return [r for r in rows if r.get("status") == "ok" and spec.feasible(r)',
           '    return [r for r in rows if r.get("status") == "ok"',
           [T_TRUST + "::test_the_optimiser_respects_a_constraint_and_runs_on_the_cluster"],
           "the best variant may break the constraints"),
    # ---------------------------------------------------------------- translations
    Mutant("untranslated-label", "SimPhantWorkbench/taskpanels/task_joint.py",
           'grid.addRow(translate("SimPhant", "Joint kind"), self.kind_box)',
           'grid.addRow("Joint kind", self.kind_box)',
           ["tests/app/test_translations.py::test_every_gui_string_goes_through_translate",
            "tests/gui/test_translations_gui.py::"
            "test_every_text_of_the_panels_dialogs_and_plots_is_translated"],
           "a label of the joint panel stays English in every language"),
    Mutant("translated-filled-in-string", "SimPhantWorkbench/taskpanels/task_playback.py",
           'form.setWindowTitle(translate("SimPhant", "Playback: %s") % self.study.Label)',
           'form.setWindowTitle(translate("SimPhant", "Playback: %s" % self.study.Label))',
           ["tests/app/test_translations.py::test_every_gui_string_goes_through_translate"],
           "a title is looked up after the study's name is filled in: never translated"),
    Mutant("template-not-extracted", "SimPhantWorkbench/taskpanels/task_joint.py",
           'QtGui.QCheckBox(translate("SimPhant", "Reverse the joint axis"))',
           'QtGui.QCheckBox(translate("SimPhant", "Reverse the axis"))',
           ["tests/app/test_translations.py::test_the_template_holds_exactly_the_marked_strings"],
           "a new string without make translations: translators never see it"),
    Mutant("translations-not-registered", "InitGui.py",
           "        translation.install()",
           "        pass",
           ["tests/gui/test_translations_gui.py::test_the_workbench_loads_its_translations"],
           "the workbench's translations are never loaded"),
    # ---------------------------------------------------------------- undo, links, saved files
    Mutant("reference-xlink-type", "SimPhantWorkbench/document/links.py",
           'REFERENCE_TYPE = "App::PropertyLinkSubGlobal"',
           'REFERENCE_TYPE = "App::PropertyXLinkSub"',
           ["tests/app/test_undo.py::"
            "test_no_simphant_object_stores_a_link_that_freecad_1_cannot_undo"],
           "references in the link type whose undo corrupts FreeCAD 1.0 documents"),
    Mutant("factory-create-outside-transaction", "SimPhantWorkbench/factory.py",
           "        with transaction(doc, title):\n            obj = add_object(",
           "        if True:\n            obj = add_object(",
           ["tests/app/test_undo.py::test_undo_restores_redo_repeats_and_both_save_whole"],
           "objects made by the factory cannot be undone"),
    Mutant("legacy-references-not-migrated", "SimPhantWorkbench/objects/base.py",
           "        elif spec.type == REFERENCE_TYPE \\\n",
           "        elif False and spec.type == REFERENCE_TYPE \\\n",
           ["tests/app/test_links.py::"
            "test_the_references_of_a_document_of_simphant_0_1_are_migrated_on_opening"],
           "older documents keep their references in XLinkSub properties"),
    Mutant("cross-document-reference-ambiguous-link", "SimPhantWorkbench/document/links.py",
           "    if len(found) == 1:", "    if len(found) >= 1:",
           ["tests/app/test_links.py::"
            "test_a_legacy_cross_document_reference_without_one_link_is_kept_and_refused"],
           "a reference shown by two links is re-expressed through the first"),
    Mutant("factory-accepts-foreign-reference", "SimPhantWorkbench/factory.py",
           "    if obj.Document is not doc:", "    if False:",
           ["tests/app/test_links.py::"
            "test_a_reference_into_another_document_is_refused_naming_it"],
           "a reference into another document is not named as such"),
    Mutant("document-check-blind-to-linksub", "SimPhantWorkbench/document/file_check.py",
           '_LINK_TAGS = {"Link": "value", "LinkSub": "value", "XLink": "name"}',
           '_LINK_TAGS = {"Link": "value", "XLink": "name"}',
           ["tests/app/test_links.py::"
            "test_a_reference_to_an_object_the_file_lacks_is_named_by_the_document_check"],
           "a reference to an object the file lacks goes unnoticed"),
    Mutant("result-links-not-repointed", "SimPhantWorkbench/document/fcstd.py",
           "    if os.path.normpath(os.path.abspath(source_folder)) == \\\n",
           "    if True or os.path.normpath(os.path.abspath(source_folder)) == \\\n",
           ["tests/app/test_saved_files.py::"
            "test_links_are_repointed_for_where_the_copy_will_live"],
           "a result document saved elsewhere keeps the model-relative link paths"),
    Mutant("nothing-lost-blind-to-links", "SimPhantWorkbench/document/inventory.py",
           "    lost += [text for text, where in unresolved_links(path, folder)\n",
           "    lost += [text for text, where in unresolved_links(path, folder) if False\n",
           ["tests/app/test_saved_files.py::"
            "test_freecads_own_save_as_elsewhere_loses_the_linked_part_and_the_check_says_so"],
           "the nothing-lost check does not see a link that leads nowhere"),
    Mutant("nothing-lost-blind-to-view-data", "SimPhantWorkbench/document/inventory.py",
           "    if view_data:\n        import zipfile",
           "    if False:\n        import zipfile",
           ["tests/app/test_saved_files.py::test_the_check_names_missing_view_data"],
           "the nothing-lost check does not see a missing GuiDocument.xml"),
    Mutant("nothing-lost-blind-to-invalid", "SimPhantWorkbench/document/inventory.py",
           "    if invalid_before is not None:", "    if False:",
           ["tests/app/test_saved_files.py::"
            "test_save_as_refuses_a_document_with_an_object_that_became_invalid"],
           "an object that became invalid is saved without a word"),
    Mutant("headless-save-drops-view-data", "SimPhantWorkbench/document/fcstd.py",
           "        if members and not self.FreeCAD.GuiUp and self.wanted(doc):",
           "        if False:",
           ["tests/app/test_saved_files.py::"
            "test_headless_saves_keep_the_view_data_of_documents_with_simphant_objects"],
           "a script's doc.saveAs drops GuiDocument.xml"),
    Mutant("store-touches-the-study", "SimPhantWorkbench/run/store.py",
           "                if not study_touched:", "                if False:",
           ["tests/app/test_massprops.py::"
            "test_a_solve_leaves_every_object_of_the_document_untouched"],
           "a Solve leaves the study Touched"),
    Mutant("cli-import-not-reported", "SimPhantWorkbench/cli/summary.py",
           "    if imported:", "    if False:",
           ["tests/app/test_cli_assembly.py::"
            "test_an_assembly_without_a_study_is_imported_for_the_run_only"],
           "the summary does not say the study was imported for the run"),
    Mutant("cli-import-saved-in-place", "SimPhantWorkbench/cli/run.py",
           "        if args.in_place:\n            raise CliError(\"--in-place: '%s' has no",
           "        if False:\n            raise CliError(\"--in-place: '%s' has no",
           ["tests/app/test_cli_assembly.py::test_in_place_is_refused_for_an_imported_study"],
           "--in-place writes the study imported for the run into the model"),
    Mutant("assembly-limits-unmentioned", "SimPhantWorkbench/document/assembly.py",
           "        if not getattr(joint, switch, False):\n            continue\n",
           "        if True:\n            continue\n",
           ["tests/app/test_assembly_import.py::test_joint_limits_become_end_stops"],
           "an Assembly joint's limits are dropped without a word"),
    Mutant("transient-folder-not-linked", "SimPhantWorkbench/document/fcstd.py",
           '        if prop == "TransientDir" and doc.UndoCount:',
           "        if False:",
           ["tests/app/test_saved_files.py::"
            "test_undo_after_save_as_gives_back_the_replaced_result"],
           "undoing a re-run after Save As empties the Result's file"),
    Mutant("parameter-study-results-outside-transaction", "SimPhantWorkbench/sweep/__init__.py",
           '        with transaction(pstudy.Document, "SimPhant: store parameter-study '
           'results"):', "        if True:",
           ["tests/app/test_undo.py::test_undo_restores_redo_repeats_and_both_save_whole"],
           "a parameter study's stored results cannot be undone"),
    Mutant("reference-xlink-undo", "SimPhantWorkbench/document/links.py",
           'REFERENCE_TYPE = "App::PropertyLinkSubGlobal"',
           'REFERENCE_TYPE = "App::PropertyXLinkSub"',
           ["tests/app/test_undo.py::test_undo_restores_redo_repeats_and_both_save_whole"],
           "references in App::PropertyXLinkSub: undoing a joint's creation corrupts the "
           "document (FreeCAD 1.x)", fc1=True),
    Mutant("material-density-read-marks-the-part", "SimPhantWorkbench/document/massprops.py",
           '    value = getattr(material, "PhysicalProperties", {}).get("Density")\n'
           '    if value in (None, ""):\n'
           '        value = _untouched_read(obj, lambda: material.getPhysicalValue("Density"))',
           '    value = material.getPhysicalValue("Density")',
           ["tests/app/test_massprops.py::"
            "test_a_solve_leaves_every_object_of_the_document_untouched[ShapeMaterial]"],
           "reading a ShapeMaterial's density leaves the part Touched (FreeCAD 1.x)",
           fc1=True),
    Mutant("result-document-drops-view-data", "SimPhantWorkbench/document/opening.py",
           "            restore_gui_members(tmp, self.gui, warn)", "            pass",
           ["tests/app/test_saved_files.py::"
            "test_model_file_saves_put_the_view_data_back_by_themselves"],
           "simphant run's result document loses the model's view data"),
    Mutant("several-assemblies-first-taken", "SimPhantWorkbench/document/opening.py",
           "        if len(found) > 1:", "        if False:",
           ["tests/app/test_cli_assembly.py::test_several_assemblies_need_assembly_naming_one"],
           "simphant run takes the first of several Assemblies without --assembly"),
    Mutant("transaction-on-undo-off-document", "SimPhantWorkbench/document/base.py",
           '            self.undo = bool(getattr(self.doc, "UndoMode", 1))',
           "            self.undo = True",
           ["tests/app/test_undo.py::"
            "test_a_document_without_undo_leaves_no_transaction_open_for_the_next"],
           "a headless document leaves FreeCAD's transaction open for the next document"),
    # ---------------------------------------------------------------- hostile files
    Mutant("file-check-doctype-allowed", "SimPhantWorkbench/document/file_check.py",
           "    if declared:\n        raise FileRefused(",
           "    if False:\n        raise FileRefused(",
           [THF + "::test_a_billion_laughs_document_is_refused_before_freecad_parses_it"
            "[GuiDocument.xml]"],
           "a GuiDocument.xml declaring entities is copied into every saved document"),
    Mutant("cut-off-document-read", "SimPhantWorkbench/document/file_check.py",
           "        return ET.fromstring(data)\n    except ET.ParseError as exc:\n",
           "        return ET.fromstring(data)\n    except ET.ParseError as exc:\n"
           "        return ET.fromstring(b\"<Document/>\")\n",
           [THF + "::test_sweep_refuses_a_truncated_document_as_run_does"],
           "a Document.xml cut off before an object's data is swept (and run) without it"),
    Mutant("gui-xml-quadratic", "SimPhantWorkbench/viewer/scene.py",
           "    try:\n        root = ET.fromstring(xml)\n    except ET.ParseError:\n"
           "        return {}\n",
           "    text = xml.decode(\"utf-8\", \"replace\")\n"
           "    for m in re.finditer(r'<ViewProvider\\s+name=\"([^\"]+)\"(.*?)</ViewProvider>',"
           " text, re.S):\n        pass\n"
           "    try:\n        root = ET.fromstring(xml)\n    except ET.ParseError:\n"
           "        return {}\n",
           [THF + "::test_gui_document_xml_with_unclosed_tags_is_read_in_linear_time"],
           "GuiDocument.xml scanned by a regular expression quadratic in its unclosed tags "
           "(killed by the test's time-out, about 5 minutes)"),
    Mutant("file-check-negative-enum", "SimPhantWorkbench/document/file_check.py",
           "        if value is None or (value < 0 and items is not None and len(items.findall(",
           "        if value is None or (False and items is not None and len(items.findall(",
           [THF + "::test_a_negative_enumeration_index_is_refused_naming_object_and_property"],
           "a stored index -1 loads as another item (a revolute joint becomes fixed)"),
    Mutant("file-check-ratio-unchecked", "SimPhantWorkbench/document/file_check.py",
           "                info.file_size > _MAX_DEFLATE_RATIO * held + 1024:",
           "                False:",
           [THF + "::test_a_file_declaring_far_more_than_it_holds_is_refused"],
           "a member declaring far more than it holds goes to FreeCAD's reader"),
    Mutant("file-check-member-limit", "SimPhantWorkbench/document/file_check.py",
           "        limit = MAX_XML_BYTES if name in _XML_MEMBERS else MAX_MEMBER_BYTES\n"
           "        if info.file_size > limit:",
           "        limit = MAX_XML_BYTES if name in _XML_MEMBERS else MAX_MEMBER_BYTES\n"
           "        if False:",
           [THF + "::test_a_gui_member_inflating_beyond_the_limit_is_refused_before_reading"],
           "a shape member inflating to gigabytes is handed to FreeCAD"),
    Mutant("gui-member-unsized", "SimPhantWorkbench/document/file_check.py",
           "        if declared > limit:",
           "        if False:",
           [THF + "::test_a_gui_member_inflating_beyond_the_limit_is_refused_before_reading"],
           "a GuiDocument member is decompressed before its size is known"),
    Mutant("model-file-loss-checked-late", "SimPhantWorkbench/document/opening.py",
           "        lost = lost_objects(self.inventory, self.doc)\n        if lost:\n"
           "            raise ModelFileError(\n                \"'%s': %d object",
           "        lost = []\n        if lost:\n"
           "            raise ModelFileError(\n                \"'%s': %d object",
           [THF + "::test_sweep_refuses_a_document_that_would_lose_add_on_data_before_sweeping"],
           "a sweep of a document that lost an add-on's objects runs every variant first"),
    Mutant("save-unchecked", "SimPhantWorkbench/document/opening.py",
           "            check_saved_file(tmp, self.doc, folder, view_data=bool(self.gui),\n"
           "                             missing_before=self.missing_links)",
           "            pass",
           [THF + "::test_in_place_on_a_full_disk_keeps_the_model_and_exits_2"],
           "a truncated save on a full disk replaces the model"),
    Mutant("save-replaces-the-symlink", "SimPhantWorkbench/document/opening.py",
           "        self._write(os.path.realpath(self.path), self.path, warn, in_place=True)",
           "        self._write(os.path.abspath(self.path), self.path, warn, in_place=True)",
           [THF + "::test_in_place_through_a_symlink_writes_the_real_file_with_its_view_data"],
           "--in-place through a symlink replaces the link by a copy"),
    Mutant("save-loses-permissions", "SimPhantWorkbench/document/opening.py",
           "                os.chmod(tmp, os.stat(final).st_mode & 0o7777)",
           "                pass",
           [THF + "::test_in_place_through_a_symlink_writes_the_real_file_with_its_view_data"],
           "--in-place resets the model's permissions"),
    Mutant("in-place-no-backup", "SimPhantWorkbench/document/opening.py",
           "                self._backup(final, warn)",
           "                pass",
           ["tests/app/test_cli_contract.py::test_in_place_keeps_freecads_backup_of_the_model"],
           "--in-place keeps no backup of the model it replaces"),
    Mutant("save-leaves-stale-temps", "SimPhantWorkbench/document/opening.py",
           "        atomic.remove_stale_temps(os.path.dirname(os.path.realpath(path)))",
           "        pass",
           [THF + "::test_kill_9_during_an_in_place_save_leaves_no_temporary_file_after_the_"
            "next_run"],
           "the temporary file of a killed save stays forever"),
    Mutant("save-leaves-stale-temps-in-its-folder", "SimPhantWorkbench/document/opening.py",
           "        atomic.remove_stale_temps(directory)",
           "        pass",
           [THF + "::test_kill_9_during_an_in_place_save_leaves_no_temporary_file_after_the_"
            "next_run"],
           "the temporary file of a killed save into an output folder stays there"),
    Mutant("stale-temps-of-live-saves", "SimPhantWorkbench/output/atomic.py",
           "            if m.group(2) != host or pid_alive(int(m.group(1))):",
           "            if False:",
           [THF + "::test_kill_9_during_an_in_place_save_leaves_no_temporary_file_after_the_"
            "next_run"],
           "a save in progress has its temporary file removed under it"),
    Mutant("manifest-unsigned", "SimPhantWorkbench/output/outdir.py",
           "    if not _signed(manifest):",
           "    if False:",
           [THF + "::test_a_forged_run_json_with_a_run_id_deletes_nothing"],
           "a forged run.json knowing a file's hash has it deleted"),
    Mutant("commit-duplicate-names", "SimPhantWorkbench/output/outdir.py",
           "            if names.count(n) > 1:",
           "            if False:",
           [THF + "::test_two_outputs_of_one_name_are_refused_before_anything_is_moved"],
           "two outputs of one name leave a half-committed folder"),
    Mutant("video-clash-allowed", "SimPhantWorkbench/cli/run.py",
           '        clash = sorted(n for n in names if n in _RUN_VIDEO_NAMES or n.startswith("."))',
           "        clash = []",
           [THF + "::test_video_names_of_the_runs_own_files_are_refused_before_the_run"],
           "--video animation.gif fails after the run with a half-written folder"),
    Mutant("video-overwrites", "SimPhantWorkbench/cli/run.py",
           "        if os.path.lexists(os.path.join(os.path.dirname(path), n)):",
           "        if False:",
           [THF + "::test_an_existing_video_target_is_not_overwritten"],
           "--video overwrites an existing file silently"),
    Mutant("full-disk-internal-error", "SimPhantWorkbench/cli/run.py",
           "            except OSError as exc:               # a full disk...",
           "            except ZeroDivisionError as exc:",
           [THF + "::test_outputs_on_a_full_disk_exit_2_naming_the_file"],
           "a full disk is an internal error (exit 1)"),
    Mutant("output-times-collapse", SIM,
           "    if n == 0 or t_end - ts[-1] > 1e-9 * max(1.0, abs(t_end)):",
           "    if t_end - ts[-1] > 1e-9 * max(1.0, abs(t_end)):",
           [THF + "::test_t_end_1e_300_runs_from_t0_to_t_end"],
           "a span shorter than the time resolution gives one sample and an IndexError"),
    Mutant("function-depth-unbounded", "SimPhantWorkbench/solver/expressions.py",
           "    if depth > MAX_FUNCTION_DEPTH:",
           "    if False:",
           [THF + "::test_a_460_deep_unary_minus_is_bad_input_naming_the_force"],
           "a deeply nested time function overflows the compiler's recursion"),
    Mutant("duplicate-load-names", "SimPhantWorkbench/solver/model.py",
           "        if any(ld.name == name for ld in self.loads):",
           "        if False:",
           [THF + "::test_duplicate_load_names_are_refused"],
           "two loads of one name make the results ambiguous"),
    Mutant("scene-triangle-indices", "SimPhantWorkbench/viewer/scene.py",
           "        if len(triangles) and (triangles.min() < 0 or triangles.max() >= len(points)):",
           "        if False:",
           [THV + "::test_the_viewer_refuses_malformed_files_before_vtk_sees_them"],
           "triangle indices outside the mesh reach VTK (a crash)"),
    Mutant("scene-points-finite", "SimPhantWorkbench/viewer/scene.py",
           "        if not np.isfinite(points).all():",
           "        if False:",
           [THV + "::test_the_viewer_refuses_malformed_files_before_vtk_sees_them"],
           "NaN mesh points reach VTK"),
    Mutant("scene-size-unbounded", "SimPhantWorkbench/viewer/scene.py",
           "    if total > MAX_SCENE_BYTES:",
           "    if False:",
           [THV + "::test_view_refuses_a_zip_bomb_scene_before_decompressing"],
           "a scene inflating to gigabytes is decompressed"),
    Mutant("view-result-unchecked", "SimPhantWorkbench/viewer/files.py",
           "        result = read_result_file(res_path, \"'%s'\" % res_path)",
           "        result = __import__('SimPhantWorkbench.solver', fromlist=['Result'])"
           ".Result.load(res_path)",
           [THV + "::test_view_refuses_a_zip_bomb_result_before_decompressing",
            THV + "::test_the_viewer_refuses_malformed_files_before_vtk_sees_them"],
           "simphant view decompresses and draws any result.npz (bombs, NaN states)"),
    Mutant("title-not-shortened", "SimPhantWorkbench/output/plots.py",
           '    title = str(title or "")[:4 * TITLE_LENGTH]\n',
           '    return str(title or "")\n',
           [THV + "::test_a_megabyte_title_is_drawn_shortened"],
           "a megabyte title is laid out in full (minutes)"),
    Mutant("stored-result-drops-series", "SimPhantWorkbench/solver/result_file.py",
           "            expected.update((k, v) for k, v in _optional_shapes(n, meta, what).items()\n"
           "                            if k in heads)",
           "            pass",
           [THV + "::test_a_reopened_result_keeps_its_force_element_and_driver_series"],
           "a result read back from its document loses its force-element and driver series"),
    # ---------------------------------------------------------------- reactions (the rule)
    Mutant("reaction-rule-off", K,
           "    rule = R.zs.shape[0] > 0\n",
           "    rule = False\n",
           [T_REACT_QUICK],
           "reported multipliers are the dynamics' E-weighted ones, not the least-norm ones"),
    Mutant("reaction-rule-skipped-for-loops", REACT,
           "    return bool(system.loop_joints()) or bool(system.redundant.any())",
           "    return bool(system.redundant.any()) and False",
           [T_REACT + "::test_multipliers_are_the_least_norm_ones"],
           "a model with loops is treated as a tree: its shared loads are not made unique"),
    Mutant("reaction-angle-rows-weighted-as-force-rows", REACT,
           "        w = np.where(np.isin(S.row_prim, ROTATION_PRIMS), 1.0 / (L * L), 1.0)",
           "        w = np.where(np.isin(S.row_prim, ROTATION_PRIMS), 1.0, 1.0)",
           [T_REACT + "::test_multipliers_are_the_least_norm_ones"],
           "torques weighed like forces in the least norm (not invariant to the length unit)"),
    Mutant("reaction-rule-not-refined", REACT,
           "STEPS = 3\n",
           "STEPS = 0\n",
           [T_REACT + "::test_slider_crank_reactions_through_dead_centre_match_the_planar_"
            "closed_form[0.5-12.566370614359172]"],
           "the least-norm solve keeps its Tikhonov bias at regular configurations"),
    Mutant("reaction-filter-too-narrow", REACT,
           "SINGULAR_VALUE = 1e-2\n",
           "SINGULAR_VALUE = 1e-4\n",
           [T_REACT + "::test_parallelogram_chain_reactions_are_continuous_through_the_"
            "aligned_configuration"],
           "near a singular configuration the reactions follow the rigid model's 1/sigma"),
    Mutant("indeterminate-flags-never-set", K,
           "            if hit[k, c] > R.tol:",
           "            if hit[k, c] > 1e300:",
           [T_REACT_QUICK], "no reaction component is ever flagged indeterminate"),
    Mutant("indeterminate-flags-from-the-whole-vector", K,
           "            s[r] -= work[r]\n",
           "            s[r] -= 0.0 * work[r]\n",
           [T_REACT_QUICK],
           "components flagged from the random vector itself, not its self-stress part"),
    Mutant("indeterminate-flags-joint-axes-of-body-2", K,
           "    a0, a1, a2 = _frame_axis(A, bi, F, k, 0, 0)\n"
           "    b0, b1, b2 = _frame_axis(A, bi, F, k, 0, 1)\n"
           "    c0, c1, c2 = _frame_axis(A, bi, F, k, 0, 2)",
           "    a0, a1, a2 = _frame_axis(A, bi, F, k, 0, 2)\n"
           "    b0, b1, b2 = _frame_axis(A, bi, F, k, 0, 1)\n"
           "    c0, c1, c2 = _frame_axis(A, bi, F, k, 0, 0)",
           [T_REACT_QUICK], "joint-axes flags computed along the wrong axes"),
    Mutant("indeterminate-header-missing", "SimPhantWorkbench/output/tables.py",
           "        header += [\"%s %s%s\" % (j, c, INDETERMINATE if f else \"\")",
           "        header += [\"%s %s%s\" % (j, c, \"\")",
           ["tests/app/test_outputs.py::test_indeterminate_reaction_components_are_marked"],
           "reactions.csv does not say which components are indeterminate"),
    Mutant("solver-import-circle", WARM,
           "    kind = warmup_kind(block_size)\n    m = model_class(",
           "    from .model import Model  # noqa: F401\n    kind = warmup_kind(block_size)\n"
           "    m = model_class(",
           ["tests/solver/test_import.py::test_solver_modules_import_each_other_without_circles"],
           "the warm-up imports the model again: model -> simulation -> warmup -> model"),
    # ---------------------------------------------------------------- couplers
    Mutant("coupler-dot2-body-j-column", K,
           "gj0, gj1, gj2 = _cross(a0, a1, a2, d0 - sj0, d1 - sj1, d2 - sj2)",
           "gj0, gj1, gj2 = _cross(a0, a1, a2, d0 + sj0, d1 + sj1, d2 + sj2)",
           [T_CPL_FD], "DOT2 with its axis on body j: rotational column a x (d + s_j)"),
    Mutant("coupler-atan2-gamma", K,
           "gam = ((c * sg - s * cg) + 2.0 * pd * (c * cd + s * sd)) * n",
           "gam = ((c * sg - s * cg) + pd * (c * cd + s * sd)) * n",
           [T_CPL_FD], "gamma of the centre-line angle without the factor 2 of its chain rule"),
    Mutant("coupler-gear-sense", CPL,
           'sense = 1.0 if kind == "gear" else -1.0',
           'sense = -1.0 if kind == "gear" else 1.0',
           [T_CPL_GEAR], "an external gear pair turning both gears the same way"),
    Mutant("coupler-rack-radius", CPL,
           "c1, c2 = 1.0, 1.0 / radius",
           "c1, c2 = 1.0, radius",
           [T_CPL + "::test_rack_and_pinion_under_force_matches_reflected_mass"],
           "rack and pinion coupled by r instead of 1/r"),
    Mutant("coupler-screw-hand", CPL,
           "c1, c2 = 1.0, -2.0 * math.pi / lead",
           "c1, c2 = 1.0, 2.0 * math.pi / lead",
           [T_CPL + "::test_screw_descends_at_the_closed_form_rate"],
           "a positive lead makes a left-handed screw"),
    Mutant("coupler-rack-sense", CPL,
           "c1, c2 = 1.0, 1.0 / radius",
           "c1, c2 = -1.0, 1.0 / radius",
           [T_EX_STEER],
           "a rack and pinion moving the rack the other way for the pitch radius's sign"),
    Mutant("coupler-length-unit", "SimPhantWorkbench/document/couplers.py",
           "value = float(raw) if unit is None else quantity_si(raw, unit) * M_PER_MM",
           "value = float(raw) if unit is None else quantity_si(raw, unit)",
           [T_EX_STEER], "a coupler's pitch radius or lead in mm taken as metres"),
    Mutant("coupler-screw-lead-per-radian", CPL,
           "c1, c2 = 1.0, -2.0 * math.pi / lead",
           "c1, c2 = 1.0, -1.0 / lead",
           [T_EX_SCREW], "a screw advancing its lead per radian instead of per turn"),
    Mutant("stop-stiffness-unit", "SimPhantWorkbench/document/elements.py",
           'what + ": Stiffness") * unit ** (1.0 - e)',
           'what + ": Stiffness")',
           [T_EX_DOOR], "an end stop's stiffness per document unit (N mm/deg at 1 deg) taken "
           "as SI whatever its exponent"),
    Mutant("example-steering-radius-sign", "examples/make_examples.py",
           "Radius=r * math.copysign(1.0, x_rack)",
           "Radius=-r * math.copysign(1.0, x_rack)",
           [T_EX_STEER], "the steering example's pitch radius with the sense of its joint "
           "axes the wrong way round (the rack runs against the pinion's pitch point)"),
    Mutant("coupler-reaction-sign", RES,
           "cpl_react = react[:, system.coupler_pos]",
           "cpl_react = -react[:, system.coupler_pos]",
           [T_CPL_GEAR], "the coupler reaction reported on the wrong body"),
    Mutant("assembly-gear-ratio-inverted", "SimPhantWorkbench/document/assembly_couplers.py",
           'return CouplerPlan(joint, kind, found, {"Ratio": radius2 / distance}), None',
           'return CouplerPlan(joint, kind, found, {"Ratio": distance / radius2}), None',
           ["tests/app/test_assembly_couplers.py"],
           "an Assembly Gears joint imported with the inverse ratio"),
    Mutant("assembly-rack-pinion-sense-ignored", "SimPhantWorkbench/document/assembly_couplers.py",
           '{"Radius": sense * distance}), None',
           '{"Radius": distance}), None',
           ["tests/app/test_assembly_couplers.py::"
            "test_rack_and_pinion_moves_the_rack_the_way_freecad_does"],
           "an Assembly RackPinion whose coordinate systems point against the revolute's or "
           "slider's axis moves the rack the other way from FreeCAD's solver"),
    Mutant("assembly-rack-pinion-slide-frame", "SimPhantWorkbench/document/assembly_couplers.py",
           "* _sign(_z(jr), _z(slides[0].jcs1)))",
           "* _sign(_z(jr), _z(slides[0].jcs2)))",
           ["tests/app/test_assembly_couplers.py::"
            "test_rack_and_pinion_moves_the_rack_the_way_freecad_does"],
           "the rack's sense taken against the slider's second frame, not the first one the "
           "coupler measures the slide along"),
    Mutant("lead-screw-left-handed", "SimPhantWorkbench/solver/couplers.py",
           "return bn, bs, fi, fs, _screw_law(fi, fs, lead), Z",
           "return bn, bs, fi, fs, _screw_law(fi, fs, -lead), Z",
           ["tests/solver/test_couplers.py::test_lead_screw_turns_at_the_closed_form_rate"],
           "a lead screw's thread left-handed: the screw turns the other way as the nut falls"),
    Mutant("assembly-screw-not-a-lead-screw", "SimPhantWorkbench/document/assembly_couplers.py",
           '                return CouplerPlan(joint, "lead_screw", [turns[0], slides[0]],',
           '                return CouplerPlan(joint, "lead_screw", [slides[0], turns[0]],',
           ["tests/app/test_assembly_couplers.py::"
            "test_a_lead_screw_becomes_a_lead_screw_coupler"],
           "FreeCAD's lead screw imported with the nut's joint as the screw's"),
    Mutant("assembly-gear-opposite-axes-kept", "SimPhantWorkbench/document/assembly_couplers.py",
           "        if _z(jcs1).dot(_z(jcs2)) < 0.0:",
           "        if False:",
           ["tests/app/test_assembly_couplers.py::"
            "test_gears_and_belt_become_couplers_of_the_two_axles"],
           "Gears/Belt with opposite coordinate-system axes keep their kind: the gears turn "
           "the other way from FreeCAD's solver"),
    # ---------------------------------------------------------------- per-feature skips
    Mutant("refinement-never-skipped", K,
           "        if rho > S.refine_skip * S.refine_skip * rho_b:",
           "        if True:",
           ["tests/solver/test_constraint_forces.py::"
            "test_refinement_is_skipped_when_the_plain_solve_is_already_exact"],
           "the refinement step runs when the plain solve is already exact"),
    Mutant("refinement-skipped-too-often", K,
           "        if rho > S.refine_skip * S.refine_skip * rho_b:",
           "        if rho > rho_b:",
           ["tests/solver/test_constraint_forces.py::"
            "test_refinement_can_be_switched_off_and_then_the_bias_returns"],
           "the refinement is skipped where it removes the Tikhonov bias"),
    Mutant("refinement-always-skipped", K,
           "        if rho > S.refine_skip * S.refine_skip * rho_b:",
           "        if False:",
           ["tests/solver/test_refinement_skip.py::"
            "test_mass_and_inertia_ratios_still_get_the_refinement"],
           "no refinement step at all: the start from the previous multipliers alone "
           "leaves the bias of large mass and inertia ratios"),
    Mutant("refinement-warm-residual-cold", K,
           "            e = eps[r] * (lam[r] - res[r]) if warm else eps[r] * lam[r]",
           "            e = eps[r] * lam[r]",
           ["tests/solver/test_refinement_skip.py::"
            "test_the_chain_skips_the_refinement_and_keeps_exact_multipliers[32]"],
           "the residual of a solve started from the previous multipliers taken as "
           "that of one from zero: the refinement is never skipped"),
    Mutant("refinement-warm-after-slow-convergence", K,
           "    W.stats[STAT_COLD] = 1.0     # the next solve starts from zero",
           "    W.stats[STAT_COLD] = 0.0",
           ["tests/solver/test_refinement_skip.py::"
            "test_mass_and_inertia_ratios_still_get_the_refinement"],
           "a solve that needed several refinement steps lets the next one start from the "
           "previous multipliers (their share along the soft directions lags: energy drift)"),
    Mutant("refinement-skip-not-scaled-by-condition", "SimPhantWorkbench/solver/system.py",
           "        skip = min(kernels.REFINE_SKIP, kernels.REFINE_SKIP_ERROR / np.sqrt(cond))",
           "        skip = kernels.REFINE_SKIP",
           ["tests/solver/test_refinement_skip.py::"
            "test_long_chains_keep_the_multipliers_within_2e_10_of_the_dense_solve"],
           "the skip tolerance of a long chain not lowered by its condition: its "
           "multipliers are left 5e-9 off"),
    Mutant("refinement-condition-unscaled-inverse", "SimPhantWorkbench/solver/system.py",
           "            y *= d * mask",
           "            y *= mask",
           ["tests/solver/test_refinement_skip.py::"
            "test_the_condition_estimate_is_that_of_the_dense_matrix"],
           "the inverse iteration of the condition estimate on the unscaled C + E"),
    Mutant("refinement-never-warm", "SimPhantWorkbench/solver/system.py",
           "        warm = 0 if self.redundant.any() else 1",
           "        warm = 0",
           ["tests/solver/test_refinement_skip.py::"
            "test_the_chain_skips_the_refinement_and_keeps_exact_multipliers"],
           "every solve starts from zero: the chain refines at every evaluation"),
    Mutant("refinement-warm-with-redundant-rows", "SimPhantWorkbench/solver/system.py",
           "        warm = 0 if self.redundant.any() else 1",
           "        warm = 1",
           ["tests/solver/test_refinement_skip.py::"
            "test_redundant_rows_start_from_zero_and_keep_the_least_norm_multipliers"],
           "redundant rows start from the previous multipliers: not the least-norm ones"),
    Mutant("force-elements-skipped", K,
           "    if S.frc_geom.shape[0] > 0:\n        apply_forces(S, W)",
           "    if S.frc_geom.shape[0] > 1:\n        apply_forces(S, W)",
           ["tests/solver/test_forces.py::test_spring_mass_period"],
           "a model with one force element skips the force-element work"),
    Mutant("timed-inputs-skipped", SIM,
           "            if sysm.has_timed_inputs:",
           "            if False:",
           [T_DRV + "::test_slider_crank_matches_closed_form_and_energy"],
           "a model with timed inputs runs without its load table"),
    Mutant("result-drivers-dropped-on-reopen", "SimPhantWorkbench/solver/result_file.py",
           "\"driver_rate\", \"driver_work\"))\n    # per coupler",
           "\"driver_rate\", \"driver_work\"))\n"
           "    out = {k: v for k, v in out.items() if 'driver' not in k}\n"
           "    # per coupler",
           ["tests/app/test_result_archive.py::test_every_member_of_a_result_survives_save_and_"
            "reopen_bit_for_bit"],
           "a reopened result loses its driver efforts, power, values, rates and work"),
    Mutant("result-indeterminacy-dropped-on-reopen", "SimPhantWorkbench/solver/result_file.py",
           '    out["react_indeterminate"] = (len(list(meta.get("joint_names") or ())), None)\n',
           "",
           ["tests/app/test_result_archive.py::test_every_member_of_a_result_survives_save_and_"
            "reopen_bit_for_bit"],
           "a reopened result forgets which reaction components were indeterminate"),
    Mutant("result-couplers-dropped-on-reopen", "SimPhantWorkbench/solver/result_file.py",
           '    out["coupler_react"] = (n, len(list(meta.get("coupler_names") or ())), 6)\n',
           "",
           ["tests/app/test_result_archive.py::test_every_member_of_a_result_survives_save_and_"
            "reopen_bit_for_bit"],
           "a reopened result loses what its couplers exerted"),
    Mutant("result-forces-dropped-on-reopen", "SimPhantWorkbench/solver/result_file.py",
           "out = dict(frc=(n, nf, 3), frc_pot=(n, nf), frc_diss=(n, nf), frc_work=(n, nf))",
           "out = dict()",
           ["tests/app/test_result_archive.py::test_every_member_of_a_result_survives_save_and_"
            "reopen_bit_for_bit"],
           "a reopened result loses its force-element series"),
    Mutant("pick-link-is-not-the-body", "SimPhantWorkbench/document/picking.py",
           "    return obj.isDerivedFrom(\"App::Part\") or "
           "obj.isDerivedFrom(\"App::DocumentObjectGroup\")",
           "    return False",
           ["tests/app/test_linked_picking.py"],
           "a click on a linked part designates the assembly's App::Part, not the part"),
    Mutant("datum-frame-x-ignored", "SimPhantWorkbench/document/joints.py",
           "    return None if rotation is None else np.asarray(rotation)[:, 0]",
           "    return None",
           ["tests/app/test_linked_picking.py"],
           "a joint on a datum coordinate system does not take the datum's x axis"),
    Mutant("selection-resolved-into-other-file", "SimPhantWorkbench/gui/common.py",
           "UNRESOLVED = 0\n", "UNRESOLVED = 1\n",
           ["tests/gui/test_linked_assembly_gui.py"],
           "the joint panel and Add body get the innermost feature of the linked file"),
    Mutant("dead-spin-box-wrapper-kept", "SimPhantWorkbench/taskpanels/widgets.py",
           "    _released_when_deleted(box)\n", "",
           ["tests/gui/test_panels_open_gui.py::"
            "test_a_spin_box_made_where_a_deleted_one_was_is_usable"],
           "a spin box made where a deleted one was gets its dead wrapper: the panel fails"),
    Mutant("joint-gap-point-rows-ignored", "SimPhantWorkbench/solver/dof.py",
           "            out.append((prim, float(d[a])))",
           "            pass",
           ["tests/app/test_picking.py::test_frame_gap_evaluates_the_rows_of_each_kind"],
           "the joint panel calls frames apart along the axis of a revolute joint aligned"),
    Mutant("joint-gap-angle-sign", "SimPhantWorkbench/solver/dof.py",
           "            miss = max(miss, abs(math.asin(value)))",
           "            miss = max(miss, math.asin(value))",
           ["tests/app/test_picking.py::test_frame_gap_evaluates_the_rows_of_each_kind"],
           "an axis tilted the other way counts as aligned"),
    Mutant("cancel-keeps-new-object", "SimPhantWorkbench/gui/common.py",
           "        self.step.close(keep=False)\n", "        self.step.close(keep=True)\n",
           ["tests/gui/test_undo_gui.py::"
            "test_cancel_on_the_panel_of_a_new_object_leaves_the_document_as_it_was"],
           "Cancel on the panel of an object a command just added leaves the object"),
    Mutant("stray-object-on-failed-panel", "SimPhantWorkbench/gui/common.py",
           "            if not in_edit():\n", "            if False:\n",
           ["tests/gui/test_panels_open_gui.py::"
            "test_the_motor_command_leaves_nothing_when_its_panel_fails"],
           "the motor command leaves a driver behind when its panel fails to open"),
    Mutant("sweep-clearance-wrong-pair", "SimPhantWorkbench/sweep/clearance.py",
           "                                for b in self.bodies[m.name]]",
           "                                for b in self.bodies[self.metrics[0].name]]",
           ["tests/app/test_sweep_clearance.py::test_clearance_and_interference_time_per_"
            "variant_against_the_closed_form"],
           "every clearance metric measures the first metric's pair of bodies"),
    Mutant("sweep-interference-time-wrong-intervals", "SimPhantWorkbench/sweep/clearance.py",
           "                tolerance = 2.0 * deflection if m.tolerance_mm is None \\\n",
           "                tolerance = 2.0 * deflection if True \\\n",
           ["tests/app/test_sweep_clearance.py::test_clearance_and_interference_time_per_"
            "variant_against_the_closed_form"],
           "interference_time sums the intervals deeper than the default tolerance, not "
           "the metric's own"),
    Mutant("sweep-clearance-unsigned", "SimPhantWorkbench/sweep/clearance.py",
           "        return float(REDUCERS[self.reducer][0](t, x, *self.args))",
           "        return float(REDUCERS[self.reducer][0](t, np.maximum(x, 0.0), *self.args))",
           ["tests/app/test_sweep_clearance.py::test_clearance_and_interference_time_per_"
            "variant_against_the_closed_form"],
           "min(clearance(A, B)) clipped at 0: an overlap's depth is lost"),
    Mutant("sweep-clearance-stale-solids", "SimPhantWorkbench/sweep/clearance.py",
           "        if self.solids is None or geometric:",
           "        if self.solids is None:",
           ["tests/app/test_sweep_clearance.py::test_clearance_and_interference_time_per_"
            "variant_against_the_closed_form"],
           "the solids are tessellated once although a variable changes geometry"),
    Mutant("sweep-clearance-key-without-solids", "SimPhantWorkbench/sweep/engine.py",
           "        if digest and row[\"key\"]:",
           "        if False:",
           ["tests/app/test_sweep_clearance.py::test_clearance_and_interference_time_per_"
            "variant_against_the_closed_form"],
           "the cache keys leave out the solids: variants that move a fixed body share "
           "one entry"),
    Mutant("sweep-poses-rotation-transposed", "SimPhantWorkbench/solver/batch.py",
           "                   np.asarray(result.rotation_matrix(name), dtype=float),",
           "                   np.asarray(result.rotation_matrix(name), dtype=float)"
           ".transpose(0, 2, 1),",
           ["tests/app/test_sweep_clearance.py::test_slider_crank_sweep_min_clearance_of_"
            "slider_and_crank"],
           "the worker sends the bodies' rotations back transposed (world -> body)"),
    Mutant("sweep-clearance-skipped-samples-left-out", "SimPhantWorkbench/sweep/clearance.py",
           "    skipped = traj_a.t[np.isnan(report.frames)]",
           "    skipped = traj_a.t[:0]",
           ["tests/app/test_sweep_clearance.py::test_clearance_and_interference_time_per_"
            "variant_against_the_closed_form"],
           "the clearance signal leaves out the output samples the check skipped (at() "
           "interpolates over them)"),
    Mutant("metric-crossing-misses-a-sample-on-the-level", "SimPhantWorkbench/solver/metrics.py",
           "    off = np.nonzero(s)[0]",
           "    off = np.arange(len(s))",
           ["tests/solver/test_sweep_support.py::test_crossings_through_a_sample_on_the_level"],
           "a signal that reaches the level exactly at a sample on its way through is taken "
           "not to cross"),
    Mutant("interference-epa-depth-unbounded", "SimPhantWorkbench/collision/geometry.py",
           "    return max(float(np.minimum(pa.max(axis=0) - pb.min(axis=0),",
           "    return 1e9 + max(float(np.minimum(pa.max(axis=0) - pb.min(axis=0),",
           ["tests/solver/test_collision.py::test_faces_that_just_touch_are_no_deeper_than_"
            "their_projections_overlap"],
           "FCL's EPA depth of two convex solids taken as it comes (20 mm for faces that "
           "just touch)"),
    Mutant("interference-at-samples-only", "SimPhantWorkbench/collision/along.py",
           "                self.span(t[k], t[k + 1], k, speeds[k], swept[k])",
           "                pass",
           ["tests/solver/test_collision.py::test_a_near_miss_between_samples_gives_the_"
            "minimum_clearance",
            "tests/app/test_interference.py::test_a_wall_never_touched_gets_its_smallest_"
            "clearance_between_samples"],
           "the search looks at the output samples only, not between them"),
    Mutant("interference-speed-bound-without-rotation", "SimPhantWorkbench/collision/motion.py",
           "        v = v + traj_b.omega[k] * radius_b",
           "        v = v + 0.0 * traj_b.omega[k]",
           ["tests/solver/test_collision.py::test_rotating_bar_matches_a_dense_brute_force_scan"],
           "the speed bound leaves out the turning of the second solid"),
    Mutant("interference-broad-phase-overestimates", "SimPhantWorkbench/collision/along.py",
           "    return np.linalg.norm(gap, axis=2)",
           "    return 2.0 * np.linalg.norm(gap, axis=2)",
           ["tests/solver/test_collision.py::test_the_broad_phase_bounds_the_distance_from_"
            "below"],
           "the bounding boxes claim the solids farther apart than they can be"),
    Mutant("interference-swept-box-shrinks", "SimPhantWorkbench/collision/motion.py",
           "0.5 * (bhi[:-1] + bhi[1:] + reach)))", "0.5 * (bhi[:-1] + bhi[1:] - reach)))",
           ["tests/solver/test_collision.py::test_swept_boxes_hold_the_solid_between_the_"
            "samples"],
           "a segment's swept box misses where the solid goes between the samples"),
    Mutant("interference-swept-rotation-along-its-axis", "SimPhantWorkbench/collision/motion.py",
           "        across = np.sqrt(np.maximum((w * w).sum(axis=1)[:, None] - w * w, 0.0))",
           "        across = np.abs(w)",
           ["tests/solver/test_collision.py::test_swept_boxes_hold_the_solid_between_the_"
            "samples",
            "tests/solver/test_collision.py::test_parallel_slabs_in_planar_motion_cost_few_"
            "queries"],
           "the swept boxes take a rotation to move points along its axis, not across it"),
    Mutant("interference-swept-floor-unused", "SimPhantWorkbench/collision/along.py",
           "    return np.sqrt((gap * gap).sum(axis=2))",
           "    return 0.0 * gap[:, :, 0]",
           ["tests/solver/test_collision.py::test_parallel_slabs_in_planar_motion_cost_few_"
            "queries"],
           "the search ignores the swept boxes (a query per millimetre of motion)"),
    Mutant("interference-swept-floor-under-penetration", "SimPhantWorkbench/collision/along.py",
           "            if floor > 0.0:\n                lower = max(lower, floor)",
           "            if True:\n                lower = max(lower, floor)",
           ["tests/app/test_interference.py::test_bar_into_block_first_contact_end_and_"
            "depth_between_samples"],
           "touching swept boxes taken to prove the solids apart (the depth search stops)"),
    Mutant("interference-boxes-apart-always", "SimPhantWorkbench/collision/geometry.py",
           "    if d > 0.0 and _boxes_apart(a, pose_a, b, pose_b):", "    if d > 0.0:",
           ["tests/solver/test_collision.py::test_containment_counts_as_overlap"],
           "a solid inside another counts as apart (the shortcut skips the containment test)"),
    Mutant("interference-convex-by-volume-loose", "SimPhantWorkbench/collision/geometry.py",
           "volume >= (1.0 - rel_tol) * hull.volume",
           "volume >= 0.5 * hull.volume",
           ["tests/solver/test_collision.py::test_convexity_of_a_mesh"],
           "a dented solid counts as convex (its depth from the hull's EPA)"),
    Mutant("interference-gjk-lower-bound-sign", "SimPhantWorkbench/collision/gjk.py",
           "        lower = max(lower, _dot(v, w) / nv)",
           "        lower = max(lower, -_dot(v, w) / nv)",
           ["tests/solver/test_collision_hulls.py::test_gjk_bounds_match_fcl_on_random_"
            "convex_pairs"],
           "GJK's lower bound with the wrong sign (it never closes on the distance)"),
    Mutant("interference-gjk-stops-at-first-step", "SimPhantWorkbench/collision/gjk.py",
           "        if nv - lower <= REL_TOL * nv + ABS_TOL:",
           "        if True:",
           ["tests/solver/test_collision_hulls.py::test_gjk_bounds_match_fcl_on_random_"
            "convex_pairs",
            "tests/solver/test_collision_hulls.py::test_gjk_on_faces_that_face_each_other_"
            "and_touch"],
           "GJK stops after its first support point (a convex pair's distance too large)"),
    Mutant("interference-gjk-bound-not-conservative", "SimPhantWorkbench/collision/gjk.py",
           "        lower = max(lower, _dot(v, w) / nv)",
           "        lower = max(lower, _dot(v, v) / nv)",
           ["tests/solver/test_collision_hulls.py::test_a_nonconvex_near_miss_and_pass_"
            "between_samples"],
           "the hulls' lower bound is the distance of the simplex point, above the true one "
           "(the search skips a near miss between the samples)"),
    Mutant("interference-hull-bound-below-the-minimum", "SimPhantWorkbench/collision/along.py",
           "        if lower > 0.0 and lower >= self.best - self.slack \\",
           "        if lower > 0.0 \\",
           ["tests/solver/test_collision_hulls.py::test_a_nonconvex_near_miss_and_pass_"
            "between_samples"],
           "a hull bound below the smallest distance found stands in for the exact query "
           "(a new minimum is missed)"),
    Mutant("interference-hull-certificate-loose", "SimPhantWorkbench/collision/geometry.py",
           "        if d <= lower * (1.0 + 1e-9):",
           "        if d <= lower * 2.0:",
           ["tests/solver/test_collision_hulls.py::test_nonconvex_pairs_take_the_hull_"
            "distance_only_where_surface_points_prove_it"],
           "two surface points farther apart than the hulls are taken for the distance"),
    Mutant("interference-candidates-stop-at-an-open-span", "SimPhantWorkbench/collision/along.py",
           "                if seg_lower[k] > 0.0 and seg_lower[k] >= self.best - self.slack:",
           "                if seg_lower[k] <= 0.0 or seg_lower[k] >= self.best - self.slack:",
           ["tests/solver/test_collision.py::test_boxes_passing_interval_and_depth"],
           "the search of a pair stops at the first span that could hold an overlap (a pass "
           "between two output samples is missed)"),
    Mutant("interference-pieces-prune-all", "SimPhantWorkbench/collision/pieces.py",
           "        if gap[idx] >= best:", "        if gap[idx] >= 0.0:",
           ["tests/solver/test_collision_pieces.py::test_pieces_bound_the_distance_from_below_on_random_pairs"],
           "the pairs of pieces pruned before any GJK (the bound is infinite, the certificate "
           "takes any two surface points)"),
    Mutant("interference-pieces-spheres-too-small", "SimPhantWorkbench/collision/pieces.py",
           "radii = np.array([np.linalg.norm(p - c, axis=1).max() for",
           "radii = np.array([0.3 * np.linalg.norm(p - c, axis=1).max() for",
           ["tests/solver/test_collision_pieces.py::test_pieces_bound_the_distance_from_below_on_random_pairs"],
           "the spheres around the pieces too small: their gap prunes the closest pair of "
           "pieces (the bound is above the distance)"),
    Mutant("interference-pieces-miss-a-vertex", "SimPhantWorkbench/collision/pieces.py",
           "parts.append(_hull_vertices(pts[np.unique(mine)]))",
           "parts.append(_hull_vertices(pts[mine].mean(axis=1)))",
           ["tests/solver/test_collision_pieces.py::test_every_triangle_lies_in_the_hull_of_a_"
            "piece"],
           "a piece is the hull of its triangles' centroids (the triangles stick out of "
           "it: not every point of the surface lies in a piece)"),
    Mutant("interference-pieces-ignore-containment", "SimPhantWorkbench/collision/pieces.py",
           "            return None                 # one may hold the other: the meshes tell",
           "            pass",
           ["tests/solver/test_collision_pieces.py::test_pieces_apart_prove_nothing_when_one_solid_may_hold_the_other"],
           "pieces apart taken for solids apart though one solid's box holds the other's "
           "(a solid inside another counts as apart)"),
    Mutant("interference-pieces-hulls-taken-apart", "SimPhantWorkbench/collision/geometry.py",
           "pieces_proximity(a, pose_a, b, pose_b, lower > 0.0)",
           "pieces_proximity(a, pose_a, b, pose_b, True)",
           ["tests/solver/test_collision_pieces.py::test_pieces_apart_prove_nothing_when_one_solid_may_hold_the_other"],
           "the pieces' answer trusted as if the hulls were apart (containment unchecked)"),
    Mutant("interference-candidate-skip-stops", "SimPhantWorkbench/collision/along.py",
           "                if lower > 0.0 and lower >= self.best - self.slack:\n"
           "                    continue",
           "                if lower > 0.0 and lower >= self.best - self.slack:\n"
           "                    break",
           ["tests/solver/test_collision.py::test_rotating_bar_matches_a_dense_brute_force_scan",
            "tests/solver/test_collision.py::test_a_near_miss_between_samples_gives_the_"
            "minimum_clearance",
            "tests/solver/test_collision_hulls.py::test_a_nonconvex_near_miss_and_pass_"
            "between_samples"],
           "a span ruled out by its probed ends ends the pair's search (the spans after it "
           "have smaller bounds from the boxes alone, not from their ends)"),
    Mutant("interference-probe-turns-backwards", "SimPhantWorkbench/collision/probe.py",
           "    M[0, 1] = ca * x * y - sa * z", "    M[0, 1] = ca * x * y + sa * z",
           ["tests/solver/test_collision_hulls.py::test_the_compiled_probe_places_both_solids_"
            "as_the_interpolant"],
           "the compiled probe's rotation between two samples turns one term the wrong way"),
    Mutant("interference-probe-tangent-per-unit-time", "SimPhantWorkbench/collision/probe.py",
           "    c10 = (s3 - 2.0 * s2 + s) * h", "    c10 = (s3 - 2.0 * s2 + s)",
           ["tests/solver/test_collision_hulls.py::test_the_compiled_probe_places_both_solids_"
            "as_the_interpolant"],
           "the compiled probe's Hermite curve takes the first velocity without the "
           "segment's length"),
    Mutant("interference-shared-mesh-in-world-axes", "SimPhantWorkbench/document/scene.py",
           "    local = np.round((verts.reshape(-1, 3) - cog_mm) @ R, 6) + 0.0\n"
           "    local = local[np.lexsort(local.T[::-1])]\n"
           "    gyration = R.T @ np.asarray(mass_props.inertia, dtype=float) @ R / mass",
           "    local = np.round((verts.reshape(-1, 3) - cog_mm), 6) + 0.0\n"
           "    local = local[np.lexsort(local.T[::-1])]\n"
           "    gyration = np.asarray(mass_props.inertia, dtype=float) / mass",
           ["tests/app/test_interference.py::test_bodies_of_the_same_shape_share_one_"
            "tessellation"],
           "the shapes compared in world axes: a body whose frame is turned against its "
           "shape takes another body's mesh, in the wrong frame"),
    Mutant("interference-twin-shares-the-placed-object", "SimPhantWorkbench/collision/geometry.py",
           "        twin._object = fcl.CollisionObject(self._model, fcl.Transform())",
           "        twin._object = self._object",
           ["tests/solver/test_collision_hulls.py::test_a_named_twin_shares_the_mesh_and_is_"
            "placed_on_its_own"],
           "two bodies of one shape share FCL's placed object: a query between them places "
           "both at the second pose"),
    Mutant("interference-hull-certificate-never", "SimPhantWorkbench/collision/geometry.py",
           "        if d <= lower * (1.0 + 1e-9):",
           "        if False:",
           ["tests/solver/test_collision_hulls.py::test_nonconvex_solids_in_parallel_slabs_"
            "need_no_mesh_query"],
           "no hull distance of a non-convex pair is ever taken for the clearance (an FCL "
           "mesh query at every instant: the 50-link chain's cost)"),
    Mutant("interference-hull-certificate-nearest-only", "SimPhantWorkbench/collision/geometry.py",
           "    pairs = ((qa, qb), (qa, None), (None, qb))",
           "    pairs = ((qa, qb),)",
           ["tests/solver/test_collision_hulls.py::test_nonconvex_solids_in_parallel_slabs_"
            "need_no_mesh_query"],
           "a closest hull point in a notch sends the pair to FCL (the surface points are "
           "not looked for from the other solid)"),
    Mutant("interference-cli-progress-hidden", "SimPhantWorkbench/cli/run.py",
           "            bar(n, total)", "            pass",
           ["tests/app/test_interference.py::test_simphant_run_writes_interference_csv_and_"
            "the_summary_line"],
           "simphant run --interference shows no progress for the check"),
    Mutant("interference-cli-cancel-count", "SimPhantWorkbench/cli/run.py",
           "            done[:] = [n, total]", "            done[:] = [total, total]",
           ["tests/app/test_interference.py::test_ctrl_c_during_the_interference_check_"
            "writes_nothing"],
           "a cancelled check claims all pairs were checked"),
    Mutant("interference-box-extent-signed", "SimPhantWorkbench/collision/geometry.py",
           "    e = np.abs(A) @ (0.5 * (hi - lo))", "    e = A @ (0.5 * (hi - lo))",
           ["tests/solver/test_collision.py::test_the_broad_phase_bounds_the_distance_from_"
            "below"],
           "a turned body's bounding box shrinks (negative rotation entries)"),
    Mutant("interference-inside-by-face-normal", "SimPhantWorkbench/collision/geometry.py",
           "            n = self._pseudo_normals_at(tri[k], q[k])",
           "            n = self.normals[tri[k]]",
           ["tests/solver/test_collision_inside.py"],
           "a point is inside by the normal of the triangle FCL names, also where its closest "
           "point is on an edge or a vertex (points beside flush faces and off sharp edges "
           "misjudged)"),
    Mutant("interference-inside-edge-of-the-corner", "SimPhantWorkbench/collision/geometry.py",
           "(np.argmax(small[edge], axis=1) + 1) % 3]",
           "np.argmax(small[edge], axis=1)]",
           ["tests/solver/test_collision_inside.py"],
           "the pseudo-normal of the edge from the corner nearest the point, not of the edge "
           "holding it"),
    Mutant("interference-inside-vertex-unweighted", "SimPhantWorkbench/collision/geometry.py",
           "    weighted = (angle[:, :, None] * normals[:, None, :])",
           "    weighted = (normals[:, None, :] + 0.0 * angle[:, :, None])",
           ["tests/solver/test_collision_inside.py"],
           "a vertex's pseudo-normal sums its faces' normals without their angles (a face "
           "split in more triangles there counts more)"),
    Mutant("interference-depth-counts-outside-samples", "SimPhantWorkbench/collision/geometry.py",
           "    d = np.where(inside, d, 0.0)", "    d = d + 0.0",
           ["tests/solver/test_collision_inside.py::test_the_depth_into_the_l_counts_the_"
            "samples_inside_it_only"],
           "the penetration depth of a non-convex pair takes the farthest sample from the "
           "other surface, inside or not"),
    Mutant("interference-jointed-pairs-kept", "SimPhantWorkbench/document/interference.py",
           "                elif not include_jointed and frozenset((a.label, b.label)) in jointed:",
           "                elif False:",
           ["tests/app/test_interference.py::test_bar_into_block_first_contact_end_and_"
            "depth_between_samples"],
           "bodies a joint connects are checked against each other by default"),
    Mutant("interference-rotation-transposed", "SimPhantWorkbench/document/interference.py",
           "result.rotation_matrix(m.name),",
           "result.rotation_matrix(m.name).transpose(0, 2, 1),",
           ["tests/app/test_interference.py::test_bar_into_block_first_contact_end_and_"
            "depth_between_samples"],
           "the solids turn world -> body instead of body -> world"),
    Mutant("interference-no-touching-tolerance", "SimPhantWorkbench/document/interference.py",
           "    tolerance_mm = 2.0 * deflection_mm if tolerance_mm is None else float(tolerance_mm)",
           "    tolerance_mm = 0.0 if tolerance_mm is None else float(tolerance_mm)",
           ["tests/app/test_interference.py::test_chosen_pairs_jointed_pairs_and_bad_input"],
           "faces that touch count as interference"),
    Mutant("interference-deflection-option-ignored", "SimPhantWorkbench/cli/run.py",
           "        deflection = self.args.deflection or DEFLECTION_MM",
           "        deflection = DEFLECTION_MM",
           ["tests/app/test_interference.py::test_simphant_run_writes_interference_csv_and_"
            "the_summary_line"],
           "simphant run --deflection is ignored"),
    Mutant("interference-summary-end-of-first-interval", "SimPhantWorkbench/cli/summary.py",
           'fmt(h["intervals"][-1][1])', 'fmt(h["intervals"][-1][0])',
           ["tests/app/test_interference.py::test_simphant_run_writes_interference_csv_and_"
            "the_summary_line"],
           "the summary gives the start of the last interval as its end"),
    Mutant("interference-csv-clear-rows-dropped", "SimPhantWorkbench/output/tables.py",
           '            rows.append(head + ["clear", r.min_distance,',
           '            0 and rows.append(head + ["clear", r.min_distance,',
           ["tests/app/test_interference.py::test_interference_csv_rows"],
           "interference.csv leaves out the pairs that never touch"),
    Mutant("interference-gui-instant-not-shown", "SimPhantWorkbench/results_gui/interference.py",
           "        show_time(self.study, float(time))",
           "        pass",
           ["tests/gui/test_interference_gui.py::test_the_first_contact_is_shown_and_its_"
            "bodies_selected"],
           "Check interference does not move the bodies to the first contact"),
    Mutant("interference-gui-rows-from-the-wrong-end", "SimPhantWorkbench/results_gui/interference.py",
           "                             iv.start, (r.a, r.b)))",
           "                             iv.end, (r.a, r.b)))",
           ["tests/gui/test_interference_gui.py::test_the_first_contact_is_shown_and_its_"
            "bodies_selected"],
           "the panel shows the end of an interval as its first contact"),
    Mutant("outdated-entities-named-by-label", "SimPhantWorkbench/run/pipeline.py",
           "name=lambda e: names.get(id(e), e.name))",
           "name=None)",
           ["tests/app/test_outdated_results.py::test_labels_visibility_and_playback_leave_"
            "the_result_up_to_date"],
           "a renamed object outdates the result (the stamp names entities by Label)"),
    Mutant("outdated-playback-pose-is-a-move", "SimPhantWorkbench/freshness.py",
           "if Session(study).frame_shown() is None:",
           "if True:",
           ["tests/app/test_outdated_results.py::test_labels_visibility_and_playback_leave_"
            "the_result_up_to_date"],
           "a frame shown by playback counts as a body moved since the run"),
    Mutant("outdated-edit-at-a-pose-ignored", "SimPhantWorkbench/freshness.py",
           "            if edited:",
           "            if False:",
           ["tests/app/test_outdated_results.py::test_a_body_moved_from_a_playback_pose_or_"
            "an_edit_there_outdates_it"],
           "an edit made while the bodies stand at a playback pose goes unnoticed"),
    Mutant("outdated-overrides-forgotten", "SimPhantWorkbench/freshness.py",
           'now = read_run(study, **stamp.get("overrides", {})).stamp()',
           "now = read_run(study).stamp()",
           ["tests/app/test_outdated_results.py::test_a_run_with_overrides_is_compared_with_"
            "the_same_overrides"],
           "a run with overrides is compared with the study's own settings"),
    Mutant("outdated-new-run-keeps-the-mark", "SimPhantWorkbench/run/store.py",
           '"AssemblySummary", "ModelStamp", "Outdated", "OutdatedReason")',
           '"AssemblySummary", "ModelStamp")',
           ["tests/app/test_outdated_results.py::test_a_new_run_clears_the_mark"],
           "a new run leaves the Result marked outdated"),
    Mutant("outdated-fingerprint-drops-settings", "SimPhantWorkbench/solver/batch.py",
           "               joints=joints, loads=loads, settings=clean)",
           "               joints=joints, loads=loads)",
           ["tests/app/test_outdated_results.py::test_a_change_of_the_model_outdates_the_"
            "result_and_undo_brings_it_back"],
           "a changed end time or time step leaves the result up to date"),
    Mutant("outdated-icon-never-shown", "SimPhantWorkbench/viewproviders/view_result.py",
           'return "ResultOutdated.svg"',
           "return super().icon_name()",
           ["tests/gui/test_outdated_gui.py"],
           "the tree keeps the plain result icon on an outdated result"),
    Mutant("playback-frames-outside-the-panel-step",
           "SimPhantWorkbench/taskpanels/task_playback.py",
           ".open(persist=True, own=True)\n",
           ".open(persist=True, own=True)\n        self.undo_step.close(keep=True)\n",
           ["tests/gui/test_gui_workflow.py::test_playback_moves_placements_and_reset_"
            "restores_them_bit_exactly"],
           "the playback panel's frames are undo steps of their own: No leaves them"),
    Mutant("playback-no-in-a-joined-transaction", "SimPhantWorkbench/taskpanels/task_playback.py",
           "if not keep and not self.undo_step.owner:",
           "if False:",
           ["tests/gui/test_gui_workflow.py::test_playback_moves_placements_and_reset_"
            "restores_them_bit_exactly"],
           "No leaves the pose shown where the playback step joined a transaction FreeCAD "
           "left open"),
    Mutant("transaction-own-joins-a-dangling-one", "SimPhantWorkbench/document/base.py",
           "        if own and key not in transaction._open and \\\n",
           "        if False and \\\n",
           ["tests/app/test_playback.py::test_frames_shown_inside_a_playback_step_are_taken_"
            "back_by_its_abort"],
           "a step of its own joins the transaction FreeCAD left open (its abort takes back "
           "nothing)"),
    Mutant("outdated-stamp-not-rounded", "SimPhantWorkbench/solver/batch.py",
           "round(v / quantum) * quantum + 0.0",
           "v",
           ["tests/solver/test_sweep_support.py::test_comparable_descriptions_ignore_round_off_"
            "and_see_a_change"],
           "round-off (a document saved and reopened) outdates a result"),
    Mutant("outdated-stamp-bit-exact", "SimPhantWorkbench/run/pipeline.py",
           "description_parts(comparable(d))",
           "description_parts(d)",
           ["tests/app/test_outdated_results.py::test_the_status_survives_save_and_reopen"],
           "a result saved and reopened on FreeCAD 1.x is outdated by the round-off of its "
           "placements and shapes", fc1=True),
    Mutant("time-unit-dropped", "SimPhantWorkbench/output/quantities.py",
           '    scale = TIME_UNITS[unit or "s"]\n',
           '    scale = 1.0\n',
           ["tests/app/test_quantities.py::test_parse_time_reads_the_unit",
            "tests/gui/test_time_fields_gui.py"],
           "a time typed as 0.1 ms or 100 us is taken as 0.1 s or 100 s"),
    Mutant("time-shown-in-seconds", "SimPhantWorkbench/output/quantities.py",
           "    for unit, scale in _TIME_SHOWN:\n",
           "    for unit, scale in _TIME_SHOWN[:1]:\n",
           ["tests/app/test_quantities.py::test_format_time_shows_the_unit_that_fits_and_reads_back",
            "tests/gui/test_time_fields_gui.py"],
           "a 1 ms step is shown in seconds"),
    Mutant("time-box-parses-numbers-only", "SimPhantWorkbench/taskpanels/widgets.py",
           "            return parse_time(text)\n",
           "            return float(text.split()[0].replace(',', '.'))\n",
           ["tests/gui/test_time_fields_gui.py"],
           "the panels' time fields keep the number typed and drop its unit"),
    Mutant("assembly-failure-blames-every-joint", "SimPhantWorkbench/solver/assembly.py",
           "    open_ = sorted((n for n in conflict if before[n][0] > tol), key=lambda n: -before[n][0])\n",
           "    open_ = sorted(conflict)\n",
           ["tests/solver/test_assembly.py::test_a_failed_assembly_names_the_misaligned_joint_"
            "and_its_gap"],
           "a failed assembly names every joint of the loop as not met, not the misaligned one"),
    Mutant("assembly-gap-in-scaled-units", "SimPhantWorkbench/solver/assembly.py",
           '    return "%.4g mm, %.4g deg" % (gap[1] * 1e3, math.degrees(gap[2]))\n',
           '    return "%.4g mm, %.4g deg" % (gap[1], math.degrees(gap[2]))\n',
           ["tests/solver/test_assembly.py::test_a_failed_assembly_names_the_misaligned_joint_"
            "and_its_gap"],
           "the gap of a joint that cannot be assembled is shown in m as mm"),
    Mutant("conflict-no-deletion-filter", "SimPhantWorkbench/solver/assembly.py",
           "        if holds(rest) is None:\n            chosen = rest\n",
           "        if False:\n            chosen = rest\n",
           ["tests/solver/test_assembly.py::test_the_deletion_filter_drops_a_driver_that_only_"
            "agrees"],
           "the conflict search keeps every driver added before the failure (no deletion step)"),
    Mutant("conflict-drivers-not-candidates", "SimPhantWorkbench/solver/assembly.py",
           "    return [d.name for d in system.drivers] + [c.name for c in system.couplers]\n",
           "    return [c.name for c in system.couplers]\n",
           ["tests/solver/test_assembly.py::test_two_drivers_that_disagree_are_named_as_the_"
            "pair_not_the_loop"],
           "the conflict search leaves drivers out: two disagreeing drivers name the whole loop"),
    Mutant("conflict-couplers-not-candidates", "SimPhantWorkbench/solver/assembly.py",
           "    return [d.name for d in system.drivers] + [c.name for c in system.couplers]\n",
           "    return [d.name for d in system.drivers]\n",
           ["tests/solver/test_assembly.py::test_a_driver_that_contradicts_a_coupler_is_named_"
            "with_the_coupler"],
           "the conflict search counts couplers among the joints: a driver that contradicts a "
           "gear is named alone"),
    Mutant("conflict-gap-after-least-squares", "SimPhantWorkbench/solver/assembly.py",
           "        out.append((n, _joint_gaps(system, Y0 if Y is None else Y)[n]))\n",
           "        out.append((n, _joint_gaps(system, Y0)[n]))\n",
           ["tests/solver/test_assembly.py::test_two_drivers_that_disagree_are_named_as_the_"
            "pair_not_the_loop"],
           "each conflicting driver's gap is taken as placed, not where the others hold"),
    Mutant("kinematic-failure-says-t0", "SimPhantWorkbench/solver/kinematics.py",
           'assemble(system, Yp, when="t = %.6g s" % times[m])',
           "assemble(system, Yp)",
           ["tests/solver/test_assembly.py::test_drivers_that_diverge_over_time_are_named_with_"
            "the_time"],
           "a kinematic analysis that fails at t > 0 says the joints cannot be assembled at t0"),
    Mutant("violation-stop-without-diagnosis", "SimPhantWorkbench/solver/simulation.py",
           "            if exc is not None:\n",
           "            if False:\n",
           ["tests/solver/test_assembly.py::test_a_dynamic_run_stopped_by_drivers_that_drift_"
            "apart_names_them"],
           "a dynamic run stopped by drivers that drift apart names only the worst joint"),
    Mutant("outdated-result-used-without-asking", "SimPhantWorkbench/gui/outdated.py",
           "    if not reason:\n        return True\n    answer =",
           "    if True:\n        return True\n    answer =",
           ["tests/gui/test_outdated_gui.py::test_playback_and_export_of_an_outdated_result_"
            "ask_first"],
           "playback and exports use an outdated result without a word"),
    Mutant("outdated-solve-again-plays-back", "SimPhantWorkbench/gui/outdated.py",
           "    return answer == ANYWAY\n",
           "    return answer != CANCEL\n",
           ["tests/gui/test_outdated_gui.py::test_playback_and_export_of_an_outdated_result_"
            "ask_first"],
           "'Solve again' also plays the outdated result back"),
    Mutant("density-warning-every-time", "SimPhantWorkbench/document/bodies.py",
           "    if _WARNED.get(key) == text:\n",
           "    if False:\n",
           ["tests/app/test_runner.py::test_the_default_density_warning_is_given_once_per_body_"
            "until_it_changes"],
           "the default-density warning repeats on every check and solve"),
    Mutant("density-warning-never-again", "SimPhantWorkbench/document/bodies.py",
           "        _WARNED.pop(key, None)\n",
           "        pass\n",
           ["tests/app/test_runner.py::test_the_default_density_warning_is_given_once_per_body_"
            "until_it_changes"],
           "a body that had a density and lost it again is not warned about"),
    Mutant("markers-catch-clicks", "SimPhantWorkbench/gui/picking_aids.py",
           "coin.SoPickStyle.SHAPE if markers_selectable()",
           "coin.SoPickStyle.SHAPE if True",
           ["tests/gui/test_picking_aids_gui.py::test_clicks_go_through_markers_unless_they_are_"
            "selectable"],
           "joint triads catch the clicks meant for the faces behind them"),
    Mutant("joint-panel-refuses-tree-clicks", "SimPhantWorkbench/taskpanels/task_joint.py",
           "        if not ok and whole_object(sub):\n            return True",
           "        if False:\n            return True",
           ["tests/gui/test_picking_aids_gui.py::test_joint_panel_lets_a_tree_click_select_a_"
            "part_without_taking_it"],
           "with the joint panel open a part cannot be selected in the tree to hide it"),
    Mutant("video-frames-ignore-speed", "SimPhantWorkbench/viewer/video.py",
           "    n = max(1, int(math.floor(span / speed * fps + 1e-9)) + 1)\n",
           "    n = max(1, int(math.floor(span * fps + 1e-9)) + 1)\n",
           ["tests/app/test_viewer.py::test_video_indices_run_in_real_time",
            "tests/gui/test_results_gui.py::test_view_animation_has_the_frames_and_size_and_"
            "puts_the_parts_back"],
           "an animation exported slower or faster than real time has the real-time frames"),
    Mutant("align-about-world-origin", "SimPhantWorkbench/solver/alignment.py",
           "    return Q, pivot + x[3:] * scale - Q @ pivot\n",
           "    return Q, x[3:] * scale\n",
           ["tests/app/test_alignment.py::test_after_align_every_row_of_the_kind_is_met"],
           "Align turns the body about the world origin instead of the frame's origin"),
    Mutant("align-rotation-in-body-axes", "SimPhantWorkbench/solver/alignment.py",
           "    return p + x[3:] * scale, rotation_vector_matrix(x[:3]) @ R\n",
           "    return p + x[3:] * scale, R @ rotation_vector_matrix(x[:3])\n",
           ["tests/app/test_alignment.py::test_after_align_every_row_of_the_kind_is_met"],
           "the rotation found in the frame's axes is applied in world axes"),
    Mutant("align-not-nearest", "SimPhantWorkbench/solver/alignment.py",
           "    for _ in range(iterations):\n        r = fun(x)\n",
           "    for _ in range(0):\n        r = fun(x)\n",
           ["tests/app/test_alignment.py::"
            "test_moving_side_1_of_a_cylindrical_joint_turns_and_shifts_the_least"],
           "Align stops at the first pose that meets the rows, not the nearest one"),
    Mutant("align-moves-the-ground", "SimPhantWorkbench/document/picking.py",
           "    move = 1 if jd.body2.Fixed else 2\n", "    move = 2\n",
           ["tests/app/test_alignment.py::test_align_moves_side_1_when_side_2_is_the_ground"],
           "Align moves a fixed body"),
    Mutant("align-container-ignored", "SimPhantWorkbench/document/picking.py",
           "    placement = container.inverse().multiply(motion).multiply(container)"
           ".multiply(obj.Placement)\n",
           "    placement = motion.multiply(obj.Placement)\n",
           ["tests/app/test_alignment.py::test_align_moves_the_link_in_the_assembly_and_not_the_linked_part"],
           "Align puts a part inside a placed App::Part in world coordinates"),
    Mutant("align-cancel-keeps-move", "SimPhantWorkbench/taskpanels/task_joint.py",
           "        if self.aligned:\n            self._take_back_aligns()\n", "",
           ["tests/gui/test_align_gui.py::"
            "test_cancel_in_the_question_stays_in_the_panel_and_cancel_takes_align_back"],
           "Cancel of the joint panel leaves the body where Align put it"),
    Mutant("align-ok-does-not-ask", "SimPhantWorkbench/taskpanels/task_joint.py",
           "        if self.misaligned and not self._confirm_misaligned():\n",
           "        if False:\n",
           ["tests/gui/test_align_gui.py::"
            "test_ok_on_misaligned_frames_asks_and_set_offset_stores_the_gap"],
           "OK on frames that do not meet creates the joint without a word"),
    Mutant("datum-line-along-x", "SimPhantWorkbench/document/references.py",
           '    ("PartDesign::Line", "line", 2),', '    ("PartDesign::Line", "line", 0),',
           ["tests/app/test_datum_references.py::test_datum_line_plane_and_point_give_their_frames_through_the_link"],
           "a PartDesign datum line runs along its placement's x instead of its z"),
    Mutant("datum-origin-axes-swapped", "SimPhantWorkbench/document/references.py",
           'ORIGIN_AXES = {"X_Axis": 0, "Y_Axis": 1, "Z_Axis": 2}',
           'ORIGIN_AXES = {"X_Axis": 0, "Y_Axis": 2, "Z_Axis": 1}',
           ["tests/app/test_datum_references.py::test_the_origin_axes_of_a_linked_part_are_lines_through_its_origin"],
           "the Y and Z axes of a part's origin swap"),
    Mutant("datum-point-with-axis", "SimPhantWorkbench/document/references.py",
           '    ("PartDesign::Point", "vertex", None),', '    ("PartDesign::Point", "vertex", 2),',
           ["tests/app/test_datum_references.py::test_datum_line_plane_and_point_give_their_frames_through_the_link"],
           "a datum point gives an axis it does not have"),
    Mutant("datum-element-of-datum-refused", "SimPhantWorkbench/document/references.py",
           "    return not element or (bool(path) and _datum_element(obj.getSubObject(path, 1)) is not None)",
           "    return not element",
           ["tests/app/test_datum_references.py::test_datum_line_plane_and_point_give_their_frames_through_the_link"],
           "a click on a datum line's edge or a datum plane's face is refused"),
    Mutant("datum-picks-refused", "SimPhantWorkbench/document/picking.py",
           "    if not element and not is_datum(chain[-1][0]):",
           "    if not element and not chain[-1][0].isDerivedFrom('PartDesign::CoordinateSystem'):",
           ["tests/app/test_datum_references.py::test_picks_of_datums_resolve_and_make_joints"],
           "the joint panel refuses datum lines, planes and points picked whole"),
    Mutant("signature-in-global-coordinates", REF,
           "    return _element_at(obj, subname, _holder_matrix(obj, split_subname(subname)[0])"
           ".inverse())",
           "    return _element_at(obj, subname, container_matrix(obj))",
           ["tests/app/test_reference_signatures.py"],
           "a reference's signature is taken in world coordinates: moving the body breaks it"),
    Mutant("signature-radius-tolerance-relative", SIG,
           '    if old.get("radius") is not None and not _close(old["radius"], new["radius"]):',
           '    if old.get("radius") is not None and '
           'abs(old["radius"] - new["radius"]) > 0.2 * old["radius"]:',
           ["tests/app/test_reference_signatures.py"],
           "a pin whose radius changed by 10 % still counts as the element picked"),
    Mutant("signature-axis-ignored", SIG,
           '            1.0 - abs(float(np.dot(old["axis"], new["axis"]))) > ANGLE_TOLERANCE:',
           '            False:',
           ["tests/app/test_reference_signatures.py"],
           "a face whose axis turned still counts as the element picked"),
    Mutant("signature-recorded-on-undo", SIG,
           '    if getattr(doc, "Restoring", False) or getattr(doc, "Transacting", False) \\\n'
           '            or "Restore" in owner.State:',
           '    if getattr(doc, "Restoring", False) or "Restore" in owner.State:',
           ["tests/app/test_reference_signatures.py"],
           "undoing a re-pointing takes the signature of the wrong element"),
    Mutant("signature-repair-skipped", "SimPhantWorkbench/run/pipeline.py",
           "        repointed = repair_references(study)\n",
           "        repointed = []\n",
           ["tests/app/test_reference_signatures.py"],
           "a renumbered reference is not re-pointed by a run"),
    Mutant("signature-ambiguous-match-taken", SIG,
           "    if len(matches) == 1:\n",
           "    if matches:\n",
           ["tests/app/test_reference_signatures.py"],
           "a reference is re-pointed to the first of several matching elements"),
    Mutant("signatures-kept-after-applied-variant", "SimPhantWorkbench/sweep/__init__.py",
           "        retake_signatures(study)\n", "",
           ["tests/app/test_reference_signatures.py::test_a_variant_applied_takes_the_"
            "signatures_anew_in_its_undo_step",
            "tests/app/test_sweep.py::test_parameter_study_object_stores_spec_and_results_and_"
            "applies_the_best"],
           "the best variant written into the document leaves the study refusing to run"),
    Mutant("signature-retaken-on-element-map-rename", SIG,
           "    if ref is not None and old is not None and _recomputing():\n",
           "    if False:\n",
           ["tests/app/test_reference_signatures.py::test_a_reference_renamed_during_a_"
            "recompute_keeps_what_it_was_made_on"],
           "FreeCAD 1.x renaming an element on recompute takes a new signature of whatever "
           "the new name designates"),
    Mutant("markers-ignore-hidden-parts", "SimPhantWorkbench/viewproviders/view_base.py",
           "            if not self.ViewObject.Visibility or not markers_shown() \\\n"
           "                    or not self.parts_shown():\n",
           "            if not self.ViewObject.Visibility or not markers_shown():\n",
           ["tests/gui/test_picking_aids_gui.py::test_markers_follow_the_parts_hidden_and_"
            "shown_again"],
           "Hide other parts leaves the triads and CoG markers of the hidden bodies drawn"),
    Mutant("markers-need-every-part-shown", "SimPhantWorkbench/gui/picking_aids.py",
           "    return not shapes or any(part_shown(s) for s in shapes)\n",
           "    return not shapes or all(part_shown(s) for s in shapes)\n",
           ["tests/gui/test_picking_aids_gui.py::test_markers_follow_the_parts_hidden_and_"
            "shown_again"],
           "a joint's triads hide when one of its two bodies is hidden (the crank's pivot "
           "on the hidden post)"),
    Mutant("markers-visibility-memo-kept", "SimPhantWorkbench/gui/following.py",
           "            shown_generation[0] += 1\n", "            pass\n",
           ["tests/gui/test_picking_aids_gui.py::test_markers_follow_the_parts_hidden_and_"
            "shown_again"],
           "the markers keep the parts' visibility they saw first: hiding a part later "
           "leaves its markers drawn"),
    Mutant("stop-markers-ignore-joint-parts",
           "SimPhantWorkbench/viewproviders/view_force_element.py",
           '        return self.cached("shapes", shapes) or list(self._joint_shapes() or [])\n',
           '        return self.cached("shapes", shapes)\n',
           ["tests/gui/test_events_gui.py"],
           "an end stop's arc and pointer stay drawn when both parts of its joint are hidden"),
    Mutant("markers-not-refreshed-on-visibility", "SimPhantWorkbench/gui/following.py",
           '        if prop not in ("Placement", "Visibility"):    # moved, or shown or hidden\n',
           '        if prop not in ("Placement",):\n',
           ["tests/gui/test_picking_aids_gui.py::test_markers_follow_the_parts_hidden_and_"
            "shown_again"],
           "markers keep their state when a part is hidden or shown until something moves"),
    Mutant("inlined-marker-shared-by-pythons", "SimPhantWorkbench/solver/kernel_cache.py",
           'INLINED_MARKER = "simphant-inlined-%d" + ".py%d%d.ready" % sys.version_info[:2]',
           'INLINED_MARKER = "simphant-inlined-%d.ready"',
           ["tests/solver/test_warmup.py::test_another_pythons_marker_does_not_count"],
           "two FreeCAD versions sharing a Mod folder: one's marker makes the other's first "
           "solve compile the inlined loop in the foreground"),
    Mutant("signatures-compared-twice-per-run", "SimPhantWorkbench/run/pipeline.py",
           "    with unchecked():      # just compared (and re-pointed): the conversion reads "
           "them once\n        run = read_run(study, **overrides)\n",
           "    run = read_run(study, **overrides)\n",
           ["tests/app/test_reference_signatures.py::test_a_run_reads_each_referenced_element_"
            "once"],
           "each run compares every reference with its signature twice (prepare and the "
           "conversion)"),
    Mutant("accepted-signature-not-taken", SIG,
           "        for owner, prop, sig in plan:\n            _set_entry(owner, prop, sig)\n",
           "        for owner, prop, sig in plan:\n            pass\n",
           ["tests/app/test_reference_signatures.py::test_an_enlarged_pin_accepted_runs_on_it_"
            "and_stays_accepted_after_reopening"],
           "Accept current elements leaves the old signatures: the run is still refused"),
    Mutant("accepted-vanished-element-dropped", SIG,
           "    except Exception as exc:  # noqa: BLE001 - the element no longer exists\n"
           "        raise ModelError(",
           "    except Exception as exc:  # noqa: BLE001 - the element no longer exists\n"
           "        return None\n        raise ModelError(",
           ["tests/app/test_reference_signatures.py::test_accepting_an_element_that_no_longer_"
            "exists_is_refused_naming_the_joint"],
           "accepting a reference whose element is gone drops its signature silently"),
    Mutant("accept-study-members-missed", SIG,
           "        found = _checked_owners(obj) if is_type(obj, STUDY) else [obj]\n",
           "        found = _checked_owners(obj)[:1] if is_type(obj, STUDY) else [obj]\n",
           ["tests/app/test_reference_signatures.py::test_accepting_the_study_accepts_every_"
            "member"],
           "accepting a study accepts only its first member"),
    Mutant("joint-panel-keeps-moved-reference", "SimPhantWorkbench/taskpanels/task_joint.py",
           "            if not self.picked_here[i] and check.status != \"ok\":\n",
           "            if False:\n",
           ["tests/gui/test_reference_signatures_gui.py"],
           "the joint panel accepts OK on a reference a model edit moved: the wrong element "
           "takes its signature"),
    Mutant("side-pane-form-never-wraps", "SimPhantWorkbench/taskpanels/widgets.py",
           "            policy = QtGui.QFormLayout.WrapAllRows \\",
           "            policy = QtGui.QFormLayout.DontWrapRows \\",
           ["tests/gui/test_panel_widths_gui.py::"
            "test_every_panel_fits_the_side_pane_at_its_default_width"],
           "a narrow side pane keeps labels and fields side by side: panels are cut off"),
    # ---------------------------------------------------------------- orientation joints
    Mutant("dot1-jacobian-side-j-sign", K,
           "                gj0 = -gi0\n                gj1 = -gi1\n                gj2 = -gi2",
           "                gj0 = gi0\n                gj1 = gi1\n                gj2 = gi2",
           [T_FD + "::test_jacobian_and_gamma_match_finite_differences[perpendicular-None]",
            T_FD + "::test_jacobian_and_gamma_match_finite_differences[angle-None]"],
           "the perpendicular and angle rows' Jacobian with side j's rotation columns "
           "A_j^T (a x b) instead of A_j^T (b x a)"),
    Mutant("angle-offset-sign", K,
           "                phi -= S.row_par[r, 2]      # cos(theta) of an angle joint, else 0",
           "                phi += S.row_par[r, 2]      # cos(theta) of an angle joint, else 0",
           [T_ORIENT + "::test_angle_joint_keeps_the_angle_it_is_given"],
           "an angle joint keeps z_i . z_j = -cos(theta): the supplementary angle"),
    Mutant("angle-sine-not-cosine", "SimPhantWorkbench/solver/system.py",
           "par.append((0.0, 0.0, math.cos(j.angle)))",
           "par.append((0.0, 0.0, math.sin(j.angle)))",
           [T_ORIENT + "::test_angle_joint_keeps_the_angle_it_is_given"],
           "an angle joint's row subtracts sin(theta) instead of cos(theta)"),
    Mutant("angle-gap-sign", DOF,
           "out.append((prim, float(R1[:, a] @ R2[:, b]) - math.cos(angle)))",
           "out.append((prim, float(R1[:, a] @ R2[:, b]) - math.sin(angle)))",
           [T_ORIENT + "::test_frame_gap_of_an_angle_joint_is_the_missed_angle"],
           "the joint panel's gap and Align of an angle joint use the sine of the kept angle"),
    Mutant("assembly-angle-not-folded", "SimPhantWorkbench/document/assembly.py",
           "    folded = math.degrees(math.acos(max(-1.0, min(1.0, math.cos(math.radians(value))))))",
           "    folded = value",
           ["tests/app/test_assembly_import.py::"
            "test_angle_joints_read_their_angle_and_become_parallel_at_0_and_180_deg"],
           "an Assembly Angle joint of -45 or 315 deg is imported with that value, not 45 deg"),
    Mutant("side-pane-fields-keep-their-width", "SimPhantWorkbench/taskpanels/widgets.py",
           "                box.setMinimumWidth(chars)",
           "                box.setMinimumWidth(chars * 4)",
           ["tests/gui/test_panel_widths_gui.py::"
            "test_every_panel_fits_the_side_pane_at_its_default_width"],
           "fields do not shrink below a wide fixed width: panels are cut off"),
    Mutant("blas-rescan-never-after-import", "SimPhantWorkbench/solver/blas.py",
           "        if _scanned[0] != len(sys.modules):",
           "        if _scanned[0] is None:",
           ["tests/app/test_determinism.py::"
            "test_one_thread_reads_the_libraries_again_only_after_an_import"],
           "an OpenBLAS loaded by a later import (SciPy's own) keeps its threads"),
    Mutant("interference-witness-points-swapped", "SimPhantWorkbench/collision/along.py",
           "            out[i] = (p.point_a, p.point_b)",
           "            out[i] = (p.point_b, p.point_a)",
           ["tests/solver/test_collision.py::test_witness_points_at_the_samples_inside_the_"
            "interval"],
           "the witness points kept per output sample swapped between the two bodies"),
    Mutant("interference-view-points-swapped", "SimPhantWorkbench/results_gui/interference_view.py",
           "                    pts = (tuple(np.asarray(pa) * 1e3), tuple(np.asarray(pb) * 1e3))",
           "                    pts = (tuple(np.asarray(pb) * 1e3), tuple(np.asarray(pa) * 1e3))",
           [T_IVIEW + "::test_the_witness_points_lie_on_the_two_boxes_as_deep_apart"],
           "the 3-D view draws each body's witness point on the other body"),
    Mutant("interference-view-stays-after-the-interval",
           "SimPhantWorkbench/results_gui/interference_view.py",
           "            inside = time is not None and any(iv.start <= time <= iv.end",
           "            inside = time is not None and any(iv.start <= time",
           [T_IVIEW + "::test_drawn_exactly_at_the_frames_inside_the_interval"],
           "the outlines and witness points stay on after the interval ends"),
    Mutant("interference-view-not-following-playback", "SimPhantWorkbench/gui/following.py",
           "            listen(doc_name)",
           "            pass",
           [T_IVIEW + "::test_drawn_exactly_at_the_frames_inside_the_interval"],
           "the 3-D view's interference drawing does not follow the frame shown"),
    Mutant("interference-outline-left-behind", "SimPhantWorkbench/results_gui/interference_view.py",
           "            self.transform.translation.setValue(*tuple(pl.Base))",
           "            pass",
           [T_IVIEW + "::test_the_outlines_follow_the_bodies"],
           "a body's outline stays where the body was first outlined"),
    Mutant("interference-marks-kept-for-a-new-result",
           "SimPhantWorkbench/results_gui/interference_view.py",
           "            return self.session.current() and get_result(self.study) is "
           "self.session.result",
           "            return self.session.current()",
           [T_IVIEW + "::test_the_timeline_and_the_plot_mark_the_interval"],
           "a timeline opened after the study was solved again marks the old result's "
           "intervals"),
    Mutant("interference-span-one-frame-too-many", "SimPhantWorkbench/output/events.py",
           '    last = int(np.searchsorted(t, float(end), side="right")) - 1',
           '    last = int(np.searchsorted(t, float(end), side="right"))',
           [T_IVIEW + "::test_the_timeline_and_the_plot_mark_the_interval"],
           "the timeline's band of an interval reaches one frame past its end"),
    Mutant("interference-not-shaded-in-plot-dock", "SimPhantWorkbench/results_gui/plot_panel.py",
           "        self.span_patches = draw_span_marks(ax, self.spans)",
           "        self.span_patches = draw_span_marks(ax, [])",
           [T_IVIEW + "::test_the_timeline_and_the_plot_mark_the_interval"],
           "the plot dock does not shade the intervals of interference"),
    Mutant("contact-dissipation-not-summed", "SimPhantWorkbench/solver/contact.py",
           "        W.frc_out[ie, OUT_PD] = -power - pot_rate",
           "        W.frc_out[ie, OUT_PD] = -power",
           ["tests/solver/test_contact.py::"
            "test_the_energy_a_contact_dissipates_is_summed_in_the_run_at_any_output_step"],
           "a contact's dissipated power counts the elastic power as lost: the balance drifts"),
    Mutant("playback-session-path-only", "SimPhantWorkbench/playback.py",
           "    return (path, st.st_mtime_ns, st.st_size)",
           "    return (path,)",
           ["tests/app/test_playback.py::test_a_session_notices_a_new_result"],
           "the timeline's session compares only the archive's name, which a new run keeps"),
    # ---------------------------------------------------------------- contact examples
    Mutant("contact-mu-static-dynamic-swapped", "SimPhantWorkbench/document/elements.py",
           '    out["mu_static"] = float(obj.MuStatic)\n'
           '    out["mu_dynamic"] = float(obj.MuDynamic)',
           '    out["mu_static"] = float(obj.MuDynamic)\n'
           '    out["mu_dynamic"] = float(obj.MuStatic)',
           [T_EX_RAMP], "a contact's static and dynamic friction coefficients read the wrong "
           "way round from the document"),
    Mutant("example-cam-hinge-at-disc-centre", "examples/make_examples.py",
           "    world = FreeCAD.Placement(V(0, 0, 0), FreeCAD.Rotation(V(1, 0, 0), -90))",
           "    world = FreeCAD.Placement(V(0, 0, -CAM_E), FreeCAD.Rotation(V(1, 0, 0), -90))",
           [T_EX_CAM], "the cam's hinge placed at the disc's centre instead of on the shaft: "
           "the disc turns in place and lifts nothing"),
    Mutant("example-gripper-fingers-pushed-outward", "examples/make_examples.py",
           "        inward = -math.copysign(1.0, x) * math.copysign",
           "        inward = math.copysign(1.0, x) * math.copysign",
           [T_EX_GRIP], "the gripper's actuators with the sense of their slides the wrong way "
           "round: the fingers open"),
    Mutant("example-gripper-lift-from-zero", "examples/make_examples.py",
           "StartTime=GRIP_LIFT_START, EndTime=GRIP_LIFT_END, Distance=start,",
           "StartTime=GRIP_LIFT_START, EndTime=GRIP_LIFT_END, Distance=0.0,",
           [T_EX_GRIP], "the lift driver's slide counted from the palm's face instead of the "
           "table's: the palm is pulled down onto the table at the start"),
]


# =============================================================================== runner

class Interrupted(Exception):
    pass


def _on_signal(signum, frame):
    raise Interrupted("signal %d" % signum)


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def _read(path):
    with open(path, "rb") as fh:
        return fh.read()


def _write(path, data):
    with open(path, "wb") as fh:
        fh.write(data)


def _quiet_signals():
    """Ignore Ctrl-C/SIGTERM while files are being put back; returns the old handlers."""
    return {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}


def _restore_signals(old):
    for s, h in old.items():
        signal.signal(s, h)


class Workspace:
    """Applies one mutant at a time and guarantees the original file comes back."""

    def __init__(self):
        self.current = None       # (abs path, original bytes, (atime_ns, mtime_ns))

    def recover(self):
        """Put back files left mutated by a run that was killed outright."""
        manifest = os.path.join(RESTORE_DIR, "manifest.json")
        if not os.path.exists(manifest):
            return []
        with open(manifest) as fh:
            entries = json.load(fh)
        restored = []
        for e in entries:
            data = _read(os.path.join(RESTORE_DIR, e["copy"]))
            assert _sha(data) == e["sha256"], "corrupt restore copy of %s" % e["file"]
            path = os.path.join(ROOT, e["file"])
            if not os.path.exists(path) or _read(path) != data:
                _write(path, data)
                restored.append(e["file"])
            os.utime(path, ns=(e["atime_ns"], e["mtime_ns"]))
        shutil.rmtree(RESTORE_DIR)
        return restored

    def apply(self, mutant, source):
        path = os.path.join(ROOT, mutant.file)
        st = os.stat(path)
        times = (st.st_atime_ns, st.st_mtime_ns)
        os.makedirs(RESTORE_DIR, exist_ok=True)
        copy = re.sub(r"[^A-Za-z0-9_.]", "_", mutant.file)
        _write(os.path.join(RESTORE_DIR, copy), source)
        with open(os.path.join(RESTORE_DIR, "manifest.json"), "w") as fh:
            json.dump([dict(file=mutant.file, copy=copy, sha256=_sha(source), atime_ns=times[0],
                            mtime_ns=times[1])], fh)
        self.current = (path, source, times)
        _write(path, source.replace(mutant.anchor.encode(), mutant.replacement.encode(), 1))
        # a modification time clearly apart from the original's (whole seconds: .pyc
        # files compare seconds), so no cached byte code of the original is taken
        mtime = max(time.time_ns(), times[1] + 2_000_000_000)
        os.utime(path, ns=(mtime, mtime))

    def restore(self):
        if self.current is None:
            return
        old = _quiet_signals()
        try:
            path, source, times = self.current
            _write(path, source)
            os.utime(path, ns=times)
            assert _sha(_read(path)) == _sha(source)
            shutil.rmtree(RESTORE_DIR, ignore_errors=True)
            self.current = None
        finally:
            _restore_signals(old)


def _check_anchor(m):
    path = os.path.join(ROOT, m.file)
    if not os.path.exists(path):
        return None, "file %s not found" % m.file
    source = _read(path)
    n = source.count(m.anchor.encode())
    if n != 1:
        return None, "anchor found %d times in %s (must be exactly once): %r" % (
            n, m.file, m.anchor.splitlines()[0] if m.anchor else m.anchor)
    if m.anchor == m.replacement:
        return None, "replacement equals the anchor"
    return source, None


def _compiles(m, source):
    if not m.file.endswith(".py"):      # a data file (package.xml): nothing to compile
        return True
    tmp = tempfile.NamedTemporaryFile(suffix=".py", delete=False)
    try:
        tmp.write(source.replace(m.anchor.encode(), m.replacement.encode(), 1))
        tmp.close()
        py_compile.compile(tmp.name, doraise=True, cfile=tmp.name + "c")
        return True
    except py_compile.PyCompileError:
        return False
    finally:
        for p in (tmp.name, tmp.name + "c"):
            if os.path.exists(p):
                os.unlink(p)


class TestRun:
    """One pytest process (its own session: stopped as a group on interrupt)."""

    def __init__(self, tests, env, stop_first, timeout):
        args = [RUN_PYTHON, "-m", "pytest", "-q", "--tb=no", "-rfE", "-p", "no:cacheprovider",
                "-o", "addopts="] + (["-x"] if stop_first else []) + list(tests)
        self.proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.timeout = timeout

    def wait(self):
        try:
            out, _ = self.proc.communicate(timeout=self.timeout)
            return self.proc.returncode, out.decode(errors="replace"), False
        except subprocess.TimeoutExpired:
            self.stop()
            out, _ = self.proc.communicate()
            return self.proc.returncode, out.decode(errors="replace"), True

    def stop(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            except ProcessLookupError:
                pass


def _failures(output):
    return [m.group(2) for m in re.finditer(r"^(FAILED|ERROR) (\S+)", output, re.M)]


def _env(jit_file, args, cache_dir=None):
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("PYTEST_ADDOPTS", None)
    if jit_file:
        if args.jit:
            env["NUMBA_CACHE_DIR"] = cache_dir
        else:
            env["NUMBA_DISABLE_JIT"] = "1"
    return env


def _short(nodeid):
    return nodeid.replace("tests/solver/", "").replace("tests/app/", "app/")


def _run_tests(tests, env, stop_first, timeout, running):
    run = TestRun(tests, env, stop_first, timeout)
    running.append(run)
    try:
        return run.wait()
    finally:
        running.remove(run)


def baseline(mutants, args, running):
    """The tests of all mutants on the unmutated code (the same environments)."""
    groups = {}
    for m in mutants:
        groups.setdefault(m.file in JIT_FILES, [])
        for t in m.tests:
            if t not in groups[m.file in JIT_FILES]:
                groups[m.file in JIT_FILES].append(t)
    ok = True
    for jit_file, tests in sorted(groups.items()):
        cache = tempfile.mkdtemp(prefix="simphant-numba-") if (jit_file and args.jit) else None
        try:
            t0 = time.time()
            rc, out, timed_out = _run_tests(tests, _env(jit_file, args, cache), False,
                                            args.timeout * 4, running)
        finally:
            if cache:
                shutil.rmtree(cache, ignore_errors=True)
        label = "pure-Python kernels" if (jit_file and not args.jit) else "compiled kernels"
        print("baseline (%s): %d test selections, %s in %.0f s"
              % (label, len(tests), "ok" if rc == 0 else "FAILED", time.time() - t0), flush=True)
        if rc != 0:
            ok = False
            print(out[-3000:])
    return ok


def _recompiled(cache_dir, source_file, since):
    stem = os.path.splitext(os.path.basename(source_file))[0]
    idx = glob.glob(os.path.join(cache_dir, "**", stem + ".*.nbi"), recursive=True)
    return any(os.path.getmtime(p) >= since for p in idx)


def freecad_major():
    """The major version of the FreeCAD the tests run with (0 when it cannot be asked)."""
    code = "import FreeCAD\nprint('SIMPHANT_FC_MAJOR=%s' % FreeCAD.Version()[0])"
    done = subprocess.run([RUN_PYTHON, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    found = re.findall(r"SIMPHANT_FC_MAJOR=(\d+)", done.stdout)
    return int(found[-1]) if found else 0


def check_import_location():
    """The tests must import this checkout's package. FreeCAD puts the user Mod directory
    (``make setup`` links a checkout there) ahead of ``sys.path``: when that link points
    at another checkout, app tests would test that one and every mutant there survive."""
    code = ("import sys, os\n"
            "try:\n    import FreeCAD\nexcept ImportError:\n    pass\n"
            "import SimPhantWorkbench\n"
            "print(os.path.realpath(os.path.dirname(SimPhantWorkbench.__file__)))")
    done = subprocess.run([RUN_PYTHON, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    where = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    expected = os.path.realpath(os.path.join(ROOT, "SimPhantWorkbench"))
    if where != expected:
        print("the tests would import SimPhantWorkbench from %s, not from this checkout (%s):\n"
              "FreeCAD's user Mod link points elsewhere; run `make setup` here first"
              % (where, expected))
        return False
    return True


def run_mutant(ws, m, args, running):
    """Returns (status, killed_by, seconds, note); status in killed, SURVIVED, ANCHOR, ERROR."""
    source, problem = _check_anchor(m)
    if problem:
        return "ANCHOR", "", 0.0, problem
    if not _compiles(m, source):
        return "ERROR", "", 0.0, "the mutated file does not compile"
    jit_file = m.file in JIT_FILES
    cache = tempfile.mkdtemp(prefix="simphant-numba-") if (jit_file and args.jit) else None
    t0 = time.time()
    try:
        ws.apply(m, source)
        rc, out, timed_out = _run_tests(m.tests, _env(jit_file, args, cache),
                                        not args.all_killers, args.timeout, running)
        note = ""
        if cache and not _recompiled(cache, m.file, t0):
            note = "numba did not recompile %s" % m.file
    finally:
        ws.restore()
        if cache:
            shutil.rmtree(cache, ignore_errors=True)
    dt = time.time() - t0
    fails = _failures(out)
    if timed_out:
        return "killed", "timeout (%d s)" % args.timeout, dt, note
    if rc in (1, 2) and fails:
        killers = ", ".join(_short(f) for f in fails[:3])
        if len(fails) > 3:
            killers += " (+%d)" % (len(fails) - 3)
        if args.all_killers:
            killers = "%d tests: %s" % (len(fails), killers)
        return ("ERROR" if note else "killed"), killers, dt, note
    if rc == 0:
        return ("ERROR" if note else "SURVIVED"), "", dt, note
    return "ERROR", "", dt, "pytest exit code %s: %s" % (rc, out.strip().splitlines()[-1:] or "")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--only", default="", help="comma-separated mutant ids")
    ap.add_argument("--all-killers", action="store_true",
                    help="run every selected test (no -x) and report how many fail")
    ap.add_argument("--jit", action="store_true",
                    help="run kernel mutants compiled, each with a fresh numba cache (slow)")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip running the selected tests on the unmutated code first")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per mutant")
    args = ap.parse_args(argv)

    ids = [m.id for m in MUTANTS]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        print("duplicate mutant ids: %s" % ", ".join(sorted(dup)))
        return 2
    mutants = MUTANTS
    if args.only:
        want = [s.strip() for s in args.only.split(",") if s.strip()]
        unknown = [w for w in want if w not in ids]
        if unknown:
            print("unknown mutant ids: %s" % ", ".join(unknown))
            return 2
        mutants = [m for m in MUTANTS if m.id in want]
    if args.list:
        bad = 0
        for m in mutants:
            _, problem = _check_anchor(m)
            bad += bool(problem)
            print("%-32s %-40s %s%s" % (m.id, m.file, m.description,
                                        ("\n    ANCHOR: " + problem) if problem else ""))
        return 1 if bad else 0

    ws = Workspace()
    running = []
    old = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    hashes = {}
    rows = []
    t_start = time.time()
    code = 0
    try:
        leftover = ws.recover()
        if leftover:
            print("restored files left mutated by an interrupted run: %s" % ", ".join(leftover))
        for m in mutants:
            p = os.path.join(ROOT, m.file)
            if os.path.exists(p):
                hashes.setdefault(m.file, _sha(_read(p)))
        print("%d mutants in %d files; kernel mutants run %s" % (
            len(mutants), len(hashes),
            "compiled (fresh numba cache each)" if args.jit else "as pure Python (NUMBA_DISABLE_JIT=1)"),
            flush=True)
        if not check_import_location():
            return 2
        if any(m.fc1 for m in mutants) and freecad_major() < 1:
            later = [m.id for m in mutants if m.fc1]
            print("%d mutants need FreeCAD 1.x (their tests run there only), not run here: %s\n"
                  "  tools/test_fc1.sh shell \"tools/run_python.sh tools/mutants.py --only %s\""
                  % (len(later), ", ".join(later), ",".join(later)), flush=True)
            mutants = [m for m in mutants if not m.fc1]
        if not args.no_baseline and not baseline(mutants, args, running):
            print("the tests fail without any mutant: fix them first")
            return 1
        for n, m in enumerate(mutants, 1):
            status, killers, dt, note = run_mutant(ws, m, args, running)
            rows.append((m, status, killers, dt, note))
            print("[%2d/%d] %-8s %-32s %5.0f s  %s%s" % (n, len(mutants), status, m.id, dt,
                                                         killers, ("  " + note) if note else ""),
                  flush=True)
    except (Interrupted, KeyboardInterrupt) as exc:
        for run in list(running):
            run.stop()
        print("\ninterrupted (%s): stopping" % (exc or "Ctrl-C"))
        code = 130
    finally:
        for run in list(running):
            run.stop()
        ws.restore()
        ws.recover()          # a copy left by an interrupt between its steps
        _restore_signals(old)
        changed = [f for f, h in hashes.items() if _sha(_read(os.path.join(ROOT, f))) != h]
        if changed:
            print("ERROR: files differ from before the run: %s" % ", ".join(changed))
            code = 3
        else:
            print("all %d mutated files restored (sha256 verified)" % len(hashes))

    _table(rows)
    survived = [r for r in rows if r[1] != "killed"]
    print("\n%d of %d mutants killed, %d survived, %d anchor problems, %d errors; %.0f s"
          % (sum(r[1] == "killed" for r in rows), len(rows),
             sum(r[1] == "SURVIVED" for r in rows), sum(r[1] == "ANCHOR" for r in rows),
             sum(r[1] == "ERROR" for r in rows), time.time() - t_start))
    if code:
        return code
    return 1 if survived or len(rows) < len(mutants) else 0


def _table(rows):
    if not rows:
        return
    w = max(len(r[0].id) for r in rows)
    print("\n%-*s  %-8s  %6s  %s" % (w, "mutant", "result", "time", "killed by / problem"))
    print("-" * (w + 60))
    for m, status, killers, dt, note in rows:
        print("%-*s  %-8s  %5.0fs  %s" % (w, m.id, status, dt, killers or note))
        if status in ("SURVIVED", "ANCHOR", "ERROR"):
            print("%-*s  %s: %s" % (w, "", m.file, m.description))


if __name__ == "__main__":
    sys.exit(main())
