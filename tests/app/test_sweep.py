"""Parameter studies on a real ``dask.distributed`` LocalCluster (2 worker processes on
localhost, started and stopped here) and in this process: a pendulum's length swept
through a spreadsheet cell against the closed-form period, identical numbers both
ways, failures recorded per variant, a worker killed mid-sweep, the cache, cancel."""
import math
import os
import signal
import time

import numpy as np
import pytest

import FreeCAD

from helpers_doc import G, all_placements, docs, element_name, pendulum  # noqa: F401
from SimPhantWorkbench import factory, sweep
from SimPhantWorkbench.solver import ModelError

distributed = pytest.importorskip("distributed")

RADIUS = 2.0            # rod radius [mm] (helpers_doc.pendulum)
LENGTHS = list(np.linspace(100.0, 400.0, 16))


def cached_count(directory):
    """Entries of the result cache in ``directory``."""
    from SimPhantWorkbench.sweep.cache import Cache
    with Cache(str(directory)) as c:
        return len(c)


def sheet_pendulum(doc, length=200.0):
    """helpers_doc.pendulum with its length in spreadsheet cell ``Sheet.length``: the rod's
    Height and its placement (hanging from z = 0) follow the cell on recompute."""
    p = pendulum(doc, length=length)
    sheet = doc.addObject("Spreadsheet::Sheet", "Sheet")
    sheet.set("A1", repr(length))
    sheet.setAlias("A1", "length")
    doc.recompute()
    p["rod"].setExpression("Height", "Sheet.length")
    p["rod"].setExpression(".Placement.Base.z", "-Sheet.length")
    doc.recompute()
    p["sheet"] = sheet
    p["study"].EndTime = 3.0
    return p


def closed_form_period(length_mm):
    """Compound pendulum (a rod hinged at its top rim): T = 2 pi sqrt(I_O / (m g d)),
    lengthened by theta0^2/16 for the release angle theta0 = atan(r / (L/2))."""
    L, r = length_mm * 1e-3, RADIUS * 1e-3
    d = math.hypot(r, L / 2)
    i_o = (3 * r * r + L * L) / 12.0 + d * d          # per unit mass
    theta0 = math.atan2(r, L / 2)
    return 2 * math.pi * math.sqrt(i_o / (G * d)) * (1 + theta0 ** 2 / 16)


METRICS = {"period": "period(velocity(Rod).x)", "peak_force": "max(reaction_force(Hinge))",
           "drift": "max(energy_drift)"}


def _state(doc, p):
    return (all_placements(doc), p["sheet"].getContents("A1"), p["rod"].Height.Value,
            p["link"].Mass)


def test_length_sweep_on_a_local_cluster_matches_the_closed_form_and_runs_in_process_the_same(
        docs, cluster):
    c, client = cluster
    doc = docs()
    p = sheet_pendulum(doc)
    before = _state(doc, p)
    spec = sweep.make_spec({"Sheet.length": LENGTHS}, METRICS, batch_size=2)
    out = sweep.execute(p["study"], spec, scheduler=c.scheduler_address)
    assert out.stats["batches"] == 8 and out.stats["workers"] == 2
    # automatic batches on a scheduler: sized for its workers (about 4 tasks each)
    auto = sweep.execute(p["study"], {"Sheet.length": LENGTHS}, {"period": METRICS["period"]},
                         scheduler=c.scheduler_address, settings={"t_end": 0.1})
    assert auto.stats["batch_size"] == 2 and auto.stats["batches"] == 8
    assert [r["status"] for r in out.rows] == ["ok"] * 16, [r["message"] for r in out.rows]
    periods = np.array([r["period"] for r in out.rows])
    expected = np.array([closed_form_period(L) for L in LENGTHS])
    np.testing.assert_allclose(periods, expected, rtol=3e-5)
    assert np.all(np.diff(periods) > 0)
    # both workers ran variants; a worker loads the kernels once, never per task
    workers = {r["worker"] for r in out.rows}
    assert len(workers) == 2
    for w in workers:
        loads = [r["new_kernels"] for r in out.rows if r["worker"] == w]
        assert sum(1 for n in loads if n > 0) <= 1, loads
    # the document is as it was
    assert _state(doc, p) == before
    # the same sweep in this process: identical numbers, bit for bit
    local = sweep.execute(p["study"], spec, executor="in-process")
    for r, q in zip(out.rows, local.rows):
        assert q["key"] == r["key"]
        for m in METRICS:
            assert q[m] == r[m], (m, q[m], r[m])
    table = sweep.run(p["study"], {"Sheet.length": LENGTHS[:2]}, METRICS, executor="in-process")
    assert list(table["period"]) == [r["period"] for r in local.rows[:2]]
    assert list(table["status"]) == ["ok", "ok"]


def tether_pendulum(doc):
    """The sheet pendulum with a distance joint 'Tether' from the rod's bottom rim vertex
    to a fixed anchor 50 mm below it: the mechanism assembles only for lengths the
    rod's bottom can reach (50 .. about 450 mm: it swings on a circle about the pivot)."""
    p = sheet_pendulum(doc)
    anchor = doc.addObject("Part::Box", "Anchor")
    anchor.Length = anchor.Width = anchor.Height = 5.0
    anchor.Placement.Base = FreeCAD.Vector(RADIUS, 0, -250.0 - 5.0)
    doc.recompute()
    factory.make_body(p["study"], anchor, fixed=True)
    top = element_name(anchor, "Vertex", (RADIUS, 0, -250.0))
    bottom = element_name(p["rod"], "Vertex", (RADIUS, 0, -200.0))
    p["tether"] = factory.make_joint(p["study"], "distance", (anchor, top),
                                     (p["rod"], bottom), name="Tether")
    p["study"].EndTime = 0.2
    return p


def test_a_variant_that_cannot_assemble_fails_with_its_message_and_the_others_finish(
        docs, cluster):
    c, _client = cluster
    doc = docs()
    p = tether_pendulum(doc)
    before = _state(doc, p)
    lengths = [50.0, 60.0, 5000.0, 80.0]           # [mm]; 5 m cannot be reached
    out = sweep.execute(p["study"], {"Tether.Length": lengths},
                        {"peak_tether": "max(reaction_force(Tether))",
                         "peak_hinge": "max(reaction_force(Hinge))"},
                        scheduler=c.scheduler_address, batch_size=1)
    status = [r["status"] for r in out.rows]
    assert status == ["ok", "ok", "failed", "ok"], [r["message"] for r in out.rows]
    bad = out.rows[2]
    assert bad["error"] == "AssemblyError" and "Tether" in bad["message"]
    assert bad["message"].startswith("Study 'Study': ")
    assert math.isnan(bad["peak_tether"]) and math.isnan(bad["peak_hinge"])
    assert all(np.isfinite(r["peak_hinge"]) and r["peak_hinge"] > 0 for r in out.rows
               if r["status"] == "ok")
    assert _state(doc, p) == before and p["tether"].Length.Value == 0.0


def test_geometry_that_does_not_recompute_fails_that_variant_only(docs):
    doc = docs()
    p = sheet_pendulum(doc)
    before = _state(doc, p)
    out = sweep.execute(p["study"], {"Sheet.length": [150.0, -20.0, 250.0]},
                        {"period": METRICS["period"]}, executor="in-process",
                        settings={"t_end": 2.0})
    assert [r["status"] for r in out.rows] == ["ok", "failed", "ok"]
    assert "recomputing the document failed at 'Rod'" in out.rows[1]["message"]
    assert out.rows[2]["period"] == pytest.approx(closed_form_period(250.0), rel=3e-5)
    assert _state(doc, p) == before
    assert "Invalid" not in p["rod"].State


def test_killing_a_worker_mid_sweep_still_completes_the_sweep(docs, cluster):
    c, client = cluster
    client.wait_for_workers(2, timeout=60)
    doc = docs()
    p = sheet_pendulum(doc)
    p["study"].EndTime = 15.0            # ~0.1 s per variant: the kill lands mid-task
    pids = client.run(os.getpid)
    killed = {}

    def progress(state):
        if state.done >= 1 and not killed:
            processing = client.processing()
            busy = [w for w, keys in processing.items() if keys and w in pids]
            if not busy:
                return True                 # between tasks: try at the next report
            victim = busy[0]
            os.kill(pids[victim], signal.SIGKILL)
            killed.update(pid=pids[victim], tasks=list(processing[victim]))
        return True

    out = sweep.execute(p["study"], {"Sheet.length": LENGTHS}, {"period": METRICS["period"]},
                        scheduler=c.scheduler_address, batch_size=1, progress=progress)
    assert killed, "the sweep ended before a worker could be killed"
    assert [r["status"] for r in out.rows] == ["ok"] * 16, [r["message"] for r in out.rows]
    periods = np.array([r["period"] for r in out.rows])
    np.testing.assert_allclose(periods, [closed_form_period(L) for L in LENGTHS], rtol=3e-5)
    # the worker was busy when it died; its tasks were rerun by Dask and finished
    assert killed["tasks"] and all(k.startswith("simphant-sweep-") for k in killed["tasks"])


def test_a_rerun_takes_finished_variants_from_the_cache(docs, tmp_path):
    doc = docs()
    p = sheet_pendulum(doc)
    cache = str(tmp_path / "cache")
    metrics = {"period": METRICS["period"]}
    first = sweep.execute(p["study"], {"Sheet.length": [150.0, 200.0, -5.0]}, metrics,
                          executor="in-process", cache_dir=cache, settings={"t_end": 2.0})
    assert [r["cached"] for r in first.rows] == [False, False, False]
    assert cached_count(cache) == 2          # the unbuildable variant has no model
    assert os.listdir(cache) == ["results.sqlite"]     # one file, not one per variant
    again = sweep.execute(p["study"], {"Sheet.length": [150.0, 200.0, -5.0, 250.0]}, metrics,
                          executor="in-process", cache_dir=cache, settings={"t_end": 2.0})
    assert [r["cached"] for r in again.rows] == [True, True, False, False]
    assert [r["status"] for r in again.rows] == ["ok", "ok", "failed", "ok"]
    for a, b in zip(first.rows[:2], again.rows[:2]):
        assert a["period"] == b["period"] and a["key"] == b["key"]
    assert again.rows[3]["new_kernels"] == 0 and again.rows[3]["sim_time"] > 0
    # another metric is not in the cache: those variants run again
    more = sweep.execute(p["study"], {"Sheet.length": [150.0]},
                         {"period": METRICS["period"], "drift": METRICS["drift"]},
                         executor="in-process", cache_dir=cache, settings={"t_end": 2.0})
    assert more.rows[0]["cached"] is False and more.rows[0]["period"] == first.rows[0]["period"]
    # other settings: another model fingerprint, no cache hit
    other = sweep.execute(p["study"], {"Sheet.length": [150.0]}, metrics,
                          executor="in-process", cache_dir=cache, settings={"t_end": 2.5})
    assert other.rows[0]["cached"] is False and other.rows[0]["key"] != first.rows[0]["key"]


def test_cancel_keeps_finished_variants_and_restores_the_document(docs, tmp_path):
    doc = docs()
    p = sheet_pendulum(doc)
    before = _state(doc, p)
    seen = []

    def progress(state):
        seen.append(state)
        return state.done < 2

    out = sweep.execute(p["study"], {"Sheet.length": LENGTHS[:6]}, {"period": METRICS["period"]},
                        executor="in-process", batch_size=1, progress=progress,
                        cache_dir=str(tmp_path / "cache"), settings={"t_end": 2.0})
    status = [r["status"] for r in out.rows]
    assert status[:2] == ["ok", "ok"] and set(status[2:]) == {"cancelled"}
    assert out.stats["cancelled"] and "cancelled" in out.rows[-1]["message"]
    assert cached_count(tmp_path / "cache") == 2
    assert seen[-1].done == 2 and seen[-1].total == 6
    assert _state(doc, p) == before


def test_bad_specifications_name_what_is_wrong(docs):
    doc = docs()
    p = sheet_pendulum(doc)
    st = p["study"]
    cases = [
        ({"Nope.Height": [1.0]}, {"m": "max(speed(Rod))"}, "no object 'Nope'"),
        ({"Rod.Nope": [1.0]}, {"m": "max(speed(Rod))"}, "'Rod' has no property 'Nope'"),
        ({"Rod.Label": [1.0]}, {"m": "max(speed(Rod))"}, "is not a number"),
        ({"Rod_body.Mass": [1.0]}, {"m": "max(speed(Rod))"}, "read-only"),
        ({"Sheet.nope": [1.0]}, {"m": "max(speed(Rod))"}, "no alias or cell 'nope'"),
        ({"Sheet.length": [1.0]}, {"m": "max(speed(Ghost))"}, "no object 'Ghost'"),
        ({"Sheet.length": [1.0]}, {"m": "max(reaction_force(Rod))"}, "not a SimPhant joint"),
        ({"Sheet.length": [1.0]}, {"m": "max(speed(Pin))"}, "is fixed"),
    ]
    for variables, metrics, message in cases:
        with pytest.raises(ModelError, match=message):
            sweep.execute(st, variables, metrics, executor="in-process")


def test_targets_reach_components_of_vectors_and_study_settings(docs):
    doc = docs()
    p = sheet_pendulum(doc)
    link = p["link"]
    out = sweep.execute(p["study"], [
        {"target": "%s.InitialVelocity.x" % link.Name, "name": "vx", "values": [0.0, 50.0]},
        {"target": "Study.EndTime", "name": "t_end", "values": [0.5, 1.0]}],
        {"final_time": "final(kinetic_energy)", "t_last": "max(total_energy)"},
        executor="in-process")
    assert [(r["vx"], r["t_end"]) for r in out.rows] == [(0.0, 0.5), (0.0, 1.0), (50.0, 0.5),
                                                         (50.0, 1.0)]
    assert all(r["status"] == "ok" for r in out.rows)
    # an initial push adds kinetic energy: the total energy is higher with vx = 50 mm/s
    assert out.rows[2]["t_last"] > out.rows[0]["t_last"]
    assert link.InitialVelocity.x == 0.0 and p["study"].EndTime == 3.0


def test_parameter_study_object_stores_spec_and_results_and_applies_the_best(docs, tmp_path):
    doc = docs()
    p = sheet_pendulum(doc)
    spec = sweep.make_spec({"Sheet.length": [150.0, 300.0, 200.0]},
                           {"period": METRICS["period"]}, objective={"maximize": "period"},
                           settings={"t_end": 2.5})
    ps = factory.make_parameter_study(p["study"], spec)
    assert ps in p["study"].Group and ps.Proxy.Type == "SimPhant::ParameterStudy"
    out = sweep.run_parameter_study(ps, executor="in-process")
    assert ps.Variants == 3 and ps.Succeeded == 3 and ps.Failed == 0 and ps.BestVariant == 1
    path = str(tmp_path / "ps.FCStd")
    names = dict(ps=ps.Name, study=p["study"].Name)
    doc.saveAs(path)
    FreeCAD.closeDocument(doc.Name)
    doc2 = FreeCAD.openDocument(path)
    ps2 = doc2.getObject(names["ps"])
    rows = sweep.stored_rows(ps2)
    assert [r["period"] for r in rows] == [r["period"] for r in out.rows]
    assert sweep.stored_spec(ps2).to_dict() == spec.to_dict()
    assert doc2.getObject("Sheet").get("length") == 200.0
    sweep.apply_best(ps2)
    assert doc2.getObject("Sheet").get("length") == 300.0
    assert doc2.getObject("Rod").Height.Value == 300.0
    # the study still runs (the Parameter study object is ignored by the conversion)
    from SimPhantWorkbench import runner
    r = runner.run_study(doc2.getObject(names["study"]), t_end=0.1)
    assert len(r.t) > 1


def test_the_solid_property_cache_reuses_unchanged_solids_only(docs, monkeypatch):
    from SimPhantWorkbench.document import massprops
    doc = docs()
    box = doc.addObject("Part::Box", "Block")
    box.Length, box.Width, box.Height = 40.0, 20.0, 10.0
    other = doc.addObject("Part::Cylinder", "Drum")
    doc.recompute()
    calls = []
    real = massprops._solid_integrals
    monkeypatch.setattr(massprops, "_solid_integrals",
                        lambda *a: calls.append(a[1].Name) or real(*a))
    fresh = massprops.mass_properties(box, density=1000.0)
    with massprops.solid_property_cache():
        a = massprops.mass_properties(box, density=1000.0)
        b = massprops.mass_properties(box, density=2000.0)      # density is not cached
        massprops.mass_properties(other, density=1000.0)
        box.Length = 80.0
        doc.recompute()
        c = massprops.mass_properties(box, density=1000.0)
        box.Placement.Base = FreeCAD.Vector(5, 0, 0)             # moved: integrated again
        doc.recompute()
        d = massprops.mass_properties(box, density=1000.0)
    # the first call's integrals are remembered past it (``LASTING_SOLIDS``)
    assert calls == ["Block", "Drum", "Block", "Block"]
    assert a.mass == fresh.mass and np.array_equal(a.inertia, fresh.inertia)
    assert b.mass == pytest.approx(2 * a.mass, rel=1e-15)
    assert c.mass == pytest.approx(2 * a.mass, rel=1e-12)
    assert d.cog[0] == pytest.approx(c.cog[0] + 0.005, abs=1e-12)
    # outside a block: the unchanged solid again from memory (Solve after Solve), a
    # changed one integrated
    again = massprops.mass_properties(box, density=1000.0)
    assert len(calls) == 4 and np.array_equal(again.inertia, d.inertia)
    box.Height = 30.0
    doc.recompute()
    e = massprops.mass_properties(box, density=1000.0)
    assert calls[4:] == ["Block"] and e.mass == pytest.approx(3 * d.mass, rel=1e-12)
    # at most LASTING_SOLIDS solids are kept
    monkeypatch.setattr(massprops, "LASTING_SOLIDS", 1)
    box.Height = 40.0
    doc.recompute()
    massprops.mass_properties(box, density=1000.0)               # the drum is let go
    assert len(massprops._lasting) == 1
    massprops.mass_properties(other, density=1000.0)
    assert calls[5:] == ["Block", "Drum"]


SPEC_TOML = '''
design = "grid"
batch_size = 2

[settings]
t_end = %(t_end)s

[[variables]]
name = "length"
target = "Sheet.length"
start = 150
stop = 300
count = %(count)d

[metrics]
period = "period(velocity(Rod).x)"
peak = "max(reaction_force(Hinge))"

[objective]
maximize = "period"
'''


def _saved_pendulum(docs, tmp_path, t_end=2.0, count=4):
    doc = docs()
    sheet_pendulum(doc)
    model = str(tmp_path / "swing.FCStd")
    doc.saveAs(model)
    FreeCAD.closeDocument(doc.Name)
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC_TOML % dict(t_end=t_end, count=count))
    return model, str(spec)


def test_simphant_sweep_on_the_embedded_cluster_then_from_the_cache(docs, tmp_path):
    import io
    import json
    from SimPhantWorkbench import cli
    from SimPhantWorkbench.sweep.outputs import read_csv
    model, spec = _saved_pendulum(docs, tmp_path)
    original = open(model, "rb").read()
    out_dir = tmp_path / "out"
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["sweep", model, spec, "--out", str(out_dir), "--workers", "2",
                     "--apply-best"], stdout=out, stderr=err)
    assert code == 0, err.getvalue() + out.getvalue()
    text = out.getvalue()
    assert "Dask (local cluster, 2 workers)" in text and "4 ok, 0 failed" in text
    assert "best       #3 by maximize period" in text
    rows = read_csv(str(out_dir / "results.csv"))
    assert [r["status"] for r in rows] == ["ok"] * 4
    lengths = [150.0, 200.0, 250.0, 300.0]
    assert [r["length"] for r in rows] == lengths
    for r, L in zip(rows, lengths):
        assert r["period"] == pytest.approx(closed_form_period(L), rel=3e-5)
    assert "4/4 done, 0 failed" in err.getvalue()
    for name in ("period.png", "peak.png", "sweep.json", "swing_sweep.FCStd"):
        assert (out_dir / name).is_file(), name
    info = json.loads((out_dir / "sweep.json").read_text())
    assert info["ok"] == 4 and info["best"]["variant"] == 3 and info["best_applied"]
    assert open(model, "rb").read() == original          # the input is never written
    # the saved document: the parameter study with its results, the best length applied
    saved = FreeCAD.openDocument(str(out_dir / "swing_sweep.FCStd"))
    try:
        ps = [o for o in saved.Objects
              if getattr(getattr(o, "Proxy", None), "Type", "") == "SimPhant::ParameterStudy"][0]
        assert ps.Succeeded == 4 and ps.BestVariant == 3
        assert [r["period"] for r in sweep.stored_rows(ps)] == [r["period"] for r in rows]
        assert saved.getObject("Sheet").get("length") == 300.0
    finally:
        FreeCAD.closeDocument(saved.Name)
    # a rerun in this process: everything from the cache, the same numbers
    out2 = io.StringIO()
    code = cli.main(["sweep", model, spec, "--out", str(out_dir), "--workers", "1"],
                    stdout=out2, stderr=io.StringIO())
    assert code == 0 and "4 ok, 0 failed, 0 lost, 0 cancelled, 4 from the cache" in out2.getvalue()
    assert [r["period"] for r in read_csv(str(out_dir / "results.csv"))] == \
        [r["period"] for r in rows]


def test_simphant_sweep_rejects_bad_input_with_one_line(docs, tmp_path):
    import io
    from SimPhantWorkbench import cli
    model, spec = _saved_pendulum(docs, tmp_path)
    bad = tmp_path / "bad.toml"
    bad.write_text(open(spec).read().replace("Sheet.length", "Sheet.nope"))
    err = io.StringIO()
    assert cli.main(["sweep", model, str(bad), "--out", str(tmp_path / "o"), "--workers", "1"],
                    stdout=io.StringIO(), stderr=err) == 2
    assert "spreadsheet 'Sheet' has no alias or cell 'nope'" in err.getvalue()
    err = io.StringIO()
    bad.write_text("design = 'grid'\n[metrics]\np = 'period(velocity(Rod).x)'\n")
    assert cli.main(["sweep", model, str(bad)], stdout=io.StringIO(), stderr=err) == 2
    assert "at least one design variable" in err.getvalue()


def test_ctrl_c_cancels_the_sweep_and_keeps_finished_variants(docs, tmp_path):
    import subprocess
    import sys
    from SimPhantWorkbench.sweep.outputs import read_csv
    model, spec = _saved_pendulum(docs, tmp_path, t_end=20.0, count=12)
    out_dir = tmp_path / "out"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc = subprocess.Popen(
        [os.path.join(root, "bin", "simphant"), "sweep", model, spec, "--out", str(out_dir),
         "--workers", "1", "--batch-size", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = ""
    deadline = time.time() + 300
    while time.time() < deadline:
        line = proc.stderr.readline()
        if "done" in line and not line.startswith("sweep [.") or not line:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert "sweep cancelled" in err
    rows = read_csv(str(out_dir / "results.csv"))
    status = [r["status"] for r in rows]
    assert len(rows) == 12 and status.count("ok") >= 1 and status.count("cancelled") >= 1
    assert set(status) == {"ok", "cancelled"}
    assert cached_count(out_dir / "cache") == status.count("ok")


def test_designs_grid_latin_hypercube_uniform_and_normal():
    from SimPhantWorkbench.sweep.spec import Variable
    m = {"m": "max(speed(Rod))"}
    grid = sweep.make_spec([Variable("A.x", values=[1, 2, 3]),
                            Variable("B.y", start=0, stop=1, count=2)], m)
    assert grid.size() == 6
    np.testing.assert_array_equal(grid.points(), [[1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1]])
    lhs = sweep.make_spec([Variable("A.x", low=10, high=20), Variable("B.y", rel=0.05)], m,
                          design="lhs", count=50, seed=7)
    p = lhs.points({"B.y": 100.0})
    assert p.shape == (50, 2)
    np.testing.assert_array_equal(p, lhs.points({"B.y": 100.0}))       # the seed repeats it
    # Latin hypercube: exactly one sample in each of the 50 strata of every variable
    assert sorted(np.floor((p[:, 0] - 10) / 10 * 50).astype(int)) == list(range(50))
    assert sorted(np.floor((p[:, 1] - 95) / 10 * 50).astype(int)) == list(range(50))
    other = sweep.make_spec([Variable("A.x", low=10, high=20), Variable("B.y", rel=0.05)], m,
                            design="lhs", count=50, seed=8).points({"B.y": 100.0})
    assert not np.array_equal(p, other)
    uni = sweep.make_spec([Variable("A.x", low=-1, high=1)], m, design="uniform", count=2000,
                          seed=1).points()
    assert -1 <= uni.min() and uni.max() <= 1 and abs(uni.mean()) < 0.05
    nrm = sweep.make_spec([Variable("A.x", rel=0.05), Variable("B.y", mean=3.0, std=0.5)], m,
                          design="normal", count=4000, seed=2).points({"A.x": 10.0})
    assert nrm[:, 0].mean() == pytest.approx(10.0, abs=0.03)
    assert nrm[:, 0].std() == pytest.approx(0.5, rel=0.05)
    assert nrm[:, 1].mean() == pytest.approx(3.0, abs=0.03)
    assert nrm[:, 1].std() == pytest.approx(0.5, rel=0.05)


def test_specifications_from_toml_and_json_and_their_errors(tmp_path):
    import json
    toml = tmp_path / "s.toml"
    toml.write_text(SPEC_TOML % dict(t_end=1.5, count=3))
    spec = sweep.load_spec(str(toml))
    assert spec.variable_names == ["length"] and spec.metric_names == ["period", "peak"]
    assert spec.settings == {"t_end": 1.5} and spec.objective == ("maximize", "period")
    assert spec.batch_size == 2 and spec.size() == 3
    js = tmp_path / "s.json"
    js.write_text(json.dumps(spec.to_dict()))
    again = sweep.load_spec(str(js))
    assert again.to_dict() == spec.to_dict()
    np.testing.assert_array_equal(again.points(), spec.points())
    m = {"m": "max(speed(Rod))"}
    cases = [
        (dict(variables=[{"target": "A.x", "values": []}]), "non-empty list"),
        (dict(variables=[{"target": "A.x", "start": 0, "stop": 1}]), "start, stop and count"),
        (dict(variables=[{"target": "A.x", "low": 0, "high": 1}]), "grid design needs values"),
        (dict(variables=[{"target": "A.x", "values": [1]}], design="lhs", count=3),
         "samples its variables"),
        (dict(variables=[{"target": "A.x", "low": 0, "high": 1}], design="lhs"),
         "needs count"),
        (dict(variables=[{"target": "A.x", "low": 0}], design="uniform", count=3),
         "needs low and high"),
        (dict(variables=[{"target": "A.x", "mean": 1}], design="normal", count=3),
         "needs mean and std"),
        (dict(variables=[{"target": "A.x", "values": [1]}], design="simplex"), "design must be"),
        (dict(variables=[{"target": "Ax", "values": [1]}]), "OBJECT.PROPERTY"),
        (dict(variables=[{"target": "A.x", "values": [1], "step": 2}]), "unknown key"),
        (dict(variables=[{"target": "A.x", "values": [1]}], settings={"t_ned": 1}),
         "unknown simulation setting"),
        (dict(variables=[{"target": "A.x", "values": [1]}], objective={"minimize": "q"}),
         "not a metric"),
        (dict(variables=[{"target": "A.x", "values": [1], "name": "m"}]), "must be unique"),
    ]
    for kwargs, message in cases:
        d = dict(kwargs)
        d.setdefault("metrics", m)
        with pytest.raises(ModelError, match=message):
            sweep.spec_from_dict(d)
    bad = tmp_path / "b.toml"
    bad.write_text("design = \n")
    with pytest.raises(ModelError, match="cannot read the specification"):
        sweep.load_spec(str(bad))
    with pytest.raises(ModelError, match="not found"):
        sweep.load_spec(str(tmp_path / "none.toml"))


def test_the_parameter_studies_page_names_every_option_quantity_and_reducer():
    import re
    from SimPhantWorkbench import cli
    from SimPhantWorkbench.solver.metrics import QUANTITIES, REDUCERS
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "docs", "parameter-studies.md"), encoding="utf-8") as fh:
        text = fh.read()
    parser = cli.build_parser().commands["sweep"]
    options = set(re.findall(r"--[a-z][a-z-]*", parser.format_help())) - {"--help", "--debug"}
    assert {"--scheduler", "--workers", "--out"} <= options
    assert not sorted(o for o in options if o not in text)
    assert not sorted(q for q in QUANTITIES if "`%s`" % q not in text)
    assert not sorted(r for r in REDUCERS if "`%s" % r not in text)
    for name in ("results.csv", "results.parquet", "<metric>.png", "sweep.json",
                 "<model>_sweep.FCStd"):
        assert "`%s`" % name in text, name
    assert os.path.isfile(os.path.join(root, "examples", "slider_crank_sweep.png"))
    spec = sweep.load_spec(os.path.join(root, "examples", "slider_crank_sweep.toml"))
    assert spec.size() == 15 and '"%s"' % spec.variables[0].target in text


def test_without_pandas_the_table_is_a_structured_array(docs, monkeypatch):
    import sys
    doc = docs()
    p = sheet_pendulum(doc)
    out = sweep.execute(p["study"], {"Sheet.length": [150.0, -1.0]},
                        {"period": METRICS["period"]}, executor="in-process",
                        settings={"t_end": 2.0})
    monkeypatch.setitem(sys.modules, "pandas", None)       # import pandas -> ImportError
    table = out.table()
    assert isinstance(table, np.ndarray) and table.dtype.names[:4] == ("variant", "status",
                                                                       "Sheet.length", "period")
    assert list(table["status"]) == ["ok", "failed"] and table["period"][0] == \
        out.rows[0]["period"] and np.isnan(table["period"][1])
    assert "recomputing" in table["message"][1]


def test_inside_freecadcmd_the_local_cluster_starts_python_workers(tmp_path, monkeypatch):
    """In FreeCAD sys.executable is FreeCAD itself; workers are started with its Python."""
    import shutil
    import subprocess
    import sys
    from SimPhantWorkbench.sweep.executors import python_executable
    assert python_executable() is None                   # here: a real Python
    monkeypatch.setattr(sys, "executable", "/usr/bin/freecadcmd")
    exe = python_executable()
    assert exe and os.path.basename(exe).startswith("python3")
    monkeypatch.undo()
    if shutil.which("freecadcmd") is None:
        pytest.skip("no freecadcmd")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script = tmp_path / "sweep_in_freecad.py"
    script.write_text(
        "import sys\n"
        "sys.path.insert(0, %r)\n"
        "import FreeCAD\n"
        "from SimPhantWorkbench import sweep\n"
        "doc = FreeCAD.openDocument(%r)\n"
        "out = sweep.execute(doc.getObject('Study'), {'Pendulum.Density': [2000, 2700]},\n"
        "                    {'v': 'max(speed(Pendulum))'}, workers=2, settings={'t_end': 0.3})\n"
        "print('RESULT', [r['status'] for r in out.rows], out.stats['executor'])\n"
        % (root, os.path.join(root, "examples", "pendulum.FCStd")))
    run = subprocess.run(["freecadcmd", str(script)], capture_output=True, text=True,
                         timeout=600)
    assert "RESULT ['ok', 'ok'] Dask (local cluster, 2 workers)" in run.stdout, \
        run.stdout[-2000:] + run.stderr[-2000:]


def test_quasi_random_designs_fill_the_ranges_evenly_and_repeat_with_their_seed():
    from scipy.stats import qmc
    m = {"m": "max(speed(Rod))"}
    variables = [{"target": "A.x", "low": 10, "high": 20}, {"target": "B.y", "rel": 0.1}]
    rand = sweep.make_spec(variables, m, design="uniform", count=256, seed=4).points(
        {"B.y": 50.0})
    for design in ("sobol", "halton"):
        spec = sweep.make_spec(variables, m, design=design, count=256, seed=4)
        p = spec.points({"B.y": 50.0})
        assert p.shape == (256, 2) and p[:, 0].min() >= 10 and p[:, 0].max() <= 20
        assert p[:, 1].min() >= 45 and p[:, 1].max() <= 55
        np.testing.assert_array_equal(p, spec.points({"B.y": 50.0}))
        unit = (p - [10, 45]) / 10.0
        assert qmc.discrepancy(unit) < 0.2 * qmc.discrepancy((rand - [10, 45]) / 10.0)
        assert sweep.spec_from_dict(spec.to_dict()).to_dict() == spec.to_dict()
    with pytest.raises(ModelError, match="sobol design samples its variables"):
        sweep.make_spec({"A.x": [1.0]}, m, design="sobol", count=4)


def test_a_saltelli_design_gives_the_sobol_indices_of_each_metric(docs, tmp_path):
    """The peak speed of a pendulum released with a push depends on the push, not on the
    density (a uniform rod's motion does not depend on its density)."""
    doc = docs()
    p = pendulum(doc)
    spec = sweep.make_spec([{"target": "Rod_body.Density", "name": "density", "low": 500,
                             "high": 3000},
                            {"target": "Rod_body.InitialVelocity.x", "name": "push",
                             "low": 0.0, "high": 200.0}],
                           {"peak": "max(speed(Rod_body))"}, design="saltelli", count=32,
                           seed=1, settings={"t_end": 0.05})
    assert spec.size() == 32 * 4
    out = sweep.execute(p["study"], spec, executor="in-process")
    assert out.count("ok") == 128
    s = out.sensitivity()["peak"]
    assert abs(s["S1"][0]) < 1e-9 and abs(s["ST"][0]) < 1e-9        # density: no effect
    assert abs(s["S1"][1] - 1) < 0.05 and abs(s["ST"][1] - 1) < 0.05   # the push: all of it
    from SimPhantWorkbench.sweep.outputs import write_all
    names, _notes = write_all(out, str(tmp_path))
    assert {"sensitivity.csv", "sensitivity.png"} <= set(names)
    from SimPhantWorkbench.sweep.outputs import read_csv
    rows = read_csv(str(tmp_path / "sensitivity.csv"))
    assert [(r["metric"], r["variable"]) for r in rows] == [("peak", "density"), ("peak", "push")]


def test_kept_series_are_written_per_variant_and_come_back_from_the_cache(docs, tmp_path):
    doc = docs()
    p = pendulum(doc)
    kw = dict(keep={"x": "position(Rod_body).x", "angle": "joint_angle(Hinge)"},
              settings={"t_end": 0.2}, executor="in-process", cache_dir=str(tmp_path / "c"))
    out = sweep.execute(p["study"], {"Rod_body.Density": [1000.0, -1.0, 2000.0]},
                        {"v": "max(speed(Rod_body))"}, **kw)
    assert [r["status"] for r in out.rows] == ["ok", "failed", "ok"]
    assert sorted(out.series) == [0, 2]
    t, x = out.series[0]["x"]
    assert len(t) == len(x) == 201 and abs(x[0]) < 1e-12 and x[-1] > 1e-3      # it swings
    from SimPhantWorkbench.sweep.outputs import write_all
    names, _notes = write_all(out, str(tmp_path / "o"))
    assert "series.npz" in names
    with np.load(str(tmp_path / "o" / "series.npz")) as z:
        assert sorted(z.files) == ["0/angle", "0/t", "0/x", "2/angle", "2/t", "2/x"]
        np.testing.assert_array_equal(z["0/x"], x)
        np.testing.assert_array_equal(z["0/t"], t)
    again = sweep.execute(p["study"], {"Rod_body.Density": [1000.0, 2000.0]},
                          {"v": "max(speed(Rod_body))"}, **kw)
    assert [r["cached"] for r in again.rows] == [True, True]
    np.testing.assert_array_equal(again.series[0]["x"][1], x)
    # another kept signal is not in the cache: that variant runs again
    other = sweep.execute(p["study"], {"Rod_body.Density": [1000.0]},
                          {"v": "max(speed(Rod_body))"},
                          **dict(kw, keep={"x": "position(Rod_body).z"}))
    assert other.rows[0]["cached"] is False
    with pytest.raises(ModelError, match="kept series 'q'.*no object 'Ghost'"):
        sweep.execute(p["study"], {"Rod_body.Density": [1000.0]}, {"v": "max(speed(Rod_body))"},
                      **dict(kw, keep={"q": "speed(Ghost)"}))


def test_kept_series_are_bounded_by_memory(docs, monkeypatch):
    from SimPhantWorkbench.sweep import engine
    monkeypatch.setattr(engine, "MAX_SERIES_BYTES", 5 * 10 ** 4)
    doc = docs()
    p = pendulum(doc)
    with pytest.raises(ModelError, match=r"\[keep\]: 3 variants x \d+ samples x 2 series"):
        sweep.execute(p["study"], {"Rod_body.Density": [1000.0, 1500.0, 2000.0]},
                      {"v": "max(speed(Rod_body))"}, keep=["speed(Rod_body)"],
                      settings={"t_end": 2.0}, executor="in-process")
    assert p["link"].Density == 1000.0


def test_an_optimiser_without_optuna_names_the_package(docs, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "optuna", None)
    doc = docs()
    p = pendulum(doc)
    with pytest.raises(ModelError, match="needs Optuna.*python3-optuna"):
        sweep.execute(p["study"], [{"target": "Rod_body.Density", "low": 500, "high": 900}],
                      {"v": "max(speed(Rod_body))"}, objective={"maximize": "v"},
                      optimize={"trials": 5}, executor="in-process")


def test_cma_es_without_cmaes_names_the_package(docs, monkeypatch):
    import sys
    pytest.importorskip("optuna")
    monkeypatch.setitem(sys.modules, "cmaes", None)
    doc = docs()
    p = pendulum(doc)
    with pytest.raises(ModelError, match="cmaes sampler needs the cmaes package.*python3-cmaes"):
        sweep.execute(p["study"], [{"target": "Rod_body.Density", "low": 500, "high": 900},
                                   {"target": "Study.EndTime", "low": 0.2, "high": 0.3}],
                      {"v": "max(speed(Rod_body))"}, objective={"maximize": "v"},
                      optimize={"trials": 5, "sampler": "cmaes"}, executor="in-process")
