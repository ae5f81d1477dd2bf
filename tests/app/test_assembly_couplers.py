"""FreeCAD 1.x Assembly coupling joints (Gears, Belt, Screw, RackPinion) imported as
SimPhant couplers between the imported joints that carry the parts, and run: the
coordinate relations hold (closed form: the gear ratio, the screw lead, the rack's
pitch radius), and a coupling joint without its carrying joints is skipped naming it."""
import math

import numpy as np
import pytest

import FreeCAD

from helpers_doc import docs  # noqa: F401 (fixture)
from SimPhantWorkbench import factory, runner
from SimPhantWorkbench.assembly_import import import_assembly
from SimPhantWorkbench.document.base import is_type
from test_assembly_import import Assembly, pl

V = FreeCAD.Vector


def _angle_about_z(r, name):
    A = r.rotation_matrix(name)
    return np.unwrap(np.arctan2(A[:, 1, 0], A[:, 0, 0]))


FLIP = pl(0, 0, 0, (1, 0, 0), 180)           # a coordinate system picked the other way


def _gear_pair(doc, jtype, r1=20.0, r2=50.0, flip2=False):
    """Two discs (radii r1, r2 mm) on revolutes about z to a grounded base, r1 + r2 apart,
    and a coupling joint of ``jtype`` on their axes (its second coordinate system's z
    axis down with ``flip2``); a torque turns disc 1."""
    asm = Assembly(doc)
    base = asm.box("Base", size=(200.0, 200.0, 10.0), placement=pl(-100, -100, -20))
    asm.cylinder("Disc1", r1, 10.0, placement=pl(0, 0, 0))
    asm.cylinder("Disc2", r2, 10.0, placement=pl(r1 + r2, 0, 0))
    asm.ground(base)
    doc.recompute()
    w1, w2 = pl(0, 0, 0), pl(r1 + r2, 0, 0)
    asm.joint("Revolute", ("Base", "Face6", w1), ("Disc1", "Edge1", w1), label="Axle1")
    asm.joint("Revolute", ("Base", "Face6", w2), ("Disc2", "Edge1", w2), label="Axle2")
    g = asm.joint(jtype, ("Disc1", "Edge1", w1),
                  ("Disc2", "Edge1", w2.multiply(FLIP) if flip2 else w2), label="Mesh",
                  distance=r1)
    g.Distance2 = r2
    doc.recompute()
    return asm


@pytest.mark.parametrize("jtype, flip2, sense", [("Gears", False, -1.0), ("Belt", False, 1.0),
                                                 ("Gears", True, 1.0), ("Belt", True, -1.0)])
def test_gears_and_belt_become_couplers_of_the_two_axles(docs, jtype, flip2, sense):
    """FreeCAD's solver keeps phi2 = -+(r1 / r2) phi1 (Gears, Belt), each angle about its
    own coordinate system's z axis: with the second z axis down the senses about the
    common axis swap, and so does the imported kind."""
    doc = docs()
    asm = _gear_pair(doc, jtype, flip2=flip2)
    report = import_assembly(asm.obj)
    assert not report.skipped
    coupler = report.couplers[next(o.Name for o in doc.Objects if o.Label == "Mesh")]
    assert is_type(coupler, "SimPhant::Coupler")
    assert coupler.Label == "Mesh_coupler"
    assert coupler.CouplerType == ("gear" if sense < 0 else "belt")
    assert coupler.Ratio == pytest.approx(2.5)
    assert {coupler.Joint1.Label, coupler.Joint2.Label} == {"Axle1_joint", "Axle2_joint"}
    study = report.study
    factory.make_torque(study, report.bodies["Disc1"], (0.0, 0.0, 1e-4))   # N m
    r = runner.run_study(study, t_end=1.0, dt=1e-3, output_dt=0.01)
    th1 = _angle_about_z(r, runner.result_key(study, asm.doc.getObject("Disc1")))
    th2 = _angle_about_z(r, runner.result_key(study, asm.doc.getObject("Disc2")))
    assert th1[-1] > 0.1
    assert np.abs(th2 - sense * th1 / 2.5).max() < 1e-9


def test_screw_becomes_a_coupler_of_the_cylindrical_joint(docs):
    """A nut on a vertical cylindrical joint with a 5 mm pitch screw falls turning:
    theta = 2 pi s / pitch."""
    doc = docs()
    asm = Assembly(doc)
    rod = asm.cylinder("Rod", 5.0, 200.0, placement=pl(0, 0, -100))
    nut = asm.cylinder("Nut", 15.0, 10.0, placement=pl(0, 0, 50))
    asm.ground(rod)
    doc.recompute()
    w = pl(0, 0, 50)
    asm.joint("Cylindrical", ("Rod", "Face1", w), ("Nut", "Face1", w), label="Guide")
    asm.joint("Screw", ("Rod", "Face1", w), ("Nut", "Face1", w), label="Thread", distance=5.0)
    doc.recompute()
    report = import_assembly(asm.obj)
    assert not report.skipped
    coupler = next(iter(report.couplers.values()))
    assert coupler.CouplerType == "screw" and coupler.Lead.Value == pytest.approx(5.0)
    study = report.study
    r = runner.run_study(study, t_end=0.5, dt=1e-3, output_dt=0.01)
    name = runner.result_key(study, nut)
    s = r.position(name)[:, 2] - r.position(name)[0, 2]
    assert s[-1] < -1e-3                                   # it falls
    assert np.abs(_angle_about_z(r, name) - 2 * math.pi * s / 5e-3).max() < 1e-8


@pytest.mark.parametrize("pinion_flip, rack_flip, slider_flip", [
    (False, False, False), (True, False, False), (False, True, False), (True, True, False),
    (False, True, True)])
def test_rack_and_pinion_moves_the_rack_the_way_freecad_does(docs, pinion_flip, rack_flip,
                                                             slider_flip):
    """FreeCAD's solver moves the rack by Distance * theta along the z axis of the
    RackPinion's coordinate system on the rack, for a turn theta of the pinion about the z
    axis of the one on the pinion, whatever the axes of the revolute and slider joints
    (``slider_flip``: the slider's coordinate system on the rack turned over, as Reverse
    does; ``tests/app/test_fc1_assemblies.py`` checks this against FreeCAD 1.0's own
    solve)."""
    doc = docs()
    asm = Assembly(doc)
    base = asm.box("Base", size=(300.0, 200.0, 10.0), placement=pl(-150, -100, -20))
    asm.cylinder("Pinion", 20.0, 10.0, placement=pl(0, 0, 0))
    rack = asm.box("Rack", size=(200.0, 10.0, 10.0), placement=pl(-100, -30, 0))
    asm.ground(base)
    doc.recompute()
    axle, along_x = pl(0, 0, 0), pl(-100, -30, 0, (0, 1, 0), 90)
    asm.joint("Revolute", ("Base", "Face6", axle), ("Pinion", "Edge1", axle), label="Axle")
    asm.joint("Slider", ("Base", "Face6", along_x),
              ("Rack", "Edge1", along_x.multiply(FLIP) if slider_flip else along_x),
              label="Guide")
    jp = axle.multiply(FLIP) if pinion_flip else axle
    jr = along_x.multiply(FLIP) if rack_flip else along_x
    asm.joint("RackPinion", ("Pinion", "Edge1", jp), ("Rack", "Edge1", jr), label="Steer",
              distance=20.0)
    doc.recompute()
    report = import_assembly(asm.obj)
    assert not report.skipped
    coupler = next(iter(report.couplers.values()))
    assert coupler.CouplerType == "rack_pinion"
    assert coupler.Joint1.Label == "Axle_joint" and coupler.Joint2.Label == "Guide_joint"
    study = report.study
    factory.make_torque(study, report.bodies["Pinion"], (0.0, 0.0, 1e-3))   # N m
    r = runner.run_study(study, t_end=0.5, dt=1e-3, output_dt=0.01)
    z_p = np.array(tuple(jp.Rotation.multVec(V(0, 0, 1))))
    z_r = np.array(tuple(jr.Rotation.multVec(V(0, 0, 1))))
    theta = z_p[2] * _angle_about_z(r, runner.result_key(study, asm.doc.getObject("Pinion")))
    key = runner.result_key(study, rack)
    s = (r.position(key) - r.position(key)[0]) @ z_r
    assert abs(theta[-1]) > 0.1
    assert np.abs(s - 20e-3 * theta).max() < 1e-9


def test_a_lead_screw_becomes_a_lead_screw_coupler(docs):
    """FreeCAD's Screw between a screw on a revolute joint and a nut on a slider joint
    (its tool tip): a lead_screw coupler; the falling nut turns the screw, right-handed:
    s = -pitch theta / (2 pi)."""
    doc = docs()
    asm = Assembly(doc)
    asm.box("Plate", size=(40.0, 40.0, 10.0), placement=pl(-20, -20, -10))
    screw = asm.cylinder("Screw", 5.0, 150.0, placement=pl(0, 0, 0))
    nut = asm.cylinder("Nut", 15.0, 10.0, placement=pl(0, 0, 60))
    asm.ground(doc.getObject("Plate"))
    doc.recompute()
    w = pl(0, 0, 0)
    asm.joint("Revolute", ("Plate", "Face6", w), ("Screw", "Face2", w), label="ScrewAxle")
    asm.joint("Slider", ("Plate", "Face6", w), ("Nut", "Face2", pl(0, 0, 60)), label="NutSlide")
    asm.joint("Screw", ("Nut", "Face2", pl(0, 0, 60)), ("Screw", "Face2", w), label="Thread",
              distance=5.0)
    doc.recompute()
    report = import_assembly(asm.obj, strict=True)
    coupler = next(iter(report.couplers.values()))
    assert (coupler.CouplerType, coupler.Lead.Value) == ("lead_screw", pytest.approx(5.0))
    assert [coupler.Joint1.Label, coupler.Joint2.Label] == ["ScrewAxle_joint", "NutSlide_joint"]
    study = report.study
    r = runner.run_study(study, t_end=0.5, dt=5e-4, output_dt=0.01)
    s = r.position(runner.result_key(study, nut))[:, 2]
    s = s - s[0]
    assert s[-1] < -1e-3                                   # it falls
    theta = _angle_about_z(r, runner.result_key(study, screw))
    assert theta[-1] > 10.0
    assert np.abs(s + 5e-3 * theta / (2 * math.pi)).max() < 1e-9          # m


def test_a_gear_without_its_axle_is_skipped_naming_it(docs):
    doc = docs()
    asm = _gear_pair(doc, "Gears")
    axle = next(o for o in doc.Objects if o.Label == "Axle2")
    axle.Activated = False
    report = import_assembly(asm.obj)
    reason = dict(report.skipped)["Mesh"]
    assert "no revolute or cylindrical joint carries part 'Disc2'" in reason
    assert any("Assembly joint 'Mesh' is skipped" in w for w in report.warnings)
    assert not report.couplers


def test_joint_limits_are_imported_as_end_stops_never_dropped_silently(docs):
    """FreeCAD 1.x joint limits (EnableAngleMin/AngleMin ...) of a geared axle: an end stop
    on the imported joint, named in a warning; strict mode takes it."""
    doc = docs()
    asm = _gear_pair(doc, "Gears")
    axle = next(o for o in doc.Objects if o.Label == "Axle1")
    for name, value in (("EnableAngleMin", True), ("EnableAngleMax", False)):
        axle.addProperty("App::PropertyBool", name, "Limits", "limit switch")
        setattr(axle, name, value)
    axle.addProperty("App::PropertyFloat", "AngleMin", "Limits", "limit")
    axle.AngleMin = -30.0
    report = import_assembly(asm.obj)
    assert [s.Label for s in report.stops[axle.Name]] == ["Axle1_rotation_stop"]
    assert any("Assembly joint 'Axle1': its rotation limits are imported as the compliant "
               "end stop 'Axle1_rotation_stop'" in w for w in report.warnings)
    assert import_assembly(asm.obj, strict=True).stops[axle.Name][0].EnableLower