"""``simphant fem MODEL --body NAME --at INSTANT``: Loads to FEM from the command line.

Opens MODEL (``document.opening.ModelFile``), runs its study first when it has no
stored result, builds and solves the stress analysis of the body at the instant
(``fem.loads_to_fem``: CalculiX through FreeCAD FEM), prints the report and writes
into DIR the document with the Analysis and its results (``<model>_fem.FCStd``,
or MODEL itself with ``--in-place``) and ``stress.json`` (the report as data).
"""
import json
import os

from .common import EXIT_OK, CliError, import_freecad, open_model

__all__ = ["add_parser", "run_fem"]


def add_parser(sub, positive):
    p = sub.add_parser(
        "fem", help="stress analysis of one body at one instant (CalculiX through FreeCAD FEM)",
        description="Hand the loads of BODY at an instant of the motion study of MODEL "
                    "(joint reactions, gravity, inertia) to a FreeCAD FEM analysis of its "
                    "solid, solve it with CalculiX, print the peak stress and write the "
                    "document with the analysis and its results to DIR.")
    p.add_argument("model", metavar="MODEL.FCStd", help="the document")
    p.add_argument("--body", required=True, metavar="NAME",
                   help="the body (its Name or Label, or its shape object's)")
    p.add_argument("--at", required=True, metavar="INSTANT",
                   help="a time in s (0.25), frame:N, or peak:SIGNAL where a result quantity "
                        "peaks, e.g. 'peak:reaction(WristPin)'")
    p.add_argument("--study", metavar="NAME", help="the study (needed when there are several)")
    p.add_argument("--mesh-size", type=positive, metavar="MM",
                   help="element size [mm] (default: from the part)")
    p.add_argument("--youngs-modulus", type=positive, default=210000.0, metavar="MPA",
                   help="Young's modulus [MPa] (default 210000, steel)")
    p.add_argument("--poisson", type=float, default=0.3, metavar="NU",
                   help="Poisson's ratio (default 0.3)")
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default: ./simphant-fem/<model name>)")
    p.add_argument("--in-place", action="store_true",
                   help="save the analysis into MODEL itself (otherwise MODEL is never written)")
    p.add_argument("--debug", action="store_true", help="print tracebacks of internal errors")
    return p


def _report_data(report):
    case = report.case
    return dict(body=case.body.Label, instant=case.instant.text, time=case.instant.time,
                frame=case.instant.index, peak_von_mises_pa=report.peak_stress,
                peak_point_mm=[float(x) for x in report.peak_point],
                peak_node=report.peak_node, balance=[float(x) for x in report.balance],
                support_reaction_ratio=report.reaction_ratio,
                nodes=report.load_set.node_count, elements=report.load_set.element_count,
                analysis=report.analysis.Name)


def run_fem(args, out, err):
    """Run ``simphant fem``; returns the exit code (errors raise ``CliError``)."""
    FreeCAD = import_freecad()
    from .. import freshness, runner
    from ..document.results import get_result
    from ..fem import loads_to_fem, report_lines, tools_problem
    name = os.path.splitext(os.path.basename(args.model))[0]
    out_dir = args.out or os.path.join("simphant-fem", name)
    with open_model(FreeCAD, args.model) as model:
        problem = tools_problem(model.doc)
        if problem:
            raise CliError(problem)
        study = model.study(args.study)
        if get_result(study) is None:
            err.write("study '%s' has no stored result: running it first\n" % study.Label)
            runner.run_study(study)
        status = freshness.status(study)
        if status is not None and status.outdated:
            err.write("warning: the stored result of study '%s' is outdated (%s): the loads "
                      "are those of the model as it was run; run it again (simphant run "
                      "--in-place) for the model as it is\n" % (study.Label, status.reason))
        report = loads_to_fem(study, args.body, args.at, mesh_size=args.mesh_size,
                              youngs_modulus=args.youngs_modulus, poisson_ratio=args.poisson)
        lines = report_lines(report)
        os.makedirs(out_dir, exist_ok=True)
        if args.in_place:
            model.save(warn=lambda text: err.write("warning: %s\n" % text))
            saved = args.model
        else:
            saved = os.path.join(out_dir, name + "_fem.FCStd")
            if os.path.abspath(saved) == os.path.abspath(args.model):
                raise CliError("--out would overwrite MODEL; use --in-place for that")
            model.save_as(saved, warn=lambda text: err.write("warning: %s\n" % text))
        with open(os.path.join(out_dir, "stress.json"), "w") as fh:
            json.dump(_report_data(report), fh, indent=1)
    for line in lines + ["document   %s" % saved]:
        out.write(line + "\n")
    return EXIT_OK
