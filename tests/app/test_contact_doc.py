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


def _ball_on_plate(doc, plate=None):
    ball = doc.addObject("Part::Feature", "Ball")
    ball.Shape = Part.makeSphere(R_MM, FreeCAD.Vector(0, 0, R_MM + 0.1))
    slab = doc.addObject("Part::Feature", "Plate")
    slab.Shape = plate if plate is not None else Part.makeBox(
        100, 100, 10, FreeCAD.Vector(-50, -50, -10))
    doc.recompute()
    study = factory.make_study(doc)
    study.GravityAcceleration = "0 mm/s^2"
    study.EndTime = 1.2e-3
    study.TimeStep = 1e-6
    study.OutputInterval = 1e-6
    factory.make_body(study, slab, fixed=True)
    b = factory.make_body(study, ball, density=7800.0, velocity=(0, 0, -1000.0 * V0))
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
