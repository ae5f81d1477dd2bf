"""Reference frames (point and axis) of picked vertices, edges and faces.

A joint is placed on geometry the user picks: a vertex, an edge or a face of a
shape object. ``reference_frame`` turns such a pick ``(obj, "Face3")`` into a
point and an axis in world coordinates, SI units (m).

Elements are looked up with ``Part.getShape(obj, subname, needSubElement=True)``
pre-multiplied by the placements of the containers ``obj`` sits in, as
``massprops.global_shape`` does, so objects inside ``App::Part``/``Body``
containers and ``App::Link`` objects work the same way on FreeCAD 0.20 and 1.x.
"""
import re
from collections import namedtuple

import numpy as np

import FreeCAD
import Part

from .massprops import M_PER_MM, container_matrix, shape_at
from .units import rotation_to_matrix
from SimPhantWorkbench.solver.errors import ModelError

__all__ = ["RefFrame", "KINDS", "DATUM_FRAME_TYPES", "DATUM_ELEMENT_TYPES", "ORIGIN_AXES",
           "reference_frame", "global_element", "local_element", "element_geometry",
           "element_names", "split_subname", "is_datum_frame", "is_datum", "is_datum_reference"]

RefFrame = namedtuple("RefFrame", [
    "kind",   # one of KINDS
    "point",  # (3,) m, world
    "axis",   # (3,) unit vector, world; None for "vertex" and "sphere"
    "label",  # "<Label>.<subname>", for messages
    "rotation",  # (3, 3) world axes of a datum coordinate system (columns x, y, z), else None
], defaults=(None,))

KINDS = ("vertex", "line", "circle", "plane", "cylinder", "sphere", "cone", "frame")

#: datum coordinate systems picked whole give their own frame (Assembly4's LCS are
#: ``PartDesign::CoordinateSystem``; FreeCAD 1.x adds ``App::LocalCoordinateSystem`` kinds)
DATUM_FRAME_TYPES = ("PartDesign::CoordinateSystem", "App::LocalCoordinateSystem")

#: datum lines, planes and points picked whole: ``(type, kind, axis)``, the first type the
#: object derives from counts; ``axis`` is the column of the datum's placement rotation
#: that is the line's direction or the plane's normal (``None``: a point, no axis;
#: ``"role"``: the axis of the ``App::Origin`` its ``Role`` names, ``ORIGIN_AXES``).
#: PartDesign's datums (and FreeCAD 1.x's Part datums) run along / are normal to their
#: local z; the axes of an Origin are ``App::Line`` objects whose placement turns differ
#: between FreeCAD versions, so their Role says the direction.
DATUM_ELEMENT_TYPES = (
    ("PartDesign::Line", "line", 2), ("Part::DatumLine", "line", 2),
    ("PartDesign::Plane", "plane", 2), ("Part::DatumPlane", "plane", 2),
    ("PartDesign::Point", "vertex", None), ("Part::DatumPoint", "vertex", None),
    ("App::Line", "line", "role"), ("App::Plane", "plane", 2), ("App::Point", "vertex", None),
)
#: the Origin's axis each ``App::Line`` Role names (another Role or none: the line's local x)
ORIGIN_AXES = {"X_Axis": 0, "Y_Axis": 1, "Z_Axis": 2}

SUPPORTED_TEXT = ("a vertex, a straight edge, a circle or arc edge, or a planar, "
                  "cylindrical, spherical or conical face")

_ELEMENT_NAME = re.compile(r"^(Vertex|Edge|Face)([1-9][0-9]*)$")
_PLURAL = {"Vertex": ("Vertexes", "vertices"), "Edge": ("Edges", "edges"),
           "Face": ("Faces", "faces")}
MISSING_PREFIX = "?"   # FreeCAD 1.x: a referenced element that no longer exists ("?Edge12")
_MIN_LENGTH = 1e-9  # mm; shorter straight edges have no direction


def split_subname(subname):
    """Split a FreeCAD sub-element path into object path and element name.

    Parameters
    ----------
    subname : str
        ``"Face3"``, a dotted path relative to an object as FreeCAD's selection
        gives it (``"Body.Pad.Face3"``), or a FreeCAD 1.x path with a mapped
        (topological naming) element, ``"Pad.;#7:1;:G0;XTR.Face3"``.

    Returns
    -------
    path : str
        The object path, ``""`` or ending with ``"."`` (``"Body.Pad."``).
    element : str
        The indexed element name (``"Face3"``), possibly not a valid one. FreeCAD 1.x
        marks an element that vanished in a model edit with a ``"?"`` prefix
        (``"?Edge12"``); the prefix is dropped here, and the element is then not found.
    """
    parts = subname.split(".")
    start = next((i for i, p in enumerate(parts) if p.startswith(";")), len(parts) - 1)
    path = ".".join(parts[:start]) + ("." if start else "")
    return path, parts[-1].lstrip(MISSING_PREFIX)


def global_element(obj, subname):
    """The picked vertex, edge or face in world coordinates.

    Parameters
    ----------
    obj : App.DocumentObject
        Any object ``massprops.global_shape`` accepts.
    subname : str
        Element name or dotted path, see ``split_subname``.

    Returns
    -------
    Part.Vertex, Part.Edge or Part.Face
        The element, world coordinates [mm].

    Raises
    ------
    ModelError
        The subname does not name a vertex, edge or face, or it no longer
        exists; the message starts with ``"<Label>.<subname>"``.
    """
    return _element_at(obj, subname, container_matrix(obj))


def local_element(obj, subname):
    """The picked vertex, edge or face in the coordinates of the object that holds it (the
    last one the path names, ``obj`` itself without a path): the placements of that object
    and of everything above it left out (bodies, ``App::Link`` objects showing parts of
    other files, containers), so that moving any of them changes nothing. Arguments and
    errors as ``global_element``."""
    return _element_at(obj, subname, _holder_matrix(obj, split_subname(subname)[0]).inverse())


def _holder_matrix(obj, path):
    """Placement (matrix) of the object at ``path`` below ``obj``, as ``Part.getShape``
    applies it: ``obj``'s own placement and those down the path (containers not included)."""
    found = obj.getSubObject(path, 2) if path else None
    return found[1] if found else obj.Placement.toMatrix()


def element_names(obj, subname, kind):
    """``[(name, element)]`` of every element of type ``kind`` (``"Vertex"``, ``"Edge"``,
    ``"Face"``) of the sub-object that holds ``subname``'s element, in its own
    coordinates (as ``local_element``); ``name`` is the path from ``obj``
    (``"Body.Pad.Face7"``). Empty when the sub-object has no shape."""
    path, _ = split_subname(subname)
    shape = shape_at(obj, path, _holder_matrix(obj, path).inverse())
    if shape.isNull():
        return []
    return [("%s%s%d" % (path, kind, i + 1), e)
            for i, e in enumerate(getattr(shape, _PLURAL[kind][0]))]


def _element_at(obj, subname, mat):
    """The element ``subname`` of ``obj``, ``Part.getShape`` pre-multiplied by ``mat``."""
    label = "%s.%s" % (obj.Label, subname)
    path, element = split_subname(subname)
    if not _ELEMENT_NAME.match(element):
        raise ModelError("%s: '%s' does not name a vertex, edge or face (expected e.g. "
                         "'Vertex1', 'Edge5', 'Face2')" % (label, element))
    if subname.split(".")[-1].startswith(MISSING_PREFIX):
        # FreeCAD 1.x already knows the element vanished; its index may name another one
        raise ModelError(_missing_message(obj, path, element, mat, label))
    shape = shape_at(obj, subname, mat, element=True)
    if shape.isNull() and path + element != subname:
        # A 1.x mapped name FreeCAD cannot resolve here: use its indexed part.
        shape = shape_at(obj, path + element, mat, element=True)
    if shape.isNull():
        raise ModelError(_missing_message(obj, path, element, mat, label))
    return shape


def _missing_message(obj, path, element, mat, label):
    owner = obj.getSubObject(path, 1) if path else obj
    if owner is None:
        return "%s: '%s' has no sub-object '%s'" % (label, obj.Label, path.rstrip("."))
    shape = shape_at(obj, path, mat)
    kind = _ELEMENT_NAME.match(element).group(1)
    attribute, plural = _PLURAL[kind]
    count = 0 if shape.isNull() else len(getattr(shape, attribute))
    return "%s: %s of '%s' no longer exists (the shape has %d %s)" % (
        label, element, owner.Label, count, plural)


def is_datum_frame(obj):
    """Whether ``obj`` is a datum coordinate system (``DATUM_FRAME_TYPES``)."""
    return obj is not None and any(obj.isDerivedFrom(t) for t in DATUM_FRAME_TYPES)


def _datum_element(obj):
    """``(kind, axis column)`` of a datum line, plane or point (``DATUM_ELEMENT_TYPES``),
    else ``None``."""
    if obj is None:
        return None
    return next(((kind, axis) for t, kind, axis in DATUM_ELEMENT_TYPES
                 if obj.isDerivedFrom(t)), None)


def is_datum(obj):
    """Whether ``obj`` gives a joint frame picked whole: a datum coordinate system, line,
    plane or point (PartDesign, Part, an ``App::Origin``'s axes and planes)."""
    return is_datum_frame(obj) or _datum_element(obj) is not None


def _datum_frame(obj, path, label):
    """``RefFrame`` of the datum at ``path`` below ``obj`` (``""``: ``obj`` itself), in
    world: a coordinate system gives its origin, z axis and full rotation; a line its
    placement's origin (on the line) and direction; a plane its placement's origin (on
    the plane) and normal; a point its position."""
    if path:
        found = obj.getSubObject(path, 2)         # (object, matrix, ...)
        target, matrix = (found[0], found[1]) if found else (None, None)
    else:
        target, matrix = obj, obj.Placement.toMatrix()
    element = _datum_element(target)
    if not is_datum_frame(target) and element is None:
        raise ModelError("%s: no element: the path does not name a vertex, edge or face, and "
                         "'%s' is not a datum (coordinate system, line, plane or point)"
                         % (label, getattr(target, "Label", path.rstrip(".") or obj.Label)))
    world = FreeCAD.Placement(container_matrix(obj).multiply(matrix))
    R = np.array(world.Rotation.toMatrix().A, dtype=float).reshape(4, 4)[:3, :3]
    point = _array(world.Base) * M_PER_MM
    if element is None:
        return RefFrame("frame", point, R[:, 2].copy(), label, R)
    kind, axis = element
    if axis == "role":
        axis = ORIGIN_AXES.get(str(getattr(target, "Role", "")))
        own = rotation_to_matrix(target.Placement.Rotation)
        R = R @ own.T if axis is not None else R        # the Origin's axes, in world
        axis = 0 if axis is None else axis
    return RefFrame(kind, point, None if axis is None else R[:, axis].copy(), label)


def reference_frame(obj, subname):
    """Point and axis of a picked vertex, edge or face, in world coordinates.

    ========  ==========================================  ============================
    kind      point                                       axis
    ========  ==========================================  ============================
    vertex    the vertex                                  None
    line      mid-point of the edge                       first -> last vertex (edge
                                                          orientation respected)
    circle    centre (full circles and arcs)              the circle's Axis
    plane     centre of mass of the face                  outward normal (respects
                                                          ``Face.Orientation``)
    cylinder  face centre of mass projected on the axis   the cylinder's Axis
    sphere    centre                                      None
    cone      apex                                        the cone's Axis
    frame     origin of a datum coordinate system         its z axis (``rotation``: all
              (the path names it, no element)             three axes)
    line      a datum line's placement origin             its direction
    plane     a datum plane's placement origin            its normal
    vertex    a datum point                               None
    ========  ==========================================  ============================

    Axes of circles, cylinders and cones are as FreeCAD's geometry reports
    them (``Circle.Axis``, ``Cylinder.Axis``, ``Cone.Axis``, as FreeCAD's
    Assembly workbench uses them); they do not flip with the orientation of the
    edge or face, so their sign is a modelling accident: on FreeCAD 0.20 the
    side face of a ``Part::Cylinder`` reports -z while its circles report +z.
    Only plane normals are oriented (outward).

    Parameters
    ----------
    obj : App.DocumentObject
        Any object ``massprops.global_shape`` accepts.
    subname : str
        ``"Vertex3"``, ``"Edge5"``, ``"Face2"`` or a dotted path relative to
        ``obj`` (``"Body.Pad.Face3"``).

    Returns
    -------
    RefFrame
        ``point`` [m] and unit ``axis`` in world coordinates.

    Raises
    ------
    ModelError
        The element does not exist or is of an unsupported kind (B-spline
        face, ellipse edge, torus...); the message names ``<Label>.<subname>``.
    """
    label = "%s.%s" % (obj.Label, subname)
    path, _ = split_subname(subname)
    if is_datum_reference(obj, subname):
        return _datum_frame(obj, path, label)      # a datum, or an edge/face of one
    kind, point, axis, _ = element_geometry(global_element(obj, subname), label)
    return RefFrame(kind, point * M_PER_MM, axis, label)


def is_datum_reference(obj, subname):
    """Whether ``(obj, subname)`` designates a datum (a coordinate system, line, plane or
    point, or an edge or face of one): its frame is the datum's placement, not an
    element's geometry."""
    path, element = split_subname(subname)
    return not element or (bool(path) and _datum_element(obj.getSubObject(path, 1)) is not None)


def element_geometry(element, label):
    """``(kind, point [mm], unit axis or None, radius [mm] or None)`` of a vertex, edge or
    face, in the element's own coordinates: the point and axis as ``reference_frame``
    describes them, the radius of a circle, cylinder or sphere. ``ModelError`` naming
    ``label`` for an unsupported geometry."""
    kind, point, axis = _ELEMENT_FRAMES[element.ShapeType](element, label)
    radius = _radius(element) if kind in ("circle", "cylinder", "sphere") else None
    return kind, _array(point), None if axis is None else _unit(axis), radius


def _radius(element):
    geometry = _geometry(element, "Curve" if element.ShapeType == "Edge" else "Surface")
    if isinstance(geometry, Part.RectangularTrimmedSurface):
        geometry = geometry.BasisSurface
    return float(geometry.Radius)


def _vertex_frame(vertex, label):
    return "vertex", vertex.Point, None


def _edge_frame(edge, label):
    curve = _geometry(edge, "Curve")
    if isinstance(curve, (Part.Line, Part.LineSegment)):
        first, last = edge.firstVertex(True).Point, edge.lastVertex(True).Point
        if (last - first).Length < _MIN_LENGTH:
            raise ModelError("%s: the straight edge has zero length" % label)
        return "line", (first + last) * 0.5, last - first
    if isinstance(curve, Part.Circle):
        return "circle", curve.Center, curve.Axis
    raise _unsupported(label, "edge", curve)


def _face_frame(face, label):
    surface = _geometry(face, "Surface")
    if isinstance(surface, Part.RectangularTrimmedSurface):
        surface = surface.BasisSurface
    if isinstance(surface, Part.Plane):
        return _plane_frame(face)
    if isinstance(surface, Part.Cylinder):
        centre, axis = _array(surface.Center), _unit(surface.Axis)
        offset = _array(face.CenterOfMass) - centre
        return "cylinder", centre + axis * (offset @ axis), axis
    if isinstance(surface, Part.Sphere):
        return "sphere", surface.Center, None
    if isinstance(surface, Part.Cone):
        return "cone", surface.Apex, surface.Axis
    if _is_planar(surface):  # e.g. a flat B-spline face from a STEP file
        return _plane_frame(face)
    raise _unsupported(label, "face", surface)


def _plane_frame(face):
    """Centre of mass and outward normal of a planar face."""
    # The normal of a plane is the same at every parameter, so the middle of
    # the face's parameter range serves even when it falls in a hole.
    u0, u1, v0, v1 = face.ParameterRange
    normal = face.normalAt(0.5 * (u0 + u1), 0.5 * (v0 + v1))  # flipped for reversed faces
    return "plane", face.CenterOfMass, normal


def _is_planar(surface):
    """Whether a surface is flat within Precision::Confusion (GeometrySurface.isPlanar,
    0.20 and 1.x). Not ``Face.findPlane()``: it fits a plane to the boundary edges
    only and accepts curved faces with flat boundaries."""
    try:
        return surface is not None and surface.isPlanar()
    except Exception:  # isPlanar raises for some surface types
        return False


_ELEMENT_FRAMES = {"Vertex": _vertex_frame, "Edge": _edge_frame, "Face": _face_frame}


def _geometry(element, attribute):
    try:
        return getattr(element, attribute)
    except Exception:  # FreeCAD raises for geometry types it cannot wrap
        return None


def _unsupported(label, what, geometry):
    name = "unknown" if geometry is None else type(geometry).__name__
    return ModelError("%s: unsupported %s geometry (%s); a reference must be %s"
                      % (label, what, name, SUPPORTED_TEXT))


def _array(vector):
    return np.array([vector[0], vector[1], vector[2]], dtype=float)


def _unit(vector):
    v = _array(vector)
    return v / np.linalg.norm(v)
