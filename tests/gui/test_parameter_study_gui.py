"""Parameter studies in the real FreeCAD GUI (under Xvfb): the command adds a study and opens
its panel; the panel's fields give the specification the sweep validates (its message under
the fields); a small in-process run fills the results table and the plot with exactly the
sweep's numbers (line, and a heat map over two variables); exports; "Apply best" changes the
property in one undo step; OK stores spec and results in one undo step; Cancel changes nothing.

Set SIMPHANT_SCREENSHOT_DIR=DIR to keep the panel's screenshot in DIR (docs/images holds the
one the documentation shows)."""
import json
import textwrap

import pytest

from freecad_gui import run_gui_script


#: what both scripts start with: the workbench, the panel's module, messages recorded
PRELUDE = textwrap.dedent('''
    import json, os, sys, traceback, math
    import numpy as np
    import FreeCAD, FreeCADGui
    from PySide import QtCore, QtGui
    res = {}
    def check(name, value):
        res[name] = value
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        mw = FreeCADGui.getMainWindow()
        mw.resize(1280, 800)
        from SimPhantWorkbench import sweep
        from SimPhantWorkbench.document.base import is_type
        from SimPhantWorkbench.commands import cmd_sweep
        from SimPhantWorkbench.gui import common
        from SimPhantWorkbench.solver.metrics import parse_metric
        from SimPhantWorkbench.taskpanels.task_parameter_study import TaskParameterStudy
        common.message_hook = lambda kind, title, text: res.setdefault("messages", []).append(
            [kind, text])
''')

SCRIPT = PRELUDE + textwrap.dedent('''
        doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "slider_crank.FCStd"))
        doc.UndoMode = 1
        FreeCADGui.updateGui()
        FreeCADGui.SendMsgToActiveView("ViewFit")
        study = [o for o in doc.Objects if is_type(o, "SimPhant::Study")][0]
        common.set_active_study(study)
        check("command_active", FreeCADGui.isCommandActive("SimPhant_NewParameterStudy"))
        undo0 = doc.UndoCount
        FreeCADGui.runCommand("SimPhant_NewParameterStudy")
        FreeCADGui.updateGui()
        ps = [o for o in doc.Objects if is_type(o, "SimPhant::ParameterStudy")]
        check("created", [len(ps), doc.UndoCount - undo0, ps[0] in study.Group if ps else None])
        pstudy = ps[0]
        check("tree_icon", os.path.basename(pstudy.ViewObject.Proxy.getIcon()))
        panel = TaskParameterStudy.current
        check("panel_open", panel is not None and FreeCADGui.Control.activeDialog())
        check("targets_offered", ["Slider.Density" in panel.targets,
                                  "Crank.InitialAngularVelocity.y" in panel.targets])
        check("default_valid", panel.validate())
        # its undo step stays open with the panel: OK keeps the new study in one step
        check("created_ok", [bool(panel.accept()), doc.UndoCount - undo0,
                             pstudy in study.Group])
        FreeCADGui.ActiveDocument.setEdit(pstudy.Name)      # then edited as it exists
        FreeCADGui.updateGui()
        panel = TaskParameterStudy.current
        spec_before = pstudy.Specification

        # ---- fill the panel: 2 x 2 grid, two metrics, an objective
        panel.var_table.setRowCount(0)
        panel.met_table.setRowCount(0)
        panel.add_variable({"target": "Slider.Density", "name": "density",
                            "values": [1500.0, 8000.0]})
        r = panel.add_variable({"target": "Crank.InitialAngularVelocity.y", "name": "speed"})
        panel.var_table.item(r, 3).setText("-360")      # start
        panel.var_table.item(r, 4).setText("-720")      # stop
        panel.var_table.item(r, 5).setText("bad")       # count: the sweep's message shows
        check("error_shown", [panel.error.text(), panel.error.isVisibleTo(panel.form[0]),
                              panel.run_button.isEnabled()])
        panel.var_table.item(r, 5).setText("2")
        m = panel.add_metric()
        panel.met_table.item(m, 0).setText("wrist")
        panel.met_table.cellWidget(m, 1).setCurrentIndex(
            panel.met_table.cellWidget(m, 1).findText("reaction_force"))
        panel.met_table.cellWidget(m, 2).setEditText("WristPin")
        panel.met_table.cellWidget(m, 4).setCurrentIndex(
            panel.met_table.cellWidget(m, 4).findText("max"))
        m2 = panel.add_metric()
        panel.met_table.item(m2, 0).setText("vx_end")
        panel.met_table.cellWidget(m2, 1).setCurrentIndex(
            panel.met_table.cellWidget(m2, 1).findText("velocity"))
        panel.met_table.cellWidget(m2, 2).setEditText("Slider")
        panel.met_table.cellWidget(m2, 3).setCurrentIndex(
            panel.met_table.cellWidget(m2, 3).findText("x"))
        panel.met_table.cellWidget(m2, 4).setCurrentIndex(
            panel.met_table.cellWidget(m2, 4).findText("final"))
        panel._metrics_changed()
        panel.objective.setCurrentIndex(panel.objective.findText("maximize wrist"))
        panel.t_end.setText("0.2")
        check("valid", panel.validate())
        check("spec", panel.spec_dict())

        # ---- run in this process; the GUI stays alive (events processed during the run)
        ticks = []
        timer = QtCore.QTimer()
        timer.timeout.connect(lambda: ticks.append(1))
        timer.start(10)
        density0 = float(pstudy.Document.getObject("Slider").Density)
        out = panel.run()
        timer.stop()
        check("gui_ticks_during_run", len(ticks))
        check("progress_calls", len(panel.progress_log))
        check("density_restored", float(doc.getObject("Slider").Density) == density0)
        spec = sweep.spec_from_dict(panel.spec_dict())
        ref = sweep.execute(study, spec, executor="in-process")
        check("statuses", [r["status"] for r in out.rows])
        cols = panel.columns()
        table = [[panel.table.item(i, j).text() for j in range(len(cols))]
                 for i in range(panel.table.rowCount())]
        check("table_cols", cols)
        check("table_wrist", [float(row[cols.index("wrist")]) for row in table])
        check("sweep_wrist", [r["wrist"] for r in ref.rows])
        check("run_wrist", [r["wrist"] for r in out.rows])
        d = panel.select_plot("wrist", "density", None, "line")
        line = panel.axes.get_lines()[0]
        ok = sorted([r for r in out.rows if r["status"] == "ok"], key=lambda r: r["density"])
        check("line_equal", [list(map(float, line.get_xdata())) == [r["density"] for r in ok],
                             list(map(float, line.get_ydata())) == [r["wrist"] for r in ok]])
        check("line_labels", [panel.axes.get_xlabel(), panel.axes.get_ylabel()])
        h = panel.select_plot("wrist", "density", "speed", "heat map")
        z = np.array(h["z"])
        expect = np.full((2, 2), np.nan)
        for r in out.rows:
            expect[h["y"].index(r["speed"]), h["x"].index(r["density"])] = r["wrist"]
        check("heat_equal", [bool(np.array_equal(z, expect, equal_nan=True)), h["x"], h["y"]])
        quad = [c for c in panel.axes.collections][0]
        check("heat_drawn", bool(np.allclose(np.asarray(quad.get_array()).reshape(2, 2), expect)))
        png = os.path.join(TMP, "plot.png")
        csvp = os.path.join(TMP, "results.csv")
        panel.export_png(png)
        panel.export_csv(csvp)
        check("exports", [os.path.getsize(png), open(csvp).read().splitlines()[0]])
        check("best", [out.best()["variant"], panel.best()["variant"]])
        panel.select_plot("wrist", "density", "speed", "heat map")
        dock = [d for d in mw.findChildren(QtGui.QDockWidget)
                if d.objectName() in ("Combo View", "ComboView", "Tasks")]
        if dock:
            mw.resizeDocks(dock[:1], [660], QtCore.Qt.Horizontal)
        for _ in range(5):
            FreeCADGui.updateGui()
        # the two forms side by side (the task view scrolls between them)
        shots = [f.grab() for f in panel.form]
        width = sum(p.width() for p in shots) + 10
        height = max(p.height() for p in shots)
        image = QtGui.QPixmap(width, height)
        image.fill(QtGui.QColor("#ffffff"))
        painter = QtGui.QPainter(image)
        painter.drawPixmap(0, 0, shots[0])
        painter.drawPixmap(shots[0].width() + 10, 0, shots[1])
        painter.end()
        check("screenshot", [width, height])
        image.save(os.path.join(TMP, "parameter_study.png"))
        if SHOTS:
            image.save(os.path.join(SHOTS, "parameter_study.png"))

        # ---- Cancel run: pressed while the sweep runs (seen at its first progress call)
        QtCore.QTimer.singleShot(0, panel.cancel_button.click)
        out_c = panel.run()
        check("cancel_run", [[r["status"] for r in out_c.rows], out_c.stats["cancelled"],
                             float(doc.getObject("Slider").Density) == density0,
                             panel.run_button.isEnabled(), panel.cancel_button.isEnabled()])

        # ---- Cancel: the document is unchanged (spec, results)
        panel.reject()
        FreeCADGui.updateGui()
        check("cancel_unchanged", [pstudy.Specification == spec_before, pstudy.Variants,
                                   pstudy.ResultsFile == "" or not os.path.isfile(
                                       pstudy.ResultsFile), FreeCADGui.Control.activeDialog()])

        # ---- reopen, set 3 values, run, OK: spec and results in one undo step
        FreeCADGui.ActiveDocument.setEdit(pstudy.Name)
        panel = TaskParameterStudy.current
        panel.var_table.setRowCount(0)
        panel.add_variable({"target": "Slider.Density", "name": "density",
                            "values": [1500.0, 4000.0, -5.0, 8000.0]})
        panel.t_end.setText("0.2")
        out2 = panel.run()
        st = panel.columns().index("status")
        msg = panel.columns().index("message")
        check("failed_row", [panel.table.item(2, st).text(), panel.table.item(2, msg).text(),
                             out2.rows[2]["message"],
                             panel.table.item(2, st).foreground().color().name()])
        panel.select_plot("peak_speed", "density", None, "scatter")
        pd = panel.plot_data()
        check("failed_marked", [pd["failed"], [l.get_label() for l in panel.axes.get_lines()]])
        u0 = doc.UndoCount
        ok = panel.accept()
        rows = sweep.stored_rows(pstudy)
        check("ok_stored", [ok, doc.UndoCount - u0, pstudy.Variants, pstudy.Succeeded,
                            json.loads(pstudy.Specification)["variables"][0]["values"],
                            bool(np.array_equal(
                                np.array([r["peak_speed"] for r in rows], dtype=float),
                                np.array([r["peak_speed"] for r in out2.rows], dtype=float),
                                equal_nan=True))])

        # ---- the panel of a stored study shows the stored results; Apply best
        FreeCADGui.ActiveDocument.setEdit(pstudy.Name)
        panel = TaskParameterStudy.current
        check("reopened_rows", panel.table.rowCount())
        # the same sweep on the local cores (Dask, 2 workers) gives the same numbers
        i = panel.executor.findData("dask")
        if i >= 0:
            panel.executor.setCurrentIndex(i)
            panel.workers.setValue(2)
            ticks = []
            timer = QtCore.QTimer()
            timer.timeout.connect(lambda: ticks.append(1))
            timer.start(50)
            out3 = panel.run()
            timer.stop()
            check("dask", [out3.stats["executor"], out3.stats["workers"],
                           bool(np.array_equal(
                               np.array([r["peak_speed"] for r in out3.rows], dtype=float),
                               np.array([r["peak_speed"] for r in out2.rows], dtype=float),
                               equal_nan=True)), len(ticks)])
            panel.executor.setCurrentIndex(panel.executor.findData("in-process"))
        panel.objective.setCurrentIndex(panel.objective.findText("maximize peak_speed"))
        panel.run()
        u0 = doc.UndoCount
        best = panel.apply_best()
        u1 = doc.UndoCount
        check("applied", [float(doc.getObject("Slider").Density), best["density"],
                          u1 - u0, density0, FreeCADGui.Control.activeDialog()])
        doc.undo()
        check("undone", [float(doc.getObject("Slider").Density) == density0,
                         pstudy.BestVariant, pstudy.Variants])
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pstudy_gui")
    res, _proc = run_gui_script(tmp, "pstudy_gui", SCRIPT)
    assert "error" not in res, res["error"] + json.dumps(res)[:3000]
    res["tmp"] = str(tmp)
    return res


def test_command_adds_a_parameter_study_and_opens_its_panel(gui):
    assert gui["command_active"]
    assert gui["created"] == [1, 1, True]          # its step counted while still open
    assert gui["created_ok"] == [True, 1, True]
    assert gui["tree_icon"] == "ParameterStudy.svg"
    assert gui["panel_open"]
    assert gui["targets_offered"] == [True, True]
    assert gui["default_valid"] == ""


def test_the_sweeps_validation_message_is_shown_under_the_fields(gui):
    text, visible, run_enabled = gui["error_shown"]
    assert "count" in text and "speed" in text
    assert visible and not run_enabled
    assert gui["valid"] == ""
    spec = gui["spec"]
    assert spec["variables"][1] == {"target": "Crank.InitialAngularVelocity.y", "name": "speed",
                                    "start": -360, "stop": -720, "count": 2}
    assert spec["metrics"] == {"wrist": "max(reaction_force(WristPin))",
                               "vx_end": "final(velocity(Slider).x)"}
    assert spec["objective"] == {"maximize": "wrist"} and spec["settings"] == {"t_end": 0.2}


def test_the_run_keeps_the_gui_alive_and_restores_the_document(gui):
    assert gui["progress_calls"] >= 4
    assert gui["gui_ticks_during_run"] > 0
    assert gui["density_restored"]
    assert gui["statuses"] == ["ok"] * 4


def test_table_and_plots_show_the_sweeps_results(gui):
    assert gui["table_cols"] == ["variant", "status", "density", "speed", "wrist", "vx_end",
                                 "message"]
    assert gui["run_wrist"] == gui["sweep_wrist"]
    assert gui["table_wrist"] == pytest.approx(gui["sweep_wrist"], rel=1e-5)
    assert len(set(round(w, 6) for w in gui["run_wrist"])) == 4
    assert gui["line_equal"] == [True, True]
    assert gui["line_labels"] == ["density", "wrist"]
    assert gui["heat_equal"] == [True, [1500.0, 8000.0], [-720.0, -360.0]]
    assert gui["heat_drawn"]


def test_exports(gui):
    size, header = gui["exports"]
    assert size > 5000
    assert header.startswith("variant,status,density,speed,wrist,vx_end,message")


def test_apply_best_keeps_the_results_then_writes_the_best_variant_in_one_undo_step(gui):
    assert gui["best"][0] == gui["best"][1] == 3      # maximize wrist: 8000 kg/m^3, -720 deg/s
    density, best, steps, density0, dialog = gui["applied"]
    assert density == best != density0
    assert steps == 2 and not dialog                 # results kept, then the variant
    undone_density, best_variant, variants = gui["undone"]
    assert undone_density and best_variant >= 0 and variants == 4


def test_cancel_leaves_the_document_unchanged(gui):
    same_spec, variants, no_file, dialog = gui["cancel_unchanged"]
    assert same_spec and variants == 0 and no_file and not dialog


def test_ok_stores_specification_and_results_in_one_undo_step(gui):
    ok, steps, variants, succeeded, values, same = gui["ok_stored"]
    assert ok and steps == 1 and variants == 4 and succeeded == 3
    assert values == [1500, 4000, -5, 8000] and same
    assert gui["reopened_rows"] == 4


def test_a_failed_variant_shows_its_message_and_is_marked_in_the_plot(gui):
    status, text, message, colour = gui["failed_row"]
    assert status == "failed" and text == message and "Slider" in message
    assert colour == "#a40000"
    failed, labels = gui["failed_marked"]
    assert failed == [-5.0] and "failed" in labels


def test_cancel_run_stops_the_sweep_and_restores_the_document(gui):
    statuses, cancelled, restored, run_enabled, cancel_enabled = gui["cancel_run"]
    assert cancelled and restored and run_enabled and not cancel_enabled
    assert statuses == ["cancelled"] * 4


def test_local_cores_give_the_same_results(gui):
    if "dask" not in gui:
        pytest.skip("dask.distributed is not installed: the panel offers in-process runs only")
    executor, workers, same, ticks = gui["dask"]
    assert workers == 2 and executor and same and ticks > 0


SCRIPT_OPTIMISE = PRELUDE + textwrap.dedent('''
        doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "quarter_car.FCStd"))
        study = doc.getObject("Study")
        common.set_active_study(study)
        FreeCADGui.runCommand("SimPhant_NewParameterStudy")
        FreeCADGui.updateGui()
        panel = TaskParameterStudy.current
        check("designs", [panel.design.itemText(i) for i in range(panel.design.count())])
        check("places", [panel.executor.itemData(i) for i in range(panel.executor.count())])
        panel.var_table.setRowCount(0)
        panel.met_table.setRowCount(0)
        panel.design.setCurrentIndex(panel.design.findText("sobol"))
        panel.add_variable({"target": "Suspension.Damping", "name": "c", "low": 3.0,
                            "high": 7.0})
        panel.add_metric(parse_metric("max(acceleration(Sprung).z)", "acc"))
        panel.add_metric(parse_metric("range(spring_length(Suspension)) * 1000", "travel_mm"))
        panel._metrics_changed()
        check("sobol_valid", [panel.validate(), panel.spec_dict()["design"],
                              panel.met_table.item(1, 6).text()])
        panel.design.setCurrentIndex(panel.design.findText("optimize"))
        panel.objective.setCurrentIndex(panel.objective.findText("minimize acc"))
        panel.objective2.setCurrentIndex(panel.objective2.findText("minimize travel_mm"))
        panel.constraints.setText("acc <= 3")
        panel.sampler.setCurrentIndex(panel.sampler.findText("tpe"))
        panel.trials.setValue(12)
        panel.seed.setText("2")
        panel.t_end.setText("0.5")
        panel.executor.setCurrentIndex(panel.executor.findData("scheduler"))
        panel.scheduler.setText("tcp://nowhere")
        check("bad_scheduler", [panel.validate(), panel.run_button.isEnabled()])
        panel.scheduler.setText(ADDRESS)
        panel.use_cache.setChecked(True)
        panel.cache_dir.setText(os.path.join(TMP, "cache"))
        check("valid", panel.validate())
        check("spec", panel.spec_dict())
        out = panel.run()
        check("optimised", [len(out.rows), out.count("ok"), out.stats["executor"],
                            sorted({r["cached"] for r in out.rows})])
        d = panel.plot_data()
        check("pareto", [d["kind"], sorted(d["front"]),
                         sorted(r["variant"] for r in out.pareto()), len(d["x"])])
        check("pareto_drawn", [[l.get_label() for l in panel.axes.get_lines()],
                               panel.axes.get_xlabel(), panel.axes.get_ylabel()])
        check("columns", panel.columns())
        for _ in range(5):
            FreeCADGui.updateGui()
        shots = [f.grab() for f in panel.form]
        width = sum(p.width() for p in shots) + 10
        image = QtGui.QPixmap(width, max(p.height() for p in shots))
        image.fill(QtGui.QColor("#ffffff"))
        painter = QtGui.QPainter(image)
        painter.drawPixmap(0, 0, shots[0])
        painter.drawPixmap(shots[0].width() + 10, 0, shots[1])
        painter.end()
        image.save(os.path.join(TMP, "parameter_study_pareto.png"))
        if SHOTS:
            image.save(os.path.join(SHOTS, "parameter_study_pareto.png"))
        again = panel.run()
        check("from_cache", [again.count("ok"), sum(1 for r in again.rows if r["cached"]),
                             again.stats["batches"]])
        ok = panel.accept()
        stored = sweep.stored_spec([o for o in doc.Objects
                                    if is_type(o, "SimPhant::ParameterStudy")][0])
        check("stored", [ok, stored.design, stored.optimize, stored.objectives,
                         stored.constraints])
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def optimised(tmp_path_factory):
    """The optimiser with two objectives from the panel, on a Dask scheduler (one worker)."""
    distributed = pytest.importorskip("distributed")
    pytest.importorskip("optuna")
    tmp = tmp_path_factory.mktemp("pstudy_opt_gui")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    try:
        script = "ADDRESS = %r\n" % cluster.scheduler_address + SCRIPT_OPTIMISE
        res, _proc = run_gui_script(tmp, "pstudy_opt_gui", script)
    finally:
        cluster.close()
    assert "error" not in res, res["error"] + json.dumps(res)[:3000]
    res["tmp"] = str(tmp)
    return res


def test_the_panel_offers_every_design_and_where_to_run(optimised):
    assert optimised["designs"] == ["grid", "lhs", "uniform", "normal", "sobol", "halton",
                                    "saltelli", "optimize"]
    assert optimised["places"] == ["in-process", "dask", "scheduler"]
    assert optimised["sobol_valid"] == ["", "sobol", "range(spring_length(Suspension)) * 1000"]
    text, run_enabled = optimised["bad_scheduler"]
    assert "scheduler address 'tcp://nowhere'" in text and not run_enabled
    assert optimised["valid"] == ""
    spec = optimised["spec"]
    assert spec["optimize"] == {"sampler": "tpe", "trials": 12, "seed": 2}
    assert spec["objective"] == {"minimize": ["acc", "travel_mm"], "constraints": ["acc <= 3"]}


def test_the_optimiser_runs_on_the_scheduler_and_the_pareto_front_is_plotted(optimised):
    rows, ok, executor, cached = optimised["optimised"]
    assert rows == 12 and ok == 12 and "Dask (tcp://127.0.0.1:" in executor
    assert cached == [False]
    kind, front, sweep_front, points = optimised["pareto"]
    assert kind == "Pareto front" and front == sweep_front and len(front) >= 2
    assert points == 12
    labels, xlabel, ylabel = optimised["pareto_drawn"]
    assert labels == ["variants", "Pareto front (%d)" % len(front)]
    assert xlabel == "acc (minimize)" and ylabel == "travel_mm (minimize)"
    assert optimised["columns"][-3:] == ["feasible", "pareto", "message"]


def test_the_panels_cache_serves_a_rerun_and_ok_stores_the_optimiser(optimised):
    assert optimised["from_cache"] == [12, 12, 0]          # nothing submitted
    ok, design, opt, objectives, constraints = optimised["stored"]
    assert ok and design == "optimize" and opt == {"sampler": "tpe", "trials": 12, "seed": 2}
    assert objectives == [["minimize", "acc"], ["minimize", "travel_mm"]]
    assert constraints == [["acc", "<=", 3.0]]


SCRIPT_PAIRS = PRELUDE + textwrap.dedent('''
        from SimPhantWorkbench.sweep.spec import spec_from_dict
        doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "slider_crank.FCStd"))
        study = doc.getObject("Study")
        common.set_active_study(study)
        spec = spec_from_dict({
            "variables": [{"target": "Slider.Density", "values": [2000, 7000]}],
            "metrics": {"clear": "min(clearance(Slider, Crank))",
                        "hit": "interference_time(Slider, Crank, deflection=0.2)",
                        "stress": "max_stress(Rod, 0.1)"},
            "objective": {"maximize": "clear", "constraints": ["hit <= 0"]},
            "settings": {"t_end": 0.2}})
        from SimPhantWorkbench import factory
        pstudy = factory.make_parameter_study(study, spec)
        doc.recompute()
        FreeCADGui.ActiveDocument.setEdit(pstudy.Name)      # the stored metrics in the panel
        FreeCADGui.updateGui()
        panel = TaskParameterStudy.current
        rows = [[panel.met_table.item(r, 0).text(), panel.met_table.item(r, 6).text(),
                 panel.met_table.cellWidget(r, 1).isEnabled()]
                for r in range(panel.met_table.rowCount())]
        check("rows", rows)
        check("valid", panel.validate())
        check("metrics", panel.spec_dict()["metrics"])
        # a clearance typed into a new row's expression column
        r = panel.add_metric()
        panel.met_table.item(r, 0).setText("gap")
        panel.met_table.item(r, 6).setText("min_clearance(Slider, Crank)")
        panel._metrics_changed()
        check("typed", [panel.validate(), panel.spec_dict()["metrics"].get("gap")])
        panel.met_table.item(r, 6).setText("min(clearance(Slider, Crank)) * 1000")
        check("refused", panel.validate())
        FreeCADGui.Control.closeDialog()
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


def test_clearance_and_stress_metrics_of_a_stored_study_open_in_the_expression_column(
        tmp_path):
    """The panel of a parameter study whose metrics need the document (two bodies'
    clearance, a stress) shows them as expressions, validates them, and says why
    arithmetic on a clearance is refused."""
    res, _proc = run_gui_script(tmp_path, "pstudy_pairs_gui", SCRIPT_PAIRS)
    assert "error" not in res, res["error"]
    assert res["rows"] == [["clear", "min(clearance(Slider, Crank))", False],
                           ["hit", "interference_time(Slider, Crank, deflection=0.2)", False],
                           ["stress", "max_stress(Rod, 0.1)", False]]
    assert res["valid"] == ""
    assert res["metrics"]["clear"] == "min(clearance(Slider, Crank))"
    assert res["typed"] == ["", "min_clearance(Slider, Crank)"]
    assert "no arithmetic" in res["refused"]
