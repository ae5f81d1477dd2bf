"""The warning of a step that does not resolve a compliant end stop's contact
(``stability.contact_check``): the contact duration against an independent integration,
the effective mass against the closed form, and the warning's threshold."""
import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.solver.stability import (CONTACT_STEPS, contact_duration,
                                                effective_mass)

G = 9.81
I_O = 0.01 + 0.25


@pytest.mark.parametrize("e", [1.0, 1.5, 2.3])
def test_the_contact_duration_matches_an_integration_of_the_law(e):
    """m p'' = -k p^e from p = 0, p' = v until p = 0 again, by solve_ivp."""
    m, k, v = 0.7, 3e4, 1.9

    def rhs(_t, y):
        return [y[1], -k * max(y[0], 0.0) ** e / m]

    def leave(_t, y):
        return y[0]
    leave.terminal, leave.direction = True, -1
    sol = solve_ivp(rhs, (0.0, 1.0), [1e-300, v], events=leave, rtol=1e-11, atol=1e-14,
                    max_step=1e-4)
    assert contact_duration(m, k, e, v) == pytest.approx(sol.t_events[0][0], rel=1e-6)
    if e == 1.0:
        assert contact_duration(m, k, e, v) == pytest.approx(math.pi * math.sqrt(m / k))


def _pendulum(**stop):
    m = Model(gravity=(0, 0, -G))
    b = m.add_body("rod", mass=1.0, inertia=(0.01, 0.01, 0.01), position=(0.5, 0, 0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint_stop(j, upper=math.pi / 2, name="stop", **stop)
    return m


def test_the_effective_inertia_of_a_hinge_is_its_inertia_about_the_hinge():
    m = _pendulum(stiffness=1e4, exponent=1.0)
    system = m.compile()
    assert effective_mass(system, system.y0, 0.0, 0) == pytest.approx(I_O, rel=1e-12)


def test_a_slider_crank_stop_sees_the_mass_the_crank_carries():
    """A crank (I = 0.3 about its hinge) driving a slider (2 kg) through a massless-ish
    rod at 90 deg (crank vertical, rod horizontal): a stop on the crank angle sees
    I + m_s r^2 (the slider moves r per radian there)."""
    r, L = 0.1, 0.4
    m = Model(gravity=(0, 0, 0))
    crank = m.add_body("crank", mass=1e-9, inertia=(0.3, 0.3, 0.3))
    rod = m.add_body("rod", mass=1e-9, inertia=(1e-9, 1e-9, 1e-9), position=(L / 2, 0, r))
    slider = m.add_body("slider", mass=2.0, inertia=(1e-3, 1e-3, 1e-3), position=(L, 0, r))
    hinge = m.add_joint("revolute", m.ground, crank, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint("revolute", crank, rod, point=(0, 0, r), axis=(0, 1, 0))
    m.add_joint("revolute", rod, slider, point=(L, 0, r), axis=(0, 1, 0))
    m.add_joint("prismatic", m.ground, slider, point=(L, 0, r), axis=(1, 0, 0))
    m.add_joint_stop(hinge, upper=1.0, stiffness=1e4, exponent=1.0, name="stop")
    system = m.compile()
    # at 90 deg the rod is horizontal: the slider moves r per radian of the crank
    assert effective_mass(system, system.y0, 0.0, 0) == pytest.approx(0.3 + 2.0 * r * r,
                                                                      rel=1e-6)


def _warnings(dt):
    r = _pendulum(stiffness=1e4, exponent=1.0).simulate(t_end=0.8, dt=dt, output_dt=0.01)
    return [w for w in r.warnings if "end stop 'stop'" in w]


def test_a_step_too_long_for_the_contact_is_warned_about_with_the_step_to_use():
    """The linear stop's contact lasts pi sqrt(I_O / k) = 16.0 ms: a step of 4 ms takes 4
    steps for it (warned, with dt <= 1.6 ms), 1.25 ms takes 12.8 (not warned)."""
    duration = math.pi * math.sqrt(I_O / 1e4)
    w = _warnings(4e-3)
    assert len(w) == 1
    assert "%.2g s" % (math.floor(duration / CONTACT_STEPS * 1e4) / 1e4) in w[0]
    assert "does not resolve" in w[0]
    assert not _warnings(1.25e-3)


def test_an_impulsive_stop_is_not_warned_about():
    r = _pendulum(stiffness=1e4, exponent=1.0, law="impulsive").simulate(
        t_end=0.8, dt=4e-3, output_dt=0.01)
    assert len(r.stop_events()) >= 1
    assert not [w for w in r.warnings if "end stop" in w]
    assert np.isfinite(r.energy()["balance"]).all()
