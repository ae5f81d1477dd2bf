"""Contact elements (``solver.contact``): a sphere dropped on a plate against the closed
forms of Hertz's and Hunt and Crossley's impacts, a block on a ramp sticking below and
sliding above tan(theta) = mu_s, the narrow phase against an independent evaluation and
the normal force against the finite-difference gradient of its potential, friction's
direction, the broad phase, the energy balance, storage and bad input."""
import math

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.optimize import brentq
from scipy.special import gamma

from SimPhantWorkbench.solver import Model, ModelError
from SimPhantWorkbench.solver import contact as C
from SimPhantWorkbench.solver.result_file import read_result_file

from .helpers import gradient_fd

G = 9.81
R = 0.01          # ball radius [m]
GAP = 1e-4        # ball above the plate at t0 [m]


def _drop(v0=1.0, **law):
    """A 1 kg ball of radius R falling at v0 onto the ground plate z <= 0 (no gravity)."""
    m = Model(gravity=(0, 0, 0))
    z0 = R + GAP
    b = m.add_body("ball", mass=1.0, inertia=(4e-5,) * 3, position=(0, 0, z0),
                   velocity=(0, 0, -v0))
    m.add_contact(b, m.ground, C.sphere((0, 0, z0), R), C.half_space((0, 0, 0), (0, 0, 1)),
                  name="c", **law)
    return m, b


def _contact_span(t, p):
    """(start, end) of p > 0, interpolated linearly between the samples."""
    i = np.nonzero(p > 0)[0]
    a, b = i[0], i[-1]
    ta = t[a - 1] + (t[a] - t[a - 1]) * (-p[a - 1]) / (p[a] - p[a - 1])
    tb = t[b] + (t[b + 1] - t[b]) * p[b] / (p[b] - p[b + 1])
    return ta, tb


def _measure(r, b):
    z = r.position(b)[:, 2]
    p = R - z
    ta, tb = _contact_span(r.t, p)
    return p.max(), tb - ta, r.velocity(b)[-1, 2]


def test_elastic_impact_matches_hertz_closed_form():
    """k p^1.5 without damping (Hertz): the largest penetration ((n+1) m v0^2 / 2k)^(1/(n+1)),
    the contact time 2 p_max / v0 sqrt(pi) Gamma(1 + 1/(n+1)) / Gamma(1/2 + 1/(n+1)) and
    the ball leaves at the speed it came."""
    k, n, m, v0 = 1e9, 1.5, 1.0, 1.0
    model, b = _drop(v0, stiffness=k, exponent=n)
    r = model.simulate(t_end=1.1e-3, dt=1e-6, output_dt=1e-6)
    pmax, tc, vout = _measure(r, b)
    p_ref = ((n + 1) * m * v0 ** 2 / (2 * k)) ** (1 / (n + 1))
    t_ref = 2 * p_ref / v0 * math.sqrt(math.pi) * gamma(1 + 1 / (n + 1)) \
        / gamma(0.5 + 1 / (n + 1))
    assert pmax == pytest.approx(p_ref, rel=1e-5)        # (the acceptance: 2 %)
    assert tc == pytest.approx(t_ref, rel=1e-5)
    assert vout == pytest.approx(v0, rel=1e-6)


def _hunt_crossley_reference(k, n, m, v0, alpha):
    """Hunt-Crossley's impact m x'' = -k x^n (1 + alpha x') in closed form: with
    Phi(v) = (alpha v - ln(1 + alpha v)) / alpha^2, m Phi(v) + k x^(n+1)/(n+1) is
    constant; p_max at v = 0, the rebound where x = 0 again, the contact time
    int m dv / (k x(v)^n (1 + alpha v)) over the velocities passed through."""
    phi = lambda v: (alpha * v - math.log1p(alpha * v)) / alpha ** 2  # noqa: E731
    p_max = ((n + 1) * m * phi(v0) / k) ** (1 / (n + 1))
    v_out = brentq(lambda v: phi(v) - phi(v0), -1 / alpha * (1 - 1e-12), -1e-12, xtol=1e-15)

    dphi = lambda v: v / (1 + alpha * v)  # noqa: E731  (Phi')
    scale = (n + 1) * m / k
    ex = n / (n + 1)       # x^n ~ distance^(n/(n+1)) at both ends: the algebraic weight

    def smooth(v):
        """m / (k x^n (1 + alpha v)) over the weight ((v - v_out)(v0 - v))^-ex."""
        D = phi(v0) - phi(v)
        if D > 1e-9 * phi(v0):
            ratio = (v - v_out) * (v0 - v) / (scale * D)
        elif v0 - v < v - v_out:    # at an end D is linear in the distance to it
            ratio = (v - v_out) / (scale * dphi(v0))
        else:
            ratio = (v0 - v) / (scale * -dphi(v_out))
        return m / (k * (1 + alpha * v)) * ratio ** ex

    tc = quad(smooth, v_out, v0, weight="alg", wvar=(-ex, -ex), epsabs=0, epsrel=1e-10)[0]
    return p_max, tc, v_out


@pytest.mark.parametrize("restitution", [0.9, 0.6])
def test_damped_impact_matches_hunt_crossley_closed_form(restitution):
    k, n, m, v0 = 1e9, 1.5, 1.0, 1.0
    alpha = 1.5 * (1 - restitution) / v0
    model, b = _drop(v0, stiffness=k, exponent=n, law="hunt_crossley",
                     restitution=restitution, impact_speed=v0)
    r = model.simulate(t_end=1.2e-3, dt=1e-6, output_dt=1e-6)
    pmax, tc, vout = _measure(r, b)
    p_ref, t_ref, v_ref = _hunt_crossley_reference(k, n, m, v0, alpha)
    assert pmax == pytest.approx(p_ref, rel=1e-5)        # (the acceptance: 2 %)
    assert tc == pytest.approx(t_ref, rel=1e-5)
    assert -vout == pytest.approx(v_ref, rel=1e-6)      # (the ball's z velocity: up)
    # the Result's contact outputs: the largest penetration and the force on the ball
    out = r.contact("c")
    assert out["penetration"].max() == pytest.approx(pmax, rel=1e-9)
    i = np.argmax(out["normal_force"][:, 2])
    assert out["normal_force"][i, :2] == pytest.approx([0, 0], abs=1e-9)
    assert out["point"][i] == pytest.approx([0, 0, -0.5 * out["penetration"][i]], abs=1e-12)
    # energy: kinetic + elastic + dissipated stays constant
    e = r.energy()
    ke0 = e["kinetic"][0]
    assert e["dissipated"][-1] == pytest.approx(ke0 - 0.5 * v_ref ** 2, rel=1e-3)
    assert np.ptp(e["balance"]) < 1e-3 * ke0



def test_the_energy_a_contact_dissipates_is_summed_in_the_run_at_any_output_step():
    """The contact's dissipated power is summed over the integration steps, not over the
    output samples: with output every 100 steps (a handful of samples in the contact) the
    energy lost equals the Hunt-Crossley closed form's, and the balance stays flat."""
    k, n, m, v0, restitution = 1e9, 1.5, 1.0, 1.0, 0.6
    alpha = 1.5 * (1 - restitution) / v0
    model, b = _drop(v0, stiffness=k, exponent=n, law="hunt_crossley",
                     restitution=restitution, impact_speed=v0)
    r = model.simulate(t_end=1.2e-3, dt=1e-6, output_dt=1e-4)
    _p, _t, v_ref = _hunt_crossley_reference(k, n, m, v0, alpha)
    e = r.energy()
    ke0 = e["kinetic"][0]
    assert e["dissipated"][-1] == pytest.approx(ke0 - 0.5 * v_ref ** 2, rel=1e-5)
    assert np.ptp(e["balance"]) < 1e-6 * ke0

def test_dropped_under_gravity_the_ball_comes_to_rest_carrying_its_weight():
    model, b = _drop(0.0, stiffness=1e8, exponent=1.5, damping=2e3, penetration=1e-5)
    model.gravity = (0, 0, -G)
    r = model.simulate(t_end=0.3, dt=1e-5, output_dt=1e-3)
    f = r.contact("c")["normal_force"][-1]
    assert f == pytest.approx([0, 0, G], rel=1e-4, abs=1e-9)
    assert R - r.position(b)[-1, 2] == pytest.approx((G / 1e8) ** (1 / 1.5), rel=1e-3)


# --------------------------------------------------------------------------- ramp
HX, HY, HZ = 0.05, 0.04, 0.02       # block half sizes [m]
MU_S, MU_D = 0.3, 0.2


def _block_on_ramp(theta, vx0=0.0):
    """A 1 kg block on the plate z <= 0 with gravity tilted by theta about y (the ramp
    along +x, downhill), its 8 corners the contact's sample points."""
    m = Model(gravity=(G * math.sin(theta), 0, -G * math.cos(theta)))
    k, ex = 1e6, 1.5
    p_eq = (G * math.cos(theta) / 4 / k) ** (1 / ex)
    z0 = HZ - p_eq
    inertia = (1 / 3 * (HY ** 2 + HZ ** 2), 1 / 3 * (HX ** 2 + HZ ** 2),
               1 / 3 * (HX ** 2 + HY ** 2))
    b = m.add_body("block", mass=1.0, inertia=inertia, position=(0, 0, z0), velocity=(vx0, 0, 0))
    corners = np.array([(sx * HX, sy * HY, z0 + sz * HZ) for sx in (-1, 1) for sy in (-1, 1)
                        for sz in (-1, 1)])
    m.add_contact(b, m.ground, C.convex(corners), C.half_space((0, 0, 0), (0, 0, 1)),
                  name="c", stiffness=k, exponent=ex, damping=300.0, penetration=1e-4,
                  mu_static=MU_S, mu_dynamic=MU_D, stiction_speed=1e-4, friction_speed=1e-3)
    return m, b


def _acceleration(r, b, t0):
    keep = r.t >= t0
    return np.polyfit(r.t[keep], r.velocity(b)[keep, 0], 1)[0]


def test_block_above_the_friction_angle_slides_with_g_sin_minus_mu_d_cos():
    theta = math.radians(20.0)          # tan 20 deg = 0.364 > mu_s
    m, b = _block_on_ramp(theta, vx0=0.05)
    r = m.simulate(t_end=0.5, dt=2e-5, output_dt=1e-3)
    a_ref = G * (math.sin(theta) - MU_D * math.cos(theta))
    assert _acceleration(r, b, 0.2) == pytest.approx(a_ref, abs=1e-5)   # (acceptance 1e-3)
    ft = r.contact("c")["friction_force"][-1]
    assert ft[0] == pytest.approx(-MU_D * G * math.cos(theta), rel=1e-3)     # uphill


def test_block_below_the_friction_angle_sticks():
    theta = math.radians(15.0)          # tan 15 deg = 0.268 < mu_s
    m, b = _block_on_ramp(theta)
    r = m.simulate(t_end=0.5, dt=2e-5, output_dt=1e-3)
    assert abs(_acceleration(r, b, 0.2)) < 1e-5                        # (acceptance 1e-3)
    assert np.abs(r.velocity(b)[r.t >= 0.2, 0]).max() < 1e-4      # below the stiction speed
    ft = r.contact("c")["friction_force"][-1]
    assert ft[0] == pytest.approx(-G * math.sin(theta), rel=1e-3)   # holds the block


# --------------------------------------------------------------------------- narrow phase
def _box_and_ball(pos, rot, ball, radius, k=1e5, e=1.5):
    """A box (half sizes HX, HY, HZ) on a body at ``pos`` turned by ``rot`` (matrix), a
    ball of ``radius`` at ``ball`` (world); the contact's shapes from their geometry."""
    from SimPhantWorkbench.solver.rotations import matrix_to_quat
    m = Model(gravity=(0, 0, 0))
    q = matrix_to_quat(rot)
    box = m.add_body("box", mass=2.0, inertia=(0.01, 0.02, 0.03), position=pos, orientation=q)
    bb = m.add_body("ball", mass=1.0, inertia=(1e-3,) * 3, position=ball)
    corners = np.array([(sx * HX, sy * HY, sz * HZ) for sx in (-1, 1) for sy in (-1, 1)
                        for sz in (-1, 1)]) @ rot.T + pos
    m.add_contact(bb, box, C.sphere(ball, radius), C.convex(corners), name="c", stiffness=k,
                  exponent=e)
    return m, box, bb


def _independent_box_penetration(pos, rot, x, radius):
    """Penetration and outward normal of a ball at x into the box, from its half sizes."""
    y = rot.T @ (np.asarray(x) - pos)
    s = np.abs(y) - (HX, HY, HZ)
    i = int(np.argmax(s))
    n = np.zeros(3)
    n[i] = math.copysign(1.0, y[i])
    return radius - s[i], rot @ n


def _turn(rng):
    from SimPhantWorkbench.solver.rotations import quat_to_matrix
    q = rng.normal(size=4)
    return quat_to_matrix(q / np.linalg.norm(q))


@pytest.mark.parametrize("seed", range(4))
def test_penetration_and_normal_match_an_independent_evaluation(seed):
    rng = np.random.default_rng(seed)
    pos = rng.normal(size=3) * 0.1
    rot = _turn(rng)
    # a ball centre inside the box near a random face, so its penetration is exact
    y = rng.uniform(-0.6, 0.6, size=3) * (HX, HY, HZ)
    i = rng.integers(3)
    y[i] = math.copysign((HX, HY, HZ)[i] - 0.004, rng.normal())
    ball = rot @ y + pos
    radius = 0.01
    m, box, bb = _box_and_ball(pos, rot, ball, radius)
    sysm = m.compile()
    sysm.evaluate(0.0, sysm.y0)
    out = C.contact_outputs(sysm.W.cnt_out)
    p_ref, n_ref = _independent_box_penetration(pos, rot, ball, radius)
    assert out["penetration"][0] == pytest.approx(p_ref, rel=1e-10)
    fn = out["normal_force"][0]
    assert fn / np.linalg.norm(fn) == pytest.approx(n_ref, abs=1e-10)     # out of the box
    assert np.linalg.norm(fn) == pytest.approx(1e5 * p_ref ** 1.5, rel=1e-10)
    # the numpy narrow phase agrees
    p_np, n_np = C.penetration(m.force_elements[0].shapes[1], ball, radius)
    assert p_np == pytest.approx(p_ref, rel=1e-10) and n_np == pytest.approx(n_ref, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_normal_force_is_minus_the_gradient_of_the_contact_potential(seed):
    """Without damping the force on the ball is -dV/dx of the potential the kernel reports
    (central differences of the ball's position), and the torque on the box is that of the
    opposite force at the contact point."""
    rng = np.random.default_rng(10 + seed)
    pos = rng.normal(size=3) * 0.1
    rot = _turn(rng)
    y = rng.uniform(-0.5, 0.5, size=3) * (HX, HY, HZ)
    i = rng.integers(3)
    y[i] = math.copysign((HX, HY, HZ)[i] + 0.003, rng.normal())
    ball = rot @ y + pos

    def outputs(x):
        m, _box, _bb = _box_and_ball(pos, rot, x, 0.01, k=1e5, e=1.7)
        sysm = m.compile()
        sysm.evaluate(0.0, sysm.y0)
        return C.contact_outputs(sysm.W.cnt_out), sysm
    out, sysm = outputs(ball)
    grad = gradient_fd(lambda x: outputs(x)[0]["potential"][0], ball)
    assert out["normal_force"][0] == pytest.approx(-grad, rel=1e-6, abs=1e-9)
    # the box (body 0) takes -F at the contact point: its world force and body torque
    F = -out["normal_force"][0]
    Q = sysm.W.Q
    assert Q[0, :3] == pytest.approx(F, rel=1e-12)
    torque_w = np.cross(out["point"][0] - pos, F)
    A = sysm.W.A[0]
    assert A @ Q[0, 3:] == pytest.approx(torque_w, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("frac", [0.3, 0.7, 1.5])
def test_damped_normal_force_is_adams_impact_of_the_approach_speed(frac):
    """A ball entering the plate at 0.2 m/s, spinning (no effect on the normal rate), at
    the penetration frac d_max: fn = k p^e + c_max a^2 (3 - 2a) p_dot, a = min(p/d_max, 1)."""
    k, e, c, d, v = 1e8, 1.5, 500.0, 1e-4, 0.2
    p = frac * d
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("ball", mass=1.0, inertia=(4e-5,) * 3, position=(0, 0, R - p),
                   velocity=(0, 0, -v), angular_velocity=(3.0, -2.0, 5.0))
    m.add_contact(b, m.ground, C.sphere((0, 0, R - p), R), C.half_space((0, 0, 0), (0, 0, 1)),
                  name="c", stiffness=k, exponent=e, damping=c, penetration=d)
    sysm = m.compile()
    sysm.evaluate(0.0, sysm.y0)
    a = min(frac, 1.0)
    out = C.contact_outputs(sysm.W.cnt_out)
    assert out["normal_force"][0] == pytest.approx(
        [0, 0, k * p ** e + c * a * a * (3 - 2 * a) * v], rel=1e-12)
    assert out["penetration"][0] == pytest.approx(p, rel=1e-9)


def test_friction_opposes_sliding_and_follows_the_regularised_coulomb_law():
    """mu(s) written out (Adams' CONTACT: STEP(s, -vs, -mu_s, vs, mu_s) below vs, STEP
    from mu_s to mu_d up to vd, mu_d beyond) against the kernel's mu(s) / s."""
    mus, mud, vs, vd = 0.5, 0.3, 1e-3, 4e-3

    def step(x, x0, h0, x1, h1):
        a = min(max((x - x0) / (x1 - x0), 0.0), 1.0)
        return h0 + (h1 - h0) * a * a * (3 - 2 * a)
    for s in (1e-9, 2e-4, 9e-4, 1e-3, 2e-3, 3.9e-3, 5e-3, 1.0):
        mu = step(s, -vs, -mus, vs, mus) if s < vs else step(s, vs, mus, vd, mud)
        assert C.friction_over_speed(s, mus, mud, vs, vd) * s == pytest.approx(mu, rel=1e-6)
    assert C.friction_over_speed(0.0, mus, mud, vs, vd) == pytest.approx(1.5 * mus / vs)


def test_a_ball_sliding_on_the_plate_is_braked_against_its_motion():
    m = Model(gravity=(0, 0, -G))
    p = (G / 1e7) ** (1 / 1.5)
    b = m.add_body("ball", mass=1.0, inertia=(4e-5,) * 3, position=(0, 0, R - p),
                   velocity=(0.6, -0.8, 0))
    m.add_contact(b, m.ground, C.sphere((0, 0, R - p), R), C.half_space((0, 0, 0), (0, 0, 1)),
                  name="c", stiffness=1e7, damping=1e3, penetration=1e-5, mu_static=0.3,
                  mu_dynamic=0.2)
    r = m.simulate(t_end=0.01, dt=1e-5, output_dt=1e-3)
    ft = r.contact("c")["friction_force"][-1]
    v = r.velocity(b)[-1, :2]
    w = r.angular_velocity(b)[-1]
    slip = v + np.cross(w, (0, 0, -R))[:2]
    assert np.dot(ft[:2], slip) < 0
    assert ft[:2] / np.linalg.norm(ft[:2]) == pytest.approx(-slip / np.linalg.norm(slip),
                                                            abs=1e-6)
    assert np.linalg.norm(ft) == pytest.approx(0.2 * G, rel=1e-3)


def test_bodies_apart_are_skipped_by_the_broad_phase_bit_for_bit():
    """Two balls that never come near: the run with the contact equals the run without."""
    def run(with_contact):
        m = Model(gravity=(0, 0, -G))
        a = m.add_body("a", mass=1.0, inertia=(1e-3,) * 3, position=(0, 0, 0))
        b = m.add_body("b", mass=1.0, inertia=(1e-3,) * 3, position=(1.0, 0, 0),
                       velocity=(0.1, 0, 0))
        if with_contact:
            m.add_contact(a, b, C.sphere((0, 0, 0), 0.1), C.sphere((1, 0, 0), 0.1), name="c")
        return m.simulate(t_end=0.2, dt=1e-3, output_dt=1e-2)
    r1, r0 = run(True), run(False)
    assert np.array_equal(r1.states, r0.states)
    assert not r1.contact("c")["normal_force"].any()


def test_two_balls_collide_head_on_and_exchange_their_speeds():
    """Equal balls, elastic contact: after the collision the first is at rest and the
    second carries its speed (momentum and energy conserved)."""
    m = Model(gravity=(0, 0, 0))
    a = m.add_body("a", mass=1.0, inertia=(4e-5,) * 3, position=(0, 0, 0), velocity=(1, 0, 0))
    b = m.add_body("b", mass=1.0, inertia=(4e-5,) * 3, position=(0.0201, 0, 0))
    m.add_contact(a, b, C.sphere((0, 0, 0), R), C.sphere((0.0201, 0, 0), R), name="c",
                  stiffness=1e9)
    r = m.simulate(t_end=1.5e-3, dt=1e-6, output_dt=1e-5)
    assert r.velocity(a)[-1] == pytest.approx([0, 0, 0], abs=1e-6)
    assert r.velocity(b)[-1] == pytest.approx([1, 0, 0], abs=1e-6)


def test_contact_outputs_survive_save_and_reopen(tmp_path):
    model, _b = _drop(1.0, stiffness=1e9)
    r = model.simulate(t_end=1e-3, dt=1e-6, output_dt=1e-5)
    path = tmp_path / "r.npz"
    r.save(str(path))
    back = read_result_file(str(path))
    for key, val in r.contact("c").items():
        np.testing.assert_array_equal(back.contact("c")[key], val)


@pytest.mark.parametrize("kw, match", [
    (dict(stiffness=0.0), "stiffness must be > 0"),
    (dict(exponent=0.5), "exponent must be >= 1"),
    (dict(law="rigid"), "law must be one of impact, hunt_crossley"),
    (dict(restitution=1.5), r"restitution must be in \[0, 1\]"),
    (dict(mu_static=-0.1), "mu_static must be >= 0"),
    (dict(stiction_speed=1e-2, friction_speed=1e-3), "friction_speed .* above stiction_speed"),
    (dict(wrong=1.0), "unknown parameter"),
])
def test_bad_contacts_are_rejected_with_the_element_named(kw, match):
    m = Model()
    b = m.add_body("ball", mass=1.0, inertia=(1, 1, 1))
    with pytest.raises(ModelError, match="contact 'bad'.*" + match):
        m.add_contact(b, m.ground, C.sphere((0, 0, 0), R), C.half_space((0, 0, 0), (0, 0, 1)),
                      name="bad", **kw)


def test_a_half_space_as_first_shape_and_flat_hulls_are_refused():
    m = Model()
    b = m.add_body("ball", mass=1.0, inertia=(1, 1, 1))
    with pytest.raises(ModelError, match="contact 'c'.*half-space can only be the second"):
        m.add_contact(m.ground, b, C.half_space((0, 0, 0), (0, 0, 1)), C.sphere((0, 0, 0), R),
                      name="c")
    with pytest.raises(ModelError, match="spanning a volume"):
        C.convex([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)])


# --------------------------------------------------------------------------- cam
E_CAM, R_CAM = 0.005, 0.02          # eccentricity and radius of a circular disc cam [m]


def _cam_and_follower(omega):
    """A circular cam (a sphere of radius R_CAM, centre E_CAM off its shaft) turned at
    ``omega`` about the world y axis, its centre above the shaft at t0, and a flat-faced
    follower (0.5 kg) on a vertical slide resting on it under gravity."""
    m = Model(gravity=(0, 0, -G))
    cam = m.add_body("cam", mass=1.0, inertia=(1e-3,) * 3, position=(0, 0, E_CAM))
    shaft = m.add_joint("revolute", m.ground, cam, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_driver(shaft, position=lambda t: omega * t, velocity=lambda t: omega,
                 acceleration=lambda t: 0.0)
    k = 1e8
    p_eq = (0.5 * G / k) ** (1 / 1.5)
    zb = E_CAM + R_CAM - p_eq
    fol = m.add_body("follower", mass=0.5, inertia=(1e-4,) * 3, position=(0, 0, zb + 0.01))
    m.add_joint("prismatic", m.ground, fol, point=(0, 0, zb), axis=(0, 0, 1))
    m.add_contact(cam, fol, C.sphere((0, 0, E_CAM), R_CAM), C.half_space((0, 0, zb), (0, 0, -1)),
                  name="c", stiffness=k, damping=200.0, penetration=1e-5)
    return m, cam, fol


@pytest.mark.parametrize("ratio", [0.9, 1.1])
def test_a_flat_follower_follows_a_circular_cam_and_lifts_off_above_the_computed_speed(ratio):
    """The follower's face rides at the cam's top, z_cam + R (to the contact's penetration,
    tens of um), while e omega^2 < g; above omega = sqrt(g / e) gravity cannot pull it down
    fast enough over the cam's top: it lifts off (no contact force, a gap)."""
    omega = ratio * math.sqrt(G / E_CAM)
    m, cam, fol = _cam_and_follower(omega)
    r = m.simulate(t_end=2 * 2 * math.pi / omega, dt=2e-5, output_dt=2e-4)
    gap = r.position(fol)[:, 2] - 0.01 - (r.position(cam)[:, 2] + R_CAM)
    fn = -r.contact("c")["normal_force"][:, 2]     # on the cam: down
    if ratio < 1:       # on the profile to the penetration (tens of um), never off it
        assert np.abs(gap).max() < 5e-5 and gap.max() < 1e-5
        assert fn[r.t > 0.1].min() > 0.5 * 0.5 * G * (1 - ratio ** 2)
    else:               # its flight over the cam's top: 0.70 mm high (falling at g)
        assert gap.max() > 5e-4 and (fn == 0).any()
