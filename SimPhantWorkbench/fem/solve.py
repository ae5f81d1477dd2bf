"""The load case on the mesh, written into FEM's CalculiX input, run and read back.

FEM's writer (``femtools.ccxtools``) writes the mesh, the material and a static
step; the motion loads are added to that input as CalculiX cards, because FEM's
own load objects cannot carry them (its self-weight is fixed at standard gravity
on FreeCAD 0.20, its centrifugal load needs an edge on the rotation axis, its
force an edge or face along the force):

* ``*DLOAD ... GRAV``: the uniform part ``g - a_G`` of the inertial field;
* ``*DLOAD ... CENTRIF``: ``-omega x (omega x d)`` about the axis through the CoG;
* ``*CLOAD``: the rest, ``-alpha x d``, as consistent nodal loads
  (``meshload.volume_integrals``), and each joint's force and moment spread over
  the mesh nodes of its referenced face or edge (``meshload.distribute``);
* ``*BOUNDARY``: a statically determinate 3-2-1 support (CalculiX has no inertia
  relief); its reactions are printed (``*NODE PRINT ... RF``) and read back: they
  are what the load set lacks of equilibrium on this mesh, ~0.

Then CalculiX runs (``ccx_run``) and FEM reads its results into its own result
objects (von Mises, displacements). Units: FEM's (mm, N, t, s, MPa).
"""
import contextlib
import io
import os
import re

import numpy as np

from ..solver import ModelError
from ..document.base import object_label
from ..document.references import global_element
from ..document.units import M_PER_MM
from . import meshload

__all__ = ["LoadSet", "mesh_load_set", "write_and_run", "support_reactions", "peak_stress"]

M_TO_MM = 1.0 / M_PER_MM
KG_M3_TO_T_MM3 = 1e-12
SUPPORT_SET = "SimPhantSupport"
ALL_SET = "SimPhantVolumes"


class LoadSet:
    """What goes on the mesh: ``grav`` (magnitude mm/s^2, direction) or None, ``centrif``
    (omega^2, point mm, axis) or None, ``cloads`` {node: (3,) N}, ``support``
    [(node, dof)], ``density`` (t/mm^3), ``volume`` (mm^3), and the resultant of
    everything (``force`` N, ``moment`` N mm about the CoG) and its scale (N)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def _match(elements, element, size, what):
    """The element of the meshed solid that is ``element`` (both in the body frame)."""
    tol = 1e-6 * size
    best = None
    for cand in elements:
        if element.ShapeType == "Vertex":
            d = (cand.Point - element.Point).Length
        else:
            d = (cand.CenterOfMass - element.CenterOfMass).Length
            mine, theirs = ((cand.Area, element.Area) if element.ShapeType == "Face"
                            else (cand.Length, element.Length))
            d += abs(mine - theirs) / max(theirs, 1e-300) * size
        if best is None or d < best[0]:
            best = (d, cand)
    if best is None or best[0] > tol:
        raise ModelError("%s: its element is not a face, edge or vertex of the body's solid"
                         % what)
    return best[1]


def _reference_weights(case, jl, solid_shape, fem_mesh, nodes):
    """{node: weight} of the mesh nodes of a joint's referenced element."""
    what = "%s: %s.%s" % (object_label(jl.joint), jl.ref[0].Label, jl.ref[1])
    element = global_element(*jl.ref).copy()
    element.transformShape(case.placement.inverse().toMatrix(), False, False)
    size = max(solid_shape.BoundBox.DiagonalLength, 1e-9)
    kind = element.ShapeType
    pool = {"Face": solid_shape.Faces, "Edge": solid_shape.Edges,
            "Vertex": solid_shape.Vertexes}[kind]
    mine = _match(pool, element, size, what)
    if kind == "Face":
        faces = [tuple(int(n) for n in fem_mesh.getElementNodes(f))
                 for f in fem_mesh.getFacesByFace(mine)]
        weights = meshload.surface_weights(nodes, faces) if faces else {}
    elif kind == "Edge":
        segs = [tuple(int(n) for n in fem_mesh.getElementNodes(e))
                for e in fem_mesh.getEdgesByEdge(mine)]
        weights = meshload.line_weights(nodes, segs) if segs else {}
    else:
        weights = {}
    if not weights:             # a vertex, or a mesh without surface elements there
        ids = {"Face": fem_mesh.getNodesByFace, "Edge": fem_mesh.getNodesByEdge,
               "Vertex": fem_mesh.getNodesByVertex}[kind](mine)
        weights = {int(n): 1.0 for n in ids}
    return what, weights


def mesh_load_set(case, solid_shape, fem_mesh, nodes, volumes):
    """The ``LoadSet`` of ``case`` on a mesh of its solid (coordinates: body frame, mm;
    ``volumes`` {element id: node ids})."""
    elements = list(volumes.values())
    volume, centroid, _none = meshload.volume_integrals(nodes, elements)
    density = case.mass / (volume * M_PER_MM ** 3) * KG_M3_TO_T_MM3   # the study's mass
    cog = case.cog
    u = case.uniform() * M_TO_MM
    grav = (float(np.linalg.norm(u)), u / np.linalg.norm(u)) if np.any(u) else None
    w = case.omega
    w2 = float(w @ w)
    centrif = (w2, cog, w / np.sqrt(w2)) if w2 > 0.0 else None
    # -rho alpha x (x - c) as nodal loads; the whole field (with GRAV's and CENTRIF's
    # parts, integrated as CalculiX does) for the sums and the support's own nodal loads
    _v, _c, cloads = meshload.volume_integrals(nodes, elements, None,
                                               -density * _skew(case.alpha), cog)
    Wx = _skew(w)
    _v, _c, body = meshload.volume_integrals(nodes, elements, density * u,
                                             -density * (_skew(case.alpha) + Wx @ Wx), cog)
    scale = case.mass * max(np.linalg.norm(case.uniform()), 1e-300)
    joint_loads = {}
    for jl in case.joints:
        what, weights = _reference_weights(case, jl, solid_shape, fem_mesh, nodes)
        try:
            f = meshload.distribute(jl.force, jl.moment * M_TO_MM, jl.point, nodes, weights, what)
        except ValueError as exc:
            raise ModelError(str(exc)) from None
        for n, fi in f.items():
            joint_loads[n] = joint_loads.get(n, 0.0) + fi
        scale = max(scale, float(np.linalg.norm(jl.force)))
    for n, fi in joint_loads.items():
        cloads[n] = cloads.get(n, 0.0) + fi
        body[n] = body.get(n, 0.0) + fi
    F, M = meshload.resultant(body, nodes, cog)       # of everything on this mesh
    support = meshload.support_321(nodes)
    return LoadSet(grav=grav, centrif=centrif, cloads=cloads, support=support,
                   applied={n: body.get(n, np.zeros(3)) for n, _d in support},
                   density=density, volume=volume, force=F, moment=M, scale=scale,
                   mass=density * volume, centroid=centroid, node_count=len(nodes),
                   element_count=len(elements), element_ids=sorted(volumes))


def _skew(v):
    """The matrix of ``v x``."""
    return np.array([[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]])


def _cards(ls, title):
    """(model lines, step lines) of the load set."""
    model = ["** %s" % title, "*NSET,NSET=%s" % SUPPORT_SET]
    model += ["%d," % n for n in sorted({n for n, _d in ls.support})]
    model.append("*ELSET,ELSET=%s" % ALL_SET)
    model += ["%d," % e for e in ls.element_ids]
    step = ["** %s" % title]
    if ls.grav is not None:
        g, e = ls.grav
        step += ["*DLOAD", "%s,GRAV,%.13G,%.13G,%.13G,%.13G" % (ALL_SET, g, e[0], e[1], e[2])]
    if ls.centrif is not None:
        w2, p, a = ls.centrif
        step += ["*DLOAD", "%s,CENTRIF,%.13G,%.13G,%.13G,%.13G,%.13G,%.13G,%.13G"
                 % (ALL_SET, w2, p[0], p[1], p[2], a[0], a[1], a[2])]
    if ls.cloads:
        step.append("*CLOAD")
        for n in sorted(ls.cloads):
            for k in range(3):
                step.append("%d,%d,%.13G" % (n, k + 1, ls.cloads[n][k]))
    step.append("*BOUNDARY")
    step += ["%d,%d,%d,0" % (n, d + 1, d + 1) for n, d in ls.support]
    step += ["*NODE PRINT,NSET=%s" % SUPPORT_SET, "RF"]
    return model, step


def _insert_cards(path, model, step, density):
    with open(path) as fh:
        text = fh.read()
    i = text.find("\n*STEP")
    j = text.rfind("\n*END STEP")
    if i < 0 or j < 0 or j < i:
        raise ModelError("FEM's CalculiX input %s has no step to add the loads to" % path)
    if re.search(r"^\*DENSITY", text, re.M | re.I) is None:
        # FEM writes the density only for its own gravity and centrifugal loads
        mat = re.search(r"^\*MATERIAL.*\n", text, re.M | re.I)
        if mat is None:
            raise ModelError("FEM's CalculiX input %s has no material" % path)
        card = "*DENSITY\n%.13G\n" % density
        text = text[:mat.end()] + card + text[mat.end():]
        i += len(card) if mat.end() <= i else 0
        j += len(card) if mat.end() <= j else 0
    text = (text[:i + 1] + "\n".join(model) + "\n" + text[i + 1:j + 1] + "\n".join(step)
            + "\n" + text[j + 1:])
    with open(path, "w") as fh:
        fh.write(text)


def write_and_run(objects, ls, workdir, title):
    """Write FEM's input with the load set's cards into ``workdir``, run CalculiX and
    load its results into the analysis. Returns the ``.dat`` path."""
    from femtools import ccxtools
    fea = ccxtools.FemToolsCcx(objects["analysis"], objects["solver"])
    fea.update_objects()
    fea.setup_working_dir(workdir)
    with contextlib.redirect_stdout(io.StringIO()):      # FEM's writer prints its sets
        fea.write_inp_file()
    if not fea.inp_file_name:
        raise ModelError("FEM could not write the CalculiX input")
    model, step = _cards(ls, title)
    _insert_cards(fea.inp_file_name, model, step, ls.density)
    code = fea.ccx_run()
    if code != 0:
        tail = (getattr(fea, "ccx_stdout", "") or "").strip().splitlines()[-8:]
        raise ModelError("CalculiX failed (exit code %s): %s" % (code, " / ".join(tail)))
    fea.load_results()
    _pipeline(objects["analysis"])
    return os.path.splitext(fea.inp_file_name)[0] + ".dat"


def _pipeline(analysis):
    """FEM's post-processing pipeline of the result, shown as von Mises stress (FreeCAD
    1.x's result import makes it; on 0.20 it is made here as 1.x makes it)."""
    import FreeCAD
    import ObjectsFem
    members = analysis.Group
    results = [o for o in members if o.isDerivedFrom("Fem::FemResultObject")]
    pipes = [o for o in members if o.isDerivedFrom("Fem::FemPostPipeline")]
    if not results:
        return
    if not pipes:
        pipes = [ObjectsFem.makePostVtkResult(analysis.Document, results[-1], "StressResult")]
        analysis.addObject(pipes[0])
        pipes[0].recompute()
    if FreeCAD.GuiUp:
        view = pipes[0].ViewObject
        try:
            view.DisplayMode = "Surface"
            view.Field = "von Mises Stress"
        except Exception as exc:  # noqa: BLE001 - a field FEM names otherwise: shown as is
            FreeCAD.Console.PrintLog("SimPhant: FEM pipeline display: %s\n" % exc)


_NUMBER = r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?"
_ROW = re.compile(r"^\s*(\d+)\s+(%s)\s+(%s)\s+(%s)\s*$" % (_NUMBER, _NUMBER, _NUMBER))


def support_reactions(dat_path, ls):
    """{node: (3,) N}: the forces the 3-2-1 support exerts, on its constrained
    directions: CalculiX's printed RF (a node's internal force) less the load the
    node carries itself (``ls.applied``)."""
    rf = {}
    reading = False
    with open(dat_path) as fh:
        for line in fh:
            if line.strip().lower().startswith("forces (fx,fy,fz) for set %s"
                                               % SUPPORT_SET.lower()):
                reading = True
                rf = {}
                continue
            m = _ROW.match(line)
            if reading and m:
                rf[int(m.group(1))] = np.array([float(m.group(k)) for k in (2, 3, 4)])
            elif reading and line.strip() and not m:
                reading = False
    out = {n: np.zeros(3) for n, _d in ls.support}
    for n, d in ls.support:
        if n not in rf:
            raise ModelError("CalculiX printed no reaction for support node %d" % n)
        out[n][d] = rf[n][d] - ls.applied[n][d]
    return out


def peak_stress(result_obj):
    """(von Mises [MPa], node id) of the largest nodal von Mises stress of a FEM result."""
    vm = np.asarray(result_obj.vonMises, dtype=float)
    if not len(vm):
        raise ModelError("CalculiX's result has no stresses")
    k = int(np.argmax(vm))
    return float(vm[k]), int(result_obj.NodeNumbers[k])
