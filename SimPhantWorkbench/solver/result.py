"""``Result``: time series of a simulation, in world axes and the user's body frames.

Bodies are addressed by ``Body`` object or name, joints by ``Joint`` object or
name. Every array has the output samples along its first axis.
"""
import json

import numpy as np

from . import kernels, reactions
from .contact import CO_POT, NCOUT, contact_outputs
from .forces import (NEVT, NO_REBOUND, NSAMPLED, OUT_PD, OUT_PW, cumtrapz,
                     element_potentials, restart_coordinates, stop_events)
from .joint_outputs import JointOutputs, joint_frames_meta
from .rotations import euler_zyx, matrices_to_quats, quat_normalize, quat_to_matrix

__all__ = ["Result"]


def _quats_continuous(A):
    """Quaternions of rotation matrices (n, 3, 3), sign-continuous in time, first w >= 0."""
    q = matrices_to_quats(np.asarray(A, dtype=float).reshape(-1, 3, 3)).reshape(-1, 4)
    if len(q) > 1:
        # flip sample i when it points away from the (already flipped) sample i - 1
        flip = np.einsum("ij,ij->i", q[1:], q[:-1]) < 0.0
        sign = np.cumprod(np.where(flip, -1.0, 1.0))
        q[1:] *= sign[:, None]
    return q


def _driver_series(system, t, lam, a):
    """Per driver row (drivers in model order, their rows in turn): effort = -lambda
    of the row (its Jacobian on the driven body is + the driven direction: z for a
    joint rotation or translation, the world axis for a point driver), the prescribed
    value and rate, and the power effort x rate (summed per driver by ``driver_power``)."""
    n = len(t)
    ncol = sum(d.nslots for d in system.drivers)     # one column per driver motion
    for k in Result._DRIVER_ARRAYS:
        a[k] = np.zeros((n, ncol))
    power = {}
    c = 0
    for i, d in enumerate(system.drivers):
        series = d.spec.series
        if series is not None and n:    # effort and power of its own (drivers.DriverSpec)
            a["driver_effort"][:, c:c + d.nslots], power[c] = series(system, i, t,
                                                                     a["states"], lam)
        for k in range(d.nslots):
            vals = d.row_values(k, t) if n else np.zeros((0, 3))
            if series is None:
                a["driver_effort"][:, c] = -lam[:, system.driver_rows[i][k]]
            a["driver_value"][:, c] = vals[:, 0]
            a["driver_rate"][:, c] = vals[:, 1]
            c += 1
    a["driver_power"] = a["driver_effort"] * a["driver_rate"]
    for c, p in power.items():
        a["driver_power"][:, c:c + p.shape[1]] = p


def _load_power(system, Y, tab):
    """(n, n_loads): the power [W] each applied load (``Model.add_force``/``add_torque``)
    puts into its body at the states ``Y``: F . (v + omega x r) for a force at a body
    point r from the CoG, T . omega for a torque; the values as the kernels read them
    (``tab`` for the timed ones, in world or body axes as each load's frame says)."""
    S, W = system.S, system.W
    nb, n, nl = S.nb, len(Y), len(system.model.loads)
    out = np.zeros((n, nl))
    for i in range(nl):
        b = int(S.load_body[i])
        col = int(S.load_tab[i])
        val = tab[:, col] if col >= 0 else np.broadcast_to(W.load_val[i, :3], (n, 3))
        q = quat_normalize(Y[:, 7 * b + 3:7 * b + 7])
        v = 7 * nb + 6 * b
        w_p = Y[:, v + 3:v + 6]                              # body (principal) axes
        f_p = (_rotate(q * np.array([1.0, -1.0, -1.0, -1.0]), val)
               if S.load_frame[i] == kernels.LOAD_WORLD else val)
        if S.load_kind[i] == kernels.LOAD_FORCE:
            out[:, i] = np.einsum("ni,ni->n", _rotate(q, f_p), Y[:, v:v + 3]) + np.einsum(
                "ni,ni->n", np.cross(S.load_point[i], f_p), w_p)
        else:
            out[:, i] = np.einsum("ni,ni->n", f_p, w_p)
    return out


def _sample_work(t, power):
    """(n, m): the work since the first sample of the powers ``power`` (n, m) [W],
    integrated over the samples ``t`` (``forces.cumtrapz``)."""
    return np.column_stack([cumtrapz(t, p) for p in power.T] + [power[:, :0]])


#: samples post-processed at a time where whole-series temporaries would be large
_CHUNK = 256


def _model_joints(a, order):
    """``a[:, order]``: the system's joint series in model joint order. A permutation is
    applied in place, ``_CHUNK`` samples at a time (a whole copy of the reactions of a
    long run is tens of MB); a selection (the system also has driver rows as joints)
    is a copy."""
    if np.array_equal(order, np.arange(a.shape[1])):
        return a
    if len(order) != a.shape[1]:
        return a[:, order]
    for c in range(0, len(a), _CHUNK):
        a[c:c + _CHUNK] = a[c:c + _CHUNK][:, order]
    return a


def _rotate(q, v):
    """Vectors ``v`` (..., 3) rotated by unit quaternions ``q`` (..., 4) = (w, x, y, z)."""
    w = q[..., :1]
    u = q[..., 1:]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


class Result(JointOutputs):
    """Outputs of ``Model.simulate``.

    Attributes
    ----------
    t : (n,) output times [s]
    settings : dict of the run (method, dt, steps, nfev, wall_time, alpha, beta, eps, ...)
    assembly : ``AssemblyReport`` of the initial projection (or None; after
        ``from_arrays`` only its text survives, in ``assembly_summary``)
    warnings : list of str, what the run's diagnostics found worth a look (a
        body that moved far to assemble, a joint whose constraint residual grew,
        mass or inertia ratios beyond what double precision resolves); each
        names the bodies or joints concerned. Empty for a clean run. Saved and
        loaded with the arrays.
    joint_residual_max : (n_joints, 2) largest |Phi| per joint over the samples,
        [length rows (m), angle rows (rad)] (not saved: None after ``from_arrays``)
    body_names, joint_names : names in model order

    ``to_arrays()`` / ``Result.from_arrays()`` turn a result into a dict of
    NumPy arrays and back (e.g. to store it in a FreeCAD document).
    """

    #: arrays that make up a result (all with the samples along axis 0, except masses/gravity)
    _ARRAYS = ("t", "states", "masses", "gravity", "multipliers", "phi_max", "phidot_max",
               "react", "anchors", "pos", "A", "vel", "omega_w", "omega_b", "acc", "alpha_w", "kinetic",
               "potential")

    _PUBLIC = ("t", "states", "masses", "gravity", "multipliers")
    #: force-element series (absent in results of models without force elements):
    #: frc (n, nf, 3) = [coordinate, rate, force]; potential, dissipated energy and
    #: actuator work per element (n, nf)
    _OPTIONAL = ("frc", "frc_pot", "frc_diss", "frc_work")
    #: the end stops' contacts (m, 4): [time, element index, side, impact speed]
    #: (``forces.stop_events``); absent when there were none
    _EVENT_ARRAYS = ("stop_events",)
    #: the contacts' outputs (n, nf, ``contact.NCOUT``; zero rows for the other force
    #: elements): absent when the model has no contact
    _CONTACT_ARRAYS = ("frc_contact",)

    #: per joint (n_joints, 12): at how many samples each reaction component was
    #: indeterminate (``reactions``; force and torque in world axes, then in joint axes);
    #: absent in archives of earlier versions (read as never)
    _REACTION_FLAGS = "react_indeterminate"

    #: arrays only results with drivers have: per driver (n, n_drivers) its effort
    #: (torque [N m] / force [N]), power [W] and prescribed value and rate, and its work
    #: since the first sample [J] (summed in the run with the method's stage weights; a
    #: kinematic analysis, and results of earlier versions without it: the power
    #: integrated over the samples), one column per driver motion as the power's (a
    #: direction driver's whole work in its first; ``driver_work`` sums a driver's)
    _DRIVER_ARRAYS = ("driver_effort", "driver_power", "driver_value", "driver_rate",
                      "driver_work")
    #: only results with applied loads: (n, n_loads) the power each load puts in [W] and
    #: its work since the first sample [J] (summed in the run; absent in results of
    #: earlier versions: the power integrated over the samples)
    _LOAD_ARRAYS = ("load_power", "load_work")
    #: only results with couplers: (n, n_couplers, 6) force and torque (world axes, the
    #: torque about its second body's point) each coupler exerts on its second body
    _COUPLER_ARRAYS = ("coupler_react",)

    #: per-body series a result derives from ``states`` and the user axes in the
    #: principal frames, ``R_pu`` (nb, 3, 3), when asked, instead of keeping them.
    #: Archives (format 2) hold ``R_pu`` instead of these series (37 % of a format-1
    #: archive); an archive of format 1 holds the series and no ``R_pu``, and its
    #: result reads them as stored
    _DERIVED = ("pos", "A", "vel", "omega_w", "omega_b")
    #: the ``meta["format"]`` of the archives ``to_arrays`` writes (with ``derived``: 1)
    FORMAT = "simphant-result-2"

    @classmethod
    def _attr(cls, key):
        return key if key in cls._PUBLIC else "_" + key

    def __init__(self, arrays, meta, R_pu=None):
        for k in self._ARRAYS:
            if (k in self._DERIVED and R_pu is not None) or k == "anchors":
                continue
            setattr(self, "_stored_" + k if k in self._DERIVED else self._attr(k),
                    np.asarray(arrays[k], dtype=float))
        self._R_pu = None if R_pu is None else np.asarray(R_pu, dtype=float)
        self.body_names = list(meta["body_names"])
        self.joint_names = list(meta["joint_names"])
        self.joint_kinds = list(meta.get("joint_kinds", []))
        self.driver_names = list(meta.get("driver_names", []))
        self.driver_kinds = list(meta.get("driver_kinds", []))
        #: rows per driver (1 for joint drivers, 3 for point drivers)
        self.driver_row_counts = [int(x) for x in meta.get("driver_rows",
                                                            [1] * len(self.driver_names))]
        empty = np.zeros((len(self.t), 0))
        for k in self._DRIVER_ARRAYS:
            setattr(self, "_" + k, np.asarray(arrays[k], dtype=float) if k in arrays else empty)
        if "driver_work" not in arrays:     # (earlier versions: over the samples)
            self._driver_work = _sample_work(self.t, self._driver_power)
        self.load_names = list(meta.get("load_names", []))
        self._load_power = np.asarray(arrays["load_power"], dtype=float) \
            if "load_power" in arrays else np.zeros((len(self.t), len(self.load_names)))
        self._load_work = np.asarray(arrays["load_work"], dtype=float) \
            if "load_work" in arrays else _sample_work(self.t, self._load_power)
        self.coupler_names = list(meta.get("coupler_names", []))
        self.coupler_kinds = list(meta.get("coupler_kinds", []))
        self._coupler_react = np.asarray(arrays["coupler_react"], dtype=float) \
            if "coupler_react" in arrays else np.zeros((len(self.t), len(self.coupler_names), 6))
        self.settings = dict(meta.get("settings", {}))
        self.assembly = None
        self.assembly_summary = meta.get("assembly_summary", "")
        self.warnings = [str(w) for w in meta.get("warnings", [])]
        self.joint_frames = meta.get("joint_frames")     # joint_outputs.joint_frames_meta
        #: the joint points over time as stored (archives), else derived from the states
        #: and the points in the joint frames (``joint_point``)
        self._stored_anchors = (np.asarray(arrays["anchors"], dtype=float)
                                if "anchors" in arrays else None)
        self.joint_residual_max = None
        self._quat_cache = {}
        self.force_names = list(meta.get("force_names", []))
        self.force_kinds = list(meta.get("force_kinds", []))
        #: per element "points", "rotation" or "translation"
        self.force_dofs = list(meta.get("force_dofs", []))
        self._react_indeterminate = np.asarray(
            arrays[self._REACTION_FLAGS], dtype=float) if self._REACTION_FLAGS in arrays \
            else np.zeros((len(self.joint_names), kernels.NREACT))
        n, nf = len(self.t), len(self.force_names)
        for k in self._OPTIONAL:
            shape = (n, nf, 3) if k == "frc" else (n, nf)
            setattr(self, "_" + k, np.asarray(arrays[k], dtype=float) if k in arrays
                    else np.zeros(shape))
        self._stop_events = _event_rows(arrays.get("stop_events"))
        self._frc_contact = np.asarray(arrays["frc_contact"], dtype=float) \
            if "frc_contact" in arrays else None

    # ------------------------------------------------------------- derived series
    def _series(self, key, b):
        """Series ``key`` (one of ``_DERIVED``) of body index ``b``: (n, 3) or (n, 3, 3);
        a view of the stored array, or computed from the states."""
        if self._R_pu is None:
            return getattr(self, "_stored_" + key)[:, b]
        nb = len(self.body_names)
        Y = self.states
        p = 7 * b
        v = 7 * nb + 6 * b
        if key == "pos":
            return Y[:, p:p + 3]
        if key == "vel":
            return Y[:, v:v + 3]
        wb_p = Y[:, v + 3:v + 6]
        Rpu = self._R_pu[b]
        if key == "omega_b":
            return wb_p @ Rpu                                  # R_pu^T w_p, row-wise
        Ap = quat_to_matrix(Y[:, p + 3:p + 7])                 # principal frame -> world
        if key == "A":
            return Ap @ Rpu
        if key == "omega_w":
            return np.einsum("nij,nj->ni", Ap, wb_p)
        raise KeyError(key)

    def _full(self, key):
        if self._R_pu is None:
            return getattr(self, "_stored_" + key)
        nb = len(self.body_names)
        shape = (3, 3) if key == "A" else (3,)
        out = np.empty((len(self.t), nb) + shape)
        for b in range(nb):
            out[:, b] = self._series(key, b)
        return out

    def _anchor(self, k, side):
        """World position (n, 3) of joint ``k``'s point on ``side`` (0: body 1, 1: body 2):
        stored, or the body's position plus its rotation times the point (its own frame;
        world for ground)."""
        if self._stored_anchors is not None:
            return self._stored_anchors[:, k, side]
        f = self.joint_frames[k]
        P = np.asarray(f["P%d" % (side + 1)], dtype=float)
        body = f["body%d" % (side + 1)]
        if body is None:
            return np.broadcast_to(P, (len(self.t), 3))
        b = self._b(body)
        return self._series("pos", b) + self._series("A", b) @ P

    @property
    def _anchors(self):
        """(n, n_joints, 2, 3): every joint point (what archives store)."""
        if self._stored_anchors is not None:
            return self._stored_anchors
        out = np.empty((len(self.t), len(self.joint_names), 2, 3))
        for k in range(len(self.joint_names)):
            for side in range(2):
                out[:, k, side] = self._anchor(k, side)
        return out

    # the whole (n, nb, ...) arrays, as earlier versions kept them (computed when asked)
    _pos = property(lambda self: self._full("pos"))
    _A = property(lambda self: self._full("A"))
    _vel = property(lambda self: self._full("vel"))
    _omega_w = property(lambda self: self._full("omega_w"))
    _omega_b = property(lambda self: self._full("omega_b"))

    @classmethod
    def from_run(cls, system, t, Ys, assembly=None, settings=None, impacts=None):
        """Post-process a run: one more evaluation per output sample gives the
        accelerations, multipliers, residuals and reactions. Positions, rotations,
        velocities are views of or computed from the states when asked. ``Ys`` may hold
        after each state the work since t0 summed in the run (``System.work_state``: the
        elements' dissipated energies, with the kinetic energy each impulsive stop's
        impact took, their actuator work, the loads' work); without it, the work is
        integrated over the samples. ``impacts``: the run's ``impacts.ImpactStops``
        (their events)."""
        model = system.model
        S, W = system.S, system.W
        n = len(t)
        nb = S.nb
        t = np.array(t, dtype=float)
        Y = np.asarray(Ys, dtype=float)
        nf = len(model.force_elements)
        done_work = None
        if Y.ndim == 2 and Y.shape[1] == 13 * nb + system.nwork:
            done_work = Y[:, 13 * nb:]
            Y = Y[:, :13 * nb]
        base = Y.base if Y.base is not None else Y
        if not (Y.flags.c_contiguous and isinstance(base, np.ndarray)
                and base.nbytes == Y.nbytes):
            Y = Y.copy()       # keep the states only, not a larger buffer they are part of
        acc = np.empty((n, nb, 6))
        lam = np.zeros((n, S.nrows))
        phi_max = np.zeros(n)
        phidot_max = np.zeros(n)
        react = np.zeros((n, S.nj, 6))
        jres = np.zeros((S.nj, 2))
        rule = reactions.reaction_work(system)
        tab = system.load_table(t) if system.has_timed_inputs else np.zeros((max(n, 1), 0, 3))
        restart_coordinates(S, W)
        if n:
            kernels.post_process(t, Y, S, W, tab, acc, lam, phi_max, phidot_max, react, jres,
                                 rule)
        masses = np.array([b.mass for b in model.bodies])
        gravity = np.array(model.gravity, dtype=float)
        ncnt = len(S.cnt_elem)
        # and the powers, for the samples' work; then the contacts' own outputs
        frc = np.zeros((n, nf, NSAMPLED + (NCOUT if ncnt else 0)))
        load_power = _load_power(system, Y, tab)
        if n and nf:
            restart_coordinates(S, W)
            kernels.force_outputs(t, Y, S, W, tab, frc)
        if done_work is None:   # a run without it (kinematic): over the samples
            done_work = _sample_work(t, np.hstack([frc[:, :, OUT_PD], frc[:, :, OUT_PW],
                                                   load_power]))
        contact = np.ascontiguousarray(frc[:, :, NSAMPLED:]) if ncnt else None
        frc = np.ascontiguousarray(frc[:, :, :OUT_PD])
        if n and nf:
            pot = element_potentials(system, frc,
                                     None if contact is None else contact[:, :, CO_POT])
            # copies: not views of the run's buffer
            diss = np.ascontiguousarray(done_work[:, :nf])
            work = np.ascontiguousarray(done_work[:, nf:2 * nf])
            if impacts is None:
                events = stop_events(S.frc_par, t, frc)
            else:
                events = stop_events(S.frc_par, t, frc, impacts.event_rows(),
                                     skip=set(impacts.index.tolist()))
        else:
            pot = diss = work = np.zeros((n, nf))
            events = np.zeros((0, NEVT))
        cpl_react = react[:, system.coupler_pos]
        react = _model_joints(react, system.joint_pos)
        rows = system.active_rows
        all_rows = len(rows) == S.nrows and np.array_equal(rows, np.arange(S.nrows))
        # body series at once: (n, nb, 7) poses and (n, nb, 6) velocities, views of Y
        qs = Y[:, :7 * nb].reshape(n, nb, 7)
        vs = Y[:, 7 * nb:13 * nb].reshape(n, nb, 6)
        step = max(1, _CHUNK // 8)
        for c in range(0, n, step):        # angular acceleration body -> world, in place
            quat = quat_normalize(qs[c:c + step, :, 3:7])
            acc[c:c + step, :, 3:] = _rotate(quat, acc[c:c + step, :, 3:])
        alpha_w = acc[:, :, 3:]                                # world axes
        vel = vs[:, :, :3]
        wb_p = vs[:, :, 3:]
        kinetic = 0.5 * np.einsum("nbi,nbi,b->n", vel, vel, masses) \
            + 0.5 * np.einsum("nbi,bi,nbi->n", wb_p, np.asarray(S.body_inertia)[:nb], wb_p)
        potential = -np.einsum("nbi,i,b->n", qs[:, :, :3], gravity, masses)
        a = dict(t=t, states=Y, masses=masses, gravity=gravity,
                 multipliers=lam if all_rows else lam[:, rows], phi_max=phi_max,
                 phidot_max=phidot_max,
                 react=react,
                 acc=acc[:, :, :3], alpha_w=alpha_w,               # views of one array
                 kinetic=kinetic, potential=potential,
                 frc=frc[:, :, :3], frc_pot=pot, frc_diss=diss, frc_work=work,
                 react_indeterminate=rule.flags[system.joint_pos], coupler_react=cpl_react,
                 stop_events=events)
        if ncnt:
            a["frc_contact"] = contact
        _driver_series(system, t, lam, a)
        a["load_power"] = load_power
        nl = load_power.shape[1]
        a["load_work"] = np.ascontiguousarray(done_work[:, 2 * nf:2 * nf + nl])
        # the drivers' work per slot, summed in the run; a run without it (kinematic):
        # their power integrated over the samples
        a["driver_work"] = (np.ascontiguousarray(done_work[:, 2 * nf + nl:])
                            if done_work.shape[1] == 2 * nf + nl + a["driver_power"].shape[1]
                            else _sample_work(t, a["driver_power"]))
        meta = dict(body_names=list(system.body_names),
                    joint_names=[j.name for j in model.joints],
                    joint_kinds=[j.kind for j in model.joints],
                    force_names=[e.name for e in model.force_elements],
                    force_kinds=[e.kind for e in model.force_elements],
                    force_dofs=[e.params.get("dof", "points") for e in model.force_elements],
                    driver_names=[d.name for d in system.drivers],
                    driver_kinds=[d.kind for d in system.drivers],
                    driver_rows=[d.nslots for d in system.drivers],
                    coupler_names=[c.name for c in system.couplers],
                    coupler_kinds=[c.kind for c in system.couplers],
                    load_names=[ld.name for ld in model.loads],
                    settings=dict(settings or {}),
                    assembly_summary=assembly.summary() if assembly is not None else "",
                    joint_frames=joint_frames_meta(system))
        res = cls(a, meta, R_pu=np.array(system.R_pu, dtype=float).reshape(nb, 3, 3))
        res.assembly = assembly
        res.joint_residual_max = jres[system.joint_pos] if S.nj else jres
        return res

    def _meta_json(self, keys):
        """The metadata of an archive holding ``keys`` (its format follows from them)."""
        meta = dict(body_names=self.body_names, joint_names=self.joint_names,
                    joint_kinds=self.joint_kinds, assembly_summary=self.assembly_summary,
                    force_names=self.force_names, force_kinds=self.force_kinds,
                    force_dofs=self.force_dofs,
                    driver_names=self.driver_names, driver_kinds=self.driver_kinds,
                    driver_rows=self.driver_row_counts,
                    coupler_names=self.coupler_names, coupler_kinds=self.coupler_kinds,
                    load_names=self.load_names, warnings=list(self.warnings),
                    joint_frames=self.joint_frames,
                    settings={k: v for k, v in self.settings.items()
                              if isinstance(v, (str, int, float, bool, type(None)))},
                    format=self.FORMAT if "R_pu" in keys else "simphant-result-1")
        return json.dumps(meta)

    def _array(self, key):
        if key == "R_pu":
            return self._R_pu
        if key in self._DERIVED:
            return self._full(key)
        return getattr(self, self._attr(key))

    def _stored_keys(self, derived=False):
        """The series an archive holds: ``_ARRAYS`` with ``R_pu`` in place of the
        ``_DERIVED`` series (with ``derived``, or for a result read from a format-1
        archive: the series), and the force-element and driver series when the model
        has such elements."""
        if derived or self._R_pu is None:
            keys = self._ARRAYS
        else:
            keys = tuple(k for k in self._ARRAYS if k not in self._DERIVED) + ("R_pu",)
        if self.force_names:
            keys += self._OPTIONAL
        if self.driver_names:
            keys += self._DRIVER_ARRAYS
        if self.coupler_names:
            keys += self._COUPLER_ARRAYS
        if self.load_names:
            keys += self._LOAD_ARRAYS
        if self._react_indeterminate.any():
            keys += (self._REACTION_FLAGS,)
        if len(self._stop_events):
            keys += self._EVENT_ARRAYS
        if self._frc_contact is not None:
            keys += self._CONTACT_ARRAYS
        return keys

    def to_arrays(self, derived=False):
        """All data as a dict of NumPy arrays; metadata JSON-encoded in ``meta`` (0-d str
        array). ``derived``: with the per-body series instead of ``R_pu``, as format 1
        (what earlier versions read)."""
        keys = self._stored_keys(derived)
        out = {}
        for k in keys:
            out[k] = np.array(self._array(k))
        out["meta"] = np.array(self._meta_json(keys))
        return out

    @classmethod
    def from_arrays(cls, arrays):
        """Inverse of ``to_arrays`` (accepts a dict or an ``np.load`` archive), of either
        format."""
        meta = json.loads(str(np.asarray(arrays["meta"])))
        R_pu = np.asarray(arrays["R_pu"], dtype=float) if "R_pu" in arrays else None
        keys = tuple(k for k in cls._ARRAYS if R_pu is None or k not in cls._DERIVED) + tuple(
            k for k in cls._OPTIONAL + cls._DRIVER_ARRAYS + cls._COUPLER_ARRAYS
            + cls._LOAD_ARRAYS + (cls._REACTION_FLAGS,) + cls._EVENT_ARRAYS
            + cls._CONTACT_ARRAYS if k in arrays)
        return cls({k: arrays[k] for k in keys}, meta, R_pu=R_pu)

    def save(self, path, compress=False):
        """Write an ``.npz`` archive (``Result.load`` reads it back), the members of
        ``to_arrays`` one by one.

        Stored without compression by default: the float series hardly compress
        (zlib gains about 5 % for most of the time) and deflating them costs about as
        much as the solve; ``compress=True`` deflates them as ``np.savez_compressed``.
        Archives of either kind load the same.
        """
        import zipfile
        mode = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
        path = str(path)
        if not path.endswith(".npz"):
            path += ".npz"
        keys = self._stored_keys()
        meta = self._meta_json(keys)
        with zipfile.ZipFile(path, "w", compression=mode, allowZip64=True) as z:
            for k in keys + ("meta",):
                a = np.array(meta) if k == "meta" else self._array(k)
                with z.open(k + ".npy", "w", force_zip64=True) as fh:
                    np.lib.format.write_array(fh, np.asanyarray(a), allow_pickle=False)
                del a

    @classmethod
    def load(cls, path):
        with np.load(path, allow_pickle=False) as z:
            return cls.from_arrays({k: z[k] for k in z.files})

    # ------------------------------------------------------------------ lookup
    def _b(self, body):
        name = body if isinstance(body, str) else getattr(body, "name", None)
        try:
            return self.body_names.index(name)
        except ValueError:
            raise KeyError("no moving body %r in this result" % (name,)) from None

    def _j(self, joint):
        name = joint if isinstance(joint, str) else getattr(joint, "name", None)
        try:
            return self.joint_names.index(name)
        except ValueError:
            raise KeyError("no joint %r in this result" % (name,)) from None

    def __len__(self):
        return len(self.t)

    # ------------------------------------------------------------------ bodies
    def position(self, body):
        """CoG position [m], world, (n, 3)."""
        return np.array(self._series("pos", self._b(body)))

    def rotation_matrix(self, body):
        """Rotation of the body's own frame (``orientation`` at t0) to world, (n, 3, 3)."""
        return np.array(self._series("A", self._b(body)))

    def pose(self, body, index):
        """(CoG position (3,), rotation (3, 3) of the body's own frame) at one sample:
        what playback needs, without copying the whole series."""
        b = self._b(body)
        if self._R_pu is None:
            return self._stored_pos[index, b].copy(), self._stored_A[index, b].copy()
        y = self.states[index]
        p = 7 * b
        return y[p:p + 3].copy(), quat_to_matrix(y[p + 3:p + 7]) @ self._R_pu[b]

    def quaternion(self, body):
        """Orientation (w, x, y, z) of the body's own frame, sign-continuous, (n, 4)."""
        b = self._b(body)
        if b not in self._quat_cache:
            self._quat_cache[b] = _quats_continuous(self._series("A", b))
        return self._quat_cache[b].copy()

    def euler_angles(self, body):
        """Z-Y-X angles (theta_x, theta_y, theta_z) [rad] of the body frame, for display."""
        return euler_zyx(self._series("A", self._b(body)))

    def velocity(self, body):
        """CoG velocity [m/s], world, (n, 3)."""
        return np.array(self._series("vel", self._b(body)))

    def angular_velocity(self, body, frame="world"):
        """Angular velocity [rad/s], world axes or the body's own axes (``frame="body"``)."""
        b = self._b(body)
        if frame == "world":
            return np.array(self._series("omega_w", b))
        if frame == "body":
            return np.array(self._series("omega_b", b))
        raise ValueError("frame must be 'world' or 'body', got %r" % (frame,))

    def acceleration(self, body):
        """CoG acceleration [m/s^2], world, (n, 3)."""
        return self._acc[:, self._b(body)].copy()

    def angular_acceleration(self, body):
        """Angular acceleration [rad/s^2], world axes, (n, 3)."""
        return self._alpha_w[:, self._b(body)].copy()

    def point_position(self, body, local_point):
        """World position of a point given in the body's own frame (origin CoG)."""
        b = self._b(body)
        p = np.asarray(local_point, dtype=float)
        return self._series("pos", b) + self._series("A", b) @ p

    def point_velocity(self, body, local_point):
        """World velocity of a point given in the body's own frame (origin CoG)."""
        b = self._b(body)
        s = self._series("A", b) @ np.asarray(local_point, dtype=float)
        return self._series("vel", b) + np.cross(self._series("omega_w", b), s)

    # ------------------------------------------------------------------ joints
    def reaction_force(self, joint, frame="world"):
        """Force [N] the joint exerts on its second body, (n, 3): world axes, or with
        ``frame="joint"`` along the axes of the joint's frame on its first body."""
        F = self._react[:, self._j(joint), :3].copy()
        return self._reaction_axes(joint, F, frame)

    def _reaction_axes(self, joint, V, frame):
        if frame == "world":
            return V
        if frame == "joint":
            return self._in_joint_frame(joint, V)
        raise ValueError("frame must be 'world' or 'joint', got %r" % (frame,))

    def reaction_torque(self, joint, about=None, frame="world"):
        """Torque [N m] the joint exerts on its second body, (n, 3).

        About the joint point of the second body (``about="body2"``) or of the
        first body (``"body1"``); they differ when the anchors separate
        (prismatic, cylindrical, planar, distance joints). In world axes, about
        body 2's point by default; with ``frame="joint"`` in the joint frame on
        the first body: its axes and (by default) its origin, body 1's point.
        """
        if about is None:
            about = "body1" if frame == "joint" else "body2"
        k = self._j(joint)
        T = self._react[:, k, 3:].copy()
        if about == "body2":
            return self._reaction_axes(joint, T, frame)
        if about == "body1":
            F = self._react[:, k, :3]
            T = T + np.cross(self._anchor(k, 1) - self._anchor(k, 0), F)
            return self._reaction_axes(joint, T, frame)
        raise ValueError("about must be 'body2' or 'body1', got %r" % (about,))

    def reaction_indeterminate(self, joint, frame="world"):
        """Which components of the joint's reaction the model leaves indeterminate (at one
        output sample or more): (6,) bool over F_x, F_y, F_z, T_x, T_y, T_z, in world axes
        (torque about body 2's joint point, as ``reaction_force``/``reaction_torque``) or
        with ``frame="joint"`` in joint frame 1's axes (torque about its origin). Joints
        that hold a load redundantly (a planar loop of spatial joints, for one) share
        it in a way the rigid model does not fix: those components are reported as the
        rule of ``reactions`` picks them (least norm), the others are what they are
        whatever the rule (docs/theory.md, "Reactions of redundant joints")."""
        return self.reaction_indeterminate_samples(joint, frame) > 0

    def reaction_indeterminate_samples(self, joint, frame="world"):
        """At how many output samples each reaction component was indeterminate: (6,)
        int, as ``reaction_indeterminate`` (all samples: a redundancy of the joints; a
        few: a singular configuration passed)."""
        if frame not in reactions.FRAMES:
            raise ValueError("frame must be 'world' or 'joint', got %r" % (frame,))
        c = 6 * reactions.FRAMES.index(frame)
        return self._react_indeterminate[self._j(joint), c:c + 6].astype(int)

    def joint_point(self, joint, side="body2"):
        """World position [m] of the joint point on ``side`` ("body1" or "body2"), (n, 3)."""
        if side not in ("body1", "body2"):
            raise ValueError("side must be 'body1' or 'body2', got %r" % (side,))
        return np.array(self._anchor(self._j(joint), 1 if side == "body2" else 0))

    # ------------------------------------------------------------------ drivers
    def _d(self, driver):
        """Column index (one-row driver) or slice (multi-row) of ``driver``."""
        name = driver if isinstance(driver, str) else getattr(driver, "name", None)
        try:
            i = self.driver_names.index(name)
        except ValueError:
            raise KeyError("no driver %r in this result" % (name,)) from None
        c = sum(self.driver_row_counts[:i])
        k = self.driver_row_counts[i]
        return c if k == 1 else slice(c, c + k)

    def driver_effort(self, driver):
        """What the driver applies to keep its motion: (n,) the torque [N m] about the
        joint z axis (rotation driver, a motor) or the force [N] along it (translation
        driver, an actuator) on the joint's second body (the first gets the opposite);
        (n, 3) the force [N], world axes, a point driver applies at its point, or the
        torque [N m], world axes, a direction driver applies to its body."""
        return self._driver_effort[:, self._d(driver)].copy()

    def driver_power(self, driver):
        """Power [W] the driver puts into the mechanism: effort times the prescribed rate
        (summed over the rows of a point driver), (n,)."""
        p = self._driver_power[:, self._d(driver)]
        return (p.sum(axis=1) if p.ndim == 2 else p).copy()

    def driver_work(self, driver):
        """Work [J] the driver has put into the mechanism since the first sample, (n,):
        its power summed in the run with the integration method's stage weights (as the
        force elements' work), or, in a kinematic analysis, integrated over the samples."""
        w = self._driver_work[:, self._d(driver)]
        return (w.sum(axis=1) if w.ndim == 2 else w).copy()

    def driver_value(self, driver):
        """The prescribed rotation [rad] or translation [m] ((n, 3) point [m]) of the driver."""
        return self._driver_value[:, self._d(driver)].copy()

    def driver_rate(self, driver):
        """Its prescribed rate [rad/s or m/s], like ``driver_value``."""
        return self._driver_rate[:, self._d(driver)].copy()

    # ------------------------------------------------------------------ couplers
    def _c(self, coupler):
        name = coupler if isinstance(coupler, str) else getattr(coupler, "name", None)
        try:
            return self.coupler_names.index(name)
        except ValueError:
            raise KeyError("no coupler %r in this result" % (name,)) from None

    def coupler_force(self, coupler):
        """Force [N] (n, 3), world axes, the coupler exerts on its second body (a gear
        pair: gear 2; a rack and pinion: the pinion; a screw: body 2 of its joint); the
        first body gets the opposite."""
        return self._coupler_react[:, self._c(coupler), :3].copy()

    def coupler_torque(self, coupler):
        """Torque [N m] (n, 3), world axes, the coupler exerts on its second body, about
        that body's point of the coupler (a gear's centre, the pinion's centre, the
        screw joint's point): e.g. for a gear pair its component along the gear axis
        is the tooth force times the pitch radius of gear 2."""
        return self._coupler_react[:, self._c(coupler), 3:].copy()

    # ------------------------------------------------------------------ system
    def energy(self):
        """Dict of (n,) arrays [J]: kinetic; potential = gravity + elastic (springs,
        preloads); total = kinetic + potential; dissipated (by dampers) and
        actuator_work since the first sample (both summed over the run's steps); driver_work,
        the work the drivers put in since the first sample (summed over the run's steps;
        in a kinematic analysis and for results stored before it was kept, the summed
        ``driver_power`` integrated over the samples); load_work, the work of the applied forces and torques
        since the first sample (summed over the run's steps; for results stored before it
        was kept, their power integrated over the samples); balance = total + dissipated - actuator_work - driver_work - load_work
        (constant up to the integration and quadrature errors)."""
        elastic = self._frc_pot.sum(axis=1)
        diss = self._frc_diss.sum(axis=1)
        work = self._frc_work.sum(axis=1)
        drive = self._driver_work.sum(axis=1)
        loads = self._load_work.sum(axis=1)
        potential = self._potential + elastic
        total = self._kinetic + potential
        return {"kinetic": self._kinetic.copy(), "potential": potential,
                "gravity": self._potential.copy(), "elastic": elastic, "total": total,
                "dissipated": diss, "actuator_work": work, "driver_work": drive,
                "load_work": loads, "balance": total + diss - work - drive - loads}

    # ------------------------------------------------------------------ force elements
    def _f(self, element):
        name = element if isinstance(element, str) else getattr(element, "name", None)
        try:
            return self.force_names.index(name)
        except ValueError:
            raise KeyError("no force element %r in this result" % (name,)) from None

    def spring_force(self, element):
        """Scalar force [N] (or moment [N m] of a torsional element) of a force element,
        (n,): along the line point1 -> point2 on body2 (> 0 pushes apart), or about /
        along the joint z axis on body2."""
        return self._frc[:, self._f(element), 2].copy()

    def spring_length(self, element):
        """Coordinate of a force element, (n,): distance of its points [m], joint angle
        [rad] or slide [m]."""
        return self._frc[:, self._f(element), 0].copy()

    def spring_rate(self, element):
        """Rate of change of ``spring_length`` [m/s or rad/s], (n,)."""
        return self._frc[:, self._f(element), 1].copy()

    def spring_power(self, element):
        """Power [W] the element delivers to the bodies, (n,): ``f x_dot``."""
        i = self._f(element)
        return self._frc[:, i, 2] * self._frc[:, i, 1]

    def element_energy(self, element):
        """Dict of (n,) arrays [J] of one element: potential, dissipated, actuator_work."""
        i = self._f(element)
        return {"potential": self._frc_pot[:, i].copy(), "dissipated": self._frc_diss[:, i].copy(),
                "actuator_work": self._frc_work[:, i].copy()}

    def contact(self, element):
        """The outputs of a contact element, a dict of arrays: ``point`` (n, 3) [m], the
        normal-force-weighted mean of its contact points (world), ``normal_force`` and
        ``friction_force`` (n, 3) [N] on its first body (world; the second takes the
        opposite), ``penetration`` (n,) [m] the largest, ``points`` (n,) the number of
        sample points in contact, ``potential`` (n,) [J] its elastic energy."""
        i = self._f(element)
        if self._frc_contact is None or self.force_kinds[i] != "contact":
            raise KeyError("force element %r is not a contact" % (self.force_names[i],))
        return contact_outputs(self._frc_contact[:, i])

    def stop_events(self):
        """The end stops' contacts, in time order: a list of dicts with ``time`` [s],
        ``element`` (the stop's name), ``side`` ("lower" or "upper" limit), ``speed``,
        the rate of penetration at impact [m/s or rad/s], and ``rebound``, the rate it
        leaves with after the impact of an impulsive stop (``None`` for a compliant
        stop). A compliant stop's contacts are found in the output samples
        (``forces.stop_events``: the time interpolated between the sample before the
        contact and the first in it, the speed at the sample before); an impulsive stop's
        are located in the run (``impacts``)."""
        from .forces import EVT_ELEMENT, EVT_REBOUND, EVT_SIDE, EVT_SPEED, EVT_TIME, SIDE_LOWER
        return [{"time": float(r[EVT_TIME]), "element": self.force_names[int(r[EVT_ELEMENT])],
                 "side": "lower" if int(r[EVT_SIDE]) == SIDE_LOWER else "upper",
                 "speed": float(r[EVT_SPEED]),
                 "rebound": None if r[EVT_REBOUND] == NO_REBOUND else float(r[EVT_REBOUND])}
                for r in self._stop_events]

    def constraint_violation(self):
        """Dict of (n,) arrays: max |Phi| ("position") and max |Phi_dot| ("velocity")."""
        return {"position": self._phi_max.copy(), "velocity": self._phidot_max.copy()}


def _event_rows(ev):
    """End-stop event rows (m, ``forces.NEVT``); rows of earlier versions (m, 4), from
    compliant stops only, get ``NO_REBOUND``."""
    if ev is None:
        return np.zeros((0, NEVT))
    ev = np.asarray(ev, dtype=float)
    ev = ev.reshape(-1, ev.shape[-1] if ev.ndim == 2 else NEVT)
    if ev.shape[1] < NEVT:
        ev = np.hstack([ev, np.full((len(ev), NEVT - ev.shape[1]), NO_REBOUND)])
    return ev
