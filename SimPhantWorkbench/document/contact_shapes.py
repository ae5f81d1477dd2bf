"""The solids of a contact element as the solver's contact shapes (``solver.contact``).

A body's solid (its shape object, world coordinates at t0, mm -> m) becomes:

* a **sphere** (centre, radius) when it is one spherical face;
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

__all__ = ["contact_shape", "CONVEX_TOL"]

#: relative volume a solid may lack of its convex hull: the hull of a convex solid's
#: tessellation vertices (on its surface) lies inside it, so only rounding
CONVEX_TOL = 1e-4


def _sphere(shape):
    faces = shape.Faces
    if len(faces) != 1:
        return None
    surf = faces[0].Surface
    if type(surf).__name__ != "Sphere":
        return None
    return np.array(tuple(surf.Center), dtype=float) * M_PER_MM, float(surf.Radius) * M_PER_MM


def contact_shape(body_obj, first, spacing_mm, deflection_mm, what):
    """The solver's contact shape (SI) of the SimPhant Body ``body_obj``'s solid; ``first``:
    with sample points (the contact's first solid). ``ModelError`` names ``what``."""
    from ..solver import contact
    shape = global_shape(body_obj.ShapeObject)
    if not shape.Solids:
        raise ModelError("%s: '%s' has no solid to touch" % (what, body_obj.Label))
    sph = _sphere(shape)
    if sph is not None:
        return contact.sphere(*sph)
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
