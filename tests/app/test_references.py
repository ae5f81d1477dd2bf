"""references: frames of picked vertices, edges and faces against closed-form values (SI)."""
import itertools
import math

import numpy as np
import pytest

import Part
from FreeCAD import Placement, Rotation, Vector

from SimPhantWorkbench.document import references
from SimPhantWorkbench.document.references import KINDS, reference_frame, split_subname
from SimPhantWorkbench.solver.errors import ModelError

MM = 1e-3
TOL = 1e-12  # m, absolute, for points of a ~0.1 m model (1e-9 relative or better)


def place(x, y, z, axis=(0, 0, 1), angle=0.0):
    return Placement(Vector(x, y, z), Rotation(Vector(*axis), angle))


def world_point(placement, local_mm):
    """World point [m] of a local point [mm]."""
    return np.array(placement.multVec(Vector(*local_mm))) * MM


def world_dir(placement, local):
    v = placement.Rotation.multVec(Vector(*local))
    return np.array(v) / v.Length


def assert_frame(frame, kind, point, axis=None, parallel_only=False):
    assert frame.kind == kind
    assert frame.kind in KINDS
    np.testing.assert_allclose(frame.point, point, rtol=0, atol=TOL)
    if axis is None:
        assert frame.axis is None
        return
    assert np.linalg.norm(frame.axis) == pytest.approx(1.0, abs=1e-14)
    if parallel_only:
        assert abs(frame.axis @ axis) == pytest.approx(1.0, abs=1e-12)
    else:
        np.testing.assert_allclose(frame.axis, axis, rtol=0, atol=1e-12)


@pytest.fixture
def box(doc):
    """Box 40 x 30 x 20 [mm], placed with a general rotation."""
    obj = doc.addObject("Part::Box", "Box")
    obj.Length, obj.Width, obj.Height = 40, 30, 20
    obj.Placement = place(12, -30, 7, (1, 2, 3), 37)
    doc.recompute()
    return obj


# ----------------------------------------------------------------------------- faces of a box

# Part::Box faces: 1 x=0, 2 x=L, 3 y=0, 4 y=W, 5 z=0 (bottom), 6 z=H (top)
BOX_FACES = {
    "Face1": ((0, 15, 10), (-1, 0, 0)), "Face2": ((40, 15, 10), (1, 0, 0)),
    "Face3": ((20, 0, 10), (0, -1, 0)), "Face4": ((20, 30, 10), (0, 1, 0)),
    "Face5": ((20, 15, 0), (0, 0, -1)), "Face6": ((20, 15, 20), (0, 0, 1)),
}


@pytest.mark.parametrize("face", sorted(BOX_FACES))
def test_box_faces_outward_normals(box, face):
    """Outward normals, also on the reversed faces (Face1, 3, 5: bottom is -z)."""
    centre, normal = BOX_FACES[face]
    frame = reference_frame(box, face)
    assert_frame(frame, "plane", world_point(box.Placement, centre),
                 world_dir(box.Placement, normal))
    assert frame.label == "Box." + face


def test_bottom_face_is_a_reversed_face(box):
    assert box.Shape.Faces[4].Orientation == "Reversed"
    frame = reference_frame(box, "Face5")
    np.testing.assert_allclose(frame.axis, world_dir(box.Placement, (0, 0, -1)), atol=1e-12)


def test_box_vertices(box):
    corners = [world_point(box.Placement, c) for c in itertools.product((0, 40), (0, 30), (0, 20))]
    seen = set()
    for i in range(1, 9):
        frame = reference_frame(box, "Vertex%d" % i)
        assert frame.kind == "vertex" and frame.axis is None
        dist = [np.linalg.norm(frame.point - c) for c in corners]
        assert min(dist) < TOL
        seen.add(int(np.argmin(dist)))
    assert len(seen) == 8


def test_box_edges_midpoints_and_directions(box):
    mids = []
    for i, (lo, hi) in enumerate([(0, 40), (0, 30), (0, 20)]):
        for a, b in itertools.product(*[(0, d) for j, d in enumerate((40, 30, 20)) if j != i]):
            local = [a, b]
            local.insert(i, (lo + hi) / 2)
            mids.append((world_point(box.Placement, local), world_dir(box.Placement, np.eye(3)[i])))
    seen = set()
    for i in range(1, 13):
        frame = reference_frame(box, "Edge%d" % i)
        assert frame.kind == "line"
        k = int(np.argmin([np.linalg.norm(frame.point - m) for m, _ in mids]))
        np.testing.assert_allclose(frame.point, mids[k][0], atol=TOL)
        assert abs(frame.axis @ mids[k][1]) == pytest.approx(1.0, abs=1e-12)
        seen.add(k)
    assert len(seen) == 12


def test_line_direction_from_first_to_last_vertex(doc):
    line = doc.addObject("Part::Line", "Line")
    line.X1, line.Y1, line.Z1, line.X2, line.Y2, line.Z2 = 1, 2, 3, 7, -5, 4
    line.Placement = place(10, 0, 0, (0, 1, 1), 50)
    doc.recompute()
    p1 = world_point(line.Placement, (1, 2, 3))
    p2 = world_point(line.Placement, (7, -5, 4))
    assert_frame(reference_frame(line, "Edge1"), "line", (p1 + p2) / 2,
                 (p2 - p1) / np.linalg.norm(p2 - p1))


# ----------------------------------------------------------------------------- round geometry

@pytest.fixture
def cylinder(doc):
    obj = doc.addObject("Part::Cylinder", "Cylinder")
    obj.Radius, obj.Height = 6, 50
    obj.Placement = place(3, 4, -5, (1, -1, 0.5), 65)
    doc.recompute()
    return obj


def elements(obj, kind, geometry_type):
    """Names of obj's faces ("Face") or edges ("Edge") whose Surface/Curve is geometry_type.
    Found by geometry, not by index: the topology of primitives differs between versions."""
    items = obj.Shape.Faces if kind == "Face" else obj.Shape.Edges
    attribute = "Surface" if kind == "Face" else "Curve"
    return ["%s%d" % (kind, i + 1) for i, item in enumerate(items)
            if isinstance(getattr(item, attribute), geometry_type)]


def test_cylinder_faces_and_circles(cylinder):
    pl = cylinder.Placement
    axis = world_dir(pl, (0, 0, 1))
    bottom, top = world_point(pl, (0, 0, 0)), world_point(pl, (0, 0, 50))
    (lateral,) = elements(cylinder, "Face", Part.Cylinder)
    frame = reference_frame(cylinder, lateral)
    # the axis is the surface's own Axis, whichever sign FreeCAD gives it
    reported = np.array(cylinder.Shape.getElement(lateral).Surface.Axis)
    assert_frame(frame, "cylinder", world_point(pl, (0, 0, 25)), reported)
    assert abs(frame.axis @ axis) == pytest.approx(1.0, abs=1e-12)
    # flat ends: outward normals, one of them on a reversed face
    ends = {tuple(np.round(reference_frame(cylinder, f).point, 9)): reference_frame(cylinder, f)
            for f in elements(cylinder, "Face", Part.Plane)}
    assert len(ends) == 2
    for point, normal in ((top, axis), (bottom, -axis)):
        assert_frame(ends[tuple(np.round(point, 9))], "plane", point, normal)
    # circles: centre and the circle's Axis as reported
    circles = elements(cylinder, "Edge", Part.Circle)
    assert len(circles) == 2
    centres = []
    for edge in circles:
        frame = reference_frame(cylinder, edge)
        reported = np.array(cylinder.Shape.getElement(edge).Curve.Axis)
        centre = top if np.linalg.norm(frame.point - top) < TOL else bottom
        assert_frame(frame, "circle", centre, reported)
        assert abs(frame.axis @ axis) == pytest.approx(1.0, abs=1e-12)
        centres.append(centre is top)
    assert sorted(centres) == [False, True]
    (seam,) = elements(cylinder, "Edge", Part.Line)
    assert reference_frame(cylinder, seam).kind == "line"


def test_partial_cylinder_point_is_projected_on_the_axis(doc):
    """A quarter cylinder: the face's centre of mass lies off the axis."""
    obj = doc.addObject("Part::Cylinder", "Quarter")
    obj.Radius, obj.Height, obj.Angle = 8, 30, 90
    obj.Placement = place(-4, 9, 2, (2, 1, 0), 110)
    doc.recompute()
    (face,) = elements(obj, "Face", Part.Cylinder)
    assert_frame(reference_frame(obj, face), "cylinder", world_point(obj.Placement, (0, 0, 15)),
                 world_dir(obj.Placement, (0, 0, 1)), parallel_only=True)
    arcs = elements(obj, "Edge", Part.Circle)
    assert len(arcs) == 2
    def distance_to_base(edge):
        return obj.Shape.getElement(edge).CenterOfMass.distanceToPoint(obj.Placement.Base)

    for edge, z in zip(sorted(arcs, key=distance_to_base), (0, 30)):  # bottom arc first
        assert_frame(reference_frame(obj, edge), "circle", world_point(obj.Placement, (0, 0, z)),
                     world_dir(obj.Placement, (0, 0, 1)), parallel_only=True)


def test_arc_edge(doc):
    arc = doc.addObject("Part::Circle", "Arc")
    arc.Radius, arc.Angle1, arc.Angle2 = 5, 30, 120
    arc.Placement = place(1, 2, 3, (1, 0, 1), 70)
    doc.recompute()
    assert_frame(reference_frame(arc, "Edge1"), "circle", world_point(arc.Placement, (0, 0, 0)),
                 world_dir(arc.Placement, (0, 0, 1)))


def test_sphere(doc):
    sphere = doc.addObject("Part::Sphere", "Sphere")
    sphere.Radius, sphere.Placement = 7, place(100, 200, 300, (1, 1, 0), 33)
    doc.recompute()
    assert_frame(reference_frame(sphere, "Face1"), "sphere", np.array([0.1, 0.2, 0.3]))


@pytest.mark.parametrize("r1, r2, apex_z", [(6, 2, 12.0), (2, 6, -4.0)])
def test_cone_apex_and_axis(doc, r1, r2, apex_z):
    cone = doc.addObject("Part::Cone", "Cone")
    cone.Radius1, cone.Radius2, cone.Height = r1, r2, 8
    cone.Placement = place(5, 6, 7, (0, 1, 0), 90)
    doc.recompute()
    # apex on the axis where the radius reaches 0: z = r1 h / (r1 - r2)
    (side,) = elements(cone, "Face", Part.Cone)
    assert_frame(reference_frame(cone, side), "cone", world_point(cone.Placement, (0, 0, apex_z)),
                 world_dir(cone.Placement, (0, 0, 1)), parallel_only=True)


def test_hole_in_a_box(doc):
    """Box 40 x 30 x 20 minus a through hole r = 5 at (12, 10): the hole's inner
    cylindrical face is reversed (material outside); the top face's centre of
    mass accounts for the hole; the bottom face (reversed) points to -z."""
    plate = doc.addObject("Part::Feature", "Plate")
    hole = Part.makeCylinder(5, 40, Vector(12, 10, -10))
    plate.Shape = Part.makeBox(40, 30, 20).cut(hole)
    plate.Placement = pl = place(10, 20, 30, (1, 1, 0), 25)
    doc.recompute()
    (inner,) = elements(plate, "Face", Part.Cylinder)
    assert plate.Shape.getElement(inner).Orientation == "Reversed"
    assert_frame(reference_frame(plate, inner), "cylinder", world_point(pl, (12, 10, 10)),
                 world_dir(pl, (0, 0, 1)), parallel_only=True)
    a_rect, a_hole = 40 * 30, math.pi * 25
    x, y = (np.array([20, 15]) * a_rect - np.array([12, 10]) * a_hole) / (a_rect - a_hole)
    flat = {tuple(np.round(reference_frame(plate, f).point, 9)): reference_frame(plate, f)
            for f in elements(plate, "Face", Part.Plane)}
    assert len(flat) == 6
    for z, normal in ((20, (0, 0, 1)), (0, (0, 0, -1))):
        point = world_point(pl, (x, y, z))
        assert_frame(flat[tuple(np.round(point, 9))], "plane", point, world_dir(pl, normal))


def test_planar_bspline_face_is_a_plane(doc):
    feature = doc.addObject("Part::Feature", "Flat")
    feature.Shape = Part.BSplineSurface().toShape()  # the unit square in z = 0, degree 1
    feature.Placement = place(0, 0, 10, (1, 0, 0), 90)
    doc.recompute()
    assert_frame(reference_frame(feature, "Face1"), "plane",
                 world_point(feature.Placement, (0.5, 0.5, 0)),
                 world_dir(feature.Placement, (0, 0, 1)))


# ----------------------------------------------------------------------------- containers and links

@pytest.fixture
def nested(doc, box):
    """The box in App::Part 'Inner' in App::Part 'Outer', all placed."""
    outer = doc.addObject("App::Part", "Outer")
    inner = doc.addObject("App::Part", "Inner")
    outer.addObject(inner)
    inner.addObject(box)
    outer.Placement = place(100, -50, 20, (0, 0, 1), 90)
    inner.Placement = place(0, 30, 0, (1, 0, 0), 45)
    doc.recompute()
    return outer, inner, box


def test_nested_parts(nested):
    outer, inner, box = nested
    world = outer.Placement.multiply(inner.Placement).multiply(box.Placement)
    centre, normal = BOX_FACES["Face6"]
    expected = world_point(world, centre), world_dir(world, normal)
    assert_frame(reference_frame(box, "Face6"), "plane", *expected)
    assert_frame(reference_frame(inner, "Box.Face6"), "plane", *expected)
    frame = reference_frame(outer, "Inner.Box.Face6")
    assert_frame(frame, "plane", *expected)
    assert frame.label == "Outer.Inner.Box.Face6"


def test_links(doc, nested):
    outer, inner, box = nested
    link = doc.addObject("App::Link", "Link")
    link.LinkedObject = outer
    link.Placement = place(-200, 5, 60, (2, -1, 1), 120)
    to_box = doc.addObject("App::Link", "BoxLink")
    to_box.LinkedObject = box
    to_box.Placement = place(0, 0, 500, (0, 1, 0), 20)
    doc.recompute()
    centre, normal = BOX_FACES["Face5"]
    world = link.Placement.multiply(inner.Placement).multiply(box.Placement)
    assert_frame(reference_frame(link, "Inner.Box.Face5"), "plane",
                 world_point(world, centre), world_dir(world, normal))
    assert_frame(reference_frame(to_box, "Face5"), "plane",
                 world_point(to_box.Placement, centre), world_dir(to_box.Placement, normal))


def test_partdesign_body_faces(doc, partdesign):
    body = doc.addObject("PartDesign::Body", "Body")
    prim = doc.addObject("PartDesign::AdditiveBox", "AdditiveBox")
    body.addObject(prim)
    prim.Length, prim.Width, prim.Height = 40, 30, 20
    holder = doc.addObject("App::Part", "Holder")
    holder.addObject(body)
    holder.Placement = place(0, 100, 0, (1, 0, 0), 90)
    body.Placement = place(10, 0, 0, (0, 0, 1), 30)
    doc.recompute()
    world = holder.Placement.multiply(body.Placement)
    for face in ("Face2", "Face5"):
        centre, normal = BOX_FACES[face]
        expected = world_point(world, centre), world_dir(world, normal)
        assert_frame(reference_frame(body, face), "plane", *expected)
        assert_frame(reference_frame(body, "AdditiveBox." + face), "plane", *expected)
        assert_frame(reference_frame(prim, face), "plane", *expected)
        assert_frame(reference_frame(holder, "Body.AdditiveBox." + face), "plane", *expected)


# ----------------------------------------------------------------------------- subnames and errors

@pytest.mark.parametrize("subname, path, element", [
    ("Face3", "", "Face3"),
    ("Body.Pad.Face3", "Body.Pad.", "Face3"),
    ("Pad.;#7:1;:G0;XTR;:H11a:8,F.Face3", "Pad.", "Face3"),
    ("Body.", "Body.", ""),
    ("?Edge12", "", "Edge12"),                  # FreeCAD 1.x: the element vanished
    ("Body.Pad.?Face3", "Body.Pad.", "Face3"),
])
def test_split_subname(subname, path, element):
    assert split_subname(subname) == (path, element)


def test_missing_element_after_a_model_edit(box):
    with pytest.raises(ModelError, match=r"^Box\.Edge13: Edge13 of 'Box' no longer exists "
                                         r"\(the shape has 12 edges\)"):
        reference_frame(box, "Edge13")
    with pytest.raises(ModelError, match=r"Face7 of 'Box' no longer exists \(the shape has 6 fac"):
        reference_frame(box, "Face7")
    with pytest.raises(ModelError, match=r"8 vertices"):
        reference_frame(box, "Vertex9")


def test_an_element_freecad_marks_as_vanished_is_missing_even_if_its_index_exists(box):
    """FreeCAD 1.x reports an element a model edit removed as ``?Edge12``; its index may
    now name another element (Edge3 exists): still an error naming it, never that edge."""
    with pytest.raises(ModelError, match=r"^Box\.\?Edge3: Edge3 of 'Box' no longer exists "
                                         r"\(the shape has 12 edges\)"):
        reference_frame(box, "?Edge3")
    with pytest.raises(ModelError, match=r"Edge13 of 'Box' no longer exists"):
        reference_frame(box, "?Edge13")


def test_missing_sub_object(nested):
    outer, _, _ = nested
    with pytest.raises(ModelError, match=r"Outer\.Inner\.Nope\.Face1: 'Outer' has no sub-object "
                                         r"'Inner\.Nope'"):
        reference_frame(outer, "Inner.Nope.Face1")
    with pytest.raises(ModelError, match=r"Face99 of 'Box' no longer exists"):
        reference_frame(outer, "Inner.Box.Face99")


@pytest.mark.parametrize("subname", ["Solid1", "Wire2", "Face0", "", "Inner."])
def test_not_an_element_name(box, subname):
    with pytest.raises(ModelError, match="does not name a vertex, edge or face"):
        reference_frame(box, subname)


def test_unsupported_geometry(doc):
    ellipse = doc.addObject("Part::Ellipse", "Ellipse")
    torus = doc.addObject("Part::Torus", "Torus")
    wavy = doc.addObject("Part::Feature", "Wavy")
    surface = Part.BSplineSurface()
    surface.increaseDegree(2, 2)
    surface.setPole(2, 2, Vector(0.5, 0.5, 0.4))
    wavy.Shape = surface.toShape()
    doc.recompute()
    for obj, sub, name in [(ellipse, "Edge1", "Ellipse"), (torus, "Face1", "Toroid"),
                           (wavy, "Face1", "BSplineSurface")]:
        with pytest.raises(ModelError) as info:
            reference_frame(obj, sub)
        message = str(info.value)
        assert message.startswith("%s.%s: unsupported" % (obj.Label, sub))
        assert name in message
        assert "straight edge" in message and "conical face" in message


def test_module_exports():
    from helpers_doc import assert_public_api
    assert_public_api(references)
