"""Initial conditions: projection onto the joints at t0, and the report."""
import numpy as np
import pytest

from SimPhantWorkbench.solver import AssemblyError, Model
from SimPhantWorkbench.solver.zoo import four_bar



def _pendulum_with_gap(gap):
    m = Model(gravity=(0, 0, -9.81))
    b = m.add_body("link", mass=1.0, inertia=(0.01, 0.1, 0.1), position=(0.5, 0.0, 0.0))
    R = np.eye(3)
    # ground side at the origin; the body side 'gap' further along x
    j = m.add_joint("revolute", m.ground, b, frame1=((0, 0, 0), R), frame2=((gap, 0, 0), R),
                    name="hinge")
    return m, b, j


def test_unassembled_joint_is_projected_and_reported():
    m, b, j = _pendulum_with_gap(0.1)
    r = m.simulate(t_end=0.2, dt=1e-3, output_dt=0.01)
    rep = r.assembly
    assert rep.corrected
    # residuals are relative to the model size (the largest CoG-to-anchor distance, 0.4 m)
    assert rep.residual_before == pytest.approx(0.1 / m.compile().length_scale, rel=1e-6)
    assert rep.residual_after < 1e-10
    assert rep.translation[0] == pytest.approx(0.1, rel=1e-6)
    assert "link" in rep.summary() and "moved" in rep.summary()
    # the body was shifted so that its joint point sits at the origin
    np.testing.assert_allclose(r.position(b)[0], (0.4, 0.0, 0.0), atol=1e-10)
    assert r.constraint_violation()["position"].max() < 1e-9
    np.testing.assert_allclose(r.joint_point(j, "body2")[0], 0.0, atol=1e-10)


def test_velocities_are_projected_onto_the_constraints():
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("link", mass=1.0, inertia=(0.01, 0.1, 0.1), position=(0.5, 0, 0),
                   velocity=(1.0, 0.0, 1.0))          # radial part is impossible
    m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    r = m.simulate(t_end=0.1, dt=1e-3, output_dt=0.01)
    v0 = r.velocity(b)[0]
    assert abs(v0[0]) < 1e-9                          # no radial velocity left
    assert r.assembly.velocity_change[0] > 0.5
    assert r.constraint_violation()["velocity"][0] < 1e-9
    # mass-weighted projection: the tangential motion keeps the rotation rate it implies
    w = r.angular_velocity(b)[0]
    assert abs(v0[2] + 0.5 * w[1]) < 1e-9


def test_redundant_loop_assembles_from_a_perturbed_pose():
    m, links, joints = four_bar()
    C = joints[2]                     # coupler-rocker joint: open the loop by 2 cm
    C.frame2 = (C.frame2[0] + np.array([0.01, 0.0, -0.02]), C.frame2[1])
    r = m.simulate(t_end=0.1, dt=1e-3, output_dt=0.05)
    assert r.assembly.corrected and r.assembly.residual_after < 1e-10
    assert r.assembly.residual_before > 1e-2
    assert r.constraint_violation()["position"].max() < 1e-8


def test_impossible_assembly_names_the_failing_joints():
    m = Model()
    b = m.add_body("plate", mass=1.0, inertia=(1, 1, 1))
    R = np.eye(3)
    # two welds that disagree about where the plate is
    m.add_joint("fixed", m.ground, b, frame1=((0, 0, 0), R), frame2=((0, 0, 0), R), name="weldA")
    m.add_joint("fixed", m.ground, b, frame1=((1, 0, 0), R), frame2=((0.5, 0, 0), R),
                name="weldB")
    with pytest.raises(AssemblyError) as e:
        m.simulate(t_end=0.1, dt=1e-3)
    assert set(e.value.joints) == {"weldA", "weldB"}
    assert "weldA" in str(e.value) and "weldB" in str(e.value)


def test_assembly_can_be_switched_off():
    m, b, j = _pendulum_with_gap(0.1)
    r = m.simulate(t_end=0.01, dt=1e-3, output_dt=0.01, assemble=False)
    assert r.assembly is None
    assert r.constraint_violation()["position"][0] == pytest.approx(0.1)
