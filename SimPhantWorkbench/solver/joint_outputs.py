"""Joint outputs of a ``Result``: relative motion across each joint and joint-frame
reactions, post-processed (vectorised over the samples) from the stored poses.

Conventions (docs/theory.md, "Joint outputs"):

* joint frame *k* (k = 1, 2) is the frame fixed in the joint's body k (``frame1``,
  ``frame2`` of the joint), ``R_k`` its axes in world, ``P_k`` its origin;
* relative translation ``R_1^T (P_2 - P_1)``: frame 2's origin in frame 1;
  relative rotation ``R_1^T R_2``: frame 2's axes in frame 1;
* joint angle: of frame 2's x axis against frame 1's x axis, right-handed about frame
  1's z axis, ``atan2(y_1 . x_2, x_1 . x_2)``, unwrapped over time (several turns go
  on counting); slide: ``(P_2 - P_1) . z_1``;
* their rates are the exact time derivatives on the constraint manifold:
  ``(w_2 - w_1) . z_1`` and ``d/dt [(P_2 - P_1) . z_1]`` from the stored velocities and
  accelerations;
* reactions in the joint frame: the force and torque the joint exerts on body 2, in joint
  frame 1: components along its axes (``R_1^T F``), the torque about its origin
  ``P_1`` (``Result.reaction_torque(joint, frame="joint")``; ``about="body2"`` keeps the
  point of body 2).

Which coordinates a joint kind has follows from its rows in the registry: an angle
when rotation about z is free while rotations about x and y are not (revolute,
cylindrical, planar), a slide when translation along z is free while x and y are not
(prismatic, cylindrical).
"""
import numpy as np

__all__ = ["JointOutputs", "joint_frames_meta", "joint_coordinates", "ANGLE", "SLIDE"]

ANGLE = "angle"
SLIDE = "slide"


def joint_frames_meta(system):
    """Per model joint: its bodies (None = ground), its two joint frames' axes ``R1``,
    ``R2`` and points ``P1``, ``P2`` in the body's own frame (the points from its centre
    of mass; world for ground), as JSON-able lists (stored with a result)."""
    S = system.S
    nb = S.nb
    model = system.model
    out = []
    for k, j in enumerate(model.joints):
        s = int(system.joint_pos[k])
        entry = {}
        for side, body in ((0, j.body1), (1, j.body2)):
            b = int(S.jnt_slot[s, side])
            R = S.jnt_frame[s, side] if b >= nb else system.R_pu[b].T @ S.jnt_frame[s, side]
            P = S.jnt_anchor[s, side] if b >= nb else system.R_pu[b].T @ S.jnt_anchor[s, side]
            entry["body%d" % (side + 1)] = None if b >= nb else body.name
            entry["R%d" % (side + 1)] = [float(x) for x in np.asarray(R).reshape(-1)]
            entry["P%d" % (side + 1)] = [float(x) for x in np.asarray(P).reshape(-1)]
        out.append(entry)
    return out


def joint_coordinates(kind):
    """The relative coordinates of a joint kind: a list of ``"angle"`` and ``"slide"``."""
    from .dof import twist_directions
    from .joints import JOINT_TYPES
    D = twist_directions(JOINT_TYPES[kind])
    if D is None:
        return []
    r = np.linalg.matrix_rank(D)

    def free(k):
        return np.linalg.matrix_rank(np.vstack([D, np.eye(6)[k]])) > r

    out = []
    if free(5) and not free(3) and not free(4):
        out.append(ANGLE)
    if free(2) and not free(0) and not free(1):
        out.append(SLIDE)
    return out


def _dot(a, b):
    return np.einsum("ni,ni->n", a, b)


class JointOutputs:
    """Mixin of ``Result``: joint coordinates, rates, relative motion and joint-frame
    reactions. Joints are addressed by ``Joint`` object or name."""

    # ------------------------------------------------------------ frames and sides
    def _jframes(self, joint):
        k = self._j(joint)
        frames = getattr(self, "joint_frames", None)
        if not frames:
            raise ValueError("this result carries no joint frames (saved by an older "
                             "version): run the study again for joint outputs")
        return k, frames[k]

    def _side(self, joint, side):
        """(rotation (n,3,3), body name or None) of joint frame ``side`` (1 or 2)."""
        k, f = self._jframes(joint)
        R = np.asarray(f["R%d" % side], dtype=float).reshape(3, 3)
        body = f["body%d" % side]
        n = len(self.t)
        if body is None:
            return np.broadcast_to(R, (n, 3, 3)).copy(), None
        return self.rotation_matrix(body) @ R, body

    def _kin(self, body, P):
        """World velocity, acceleration of the body point at P (n,3) and the body's
        angular velocity, acceleration; zeros for ground."""
        n = len(self.t)
        if body is None:
            z = np.zeros((n, 3))
            return z, z, z, z
        s = P - self.position(body)
        w = self.angular_velocity(body)
        al = self.angular_acceleration(body)
        v = self.velocity(body) + np.cross(w, s)
        a = self.acceleration(body) + np.cross(al, s) + np.cross(w, np.cross(w, s))
        return v, a, w, al

    def joint_frame(self, joint, side="body1"):
        """World axes (columns) of a joint frame over time, (n, 3, 3); ``side`` "body1"
        or "body2"."""
        if side not in ("body1", "body2"):
            raise ValueError("side must be 'body1' or 'body2', got %r" % (side,))
        return self._side(joint, 1 if side == "body1" else 2)[0]

    # ------------------------------------------------------------ general relative motion
    def joint_relative_translation(self, joint):
        """Position [m] of joint frame 2's origin in joint frame 1 (its axes), (n, 3)."""
        R1, _ = self._side(joint, 1)
        d = self.joint_point(joint, "body2") - self.joint_point(joint, "body1")
        return np.einsum("nji,nj->ni", R1, d)

    def joint_relative_rotation(self, joint, form="matrix"):
        """Rotation of joint frame 2 relative to frame 1, ``R_1^T R_2``: (n, 3, 3), or
        with ``form="rotvec"`` the rotation vector (axis x angle [rad], frame 1 axes)."""
        R1, _ = self._side(joint, 1)
        R2, _ = self._side(joint, 2)
        Q = np.einsum("nji,njk->nik", R1, R2)
        if form == "matrix":
            return Q
        if form == "rotvec":
            return _rotvec(Q)
        raise ValueError("form must be 'matrix' or 'rotvec', got %r" % (form,))

    # ------------------------------------------------------------ joint coordinates
    def joint_dofs(self, joint):
        """The coordinates ``joint_position`` offers for this joint: "angle", "slide"."""
        k = self._j(joint)
        return joint_coordinates(self.joint_kinds[k]) if k < len(self.joint_kinds) else []

    def _dof(self, joint, dof):
        avail = self.joint_dofs(joint)
        k = self._j(joint)
        if dof is None:
            if len(avail) == 1:
                return avail[0]
            if not avail:
                raise ValueError("joint %r (%s) has no angle or slide; use "
                                 "joint_relative_translation / joint_relative_rotation"
                                 % (self.joint_names[k], self.joint_kinds[k]))
            raise ValueError("joint %r (%s) has %s: choose with dof=" % (
                self.joint_names[k], self.joint_kinds[k], " and ".join(avail)))
        if dof not in avail:
            raise ValueError("joint %r (%s) has no %r (it has: %s)" % (
                self.joint_names[k], self.joint_kinds[k], dof, ", ".join(avail) or "none"))
        return dof

    def joint_position(self, joint, dof=None):
        """Joint angle [rad] (unwrapped) or slide [m] over time, (n,). ``dof``: "angle"
        or "slide"; needed only for joints with both (cylindrical)."""
        dof = self._dof(joint, dof)
        if dof == ANGLE:
            Q = self.joint_relative_rotation(joint)
            return np.unwrap(np.arctan2(Q[:, 1, 0], Q[:, 0, 0]))
        return self.joint_relative_translation(joint)[:, 2]

    def _rates(self, joint, dof):
        R1, b1 = self._side(joint, 1)
        _, b2 = self._side(joint, 2)
        z1 = R1[:, :, 2]
        P1 = self.joint_point(joint, "body1")
        P2 = self.joint_point(joint, "body2")
        v1, a1, w1, al1 = self._kin(b1, P1)
        v2, a2, w2, al2 = self._kin(b2, P2)
        wz = np.cross(w1, z1)                   # dz1/dt
        if dof == ANGLE:
            wr = w2 - w1
            return _dot(wr, z1), _dot(al2 - al1, z1) + _dot(wr, wz)
        d = P2 - P1
        dd = v2 - v1
        ddd = a2 - a1
        zdd = np.cross(al1, z1) + np.cross(w1, wz)
        return _dot(dd, z1) + _dot(d, wz), _dot(ddd, z1) + 2.0 * _dot(dd, wz) + _dot(d, zdd)

    def joint_velocity(self, joint, dof=None):
        """Rate of ``joint_position`` [rad/s or m/s], (n,)."""
        return self._rates(joint, self._dof(joint, dof))[0]

    def joint_acceleration(self, joint, dof=None):
        """Second time derivative of ``joint_position`` [rad/s^2 or m/s^2], (n,)."""
        return self._rates(joint, self._dof(joint, dof))[1]

    # ------------------------------------------------------------ reactions
    def _in_joint_frame(self, joint, V):
        R1, _ = self._side(joint, 1)
        return np.einsum("nji,nj->ni", R1, V)


def _rotvec(Q):
    """Rotation vectors of rotation matrices (n, 3, 3)."""
    tr = np.clip((np.trace(Q, axis1=1, axis2=2) - 1.0) / 2.0, -1.0, 1.0)
    ang = np.arccos(tr)
    v = np.stack([Q[:, 2, 1] - Q[:, 1, 2], Q[:, 0, 2] - Q[:, 2, 0], Q[:, 1, 0] - Q[:, 0, 1]],
                 axis=1)
    out = np.zeros((len(Q), 3))
    small = ang < 1e-6
    s = np.sin(ang)
    big = ~small & (ang < np.pi - 1e-6)
    out[big] = v[big] * (ang[big] / (2.0 * s[big]))[:, None]
    out[small] = 0.5 * v[small]
    for i in np.nonzero(~small & ~big)[0]:        # near pi: from the symmetric part
        B = (Q[i] + np.eye(3)) / 2.0
        c = int(np.argmax(np.diag(B)))
        axis = B[:, c] / np.sqrt(max(B[c, c], 1e-300))
        if np.dot(axis, v[i]) < 0.0:
            axis = -axis
        out[i] = axis * ang[i]
    return out
