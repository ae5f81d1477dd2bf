"""``simphant sweep``: run a parameter study of a FreeCAD document headless.

::

    simphant sweep MODEL.FCStd SPEC.toml --out DIR [--study NAME] [--scheduler ADDRESS]
                   [--workers N] [--batch-size N] [--connect-timeout S] [--worker-timeout S]
                   [--no-cache] [--no-plots] [--apply-best]

Reads the specification (TOML or JSON, see ``sweep.spec``), runs every variant
(embedded Dask cluster on all cores by default, ``--scheduler`` for an existing
one, ``--workers 1`` in this process) with a progress bar on stderr, and
writes into ``DIR``: ``results.csv`` (``results.parquet`` with pyarrow), one
plot per metric, the Pareto front (several objectives), the Sobol' indices (a
``saltelli`` design), the kept series (``series.npz``), ``sweep.json``
(specification, statistics, best variant, files) and ``<model>_sweep.FCStd``,
the document with a Parameter study object holding the specification and the
results (with ``--apply-best`` the best variant's values written into it; saved
under a temporary name, checked, then moved in place). The input files are never
written: a model or specification that is one of these outputs is refused.

Finished variants are cached in ``DIR/cache`` under their fingerprint: a rerun
skips them (and starts no cluster when nothing is left to run). Ctrl-C or
SIGTERM cancels: finished variants are kept (table, cache), the others are
marked ``cancelled``, exit code 130; a second one stops at once. Exit codes: 0
done (failed variants are data, not an error), 2 bad input (specification,
model, scheduler address, a damaged cache), 4 infrastructure (the scheduler
unreachable or lost, no workers, workers of another SimPhant, variants lost),
130 cancelled, 1 internal error.
"""
import json
import os
import time

from .common import (EXIT_CANCELLED, EXIT_INFRASTRUCTURE, EXIT_OK, CliError, import_freecad,
                     open_model)

__all__ = ["add_parser", "run_sweep", "SweepBar"]


def add_parser(sub, positive_int, positive):
    p = sub.add_parser(
        "sweep", help="run a parameter study: a study over design variables, locally or on Dask",
        description="Run the study of MODEL once per variant of the design in SPEC (TOML or "
                    "JSON) and write the results table, plots and the document with a "
                    "Parameter study object to DIR.")
    p.add_argument("model", metavar="MODEL.FCStd", help="the document")
    p.add_argument("spec", metavar="SPEC", help="the specification (.toml or .json)")
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default: ./simphant-sweep/<model name>)")
    p.add_argument("--study", metavar="NAME",
                   help="the study to sweep (default: the specification's, or the only one)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="address of an existing Dask scheduler (tcp://host:8786); default: a "
                        "local cluster started for this run")
    p.add_argument("--workers", type=positive_int, metavar="N",
                   help="worker processes of the local cluster (default: all cores; 1 runs "
                        "in this process)")
    p.add_argument("--batch-size", type=positive_int, metavar="N",
                   help="variants per task (default: automatic)")
    p.add_argument("--connect-timeout", type=positive, metavar="S",
                   help="seconds to reach the scheduler (default 10)")
    p.add_argument("--worker-timeout", type=positive, metavar="S",
                   help="seconds the scheduler may have no worker before the sweep stops "
                        "(default 60)")
    p.add_argument("--no-cache", action="store_true",
                   help="neither read nor write the result cache DIR/cache")
    p.add_argument("--no-plots", action="store_true", help="do not plot the metrics")
    p.add_argument("--apply-best", action="store_true",
                   help="write the best variant (by the specification's objective) into the "
                        "saved document")
    p.add_argument("--debug", action="store_true", help="print tracebacks of internal errors")
    return p


class SweepBar:
    """Progress of a sweep on ``stream``: runs done / failed / lost / ETA (redrawn on a
    terminal, a line every 10 % otherwise), the dashboard's address and notes (waiting
    for workers) once each."""

    WIDTH = 30

    def __init__(self, stream):
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.last = 0.0
        self.shown = -1
        self.said = set()

    def say(self, text):
        if text and text not in self.said:
            self.said.add(text)
            self.stream.write(("\n" if self.tty else "") + "simphant: %s\n" % text)

    def __call__(self, p):
        self.say("Dask dashboard %s" % p.dashboard if p.dashboard else "")
        if p.note and p.note.split(" (")[0] not in {s.split(" (")[0] for s in self.said}:
            self.say(p.note)
        frac = p.done / float(p.total) if p.total else 1.0
        eta = "" if p.eta is None else ", ETA %s" % _duration(p.eta)
        n = int(round(frac * self.WIDTH))
        text = "sweep [%s%s] %d/%d done, %d failed%s%s%s" % (
            "#" * n, "." * (self.WIDTH - n), p.done, p.total, p.failed,
            ", %d lost" % p.lost if p.lost else "",
            ", %d cached" % p.cached if p.cached else "", eta)
        if self.tty:
            now = time.monotonic()
            if now - self.last < 0.1 and p.done < p.total:
                return
            self.last = now
            self.stream.write("\r" + text + "   ")
        else:
            decile = int(frac * 10 + 1e-9)
            if decile <= self.shown:
                return
            self.shown = decile
            self.stream.write(text + "\n")
        self.stream.flush()

    def close(self):
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _duration(s):
    if s < 60:
        return "%.0f s" % s
    if s < 3600:
        return "%d min %02d s" % (s // 60, s % 60)
    return "%d h %02d min" % (s // 3600, (s % 3600) // 60)


def _inputs(args):
    """(spec, out_dir, stem), the inputs checked: none of them is an output of the sweep."""
    from ..solver import ModelError
    from ..sweep.executors import check_address
    from ..sweep.outputs import output_names
    from ..sweep.spec import load_spec
    try:
        spec = load_spec(args.spec)
        if args.scheduler:
            check_address(args.scheduler)
    except ModelError as exc:
        raise CliError(str(exc)) from None
    stem = os.path.splitext(os.path.basename(args.model))[0]
    out_dir = os.path.abspath(args.out or os.path.join("simphant-sweep", stem))
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise CliError("output '%s' exists and is not a directory" % out_dir)
    outputs = {os.path.realpath(os.path.join(out_dir, n)) for n in output_names(spec, stem)}
    cache = os.path.join(os.path.realpath(out_dir), "cache")
    for what, path in (("model", args.model), ("specification", args.spec)):
        real = os.path.realpath(path)
        if real in outputs or os.path.commonpath([real, cache]) == cache:
            raise CliError("the %s '%s' is a file the sweep writes into '%s'; move it or "
                           "choose another --out" % (what, path, out_dir))
    return spec, out_dir, stem


def _execute(args, spec, study, pstudy, out_dir, err, interrupt):
    """Run the sweep with the progress bar; the ``SweepOutcome``."""
    from ..run import study_error
    from ..solver import ModelError
    from ..sweep import run_parameter_study
    from ..sweep.executors import CONNECT_TIMEOUT, InfrastructureError
    from ..sweep.engine import WORKER_TIMEOUT
    executor = "in-process" if (args.workers == 1 and not args.scheduler) else None
    bar = SweepBar(err)

    def progress(p):
        bar(p)
        return not interrupt.requested

    err.write("simphant: %d variants of study '%s'%s\n"
              % (spec.size(), study.Label, " on %s" % args.scheduler if args.scheduler else ""))
    # the first Ctrl-C only asks for a cancel, seen at the next progress report (between
    # variants): raised inside a variant it could land in FreeCAD's recompute, which
    # would report it as that variant's failure and go on
    interrupt.simulating = interrupt.integrating = True
    try:
        return run_parameter_study(
            pstudy, executor=executor, scheduler=args.scheduler, workers=args.workers,
            cache_dir=None if args.no_cache else os.path.join(out_dir, "cache"),
            progress=progress, batch_size=args.batch_size,
            connect_timeout=args.connect_timeout or CONNECT_TIMEOUT,
            worker_timeout=args.worker_timeout or WORKER_TIMEOUT)
    except ModelError as exc:
        raise CliError(str(study_error(exc, study))) from None
    except InfrastructureError as exc:
        raise CliError(str(exc), EXIT_INFRASTRUCTURE) from None
    finally:
        interrupt.simulating = interrupt.integrating = False
        bar.close()


def _save_document(model, out_dir, doc_name, err):
    """Save the document as ``DIR/doc_name`` through a checked temporary file: a failed
    save (a full disk) leaves no broken document behind."""
    import zipfile
    import zlib
    from ..document.opening import ModelFileError
    final = os.path.join(out_dir, doc_name)
    tmp = os.path.join(out_dir, ".%s.partial.FCStd" % os.path.splitext(doc_name)[0])
    try:
        model.save_as(tmp, target=final,
                      warn=lambda text: err.write("simphant: warning: %s\n" % text))
        with zipfile.ZipFile(tmp) as zf:
            if zf.testzip() is not None or "Document.xml" not in zf.namelist():
                raise OSError("the saved file is damaged")
        os.replace(tmp, final)
    except ModelFileError as exc:
        raise CliError(str(exc)) from None
    except (OSError, zipfile.BadZipFile, zlib.error) as exc:
        raise CliError("cannot save '%s' (a full disk?): %s; the results table is in %s"
                       % (final, exc, out_dir)) from None
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return doc_name


def _info(args, spec, study, outcome, names, applied):
    from .. import __version__
    best = outcome.best()
    keys = ["variant"] + spec.variable_names + spec.metric_names
    return dict(model=os.path.abspath(args.model), study=study.Label,
                specification=spec.to_dict(), statistics=outcome.stats,
                ok=outcome.count("ok"), failed=outcome.count("failed"),
                lost=outcome.count("lost"), cancelled=outcome.count("cancelled"),
                cached=sum(1 for r in outcome.rows if r["cached"]),
                best=None if best is None else {k: best[k] for k in keys},
                pareto=[{k: r[k] for k in keys} for r in outcome.pareto()],
                best_applied=applied, files=names, simphant=__version__)


def _write_json(path, info):
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        json.dump(info, fh, indent=1, default=str)
    os.replace(tmp, path)


def _summary(out, args, spec, study, outcome, info, out_dir, elapsed):
    st = outcome.stats
    w = out.write
    w("model      %s, study '%s'\n" % (os.path.abspath(args.model), study.Label))
    w("design     %s, %d variants of %s\n" % (spec.design, len(outcome.rows),
                                              ", ".join(spec.variable_names)))
    w("ran on     %s, %d variants per task, %d tasks%s\n"
      % (st["executor"] or "nothing", st["batch_size"], st["batches"],
         ", %d resubmitted" % st["retried"] if st["retried"] else ""))
    if st.get("dashboard") or st.get("dashboard_note"):
        w("dashboard  %s\n" % (st["dashboard"] or "none: " + st["dashboard_note"]))
    w("variants   %d ok, %d failed, %d lost, %d cancelled, %d from the cache\n"
      % (info["ok"], info["failed"], info["lost"], info["cancelled"], info["cached"]))
    for r in outcome.rows:
        if r["status"] in ("failed", "lost"):
            w("%-10s #%d (%s): %s\n" % (r["status"], r["variant"], ", ".join(
                "%s = %g" % (v, r[v]) for v in spec.variable_names), r["message"]))
    if st.get("infrastructure"):
        w("infrastructure  %s\n" % st["infrastructure"])
    _best_lines(w, spec, outcome, info)
    w("outputs    %s: %s\n" % (out_dir, ", ".join(info["files"])))
    w("wall time  %.4g s (conversion %.3g s, simulation %.3g s summed over workers)\n"
      % (elapsed, st["conversion_time"], st["sim_time"]))
    out.flush()


def _best_lines(w, spec, outcome, info):
    best = outcome.best()
    values = lambda r: ", ".join("%s = %g" % (v, r[v]) for v in spec.variable_names)  # noqa
    if best is not None:
        w("best       #%d by %s %s = %.6g (%s)%s\n" % (
            best["variant"], spec.objective[0], spec.objective[1], best[spec.objective[1]],
            values(best), "; written into the saved document" if info["best_applied"]
            else ""))
    elif spec.objective and info["lost"]:
        w("best       none: %d variants were lost, the best of the others is not the best "
          "of the design\n" % info["lost"])
    for r in outcome.pareto():
        w("pareto     #%d %s (%s)\n" % (r["variant"], ", ".join(
            "%s = %.6g" % (m, r[m]) for _s, m in spec.objectives), values(r)))
    indices = outcome.sensitivity()
    for metric, d in (indices or {}).items():
        w("sobol      %s: %s (%d samples)\n" % (metric, ", ".join(
            "%s S1 %.3f ST %.3f" % (v, d["S1"][k], d["ST"][k])
            for k, v in enumerate(spec.variable_names)), d["samples"]))


def run_sweep(args, out, err, interrupt):
    """The ``sweep`` command (``args`` from ``add_parser``); returns the exit code."""
    from ..solver import ModelError
    from ..sweep import apply_best, outputs
    t_start = time.perf_counter()
    spec, out_dir, stem = _inputs(args)
    FreeCAD = import_freecad()
    from .. import factory
    model = open_model(FreeCAD, args.model)
    try:
        try:
            study = model.study(args.study or spec.study)
            pstudy = factory.make_parameter_study(study, spec, label="ParameterStudy")
        except ModelError as exc:
            raise CliError(str(exc)) from None
        os.makedirs(out_dir, exist_ok=True)
        interrupt.committing = False
        outcome = _execute(args, spec, study, pstudy, out_dir, err, interrupt)
        cancelled = outcome.stats.get("cancelled") or interrupt.requested
        interrupt.committing = True            # a signal now waits for the files
        names, notes = outputs.write_all(outcome, out_dir, plots=not args.no_plots)
        for note in notes:
            err.write("simphant: note: %s\n" % note)
        applied = False
        if args.apply_best and outcome.best() is not None and not cancelled:
            apply_best(pstudy)
            applied = True
        names.append(_save_document(model, out_dir, stem + "_sweep.FCStd", err))
        names.append("sweep.json")
        info = _info(args, spec, study, outcome, names, applied)
        _write_json(os.path.join(out_dir, "sweep.json"), info)
        _summary(out, args, spec, study, outcome, info, out_dir, time.perf_counter() - t_start)
        if cancelled:
            err.write("simphant: sweep cancelled; %d finished variants kept in %s\n"
                      % (info["ok"] + info["failed"], out_dir))
            return EXIT_CANCELLED
        if info["lost"]:
            err.write("simphant: error: %d variants lost to the infrastructure%s; the others "
                      "are kept (a rerun takes them from the cache)\n"
                      % (info["lost"], ": " + outcome.stats["infrastructure"]
                         if outcome.stats.get("infrastructure") else ""))
            return EXIT_INFRASTRUCTURE
        return EXIT_OK
    finally:
        interrupt.committing = False
        model.close()
