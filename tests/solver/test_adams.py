"""Validation against MSC.ADAMS: the 11 single-body joint cases of tests/data/chrono_adams.

The table of RMS errors in docs/validation.md is pinned here (``DOC_RMS``; a test checks
that the page shows exactly these figures): each figure may grow by at most ``MARGIN``
(4x), so a 10x regression fails. Energy drift and constraint violation RMS are pinned per
case the same way (``DRIFT``, measured with the page's run: RK4, dt = 0.25 ms, 5 s) and must
also stay below the page's summary figures (3e-5 J, 6e-9). Quantities the page does not
list (accelerations, reaction torques) keep the acceptance used with these files by Project
Chrono (``TOL``).
The three cases at 3e-4 are limited by their reference files (same motion as
Revolute_Case01, which matches to 3e-6).
"""
import os

import numpy as np
import pytest

from .adams import CASES, build, load, rms

MARGIN = 4.0

#: the table of docs/validation.md: position [m], velocity [m/s], quaternion, angular velocity [rad/s],
#: reaction force [N] (None: no reference file)
DOC_RMS = {
    "Revolute_Case01": (2.6e-6, 2.6e-6, 2.6e-7, 2.5e-6, 1.3e-4),
    "Revolute_Case02": (3.0e-6, 2.4e-6, 2.7e-7, 2.3e-6, 2.4e-4),
    "Spherical_Case01": (3.0e-4, 9.6e-4, 8.2e-5, 4.3e-4, 3.8e-3),
    "Spherical_Case02": (2.8e-6, 2.6e-6, 2.7e-7, 2.5e-6, 1.1e-4),
    "Universal_Case01": (3.0e-4, 9.6e-4, 8.7e-5, 4.3e-4, 3.8e-3),
    "Universal_Case02": (3.0e-4, 9.6e-4, 8.7e-5, 4.3e-4, 3.8e-3),
    "Prismatic_Case02": (2.0e-5, 2.2e-5, 4.7e-7, 6.2e-10, 1.3e-4),
    "Cylindrical_Case03": (2.2e-5, 2.3e-5, 2.7e-7, 2.3e-6, 2.0e-4),
    "Distance_Case02": (3.9e-6, 1.2e-5, 4.7e-6, 5.2e-5, 1.9e-3),
    "Distance_Case03": (2.8e-7, 2.7e-7, 2.4e-7, 7.9e-7, 1.5e-4),
    "RevSpherical_Case01": (9.1e-6, 4.1e-5, 2.3e-6, 7.1e-5, None),
}
DOC_COLUMNS = ("Pos", "Vel", "Quat", "Avel", "Rforce")
DOC_ENERGY_RMS = 3e-5       # J, "Energy drift RMS below 3e-5 J"
DOC_VIOLATION_RMS = 6e-9    # "constraint violation RMS below 6e-9"

#: measured energy drift RMS [J] and constraint violation RMS per case
DRIFT = {
    "Revolute_Case01": (5.7e-8, 2.3e-9), "Revolute_Case02": (3.7e-8, 1.8e-9),
    "Spherical_Case01": (5.7e-8, 2.3e-9), "Spherical_Case02": (5.7e-8, 2.3e-9),
    "Universal_Case01": (5.7e-8, 2.3e-9), "Universal_Case02": (5.7e-8, 2.3e-9),
    "Prismatic_Case02": (1.5e-8, 1.1e-9), "Cylindrical_Case03": (2.3e-8, 1.6e-9),
    "Distance_Case02": (2.3e-5, 4.6e-9), "Distance_Case03": (3.6e-9, 6.8e-11),
    "RevSpherical_Case01": (2.3e-5, 5.1e-9),
}

# quantities without a figure in the documentation: RMS tolerances; reactions relative to max(1, max |ref|)
TOL = {"Acc": 1e-2, "Aacc": 5e-2, "Rtorque": 1e-3}


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
        if qty in DOC_COLUMNS:
            tol = MARGIN * DOC_RMS[name][DOC_COLUMNS.index(qty)]
        else:
            tol = TOL[qty] * (max(1.0, np.abs(v_ref).max()) if qty == "Rtorque" else 1.0)
        assert err <= tol, "%s %s: RMS error %.3g > %.3g" % (name, qty, err, tol)
        checked.append(qty)
    expected = {"Pos", "Vel", "Quat", "Avel"} | ({"Rforce"} if DOC_RMS[name][4] else set())
    assert expected <= set(checked)
    E = r.energy()["total"]
    drift = np.sqrt(np.mean((E - E[0]) ** 2))
    violation = np.sqrt(np.mean(r.constraint_violation()["position"] ** 2))
    assert drift <= min(MARGIN * DRIFT[name][0], DOC_ENERGY_RMS), drift
    assert violation <= min(MARGIN * DRIFT[name][1], DOC_VIOLATION_RMS), violation


def test_revolute_case01_spot_values():
    """Spot values of the reference: Pos(1 s), Pos(5 s), initial angular acceleration m g 2/(0.1 + 4)."""
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


def test_the_documented_table_is_the_pinned_one():
    """docs/validation.md shows the figures pinned here, and the summary bounds."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "docs", "validation.md"), encoding="utf-8") as fh:
        text = fh.read()
    shown = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] in DOC_RMS:
            shown[cells[0]] = tuple(None if c == "\u2014" else float(c) for c in cells[1:])
    assert shown == DOC_RMS
    assert "Energy drift RMS below 3e-5 J" in text and DOC_ENERGY_RMS == 3e-5
    assert "constraint violation RMS below 6e-9" in text and DOC_VIOLATION_RMS == 6e-9
