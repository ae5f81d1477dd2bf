"""Coupler document objects: factory (units, validation naming the object), conversion to
the solver, a run of a gear pair against its ratio, save and restore."""
import numpy as np
import pytest

import FreeCAD

from helpers_doc import docs, reopen  # noqa: F401 (docs: a fixture)
from SimPhantWorkbench import conversion, factory, runner
from SimPhantWorkbench.document.base import is_type
from SimPhantWorkbench.solver import ModelError

V = FreeCAD.Vector


def _gears(doc):
    """Base (fixed), two discs on revolutes about z, 70 mm apart, a slider block."""
    base = doc.addObject("Part::Box", "Base")
    base.Length, base.Width, base.Height = 200.0, 200.0, 10.0
    base.Placement.Base = V(-100, -100, -20)
    discs = []
    for name, r, x in (("Disc1", 20.0, 0.0), ("Disc2", 50.0, 70.0)):
        d = doc.addObject("Part::Cylinder", name)
        d.Radius, d.Height = r, 10.0
        d.Placement.Base = V(x, 0, 0)
        discs.append(d)
    block = doc.addObject("Part::Box", "Block")
    block.Placement.Base = V(0, -60, 0)
    doc.recompute()
    study = factory.make_study(doc)
    factory.make_body(study, base, fixed=True)
    for d in discs + [block]:
        factory.make_body(study, d)
    axles = []
    for d, x in zip(discs, (0.0, 70.0)):
        local = FreeCAD.Placement(V(x, 0, 0).sub(V(-100, -100, -20)), FreeCAD.Rotation())
        axles.append(factory.make_joint(study, "revolute", (base, ""), (d, ""),
                                        placements=(local, FreeCAD.Placement()),
                                        name="Axle_" + d.Name))
    rail = factory.make_joint(study, "prismatic", (base, ""), (block, ""),
                              placements=(FreeCAD.Placement(V(100, 40, 20),
                                                            FreeCAD.Rotation(V(0, 1, 0), 90)),
                                          FreeCAD.Placement(V(0, 0, 0),
                                                            FreeCAD.Rotation(V(0, 1, 0), 90))),
                              name="Rail")
    return study, discs, axles, rail


def test_gear_coupler_runs_with_its_ratio_and_survives_save(docs, tmp_path):
    doc = docs()
    study, discs, axles, _rail = _gears(doc)
    c = factory.make_coupler(study, axles[0], axles[1], "gear", name="Mesh", Ratio=2.5)
    assert is_type(c, "SimPhant::Coupler")
    conv = conversion.convert(study)
    sc = conv.coupler_map[c.Name]
    assert sc.kind == "gear" and sc.value == 2.5
    factory.make_torque(study, discs[0], (0.0, 0.0, 1e-4))      # N m: about 5 rad/s^2
    r = runner.run_study(study, t_end=0.5, dt=1e-3, output_dt=0.01)
    A1 = r.rotation_matrix(runner.result_key(study, discs[0]))
    A2 = r.rotation_matrix(runner.result_key(study, discs[1]))
    th1 = np.unwrap(np.arctan2(A1[:, 1, 0], A1[:, 0, 0]))
    th2 = np.unwrap(np.arctan2(A2[:, 1, 0], A2[:, 0, 0]))
    assert th1[-1] > 0.05
    assert np.abs(th2 + th1 / 2.5).max() < 1e-9
    np.testing.assert_allclose(runner.get_result(study).coupler_torque("Mesh"),
                               r.coupler_torque("Mesh"))
    # reactions.csv: the coupler's force and torque after the joints'
    from SimPhantWorkbench import output
    path = output.write_reactions_csv(r, str(tmp_path / "reactions.csv"))
    header = open(path).readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    col = header.index("Mesh T_z [N m]")
    assert header.index("Mesh F_x [N]") > max(i for i, h in enumerate(header) if "Axle" in h)
    np.testing.assert_allclose(data[:, col], r.coupler_torque("Mesh")[:, 2], rtol=1e-9,
                               atol=1e-15)
    doc2 = reopen(doc, str(tmp_path / "gears.FCStd"))
    c2 = next(o for o in doc2.Objects if is_type(o, "SimPhant::Coupler"))
    assert c2.CouplerType == "gear" and c2.Ratio == 2.5
    assert c2.Joint1.Label == "Axle_Disc1" and c2.Joint2.Label == "Axle_Disc2"


def test_rack_radius_reaches_the_solver_in_metres(docs):
    doc = docs()
    study, discs, axles, rail = _gears(doc)
    c = factory.make_coupler(study, axles[0], rail, "rack_pinion", name="Rack",
                             Radius="20 mm")
    assert conversion.convert(study).coupler_map[c.Name].value == pytest.approx(0.02)


def test_bad_couplers_are_refused_naming_the_object(docs):
    doc = docs()
    study, discs, axles, rail = _gears(doc)
    before = sorted(o.Name for o in doc.Objects)
    with pytest.raises(ModelError, match="'Bad'.*Joint2 'Rail' is prismatic"):
        factory.make_coupler(study, axles[0], rail, "gear", name="Bad", Ratio=2.0)
    with pytest.raises(ModelError, match="'Zero'.*Ratio must be positive"):
        factory.make_coupler(study, axles[0], axles[1], "gear", name="Zero", Ratio=0.0)
    with pytest.raises(ModelError, match="unknown coupler type 'cam'"):
        factory.make_coupler(study, axles[0], axles[1], "cam")
    assert sorted(o.Name for o in doc.Objects) == before
    # a ratio no tooth counts give: refused when the study is converted, naming it
    factory.make_coupler(study, axles[0], axles[1], "belt", name="Odd", Ratio=3.14159265358979)
    with pytest.raises(ModelError, match="Odd.*whole numbers"):
        conversion.convert(study)
