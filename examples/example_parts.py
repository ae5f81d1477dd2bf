"""Part primitives and helpers the example models are built from (``make_examples.py``).

Links are a ``Part::Box`` fused with two round end bosses (``Part::Cylinder``,
``Part::MultiFuse``); joints are picked on geometry (``find_element``: the element
names are found by geometry, not hard-coded). Planar mechanisms move in the x-z plane
(gravity -z), each link in its own slab along y.
"""
import math

import FreeCAD
import Part

from SimPhantWorkbench import factory

V = FreeCAD.Vector

#: density of the links [kg/m^3] (aluminium) and of the slider and the top (steel)
ALUMINIUM = 2700.0
STEEL = 7850.0

#: link cross-section [mm]: thickness along y (the slab), width in the x-z plane,
#: radius of the end bosses
THICKNESS = 10.0
WIDTH = 16.0
BOSS = 12.0


def find_element(obj, kind, point, axis=None, tol=1e-6):
    """Name ("Edge7") of the ``kind`` element of ``obj``'s shape at ``point`` (mm, world).

    Edges: circles/arcs by centre (and axis parallel to ``axis`` if given), other
    edges by mid-point. Faces: by centre of mass. Vertices: by position.
    """
    shape = obj.Shape
    target = V(*point)
    items = {"Vertex": shape.Vertexes, "Edge": shape.Edges, "Face": shape.Faces}[kind]
    for i, e in enumerate(items, start=1):
        if kind == "Vertex":
            p = e.Point
        elif kind == "Edge":
            curve = e.Curve
            if isinstance(curve, Part.Circle):
                p = curve.Center
                if axis is not None and abs(abs(curve.Axis.dot(V(*axis))) - 1.0) > 1e-9:
                    continue
            else:
                if axis is not None:
                    continue
                p = e.valueAt(0.5 * (e.FirstParameter + e.LastParameter))
        else:
            p = e.CenterOfMass
        if (p - target).Length < tol:
            return "%s%d" % (kind, i)
    raise RuntimeError("no %s of '%s' at %s" % (kind, obj.Label, tuple(point)))


def y_cylinder(doc, name, x, z, y0, length, radius):
    """``Part::Cylinder`` with its axis along +y, from ``y0`` to ``y0 + length``."""
    cyl = doc.addObject("Part::Cylinder", name)
    cyl.Radius = radius
    cyl.Height = length
    cyl.Placement = FreeCAD.Placement(V(x, y0, z), FreeCAD.Rotation(V(1, 0, 0), -90))
    return cyl


def hide(obj):
    """Hide a boolean's input: the App-side ``Visibility`` is saved with the document even
    headless (no GuiDocument.xml), so FreeCAD's GUI opens the example with only the fused
    links shown (the inputs do not move in playback)."""
    obj.Visibility = False
    if obj.ViewObject is not None:
        obj.ViewObject.Visibility = False


def make_link(doc, name, label, p1, p2, y0, thickness=THICKNESS, width=WIDTH, boss=BOSS,
              flywheel=0.0):
    """A flat bar between the hinge points ``p1``, ``p2`` ((x, z) in mm), in the slab
    ``y0 <= y <= y0 + thickness``, with round bosses centred on the hinge points
    (and a flywheel disc of radius ``flywheel`` about ``p1`` if given).

    A ``Part::MultiFuse`` of a ``Part::Box`` and ``Part::Cylinder`` features
    (axis y), labelled ``label``. The hinge circles are the boss (or flywheel)
    edges on the slab's faces.
    """
    (x1, z1), (x2, z2) = p1, p2
    length = math.hypot(x2 - x1, z2 - z1)
    phi = math.degrees(math.atan2(z2 - z1, x2 - x1))
    bar = doc.addObject("Part::Box", name + "Bar")
    bar.Length, bar.Width, bar.Height = length, thickness, width
    rot = FreeCAD.Rotation(V(0, 1, 0), -phi)          # box x axis -> p1 -> p2
    base = V(x1, y0, z1) - rot.multVec(V(0, 0, width / 2.0))
    bar.Placement = FreeCAD.Placement(base, rot)
    b1 = y_cylinder(doc, name + "Boss1", x1, z1, y0, thickness, boss)
    b2 = y_cylinder(doc, name + "Boss2", x2, z2, y0, thickness, boss)
    parts = [bar, b1, b2]
    if flywheel:
        parts.append(y_cylinder(doc, name + "Flywheel", x1, z1, y0, thickness, flywheel))
    return fused(doc, name, label, parts)


def z_cylinder(doc, name, x, y, z0, height, radius):
    """``Part::Cylinder`` with its axis along +z, from ``z0`` to ``z0 + height``."""
    cyl = doc.addObject("Part::Cylinder", name)
    cyl.Radius, cyl.Height = radius, height
    cyl.Placement.Base = V(x, y, z0)
    return cyl


def box(doc, name, label, lo, hi):
    """``Part::Box`` between the corners ``lo`` and ``hi`` (x, y, z) [mm]."""
    b = doc.addObject("Part::Box", name)
    b.Length, b.Width, b.Height = (h - l for l, h in zip(lo, hi))
    b.Placement.Base = V(*lo)
    b.Label = label
    return b


def fused(doc, name, label, parts, compound=False):
    """``Part::MultiFuse`` of ``parts`` (hidden), labelled ``label``; with ``compound`` a
    ``Part::Compound`` of them instead (for parts that touch without overlapping), whose
    elements are numbered part after part whatever the version of the geometry kernel
    (a boolean's numbering may change with it, and with it what a picked name means)."""
    obj = doc.addObject("Part::Compound" if compound else "Part::MultiFuse", name)
    if compound:
        obj.Links = parts
    else:
        obj.Shapes = parts
    obj.Label = label
    for o in parts:
        hide(o)
    return obj


def hinge(obj, x, z, y):
    """The circular edge of ``obj`` centred on (x, y, z) with its axis along y."""
    return (obj, find_element(obj, "Edge", (x, y, z), axis=(0, 1, 0)))


def perp(u):
    """``y x u`` for u = (x, z): the velocity of a point at ``u`` from the axis of a
    rotation about +y at unit rate, as (x, z)."""
    return (u[1], -u[0])


def set_planar_motion(body, omega_y, point, v_point=(0.0, 0.0)):
    """Give ``body`` a rigid motion in the x-z plane, consistent with its joints.

    ``omega_y`` [rad/s] about +y; ``point`` (x, z) [mm] a point of the body moving at
    ``v_point`` (x, z) [mm/s]. Sets the CoG velocity (from the body's computed CoG)
    and the angular velocity, so the solver's initial velocity projection has
    nothing to correct.
    """
    cog = body.CoG
    w = perp((cog.x - point[0], cog.z - point[1]))
    body.InitialVelocity = V(v_point[0] + omega_y * w[0], 0.0, v_point[1] + omega_y * w[1])
    body.InitialAngularVelocity = V(0.0, math.degrees(omega_y), 0.0)


def new_document(name):
    if name in FreeCAD.listDocuments():
        FreeCAD.closeDocument(name)
    return FreeCAD.newDocument(name)


def new_study(doc, end_time, time_step=1e-3, output_interval=0.01):
    study = factory.make_study(doc)
    study.EndTime = end_time
    study.TimeStep = time_step
    study.OutputInterval = output_interval
    study.Integrator = "rk4"
    return study



def face_at(obj, point):
    """``(obj, "FaceN")``: the face of ``obj`` whose centre of mass is at ``point`` (mm)."""
    return (obj, find_element(obj, "Face", point))
