"""Mobility diagnostics before a run: the DOF report (``Model.dof_report``).

Compares the Gruebler–Kutzbach count ``6 N - m`` (N moving bodies, m constraint
equations) with the mobility from the rank of the constraint Jacobian ``Phi_q`` at
the (assembled) initial configuration, and says why they differ (docs/theory.md,
"Mobility and redundant equations"):

* redundant equations, listed per joint and row, with the joint kinds that would
  remove exactly them (keeping the mobility);
* a singular configuration: the rank is lower here than at configurations an
  infinitesimal feasible motion away, or the smallest singular value is tiny;
* a locked mechanism (no DOF) and more driver equations than DOF.

The rank is that of the equilibrated Jacobian ``D Phi_q C``: rotational columns
scaled by the model size ``L`` (so translations and rotations ``L theta`` are both
lengths), rows scaled to unit norm; singular values below ``RANK_TOLERANCE`` x the
largest count as zero.
"""
import math

import numpy as np

from .diagnostics import model_size
from .reactions import component_labels, indeterminate_components
from .joints import (JOINT_TYPES, PRIM_ASLIDE, PRIM_DIST, PRIM_DOT1, PRIM_DOT2, PRIM_GEAR,
                     PRIM_POINT)
from .rotations import quat_to_matrix

__all__ = ["DofReport", "dof_report", "report_lines", "row_label", "twist_directions", "frame_gap", "frame_residuals",
           "RANK_TOLERANCE",
           "NEAR_SINGULAR", "SINGULAR_STEP", "SUGGEST_MAX_EVALUATIONS"]

#: singular values of the equilibrated Jacobian below this x the largest are zero
RANK_TOLERANCE = 1e-8
#: a smallest non-zero singular value below this x the largest: close to a singular
#: configuration
NEAR_SINGULAR = 1e-6
#: feasible first-order step (x the model size) at which the rank is checked again:
#: a singular configuration's lost rank comes back at O(step), far above
#: ``RANK_TOLERANCE``; a redundancy that persists along the motion stays below it
#: (its singular value grows only as O(step^2))
SINGULAR_STEP = 1e-5
#: most rank evaluations spent on looking for joint kinds that remove the redundancy
SUGGEST_MAX_EVALUATIONS = 400
#: ... and at most about this many floating-point operations (SVDs of the Jacobian)
SUGGEST_MAX_WORK = 2e9

_AXES = "xyz"


def row_label(prim, a, b):
    """What one primitive row of a joint constrains, in words."""
    if prim == PRIM_POINT:
        return "translation along world %s" % _AXES[a]
    if prim == PRIM_DOT1:
        return ("rotation about joint %s" % _AXES[3 - a - b] if a != b
                else "angle between the joint %s axes" % _AXES[a])
    if prim == PRIM_DOT2:
        return "translation along joint %s" % _AXES[a]
    if prim == PRIM_DIST:
        return "distance"
    if prim in (PRIM_GEAR, PRIM_ASLIDE):
        return "coupling"
    return "driver"


#: the six relative motions of a joint, in joint frame 1 axes
MOTION_LABELS = ["translation along joint x", "translation along joint y",
                 "translation along joint z", "rotation about joint x",
                 "rotation about joint y", "rotation about joint z"]


def twist_directions(spec, R1=np.eye(3)):
    """Directions (rows, 6) in the relative-twist space ``[v, L w]`` (joint frame 1
    axes) that the rows of a joint kind constrain when its two frames coincide; None
    for kinds whose anchors are apart (distance, revolute-spherical) or whose z axes
    are (perpendicular, angle)."""
    if "point2" in spec.needs or "axis2" in spec.needs and spec.name != "universal":
        return None
    out = []
    for prim, a, b in spec.rows:
        d = np.zeros(6)
        if prim == PRIM_POINT:
            d[:3] = R1[a]             # world axis a in frame 1 axes
        elif prim == PRIM_DOT1:
            d[3:] = np.cross(np.eye(3)[b], np.eye(3)[a])
        elif prim == PRIM_DOT2:
            d[a] = 1.0
        else:
            return None
        out.append(d)
    return np.array(out).reshape(-1, 6)


def frame_residuals(kind, frame1, frame2, length=None, angle=None):
    """Signed residuals of the rows of a joint ``kind`` between two joint frames.

    ``frame1``/``frame2`` are ``(point (3,) m, rotation (3, 3) with columns x, y, z)`` in
    world axes; ``length`` the distance a distance row keeps (``None``: the frames' own
    distance, met by definition: no row), ``angle`` [rad] the angle between the z axes
    an angle joint keeps (``None``: the frames' own angle: no row). Returns ``[(primitive, value)]``, one per row
    that constrains the frames, evaluated as the solver's primitives define them
    (``joints``): ``(P_i - P_j)_c`` [m] (POINT), ``a_i . d`` [m] (DOT2),
    ``|d| - L`` [m] (DIST), ``a_i . b_j`` (DOT1, the sine of the angle by which the axis
    pair misses being perpendicular; an angle joint's: ``a_i . b_j - cos(angle)``)."""
    p1, R1 = np.asarray(frame1[0], dtype=float), np.asarray(frame1[1], dtype=float)
    p2, R2 = np.asarray(frame2[0], dtype=float), np.asarray(frame2[1], dtype=float)
    d = p1 - p2
    out = []
    for prim, a, b in JOINT_TYPES[kind].rows:
        if prim == PRIM_POINT:
            out.append((prim, float(d[a])))
        elif prim == PRIM_DOT2:
            out.append((prim, float(R1[:, a] @ d)))
        elif prim == PRIM_DIST and length is not None:
            out.append((prim, float(np.linalg.norm(d)) - length))
        elif prim == PRIM_DOT1 and "angle" in JOINT_TYPES[kind].needs:
            if angle is not None:
                out.append((prim, float(R1[:, a] @ R2[:, b]) - math.cos(angle)))
        elif prim == PRIM_DOT1:
            out.append((prim, float(np.clip(R1[:, a] @ R2[:, b], -1.0, 1.0))))
    return out


def frame_gap(kind, frame1, frame2, length=None, angle=None):
    """How far two joint frames are from meeting the constraints of a joint ``kind``.

    Arguments as ``frame_residuals``; returns ``(distance [m], angle [rad])``: the
    largest translational residual (point, dot-2 and distance rows) and the largest angle
    by which an axis pair misses being perpendicular (dot-1 rows; an angle joint's: by
    which the z axes' angle misses ``angle``); both 0 when the frames meet the joint."""
    distance = miss = 0.0
    for prim, value in frame_residuals(kind, frame1, frame2, length, angle):
        if prim == PRIM_DOT1 and "angle" in JOINT_TYPES[kind].needs:   # angle - its angle
            miss = max(miss, abs(math.acos(max(-1.0, min(1.0, value + math.cos(angle))))
                                 - angle))
        elif prim == PRIM_DOT1:
            miss = max(miss, abs(math.asin(value)))
        else:
            distance = max(distance, abs(value))
    return distance, miss


def _rank(A, tol=RANK_TOLERANCE):
    if A.size == 0:
        return 0, np.zeros(0)
    s = np.linalg.svd(A, compute_uv=False)
    return int((s > tol * max(s[0], 1e-300)).sum()), s


def _span_contains(B, A):
    """Row space of A inside that of B."""
    rb = _rank(B, 1e-10)[0]
    return _rank(np.vstack([B, A]), 1e-10)[0] == rb


class DofReport:
    """Result of ``dof_report``; ``str()`` is the readable report, ``to_dict()`` the data.

    Attributes: ``bodies`` (moving), ``equations`` (joint constraint rows),
    ``gruebler`` (6 bodies - equations), ``rank`` and ``mobility`` (6 bodies - rank)
    from the Jacobian, ``redundant`` (equations - rank), ``redundant_rows`` (list of
    (joint, row label)), ``suggestions`` (list of (joint, kind, new kind, freed motions)),
    ``driver_equations``, ``singular``, ``rank_nearby``, ``smallest_singular_value``
    (relative), ``indeterminate_reactions`` (list of (joint, components in its joint
    axes) whose share of the load the redundant joints leave open: ``reactions``),
    ``warnings`` (list of str), ``tolerance``.
    """

    def __init__(self, **kw):
        self.__dict__.update(kw)

    @property
    def locked(self):
        return self.mobility <= 0

    @property
    def over_driven(self):
        return self.driver_equations > max(self.mobility, 0)

    def to_dict(self):
        return dict(
            name=self.name, bodies=self.bodies, equations=self.equations,
            gruebler=self.gruebler, rank=self.rank, mobility=self.mobility,
            redundant=self.redundant,
            redundant_rows=[dict(joint=j, row=r) for j, r in self.redundant_rows],
            suggestions=[dict(joint=j, kind=k, new_kind=n, frees=list(f))
                         for j, k, n, f in self.suggestions],
            driver_equations=self.driver_equations, driver_rank=self.driver_rank,
            singular=self.singular, rank_nearby=self.rank_nearby,
            smallest_singular_value=self.smallest_singular_value,
            locked=self.locked, over_driven=self.over_driven,
            indeterminate_reactions=[dict(joint=j, components=list(c))
                                     for j, c in self.indeterminate_reactions],
            tolerance=self.tolerance, warnings=list(self.warnings))

    def redundant_by_joint(self):
        """{joint name: [row labels]} of the redundant rows, in joint order."""
        out = {}
        for j, r in self.redundant_rows:
            out.setdefault(j, []).append(r)
        return out

    def summary(self):
        """One line: mobility and Gruebler count."""
        s = "mobility %d (Gruebler: 6 x %d bodies - %d equations = %d; Jacobian rank %d of %d)" % (
            self.mobility, self.bodies, self.equations, self.gruebler, self.rank, self.equations)
        if self.redundant:
            s += ", %d redundant equation%s" % (self.redundant, "s" if self.redundant != 1 else "")
        return s

    def __str__(self):
        lines = ["%s: %s" % (self.name, self.summary())] if self.name else [self.summary()]
        lines += ["  %s: %s" % kv for kv in report_lines(self.to_dict())]
        return "\n".join(lines)

    def __repr__(self):
        return "<DofReport %s>" % self.summary()


def report_lines(d):
    """(key, text) pairs of a report's details from its ``to_dict()``: "redundant",
    "suggestion", "reactions", "drivers", "warning" (what the CLI summary and the GUI
    show)."""
    out = []
    if d["redundant_rows"]:
        per = {}
        for row in d["redundant_rows"]:
            per.setdefault(row["joint"], []).append(row["row"])
        out.append(("redundant", "; ".join("%s rows %s" % (j, ", ".join(rows))
                                           for j, rows in per.items())
                    + " (handled by the solver: the motion is not affected; only the "
                    "reactions these joints share are indeterminate)"))
    for sg in d["suggestions"]:
        spec = JOINT_TYPES.get(sg["new_kind"])
        label = spec.label.lower() if spec is not None else sg["new_kind"]
        out.append(("suggestion", "replace %s (%s) by a %s joint (frees %s), optional: "
                    "for determinate reactions"
                    % (sg["joint"], sg["kind"], label, ", ".join(sg["frees"]))))
    shared = d.get("indeterminate_reactions", [])
    if shared:
        out.append(("reactions", "indeterminate (shared by the redundant joints, reported by "
                    "the least-norm rule): %s" % "; ".join(
                        "%s %s" % (x["joint"], ", ".join(x["components"])) for x in shared)
                    + " (joint axes)"))
    if d["driver_equations"]:
        out.append(("drivers", "%d equations for %d DOF" % (d["driver_equations"],
                                                            max(d["mobility"], 0))))
    out.extend(("warning", w) for w in d["warnings"])
    return out


# ---------------------------------------------------------------------- the analysis

class _Analysis:
    """Equilibrated Jacobian and per-joint relative-twist maps at a state Y."""

    def __init__(self, system, Y):
        self.system = system
        self.Y = Y
        self.L = model_size(system)
        nb = system.nb
        _phi, J, _ = system.constraint_state(Y)
        self.J = self._cols(J)
        act = system.active_rows
        self.rows = act
        self.names = [system.joint_name_of_row(r) for r in act]
        S = system.S
        self.labels = [row_label(int(S.row_prim[r]), int(S.row_ai[r]), int(S.row_aj[r]))
                       for r in act]
        self.A = np.zeros((nb + 1, 3, 3))
        self.A[nb] = np.eye(3)
        self.r = np.zeros((nb + 1, 3))
        for b in range(nb):
            self.A[b] = quat_to_matrix(Y[7 * b + 3:7 * b + 7])
            self.r[b] = Y[7 * b:7 * b + 3]

    def _cols(self, J):
        J = np.array(J, dtype=float)
        nb = self.system.nb
        for b in range(nb):
            J[:, 6 * b + 3:6 * b + 6] /= self.L
        return J

    @staticmethod
    def unit_rows(J):
        n = np.linalg.norm(J, axis=1)
        return J / np.maximum(n, 1e-300)[:, None]

    def frame1(self, s):
        S = self.system.S
        b = S.jnt_slot[s, 0]
        return self.A[b] @ S.jnt_frame[s, 0]

    def twist_map(self, s):
        """(6, 6 nb): relative twist [v, L w] of joint frame 2 (at its anchor) against
        body 1, in joint frame 1 axes, per unit of the scaled velocities."""
        S = self.system.S
        nb = self.system.nb
        T = np.zeros((6, 6 * nb))
        R1 = self.frame1(s)
        b2 = S.jnt_slot[s, 1]
        P2 = self.r[b2] + self.A[b2] @ S.jnt_anchor[s, 1]
        for side, sign in ((0, -1.0), (1, 1.0)):
            b = S.jnt_slot[s, side]
            if b >= nb:
                continue
            arm = P2 - self.r[b]
            skew = np.array([[0, -arm[2], arm[1]], [arm[2], 0, -arm[0]], [-arm[1], arm[0], 0]])
            # v_P = v - [arm]x A wbar ; w = A wbar ; scaled columns: wbar = w_s / L
            T[:3, 6 * b:6 * b + 3] += sign * R1.T
            T[:3, 6 * b + 3:6 * b + 6] += sign * R1.T @ (-skew @ self.A[b]) / self.L
            T[3:, 6 * b + 3:6 * b + 6] += sign * R1.T @ self.A[b]
        return T


def _driver_info(system, names):
    """(driver names, their row count) of the model's drivers, if it has any."""
    drivers = list(getattr(system.model, "drivers", []) or [])
    dnames = [getattr(d, "name", str(d)) for d in drivers]
    in_system = sum(1 for n in names if n in dnames)
    if in_system:
        return dnames, in_system
    count = 0
    for d in drivers:
        for attr in ("nrows", "row_count", "n_rows", "rows"):
            v = getattr(d, attr, None)
            if v is not None:
                count += v if isinstance(v, int) else len(v)
                break
        else:
            count += 1
    return dnames, count


def dof_report(obj, Y=None, assemble=True, suggest=True, name=None):
    """The ``DofReport`` of a ``Model`` or ``System`` at its initial configuration.

    ``Y``: the state to analyse (default the system's initial state, projected onto
    the joints first when ``assemble``; a model that does not assemble is analysed
    as it is, with a warning). ``suggest``: look for joint kinds that remove the
    redundant equations. Nothing of the system is changed.
    """
    system = obj.compile() if hasattr(obj, "compile") else obj      # a Model or a System
    saved = (system.redundant.copy(), system.S)
    warnings = []
    try:
        if Y is None:
            Y = system.y0.copy()
            if assemble and system.S.nrows:
                from .assembly import assemble
                from .errors import AssemblyError
                try:
                    Y, _ = assemble(system, Y)
                except AssemblyError as exc:
                    warnings.append("not assembled (%s): analysed at the given positions" % exc)
        Y = np.asarray(Y, dtype=float)
        return _report(system, Y, suggest, warnings, name)
    finally:
        system.redundant, system.S = saved


def _report(system, Y, suggest, warnings, name):
    nb = system.nb
    an = _Analysis(system, Y)
    # couplers are permanent constraints: counted with the joints
    jnames = {j.name for j in system.model.joints} \
        | {c.name for c in getattr(system.model, "couplers", [])}
    dnames, ndriver = _driver_info(system, an.names)
    is_joint = np.array([n in jnames for n in an.names], dtype=bool)
    Jj = an.unit_rows(an.J[is_joint])
    m = int(is_joint.sum())
    rank, s = _rank(Jj)
    mobility = 6 * nb - rank
    gruebler = 6 * nb - m
    smin = float(s[rank - 1] / s[0]) if rank else 1.0

    # redundant rows: the solver's own choice (System.find_redundant_rows)
    redundant_rows = []
    if m > rank:
        system.find_redundant_rows(Y)
        for i, r in enumerate(an.rows):
            if system.redundant[r] and is_joint[i]:
                redundant_rows.append((an.names[i], an.labels[i]))

    # singular configuration: rank at a feasible first-order step away
    rank_nearby = rank
    if 0 < mobility and rank < 6 * nb:
        _, _, Vt = np.linalg.svd(Jj, full_matrices=True)
        N = Vt[rank:]
        rng = np.random.default_rng(0)
        from .assembly import retract
        for _ in range(2):
            v = rng.normal(size=N.shape[0]) @ N
            v /= np.linalg.norm(v)
            dq = v.reshape(nb, 6).copy()
            dq[:, 3:] /= an.L
            Yn = retract(Y, nb, dq, SINGULAR_STEP * an.L)
            an2 = _Analysis(system, Yn)
            rank_nearby = max(rank_nearby, _rank(an.unit_rows(an2.J[is_joint]))[0])
    singular = rank_nearby > rank
    if singular:
        warnings.append(
            "singular configuration: the Jacobian has rank %d here but %d an infinitesimal "
            "motion away (mobility %d there): joints aligned at a dead point or a chain at "
            "full stretch; the motion may lock or branch" % (rank, rank_nearby,
                                                             6 * nb - rank_nearby))
    elif rank and smin < NEAR_SINGULAR:
        warnings.append("close to a singular configuration: smallest singular value %.3g of "
                        "the largest (equilibrated Jacobian)" % smin)
    if mobility <= 0:
        warnings.append("locked: the mechanism has no degree of freedom (mobility %d)"
                        % mobility)
    driver_rank = 0
    if ndriver:
        if (~is_joint).any():
            Jall = an.unit_rows(an.J)
            driver_rank = _rank(Jall)[0] - rank
        else:
            driver_rank = min(ndriver, max(mobility, 0))
        if ndriver > max(mobility, 0):
            warnings.append("over-driven: %d driver equations (%s) for %d DOF"
                            % (ndriver, ", ".join(dnames), max(mobility, 0)))
        elif driver_rank < ndriver:
            warnings.append("%d of the %d driver equations (%s) are redundant or conflict "
                            "with the joints" % (ndriver - driver_rank, ndriver,
                                                 ", ".join(dnames)))

    suggestions = []
    if suggest and m > rank:
        suggestions = _suggest(an, is_joint, rank, m - rank)
    flags = indeterminate_components(system, Y)
    shared = [(j.name, component_labels(f[6:])) for j, f in zip(system.model.joints, flags)
              if f[6:].any()]
    return DofReport(name=name or "", bodies=nb, equations=m, gruebler=gruebler, rank=rank,
                     mobility=mobility, redundant=m - rank, redundant_rows=redundant_rows,
                     suggestions=suggestions, driver_equations=ndriver,
                     driver_rank=driver_rank, singular=singular, rank_nearby=rank_nearby,
                     smallest_singular_value=smin, tolerance=RANK_TOLERANCE,
                     indeterminate_reactions=shared, warnings=warnings)


def _suggest(an, is_joint, rank, redundant):
    """Greedy: replace one loop joint at a time by a kind whose constrained motions
    are a strict subset of its own (same frames), keeping the rank (the mobility),
    taking the change that removes the most redundant equations, until none are left
    or no change helps. Returns [(joint, kind, new kind, [freed motions])]."""
    system = an.system
    model = system.model
    loops = set(system.loop_joints())
    rows_of = {}
    for i, r in enumerate(an.rows):
        if is_joint[i]:
            rows_of.setdefault(int(system.row_joint[r]), []).append(i)
    current = {}           # system joint position -> (kind, rows (k, 6nb))
    base = {}
    for s in sorted(loops):
        if s not in rows_of or int(system.joint_order[s]) >= len(model.joints):
            continue            # not a joint of the model (e.g. a driver's rows)
        j = model.joints[system.joint_order[s]]
        R1 = an.frame1(s)
        D = twist_directions(j.spec, R1)
        if D is None:
            continue
        base[s] = (j, an.twist_map(s), D)
    blocks = {s: an.J[rows_of.get(s, [])] for s in rows_of}
    out = []
    evaluations = 0
    rows, cols = an.J.shape
    budget = min(SUGGEST_MAX_EVALUATIONS,
                 int(SUGGEST_MAX_WORK / max(rows * cols * min(rows, cols), 1)))
    while redundant > 0:
        best = None
        for s in sorted(base):
            j, T, D = base[s]
            kind = current.get(s, j.kind)
            Dcur = twist_directions(JOINT_TYPES[kind], an.frame1(s))
            for new, spec in JOINT_TYPES.items():
                if new == kind or "point2" in spec.needs:
                    continue
                Dn = twist_directions(spec, an.frame1(s))
                if Dn is None or _rank(Dn, 1e-10)[0] >= _rank(Dcur, 1e-10)[0] \
                        or not _span_contains(Dcur, Dn):
                    continue
                evaluations += 1
                if evaluations > budget:
                    return out
                trial = dict(blocks)
                trial[s] = Dn @ T
                Jt = _Analysis.unit_rows(np.vstack([trial[k] for k in sorted(trial)]))
                r_t = _rank(Jt)[0]
                if r_t != rank:
                    continue
                red = Jt.shape[0] - r_t
                gain = redundant - red
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, s, new, Dn)
        if best is None:
            break
        gain, s, new, Dn = best
        j, T, D = base[s]
        kind = current.get(s, j.kind)
        Dcur = twist_directions(JOINT_TYPES[kind], an.frame1(s))
        freed = [MOTION_LABELS[k] for k in range(6)
                 if _span_contains(Dcur, np.eye(6)[k:k + 1])
                 and not _span_contains(Dn, np.eye(6)[k:k + 1])]
        prev = [k for k, o in enumerate(out) if o[0] == j.name]
        if prev:        # a joint changed twice: one suggestion from its own kind
            freed = out[prev[0]][3] + [f for f in freed if f not in out[prev[0]][3]]
            out[prev[0]] = (j.name, j.kind, new, freed)
        else:
            out.append((j.name, j.kind, new, freed))
        current[s] = new
        blocks[s] = Dn @ T
        redundant -= gain
    return out
