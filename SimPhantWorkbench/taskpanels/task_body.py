"""Body panel: mass properties (read only, with units), density or mass, Fixed, initial motion."""
import math

from PySide import QtGui

from ..gui.common import icon_path
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from .widgets import (Form, PropertyPanel, number_box, quantity_box, quantity_value,
                      wrapped_label)

__all__ = ["TaskBody"]

RPM_PER_DEG_S = 1.0 / 6.0


class TaskBody(PropertyPanel):
    title = QT_TRANSLATE_NOOP("SimPhant", "SimPhant body")

    def __init__(self, body):
        super().__init__(body)
        f = Form(translate("SimPhant", "Body '%s'") % body.Label, icon_path("Body.svg"))
        f.group(translate("SimPhant", "Mass properties"))
        self.mass_ro = quantity_box("kg", body.Mass, read_only=True)
        f.row(translate("SimPhant", "Mass"), self.mass_ro)
        c = body.CoG
        m = body.PrincipalMoments
        for label, unit, v, tip in (
                (translate("SimPhant", "CoG (world)"), "mm", c,
                 translate("SimPhant", "Centre of gravity")),
                (translate("SimPhant", "Principal moments"), "kg*mm^2", m,
                 translate("SimPhant", "Principal moment"))):
            for b in f.vector(label, unit, (v.x, v.y, v.z), tip):
                b.setReadOnly(True)
        src = wrapped_label(translate("SimPhant", "density %.6g kg/m^3 (%s)")
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
        self.fixed = QtGui.QCheckBox(translate("SimPhant", "Fixed (the ground)"))
        self.fixed.setToolTip(translate("SimPhant", "A fixed body is the ground: it does not "
                                        "move"))
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
        self.omega = [number_box(val, -1e9, 1e9, 4) for val in (w.x, w.y, w.z)]
        f.flow(translate("SimPhant", "Angular velocity"), self.omega + [self.w_unit])
        self.w_unit.currentIndexChanged.connect(self._unit_changed)
        f.finish()
        self.form = f.widget

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
