"""Initial conditions: projection onto the joints at t0, and the report."""
import math

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


def _four_bar_with_a_misaligned_pin(gap):
    """A parallelogram four-bar (revolutes about z: a closed loop with redundant rows) with
    a chain of three pendulums on its coupler; the coupler's pin on the rocker is placed
    ``gap`` [m] off along its axis."""
    m = Model(gravity=(0, -9.81, 0))
    inertia = (1e-3, 1e-3, 1e-3)
    crank = m.add_body("crank", mass=1, inertia=inertia, position=(0, 0.05, 0))
    coupler = m.add_body("coupler", mass=1, inertia=inertia, position=(0.1, 0.1, 0))
    rocker = m.add_body("rocker", mass=1, inertia=inertia, position=(0.2, 0.05, 0))
    z = (0, 0, 1)
    m.add_joint("revolute", m.ground, crank, point=(0, 0, 0), axis=z, name="CrankPivot")
    m.add_joint("revolute", crank, coupler, point=(0, 0.1, 0), axis=z, name="CrankPin")
    m.add_joint("revolute", coupler, rocker, frame1=((0.2, 0.1, 0), np.eye(3)),
                frame2=((0.2, 0.1, gap), np.eye(3)), name="RockerPin")
    m.add_joint("revolute", m.ground, rocker, point=(0.2, 0, 0), axis=z, name="RockerPivot")
    prev = coupler
    for k in range(3):
        p = m.add_body("pendulum%d" % k, mass=0.2, inertia=(1e-4,) * 3,
                       position=(0.05 * k, 0.05, 0.02))
        m.add_joint("revolute", prev, p, point=(0.05 * k, 0.1, 0.02), axis=z, name="Hinge%d" % k)
        prev = p
    return m


def test_a_failed_assembly_names_the_misaligned_joint_and_its_gap():
    """One pin picked 2.5 mm off along its axis in a closed loop: the least-squares
    projection leaves every joint of the loop unmet (all seven joints were named);
    the message names the misaligned one first with its gap, then the loop's joints it
    conflicts with, and not the pendulums' hinges."""
    with pytest.raises(AssemblyError) as e:
        _four_bar_with_a_misaligned_pin(2.5e-3).simulate(t_end=0.01, dt=1e-3)
    text = str(e.value)
    assert e.value.joints[0] == "RockerPin"
    assert set(e.value.joints) == {"RockerPin", "CrankPin", "CrankPivot", "RockerPivot"}
    assert "not met: RockerPin (frames 2.5 mm, 0 deg apart as placed)" in text
    assert "conflicting with CrankPin, CrankPivot, RockerPivot, which hold as placed" in text
    assert "Hinge" not in text


def test_the_same_loop_aligned_assembles():
    r = _four_bar_with_a_misaligned_pin(0.0).simulate(t_end=0.01, dt=1e-3)
    assert r.constraint_violation()["position"].max() < 1e-8


def _driven_four_bar(**drivers):
    """``zoo.four_bar`` (joints A, B, C, D on one loop, one degree of freedom) with a
    rotation driver ``<joint>_drive`` on each joint named in ``drivers`` (its position)."""
    m, _links, joints = four_bar()
    by_name = {j.name: j for j in joints}
    for name, position in drivers.items():
        m.add_driver(by_name[name], position, name=name + "_drive")
    return m, by_name


def test_two_drivers_that_disagree_are_named_as_the_pair_not_the_loop():
    """Two drivers on one loop that place it differently at t0: the left null space holds
    every joint of the loop and both drivers; the search names the two drivers, each with
    its gap, and says the joints hold without them."""
    m, _ = _driven_four_bar(A=0.0, D=0.1)
    with pytest.raises(AssemblyError) as e:
        m.simulate(t_end=0.01, dt=1e-3)
    text = str(e.value)
    assert e.value.joints == ["A_drive", "D_drive"]
    # each with its gap where the joints and the other one hold: D is 0.1 rad from where
    # A's crank angle puts the rocker; A is off by the crank angle that D's 0.1 rad gives
    # (the assembly of the four-bar with D's driver alone)
    alone, _ = _driven_four_bar(D=0.1)
    R = alone.simulate(t_end=0.001, dt=1e-3).rotation_matrix("crank")[0]
    crank = math.degrees(math.acos((np.trace(R) - 1.0) / 2.0))
    assert crank > 10.0
    assert "A_drive (0 mm, %.4g deg off as the others hold) conflicts with D_drive (0 mm, " \
        "5.73 deg off as the others hold)" % crank in text
    assert text.endswith("; the joints hold without them")
    assert "failing" not in text and "not met" not in text


def test_the_deletion_filter_drops_a_driver_that_only_agrees():
    """Three drivers: A and B agree (the crank and its pin both at 0), D does not. Adding
    them in order fails at D; dropping A keeps the failure (B and D still over-drive the
    loop differently), dropping B does not: the pair is B and D, not all three."""
    m, _ = _driven_four_bar(A=0.0, B=0.0, D=0.1)
    with pytest.raises(AssemblyError) as e:
        m.simulate(t_end=0.01, dt=1e-3)
    assert e.value.joints == ["B_drive", "D_drive"]
    assert "A_drive" not in str(e.value)


def test_a_driver_that_contradicts_a_coupler_is_named_with_the_coupler():
    """A gear coupling the crank and rocker pivots of the four-bar locks it; a driver
    turning the crank 0.1 rad contradicts it: the pair is the driver and the coupler."""
    m, joints = _driven_four_bar(A=0.1)
    m.add_coupler("gear", joints["A"], joints["D"], ratio=2.0, name="gear_AD")
    with pytest.raises(AssemblyError) as e:
        m.simulate(t_end=0.01, dt=1e-3)
    assert e.value.joints == ["A_drive", "gear_AD"]
    assert "A_drive (" in str(e.value) and "conflicts with gear_AD (" in str(e.value)


def test_a_driver_the_joints_cannot_reach_is_named_alone():
    """A driver that contradicts a fixed joint (the rocker welded to ground locks the loop,
    the driver turns the crank): the set is that driver alone."""
    m2, j2 = _driven_four_bar()
    m2.add_joint("fixed", m2.ground, m2.body("rocker"), frame1=((0.9, 0, 0), np.eye(3)),
                 frame2=((0.9, 0, 0), np.eye(3)), name="rocker_weld")
    m2.add_driver(j2["A"], 0.1, name="A_drive")
    with pytest.raises(AssemblyError) as e:
        m2.simulate(t_end=0.01, dt=1e-3)
    assert e.value.joints == ["A_drive"]
    assert "A_drive (" in str(e.value)
    assert "cannot be met with the joints A, B, C, D, rocker_weld; the joints hold without it" \
        in str(e.value)
    assert "the joints hold without it" in str(e.value)


def test_consistent_drivers_and_redundant_loops_still_assemble():
    m, _ = _driven_four_bar(A=0.1)
    r = m.simulate(t_end=0.01, dt=1e-3)
    assert r.constraint_violation()["position"].max() < 1e-8
    m, _ = _driven_four_bar(A=0.0, D=0.0)           # over-driven, but consistent at t0
    r = m.simulate(t_end=0.01, dt=1e-3)
    assert r.constraint_violation()["position"].max() < 1e-8


def test_the_search_is_bounded_by_the_model_size(monkeypatch):
    """Above ``CONFLICT_MAX_BODIES`` the search is skipped: the message falls back to the
    elements of the left null space (the loop and both drivers)."""
    from SimPhantWorkbench.solver import assembly
    monkeypatch.setattr(assembly, "CONFLICT_MAX_BODIES", 2)
    m, _ = _driven_four_bar(A=0.0, D=0.1)
    with pytest.raises(AssemblyError) as e:
        m.simulate(t_end=0.01, dt=1e-3)
    assert set(e.value.joints) == {"A", "B", "C", "D", "A_drive", "D_drive"}


def test_drivers_that_diverge_over_time_are_named_with_the_time():
    """Kinematic analysis: two drivers on the loop agree at t0 (both at 0) but turn at
    different rates: the analysis stops at the first sample and names the two drivers."""
    from SimPhantWorkbench.solver import SimulationError
    from SimPhantWorkbench.solver.drivers import MotionFunction
    m, _ = _driven_four_bar(A=MotionFunction("ramp", value=0.0, rate=1.0),
                            D=MotionFunction("ramp", value=0.0, rate=2.0))
    with pytest.raises(SimulationError) as e:
        m.kinematic(0.5, 0.01)
    assert e.value.time == pytest.approx(0.01)
    text = str(e.value)
    assert "cannot be assembled at t = 0.01 s" in text
    assert "A_drive (" in text and "conflicts with D_drive (" in text
    assert len(e.value.result.t) == 1


def test_a_dynamic_run_stopped_by_drivers_that_drift_apart_names_them():
    """The same drivers in a dynamic run: the constraint violation grows until the run
    stops; the message adds that the constraints have no solution there and names the
    two drivers, not the loop."""
    from SimPhantWorkbench.solver import SimulationError
    from SimPhantWorkbench.solver.drivers import MotionFunction
    m, _ = _driven_four_bar(A=MotionFunction("ramp", value=0.0, rate=1.0),
                            D=MotionFunction("ramp", value=0.0, rate=2.0))
    with pytest.raises(SimulationError) as e:
        m.simulate(t_end=0.5, dt=1e-3)
    text = str(e.value)
    assert "constraint violation" in text
    assert "; the constraints have no solution there: the joints cannot be assembled at " \
        "t = %.6g s" % e.value.time in text
    assert "A_drive (" in text and "conflicts with D_drive (" in text


def test_a_locked_loop_names_the_driver_that_moves_it_and_the_loop():
    """An over-constrained loop that holds as placed but cannot move: joint C's axis tilted
    1 deg out of parallel locks the spatial four-bar. The crank's driver turns it 0.01 rad
    by the first sample, which the joints cannot follow: the analysis names the driver,
    0.01 rad off, and the joints of the loop it cannot be met with."""
    from SimPhantWorkbench.solver import SimulationError
    from SimPhantWorkbench.solver.drivers import MotionFunction
    m, joints = _driven_four_bar(A=MotionFunction("ramp", value=0.0, rate=1.0))
    a = math.radians(1.0)
    tilt = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    C = joints["C"]
    C.frame1 = (C.frame1[0], C.frame1[1] @ tilt)
    C.frame2 = (C.frame2[0], C.frame2[1] @ tilt)
    with pytest.raises(SimulationError) as e:
        m.kinematic(0.5, 0.01)
    assert e.value.time == pytest.approx(0.01)
    assert "A_drive (0 mm, %.4g deg off as the others hold) cannot be met with the joints " \
        "A, B, C, D; the joints hold without it" % math.degrees(0.01) in str(e.value)
