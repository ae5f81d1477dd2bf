"""What the mechanism check reports about a study before it runs, written once for the
workbench's Check model and the command line's summary.

``model_facts(run)`` gathers the facts as plain data (also what ``run.json`` holds);
``fact_lines(facts)`` words them as ``(key, text)`` pairs, which each front end lays out
its own way ("Key: text" in the GUI's dialog, a column of keys on the command line).
"""
import numpy as np

from ..document.base import study_bodies, study_loads
from ..solver.dof import report_lines

__all__ = ["model_facts", "fact_lines", "RANK_MAX_BODIES"]

#: above this many moving bodies the Jacobian's rank (a dense SVD) is not computed
RANK_MAX_BODIES = 200
#: assembly residual (relative to the model size) above which the joints are not assembled
_ASSEMBLED = 1e-6


def _dof_report(model, name):
    """The model's ``DofReport`` at t0 (``solver.dof``), or None if it cannot be had."""
    if not model.bodies or len(model.bodies) > RANK_MAX_BODIES:
        return None
    try:
        return model.dof_report(name=name)
    except Exception:  # noqa: BLE001 - informative only
        return None


def _assembly_residual(model):
    """(max |Phi| at t0 relative to the model size, the worst joint's name) or None."""
    if not model.joints or not model.bodies:
        return None
    system = model.compile()
    phi, _ = system.residuals(system.y0)
    if not len(phi):
        return None
    worst = int(np.argmax(phi))
    return float(phi.max()), system.joint_name_of_row(worst)


def model_facts(run, residual=True):
    """The facts of a prepared ``run`` (``run.prepare``): bodies, joints, loads, force
    elements, gravity, the Gruebler count, the mechanism check (``DofReport.to_dict``),
    the references ``prepare`` re-pointed after a model edit renumbered their elements
    and, with ``residual``, how far the joints are from assembled at t0."""
    study, model = run.study, run.model
    bodies = study_bodies(study)
    rep = _dof_report(model, study.Label)
    facts = dict(
        study=study.Label,
        moving_bodies=[b.name for b in model.bodies],
        fixed_bodies=[b.Label for b in bodies if b.Fixed],
        joints=[[j.name, j.kind] for j in model.joints],
        loads=[o.Label for o in study_loads(study)],
        force_elements=[[e.name, e.spec.label.lower()]
                        for e in getattr(model, "force_elements", [])],
        gravity=[float(g) for g in model.gravity],
        gruebler_dof=model.degrees_of_freedom(),
        constraint_equations=sum(len(j.spec.rows) for j in model.joints),
        jacobian_rank=None if rep is None else rep.rank,
        mobility=None if rep is None else rep.mobility,
        dof=None if rep is None else rep.to_dict(),
        repointed=list(getattr(run, "repointed", [])))
    if residual:
        res = _assembly_residual(model)
        facts["assembly_residual"] = None if res is None else res[0]
        facts["assembly_worst_joint"] = None if res is None else res[1]
    return facts


def _names(items):
    return ", ".join(items) if items else "-"


def fact_lines(facts):
    """``(key, text)`` pairs of ``model_facts``' data, in reading order."""
    mov, fix, js = facts["moving_bodies"], facts["fixed_bodies"], facts["joints"]
    out = [("references", note) for note in facts.get("repointed", [])]
    out += [("bodies", "%d moving (%s), %d fixed (%s)" % (len(mov), _names(mov), len(fix),
                                                           _names(fix))),
            ("joints", "%d%s" % (len(js), (": " + ", ".join("%s (%s)" % (n, k)
                                                             for n, k in js)) if js else ""))]
    if facts["loads"]:
        out.append(("loads", ", ".join(facts["loads"])))
    if facts.get("force_elements"):
        out.append(("elements", ", ".join("%s (%s)" % (n, k)
                                          for n, k in facts["force_elements"])))
    out.append(("gravity", "(%s) m/s^2" % ", ".join("%.6g" % g for g in facts["gravity"])))
    out.append(("DOF", "%d (Gruebler: 6 x %d moving bodies - %d constraint equations)"
                % (facts["gruebler_dof"], len(mov), facts["constraint_equations"])))
    if facts["mobility"] is not None:
        out.append(("mobility", "%d (rank of the constraint Jacobian %d of %d equations at "
                                "t = 0)" % (facts["mobility"], facts["jacobian_rank"],
                                            facts["dof"]["equations"])))
    if facts.get("dof"):
        out.extend(report_lines(facts["dof"]))
    residual = facts.get("assembly_residual")
    if residual is not None:
        text = "max |Phi| = %.3g at t = 0 (relative to the model size)" % residual
        if residual > 1e-9:
            text += ", worst at joint '%s'" % facts["assembly_worst_joint"]
        if residual > _ASSEMBLED:
            text += "; the joints are not assembled: the solver moves the bodies onto them " \
                    "before the run (reported in the result)"
        out.append(("assembly", text))
    return out
