"""The step check before a fixed-step run: the model's vibration rates against closed forms,
the methods' amplification, and runs refused or warned about with a step that works."""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model, ModelError, stability

INERTIA = (0.01, 0.01, 0.01)


def _slider(k, c=0.0, m=1.0, angle=0.0, x0=0.05):
    """A mass on a prismatic joint along x, held by a spring from a ground point at
    ``angle`` to the slide (its line through the mass at rest); displaced by ``x0``."""
    model = Model(gravity=(0, 0, 0))
    b = model.add_body("mass", mass=m, inertia=INERTIA, position=(x0, 0, 0))
    model.add_joint("prismatic", model.ground, b, point=(0, 0, 0), axis=(1, 0, 0),
                    name="slide")
    a = math.radians(angle)
    anchor = (-math.cos(a), -math.sin(a), 0.0)
    model.add_spring(model.ground, anchor, b, (x0, 0, 0), stiffness=k, damping=c,
                     free_length=1.0, name="spring")
    return model


def _rates(model):
    system = model.compile()
    return stability.vibration_rates(system, system.y0)


def test_a_mass_on_a_spring_vibrates_at_sqrt_k_over_m():
    lam, shares = _rates(_slider(1e4, x0=0.0))
    assert len(lam) == 1
    assert lam[0].imag == pytest.approx(100.0, rel=1e-9)
    assert abs(lam[0].real) < 1e-9
    assert shares[0].tolist() == pytest.approx([1.0])


def test_a_spring_across_the_slide_counts_with_cos_squared():
    """The joint allows motion along x only: the spring at 60 deg to it acts with
    k cos^2(60 deg) = k / 4 (the constrained directions are no vibration)."""
    lam, _ = _rates(_slider(1e4, x0=0.0, angle=60.0))
    assert len(lam) == 1
    assert lam[0].imag == pytest.approx(50.0, rel=1e-9)


def test_a_damped_mass_has_the_damped_rate():
    k, c, m = 1e4, 40.0, 1.0
    lam, _ = _rates(_slider(k, c, m, x0=0.0))
    wn, zeta = math.sqrt(k / m), c / (2 * math.sqrt(k * m))
    assert lam[0].real == pytest.approx(-zeta * wn, rel=1e-9)
    assert lam[0].imag == pytest.approx(wn * math.sqrt(1 - zeta ** 2), rel=1e-9)


def test_two_masses_in_a_row_have_the_two_normal_modes():
    """ground -k- m -k- m along x: w^2 = (3 -+ sqrt 5)/2 k/m."""
    k, m = 900.0, 2.0
    model = Model(gravity=(0, 0, 0))
    b1 = model.add_body("m1", mass=m, inertia=INERTIA, position=(1, 0, 0))
    b2 = model.add_body("m2", mass=m, inertia=INERTIA, position=(2, 0, 0))
    for b in (b1, b2):
        model.add_joint("prismatic", model.ground, b, point=b.position, axis=(1, 0, 0))
    model.add_spring(model.ground, (0, 0, 0), b1, (1, 0, 0), stiffness=k, name="s1")
    model.add_spring(b1, (1, 0, 0), b2, (2, 0, 0), stiffness=k, name="s2")
    lam, _ = _rates(model)
    w = sorted(lam.imag)
    assert w == pytest.approx([math.sqrt((3 - math.sqrt(5)) / 2 * k / m),
                               math.sqrt((3 + math.sqrt(5)) / 2 * k / m)], rel=1e-9)


def test_a_torsion_spring_on_a_hinge_vibrates_at_sqrt_k_over_i():
    model = Model(gravity=(0, 0, 0))
    b = model.add_body("disc", mass=3.0, inertia=(0.2, 0.3, 0.5))
    hinge = model.add_joint("revolute", model.ground, b, point=(0, 0, 0), axis=(0, 0, 1))
    model.add_joint_spring(hinge, stiffness=20.0, name="torsion")
    lam, _ = _rates(model)
    assert lam[0].imag == pytest.approx(math.sqrt(20.0 / 0.5), rel=1e-9)


def test_the_amplification_of_each_method():
    z = 1j * 1.0
    assert stability.amplification("euler", z) == pytest.approx(math.sqrt(2.0))
    r = 1 + z + z ** 2 / 2 + z ** 3 / 6 + z ** 4 / 24
    assert stability.amplification("rk4", z) == pytest.approx(abs(r))
    # semi-implicit Euler keeps an undamped vibration's amplitude up to w h = 2
    assert stability.amplification("symplectic_euler", 1j * 1.9) == pytest.approx(1.0)
    assert stability.amplification("symplectic_euler", 1j * 2.1) > 1.5
    assert stability.amplification("Radau", z) is None


def test_explicit_euler_on_a_stiff_spring_is_refused_with_a_step_that_works():
    """1 kg on 10 N/mm with dt = 1 ms: explicit Euler grows the amplitude without bound.
    The run is refused naming the spring, its frequency and a step; with that step the
    amplitude stays within the tolerance."""
    model = _slider(1e4)
    with pytest.raises(ModelError) as info:
        model.simulate(t_end=2.0, dt=1e-3, method="euler")
    text = str(info.value)
    assert "15.92 Hz" in text and "'spring'" in text and "unstable by euler" in text
    good = float(text.split("use dt <= ")[1].split(" s")[0])
    assert 1e-7 < good < 1e-5
    r = model.simulate(t_end=2.0, dt=good, method="euler", output_dt=0.01)
    x = r.position(model.bodies[0])[:, 0]
    assert np.max(np.abs(x[-30:])) == pytest.approx(0.05, rel=0.06)
    assert not [w for w in r.warnings if "amplitude" in w]


def test_rk4_losing_a_stiff_vibration_is_refused():
    model = _slider(1e6)           # w h = 1 at dt = 1 ms: RK4 damps 0.6 % per step
    with pytest.raises(ModelError, match=r"'spring' is distorted by rk4 with dt = 0.001 s: "
                                         r"its amplitude comes out 0.00\d+ times"):
        model.simulate(t_end=1.0, dt=1e-3, method="rk4")


def test_a_moderate_distortion_is_a_warning():
    model = _slider(1e6)
    r = model.simulate(t_end=0.02, dt=5e-4, method="rk4")   # w h = 0.5: 0.01 % per step
    assert len(r.t) > 1
    model = _slider(1e6)
    r = model.simulate(t_end=0.4, dt=5e-4, method="rk4")    # 800 steps: 0.9 x amplitude
    warned = [w for w in r.warnings if "'spring' is distorted by rk4" in w]
    assert len(warned) == 1, r.warnings


def test_semi_implicit_euler_past_its_boundary_is_refused_and_below_it_runs():
    model = _slider(1e4)           # w = 100 rad/s
    r = model.simulate(t_end=1.0, dt=0.019, method="symplectic_euler")
    assert not [w for w in r.warnings if "amplitude" in w]
    with pytest.raises(ModelError, match="unstable by symplectic_euler"):
        _slider(1e4).simulate(t_end=1.0, dt=0.021, method="symplectic_euler")


def test_adaptive_methods_and_models_without_springs_are_not_checked():
    assert stability.step_check(_slider(1e9).compile(), None, 0.0, 1.0, None, "Radau") == \
        ([], None)
    model = Model()
    b = model.add_body("bob", mass=1.0, inertia=INERTIA, position=(1, 0, 0))
    model.add_joint("revolute", model.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    system = model.compile()
    assert stability.step_check(system, system.y0, 0.0, 10.0, 0.1, "euler") == ([], None)
