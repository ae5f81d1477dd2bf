"""Driver: a prescribed motion (motor, linear actuator) of a joint of the study.

``DriverType`` is one of the solver's driver kinds (``solver.drivers.DRIVER_TYPES``):
``rotation`` drives the joint's rotation about its z axis (revolute, cylindrical),
``translation`` its translation along it (prismatic, cylindrical). Both are 0 at
the start (the assembled pose) and positive about/along the joint axis (``Reverse``
of the joint flips it).

``Function`` is one of ``solver.drivers.FUNCTION_TYPES``; ``PARAMETER_PROPERTIES``
maps each of its parameters to the property holding it, per driver kind: a rotation
takes angles (``Angle``, ``EndAngle``, ``AngleAmplitude``, deg) and a constant
``Speed`` [rpm] (a velocity motor), a translation lengths (``Distance``,
``EndDistance``, ``DistanceAmplitude``, mm) and a ``Velocity`` [mm/s]; both use
``StartTime``/``EndTime`` [s] (steps), ``Frequency`` [Hz] and ``Phase`` (harmonic).
``Expression`` is a function of ``t`` [s] in SI units (rad or m), e.g.
``"0.5*sin(2*pi*t)"``.
"""
from ..document.elements import DRIVER_PARAMETERS
from .base import BaseProxy, prop

__all__ = ["Driver", "PARAMETER_PROPERTIES", "TYPE"]

TYPE = "SimPhant::Driver"

#: (driver kind, function parameter) -> (property, its unit) (``document.elements``)
PARAMETER_PROPERTIES = DRIVER_PARAMETERS


def _kinds():
    from ..solver.drivers import joint_driver_kinds
    return joint_driver_kinds()


def _functions():
    from ..solver.drivers import FUNCTION_TYPES
    return list(FUNCTION_TYPES)


class Driver(BaseProxy):
    """Proxy of a SimPhant driver (``SimPhant::Driver``)."""

    Type = TYPE

    PROPERTIES = (
        prop("App::PropertyLinkGlobal", "Joint", "Driver", "The SimPhant joint whose motion "
             "is prescribed"),
        prop("App::PropertyEnumeration", "DriverType", "Driver",
             "What is driven: rotation about the joint z axis (revolute, cylindrical) or "
             "translation along it (prismatic, cylindrical)", default="rotation", values=_kinds),
        prop("App::PropertyEnumeration", "Function", "Driver",
             "Prescribed motion: constant, ramp (constant rate: a motor at constant speed), "
             "step / step5 (smooth cubic / quintic step), harmonic, expression",
             default="ramp", values=_functions),
        prop("App::PropertyAngle", "Angle", "Rotation",
             "Rotation: constant value, start of a ramp or step, offset of a harmonic",
             default=0.0),
        prop("App::PropertyFloat", "Speed", "Rotation",
             "Rotation, ramp: constant speed [rpm] (a velocity motor)", default=0.0),
        prop("App::PropertyAngle", "EndAngle", "Rotation", "Rotation, step: value at EndTime",
             default=0.0),
        prop("App::PropertyAngle", "AngleAmplitude", "Rotation", "Rotation, harmonic: amplitude",
             default=0.0),
        prop("App::PropertyDistance", "Distance", "Translation",
             "Translation: constant value, start of a ramp or step, offset of a harmonic",
             default=0.0),
        prop("App::PropertyFloat", "Velocity", "Translation",
             "Translation, ramp: constant velocity [mm/s]", default=0.0),
        prop("App::PropertyDistance", "EndDistance", "Translation",
             "Translation, step: value at EndTime", default=0.0),
        prop("App::PropertyDistance", "DistanceAmplitude", "Translation",
             "Translation, harmonic: amplitude", default=0.0),
        prop("App::PropertyFloat", "StartTime", "Motion", "Step: start time [s]", default=0.0),
        prop("App::PropertyFloat", "EndTime", "Motion", "Step: end time [s]", default=1.0),
        prop("App::PropertyFloat", "Frequency", "Motion", "Harmonic: frequency [Hz]",
             default=1.0),
        prop("App::PropertyAngle", "Phase", "Motion", "Harmonic: phase", default=0.0),
        prop("App::PropertyString", "Expression", "Motion",
             "Expression: the value as a function of t [s], in SI units (rad or m), e.g. "
             "'0.5*sin(2*pi*t)'", default=""),
    )
