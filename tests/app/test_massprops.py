"""massprops: global shapes and mass properties against closed-form values (SI)."""
import math

import numpy as np
import pytest

import FreeCAD
import Part
from FreeCAD import Placement, Rotation, Vector

from SimPhantWorkbench.document import massprops
from SimPhantWorkbench.document.massprops import DEFAULT_DENSITY, global_shape, mass_properties
from SimPhantWorkbench.solver.errors import ModelError

RTOL = 1e-9
RHO = 2700.0  # kg/m^3
MM = 1e-3


# ----------------------------------------------------------------------------- analytic helpers

def rot_matrix(placement):
    """3x3 rotation matrix of a FreeCAD Placement (numpy)."""
    m = placement.toMatrix()
    return np.array([[m.A[4 * i + j] for j in range(3)] for i in range(3)])


def position(placement, local_mm=(0.0, 0.0, 0.0)):
    """World position [m] of a point given in a placement's local frame [mm]."""
    return np.array(placement.multVec(Vector(*local_mm))) * MM


def body(mass, cog, inertia_local, rotation):
    """(mass, cog, world inertia about the cog) of a body with local principal inertia."""
    return mass, np.asarray(cog), rotation @ np.diag(inertia_local) @ rotation.T


def box_analytic(a, b, c, placement, rho):
    """Box of edges a, b, c [mm] with its corner at the placement origin."""
    m = rho * a * b * c * MM ** 3
    a, b, c = a * MM, b * MM, c * MM
    return body(m, position(placement, (a / 2 / MM, b / 2 / MM, c / 2 / MM)),
                [m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12],
                rot_matrix(placement))


def cylinder_analytic(r, h, placement, rho):
    """Solid cylinder radius r, height h [mm] along the placement's local z."""
    m = rho * math.pi * r * r * h * MM ** 3
    r, h = r * MM, h * MM
    side = m * (3 * r * r + h * h) / 12
    return body(m, position(placement, (0, 0, h / 2 / MM)), [side, side, m * r * r / 2],
                rot_matrix(placement))


def combine(*parts, signs=None):
    """Mass, cog, inertia about the cog of parts (sign -1 removes material)."""
    signs = signs or [1] * len(parts)
    mass = sum(s * m for s, (m, _, _) in zip(signs, parts))
    cog = sum(s * m * c for s, (m, c, _) in zip(signs, parts)) / mass
    inertia = np.zeros((3, 3))
    for s, (m, c, i) in zip(signs, parts):
        d = c - cog
        inertia += s * (i + m * (d @ d * np.eye(3) - np.outer(d, d)))
    return mass, cog, inertia


def assert_props(props, expected, volume=None):
    """Compare MassProperties with (mass, cog, inertia) to RTOL of each quantity's scale."""
    mass, cog, inertia = expected
    assert props.mass == pytest.approx(mass, rel=RTOL)
    scale = max(np.abs(cog).max(), 1e-3)
    np.testing.assert_allclose(props.cog, cog, rtol=RTOL, atol=RTOL * scale)
    np.testing.assert_allclose(props.inertia, inertia, rtol=RTOL, atol=RTOL * np.abs(inertia).max())
    if volume is not None:
        assert props.volume == pytest.approx(volume, rel=RTOL)
    assert props.density * props.volume == pytest.approx(props.mass, rel=RTOL)
    check_principal(props)


def check_principal(props):
    """Principal frame: ascending moments, right-handed orthonormal axes, I = A diag Aᵀ."""
    axes, moments = props.principal_axes, props.principal_moments
    assert np.all(np.diff(moments) >= 0)
    np.testing.assert_allclose(axes.T @ axes, np.eye(3), atol=1e-12)
    assert np.linalg.det(axes) == pytest.approx(1.0, abs=1e-12)
    scale = np.abs(props.inertia).max()
    np.testing.assert_allclose(axes @ np.diag(moments) @ axes.T, props.inertia,
                               atol=RTOL * scale)


def place(x, y, z, axis=(0, 0, 1), angle=0.0):
    return Placement(Vector(x, y, z), Rotation(Vector(*axis), angle))


def add_box(doc, a, b, c, placement=None, name="Box"):
    box = doc.addObject("Part::Box", name)
    box.Length, box.Width, box.Height = a, b, c
    if placement is not None:
        box.Placement = placement
    return box


# ----------------------------------------------------------------------------- primitives

def test_matrix_of_inertia_is_about_the_centroid_in_world_axes():
    """The claim mass_properties relies on: Solid.MatrixOfInertia is the unit-density
    inertia tensor [mm^5] about the solid's centroid, world axes, products negated."""
    pl = place(5, -7, 11, (1, 2, 3), 37)
    solid = Part.makeBox(10, 20, 30)
    solid.Placement = pl
    moi = solid.MatrixOfInertia
    actual = np.array([[moi.A[4 * i + j] for j in range(3)] for i in range(3)])
    _, _, expected = box_analytic(10, 20, 30, pl, 1.0)
    np.testing.assert_allclose(actual * MM ** 5, expected, rtol=RTOL,
                               atol=RTOL * np.abs(expected).max())


def test_box_rotated_and_translated(doc):
    pl = place(12, -30, 7, (1, 2, 3), 37)
    box = add_box(doc, 40, 25, 10, pl)
    doc.recompute()
    props = mass_properties(box, density=RHO)
    assert_props(props, box_analytic(40, 25, 10, pl, RHO), volume=40 * 25 * 10 * MM ** 3)
    assert props.density_source == "argument"
    assert props.density == RHO
    assert props.label == "Box"
    # distinct moments: the principal axes are the box edges (up to sign and order)
    np.testing.assert_allclose(np.abs(props.principal_axes.T @ rot_matrix(pl)).max(axis=1),
                               1.0, rtol=1e-9)


def test_default_density_when_no_material(doc):
    box = add_box(doc, 10, 20, 30)
    doc.recompute()
    props = mass_properties(box)
    assert props.density_source == "default"
    assert props.density == DEFAULT_DENSITY == 7850.0
    assert props.mass == pytest.approx(7850.0 * 6000 * MM ** 3, rel=RTOL)


def test_mass_override_sets_density(doc):
    pl = place(0, 0, 0, (0, 1, 0), 20)
    box = add_box(doc, 10, 20, 30, pl)
    doc.recompute()
    props = mass_properties(box, density=RHO, mass=2.0)
    assert props.density_source == "override-mass"
    assert props.density == pytest.approx(2.0 / (6000 * MM ** 3), rel=RTOL)
    assert_props(props, box_analytic(10, 20, 30, pl, props.density))


def test_cylinder_with_tilted_axis(doc):
    pl = place(3, 4, -5, (1, -1, 0.5), 65)
    cyl = doc.addObject("Part::Cylinder", "Cylinder")
    cyl.Radius, cyl.Height, cyl.Placement = 6, 50, pl
    doc.recompute()
    props = mass_properties(cyl, density=RHO)
    assert_props(props, cylinder_analytic(6, 50, pl, RHO), volume=math.pi * 36 * 50 * MM ** 3)
    # symmetry axis = the principal axis of the smallest moment (slender cylinder)
    axis = rot_matrix(pl)[:, 2]
    assert abs(props.principal_axes[:, 0] @ axis) == pytest.approx(1.0, rel=1e-9)


def test_sphere(doc):
    sphere = doc.addObject("Part::Sphere", "Sphere")
    sphere.Radius, sphere.Placement = 7, place(100, 200, 300, (1, 1, 0), 33)
    doc.recompute()
    props = mass_properties(sphere, density=RHO)
    r = 7 * MM
    m = RHO * 4 / 3 * math.pi * r ** 3
    assert_props(props, (m, np.array([0.1, 0.2, 0.3]), 0.4 * m * r * r * np.eye(3)))


def test_boolean_cut_box_minus_through_hole(doc):
    """Box 40 x 30 x 20 minus a cylinder r = 5 through it along z at (12, 10):
    subtraction of the hole's mass with parallel-axis terms."""
    pl = place(10, 20, 30, (0, 0, 1), 25)
    box = add_box(doc, 40, 30, 20)
    tool = doc.addObject("Part::Cylinder", "Tool")
    tool.Radius, tool.Height, tool.Placement = 5, 40, place(12, 10, -10)
    cut = doc.addObject("Part::Cut", "Cut")
    cut.Base, cut.Tool, cut.Placement = box, tool, pl
    doc.recompute()
    props = mass_properties(cut, density=RHO)
    hole = pl.multiply(place(12, 10, 0))  # the removed cylinder: r 5, height 20
    expected = combine(box_analytic(40, 30, 20, pl, RHO), cylinder_analytic(5, 20, hole, RHO),
                       signs=[1, -1])
    assert_props(props, expected, volume=(40 * 30 * 20 - math.pi * 25 * 20) * MM ** 3)


def test_compound_of_two_solids_uses_parallel_axis_theorem(doc):
    feature = doc.addObject("Part::Feature", "Two")
    pa, pb = place(0, 0, 0, (1, 0, 0), 10), place(50, 10, -20, (0, 1, 1), 70)
    a, b = Part.makeBox(10, 20, 30), Part.makeCylinder(4, 25)
    a.Placement, b.Placement = pa, pb
    feature.Shape = Part.Compound([a, b])      # (Part.makeCompound crashes FreeCAD 1.0 as a library)
    doc.recompute()
    props = mass_properties(feature, density=RHO)
    assert_props(props, combine(box_analytic(10, 20, 30, pa, RHO),
                                cylinder_analytic(4, 25, pb, RHO)))


# ----------------------------------------------------------------------------- containers and links

@pytest.fixture
def nested(doc):
    """Box (10 x 20 x 30) in App::Part 'Inner' in App::Part 'Outer', all placed."""
    outer = doc.addObject("App::Part", "Outer")
    inner = doc.addObject("App::Part", "Inner")
    outer.addObject(inner)
    box = add_box(doc, 10, 20, 30)
    inner.addObject(box)
    outer.Placement = place(100, -50, 20, (0, 0, 1), 90)
    inner.Placement = place(0, 30, 0, (1, 0, 0), 45)
    box.Placement = place(1, 2, 3, (1, 1, 1), 15)
    doc.recompute()
    return outer, inner, box


def test_part_nested_two_levels(nested):
    outer, inner, box = nested
    world = outer.Placement.multiply(inner.Placement).multiply(box.Placement)
    expected = box_analytic(10, 20, 30, world, RHO)
    for obj in (box, inner, outer):  # the box itself and both containers
        assert_props(mass_properties(obj, density=RHO), expected)
    assert mass_properties(outer, density=RHO).label == "Outer"


def test_global_shape_of_nested_part(nested):
    outer, inner, box = nested
    world = outer.Placement.multiply(inner.Placement).multiply(box.Placement)
    corner = np.array(world.Base)
    for obj in (box, inner, outer):
        shape = global_shape(obj)
        assert len(shape.Solids) == 1
        dist = min((np.array(v.Point) - corner) @ (np.array(v.Point) - corner)
                   for v in shape.Vertexes)
        assert dist < 1e-18


def test_link_to_part_with_its_own_placement(doc, nested):
    outer, inner, box = nested
    link = doc.addObject("App::Link", "Link")
    link.LinkedObject = outer
    link.Placement = place(-200, 5, 60, (2, -1, 1), 120)
    doc.recompute()
    # LinkTransform is off by default: the link's placement replaces Outer's
    world = link.Placement.multiply(inner.Placement).multiply(box.Placement)
    props = mass_properties(link, density=RHO)
    assert_props(props, box_analytic(10, 20, 30, world, RHO))
    assert props.label == "Link"
    link2 = doc.addObject("App::Link", "LinkToLink")
    link2.LinkedObject = link
    link2.Placement = place(7, 8, 9, (0, 1, 0), -30)
    doc.recompute()
    world2 = link2.Placement.multiply(inner.Placement).multiply(box.Placement)
    assert_props(mass_properties(link2, density=RHO), box_analytic(10, 20, 30, world2, RHO))


def test_link_inside_placed_part(doc):
    box = add_box(doc, 10, 20, 30, place(5, 5, 5, (1, 0, 0), 30))
    holder = doc.addObject("App::Part", "Holder")
    link = doc.addObject("App::Link", "BoxLink")
    link.LinkedObject = box
    holder.addObject(link)
    holder.Placement = place(0, 0, 100, (0, 0, 1), 45)
    link.Placement = place(10, 0, 0, (0, 1, 0), 90)
    doc.recompute()
    world = holder.Placement.multiply(link.Placement)
    assert_props(mass_properties(link, density=RHO), box_analytic(10, 20, 30, world, RHO))


def test_link_array_elements_and_hidden_element(doc):
    box = add_box(doc, 10, 20, 30, place(0, 0, 0, (0, 0, 1), 10))
    array = doc.addObject("App::Link", "Array")
    array.LinkedObject = box
    array.ElementCount = 3
    placements = [place(0, 0, 0), place(100, 0, 0, (1, 0, 0), 90), place(0, 80, 0, (0, 1, 0), 45)]
    for element, pl in zip(array.ElementList, placements):
        element.Placement = pl  # (setting PlacementList does not reach existing elements)
    array.Placement = place(0, 0, 50, (0, 0, 1), 30)
    doc.recompute()
    # LinkTransform is off: element placements replace the box's own (10 deg) rotation
    boxes = [box_analytic(10, 20, 30, array.Placement.multiply(p), RHO) for p in placements]
    assert_props(mass_properties(array, density=RHO), combine(*boxes))
    array.setElementVisible("1", False)  # a hidden element does not count
    doc.recompute()
    assert_props(mass_properties(array, density=RHO), combine(boxes[0], boxes[2]))


def test_part_with_two_children_and_hidden_one(doc):
    group = doc.addObject("App::Part", "Group")
    group.Placement = place(0, 0, 10, (0, 0, 1), 30)
    pa, pb = place(0, 0, 0), place(40, 0, 0, (0, 1, 0), 90)
    a, b = add_box(doc, 10, 20, 30, pa, "A"), add_box(doc, 5, 5, 50, pb, "B")
    hidden = add_box(doc, 99, 99, 99, name="Hidden")
    for child in (a, b, hidden):
        group.addObject(child)
    hidden.Visibility = False  # like the inputs of a boolean in the GUI
    doc.recompute()
    expected = combine(box_analytic(10, 20, 30, group.Placement.multiply(pa), RHO),
                       box_analytic(5, 5, 50, group.Placement.multiply(pb), RHO))
    assert_props(mass_properties(group, density=RHO), expected)


def test_partdesign_body_pad(doc, partdesign):
    body_obj = doc.addObject("PartDesign::Body", "Body")
    sketch = doc.addObject("Sketcher::SketchObject", "Sketch")
    body_obj.addObject(sketch)
    corners = [Vector(0, 0, 0), Vector(30, 0, 0), Vector(30, 20, 0), Vector(0, 20, 0)]
    for i in range(4):
        sketch.addGeometry(Part.LineSegment(corners[i], corners[(i + 1) % 4]))
    pad = doc.addObject("PartDesign::Pad", "Pad")
    body_obj.addObject(pad)
    pad.Profile, pad.Length = sketch, 10
    body_obj.Placement = place(1, 2, 3, (1, 1, 1), 40)
    doc.recompute()
    assert pad.isValid()
    expected = box_analytic(30, 20, 10, body_obj.Placement, RHO)
    assert_props(mass_properties(body_obj, density=RHO), expected)
    assert_props(mass_properties(pad, density=RHO), expected)  # a feature inside the body


def test_partdesign_body_in_part(doc, partdesign):
    holder = doc.addObject("App::Part", "Holder")
    body_obj = doc.addObject("PartDesign::Body", "Body")
    holder.addObject(body_obj)
    prim = doc.addObject("PartDesign::AdditiveBox", "AdditiveBox")
    body_obj.addObject(prim)
    prim.Length, prim.Width, prim.Height = 12, 8, 4
    holder.Placement = place(0, 100, 0, (1, 0, 0), 90)
    body_obj.Placement = place(10, 0, 0, (0, 0, 1), 30)
    doc.recompute()
    world = holder.Placement.multiply(body_obj.Placement)
    expected = box_analytic(12, 8, 4, world, RHO)
    for obj in (body_obj, holder):
        assert_props(mass_properties(obj, density=RHO), expected)


# ----------------------------------------------------------------------------- materials

def add_material_card(doc, density, name="Card"):
    card = doc.addObject("App::MaterialObjectPython", name)
    card.Material = {"Name": name, "Density": density}
    return card


def test_arch_style_material_link(doc):
    box = add_box(doc, 10, 20, 30)
    box.addProperty("App::PropertyLink", "Material")
    box.Material = add_material_card(doc, "2700 kg/m^3")
    doc.recompute()
    props = mass_properties(box)
    assert (props.density, props.density_source) == (pytest.approx(2700.0), "material")


def test_fem_style_material_references(doc):
    box = add_box(doc, 10, 20, 30)
    card = add_material_card(doc, "7.9 g/cm^3")
    card.addProperty("App::PropertyLinkSubList", "References")
    card.References = [(box, "Solid1")]
    doc.recompute()
    props = mass_properties(box)
    assert (props.density, props.density_source) == (pytest.approx(7900.0), "material")
    assert mass_properties(box, density=RHO).density_source == "argument"  # argument wins


def test_mixed_materials_in_a_part(doc):
    group = doc.addObject("App::Part", "Group")
    pa, pb = place(0, 0, 0), place(100, 0, 0, (0, 0, 1), 90)
    alu, plain = add_box(doc, 10, 20, 30, pa, "Alu"), add_box(doc, 10, 10, 10, pb, "Plain")
    alu.addProperty("App::PropertyLink", "Material")
    alu.Material = add_material_card(doc, "2700 kg/m^3")
    group.addObject(alu)
    group.addObject(plain)
    doc.recompute()
    props = mass_properties(group)
    assert props.density_source == "default"  # one piece has no material
    expected = combine(box_analytic(10, 20, 30, pa, 2700.0),
                       box_analytic(10, 10, 10, pb, DEFAULT_DENSITY))
    assert_props(props, expected)


@pytest.mark.fc1
def test_freecad1_shape_material(doc):
    box = add_box(doc, 10, 20, 30)
    doc.recompute()
    assert "ShapeMaterial" in box.PropertiesList       # every Part feature of FreeCAD 1.x
    assert mass_properties(box).density_source == "default"  # the placeholder card
    import Materials
    manager = Materials.MaterialManager()
    steel = next(m for m in manager.Materials.values()
                 if m.Name == "Steel-Generic" or m.Name.startswith("Steel"))
    box.ShapeMaterial = steel
    expected = FreeCAD.Units.Quantity(steel.PhysicalProperties["Density"]).getValueAs("kg/m^3")
    props = mass_properties(box)
    assert props.density_source == "material"
    assert props.density == pytest.approx(float(expected))


def _steel(doc, box):
    """FreeCAD 1.x: a steel card as the box's ``ShapeMaterial``."""
    import Materials
    steel = next(m for m in Materials.MaterialManager().Materials.values()
                 if m.Name == "Steel-Generic" or m.Name.startswith("Steel"))
    box.ShapeMaterial = steel


def _arch(doc, box):
    box.addProperty("App::PropertyLink", "Material")
    box.Material = add_material_card(doc, "2700 kg/m^3")


def _fem(doc, box):
    card = add_material_card(doc, "7.9 g/cm^3")
    card.addProperty("App::PropertyLinkSubList", "References")
    card.References = [(box, "Solid1")]


@pytest.mark.parametrize("material", [
    pytest.param(_steel, id="ShapeMaterial", marks=pytest.mark.fc1),
    pytest.param(_arch, id="Arch material"), pytest.param(_fem, id="FEM material")])
def test_a_solve_leaves_every_object_of_the_document_untouched(doc, material):
    """Reading material densities, running and storing the result change no object:
    none is Touched afterwards (FreeCAD 1.0's ``getPhysicalValue`` marks the part, and
    every recompute then reports it "still touched"), and a recompute finds nothing to do."""
    from SimPhantWorkbench import factory, runner
    ground = add_box(doc, 40, 40, 10, place(-20, -20, -10), "Ground")
    box = add_box(doc, 10, 20, 30)
    material(doc, box)
    doc.recompute()
    study = factory.make_study(doc)
    factory.make_body(study, ground, fixed=True)
    body = factory.make_body(study, box)
    assert body.DensitySource == "material"
    doc.recompute()
    assert [o.Name for o in doc.Objects if "Touched" in o.State] == []
    for _ in range(2):                      # the first run adds the Result, the second reuses it
        runner.run_study(study, t_end=0.02, dt=1e-3)
        assert [(o.Name, o.State) for o in doc.Objects if o.State != ["Up-to-date"]] == []
    doc.recompute()
    assert [(o.Name, o.State) for o in doc.Objects if o.State != ["Up-to-date"]] == []


# ----------------------------------------------------------------------------- errors

def test_sketch_has_no_solid(doc):
    sketch = doc.addObject("Sketcher::SketchObject", "MySketch")
    sketch.addGeometry(Part.LineSegment(Vector(0, 0, 0), Vector(10, 0, 0)))
    doc.recompute()
    with pytest.raises(ModelError, match=r"'MySketch' has no solid.*Wire"):
        mass_properties(sketch)


def test_face_has_no_solid(doc):
    face = doc.addObject("Part::Plane", "Sheet")
    doc.recompute()
    with pytest.raises(ModelError, match="'Sheet' has no solid"):
        mass_properties(face)


def test_empty_feature(doc):
    empty = doc.addObject("Part::Feature", "Nothing")
    with pytest.raises(ModelError, match="'Nothing'.*empty shape"):
        global_shape(empty)
    with pytest.raises(ModelError, match="'Nothing'.*empty shape"):
        mass_properties(empty)


def test_empty_part_container(doc):
    group = doc.addObject("App::Part", "EmptyPart")
    doc.recompute()
    with pytest.raises(ModelError, match="'EmptyPart'"):
        mass_properties(group)


def test_mesh_is_rejected(doc):
    Mesh = pytest.importorskip("Mesh")
    mesh = doc.addObject("Mesh::Feature", "Scan")
    mesh.Mesh = Mesh.Mesh(Part.makeBox(1, 2, 3).tessellate(0.1))
    doc.recompute()
    with pytest.raises(ModelError, match="'Scan' is a mesh"):
        mass_properties(mesh)
    with pytest.raises(ModelError, match="'Scan' is a mesh"):
        global_shape(mesh)


@pytest.mark.parametrize("kwargs", [{"density": 0.0}, {"density": -1.0},
                                    {"density": float("nan")}, {"mass": 0.0},
                                    {"mass": -2.0}, {"mass": float("inf")}])
def test_non_positive_density_or_mass(doc, kwargs):
    box = add_box(doc, 1, 1, 1, name="Cube")
    doc.recompute()
    with pytest.raises(ModelError, match="'Cube': (density|mass) must be positive"):
        mass_properties(box, **kwargs)


def test_zero_material_density(doc):
    box = add_box(doc, 1, 1, 1, name="Cube")
    box.addProperty("App::PropertyLink", "Material")
    box.Material = add_material_card(doc, "0 kg/m^3", "Vacuum")
    doc.recompute()
    with pytest.raises(ModelError, match="'Cube'.*Vacuum.*non-positive density"):
        mass_properties(box)


def test_material_density_with_wrong_unit(doc):
    box = add_box(doc, 1, 1, 1, name="Cube")
    box.addProperty("App::PropertyLink", "Material")
    box.Material = add_material_card(doc, "5 kg", "Odd")
    doc.recompute()
    with pytest.raises(ModelError, match="'Cube'.*not a density"):
        mass_properties(box)


def test_inside_out_solid(doc):
    feature = doc.addObject("Part::Feature", "Inverted")
    feature.Shape = Part.makeBox(1, 1, 1).Solids[0].reversed()
    doc.recompute()
    with pytest.raises(ModelError, match="Solid1 of 'Inverted' has a negative volume"):
        mass_properties(feature)


def test_module_exports():
    from helpers_doc import assert_public_api
    assert_public_api(massprops)
