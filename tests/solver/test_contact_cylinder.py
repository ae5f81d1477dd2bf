"""The cylinder contact shape (``contact.cylinder``): its signed distance against the
closest point of the finite cylinder found by clamping, its normal against the
central-difference gradient of the distance, the contact force against minus the gradient
of the contact's potential, a solid cylinder rolling down an incline without slipping
(a = 2/3 g sin theta) and a cylinder dropped on its side onto a plate (line contact)
against an independent solve_ivp of the one-degree-of-freedom impact."""
import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from SimPhantWorkbench.solver import Model, ModelError
from SimPhantWorkbench.solver import contact as C
from SimPhantWorkbench.solver.rotations import matrix_to_quat, quat_to_matrix

from .helpers import gradient_fd, random_rotation

G = 9.81
RC, HC = 0.02, 0.01          # cylinder radius and half length [m]


def _turn(rng):
    return quat_to_matrix(random_rotation(rng))


def _independent_distance(y, R=RC, h=HC):
    """Signed distance of a point given in the cylinder's frame (axis z, centre 0): outside,
    to the closest point of the solid found by clamping; inside, to the nearer of the
    mantle and the end faces."""
    rho = math.hypot(y[0], y[1])
    if rho <= R and abs(y[2]) <= h:
        return -min(R - rho, h - abs(y[2]))
    s = min(rho, R) / rho if rho > 0 else 0.0
    q = np.array([y[0] * s, y[1] * s, min(max(y[2], -h), h)])
    return float(np.linalg.norm(y - q))


def _points(rng, n):
    """Points around and inside the cylinder (its frame): inside, beyond the mantle,
    beyond the end faces and around the rims."""
    out = []
    for k in range(n):
        phi = rng.uniform(0, 2 * math.pi)
        region = k % 4
        rho = {0: rng.uniform(0.2, 0.95), 1: rng.uniform(1.05, 1.5), 2: rng.uniform(0.1, 0.9),
               3: rng.uniform(1.05, 1.5)}[region] * RC
        z = {0: rng.uniform(-0.9, 0.9), 1: rng.uniform(-0.9, 0.9),
             2: rng.choice([-1, 1]) * rng.uniform(1.05, 1.6),
             3: rng.choice([-1, 1]) * rng.uniform(1.05, 1.6)}[region] * HC
        out.append((rho * math.cos(phi), rho * math.sin(phi), z))
    return np.array(out)


def test_signed_distance_matches_the_clamped_closest_point_in_any_pose():
    rng = np.random.default_rng(1)
    for _ in range(5):
        rot = _turn(rng)
        c = rng.normal(size=3) * 0.1
        shape = C.cylinder(c, rot[:, 2] * 3.0, RC, HC)       # any axis length
        for y in _points(rng, 40):
            x = c + rot @ y
            pen, n = C.penetration(shape, x, 0.004)
            assert pen == pytest.approx(0.004 - _independent_distance(y), abs=1e-15)
            assert np.linalg.norm(n) == pytest.approx(1.0, abs=1e-12)


def test_normal_is_the_gradient_of_the_signed_distance():
    """Central differences of the distance (inside, beyond the mantle, beyond an end face,
    around a rim) give the unit normal the kernel pushes along."""
    rng = np.random.default_rng(2)
    rot = _turn(rng)
    c = rng.normal(size=3) * 0.1
    a = rot[:, 2]
    for y in _points(rng, 24):
        x = c + rot @ y
        n = C.cylinder_distance(*x, *a, *c, RC, HC)[1:]
        grad = gradient_fd(lambda p: C.cylinder_distance(*p, *a, *c, RC, HC)[0], x)
        assert n == pytest.approx(grad, abs=1e-7)


def _ball_and_cylinder(pos, rot, ball, radius, k=1e5, e=1.5):
    """A cylinder body (axis its z, at ``pos`` turned by ``rot``) and a ball at ``ball``."""
    m = Model(gravity=(0, 0, 0))
    cyl = m.add_body("roller", mass=2.0, inertia=(0.01, 0.02, 0.03), position=pos,
                     orientation=matrix_to_quat(rot))
    bb = m.add_body("ball", mass=1.0, inertia=(1e-3,) * 3, position=ball)
    # the shape's centre off the CoG and its axis along the body's z
    off = np.array([0.002, -0.001, 0.003])
    m.add_contact(bb, cyl, C.sphere(ball, radius), C.cylinder(pos + rot @ off, rot[:, 2],
                                                              RC, HC),
                  name="c", stiffness=k, exponent=e)
    return m, off


@pytest.mark.parametrize("seed", range(4))
def test_kernel_penetration_and_force_are_minus_the_gradient_of_the_potential(seed):
    """Without damping the force on a ball touching the cylinder (mantle, end face or rim)
    is -dV/dx of the potential the kernel reports, its size k p^e with p from the
    independent distance, and the cylinder's body takes the opposite force and its torque
    at the contact point."""
    rng = np.random.default_rng(20 + seed)
    pos = rng.normal(size=3) * 0.1
    rot = _turn(rng)
    radius = 0.005
    y = _points(rng, 4)[seed]
    # move the ball onto the surface, 1 mm deep
    d = _independent_distance(y)
    grad = gradient_fd(_independent_distance, y, 1e-8)
    y = y - (d - radius + 0.001) * grad
    off = np.array([0.002, -0.001, 0.003])
    ball = pos + rot @ (y + off)

    def outputs(x):
        m, _ = _ball_and_cylinder(pos, rot, x, radius, k=1e5, e=1.7)
        sysm = m.compile()
        sysm.evaluate(0.0, sysm.y0)
        return C.contact_outputs(sysm.W.cnt_out), sysm
    out, sysm = outputs(ball)
    p_ref = radius - _independent_distance(y)
    assert p_ref == pytest.approx(0.001, rel=1e-6)
    assert out["penetration"][0] == pytest.approx(p_ref, rel=1e-9)
    assert np.linalg.norm(out["normal_force"][0]) == pytest.approx(1e5 * p_ref ** 1.7,
                                                                   rel=1e-9)
    g = gradient_fd(lambda x: outputs(x)[0]["potential"][0], ball)
    assert out["normal_force"][0] == pytest.approx(-g, rel=1e-6, abs=1e-9)
    F = -out["normal_force"][0]                 # on the cylinder (body 0)
    Q = sysm.W.Q
    assert Q[0, :3] == pytest.approx(F, rel=1e-12)
    torque_w = np.cross(out["point"][0] - pos, F)
    assert sysm.W.A[0] @ Q[0, 3:] == pytest.approx(torque_w, rel=1e-9, abs=1e-12)


# --------------------------------------------------------------------------- rolling
def _grid(x0, x1, dx, ys):
    xs = np.arange(x0, x1 + 0.5 * dx, dx)
    return np.array([(x, y, 0.0) for x in xs for y in ys])


def test_solid_cylinder_rolls_down_an_incline_at_two_thirds_g_sin_theta():
    """A solid cylinder on the plate z <= 0, gravity tilted by theta (the incline along
    +x), friction well above tan(theta) / 3: it rolls without slipping, its centre
    accelerating at 2/3 g sin(theta), v = omega R. The plate's sample points (a grid on
    its face) touch the exact cylinder."""
    theta = math.radians(20.0)
    m_c = 1.0
    model = Model(gravity=(G * math.sin(theta), 0, -G * math.cos(theta)))
    k, ex = 2e4, 1.0
    # the penetration holding the weight on the grid's rows (line contact, continuous
    # estimate): m g cos = n_y k / dx * 4/3 p sqrt(2 R p)
    dx, ys = 1e-4, np.linspace(-0.8 * HC, 0.8 * HC, 5)
    w = m_c * G * math.cos(theta)
    p_eq = (w * dx / (len(ys) * k * 4 / 3 * math.sqrt(2 * RC))) ** (1 / 1.5)
    z0 = RC - p_eq
    inertia = (m_c * (3 * RC ** 2 + 4 * HC ** 2) / 12, m_c * RC ** 2 / 2,
               m_c * (3 * RC ** 2 + 4 * HC ** 2) / 12)
    b = model.add_body("roller", mass=m_c, inertia=inertia, position=(0, 0, z0))
    plate = C.convex([(-0.01, -0.02, -0.01), (0.08, -0.02, -0.01), (-0.01, 0.02, -0.01),
                      (0.08, 0.02, -0.01), (-0.01, -0.02, 0.0), (0.08, -0.02, 0.0),
                      (-0.01, 0.02, 0.0), (0.08, 0.02, 0.0)],
                     samples=_grid(-0.005, 0.07, dx, ys))
    model.add_contact(model.ground, b, plate, C.cylinder((0, 0, z0), (0, 1, 0), RC, HC),
                      name="c", stiffness=k, exponent=ex, mu_static=0.8, mu_dynamic=0.8,
                      stiction_speed=1e-4, friction_speed=1e-3)
    r = model.simulate(t_end=0.2, dt=2e-5, output_dt=1e-3)
    keep = r.t >= 0.02
    vx = r.velocity(b)[:, 0]
    a = np.polyfit(r.t[keep], vx[keep], 1)[0]
    assert a == pytest.approx(2 / 3 * G * math.sin(theta), rel=5e-4)
    # rolling: the centre's speed is omega R (omega about +y turns +z into +x)
    wy = r.angular_velocity(b)[:, 1]
    assert vx[keep] == pytest.approx(wy[keep] * (RC - p_eq), rel=1e-3, abs=1e-4)
    assert r.position(b)[-1, 0] > 0.03                      # it did roll on the grid


# --------------------------------------------------------------------------- drop
def test_cylinder_dropped_on_its_side_matches_an_independent_impact_solve():
    """A cylinder (axis y) falling at v0 onto the plate's sample grid, no gravity, no
    damping: the largest total force and the contact time against solve_ivp of
    m z'' = F(R - z) with F summed over the samples (k p_i^e along the radius to the
    sample, its vertical part), and the rebound at the speed it came."""
    k, ex, v0, m_c = 1e9, 1.5, 0.5, 0.3
    dx, ys = 5e-5, np.linspace(-0.8 * HC, 0.8 * HC, 5)
    grid = _grid(-0.002, 0.002, dx, ys)
    gap = 1e-5
    z0 = RC + gap
    model = Model(gravity=(0, 0, 0))
    inertia = (m_c * (3 * RC ** 2 + 4 * HC ** 2) / 12, m_c * RC ** 2 / 2,
               m_c * (3 * RC ** 2 + 4 * HC ** 2) / 12)
    b = model.add_body("roller", mass=m_c, inertia=inertia, position=(0, 0, z0),
                       velocity=(0, 0, -v0))
    plate = C.convex([(x, y, z) for x in (-0.01, 0.01) for y in (-0.02, 0.02)
                      for z in (-0.01, 0.0)], samples=grid)
    model.add_contact(model.ground, b, plate, C.cylinder((0, 0, z0), (0, 1, 0), RC, HC),
                      name="c", stiffness=k, exponent=ex)
    r = model.simulate(t_end=4e-4, dt=2e-7, output_dt=2e-7)
    fz = -r.contact("c")["normal_force"][:, 2]             # on the cylinder, upwards
    xs = grid[:, 0]

    def force(z):
        rho = np.sqrt(xs ** 2 + z ** 2)
        p = RC - rho
        inside = p > 0
        return float((k * p[inside] ** ex * z / rho[inside]).sum())

    def rhs(_t, s):
        return [s[1], force(s[0]) / m_c]

    def leave(_t, s):
        return s[0] - RC
    leave.terminal, leave.direction = True, 1
    t_touch = gap / v0
    ref = solve_ivp(rhs, (0, 4e-4), [RC, -v0], events=leave, rtol=1e-10, atol=1e-13,
                    max_step=1e-7, dense_output=True)
    t_c = ref.t_events[0][0]
    tt = np.linspace(0, t_c, 4001)
    f_ref = max(force(z) for z in ref.sol(tt)[0])
    assert fz.max() == pytest.approx(f_ref, rel=1e-4)
    on = np.nonzero(fz > 0)[0]
    assert r.t[on[-1]] - r.t[on[0]] == pytest.approx(t_c, rel=2e-3, abs=4e-7)
    assert r.t[on[0]] == pytest.approx(t_touch, abs=4e-7)
    assert r.velocity(b)[-1, 2] == pytest.approx(v0, rel=1e-3)
    assert abs(r.velocity(b)[-1, 0]) < 1e-9                 # straight up: symmetric


def test_bad_cylinders_are_refused():
    with pytest.raises(ModelError, match="cylinder"):
        C.cylinder((0, 0, 0), (0, 0, 0), RC, HC)
    with pytest.raises(ModelError, match="cylinder"):
        C.cylinder((0, 0, 0), (0, 0, 1), -RC, HC)
    with pytest.raises(ModelError, match="cylinder"):
        C.cylinder((0, 0, 0), (0, 0, 1), RC, 0.0)
