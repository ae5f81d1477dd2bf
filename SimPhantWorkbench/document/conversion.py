"""THE document -> solver conversion: a study's solver ``Model`` and the mappings back.

The units and conventions change in ``units`` (mm -> m, ``FreeCAD.Rotation``
``(x, y, z, w)`` -> solver quaternion ``(w, x, y, z)``); bodies, joints, loads,
force elements, drivers and couplers are read by ``bodies``, ``joints``, ``elements`` and
``couplers``;
this module puts them together. Solver entities are named after the document
objects' Labels (made unique with the object Name when Labels collide), so solver
messages name them.

``convert(study)`` returns a ``Conversion`` holding the solver ``Model`` and
the mappings between document objects and solver bodies, joints and loads.
"""
import numpy as np

from ..solver import Model, ModelError
from ..solver.blas import one_thread
from .base import (enumeration_problems, is_type, object_label, study_bodies, study_couplers,
                   study_drivers, study_elements, study_joints, study_loads)
from .bodies import body_data
from .body_drivers import BODY_DRIVER, add_body_driver
from .couplers import add_coupler
from .elements import add_driver, add_force_element, add_load
from .joints import joint_data
from .massprops import ancestors
from .settings import gravity_vector
from .units import rotation_to_quat

__all__ = ["Conversion", "convert", "solver_names", "check_enumerations", "study_dof_report"]


class Conversion:
    """A study converted to a solver ``Model``, with the mappings both ways.

    Attributes
    ----------
    study : the Study object
    model : solver ``Model``
    bodies : list of ``BodyData`` (all bodies, study order)
    moving : list of ``BodyData`` of the moving bodies, in solver (result) order
    joints : list of ``JointData`` (study order = solver order)
    body_map : dict Body object Name -> solver ``Body`` (``model.ground`` for fixed bodies)
    joint_map : dict Joint object Name -> solver ``Joint``
    load_map : dict Force/Torque object Name -> solver ``Load``
    """

    def __init__(self, study):
        self.study = study
        self.model = None
        self.bodies = []
        self.moving = []
        self.joints = []
        self.body_map = {}
        self.joint_map = {}
        self.load_map = {}
        self.force_map = {}     # ForceElement object Name -> solver ForceElement
        self.driver_map = {}
        self.coupler_map = {}   # Coupler object Name -> solver Coupler

    def solver_body(self, body_obj):
        return self.body_map[body_obj.Name]

    def solver_joint(self, joint_obj):
        return self.joint_map[joint_obj.Name]

    def object_names(self):
        """``{id(solver entity): document object Name}`` of every moving body, joint, load,
        force element, driver and coupler (not the ground, which fixed bodies share)."""
        names = {}
        for mapping in (self.body_map, self.joint_map, self.load_map, self.force_map,
                        self.driver_map, self.coupler_map):
            for obj_name, entity in mapping.items():
                if entity is not self.model.ground:
                    names[id(entity)] = obj_name
        return names

    def body_object(self, solver_name):
        """The document Body object of a solver body name."""
        for bd in self.bodies:
            sb = self.body_map[bd.obj.Name]
            if not sb.is_ground and sb.name == solver_name:
                return bd.obj
        raise KeyError(solver_name)


def solver_names(objs):
    """``{object Name: solver name}`` of the study members ``objs`` (see ``_unique_names``):
    the names their bodies, joints, force elements or drivers have in the result."""
    return _unique_names(objs)


def _unique_names(objs):
    """Solver names: Labels, with the object Name added where Labels collide."""
    labels = [o.Label for o in objs]
    return {o.Name: (o.Label if labels.count(o.Label) == 1 else "%s (%s)" % (o.Label, o.Name))
            for o in objs}


def _check_bodies(study, bodies):
    if not bodies:
        raise ModelError("%s has no bodies: add a body for each solid that moves or is fixed"
                         % object_label(study))
    seen = {}
    for b in bodies:
        shape = b.ShapeObject
        if shape is None:
            raise ModelError("%s has no shape object" % object_label(b))
        if shape.Name in seen:
            raise ModelError("Bodies '%s' and '%s' use the same object '%s'"
                             % (seen[shape.Name].Label, b.Label, shape.Label))
        seen[shape.Name] = b
    for b in bodies:
        for anc in ancestors(b.ShapeObject):
            if anc.Name in seen:
                raise ModelError("%s: '%s' lies inside '%s', the shape of body '%s'; its mass "
                                 "would count twice" % (object_label(b), b.ShapeObject.Label,
                                                        anc.Label, seen[anc.Name].Label))
    if all(b.Fixed for b in bodies):
        raise ModelError("%s: all bodies are fixed; nothing can move" % object_label(study))


def check_enumerations(study):
    """``ModelError`` naming the object and the property when the study or one of its
    members holds an enumeration value this version does not know (e.g. a JointType
    of a newer SimPhant): such a model is never run with a substitute."""
    for obj in [study] + list(study.Group):
        problems = enumeration_problems(obj)
        if problems:
            raise ModelError("%s: %s" % (object_label(obj), "; ".join(problems)))


def convert(study):
    """Build the solver ``Model`` of a Study; ``ModelError`` naming the object at fault.

    With one BLAS thread (``solver.blas``): a body's principal axes come out the same
    to the last bit in every process."""
    one_thread()
    check_enumerations(study)
    conv = Conversion(study)
    bodies = study_bodies(study)
    _check_bodies(study, bodies)
    model = Model(gravity=gravity_vector(study))
    conv.model = model

    names = _unique_names(bodies)
    for b in bodies:
        bd = body_data(b)
        conv.bodies.append(bd)
        if bd.fixed:
            conv.body_map[b.Name] = model.ground
            continue
        mp = bd.mass_props
        try:
            sb = model.add_body(names[b.Name], mass=float(mp.mass),
                                inertia=np.asarray(mp.inertia, dtype=float),
                                position=np.asarray(mp.cog, dtype=float),
                                orientation=rotation_to_quat(bd.placement.Rotation),
                                velocity=bd.velocity, angular_velocity=bd.omega)
        except ModelError as exc:
            raise ModelError("%s: %s" % (object_label(b), exc)) from None
        conv.body_map[b.Name] = sb
        conv.moving.append(bd)

    joints = study_joints(study)
    jnames = _unique_names(joints)
    for j in joints:
        jd = joint_data(j, bodies)
        try:
            sj = model.add_joint(jd.kind, conv.body_map[jd.body1.Name],
                                 conv.body_map[jd.body2.Name], frame1=jd.frame1,
                                 frame2=jd.frame2, point2=jd.point2, length=jd.length,
                                 angle=jd.angle, name=jnames[j.Name])
        except ModelError as exc:
            raise ModelError("%s: %s" % (object_label(j), exc)) from None
        conv.joints.append(jd)
        conv.joint_map[j.Name] = sj

    loads = study_loads(study)
    lnames = _unique_names(loads)
    for ld in loads:
        conv.load_map[ld.Name] = add_load(conv, ld, bodies, lnames[ld.Name])

    elements = study_elements(study)
    fnames = _unique_names(elements)
    for fe in elements:
        conv.force_map[fe.Name] = add_force_element(conv, fe, bodies, fnames[fe.Name])
    drivers = study_drivers(study)
    dnames = _unique_names(drivers)
    conv.driver_map = {}
    for d in drivers:
        conv.driver_map[d.Name] = add_body_driver(conv, d, bodies, dnames[d.Name]) \
            if is_type(d, BODY_DRIVER) else add_driver(conv, d, joints, dnames[d.Name])
    couplers = study_couplers(study)
    cnames = _unique_names(couplers)
    for c in couplers:
        conv.coupler_map[c.Name] = add_coupler(conv, c, joints, cnames[c.Name])
    return conv


def study_dof_report(study):
    """The study's mechanism check before solving: the solver's ``DofReport``
    (mobility against Gruebler's count, redundant equations by joint with the joint
    kinds that remove them, singular, locked or over-driven mechanisms), named after
    the study; ``ModelError`` naming the object at fault if the study cannot be
    converted."""
    return convert(study).model.dof_report(name=study.Label)
