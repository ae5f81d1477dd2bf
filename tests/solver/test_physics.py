"""Closed-form physics: compound pendulum periods, torque-free rigid body,
convergence order of the integrators."""
import math

import numpy as np
import pytest
from scipy.special import ellipk

from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.solver.zoo import compound_pendulum

from .helpers import period_from_crossings, swing_angle


def test_small_angle_period_matches_analytic():
    theta0 = 0.01
    m, b, j, p = compound_pendulum(theta0=theta0)
    T0 = 2 * math.pi * math.sqrt(p["I_O"] / (p["m"] * p["g"] * p["d"]))
    r = m.simulate(t_end=6 * T0, dt=1e-3, method="rk4", output_dt=1e-3)
    T, n = period_from_crossings(r.t, swing_angle(r, b))
    assert n >= 5
    # the finite amplitude lengthens the period by theta0^2/16 = 6e-6
    assert T == pytest.approx(T0, rel=1e-5)
    assert T == pytest.approx(T0 * (1 + theta0 ** 2 / 16), rel=2e-7)


@pytest.mark.parametrize("theta0", [1.0, 2.5])
def test_large_amplitude_period_matches_elliptic_integral(theta0):
    m, b, j, p = compound_pendulum(theta0=theta0)
    w0 = math.sqrt(p["m"] * p["g"] * p["d"] / p["I_O"])
    T_exact = 4.0 / w0 * ellipk(math.sin(theta0 / 2) ** 2)   # scipy's ellipk takes m = k^2
    r = m.simulate(t_end=4.2 * T_exact, dt=5e-4, method="rk4", output_dt=5e-4)
    T, n = period_from_crossings(r.t, swing_angle(r, b))
    assert n >= 3
    assert T == pytest.approx(T_exact, rel=1e-6)
    # amplitude is kept (no numerical damping): max angle equals theta0
    assert np.abs(swing_angle(r, b)).max() == pytest.approx(theta0, abs=1e-6)


def _free_body(omega_b=(0.01, 2.0, 0.01), inertia=(1.0, 2.0, 3.0)):
    m = Model(gravity=(0, 0, 0))
    q = np.array([0.8, 0.2, -0.5, 0.26])
    q /= np.linalg.norm(q)
    from SimPhantWorkbench.solver.rotations import quat_to_matrix
    A = quat_to_matrix(q)
    b = m.add_body("top", mass=2.0, inertia=inertia, orientation=q,
                   angular_velocity=A @ np.array(omega_b))
    return m, b, np.array(inertia)


def _momentum(r, b, inertia):
    A = r.rotation_matrix(b)
    wb = r.angular_velocity(b, frame="body")
    return np.einsum("nij,nj->ni", A, inertia * wb)


def test_torque_free_body_near_intermediate_axis_conserves_energy_and_momentum():
    m, b, J = _free_body()
    r = m.simulate(t_end=30.0, dt=1e-3, method="rk4", output_dt=0.01)
    wb = r.angular_velocity(b, frame="body")
    assert np.abs(wb[:, 1]).min() < 0.5     # it does flip (Dzhanibekov effect)
    E = r.energy()["total"]
    assert np.abs(E - E[0]).max() <= 1e-9 * E[0]
    H = _momentum(r, b, J)
    assert np.abs(H - H[0]).max() <= 1e-9 * np.linalg.norm(H[0])
    # the world and body angular velocities describe the same vector
    np.testing.assert_allclose(np.einsum("nij,nj->ni", r.rotation_matrix(b), wb),
                               r.angular_velocity(b), atol=1e-12)


def _final_error(m, b, dt, ref):
    r = m.simulate(t_end=4.0, dt=dt, method="rk4", output_dt=4.0)
    return np.linalg.norm(r.rotation_matrix(b)[-1] - ref)


def test_rk4_converges_with_order_four():
    m, b, J = _free_body(omega_b=(0.3, 2.0, 0.2))
    ref = m.simulate(t_end=4.0, method="DOP853", rtol=1e-13, atol=1e-14, output_dt=4.0)
    R_ref = ref.rotation_matrix(b)[-1]
    errs = [_final_error(m, b, dt, R_ref) for dt in (0.04, 0.02, 0.01)]
    orders = [math.log2(errs[i] / errs[i + 1]) for i in range(2)]
    assert all(3.7 < o < 4.3 for o in orders), (errs, orders)


@pytest.mark.parametrize("method", ["euler", "symplectic_euler"])
def test_first_order_methods_converge_with_order_one(method):
    m, b, j, p = compound_pendulum(theta0=0.5)
    ref = m.simulate(t_end=1.0, dt=1e-4, method="rk4", output_dt=1.0)
    errs = []
    for dt in (2e-3, 1e-3, 5e-4):
        r = m.simulate(t_end=1.0, dt=dt, method=method, output_dt=1.0)
        errs.append(np.linalg.norm(r.position(b)[-1] - ref.position(b)[-1]))
    orders = [math.log2(errs[i] / errs[i + 1]) for i in range(2)]
    assert all(0.85 < o < 1.2 for o in orders), (errs, orders)


def test_symplectic_euler_keeps_energy_bounded_where_explicit_euler_gains():
    m, b, j, p = compound_pendulum(theta0=1.0)
    drift = {}
    for method in ("euler", "symplectic_euler"):
        r = m.simulate(t_end=20.0, dt=2e-3, method=method, output_dt=0.01)
        E = r.energy()["total"]
        drift[method] = E[-1] - E[0]
        if method == "symplectic_euler":
            assert np.abs(E - E[0]).max() < 0.03 * abs(E[0])
    assert drift["euler"] > 10 * abs(drift["symplectic_euler"])


@pytest.mark.parametrize("method", ["RK45", "DOP853", "Radau", "BDF", "LSODA"])
def test_scipy_methods_match_rk4_reference(method):
    m, b, j, p = compound_pendulum(theta0=1.0)
    ref = m.simulate(t_end=2.0, dt=2e-4, method="rk4", output_dt=0.1)
    r = m.simulate(t_end=2.0, method=method, rtol=1e-9, atol=1e-11, output_dt=0.1)
    np.testing.assert_allclose(r.t, ref.t, atol=1e-12)
    err = np.abs(r.position(b) - ref.position(b)).max()
    assert err < 1e-5, err
    assert r.settings["nfev"] > 0 and r.settings["method"] == method
