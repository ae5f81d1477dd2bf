"""The table of plottable quantities: values read from the result, components, frames, unit
systems (and FreeCAD's unit schema preference), errors naming what is wrong."""
import numpy as np
import pytest

import FreeCAD

from SimPhantWorkbench.output import quantities as Q
from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.viewer.scene import JointFrame


@pytest.fixture(scope="module")
def result():
    m = Model(gravity=(0, 0, -9.81))
    a = m.add_body("arm", mass=1.0, inertia=(0.01, 0.02, 0.02), position=(0.2, 0, 0))
    b = m.add_body("tip", mass=0.5, inertia=(0.005, 0.01, 0.01), position=(0.5, 0, 0))
    m.add_joint("revolute", m.ground, a, point=(0, 0, 0), axis=(0, 1, 0), name="shoulder")
    m.add_joint("revolute", a, b, point=(0.4, 0, 0), axis=(0, 1, 0), name="elbow")
    return m.simulate(t_end=0.5, dt=1e-3, output_dt=0.01)


ARM = Q.Target("body", "arm", "Arm", None)
ELBOW = Q.Target("joint", "elbow", "Elbow", None)


def test_body_point_and_system_quantities_read_the_result(result):
    c = Q.curves(result, "velocity", [ARM], ["x", "magnitude"])
    assert [k.label for k in c] == ["Arm x", "Arm magnitude"] and c[0].unit == "m/s"
    np.testing.assert_array_equal(c[0].y, result.velocity("arm")[:, 0])
    np.testing.assert_allclose(c[1].y, np.linalg.norm(result.velocity("arm"), axis=1))
    p = Q.Target("point", "arm", "Arm end", np.array([0.2, 0, 0]))
    c = Q.curves(result, "point_velocity", [p], ["z"], units="mm, deg")
    np.testing.assert_allclose(c[0].y, 1e3 * result.point_velocity("arm", [0.2, 0, 0])[:, 2])
    assert c[0].unit == "mm/s"
    c = Q.curves(result, "angular_velocity", [ARM], ["y"], frame="body", units="m, deg")
    np.testing.assert_allclose(c[0].y, np.degrees(result.angular_velocity("arm", "body")[:, 1]))
    assert c[0].unit == "deg/s"
    e = {k.component: k.y for k in Q.curves(result, "energy", [], None)}
    assert sorted(e) == ["drift", "kinetic", "potential", "total"] and e["drift"][0] == 0.0
    np.testing.assert_array_equal(e["total"], result.energy()["total"])


def test_reactions_in_the_joint_frame_turn_with_the_first_body(result):
    frames = {"elbow": JointFrame("elbow", "Elbow", "arm", (0.2, 0, 0), np.eye(3)[:, [1, 2, 0]])}
    world = Q.curves(result, "reaction_force", [ELBOW], ["x", "y", "z"])
    local = Q.curves(result, "reaction_force", [ELBOW], ["x", "y", "z"], frame="joint",
                     context={"joint_frames": frames})
    A = result.rotation_matrix("arm")
    F = result.reaction_force("elbow")
    expect = np.einsum("nji,nj->ni", A @ np.eye(3)[:, [1, 2, 0]], F)
    np.testing.assert_allclose(np.linalg.norm(expect, axis=1), np.linalg.norm(F, axis=1))
    # the torque in the joint frame is taken about the frame's origin (body 1's joint point)
    T = Q.curves(result, "reaction_torque", [ELBOW], ["x", "y", "z"], frame="joint",
                 context={"joint_frames": frames})
    np.testing.assert_allclose(np.column_stack([k.y for k in T]), np.einsum(
        "nji,nj->ni", A @ np.eye(3)[:, [1, 2, 0]], result.reaction_torque("elbow", "body1")),
        atol=1e-12)
    np.testing.assert_allclose(np.column_stack([k.y for k in local]), expect, atol=1e-12)
    assert not np.allclose(np.column_stack([k.y for k in world]), expect)
    with pytest.raises(ValueError, match="joint 'Elbow': its frame on the first body"):
        Q.curves(result, "reaction_force", [ELBOW], frame="joint")


def test_joint_angle_and_its_rates(result):
    c = Q.curves(result, "joint_angle", [ELBOW], units="m, deg")
    assert [k.label for k in c] == ["Elbow angle"] and c[0].unit == "deg"
    np.testing.assert_allclose(c[0].y, np.degrees(result.joint_position("elbow")))
    c = Q.curves(result, "joint_angle_rate", [ELBOW], units="SI")
    np.testing.assert_array_equal(c[0].y, result.joint_velocity("elbow"))
    assert c[0].unit == "rad/s"
    c = Q.curves(result, "joint_angle_acceleration", [ELBOW])
    np.testing.assert_array_equal(c[0].y, result.joint_acceleration("elbow"))
    with pytest.raises(ValueError, match="no 'slide'"):
        Q.curves(result, "joint_slide", [ELBOW])


def test_units_and_the_freecad_preference():
    assert Q.unit_of("torque", "in, deg") == ("lbf in", pytest.approx(8.850745791))
    assert Q.unit_of("violation", "mm, deg") == ("m or rad", 1.0)
    param = FreeCAD.ParamGet("User parameter:BaseApp/Preferences/Units")
    old = param.GetInt("UserSchema", 0)
    try:
        for schema, system in ((0, "mm, deg"), (1, "m, deg"), (3, "in, deg"), (8, "mm, deg")):
            param.SetInt("UserSchema", schema)
            assert Q.preferred_unit_system() == system
    finally:
        param.SetInt("UserSchema", old)
    for system in Q.UNIT_SYSTEMS:
        assert set(Q.UNIT_SYSTEMS[system]) == set(Q.DIMENSIONS) - {"violation"}


def test_errors_name_what_is_wrong(result):
    with pytest.raises(ValueError, match="reaction force is a quantity of a joint, 'Arm' is a "
                                         "body"):
        Q.curves(result, "reaction_force", [ARM])
    with pytest.raises(ValueError, match="has no component w"):
        Q.curves(result, "position", [ARM], ["w"])
    with pytest.raises(ValueError, match="not available in frame 'body'"):
        Q.curves(result, "position", [ARM], frame="body")
    with pytest.raises(ValueError, match="unknown quantity 'speed'"):
        Q.curves(result, "speed", [ARM])
    with pytest.raises(ValueError, match="unknown unit system 'cgs'"):
        Q.curves(result, "position", [ARM], units="cgs")


def test_force_element_and_driver_quantities_read_the_result():
    """Springs and drivers: force / moment, coordinate and power of an element, effort and
    power of a driver, each in the unit of its kind; a point driver's effort has x, y, z
    and a magnitude, a joint driver's one value."""
    import math
    m = Model(gravity=(0, 0, -9.81))
    a = m.add_body("arm", mass=1.0, inertia=(0.01, 0.02, 0.02), position=(0.2, 0, 0))
    b = m.add_body("tip", mass=0.5, inertia=(0.005, 0.01, 0.01), position=(0.5, 0, 0))
    c = m.add_body("puck", mass=0.3, inertia=(0.001, 0.001, 0.001), position=(0, 1, 0))
    j1 = m.add_joint("revolute", m.ground, a, point=(0, 0, 0), axis=(0, 1, 0), name="shoulder")
    j2 = m.add_joint("revolute", a, b, point=(0.4, 0, 0), axis=(0, 1, 0), name="elbow")
    m.add_driver(j1, "0.5*sin(3*t)", name="motor")
    m.add_point_driver(c, ("0.1*t", 1.0, 0.0), name="path")
    m.add_joint_spring(j2, stiffness=3.0, damping=0.1, name="torsion")
    m.add_spring(m.ground, (0.5, 0, 0.3), b, (0.5, 0, 0), stiffness=200.0, name="coil")
    r = m.simulate(t_end=0.3, dt=1e-3, output_dt=0.01)
    coil, torsion = (Q.Target("element", n, n.title(), None) for n in ("coil", "torsion"))
    f = Q.curves(r, "element_force", [coil, torsion], units="mm, deg")
    assert [(k.label, k.unit) for k in f] == [("Coil force", "N"), ("Torsion force", "N mm")]
    np.testing.assert_array_equal(f[0].y, r.spring_force("coil"))
    np.testing.assert_allclose(f[1].y, 1e3 * r.spring_force("torsion"))
    x = Q.curves(r, "element_coordinate", [coil, torsion], units="mm, deg")
    assert [k.unit for k in x] == ["mm", "deg"]
    np.testing.assert_allclose(x[0].y, 1e3 * r.spring_length("coil"))
    np.testing.assert_allclose(x[1].y, np.degrees(r.spring_length("torsion")))
    p = Q.curves(r, "element_power", [coil])
    assert p[0].unit == "W"
    np.testing.assert_array_equal(p[0].y, r.spring_power("coil"))
    motor, path = Q.Target("driver", "motor", "Motor", None), Q.Target("driver", "path", "Path",
                                                                       None)
    e = Q.curves(r, "driver_effort", [motor, path], units="mm, deg")
    assert [(k.label, k.unit) for k in e] == [("Motor effort", "N mm"), ("Path x", "N"),
                                              ("Path y", "N"), ("Path z", "N")]
    np.testing.assert_allclose(e[0].y, 1e3 * r.driver_effort("motor"))
    np.testing.assert_array_equal(np.column_stack([k.y for k in e[1:]]), r.driver_effort("path"))
    mag = Q.curves(r, "driver_effort", [path], ["magnitude"])
    np.testing.assert_allclose(mag[0].y, np.linalg.norm(r.driver_effort("path"), axis=1))
    w = Q.curves(r, "driver_power", [motor])
    assert w[0].unit == "W" and np.abs(w[0].y).max() > 0
    np.testing.assert_array_equal(w[0].y, r.driver_power("motor"))
    with pytest.raises(ValueError, match="quantity of a driver"):
        Q.curves(r, "driver_power", [coil])
    # the energy drift is the balance's: driver work and damping included
    d = {k.component: k.y for k in Q.curves(r, "energy", [])}["drift"]
    bal = r.energy()["balance"]
    np.testing.assert_array_equal(d, bal - bal[0])
    assert math.isfinite(d.max())


# ---------------------------------------------------------------- times typed and shown

@pytest.mark.parametrize("text, seconds", [
    ("0.1 ms", 1e-4), ("100 us", 1e-4), ("100 \u00b5s", 1e-4), ("100 \u03bcs", 1e-4),
    ("2 s", 2.0), ("2s", 2.0), ("2", 2.0), ("1e-3", 1e-3), ("0,5 ms", 5e-4), (".5ms", 5e-4),
    ("3 ns", 3e-9), ("1 min", 60.0)])
def test_parse_time_reads_the_unit(text, seconds):
    from SimPhantWorkbench.output.quantities import parse_time
    assert parse_time(text) == seconds          # exact: "100 us" is 1e-4, not 1e-4 - 1 ulp


@pytest.mark.parametrize("text", ["", "ms", "5 kg", "1 m", "1 ms ms", "1 m s"])
def test_parse_time_refuses_what_is_not_a_time(text):
    from SimPhantWorkbench.output.quantities import parse_time
    with pytest.raises(ValueError, match="is not a time"):
        parse_time(text)


@pytest.mark.parametrize("seconds, text", [
    (1e-3, "1 ms"), (1e-4, "100 \u00b5s"), (2.5e-5, "25 \u00b5s"), (0.02, "20 ms"), (2.0, "2 s"),
    (0.0, "0 s"), (1e-7, "100 ns"), (0.0123456789, "12.3456789 ms"), (1234.5, "1234.5 s")])
def test_format_time_shows_the_unit_that_fits_and_reads_back(seconds, text):
    from SimPhantWorkbench.output.quantities import format_time, parse_time
    assert format_time(seconds) == text
    assert parse_time(text) == pytest.approx(seconds, rel=1e-12, abs=0.0)
