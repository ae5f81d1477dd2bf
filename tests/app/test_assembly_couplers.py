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


def _gear_pair(doc, jtype, r1=20.0, r2=50.0):
    """Two discs (radii r1, r2 mm) on revolutes about z to a grounded base, r1 + r2 apart,
    and a coupling joint of ``jtype`` on their axes; a torque turns disc 1."""
    asm = Assembly(doc)
    base = asm.box("Base", size=(200.0, 200.0, 10.0), placement=pl(-100, -100, -20))
    asm.cylinder("Disc1", r1, 10.0, placement=pl(0, 0, 0))
    asm.cylinder("Disc2", r2, 10.0, placement=pl(r1 + r2, 0, 0))
    asm.ground(base)
    doc.recompute()
    w1, w2 = pl(0, 0, 0), pl(r1 + r2, 0, 0)
    asm.joint("Revolute", ("Base", "Face6", w1), ("Disc1", "Edge1", w1), label="Axle1")
    asm.joint("Revolute", ("Base", "Face6", w2), ("Disc2", "Edge1", w2), label="Axle2")
    g = asm.joint(jtype, ("Disc1", "Edge1", w1), ("Disc2", "Edge1", w2), label="Mesh",
                  distance=r1)
    g.Distance2 = r2
    doc.recompute()
    return asm


@pytest.mark.parametrize("jtype, sense", [("Gears", -1.0), ("Belt", 1.0)])
def test_gears_and_belt_become_couplers_of_the_two_axles(docs, jtype, sense):
    doc = docs()
    asm = _gear_pair(doc, jtype)
    report = import_assembly(asm.obj)
    assert not report.skipped
    coupler = report.couplers[next(o.Name for o in doc.Objects if o.Label == "Mesh")]
    assert is_type(coupler, "SimPhant::Coupler")
    assert coupler.Label == "Mesh_coupler"
    assert coupler.CouplerType == {"Gears": "gear", "Belt": "belt"}[jtype]
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