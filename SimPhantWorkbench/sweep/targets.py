"""Design-variable targets in a FreeCAD document: ``OBJECT.PROPERTY[.COMPONENT...]``.

Any numeric property of any object can be a design variable, addressed by the
object's Name or Label and the property name, with attribute steps into
vectors and placements::

    Rod_body.Density                 a SimPhant Body's density [kg/m^3]
    Rod_body.InitialVelocity.x       one component of a vector [mm/s]
    Hinge.Offset                     a joint's offset [mm]
    Study.EndTime                    the study's end time [s]
    Push.Force.z                     a force component [N]
    Suspension.Stiffness             a force element's stiffness, in the unit its text
                                     gives ("20 N/mm" -> 20; set as "30 N/mm")
    Rod.Height                       a Part primitive's dimension [mm] (geometric)
    Rod.Placement.Base.z             one coordinate of a placement [mm] (geometric)
    Sheet.length   Sheet.B2          a spreadsheet cell by alias or address (geometric)

Targets on SimPhant objects are read by the conversion directly; any other
target changes geometry, so the document is recomputed before the variant is
converted (shapes, mass properties and joint frames follow). ``Target.restore``
puts the original value back (spreadsheet cells: their original contents).
Values are in the unit the property stores (mm, deg, kg/m^3, s ...).
"""
import math
import numbers
import re

from ..objects import TYPES
from ..document.base import find_object, proxy_type
from ..solver import ModelError

__all__ = ["Target", "resolve_target", "find_object"]

_CELL = re.compile(r"^[A-Z]{1,3}[0-9]{1,5}$")


#: a quantity written as text ("20 N/mm", as force elements store stiffness and damping):
#: the number and its unit
_QUANTITY_TEXT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*?)\s*$")


def _number(value):
    """A float from a property value (number, Quantity, or quantity text "20 N/mm" in
    its own unit), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        m = _QUANTITY_TEXT.match(value)
        return float(m.group(1)) if m else None
    if isinstance(value, numbers.Real):
        return float(value)
    v = getattr(value, "Value", None)
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        return float(v)
    return None


class Target:
    """A resolved design-variable target (see the module docstring)."""

    def __init__(self, text, obj, path, cell=None):
        self.text = text
        self.obj = obj
        self.path = list(path)          # property name, then attribute steps
        self.cell = cell                # spreadsheet cell address, or None
        self.geometric = proxy_type(obj) not in TYPES
        self._original = None

    @property
    def what(self):
        return "design variable '%s'" % self.text

    def get(self):
        """The current value (float)."""
        if self.cell is not None:
            return float(self.obj.get(self.cell))
        value = self.obj
        for step in self.path:
            value = getattr(value, step)
        return _number(value)

    def remember(self):
        """Keep the original value for ``restore`` (called once, before any change)."""
        if self.cell is not None:
            self._original = ("cell", self.obj.getContents(self.cell))
        else:
            self._original = ("prop", getattr(self.obj, self.path[0]))

    def set(self, value):
        """Give the target ``value`` (a finite float, in the property's unit)."""
        value = float(value)
        if not math.isfinite(value):
            raise ModelError("%s: value %r is not finite" % (self.what, value))
        if self.cell is not None:
            self.obj.set(self.cell, repr(value))
            return
        try:
            if len(self.path) == 1:
                setattr(self.obj, self.path[0], self._typed(getattr(self.obj, self.path[0]),
                                                            value))
            else:
                root = getattr(self.obj, self.path[0])
                setattr(self.obj, self.path[0], _set_path(root, self.path[1:], value))
        except ModelError:
            raise
        except Exception as exc:  # noqa: BLE001 - FreeCAD's refusals (ranges, constraints)
            raise ModelError("%s: cannot set %s to %r: %s" % (self.what, self.text, value,
                                                              exc)) from None

    @staticmethod
    def _typed(current, value):
        if isinstance(current, str):       # quantity text: the number in its unit
            m = _QUANTITY_TEXT.match(current)
            unit = m.group(2) if m else ""
            return ("%r %s" % (value, unit)).strip()
        if isinstance(current, int) and not isinstance(current, bool):
            if value != round(value):
                raise ModelError("an integer property cannot take %r" % value)
            return int(round(value))
        return value

    def restore(self):
        """Put the original value back (no-op if ``remember`` was not called)."""
        if self._original is None:
            return
        kind, value = self._original
        if kind == "cell":
            self.obj.set(self.cell, value)
        else:
            setattr(self.obj, self.path[0], value)
        self._original = None


def _set_path(container, steps, value):
    """Set ``container.<steps> = value`` on copies and return the container (FreeCAD
    returns vectors and placements by value, so each level is written back)."""
    if len(steps) == 1:
        setattr(container, steps[0], Target._typed(getattr(container, steps[0]), value))
        return container
    child = getattr(container, steps[0])
    setattr(container, steps[0], _set_path(child, steps[1:], value))
    return container


def resolve_target(doc, text):
    """A ``Target`` for ``text`` in ``doc``; ``ModelError`` naming the object at fault."""
    what = "design variable '%s'" % text
    parts = [p.strip() for p in str(text).split(".")]
    if len(parts) < 2 or not all(parts):
        raise ModelError("%s: expected OBJECT.PROPERTY[.COMPONENT]" % what)
    # labels may contain dots: take the longest prefix that names an object
    obj = None
    for k in range(len(parts) - 1, 0, -1):
        name = ".".join(parts[:k])
        try:
            obj = find_object(doc, name, what)
        except ModelError:
            if k == 1:
                raise
            continue
        path = parts[k:]
        break
    if obj.TypeId == "Spreadsheet::Sheet" and len(path) == 1:
        cell = path[0]
        if not _CELL.match(cell):
            cell = obj.getCellFromAlias(cell)
            if not cell:
                raise ModelError("%s: spreadsheet '%s' has no alias or cell '%s'"
                                 % (what, obj.Label, path[0]))
        target = Target(text, obj, path, cell=cell)
        try:
            target.get()
        except Exception:  # noqa: BLE001 - empty or text cell
            raise ModelError("%s: cell %s of '%s' does not hold a number"
                             % (what, cell, obj.Label)) from None
        return target
    if path[0] not in obj.PropertiesList:
        raise ModelError("%s: '%s' has no property '%s'" % (what, obj.Label, path[0]))
    value = obj
    for step in path:
        if not hasattr(value, step):
            raise ModelError("%s: '%s' has no '%s' in %s" % (what, obj.Label, step,
                                                              ".".join(path)))
        value = getattr(value, step)
    if _number(value) is None:
        raise ModelError("%s: %s of '%s' is not a number (%s); address a numeric property or "
                         "a component such as .x" % (what, ".".join(path), obj.Label,
                                                     type(value).__name__))
    if "ReadOnly" in obj.getEditorMode(path[0]):
        raise ModelError("%s: %s of '%s' is computed (read-only)" % (what, path[0], obj.Label))
    return Target(text, obj, path)
