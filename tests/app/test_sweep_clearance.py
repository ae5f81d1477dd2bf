"""Parameter-study metrics of two bodies' solids (``sweep.clearance``):
``min(clearance(A, B))`` and ``interference_time(A, B)`` per variant, against closed
forms: a 10 mm cube flies along x at a constant speed past a fixed block whose offset
in y the sweep moves from a gap to an overlap (the signed clearance is the offset, the
overlap lasts 20 mm / speed), and above a fixed wall 20 mm away; the slider-crank's
slider and crank (no joint between them) against the interference check of a stored
run; a constraint on the clearance in an optimisation; the errors."""
import math
import os

import pytest

import FreeCAD

from helpers_doc import docs  # noqa: F401 (a fixture)
from SimPhantWorkbench import factory, runner, sweep
from SimPhantWorkbench.solver import ModelError
from SimPhantWorkbench.sweep.spec import load_spec, make_spec, spec_from_dict

pytest.importorskip("fcl", reason="python-fcl (the interference checks) is not installed")

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")
MM = 1e-3
DEFLECTION = 0.1 * MM                  # the check's default
GAPS = [2.0, 0.5, -1.0, -3.0]          # block offset in y past the cube's face [mm]
SPEEDS = [100.0, 80.0]                 # the cube's speed along x [mm/s]


def _box(doc, name, lo, hi):
    box = doc.addObject("Part::Box", name)
    box.Length, box.Width, box.Height = (h - l for l, h in zip(lo, hi))
    box.Placement.Base = FreeCAD.Vector(*lo)
    return box


def flying_cube(doc):
    """The cube x -60 .. -50, y 0 .. 10, z 0 .. 10 mm flies along +x (no gravity) for
    1 s; the fixed block spans x -5 .. 5, y 10 + gap .. 30 + gap (``BlockShape``'s
    placement y is 10 + gap), z -10 .. 20; the fixed wall y -25 .. -20 under the whole
    path. Output samples every 0.1 s."""
    cube = _box(doc, "CubeShape", (-60, 0, 0), (-50, 10, 10))
    block = _box(doc, "BlockShape", (-5, 12, -10), (5, 32, 20))
    wall = _box(doc, "WallShape", (-100, -25, 0), (100, -20, 10))
    doc.recompute()
    study = factory.make_study(doc)
    study.GravityAcceleration = 0.0
    study.EndTime, study.TimeStep, study.OutputInterval = 1.0, 1e-3, 0.1
    factory.make_body(study, block, fixed=True, name="Block")
    factory.make_body(study, wall, fixed=True, name="Wall")
    factory.make_body(study, cube, name="Cube", velocity=(SPEEDS[0], 0.0, 0.0))
    return study


def overlap_time(gap, speed):
    """The cube's x range meets the block's for 20 mm of travel (the run is long enough)
    when the offset is an overlap."""
    return 20.0 / speed if gap < 0 else 0.0


METRICS = {"clear": "min(clearance(Cube, Block))",
           "overlap": "interference_time(Cube, Block)",
           "wall": 'min_clearance("Wall", Cube, deflection=0.5)',
           "deep": "interference_time(Cube, Block, tolerance=1.5)",
           "contact": "first_crossing(clearance(Cube, Block), 0, down)",
           "far": "at(clearance(Cube, Block), 0.1)",
           "wall_max": "max(clearance(Cube, Wall, deflection=0.5))"}


def _grid(study, **kwargs):
    spec = make_spec([{"target": "BlockShape.Placement.Base.y", "name": "y",
                       "values": [10.0 + g for g in GAPS]},
                      {"target": "Cube.InitialVelocity.x", "name": "v", "values": SPEEDS}],
                     METRICS)
    return sweep.execute(study, spec, executor="in-process", **kwargs)


def test_clearance_and_interference_time_per_variant_against_the_closed_form(doc, tmp_path):
    study = flying_cube(doc)
    out = _grid(study, cache_dir=str(tmp_path / "cache"))
    assert len(out.rows) == len(GAPS) * len(SPEEDS)
    for row in out.rows:
        gap, v = row["y"] - 10.0, row["v"]
        assert row["status"] == "ok" and not row["message"], row
        # signed: the gap, or minus the depth of the overlap (the block's y offset)
        assert row["clear"] == pytest.approx(gap * MM, abs=DEFLECTION), row
        # the ends of the overlap to the search's resolution of relative motion
        dt = DEFLECTION / (v * MM)
        assert row["overlap"] == pytest.approx(overlap_time(gap, v), abs=2 * dt), row
        # overlaps no deeper than 1.5 mm count as touching
        assert row["deep"] == pytest.approx(overlap_time(gap + 1.5, v), abs=2 * dt), row
        # the other pair: the wall 20 mm under the cube all along
        assert row["wall"] == pytest.approx(20.0 * MM, abs=5 * DEFLECTION), row
        assert row["wall_max"] == pytest.approx(20.0 * MM, abs=5 * DEFLECTION), row
        # other reducers of the signal: the first contact (the cube's front face reaches
        # the block's at x = -5 mm) and the distance at an output sample the check skips
        if gap < 0:
            assert row["contact"] == pytest.approx(45.0 / v, abs=2 * dt), row
        else:
            assert math.isnan(row["contact"]), row
        dx = 45.0 - 0.1 * v
        assert row["far"] == pytest.approx(math.hypot(dx, max(gap, 0.0)) * MM, abs=1e-9), row
    # the block moved back, the solids of every variant were its own: a rerun from the
    # cache (the fingerprints include the solids: the fixed block is not in the model)
    assert doc.getObject("BlockShape").Placement.Base.y == 12.0
    again = _grid(study, cache_dir=str(tmp_path / "cache"))
    assert [r["cached"] for r in again.rows] == [True] * len(out.rows)
    assert [r["clear"] for r in again.rows] == [r["clear"] for r in out.rows]
    assert len({r["key"] for r in out.rows}) == len(out.rows)


def test_worker_processes_send_the_motion_back_the_same_numbers(doc):
    """On the Dask executor (two worker processes, solver only) the values are those of
    the in-process run, bit for bit: the same motion, the same solids."""
    pytest.importorskip("distributed")
    study = flying_cube(doc)
    spec = make_spec({"BlockShape.Placement.Base.y": [12.0, 9.0]}, METRICS)
    here = sweep.execute(study, spec, executor="in-process")
    there = sweep.execute(study, spec, workers=2)
    assert "dask" in there.stats["executor"].lower()
    assert {r["worker"] for r in there.rows} != {r["worker"] for r in here.rows}
    for a, b in zip(here.rows, there.rows):
        assert b["status"] == "ok" and [b[m] for m in METRICS] == [a[m] for m in METRICS]
    assert there.rows[1]["clear"] == pytest.approx(-1.0 * MM, abs=DEFLECTION)


def test_the_toml_spelling_and_a_constraint_on_the_clearance_in_an_optimisation(doc, tmp_path):
    pytest.importorskip("optuna")
    study = flying_cube(doc)
    path = tmp_path / "spec.toml"
    path.write_text('[[variables]]\ntarget = "BlockShape.Placement.Base.y"\nname = "y"\n'
                    'low = 8.0\nhigh = 14.0\n'
                    '[metrics]\nclear = "min(clearance(Cube, \\"Block\\"))"\n'
                    'offset = "max(position(Cube).y)"\n'
                    '[objective]\nminimize = "clear"\nconstraints = ["clear >= 0.001"]\n'
                    '[optimize]\nsampler = "random"\ntrials = 12\nseed = 2\n')
    spec = load_spec(str(path))
    assert spec.to_dict()["metrics"]["clear"] == 'min(clearance(Cube, "Block"))'
    out = sweep.execute(study, spec, executor="in-process")
    rows = [r for r in out.rows if r["status"] == "ok"]
    assert len(rows) == 12
    for r in rows:
        assert r["clear"] == pytest.approx((r["y"] - 10.0) * MM, abs=DEFLECTION)
        assert r["feasible"] == (r["clear"] >= 0.001)
    # the closest the block may come: the smallest clearance of at least 1 mm
    best = out.best()
    assert best is not None and best["clear"] >= 0.001
    assert best["clear"] == min(r["clear"] for r in rows if r["clear"] >= 0.001)
    assert any(r["clear"] < 0.001 for r in rows)        # the constraint did choose


def test_slider_crank_sweep_min_clearance_of_slider_and_crank(tmp_path):
    """Slider and crank share no joint: the sweep's value of each variant is the
    interference check's of the same variant run and stored (with no second run: the
    worker sends the motion back)."""
    from SimPhantWorkbench.document.interference import check_study
    doc = FreeCAD.openDocument(os.path.join(EXAMPLES, "slider_crank.FCStd"))
    try:
        study = doc.getObject("Study")
        d = load_spec_dict(os.path.join(EXAMPLES, "slider_crank_sweep.toml"))
        d["variables"][0].update(start=1000, stop=8000, count=2)
        d["variables"][1]["values"] = [-360, -1080]
        d["metrics"] = {"clear": "min(clearance(Slider, Crank))",
                        "hit": "interference_time(Slider, Crank)"}
        d["settings"] = {"t_end": 0.5}
        d["objective"] = {"maximize": "clear", "constraints": ["hit <= 0"]}
        out = sweep.execute(study, spec_from_dict(d), executor="in-process")
        assert [r["status"] for r in out.rows] == ["ok"] * 4
        for row in (out.rows[0], out.rows[-1]):
            doc.getObject("Slider").Density = row["slider_density"]
            doc.getObject("Crank").InitialAngularVelocity.y = row["crank_speed"]
            study.EndTime = 0.5
            runner.run_study(study)
            rep = check_study(study, pairs=[("Slider", "Crank")]).pair("Slider", "Crank")
            assert row["clear"] == pytest.approx(rep.min_distance, rel=1e-9, abs=1e-12)
            assert row["clear"] > 0.0 and row["hit"] == 0.0
        assert out.best() is not None
    finally:
        FreeCAD.closeDocument(doc.Name)


def load_spec_dict(path):
    import tomllib
    with open(path, "rb") as fh:
        return tomllib.load(fh)


@pytest.mark.parametrize("text, message", [
    ("min(clearance(Cube, Block)) * 1000", r"REDUCER\(clearance\(A, B\), \.\.\.\).*no "
                                           r"arithmetic"),
    ("max(speed(Cube)) - min(clearance(Cube, Block))", r"no other term beside it"),
    ("at(clearance(Cube, Block))", r"at\(\) needs a time"),
    ("percentile(clearance(Cube, Block), 101)", r"q must be in 0 \.\. 100"),
    ("min(clearance(Cube))", r"takes two bodies"),
    ("interference_time(Cube, Cube)", r"'Cube' twice"),
    ("interference_time(Cube, Block, deflection=0)", r"deflection must be > 0"),
    ("interference_time(Cube, Block, spacing=1)", r"unknown option 'spacing'"),
    ("min_clearance(Cube, Block, tolerance=-1)", r"tolerance must be >= 0"),
    ("min_clearance(Cube, 3)", r"names or quoted labels"),
])
def test_malformed_pair_metrics_are_refused_naming_the_metric(text, message):
    with pytest.raises(ModelError, match="metric 'm'.*" + message):
        make_spec({"A.B": [1.0]}, {"m": text})


def test_bad_bodies_and_a_missing_collision_library_stop_the_sweep_before_any_variant(
        doc, monkeypatch):
    study = flying_cube(doc)
    doc.addObject("Part::Box", "Loose")
    doc.recompute()
    calls = []
    cases = [("min(clearance(Cube, Nope))", r"metric 'm'.*Nope"),
             ("min(clearance(Cube, Loose))", r"metric 'm': 'Loose' is not a body of study"),
             ("min(clearance(Block, Wall))", r"metric 'm': bodies 'Block' and 'Wall' are both "
                                             r"fixed"),
             ("min(clearance(Cube, CubeShape))", r"metric 'm'.*the same body 'Cube'")]
    for text, message in cases:
        spec = make_spec({"Cube.InitialVelocity.x": [10.0]}, {"m": text})
        with pytest.raises(ModelError, match=message):
            sweep.execute(study, spec, executor="in-process", progress=calls.append)
    from SimPhantWorkbench import collision
    monkeypatch.setattr(collision, "_MISSING", ["python-fcl cannot be imported (test)"])
    spec = make_spec({"Cube.InitialVelocity.x": [10.0]},
                     {"speed": "max(speed(Cube))", "gap": "min(clearance(Cube, Block))"})
    with pytest.raises(ModelError, match=r"metric 'gap' needs the collision library: "
                                         r"python-fcl cannot be imported.*pip install"):
        sweep.execute(study, spec, executor="in-process", progress=calls.append)
    assert calls == []                                  # no variant, not even a report
    assert doc.getObject("Cube").InitialVelocity.x == SPEEDS[0]
