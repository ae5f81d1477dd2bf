"""Command "New parameter study": a ParameterStudy in the active study, then its panel.

The new study starts from a small specification the panel edits: the density
of the first moving body at 50 %, 100 % and 150 % of its value, and that
body's peak speed as the metric.
"""
from ..document.base import study_bodies
from ..gui import common
from ..gui.common import Command, active_study, obj_expr
from ..gui.translation import QT_TRANSLATE_NOOP, translate

IMPORT = "from SimPhantWorkbench import factory"


def default_spec(study):
    """A valid starting specification (dict) for ``study``, or None without a moving body."""
    moving = [b for b in study_bodies(study) if not b.Fixed]
    if not moving:
        return None
    body = moving[0]
    d = float(body.Density)
    return {"design": "grid",
            "variables": [{"target": "%s.Density" % body.Name, "name": "density",
                           "values": [0.5 * d, d, 1.5 * d]}],
            "metrics": {"peak_speed": "max(speed(%s))" % body.Name}}


class NewParameterStudy(Command):
    name = "SimPhant_NewParameterStudy"
    icon = "ParameterStudy.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_NewParameterStudy", "New parameter study")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_NewParameterStudy", "Add a parameter study to the "
                                "active study: sweep properties (design variables), compute "
                                "metrics of each run, plot a metric against the variables")

    def active(self):
        return active_study() is not None and not common.in_edit()

    def run(self):
        study = active_study()
        spec = default_spec(study)
        if spec is None:
            common.message("warning", self.title(), translate(
                "SimPhant", "Study '%s' has no moving body to vary.") % study.Label)
            return
        common.add_and_edit(study.Document, self.title(), [
            IMPORT, "_pstudy = factory.make_parameter_study(%s, %r)" % (obj_expr(study), spec)],
            "SimPhant::ParameterStudy")


COMMANDS = [NewParameterStudy()]
