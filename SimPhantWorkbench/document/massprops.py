"""Global geometry and mass properties of FreeCAD document objects.

FreeCAD works in mm, kg and s; everything returned here that is not a
``Part.Shape`` is SI (m, kg, kg*m^2, kg/m^3).

Supported objects: ``Part::Feature`` and its subclasses (``Part::FeaturePython``,
``PartDesign::Body``, ...), ``App::Part`` containers (their visible shape
objects, recursively), ``App::Link`` (to any of these, to links, link arrays),
and any of these nested inside ``App::Part``/``PartDesign::Body`` containers
at any depth.

How global coordinates are obtained (same on FreeCAD 0.20 and 1.x):
``Part.getShape(obj, mat=M)`` gives ``obj``'s shape with its own placement
(for a link: the link's placement and scale) pre-multiplied by ``M``; ``M`` is
the product of the placements of the containers ``obj`` sits in, found with
``getParentGeoFeatureGroup()`` (see ``container_matrix``).
``GeoFeature.getGlobalPlacement()`` would do the same for GeoFeatures, but
``App::Link`` is not a GeoFeature on 0.20 and has no such method.
"""
import contextlib
import math
from collections import namedtuple

import numpy as np

import FreeCAD
import Part

from ..solver.errors import ModelError

__all__ = ["MassProperties", "DEFAULT_DENSITY", "solid_property_cache", "ancestors", "container_placement",
           "container_matrix", "global_shape",
           "shape_at", "solid_pieces", "material_density", "mass_properties", "principal_frame"]

DEFAULT_DENSITY = 7850.0
"""Density [kg/m^3] used when an object has no material (structural steel)."""

# FreeCAD 1.x gives every Part::Feature this material card ("Default",
# Mod/Material/Resources/Materials/Standard/Default.FCMat) as its ShapeMaterial.
# Its density of 1 kg/m^3 is a placeholder, not a material choice.
FREECAD_DEFAULT_MATERIAL_UUID = "7f9fd73b-50c9-41d8-b7b2-575a030c1eeb"

M_PER_MM = 1e-3
M3_PER_MM3 = 1e-9
M5_PER_MM5 = 1e-15  # unit-density inertia (length^5)

_MAX_DEPTH = 64  # nesting limit of containers and links (guards against cycles)

MassProperties = namedtuple("MassProperties", [
    "mass",               # kg
    "volume",             # m^3
    "density",            # kg/m^3 (mass / volume when parts differ)
    "density_source",     # "override-mass" | "argument" | "material" | "default"
    "cog",                # (3,) m, world
    "inertia",            # (3, 3) kg*m^2 about the CoG, world axes
    "principal_moments",  # (3,) kg*m^2, ascending
    "principal_axes",     # (3, 3) columns = principal axes (world), det +1
    "label",              # the object's Label
])


# --------------------------------------------------------------------------- geometry

def ancestors(obj):
    """Containers (``App::Part``, ``PartDesign::Body``) ``obj`` sits in, innermost first."""
    out = []
    parent = obj.getParentGeoFeatureGroup()
    while parent is not None and len(out) < _MAX_DEPTH:
        out.append(parent)
        parent = parent.getParentGeoFeatureGroup()
    return out


def container_placement(obj):
    """Global placement of the containers ``obj`` sits in: maps coordinates of its
    parent to world coordinates; identity for a top-level object."""
    pl = FreeCAD.Placement()
    for parent in ancestors(obj):
        pl = parent.Placement.multiply(pl)
    return pl


def container_matrix(obj):
    """Placement of the containers ``obj`` is nested in, as one matrix.

    Parameters
    ----------
    obj : App.DocumentObject
        Any document object.

    Returns
    -------
    FreeCAD.Matrix
        ``P_outer * ... * P_parent`` (mm): maps coordinates of ``obj``'s
        parent container (``App::Part``, ``PartDesign::Body``) to world
        coordinates. Identity for top-level objects.
    """
    return container_placement(obj).toMatrix()


def global_shape(obj):
    """The shape of a document object in global coordinates.

    Parameters
    ----------
    obj : App.DocumentObject
        ``Part::Feature`` (and subclasses), ``PartDesign::Body`` (its Tip),
        ``App::Part`` (the compound of its visible shape objects),
        ``App::Link``; possibly nested in containers.

    Returns
    -------
    Part.Shape
        The shape in world coordinates [mm]. It may hold no solid (a sketch
        gives wires); ``mass_properties`` checks for solids.

    Raises
    ------
    ModelError
        The object has no shape or an empty one (meshes, empty features,
        empty containers).
    """
    shape = shape_at(obj, "", container_matrix(obj))
    if shape.isNull():
        raise ModelError(_no_shape_message(obj))
    return shape


def solid_pieces(obj):
    """The shape objects an object is made of, each with its global shape.

    A ``Part::Feature`` (a ``PartDesign::Body`` included) is one piece; an
    ``App::Part`` or a link to one contributes its visible children,
    recursively; a link array one piece per visible element. Visibility is
    what ``Part.getShape`` uses too: the inputs of a boolean inside an
    ``App::Part`` count unless hidden (the GUI hides them; scripts must).

    Parameters
    ----------
    obj : App.DocumentObject

    Returns
    -------
    list of (App.DocumentObject, Part.Shape)
        The piece's own object (links resolved: the object that holds the
        geometry and the material) and its shape in world coordinates [mm].
        Shapes may hold no solid.
    """
    mat = container_matrix(obj)
    pieces = []
    _collect_pieces(obj, "", mat, pieces, 0)
    return pieces


def shape_at(root, sub, mat, element=False):
    """``Part.getShape`` of ``root``'s sub-object ``sub`` pre-multiplied by ``mat``.

    Parameters
    ----------
    root : App.DocumentObject
    sub : str
        Dotted sub-object path (``"Inner.Box."``), an element path
        (``"Box.Face3"``, with ``element=True``) or ``""`` for ``root`` itself.
    mat : FreeCAD.Matrix
        Placement of ``root``'s containers (``container_matrix(root)``).
    element : bool
        Return the named sub-element instead of the whole sub-object.

    Returns
    -------
    Part.Shape
        World coordinates [mm]; a null shape when nothing matches.
    """
    if not sub:  # no subname argument at all, rather than an empty one
        return Part.getShape(root, mat=mat)
    return Part.getShape(root, sub, needSubElement=element, mat=mat)


def _collect_pieces(root, sub, mat, pieces, depth):
    """Append (object, shape) of ``root``'s sub-object ``sub`` to ``pieces``."""
    if depth > _MAX_DEPTH:
        raise ModelError("'%s': containers or links nested deeper than %d levels (a cycle?)"
                         % (root.Label, _MAX_DEPTH))
    node = root.getSubObject(sub, 1) if sub else root
    if node is None:
        return
    target = node.getLinkedObject(True)
    if target.isDerivedFrom("Part::Feature"):
        pieces.append((target, shape_at(root, sub, mat)))
        return
    for child in node.getSubObjects():
        if _is_visible(node, child):
            _collect_pieces(root, sub + child, mat, pieces, depth + 1)


def _is_visible(node, child):
    """Whether ``node`` shows its child ``child`` ("Name." form), as Part.getShape decides."""
    name = child.rstrip(".")
    visible = node.isElementVisible(name)
    if visible >= 0:
        return bool(visible)
    child_obj = node.getSubObject(child, 1)
    return child_obj is not None and bool(getattr(child_obj, "Visibility", True))


def _no_shape_message(obj):
    type_id = obj.getLinkedObject(True).TypeId
    if type_id.startswith(("Mesh::", "Points::")):
        return ("'%s' is a mesh or point cloud (%s), not a solid: convert it to a solid first "
                "(Part > Create shape from mesh, then Convert to solid)" % (obj.Label, type_id))
    return "'%s' (%s) has no shape or an empty shape" % (obj.Label, type_id)


# --------------------------------------------------------------------------- density

def material_density(obj):
    """Density of the material assigned to an object, if FreeCAD has one.

    Sources, first found wins:

    1. FreeCAD 1.x: ``ShapeMaterial`` (``Materials::PropertyMaterial``) of a
       ``Part::Feature``, unless it is FreeCAD's placeholder "Default" card.
    2. Arch/BIM convention (0.20 and 1.x): a ``Material`` link property to a
       material object whose ``Material`` dictionary has a "Density".
    3. FEM convention (0.20 and 1.x): a material object (``Material``
       dictionary) whose ``References`` name this object.

    FreeCAD 0.20 has no material on plain ``Part::Feature`` objects
    (its ``ViewObject.ShapeMaterial`` is appearance only).

    Parameters
    ----------
    obj : App.DocumentObject
        Links are followed to the linked object.

    Returns
    -------
    float or None
        Density [kg/m^3], or None when no material density is found.

    Raises
    ------
    ModelError
        A material gives a density that is not a positive density quantity.
    """
    obj = obj.getLinkedObject(True)
    for finder in (_shape_material_density, _linked_material_density, _fem_material_density):
        found = finder(obj)
        if found is not None:
            value, where = found
            return _density_value(value, obj, where)
    return None


def _shape_material_density(obj):
    """FreeCAD 1.x ``ShapeMaterial``: (value, description) or None.

    Read from the card's ``PhysicalProperties`` (text with its unit), which leaves the
    part as it is: FreeCAD 1.0's ``getPhysicalValue`` marks the object owning the
    material Touched, after which every recompute reports it "still touched". It is the
    fallback only, and its mark is taken back (``_untouched_read``).
    """
    if "ShapeMaterial" not in obj.PropertiesList:
        return None
    if not obj.getTypeIdOfProperty("ShapeMaterial").startswith("Materials::"):
        return None  # not 1.x's physical material (0.20's App::PropertyMaterial is appearance)
    material = obj.ShapeMaterial
    if getattr(material, "UUID", "") == FREECAD_DEFAULT_MATERIAL_UUID:
        return None
    value = getattr(material, "PhysicalProperties", {}).get("Density")
    if value in (None, ""):
        value = _untouched_read(obj, lambda: material.getPhysicalValue("Density"))
    if value in (None, ""):
        return None
    return value, "material '%s'" % getattr(material, "Name", "?")


def _untouched_read(obj, read):
    """``read()`` (None when it raises), leaving ``obj`` untouched when it was."""
    touched = "Touched" in obj.State
    try:
        return read()
    except Exception:  # noqa: BLE001 - older 1.x raise for a missing property
        return None
    finally:
        if not touched and "Touched" in obj.State:
            obj.purgeTouched()


def _linked_material_density(obj):
    """Arch/BIM ``Material`` link: (value, description) or None."""
    material = getattr(obj, "Material", None)
    if material is None or not hasattr(material, "TypeId"):
        return None
    card = getattr(material, "Material", None)
    if isinstance(card, dict) and card.get("Density"):
        return card["Density"], "material '%s'" % material.Label
    return None


def _fem_material_density(obj):
    """FEM material objects whose ``References`` include ``obj``."""
    found = []
    for user in obj.InList:
        card = getattr(user, "Material", None)
        refs = getattr(user, "References", None)
        if not isinstance(card, dict) or not card.get("Density") or not refs:
            continue
        if any(_ref_object(ref) is obj for ref in refs):
            found.append((card["Density"], "material '%s'" % user.Label))
    if len({str(v) for v, _ in found}) > 1:
        raise ModelError("'%s' has several FEM materials with different densities (%s); "
                         "give the density explicitly"
                         % (obj.Label, ", ".join(w for _, w in found)))
    return found[0] if found else None


def _ref_object(ref):
    return ref[0] if isinstance(ref, tuple) else ref


def _density_value(value, obj, where):
    """Convert a material density (Quantity, number or text) to kg/m^3."""
    try:
        quantity = value if isinstance(value, FreeCAD.Units.Quantity) \
            else FreeCAD.Units.Quantity(str(value))
    except Exception:
        raise ModelError("'%s': the density %r of %s is not a quantity"
                         % (obj.Label, value, where)) from None
    if quantity.Unit == FreeCAD.Units.Quantity("1 kg/m^3").Unit:
        density = float(quantity.getValueAs("kg/m^3"))
    elif quantity.Unit == FreeCAD.Units.Unit():
        density = float(quantity.Value)  # a bare number: taken as kg/m^3
    else:
        raise ModelError("'%s': the density '%s' of %s is not a density (kg/m^3)"
                         % (obj.Label, value, where))
    if not (math.isfinite(density) and density > 0.0):
        raise ModelError("'%s': %s has a non-positive density (%s)" % (obj.Label, where, value))
    return density


# --------------------------------------------------------------------------- mass properties

def mass_properties(obj, density=None, mass=None):
    """Mass, centre of gravity and inertia of a document object's solids.

    Parameters
    ----------
    obj : App.DocumentObject
        Anything ``global_shape`` accepts. Every solid of every visible piece
        counts (overlapping solids of a compound count twice).
    density : float, optional
        Density [kg/m^3] of all solids. Default: each piece's material density
        (``material_density``), else ``DEFAULT_DENSITY``.
    mass : float, optional
        Total mass [kg]; overrides ``density`` (density = mass / volume).

    Returns
    -------
    MassProperties
        SI values in world coordinates. The inertia is
        ``I = sum_i rho_i (J_i + V_i (|d_i|^2 E - d_i d_i^T))`` with ``J_i`` the
        unit-density inertia of solid ``i`` about its own centroid
        (``Shape.MatrixOfInertia``, world axes) and ``d_i`` its centroid
        relative to the common CoG (parallel-axis theorem).
        ``density_source`` is "default" when any piece fell back to
        ``DEFAULT_DENSITY`` (the caller should warn).

    Raises
    ------
    ModelError
        No shape, no solid, zero or non-finite volume, non-positive density or
        mass; the message names the object by its Label.
    """
    label = obj.Label
    _check_positive(density, "density", "kg/m^3", label)
    _check_positive(mass, "mass", "kg", label)
    parts = _solid_parts(obj)  # [(volume m^3, centroid m, J m^5, piece object)]
    volume = sum(p[0] for p in parts)
    if not (math.isfinite(volume) and volume > 0.0):
        raise ModelError("'%s' has zero or non-finite volume (%g m^3)" % (label, volume))
    rhos, source = _densities(parts, density, mass, volume)
    total, cog, inertia = _combine(parts, rhos)
    moments, axes = principal_frame(inertia)
    return MassProperties(total, volume, total / volume, source, cog, inertia,
                          moments, axes, label)


def _check_positive(value, what, unit, label):
    if value is not None and not (math.isfinite(value) and value > 0.0):
        raise ModelError("'%s': %s must be positive and finite, got %r %s"
                         % (label, what, value, unit))


def _solid_parts(obj):
    """Per-solid SI properties at unit density: (V [m^3], c [m], J [m^5], piece)."""
    pieces = solid_pieces(obj)
    parts = []
    for piece, shape in pieces:
        if shape.isNull():
            continue
        for index, solid in enumerate(shape.Solids, start=1):
            parts.append(_solid_part(solid, piece, index))
    if not parts:
        raise ModelError(_no_solid_message(obj, pieces))
    return parts


#: while ``solid_property_cache`` is active: {location matrix: [(solid, (V, c, J))]}
_solid_memo = None
#: the solids the latest conversions integrated, kept across them (``_solid_part``): a
#: list of (location matrix, solid, (V, c, J)), the most recently used last, at most
#: ``LASTING_SOLIDS`` long
_lasting = []
LASTING_SOLIDS = 256


@contextlib.contextmanager
def solid_property_cache():
    """Within the block, each solid's unit-density volume, centroid and inertia are
    integrated once and reused while the solid is unchanged.

    A parameter study converts the same study many times; solids that no
    variant changes need not be integrated again (OCC's volume integrals are
    the bulk of a conversion). A solid counts as unchanged when it shares its
    OCC geometry (``isPartner``: the same TShape) and has the same location;
    the cache holds the solids it has seen, so no new shape can take the
    identity of a freed one. Nested blocks share the outer cache.
    """
    global _solid_memo
    outer = _solid_memo
    if outer is None:
        _solid_memo = {}
    try:
        yield
    finally:
        if outer is None:
            _solid_memo = None


def _seen(memo, key, solid):
    for seen, props in memo.get(key, ()):
        if seen.isPartner(solid):
            return props
    return None


def _remembered(key, solid):
    """The properties of ``solid`` from ``_lasting`` (moved to its end), or None."""
    for i, (k, seen, props) in enumerate(_lasting):
        if k == key and seen.isPartner(solid):
            _lasting.append(_lasting.pop(i))
            return props
    return None


def _solid_part(solid, piece, index):
    """The solid's unit-density properties: from the run's cache, else from the last
    ``LASTING_SOLIDS`` solids integrated (so that Solve after Solve does not integrate an
    unchanged filleted part again: OCC's integrals over its faces are what a conversion on
    the GUI thread costs), else integrated. Same rule as ``solid_property_cache``: the
    same TShape at the same location, the solid held while it is remembered."""
    key = tuple(solid.Placement.toMatrix().A)
    memo = _solid_memo
    props = _seen(memo, key, solid) if memo is not None else None
    if props is None:
        props = _remembered(key, solid)
        if props is None:
            props = _solid_integrals(solid, piece, index)
            _lasting.append((key, solid, props))
            del _lasting[:max(0, len(_lasting) - LASTING_SOLIDS)]
        if memo is not None:
            memo.setdefault(key, []).append((solid, props))
    return props + (piece,)


def _solid_integrals(solid, piece, index):
    volume = solid.Volume
    if not (math.isfinite(volume) and volume > 0.0):
        raise ModelError("Solid%d of '%s' has %s volume (%g mm^3): the solid is degenerate or "
                         "inside out" % (index, piece.Label,
                                         "a negative" if volume < 0 else "zero or non-finite",
                                         volume))
    centroid = np.array(solid.CenterOfMass, dtype=float)
    moi = solid.MatrixOfInertia
    unit_inertia = np.array([[moi.A[4 * i + j] for j in range(3)] for i in range(3)])
    return volume * M3_PER_MM3, centroid * M_PER_MM, unit_inertia * M5_PER_MM5


def _no_solid_message(obj, pieces):
    shapes = [(piece, shape) for piece, shape in pieces if not shape.isNull()]
    if not shapes:
        return _no_shape_message(obj)
    if len(shapes) == 1 and shapes[0][0] == obj.getLinkedObject(True):
        found = "its shape is a %s" % shapes[0][1].ShapeType
    else:
        found = "its shapes are " + ", ".join("'%s' (%s)" % (piece.Label, shape.ShapeType)
                                              for piece, shape in shapes)
    return ("'%s' has no solid: %s. A body needs closed solid geometry (sketches, wires, "
            "faces and shells have no volume)" % (obj.Label, found))


def _densities(parts, density, mass, volume):
    """Density [kg/m^3] of each solid and the overall density source."""
    if mass is not None:
        return [mass / volume] * len(parts), "override-mass"
    if density is not None:
        return [float(density)] * len(parts), "argument"
    by_piece = {}
    rhos = []
    for _, _, _, piece in parts:
        key = id(piece)
        if key not in by_piece:
            by_piece[key] = material_density(piece)
        rhos.append(by_piece[key])
    source = "default" if any(r is None for r in rhos) else "material"
    return [DEFAULT_DENSITY if r is None else r for r in rhos], source


def _combine(parts, rhos):
    """Total mass [kg], CoG [m] and inertia about the CoG [kg m^2] of the solids."""
    masses = np.array([rho * p[0] for p, rho in zip(parts, rhos)])
    centroids = np.array([p[1] for p in parts])
    total = float(masses.sum())
    cog = masses @ centroids / total
    inertia = np.zeros((3, 3))
    for (vol, centroid, unit_j, _), rho, m in zip(parts, rhos, masses):
        d = centroid - cog
        inertia += rho * unit_j + m * (d @ d * np.eye(3) - np.outer(d, d))
    return total, cog, 0.5 * (inertia + inertia.T)


def principal_frame(inertia):
    """Principal moments and axes of a symmetric 3x3 inertia tensor.

    Parameters
    ----------
    inertia : (3, 3) array_like
        Inertia tensor [kg m^2] in world axes.

    Returns
    -------
    moments : (3,) ndarray
        Principal moments [kg m^2], ascending.
    axes : (3, 3) ndarray
        Columns are the unit principal axes in world coordinates, a
        right-handed frame (det +1). Signs are made deterministic: the
        largest component of the first two axes is positive.
    """
    moments, axes = np.linalg.eigh(np.asarray(inertia, dtype=float))
    for k in range(2):
        if axes[np.argmax(np.abs(axes[:, k])), k] < 0.0:
            axes[:, k] = -axes[:, k]
    axes[:, 2] = np.cross(axes[:, 0], axes[:, 1])
    return moments, axes
