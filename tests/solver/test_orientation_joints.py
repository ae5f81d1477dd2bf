"""The orientation joints ``parallel``, ``perpendicular`` and ``angle`` (the dot-1
"coincident vectors" and "constant angle" constraints: Haug 1989, sec. 9.2; Nikravesh
1988, sec. 7.3), against closed forms derived here:

* a body held parallel to the ground by a ``parallel`` joint and hanging from a distance
  link attached off its centre of mass along the parallel axis cannot turn: it translates,
  its centre of mass on a circle, as a point-mass pendulum of its whole mass (theta(t) of
  the large-amplitude pendulum, Jacobi's sn); the joint's reaction is a pure torque that
  balances the link force's moment about the centre of mass;
* a body on a ball joint whose axis an ``angle`` joint holds at alpha from the vertical
  rests there (gravity has no moment about the two free axes); the angle joint carries
  the torque m g d sin(alpha) about z x b, the ball joint the weight;
* the angle a joint keeps is its parameter (cosine, not sine), and kinds that cannot
  hold an angle near 0 or 180 deg say so.

Finite-difference checks of Phi_q, Phi_dot and gamma of the three kinds are in
``test_joints_fd`` (parametrised over the registry).
"""
import math

import numpy as np
import pytest
from scipy.special import ellipj, ellipk

from SimPhantWorkbench.solver import Model, ModelError
from SimPhantWorkbench.solver.dof import frame_gap

G = 9.81


def _pendulum_angle(t, theta0, L):
    """theta(t) of a point-mass pendulum released at rest from theta0:
    sin(theta/2) = k sn(K(k) - t sqrt(g/L) | k^2), k = sin(theta0/2)."""
    k = math.sin(theta0 / 2.0)
    sn = ellipj(ellipk(k * k) - t * math.sqrt(G / L), k * k)[0]
    return 2.0 * np.arcsin(k * sn)


def _parallel_hanger(theta0, L=0.8, s=0.15, mass=2.0):
    """Ground point O = (0, s, 0); link to the body point P = c + s y (c the CoG), length
    L; the body's y axis held parallel to the ground's; released at rest from theta0."""
    m = Model(gravity=(0.0, 0.0, -G))
    O = np.array([0.0, s, 0.0])
    P0 = O + L * np.array([math.sin(theta0), 0.0, -math.cos(theta0)])
    c0 = P0 - np.array([0.0, s, 0.0])
    b = m.add_body("plate", mass=mass, inertia=(0.05, 0.11, 0.09), position=c0,
                   orientation=(math.cos(0.2), 0.0, 0.0, math.sin(0.2)))   # turned about z
    par = m.add_joint("parallel", m.ground, b, point=c0, axis=(0.0, 1.0, 0.0), name="keep")
    link = m.add_joint("distance", m.ground, b, point=O, point2=P0, name="link")
    return m, b, par, link


def test_parallel_hanger_translates_as_a_point_mass_pendulum():
    theta0, L = 1.0, 0.8
    m, b, par, link = _parallel_hanger(theta0, L)
    assert m.degrees_of_freedom() == 3
    r = m.simulate(t_end=2.0, dt=1e-3, method="rk4", output_dt=0.01)
    theta = _pendulum_angle(r.t, theta0, L)
    p = r.position(b)
    np.testing.assert_allclose(p[:, 0], L * np.sin(theta), atol=2e-7)
    np.testing.assert_allclose(p[:, 1], 0.0, atol=1e-9)
    np.testing.assert_allclose(p[:, 2], -L * np.cos(theta), atol=2e-7)
    # it does not turn at all
    R = r.rotation_matrix(b)
    np.testing.assert_allclose(R, np.broadcast_to(R[0], R.shape), atol=1e-8)


def test_parallel_joint_reaction_is_the_torque_against_the_link_moment():
    """Tension T = m g (3 cos theta - 2 cos theta0) along P -> O, at P = c + s y: the
    parallel joint's reaction on the body is -(s y) x T u, u = (-sin, 0, cos), no force."""
    theta0, L, s, mass = 0.7, 0.8, 0.15, 2.0
    m, b, par, link = _parallel_hanger(theta0, L, s, mass)
    r = m.simulate(t_end=1.0, dt=1e-3, method="rk4", output_dt=0.02)
    theta = _pendulum_angle(r.t, theta0, L)
    T = mass * G * (3.0 * np.cos(theta) - 2.0 * math.cos(theta0))
    u = np.column_stack([-np.sin(theta), np.zeros_like(theta), np.cos(theta)])
    torque = -np.cross(np.array([0.0, s, 0.0]), T[:, None] * u)
    np.testing.assert_allclose(r.reaction_force(par), 0.0, atol=1e-6)
    np.testing.assert_allclose(r.reaction_torque(par), torque, atol=1e-5 * mass * G * s)
    np.testing.assert_allclose(r.reaction_force(link), T[:, None] * u, atol=1e-5 * mass * G)


def test_parallel_hanger_at_rest_statics():
    """Hanging still (theta0 = 0): link tension m g, joint torque -s m g x."""
    mass, s = 2.0, 0.15
    m, b, par, link = _parallel_hanger(0.0, s=s, mass=mass)
    r = m.simulate(t_end=0.05, dt=1e-3, method="rk4", output_dt=0.01)
    np.testing.assert_allclose(r.reaction_torque(par), [[-s * mass * G, 0.0, 0.0]] * len(r.t),
                               atol=1e-9)
    np.testing.assert_allclose(r.reaction_force(link), [[0.0, 0.0, mass * G]] * len(r.t),
                               atol=1e-9)


def _cone(alpha, angle=None, d=0.4, mass=1.5):
    """A body on a ball joint at the origin, its axis b (and CoG, d along it) alpha from the
    vertical, in the x-z plane; an angle joint between the world z and b."""
    m = Model(gravity=(0.0, 0.0, -G))
    bvec = np.array([math.sin(alpha), 0.0, math.cos(alpha)])
    body = m.add_body("cone", mass=mass, inertia=(0.02, 0.03, 0.04), position=d * bvec)
    ball = m.add_joint("spherical", m.ground, body, point=(0.0, 0.0, 0.0), name="ball")
    kw = {} if angle is None else dict(angle=angle)
    ang = m.add_joint("angle", m.ground, body, point=(0.0, 0.0, 0.0), axis=(0.0, 0.0, 1.0),
                      axis2=bvec, name="tilt", **kw)
    return m, body, ball, ang, bvec


@pytest.mark.parametrize("alpha_deg", [60.0, 120.0])
def test_angle_joint_holds_a_cone_at_rest_with_the_static_torque(alpha_deg):
    alpha, d, mass = math.radians(alpha_deg), 0.4, 1.5
    m, body, ball, ang, bvec = _cone(alpha, d=d, mass=mass)
    assert ang.angle == pytest.approx(alpha, abs=1e-12)
    assert m.degrees_of_freedom() == 2
    r = m.simulate(t_end=0.5, dt=1e-3, method="rk4", output_dt=0.05)
    np.testing.assert_allclose(r.position(body), [d * bvec] * len(r.t), atol=1e-9)
    # torque of the weight about the ball: d b x (-m g z); the joint holds it
    weight_moment = np.cross(d * bvec, [0.0, 0.0, -mass * G])
    np.testing.assert_allclose(r.reaction_torque(ang), [-weight_moment] * len(r.t), atol=1e-8)
    np.testing.assert_allclose(r.reaction_force(ang), 0.0, atol=1e-9)
    np.testing.assert_allclose(r.reaction_force(ball), [[0.0, 0.0, mass * G]] * len(r.t),
                               atol=1e-8)


def test_angle_joint_keeps_the_angle_it_is_given():
    """Built at 60 deg with angle = 40 deg: assembly turns the body to 40 deg (its
    cosine, cos 40 = 0.766, not sin 40 = 0.643), and the swing keeps it there."""
    m, body, ball, ang, bvec = _cone(math.radians(60.0), angle=math.radians(40.0))
    r = m.simulate(t_end=0.5, dt=1e-3, method="rk4", output_dt=0.05)
    axis = r.rotation_matrix(body) @ bvec          # the body starts unturned
    np.testing.assert_allclose(np.degrees(np.arccos(axis[:, 2])), 40.0, atol=1e-6)


def test_perpendicular_joint_keeps_the_axes_perpendicular():
    """A body on a ball joint with a perpendicular joint between world z and its axis
    started horizontal and spun about z: the axis stays horizontal (it would fall)."""
    m = Model(gravity=(0.0, 0.0, -G))
    body = m.add_body("bar", mass=1.0, inertia=(0.01, 0.05, 0.05), position=(0.3, 0.0, 0.0),
                      angular_velocity=(0.0, 0.0, 2.0), velocity=(0.0, 0.6, 0.0))
    m.add_joint("spherical", m.ground, body, point=(0.0, 0.0, 0.0))
    m.add_joint("perpendicular", m.ground, body, point=(0.0, 0.0, 0.0), axis=(0, 0, 1),
                axis2=(1.0, 0.0, 0.0))
    r = m.simulate(t_end=1.0, dt=1e-3, method="rk4", output_dt=0.05)
    np.testing.assert_allclose(r.position(body)[:, 2], 0.0, atol=1e-7)
    # it turns about z at a constant rate (no moment about z): x = 0.3 cos(2 t)
    np.testing.assert_allclose(r.position(body)[:, 0], 0.3 * np.cos(2.0 * r.t), atol=1e-6)


@pytest.mark.parametrize("angle", [0.0, math.radians(0.5), math.pi, math.radians(179.6),
                                   float("nan")])
def test_angle_near_parallel_is_refused_naming_the_joint(angle):
    m = Model()
    b = m.add_body("b", mass=1.0, inertia=(1, 1, 1), position=(1, 0, 0))
    with pytest.raises(ModelError, match=r"joint 'tilt' \(angle\): angle .* use a parallel joint"):
        m.add_joint("angle", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1), axis2=(1, 0, 1),
                    angle=angle, name="tilt")


def test_angle_default_of_parallel_axes_is_refused():
    m = Model()
    b = m.add_body("b", mass=1.0, inertia=(1, 1, 1), position=(1, 0, 0))
    with pytest.raises(ModelError, match="use a parallel joint"):
        m.add_joint("angle", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1), axis2=(0, 0, 2))
    with pytest.raises(ModelError, match="needs axis2"):
        m.add_joint("perpendicular", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
    with pytest.raises(ModelError, match="angle= only applies to angle joints"):
        m.add_joint("perpendicular", m.ground, b, point=(0, 0, 0), axis=(0, 0, 1),
                    axis2=(1, 0, 0), angle=1.0)


def test_frame_gap_of_an_angle_joint_is_the_missed_angle():
    """Axes 50 deg apart: an angle joint of 50 deg is met, one of 30 deg misses by 20 deg;
    a perpendicular joint misses by 40 deg, a parallel one by 50 deg."""
    R1 = np.eye(3)
    a = math.radians(50.0)
    R2 = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    f1, f2 = (np.zeros(3), R1), (np.zeros(3), R2)
    assert frame_gap("angle", f1, f2, angle=a) == pytest.approx((0.0, 0.0), abs=1e-12)
    assert frame_gap("angle", f1, f2, angle=math.radians(30.0))[1] == \
        pytest.approx(math.radians(20.0))
    assert frame_gap("perpendicular", f1, f2)[1] == pytest.approx(math.radians(40.0))
    assert frame_gap("parallel", f1, f2)[1] == pytest.approx(math.radians(50.0))


def test_fingerprint_and_pickle_see_the_angle():
    import pickle
    from SimPhantWorkbench.solver.batch import fingerprint
    prints = [fingerprint(_cone(math.radians(60.0), angle=math.radians(a))[0], {})
              for a in (40.0, 41.0, 40.0)]
    assert prints[0] != prints[1] and prints[0] == prints[2]
    m = pickle.loads(pickle.dumps(_cone(math.radians(60.0), angle=math.radians(40.0))[0]))
    assert m.joint("tilt").angle == pytest.approx(math.radians(40.0))


def test_dof_report_and_joint_coordinates_of_the_orientation_joints():
    from SimPhantWorkbench.solver.dof import row_label
    from SimPhantWorkbench.solver.joint_outputs import joint_coordinates
    from SimPhantWorkbench.solver.joints import JOINT_TYPES
    m, b, par, link = _parallel_hanger(0.5)
    rep = m.dof_report()
    assert (rep.gruebler, rep.mobility, rep.redundant) == (3, 3, 0)
    # about the common axis the parallel joint leaves an angle; the others no coordinate
    assert joint_coordinates("parallel") == ["angle"]
    assert joint_coordinates("perpendicular") == [] and joint_coordinates("angle") == []
    assert row_label(*JOINT_TYPES["angle"].rows[0]) == "angle between the joint z axes"
    # a parallel joint next to a revolute on the same axis: its two rows are redundant
    m2 = Model()
    body = m2.add_body("b", mass=1.0, inertia=(1, 2, 3), position=(0.5, 0, 0))
    m2.add_joint("revolute", m2.ground, body, point=(0, 0, 0), axis=(0, 0, 1))
    m2.add_joint("parallel", m2.ground, body, point=(0, 0, 0), axis=(0, 0, 1))
    assert m2.dof_report().redundant == 2
