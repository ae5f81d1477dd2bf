"""Document builders shared by the document-layer tests (objects, conversion, runner, playback).

Elements are found by geometry (``element_name``), not by hard-coded indices,
so the tests do not depend on OCC's numbering of primitive faces and edges.
"""
import itertools
import math

import numpy as np
import pytest

import FreeCAD
import Part

from SimPhantWorkbench import factory

G = 9.80665


def vec(*xs):
    return FreeCAD.Vector(*xs)


def element_name(obj, kind, point, shape=None, curve=None):
    """Name ("Edge3") of the ``kind`` element ("Vertex", "Edge", "Face") of ``obj``'s
    shape whose reference point is at ``point`` (mm, world): a vertex's point, a
    circle's centre, an edge's or face's centre of mass. ``curve`` filters edges
    by geometry type name ("Circle", "Line")."""
    shape = shape if shape is not None else obj.Shape
    target = vec(*point)
    items = {"Vertex": shape.Vertexes, "Edge": shape.Edges, "Face": shape.Faces}[kind]
    best = None
    for i, e in enumerate(items, start=1):
        if kind == "Vertex":
            p = e.Point
        elif kind == "Edge":
            if curve is not None and type(e.Curve).__name__ != curve:
                continue
            p = e.Curve.Center if hasattr(e.Curve, "Center") else e.CenterOfMass
        else:
            p = e.CenterOfMass
        d = (p - target).Length
        if best is None or d < best[0]:
            best = (d, "%s%d" % (kind, i))
    assert best is not None and best[0] < 1e-6, "no %s at %s on %s" % (kind, point, obj.Label)
    return best[1]


def pendulum(doc, length=200.0, radius=2.0, density=1000.0):
    """A compound pendulum made of Part primitives.

    A fixed pin (``Part::Cylinder`` along +y) and a rod (``Part::Cylinder``,
    axis -z, hanging from z = 0). The revolute joint is picked on the pin's
    circular edge at y = 0 (centre = pivot (radius, 0, 0), axis y) and the
    rod's top vertex (on the rod's rim, at the pivot). The rod's CoG starts
    ``radius`` mm beside the vertical through the pivot: amplitude
    ``atan(radius / (length / 2))``.

    Returns a dict with study, pin, rod, body objects, joint and the analytic
    small-amplitude period.
    """
    rod = doc.addObject("Part::Cylinder", "Rod")
    rod.Radius = radius
    rod.Height = length
    rod.Placement.Base = vec(0, 0, -length)
    pin = doc.addObject("Part::Cylinder", "Pin")
    pin.Radius = 1.0
    pin.Height = 10.0
    pin.Placement = FreeCAD.Placement(vec(radius, 0, 0), FreeCAD.Rotation(vec(1, 0, 0), -90))
    doc.recompute()
    study = factory.make_study(doc)
    study.EndTime = 2.0
    study.TimeStep = 1e-3
    study.OutputInterval = 1e-3
    ground = factory.make_body(study, pin, fixed=True)
    link = factory.make_body(study, rod, density=density)
    edge = element_name(pin, "Edge", (radius, 0, 0), curve="Circle")
    vertex = element_name(rod, "Vertex", (radius, 0, 0))
    joint = factory.make_joint(study, "revolute", (pin, edge), (rod, vertex), name="Hinge")
    # analytic compound pendulum: T = 2 pi sqrt(I_O / (m g d))
    L, r = length * 1e-3, radius * 1e-3
    m = density * math.pi * r * r * L
    i_cog = m * (3 * r * r + L * L) / 12.0
    d = math.hypot(r, L / 2)
    period = 2 * math.pi * math.sqrt((i_cog + m * d * d) / (m * G * d))
    return dict(study=study, pin=pin, rod=rod, ground=ground, link=link, joint=joint,
                period=period, amplitude=math.atan2(r, L / 2), pivot=np.array([r, 0.0, 0.0]))


def zero_crossings(t, x):
    """Times where ``x`` changes sign (linear interpolation)."""
    idx = np.where(np.sign(x[:-1]) * np.sign(x[1:]) < 0)[0]
    return np.array([t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k]) for k in idx])


def free_box(doc, name="Block", placement=None, size=(40.0, 20.0, 10.0)):
    """A ``Part::Box`` (origin at a corner, so the CoG is off the origin)."""
    box = doc.addObject("Part::Box", name)
    box.Length, box.Width, box.Height = size
    if placement is not None:
        box.Placement = placement
    doc.recompute()
    return box


def tumbling_study(doc, shape_obj):
    """A study in which ``shape_obj`` flies and tumbles freely (no gravity).

    The body starts with a velocity and an angular velocity about a
    non-principal axis, so its position and rotation both change.
    """
    study = factory.make_study(doc)
    study.GravityAcceleration = 0.0
    study.EndTime = 0.5
    study.TimeStep = 1e-3
    study.OutputInterval = 0.05
    body = factory.make_body(study, shape_obj, density=2700.0, velocity=(100.0, -50.0, 20.0),
                             angular_velocity=(90.0, 200.0, -45.0))
    return study, body


def placement_bits(pl):
    """Exact tuple of a placement's floats (for bit-exact comparisons)."""
    return tuple(pl.Base) + tuple(pl.Rotation.Q)


def all_placements(doc):
    """{object Name: exact placement tuple} of every object that has a Placement."""
    return {o.Name: placement_bits(o.Placement) for o in doc.Objects
            if "Placement" in o.PropertiesList}


def reopen(doc, path):
    """Save ``doc`` to ``path``, close it and open it again; returns the new document."""
    doc.saveAs(str(path))
    FreeCAD.closeDocument(doc.Name)
    return FreeCAD.openDocument(str(path))


def solid_box_shape(size=(10.0, 10.0, 10.0)):
    return Part.makeBox(*size)


_names = itertools.count(1)


@pytest.fixture
def docs():
    """A factory of fresh documents; all documents open at the end that were not
    open at the start are closed (survives save/close/reopen inside a test)."""
    before = set(FreeCAD.listDocuments())

    def new(name="SimPhantDoc"):
        return FreeCAD.newDocument("%s%d" % (name, next(_names)))

    yield new
    for name in list(FreeCAD.listDocuments()):
        if name not in before:
            FreeCAD.closeDocument(name)


def assert_public_api(module):
    """The module is documented and its ``__all__`` is its public API exactly: every name
    resolves, none twice, and every public function or class defined in the module is
    listed (a forgotten export, or a stale name after a rename, fails)."""
    import inspect
    assert module.__doc__ and module.__doc__.strip(), "%s has no docstring" % module.__name__
    names = list(module.__all__)
    assert len(names) == len(set(names)), "%s.__all__ lists a name twice" % module.__name__
    missing = [n for n in names if not hasattr(module, n)]
    assert not missing, "%s.__all__ names missing objects: %s" % (module.__name__, missing)
    defined = [n for n, o in vars(module).items()
               if not n.startswith("_") and (inspect.isfunction(o) or inspect.isclass(o))
               and getattr(o, "__module__", None) == module.__name__]
    unlisted = [n for n in defined if n not in names]
    assert not unlisted, "%s defines public %s but does not export them" % (module.__name__,
                                                                             unlisted)


#: an add-on's module defining a Python feature, for models whose add-on is then missing
PROBE_MODULE = '''
class Probe:
    """A Python feature of an add-on that is not installed where the model is opened."""
    def __init__(self, obj):
        obj.addProperty("App::PropertyLength", "Size", "Probe", "a value")
        obj.Proxy = self
    def execute(self, obj):
        pass
    def dumps(self):
        return None
    def loads(self, state):
        return None
    __getstate__, __setstate__ = dumps, loads
'''
