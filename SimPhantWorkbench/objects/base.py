"""Declarative properties and the proxy base class of all SimPhant document objects.

Every object type lists its properties as data (``PROPERTIES``, a tuple of
``PropertySpec``). ``ensure_properties`` adds the missing ones with their
defaults and re-applies editor flags; it runs when an object is created and
again in ``onDocumentRestored``, so a document saved by an older SimPhant gains
the properties added since, and nothing happens twice. A reference an older
version stored in another property type (``App::PropertyXLinkSub``) is migrated to
the type of its spec there (``document.links``).

The proxy classes' module paths and names are stored in ``.FCStd`` files:
``SimPhantWorkbench.objects.<module>.<Class>`` is public API, never rename.

Units: FreeCAD Quantity properties carry their unit; properties FreeCAD 0.20
has no Quantity type for (time, density, mass, force, velocity) are plain
floats/vectors with the unit written in their tooltip and in brackets here.
"""
from collections import namedtuple

from ..document.base import (enum_values, enumeration_problems, is_type, object_label,
                             proxy_type, transaction)
from ..document.links import LEGACY_REFERENCE_TYPES, REFERENCE_TYPE, migrated_reference
from ..document.signatures import SIGNATURES, record_signature

__all__ = ["PropertySpec", "prop", "SIGNATURES_PROPERTY", "ensure_properties", "enumeration_problems", "BaseProxy",
           "proxy_type", "is_type", "transaction"]

PropertySpec = namedtuple("PropertySpec", [
    "type",       # FreeCAD property type, e.g. "App::PropertyFloat"
    "name",       # property name (stored in documents: never rename)
    "group",      # property editor group
    "doc",        # tooltip, with the unit in brackets
    "default",    # initial value (None: FreeCAD's default); enumerations: the selected item
    "values",     # enumerations: the items, or a callable returning them (read at add time)
    "read_only",  # shown but not editable in the property editor (computed values)
    "hidden",     # not shown in the property editor
    "output",     # a computed value: setting it does not touch the object (no recompute loop)
])


def prop(type, name, group, doc, default=None, values=None, read_only=False, hidden=False,
         output=False):
    """Build a ``PropertySpec`` (keyword defaults for the flags)."""
    return PropertySpec(type, name, group, doc, default, values, read_only, hidden, output)


#: what each picked reference pointed to when it was made (``document.signatures``); objects
#: with references list it after them
SIGNATURES_PROPERTY = prop(
    "App::PropertyMap", SIGNATURES, "References",
    "Geometric signature of each picked reference (kind, point, axis, radius of the element, "
    "in its part's coordinates), to find it again when a model edit renumbers the elements",
    hidden=True, output=True)

# FreeCAD property attribute bits (App::PropertyType)
_PROP_OUTPUT = 8
_PROP_NORECOMPUTE = 16


def _current_enum_items(obj, name):
    try:
        return list(obj.getEnumerationsOfProperty(name))
    except Exception:  # noqa: BLE001 - older FreeCAD without this call
        return None


def _add_property(obj, spec):
    attr = (_PROP_OUTPUT | _PROP_NORECOMPUTE) if spec.output else 0
    obj.addProperty(spec.type, spec.name, spec.group, spec.doc, attr)


def _migrate_reference(obj, spec):
    """Move a reference stored in a legacy property type (``document.links``) into a
    property of ``spec.type``, same name and value; a cross-document value that cannot be
    re-expressed in this document is kept where it is, with a warning naming it. The
    object's touched state is kept."""
    import FreeCAD
    value, problem = migrated_reference(obj, getattr(obj, spec.name))
    if problem is not None:
        FreeCAD.Console.PrintWarning("SimPhant: %s: %s %s\n"
                                     % (object_label(obj), spec.name, problem))
        return
    touched = "Touched" in obj.State
    obj.removeProperty(spec.name)
    _add_property(obj, spec)
    if value is not None:
        setattr(obj, spec.name, value)
    if not touched:
        obj.purgeTouched()


def ensure_properties(obj, specs):
    """Add the properties of ``specs`` that ``obj`` lacks (with defaults); idempotent.

    Existing properties keep their values. Enumerations get the current item
    list (e.g. joint kinds added to the solver registry since the document was
    saved) while keeping the selected item. References stored in a legacy link
    type are migrated to the spec's (``document.links``). Editor modes are re-applied.
    Returns the names of the properties that were added.
    """
    added = []
    existing = set(obj.PropertiesList)
    for spec in specs:
        if spec.name not in existing:
            _add_property(obj, spec)
            added.append(spec.name)
            if spec.type == "App::PropertyEnumeration":
                setattr(obj, spec.name, enum_values(spec))
            if spec.default is not None:
                setattr(obj, spec.name, spec.default)
        elif spec.type == REFERENCE_TYPE \
                and obj.getTypeIdOfProperty(spec.name) in LEGACY_REFERENCE_TYPES:
            _migrate_reference(obj, spec)
        elif spec.type == "App::PropertyEnumeration" \
                and obj.getTypeIdOfProperty(spec.name) == spec.type:
            items = enum_values(spec)
            current = getattr(obj, spec.name)
            if isinstance(current, str) and current and current not in items:
                # a value this version does not know (a newer SimPhant, a hand edit): keep it
                # selected and visible, never substitute item 0; check_enumerations refuses
                # to run with it
                items = items + [current]
            if _current_enum_items(obj, spec.name) != items:
                setattr(obj, spec.name, items)
                if current in items:
                    setattr(obj, spec.name, current)
        mode = []
        if spec.read_only:
            mode.append("ReadOnly")
        if spec.hidden:
            mode.append("Hidden")
        if sorted(obj.getEditorMode(spec.name)) != sorted(mode):
            obj.setEditorMode(spec.name, mode)
    return added


class BaseProxy:
    """App-side proxy: declares ``Type`` and ``PROPERTIES``; nothing else is persisted.

    The proxy keeps no state worth saving (everything lives in properties), so
    serialisation returns ``None`` (``dumps``/``loads`` for FreeCAD >= 0.22,
    ``__getstate__``/``__setstate__`` for 0.20/0.21).
    """

    Type = "SimPhant::Base"
    PROPERTIES = ()

    def __init__(self, obj):
        obj.Proxy = self
        ensure_properties(obj, self.PROPERTIES)

    def onDocumentRestored(self, obj):
        ensure_properties(obj, self.PROPERTIES)

    def execute(self, obj):
        """Cheap derived values only; simulations never run here."""

    def onChanged(self, obj, name):
        """A picked reference set (GUI, factory, import, script): take its signature."""
        if name != SIGNATURES and hasattr(obj, SIGNATURES) \
                and obj.getTypeIdOfProperty(name) == REFERENCE_TYPE:
            record_signature(obj, name)

    # serialisation: no proxy state
    def dumps(self):
        return None

    def loads(self, state):
        return None

    def __getstate__(self):
        return None

    def __setstate__(self, state):
        return None
