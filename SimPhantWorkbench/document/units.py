"""Units and conventions between FreeCAD and the solver (the one place they change).

FreeCAD side: lengths in mm, angles in degrees, ``FreeCAD.Rotation`` with
quaternion ``.Q = (x, y, z, w)``, Quantity properties with units, placements
relative to the parent container. Solver side: SI (m, kg, s, N, rad), world
coordinates, quaternions scalar first ``(w, x, y, z)``.
"""
import numpy as np

import FreeCAD

from ..solver.rotations import matrix_to_quat, quat_to_matrix
from .massprops import M_PER_MM, container_placement

__all__ = ["M_PER_MM", "KG_M2_TO_KG_MM2", "quantity_si", "vector_array", "rotation_to_quat",
           "quat_to_rotation", "rotation_to_matrix", "matrix_to_rotation", "placement_to_frame",
           "frame_to_placement", "global_placement"]

KG_M2_TO_KG_MM2 = 1e6


def quantity_si(value, unit):
    """A Quantity (or a number already in ``unit``, or a text like "2 s") as float in ``unit``."""
    if isinstance(value, str):
        value = FreeCAD.Units.Quantity(value)
    if hasattr(value, "getValueAs"):
        v = value.getValueAs(unit)
        return float(getattr(v, "Value", v))
    return float(value)


def vector_array(v):
    """A ``FreeCAD.Vector`` (or 3-sequence) as a float array (3,), unit unchanged."""
    return np.array([v[0], v[1], v[2]], dtype=float)


def rotation_to_quat(rot):
    """``FreeCAD.Rotation`` -> solver quaternion ``(w, x, y, z)``."""
    x, y, z, w = rot.Q
    return np.array([w, x, y, z], dtype=float)


def quat_to_rotation(q):
    """Solver quaternion ``(w, x, y, z)`` -> ``FreeCAD.Rotation``."""
    w, x, y, z = (float(c) for c in q)
    return FreeCAD.Rotation(x, y, z, w)


def rotation_to_matrix(rot):
    """``FreeCAD.Rotation`` -> 3x3 rotation matrix (columns: the rotated x, y, z axes)."""
    return quat_to_matrix(rotation_to_quat(rot))


def matrix_to_rotation(A):
    """3x3 rotation matrix -> ``FreeCAD.Rotation``."""
    return quat_to_rotation(matrix_to_quat(np.asarray(A, dtype=float)))


def placement_to_frame(pl):
    """``FreeCAD.Placement`` (mm) -> (origin [m] (3,), rotation matrix (3, 3))."""
    return vector_array(pl.Base) * M_PER_MM, rotation_to_matrix(pl.Rotation)


def frame_to_placement(point_m, R):
    """(origin [m], rotation matrix) -> ``FreeCAD.Placement`` (mm)."""
    p = np.asarray(point_m, dtype=float) / M_PER_MM
    return FreeCAD.Placement(FreeCAD.Vector(*p), matrix_to_rotation(R))


def global_placement(obj):
    """Global placement of a shape object (Part feature, PartDesign Body, App::Part, App::Link)."""
    return container_placement(obj).multiply(obj.Placement)
