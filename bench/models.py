"""The benchmark mechanisms for the naive NumPy solver and MuJoCo (MJCF generated here),
built like SimPhant's own from the model zoo (``SimPhantWorkbench.solver.zoo``: ``chain``
and ``crank_rocker``, whose geometry and inertias this module reuses).

Chain: N bars of length 1 m, mass 1 kg, solid cylinders of radius 0.02 m along
the bar (I_axial = m r^2 / 2, I_transverse = m (3 r^2 + L^2) / 12). Bar i spans
x in [i, i+1] (CoG at (i + 0.5, 0, 0)); joint i at (i, 0, 0) joins bar i-1
(ground for i = 0) to bar i; revolute about y, or spherical. Released
horizontal from rest, gravity (0, 0, -9.81). The tip is the free end of the
last bar, (N, 0, 0) at t0.

Four-bar: ground pivots A = (0,0,0) and D = (3,0,0), crank A-B (B = (0,0,1)),
coupler B-C (C = (2,0,2)), rocker C-D; the same cylinder bars (1 kg each) and
four revolutes about y (a planar loop in 3-D: 20 rows for 18 coordinates, 3
of them redundant). Grashof crank-rocker (s + l = 4 < p + q = 2 sqrt 5), no
change point. The tip is C, the far end of the coupler.
"""
import numpy as np

from SimPhantWorkbench.solver.zoo import CRANK_ROCKER_POINTS, bar_inertia, crank_rocker_links

GRAVITY = (0.0, 0.0, -9.81)
MASS = 1.0


# ---------------------------------------------------------------------- chain
def chain_naive(N, kind="revolute"):
    from naive_numpy import NaiveModel
    m = NaiveModel(gravity=GRAVITY)
    inertia = bar_inertia(1.0)
    prev = -1
    for i in range(N):
        b = m.add_body(MASS, inertia, (i + 0.5, 0.0, 0.0))
        m.add_joint(kind, prev, b, (float(i), 0.0, 0.0), (0.0, 1.0, 0.0) if kind == "revolute" else None)
        prev = b
    return m


CHAIN_TIP_LOCAL = (0.5, 0.0, 0.0)   # free end of a bar, body frame from its CoG


def chain_mjcf(N, kind="revolute", dt=1e-3):
    """MJCF of the chain: nested bodies whose frames sit at their joints (world-aligned),
    explicit inertials, no geoms, contacts disabled, RK4."""
    ia, it, _ = bar_inertia(1.0)
    jt = "hinge" if kind == "revolute" else "ball"
    axis = ' axis="0 1 0"' if kind == "revolute" else ""
    parts = ['<mujoco model="chain%d">' % N,
             '<option timestep="%r" integrator="RK4" gravity="0 0 -9.81">' % dt,
             '<flag contact="disable"/></option>',
             '<worldbody>']
    for i in range(N):
        pos = "0 0 0" if i == 0 else "1 0 0"
        parts.append('<body name="link%d" pos="%s">' % (i, pos))
        parts.append('<joint name="j%d" type="%s" pos="0 0 0"%s damping="0" armature="0"/>' % (i, jt, axis))
        parts.append('<inertial pos="0.5 0 0" mass="%r" diaginertia="%r %r %r"/>' % (MASS, ia, it, it))
    parts.append("</body>" * N)
    parts.append("</worldbody></mujoco>")
    return "\n".join(parts)


CHAIN_TIP_MJ_LOCAL = (1.0, 0.0, 0.0)   # free end in the last body's (joint) frame


# ---------------------------------------------------------------------- four-bar
FOURBAR_POINTS = CRANK_ROCKER_POINTS


def fourbar_tip_local():
    """Point C in the coupler's body frame (from its CoG)."""
    _, links = crank_rocker_links()
    return (0.5 * links[1]["L"], 0.0, 0.0)


def fourbar_naive():
    from naive_numpy import NaiveModel
    P, links = crank_rocker_links()
    m = NaiveModel(gravity=GRAVITY)
    for l in links:
        m.add_body(MASS, l["inertia"], l["cog"], l["quat"])
    y = (0.0, 1.0, 0.0)
    m.add_joint("revolute", -1, 0, P["A"], y)
    m.add_joint("revolute", 0, 1, P["B"], y)
    m.add_joint("revolute", 1, 2, P["C"], y)
    m.add_joint("revolute", 2, -1, P["D"], y)
    return m


def fourbar_mjcf(dt=1e-3, solref=None, solimp=None):
    """Open tree crank-coupler-rocker (3 hinges) closed by an equality ``connect``
    of the rocker's end to the world at D. MuJoCo's equality constraints are
    soft (solref/solimp); defaults unless given."""
    P, links = crank_rocker_links()
    parts = ['<mujoco model="fourbar">',
             '<option timestep="%r" integrator="RK4" gravity="0 0 -9.81">' % dt,
             '<flag contact="disable"/></option>',
             '<worldbody>']
    parent = np.zeros(3)
    for l in links:
        pos = l["p0"] - parent
        parts.append('<body name="%s" pos="%r %r %r">' % (l["name"], *pos))
        parts.append('<joint type="hinge" pos="0 0 0" axis="0 1 0" damping="0" armature="0"/>')
        c = l["cog"] - l["p0"]
        parts.append('<inertial pos="%r %r %r" quat="%r %r %r %r" mass="%r" diaginertia="%r %r %r"/>'
                     % (*c, *l["quat"], MASS, *l["inertia"]))
        parent = l["p0"]
    parts.append("</body>" * len(links))
    parts.append("</worldbody>")
    D_local = P["D"] - links[2]["p0"]   # in the rocker's (world-aligned) body frame
    extra = ""
    if solref is not None:
        extra += ' solref="%r %r"' % tuple(solref)
    if solimp is not None:
        extra += ' solimp="%s"' % " ".join(repr(float(x)) for x in solimp)
    parts.append('<equality><connect body1="rocker" body2="world" anchor="%r %r %r"%s/></equality>'
                 % (*D_local, extra))
    parts.append("</mujoco>")
    return "\n".join(parts)


FOURBAR_TIP_MJ_BODY = "coupler"


def fourbar_tip_mj_local():
    """Point C in the coupler's MuJoCo body frame (origin at B, world-aligned at t0)."""
    P, _ = crank_rocker_links()
    return tuple(P["C"] - P["B"])
