"""Reference mechanisms (a model zoo, as ``sympy.physics.mechanics`` keeps one): the
models the tests, the benchmarks and docs/theory.md measure, built once here with the
public ``Model`` API.

Every builder returns the ``Model`` first, then the bodies and joints a caller needs
to read results (see each docstring). SI units; gravity along -z unless said.

* ``chain``                N-link pendulum of bars (revolute or spherical joints);
* ``mass_ratio_chain``     the revolute chain with one mass per bar;
* ``four_bar``             planar four-bar of spatial revolutes (redundant in 3-D);
* ``crank_rocker``         the benchmarks' four-bar of 1 kg bars (Grashof crank-rocker);
* ``bricard``              the Bricard mechanism (overconstrained, mobility 1);
* ``parallelogram_chain``  cells of parallelogram four-bars through their aligned
                           (singular) configuration;
* ``compound_pendulum``, ``bob``   pendulums with closed forms;
* ``slider_crank``         crank, rod and slider on a prismatic guide, driven by a
                           motor or spun free;
* ``held_pendulum``        a pendulum held at an angle by a driver.
"""
import math

import numpy as np

from .drivers import MotionFunction
from .model import Model
from .rotations import quat_from_axis_angle, quat_multiply, quat_to_matrix

__all__ = ["bar_inertia", "inertia_tensor_along", "chain", "mass_ratio_chain", "four_bar",
           "crank_rocker", "CRANK_ROCKER_POINTS", "CRANK_ROCKER_LINKS", "bricard",
           "BRICARD_POINTS", "BRICARD_AXES", "parallelogram_chain", "compound_pendulum", "bob",
           "slider_crank", "slider_crank_position", "held_pendulum", "GRAVITY"]

#: standard gravity [m/s^2]
GRAVITY = 9.81


def bar_inertia(length, mass=1.0, radius=0.02):
    """Principal moments (axial, transverse, transverse) [kg m^2] of a solid cylinder of
    ``length`` and ``radius`` along its body x axis."""
    return (0.5 * mass * radius ** 2, mass * (3.0 * radius ** 2 + length ** 2) / 12.0,
            mass * (3.0 * radius ** 2 + length ** 2) / 12.0)


def inertia_tensor_along(axis, i_axial, i_transverse):
    """Inertia tensor (world axes) of an axisymmetric body whose symmetry axis is ``axis``."""
    a = np.asarray(axis, dtype=float)
    a = a / np.linalg.norm(a)
    return i_transverse * (np.eye(3) - np.outer(a, a)) + i_axial * np.outer(a, a)


def chain(n, kind="revolute", length=1.0, mass=1.0, radius=0.02, gravity=(0, 0, -GRAVITY)):
    """N-link pendulum: bars of ``length`` along x (solid cylinders), bar i from
    (i L, 0, 0) to ((i + 1) L, 0, 0), joint ``J<i>`` at (i L, 0, 0) joining bar i - 1
    (ground for i = 0) to bar ``bar<i>``: revolute about y or spherical; released
    horizontal from rest. Returns ``(model, bodies, joints)``."""
    return mass_ratio_chain([mass] * n, kind, length, radius, gravity)


def mass_ratio_chain(masses, kind="revolute", length=1.0, radius=0.02,
                     gravity=(0, 0, -GRAVITY)):
    """The chain of ``chain`` with one mass per bar (same shape: inertia proportional to
    the mass). Returns ``(model, bodies, joints)``."""
    m = Model(gravity=gravity)
    prev = m.ground
    bodies, joints = [], []
    for i, mass in enumerate(masses):
        b = m.add_body("bar%d" % i, mass=mass, inertia=bar_inertia(length, mass, radius),
                       position=((i + 0.5) * length, 0.0, 0.0))
        kw = dict(point=(i * length, 0.0, 0.0))
        if kind == "revolute":
            kw["axis"] = (0.0, 1.0, 0.0)
        joints.append(m.add_joint(kind, prev, b, name="J%d" % i, **kw))
        bodies.append(b)
        prev = b
    return m, bodies, joints


def four_bar(gravity=(0, 0, -GRAVITY)):
    """Planar four-bar of revolutes with parallel axes (redundant in 3-D): crank 0.3,
    coupler 1.0, rocker 0.8, ground 0.9 [m], in the x-z plane, axes along y; joints A, B,
    C, D. Returns ``(model, links, joints)``."""
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


#: the benchmarks' four-bar: ground pivots A and D, crank A-B, coupler B-C, rocker C-D
CRANK_ROCKER_POINTS = dict(A=(0.0, 0.0, 0.0), B=(0.0, 0.0, 1.0), C=(2.0, 0.0, 2.0),
                           D=(3.0, 0.0, 0.0))
CRANK_ROCKER_LINKS = (("crank", "A", "B"), ("coupler", "B", "C"), ("rocker", "C", "D"))


def bar_quat(p0, p1):
    """Quaternion (w, x, y, z) of the rotation about y taking the x axis along ``p1 - p0``
    (both in the x-z plane)."""
    d = np.asarray(p1, float) - np.asarray(p0, float)
    th = math.atan2(-d[2], d[0])      # R_y(th) x = (cos th, 0, -sin th)
    return (math.cos(th / 2.0), 0.0, math.sin(th / 2.0), 0.0)


def crank_rocker_links():
    """Per link of ``crank_rocker``: name, end points, length, CoG, orientation and
    principal moments (1 kg cylinder bars of radius 0.02 m along their body x)."""
    P = {k: np.array(v) for k, v in CRANK_ROCKER_POINTS.items()}
    out = []
    for name, a, b in CRANK_ROCKER_LINKS:
        length = float(np.linalg.norm(P[b] - P[a]))
        out.append(dict(name=name, p0=P[a], p1=P[b], L=length, cog=0.5 * (P[a] + P[b]),
                        quat=bar_quat(P[a], P[b]), inertia=bar_inertia(length)))
    return P, out


def crank_rocker(gravity=(0, 0, -GRAVITY)):
    """The benchmarks' four-bar: ``CRANK_ROCKER_POINTS`` joined by 1 kg cylinder bars and
    four revolutes about y (a planar loop in 3-D: 20 rows for 18 coordinates, 3 of them
    redundant); Grashof crank-rocker, no change point. Returns ``(model, links)``."""
    P, links = crank_rocker_links()
    m = Model(gravity=gravity)
    bs = [m.add_body(lk["name"], mass=1.0, inertia=lk["inertia"], position=tuple(lk["cog"]),
                     orientation=lk["quat"]) for lk in links]
    y = (0, 1, 0)
    m.add_joint("revolute", m.ground, bs[0], point=tuple(P["A"]), axis=y)
    m.add_joint("revolute", bs[0], bs[1], point=tuple(P["B"]), axis=y)
    m.add_joint("revolute", bs[1], bs[2], point=tuple(P["C"]), axis=y)
    m.add_joint("revolute", bs[2], m.ground, point=tuple(P["D"]), axis=y)
    return m, bs


BRICARD_POINTS = [(0, 0, 0), (1, 0, 0), (1, -1, 0), (1, -1, 1), (0, -1, 1), (0, 0, 1)]
BRICARD_AXES = [(0, 1, 0), (0, 0, 1), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 0, 0)]


def bricard():
    """Bricard mechanism: 5 unit links (1 kg, 0.1 m square section) and 6 revolutes
    ``J0`` .. ``J5``; gravity -y. Returns ``(model, links, joints)``."""
    m = Model(gravity=(0.0, -GRAVITY, 0.0))
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


def parallelogram_chain(cells=40, theta0=math.radians(60.0), radius=0.02,
                        gravity=(0, 0, -GRAVITY)):
    """Planar chain of ``cells`` parallelogram four-bars in the x-z plane: ``cells + 1``
    unit cranks ``crank<i>`` hinged to ground at x = 0, 1, ..., cells (joints ``G<i>``,
    axes along y), their tips joined by ``cells`` unit couplers (joints ``L<i>``,
    ``R<i>``): 2 cells + 1 bars, 3 cells + 1 revolutes, 1 DOF, many redundant equations.
    Released from rest with the cranks at ``theta0`` above +x: they swing through
    theta = 0, where all bars align on the x axis (a singular configuration). Returns
    ``(model, cranks, couplers, joints)``."""
    m = Model(gravity=gravity)
    mass = 1.0
    i_ax, i_tr, _ = bar_inertia(1.0, mass, radius)
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


def compound_pendulum(length=1.0, mass=2.0, radius=0.05, theta0=0.1, gravity=GRAVITY):
    """Rod of ``length`` hinged at its top end (origin, joint ``hinge``) about world y,
    hanging along -z at theta = 0, released from rest at ``theta0`` [rad]; body z runs
    along the rod. Returns ``(model, rod, hinge, constants)`` with the moment of inertia
    about the pivot ``I_O``, ``m``, the CoG distance ``d`` and ``g``."""
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


def bob(inertia_ratio, length=1.0, mass=1.0, gravity=GRAVITY):
    """A point-like bob: a body of ``mass`` with small equal principal moments
    ``inertia_ratio * mass * length^2`` on a revolute ``pivot`` (axis y) ``length`` from
    its CoG, released from rest horizontally (along +x); gravity -z. Returns ``(model,
    bob, pivot, constants)`` as ``compound_pendulum``."""
    m = Model(gravity=(0.0, 0.0, -gravity))
    i = inertia_ratio * mass * length ** 2
    b = m.add_body("bob", mass=mass, inertia=(i, i, i), position=(length, 0.0, 0.0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0), name="pivot")
    return m, b, j, dict(I_O=i + mass * length ** 2, m=mass, d=length, g=gravity)


def slider_crank_position(theta, r, rod):
    """Slider position ``x`` of a slider-crank whose crank (radius ``r``) makes the angle
    ``theta`` with the slider's line through the crank pivot, rod length ``rod``."""
    return r * np.cos(theta) + np.sqrt(rod * rod - (r * np.sin(theta)) ** 2)


def slider_crank(omega=2 * math.pi, theta0=math.radians(30.0), r=0.1, rod=0.35,
                 masses=(1.0, 2.0, 3.0), gravity=(0.0, -GRAVITY, 0.0), driven=True):
    """Crank (revolute ``crank_pin`` to ground at the origin, z axis), rod (``rod_pin``),
    slider (``slider_pin``) on the x axis (prismatic ``slide``): all joints spatial, all in
    the plane z = 0, the bodies' principal axes along z (no load leaves the plane). The
    crank starts at ``theta0``; with ``driven`` a motor (``motor``, a driver on the crank
    pivot) turns it at ``omega`` [rad/s], otherwise it is spun at ``omega`` and moves
    free (the rod's and slider's velocities are those of the loop). Masses [kg] of crank,
    rod and slider; the bars are thin rods (radius 0.01 m). Returns ``(model, (crank,
    rod, slider), motor or None)``."""
    m = Model(gravity=gravity)
    c, s = math.cos(theta0), math.sin(theta0)
    A = np.array([r * c, r * s, 0.0])
    xs = float(slider_crank_position(theta0, r, rod))
    B = np.array([xs, 0.0, 0.0])
    mc, mr, ms = masses
    rad = 0.01

    def orient(direction):
        d = direction / np.linalg.norm(direction)
        return np.column_stack([d, np.cross([0, 0, 1.0], d), [0, 0, 1.0]])

    kw = [{}, {}, {}]
    if not driven:
        # loop velocities: crank pin A turns at omega, the wrist pin B moves along x
        vA = omega * np.array([-A[1], A[0], 0.0])
        w_rod = -vA[1] / (B[0] - A[0])
        vB = vA + w_rod * np.array([-(B - A)[1], (B - A)[0], 0.0])
        kw = [dict(velocity=0.5 * vA, angular_velocity=(0.0, 0.0, omega)),
              dict(velocity=0.5 * (vA + vB), angular_velocity=(0.0, 0.0, w_rod)),
              dict(velocity=vB)]
    def thin_rod(mass, length):
        return (0.5 * mass * rad ** 2, mass * length ** 2 / 12, mass * length ** 2 / 12)

    crank = m.add_body("crank", mass=mc, inertia=thin_rod(mc, r), position=A / 2,
                       orientation=orient(A), **kw[0])
    rod_body = m.add_body("rod", mass=mr, inertia=thin_rod(mr, rod),
                          position=(A + B) / 2, orientation=orient(B - A), **kw[1])
    slider = m.add_body("slider", mass=ms, inertia=(0.001, 0.001, 0.001), position=B, **kw[2])
    z = (0.0, 0.0, 1.0)
    j1 = m.add_joint("revolute", m.ground, crank, point=(0, 0, 0), axis=z, name="crank_pin")
    m.add_joint("revolute", crank, rod_body, point=A, axis=z, name="rod_pin")
    m.add_joint("revolute", rod_body, slider, point=B, axis=z, name="slider_pin")
    m.add_joint("prismatic", m.ground, slider, point=B, axis=(1.0, 0.0, 0.0), name="slide")
    motor = None
    if driven:
        motor = m.add_driver(j1, MotionFunction("ramp", value=0.0, rate=omega), name="motor")
    return m, (crank, rod_body, slider), motor


def held_pendulum(theta, mass=2.0, length=0.8, gravity=GRAVITY):
    """Point-like bob hanging at -z from a ground revolute ``pivot`` about +y, held at
    ``theta`` by a driver ``hold``. Returns ``(model, bob, pivot, driver)``."""
    m = Model(gravity=(0.0, 0.0, -gravity))
    b = m.add_body("bob", mass=mass, inertia=(1e-3, 1e-3, 1e-3), position=(0.0, 0.0, -length))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0.0, 1.0, 0.0), name="pivot")
    d = m.add_driver(j, theta, name="hold")
    return m, b, j, d
