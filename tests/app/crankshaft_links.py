"""A crankshaft swinging on its crank pin, built as a CAD designer builds an assembly: each
part in its own file, an ``App::Part`` holding it, and an assembly file showing the parts
through ``App::Link`` objects placed in an ``App::Part`` "Model".

* ``crankshaft.FCStd``: ``CrankshaftPart`` holding ``CrankshaftSolid``, a ``Part::Feature``
  whose shape a script writes (``set_crankshaft``): a journal (cylinder r = ``JOURNAL_R``
  on the part's z axis, z 0..30) and a crank pin (r = ``PIN_R`` on the axis x = ``PIN_X``,
  z 30..60). ``pin_first`` decides which of the two comes first in the compound, so its
  faces are numbered one way or the other: the renumbering a model edit brings;
  ``build(parametric=True)`` makes it of parametric features instead (``Part::Cut`` of a
  fusion), whose faces an edit of another feature renumbers;
* ``frame.FCStd``: ``FramePart`` holding ``Bearing``, a cylinder coaxial with the pin in the
  assembly (same radius and length);
* ``assembly.FCStd``: links ``Frame_1`` and ``Crank_1`` (placed at ``CRANK_PLACEMENT``), a
  study with the frame fixed, the crankshaft moving, gravity along -y, and a revolute
  ``CrankPin`` on the bearing's face and the crank pin's face.

Faces are found by geometry, never by hard-coded indices."""
import math
import os

import FreeCAD
import Part

from SimPhantWorkbench import factory

JOURNAL_R = 25.0
PIN_R = 20.0
PIN_X = 60.0
LENGTH = 30.0
#: where the crankshaft part sits in the assembly [mm, deg about z]
CRANK_BASE = (10.0, 20.0, 5.0)
CRANK_ANGLE = 30.0
#: radius of the parametric crankshaft's oil hole [mm]
HOLE_R = 8.0


def crank_placement():
    return FreeCAD.Placement(FreeCAD.Vector(*CRANK_BASE),
                             FreeCAD.Rotation(FreeCAD.Vector(0, 0, 1), CRANK_ANGLE))


def crankshaft_shape(pin_radius=PIN_R, pin_first=True, journal_radius=JOURNAL_R, pin_tilt=0.0,
                     second_pin=False):
    """The journal and the pin as one compound (part coordinates, mm). ``pin_tilt``: the pin
    turned [deg] about the x axis through its centre; ``second_pin``: a copy of the pin
    in the same place (two faces with the same geometry)."""
    journal = Part.makeCylinder(journal_radius, LENGTH)
    pin = Part.makeCylinder(pin_radius, LENGTH, FreeCAD.Vector(PIN_X, 0, LENGTH))
    if pin_tilt:
        pin.rotate(FreeCAD.Vector(PIN_X, 0, 1.5 * LENGTH), FreeCAD.Vector(1, 0, 0), pin_tilt)
    pins = [pin, pin.copy()] if second_pin else [pin]
    return Part.makeCompound(pins + [journal] if pin_first else [journal] + pins)


def cylinder_face(shape, radius, x):
    """``"FaceN"``: the cylindrical face of ``shape`` with ``radius`` on the axis at x."""
    for i, face in enumerate(shape.Faces, start=1):
        surface = face.Surface
        if isinstance(surface, Part.Cylinder) and abs(surface.Radius - radius) < 1e-9 \
                and abs(surface.Center.x - x) < 1e-9:
            return "Face%d" % i
    raise AssertionError("no cylinder r=%g at x=%g" % (radius, x))


def set_crankshaft(doc, **kwargs):
    """Rewrite the crankshaft's shape (``crankshaft_shape`` arguments) and recompute."""
    solid = doc.getObject("CrankshaftSolid")
    solid.Shape = crankshaft_shape(**kwargs)
    doc.recompute()
    return solid


def pin_axis_world():
    """``(point, direction)`` of the crank pin's axis in the assembly [mm]."""
    pl = crank_placement()
    return pl.multVec(FreeCAD.Vector(PIN_X, 0, 0)), pl.Rotation.multVec(FreeCAD.Vector(0, 0, 1))


def _parametric_crankshaft(folder):
    """``crankshaft.FCStd`` made of parametric features inside ``CrankshaftPart``: a journal,
    a web and the pin fused, minus an oil hole along x (``Hole``, radius ``HOLE_R``) through
    the journal; the result ``CrankshaftSolid`` (a ``Part::Cut``). A hole of radius 12 mm
    breaks through the journal's end face: one more face, numbered before the pin's."""
    doc = FreeCAD.newDocument("crankshaft")
    part = doc.addObject("App::Part", "CrankshaftPart")

    def cylinder(name, radius, height, base, axis=(0, 0, 1)):
        c = doc.addObject("Part::Cylinder", name)
        c.Radius, c.Height = radius, height
        c.Placement = FreeCAD.Placement(FreeCAD.Vector(*base), FreeCAD.Rotation(
            FreeCAD.Vector(0, 0, 1), FreeCAD.Vector(*axis)))
        return c
    journal = cylinder("Journal", JOURNAL_R, LENGTH, (0, 0, 0))
    pin = cylinder("Pin", PIN_R, LENGTH, (PIN_X, 0, LENGTH))
    web = doc.addObject("Part::Box", "Web")
    web.Length, web.Width, web.Height = PIN_X, 20, 10
    web.Placement.Base = FreeCAD.Vector(0, -10, LENGTH - 5)
    fuse = doc.addObject("Part::MultiFuse", "Fuse")
    fuse.Shapes = [journal, web, pin]
    hole = cylinder("Hole", HOLE_R, 100, (-50, 0, 10), (1, 0, 0))
    cut = doc.addObject("Part::Cut", "CrankshaftSolid")
    cut.Base, cut.Tool = fuse, hole
    for obj in (journal, pin, web, fuse, hole, cut):
        part.addObject(obj)
    for obj in (journal, pin, web, fuse, hole):
        obj.Visibility = False        # as the GUI hides a boolean's inputs
    doc.recompute()
    doc.saveAs(os.path.join(folder, "crankshaft.FCStd"))
    return doc


def _part_file(folder, name, part_name, solid_name, shape):
    doc = FreeCAD.newDocument(name)
    part = doc.addObject("App::Part", part_name)
    solid = doc.addObject("Part::Feature", solid_name)
    solid.Shape = shape
    part.addObject(solid)
    doc.recompute()
    doc.saveAs(os.path.join(folder, name + ".FCStd"))
    return doc


def build(folder, undo=False, parametric=False):
    """Write the three files into ``folder``; return ``(assembly, crankshaft doc, study)``
    (the part documents stay open, as FreeCAD keeps them for the links). ``undo``: the
    assembly records undo steps; ``parametric``: the crankshaft of ``_parametric_crankshaft``
    instead of the scripted shape."""
    crank = _parametric_crankshaft(folder) if parametric else \
        _part_file(folder, "crankshaft", "CrankshaftPart", "CrankshaftSolid", crankshaft_shape())
    point, axis = pin_axis_world()
    bearing = Part.makeCylinder(PIN_R, LENGTH, point + FreeCAD.Vector(0, 0, LENGTH), axis)
    frame = _part_file(folder, "frame", "FramePart", "Bearing", bearing)
    doc = FreeCAD.newDocument("assembly")
    doc.saveAs(os.path.join(folder, "assembly.FCStd"))
    if undo:
        doc.UndoMode = 1
    model = doc.addObject("App::Part", "Model")
    for name, source, placement in (("Frame_1", frame.getObject("FramePart"), None),
                                    ("Crank_1", crank.getObject("CrankshaftPart"),
                                     crank_placement())):
        link = doc.addObject("App::Link", name)
        link.LinkedObject = source
        if placement is not None:
            link.Placement = placement
        model.addObject(link)
    doc.recompute()
    study = factory.make_study(doc)
    study.GravityDirection = FreeCAD.Vector(0, -1, 0)
    study.EndTime = 0.2
    frame_link, crank_link = doc.getObject("Frame_1"), doc.getObject("Crank_1")
    factory.make_body(study, frame_link, fixed=True)
    factory.make_body(study, crank_link, density=7850.0)
    pin = cylinder_face(crank.getObject("CrankshaftSolid").Shape, PIN_R, PIN_X)
    factory.make_joint(study, "revolute",
                       (frame_link, "Bearing." + cylinder_face(bearing, PIN_R, point.x)),
                       (crank_link, "CrankshaftSolid." + pin), name="CrankPin")
    doc.recompute()
    doc.save()
    return doc, crank, study


def cog_track(result):
    """Distances [mm] of the crankshaft's CoG from the pin axis over the run, and its z."""
    point, axis = pin_axis_world()
    p = [point.x, point.y, point.z]
    out = []
    for pos in result.position(result.body_names[0]):
        d = [pos[i] * 1000.0 - p[i] for i in range(3)]
        along = sum(d[i] * axis[i] for i in range(3))
        out.append(math.sqrt(max(sum(c * c for c in d) - along * along, 0.0)))
    return out
