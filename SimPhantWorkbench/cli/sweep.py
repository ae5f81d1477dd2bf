"""``simphant sweep``: run a parameter study of a FreeCAD document headless.

::

    simphant sweep MODEL.FCStd SPEC.toml --out DIR [--study NAME] [--scheduler ADDRESS]
                   [--workers N] [--batch-size N] [--no-cache] [--no-plots] [--apply-best]

Reads the specification (TOML or JSON, see ``sweep.spec``), runs every variant
(embedded Dask cluster on all cores by default, ``--scheduler`` for an existing
one, ``--workers 1`` in this process) with a progress bar on stderr, and
writes into ``DIR``: ``results.csv`` (``results.parquet`` with pyarrow), one
plot per metric, ``sweep.json`` (specification, statistics, best variant,
files) and ``<model>_sweep.FCStd``, the document with a Parameter study object
holding the specification and the results (with ``--apply-best`` the best
variant's values written into it). The input file is never written.

Finished variants are cached in ``DIR/cache`` under their model fingerprint: a
rerun skips them. Ctrl-C cancels: finished variants are kept (table, cache),
the others are marked ``cancelled``, exit code 130; a second Ctrl-C stops at
once. Exit codes as ``simphant run``: 0 done (failed variants are data, not an
error), 2 bad input, 130 cancelled, 1 internal error.
"""
import json
import os
import time

from .common import EXIT_CANCELLED, EXIT_OK, CliError, import_freecad, open_model

__all__ = ["add_parser", "run_sweep", "SweepBar"]


def add_parser(sub, positive_int):
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
    p.add_argument("--no-cache", action="store_true",
                   help="neither read nor write the result cache DIR/cache")
    p.add_argument("--no-plots", action="store_true", help="do not plot the metrics")
    p.add_argument("--apply-best", action="store_true",
                   help="write the best variant (by the specification's objective) into the "
                        "saved document")
    p.add_argument("--debug", action="store_true", help="print tracebacks of internal errors")
    return p


class SweepBar:
    """Progress of a sweep on ``stream``: runs done / failed / ETA (redrawn on a
    terminal, a line every 10 % otherwise)."""

    WIDTH = 30

    def __init__(self, stream):
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.last = 0.0
        self.shown = -1

    def __call__(self, p):
        frac = p.done / float(p.total) if p.total else 1.0
        eta = "" if p.eta is None else ", ETA %s" % _duration(p.eta)
        text = "sweep [%s%s] %d/%d done, %d failed%s%s" % (
            "#" * int(round(frac * self.WIDTH)), "." * (self.WIDTH - int(round(frac * self.WIDTH))),
            p.done, p.total, p.failed, ", %d cached" % p.cached if p.cached else "", eta)
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


def run_sweep(args, out, err, interrupt):
    """The ``sweep`` command (``args`` from ``add_parser``); returns the exit code."""
    from .. import __version__
    from ..document.opening import ModelFileError
    from ..run import study_error
    from ..solver import ModelError
    from ..sweep import apply_best, outputs, run_parameter_study
    from ..sweep.spec import load_spec

    t_start = time.perf_counter()
    try:
        spec = load_spec(args.spec)
    except ModelError as exc:
        raise CliError(str(exc)) from None
    stem = os.path.splitext(os.path.basename(args.model))[0]
    out_dir = os.path.abspath(args.out or os.path.join("simphant-sweep", stem))
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise CliError("output '%s' exists and is not a directory" % out_dir)
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
        executor = "in-process" if (args.workers == 1 and not args.scheduler) else None
        bar = SweepBar(err)

        def progress(p):
            bar(p)
            return not interrupt.requested

        err.write("simphant: %d variants of study '%s'%s\n"
                  % (spec.size(), study.Label,
                     " on %s" % args.scheduler if args.scheduler else ""))
        # the first Ctrl-C only asks for a cancel, seen at the next progress report (between
        # variants): raised inside a variant it could land in FreeCAD's recompute, which
        # would report it as that variant's failure and go on
        interrupt.simulating = interrupt.integrating = True
        try:
            outcome = run_parameter_study(
                pstudy, executor=executor, scheduler=args.scheduler, workers=args.workers,
                cache_dir=None if args.no_cache else os.path.join(out_dir, "cache"),
                progress=progress, batch_size=args.batch_size)
        except ModelError as exc:
            raise CliError(str(study_error(exc, study))) from None
        except RuntimeError as exc:          # Dask missing, scheduler unreachable
            raise CliError(str(exc)) from None
        except OSError as exc:               # a scheduler that cannot be reached
            raise CliError("cannot reach the Dask scheduler %s: %s"
                           % (args.scheduler, exc)) from None
        finally:
            interrupt.simulating = interrupt.integrating = False
            bar.close()
        cancelled = outcome.stats.get("cancelled") or interrupt.requested
        names = outputs.write_all(outcome, out_dir, plots=not args.no_plots)
        best = outcome.best()
        applied = False
        if args.apply_best and best is not None and not cancelled:
            apply_best(pstudy)
            applied = True
        doc_name = stem + "_sweep.FCStd"
        try:
            model.save_as(os.path.join(out_dir, doc_name),
                          warn=lambda text: err.write("simphant: warning: %s\n" % text))
        except ModelFileError as exc:
            raise CliError(str(exc)) from None
        names.append(doc_name)
        names.append("sweep.json")
        info = dict(model=os.path.abspath(args.model), study=study.Label,
                    specification=spec.to_dict(), statistics=outcome.stats,
                    ok=outcome.count("ok"), failed=outcome.count("failed"),
                    cancelled=outcome.count("cancelled"),
                    cached=sum(1 for r in outcome.rows if r["cached"]),
                    best=None if best is None else {k: best[k] for k in
                                                    ["variant"] + spec.variable_names
                                                    + spec.metric_names},
                    best_applied=applied, files=names, simphant=__version__)
        tmp = os.path.join(out_dir, "sweep.json.tmp")
        with open(tmp, "w") as fh:
            json.dump(info, fh, indent=1, default=str)
        os.replace(tmp, os.path.join(out_dir, "sweep.json"))

        st = outcome.stats
        out.write("model      %s, study '%s'\n" % (os.path.abspath(args.model), study.Label))
        out.write("design     %s, %d variants of %s\n" % (spec.design, len(outcome.rows),
                                                        ", ".join(spec.variable_names)))
        out.write("ran on     %s, %d variants per task, %d tasks\n"
                  % (st["executor"], st["batch_size"], st["batches"]))
        out.write("variants   %d ok, %d failed, %d cancelled, %d from the cache\n"
                  % (info["ok"], info["failed"], info["cancelled"], info["cached"]))
        for r in outcome.rows:
            if r["status"] == "failed":
                out.write("failed     #%d (%s): %s\n" % (
                    r["variant"], ", ".join("%s = %g" % (v, r[v]) for v in spec.variable_names),
                    r["message"]))
        if best is not None:
            out.write("best       #%d by %s %s = %.6g (%s)%s\n" % (
                best["variant"], spec.objective[0], spec.objective[1], best[spec.objective[1]],
                ", ".join("%s = %g" % (v, best[v]) for v in spec.variable_names),
                "; written into %s" % doc_name if applied else ""))
        out.write("outputs    %s: %s\n" % (out_dir, ", ".join(names)))
        out.write("wall time  %.4g s (conversion %.3g s, simulation %.3g s summed over "
                  "workers)\n" % (time.perf_counter() - t_start, st["conversion_time"],
                                  st["sim_time"]))
        out.flush()
        if cancelled:
            err.write("simphant: sweep cancelled; %d finished variants kept in %s\n"
                      % (info["ok"] + info["failed"], out_dir))
            return EXIT_CANCELLED
        return EXIT_OK
    finally:
        model.close()
