"""Picking aids: the markers (joint triads, centres of gravity, load arrows) shown or
hidden and selectable or not, and "hide the other parts / show them again".

The markers are drawn on top of the solids; a click on a face behind a triad
would select the joint. Unless the user asks for it ("Markers selectable", kept
in the workbench's preferences), a ``SoPickStyle`` node at the top of every
SimPhant view provider makes its markers unpickable: clicks go through them to
the faces behind. "Show markers" (also kept) shows or hides all of them; one
object's markers hide with it (Space, the Visibility property), and with the parts they
belong to: a body's centre of gravity with its shape, a joint's triads, a load's arrow and
a force element's line when none of the shapes of their bodies is shown
(``any_part_shown``; a joint to a hidden ground stays shown with its moving part).

``hide_others(doc, keep)`` hides every shown part of ``doc`` but those kept (the
objects picked, the containers and links on their selection paths, and what
they are made of) and remembers what it hid; ``show_hidden(doc)`` shows exactly
those again. Only view properties change: nothing goes on the undo stack.
"""
import FreeCAD

__all__ = ["PREFERENCES", "markers_selectable", "markers_shown", "set_markers_selectable",
           "set_markers_shown", "pick_style_node", "apply_to_view_provider", "apply_all",
           "part_shown", "any_part_shown", "hide_others", "show_hidden", "hidden_by_us"]

PREFERENCES = "User parameter:BaseApp/Preferences/Mod/SimPhant"
_SELECTABLE = "MarkersSelectable"
_SHOWN = "ShowMarkers"

#: document Name -> [Names of the objects ``hide_others`` hid]
_hidden = {}


def _params():
    return FreeCAD.ParamGet(PREFERENCES)


#: the preferences as read once (every marker refresh of a playback frame asks)
_cache = {}


def _get(key, default):
    if key not in _cache:
        _cache[key] = _params().GetBool(key, default)
    return _cache[key]


def _set(key, on):
    _params().SetBool(key, bool(on))
    _cache[key] = bool(on)
    apply_all()


def markers_selectable():
    """True when clicks may select the markers (default False: they go through)."""
    return _get(_SELECTABLE, False)


def markers_shown():
    """True when the markers are drawn (default True)."""
    return _get(_SHOWN, True)


def set_markers_selectable(on):
    _set(_SELECTABLE, on)


def set_markers_shown(on):
    _set(_SHOWN, on)


def pick_style_node():
    """A new ``SoPickStyle`` set from the preference (first child of a view provider)."""
    from pivy import coin
    node = coin.SoPickStyle()
    _set_style(node)
    return node


def _set_style(node):
    from pivy import coin
    node.style.setValue(coin.SoPickStyle.SHAPE if markers_selectable()
                        else coin.SoPickStyle.UNPICKABLE)


def apply_to_view_provider(vp):
    """Bring a view provider's pick style and markers up to the preferences."""
    node = getattr(vp, "pick_style", None)
    if node is not None:
        _set_style(node)
    vp.refresh()


def apply_all():
    """Apply the preferences to the SimPhant view providers of every open document."""
    from .following import simphant_view_providers
    for doc in FreeCAD.listDocuments().values():
        for _, vp in simphant_view_providers(doc):
            try:
                apply_to_view_provider(vp)
            except Exception:  # noqa: BLE001 - a half-made object: next refresh
                pass


def part_shown(obj):
    """Whether ``obj`` is drawn in the 3-D view: it and every container it sits in (an
    ``App::Part``, a ``PartDesign::Body``) shown. True without a view (headless)."""
    from ..document.massprops import ancestors
    for o in [obj] + ancestors(obj):
        vobj = getattr(o, "ViewObject", None)
        if vobj is not None and not vobj.Visibility:
            return False
    return True


def any_part_shown(shapes):
    """Whether a marker belonging to the parts ``shapes`` is drawn: at least one of them is
    shown (``part_shown``), or ``shapes`` is empty (a marker of no part)."""
    shapes = [s for s in shapes if s is not None]
    return not shapes or any(part_shown(s) for s in shapes)


def _related(keep):
    """Names of the objects that stay shown with ``keep`` ``[(object, subname)]``: each
    object on the selection path, its containers and what it is made of."""
    from ..document.picking import path_objects
    names = set()
    for obj, sub in keep:
        for o, _ in path_objects(obj, sub):
            if o.Document is obj.Document:
                names.add(o.Name)
                names.update(p.Name for p in o.InListRecursive)
                names.update(p.Name for p in o.OutListRecursive)
    return names


def _is_part(obj):
    """An object drawn as a part in the 3-D view (a shape, a link, a container)."""
    from ..document.base import proxy_type
    if str(proxy_type(obj)).startswith("SimPhant::"):
        return False
    return obj.isDerivedFrom("Part::Feature") or obj.isDerivedFrom("App::Link") \
        or obj.isDerivedFrom("App::Part") or obj.isDerivedFrom("Mesh::Feature")


def hide_others(doc, keep):
    """Hide every shown part of ``doc`` but ``keep`` (``[(object, subname)]`` as the
    selection gives them) and those related to it; returns the Names hidden. The list is
    kept for ``show_hidden`` (a second call adds to it)."""
    if not keep:
        from .translation import translate
        raise ValueError(translate("SimPhant", "Select the parts to keep shown first"))
    related = _related(keep)
    hidden = []
    for obj in doc.Objects:
        vobj = getattr(obj, "ViewObject", None)
        if obj.Name in related or vobj is None or not _is_part(obj) or not vobj.Visibility:
            continue
        vobj.Visibility = False
        hidden.append(obj.Name)
    mine = _hidden.setdefault(doc.Name, [])
    mine.extend(n for n in hidden if n not in mine)
    return hidden


def show_hidden(doc):
    """Show again what ``hide_others`` hid in ``doc``; returns the Names shown."""
    shown = []
    for name in _hidden.pop(doc.Name, []):
        obj = doc.getObject(name)
        if obj is not None and getattr(obj, "ViewObject", None) is not None:
            obj.ViewObject.Visibility = True
            shown.append(name)
    return shown


def hidden_by_us(doc):
    """Names of the objects of ``doc`` that ``hide_others`` hid and are not shown again."""
    return list(_hidden.get(doc.Name, []))
