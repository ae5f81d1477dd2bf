"""The mechanism check of a document's study (document.conversion.study_dof_report): the
bundled slider-crank, a planar loop of spatial revolutes."""
import os

import FreeCAD

from SimPhantWorkbench.document.base import is_type, study_joints
from SimPhantWorkbench.document.conversion import study_dof_report
from SimPhantWorkbench.solver.joints import JOINT_TYPES

JOINT_ROWS = {k: s.rows for k, s in JOINT_TYPES.items()}

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_slider_crank_study_reports_redundant_joints_by_label():
    doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "slider_crank.FCStd"))
    try:
        study = [o for o in doc.Objects if is_type(o, "SimPhant::Study")][0]
        rep = study_dof_report(study)
        labels = {j.Label for j in study_joints(study)}
        assert (rep.gruebler, rep.mobility, rep.redundant) == (-2, 1, 3)
        assert rep.name == study.Label
        assert len(rep.redundant_rows) == 3 and all(j in labels for j, _ in rep.redundant_rows)
        assert rep.suggestions and all(j in labels for j, *_ in rep.suggestions)
        assert sum(len(JOINT_ROWS[o]) - len(JOINT_ROWS[n])
                   for _j, o, n, _f in rep.suggestions) == 3
        text = str(rep)
        assert text.startswith("%s: mobility 1" % study.Label) and "suggestion: replace" in text
    finally:
        FreeCAD.closeDocument(doc.Name)
