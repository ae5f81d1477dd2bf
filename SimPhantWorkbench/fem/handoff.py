"""Loads to FEM: one body at one instant of a motion study, as a CalculiX stress analysis.

``loads_to_fem(study, body, instant)`` reads the body's loads at the instant
(``loads.body_loads``: joint reactions, gravity, inertia, in the body's frame),
builds a FEM Analysis of its solid (``analysis``), meshes it, puts the loads on
the mesh (``solve.mesh_load_set``), runs CalculiX through FEM's tools and returns
a ``StressReport``: the peak von Mises stress and where, the support's reactions
(≈ 0: the load set is in equilibrium) and FEM's result object, which FEM's
result panel and post-processing pipeline show. Everything it creates is one
undo step; a failure leaves the document as it was.
"""
import shutil
import tempfile

import numpy as np

from ..solver import ModelError
from ..document.base import object_label, transaction
from .analysis import build_analysis, mesh_analysis, tools_problem
from .loads import body_loads
from .solve import KG_M3_TO_T_MM3, mesh_load_set, peak_stress, support_reactions, write_and_run

__all__ = ["StressReport", "loads_to_fem", "report_lines"]


class StressReport:
    """What a Loads to FEM run gives.

    ``case`` (``loads.LoadCase``), ``load_set`` (``solve.LoadSet``), ``analysis``,
    ``result`` (FEM's result object, None when not run), ``objects`` (every object
    created); ``peak_stress`` [Pa] and ``peak_point`` (3,) [mm, body frame] and
    ``peak_node``; ``reactions`` {node: (3,) N} of the 3-2-1 support and
    ``reaction_ratio`` (largest |reaction| over the load scale ``load_set.scale``);
    ``balance`` (relative force and moment residuals of the load set).
    """

    def __init__(self, **kw):
        self.__dict__.update(kw)

    @property
    def peak_stress_mpa(self):
        return self.peak_stress / 1e6


def _run(case, objects, run, title):
    nodes, elements = mesh_analysis(case, objects)
    mesh = objects["mesh"]
    ls = mesh_load_set(case, objects["solid"].Shape, mesh.FemMesh, nodes, elements)
    card = dict(objects["material"].Material)
    card["Density"] = "%.17g kg/m^3" % (ls.density / KG_M3_TO_T_MM3)
    objects["material"].Material = card
    report = dict(load_set=ls, result=None, peak_stress=float("nan"),
                  peak_point=None, peak_node=None, reactions={}, reaction_ratio=float("nan"))
    if not run:
        return report
    workdir = tempfile.mkdtemp(prefix="simphant-fem-")
    try:
        dat = write_and_run(objects, ls, workdir, title)
        reactions = support_reactions(dat, ls)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    results = [o for o in objects["analysis"].Group if o.isDerivedFrom("Fem::FemResultObject")]
    if not results:
        raise ModelError("CalculiX ran but FEM read no result")
    peak, node = peak_stress(results[-1])
    biggest = max((np.linalg.norm(r) for r in reactions.values()), default=float("nan"))
    report.update(result=results[-1], peak_stress=peak * 1e6, peak_node=node,
                  peak_point=nodes[node], reactions=reactions,
                  reaction_ratio=float(biggest / ls.scale))
    return report


def loads_to_fem(study, body, instant, mesh_size=None, youngs_modulus=210000.0,
                 poisson_ratio=0.3, run=True, result=None, keys=None, keep=True):
    """Create (and with ``run`` solve) the stress analysis of ``body`` at ``instant``.

    Parameters
    ----------
    study : the SimPhant Study (with a stored result)
    body : a Body of the study, its shape object, or a Name or Label
    instant : a time [s], ``"frame:N"`` or ``"peak:SIGNAL"`` (``fem.loads``)
    mesh_size : element size [mm]; default from the part (``default_mesh_size``)
    youngs_modulus : [MPa]; poisson_ratio : the solid's elastic constants (the
        stresses of a load set in equilibrium hardly depend on them)
    run : False builds and meshes the analysis and writes no solver input
    result, keys : a result not stored in the study and its names (``body_loads``)
    keep : False removes the analysis again once its numbers are read (a sweep's
        metric); the report's document objects are then gone

    Returns
    -------
    StressReport
    """
    case = body_loads(study, body, instant, result=result, keys=keys)
    doc = case.body.Document
    problem = tools_problem(doc)
    if problem:
        raise ModelError(problem)
    before = {o.Name for o in doc.Objects}
    title = "SimPhant motion loads: %s at %s" % (case.body.Label, case.instant.text)
    try:
        with transaction(doc, "Loads to FEM"):
            objects = build_analysis(case, mesh_size, youngs_modulus, poisson_ratio)
            report = _run(case, objects, run, title)
            if not keep:
                raise _Discard()
        created = [o for o in doc.Objects if o.Name not in before]
    except _Discard:
        _remove_new(doc, before)
        created = []
    except BaseException:
        _remove_new(doc, before)
        raise
    return StressReport(case=case, analysis=objects["analysis"], objects=created,
                        balance=case.imbalance()[:2], **report)


class _Discard(Exception):
    """Raised in the transaction of ``keep=False`` to abort it once the numbers are read."""


def _remove_new(doc, before):
    """Remove every object not in ``before`` (after the transaction was aborted:
    documents without undo keep them)."""
    for name in [o.Name for o in doc.Objects if o.Name not in before]:
        if doc.getObject(name) is not None:
            doc.removeObject(name)


def report_lines(report):
    """The report as lines of text (the CLI's and the GUI's)."""
    case = report.case
    rel_f, rel_m = report.balance
    ls = report.load_set
    lines = ["body       %s, %s" % (object_label(case.body), case.instant.text),
             "loads      %d joint(s): %s; inertia and gravity; balance %.2g (force), %.2g "
             "(moment)" % (len(case.joints), ", ".join(j.joint.Label for j in case.joints),
                           rel_f, rel_m),
             "material   density %.6g kg/m^3 (mass %.6g kg as in the motion study)"
             % (ls.density / KG_M3_TO_T_MM3, case.mass),
             "mesh       %d nodes, %d elements (%s)" % (ls.node_count, ls.element_count,
                                                      report.analysis.Label)]
    if report.result is not None:
        p = report.peak_point
        lines += ["stress     peak von Mises %.6g MPa at node %d, (%.4g, %.4g, %.4g) mm in the "
                  "body frame" % (report.peak_stress_mpa, report.peak_node, p[0], p[1], p[2]),
                  "support    3-2-1, largest reaction %.3g N = %.2g of the loads (%.4g N)"
                  % (report.reaction_ratio * ls.scale, report.reaction_ratio, ls.scale)]
    return lines
