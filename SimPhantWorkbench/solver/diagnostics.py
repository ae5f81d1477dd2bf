"""Run diagnostics: the warnings a ``Result`` carries (``Result.warnings``).

Nothing here changes a run; it reports what a user should look at, naming the
bodies and joints concerned (docs/theory.md, "Diagnostics"):

* a body that had to move or turn far to assemble (a joint picked on the wrong
  element, frames that disagree): farther than ``ASSEMBLY_MOVE`` x the model
  size or more than ``ASSEMBLY_TURN``;
* a joint whose constraint residual |Phi| grew beyond ``RESIDUAL_TOLERANCE``
  (lengths relative to the model size, angles in radians) during the run,
  although it stayed under the run's ``violation_limit``;
* mass or inertia ratios beyond what double precision resolves: the
  constraint forces of a body whose translational and rotational compliances
  (``1/m`` against ``|s|^2 / I``, ``s`` from its CoG to a joint) or whose own
  compliance and that of its neighbours differ by more than ``RATIO_LIMIT``
  are determined only to about 1e-16 x that ratio; and solves whose iterative
  refinement stopped at its step limit.
"""
import math

import numpy as np

from . import kernels

__all__ = ["model_size", "assembly_warnings", "ratio_warnings", "run_warnings", "driver_warnings",
           "ASSEMBLY_MOVE", "ASSEMBLY_TURN", "RESIDUAL_TOLERANCE", "RATIO_LIMIT"]

#: a body that moves more than this fraction of the model size to assemble is reported
ASSEMBLY_MOVE = 0.1
#: ... or turns by more than this [rad]
ASSEMBLY_TURN = math.radians(30.0)
#: joint residuals above this (x the model size for lengths, rad for angles) are reported
RESIDUAL_TOLERANCE = 1e-6
#: compliance ratios above this leave the constraint forces with less than ~4 digits
RATIO_LIMIT = 1e12


def model_size(system):
    """Size [m] of the model at t0: the diagonal of the box around the bodies' CoGs
    and the joint points, at least the largest CoG-to-joint distance."""
    model = system.model
    pts = [b.position for b in model.bodies]
    for j in model.joints:
        pts.append(j.frame1[0])
        pts.append(j.frame2[0])
    size = 0.0
    if pts:
        P = np.array(pts, dtype=float).reshape(-1, 3)
        size = float(np.linalg.norm(P.max(axis=0) - P.min(axis=0)))
    return max(size, system.length_scale)


def assembly_warnings(system, report, size=None):
    """Bodies that the initial projection moved far (relative to the model size)."""
    if report is None:
        return []
    size = model_size(system) if size is None else size
    out = []
    for i, name in enumerate(report.body_names):
        d = float(report.translation[i])
        a = float(report.rotation[i])
        if d > ASSEMBLY_MOVE * size or a > ASSEMBLY_TURN:
            out.append("body %r moved %.4g m (%.3g x the model size of %.4g m) and turned "
                       "%.4g deg to satisfy its joints at t0: check the joint references "
                       "and the placements" % (name, d, d / size, size, math.degrees(a)))
    return out


def _compliances(system):
    """Per moving body: 1/m and the largest |s|^2 / I_min over its joint anchors."""
    S = system.S
    nb = S.nb
    trans = S.body_minv.copy()
    rot = np.zeros(nb)
    imin = S.body_inertia.min(axis=1) if nb else np.zeros(0)
    for k in range(S.nj):
        for side in range(2):
            b = S.jnt_slot[k, side]
            if b < nb:
                s2 = float(np.dot(S.jnt_anchor[k, side], S.jnt_anchor[k, side]))
                rot[b] = max(rot[b], s2 / imin[b])
    return trans, rot


def ratio_warnings(system):
    """Bodies whose compliance ratios exceed ``RATIO_LIMIT`` (see the module doc)."""
    S = system.S
    nb = S.nb
    trans, rot = _compliances(system)
    names = system.body_names
    out = []
    for b in range(nb):
        if rot[b] > RATIO_LIMIT * trans[b]:
            out.append("body %r: moment of inertia %.3g kg m^2 against mass %.4g kg at %.4g m "
                       "from its joint (ratio %.3g): its constraint forces are resolved to "
                       "only ~%.0e in double precision"
                       % (names[b], float(S.body_inertia[b].min()), 1.0 / S.body_minv[b],
                          math.sqrt(rot[b] * S.body_inertia[b].min()), rot[b] / trans[b],
                          1e-16 * rot[b] / trans[b]))
    # a body between two or more joints whose other sides are all far stiffer
    comp = trans + rot
    other = [[] for _ in range(nb)]
    for k in range(S.nj):
        bi, bj = S.jnt_slot[k]
        if bi < nb:
            other[bi].append(comp[bj] if bj < nb else 0.0)
        if bj < nb:
            other[bj].append(comp[bi] if bi < nb else 0.0)
    for b in range(nb):
        if len(other[b]) >= 2 and max(other[b]) > 0.0:
            ratio = comp[b] / max(other[b])
            if ratio > RATIO_LIMIT:
                out.append("body %r is %.3g times lighter (more compliant) than the bodies it "
                           "connects: the forces in its joints are resolved to only ~%.0e in "
                           "double precision" % (names[b], ratio, 1e-16 * ratio))
    return out


def run_warnings(system, result, report, stats):
    """All warnings of a finished (or stopped) run, in a stable order."""
    size = model_size(system)
    out = assembly_warnings(system, report, size)
    jr = result.joint_residual_max
    if jr is not None and len(jr):
        tol_len = RESIDUAL_TOLERANCE * size
        bad = []
        for k, name in enumerate(result.joint_names):
            length, angle = float(jr[k, 0]), float(jr[k, 1])
            score = max(length / tol_len, angle / RESIDUAL_TOLERANCE)
            if score > 1.0:
                bad.append((score, name, length, angle))
        bad.sort(reverse=True)
        for score, name, length, angle in bad[:5]:
            out.append("joint %r: constraint residual up to %.3g m and %.3g rad during the run "
                       "(tolerance %.3g m = %.0e x the model size, %.0e rad): the step may be "
                       "too large or the model ill-conditioned"
                       % (name, length, angle, tol_len, RESIDUAL_TOLERANCE, RESIDUAL_TOLERANCE))
        if len(bad) > 5:
            out.append("%d more joints above the residual tolerance" % (len(bad) - 5))
    ratios = ratio_warnings(system)
    out.extend(ratios)
    limit = int(stats[kernels.STAT_REFINE_LIMIT]) if stats is not None else 0
    if limit:
        out.append("in %d of %d constraint solves the iterative refinement stopped at its "
                   "limit of %d steps: the constraint forces are not resolved to double "
                   "precision (mass or inertia ratios too large%s, or a singular "
                   "configuration)" % (limit, int(stats[kernels.STAT_SOLVES]),
                                       int(system.S.refine_max),
                                       ", see above" if ratios else ""))
    return out


def driver_warnings(system):
    """Warnings about drivers whose rows are redundant at the assembled pose (after
    ``find_redundant_rows``): more drivers than the joints leave degrees of freedom."""
    if not len(system.drivers):
        return []
    red = [d.name for d, rows in zip(system.drivers, system.driver_rows)
           if system.redundant[rows].any()]
    if not red:
        return []
    return ["over-driven mechanism: the motion of driver(s) %s is already fixed by the "
            "joints and the other drivers (more drivers than degrees of freedom); their "
            "efforts are not unique: they are reported as the share of least norm"
            % ", ".join(repr(n) for n in red)]
