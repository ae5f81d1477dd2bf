"""``System``: a ``Model`` frozen into flat arrays for the jitted kernels.

Set-up (docs/theory.md): ground filtration (ground is the extra slot ``nb``),
body index map, the constant ``M^-1`` (per body ``1/m`` and ``1/J`` in the
principal frame), and joints packed into contiguous arrays, in the elimination
order chosen by ``sparse.analyse``.
"""
import math
from collections import namedtuple

import numpy as np

from . import kernels
from .drivers import DriverRow
from .contact import NCOUT, contact_arrays
from .forces import NOUT, OUT_ED, OUT_EW, OUT_PD, OUT_PW, force_arrays, restart_coordinates
from .joints import ANGULAR_PRIMS, PRIM_DIR, PRIM_DOT1, PRIM_PAD, PRIM_POINT, ROTATION_PRIMS
from .rotations import matrix_to_quat

__all__ = ["System"]


class System:
    """Flat-array form of a ``Model`` plus helpers to evaluate it.

    ``joint_order[s]`` is the model joint stored at position ``s``;
    ``joint_pos[j]`` the position of model joint ``j``.
    """

    #: most refinement steps per constraint solve (``kernels.solve_multipliers``)
    REFINE_MAX = 20
    #: Tikhonov eps of redundant rows, relative to their diagonal
    REDUNDANT_REGULARIZATION = 1.0

    def __init__(self, model, alpha=0.0, beta=0.0, regularization=1e-12, refine_max=REFINE_MAX):
        from .sparse import analyse

        self.model = model
        bodies = model.bodies
        joints = model.joints
        nb = len(bodies)
        self.nb = nb
        self.body_names = [b.name for b in bodies]
        self.R_pu = np.array([b.R_pu for b in bodies]).reshape(nb, 3, 3)

        # body drivers (drivers.TARGET_BODY) get a block of their own: an entry like a
        # joint between their body and ground, after the model's joints
        drivers = list(getattr(model, "drivers", []))
        entries = list(joints) + [_DriverEntry(d, model.ground) for d in drivers
                                  if d.joint is None]
        # couplers (couplers.py): a block of their own each, after the body drivers
        couplers = list(getattr(model, "couplers", []))
        entries += couplers
        self.couplers = couplers
        self.entry_names = [e.name for e in entries]
        pattern = analyse([(j.body1.index, j.body2.index) for j in entries], nb)
        self.pattern = pattern
        order = [int(i) for i in pattern.order]
        self.joint_order = np.array(order, dtype=np.int64)
        pos = np.empty(len(entries), dtype=np.int64)
        pos[self.joint_order] = np.arange(len(entries))
        #: system position of each model joint (body-driver entries left out)
        self.joint_pos = pos[:len(joints)]
        #: ... and of each coupler
        self.coupler_pos = pos[len(entries) - len(couplers):]
        sj = [entries[i] for i in order]
        nj = len(sj)

        # ---- bodies (principal frame)
        body_minv = np.array([1.0 / b.mass for b in bodies], dtype=float)
        body_inertia = np.array([b.moments for b in bodies], dtype=float).reshape(nb, 3)
        Y0 = np.zeros(13 * nb)
        for b in bodies:
            p = 7 * b.index
            v = 7 * nb + 6 * b.index
            Y0[p:p + 3] = b.position
            Y0[p + 3:p + 7] = matrix_to_quat(b.A_principal)
            Y0[v:v + 3] = b.velocity
            Y0[v + 3:v + 6] = b.A_principal.T @ b.angular_velocity
        self.y0 = Y0

        # ---- joints
        jnt_slot = np.zeros((nj, 2), dtype=np.int64)
        jnt_anchor = np.zeros((nj, 2, 3))
        jnt_frame = np.zeros((nj, 2, 3, 3))
        jnt_length = np.ones(nj)
        row0 = [0]
        jnt_nrow = []
        jnt_ntrans = []
        jnt_point = []
        # driver rows join the block of their joint (drivers.py), after the joint's rows;
        # their time values sit in the load table after the loads (W.load_val)
        # (one slot of W.load_val per driver motion; a row reads the one it names)
        nl = len(model.loads)
        slots = [DriverRow(d, k) for d in drivers for k in range(d.nslots)]
        slot_of = {(s.driver.index, s.k): nl + i for i, s in enumerate(slots)}
        # (a coupler has its rows, couplers.Coupler.rows; a joint those of its kind)
        joint_rows = {id(j): [tuple(row) + (-1, None)
                              for row in (j.rows if hasattr(j, "rows") else j.spec.rows)]
                      for j in sj}
        for e in sj:
            if isinstance(e, _DriverEntry):
                joint_rows[id(e)] = []
        for d in drivers:
            owner = d.joint if d.joint is not None else next(
                e for e in sj if isinstance(e, _DriverEntry) and e.driver is d)
            for k, row in enumerate(d.rows):
                joint_rows[id(owner)].append(tuple(row) + (slot_of[(d.index, d.row_slot(k))],
                                                           (d.index, k)))
        bsize = kernels.block_size(max([len(joint_rows[id(j)]) for j in sj], default=1))
        self.block_size = bsize
        prim, ai, aj, drv, tags, par = [], [], [], [], [], []
        lengths = [1e-3]
        # joint frames in the principal frames of their bodies (ground: world), all
        # joints at once: per slot A_principal and the CoG (identity and 0 for ground)
        for s, j in enumerate(sj):
            for side, (body, (P, R)) in enumerate(((j.body1, j.frame1), (j.body2, j.frame2))):
                jnt_slot[s, side] = nb if body.is_ground else body.index
                jnt_anchor[s, side] = P
                jnt_frame[s, side] = R
        if nj:
            slot_A = np.empty((nb + 1, 3, 3))
            slot_r = np.zeros((nb + 1, 3))
            for b in bodies:
                slot_A[b.index] = b.A_principal
                slot_r[b.index] = b.position
            slot_A[nb] = np.eye(3)
            A_s = slot_A[jnt_slot]
            jnt_anchor = np.einsum("skji,skj->ski", A_s, jnt_anchor - slot_r[jnt_slot])
            jnt_frame = np.einsum("skji,skjl->skil", A_s, jnt_frame)
            moving = jnt_slot < nb
            if moving.any():
                lengths.append(float(np.sqrt((jnt_anchor[moving] ** 2).sum(axis=1)).max()))
        for s, j in enumerate(sj):
            if j.length is not None:
                jnt_length[s] = j.length
                lengths.append(j.length)
            # rows with translational columns first (the Schur assembly skips the
            # translational part of the others, whose columns are zero)
            rows = sorted(joint_rows[id(j)], key=lambda row: row[0] in ROTATION_PRIMS)
            jnt_nrow.append(len(rows))
            jnt_ntrans.append(sum(1 for row in rows if row[0] not in ROTATION_PRIMS))
            # 1: starts with the POINT rows x, y, z; 2: and they are its only
            # rows with translational columns
            point = int(len(rows) >= 3 and [row[:2] for row in rows[:3]] ==
                        [(PRIM_POINT, 0), (PRIM_POINT, 1), (PRIM_POINT, 2)])
            if point and jnt_ntrans[-1] == 3:
                point = 2
            if not point and any(row[0] == PRIM_POINT for row in rows):
                raise ValueError("joint kind %r: POINT rows must come as the x, y, z triple "
                                 "first (the kernels compute them together)" % j.kind)
            jnt_point.append(point)
            for (pr, a, b, dv, tag) in rows:
                prim.append(pr)
                ai.append(a)
                aj.append(b)
                drv.append(dv)
                tags.append(tag)
                # a coupler's one row: its coefficients (c1, c2, c0); an angle joint's
                # DOT1 row: the cosine it subtracts (0, 0, cos theta)
                if hasattr(j, "coefficients"):
                    par.append(j.coefficients)
                elif tag is None and pr == PRIM_DOT1 and getattr(j, "angle", None) is not None:
                    par.append((0.0, 0.0, math.cos(j.angle)))
                else:
                    par.append((0.0, 0.0, 0.0))
            for _ in range(bsize - len(rows)):   # padding rows
                prim.append(PRIM_PAD)
                ai.append(0)
                aj.append(0)
                drv.append(-1)
                tags.append(None)
                par.append((0.0, 0.0, 0.0))
            row0.append(len(prim))
        self.length_scale = float(max(lengths))
        row_prim = np.array(prim, dtype=np.int64)
        row_scale = np.where(np.isin(row_prim, ANGULAR_PRIMS), 1.0, 1.0 / self.length_scale)
        row_scale[row_prim == PRIM_PAD] = 0.0
        nrows = len(prim)
        #: indices of the real (non-padding) rows, in system order
        self.active_rows = np.nonzero(row_prim != PRIM_PAD)[0]

        # ---- loads (principal frame)
        loads = model.loads
        nl = len(loads)
        load_kind = np.array([kernels.LOAD_KINDS[ld.kind] for ld in loads], dtype=np.int64)
        load_body = np.array([ld.body.index for ld in loads], dtype=np.int64)
        load_point = np.zeros((nl, 3))
        load_frame = np.array([kernels.LOAD_FRAMES[ld.frame] for ld in loads], dtype=np.int64)
        load_tab = -np.ones(nl + len(slots), dtype=np.int64)
        load_val = np.zeros((nl + len(slots), kernels.NLOADCOL))
        self.timed_loads = []
        for i, ld in enumerate(loads):
            Rpu = ld.body.R_pu
            load_point[i] = Rpu @ ld.local_point
            if ld.is_timed:
                load_tab[i] = len(self.timed_loads)
                self.timed_loads.append(ld)
            else:
                load_val[i, :3] = self._load_to_kernel(ld, ld.value)
        # drivers: (f, f', f'') of their prescribed motion, tabulated like timed loads
        self.drivers = drivers
        row_drv = np.array(drv, dtype=np.int64)
        #: system rows of each driver (model order, one array per driver), and the
        #: driver owning a row
        row_of = {tag: r for r, tag in enumerate(tags) if tag is not None}
        self.driver_rows = [np.array([row_of[(d.index, k)] for k in range(d.nrows)],
                                     dtype=np.int64) for d in drivers]
        self.row_driver = {int(r): d for rows, d in zip(self.driver_rows, drivers) for r in rows}
        for i, s in enumerate(slots):
            if s.is_timed:
                load_tab[nl + i] = len(self.timed_loads)
                self.timed_loads.append(s)
            else:
                load_val[nl + i, :3] = s.values([0.0])[0]
        frc, self.timed_forces = force_arrays(model, self.joint_pos, len(self.timed_loads))
        nf = len(frc["frc_geom"])
        frc.update(contact_arrays(model))

        self.S = kernels.SystemArrays(
            nb=nb, nj=nj, nrows=nrows,
            body_minv=body_minv, body_inertia=body_inertia,
            body_inertia_inv=1.0 / body_inertia,
            gravity=np.asarray(model.gravity, dtype=float).copy(),
            jnt_slot=jnt_slot, jnt_anchor=jnt_anchor, jnt_frame=jnt_frame, jnt_length=jnt_length,
            jnt_row0=np.array(row0, dtype=np.int64), jnt_nrow=np.array(jnt_nrow, dtype=np.int64),
            jnt_ntrans=np.array(jnt_ntrans, dtype=np.int64),
            jnt_point=np.array(jnt_point, dtype=np.int64),
            row_prim=row_prim, row_ai=np.array(ai, dtype=np.int64),
            row_aj=np.array(aj, dtype=np.int64), row_scale=row_scale, row_drv=row_drv,
            row_par=np.array(par, dtype=float).reshape(nrows, 3),
            blk_row=pattern.blk_row, blk_col=pattern.blk_col,
            col_ptr=pattern.col_ptr, col_ids=pattern.col_ids,
            row_ptr=pattern.row_ptr, row_ids=pattern.row_ids,
            upd_ptr=pattern.upd_ptr, upd_a=pattern.upd_a, upd_c=pattern.upd_c,
            cpl_blk=pattern.cpl_blk, cpl_k=pattern.cpl_k, cpl_l=pattern.cpl_l,
            cpl_sk=pattern.cpl_sk, cpl_sl=pattern.cpl_sl, cpl_body=pattern.cpl_body,
            cpl_first=pattern.cpl_first, fill_ids=pattern.fill_ids,
            load_kind=load_kind, load_body=load_body, load_point=load_point,
            load_frame=load_frame, load_tab=load_tab,
            alpha=float(alpha), beta=float(beta), row_eps=np.zeros(nrows),
            row_eps_inv=np.zeros(nrows),
            refine_max=int(refine_max), refine_warm=0, refine_skip=kernels.REFINE_SKIP,
            bsize=(0,) * bsize, **frc,
        )
        A = np.zeros((nb + 1, 3, 3))
        A[nb] = np.eye(3)
        self.W = kernels.Workspace(
            A=A, r=np.zeros((nb + 1, 3)), vel=np.zeros((nb + 1, 3)),
            omega_w=np.zeros((nb + 1, 3)), omega_b=np.zeros((nb + 1, 3)),
            Q=np.zeros((nb, 6)), afree=np.zeros((nb, 6)), acc=np.zeros((nb, 6)),
            phi=np.zeros(nrows), phidot=np.zeros(nrows), gamma=np.zeros(nrows),
            J=np.zeros((nrows, 2, 6)),
            blk=np.zeros((len(pattern.blk_row), bsize, bsize)), chol_dinv=np.zeros(nrows),
            rhs=np.zeros(nrows), lam=np.zeros(nrows),
            res=np.zeros(nrows),
            load_val=load_val, dY=np.zeros(13 * nb), ksum=np.zeros(13 * nb),
            Yt=np.zeros(13 * nb), stats=np.zeros(kernels.NSTATS),
            frc_u=np.zeros(nf), frc_out=np.zeros((nf, NOUT)),
            cnt_out=np.zeros((len(frc["cnt_elem"]), NCOUT)),
        )
        restart_coordinates(self.S, self.W)
        # constant translational columns of the POINT rows (+e_c on side i, -e_c on side j);
        # the kernels never rewrite them (nor the zero ones of the DOT1 rows)
        for r in np.nonzero(row_prim == PRIM_POINT)[0]:
            c = self.S.row_ai[r]
            self.W.J[r, 0, c] = 1.0
            self.W.J[r, 1, c] = -1.0
        self.row_joint = np.repeat(np.arange(nj), np.diff(self.S.jnt_row0))
        self.redundant = np.zeros(nrows, dtype=bool)
        self.redundant_regularization = self.REDUNDANT_REGULARIZATION
        self._diag = None
        self.regularization = float(regularization)
        # a direction driver's rows depend on its values (with none their Jacobian is
        # zero), and the rows' rank and scales are taken here: its values at t = 0 first
        # (where the model checked the direction)
        if np.any(row_prim == PRIM_DIR):
            self.set_loads(0.0)
        self.find_redundant_rows(self.y0)
        self.set_regularization(regularization)

    # ------------------------------------------------------------------ settings
    def set_baumgarte(self, alpha, beta):
        self.S = self.S._replace(alpha=float(alpha), beta=float(beta))

    def set_regularization(self, relative, redundant_relative=None):
        """Tikhonov eps per row: ``relative`` x that row's diagonal entry of
        ``Phi_q M^-1 Phi_q^T`` at the initial state; rows marked redundant
        (``self.redundant``, see ``find_redundant_rows``) get
        ``redundant_relative`` x their diagonal instead.

        Equivalent to ``C + eps I`` on the constraints scaled to unit diagonal:
        a global eps would soften rows with small diagonals (e.g. translations of
        heavy bodies) far more than rows with large ones (rotations of bodies with
        small moments of inertia).
        """
        self.regularization = float(relative)
        if redundant_relative is not None:
            self.redundant_regularization = float(redundant_relative)
        nrows = self.S.nrows
        if self._diag is None:
            self._diag = self.schur_diagonal(self.y0)
        rel = np.full(nrows, self.regularization)
        rel[self.redundant] = self.redundant_regularization
        eps = rel * self._diag
        eps[self.S.row_prim == PRIM_PAD] = 1.0     # padding rows: unit diagonal
        # unique multipliers (no redundant row): the refinement may start from the
        # previous evaluation's (kernels.solve_multipliers)
        warm = 0 if self.redundant.any() else 1
        self.S = self.S._replace(row_eps=eps, row_eps_inv=1.0 / eps, refine_warm=warm)
        # the refinement is skipped below a residual that keeps the multipliers' error
        # (up to the condition times the residual) small: less for a long chain
        cond = self.scaled_condition(self.y0)
        skip = min(kernels.REFINE_SKIP, kernels.REFINE_SKIP_ERROR / np.sqrt(cond))
        self.S = self.S._replace(refine_skip=float(skip))

    def scaled_condition(self, Y, iterations=30):
        """Estimated condition number, at state ``Y``, of ``C + E`` (``C = Phi_q M^-1
        Phi_q^T``) with its rows and columns scaled by the diagonal ``E`` is relative to
        (``set_regularization``): the largest eigenvalue by power iteration on ``C``
        (``apply_multipliers`` then the rows), the smallest by inverse iteration on the
        block Cholesky factor of ``C + E`` (``factor_schur``, ``solve_schur``),
        ``iterations`` each from one random start, the Rayleigh quotients. Padding rows
        are left out; 1.0 without constraint rows."""
        S, W = self.S, self.W
        act = self.active_rows
        if not len(act):
            return 1.0
        nrows = S.nrows
        Y = np.ascontiguousarray(Y, dtype=float)
        kernels.update_bodies(Y, S, W)
        kernels.constraint_rows(S, W)
        kernels.assemble_schur(S, W)
        kernels.factor_schur(S, W)
        d = np.sqrt(self._diag)
        mask = np.zeros(nrows)
        mask[act] = 1.0
        start = np.random.default_rng(1).standard_normal(nrows) * mask
        start /= np.linalg.norm(start)
        acc = np.zeros((self.nb, 6))
        zero = np.zeros(nrows)
        res = np.zeros(nrows)
        x = start
        big = 0.0
        for _ in range(iterations):
            acc[:] = 0.0
            kernels.apply_multipliers(S, W, x / d, acc)       # -M^-1 Phi_q^T D^-1/2 x
            kernels.constraint_residual(S, W, acc, zero, res)
            y = -res / d * mask
            big = float(x @ y)
            x = y / max(np.linalg.norm(y), 1e-300)
        x = start
        inv = 0.0
        for _ in range(iterations):
            y = d * x
            kernels.solve_schur(S, W, y)                      # (C + E)^-1 D^1/2 x
            y *= d * mask
            inv = float(x @ y)
            x = y / max(np.linalg.norm(y), 1e-300)
        return max(big * inv, 1.0)

    def schur_diagonal(self, Y):
        """Diagonal of ``Phi_q M^-1 Phi_q^T`` per system row at state ``Y`` (floored at
        1e-6 of the largest; padding rows 1)."""
        nrows = self.S.nrows
        diag = np.ones(nrows)
        if nrows:
            S0 = self.S._replace(row_eps=np.zeros(nrows), row_eps_inv=np.zeros(nrows))
            kernels.update_bodies(np.ascontiguousarray(Y, dtype=float), S0, self.W)
            kernels.constraint_rows(S0, self.W)
            kernels.assemble_schur(S0, self.W)
            diag = np.diagonal(self.W.blk[:self.S.nj], axis1=1, axis2=2).reshape(-1)
            act = self.active_rows
            floor = max(diag[act].max(), 1e-300) * 1e-6
            diag = np.maximum(diag, floor)
            diag[self.S.row_prim == PRIM_PAD] = 1.0
        return diag

    def loop_joints(self):
        """System positions of the joints that lie on a closed loop of the joint graph
        (ground is one node) or on a path between loops: the 2-core of the graph.
        Only their rows can be redundant."""
        slots = [tuple(int(x) for x in self.S.jnt_slot[k]) for k in range(self.S.nj)]
        alive = set(range(len(slots)))
        degree = {}
        for a, b in slots:
            degree[a] = degree.get(a, 0) + 1
            degree[b] = degree.get(b, 0) + 1
        changed = True
        while changed:
            changed = False
            for k in list(alive):
                a, b = slots[k]
                if degree[a] == 1 or degree[b] == 1:
                    alive.discard(k)
                    degree[a] -= 1
                    degree[b] -= 1
                    changed = True
        return sorted(alive)

    def closing_joints(self):
        """System positions of the entries that close a loop: the joint graph (ground is
        one node) is walked in the model's order (its joints, then body drivers, then
        couplers) and an entry whose two bodies are already connected closes a loop; the
        others form a spanning tree."""
        parent = {}

        def root(a):
            while a in parent:
                a = parent[a]
            return a

        closing = []
        for k in np.argsort(self.joint_order, kind="stable"):
            a, b = (root(int(x)) for x in self.S.jnt_slot[k])
            if a == b:
                closing.append(int(k))
            else:
                parent[a] = b
        return sorted(closing)

    def find_redundant_rows(self, Y, tol=1e-8):
        """Mark the constraint rows that are redundant at state ``Y``, over the rows of
        the loop joints, equilibrated as ``(D Phi_q M^-1/2)`` with rows of unit norm. The
        rows of the spanning tree (``closing_joints``: all but the entries that close a
        loop) come first; a tree's joint rows are independent in every configuration,
        so redundant rows are looked for among the closing entries' rows: their parts
        orthogonal to the tree rows, by rank-revealing QR with column pivoting, and those
        with a pivot below ``tol`` are linear combinations of the others. A planar loop
        of revolute joints so loses its closing joint's out-of-plane rows, which stay
        dependent all along its motion, rather than a set picked by round-off among
        rows that turn with the bodies (which can become independent in a later pose,
        leaving the loop's out-of-plane motion to the regularised rows). Tree rows that
        are dependent among themselves (a degenerate joint) are marked as well. Sets
        ``self.redundant`` (a boolean mask over the system rows) and returns the number
        found."""
        self.redundant = np.zeros(self.S.nrows, dtype=bool)
        loops = self.loop_joints()
        if loops:
            import scipy.linalg
            _phi, J, _gamma = self.constraint_state(Y)
            act = self.active_rows
            on_loop = np.isin(self.row_joint[act], loops)
            rows = act[on_loop]
            A = J[on_loop] * np.sqrt(self.mass_matrix_inverse().reshape(-1))
            cols = np.any(A != 0.0, axis=0)
            A = A[:, cols]
            A /= np.maximum(np.linalg.norm(A, axis=1), 1e-300)[:, None]
            closing = np.isin(self.row_joint[rows], self.closing_joints())
            # the tree's rows, then the closing entries' rows made orthogonal to the rows
            # kept before them (twice: to round-off)
            basis = np.zeros((A.shape[1], 0))
            for part in (~closing, closing):
                if not part.any():
                    continue
                B = A[part]
                for _ in range(2):
                    B = B - (B @ basis) @ basis.T
                Q, R, piv = scipy.linalg.qr(B.T, mode="economic", pivoting=True)
                rank = int((np.abs(np.diag(R)) > tol).sum())
                self.redundant[rows[part][piv[rank:]]] = True
                basis = np.hstack([basis, Q[:, :rank]])
        return int(self.redundant.sum())

    # ------------------------------------------------------------------ loads
    def _load_to_kernel(self, load, value):
        v = np.asarray(value, dtype=float)
        if load.frame == "body":
            v = load.body.R_pu @ v
        return v

    def load_table(self, times):
        """Values of the time-dependent loads at ``times``: shape (len(times), n_timed, 3)."""
        times = np.asarray(times, dtype=float)
        nl = len(self.timed_loads)
        tab = np.zeros((len(times), nl + len(self.timed_forces), 3))
        for c, ld in enumerate(self.timed_loads):
            if isinstance(ld, DriverRow):     # (f, f', f'') of a driver row, vectorised
                tab[:, c] = ld.values(times)
                continue
            for m, t in enumerate(times):
                tab[m, c] = self._load_to_kernel(ld, ld.value_at(float(t)))
        for c, e in enumerate(self.timed_forces):     # actuator inputs, component 0
            for m, t in enumerate(times):
                tab[m, nl + c, 0] = e.value_at(float(t))
        return tab

    @property
    def has_timed_inputs(self):
        """Whether the model has time-dependent loads or actuators (``load_table``)."""
        return bool(self.timed_loads or self.timed_forces)

    def set_loads(self, t):
        if self.has_timed_inputs:
            kernels.set_loads(self.S, self.W, self.load_table([t]), 0)

    # ------------------------------------------------------------------ work in the run
    @property
    def nwork(self):
        """Length of ``work_state``: 2 per force element, 1 per applied load, 1 per
        driver slot (one per driver motion, ``Result`` driver columns)."""
        return 2 * self.S.frc_geom.shape[0] + self.W.load_val.shape[0]

    def work_state(self):
        """The work since the run's start (``kernels.work_values``): each force element's
        dissipated energy, then each one's actuator work, then each load's work, then
        each driver slot's work [J]."""
        out = np.zeros(self.nwork)
        kernels.work_values(self.S, self.W, out)
        return out

    def set_work_state(self, values):
        """Set the work since the run's start (``work_state``'s layout; zeros at t0)."""
        nf = self.S.frc_geom.shape[0]
        values = np.asarray(values, dtype=float)
        self.W.frc_out[:, OUT_ED] = values[:nf]
        self.W.frc_out[:, OUT_EW] = values[nf:2 * nf]
        self.W.load_val[:, kernels.LOAD_WORK] = values[2 * nf:]

    def work_rates(self):
        """The powers of the last evaluation in ``work_state``'s layout [W] (the drivers'
        from ``kernels.driver_powers``)."""
        if self.W.load_val.shape[0] > self.S.load_kind.shape[0]:
            kernels.driver_powers(self.S, self.W)
        return np.concatenate([self.W.frc_out[:, OUT_PD], self.W.frc_out[:, OUT_PW],
                               self.W.load_val[:, kernels.LOAD_POWER]])

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, t, Y):
        """dY/dt at (t, Y) (a copy); multipliers etc. stay in ``self.W``."""
        self.set_loads(t)
        kernels.evaluate(float(t), np.ascontiguousarray(Y, dtype=float), self.S, self.W)
        return self.W.dY.copy()

    def constraint_state(self, Y):
        """Phi, Phi_q (dense, rows x 6nb) and gamma (without Baumgarte) of the real
        constraint rows, in system order (padding rows left out)."""
        S0 = self.S._replace(alpha=0.0, beta=0.0)
        kernels.update_bodies(np.ascontiguousarray(Y, dtype=float), S0, self.W)
        kernels.constraint_rows(S0, self.W)
        nb = self.nb
        J = np.zeros((S0.nrows, 6 * nb))
        for k in range(S0.nj):
            for side in range(2):
                b = S0.jnt_slot[k, side]
                if b < nb:
                    for r in range(S0.jnt_row0[k], S0.jnt_row0[k + 1]):
                        J[r, 6 * b:6 * b + 6] += self.W.J[r, side]
        act = self.active_rows
        return self.W.phi[act].copy(), J[act], self.W.gamma[act].copy()

    def mass_matrix_inverse(self):
        """Diagonal of M^-1 per body, shape (nb, 6): [1/m]*3 + 1/J (principal)."""
        return np.column_stack([np.repeat(self.S.body_minv[:, None], 3, axis=1),
                                self.S.body_inertia_inv]) if self.nb else np.zeros((0, 6))

    def residuals(self, Y):
        """|Phi| and |Phi_dot| per system row at state Y, lengths relative to the model
        size (``row_scale``; padding rows 0). What violation limits and tolerances use."""
        kernels.update_bodies(np.ascontiguousarray(Y, dtype=float), self.S, self.W)
        kernels.constraint_rows(self.S, self.W)
        return np.abs(self.W.phi * self.S.row_scale), np.abs(self.W.phidot * self.S.row_scale)

    def dof_report(self, **kw):
        """``dof.dof_report`` of this system (nothing of it is changed)."""
        from .dof import dof_report
        return dof_report(self, **kw)

    def joint_name_of_row(self, r):
        """Name of the joint owning system row ``r``, or of the driver when it is a driver row."""
        d = self.row_driver.get(int(r))
        if d is not None:
            return d.name
        return self.entry_names[self.joint_order[self.row_joint[r]]]


class _DriverEntry:
    """A body driver in the joint list: its rows between its body (side 1, frame at the
    driven point) and ground (side 2, the world frame)."""

    kind = "driver"
    length = None
    spec = namedtuple("EntrySpec", "rows")(())    # no joint rows: only the driver's

    def __init__(self, driver, ground):
        self.driver = driver
        self.name = driver.name
        self.body1, self.body2, self.frame1, self.frame2 = driver.entry
