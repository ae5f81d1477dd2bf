"""Diagnostics instead of silence: ``Result.warnings`` names the bodies and joints."""
import numpy as np

from SimPhantWorkbench.solver import Model, Result
from SimPhantWorkbench.solver.zoo import bob, chain, mass_ratio_chain



def _pendulum_far_from_its_joint(offset):
    """A 1 m link whose joint frame on the link sits ``offset`` m away from the ground's."""
    m = Model(gravity=(0, 0, -9.81))
    b = m.add_body("link", mass=1.0, inertia=(0.01, 0.1, 0.1), position=(0.5, 0.0, 0.0))
    R = np.eye(3)
    m.add_joint("revolute", m.ground, b, frame1=((0, 0, 0), R), frame2=((offset, 0, 0), R),
                name="hinge")
    return m


def test_a_clean_run_has_no_warnings():
    r = chain(3)[0].simulate(t_end=0.5, dt=1e-3, output_dt=0.01)
    assert r.warnings == []


def test_a_long_jump_to_assemble_is_reported_with_the_body_name(tmp_path):
    r = _pendulum_far_from_its_joint(98.0).simulate(t_end=0.1, dt=1e-3, output_dt=0.01)
    assert r.assembly.translation[0] > 97.0
    assert len(r.warnings) == 1
    w = r.warnings[0]
    assert "'link'" in w and "98 m" in w and "model size" in w
    # kept by to_arrays/from_arrays and save/load
    assert Result.from_arrays(r.to_arrays()).warnings == r.warnings
    path = str(tmp_path / "r.npz")
    r.save(path)
    assert Result.load(path).warnings == r.warnings


def test_a_small_correction_is_not_a_warning():
    r = _pendulum_far_from_its_joint(0.01).simulate(t_end=0.1, dt=1e-3, output_dt=0.01)
    assert r.assembly.corrected and r.warnings == []


def test_a_growing_joint_residual_is_reported_with_the_joint_names():
    # RK4 at 10 ms: |Phi| reaches ~4e-6 m in a 2.5 m model, under the violation limit
    m, bodies, joints = chain(3)
    r = m.simulate(t_end=2.0, dt=1e-2, output_dt=0.02)
    assert r.constraint_violation()["position"].max() < 1e-4
    assert any("joint 'J2'" in w and "residual" in w for w in r.warnings)
    # the same model at 1 ms is clean
    assert chain(3)[0].simulate(t_end=2.0, dt=1e-3, output_dt=0.02).warnings == []


def test_inertia_ratio_beyond_double_precision_is_reported():
    m, b, j, p = bob(1e-14)
    r = m.simulate(t_end=0.2, dt=1e-3, output_dt=0.01)
    assert any("body 'bob'" in w and "double precision" in w for w in r.warnings)


def test_mass_ratio_beyond_double_precision_is_reported():
    m, bodies, joints = mass_ratio_chain([1.0, 1e13])
    r = m.simulate(t_end=0.2, dt=1e-3, output_dt=0.01)
    assert any("body 'bar0'" in w and "lighter" in w for w in r.warnings)
    # 1e9 is still resolved: no warning
    m, bodies, joints = mass_ratio_chain([1.0, 1e9])
    assert m.simulate(t_end=0.2, dt=1e-3, output_dt=0.01).warnings == []


def test_summary_prints_the_warnings():
    from SimPhantWorkbench.cli import summary_lines
    info = dict(model="/m.FCStd", study="Study", moving_bodies=["a"], fixed_bodies=[],
                joints=[], loads=[], gravity=[0.0, 0.0, -9.81], gruebler_dof=6,
                constraint_equations=0,
                jacobian_rank=None, mobility=None, method="rk4", dt=1e-3, t0=0.0, t_end=1.0,
                output_dt=0.01, samples=101, steps=1000, nfev=4000, solver_wall_time=0.1,
                energy_initial=None, assembly="", warnings=["body 'a' moved 98 m"])
    lines = summary_lines(info)
    assert "warning    body 'a' moved 98 m" in lines
