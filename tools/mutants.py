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
             "SimPhantWorkbench/solver/vec3.py"}

Mutant = namedtuple("Mutant", ["id", "file", "anchor", "replacement", "tests", "description"])

K = "SimPhantWorkbench/solver/kernels.py"
SIM = "SimPhantWorkbench/solver/simulation.py"
ROT = "SimPhantWorkbench/solver/rotations.py"
INTEG = "SimPhantWorkbench/solver/integrators.py"
RES = "SimPhantWorkbench/solver/result.py"
REF = "SimPhantWorkbench/document/references.py"
PLAY = "SimPhantWorkbench/playback.py"
OUT = "SimPhantWorkbench/output/__init__.py"
DOF = "SimPhantWorkbench/solver/dof.py"
JOUT = "SimPhantWorkbench/solver/joint_outputs.py"
WARM = "SimPhantWorkbench/solver/warmup.py"
FRC = "SimPhantWorkbench/solver/forces.py"

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
T_DRV = "tests/solver/test_drivers.py"
T_DRV_FD = T_DRV + "::test_driver_rows_match_finite_differences"
T_DRV_HOLD = T_DRV + "::test_held_pendulum_torque"
T_DIR = "tests/solver/test_direction_driver.py"
T_DIR_FD = T_DIR + "::test_direction_rows_match_finite_differences"
DRV = "SimPhantWorkbench/solver/drivers.py"
REACT = "SimPhantWorkbench/solver/reactions.py"
T_REACT = "tests/solver/test_reactions.py"
T_REACT_QUICK = T_REACT + "::test_four_bar_out_of_plane_load_least_norm_and_flags"
CPL = "SimPhantWorkbench/solver/couplers.py"
T_CPL = "tests/solver/test_couplers.py"
T_CPL_FD = T_CPL + "::test_coupler_row_jacobian_and_gamma_match_finite_differences"
T_CPL_GEAR = T_CPL + "::test_gear_pair_under_torque_matches_reflected_inertia"

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
           "A[b, 0, 1] = 2.0 * (x * y - w * z)",
           "A[b, 0, 1] = 2.0 * (x * y + w * z)",
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
           "+ 2.0 * (dd0 * wa0 + dd1 * wa1 + dd2 * wa2)",
           "+ (dd0 * wa0 + dd1 * wa1 + dd2 * wa2)",
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
           "Y[i] += h / 6.0 * (k1[i] + 2.0 * (k2[i] + k3[i]) + W.dY[i])",
           "Y[i] += h / 6.0 * (k1[i] + 2.0 * (k2[i] + k2[i]) + W.dY[i])",
           [T_FRAMES, T_PHYS + "::test_rk4_converges_with_order_four"],
           "RK4 uses k2 twice instead of k2 + k3"),
    Mutant("rk4-midpoint-load-time", K,
           "set_loads(S, W, tab, row + 1)",
           "set_loads(S, W, tab, row)",
           [T_API + "::test_world_torque_and_time_dependent_force", T_INTEG],
           "RK4 midpoint stages see the time-dependent loads of the step start"),
    # ---------------------------------------------------------------- simulation
    Mutant("output-sample-shift", SIM,
           "out = self.Ys[k + 1:kend + 1]",
           "out = self.Ys[k:kend]",
           [T_INTEG, T_API + "::test_output_sampling_is_independent_of_the_step"],
           "each fixed-step sample stored one slot early (off by one)"),
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
           "return RefFrame(kind, _array(point) * M_PER_MM,",
           "return RefFrame(kind, _array(point),",
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
           "                _ready.add((block_size, part_adaptive))\n",
           "",
           ["tests/solver/test_warmup.py"], "kernels prepared again at every simulate"),
    Mutant("warmup-wrong-joint", WARM,
           "if kernels.block_size(len(spec.rows)) == block_size:",
           "if kernels.block_size(len(spec.rows)) >= block_size:",
           ["tests/solver/test_warmup.py"], "warm-up model of another block size"),
    Mutant("compile-time-not-reported", SIM,
           "t0=t0, t_end=t_end, compile_time=compile_time)",
           "t0=t0, t_end=t_end, compile_time=0.0)",
           ["tests/solver/test_warmup.py"], "kernel preparation time dropped from settings"),
    Mutant("warmup-status-inverted", "SimPhantWorkbench/gui/kernel_warmup.py",
           "if b is None or b[1] < NOTICE_AFTER:",
           "if b is None or b[1] > NOTICE_AFTER:",
           ["tests/app/test_kernel_warmup.py"], "solve dialog hides a long compile"),
    # ---------------------------------------------------------------- force elements (numba)
    Mutant("damper-sign", FRC,
           "        f -= S.frc_par[i, PAR_C] * xdot",
           "        f += S.frc_par[i, PAR_C] * xdot",
           [T_FRC + "::test_damper_force_opposes_the_rate_of_change_of_length"],
           "linear damper force along the rate instead of against it"),
    Mutant("spring-free-length-default", FRC,
           "                L0 = dist\n",
           "                L0 = 0.0\n",
           [T_FRC + "::test_free_length_defaults_to_the_initial_distance"],
           "a spring's default free length 0 instead of |X2 - X1| at t0"),
    Mutant("joint-axis-frame", FRC,
           "e0, e1, e2 = frame_axis(A, bi, F, k, 0, 2)",
           "e0, e1, e2 = frame_axis(A, bj, F, k, 0, 2)",
           [T_FRC + "::test_joint_slide_spring_force_is_minus_gradient_of_its_potential",
            T_FRC + "::test_joint_torsion_spring_torque_is_minus_gradient_of_its_potential"],
           "joint axis z1 (body-1 components) turned with body 2's rotation"),
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
           "b0, b1, b2 = _frame_axis(A, bj, F, k, 1, 0)\n                c = xa0",
           "b0, b1, b2 = _frame_axis(A, bj, F, k, 1, 1)\n                c = xa0",
           [T_DRV_HOLD], "driver angle of joint frame 2's y axis instead of its x axis"),
    Mutant("driver-angle-not-wrapped", K,
           "phi -= TWO_PI * math.floor(phi / TWO_PI + 0.5)",
           "phi -= 0.0",
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
    Mutant("analysis-mode-ignored", "SimPhantWorkbench/document/settings.py",
           'return "kinematic" if str(getattr(study, "AnalysisMode", "Dynamic")) == "Kinematic"',
           'return "dynamic" if str(getattr(study, "AnalysisMode", "Dynamic")) == "Kinematic"',
           ["tests/app/test_drivers_doc.py::test_held_pendulum_torque_is_the_gravity_moment"],
           "the study's AnalysisMode Kinematic runs a dynamic simulation"),
    Mutant("driver-csv-power-column", "SimPhantWorkbench/output/tables.py",
           "        cols.append(result.driver_power(d))",
           "        cols.append(result.driver_effort(d) if result.driver_effort(d).ndim == 1 "
           "else result.driver_power(d))",
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
           '"balance": total + diss - work - drive}',
           '"balance": total + diss - work + drive}',
           ["tests/solver/test_driver_energy.py"],
           "energy balance adds the driver work instead of subtracting it"),
    Mutant("driver-work-left-out", RES,
           "drive = cumtrapz(self.t, self._driver_power.sum(axis=1))",
           "drive = np.zeros(len(self.t))",
           ["tests/app/test_examples.py::test_every_example_keeps_its_energy_balance"],
           "energy balance without the driver work"),
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
    Mutant("driver-panel-not-opened", "SimPhantWorkbench/commands/cmd_drivers.py",
           "FreeCADGui.getDocument(doc.Name).setEdit(o.Name)   # its task panel",
           "pass",
           ["tests/gui/test_drivers_gui.py"],
           "adding a driver does not open its task panel"),
    Mutant("warmup-fixed-step-loads-adaptive", SIM,
           "warmup.ensure(warmup.model_block_size(model), adaptive=not info.fixed_step,",
           "warmup.ensure(warmup.model_block_size(model), adaptive=True,",
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
    Mutant("archive-quaternions-unchecked", "SimPhantWorkbench/document/result_check.py",
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
    Mutant("coupler-reaction-sign", RES,
           "cpl_react = react[:, system.coupler_pos]",
           "cpl_react = -react[:, system.coupler_pos]",
           [T_CPL_GEAR], "the coupler reaction reported on the wrong body"),
    Mutant("assembly-gear-ratio-inverted", "SimPhantWorkbench/document/assembly_couplers.py",
           'return CouplerPlan(joint, kind, found, {"Ratio": radius2 / distance}), None',
           'return CouplerPlan(joint, kind, found, {"Ratio": distance / radius2}), None',
           ["tests/app/test_assembly_couplers.py"],
           "an Assembly Gears joint imported with the inverse ratio"),
    # ---------------------------------------------------------------- per-feature skips
    Mutant("refinement-never-skipped", K,
           "        if rho > REFINE_TOL * REFINE_TOL * rho_b:",
           "        if True:",
           ["tests/solver/test_constraint_forces.py::"
            "test_refinement_is_skipped_when_the_plain_solve_is_already_exact"],
           "the refinement step runs when the plain solve is already exact"),
    Mutant("refinement-skipped-too-often", K,
           "        if rho > REFINE_TOL * REFINE_TOL * rho_b:",
           "        if rho > rho_b:",
           ["tests/solver/test_constraint_forces.py::"
            "test_refinement_can_be_switched_off_and_then_the_bias_returns"],
           "the refinement is skipped where it removes the Tikhonov bias"),
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
