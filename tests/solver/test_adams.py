"""Validation against MSC.ADAMS: the 11 single-body joint cases of tests/data/chrono_adams.

Acceptance (as used by Project Chrono against these files): RMS over time of
(simulated - ADAMS) per column below about 1e-3 (position), 2e-3 (velocity), 1e-3
(quaternion), 1e-2 (angular velocity), 1e-2...1e-1 (reaction force); energy drift
RMS <= 1e-2; constraint violation RMS <= 1e-5. SimPhant meets far tighter numbers on
most cases; the looser ones (Spherical_Case01, Universal_Case01/02) are limited by
the reference itself (the same motion as Revolute_Case01, which matches to 3e-6).
"""
import numpy as np
import pytest

from .adams import CASES, build, load, rms

# RMS tolerances; reactions relative to max(1, max |reference|)
TOL = {"Pos": 1e-3, "Vel": 2e-3, "Quat": 1e-3, "Avel": 1e-2, "Acc": 1e-2, "Aacc": 5e-2,
       "Rforce": 1e-2, "Rtorque": 1e-3}


def _run(name):
    m, b, j = build(name)
    r = m.simulate(t_end=5.0, dt=2.5e-4, method="rk4", output_dt=0.01)
    return r, b, j


@pytest.mark.parametrize("name", list(CASES))
def test_adams_case(name):
    r, b, j = _run(name)
    ours = {"Pos": r.position(b), "Vel": r.velocity(b), "Quat": r.quaternion(b),
            "Avel": r.angular_velocity(b), "Acc": r.acceleration(b),
            "Aacc": r.angular_acceleration(b),
            # ADAMS reports the reaction on ground, about the ground-side joint point
            "Rforce": -r.reaction_force(j), "Rtorque": -r.reaction_torque(j, about="body1")}
    checked = []
    for qty, val in ours.items():
        ref = load(name, qty)
        if ref is None:
            continue
        t_ref, v_ref = ref
        np.testing.assert_allclose(t_ref, r.t, atol=1e-9)
        if qty == "Quat":   # q and -q are the same rotation
            val = val * np.sign(np.sum(val * v_ref, axis=1))[:, None]
        err = rms(val, v_ref).max()
        tol = TOL[qty]
        if qty in ("Rforce", "Rtorque"):
            tol *= max(1.0, np.abs(v_ref).max())
        assert err <= tol, "%s %s: RMS error %.3g > %.3g" % (name, qty, err, tol)
        checked.append(qty)
    assert {"Pos", "Vel", "Quat", "Avel"} <= set(checked)
    E = r.energy()["total"]
    assert np.sqrt(np.mean((E - E[0]) ** 2)) <= 1e-4
    assert np.sqrt(np.mean(r.constraint_violation()["position"] ** 2)) <= 1e-5


def test_revolute_case01_spot_values():
    """README spot values: Pos(1 s), Pos(5 s), initial angular acceleration m g 2/(0.1 + 4)."""
    r, b, j = _run("Revolute_Case01")
    k1 = int(np.argmin(np.abs(r.t - 1.0)))
    np.testing.assert_allclose(r.position(b)[k1], (-0.892381, 0, -1.789880), atol=1e-5)
    np.testing.assert_allclose(r.position(b)[-1], (-1.999680, 0, -0.0355587), atol=1e-5)
    alpha0 = np.linalg.norm(r.angular_acceleration(b)[0])
    # exact up to the Tikhonov softening (relative 1e-8 by default)
    assert alpha0 == pytest.approx(1.0 * 9.80665 * 2 / (0.1 + 4), rel=5e-8)
    assert alpha0 == pytest.approx(4.78373, abs=1e-5)


def test_spherical_and_universal_pendulums_match_the_revolute_one():
    """Spherical_Case01 and the universal cases move in a plane exactly like
    Revolute_Case01 (same inertia about the swing axis): our three agree to 1e-8
    (their ADAMS files differ from each other by ~3e-4)."""
    r_rev, b_rev, _ = _run("Revolute_Case01")
    r_sph, b_sph, _ = _run("Spherical_Case01")
    np.testing.assert_allclose(r_sph.position(b_sph), r_rev.position(b_rev), atol=1e-8)
    r_u, b_u, _ = _run("Universal_Case01")
    # Universal_Case01 swings in the y-z plane: distance from the pivot and height match
    z_u = r_u.position(b_u)[:, 2]
    np.testing.assert_allclose(z_u, r_rev.position(b_rev)[:, 2], atol=1e-8)
