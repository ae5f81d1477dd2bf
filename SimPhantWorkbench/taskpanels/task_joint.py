"""Joint task panel: pick two references with a live preview of the joint frames.

The user picks a vertex, edge or face on each of two different bodies of the
study (3D view or tree, either order). A selection gate accepts only elements
of the study's bodies and says why a pick is refused; while the pointer rests
on an element (pre-selection) a translucent triad shows the frame that element
gives; once picked, each side's joint frame is drawn as the joint will have it
(``document.picking.joint_frames``, the conversion the solver uses).

The panel shows how far the two frames are from meeting the joint. "Align" moves
the body of side 2 (of side 1 when side 2 is fixed) into place at once, in an undo step
of its own (``picking.align_placement``, as FreeCAD's Assembly does when a joint is
made); "Set offset" keeps the bodies where they are and keeps the gap along the axis
as the joint's Offset. OK on frames that do not meet asks whether to align, keep them
as they are, or go back to the panel.

The joint is created (or edited) on OK in one transaction through
``FreeCADGui.doCommand`` (a replayable ``factory.make_joint`` line); Cancel and Esc
leave the document as it was, taking back any Align.
"""
import FreeCAD
import FreeCADGui
from PySide import QtCore, QtGui

from ..document import picking
from ..gui.common import (UNRESOLVED, choose, icon_path, message, obj_expr,
                          run_in_transaction)
from ..document.joints import reference_of
from ..document.references import split_subname
from ..document.base import study_bodies
from ..document.signatures import check_reference
from ..solver import JOINT_TYPES
from ..gui.markers import Triad, marker_size
from ..gui.translation import translate
from .widgets import (FlowRow, WrapButton, fit_side_pane, form_layout, push_button,
                      quantity_box, quantity_value, set_quantity, wrapped_label)

__all__ = ["TaskJoint"]


class _Gate:
    """Selection gate: only elements of the study's bodies; shows why it refused."""

    def __init__(self, panel):
        self.panel = panel
        self.reason = ""

    def allow(self, doc, obj, sub):
        if doc is not self.panel.study.Document:
            self.reason = translate("SimPhant", "'%s' is in another document") % obj.Label
            self.panel.show_refusal(self.reason)
            return False
        ok, reason = self.panel.check_pick(obj, sub or "")
        if not ok and whole_object(sub):
            return True     # a part selected (the tree) to hide it: no reference, let it be
        if not ok:
            self.reason = reason
            self.panel.show_refusal(reason)
        return ok


def whole_object(sub):
    """True for a selection of a whole object (a tree click), not of one of its elements."""
    return not split_subname(sub or "")[1]


class _Observer:
    """Selection observer: picks fill the references; pre-selection moves the hover triad."""

    def __init__(self, panel):
        self.panel = panel

    def addSelection(self, doc, obj_name, sub, pnt):
        obj = FreeCAD.getDocument(doc).getObject(obj_name)
        if obj is not None:
            QtCore.QTimer.singleShot(0, lambda: self.panel.picked(obj, sub or ""))

    def setPreselection(self, doc, obj_name, sub):
        obj = FreeCAD.getDocument(doc).getObject(obj_name)
        if obj is not None:
            self.panel.hover(obj, sub or "")

    def removePreselection(self, doc, obj_name, sub):
        self.panel.hover(None, "")


class TaskJoint:
    """Create a joint of ``kind`` in ``study``, or edit ``joint``."""

    #: the panel open now (scripts and tests reach it here)
    current = None

    def __init__(self, study, kind="revolute", joint=None):
        TaskJoint.current = self
        self.study = study
        self.joint = joint
        self.doc = study.Document
        self.bodies = study_bodies(study)
        self.kind = str(joint.JointType) if joint is not None else kind
        self.refs = [None, None]        # (body, obj, sub) per side
        self.picked_here = [False, False]   # sides picked in this panel
        self.misaligned = False
        self.aligned = []               # (object, Placement before) of each Align
        self.slot = 0                   # the side the next pick fills
        self.closed = False
        if joint is not None:
            for i, which in enumerate(("Reference1", "Reference2")):
                ref = reference_of(getattr(joint, which))
                if ref is not None:
                    body = picking.body_of_object(self.bodies, ref[0])
                    self.refs[i] = (body, ref[0], ref[1])
            self.slot = 2 if all(self.refs) else self.refs.index(None)
        self._build_form()
        self._build_preview()
        self.gate = _Gate(self)
        self.observer = _Observer(self)
        FreeCADGui.Selection.clearSelection()
        # unresolved (0): the top-level object of this document and the path from it,
        # through App::Links to parts of other files, as a click gives it
        FreeCADGui.Selection.addSelectionGate(self.gate, UNRESOLVED)
        FreeCADGui.Selection.addObserver(self.observer, UNRESOLVED)
        self.update()

    # ------------------------------------------------------------------ form
    def _build_form(self):
        form = QtGui.QWidget()
        form.setWindowTitle(translate("SimPhant", "Edit joint '%s'") % self.joint.Label
                            if self.joint is not None else translate("SimPhant", "New joint"))
        form.setWindowIcon(QtGui.QIcon(icon_path(JOINT_TYPES[self.kind].icon)))
        lay = QtGui.QVBoxLayout(form)
        fields = QtGui.QWidget()
        grid = form_layout(fields, margins=False)
        self.kind_box = QtGui.QComboBox()
        for name, spec in JOINT_TYPES.items():
            self.kind_box.addItem(QtGui.QIcon(icon_path(spec.icon)),
                                  translate("SimPhant", spec.label), name)
            self.kind_box.setItemData(self.kind_box.count() - 1, translate("SimPhant", spec.doc),
                                      QtCore.Qt.ToolTipRole)
        self.kind_box.setCurrentIndex(list(JOINT_TYPES).index(self.kind))
        self.kind_box.currentIndexChanged.connect(self._kind_changed)
        grid.addRow(translate("SimPhant", "Joint kind"), self.kind_box)
        self.ref_buttons = []
        for i in range(2):
            b = WrapButton()
            b.setToolTip(translate("SimPhant", "Click, then pick a vertex, edge or face to "
                                   "replace this reference"))
            b.clicked.connect(lambda checked=False, k=i: self.repick(k))
            grid.addRow(translate("SimPhant", "Reference %d") % (i + 1), b)
            self.ref_buttons.append(b)
        self.offset = quantity_box("mm", float(self.joint.Offset.Value) if self.joint
                                   else 0.0, -1e9, 1e9, tooltip=translate(
                                       "SimPhant", "Side 2 stands this far ahead of side 1 "
                                       "along the joint axis"))
        self.offset.valueChanged.connect(lambda *a: self.update())
        grid.addRow(translate("SimPhant", "Offset"), self.offset)
        self.reverse = QtGui.QCheckBox(translate("SimPhant", "Reverse the joint axis"))
        self.reverse.setChecked(bool(self.joint.Reverse) if self.joint is not None else False)
        self.reverse.toggled.connect(lambda *a: self.update())
        grid.addRow(self.reverse)
        self.angle = quantity_box("deg", float(self.joint.Angle.Value) if self.joint is not None
                                  and hasattr(self.joint, "Angle") else 0.0, 0.0, 180.0,
                                  tooltip=translate("SimPhant", "Angle joints: the kept angle "
                                                    "between the joint z axes (0: the angle as "
                                                    "picked)"))
        self.angle.valueChanged.connect(lambda *a: self.update())
        self.angle_label = QtGui.QLabel(translate("SimPhant", "Angle"))
        grid.addRow(self.angle_label, self.angle)
        lay.addWidget(fields)
        self.gap_label = wrapped_label()
        lay.addWidget(self.gap_label)
        self.align_button = push_button(translate("SimPhant", "Align"), translate(
            "SimPhant", "Move the body of reference 2 (of reference 1 when that of reference "
            "2 is fixed) into place so that the frames meet the joint; one undo step. Only "
            "that body moves: bodies joined to it by other joints stay where they are"),
            self.align)
        self.gap_offset = push_button(translate("SimPhant", "Set offset"), translate(
            "SimPhant", "Keep the bodies where they are: set Offset so that the frames stay "
            "as far apart along the joint axis as picked"), self.offset_from_gap)
        lay.addLayout(FlowRow((self.align_button, self.gap_offset)))
        self.needs_label = wrapped_label()
        lay.addWidget(self.needs_label)
        self.status = wrapped_label()
        self.status.setTextInteractionFlags(QtCore.Qt.TextSelectableByMouse)
        lay.addWidget(self.status)
        self.refusal = wrapped_label()
        self.refusal.setStyleSheet("color: #a40000")
        lay.addWidget(self.refusal)
        lay.addStretch(1)
        self.form = fit_side_pane(form)

    def _kind_changed(self, index):
        self.kind = self.kind_box.itemData(index)
        self.form.setWindowIcon(QtGui.QIcon(icon_path(JOINT_TYPES[self.kind].icon)))
        self.update()

    def offset_mm(self):
        return quantity_value(self.offset)

    def angle_deg(self):
        """The Angle field [deg] when the kind keeps an angle, else 0."""
        return quantity_value(self.angle) if "angle" in JOINT_TYPES[self.kind].needs else 0.0

    def _draft(self):
        """What ``picking`` needs of this panel besides the kind and the references."""
        return dict(offset=self.offset_mm(), reverse=self.reverse.isChecked(),
                    length=float(self.joint.Length.Value) if self.joint else 0.0,
                    angle=self.angle_deg())

    def gap(self):
        """``(distance mm, angle deg, axial mm)`` between the frames as picked
        (``picking.joint_gap``)."""
        r1, r2 = ((r[1], r[2]) for r in self.refs)
        return picking.joint_gap(self.kind, r1, r2, self.bodies, **self._draft())

    def offset_from_gap(self):
        """Set Offset to keep the frames as far apart along the axis as picked."""
        set_quantity(self.offset, self.offset_mm() + self.gap()[2])
        self.update()

    def align(self):
        """Move one body so that the frames meet the joint (one undo step); False when
        the frames cannot be computed or aligned (the reason is shown)."""
        r1, r2 = ((r[1], r[2]) for r in self.refs)
        try:
            body, obj, placement = picking.align_placement(
                self.kind, r1, r2, self.bodies, **self._draft())
        except Exception as exc:  # noqa: BLE001 - the reason is shown
            self.refusal.setText(translate("SimPhant", "Cannot align: %s") % exc)
            return False
        before = FreeCAD.Placement(obj.Placement)
        title = translate("SimPhant", "Align '%s' to joint") % body.Label
        line = "%s.Placement = App.Placement(App.Vector(%r, %r, %r), App.Rotation(%r, %r, " \
            "%r, %r))" % ((obj_expr(obj),) + tuple(placement.Base) + tuple(placement.Rotation.Q))
        if not run_in_transaction(self.doc, title, [line]):
            return False
        self.aligned.append((obj, before, title))
        self.update()
        return True

    def _take_back_aligns(self):
        """Undo the Aligns of this panel (Cancel): FreeCAD's undo steps when they are the
        last ones, else the placements set back."""
        titles = [t for _, _, t in reversed(self.aligned)]
        if list(self.doc.UndoNames[:len(titles)]) == titles:
            for _ in titles:
                self.doc.undo()
        else:
            for obj, before, _ in reversed(self.aligned):
                obj.Placement = before
        self.aligned = []

    # ------------------------------------------------------------------ preview
    def _build_preview(self):
        from pivy import coin
        self.size = marker_size([b.ShapeObject for b in self.bodies if b.ShapeObject])
        self.preview = coin.SoSeparator()
        self.hover_triad = Triad(0.8 * self.size, transparency=0.5)
        self.side_triads = [Triad(self.size), Triad(0.7 * self.size)]
        for t in [self.hover_triad] + self.side_triads:
            t.show(False)
            self.preview.addChild(t.root)
        self.view = None
        gdoc = FreeCADGui.getDocument(self.doc.Name)
        view = gdoc.ActiveView if gdoc else None
        if view is not None and hasattr(view, "getSceneGraph"):
            self.view = view
            view.getSceneGraph().addChild(self.preview)

    def _remove_preview(self):
        if self.view is not None:
            try:
                self.view.getSceneGraph().removeChild(self.preview)
            except Exception:  # noqa: BLE001 - view already closed
                pass
            self.view = None

    def hover(self, obj, sub):
        """Show the frame the element under the pointer gives (or hide the hover triad)."""
        if obj is None or self.closed:
            self.hover_triad.show(False)
            return
        try:
            body, ref_obj, ref_sub = picking.resolve_pick(self.bodies, obj, sub)
            pl, _, _ = picking.reference_frame_placement(ref_obj, ref_sub)
        except Exception:  # noqa: BLE001 - not a usable element: no preview
            self.hover_triad.show(False)
            return
        self.hover_triad.set_placement(pl)
        self.hover_triad.show(True)

    # ------------------------------------------------------------------ picking
    def check_pick(self, obj, sub):
        """(allowed, reason) for a pick of ``obj``/``sub``."""
        try:
            body, _, _ = picking.resolve_pick(self.bodies, obj, sub)
        except Exception as exc:  # noqa: BLE001 - the reason is shown
            return False, str(exc)
        slot = self._target_slot()
        other = self.refs[1 - slot] if slot in (0, 1) else None
        if other is not None and other[0] == body:
            return False, translate("SimPhant", "'%s' is on body '%s' like reference %d; a joint "
                                    "connects two different bodies") % (obj.Label, body.Label,
                                                                        2 - slot)
        return True, ""

    def _target_slot(self):
        if self.slot in (0, 1):
            return self.slot
        return 1    # both filled: a new pick replaces side 2

    def show_refusal(self, reason):
        self.refusal.setText(translate("SimPhant", "Refused: %s") % reason)

    def picked(self, obj, sub):
        if self.closed:
            return
        ok, reason = self.check_pick(obj, sub)
        if not ok and whole_object(sub):
            self.refusal.setText(translate("SimPhant", "'%s' selected, not as a reference (%s). "
                                           "Hide other parts or Space hides it.")
                                 % (obj.Label, reason))
            return
        if not ok:
            self.show_refusal(reason)
            return
        body, ref_obj, ref_sub = picking.resolve_pick(self.bodies, obj, sub)
        slot = self._target_slot()
        self.refs[slot] = (body, ref_obj, ref_sub)
        self.picked_here[slot] = True
        self.refusal.setText("")
        self.slot = self.refs.index(None) if None in self.refs else 2
        self.update()

    def _moved_reference(self):
        """What changed about a reference of the edited joint that a model edit moved
        (``document.signatures``) and that was not picked again here, else ``""``."""
        if self.joint is None:
            return ""
        for i, which in enumerate(("Reference1", "Reference2")):
            check = check_reference(self.joint, which)
            if not self.picked_here[i] and check.status != "ok":
                return check.message if check.status == "broken" else translate(
                    "SimPhant", "%s; pick it again, or Cancel and Check model to re-point "
                    "it") % check.message
        return ""

    def repick(self, k):
        """The next pick replaces reference ``k``."""
        self.slot = k
        self.update()

    # ------------------------------------------------------------------ state
    def frames(self):
        """World frames of the joint as it would be made (``ModelError`` says what is wrong)."""
        r1, r2 = ((r[1], r[2]) for r in self.refs)
        return picking.joint_frames(self.kind, r1, r2, self.bodies, **self._draft(),
                                    label=self.joint.Label if self.joint
                                    else translate("SimPhant", "New joint"))

    def update(self):
        keeps_angle = "angle" in JOINT_TYPES[self.kind].needs
        self.angle.setVisible(keeps_angle)
        self.angle_label.setVisible(keeps_angle)
        self.needs_label.setText(picking.needs_text(self.kind) + " "
                                 + translate("SimPhant", JOINT_TYPES[self.kind].doc))
        for i, b in enumerate(self.ref_buttons):
            r = self.refs[i]
            text = translate("SimPhant", "%s.%s  (body '%s')") % (r[1].Label, r[2], r[0].Label) \
                if r else translate("SimPhant", "(not picked)")
            if self.slot == i:
                text = "\u25b6 " + (text if r else translate("SimPhant",
                                                             "pick a vertex, edge or face"))
            b.setText(text)
        for t in self.side_triads:
            t.show(False)
        self.gap_label.setText("")
        self.gap_offset.setVisible(False)
        self.align_button.setVisible(False)
        missing = [i + 1 for i, r in enumerate(self.refs) if r is None]
        if missing:
            if len(missing) == 2 or missing[0] == 1:
                self.status.setText(translate("SimPhant", "Pick reference %d: a vertex, edge or "
                                              "face of a body of study '%s'.")
                                    % (missing[0], self.study.Label))
            else:
                self.status.setText(translate("SimPhant", "Pick reference %d: a vertex, edge or "
                                              "face of a body of study '%s' other than '%s'.")
                                    % (missing[0], self.study.Label, self.refs[0][0].Label))
            for i, r in enumerate(self.refs):
                if r is not None:
                    try:
                        pl, _, _ = picking.reference_frame_placement(r[1], r[2])
                        self.side_triads[i].set_placement(pl)
                        self.side_triads[i].show(True)
                    except Exception:  # noqa: BLE001
                        pass
            return False
        moved = self._moved_reference()
        if moved:
            self.status.setText(translate("SimPhant", "Cannot keep this reference: %s") % moved)
            return False
        try:
            f1, f2 = self.frames()
        except Exception as exc:  # noqa: BLE001 - explained instead of failing
            self.status.setText(translate("SimPhant", "Cannot make this joint: %s") % exc + "\n"
                                + picking.needs_text(self.kind))
            return False
        for t, pl in zip(self.side_triads, (f1, f2)):
            t.set_placement(pl)
            t.show(True)
        self._show_gap()
        label = translate("SimPhant", JOINT_TYPES[self.kind].label)
        self.status.setText(translate("SimPhant", "Ready: press OK to update the joint (%s).")
                            % label if self.joint is not None else
                            translate("SimPhant", "Ready: press OK to create the joint (%s).")
                            % label)
        return True

    def _show_gap(self):
        """The gap between the frames, and whether the joint's constraints are met."""
        distance, angle, axial = self.gap()
        self.misaligned = distance > picking.GAP_TOLERANCE[0] \
            or angle > picking.GAP_TOLERANCE[1]
        if not self.misaligned:
            self.gap_label.setStyleSheet("color: #4e9a06")
            self.gap_label.setText(translate("SimPhant", "Aligned: the two frames meet the "
                                             "joint's constraints."))
            return
        self.gap_label.setStyleSheet("color: #ce5c00")
        self.gap_label.setText(translate(
            "SimPhant", "Not aligned: the frames are %.4g mm and %.4g deg from meeting the "
            "joint (%.4g mm along the axis). A Solve first moves the bodies to close the "
            "gap, or fails; Align moves the body into place, Set offset keeps the gap along "
            "the axis, or pick other elements.")
            % tuple(0.0 if abs(v) < 1e-9 else v for v in (distance, angle, axial)))
        self.align_button.setVisible(True)
        self.gap_offset.setVisible(abs(axial) > picking.GAP_TOLERANCE[0])

    # ------------------------------------------------------------------ dialog
    def getStandardButtons(self):
        return int(QtGui.QDialogButtonBox.Ok | QtGui.QDialogButtonBox.Cancel)

    def _lines(self):
        r1, r2 = ((r[1], r[2]) for r in self.refs)
        ref = lambda r: "(%s, %r)" % (obj_expr(r[0]), r[1])   # noqa: E731
        if self.joint is None:
            args = ["%s" % obj_expr(self.study), repr(self.kind), ref(r1), ref(r2)]
            if self.offset_mm():
                args.append("offset=%r" % self.offset_mm())
            if self.reverse.isChecked():
                args.append("reverse=True")
            if self.angle_deg():
                args.append("angle=%r" % self.angle_deg())
            return ["from SimPhantWorkbench import factory",
                    "_joint = factory.make_joint(%s)" % ", ".join(args)]
        j = obj_expr(self.joint)
        return ["_joint = %s" % j,
                "_joint.JointType = %r" % self.kind,
                "_joint.Reference1 = (%s, [%r])" % (obj_expr(r1[0]), r1[1]),
                "_joint.Reference2 = (%s, [%r])" % (obj_expr(r2[0]), r2[1]),
                "_joint.Offset = '%r mm'" % self.offset_mm(),
                "_joint.Reverse = %r" % self.reverse.isChecked(),
                "_joint.Angle = '%r deg'" % self.angle_deg(),
                "_joint.FrameSource = 'References'",
                "_joint.recompute()"]

    def accept(self):
        if not self.update():
            self.refusal.setText(translate("SimPhant", "Not ready: %s") % self.status.text())
            return False
        if self.misaligned and not self._confirm_misaligned():
            return False
        title = translate("SimPhant", "Edit SimPhant joint") if self.joint is not None else \
            translate("SimPhant", "Add SimPhant joint (%s)") % translate(
                "SimPhant", JOINT_TYPES[self.kind].label)
        if not run_in_transaction(self.doc, title, self._lines()):
            return False
        self._close()
        return True

    def _confirm_misaligned(self):
        """OK on frames that do not meet the joint: Align (then create), Keep (create as
        picked, with a warning in the Report view) or Cancel (back to the panel)."""
        answer = choose(translate("SimPhant", "SimPhant joint"),
                        self.gap_label.text() + "\n\n" + translate(
                            "SimPhant", "Align the body now, keep the frames as they are, or go "
                            "back to the panel?"),
                        [("align", translate("SimPhant", "Align")),
                         ("keep", translate("SimPhant", "Keep")),
                         ("cancel", translate("SimPhant", "Cancel"))], default="keep")
        if answer == "align":
            return self.align() and self.update()
        if answer == "keep":
            FreeCAD.Console.PrintWarning("SimPhant: %s\n" % self.gap_label.text())
            return True
        return False

    def reject(self):
        if self.aligned:
            self._take_back_aligns()
        self._close()
        return True

    def _close(self):
        if self.closed:
            return
        self.closed = True
        FreeCADGui.Selection.removeSelectionGate()
        FreeCADGui.Selection.removeObserver(self.observer)
        FreeCADGui.Selection.clearSelection()
        self._remove_preview()
        FreeCADGui.Control.closeDialog()
        if self.joint is not None:
            gdoc = FreeCADGui.getDocument(self.doc.Name)
            if gdoc is not None and gdoc.getInEdit() is not None:
                gdoc.resetEdit()

    def open_message(self, text):
        message("info", translate("SimPhant", "SimPhant joint"), text)
