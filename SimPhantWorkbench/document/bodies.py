"""SimPhant Body objects: their mass properties, placement and initial velocities (SI).

A body's own frame is the global placement of its shape object; the solver
body is given that orientation, its CoG position and its inertia tensor about
the CoG in world axes. ``cog_local`` (the CoG in the object's frame, mm) ties
the two: ``object base = r_cog - A c_local``.
"""
import contextlib
import math
from collections import namedtuple

import numpy as np

import FreeCAD

from ..solver import ModelError
from ..solver.blas import one_thread
from . import massprops
from .base import object_label
from .massprops import ancestors
from .units import (KG_M2_TO_KG_MM2, M_PER_MM, global_placement, matrix_to_rotation,
                    placement_to_frame, vector_array)

__all__ = ["BodyData", "body_data", "reused_body_data", "update_body_properties",
           "density_warning", "body_of_object", "warn_once"]


BodyData = namedtuple("BodyData", [
    "obj",          # the SimPhant Body object
    "shape",        # its shape object
    "fixed",        # bool
    "mass_props",   # massprops.MassProperties (SI, world)
    "placement",    # global placement of the shape object (mm)
    "frame",        # (origin m, rotation 3x3) of the body's own frame, world
    "cog_local",    # (3,) CoG in the shape object's frame [mm]
    "velocity",     # (3,) m/s, world
    "omega",        # (3,) rad/s, world
])


def _body_mass_properties(body):
    """Mass properties of a Body's shape object (MassOverride > Density > material > default)."""
    shape = body.ShapeObject
    if shape is None:
        raise ModelError("%s has no shape object" % object_label(body))
    mass = float(body.MassOverride) if body.MassOverride > 0.0 else None
    density = float(body.Density) if body.Density > 0.0 else None
    if body.MassOverride < 0.0 or not math.isfinite(body.MassOverride):
        raise ModelError("%s: MassOverride must be >= 0 kg, got %r" % (object_label(body),
                                                                        body.MassOverride))
    if body.Density < 0.0 or not math.isfinite(body.Density):
        raise ModelError("%s: Density must be >= 0 kg/m^3, got %r" % (object_label(body), body.Density))
    try:
        one_thread()                # the same bits in every process (solver/blas.py)
        mp = massprops.mass_properties(shape, density=density, mass=mass)
    except ModelError as exc:
        raise ModelError("%s: %s" % (object_label(body), exc)) from None
    except Exception as exc:  # noqa: BLE001 - FreeCAD/OCC failures on odd objects
        raise ModelError("%s: cannot compute the mass properties of '%s': %s"
                         % (object_label(body), shape.Label, exc)) from None
    return mp


def density_warning(bd):
    """The warning of a ``BodyData`` whose mass comes from the default density (no
    material, no Density, no MassOverride), else None."""
    mp = bd.mass_props
    if mp is None or bd.fixed or mp.density_source != "default":
        return None
    return ("%s: '%s' has no material and the body no Density; using the default density "
            "%g kg/m^3 (mass %.6g kg). Set the body's Density or MassOverride."
            % (object_label(bd.obj), bd.shape.Label, mp.density, mp.mass))


#: ``{(document Name, body Name): warning text}`` of the default-density warnings given
_WARNED = {}


def warn_once(key, text):
    """True when the warning ``text`` about ``key`` is to be given: the first time, and
    again only after it changed or went away (``text`` None forgets ``key``)."""
    if not text:
        _WARNED.pop(key, None)
        return False
    if _WARNED.get(key) == text:
        return False
    _WARNED[key] = text
    return True


def _warn_default_density(bd):
    """Print the default-density warning of a body once (each check and solve evaluates
    the bodies again): again only when its text changes (another mass), or after the
    body had a density and lost it."""
    text = density_warning(bd)
    if warn_once((bd.obj.Document.Name, bd.obj.Name), text):
        FreeCAD.Console.PrintWarning("SimPhant: %s\n" % text)


#: ``{body Name: BodyData}`` while ``reused_body_data`` is active, else None
_BODY_DATA = [None]


@contextlib.contextmanager
def reused_body_data():
    """Within the block ``body_data`` evaluates each Body once (its mass properties
    integrate the solids: milliseconds per body), for work that reads bodies
    repeatedly from a document it does not change (the viewer's scene)."""
    outer = _BODY_DATA[0]
    if outer is None:
        _BODY_DATA[0] = {}
    try:
        yield
    finally:
        if outer is None:
            _BODY_DATA[0] = None


def body_data(body, warn=True):
    """Evaluate a SimPhant Body object (fresh mass properties and placement; inside
    ``reused_body_data`` once per body).

    A fixed body needs no mass: when its object has no solid (a datum, a
    sketch used as ground) ``mass_props`` and ``cog_local`` are ``None``.
    """
    memo = _BODY_DATA[0]
    if memo is not None:
        if body.Name not in memo:
            memo[body.Name] = _evaluate_body(body, warn)
        return memo[body.Name]
    return _evaluate_body(body, warn)


def _evaluate_body(body, warn):
    shape = body.ShapeObject
    if shape is None:
        raise ModelError("%s has no shape object" % object_label(body))
    pl = global_placement(shape)
    if not all(math.isfinite(x) for x in tuple(pl.Base) + tuple(pl.Rotation.Q)):
        raise ModelError("%s: the placement of '%s' is not finite (NaN or Inf): %s"
                         % (object_label(body), shape.Label, pl))
    for prop in ("InitialVelocity", "InitialAngularVelocity"):
        if not all(math.isfinite(x) for x in getattr(body, prop)):
            raise ModelError("%s: %s must be finite, got %s"
                             % (object_label(body), prop, tuple(getattr(body, prop))))
    try:
        mp = _body_mass_properties(body)
    except ModelError:
        if not body.Fixed:
            raise
        mp = None
    origin, R = placement_to_frame(pl)
    cog_local = None if mp is None \
        else R.T @ (np.asarray(mp.cog, dtype=float) - origin) / M_PER_MM
    v = vector_array(body.InitialVelocity) * M_PER_MM
    w = np.radians(vector_array(body.InitialAngularVelocity))
    bd = BodyData(body, shape, bool(body.Fixed), mp, pl, (origin, R), cog_local, v, w)
    if warn:
        _warn_default_density(bd)
    return bd


def update_body_properties(body):
    """Refresh a Body's read-only mass properties (its ``execute``)."""
    bd = body_data(body, warn=True)
    mp = bd.mass_props
    if mp is None:  # a fixed body without solid: no mass needed
        body.Mass = 0.0
        body.Volume = 0.0
        body.DensityUsed = 0.0
        body.DensitySource = "none (fixed body without solid)"
        return
    body.Mass = float(mp.mass)
    body.Volume = float(mp.volume) / M_PER_MM ** 3
    body.DensityUsed = float(mp.density)
    body.DensitySource = str(mp.density_source)
    body.CoG = FreeCAD.Vector(*(np.asarray(mp.cog) / M_PER_MM))
    body.PrincipalMoments = FreeCAD.Vector(*(np.asarray(mp.principal_moments) * KG_M2_TO_KG_MM2))
    body.PrincipalAxes = matrix_to_rotation(mp.principal_axes)


def body_of_object(bodies, obj):
    """The Body (of ``bodies``) whose shape object is ``obj`` or contains it, else ``None``."""
    if obj is None:
        return None
    chain = [obj] + ancestors(obj)
    for candidate in chain:
        for b in bodies:
            if b.ShapeObject is not None and b.ShapeObject == candidate:
                return b
    return None
