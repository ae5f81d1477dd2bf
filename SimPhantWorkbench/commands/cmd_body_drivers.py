"""One command per body driver kind (point, angle, direction), generated from the solver
registry ``DRIVER_TYPES`` (``body_driver_kinds``) and the picks of each kind
(``document.body_drivers.BODY_DRIVER_FORMS``).

``SimPhant_Driver_<kind>`` adds a body driver from the elements selected in the 3D view, in
the order of the kind's picks (the first on the driven body: the point, or its vector; an
angle's second: the axis, on the other body or on a fixed one), held where it is (a point
and an angle at 0 displacement, a direction along the picked vector), and opens its task
panel (``taskpanels.task_body_driver``) to set the motion and re-pick.
"""
from ..document import picking
from ..document.base import study_bodies
from ..document.body_drivers import BODY_DRIVER, BODY_DRIVER_FORMS, pick_values
from ..solver.drivers import DRIVER_TYPES, body_driver_kinds
from ..gui import common
from ..gui.common import active_study, obj_expr
from ..gui.translation import translate
from .cmd_drivers import DriverCommand

IMPORT = "from SimPhantWorkbench import factory"


def selected_picks(kind, study):
    """``({property: value}, None)`` of the selected elements for a ``kind`` driver of
    ``study`` (``pick_values`` of each, in the kind's pick order), or ``(None, the
    reason)``."""
    picks = BODY_DRIVER_FORMS[kind].picks
    elements = [(obj, sub) for obj, sub in common.selected_elements() if sub]
    if len(elements) != len(picks):
        return None, translate("SimPhant", "Select %d element(s) in the 3D view first: %s") % (
            len(picks), "; ".join("%d. %s" % (i + 1, p.doc) for i, p in enumerate(picks)))
    values = {}
    bodies = study_bodies(study)
    for pick, (obj, sub) in zip(picks, elements):
        try:
            body, ref_obj, ref_sub = picking.resolve_pick(bodies, obj, sub)
        except Exception as exc:  # noqa: BLE001 - the reason is shown
            return None, str(exc)
        values.update(pick_values(pick, body, ref_obj, ref_sub))
    return values, None


class BodyDriverCommand(DriverCommand):
    def __init__(self, kind):
        super().__init__(kind)
        spec = DRIVER_TYPES[kind]
        self.tooltip = "%s.\n%s" % (translate("SimPhant", spec.doc), translate(
            "SimPhant", "Select in the 3D view: %s.") % "; ".join(
                p.doc for p in BODY_DRIVER_FORMS[kind].picks))

    def active(self):
        study = active_study()
        return study is not None and not common.in_edit() \
            and any(not b.Fixed for b in study_bodies(study))

    def run(self):
        study = active_study()
        values, reason = selected_picks(self.kind, study)
        if values is None:
            common.message("warning", self.title(), reason)
            return

        def ref(prop):
            v = values.get(prop)
            return "None" if v is None else "(%s, %r)" % (obj_expr(v[0]), v[1][0])

        def body(prop):
            v = values.get(prop)
            return "None" if v is None else obj_expr(v)

        line = "_driver = factory.make_body_driver(%s, %r, %s, %s, axis=%s, body1=%s)" % (
            obj_expr(study), self.kind, body("Body"), ref("Reference"), ref("Axis"),
            body("Body1"))
        common.add_and_edit(study.Document, self.title(), [IMPORT, line], BODY_DRIVER)


def commands():
    return [BodyDriverCommand(k) for k in body_driver_kinds()]
