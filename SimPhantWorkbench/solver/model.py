"""The scripting API: ``Model`` with bodies, joints, forces and torques.

All quantities are SI (m, kg, s, N, rad). Positions, axes and points passed to
``add_joint``/``add_force`` are in world coordinates at the initial time.
Quaternions are scalar first ``(w, x, y, z)``.

Example::

    from SimPhantWorkbench.solver import Model
    m = Model(gravity=(0, 0, -9.81))
    link = m.add_body("link", mass=1.0, inertia=(0.04, 0.1, 0.1), position=(2, 0, 0))
    hinge = m.add_joint("revolute", m.ground, link, point=(0, 0, 0), axis=(0, 1, 0))
    r = m.simulate(t_end=5.0, dt=1e-3, method="rk4", output_dt=0.01)
    r.position(link)[-1], r.reaction_force(hinge)[-1]
"""
import math
import numbers

import numpy as np

from .errors import ModelError
from .forces import JOINT_DOFS, ForceElement, check_element, joint_coordinate
from .joints import JOINT_TYPES, check_joint_angle, joint_spec
from .rotations import as_rotation_matrix, orthonormal_frame

__all__ = ["Model", "Body", "Joint", "Load", "GROUND"]


def _vec3(value, what):
    try:
        v = np.asarray(value, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise ModelError("%s: expected 3 numbers, got %r" % (what, value)) from None
    if v.shape != (3,):
        raise ModelError("%s: expected 3 numbers, got %r" % (what, value))
    if not np.all(np.isfinite(v)):
        raise ModelError("%s: values must be finite, got %r" % (what, value))
    return v


def _local_point(body, point, local_point, what):
    """A point of ``body`` in its frame (from the CoG), given as ``point`` (world, at t0)
    or ``local_point``; the CoG when neither is given."""
    if point is not None and local_point is not None:
        raise ModelError("%s: give point= or local_point=, not both" % what)
    if point is not None:
        return body.A_user.T @ (_vec3(point, what + " point") - body.position)
    if local_point is not None:
        return _vec3(local_point, what + " local_point")
    return np.zeros(3)


def _unit(value, what):
    v = _vec3(value, what)
    n = np.linalg.norm(v)
    if n < 1e-12:
        raise ModelError("%s: zero-length axis" % what)
    return v / n


class Body:
    """A rigid body. Created by ``Model.add_body``; ``Model.ground`` is the fixed world.

    The solver works in the centroidal principal frame; ``orientation`` (the
    user's body frame) and the principal frame differ by the constant rotation
    ``R_pu`` (user axes expressed in principal axes) when the inertia was given
    as a full tensor.
    """

    def __init__(self, model, name, index):
        self.model = model
        self.name = name
        self.index = index  # -1 for ground

    @property
    def is_ground(self):
        return self.index < 0

    def __repr__(self):
        return "<Body %r>" % self.name


class _Ground(Body):
    def __init__(self, model):
        super().__init__(model, "ground", -1)
        self.mass = math.inf
        self.position = np.zeros(3)
        self.A_user = np.eye(3)
        self.A_principal = np.eye(3)
        self.R_pu = np.eye(3)


GROUND = "ground"


class Joint:
    """A joint between ``body1`` (side i) and ``body2`` (side j). Created by ``Model.add_joint``."""

    def __init__(self, model, name, kind, body1, body2, frame1, frame2, length, angle=None):
        self.model = model
        self.name = name
        self.kind = kind
        self.body1 = body1
        self.body2 = body2
        self.frame1 = frame1  # (point (3,), rotation (3,3)) in world at t0
        self.frame2 = frame2
        self.length = length
        self.angle = angle    # [rad] the angle between the z axes an angle joint keeps
        self.index = None

    @property
    def spec(self):
        return JOINT_TYPES[self.kind]

    def __repr__(self):
        return "<Joint %r %s: %s - %s>" % (self.name, self.kind, self.body1.name, self.body2.name)


class Load:
    """A force at a body point or a torque; value constant or ``callable(t) -> 3-vector``."""

    def __init__(self, model, name, kind, body, value, frame, local_point):
        self.model = model
        self.name = name
        self.kind = kind          # "force" or "torque"
        self.body = body
        self.value = value        # np.ndarray (3,) or callable
        self.frame = frame        # "world" or "body"
        self.local_point = local_point  # body (user) frame, from the CoG
        self.index = None

    @property
    def is_timed(self):
        return callable(self.value)

    def value_at(self, t):
        if not self.is_timed:
            return self.value
        try:
            v = np.asarray(self.value(t), dtype=float).reshape(-1)
        except Exception as exc:  # noqa: BLE001 - report the user's function failure
            raise ModelError("%s %r: its function failed at t=%g: %s"
                             % (self.kind, self.name, t, exc)) from exc
        if v.shape != (3,) or not np.all(np.isfinite(v)):
            raise ModelError("%s %r: its function must return 3 finite numbers, got %r at t=%g"
                             % (self.kind, self.name, v, t))
        return v

    def __repr__(self):
        return "<Load %r %s on %s>" % (self.name, self.kind, self.body.name)


class Model:
    """A multibody model (bodies, joints, forces and torques).

    Parameters
    ----------
    gravity : 3 floats
        Gravitational acceleration [m/s^2], world frame.
    """

    def __init__(self, gravity=(0.0, 0.0, -9.81)):
        self.gravity = _vec3(gravity, "Model gravity")
        self.ground = _Ground(self)
        self.bodies = []
        self.joints = []
        self.loads = []
        self.force_elements = []
        self.drivers = []
        self.couplers = []

    # ------------------------------------------------------------------ bodies
    def add_body(self, name, mass, inertia, position=(0.0, 0.0, 0.0), orientation=(1.0, 0.0, 0.0, 0.0),
                 velocity=(0.0, 0.0, 0.0), angular_velocity=(0.0, 0.0, 0.0)):
        """Add a rigid body.

        Parameters
        ----------
        name : str
            Unique name (used in error messages and results).
        mass : float
            Mass [kg], finite and positive.
        inertia : 3 floats or 3x3
            Either the principal moments ``(Ixx, Iyy, Izz)`` [kg m^2] about the
            CoG in the body frame given by ``orientation``, or the full inertia
            tensor about the CoG in world axes at t0 (then diagonalised; poses
            are still reported in the ``orientation`` frame).
        position : 3 floats
            CoG position [m], world.
        orientation : quaternion (w, x, y, z) or 3x3
            Body frame relative to the world at t0.
        velocity, angular_velocity : 3 floats
            Initial CoG velocity [m/s] and angular velocity [rad/s], world axes.
        """
        if not isinstance(name, str) or not name.strip():
            raise ModelError("body name must be a non-empty string, got %r" % (name,))
        if name == GROUND or any(b.name == name for b in self.bodies):
            raise ModelError("body %r: a body with this name already exists" % name)
        what = "body %r" % name
        if isinstance(mass, bool) or not isinstance(mass, numbers.Real) or not math.isfinite(mass) \
                or mass <= 0.0:
            raise ModelError("%s: mass must be a finite positive number, got %r" % (what, mass))
        try:
            A_user = as_rotation_matrix(orientation, what + " orientation")
        except ValueError as exc:
            raise ModelError(str(exc)) from None
        moments, A_principal = _principal_inertia(inertia, A_user, what)
        body = Body(self, name, len(self.bodies))
        body.mass = float(mass)
        body.moments = moments
        body.A_user = A_user
        body.A_principal = A_principal
        body.R_pu = A_principal.T @ A_user   # user axes in the principal frame
        body.position = _vec3(position, what + " position")
        body.velocity = _vec3(velocity, what + " velocity")
        body.angular_velocity = _vec3(angular_velocity, what + " angular_velocity")
        self.bodies.append(body)
        return body

    def body(self, ref):
        """Resolve a ``Body``, a body name, or ``"ground"``."""
        if isinstance(ref, Body):
            if ref.model is not self:
                raise ModelError("body %r belongs to another model" % ref.name)
            return ref
        if ref is None or ref == GROUND:
            return self.ground
        for b in self.bodies:
            if b.name == ref:
                return b
        raise ModelError("unknown body %r" % (ref,))

    # ------------------------------------------------------------------ joints
    def add_joint(self, kind, body1, body2, point=None, axis=None, axis2=None, frame1=None,
                  frame2=None, point2=None, length=None, angle=None, name=None):
        """Add a joint of registered ``kind`` between ``body1`` and ``body2``.

        Geometry is given in world coordinates at t0, either as ``point`` and
        ``axis`` (the joint z axis; ``axis2`` is the second cross axis of a
        universal joint: the spider's x axis is ``axis`` on body1 and its y axis
        ``axis2`` on body2), or per side as ``frame1``/``frame2`` =
        ``(position, rotation)`` with rotation a quaternion or a 3x3 matrix,
        when the sides are not yet coincident (they are assembled at t0).
        ``distance`` and ``revolute_spherical`` also take ``point2`` (the point
        of body2) and optionally ``length`` (default: the distance at t0).
        ``perpendicular`` and ``angle`` take ``axis2``, the z axis of body2's side
        (``axis`` is body1's); ``angle`` optionally ``angle`` [rad] between the two z
        axes (default: their angle at t0), which must lie inside (0, pi)
        (``joints.ANGLE_MARGIN``; parallel axes need the ``parallel`` kind).
        """
        spec = joint_spec(kind)
        if name is None:
            name = "%s%d" % (kind, len(self.joints) + 1)
        what = "joint %r (%s)" % (name, kind)
        if any(j.name == name for j in self.joints):
            raise ModelError("%s: a joint with this name already exists" % what)
        b1 = self._joint_body(body1, what)
        b2 = self._joint_body(body2, what)
        if b1 is b2:
            if b1.is_ground:
                raise ModelError("%s: both sides are ground; a joint needs a moving body" % what)
            raise ModelError("%s: joins body %r to itself" % (what, b1.name))
        if b1.is_ground and b2.is_ground:
            raise ModelError("%s: both sides are ground; a joint needs a moving body" % what)

        if frame1 is not None or frame2 is not None:
            f1 = _frame(frame1 if frame1 is not None else frame2, what + " frame1")
            f2 = _frame(frame2 if frame2 is not None else frame1, what + " frame2")
        else:
            if point is None:
                raise ModelError("%s: needs point= (or frame1=/frame2=)" % what)
            p = _vec3(point, what + " point")
            if "axis" in spec.needs and axis is None:
                raise ModelError("%s: needs axis=" % what)
            if spec.name == "universal":
                if axis2 is None:
                    raise ModelError("%s: needs axis2= (the cross axis on body2)" % what)
                x = _unit(axis, what + " axis")
                y = _unit(axis2, what + " axis2")
                if abs(np.dot(x, y)) > 1e-6:
                    raise ModelError("%s: axis and axis2 must be perpendicular (cos = %.3g)"
                                     % (what, np.dot(x, y)))
                y = y - np.dot(x, y) * x
                y /= np.linalg.norm(y)
                R = np.column_stack([x, y, np.cross(x, y)])
            elif axis is not None:
                R = orthonormal_frame(_unit(axis, what + " axis"))
            else:
                R = np.eye(3)
            f1 = (p, R)
            f2 = (p.copy(), R.copy())
            if "axis2" in spec.needs and spec.name != "universal":
                if axis2 is None:
                    raise ModelError("%s: needs axis2= (the joint z axis on body2)" % what)
                f2 = (p.copy(), orthonormal_frame(_unit(axis2, what + " axis2"),
                                                  x_hint=R[:, 0]))
        if "point2" in spec.needs:
            if point2 is None:
                raise ModelError("%s: needs point2= (the point on body2)" % what)
            f2 = (_vec3(point2, what + " point2"), f2[1])
            if length is None:
                length = float(np.linalg.norm(f2[0] - f1[0]))
            if not (isinstance(length, numbers.Real) and math.isfinite(length) and length > 0.0):
                raise ModelError("%s: length must be finite and positive, got %r" % (what, length))
        elif length is not None:
            raise ModelError("%s: length= only applies to distance-type joints" % what)
        if "angle" in spec.needs:
            if angle is None:
                angle = math.acos(float(np.clip(f1[1][:, 2] @ f2[1][:, 2], -1.0, 1.0)))
            angle = check_joint_angle(angle, what)
        elif angle is not None:
            raise ModelError("%s: angle= only applies to angle joints" % what)
        j = Joint(self, name, spec.name, b1, b2, f1, f2, None if length is None else float(length),
                  angle)
        j.index = len(self.joints)
        self.joints.append(j)
        return j

    def _joint_body(self, ref, what):
        try:
            return self.body(ref)
        except ModelError as exc:
            raise ModelError("%s: %s" % (what, exc)) from None

    def joint(self, ref):
        """Resolve a ``Joint`` or a joint name."""
        return _resolve(self.joints, Joint, ref, "joint")

    # ------------------------------------------------------------------ couplers
    def add_coupler(self, kind, joint1, joint2=None, ratio=None, radius=None, lead=None,
                    name=None):
        """Couple the coordinates of joints (``couplers.COUPLER_TYPES``): one constraint
        row between the two bodies they move.

        ``"gear"`` (external pair, opposite senses) and ``"belt"`` (belt, chain or
        internal gear, same sense): two revolute or cylindrical joints with parallel
        axes, ``ratio`` = N2/N1 (tooth counts, or pitch radii r2/r1: a ratio of whole
        numbers, N1 <= ``couplers.MAX_TEETH``); gear 2 turns at 1/ratio of gear 1's
        rate. The gear of a joint is its side the other joint does not share (e.g.
        both joints on ground or on one carrier). ``"rack_pinion"``: ``joint1`` the
        pinion's revolute, ``joint2`` the rack's prismatic (slide normal to the pinion
        axis), ``radius`` the pitch radius [m]: the pinion turns by s / radius about
        its joint axis as the rack moves by s along its joint axis. ``"screw"``: one
        cylindrical joint, ``lead`` [m] per turn (negative: left-handed). Returns the
        ``Coupler``; ``Result.coupler_force``/``coupler_torque`` give what it exerts on
        its second body.
        """
        from .couplers import coupler_spec, make_coupler
        spec = coupler_spec(kind)
        if name is None:
            name = "%s%d" % (spec.name, len(self.couplers) + 1)
        if not isinstance(name, str) or not name.strip():
            raise ModelError("coupler name must be a non-empty string, got %r" % (name,))
        what = "coupler %r (%s)" % (name, spec.name)
        if any(c.name == name for c in self.couplers):
            raise ModelError("%s: a coupler with this name already exists" % what)
        given = dict(ratio=ratio, radius=radius, lead=lead)
        extra = [k for k, v in given.items() if v is not None and k != spec.param]
        if extra or given[spec.param] is None:
            raise ModelError("%s: takes %s= (got %s)" % (what, spec.param,
                                                         ", ".join(extra) or "none"))
        joints = []
        for ref in (joint1, joint2):
            if ref is not None:
                try:
                    j = self.joint(ref)
                except ModelError as exc:
                    raise ModelError("%s: %s" % (what, exc)) from None
                if j.model is not self:
                    raise ModelError("%s: joint %r belongs to another model" % (what, j.name))
                joints.append(j)
        scale = max([1e-3] + [float(np.linalg.norm(b.position)) for b in self.bodies])
        c = make_coupler(self, spec.name, joints, given[spec.param], name, scale)
        c.index = len(self.couplers)
        self.couplers.append(c)
        return c

    def coupler(self, ref):
        """Resolve a ``Coupler`` or a coupler name."""
        from .couplers import Coupler
        return _resolve(self.couplers, Coupler, ref, "coupler")

    # ------------------------------------------------------------------ drivers
    def _driver_name(self, name, kind, default=None, prefix=None):
        """``(name, what)`` of a new driver: ``name``, else ``default``, else ``prefix``
        numbered by the drivers so far; checked non-empty and unique; ``what`` names
        it in errors."""
        if name is None:
            name = default if default is not None else "%s%d" % (prefix, len(self.drivers) + 1)
        what = "driver %r (%s)" % (name, kind)
        if not isinstance(name, str) or not name.strip():
            raise ModelError("driver name must be a non-empty string, got %r" % (name,))
        if any(d.name == name for d in self.drivers):
            raise ModelError("%s: a driver with this name already exists" % what)
        return name, what

    def add_driver(self, joint, position=0.0, velocity=None, acceleration=None, kind=None,
                   name=None):
        """Prescribe the motion of ``joint`` (a rheonomic constraint, see ``drivers``).

        ``position`` [rad or m] is a number (held constant), a ``callable(t)``, an
        expression text in ``t`` or a ``drivers.MotionFunction`` (constant, ramp,
        smooth steps, harmonic: derivatives analytic). ``velocity`` and
        ``acceleration`` are optional callables of a callable ``position``'s
        derivatives (otherwise complex step, or central differences). ``kind`` is
        "rotation" (the angle of joint frame 2's x axis from frame 1's, about frame
        1's z axis) or "translation" (along frame 1's z axis); default the first
        the joint has (a cylindrical joint: rotation). Both are 0 at the assembled
        initial pose. Returns the ``Driver``; ``Result.driver_effort`` gives its
        torque [N m] or force [N].
        """
        from .drivers import Driver, check_driver_joint, driver_spec, drivable_kinds, make_motion
        j = self._driver_joint(joint, name)
        if kind is None:
            kinds = drivable_kinds(j.kind)
            if not kinds:
                raise ModelError("driver %s: joint %r (%s) has no free rotation or translation "
                                 "about its z axis to drive"
                                 % ("%r" % name if name else "on it", j.name, j.kind))
            kind = kinds[0]
        spec = driver_spec(kind)
        name, what = self._driver_name(name, spec.name, "%s_%s" % (j.name, spec.name))
        check_driver_joint(what, j.name, j.kind, spec.name)
        for d in self.drivers:
            if d.joint is j and d.kind == spec.name:
                raise ModelError("%s: joint %r already has the %s driver %r"
                                 % (what, j.name, spec.name, d.name))
        if spec.target != "joint":
            raise ModelError("%s: a %s driver drives a body point: use add_point_driver"
                             % (what, spec.name))
        motion = make_motion(position, velocity, acceleration, what)
        motion.value_at(0.0)     # fails here, naming the driver, if the function is broken
        d = Driver(self, name, spec.name, j, [motion])
        return self._add_driver(d)

    def add_point_driver(self, body, trajectory, point=None, local_point=None, velocity=None,
                         acceleration=None, name=None):
        """Move a point of ``body`` along a prescribed trajectory (world axes) [m].

        The point is ``point`` (world, at t0) or ``local_point`` (body frame, from the
        CoG); default the CoG. ``trajectory`` is 3 components, each a number, a
        ``callable(t)``, an expression text or a ``drivers.MotionFunction``, or one
        ``callable(t) -> (x, y, z)`` (``velocity``/``acceleration``: optional callables
        of its derivatives). Three constraint rows in a block of their own (between
        the body and ground); ``Result.driver_effort`` gives the force [N] (n, 3) the
        driver applies to the body at the point, world axes.
        """
        from .drivers import DRIVER_POINT, Driver, split_trajectory
        name, what = self._driver_name(name, DRIVER_POINT, prefix="point_driver")
        b = self._joint_body(body, what)
        if b.is_ground:
            raise ModelError("%s: cannot drive ground" % what)
        local = _local_point(b, point, local_point, what)
        motions = split_trajectory(trajectory, velocity, acceleration, what)
        for m in motions:
            m.value_at(0.0)
        entry = (b, self.ground, (b.position + b.A_user @ local, np.eye(3)),
                 (np.zeros(3), np.eye(3)))
        d = Driver(self, name, DRIVER_POINT, None, motions, body=b, local_point=local,
                   entry=entry)
        return self._add_driver(d)

    def add_angle_driver(self, body1, body2, axis, vector1=None, vector2=None, position=0.0,
                         velocity=None, acceleration=None, name=None):
        """Prescribe the angle [rad] from ``vector1`` (fixed in ``body1``) to ``vector2``
        (fixed in ``body2``), right-handed about ``axis`` (fixed in ``body1``); all in
        world axes at t0, the vectors projected onto the plane normal to the axis
        (``vector1`` default: a vector normal to the axis; ``vector2`` default:
        ``vector1``). The angle is absolute: at t0 it is the one between the given
        vectors (0 with the defaults), and it stays continuous over many turns.
        ``body1`` may be ground (the orientation of a body vector about a world
        axis). ``position``, ``velocity``, ``acceleration`` as ``add_driver``; one
        row in a block of its own; the effort is the torque [N m] about the axis on
        ``body2``. Unlike a joint driver it does not need a joint between the bodies.
        """
        from .drivers import DRIVER_ANGLE, Driver, make_motion
        name, what = self._driver_name(name, DRIVER_ANGLE, prefix="angle_driver")
        b1 = self._joint_body(body1, what)
        b2 = self._joint_body(body2, what)
        if b1 is b2:
            raise ModelError("%s: body1 and body2 are the same body %r" % (what, b1.name))
        n = _unit(axis, what + " axis")
        R1 = orthonormal_frame(n)
        frames = []
        for vec, label in ((vector1, "vector1"), (vector2 if vector2 is not None else vector1,
                                                  "vector2")):
            if vec is None:
                x = R1[:, 0]
            else:
                v = _vec3(vec, "%s %s" % (what, label))
                x = v - np.dot(v, n) * n
                if np.linalg.norm(x) < 1e-9 * max(np.linalg.norm(v), 1e-300):
                    raise ModelError("%s: %s is parallel to the axis" % (what, label))
                x /= np.linalg.norm(x)
            frames.append(np.column_stack([x, np.cross(n, x), n]))
        motion = make_motion(position, velocity, acceleration, what)
        motion.value_at(0.0)
        p = b2.position if not b2.is_ground else b1.position
        entry = (b1, b2, (p.copy(), frames[0]), (p.copy(), frames[1]))
        d = Driver(self, name, DRIVER_ANGLE, None, [motion], entry=entry)
        d.body = b2
        return self._add_driver(d)

    def add_direction_driver(self, body, vector, direction, body1=None, velocity=None,
                             acceleration=None, name=None):
        """Point ``vector`` (fixed in ``body``; world axes at t0) along a prescribed
        direction ``d(t)``: world axes, or the axes of ``body1`` (its own orientation,
        turning with it) when given. ``direction`` is 3 components, each a number, a
        ``callable(t)``, an expression text or a ``drivers.MotionFunction``, or one
        ``callable(t) -> (x, y, z)`` (``velocity``/``acceleration``: optional callables
        of its derivatives); only its direction counts (it is normalised), and it must
        never be the zero vector. Two rows in a block of their own (2 DOF removed, the
        rotation about the vector left free); at t0 the vector must point less than 90
        degrees from ``d(0)`` (the rows also hold the opposite direction).
        ``Result.driver_effort`` gives the torque [N m] (n, 3, world axes) the driver
        applies to ``body`` (``body1`` gets the opposite); ``driver_value`` the unit
        direction (n, 3).
        """
        from .drivers import DRIVER_DIRECTION, Driver, direction_motions
        name, what = self._driver_name(name, DRIVER_DIRECTION, prefix="direction_driver")
        b = self._joint_body(body, what)
        if b.is_ground:
            raise ModelError("%s: cannot drive ground" % what)
        b1 = self.ground if body1 is None else self._joint_body(body1, what + " body1")
        if b1 is b:
            raise ModelError("%s: body1 and body are the same body %r" % (what, b.name))
        a = _vec3(vector, what + " vector")
        if np.linalg.norm(a) < 1e-12:
            raise ModelError("%s: the vector is a zero vector" % what)
        a = a / np.linalg.norm(a)
        motions = direction_motions(direction, velocity, acceleration, what)
        u0 = motions[0].unit_values([0.0])[0, :, 0]     # fails here, naming the driver
        R1 = np.eye(3) if b1.is_ground else b1.A_user
        if not np.dot(R1 @ u0, a) > 0.0:
            raise ModelError("%s: the vector %s points %.1f degrees from the prescribed "
                             "direction %s at t=0; it must be less than 90 (the driver "
                             "would hold it along the opposite direction)"
                             % (what, np.round(a, 6).tolist(),
                                math.degrees(math.acos(max(-1.0, min(1.0, np.dot(R1 @ u0, a))))),
                                np.round(R1 @ u0, 6).tolist()))
        entry = (b1, b, (b.position.copy(), R1), (b.position.copy(), orthonormal_frame(a)))
        d = Driver(self, name, DRIVER_DIRECTION, None, motions, body=b, entry=entry)
        return self._add_driver(d)

    def _add_driver(self, d):
        d.index = len(self.drivers)
        self.drivers.append(d)
        return d

    def _driver_joint(self, joint, name):
        try:
            j = self.joint(joint)
        except ModelError as exc:
            raise ModelError("driver %r: %s" % (name, exc)) from None
        if j.model is not self:
            raise ModelError("driver %r: joint %r belongs to another model" % (name, j.name))
        return j

    def driver(self, ref):
        """Resolve a ``Driver`` or a driver name."""
        from .drivers import Driver
        return _resolve(self.drivers, Driver, ref, "driver")

    # ------------------------------------------------------------------ loads
    def add_force(self, body, force, point=None, local_point=None, frame="world", name=None):
        """Apply ``force`` [N] (3 floats or ``callable(t)``) to ``body``.

        The application point is ``point`` (world coordinates at t0) or
        ``local_point`` (body frame, from the CoG); default the CoG. With
        ``frame="body"`` the force components are in the body frame and turn
        with it.
        """
        return self._add_load("force", body, force, point, local_point, frame, name)

    def add_torque(self, body, torque, frame="world", name=None):
        """Apply a pure torque [N m] (3 floats or ``callable(t)``) to ``body``."""
        return self._add_load("torque", body, torque, None, None, frame, name)

    def _add_load(self, kind, body, value, point, local_point, frame, name):
        if name is None:
            name = "%s%d" % (kind, len(self.loads) + 1)
        what = "%s %r" % (kind, name)
        if not isinstance(name, str) or not name.strip():
            raise ModelError("load name must be a non-empty string, got %r" % (name,))
        if any(ld.name == name for ld in self.loads):
            raise ModelError("%s: a load with this name already exists" % what)
        b = self._joint_body(body, what)
        if b.is_ground:
            raise ModelError("%s: cannot be applied to ground" % what)
        if frame not in ("world", "body"):
            raise ModelError("%s: frame must be 'world' or 'body', got %r" % (what, frame))
        if not callable(value):
            value = _vec3(value, what)
        local = _local_point(b, point, local_point, what)
        load = Load(self, name, kind, b, value, frame, local)
        load.index = len(self.loads)
        self.loads.append(load)
        return load

    # ------------------------------------------------------------------ force elements
    def add_spring(self, body1, point1, body2, point2, stiffness, free_length=None, damping=0.0,
                   preload=0.0, name=None):
        """Spring(-damper) between ``point1`` of ``body1`` and ``point2`` of ``body2``
        (world coordinates at t0). ``stiffness`` [N/m] and ``damping`` [N s/m] are
        numbers or tables of (deflection [m], force [N]) / (rate [m/s], force [N])
        rows; ``free_length`` [m] defaults to the distance at t0; ``preload`` [N]
        pushes the points apart. The force is ``preload - K(L - L0) - C(L_dot)``
        along the line from point1 to point2, on body2 (opposite on body1)."""
        return self._add_point_element("spring_damper", name, body1, point1, body2, point2,
                                       dict(stiffness=stiffness, damping=damping,
                                            free_length=free_length, preload=preload))

    def add_damper(self, body1, point1, body2, point2, damping, name=None):
        """Damper [N s/m, or a table of (rate, force)] on the rate of change of the
        distance of two body points (world coordinates at t0)."""
        return self._add_point_element("damper", name, body1, point1, body2, point2,
                                       dict(damping=damping))

    def add_contractile_force(self, body1, point1, body2, point2, force, name=None):
        """A force of constant magnitude ``force`` [N] pulling two body points together."""
        return self._add_point_element("contractile", name, body1, point1, body2, point2,
                                       dict(force=force))

    def add_joint_spring(self, joint, stiffness, damping=0.0, rest=None, dof="rotation",
                         name=None):
        """Torsional (``dof="rotation"``, about the joint z axis: k [N m/rad], c [N m s/rad])
        or linear (``"translation"``, along it: [N/m], [N s/m]) spring and damper on
        ``joint``. ``rest`` is the rest angle [rad] (frame 2's x axis from frame 1's,
        about z1) or slide [m] (``(P2 - P1) . z1``); default its value at t0."""
        return self._add_joint_element("joint_spring", name, joint,
                                       dict(stiffness=stiffness, damping=damping, rest=rest,
                                            dof=dof))

    def add_joint_actuator(self, joint, value, dof=None, name=None):
        """Prescribed moment [N m] about (``dof="rotation"``) or force [N] along
        (``"translation"``) the joint z axis: on body2, the opposite on body1;
        constant or ``callable(t)``. ``dof`` defaults to the joint's first DOF."""
        if dof is None:
            j = self._force_joint(joint, "joint actuator")
            dof = JOINT_DOFS.get(j.kind, ("rotation",))[0]
        return self._add_joint_element("joint_actuator", name, joint, dict(value=value, dof=dof))

    def add_joint_stop(self, joint, lower=None, upper=None, stiffness=1e6, exponent=1.5,
                       damping=0.0, penetration=1e-4, dof=None, name=None, law="compliant",
                       restitution=0.5, rest_speed=1e-3):
        """A compliant end stop (joint limit) on ``joint``'s angle (``dof="rotation"``, about
        the joint z axis, [rad]; unwrapped: limits past +-pi count turns) or slide
        (``"translation"``, along it, [m]); ``lower`` and/or ``upper`` limit. Past a limit by
        the penetration ``p`` it pushes back with Adams' IMPACT law
        ``max(0, k p^e + STEP(p, 0, 0, d_max, c_max) p_dot)`` (``stiffness`` k [N/m^e or
        N m/rad^e], ``exponent`` e, ``damping`` c_max [N s/m or N m s/rad],
        ``penetration`` d_max [m or rad]). ``dof`` defaults to the joint's first DOF.

        ``law="impulsive"``: each impact is an impulse with Newton's coefficient of
        ``restitution`` e (rebound speed = e x impact speed; the whole mechanism's velocity
        jump, ``solver.impacts``; fixed-step methods only); an approach slower than
        ``rest_speed`` [m/s or rad/s] rests on the stop, held by the IMPACT law above (give
        it damping to come to rest)."""
        if dof is None:
            j = self._force_joint(joint, "end stop")
            dof = JOINT_DOFS.get(j.kind, ("rotation",))[0]
        return self._add_joint_element("joint_stop", name, joint, dict(
            lower=lower, upper=upper, stiffness=stiffness, exponent=exponent, damping=damping,
            penetration=penetration, dof=dof, law=law, restitution=restitution,
            rest_speed=rest_speed))

    def add_contact(self, body1, body2, shape1, shape2, name=None, **params):
        """Contact between ``body1``'s solid ``shape1`` and ``body2``'s ``shape2``
        (``solver.contact``: ``contact.sphere``, ``.convex``, ``.cylinder`` or, second
        only, ``.half_space``; world coordinates at t0; the second shape is exact, the
        first its sample points). Where they overlap by ``p`` the normal
        force is Adams' IMPACT law ``max(0, k p^e + STEP(p, 0, 0, d_max, c_max) p_dot)``
        (``stiffness`` k [N/m^e], ``exponent`` e, ``damping`` c_max [N s/m],
        ``penetration`` d_max [m]) or, ``law="hunt_crossley"``, ``k p^e (1 + 3 (1 - e_r)
        / (2 v0) p_dot)`` (``restitution`` e_r at the ``impact_speed`` v0 [m/s]); Coulomb
        friction ``mu_static`` below the ``stiction_speed`` [m/s], ``mu_dynamic`` above the
        ``friction_speed`` [m/s], a smooth step between (Adams' CONTACT)."""
        from .contact import check_pair
        name = self._element_name("contact", name)
        what = "contact %r" % name
        b1 = self._joint_body(body1, what)
        b2 = self._joint_body(body2, what)
        if b1 is b2:
            raise ModelError("%s: both solids are on %s" % (what, b1.name))
        check_pair(what, shape1, shape2)
        params = check_element("contact", name, params)
        e = ForceElement(self, name, "contact", params, body1=b1, body2=b2,
                         shapes=(shape1, shape2))
        e.x0 = 0.0
        return self._append_element(e)

    def force_element(self, ref):
        """Resolve a ``ForceElement`` or a force element's name."""
        return _resolve(self.force_elements, ForceElement, ref, "force element")

    def _element_name(self, kind, name):
        if name is None:
            name = "%s%d" % (kind, len(self.force_elements) + 1)
        if any(e.name == name for e in self.force_elements):
            raise ModelError("force element %r: an element with this name already exists" % name)
        return name

    def _add_point_element(self, kind, name, body1, point1, body2, point2, params):
        name = self._element_name(kind, name)
        what = "%s %r" % (kind, name)
        b1 = self._joint_body(body1, what)
        b2 = self._joint_body(body2, what)
        if b1 is b2:
            raise ModelError("%s: both points are on %s" % (what, b1.name))
        X = (_vec3(point1, what + " point1"), _vec3(point2, what + " point2"))
        params = check_element(kind, name, params, points=X)
        e = ForceElement(self, name, kind, params, body1=b1, body2=b2, points=X)
        e.x0 = params.get("free_length") or 0.0
        return self._append_element(e)

    def _force_joint(self, joint, what):
        try:
            return self.joint(joint)
        except ModelError as exc:
            raise ModelError("%s: %s" % (what, exc)) from None

    def _add_joint_element(self, kind, name, joint, params):
        name = self._element_name(kind, name)
        j = self._force_joint(joint, "%s %r" % (kind, name))
        params = check_element(kind, name, params, joint_name=j.name, joint_kind=j.kind)
        e = ForceElement(self, name, kind, params, joint=j)
        rest = params.get("rest")
        e.x0 = joint_coordinate(j.frame1, j.frame2, e.geometry) if rest is None else rest
        return self._append_element(e)

    def _append_element(self, e):
        e.index = len(self.force_elements)
        self.force_elements.append(e)
        return e

    # ------------------------------------------------------------------ analysis
    def degrees_of_freedom(self):
        """Gruebler count ``6 N - (constraint rows)`` (ignores redundancy)."""
        return 6 * len(self.bodies) - sum(len(j.spec.rows) for j in self.joints) \
            - len(self.couplers)

    def dof_report(self, **kw):
        """Mobility diagnostics at t0 (``dof.dof_report``): Gruebler count against the
        rank of the constraint Jacobian, redundant equations by joint, singular
        configurations, locked or over-driven mechanisms."""
        from .dof import dof_report
        return dof_report(self, **kw)

    def compile(self, **settings):
        """Freeze the model into flat arrays (``System``)."""
        from .system import System
        return System(self, **settings)

    def simulate(self, t_end, dt=None, method="rk4", output_dt=None, rtol=1e-8, atol=1e-10,
                 t0=0.0, baumgarte=None, time_constant=None, damping_ratio=1.0,
                 regularization=1e-12, assemble=True, progress=None, violation_limit=0.5):
        """Integrate from ``t0`` to ``t_end`` and return a ``Result``.

        Parameters
        ----------
        t_end : float
            End time [s].
        dt : float
            Step [s] of the fixed-step methods ("euler", "symplectic_euler",
            "rk4"); for SciPy methods an optional maximum step.
        method : str
            "euler", "symplectic_euler", "rk4", or SciPy's "RK45", "DOP853",
            "Radau", "BDF", "LSODA" (which use ``rtol``/``atol``).
        output_dt : float
            Output sampling interval [s], independent of ``dt`` (default:
            ``max(dt, t_end/1000)``).
        baumgarte : (alpha, beta)
            Baumgarte constants [1/s] of ``gamma* = gamma - 2 alpha Phi_dot -
            beta^2 Phi``. Alternatively ``time_constant`` [s] and
            ``damping_ratio``: ``beta = 1/time_constant``,
            ``alpha = damping_ratio/time_constant``. Default time constant
            ``max(0.02, 5 dt)`` s, critically damped.
        regularization : float
            Tikhonov ``eps`` of each constraint row, relative to that row's
            diagonal entry of ``Phi_q M^-1 Phi_q^T`` at t0 (default 1e-12). It
            only keeps the factorisation regular: the multipliers are refined
            to the unregularised solution, so results do not depend on it
            (docs/theory.md); rows found redundant get 1 x their diagonal.
        assemble : bool
            Project the initial positions and velocities onto the constraints.
        progress : callable(t, t_end) -> bool or None
            Called between chunks of integration; returning False cancels
            (``SimulationCancelled`` carries the partial result).
        violation_limit : float
            Integration stops when max |Phi| (lengths relative to the model size,
            angles in radians) exceeds this. Smaller residuals that still exceed
            1e-6 are reported in ``Result.warnings``.
        """
        from .simulation import simulate
        return simulate(self, t_end=t_end, dt=dt, method=method, output_dt=output_dt, rtol=rtol,
                        atol=atol, t0=t0, baumgarte=baumgarte, time_constant=time_constant,
                        damping_ratio=damping_ratio, regularization=regularization,
                        assemble=assemble, progress=progress, violation_limit=violation_limit)

    def kinematic(self, t_end, output_dt, t0=0.0, progress=None):
        """Kinematic analysis of a fully driven mechanism (every degree of freedom
        has a driver): positions, velocities and accelerations from the constraint
        equations alone, then reactions and driver efforts by inverse dynamics.
        Returns a ``Result`` like ``simulate``; ``ModelError`` names the degrees of
        freedom left when the mechanism is not fully driven. See ``kinematics``."""
        from .kinematics import kinematic
        return kinematic(self, t_end=t_end, output_dt=output_dt, t0=t0, progress=progress)


def _resolve(items, cls, ref, what):
    """``ref`` itself when it is a ``cls``, else the one of ``items`` named ``ref``."""
    if isinstance(ref, cls):
        return ref
    for item in items:
        if item.name == ref:
            return item
    raise ModelError("unknown %s %r" % (what, ref))


def _frame(frame, what):
    try:
        pos, rot = frame
    except (TypeError, ValueError):
        raise ModelError("%s: expected (position, rotation)" % what) from None
    p = _vec3(pos, what + " position")
    try:
        R = as_rotation_matrix(rot, what + " rotation")
    except ValueError as exc:
        raise ModelError(str(exc)) from None
    return p, R


def _principal_axes_near_identity(I, rel_tol=1e-10):
    """Eigen-decomposition ``I = V diag(w) V^T`` with V a rotation as close to the
    identity as the tensor allows.

    Equal moments leave the axes free within their eigenspace: there the
    coordinate axes with the largest projections are taken (so a tensor that is
    already diagonal gives ``V = I``, whatever the equalities). Columns are then
    matched to the coordinate axes they are closest to and signed positively.
    """
    w, V = np.linalg.eigh(I)
    tol = rel_tol * max(abs(w).max(), 1e-300)
    E = np.eye(3)
    # clusters of (nearly) equal eigenvalues
    start = 0
    while start < 3:
        stop = start + 1
        while stop < 3 and w[stop] - w[start] <= tol:
            stop += 1
        d = stop - start
        if d > 1:
            P = V[:, start:stop] @ V[:, start:stop].T        # projector onto the eigenspace
            cand = sorted(range(3), key=lambda k: -np.linalg.norm(P @ E[:, k]))[:d]
            basis = []
            for k in cand:
                v = P @ E[:, k]
                for u in basis:
                    v = v - np.dot(u, v) * u
                basis.append(v / np.linalg.norm(v))
            V[:, start:stop] = np.column_stack(basis)
        start = stop
    best = [int(np.argmax(np.abs(V[:, c]))) for c in range(3)]
    if sorted(best) == [0, 1, 2]:
        order = [best.index(k) for k in range(3)]
        V = V[:, order]
        w = w[order]
        for k in range(3):
            if V[k, k] < 0.0:
                V[:, k] = -V[:, k]
    if np.linalg.det(V) < 0.0:
        V[:, 2] = -V[:, 2]
    return w, V


def _principal_inertia(inertia, A_user, what):
    """Principal moments and the principal frame (world, t0) of the given inertia."""
    try:
        I = np.asarray(inertia, dtype=float)
    except (TypeError, ValueError):
        raise ModelError("%s: inertia must be 3 numbers or a 3x3 matrix" % what) from None
    if I.shape == (3,):
        if not np.all(np.isfinite(I)):
            raise ModelError("%s: inertia must be finite, got %r" % (what, inertia))
        moments = I.copy()
        A_principal = A_user.copy()
    elif I.shape == (3, 3):
        if not np.all(np.isfinite(I)):
            raise ModelError("%s: inertia must be finite, got %r" % (what, inertia))
        scale = max(np.abs(I).max(), 1e-300)
        if np.abs(I - I.T).max() > 1e-9 * scale:
            raise ModelError("%s: inertia tensor is not symmetric" % what)
        # Diagonalise in the user's body frame and pick the principal axes closest
        # to the user's axes (unique even for equal moments, e.g. a round rod).
        I_user = A_user.T @ (0.5 * (I + I.T)) @ A_user
        moments, V = _principal_axes_near_identity(I_user)
        A_principal = A_user @ V
    else:
        raise ModelError("%s: inertia must be 3 principal moments or a 3x3 tensor, got shape %s"
                         % (what, I.shape))
    if np.any(moments <= 0.0):
        raise ModelError("%s: inertia is not positive definite (principal moments %s)"
                         % (what, np.array2string(moments, precision=6)))
    tol = 1e-9 * moments.sum()
    for a in range(3):
        if moments[a] > moments[(a + 1) % 3] + moments[(a + 2) % 3] + tol:
            raise ModelError("%s: inertia violates the triangle inequality (principal moments %s): "
                             "no rigid body has these moments"
                             % (what, np.array2string(moments, precision=6)))
    return moments, A_principal
