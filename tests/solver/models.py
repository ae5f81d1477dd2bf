"""Model zoo shared by the solver tests and the benchmarks (sympy.mechanics style)."""
import math

import numpy as np

from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.solver.rotations import quat_from_axis_angle, quat_multiply, quat_to_matrix


def random_rotation(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def random_inertia(rng):
    """Principal moments that satisfy the triangle inequality."""
    while True:
        m = rng.uniform(0.05, 1.0, size=3)
        if all(m[a] <= m[(a + 1) % 3] + m[(a + 2) % 3] for a in range(3)):
            return m


def retract(Y, nb, b, dv, h):
    """State moved by h along velocity-space direction dv (6,) of body b (body-frame rotation)."""
    Y = Y.copy()
    p = 7 * b
    Y[p:p + 3] += h * dv[:3]
    th = h * np.asarray(dv[3:], dtype=float)
    ang = np.linalg.norm(th)
    if ang > 0:
        Y[p + 3:p + 7] = quat_multiply(Y[p + 3:p + 7], quat_from_axis_angle(th / ang, ang))
    return Y


def jacobian_fd(phi_of, Y, nb, h=1e-6):
    """Central differences of ``phi_of(Y)`` along each body's 6 velocity-space directions
    (``retract``): the finite-difference counterpart of the constraint Jacobian."""
    cols = []
    for b in range(nb):
        for c in range(6):
            e = np.zeros(6)
            e[c] = 1.0
            cols.append((phi_of(retract(Y, nb, b, e, h)) - phi_of(retract(Y, nb, b, e, -h)))
                        / (2 * h))
    return np.column_stack(cols)


def flow(Y, nb, h):
    """State after time h of motion with constant v and constant body-frame omega."""
    Y = Y.copy()
    for b in range(nb):
        v = Y[7 * nb + 6 * b:7 * nb + 6 * b + 6]
        Y = retract(Y, nb, b, v, h)
    return Y


def inertia_tensor_along(axis, i_axial, i_transverse):
    a = np.asarray(axis, dtype=float)
    a = a / np.linalg.norm(a)
    return i_transverse * (np.eye(3) - np.outer(a, a)) + i_axial * np.outer(a, a)


def chain(n, kind="revolute", length=1.0, mass=1.0, radius=0.02, gravity=(0, 0, -9.81)):
    """N-link pendulum: bars along x, joint i at (i L, 0, 0), revolute about y (or spherical)."""
    m = Model(gravity=gravity)
    i_ax = 0.5 * mass * radius ** 2
    i_tr = mass * (3 * radius ** 2 + length ** 2) / 12.0
    prev = m.ground
    bodies, joints = [], []
    for i in range(n):
        b = m.add_body("bar%d" % i, mass=mass, inertia=(i_ax, i_tr, i_tr),
                       position=((i + 0.5) * length, 0.0, 0.0))
        kw = dict(point=(i * length, 0.0, 0.0))
        if kind == "revolute":
            kw["axis"] = (0.0, 1.0, 0.0)
        joints.append(m.add_joint(kind, prev, b, name="J%d" % i, **kw))
        bodies.append(b)
        prev = b
    return m, bodies, joints


def four_bar(gravity=(0, 0, -9.81)):
    """Planar four-bar of revolutes with parallel axes (redundant in 3-D): crank 0.3, coupler 1.0,
    rocker 0.8, ground 0.9, in the x-z plane, axes along y."""
    m = Model(gravity=gravity)
    A = np.array([0.0, 0.0, 0.0])
    D = np.array([0.9, 0.0, 0.0])
    B = A + 0.3 * np.array([math.cos(1.2), 0.0, math.sin(1.2)])
    # C: |C - B| = 1.0, |C - D| = 0.8 (upper solution)
    dBD = D - B
    L = np.linalg.norm(dBD)
    a = (1.0 ** 2 - 0.8 ** 2 + L ** 2) / (2 * L)
    hgt = math.sqrt(1.0 ** 2 - a ** 2)
    e = dBD / L
    perp = np.array([-e[2], 0.0, e[0]])
    C = B + a * e + hgt * perp
    links = []
    for name, P, Q, mass in (("crank", A, B, 0.3), ("coupler", B, C, 1.0), ("rocker", D, C, 0.8)):
        axis = Q - P
        length = np.linalg.norm(axis)
        links.append(m.add_body(name, mass=mass,
                                inertia=inertia_tensor_along(axis, 1e-4 * mass,
                                                             mass * length ** 2 / 12.0),
                                position=0.5 * (P + Q)))
    y = (0.0, 1.0, 0.0)
    joints = [m.add_joint("revolute", m.ground, links[0], point=A, axis=y, name="A"),
              m.add_joint("revolute", links[0], links[1], point=B, axis=y, name="B"),
              m.add_joint("revolute", links[1], links[2], point=C, axis=y, name="C"),
              m.add_joint("revolute", links[2], m.ground, point=D, axis=y, name="D")]
    return m, links, joints


BRICARD_POINTS = [(0, 0, 0), (1, 0, 0), (1, -1, 0), (1, -1, 1), (0, -1, 1), (0, 0, 1)]
BRICARD_AXES = [(0, 1, 0), (0, 0, 1), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 0, 0)]


def bricard():
    """Bricard mechanism: 5 unit links (1 kg, 0.1 m square section) and 6 revolutes; gravity -y."""
    m = Model(gravity=(0.0, -9.81, 0.0))
    P = [np.array(p, dtype=float) for p in BRICARD_POINTS]
    links = []
    for i in range(5):
        axis = P[i + 1] - P[i]
        links.append(m.add_body("link%d" % i, mass=1.0,
                                inertia=inertia_tensor_along(axis, 0.0016667, 0.0841667),
                                position=0.5 * (P[i] + P[i + 1])))
    ends = [m.ground] + links + [m.ground]
    joints = [m.add_joint("revolute", ends[i], ends[i + 1], point=P[i], axis=BRICARD_AXES[i],
                          name="J%d" % i) for i in range(6)]
    return m, links, joints


def compound_pendulum(length=1.0, mass=2.0, radius=0.05, theta0=0.1, gravity=9.81):
    """Rod of ``length`` hinged at its top end (origin) about world y, hanging along -z
    at theta = 0, released from rest at ``theta0`` [rad]. Body z runs along the rod."""
    m = Model(gravity=(0.0, 0.0, -gravity))
    i_ax = 0.5 * mass * radius ** 2
    i_tr = mass * (3 * radius ** 2 + length ** 2) / 12.0
    d = 0.5 * length
    q = quat_multiply(quat_from_axis_angle((0, 1, 0), theta0),
                      quat_from_axis_angle((1, 0, 0), math.pi))   # body z -> -z, then swing
    pos = quat_to_matrix(q) @ np.array([0.0, 0.0, d])
    b = m.add_body("rod", mass=mass, inertia=(i_tr, i_tr, i_ax), position=pos, orientation=q)
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0), name="hinge")
    i_o = i_tr + mass * d * d
    return m, b, j, dict(I_O=i_o, m=mass, d=d, g=gravity)


def swing_angle(r, b):
    """Angle of the rod from the downward vertical, positive about +y."""
    p = r.position(b)
    return np.arctan2(p[:, 0], -p[:, 2])


def period_from_crossings(t, theta):
    """Mean period from upward zero crossings (linear interpolation)."""
    s = np.nonzero((theta[:-1] < 0) & (theta[1:] >= 0))[0]
    tc = t[s] - theta[s] * (t[s + 1] - t[s]) / (theta[s + 1] - theta[s])
    return (tc[-1] - tc[0]) / (len(tc) - 1), len(tc) - 1


def bob(inertia_ratio, length=1.0, mass=1.0, gravity=9.81):
    """A point-like bob: a body of ``mass`` with small equal principal moments
    ``inertia_ratio * mass * length^2`` on a revolute (axis y) ``length`` from its
    CoG, released from rest horizontally (along +x); gravity -z."""
    m = Model(gravity=(0.0, 0.0, -gravity))
    i = inertia_ratio * mass * length ** 2
    b = m.add_body("bob", mass=mass, inertia=(i, i, i), position=(length, 0.0, 0.0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0), name="pivot")
    return m, b, j, dict(I_O=i + mass * length ** 2, m=mass, d=length, g=gravity)


def mass_ratio_chain(masses, length=1.0, radius=0.02, gravity=(0, 0, -9.81)):
    """Revolute chain like ``chain`` with one mass per bar (same shape: inertia
    proportional to the mass), released horizontally from rest."""
    m = Model(gravity=gravity)
    prev = m.ground
    bodies, joints = [], []
    for i, mass in enumerate(masses):
        i_ax = 0.5 * mass * radius ** 2
        i_tr = mass * (3 * radius ** 2 + length ** 2) / 12.0
        b = m.add_body("bar%d" % i, mass=mass, inertia=(i_ax, i_tr, i_tr),
                       position=((i + 0.5) * length, 0.0, 0.0))
        joints.append(m.add_joint("revolute", prev, b, point=(i * length, 0.0, 0.0),
                                  axis=(0.0, 1.0, 0.0), name="J%d" % i))
        bodies.append(b)
        prev = b
    return m, bodies, joints


def parallelogram_chain(cells=40, theta0=math.radians(60.0), radius=0.02, gravity=(0, 0, -9.81)):
    """Planar chain of ``cells`` parallelogram four-bars in the x-z plane: ``cells + 1``
    unit cranks hinged to ground at x = 0, 1, ..., cells (axes along y), their tips
    joined by ``cells`` unit couplers (2 cells + 1 bars, 3 cells + 1 revolutes, 1 DOF,
    many redundant equations). Released from rest with the cranks at ``theta0``
    above +x: they swing through theta = 0, where all bars align on the x axis."""
    m = Model(gravity=gravity)
    mass = 1.0
    i_ax = 0.5 * mass * radius ** 2
    i_tr = mass * (3 * radius ** 2 + 1.0) / 12.0
    e = np.array([math.cos(theta0), 0.0, math.sin(theta0)])
    y = (0.0, 1.0, 0.0)
    cranks, couplers, joints = [], [], []
    for i in range(cells + 1):
        G = np.array([float(i), 0.0, 0.0])
        c = m.add_body("crank%d" % i, mass=mass, inertia=inertia_tensor_along(e, i_ax, i_tr),
                       position=G + 0.5 * e)
        cranks.append(c)
        joints.append(m.add_joint("revolute", m.ground, c, point=G, axis=y, name="G%d" % i))
    for i in range(cells):
        T = np.array([float(i), 0.0, 0.0]) + e
        c = m.add_body("coupler%d" % i, mass=mass,
                       inertia=inertia_tensor_along((1, 0, 0), i_ax, i_tr),
                       position=T + np.array([0.5, 0.0, 0.0]))
        couplers.append(c)
        joints.append(m.add_joint("revolute", cranks[i], c, point=T, axis=y, name="L%d" % i))
        joints.append(m.add_joint("revolute", c, cranks[i + 1], point=T + np.array([1.0, 0, 0]),
                                  axis=y, name="R%d" % i))
    return m, cranks, couplers, joints


__all__ = ["random_rotation", "random_inertia", "retract", "jacobian_fd", "flow", "inertia_tensor_along", "chain",
           "four_bar", "bricard", "compound_pendulum", "swing_angle", "period_from_crossings",
           "quat_to_matrix", "bob", "mass_ratio_chain", "parallelogram_chain"]
