"""Integrators, output sampling and Baumgarte stabilisation against exact discrete
and closed-form solutions."""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import METHODS, Model
from SimPhantWorkbench.solver.simulation import baumgarte_constants

G = np.array([0.0, 0.0, -9.81])
R0 = np.array([0.5, -1.0, 2.0])
V0 = np.array([1.0, 0.5, 3.0])


def _falling_body():
    m = Model(gravity=G)
    b = m.add_body("stone", mass=1.5, inertia=(0.1, 0.2, 0.3), position=R0, velocity=V0)
    return m, b


@pytest.mark.parametrize("method, lag", [("euler", -1), ("symplectic_euler", +1)])
def test_first_order_steps_under_constant_gravity(method, lag):
    """n steps of h under constant acceleration g, exactly:
    explicit Euler      r_n = r0 + n h v0 + h^2 g n (n - 1) / 2  (positions with old v),
    symplectic Euler    r_n = r0 + n h v0 + h^2 g n (n + 1) / 2  (positions with new v)."""
    m, b = _falling_body()
    h = 0.01
    r = m.simulate(t_end=0.5, dt=h, method=method, output_dt=0.05)
    n = np.rint(r.t / h)
    expected = R0 + np.outer(n * h, V0) + np.outer(h * h * n * (n + lag) / 2.0, G)
    np.testing.assert_allclose(r.position(b), expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.velocity(b), V0 + np.outer(n * h, G), atol=1e-12)
    assert r.settings["steps"] == 50 and r.settings["nfev"] == 50


@pytest.mark.parametrize("method", ["rk4", "DOP853", "RK45"])
def test_samples_land_on_their_times(method):
    """Output times that do not divide the step (nor the end time): each sample holds
    the state at its own time -- exact for a parabola."""
    m, b = _falling_body()
    r = m.simulate(t_end=0.5, dt=0.01, method=method, output_dt=0.037, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(r.t, np.append(0.037 * np.arange(14), 0.5), atol=1e-15)
    expected = R0 + np.outer(r.t, V0) + 0.5 * np.outer(r.t ** 2, G)
    np.testing.assert_allclose(r.position(b), expected, atol=1e-9)
    np.testing.assert_allclose(r.velocity(b), V0 + np.outer(r.t, G), atol=1e-9)
    np.testing.assert_allclose(r.acceleration(b), np.tile(G, (len(r.t), 1)), atol=1e-12)
    if method == "rk4":
        assert r.settings["nfev"] == 4 * r.settings["steps"]


def test_rk4_is_fourth_order_with_a_time_dependent_force():
    """F(t) = (m cos 3t, 0, 0) from rest: x(t) = (1 - cos 3t) / 9. RK4 evaluates the force
    at the step's start, midpoint (twice) and end; the error falls 16x per halved step."""
    errors = []
    for h in (0.04, 0.02):
        m = Model(gravity=(0, 0, 0))
        b = m.add_body("b", mass=2.0, inertia=(0.1, 0.1, 0.1))
        m.add_force(b, lambda t: (2.0 * math.cos(3.0 * t), 0.0, 0.0))
        r = m.simulate(t_end=2.0, dt=h, method="rk4", output_dt=0.2)
        exact = (1.0 - np.cos(3.0 * r.t)) / 9.0
        errors.append(np.abs(r.position(b)[:, 0] - exact).max())
    assert errors[0] < 1e-6
    assert 12.0 < errors[0] / errors[1] < 20.0, errors


def test_rk4_counts_four_evaluations_per_step():
    m, b = _falling_body()
    r = m.simulate(t_end=0.1, dt=0.01, method="rk4", output_dt=0.1)
    assert r.settings["steps"] == 10 and r.settings["nfev"] == 40
    assert METHODS["rk4"].evals_per_step == 4 and METHODS["rk4"].order == 4


def test_default_baumgarte_constants():
    """Critically damped with time constant max(0.02 s, 5 dt): alpha = beta = 1/tc."""
    assert baumgarte_constants(dt=1e-3) == pytest.approx((50.0, 50.0))
    assert baumgarte_constants(dt=0.01) == pytest.approx((20.0, 20.0))
    assert baumgarte_constants() == pytest.approx((50.0, 50.0))
    assert baumgarte_constants(time_constant=0.1, damping_ratio=0.5) == pytest.approx((5.0, 10.0))
    assert baumgarte_constants(baumgarte=(3.0, 4.0), dt=1e-3) == (3.0, 4.0)
    m, b = _falling_body()
    r = m.simulate(t_end=0.02, dt=0.01, output_dt=0.02)
    assert (r.settings["alpha"], r.settings["beta"]) == pytest.approx((20.0, 20.0))


def test_default_time_constant_is_five_steps_for_coarse_steps():
    """No stabilisation given, dt = 0.01 s: tc = max(0.02, 5 dt) = 0.05 s, critically damped:
    the violation decays as (1 + t/tc) exp(-t/tc) (RK4 at h/tc = 0.2: 1e-3 close)."""
    offset = (0.0, 0.02, -0.01)
    m, b = _offset_pendulum(offset)
    r = m.simulate(t_end=0.3, dt=0.01, method="rk4", output_dt=0.01, assemble=False)
    beta = 1.0 / 0.05
    f = (1.0 + beta * r.t) * np.exp(-beta * r.t)
    np.testing.assert_allclose(r.constraint_violation()["position"], 0.02 * f, atol=1e-3 * 0.02)


def _offset_pendulum(offset):
    """A body at rest whose spherical joint is violated by ``offset`` (not assembled)."""
    m = Model(gravity=(0.0, 0.0, 0.0))
    b = m.add_body("b", mass=2.0, inertia=(0.1, 0.2, 0.15), position=(1.0, 0.0, 0.0))
    m.add_joint("spherical", m.ground, b, frame1=((0.0, 0.0, 0.0), np.eye(3)),
                frame2=(np.asarray(offset, dtype=float), np.eye(3)))
    return m, b


@pytest.mark.parametrize("zeta", [1.0, 0.3])
def test_baumgarte_drives_a_violation_back_as_a_damped_oscillator(zeta):
    """The stabilised acceleration constraint makes Phi'' + 2 alpha Phi' + beta^2 Phi = 0
    exactly (up to Tikhonov 1e-8): from rest, Phi(t) = Phi0 (1 + beta t) e^(-beta t)
    (critically damped), and the underdamped closed form for zeta < 1."""
    offset = (0.0, 0.02, -0.01)
    m, b = _offset_pendulum(offset)
    tc = 0.05
    r = m.simulate(t_end=0.3, dt=1e-4, method="rk4", output_dt=0.01, assemble=False,
                   time_constant=tc, damping_ratio=zeta)
    beta = 1.0 / tc
    t = r.t
    if zeta == 1.0:
        f = (1.0 + beta * t) * np.exp(-beta * t)
    else:
        wd = beta * math.sqrt(1.0 - zeta ** 2)
        f = np.exp(-zeta * beta * t) * (np.cos(wd * t) + zeta * beta / wd * np.sin(wd * t))
    phi0 = np.abs(offset).max()
    np.testing.assert_allclose(r.constraint_violation()["position"], phi0 * np.abs(f),
                               atol=1e-7 * phi0)


def test_a_decaying_mode_is_flushed_to_zero_not_left_subnormal():
    """A chain with a spring-damper on every joint: its out-of-plane motion, seeded by
    round-off, decays geometrically; left alone it reached state entries of 1e-201 after
    8 s (on its way into the subnormal numbers, where every operation is slow). The
    fixed-step loop sets entries below ``kernels.STATE_FLUSH`` to zero after each step."""
    from SimPhantWorkbench.solver import kernels
    m = Model(gravity=(0.0, 0.0, -9.81))
    prev = m.ground
    for i in range(6):
        b = m.add_body("bar%d" % i, mass=1.0, inertia=(2e-4, 0.0834, 0.0834),
                       position=(i + 0.5, 0.0, 0.0))
        j = m.add_joint("revolute", prev, b, point=(float(i), 0.0, 0.0), axis=(0.0, 1.0, 0.0))
        m.add_joint_spring(j, stiffness=10.0, damping=0.5)
        prev = b
    r = m.simulate(t_end=8.0, dt=1e-3, method="rk4", output_dt=0.5)
    Y = np.abs(r.states[:, :13 * 6])
    tiny = Y[(Y > 0.0) & (Y < kernels.STATE_FLUSH)]
    assert tiny.size == 0, "state entries of %g left in the state" % tiny.min()
    assert Y[(Y > 0.0) & (Y < 1e-50)].size > 0      # the decaying mode (passing through)
    assert np.all(np.isfinite(Y)) and Y.max() > 0.1          # the chain did swing


@pytest.mark.parametrize("method", ["rk4", "euler", "symplectic_euler"])
def test_state_entries_below_the_flush_are_zero_after_a_step(method):
    """A free body whose sideways speed is 1e-150 m/s: after the first step that speed
    and the sideways position it makes are zero; the rest of the state is untouched."""
    m = Model(gravity=G)
    m.add_body("stone", mass=1.5, inertia=(0.1, 0.2, 0.3), position=(0.0, 0.0, 0.0),
               velocity=(1.0, 1e-150, 0.0))
    r = m.simulate(t_end=0.01, dt=1e-3, method=method, output_dt=0.01)
    Y = r.states[-1]
    assert Y[8] == 0.0 and Y[1] == 0.0          # v_y and y
    assert Y[7] == 1.0 and Y[0] == pytest.approx(0.01, rel=1e-12)


@pytest.mark.parametrize("method", ["rk4", "euler", "symplectic_euler"])
def test_a_state_that_overflows_stops_the_run_at_that_step(method):
    """A body spun at 1e200 rad/s about two axes: its gyroscopic term overflows in the
    first step, and the run stops there with the non-finite state named, keeping the
    initial sample (no NaN handed on as a result)."""
    from SimPhantWorkbench.solver import SimulationError
    m = Model(gravity=G)
    m.add_body("top", mass=1.5, inertia=(0.1, 0.2, 0.3), angular_velocity=(1e200, 1e200, 0.0))
    with pytest.raises(SimulationError) as e, np.errstate(over="ignore", invalid="ignore"):
        m.simulate(t_end=0.01, dt=1e-3, method=method, output_dt=1e-3)
    assert "NaN/Inf" in str(e.value) and e.value.time == pytest.approx(1e-3)
