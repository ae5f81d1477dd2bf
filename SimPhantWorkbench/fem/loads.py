"""The loads on one body at one instant of a stored result, in the body's own frame.

A rigid body of a motion study is in dynamic equilibrium at every instant
(d'Alembert): the joint reactions on it, gravity and the inertial load field

    b(x) = g - a_G - alpha x d - omega x (omega x d)     per unit mass, d = x - x_G

add up to zero force and zero moment (Newton-Euler: ``m a_G = sum F``,
``J alpha + omega x J omega = sum M_G``). ``body_loads`` reads them from the study's
stored result and expresses them in the body's own frame (the frame of its shape
object; lengths mm, everything else SI), ready to be put on a finite-element mesh
of the solid in that frame. ``LoadCase.imbalance`` sums them: the relative residual
is the test that every load on the body is accounted for.

Instants: a time [s] (the nearest stored sample), ``"frame:N"`` (sample N), or
``"peak:SIGNAL"`` where SIGNAL is a metric signal of ``solver.metrics``
(``reaction_force(WristPin)``, ``angular_acceleration(Rod).z``; ``reaction`` is
short for ``reaction_force``): the sample where its value (the norm of a vector)
is largest.
"""
import math
import re
from collections import namedtuple

import numpy as np

from ..solver import ModelError
from ..solver.metrics import parse_signal
from ..document.base import (find_object, find_study, is_type, object_label, study_bodies,
                             study_joints)
from ..document.bodies import body_data, body_of_object
from ..document.joints import joint_data, reference_of
from ..document.massprops import global_shape
from ..document.results import require_result, result_keys
from ..document.units import M_PER_MM

__all__ = ["Instant", "JointLoad", "LoadCase", "choose_instant", "body_loads", "BALANCE_TOL"]

#: largest relative residual of the load set (force and moment) accepted
BALANCE_TOL = 1e-6

#: short names of signals accepted after "peak:"
_ALIASES = {"reaction": "reaction_force", "reaction_moment": "reaction_torque"}

_TIME = re.compile(r"^\s*(?:(?:t|time)\s*[=:]\s*)?([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
                   r"\s*(?:s)?\s*$", re.I)

Instant = namedtuple("Instant", ["index", "time", "text"])

JointLoad = namedtuple("JointLoad", [
    "joint",    # the SimPhant Joint object
    "ref",      # (object, subname) of the body's side of the joint
    "force",    # (3,) N, body axes: what the joint exerts on the body
    "moment",   # (3,) N m, body axes, about ``point``
    "point",    # (3,) mm, body frame: the joint point of the joint's second body
])


class LoadCase:
    """The loads on a body at an instant (see the module docstring).

    Attributes: ``body``, ``study``, ``instant``; ``mass`` [kg], ``volume`` [mm^3]
    (the solid's), ``cog`` (3,) [mm, body frame], ``inertia`` (3, 3) [kg m^2, body
    axes, about the CoG]; ``gravity``, ``acceleration`` (of the CoG) [m/s^2],
    ``omega`` [rad/s], ``alpha`` [rad/s^2], all in body axes; ``joints``: a list of
    ``JointLoad``; ``placement``: the shape object's global placement the body frame
    was taken from (document state when the case was made); ``solid``: the body's
    solid in its own frame [mm].
    """

    def __init__(self, **kw):
        self.__dict__.update(kw)

    @property
    def density(self):
        """kg/m^3: the motion study's mass over the solid's volume."""
        return self.mass / (self.volume * M_PER_MM ** 3)

    def uniform(self):
        """The uniform part of the inertial field plus gravity, ``g - a_G`` [m/s^2]."""
        return self.gravity - self.acceleration

    def imbalance(self):
        """(relative force residual, relative moment residual, force [N], moment
        about the CoG [N m]) of joint loads + gravity + inertia, body axes."""
        m = self.mass
        F = m * self.uniform()
        J = self.inertia
        inertial_moment = -(J @ self.alpha + np.cross(self.omega, J @ self.omega))
        M = inertial_moment.copy()
        f_scale = np.linalg.norm(F)
        m_scale = np.linalg.norm(inertial_moment)
        for jl in self.joints:
            arm = (jl.point - self.cog) * M_PER_MM
            F = F + jl.force
            dM = np.cross(arm, jl.force) + jl.moment
            M = M + dM
            f_scale += np.linalg.norm(jl.force)
            m_scale += np.linalg.norm(np.cross(arm, jl.force)) + np.linalg.norm(jl.moment)
        size = _solid_size(self) * M_PER_MM
        m_scale = max(m_scale, f_scale * size)
        return (np.linalg.norm(F) / max(f_scale, 1e-300), np.linalg.norm(M) / max(m_scale, 1e-300),
                F, M)


def _solid_size(case):
    bb = case.solid.BoundBox
    return max(bb.XLength, bb.YLength, bb.ZLength)


def _nearest(t, time):
    return int(np.argmin(np.abs(np.asarray(t) - float(time))))


def choose_instant(study, result, instant, keys=None):
    """The ``Instant`` of ``result`` that ``instant`` names (see the module docstring);
    ``keys`` as ``body_loads``'s (default: those of the study's stored result)."""
    t = np.asarray(result.t, dtype=float)
    if len(t) == 0:
        raise ModelError("Study '%s': its result has no samples" % study.Label)
    if isinstance(instant, (int, float)) and not isinstance(instant, bool):
        return _time_instant(study, t, float(instant))
    text = str(instant).strip()
    kind, sep, rest = text.partition(":")
    kind = kind.strip().lower() if sep else ""
    if kind == "frame":
        try:
            k = int(rest)
        except ValueError:
            raise ModelError("instant %r: frame:N needs a whole number" % text) from None
        if not -len(t) <= k < len(t):
            raise ModelError("instant %r: the result has frames 0 .. %d" % (text, len(t) - 1))
        k %= len(t)
        return Instant(k, float(t[k]), "frame %d, t = %.6g s" % (k, t[k]))
    if kind == "peak":
        return _peak_instant(study, result, rest.strip(), text, keys)
    m = _TIME.match(text)
    if m is None or not math.isfinite(float(m.group(1))):
        raise ModelError("instant %r: give a time in s (0.25, t=0.25), frame:N or peak:SIGNAL "
                         "(e.g. peak:reaction_force(WristPin))" % str(instant))
    return _time_instant(study, t, float(m.group(1)))


def _time_instant(study, t, time):
    if not (t[0] - 1e-12 <= time <= t[-1] + 1e-12):
        raise ModelError("Study '%s': t = %g s is outside its result (%g .. %g s)"
                         % (study.Label, time, t[0], t[-1]))
    k = _nearest(t, time)
    return Instant(k, float(t[k]), "t = %.6g s (frame %d)" % (t[k], k))


def _peak_instant(study, result, signal, text, keys):
    head, paren, tail = signal.partition("(")
    signal = _ALIASES.get(head.strip(), head.strip()) + paren + tail
    sig = parse_signal(signal, name=text)
    if sig.kind != "system":
        obj = find_object(study.Document, sig.target, "instant %r" % text)
        keys = result_keys(study) if keys is None else keys
        if obj.Name not in keys:
            raise ModelError("instant %r: '%s' is not a moving body or a joint of the result "
                             "of study '%s'" % (text, obj.Label, study.Label))
        sig = sig.resolved(keys[obj.Name])
    _t, x = sig.values(result)
    k = int(np.nanargmax(x))
    return Instant(k, float(result.t[k]), "peak of %s: %.6g at t = %.6g s (frame %d)"
                   % (signal, x[k], result.t[k], k))


def _resolve_body(study, body):
    """The SimPhant Body of ``study`` that ``body`` names (Body, shape object, Name or Label)."""
    obj = find_object(study.Document, body, "body") if isinstance(body, str) else body
    bodies = study_bodies(study)
    found = obj if is_type(obj, "SimPhant::Body") else body_of_object(bodies, obj)
    if found is None or found not in bodies:
        raise ModelError("'%s' is not a body of study '%s'" % (obj.Label, study.Label))
    if found.Fixed:
        raise ModelError("%s is fixed: it has no motion and no result to load it with"
                         % object_label(found))
    return found


def _single_solid(bd):
    shape = global_shape(bd.shape)
    if len(shape.Solids) != 1:
        raise ModelError("%s: its shape '%s' has %d solids; Loads to FEM analyses one solid "
                         "(fuse them into one)" % (object_label(bd.obj), bd.shape.Label,
                                                   len(shape.Solids)))
    solid = shape.Solids[0].copy()
    solid.transformShape(bd.placement.inverse().toMatrix(), False, False)
    return solid


def body_loads(study, body, instant, result=None, keys=None):
    """The ``LoadCase`` of ``body`` (a Body, its shape object, a Name or a Label) in
    ``study`` at ``instant`` (see the module docstring); ``ModelError`` when the study
    has no result, the body changed since it was run, or its loads do not balance.

    ``result`` and ``keys`` ({object Name: solver name} of its bodies and joints):
    a result not stored in the study (a parameter study's variant); by default the
    stored one (``results.require_result``, ``results.result_keys``)."""
    if find_study(study) is not study:
        study = find_study(study)
    if result is None:
        _res_obj, result = require_result(study)
        keys = result_keys(study)
    body = _resolve_body(study, body)
    key = keys.get(body.Name)
    if key is None:
        raise ModelError("%s is not in the result of study '%s': run it again"
                         % (object_label(body), study.Label))
    inst = choose_instant(study, result, instant, keys)
    bd = body_data(body, warn=False)
    mp = bd.mass_props
    b = result.body_names.index(key)
    mass = float(result.masses[b])
    if abs(mp.mass - mass) > 1e-9 * mass:
        raise ModelError("%s: its mass is %.9g kg now but %.9g kg in the result of study '%s': "
                         "run the study again" % (object_label(body), mp.mass, mass, study.Label))
    k = inst.index
    R = result.rotation_matrix(key)[k]
    pos = result.position(key)[k]
    R0 = bd.frame[1]
    case = LoadCase(
        body=body, study=study, instant=inst, mass=mass,
        volume=mp.volume / M_PER_MM ** 3, cog=np.asarray(bd.cog_local, dtype=float),
        inertia=R0.T @ np.asarray(mp.inertia) @ R0,
        gravity=R.T @ np.asarray(result.gravity, dtype=float),
        acceleration=R.T @ result.acceleration(key)[k],
        omega=R.T @ result.angular_velocity(key)[k],
        alpha=R.T @ result.angular_acceleration(key)[k],
        placement=bd.placement, solid=_single_solid(bd), joints=[])
    names = result.joint_names
    for joint in study_joints(study):
        jd = joint_data(joint)
        if body not in (jd.body1, jd.body2) or keys.get(joint.Name) not in names:
            continue
        jk = keys[joint.Name]
        sign = 1.0 if jd.body2 == body else -1.0      # the reaction on body 1 is opposite
        ref = reference_of(joint.Reference2 if jd.body2 == body else joint.Reference1)
        if ref is None or not ref[1]:
            raise ModelError("%s: its reference on %s names no face, edge or vertex to put its "
                             "load on (pick one)" % (object_label(joint), object_label(body)))
        p = result.joint_point(jk, "body2")[k]
        case.joints.append(JointLoad(
            joint, ref, sign * (R.T @ result.reaction_force(jk)[k]),
            sign * (R.T @ result.reaction_torque(jk)[k]),
            (R.T @ (p - pos)) / M_PER_MM + case.cog))
    rel_f, rel_m, F, M = case.imbalance()
    if max(rel_f, rel_m) > BALANCE_TOL:
        raise ModelError(
            "%s at %s: its joint loads, gravity and inertia do not balance (residual force "
            "%.4g N, moment %.4g N m: %.2g and %.2g of the loads): it carries loads Loads to "
            "FEM does not transfer (forces, torques, force elements or drivers on it)"
            % (object_label(body), inst.text, np.linalg.norm(F), np.linalg.norm(M), rel_f,
               rel_m))
    return case
