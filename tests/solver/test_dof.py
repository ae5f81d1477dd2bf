"""DOF report (solver/dof.py): Gruebler count against the rank of Phi_q, redundant
equations by joint, joint kinds that remove them, singular, locked and over-driven
mechanisms."""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.solver import dof as dofmod
from SimPhantWorkbench.solver.zoo import bricard, four_bar



def _with_kinds(model, kinds):
    """A copy of ``model`` with some joints' kinds replaced (same frames)."""
    m = Model(gravity=model.gravity)
    for b in model.bodies:
        m.add_body(b.name, mass=b.mass, inertia=b.moments, position=b.position,
                   orientation=b.A_principal)
    for j in model.joints:
        m.add_joint(kinds.get(j.name, j.kind), j.body1.name if not j.body1.is_ground else
                    m.ground, j.body2.name if not j.body2.is_ground else m.ground,
                    frame1=j.frame1, frame2=j.frame2, name=j.name)
    return m


def _rod(m, name, P, Q):
    P, Q = np.asarray(P, float), np.asarray(Q, float)
    return m.add_body(name, mass=1.0, inertia=(1e-3, 0.1, 0.1), position=0.5 * (P + Q))


def test_four_bar_redundant_named_by_joint_and_fixed_by_suggestion():
    m, _, joints = four_bar()
    r = m.dof_report(name="FourBar")
    assert (r.bodies, r.equations, r.gruebler) == (3, 20, -2)
    assert (r.rank, r.mobility, r.redundant) == (17, 1, 3)
    assert not r.singular and not r.locked and not r.over_driven
    assert len(r.redundant_rows) == 3
    names = {j.name for j in joints}
    assert all(j in names for j, _ in r.redundant_rows)
    text = str(r)
    assert text.startswith("FourBar: mobility 1") and "3 redundant equations" in text
    for j, row in r.redundant_rows:
        assert "%s rows" % j in text and row in text
    # the suggested kinds remove exactly the redundant equations, keeping mobility 1
    assert r.suggestions
    kinds = {j: new for j, _old, new, _f in r.suggestions}
    # fewest changes: one joint made spherical (2 rows), one cylindrical (1 row)
    # (the change removing the most redundant rows first)
    assert [new for _j, _o, new, _f in r.suggestions] == ["spherical", "cylindrical"]
    fixed = _with_kinds(m, kinds).dof_report()
    assert (fixed.mobility, fixed.redundant) == (1, 0)
    assert fixed.equations == 17
    assert "suggestion: replace %s (revolute) by a" % r.suggestions[0][0] in text
    # the report says redundant rows are harmless to the motion and the change optional
    lines = dict(dofmod.report_lines(r.to_dict()))
    assert "handled by the solver: the motion is not affected" in lines["redundant"]
    assert lines["suggestion"].endswith("optional: for determinate reactions")
    d = r.to_dict()
    assert d["mobility"] == 1 and d["gruebler"] == -2 and d["redundant"] == 3
    assert len(d["redundant_rows"]) == 3 and d["suggestions"][0]["frees"]


def test_bricard_mobility_one_with_gruebler_zero():
    m, _, _ = bricard()
    r = m.dof_report()
    assert (r.gruebler, r.rank, r.equations, r.mobility, r.redundant) == (0, 29, 30, 1, 1)
    assert not r.singular and not r.warnings
    assert len(r.redundant_rows) == 1 and r.redundant_rows[0][0].startswith("J")
    fixed = _with_kinds(m, {j: n for j, _o, n, _f in r.suggestions}).dof_report()
    assert (fixed.mobility, fixed.redundant) == (1, 0)


def test_report_leaves_the_system_unchanged():
    m, _, _ = four_bar()
    system = m.compile()
    red, S = system.redundant.copy(), system.S
    r = system.dof_report()
    assert r.mobility == 1
    assert system.S is S and np.array_equal(system.redundant, red)


def test_free_body_and_tree():
    m = Model()
    m.add_body("free", mass=1.0, inertia=(1, 1, 1))
    r = m.dof_report()
    assert (r.gruebler, r.mobility, r.redundant, r.rank) == (6, 6, 0, 0)
    m = Model()
    a = _rod(m, "a", (0, 0, 0), (1, 0, 0))
    b = _rod(m, "b", (1, 0, 0), (2, 0, 0))
    m.add_joint("revolute", m.ground, a, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint("spherical", a, b, point=(1, 0, 0))
    r = m.dof_report()
    assert (r.gruebler, r.mobility, r.redundant) == (4, 4, 0)
    assert not r.warnings and "redundant" not in str(r)


def test_locked_mechanism():
    """A rod hinged to ground about y at one end and about x at the other: no motion."""
    m = Model()
    a = _rod(m, "a", (0, 0, 0), (1, 0, 0))
    m.add_joint("revolute", m.ground, a, point=(0, 0, 0), axis=(0, 1, 0), name="H1")
    m.add_joint("revolute", a, m.ground, point=(1, 0, 0), axis=(0, 0, 1), name="H2")
    r = m.dof_report()
    assert r.mobility == 0 and r.locked
    assert r.gruebler == -4 and r.redundant == 4
    assert any(w.startswith("locked") for w in r.warnings)
    assert "locked" in str(r)


def _closed_chain(gap):
    """Two unit rods from ground point A = (0,0,0) to ground point C = (gap,0,0), all
    revolutes about y; gap = 2 is the full stretch (straight, singular)."""
    m = Model()
    h = math.sqrt(max(1.0 - (gap / 2) ** 2, 0.0))
    B = (gap / 2, 0.0, h)
    a = _rod(m, "a", (0, 0, 0), B)
    b = _rod(m, "b", B, (gap, 0, 0))
    y = (0, 1, 0)
    m.add_joint("revolute", m.ground, a, point=(0, 0, 0), axis=y, name="A")
    m.add_joint("revolute", a, b, point=B, axis=y, name="B")
    m.add_joint("revolute", b, m.ground, point=(gap, 0, 0), axis=y, name="C")
    return m


def test_singular_configuration_chain_at_full_stretch():
    r = _closed_chain(2.0).dof_report()
    assert r.singular
    assert r.rank == 11 and r.rank_nearby == 12 and r.mobility == 1
    assert any("singular configuration" in w for w in r.warnings)
    # the same chain bent is a rigid triangle: locked, regular
    r = _closed_chain(1.2).dof_report()
    assert not r.singular and r.rank == 12 and r.mobility == 0 and r.locked
    assert not any("singular" in w for w in r.warnings)


def test_near_singular_configuration():
    """Bent by 5e-7 rad from the full stretch: regular, but close to singular."""
    r = _closed_chain(2.0 - 1e-13).dof_report(assemble=False)
    assert not r.singular and r.rank == 12
    assert 1e-8 < r.smallest_singular_value < dofmod.NEAR_SINGULAR
    assert any(w.startswith("close to a singular configuration") for w in r.warnings)


def test_over_driven_counts_driver_rows():
    m = Model()
    a = _rod(m, "a", (0, 0, 0), (1, 0, 0))
    hinge = m.add_joint("revolute", m.ground, a, point=(0, 0, 0), axis=(0, 1, 0))
    assert not m.dof_report().over_driven
    m.add_driver(hinge, position=0.0, name="motor")
    r = m.dof_report()
    assert r.driver_equations == 1 and not r.over_driven
    # a second, consistent driver of the same rotation: one driver equation too many
    m.add_angle_driver(m.ground, a, axis=(0, 1, 0), vector1=(1, 0, 0), name="m2")
    r = m.dof_report()
    assert r.driver_equations == 2
    assert r.over_driven and any("over-driven" in w and "motor, m2" in w for w in r.warnings)
    assert r.to_dict()["over_driven"]


def test_twist_directions_of_the_registry():
    """Kinds with coincident frames constrain the expected relative motions."""
    from SimPhantWorkbench.solver.joints import JOINT_TYPES
    expect = {"fixed": 6, "revolute": 5, "prismatic": 5, "cylindrical": 4, "spherical": 3,
              "planar": 3, "universal": 4}
    for kind, n in expect.items():
        D = dofmod.twist_directions(JOINT_TYPES[kind])
        assert np.linalg.matrix_rank(D) == n, kind
    D = dofmod.twist_directions(JOINT_TYPES["revolute"])
    # revolute leaves exactly rotation about z free
    free = [k for k in range(6)
            if np.linalg.matrix_rank(np.vstack([D, np.eye(6)[k]])) > 5]
    assert free == [5]
    assert dofmod.twist_directions(JOINT_TYPES["distance"]) is None


def test_a_model_that_does_not_assemble_is_analysed_as_given():
    """Two welds holding one body at different places: reported, not raised."""
    m = Model()
    a = _rod(m, "a", (0, 0, 0), (1, 0, 0))
    m.add_joint("fixed", m.ground, a, point=(0, 0, 0), name="W1")
    m.add_joint("fixed", m.ground, a, frame1=((0, 0, 0.5), np.eye(3)),
                frame2=((0, 0, 0), np.eye(3)), name="W2")
    r = m.dof_report()
    assert any(w.startswith("not assembled") and ("W1" in w or "W2" in w) for w in r.warnings)
    assert r.mobility == 0 and r.redundant == 6 and r.locked
