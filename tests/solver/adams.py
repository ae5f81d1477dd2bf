"""The ADAMS single-body joint suite (tests/data/chrono_adams), as SimPhant models.

Reference files: MSC.ADAMS results published in Project Chrono's repository
(BSD-3). Reactions there act on the GROUND body; SimPhant reports the reaction
on the joint's second body (here the moving body), hence the sign flip.
"""
import math
import os

import numpy as np

from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.solver.rotations import quat_from_axis_angle

HERE = os.path.dirname(os.path.abspath(__file__))


def _find_benchmarks():
    """The reference files ship with the tests (tests/data/chrono_adams, BSD-3 from
    Project Chrono); SIMPHANT_BENCHMARKS may point elsewhere."""
    cands = [os.environ.get("SIMPHANT_BENCHMARKS", ""),
             os.path.join(HERE, "..", "data", "chrono_adams")]
    for c in cands:
        if c and os.path.isdir(c):
            return os.path.abspath(c)
    raise FileNotFoundError("ADAMS reference data not found; tried %s" % cands)


DATA = _find_benchmarks()
G = 9.80665
S2 = math.sqrt(0.5)


def Rx(deg):
    return quat_from_axis_angle((1, 0, 0), math.radians(deg))


def Ry(deg):
    return quat_from_axis_angle((0, 1, 0), math.radians(deg))


def Rz(deg):
    return quat_from_axis_angle((0, 0, 1), math.radians(deg))


# name: (builder kwargs)
CASES = {
    "Revolute_Case01": dict(kind="revolute", point=(0, 0, 0), axis=(0, 1, 0), cog=(2, 0, 0),
                            q0=Rx(-90), inertia=(0.04, 0.1, 0.1)),
    "Revolute_Case02": dict(kind="revolute", point=(1, 2, 3), axis=(0, S2, S2), cog=(3, 2, 3),
                            q0=Rx(-45), inertia=(0.04, 0.1, 0.1)),
    "Spherical_Case01": dict(kind="spherical", point=(0, 0, 0), cog=(2, 0, 0), q0=(1, 0, 0, 0),
                             inertia=(0.04, 0.1, 0.1)),
    "Spherical_Case02": dict(kind="spherical", point=(1, 2, 3), cog=(3, 2, 3), q0=Rx(-45),
                             inertia=(0.04, 0.1, 0.1)),
    "Universal_Case01": dict(kind="universal", point=(0, 0, 0), axis=(1, 0, 0), axis2=(0, 0, 1),
                             cog=(0, 2, 0), q0=Rx(90), inertia=(0.1, 0.1, 0.04)),
    "Universal_Case02": dict(kind="universal", point=(0, 0, 0), axis=(0, 0, -1), axis2=(0, 1, 0),
                             cog=(-2, 0, 0), q0=Ry(90), inertia=(0.1, 0.1, 0.04)),
    "Prismatic_Case02": dict(kind="prismatic", point=(1, 2, 3), axis=(0, S2, S2), cog=(3, 2, 3),
                             q0=Rx(-45), inertia=(0.04, 0.1, 0.1)),
    "Cylindrical_Case03": dict(kind="cylindrical", point=(1, 2, 3), axis=(0, S2, S2),
                               cog=(3, 2, 3), q0=Rx(-45), inertia=(0.04, 0.1, 0.1)),
    "Distance_Case02": dict(kind="distance", point=(1, 2, 3), point2=(1, 4, 3), length=2.0,
                            cog=(-1, 4, 3), q0=(1, 0, 0, 0), inertia=(0.04, 0.1, 0.1)),
    "Distance_Case03": dict(kind="distance", point=(0, 0, 0), point2=(0, 2, 0), length=2.0,
                            cog=(0, 4, 0), q0=Rz(-90), inertia=(0.04, 0.1, 0.1)),
    "RevSpherical_Case01": dict(kind="revolute_spherical", point=(0, 0, 0), axis=(0, 0, 1),
                                point2=(2, 0, 0), length=2.0, cog=(2, 2, 0), q0=(1, 0, 0, 0),
                                inertia=(0.1, 0.04, 0.1)),
}


def build(name):
    c = dict(CASES[name])
    m = Model(gravity=(0, 0, -G))
    b = m.add_body("body", mass=1.0, inertia=c.pop("inertia"), position=c.pop("cog"),
                   orientation=c.pop("q0"))
    kind = c.pop("kind")
    j = m.add_joint(kind, m.ground, b, name="joint", **c)
    return m, b, j


def load(name, quantity):
    """(t, values) of <name>_ADAMS_<quantity>.txt; quantity in Pos, Vel, Acc, Quat, Avel, Aacc,
    Rforce, Rtorque. Returns None when the file does not exist."""
    path = os.path.join(DATA, name, "%s_ADAMS_%s.txt" % (name, quantity))
    if not os.path.exists(path):
        return None
    a = np.loadtxt(path, skiprows=3)
    return a[:, 0], a[:, 1:]


def rms(a, b):
    return np.sqrt(np.mean((np.asarray(a) - np.asarray(b)) ** 2, axis=0))
