"""Study panel: time span, step, output interval, integrator, stabilisation, gravity."""
from PySide import QtGui

from ..document.settings import settings_problem
from ..gui.common import icon_path
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from ..solver import METHODS
from .widgets import Form, PropertyPanel, TimeBox, number_box, quantity_box, quantity_value

__all__ = ["TaskStudy"]


class TaskStudy(PropertyPanel):
    title = QT_TRANSLATE_NOOP("SimPhant", "SimPhant study")

    def __init__(self, study):
        super().__init__(study)
        f = Form(translate("SimPhant", "Study '%s'") % study.Label, icon_path("Study.svg"))
        f.group(translate("SimPhant", "Time"))
        self.end = TimeBox(study.EndTime,
                           tooltip=translate("SimPhant", "Simulated time span"))
        f.row(translate("SimPhant", "End time"), self.end)
        self.step = TimeBox(study.TimeStep,
                            tooltip=translate("SimPhant", "Step of the fixed-step "
                                              "integrators; largest step of the adaptive "
                                              "ones (0 = unlimited)"))
        f.row(translate("SimPhant", "Step"), self.step)
        self.out = TimeBox(study.OutputInterval,
                           tooltip=translate("SimPhant", "Time between stored frames "
                                             "(0 = at most 1000 frames)"))
        f.row(translate("SimPhant", "Output interval"), self.out)
        f.group(translate("SimPhant", "Integrator"))
        self.method = QtGui.QComboBox()
        for name, info in METHODS.items():
            self.method.addItem(name, name)
            self.method.setItemData(self.method.count() - 1, translate("SimPhant", info.doc),
                                    3)   # tooltip role
        self.method.setCurrentIndex(list(METHODS).index(str(study.Integrator)))
        self.method_hint = f.row(translate("SimPhant", "Method"), self.method, " ")
        self.method.currentIndexChanged.connect(self._method_hint)
        self.rtol = QtGui.QLineEdit("%g" % study.RelativeTolerance)
        self.atol = QtGui.QLineEdit("%g" % study.AbsoluteTolerance)
        f.row(translate("SimPhant", "Relative tolerance"), self.rtol)
        f.row(translate("SimPhant", "Absolute tolerance"), self.atol)
        f.group(translate("SimPhant", "Stabilisation of the constraints"))
        self.stab = QtGui.QComboBox()
        self.stab.addItem(translate("SimPhant", "Time constant and damping ratio"),
                          "TimeConstant")
        self.stab.addItem(translate("SimPhant", "Baumgarte alpha, beta"), "Baumgarte")
        self.stab.setCurrentIndex(0 if study.Stabilisation == "TimeConstant" else 1)
        f.row(translate("SimPhant", "Set by"), self.stab)
        self.tc = TimeBox(study.TimeConstant,
                          tooltip=translate("SimPhant", "Decay time of constraint errors "
                                            "(0 = automatic: max(0.02 s, 5 steps))"))
        f.row(translate("SimPhant", "Time constant"), self.tc)
        self.zeta = number_box(study.DampingRatio, 0.0, 100.0, 3)
        f.row(translate("SimPhant", "Damping ratio"), self.zeta)
        self.alpha = number_box(study.BaumgarteAlpha, 0.0, 1e6, 2, " 1/s")
        self.beta = number_box(study.BaumgarteBeta, 0.0, 1e6, 2, " 1/s")
        f.row(translate("SimPhant", "Alpha"), self.alpha)
        f.row(translate("SimPhant", "Beta"), self.beta)
        self.stab.currentIndexChanged.connect(self._stab_fields)
        f.group(translate("SimPhant", "Gravity"))
        self.g = quantity_box("m/s^2", study.GravityAcceleration.getValueAs("m/s^2").Value
                              if hasattr(study.GravityAcceleration.getValueAs("m/s^2"), "Value")
                              else float(study.GravityAcceleration.getValueAs("m/s^2")), 0.0)
        f.row(translate("SimPhant", "Acceleration"), self.g)
        d = study.GravityDirection
        self.gdir = [number_box(v, -1e6, 1e6, 4) for v in (d.x, d.y, d.z)]
        f.flow(translate("SimPhant", "Direction (x, y, z)"), self.gdir)
        f.finish()
        self.form = f.widget
        self._method_hint()
        self._stab_fields()

    def _method_hint(self, *args):
        info = METHODS[self.method.currentData()]
        doc = translate("SimPhant", info.doc)
        self.method_hint.setText(doc[:1].upper() + doc[1:] + ".")
        adaptive = not info.fixed_step
        self.rtol.setEnabled(adaptive)
        self.atol.setEnabled(adaptive)

    def _stab_fields(self, *args):
        tc = self.stab.currentData() == "TimeConstant"
        self.tc.setEnabled(tc)
        self.zeta.setEnabled(tc)
        self.alpha.setEnabled(not tc)
        self.beta.setEnabled(not tc)

    def validate(self):
        values = {}
        for name, box in (("RelativeTolerance", self.rtol), ("AbsoluteTolerance", self.atol)):
            try:
                values[name] = float(box.text())
            except ValueError:
                return translate("SimPhant", "%s: %r is not a number.") % (name, box.text())
        values.update(
            Integrator=self.method.currentData(), Stabilisation=self.stab.currentData(),
            EndTime=self.end.value(), TimeStep=self.step.value(),
            OutputInterval=self.out.value(), TimeConstant=self.tc.value(),
            DampingRatio=self.zeta.value(), BaumgarteAlpha=self.alpha.value(),
            BaumgarteBeta=self.beta.value(), GravityAcceleration=quantity_value(self.g),
            GravityDirection=[b.value() for b in self.gdir])
        problem = settings_problem(values)     # the check every run makes
        return problem + "." if problem else ""

    def assignments(self):
        return [("EndTime", repr(self.end.value())),
                ("TimeStep", repr(self.step.value())),
                ("OutputInterval", repr(self.out.value())),
                ("Integrator", repr(self.method.currentData())),
                ("RelativeTolerance", repr(float(self.rtol.text()))),
                ("AbsoluteTolerance", repr(float(self.atol.text()))),
                ("Stabilisation", repr(self.stab.currentData())),
                ("TimeConstant", repr(self.tc.value())),
                ("DampingRatio", repr(self.zeta.value())),
                ("BaumgarteAlpha", repr(self.alpha.value())),
                ("BaumgarteBeta", repr(self.beta.value())),
                ("GravityAcceleration", repr("%r m/s^2" % quantity_value(self.g))),
                ("GravityDirection", "App.Vector(%r, %r, %r)" % tuple(b.value()
                                                                     for b in self.gdir))]
