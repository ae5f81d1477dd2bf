"""Joint outputs on the Result (solver/joint_outputs.py): joint angle and slide with
their rates, relative translation and rotation, reactions in the joint frame."""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model, Result
from SimPhantWorkbench.solver.joint_outputs import joint_coordinates
from SimPhantWorkbench.solver.zoo import compound_pendulum, four_bar



def _fd4(x, t):
    """Fourth-order central difference on a uniform grid (interior samples 2..n-3)."""
    h = t[1] - t[0]
    return (-x[4:] + 8.0 * x[3:-1] - 8.0 * x[1:-3] + x[:-4]) / (12.0 * h)


def _angle_about_y(M):
    return np.arctan2(M[:, 0, 2], M[:, 0, 0])


def test_pendulum_angle_is_the_body_rotation_about_the_hinge():
    m, b, j, _ = compound_pendulum(theta0=2.5)      # swings over a large arc
    r = m.simulate(t_end=2.0, dt=1e-3, output_dt=0.01)
    A = r.rotation_matrix(b)
    rel = np.einsum("nij,kj->nik", A, A[0])          # rotation since t0, world axes
    expect = np.unwrap(_angle_about_y(rel))
    # the hinge axis is world +y: frame 1's z is +y, so the angle is about +y
    assert np.allclose(j.frame1[1][:, 2], (0, 1, 0))
    theta = r.joint_position(j)
    assert abs(theta[0]) < 1e-12
    assert np.abs(theta - expect).max() < 1e-9
    assert np.ptp(theta) > 2.0
    assert np.abs(r.joint_velocity(j) - r.angular_velocity(b)[:, 1]).max() < 1e-9
    assert np.abs(r.joint_acceleration(j) - r.angular_acceleration(b)[:, 1]).max() < 1e-9
    assert r.joint_dofs(j) == ["angle"]


def test_revolute_turning_several_revolutions_is_unwrapped():
    m = Model(gravity=(0, 0, -9.81))
    w = m.add_body("wheel", mass=2.0, inertia=(0.1, 0.1, 0.2), position=(0, 0, 0),
                   angular_velocity=(0, 0, 10.0))
    j = m.add_joint("revolute", m.ground, w, point=(0, 0, 0), axis=(0, 0, 1), name="axle")
    r = m.simulate(t_end=3.0, dt=1e-3, output_dt=0.01)
    theta = r.joint_position(j)
    assert theta[-1] > 4 * 2 * math.pi
    assert np.abs(theta - 10.0 * r.t).max() < 1e-9
    assert np.abs(r.joint_velocity("axle") - 10.0).max() < 1e-9
    assert np.abs(r.joint_acceleration("axle")).max() < 1e-9


def test_prismatic_slide_is_the_body_displacement_along_the_axis():
    m = Model(gravity=(0, 0, -9.81))
    axis = np.array([1.0, 0.0, 1.0]) / math.sqrt(2.0)
    b = m.add_body("slider", mass=1.5, inertia=(0.01, 0.02, 0.03), position=(0.2, 0.1, 0.3))
    j = m.add_joint("prismatic", m.ground, b, point=(0.2, 0.1, 0.3), axis=axis, name="guide")
    r = m.simulate(t_end=1.0, dt=1e-3, output_dt=0.01)
    s = r.joint_position(j)
    disp = (r.position(b) - r.position(b)[0]) @ axis
    assert np.abs(s - disp).max() < 1e-12
    g = -9.81 / math.sqrt(2.0)
    assert np.abs(s - 0.5 * g * r.t ** 2).max() < 1e-9
    assert np.abs(r.joint_velocity(j) - g * r.t).max() < 1e-9
    assert np.abs(r.joint_acceleration(j) - g).max() < 1e-9
    assert r.joint_dofs(j) == ["slide"]


def _bead_on_swinging_rod():
    """A rod on a hinge (axis y) with a bead on it on a cylindrical joint (along the
    rod): the joint frame 1 turns, so its rates need the frame's own rotation."""
    m = Model(gravity=(0, 0, -9.81))
    rod = m.add_body("rod", mass=1.0, inertia=(0.002, 0.1, 0.1), position=(0.5, 0, 0),
                     angular_velocity=(0, 0.5, 0))
    bead = m.add_body("bead", mass=0.3, inertia=(0.001, 0.002, 0.002), position=(0.6, 0, 0),
                      velocity=(0.4, 0, -0.3), angular_velocity=(3.0, 0.5, 0))
    m.add_joint("revolute", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0), name="hinge")
    j = m.add_joint("cylindrical", rod, bead, point=(0.6, 0, 0), axis=(1, 0, 0), name="sleeve")
    return m, rod, bead, j


def test_rates_match_finite_differences_of_positions():
    m, _rod, _bead, j = _bead_on_swinging_rod()
    r = m.simulate(t_end=1.0, dt=2e-4, output_dt=1e-3)
    assert r.joint_dofs(j) == ["angle", "slide"]
    for dof in ("angle", "slide"):
        x = r.joint_position(j, dof=dof)
        v = r.joint_velocity(j, dof=dof)
        a = r.joint_acceleration(j, dof=dof)
        assert np.ptp(x) > 0.05 and (dof == "angle" or np.ptp(v) > 0.05)
        fd_v = _fd4(x, r.t)
        fd_a = _fd4(v, r.t)
        assert np.abs(fd_v - v[2:-2]).max() < 1e-6 * np.abs(v).max(), dof
        assert np.abs(fd_a - a[2:-2]).max() < 1e-6 * max(np.abs(a).max(), 1.0), dof
    m, _links, joints = four_bar()
    r = m.simulate(t_end=0.5, dt=2e-4, output_dt=1e-3)
    for jj in joints:
        x, v, a = r.joint_position(jj), r.joint_velocity(jj), r.joint_acceleration(jj)
        assert np.abs(_fd4(x, r.t) - v[2:-2]).max() < 1e-6 * np.abs(v).max()
        assert np.abs(_fd4(v, r.t) - a[2:-2]).max() < 1e-6 * np.abs(a).max()


def test_cylindrical_needs_dof_and_spherical_has_none():
    m, _rod, _bead, j = _bead_on_swinging_rod()
    r = m.simulate(t_end=0.05, dt=1e-3)
    with pytest.raises(ValueError, match="angle and slide"):
        r.joint_position(j)
    with pytest.raises(ValueError, match="no 'slide'"):
        r.joint_velocity("hinge", dof="slide")
    assert joint_coordinates("spherical") == [] and joint_coordinates("planar") == ["angle"]
    assert joint_coordinates("fixed") == [] and joint_coordinates("distance") == []


def test_reaction_in_the_joint_frame():
    m, links, joints = four_bar()
    r = m.simulate(t_end=0.3, dt=1e-3, output_dt=0.01)
    for jj in joints:
        b1 = jj.body1
        R0 = jj.frame1[1]
        if b1.is_ground:
            R1 = np.broadcast_to(R0, (len(r.t), 3, 3))
        else:
            A = r.rotation_matrix(b1)
            R1 = np.einsum("nij,kj,kl->nil", A, A[0], R0)      # A(t) A(0)^T R1(0)
        for world, joint in ((r.reaction_force(jj), r.reaction_force(jj, frame="joint")),
                             (r.reaction_torque(jj, about="body1"),
                              r.reaction_torque(jj, frame="joint")),
                             (r.reaction_torque(jj), r.reaction_torque(jj, about="body2",
                                                                        frame="joint"))):
            expect = np.einsum("nji,nj->ni", R1, world)
            assert np.abs(joint - expect).max() < 1e-8 * max(np.abs(world).max(), 1.0)
        # a revolute takes no torque about its own axis (frame z)
        assert np.abs(r.reaction_torque(jj, frame="joint")[:, 2]).max() < 1e-8
    with pytest.raises(ValueError, match="frame"):
        r.reaction_force(joints[0], frame="body")


def test_joint_frame_torque_is_about_the_first_bodys_joint_point():
    """A block on a prismatic guide whose frame 1 origin stays behind: the torque about
    body 1's point differs from the one about body 2's by (P2 - P1) x F."""
    m = Model(gravity=(0, 0, -9.81))
    b = m.add_body("block", mass=2.0, inertia=(0.01, 0.02, 0.03), position=(0.0, 0.0, 0.0),
                   velocity=(1.0, 0.0, 0.0))
    j = m.add_joint("prismatic", m.ground, b, point=(0, 0, 0), axis=(1, 0, 0), name="rail")
    r = m.simulate(t_end=0.5, dt=1e-3, output_dt=0.05)
    F = r.reaction_force(j)
    assert np.abs(F[:, 2] - 2.0 * 9.81).max() < 1e-9          # the rail carries the weight
    arm = r.joint_point(j, "body2") - r.joint_point(j, "body1")
    assert abs(arm[-1, 0] - 0.5) < 1e-9
    R1 = j.frame1[1]
    expect = (r.reaction_torque(j) + np.cross(arm, F)) @ R1          # R1^T T1 per sample
    assert np.abs(r.reaction_torque(j, frame="joint") - expect).max() < 1e-9
    assert np.abs(r.reaction_torque(j, frame="joint")
                  - r.reaction_torque(j, about="body1", frame="joint")).max() == 0.0
    assert np.abs(expect[-1]).max() > 1.0                             # the arm matters


def test_relative_translation_and_rotation_of_a_spherical_joint():
    from scipy.spatial.transform import Rotation
    m = Model(gravity=(0, 0, -9.81))
    b = m.add_body("top", mass=1.0, inertia=(0.02, 0.03, 0.04), position=(0.1, 0.0, 0.5),
                   angular_velocity=(1.0, -2.0, 5.0))
    j = m.add_joint("spherical", m.ground, b, point=(0, 0, 0), name="ball")
    r = m.simulate(t_end=1.0, dt=1e-3, output_dt=0.01)
    A = r.rotation_matrix(b)
    Q = r.joint_relative_rotation(j)
    assert np.abs(Q - np.einsum("nij,kj->nik", A, A[0])).max() < 1e-12
    rv = r.joint_relative_rotation(j, form="rotvec")
    assert np.abs(rv - Rotation.from_matrix(Q).as_rotvec()).max() < 1e-8
    assert np.abs(r.joint_relative_translation(j)).max() < 1e-8
    with pytest.raises(ValueError, match="no angle or slide"):
        r.joint_position(j)
    # a prismatic's relative translation is its slide along frame 1's z
    m = Model(gravity=(0, 0, -9.81))
    s = m.add_body("s", mass=1.0, inertia=(0.01, 0.01, 0.01), position=(0, 0, 0),
                   velocity=(0, 0, 0))
    p = m.add_joint("prismatic", m.ground, s, point=(0, 0, 0), axis=(0, 0, 1))
    r = m.simulate(t_end=0.5, dt=1e-3, output_dt=0.05)
    d = r.joint_relative_translation(p)
    assert np.abs(d[:, 2] - r.joint_position(p)).max() < 1e-15
    assert np.abs(d[:, :2]).max() < 1e-9


def test_joint_frames_survive_save_and_load(tmp_path):
    m, _rod, _bead, j = _bead_on_swinging_rod()
    r = m.simulate(t_end=0.2, dt=1e-3, output_dt=0.01)
    path = str(tmp_path / "r.npz")
    r.save(path)
    r2 = Result.load(path)
    for dof in ("angle", "slide"):
        assert np.array_equal(r2.joint_position(j, dof=dof), r.joint_position(j, dof=dof))
    r2.joint_frames = None          # as saved by an older version
    with pytest.raises(ValueError, match="run the study again"):
        r2.joint_position(j, dof="angle")
