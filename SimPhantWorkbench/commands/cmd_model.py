"""Commands that build a study: new study, bodies, loads, Assembly import, set active.

Each one runs its document change through ``FreeCADGui.doCommand`` (so the
Python console and the macro recorder show a line calling the public API,
``SimPhantWorkbench.factory``) inside one undo transaction.
"""
import FreeCAD
import FreeCADGui

from ..document.base import STUDY, find_study, is_type, studies, study_bodies
from ..gui import common
from ..gui.common import Command, active_study, obj_expr, run_in_transaction
from ..gui.translation import QT_TRANSLATE_NOOP, translate

IMPORT = "from SimPhantWorkbench import factory"


def _freecad_major_minor():
    v = FreeCAD.Version()
    return int(v[0]), int(v[1])


class NewStudy(Command):
    name = "SimPhant_NewStudy"
    icon = "Study.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_NewStudy", "New study")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_NewStudy", "Add a motion study (the container of "
                                "bodies, joints, loads and the result) and make it the active "
                                "study")

    def run(self):
        doc = FreeCAD.ActiveDocument
        before = set(o.Name for o in doc.Objects)
        if run_in_transaction(doc, translate("SimPhant", "New SimPhant study"), [
                IMPORT, "_study = factory.make_study(App.getDocument(%r))" % doc.Name]):
            new = [o for o in studies(doc) if o.Name not in before]
            if new:
                FreeCADGui.doCommand("from SimPhantWorkbench.gui import common")
                FreeCADGui.doCommand("common.set_active_study(%s)" % obj_expr(new[0]))


class SetActiveStudy(Command):
    name = "SimPhant_SetActiveStudy"
    icon = "Study.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_SetActiveStudy", "Set active study")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_SetActiveStudy",
                                "New bodies, joints and loads go into the selected study")

    def active(self):
        sel = common.selected_objects()
        return len(sel) == 1 and is_type(sel[0], STUDY)

    def run(self):
        study = common.selected_objects()[0]
        FreeCADGui.doCommand("from SimPhantWorkbench.gui import common")
        FreeCADGui.doCommand("common.set_active_study(%s)" % obj_expr(study))


class _AddBody(Command):
    fixed = False

    def active(self):
        # active on any selection: what cannot become a body is explained when run
        study = active_study()
        return study is not None and bool(common.selected_elements())

    def run(self):
        study = active_study()
        shapes, refusals = common.selected_shapes(study, fixed=self.fixed)
        if refusals or not shapes:
            common.message("warning", self.title(), "\n".join(refusals + [translate(
                "SimPhant", "Select one or more parts that are not yet bodies of study '%s'.")
                % study.Label] if not shapes else refusals))
        if not shapes:
            return
        lines = [IMPORT]
        for shape in shapes:
            lines.append("factory.make_body(%s, %s%s)" % (obj_expr(study), obj_expr(shape),
                                                          ", fixed=True" if self.fixed else ""))
        run_in_transaction(study.Document, self.title(), lines)
        FreeCADGui.Selection.clearSelection()


class AddBody(_AddBody):
    name = "SimPhant_AddBody"
    icon = "Body.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_AddBody", "Add body")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_AddBody", "Make the selected solids moving bodies of "
                                "the active study (several at once); mass, CoG and inertia "
                                "come from the solids and their density")


class AddFixedBody(_AddBody):
    name = "SimPhant_AddFixedBody"
    icon = "FixedBody.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_AddFixedBody", "Add fixed body")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_AddFixedBody", "Make the selected solids fixed "
                                "bodies (the ground) of the active study")
    fixed = True


def _load_target(study):
    """(Body object, reference (obj, sub) or None) of the selection, or (None, reason)."""
    from ..document.bodies import body_of_object
    bodies = study_bodies(study)
    for obj, sub in common.selected_elements():
        if is_type(obj, "SimPhant::Body"):
            return (obj, None) if find_study(obj) == study else (
                None, translate("SimPhant", "'%s' is not in the active study") % obj.Label)
        from ..document import picking
        if sub and not sub.endswith("."):
            try:
                body, ref_obj, ref_sub = picking.resolve_pick(bodies, obj, sub)
            except Exception as exc:  # noqa: BLE001 - reason shown to the user
                return None, str(exc)
            return body, (ref_obj, ref_sub)
        body = body_of_object(bodies, picking.body_shape_of_pick(obj, sub))
        if body is not None:
            return body, None
    return None, translate("SimPhant", "Select a moving body of study '%s' (or a vertex, edge "
                           "or face of it).") % study.Label


class _AddLoad(Command):
    torque = False

    def active(self):
        study = active_study()
        if study is None or common.in_edit():
            return False
        body, _ = _load_target(study)
        return body is not None and not body.Fixed

    def run(self):
        study = active_study()
        body, ref = _load_target(study)
        if body is None:
            common.message("warning", self.title(), ref)
            return
        doc = study.Document
        if self.torque:
            line = "_load = factory.make_torque(%s, %s, (0, 0, 0))" % (obj_expr(study),
                                                                     obj_expr(body))
        else:
            at = "" if ref is None else ", ref=(%s, %r)" % (obj_expr(ref[0]), ref[1])
            line = "_load = factory.make_force(%s, %s, (0, 0, 0)%s)" % (obj_expr(study),
                                                                      obj_expr(body), at)
        common.add_and_edit(doc, self.title(), [IMPORT, line],
                            "SimPhant::Torque" if self.torque else "SimPhant::Force")


class AddForce(_AddLoad):
    name = "SimPhant_AddForce"
    icon = "Force.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_AddForce", "Add force")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_AddForce", "Add a force on the selected moving body, "
                                "at the selected vertex, edge or face (else at its CoG); "
                                "constant or a function of time t")


class AddTorque(_AddLoad):
    name = "SimPhant_AddTorque"
    icon = "Torque.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_AddTorque", "Add torque")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_AddTorque", "Add a pure torque on the selected moving "
                                "body; constant or a function of time t")
    torque = True


class ImportAssembly(Command):
    name = "SimPhant_ImportAssembly"
    icon = "ImportAssembly.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_ImportAssembly", "Import FreeCAD Assembly")

    @property
    def tooltip(self):
        if _freecad_major_minor() < (1, 0):
            return translate("SimPhant", "Make a study from a FreeCAD Assembly's parts and "
                             "joints. Needs FreeCAD 1.0 or newer (its Assembly workbench); this "
                             "is FreeCAD %s.%s, so the command is disabled") \
                % _freecad_major_minor()
        return QT_TRANSLATE_NOOP("SimPhant_ImportAssembly", "Make a study from the selected "
                                 "FreeCAD Assembly: one body per part (grounded parts fixed), "
                                 "one joint per supported Assembly joint, frames kept")

    def _assembly(self):
        from ..assembly_import import is_assembly
        for obj in common.selected_objects():
            if is_assembly(obj):
                return obj
        doc = FreeCAD.ActiveDocument
        found = [o for o in doc.Objects if is_assembly(o)] if doc else []
        return found[0] if len(found) == 1 else None

    def active(self):
        return _freecad_major_minor() >= (1, 0) and self._assembly() is not None

    def run(self):
        asm = self._assembly()
        run_in_transaction(asm.Document, self.title(), [
            "from SimPhantWorkbench import assembly_import",
            "_report = assembly_import.import_assembly(%s)" % obj_expr(asm),
            "print(_report)"])


COMMANDS = [NewStudy(), AddBody(), AddFixedBody(), AddForce(), AddTorque(), ImportAssembly(),
            SetActiveStudy()]
