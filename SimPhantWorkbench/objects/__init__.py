"""App-side document objects of SimPhant (proxies of Python features), and their registry.

One module per role, as FEM's ``femobjects``. The module paths and class names
(``SimPhantWorkbench.objects.study.Study`` ...) are stored in ``.FCStd`` files:
they are public API and are never renamed. Create objects through
``SimPhantWorkbench.factory``.

``OBJECT_TYPES`` is the one table from an object type to its FreeCAD feature
type, its proxy class, its view provider and its tree icon: the factory creates
objects from it (``add_object``), the workbench gives view providers to objects
of documents made or saved without the GUI from it (``attach_view_provider``),
and the view providers take their icon from it.
"""
import importlib
from collections import namedtuple

from ..document.base import is_type, proxy_type

__all__ = ["is_type", "proxy_type", "TYPES", "OBJECT_TYPES", "ObjectType", "proxy_class",
           "add_object", "attach_view_provider", "icon_of"]

ObjectType = namedtuple("ObjectType", [
    "type",           # proxy Type, e.g. "SimPhant::Body"
    "feature",        # FreeCAD feature type of the document object
    "module",         # module of the proxy class under SimPhantWorkbench.objects (stored in files)
    "proxy",          # proxy class name (stored in files)
    "view_module",    # module of the view provider under SimPhantWorkbench.viewproviders
    "view_provider",  # view provider class name
    "icon",           # tree icon (resources/icons); kinds may refine it (joint kinds, drivers)
])

_FEATURE = "App::FeaturePython"

#: every SimPhant object type
OBJECT_TYPES = {t.type: t for t in (
    ObjectType("SimPhant::Study", "App::DocumentObjectGroupPython", "study", "Study",
               "view_study", "VPStudy", "Study.svg"),
    ObjectType("SimPhant::Body", _FEATURE, "body", "Body", "view_body", "VPBody", "Body.svg"),
    ObjectType("SimPhant::Joint", _FEATURE, "joint", "Joint", "view_joint", "VPJoint",
               "Joint.svg"),
    ObjectType("SimPhant::Force", _FEATURE, "load", "Force", "view_load", "VPLoad", "Force.svg"),
    ObjectType("SimPhant::Torque", _FEATURE, "load", "Torque", "view_load", "VPLoad",
               "Torque.svg"),
    ObjectType("SimPhant::Result", _FEATURE, "result", "Result", "view_result", "VPResult",
               "Result.svg"),
    ObjectType("SimPhant::ParameterStudy", _FEATURE, "parameter_study", "ParameterStudy",
               "view_parameter_study", "VPParameterStudy", "ParameterStudy.svg"),
    ObjectType("SimPhant::ForceElement", _FEATURE, "force_element", "ForceElement",
               "view_force_element", "VPForceElement", "Spring.svg"),
    ObjectType("SimPhant::Driver", _FEATURE, "driver", "Driver", "view_driver", "VPDriver",
               "Driver_Rotation.svg"),
    ObjectType("SimPhant::BodyDriver", _FEATURE, "body_driver", "BodyDriver", "view_driver",
               "VPDriver", "Driver_Point.svg"),
    ObjectType("SimPhant::Coupler", _FEATURE, "coupler", "Coupler", "view_coupler", "VPCoupler",
               "Coupler_Gear.svg"),
)}

#: Proxy ``Type`` strings of all SimPhant objects.
TYPES = tuple(OBJECT_TYPES)


def proxy_class(type_name):
    """The proxy class of ``type_name``."""
    t = OBJECT_TYPES[type_name]
    return getattr(importlib.import_module("%s.%s" % (__name__, t.module)), t.proxy)


def icon_of(type_name, default="SimPhant.svg"):
    """The tree icon of ``type_name`` (file name in resources/icons)."""
    t = OBJECT_TYPES.get(type_name)
    return t.icon if t is not None else default


def attach_view_provider(obj):
    """Give ``obj`` its view provider (``OBJECT_TYPES``) when the GUI is up; returns it, or
    ``None`` headless or when ``obj`` has one already.

    A view provider that cannot be made is an error in FreeCAD's Report view naming the
    object, never silent; the object itself stays as it is.
    """
    import FreeCAD
    t = OBJECT_TYPES.get(proxy_type(obj))
    vobj = getattr(obj, "ViewObject", None) if FreeCAD.GuiUp else None
    if t is None or vobj is None:
        return None
    try:
        module = importlib.import_module("SimPhantWorkbench.viewproviders." + t.view_module)
        cls = getattr(module, t.view_provider)
        if isinstance(getattr(vobj, "Proxy", None), cls):
            return None
        return cls(vobj)
    except Exception as exc:  # noqa: BLE001 - reported, the object is kept
        FreeCAD.Console.PrintError("SimPhant: cannot make the view provider of '%s' (%s): "
                                   "%s: %s\n" % (obj.Label, t.type, type(exc).__name__, exc))
        return None


def add_object(doc, type_name, name, label=None, study=None):
    """A new object of ``type_name`` in ``doc``: its proxy, its ``label``, a member of
    ``study`` (when given), with its view provider in the GUI. No transaction: the caller
    (the factory) opens one."""
    t = OBJECT_TYPES[type_name]
    obj = doc.addObject(t.feature, name)
    proxy_class(type_name)(obj)
    if label:
        obj.Label = label
    if study is not None:
        study.addObject(obj)
    attach_view_provider(obj)
    return obj
