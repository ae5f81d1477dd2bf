"""Loads to FEM (``SimPhantWorkbench.fem``): a body's loads at an instant as a CalculiX
stress analysis, checked against closed forms of elementary mechanics.

* a bar spinning about one end at constant omega: sigma(x) = rho omega^2 (L^2 - x^2) / 2;
* a pinned bar released from rest under gravity (angular acceleration only): the
  bending moment along it from the bar's statics;
* the bundled slider-crank's connecting rod at its peak wrist-pin force: the load
  set sums to zero and the shank's axial stress is the axial force over the area;
* the 3-2-1 support carries ~nothing (the loads are in equilibrium on the mesh);
* the mesh-side pieces (consistent loads, distribution, support) against their
  definitions.
"""
import math
import os

import numpy as np
import pytest

import FreeCAD
import Part

from SimPhantWorkbench import factory, runner
from SimPhantWorkbench.fem import body_loads, loads_to_fem, report_lines, tools_problem
from SimPhantWorkbench.fem import meshload
from SimPhantWorkbench.fem.loads import choose_instant
from SimPhantWorkbench.solver import ModelError

from helpers_doc import element_name, vec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
L, W = 300.0, 20.0          # the bars: 300 x 20 x 20 mm
STEEL = 7850.0

#: the placement both bars' documents are moved by: the body frame is not the world's
TILT = FreeCAD.Placement(vec(40.0, -25.0, 60.0), FreeCAD.Rotation(vec(1, 2, 3), 35.0))


def _bar_study(doc, omega=(0.0, 0.0, 0.0), gravity=0.0, hinge_axis="z", t_end=0.002):
    """A steel bar along its x, hinged to a fixed bracket on the edge of its x = 0 end
    along ``hinge_axis`` (through the origin of the bar's frame), everything moved by
    ``TILT``. Gravity along the bar frame's -z."""
    bracket = doc.addObject("Part::Box", "Bracket")
    bracket.Length = bracket.Width = bracket.Height = W
    bar = doc.addObject("Part::Box", "Bar")
    bar.Length, bar.Width, bar.Height = L, W, W
    bar.Placement = TILT
    bracket.Placement = TILT.multiply(FreeCAD.Placement(vec(-W, -W if hinge_axis == "z" else 0,
                                                            0 if hinge_axis == "z" else -W),
                                                        FreeCAD.Rotation()))
    doc.recompute()
    st = factory.make_study(doc)
    st.EndTime = t_end
    st.TimeStep = 1e-4
    st.OutputInterval = 1e-3
    st.GravityAcceleration = gravity
    st.GravityDirection = TILT.Rotation.multVec(vec(0, 0, -1))
    factory.make_body(st, bracket, fixed=True, name="Support")
    body = factory.make_body(st, bar, density=STEEL, name="Rod")
    w_local = np.array(omega, dtype=float)
    w_world = TILT.Rotation.multVec(vec(*w_local))
    cog = np.array([L / 2, W / 2, W / 2])
    v_local = np.cross(w_local, cog)            # the hinge axis passes through the origin
    body.InitialAngularVelocity = vec(*np.degrees([w_world.x, w_world.y, w_world.z]))
    body.InitialVelocity = TILT.Rotation.multVec(vec(*v_local))
    mid = (0.0, 0.0, W / 2) if hinge_axis == "z" else (0.0, W / 2, 0.0)
    p = TILT.multVec(vec(*mid))
    factory.make_joint(st, "revolute", (bracket, element_name(bracket, "Edge", p, curve="Line")),
                       (bar, element_name(bar, "Edge", p, curve="Line")), name="Hinge")
    runner.run_study(st)
    return st, body


def _mesh_nodes(report):
    mesh = [o for o in report.analysis.Group if o.Name.startswith("Mesh")][0]
    return mesh.FemMesh


def _stress_tensors(report):
    """(node coordinates (n, 3) mm body frame, stress tensors (n, 3, 3) MPa)."""
    res = report.result
    fm = _mesh_nodes(report)
    X = np.array([[fm.getNodeById(n).x, fm.getNodeById(n).y, fm.getNodeById(n).z]
                  for n in res.NodeNumbers])
    comps = [np.asarray(getattr(res, "NodeStress" + c)) for c in
             ("XX", "YY", "ZZ", "XY", "XZ", "YZ")]
    S = np.zeros((len(X), 3, 3))
    for (i, j), c in zip(((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)), comps):
        S[:, i, j] = S[:, j, i] = c
    return X, S


def _section_fit(X, sigma, origin, axis, half_width):
    """Least-squares fit sigma = a + b s1 + c s2 + d t + e t s1 + f t s2 over the
    nodes within ``half_width`` of the plane through ``origin`` normal to ``axis``:
    (a, b, c) = the value at the section's centre and its gradients across (s1, s2)."""
    axis = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    e1 = np.cross(axis, [0.0, 0.0, 1.0] if abs(axis[2]) < 0.9 else [1.0, 0.0, 0.0])
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(axis, e1)
    d = X - origin
    t = d @ axis
    sel = np.abs(t) < half_width
    s1, s2, t = d[sel] @ e1, d[sel] @ e2, t[sel]
    A = np.c_[np.ones(sel.sum()), s1, s2, t, t * s1, t * s2]
    coef = np.linalg.lstsq(A, sigma[sel], rcond=None)[0]
    return coef, e1, e2


# ----------------------------------------------------------------------------- closed forms

def test_spinning_bar_radial_stress_and_no_support_load(doc):
    """sigma_xx(x) = rho omega^2 (L^2 - x^2) / 2 (x from the axis, SI) within 3 % at L/4,
    L/2 and 3L/4; the 3-2-1 support carries <= 1e-3 of the centrifugal resultant."""
    omega = 60.0
    st, body = _bar_study(doc, omega=(0.0, 0.0, omega))
    report = loads_to_fem(st, body, 0.001, mesh_size=5.0)
    case = report.case
    assert case.joints and np.allclose(case.omega, [0, 0, omega], atol=1e-9 * omega)
    X, S = _stress_tensors(report)
    Lm = L / 1000.0
    for x in (L / 4, L / 2, 3 * L / 4):
        coef, _e1, _e2 = _section_fit(X, S[:, 0, 0], [x, W / 2, W / 2], [1, 0, 0], 6.0)
        exact = STEEL * omega ** 2 * (Lm ** 2 - (x / 1000.0) ** 2) / 2.0 / 1e6   # MPa
        assert coef[0] == pytest.approx(exact, rel=0.03), x
    resultant = case.mass * omega ** 2 * (Lm / 2)                 # m omega^2 r_G [N]
    biggest = max(np.linalg.norm(r) for r in report.reactions.values())
    assert biggest <= 1e-3 * resultant
    # FEM's own result objects: von Mises and displacements on the Analysis
    assert report.result.isDerivedFrom("Fem::FemResultObject")
    assert len(report.result.vonMises) == len(X) and max(report.result.vonMises) > 0
    assert len(report.result.DisplacementLengths) == len(X)
    assert any(o.isDerivedFrom("Fem::FemPostPipeline") for o in report.analysis.Group)
    assert report.peak_stress == pytest.approx(max(report.result.vonMises) * 1e6)
    assert report.objects and all(o.Document == doc for o in report.objects)
    assert any("peak von Mises %.6g MPa" % report.peak_stress_mpa in line
               for line in report_lines(report))


def _bar_moment(x0, alpha, g, rho, pivot):
    """Moment about the section centroid (bar frame y axis) [N m] of gravity and
    d'Alembert loads on the part x > x0 of the bar (omega = 0, alpha about y, gravity
    along -z), integrated exactly (Gauss-Legendre on a polynomial integrand)."""
    Lm, Wm = L / 1000.0, W / 1000.0
    xs, wx = np.polynomial.legendre.leggauss(4)
    centre = np.array([x0, Wm / 2, Wm / 2])
    M = 0.0
    for a, wa in zip(xs, wx):
        x = x0 + (Lm - x0) * (a + 1) / 2
        for b, wb in zip(xs, wx):
            z = Wm * (b + 1) / 2
            dV = (Lm - x0) / 2 * Wm / 2 * wa * wb * Wm     # y integrated: width W
            r = np.array([x, Wm / 2, z])
            acc = np.cross([0.0, alpha, 0.0], r - pivot)
            f = rho * (np.array([0.0, 0.0, -g]) - acc) * dV
            M += np.cross(r - centre, f)[1]
    return M


def test_bar_with_angular_acceleration_only_bending_moment(doc):
    """Released from rest (omega = 0) under gravity, hinged at the bottom edge of one end:
    alpha = m g (L/2) / I_pivot; the bending moment of the FEM stresses at L/4, L/2,
    3L/4 matches the statics of the bar's loads within 3 %."""
    g = 9.81
    st, body = _bar_study(doc, gravity=g * 1000.0, hinge_axis="y")
    report = loads_to_fem(st, body, "frame:0", mesh_size=5.0)
    case = report.case
    Lm, Wm = L / 1000.0, W / 1000.0
    alpha = case.mass * g * (Lm / 2) / (case.mass * (Lm ** 2 + Wm ** 2) / 3.0)
    assert np.linalg.norm(case.omega) < 1e-12
    assert case.alpha == pytest.approx([0.0, alpha, 0.0], rel=1e-6, abs=1e-6 * alpha)
    X, S = _stress_tensors(report)
    inertia = W ** 4 / 12.0                                           # mm^4
    for x in (L / 4, L / 2, 3 * L / 4):
        coef, e1, e2 = _section_fit(X, S[:, 0, 0], [x, W / 2, W / 2], [1, 0, 0], 6.0)
        slope_z = coef[1] * e1[2] + coef[2] * e2[2]                    # d sigma / dz, MPa/mm
        m_fem = slope_z * inertia / 1000.0                             # N m
        m_exact = _bar_moment(x / 1000.0, alpha, g, STEEL, np.zeros(3))
        assert m_fem == pytest.approx(m_exact, rel=0.03), x
    assert max(np.linalg.norm(r) for r in report.reactions.values()) \
        <= 1e-3 * case.mass * g


def test_connecting_rod_at_peak_wrist_pin_force(doc):
    """The slider-crank's rod where the wrist-pin force peaks: joint loads + inertia
    balance within 1e-6; the shank's mean axial stress at mid-length is N / A, N the
    axial force of the wrist pin and the inertia of the part beyond the section."""
    src = FreeCAD.openDocument(os.path.join(ROOT, "examples", "slider_crank.FCStd"))
    try:
        st = [o for o in src.Objects if o.Name == "Study"][0]
        st.EndTime = 0.6
        runner.run_study(st)
        rod = src.getObject("ConnectingRod")
        report = loads_to_fem(st, rod, "peak:reaction(WristPin)")
        case = report.case
        result = runner.get_result(st)
        wrist = np.linalg.norm(result.reaction_force("WristPin"), axis=1)
        assert case.instant.index == int(np.argmax(wrist))
        rel_f, rel_m, _F, _M = case.imbalance()
        assert rel_f < 1e-6 and rel_m < 1e-6
        ls = report.load_set
        size = case.solid.BoundBox.DiagonalLength
        assert np.linalg.norm(ls.force) < 1e-6 * ls.scale
        assert np.linalg.norm(ls.moment) < 1e-6 * ls.scale * size        # N mm
        assert max(np.linalg.norm(r) for r in report.reactions.values()) < 1e-3 * ls.scale
        by_name = {jl.joint.Name: jl for jl in case.joints}
        pin, wrist_load = by_name["CrankPin"], by_name["WristPin"]
        axis = wrist_load.point - pin.point
        length = np.linalg.norm(axis)
        e = axis / length
        mid = (pin.point + wrist_load.point) / 2
        # the part of the rod beyond the mid-section, towards the wrist pin
        big = 4 * case.solid.BoundBox.DiagonalLength
        half = Part.makeBox(big, big, big)
        rot = FreeCAD.Rotation(vec(0, 0, 1), vec(*e))
        half.Placement = FreeCAD.Placement(vec(*mid), rot).multiply(
            FreeCAD.Placement(vec(-big / 2, -big / 2, 0), FreeCAD.Rotation()))
        part = case.solid.common(half).Solids[0]
        m_part = case.density * part.Volume * 1e-9
        d = (np.array(part.CenterOfMass) - case.cog) / 1000.0
        inertial = m_part * (case.uniform() - np.cross(case.alpha, d)
                             - np.cross(case.omega, np.cross(case.omega, d)))
        N = e @ (wrist_load.force + inertial)
        area = 16.0 * 10.0                                     # the shank: WIDTH x THICKNESS
        X, S = _stress_tensors(report)
        s_axial = np.einsum("i,nij,j->n", e, S, e)
        centre = mid.copy()
        centre[1] = case.solid.BoundBox.Center.y              # mid-thickness of the slab
        coef, _e1, _e2 = _section_fit(X, s_axial, centre, e, 4.0)
        assert coef[0] == pytest.approx(N / area, rel=0.03)
    finally:
        FreeCAD.closeDocument(src.Name)


def test_same_stresses_in_mm_and_m_unit_schemas(doc):
    """The stresses do not depend on the units the user works in: the spinning bar
    under FreeCAD's Standard (mm) and MKS (m) unit schemas gives the same peak stress,
    in Pa, as the closed form in SI at mid-length (the two meshes are Gmsh's, which
    differ by a node or two from run to run: within 0.5 % of each other)."""
    st, body = _bar_study(doc, omega=(0.0, 0.0, 40.0))
    peaks = []
    old = FreeCAD.Units.getSchema()
    try:
        for schema in (0, 1):                   # Standard (mm, kg, s), MKS (m, kg, s)
            FreeCAD.Units.setSchema(schema)
            report = loads_to_fem(st, body, 0.0, mesh_size=6.0)
            X, S = _stress_tensors(report)
            coef, _e1, _e2 = _section_fit(X, S[:, 0, 0], [L / 2, W / 2, W / 2], [1, 0, 0], 6.0)
            peaks.append((report.case.density, coef[0] * 1e6))
    finally:
        FreeCAD.Units.setSchema(old)
    assert peaks[0][0] == pytest.approx(STEEL, rel=1e-12) and peaks[1][0] == peaks[0][0]
    assert [p[1] for p in peaks] == pytest.approx([exact_pa(40.0, L / 2)] * 2, rel=0.03)
    assert peaks[1][1] == pytest.approx(peaks[0][1], rel=5e-3)


def exact_pa(omega, x):
    """rho omega^2 (L^2 - x^2) / 2 [Pa], x [mm] from the axis, in SI."""
    return STEEL * omega ** 2 * ((L / 1000) ** 2 - (x / 1000) ** 2) / 2.0


# ----------------------------------------------------------------------------- the instant

def test_instants_time_frame_and_peak(doc):
    st, body = _bar_study(doc, gravity=9810.0, hinge_axis="y", t_end=0.05)
    result = runner.get_result(st)
    t = np.asarray(result.t)
    assert choose_instant(st, result, 0.0214).index == int(np.argmin(np.abs(t - 0.0214)))
    assert choose_instant(st, result, "t=0.03").time == pytest.approx(0.03)
    assert choose_instant(st, result, "frame:-1").index == len(t) - 1
    speed = np.linalg.norm(result.angular_velocity("Rod"), axis=1)
    assert choose_instant(st, result, "peak:angular_speed(Rod)").index == int(np.argmax(speed))
    hinge = np.linalg.norm(result.reaction_force("Hinge"), axis=1)
    assert choose_instant(st, result, "peak:reaction(Hinge)").index == int(np.argmax(hinge))
    for bad in ("frame:99999", "t=7", "peak:reaction(Nowhere)", "soon"):
        with pytest.raises(ModelError):
            choose_instant(st, result, bad)


def test_loads_in_the_body_frame_balance(doc):
    """At a later instant of the released bar (omega, alpha, a tilted frame) the joint
    load, gravity and inertia in the body frame sum to zero; the joint force on the
    bar is the result's reaction (second body) turned into the bar's axes."""
    st, body = _bar_study(doc, gravity=9810.0, hinge_axis="y", t_end=0.05)
    case = body_loads(st, body, 0.04)
    rel_f, rel_m, _F, _M = case.imbalance()
    assert rel_f < 1e-9 and rel_m < 1e-9
    result = runner.get_result(st)
    R = result.rotation_matrix("Rod")[case.instant.index]
    (jl,) = case.joints
    assert jl.force == pytest.approx(R.T @ result.reaction_force("Hinge")[case.instant.index])
    assert np.linalg.norm(case.omega) > 1.0 and np.linalg.norm(case.alpha) > 1.0
    # gravity in the bar's axes: along its -z (the documents were built that way)
    g = TILT.Rotation.multVec(vec(0, 0, -1))
    assert case.gravity / np.linalg.norm(case.gravity) == pytest.approx(
        R.T @ np.array([g.x, g.y, g.z]), abs=1e-9)


# ----------------------------------------------------------------------------- failures

def test_failed_run_leaves_the_document_as_it_was(doc, monkeypatch):
    st, body = _bar_study(doc, omega=(0.0, 0.0, 10.0))
    names = sorted(o.Name for o in doc.Objects)
    from SimPhantWorkbench.fem import handoff

    def broken(*args, **kwargs):
        raise ModelError("CalculiX failed (exit code 201): planted")
    monkeypatch.setattr(handoff, "write_and_run", broken)
    with pytest.raises(ModelError, match="planted"):
        loads_to_fem(st, body, 0.0, mesh_size=10.0)
    assert sorted(o.Name for o in doc.Objects) == names


def test_missing_calculix_is_explained(doc, monkeypatch):
    st, body = _bar_study(doc, omega=(0.0, 0.0, 10.0))
    names = sorted(o.Name for o in doc.Objects)
    monkeypatch.setenv("PATH", "/nonexistent")
    message = tools_problem(doc)
    assert "CalculiX" in message and "make setup" in message and "calculix-ccx" in message
    with pytest.raises(ModelError, match="CalculiX"):
        loads_to_fem(st, body, 0.0)
    assert sorted(o.Name for o in doc.Objects) == names


def test_fixed_body_and_other_loads_are_refused(doc):
    st, body = _bar_study(doc, omega=(0.0, 0.0, 10.0))
    with pytest.raises(ModelError, match="fixed"):
        body_loads(st, "Support", 0.0)
    factory.make_force(st, body, (0.0, 5.0, 0.0))
    runner.run_study(st)
    with pytest.raises(ModelError, match="do not balance"):
        body_loads(st, body, 0.0)


# ----------------------------------------------------------------------------- mesh side

def _tet10():
    X = np.array([[0.0, 0, 0], [3, 0, 0], [0, 2, 0], [0, 0, 4]])
    nodes = {i + 1: X[i] for i in range(4)}
    for k, (i, j) in enumerate(((0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3))):
        nodes[5 + k] = (X[i] + X[j]) / 2
    return nodes, [tuple(range(1, 11))]


def test_consistent_loads_of_a_linear_field():
    """On a straight tetrahedron the nodal loads of b0 + B (x - x0) have the field's
    exact force and moment (volume 4, centroid = mean of the corners)."""
    nodes, els = _tet10()
    b0 = np.array([1.0, -2.0, 0.5])
    B = np.array([[0.0, -3.0, 1.0], [3.0, 0.0, -2.0], [-1.0, 2.0, 0.0]])
    x0 = np.array([0.2, 0.1, 0.3])
    vol, c, f = meshload.volume_integrals(nodes, els, b0, B, x0)
    assert vol == pytest.approx(4.0) and c == pytest.approx([0.75, 0.5, 1.0])
    F, M = meshload.resultant(f, nodes, x0)
    assert F == pytest.approx(vol * (b0 + B @ (c - x0)))
    # moment: int (x - x0) x (b0 + B (x - x0)) dV, exact with the second moments
    corners = np.array([nodes[i] for i in (1, 2, 3, 4)]) - x0
    second = vol / 20.0 * (corners.T @ corners + np.outer(corners.sum(0), corners.sum(0)))
    exact = np.cross(vol * (c - x0), b0) + np.einsum("ijk,jl,kl->i", _levi(), second, B)
    assert M == pytest.approx(exact)


def _levi():
    e = np.zeros((3, 3, 3))
    e[0, 1, 2] = e[1, 2, 0] = e[2, 0, 1] = 1.0
    e[0, 2, 1] = e[2, 1, 0] = e[1, 0, 2] = -1.0
    return e


def test_distribute_reproduces_force_and_moment():
    rng = np.random.default_rng(3)
    coords = {i: rng.normal(size=3) for i in range(12)}
    weights = {i: rng.uniform(0.1, 1.0) for i in range(12)}
    F, M, p = np.array([3.0, -1.0, 2.0]), np.array([0.5, 0.2, -0.7]), np.array([1.0, 2, 3])
    f = meshload.distribute(F, M, p, coords, weights)
    got_F, got_M = meshload.resultant(f, coords, p)
    assert got_F == pytest.approx(F) and got_M == pytest.approx(M)
    line = {i: np.array([i, 0.0, 0.0]) for i in range(5)}
    with pytest.raises(ValueError, match="one line"):
        meshload.distribute(F, [1.0, 0, 0], p, line, {i: 1.0 for i in line})
    ok = meshload.distribute(F, np.cross(np.array([2.0, 0, 0]) - p, F), p, line,
                             {i: 1.0 for i in line})
    assert meshload.resultant(ok, line, p)[0] == pytest.approx(F)


def test_support_321_is_statically_determinate():
    rng = np.random.default_rng(5)
    coords = {i: rng.uniform(-1, 1, size=3) * [10, 2, 1] for i in range(1, 60)}
    rows = meshload.support_321(coords)
    assert len(rows) == 6 and len({n for n, _d in rows}) == 3
    A = np.array([meshload.rigid_rows(coords[n], d) for n, d in rows])
    assert np.linalg.matrix_rank(A) == 6


def test_fem_objects_are_the_analysis_members(doc):
    """Without running: the Analysis holds FEM's solver, material (the study's density),
    a second-order mesh of the body frame's solid; nothing else is created."""
    st, body = _bar_study(doc, omega=(0.0, 0.0, 10.0))
    before = {o.Name for o in doc.Objects}
    report = loads_to_fem(st, body, 0.0, mesh_size=10.0, run=False)
    created = {o.Name for o in doc.Objects} - before
    assert created == {o.Name for o in report.objects}
    members = report.analysis.Group
    types = sorted(o.TypeId for o in members)
    assert any("SolverCcxTools" in getattr(o.Proxy, "Type", "") for o in members
               if hasattr(o, "Proxy"))
    material = [o for o in members if hasattr(o, "Material")][0]
    density = FreeCAD.Units.Quantity(material.Material["Density"]).getValueAs("kg/m^3")
    assert float(getattr(density, "Value", density)) == pytest.approx(STEEL, rel=1e-9)
    solid = [o for o in members if o.TypeId == "Part::Feature"][0]
    bb = solid.Shape.BoundBox
    assert (bb.XMin, bb.XMax, bb.ZMax) == pytest.approx((0.0, L, W))   # the body frame
    assert report.result is None and len(types) == len(members)


# ----------------------------------------------------------------------------- command line

def test_cli_fem_writes_the_analysis_and_the_report(tmp_path):
    """``simphant fem``: the study runs first (no stored result), the document with the
    Analysis and FEM's result is written (MODEL is not), stress.json has the peak."""
    import io
    import json
    from SimPhantWorkbench.cli import main
    model = os.path.join(ROOT, "examples", "pendulum.FCStd")
    before = open(model, "rb").read()
    out, err = io.StringIO(), io.StringIO()
    code = main(["fem", model, "--body", "Pendulum", "--at", "frame:3", "--out", str(tmp_path),
                 "--mesh-size", "4"], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert "peak von Mises" in out.getvalue() and "[{" not in out.getvalue()
    data = json.load(open(tmp_path / "stress.json"))
    assert data["frame"] == 3 and data["peak_von_mises_pa"] > 0
    assert data["support_reaction_ratio"] < 1e-3
    assert open(model, "rb").read() == before
    saved = FreeCAD.openDocument(str(tmp_path / "pendulum_fem.FCStd"))
    try:
        analysis = saved.getObject(data["analysis"])
        results = [o for o in analysis.Group if o.isDerivedFrom("Fem::FemResultObject")]
        assert results and max(results[0].vonMises) * 1e6 == pytest.approx(
            data["peak_von_mises_pa"])
    finally:
        FreeCAD.closeDocument(saved.Name)


def test_cli_fem_explains_missing_calculix(tmp_path, monkeypatch):
    import io
    from SimPhantWorkbench.cli import main
    monkeypatch.setenv("PATH", "/nonexistent")
    err = io.StringIO()
    code = main(["fem", os.path.join(ROOT, "examples", "pendulum.FCStd"), "--body", "Pendulum",
                 "--at", "0.1", "--out", str(tmp_path)], stdout=io.StringIO(), stderr=err)
    assert code == 2 and "CalculiX" in err.getvalue() and "make setup" in err.getvalue()
    assert not os.listdir(tmp_path)


# ----------------------------------------------------------------------------- sweep metric

def test_sweep_metric_max_stress_per_variant(doc):
    """``max_stress(Rod, INSTANT, SIZE)`` in a parameter study: evaluated on the client for
    each variant (its own run and CalculiX analysis, removed again). Doubling the density
    doubles every load and so the stress; the document keeps no analysis."""
    from SimPhantWorkbench import sweep
    from SimPhantWorkbench.fem.metric import parse_stress_metric
    st, body = _bar_study(doc, omega=(0.0, 0.0, 50.0))
    names = sorted(o.Name for o in doc.Objects)
    table = sweep.execute(st, {"%s.Density" % body.Name: [STEEL, 2 * STEEL]},
                          {"stress": "max_stress(Rod, frame:1, 6)",
                           "hinge": "max(reaction_force(Hinge))"},
                          executor="in-process").rows
    assert [r["status"] for r in table] == ["ok", "ok"], [r["message"] for r in table]
    assert table[1]["hinge"] == pytest.approx(2 * table[0]["hinge"], rel=1e-9)
    assert table[1]["stress"] == pytest.approx(2 * table[0]["stress"], rel=0.02)
    single = loads_to_fem(st, body, "frame:1", mesh_size=6.0)     # the nominal design
    assert single.peak_stress == pytest.approx(table[0]["stress"], rel=0.02)
    assert sorted(o.Name for o in doc.Objects if o.Name not in
                  {x.Name for x in single.objects}) == names
    assert parse_stress_metric("max(speed(Rod))") is None
    with pytest.raises(ModelError, match="max_stress"):
        parse_stress_metric("max_stress(Rod)")
    bad = sweep.execute(st, {"%s.Density" % body.Name: [STEEL]},
                        {"stress": "max_stress(Rod, t=99)"}, executor="in-process").rows
    assert math.isnan(bad[0]["stress"]) and "outside its result" in bad[0]["message"]
