"""SimPhant objects in a FreeCAD document: type tests, studies and their members, undo steps.

The lowest layer of the document side: it needs no proxy class (a SimPhant
object is recognised by its proxy's ``Type`` string), so everything that reads
documents -- the conversion, the checks, the objects' own ``execute`` -- builds
on it without importing the proxies (``SimPhantWorkbench.objects``).
"""
from ..solver import ModelError

__all__ = ["STUDY", "proxy_type", "is_type", "is_simphant", "transaction", "enum_values",
           "enumeration_problems", "require_study", "studies", "find_study", "study_members",
           "study_bodies", "study_joints", "study_drivers", "study_couplers", "study_loads",
           "study_elements", "study_result", "has_result", "object_label", "find_object",
           "DRIVERS"]

#: proxy ``Type`` of a study (the container of a motion study)
STUDY = "SimPhant::Study"


def proxy_type(obj):
    """The ``Type`` string of a Python feature's proxy (``"SimPhant::Body"`` ...), or ``None``."""
    proxy = getattr(obj, "Proxy", None)
    return getattr(proxy, "Type", None)


def is_type(obj, type_name):
    """True when ``obj`` is a SimPhant object of ``type_name`` (e.g. ``"SimPhant::Joint"``)."""
    return obj is not None and proxy_type(obj) == type_name


def is_simphant(obj):
    """True when ``obj`` is a SimPhant object of any type."""
    return str(proxy_type(obj)).startswith("SimPhant::")


#: the words that name a SimPhant object's kind in messages ("Body 'Crank'")
_KIND_WORDS = (("SimPhant::Body", "Body"), ("SimPhant::Joint", "Joint"),
               ("SimPhant::Force", "Force"), ("SimPhant::Torque", "Torque"),
               ("SimPhant::Driver", "Driver"), ("SimPhant::BodyDriver", "Driver"),
               ("SimPhant::ForceElement", "Force element"),
               (STUDY, "Study"), ("SimPhant::Result", "Result"),
               ("SimPhant::ParameterStudy", "Parameter study"))


def object_label(obj):
    """``"Body 'Crank'"``: an object's kind and Label, as messages name it."""
    t = proxy_type(obj)
    word = next((w for kind, w in _KIND_WORDS if kind == t), "Object")
    return "%s '%s'" % (word, getattr(obj, "Label", obj))


class transaction:
    """Context manager: one undo step; aborted when the block raises.

    Joins an already open transaction (a GUI command's) instead of opening a
    nested one. Headless documents usually have undo off (``UndoMode == 0``),
    where this only marks the boundaries and opens no FreeCAD transaction: FreeCAD
    opens one for the whole application, and with undo off the document's commit
    does not close it, so the next document with undo on would gather every later
    change into that one, never committed.
    """

    def __init__(self, doc, title):
        self.doc = doc
        self.title = title
        self.owner = False
        self.undo = False
        self.persist = False

    _open = set()   # documents with a SimPhant transaction open (nesting joins it)

    def __enter__(self):
        return self.open()

    def __exit__(self, exc_type, exc, tb):
        self.close(keep=exc_type is None)
        return False

    def open(self, persist=False, own=False):
        """Open the step (``with`` does it). ``persist``: a step kept open past the GUI
        command that opens it, e.g. while the task panel of an object it added is open,
        until ``close``: FreeCAD's application-wide transaction, which FreeCAD does not
        commit when the command returns (it commits a document's own transaction).
        ``own``: a step of its own, that ``close(keep=False)`` can take back alone, also
        where the document has a transaction open that no SimPhant step opened (FreeCAD
        opens one named "Delete" when a script removes an object outside any
        transaction, and leaves it open): that one is committed first (FreeCAD ignores
        that inside a GUI command: the step then joins it, ``owner`` False)."""
        key = self.doc.Name
        if own and key not in transaction._open and \
                getattr(self.doc, "HasPendingTransaction", False):
            self.doc.commitTransaction()
        pending = key in transaction._open or getattr(self.doc, "HasPendingTransaction", False)
        self.owner = not pending
        self.persist = persist
        if self.owner:
            transaction._open.add(key)
            self.undo = bool(getattr(self.doc, "UndoMode", 1))
            if self.undo and persist:
                import FreeCAD
                FreeCAD.setActiveTransaction(self.title, True)
            elif self.undo:
                self.doc.openTransaction(self.title)
        return self

    def close(self, keep=True):
        """Commit the step (``keep``) or abort it: nothing of it stays."""
        if self.owner:
            self.owner = False
            transaction._open.discard(self.doc.Name)
            if not self.undo:
                pass
            elif self.persist:
                import FreeCAD
                FreeCAD.closeActiveTransaction(not keep)
            elif keep:
                self.doc.commitTransaction()
            else:
                self.doc.abortTransaction()


# ----------------------------------------------------------------------------- enumerations

def enum_values(spec):
    """The items of an enumeration property spec (``objects.base.PropertySpec``)."""
    values = spec.values() if callable(spec.values) else spec.values
    return list(values)


def enumeration_problems(obj):
    """Messages for the enumerations of a SimPhant object whose value this version does
    not know (kept from the document by ``objects.base.ensure_properties``); empty when
    all are known."""
    proxy = getattr(obj, "Proxy", None)
    problems = []
    for spec in getattr(proxy, "PROPERTIES", ()):
        if spec.type != "App::PropertyEnumeration" or spec.name not in obj.PropertiesList:
            continue
        items = enum_values(spec)
        value = getattr(obj, spec.name)
        if value in items:
            continue
        if isinstance(value, str) and value:
            problems.append("%s %r is not known to this version of SimPhant (known: %s)"
                            % (spec.name, value, ", ".join(items)))
        else:
            problems.append("%s has no value this version of SimPhant knows (the document "
                            "stores an item outside its list; known: %s)"
                            % (spec.name, ", ".join(items)))
    return problems


# ----------------------------------------------------------------------------- studies

def find_object(doc, name, what):
    """The object of ``doc`` with Name ``name``, else the one with that Label (``what``
    starts the message of the ``ModelError`` when there is none or several)."""
    obj = doc.getObject(name)
    if obj is not None:
        return obj
    found = doc.getObjectsByLabel(name)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise ModelError("%s: %d objects are labelled '%s'; use the object's Name (%s)"
                         % (what, len(found), name, ", ".join(o.Name for o in found)))
    raise ModelError("%s: the document has no object '%s'" % (what, name))


def require_study(obj):
    """``obj`` when it is a SimPhant study, else ``ModelError`` naming it."""
    if not is_type(obj, STUDY):
        raise ModelError("'%s' is not a SimPhant study" % getattr(obj, "Label", repr(obj)))
    return obj


def studies(doc):
    """The studies of ``doc`` (may be ``None``), in document order."""
    return [o for o in doc.Objects if is_type(o, STUDY)] if doc is not None else []


def find_study(obj):
    """The Study that contains ``obj`` (or ``obj`` itself if it is one), else ``None``."""
    if is_type(obj, STUDY):
        return obj
    for parent in getattr(obj, "InList", ()):
        if is_type(parent, STUDY) and obj in parent.Group:
            return parent
    return None


def study_members(study, type_name):
    """Objects of ``type_name`` (e.g. ``"SimPhant::Body"``) directly in the study, in order."""
    return [o for o in study.Group if is_type(o, type_name)]


def study_bodies(study):
    return study_members(study, "SimPhant::Body")


def study_joints(study):
    return study_members(study, "SimPhant::Joint")


#: the proxy Types of drivers: of a joint, of a body (``body_drivers``)
DRIVERS = ("SimPhant::Driver", "SimPhant::BodyDriver")


def study_drivers(study):
    """The study's drivers, joint and body drivers, in study order."""
    return [o for o in study.Group if proxy_type(o) in DRIVERS]


def study_couplers(study):
    return study_members(study, "SimPhant::Coupler")


def study_elements(study):
    return study_members(study, "SimPhant::ForceElement")


def study_loads(study):
    return [o for o in study.Group
            if is_type(o, "SimPhant::Force") or is_type(o, "SimPhant::Torque")]


def study_result(study):
    """The study's Result object, or ``None``."""
    found = study_members(study, "SimPhant::Result")
    return found[0] if found else None


def has_result(study):
    """True when ``study`` (may be ``None``) holds a stored result to play back or plot."""
    res = study_result(study) if study is not None else None
    return res is not None and bool(res.ResultFile) and res.NumberOfFrames > 0
