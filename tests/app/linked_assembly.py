"""A mechanism built as a CAD designer builds one with Assembly4 (or FreeCAD 1.x's "Insert
Component"): each part in its own file, an ``App::Part`` holding its geometry and datum
coordinate systems (LCS), and an assembly file whose ``App::Part`` "Model" shows the
parts through ``App::Link`` objects.

* ``ground.FCStd``: ``GroundPart`` = a sketch (a rectangle, no solid) and ``LCS_Pivot``;
* ``crank.FCStd``: ``CrankPart`` = a bar ``Bar`` (100 x 10 x 5 mm along its x) and
  ``LCS_Pivot`` at its end (z along the bar's thickness); with ``datums``, also the
  PartDesign datums ``Line_Tip`` (along z through the tip's LCS), ``Plane_Top`` (the top
  face's plane, its origin above the tip) and ``Point_Tip`` (the tip's LCS origin);
* ``assembly.FCStd``: ``Model`` with the links ``Ground_1`` and ``Crank_1``, the crank
  placed so its ``LCS_Pivot`` lies on the ground's, turned ``CRANK_ANGLE`` about z.

Used by the headless tests and by the GUI tests (imported inside FreeCAD)."""
import os

import FreeCAD
import Part

#: where the ground's LCS_Pivot is in the assembly [mm], and the crank's initial angle [deg]
PIVOT = (20.0, 30.0, 10.0)
CRANK_ANGLE = 30.0
BAR_LENGTH = 100.0


def _lcs(doc, part, name, base, rotation=None):
    lcs = doc.addObject("PartDesign::CoordinateSystem", name)
    part.addObject(lcs)
    lcs.Placement = FreeCAD.Placement(FreeCAD.Vector(*base), rotation or FreeCAD.Rotation())
    return lcs


def _ground(folder):
    import Sketcher
    doc = FreeCAD.newDocument("ground")
    part = doc.addObject("App::Part", "GroundPart")
    sketch = doc.addObject("Sketcher::SketchObject", "Sketch")
    part.addObject(sketch)
    corners = [FreeCAD.Vector(*c) for c in ((0, 0, 0), (40, 0, 0), (40, 60, 0), (0, 60, 0))]
    for a, b in zip(corners, corners[1:] + corners[:1]):
        sketch.addGeometry(Part.LineSegment(a, b), False)
    for i in range(4):
        sketch.addConstraint(Sketcher.Constraint("Coincident", i, 2, (i + 1) % 4, 1))
    _lcs(doc, part, "LCS_Pivot", PIVOT)
    doc.recompute()
    doc.saveAs(os.path.join(folder, "ground.FCStd"))
    return doc


#: the crank's datums (``build(datums=True)``): type, name, placement in the part
DATUMS = (("PartDesign::Line", "Line_Tip", (BAR_LENGTH, 0, 5), None),
          ("PartDesign::Plane", "Plane_Top", (BAR_LENGTH, 0, 5), None),
          ("PartDesign::Point", "Point_Tip", (BAR_LENGTH, 0, 5), None),
          ("PartDesign::Line", "Line_Along", (50, 0, 0),
           FreeCAD.Rotation(FreeCAD.Vector(0, 1, 0), 90)))     # z turned onto the bar's x


def _crank(folder, datums=False):
    doc = FreeCAD.newDocument("crank")
    part = doc.addObject("App::Part", "CrankPart")
    bar = doc.addObject("Part::Feature", "Bar")
    bar.Shape = Part.makeBox(BAR_LENGTH, 10, 5, FreeCAD.Vector(0, -5, 0))
    part.addObject(bar)
    _lcs(doc, part, "LCS_Pivot", (0, 0, 0))
    _lcs(doc, part, "LCS_Tip", (BAR_LENGTH, 0, 5))
    for kind, name, base, rotation in (DATUMS if datums else ()):
        datum = doc.addObject(kind, name)
        part.addObject(datum)
        datum.Placement = FreeCAD.Placement(FreeCAD.Vector(*base), rotation or FreeCAD.Rotation())
    doc.recompute()
    doc.saveAs(os.path.join(folder, "crank.FCStd"))
    return doc


def build(folder, datums=False):
    """Write the three files into ``folder`` and return the open assembly document
    (the part documents stay open, as FreeCAD keeps them for the links); ``datums``: the
    crank has datum lines, planes and points too (``DATUMS``)."""
    ground = _ground(folder)
    crank = _crank(folder, datums)
    doc = FreeCAD.newDocument("assembly")
    doc.saveAs(os.path.join(folder, "assembly.FCStd"))
    model = doc.addObject("App::Part", "Model")
    for name, source, placement in (
            ("Ground_1", ground.getObject("GroundPart"), FreeCAD.Placement()),
            ("Crank_1", crank.getObject("CrankPart"), FreeCAD.Placement(
                FreeCAD.Vector(*PIVOT), FreeCAD.Rotation(FreeCAD.Vector(0, 0, 1),
                                                         CRANK_ANGLE)))):
        link = doc.addObject("App::Link", name)
        link.LinkedObject = source
        link.Placement = placement
        model.addObject(link)
    doc.recompute()
    doc.save()
    return doc
