"""Body panel: mass properties (read only, with units), density or mass, Fixed, initial motion."""
import math

from PySide import QtGui

from ..gui.common import icon_path
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from .widgets import Form, PropertyPanel, quantity_box, quantity_value

__all__ = ["TaskBody"]

RPM_PER_DEG_S = 1.0 / 6.0


class TaskBody(PropertyPanel):
    title = QT_TRANSLATE_NOOP("SimPhant", "SimPhant body")

    def __init__(self, body):
        super().__init__(body)
        f = Form(translate("SimPhant", "Body '%s'") % body.Label, icon_path("Body.svg"))
        f.group(translate("SimPhant", "Mass properties (from the solid)"))
        self.mass_ro = quantity_box("kg", body.Mass, read_only=True)
        f.row(translate("SimPhant", "Mass"), self.mass_ro)
        c = body.CoG
        f.vector(translate("SimPhant", "CoG (world)"), "mm", (c.x, c.y, c.z),
                 translate("SimPhant", "Centre of gravity"))
        for b in self._last_vector(f):
            b.setReadOnly(True)
        m = body.PrincipalMoments
        f.vector(translate("SimPhant", "Principal moments"), "kg*mm^2", (m.x, m.y, m.z),
                 translate("SimPhant", "Principal moment"))
        for b in self._last_vector(f):
            b.setReadOnly(True)
        src = QtGui.QLabel(translate("SimPhant", "density %.6g kg/m^3 (%s)")
                           % (body.DensityUsed, body.DensitySource))
        f.row(translate("SimPhant", "Computed with"), src)
        f.group(translate("SimPhant", "Mass"))
        self.density = quantity_box("kg/m^3", body.Density, 0.0, tooltip=translate(
            "SimPhant", "0 = from the object's material (else a default)"))
        f.row(translate("SimPhant", "Density"), self.density,
              translate("SimPhant", "0: the material of the solid, else a default density"))
        self.mass = quantity_box("kg", body.MassOverride, 0.0, tooltip=translate(
            "SimPhant", "Replaces volume x density (0 = not used)"))
        f.row(translate("SimPhant", "Mass override"), self.mass)
        self.fixed = QtGui.QCheckBox(translate("SimPhant", "Fixed (ground: does not move)"))
        self.fixed.setChecked(bool(body.Fixed))
        f.row("", self.fixed)
        f.group(translate("SimPhant", "Initial motion (world axes)"))
        v = body.InitialVelocity
        self.vel = f.vector(translate("SimPhant", "Velocity"), "mm/s", (v.x, v.y, v.z),
                            translate("SimPhant", "Initial velocity"))
        self.w_unit = QtGui.QComboBox()
        self.w_unit.addItem(translate("SimPhant", "deg/s"))
        self.w_unit.addItem(translate("SimPhant", "rpm"))
        w = body.InitialAngularVelocity
        self.omega = []
        row = QtGui.QWidget()
        h = QtGui.QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        for val in (w.x, w.y, w.z):
            b = QtGui.QDoubleSpinBox()
            b.setRange(-1e9, 1e9)
            b.setDecimals(4)
            b.setValue(val)
            self.omega.append(b)
            h.addWidget(b)
        h.addWidget(self.w_unit)
        f.row(translate("SimPhant", "Angular velocity"), row)
        self.w_unit.currentIndexChanged.connect(self._unit_changed)
        f.finish()
        self.form = f.widget

    @staticmethod
    def _last_vector(f):
        item = f.layout.itemAt(f.layout.rowCount() - 1, QtGui.QFormLayout.FieldRole)
        return item.widget().findChildren(QtGui.QAbstractSpinBox)

    def _unit_changed(self, index):
        factor = RPM_PER_DEG_S if index == 1 else 1.0 / RPM_PER_DEG_S
        for b in self.omega:
            b.setValue(b.value() * factor)

    def omega_deg_s(self):
        scale = 1.0 / RPM_PER_DEG_S if self.w_unit.currentIndex() == 1 else 1.0
        return [b.value() * scale for b in self.omega]

    def validate(self):
        for name, box in ((translate("SimPhant", "Density"), self.density),
                          (translate("SimPhant", "Mass override"), self.mass)):
            v = quantity_value(box)
            if v < 0.0 or not math.isfinite(v):
                return translate("SimPhant", "%s must be 0 or positive.") % name
        return ""

    def assignments(self):
        return [("Density", repr(quantity_value(self.density))),
                ("MassOverride", repr(quantity_value(self.mass))),
                ("Fixed", repr(self.fixed.isChecked())),
                ("InitialVelocity", "App.Vector(%r, %r, %r)" % tuple(quantity_value(b)
                                                                    for b in self.vel)),
                ("InitialAngularVelocity", "App.Vector(%r, %r, %r)" % tuple(self.omega_deg_s()))]
