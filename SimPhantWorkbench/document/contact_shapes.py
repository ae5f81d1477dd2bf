"""The solids of a contact element as the solver's contact shapes (``solver.contact``).

A body's solid (its shape object, world coordinates at t0, mm -> m) becomes:

* a **sphere** (centre, radius) when it is one spherical face;
* a **cylinder** (centre, axis, radius, half length) when it is a whole cylindrical face
  closed by two planar caps square to its axis (a roller, a disc cam): the contact
  kernels take its exact circle, not a faceted hull; as the first shape its sample points
  as a convex solid's;
* otherwise a **convex polytope**: the face planes of the convex hull of its tessellation
  (``Deflection``), and, as the first shape of a contact, its sample points: the
  tessellation's vertices and points along its edges every ``SampleSpacing``.

The polytope stands for the solid only when the solid is convex: a solid whose volume
is short of its hull's by more than ``CONVEX_TOL`` is refused with a message naming the
contact element (split it into convex bodies, or contact them pairwise).
"""
import math

import numpy as np

from ..collision.geometry import convex_hull
from ..solver.errors import ModelError
from .massprops import global_shape
from .units import M_PER_MM

__all__ = ["contact_shape", "recognise", "describe", "CONVEX_TOL", "CYLINDER_TOL"]

#: relative volume a solid may lack of its convex hull: the hull of a convex solid's
#: tessellation vertices (on its surface) lies inside it, so only rounding
CONVEX_TOL = 1e-4
#: relative volume by which a solid may differ from pi R^2 L to be taken as a cylinder
CYLINDER_TOL = 1e-6


def _sphere(shape):
    faces = shape.Faces
    if len(faces) != 1:
        return None
    surf = faces[0].Surface
    if type(surf).__name__ != "Sphere":
        return None
    return np.array(tuple(surf.Center), dtype=float) * M_PER_MM, float(surf.Radius) * M_PER_MM


def _cylinder(shape):
    """(centre [m], unit axis, radius [m], half length [m]) of a solid that is one whole
    cylindrical face and two planar caps square to its axis, else None."""
    faces = shape.Faces
    if len(shape.Solids) != 1 or len(faces) != 3:
        return None
    kinds = [type(f.Surface).__name__ for f in faces]
    if kinds.count("Cylinder") != 1 or kinds.count("Plane") != 2:
        return None
    surf = faces[kinds.index("Cylinder")].Surface
    axis = np.array(tuple(surf.Axis), dtype=float)
    axis /= np.linalg.norm(axis)
    base = np.array(tuple(surf.Center), dtype=float)
    radius = float(surf.Radius)
    z = []
    for f in faces:
        if type(f.Surface).__name__ != "Plane":
            continue
        n = np.array(tuple(f.normalAt(0.0, 0.0)), dtype=float)
        if abs(abs(n @ axis) - 1.0) > 1e-9:
            return None                      # a slanted cap
        z.append(float((np.array(tuple(f.CenterOfMass), dtype=float) - base) @ axis))
    half = 0.5 * abs(z[1] - z[0])
    if not (radius > 0.0 and half > 0.0):
        return None
    full = math.pi * radius ** 2 * 2.0 * half
    if abs(shape.Volume - full) > CYLINDER_TOL * full:
        return None                          # a sector, a flat or a hole
    centre = base + 0.5 * (z[0] + z[1]) * axis
    return centre * M_PER_MM, axis, radius * M_PER_MM, half * M_PER_MM


def recognise(shape):
    """(kind, geometry) of a solid (world, mm) as a contact takes it: ("sphere", (centre,
    radius)), ("cylinder", (centre, axis, radius, half length)) in SI, or ("convex",
    None)."""
    sph = _sphere(shape)
    if sph is not None:
        return "sphere", sph
    cyl = _cylinder(shape)
    if cyl is not None:
        return "cylinder", cyl
    return "convex", None


def describe(shape_obj):
    """How a contact takes the solid of the document object ``shape_obj`` (the panel's
    line): (kind, radius [mm], length [mm]), the sizes None for a convex solid; None where
    it has no solid."""
    try:
        shape = global_shape(shape_obj)
    except Exception:  # noqa: BLE001 - no shape to tell of: say nothing
        return None
    if not shape.Solids:
        return None
    kind, geom = recognise(shape)
    if kind == "sphere":
        return kind, geom[1] / M_PER_MM, None
    if kind == "cylinder":
        return kind, geom[2] / M_PER_MM, 2.0 * geom[3] / M_PER_MM
    return kind, None, None


def contact_shape(body_obj, first, spacing_mm, deflection_mm, what):
    """The solver's contact shape (SI) of the SimPhant Body ``body_obj``'s solid; ``first``:
    with sample points (the contact's first solid). ``ModelError`` names ``what``."""
    from ..solver import contact
    shape = global_shape(body_obj.ShapeObject)
    if not shape.Solids:
        raise ModelError("%s: '%s' has no solid to touch" % (what, body_obj.Label))
    kind, geom = recognise(shape)
    if kind == "sphere":
        return contact.sphere(*geom)
    if not (deflection_mm > 0.0 and spacing_mm > 0.0):
        raise ModelError("%s: Deflection and SampleSpacing must be > 0" % what)
    verts, _tris = shape.tessellate(deflection_mm)
    pts = np.array([tuple(v) for v in verts], dtype=float)
    pts = np.vstack([pts, [tuple(v.Point) for v in shape.Vertexes]]) if shape.Vertexes else pts
    samples = None
    if first:
        extra = []
        for edge in shape.Edges:
            n = max(2, int(math.ceil(edge.Length / spacing_mm)) + 1)
            extra.extend(tuple(p) for p in edge.discretize(n))
        samples = np.unique(np.vstack([pts] + ([np.array(extra)] if extra else [])).round(9),
                            axis=0) * M_PER_MM
    if kind == "cylinder":
        return contact.cylinder(*geom, samples=samples)
    hull, convex = convex_hull(pts * M_PER_MM, shape.Volume * M_PER_MM ** 3, CONVEX_TOL)
    if hull is None:
        raise ModelError("%s: '%s': its solid spans no volume" % (what, body_obj.Label))
    if not convex:
        raise ModelError("%s: the solid of '%s' is not convex (%.4g mm^3 of its hull's %.4g "
                         "mm^3): a contact takes convex solids only; split it into convex "
                         "bodies" % (what, body_obj.Label, shape.Volume,
                                     hull.volume / M_PER_MM ** 3))
    try:
        return contact.convex(pts * M_PER_MM, samples=samples, hull=hull)
    except ModelError as exc:
        raise ModelError("%s: '%s': %s" % (what, body_obj.Label, exc)) from None
