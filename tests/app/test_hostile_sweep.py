"""Hostile-but-fair input to parameter studies: each case ends with a clear error naming the
value at fault (exit 2 from ``simphant sweep``), before anything is simulated or allocated,
or with a correct run; inputs are never overwritten. One test per weakness, named after it.
(SIGTERM and the embedded cluster's access: ``test_sweep_trust.py``.)"""
import io
import json
import os
import time
import tracemalloc
import zipfile

import pytest

import FreeCAD

from helpers_doc import docs, pendulum  # noqa: F401
from SimPhantWorkbench import cli, factory, sweep
from SimPhantWorkbench.solver import ModelError
from SimPhantWorkbench.sweep.outputs import read_csv

METRIC = {"v": "max(speed(Rod_body))"}


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def model(docs, tmp_path):
    doc = docs()
    pendulum(doc)
    path = tmp_path / "p.FCStd"
    doc.saveAs(str(path))
    FreeCAD.closeDocument(doc.Name)
    return path


def write_spec(path, variables, metrics=None, **top):
    d = dict(top, variables=variables, metrics=metrics or METRIC)
    d.setdefault("settings", {"t_end": 0.1})
    path.write_text(json.dumps(d))
    return path


def test_reserved_column_names_are_refused(model, tmp_path):
    for name in ("status", "variant", "key", "sim_time", "message", "warnings"):
        with pytest.raises(ModelError, match="'%s' is a column of the results table" % name):
            sweep.make_spec([{"target": "Rod_body.Density", "name": name, "values": [1.0]}],
                            METRIC)
        with pytest.raises(ModelError, match="'%s' is a column of the results table" % name):
            sweep.make_spec({"Rod_body.Density": [1.0]}, {name: "max(speed(Rod_body))"})
    spec = write_spec(tmp_path / "s.json", [{"target": "Rod_body.Density", "values": [1000]}],
                      {"status": "max(speed(Rod_body))"})
    code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--workers", "1")
    assert code == 2 and "'status' is a column of the results table" in err
    assert not (tmp_path / "o").exists()


def test_a_spec_named_sweep_json_inside_out_is_never_overwritten(model, tmp_path):
    out_dir = tmp_path / "o"
    out_dir.mkdir()
    spec = write_spec(out_dir / "sweep.json", [{"target": "Rod_body.Density",
                                                "values": [1000]}])
    before = spec.read_bytes()
    code, out, err = run_cli("sweep", model, spec, "--out", out_dir, "--workers", "1")
    assert code == 2 and "is a file the sweep writes" in err
    assert spec.read_bytes() == before and os.listdir(out_dir) == ["sweep.json"]
    # a model that is one of the outputs, or inside the cache, likewise
    (out_dir / "cache").mkdir()
    inside = out_dir / "cache" / "m.FCStd"
    inside.write_bytes(model.read_bytes())
    other = write_spec(tmp_path / "s.json", [{"target": "Rod_body.Density", "values": [1000]}])
    code, out, err = run_cli("sweep", inside, other, "--out", out_dir, "--workers", "1")
    assert code == 2 and "is a file the sweep writes" in err


@pytest.mark.parametrize("variables,design", [
    ([{"target": "A.x", "start": 0, "stop": 1, "count": 10 ** 9}], None),
    ([{"target": "A.%s" % c, "values": list(range(300))} for c in "xyz"], None),
    ([{"target": "A.x", "low": 0, "high": 1}], ("lhs", 10 ** 9)),
    ([{"target": "A.%s" % c, "values": list(range(1000))} for c in "wxyz"], None),
])
def test_sweep_specs_are_bounded_before_anything_is_allocated(variables, design):
    d = dict(variables=variables, metrics=METRIC)
    if design:
        d.update(design=design[0], count=design[1])
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(ModelError, match="more than the limit"):
            sweep.spec_from_dict(d)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20e6 and time.perf_counter() - t0 < 5.0, peak


def test_variants_times_metrics_bound_the_table():
    metrics = {"m%d" % k: "max(speed(Rod_body))" for k in range(200)}
    with pytest.raises(ModelError, match="results table would take about"):
        sweep.make_spec([{"target": "A.x", "low": 0, "high": 1}], metrics, design="sobol",
                        count=500000)


def test_a_stored_spec_opened_with_apply_best_does_not_blow_up(docs):
    doc = docs()
    p = pendulum(doc)
    ps = factory.make_parameter_study(p["study"], sweep.make_spec(
        {"Rod_body.Density": [1000.0]}, METRIC, objective={"maximize": "v"}))
    data = json.loads(ps.Specification)
    data["variables"] = [{"target": "Rod_body.Density", "start": 1, "stop": 2,
                          "count": 10 ** 9}]
    ps.Specification = json.dumps(data)
    ps.BestVariant = 0
    tracemalloc.start()
    try:
        with pytest.raises(ModelError, match="Parameter study .*more than the limit"):
            sweep.apply_best(ps)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20e6


@pytest.mark.parametrize("top,message", [
    (dict(), "the grid design \\(1000 x 1000 x 1000 x 1000 values\\) has 1000000000000 "
             "variants, more than the limit"),
    (dict(seed=-1, design="lhs", count=4), "seed must be an integer from 0"),
])
def test_a_1000_to_the_4_grid_and_a_negative_seed_are_bad_input(model, tmp_path, top, message):
    variables = [{"target": "Rod_body.%s" % c, "values": list(range(1000))} for c in
                 ("Density", "MassOverride", "InitialVelocity.x", "InitialVelocity.y")]
    if "seed" in top:
        variables = [{"target": "Rod_body.Density", "low": 900, "high": 1100}]
    spec = write_spec(tmp_path / "s.json", variables, **top)
    code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--workers", "1")
    assert code == 2, err
    import re
    assert re.search(message, err), err


def test_a_damaged_cache_is_bad_input_and_a_damaged_entry_runs_again(model, tmp_path):
    import sqlite3
    spec = write_spec(tmp_path / "s.json", [{"target": "Rod_body.Density",
                                             "values": [1000, 2000]}])
    out_dir = tmp_path / "o"
    code, out, err = run_cli("sweep", model, spec, "--out", out_dir, "--workers", "1")
    assert code == 0, err
    db = out_dir / "cache" / "results.sqlite"
    with sqlite3.connect(str(db)) as con:
        key = con.execute("SELECT key FROM entries").fetchone()[0]
        con.execute("UPDATE entries SET entry = ? WHERE key = ?", ('{"status": "ok", "me', key))
    code, out, err = run_cli("sweep", model, spec, "--out", out_dir, "--workers", "1")
    assert code == 0 and "1 from the cache" in out, out + err
    rows = read_csv(str(out_dir / "results.csv"))
    assert [r["status"] for r in rows] == ["ok", "ok"]
    code, out, err = run_cli("sweep", model, spec, "--out", out_dir, "--workers", "1")
    assert "2 from the cache" in out                     # the damaged entry was replaced
    db.write_bytes(b"this is not a database" * 100)
    code, out, err = run_cli("sweep", model, spec, "--out", out_dir, "--workers", "1")
    assert code == 2 and "result cache" in err and "damaged" in err and "--no-cache" in err


def test_t_end_1e5_is_refused_per_variant_before_any_memory_is_taken(model, tmp_path):
    spec = write_spec(tmp_path / "s.json", [{"target": "Rod_body.Density",
                                             "values": [1000, 2000]}],
                      settings={"t_end": 1e5, "output_dt": 1e-3})
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--workers", "1")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 0 and time.perf_counter() - t0 < 60
    rows = read_csv(str(tmp_path / "o" / "results.csv"))
    assert [r["status"] for r in rows] == ["failed", "failed"]
    assert all("t_end 100000 s" in r["message"] and "more than the limit" in r["message"]
               for r in rows)
    assert peak < 200e6, peak


def test_a_study_endtime_variable_next_to_settings_t_end_is_refused(model, tmp_path):
    spec = write_spec(tmp_path / "s.json", [{"target": "Study.EndTime", "values": [0.1, 0.2]}],
                      settings={"t_end": 0.3})
    code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--workers", "1")
    assert code == 2 and "Study.EndTime" in err and "[settings] t_end" in err


def test_density_zero_keeps_its_warning(docs):
    doc = docs()
    p = pendulum(doc)
    out = sweep.execute(p["study"], {"Rod_body.Density": [0.0, 1000.0]}, METRIC,
                        settings={"t_end": 0.1}, executor="in-process")
    assert [r["status"] for r in out.rows] == ["ok", "ok"]
    assert "default density" in out.rows[0]["warnings"] and "Rod_body" in out.rows[0]["warnings"]
    assert out.rows[1]["warnings"] == ""


def test_a_300_character_metric_name_fails_before_simulating(model, tmp_path):
    spec = write_spec(tmp_path / "s.json", [{"target": "Rod_body.Density", "values": [1000]}],
                      {"m" * 300: "max(speed(Rod_body))"})
    code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--workers", "1")
    assert code == 2 and "a name has 1 to 100 characters, got 300" in err
    assert not (tmp_path / "o").exists()


def test_metrics_a_b_and_a_under_b_writing_the_same_plot_are_refused(model, tmp_path):
    spec = write_spec(tmp_path / "s.json", [{"target": "Rod_body.Density", "values": [1000]}],
                      {"a/b": "max(speed(Rod_body))", "a_b": "min(speed(Rod_body))"})
    code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--workers", "1")
    assert code == 2 and "would write the same plot a_b.png" in err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("damage", ["truncated", "zeroed"])
def test_a_full_disk_leaves_no_broken_sweep_document(model, tmp_path, monkeypatch, damage):
    """FreeCAD writes a truncated file without raising when the disk is full (or blocks of
    zeros): the saved document is checked before it takes its place."""
    from SimPhantWorkbench.document.opening import ModelFile
    real = ModelFile.save_as

    def damaged(self, path, target=None, warn=None):
        real(self, path, target=target, warn=warn)
        data = open(path, "rb").read()
        n = len(data) // 3
        with open(path, "wb") as fh:
            fh.write(data[:n] if damage == "truncated" else
                     data[:n] + bytes(200) + data[n + 200:])

    monkeypatch.setattr(ModelFile, "save_as", damaged)
    spec = write_spec(tmp_path / "s.json", [{"target": "Rod_body.Density", "values": [1000]}])
    out_dir = tmp_path / "o"
    code, out, err = run_cli("sweep", model, spec, "--out", out_dir, "--workers", "1")
    assert code == 2 and "cannot save" in err and "p_sweep.FCStd" in err, err
    names = os.listdir(out_dir)
    assert "p_sweep.FCStd" not in names and not [n for n in names if "partial" in n]
    assert read_csv(str(out_dir / "results.csv"))[0]["status"] == "ok"
    with zipfile.ZipFile(str(model)) as zf:                       # the input is whole
        assert zf.testzip() is None
