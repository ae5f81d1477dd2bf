"""Contact elements in a FreeCAD document: a ball (Part sphere) dropped on a plate (Part
box): the conversion of its solids and units, the run against Hertz's closed form, the
saved and reopened document, and non-convex solids refused naming the element."""
import math

import numpy as np
import pytest

import FreeCAD
import Part

from SimPhantWorkbench import conversion, factory, runner
from SimPhantWorkbench.solver import ModelError

from helpers_doc import docs, element_name, reopen  # noqa: F401 (fixture)

R_MM = 10.0
V0 = 1.0            # [m/s]
K_N_PER_MM = 3.0e4  # force at 1 mm of penetration [N]


def _drop_study(doc, moving, fixed, v0, end_time, step):
    """A study without gravity: the Part solid ``fixed`` a fixed body, ``moving`` (steel)
    falling at ``v0`` [m/s]; output at every step."""
    doc.recompute()
    study = factory.make_study(doc)
    study.GravityAcceleration = "0 mm/s^2"
    study.EndTime = end_time
    study.TimeStep = step
    study.OutputInterval = step
    factory.make_body(study, fixed, fixed=True)
    return study, factory.make_body(study, moving, density=7800.0,
                                    velocity=(0, 0, -1000.0 * v0))


def _ball_on_plate(doc, plate=None):
    ball = doc.addObject("Part::Feature", "Ball")
    ball.Shape = Part.makeSphere(R_MM, FreeCAD.Vector(0, 0, R_MM + 0.1))
    slab = doc.addObject("Part::Feature", "Plate")
    slab.Shape = plate if plate is not None else Part.makeBox(
        100, 100, 10, FreeCAD.Vector(-50, -50, -10))
    study, b = _drop_study(doc, ball, slab, V0, 1.2e-3, 1e-6)
    c = factory.make_force_element(
        study, "contact", (ball, "Face1"), (slab, element_name(slab, "Face", (0, 0, 0))),
        stiffness=K_N_PER_MM, exponent=1.5, name="Contact")
    return study, b, c


def test_ball_on_plate_converts_runs_to_hertz_and_survives_reopen(docs, tmp_path):
    doc = docs()
    study, body, c = _ball_on_plate(doc)
    conv = conversion.convert(study)
    e = conv.force_map[c.Name]
    s1, s2 = e.shapes
    assert s1.kind == "sphere" and s1.radius == pytest.approx(R_MM * 1e-3)
    assert s1.center == pytest.approx([0, 0, (R_MM + 0.1) * 1e-3])
    assert s2.kind == "convex" and len(s2.planes) == 6        # the box's faces, merged
    # N/mm at 1 mm with e = 1.5: k_SI = 3e7 N/m * (1e-3 m)^(1 - 1.5)
    k = K_N_PER_MM * 1e3 * 1e-3 ** -0.5
    assert e.params["stiffness"] == pytest.approx(k)
    m = conv.body_map[body.Name].mass
    assert m == pytest.approx(7800.0 * 4 / 3 * math.pi * (R_MM * 1e-3) ** 3, rel=1e-3)
    r = runner.run_study(study)
    pen = r.contact("Contact")["penetration"]
    p_ref = (2.5 * m * V0 ** 2 / (2 * k)) ** 0.4           # Hertz: (n+1) m v0^2 / 2k
    assert pen.max() == pytest.approx(p_ref, rel=2e-3)
    vz = r.velocity(conv.body_map[body.Name])[-1, 2]
    assert vz == pytest.approx(V0, rel=1e-4)                 # elastic: out as it came
    name, sname, stiffness = c.Name, study.Name, c.Stiffness
    doc2 = reopen(doc, tmp_path / "contact.FCStd")
    c2 = doc2.getObject(name)
    assert c2.Kind == "contact" and c2.Stiffness == stiffness
    conv2 = conversion.convert(doc2.getObject(sname))
    assert conv2.force_map[name].params == e.params
    r2 = runner.run_study(doc2.getObject(sname))
    np.testing.assert_allclose(r2.contact("Contact")["penetration"], pen, rtol=1e-9, atol=1e-15)


def test_friction_and_hunt_crossley_properties_convert_to_si(doc):
    study, _b, c = _ball_on_plate(doc)
    factory_props = dict(ContactLaw="hunt_crossley", Restitution=0.7, ImpactSpeed=500.0,
                         MuStatic=0.4, MuDynamic=0.3, StictionSpeed="0.2 mm/s",
                         FrictionSpeed="2 mm/s")
    for key, v in factory_props.items():
        setattr(c, key, v if not isinstance(v, float) or key in ("Restitution", "MuStatic",
                                                                  "MuDynamic")
                else "%g mm/s" % v)
    p = conversion.convert(study).force_map[c.Name].params
    assert p["law"] == "hunt_crossley" and p["restitution"] == 0.7
    assert p["impact_speed"] == pytest.approx(0.5)
    assert (p["mu_static"], p["mu_dynamic"]) == (0.4, 0.3)
    assert p["stiction_speed"] == pytest.approx(2e-4)
    assert p["friction_speed"] == pytest.approx(2e-3)


def test_a_non_convex_solid_is_refused_naming_the_element(doc):
    plate = Part.makeBox(100, 100, 10, FreeCAD.Vector(-50, -50, -10)).cut(
        Part.makeBox(20, 20, 1, FreeCAD.Vector(-10, -10, -1)))     # 0.4 % of its hull
    study, _b, c = _ball_on_plate(doc, plate=plate)
    with pytest.raises(ModelError, match="Force element 'Contact'.*'Plate_body' is not convex"):
        conversion.convert(study)


def test_bad_contact_input_is_refused_naming_the_element(doc):
    study, _b, c = _ball_on_plate(doc)
    c.FrictionSpeed = "0.01 mm/s"
    with pytest.raises(ModelError, match="Force element 'Contact'.*friction_speed"):
        conversion.convert(study)


# --------------------------------------------------------------------------- cylinders
def _cylinder_shape(kind):
    """Part solids: a whole cylinder on a slanted axis, and solids that are not one."""
    axis = FreeCAD.Vector(1, 2, 2)
    if kind == "cylinder":
        return Part.makeCylinder(8, 30, FreeCAD.Vector(5, -3, 7), axis)
    if kind == "sector":        # half a cylinder: a flat side
        return Part.makeCylinder(8, 30, FreeCAD.Vector(0, 0, 0), axis, 180)
    if kind == "tube":
        return Part.makeCylinder(8, 30).cut(Part.makeCylinder(3, 30))
    if kind == "slanted":       # a cap cut at an angle: three faces, not square
        cyl = Part.makeCylinder(8, 30)
        return cyl.cut(Part.makeBox(40, 40, 40, FreeCAD.Vector(-20, -20, 25)).rotated(
            FreeCAD.Vector(0, 0, 25), FreeCAD.Vector(1, 0, 0), 20))
    return Part.makeBox(10, 20, 30)


@pytest.mark.parametrize("kind", ["cylinder", "sector", "tube", "slanted", "box"])
def test_cylinders_are_recognised_from_their_part_geometry(kind):
    from SimPhantWorkbench.document.contact_shapes import recognise
    shape = _cylinder_shape(kind)
    seen, geom = recognise(shape)
    if kind != "cylinder":
        assert seen == "convex" and geom is None
        return
    centre, axis, radius, half = geom
    a = np.array([1.0, 2.0, 2.0]) / 3.0
    assert seen == "cylinder"
    assert abs(axis @ a) == pytest.approx(1.0, abs=1e-12)
    assert centre == pytest.approx((np.array([5.0, -3.0, 7.0]) + 15.0 * a) * 1e-3, abs=1e-12)
    assert (radius, half) == pytest.approx((8e-3, 15e-3), rel=1e-12)


def test_roller_dropped_across_a_plate_takes_its_exact_circle(doc):
    """A Part cylinder (radius 10 mm, 40 mm long, axis y) falling at 0.5 m/s across the
    top edges of a 20 mm wide plate: the contact's second shape is the exact cylinder
    (SI, world at t0; the panel's line says so), the plate's first shape its edges'
    samples; the roller's largest penetration against solve_ivp of the one-degree-of-freedom
    impact on those samples (k p^1.5 along the radius to each sample, its vertical part),
    and the roller leaves at the speed it came."""
    from scipy.integrate import solve_ivp
    Rm, v0 = 10.0, 0.5
    roller = doc.addObject("Part::Feature", "Roller")
    roller.Shape = Part.makeCylinder(Rm, 40, FreeCAD.Vector(0, -20, Rm + 0.01),
                                     FreeCAD.Vector(0, 1, 0))
    slab = doc.addObject("Part::Feature", "Plate")
    slab.Shape = Part.makeBox(30, 20, 10, FreeCAD.Vector(-15, -10, -10))
    study, b = _drop_study(doc, roller, slab, v0, 1.5e-3, 5e-7)
    c = factory.make_force_element(
        study, "contact", (slab, element_name(slab, "Face", (0, 0, 0))),
        (roller, "Face1"), stiffness=1e3, exponent=1.5, name="Contact")
    c.SampleSpacing = "0.05 mm"
    from SimPhantWorkbench.document.contact_shapes import describe
    assert describe(roller) == ("cylinder", pytest.approx(Rm), pytest.approx(40.0))
    assert describe(slab) == ("convex", None, None)
    conv = conversion.convert(study)
    e = conv.force_map[c.Name]
    s1, s2 = e.shapes
    assert s2.kind == "cylinder"
    assert s2.planes[0, :3] == pytest.approx([0, 1, 0], abs=1e-12) or \
        s2.planes[0, :3] == pytest.approx([0, -1, 0], abs=1e-12)
    assert s2.planes[1] == pytest.approx([0, 0, (Rm + 0.01) * 1e-3, 20e-3], abs=1e-12)
    assert s2.planes[0, 3] == pytest.approx(Rm * 1e-3)
    k = e.params["stiffness"]
    m = conv.body_map[b.Name].mass
    r = runner.run_study(study)
    pen = r.contact("Contact")["penetration"]
    # the samples on the plate's top face (z = 0), where the roller comes down
    top = s1.points[np.abs(s1.points[:, 2]) < 1e-12, 0]
    R = Rm * 1e-3

    def force(z):
        rho = np.sqrt(top ** 2 + z ** 2)
        p = np.maximum(R - rho, 0.0)
        return float((k * p ** 1.5 * z / rho).sum())

    def leave(_t, s):
        return s[0] - R
    leave.terminal, leave.direction = True, 1
    ref = solve_ivp(lambda _t, s: [s[1], force(s[0]) / m], (0, 1e-3), [R, -v0],
                    events=leave, rtol=1e-10, atol=1e-13, max_step=1e-6, dense_output=True)
    z_min = ref.sol(np.linspace(0, ref.t_events[0][0], 4001))[0].min()
    assert pen.max() == pytest.approx(R - z_min, rel=2e-3)
    assert r.velocity(conv.body_map[b.Name])[-1, 2] == pytest.approx(v0, rel=1e-3)
