"""Bad input gets a clear error naming the body, joint or load; failures carry the time
and the partial result."""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import (JOINT_TYPES, Model, ModelError, SimulationCancelled,
                                      SimulationError)
from SimPhantWorkbench.solver.zoo import chain



def _model():
    m = Model()
    b = m.add_body("arm", mass=1.0, inertia=(0.1, 0.1, 0.1), position=(1, 0, 0))
    return m, b


@pytest.mark.parametrize("mass", [0.0, -1.0, math.nan, math.inf, "heavy", None, True])
def test_bad_mass(mass):
    m = Model()
    with pytest.raises(ModelError, match="body 'arm'.*mass"):
        m.add_body("arm", mass=mass, inertia=(1, 1, 1))


@pytest.mark.parametrize("inertia, words", [
    ((1.0, -1.0, 1.0), "not positive definite"),
    ((0.0, 1.0, 1.0), "not positive definite"),
    ((1.0, 1.0, 3.0), "triangle inequality"),
    ((1.0, math.nan, 1.0), "finite"),
    (np.diag([1.0, 1.0, 5.0]), "triangle inequality"),
    (np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), "not positive definite"),
    (np.array([[1.0, 0.1, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), "not symmetric"),
    ((1.0, 2.0), "3 principal moments or a 3x3"),
])
def test_bad_inertia(inertia, words):
    m = Model()
    with pytest.raises(ModelError, match="body 'arm'.*" + words):
        m.add_body("arm", mass=1.0, inertia=inertia)


def test_bad_body_vectors_and_names():
    m, b = _model()
    with pytest.raises(ModelError, match="already exists"):
        m.add_body("arm", mass=1.0, inertia=(1, 1, 1))
    with pytest.raises(ModelError, match="body 'x' position"):
        m.add_body("x", mass=1.0, inertia=(1, 1, 1), position=(0, math.inf, 0))
    with pytest.raises(ModelError, match="body 'y' orientation"):
        m.add_body("y", mass=1.0, inertia=(1, 1, 1), orientation=(0, 0, 0, 0))
    with pytest.raises(ModelError, match="body 'z' orientation.*proper rotation"):
        m.add_body("z", mass=1.0, inertia=(1, 1, 1), orientation=np.diag([1.0, 1.0, -1.0]))
    with pytest.raises(ModelError, match="ground"):
        m.add_body("ground", mass=1.0, inertia=(1, 1, 1))


def test_zero_length_axis_names_the_joint():
    m, b = _model()
    with pytest.raises(ModelError, match="joint 'hinge' \\(revolute\\) axis: zero-length axis"):
        m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 0, 0), name="hinge")


def test_joint_to_itself_and_ground_to_ground():
    m, b = _model()
    with pytest.raises(ModelError, match="joint 'self'.*joins body 'arm' to itself"):
        m.add_joint("spherical", b, b, point=(0, 0, 0), name="self")
    with pytest.raises(ModelError, match="joint 'gg'.*both sides are ground"):
        m.add_joint("spherical", m.ground, "ground", point=(0, 0, 0), name="gg")


def test_unknown_joint_kind_lists_the_valid_kinds():
    m, b = _model()
    with pytest.raises(ModelError) as e:
        m.add_joint("hinge", m.ground, b, point=(0, 0, 0))
    for kind in JOINT_TYPES:
        assert kind in str(e.value)


def test_unknown_body_and_missing_geometry():
    m, b = _model()
    with pytest.raises(ModelError, match="joint 'j'.*unknown body 'nobody'"):
        m.add_joint("spherical", m.ground, "nobody", point=(0, 0, 0), name="j")
    with pytest.raises(ModelError, match="joint 'j'.*needs axis"):
        m.add_joint("revolute", m.ground, b, point=(0, 0, 0), name="j")
    with pytest.raises(ModelError, match="joint 'j'.*needs point"):
        m.add_joint("spherical", m.ground, b, name="j")
    with pytest.raises(ModelError, match="joint 'u'.*perpendicular"):
        m.add_joint("universal", m.ground, b, point=(0, 0, 0), axis=(1, 0, 0), axis2=(1, 1, 0),
                    name="u")
    with pytest.raises(ModelError, match="joint 'd'.*point2"):
        m.add_joint("distance", m.ground, b, point=(0, 0, 0), name="d")
    other = Model().add_body("alien", mass=1.0, inertia=(1, 1, 1))
    with pytest.raises(ModelError, match="another model"):
        m.add_joint("spherical", m.ground, other, point=(0, 0, 0))


def test_bad_loads_name_the_load():
    m, b = _model()
    with pytest.raises(ModelError, match="force 'push'.*ground"):
        m.add_force("ground", (1, 0, 0), name="push")
    with pytest.raises(ModelError, match="force 'push'.*frame"):
        m.add_force(b, (1, 0, 0), frame="local", name="push")
    with pytest.raises(ModelError, match="torque 'twist'.*3 numbers"):
        m.add_torque(b, (1, 0), name="twist")
    m.add_force(b, lambda t: (0.0, math.nan, 0.0), name="bad_fn")
    with pytest.raises(ModelError, match="force 'bad_fn'.*3 finite numbers"):
        m.simulate(t_end=0.1, dt=0.01)


@pytest.mark.parametrize("kw, words", [
    (dict(t_end=0.0, dt=1e-3), "t_end"),
    (dict(t_end=-1.0, dt=1e-3), "t_end"),
    (dict(t_end=math.nan, dt=1e-3), "t_end"),
    (dict(t_end=1.0, dt=0.0), "dt"),
    (dict(t_end=1.0, dt=-1e-3), "dt"),
    (dict(t_end=1.0), "needs a step dt"),
    (dict(t_end=1.0, dt=1e-3, output_dt=0), "output_dt"),
    (dict(t_end=1.0, dt=1e-3, method="verlet"), "rk4"),
    (dict(t_end=1.0, method="RK45", rtol=-1), "rtol"),
    (dict(t_end=1.0, dt=1e-3, baumgarte=(1, -2)), "baumgarte"),
    (dict(t_end=1.0, dt=1e-3, time_constant=0), "time_constant"),
])
def test_bad_settings(kw, words):
    m, b = _model()
    with pytest.raises(ModelError, match=words):
        m.simulate(**kw)


def test_model_without_bodies():
    with pytest.raises(ModelError, match="no moving bodies"):
        Model().simulate(t_end=1.0, dt=1e-3)


def test_exploding_constraints_stop_with_time_and_partial_result():
    m, bodies, joints = chain(4)
    with pytest.raises(SimulationError) as e:
        m.simulate(t_end=5.0, dt=0.1, method="rk4", output_dt=0.1)
    err = e.value
    assert 0.0 < err.time < 5.0
    assert "constraint violation" in str(err) and "joint 'J" in str(err)
    assert "no solution" not in str(err)        # the joints can be met: the step is too large
    part = err.result
    assert 1 <= len(part.t) and part.t[-1] <= err.time + 1e-12
    assert np.all(np.isfinite(part.position(bodies[-1])))
    assert part.constraint_violation()["position"].max() <= 0.5 * m.compile().length_scale


def test_nan_state_stops_with_time_and_partial_result():
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("spinner", mass=1.0, inertia=(1e-6, 1e-6, 1e-6))
    m.add_torque(b, torque=(1e200, 0, 1e200), frame="body")
    with pytest.raises(SimulationError, match="NaN/Inf") as e:
        m.simulate(t_end=1.0, dt=1e-2, output_dt=0.01)
    assert e.value.time == pytest.approx(0.01)
    assert len(e.value.result.t) == 1 and np.all(np.isfinite(e.value.result.states))


@pytest.mark.parametrize("method", ["rk4", "RK45"])
def test_progress_reports_and_cancel(method):
    m, bodies, joints = chain(2)
    seen = []

    def progress(t, t_end):
        seen.append((t, t_end))
        return t < 0.5

    with pytest.raises(SimulationCancelled) as e:
        m.simulate(t_end=50.0, dt=1e-3, method=method, output_dt=0.01, progress=progress)
    assert seen and all(te == 50.0 for _, te in seen)
    part = e.value.result
    assert 0.5 <= part.t[-1] < 50.0 and e.value.time >= 0.5
    r = m.simulate(t_end=0.3, dt=1e-3, method=method, output_dt=0.01,
                   progress=lambda t, te: seen.append(t))
    assert seen[-1] == pytest.approx(0.3) and len(r.t) == 31


def test_prefixed_errors_keep_their_class_and_attributes():
    from SimPhantWorkbench.solver import AssemblyError
    e = AssemblyError("cannot assemble", joints=["J1"]).prefixed("Study 'S'")
    assert type(e) is AssemblyError and e.joints == ["J1"]
    assert str(e) == "Study 'S': cannot assemble"
    m, bodies, joints = chain(2)
    with pytest.raises(SimulationCancelled) as info:
        m.simulate(t_end=1.0, dt=1e-3, progress=lambda t, te: False)
    p = info.value.prefixed("Study 'S'")
    assert type(p) is SimulationCancelled and p.time == info.value.time
    assert p.result is info.value.result and str(p).startswith("Study 'S': simulation cancelled")
