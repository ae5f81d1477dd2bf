"""Couplers of a study (gear pairs, belts, racks and pinions, screws): their joints and
their parameter in SI units, validated; the one check the factory, the conversion and
the GUI share."""
from ..solver import ModelError
from ..solver.couplers import COUPLER_TYPES
from .base import find_study, is_type, object_label, study_joints
from .units import M_PER_MM, quantity_si

__all__ = ["COUPLER_VALUE_PROPERTIES", "coupler_data", "add_coupler"]

#: per coupler parameter (``CouplerSpec.param``): its property and document unit
COUPLER_VALUE_PROPERTIES = {"ratio": ("Ratio", None), "radius": ("Radius", "mm"),
                            "lead": ("Lead", "mm")}


def coupler_data(coupler, joints=None):
    """``(kind, joint objects, value in SI)`` of a Coupler object; ``ModelError`` naming it
    when its type is unknown, a joint is missing or not of its study, or the value is 0."""
    what = object_label(coupler)
    kind = str(coupler.CouplerType)
    spec = COUPLER_TYPES.get(kind)
    if spec is None:
        raise ModelError("%s: unknown coupler type %r; valid types: %s"
                         % (what, kind, ", ".join(COUPLER_TYPES)))
    if joints is None:
        study = find_study(coupler)
        joints = study_joints(study) if study is not None else []
    linked = []
    for k in range(len(spec.joints)):
        prop = "Joint%d" % (k + 1)
        joint = getattr(coupler, prop)
        if joint is None or not is_type(joint, "SimPhant::Joint"):
            raise ModelError("%s has no %s: set it to a SimPhant joint" % (what, prop))
        if joint not in joints:
            raise ModelError("%s: %s '%s' is not in this study" % (what, prop, joint.Label))
        if str(joint.JointType) not in spec.joints[k]:
            raise ModelError("%s: %s '%s' is %s; a %s coupler needs a %s joint there"
                             % (what, prop, joint.Label, joint.JointType, spec.name,
                                " or ".join(spec.joints[k])))
        linked.append(joint)
    name, unit = COUPLER_VALUE_PROPERTIES[spec.param]
    raw = getattr(coupler, name)
    value = float(raw) if unit is None else quantity_si(raw, unit) * M_PER_MM
    if value == 0.0 or (spec.param == "ratio" and value < 0.0):
        raise ModelError("%s: %s must be %s, got %s" % (what, name, "positive" if unit is None
                                                       else "non-zero", raw))
    return kind, linked, value


def add_coupler(conv, coupler, joints, name):
    """Add a Coupler object to ``conv.model`` (its joints must be in the study)."""
    what = object_label(coupler)
    kind, linked, value = coupler_data(coupler, joints)
    spec = COUPLER_TYPES[kind]
    try:
        return conv.model.add_coupler(kind, *[conv.joint_map[j.Name] for j in linked],
                                      name=name, **{spec.param: value})
    except ModelError as exc:
        raise ModelError("%s: %s" % (what, exc)) from None
