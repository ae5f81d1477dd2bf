"""Interference of a study's bodies along its stored result (``document.interference``)
and its outputs (``interference.csv``, the ``simphant run`` summary and run.json),
against closed forms: a bar driven about a pin at a constant rate sweeps into a fixed
block (first contact where its leading face reaches the block's nearest corner, the
end where its trailing face leaves the farthest, the depth of two convex prisms by the
separating-axis theorem) and past a wall it never touches (the smallest clearance
where its far corner is farthest out), with output samples 15 deg apart."""
import csv
import json
import math

import numpy as np
import pytest

import FreeCAD

from SimPhantWorkbench import cli, factory, runner
from SimPhantWorkbench.document.interference import check_study
from SimPhantWorkbench.output.tables import INTERFERENCE_COLUMNS, write_interference_csv
from SimPhantWorkbench.solver import ModelError

from helpers_doc import docs, element_name, vec  # noqa: F401 (docs: a fixture)

MM = 1e-3
OMEGA = math.radians(60.0)          # 10 rpm
BAR = (100.0, 10.0, 10.0)           # x from the pivot, y from -10 to 0, z from 0 [mm]
BLOCK = ((40.0, 60.0), (20.0, 40.0), (-50.0, 60.0))        # x, y, z ranges [mm]
WALL_X = 101.5                      # the wall's face [mm]; it spans y -30 .. 30

pytest.importorskip("fcl", reason="python-fcl (the interference checks) is not installed")


def _box(doc, name, lo, hi):
    box = doc.addObject("Part::Box", name)
    box.Length, box.Width, box.Height = (h - l for l, h in zip(lo, hi))
    box.Placement.Base = vec(*lo)
    return box


def swinging_bar(doc, output_interval=0.25, end_time=1.0):
    """A 100 x 10 x 10 mm bar hinged at its corner on a pin along z at the origin, driven
    at 10 rpm counter-clockwise (kinematic run), from lying along +x (its leading face
    the plane y = 0) to 60 deg; a fixed block and a fixed wall beside its path."""
    pin = doc.addObject("Part::Cylinder", "PinShape")
    pin.Radius, pin.Height = 1.0, 10.0
    pin.Placement.Base = vec(0, 0, -10)
    bar = _box(doc, "BarShape", (0, -BAR[1], 0), (BAR[0], 0, BAR[2]))
    block = _box(doc, "BlockShape", *zip(*BLOCK))
    wall = _box(doc, "WallShape", (WALL_X, -30, -5), (WALL_X + 20, 30, 15))
    doc.recompute()
    study = factory.make_study(doc)
    study.AnalysisMode = "Kinematic"
    study.EndTime, study.TimeStep, study.OutputInterval = end_time, 1e-3, output_interval
    for shape, name in ((pin, "Pin"), (block, "Block"), (wall, "Wall")):
        factory.make_body(study, shape, fixed=True, name=name)
    factory.make_body(study, bar, name="Bar")
    hinge = factory.make_joint(study, "revolute",
                               (pin, element_name(pin, "Edge", (0, 0, 0), curve="Circle")),
                               (bar, element_name(bar, "Vertex", (0, 0, 0))), name="Hinge")
    factory.make_driver(study, hinge, function="ramp", name="Motor", Speed=10.0)
    return study


def block_corners():
    (x0, x1), (y0, y1), _ = BLOCK
    return [(x, y) for x in (x0, x1) for y in (y0, y1)]


def contact_times():
    """(first contact, end) [s]: the leading face (through the pivot) reaches the corner
    of smallest polar angle; the trailing face, 10 mm behind, leaves the corner of the
    largest ``polar angle + asin(10 / radius)``."""
    start = min(math.atan2(y, x) for x, y in block_corners())
    end = max(math.atan2(y, x) + math.asin(BAR[1] / math.hypot(x, y))
              for x, y in block_corners())
    return start / OMEGA, end / OMEGA


def sat_depth(theta):
    """Penetration depth [mm] of the bar turned by ``theta`` into the block: two convex
    prisms along z, so the separating-axis theorem over the four side normals and z
    (the cross products of their edges add no other direction)."""
    c, s = math.cos(theta), math.sin(theta)
    bar = np.array([[x, y] for x in (0.0, BAR[0]) for y in (-BAR[1], 0.0)]) @ [[c, s], [-s, c]]
    block = np.array(block_corners())
    depth = min(BAR[2] - BLOCK[2][0], BLOCK[2][1] - 0.0)        # along z
    for axis in ((1, 0), (0, 1), (c, s), (-s, c)):
        pa, pb = bar @ axis, block @ axis
        depth = min(depth, pa.max() - pb.min(), pb.max() - pa.min())
    return max(depth, 0.0)


def test_the_bar_turns_as_driven(doc):
    study = swinging_bar(doc)
    r = runner.run_study(study)
    A = r.rotation_matrix("Bar")[-1]
    c, s = math.cos(OMEGA), math.sin(OMEGA)
    np.testing.assert_allclose(A, [[c, -s, 0], [s, c, 0], [0, 0, 1]], atol=1e-9)


def test_bar_into_block_first_contact_end_and_depth_between_samples(doc):
    study = swinging_bar(doc)
    runner.run_study(study)
    check = check_study(study)
    deflection = check.deflection
    assert deflection == pytest.approx(0.1 * MM)
    rep = check.pair("Block", "Bar")
    assert [r.a for r in check.interfering()] == ["Block"]
    assert len(rep.intervals) == 1
    start, end = contact_times()
    assert (start, end) == pytest.approx((0.30725, 0.91970), abs=1e-4)
    # the bar's points move at 0.1 m * 1.047 rad/s at most: the resolution in time
    dt = check.resolution / (0.101 * OMEGA)
    assert rep.first_contact == pytest.approx(start, abs=dt)
    assert rep.intervals[0].end == pytest.approx(end, abs=dt)
    # neither end nor the deepest instant is an output sample (every 0.25 s)
    dense = np.linspace(start, end, 2001)
    depths = [sat_depth(OMEGA * x) for x in dense]
    assert rep.max_depth == pytest.approx(max(depths) * MM, abs=deflection)
    assert sat_depth(OMEGA * rep.intervals[0].time_of_max) * MM \
        == pytest.approx(rep.max_depth, abs=deflection)
    assert rep.interference_time == pytest.approx(end - start, abs=2 * dt)
    # the pairs left out: both fixed, or sharing the hinge
    assert sorted(check.excluded) == sorted([("Pin", "Block", "both fixed"),
                                             ("Pin", "Wall", "both fixed"),
                                             ("Block", "Wall", "both fixed"),
                                             ("Pin", "Bar", "joint Hinge")])


def test_a_wall_never_touched_gets_its_smallest_clearance_between_samples(doc):
    """The far corner (100, -10) mm is farthest out, sqrt(100^2 + 10^2) mm, at
    atan(0.1) (0.095 s); the samples at 0 and 0.25 s are 1.5 and 2.3 mm clear."""
    study = swinging_bar(doc)
    runner.run_study(study)
    rep = check_study(study).pair("Wall", "Bar")
    assert not rep.interferes and math.isnan(rep.first_contact)
    true_min = (WALL_X - math.hypot(BAR[0], BAR[1])) * MM
    assert np.nanmin(rep.frames) > 1.4 * MM
    # an exact query's clearance: never below the true one, above by the search's slack
    # (the tolerance, twice the deflection, at this size)
    assert true_min - 1e-9 <= rep.min_clearance <= true_min + 0.2 * MM
    assert rep.time_of_min == pytest.approx(math.atan(0.1) / OMEGA, abs=0.07)
    assert rep.point_a[0] == pytest.approx(WALL_X * MM, abs=1e-9)    # on the wall's face


def test_chosen_pairs_jointed_pairs_and_bad_input(doc):
    study = swinging_bar(doc)
    runner.run_study(study)
    check = check_study(study, pairs=[("Wall", "Bar"), ("Bar", "Pin")])
    assert [(r.a, r.b) for r in check.reports] == [("Wall", "Bar"), ("Pin", "Bar")]
    assert check.excluded == []
    # the pin touches the bar's corner face to face: within the tolerance, not interference
    assert not check.pair("Pin", "Bar").interferes
    assert check.pair("Pin", "Bar").min_clearance == pytest.approx(0.0, abs=1e-9)
    every = check_study(study, include_jointed=True)
    assert len(every.reports) == 3 and [x[2] for x in every.excluded] == ["both fixed"] * 3
    with pytest.raises(ModelError, match=r"'Nope' is not a body of study 'Study'.*Bar"):
        check_study(study, pairs=[("Bar", "Nope")])
    with pytest.raises(ModelError, match="'Bar' twice"):
        check_study(study, pairs=[("Bar", "Bar")])
    with pytest.raises(ModelError, match="deflection must be > 0"):
        check_study(study, deflection_mm=0.0)


def falling_boxes(doc):
    """Four free boxes falling side by side (0.05 s): A (30 x 10 x 5 mm); B, A's shape
    turned 30 deg about z elsewhere; C, a 10 x 30 x 5 box turned -90 deg about z (A's
    shape and orientation in the world, another body frame); D, 5.5 mm high."""
    def box(name, dims, base, angle=0.0):
        obj = doc.addObject("Part::Box", name)
        obj.Length, obj.Width, obj.Height = dims
        obj.Placement = FreeCAD.Placement(vec(*base), FreeCAD.Rotation(vec(0, 0, 1), angle))
        return obj
    shapes = [box("A", (30, 10, 5), (0, 0, 0)), box("B", (30, 10, 5), (80, 40, 0), 30.0),
              box("C", (10, 30, 5), (0, 80, 0), -90.0), box("D", (30, 10, 5.5), (80, 0, 0))]
    doc.recompute()
    study = factory.make_study(doc)
    study.EndTime, study.TimeStep, study.OutputInterval = 0.05, 1e-3, 0.01
    for shape in shapes:
        factory.make_body(study, shape, density=1000.0, name=shape.Name)
    return study, shapes


def test_bodies_of_the_same_shape_share_one_tessellation(doc, monkeypatch):
    """A and B (the same shape in their own frames) share one mesh; C (A's shape in the
    world, not in its frame) and D (another shape) do not; every mesh placed at the
    first sample fills its shape's bounding box; the check finds the same as with a
    tessellation per body."""
    from SimPhantWorkbench.document import scene
    study, shapes = falling_boxes(doc)
    result = runner.run_study(study)
    listed = scene.body_meshes(study, result, deflection=0.1)      # in the bodies' order
    assert len(listed) == 4
    meshes = {shape.Label: m for shape, m in zip(shapes, listed)}
    assert np.shares_memory(meshes["A"].points, meshes["B"].points)
    for other in "CD":
        assert not np.shares_memory(meshes["A"].points, meshes[other].points)
    for shape in shapes:
        box = shape.Shape.BoundBox
        world = meshes[shape.Label].world(result, 0) / MM
        np.testing.assert_allclose(world.min(axis=0), (box.XMin, box.YMin, box.ZMin),
                                   atol=1e-6)
        np.testing.assert_allclose(world.max(axis=0), (box.XMax, box.YMax, box.ZMax),
                                   atol=1e-6)
    shared = check_study(study)
    monkeypatch.setattr(scene, "shape_key", lambda *a, **k: None)
    alone = check_study(study)
    assert len(shared.reports) == len(alone.reports) == 6
    for r in shared.reports:
        s = alone.pair(r.a, r.b)
        assert r.min_distance == pytest.approx(s.min_distance, abs=1e-9)
        assert r.time_of_min == pytest.approx(s.time_of_min, abs=1e-9)


def test_interference_csv_rows(doc, tmp_path):
    study = swinging_bar(doc)
    runner.run_study(study)
    path = write_interference_csv(check_study(study), str(tmp_path / "interference.csv"))
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert tuple(rows[0]) == INTERFERENCE_COLUMNS
    by_pair = {(r["body_a"], r["body_b"]): r for r in rows}
    hit = by_pair[("Block", "Bar")]
    start, end = contact_times()
    assert hit["status"] == "interference"
    assert float(hit["start [s]"]) == pytest.approx(start, abs=2e-3)
    assert float(hit["end [s]"]) == pytest.approx(end, abs=2e-3)
    assert float(hit["max_depth [m]"]) > 5 * MM
    clear = by_pair[("Wall", "Bar")]
    assert clear["status"] == "clear" and clear["start [s]"] == ""
    assert float(clear["min_distance [m]"]) == pytest.approx(1.0 * MM, abs=0.25 * MM)
    assert by_pair[("Pin", "Bar")]["status"] == "excluded: joint Hinge"
    assert len(rows) == 2 + 4


def _cli(*argv):
    import io
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_simphant_run_writes_interference_csv_and_the_summary_line(docs, tmp_path):
    doc = docs()
    swinging_bar(doc)
    model = str(tmp_path / "bar.FCStd")
    doc.saveAs(model)
    out = tmp_path / "out"
    code, stdout, err = _cli("run", model, "--out", out, "--no-animation", "--interference")
    assert code == 0, err
    start, end = contact_times()
    line = next(x for x in stdout.splitlines() if x.startswith("collisions "))
    assert line.startswith("collisions 2 pairs checked (4 excluded: joints, fixed), "
                           "deflection 0.1 mm: 1 interfering: Block - Bar %.4g .. %.4g s, "
                           "depth " % (start, end)), line
    info = json.load(open(out / "run.json"))
    data = info["interference"]
    assert data["pairs"] == 2 and data["complete"]
    assert data["interfering"][0]["first_contact"] == pytest.approx(start, abs=2e-3)
    assert "interference.csv" in info["files"] and (out / "interference.csv").is_file()
    assert line in open(out / "summary.txt").read()
    # the check's progress on stderr (a log: one line that grows to 100 %)
    assert "checking interference [" + "#" * 20 + "] 100%" in err, err
    # a coarser tessellation, stated; and none at all
    code, stdout, err = _cli("run", model, "--out", out, "--no-animation", "--interference", "--deflection", "0.5")
    assert code == 0, err
    assert json.load(open(out / "run.json"))["interference"]["deflection"] \
        == pytest.approx(0.5 * MM)
    assert "deflection 0.5 mm" in stdout
    code, stdout, err = _cli("run", model, "--out", out, "--no-animation")
    assert code == 0, err
    assert "collisions" not in stdout and not (out / "interference.csv").exists()
    assert "interference" not in json.load(open(out / "run.json"))


def test_ctrl_c_during_the_interference_check_writes_nothing(docs, tmp_path, monkeypatch):
    """SIGINT while the second of two pairs is checked: exit code 130, the message says
    how far the check got, and DIR holds none of the run's files (not even those written
    before the check); a run afterwards is whole."""
    import os
    import signal
    from SimPhantWorkbench.cli.common import EXIT_CANCELLED
    from SimPhantWorkbench.collision import along
    doc = docs()
    swinging_bar(doc)
    model = str(tmp_path / "bar.FCStd")
    doc.saveAs(model)
    out = tmp_path / "out"
    calls = []
    real = along.check_pair

    def check_pair(*a, **kw):
        calls.append(1)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        return real(*a, **kw)

    monkeypatch.setattr(along, "check_pair", check_pair)
    code, stdout, err = _cli("run", model, "--out", out, "--no-animation", "--interference")
    assert code == EXIT_CANCELLED, err
    assert "interference check cancelled after 1 of 2 pairs; nothing written" in err, err
    assert "] stopped" in err
    assert not out.exists() or not any(p.name in ("run.json", "interference.csv",
                                                  "summary.txt", "result.npz")
                                       for p in out.iterdir()), list(out.iterdir())
    monkeypatch.setattr(along, "check_pair", real)
    code, stdout, err = _cli("run", model, "--out", out, "--no-animation", "--interference")
    assert code == 0, err
    assert json.load(open(out / "run.json"))["interference"]["pairs"] == 2
