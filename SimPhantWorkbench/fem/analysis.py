"""A FreeCAD FEM Analysis of one body's solid: its objects, its mesh, the tools it needs.

The analysis is made of FEM's own objects (``ObjectsFem``): an Analysis holding a
copy of the body's solid in the body's own frame (so mesh coordinates are body
coordinates, in mm), a solid material whose density gives the mesh the mass the
motion study gave the body, a second-order tetrahedral mesh (FEM's Gmsh mesher) and
a CalculiX solver (FEM's ``ccxtools``
solver object). ``tools_problem`` says what is missing on this machine.
"""
import os
import shutil

import numpy as np

import FreeCAD

from ..solver import ModelError
from ..document.base import object_label

__all__ = ["tools_problem", "build_analysis", "mesh_analysis", "default_mesh_size",
           "MESHERS", "INSTALL_HINT"]

INSTALL_HINT = ("install them with 'make setup' (Debian packages calculix-ccx and gmsh) or "
                "set their paths in FreeCAD's FEM preferences")

_PREFS = "User parameter:BaseApp/Preferences/Mod/Fem/"


def _fem_binary(group, standard_key, path_key, name):
    """The path of one of FEM's external programs as FEM looks for it, or None."""
    prefs = FreeCAD.ParamGet(_PREFS + group)
    path = prefs.GetString(path_key, "")
    if path and not prefs.GetBool(standard_key, True) and os.access(path, os.X_OK):
        return path
    return shutil.which(name)


def _has_gmsh(doc=None):
    return _fem_binary("Gmsh", "UseStandardGmshLocation", "gmshBinaryPath", "gmsh") is not None


def _make_gmsh(doc, solid_obj, size):
    import ObjectsFem
    mesh = ObjectsFem.makeMeshGmsh(doc, "Mesh")
    setattr(mesh, "Part" if "Part" in mesh.PropertiesList else "Shape", solid_obj)
    mesh.CharacteristicLengthMax = size
    mesh.CharacteristicLengthMin = 0.0
    mesh.ElementOrder = "2nd"
    mesh.ElementDimension = "3D"
    return mesh


def _run_gmsh(mesh):
    from femmesh.gmshtools import GmshTools
    return GmshTools(mesh).create_mesh()


#: the meshers, in the order they are tried: (name, available(doc), make(doc, solid
#: object, size mm) -> mesh object, run(mesh) -> error text or ""). FEM's Netgen mesher
#: is not among them: Debian's FreeCAD 0.20 registers its type but meshes nothing with it.
MESHERS = (("Gmsh", _has_gmsh, _make_gmsh, _run_gmsh),)


def _ccx_path():
    return _fem_binary("Ccx", "UseStandardCcxLocation", "ccxBinaryPath", "ccx")


def tools_problem(doc):
    """A sentence saying what FEM needs and this machine lacks (CalculiX, a mesher,
    FreeCAD's FEM module), or ``""`` when everything is there."""
    missing = []
    try:
        import ObjectsFem  # noqa: F401
        import femtools.ccxtools  # noqa: F401
    except ImportError as exc:
        return "FreeCAD's FEM workbench cannot be loaded (%s)" % exc
    if _ccx_path() is None:
        missing.append("the CalculiX solver (ccx)")
    if not any(available(doc) for _n, available, _m, _r in MESHERS):
        missing.append("the Gmsh mesher (gmsh)")
    if not missing:
        return ""
    return "Loads to FEM needs %s, not found on this machine: %s" % (
        " and ".join(missing), INSTALL_HINT)


def default_mesh_size(solid):
    """Element size [mm] preset from the part: a third of its thinnest bounding-box
    dimension, coarsened so that the part holds at most about 30 000 elements."""
    bb = solid.BoundBox
    thin = min(d for d in (bb.XLength, bb.YLength, bb.ZLength) if d > 0.0)
    cap = (solid.Volume * 6.0 * 6.0 / 30000.0) ** (1.0 / 3.0)   # ~6 tetrahedra per cube
    return float(max(thin / 3.0, cap))


def _material_card(density, youngs_modulus, poisson_ratio):
    return {"Name": "SimPhant body material", "YoungsModulus": "%.10g MPa" % youngs_modulus,
            "PoissonRatio": "%.10g" % poisson_ratio, "Density": "%.17g kg/m^3" % density}


def build_analysis(case, mesh_size=None, youngs_modulus=210000.0, poisson_ratio=0.3):
    """FEM objects for ``case`` (a ``loads.LoadCase``) in the body's document.

    Returns ``{"analysis", "solid", "material", "mesh", "solver", "mesher"}``;
    nothing is meshed or solved yet. ``youngs_modulus`` in MPa.
    """
    import ObjectsFem
    doc = case.body.Document
    mesher = next((m for m in MESHERS if m[1](doc)), None)
    if mesher is None or _ccx_path() is None:
        raise ModelError(tools_problem(doc))
    size = float(mesh_size) if mesh_size else default_mesh_size(case.solid)
    if not size > 0.0:
        raise ModelError("mesh size must be > 0 mm, got %r" % mesh_size)
    label = case.body.Label
    analysis = ObjectsFem.makeAnalysis(doc, "StressAnalysis")
    analysis.Label = "Stress %s at t = %.6g s" % (label, case.instant.time)
    solid = doc.addObject("Part::Feature", "StressSolid")
    solid.Label = "%s solid (body frame)" % label
    if FreeCAD.GuiUp:
        # hidden before it gets its shape: a visible view provider tessellates the shape
        # it is given, and the triangulation stays on the document's shape, where it
        # changes BoundBox (OCC bounds a triangulated face by its mesh); the reopened
        # document's shape has none
        solid.ViewObject.Visibility = False
    solid.Shape = case.solid
    # FreeCAD 1.x spells it makeSolverCalculiXCcxTools, 0.20 makeSolverCalculixCcxTools
    make_solver = getattr(ObjectsFem, "makeSolverCalculiXCcxTools", None) \
        or ObjectsFem.makeSolverCalculixCcxTools
    solver = make_solver(doc, "SolverCcxTools")
    solver.AnalysisType = "static"
    material = ObjectsFem.makeMaterialSolid(doc, "Material")
    material.Material = _material_card(case.density, youngs_modulus, poisson_ratio)
    mesh = mesher[2](doc, solid, size)
    for obj in (solid, solver, material, mesh):
        analysis.addObject(obj)
    return dict(analysis=analysis, solid=solid, material=material, mesh=mesh, solver=solver,
                mesher=mesher)


def mesh_analysis(case, objects):
    """Mesh the solid; set the material's density so that the mesh has the body's
    mass. Returns (nodes {id: (3,)}, volume elements {id: node ids})."""
    name, _available, _make, run = objects["mesher"]
    mesh = objects["mesh"]
    try:
        error = run(mesh)
    except Exception as exc:  # noqa: BLE001 - the mesher's own failures
        error = "%s: %s" % (type(exc).__name__, exc)
    fem_mesh = mesh.FemMesh
    if error or not fem_mesh.VolumeCount:
        raise ModelError("%s: %s could not mesh its solid: %s"
                         % (object_label(case.body), name, error or "no volume elements"))
    nodes = {int(n): np.array([v.x, v.y, v.z]) for n, v in fem_mesh.Nodes.items()}
    elements = {int(e): tuple(int(n) for n in fem_mesh.getElementNodes(e))
                for e in fem_mesh.Volumes}
    return nodes, elements
