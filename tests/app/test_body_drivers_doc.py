"""Body driver document objects (point, angle, direction): factory, the one conversion
(units, the part's moves followed), runs against closed forms, save/reopen, undo/redo, and
bad picks named."""
import math

import numpy as np
import pytest

from SimPhantWorkbench import conversion, factory, runner
from SimPhantWorkbench.document.base import is_type
from SimPhantWorkbench.document.body_drivers import BODY_DRIVER_FORMS, body_driver_motions
from SimPhantWorkbench.solver import ModelError
from SimPhantWorkbench.solver.drivers import DRIVER_TYPES

from helpers_doc import G, docs, element_name, pendulum, reopen, vec  # noqa: F401 (docs)

DENSITY = 7800.0
#: the free body: two 10 mm cubes touching at their shared corner C, its centre of mass
CORNER = (40.0, 20.0, 30.0)
MASS = DENSITY * 2 * 1e-6            # two 1000 mm^3 cubes


def _scene(doc):
    """A fixed base plate and a free body made of two cubes meeting at the corner CORNER
    (its CoG); returns (study, base body, free body, the free shape)."""
    base_shape = doc.addObject("Part::Box", "Base")
    base_shape.Length, base_shape.Width, base_shape.Height = 100.0, 100.0, 5.0
    base_shape.Placement.Base = vec(-50.0, -50.0, -20.0)
    a = doc.addObject("Part::Box", "CubeA")
    b = doc.addObject("Part::Box", "CubeB")
    for box in (a, b):
        box.Length = box.Width = box.Height = 10.0
    b.Placement.Base = vec(-10.0, -10.0, -10.0)
    twin = doc.addObject("Part::Compound", "Twin")
    twin.Links = [a, b]
    twin.Placement.Base = vec(*CORNER)
    doc.recompute()
    study = factory.make_study(doc)
    base = factory.make_body(study, base_shape, fixed=True, name="Ground")
    body = factory.make_body(study, twin, density=DENSITY, name="Puck")
    return study, base, body, twin


def _circle_driver(study, body, twin, R=50.0, f=1.0, name="Circle"):
    vertex = element_name(twin, "Vertex", CORNER)
    return factory.make_body_driver(
        study, "point", body, (twin, vertex), name=name,
        FunctionX="harmonic", AmplitudeX=R, FrequencyX=f, PhaseX=90.0, ValueX=-R,
        FunctionY="harmonic", AmplitudeY=R, FrequencyY=f)


def test_every_body_driver_kind_has_a_document_form():
    assert set(BODY_DRIVER_FORMS) == {k for k, s in DRIVER_TYPES.items() if s.target == "body"}


def test_point_driver_carries_a_vertex_on_a_circle(doc):
    """The corner vertex (the CoG) follows its circle to 1e-9 m; the driver's force is
    m a - m g (closed form) and its power F . v."""
    study, base, body, twin = _scene(doc)
    study.EndTime, study.OutputInterval, study.TimeStep = 0.5, 0.01, 1e-3
    R, w = 0.05, 2 * math.pi
    _circle_driver(study, body, twin)
    r = runner.run_study(study)
    t = r.t
    c = np.array(CORNER) * 1e-3
    want = np.column_stack([c[0] + R * np.cos(w * t) - R, c[1] + R * np.sin(w * t),
                            np.full_like(t, c[2])])
    np.testing.assert_allclose(r.position(r.body_names[0]), want, atol=1e-9)
    acc = np.column_stack([-R * w * w * np.cos(w * t), -R * w * w * np.sin(w * t), 0 * t])
    F = r.driver_effort("Circle")
    np.testing.assert_allclose(F, MASS * (acc - np.array([0.0, 0.0, -G])), atol=1e-8)
    v = np.column_stack([-R * w * np.sin(w * t), R * w * np.cos(w * t), 0 * t])
    np.testing.assert_allclose(r.driver_power("Circle"), np.einsum("ni,ni->n", F, v),
                               atol=1e-8)


def test_stored_result_csv_and_plot_of_a_body_driver(doc, tmp_path):
    """The run's Result in the document keeps the body driver's force and power; the
    output files have its x, y, z columns and its plot."""
    import csv
    from SimPhantWorkbench import output
    study, base, body, twin = _scene(doc)
    study.EndTime, study.OutputInterval = 0.2, 0.05
    _circle_driver(study, body, twin)
    r = runner.run_study(study)
    stored = runner.get_result(study)
    np.testing.assert_allclose(stored.driver_effort("Circle"), r.driver_effort("Circle"))
    names = output.write_all(stored, str(tmp_path))
    assert "drivers.csv" in names and "drivers.png" in names
    with open(tmp_path / "drivers.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0][7:10] == ["Circle force_%s [N]" % c for c in "xyz"]
    data = np.array([[float(x) for x in row] for row in rows[1:]])
    np.testing.assert_allclose(data[:, 9], MASS * G, rtol=1e-9)       # carries its weight


def test_a_changed_body_driver_outdates_the_result(doc):
    from SimPhantWorkbench import freshness
    study, base, body, twin = _scene(doc)
    study.EndTime, study.OutputInterval = 0.1, 0.05
    drv = _circle_driver(study, body, twin)
    runner.run_study(study)
    assert freshness.status(study) == (False, "")
    drv.AmplitudeY = 20.0
    outdated, reason = freshness.status(study)
    assert outdated and "driver 'Circle'" in reason


def test_parameter_study_of_a_body_driver(doc):
    """A sweep over a body driver's property, with a metric of its force: the largest
    force is m |(-Ax w^2, 0, g)| at t = 0 for the x amplitude Ax of each variant (closed
    form; Ax > Ay, so the ellipse is sharpest there)."""
    from SimPhantWorkbench import sweep
    study, base, body, twin = _scene(doc)
    study.EndTime, study.OutputInterval = 0.25, 0.05
    _circle_driver(study, body, twin)
    out = sweep.execute(study, {"Circle.AmplitudeX": [300.0, 600.0]},
                        {"peak": "absmax(driver_effort(Circle))"}, settings={"t_end": 0.25},
                        executor="in-process")
    assert [row["status"] for row in out.rows] == ["ok", "ok"], out.rows
    w = 2 * math.pi
    assert [row["peak"] for row in out.rows] == pytest.approx(
        [MASS * math.hypot(ax * w * w, G) for ax in (0.3, 0.6)], rel=1e-9)


def test_point_driver_units_and_the_part_moved(doc):
    """mm and deg in the document reach the solver in m and rad; the trajectory starts
    where the picked vertex is now (the part moved after the pick)."""
    study, base, body, twin = _scene(doc)
    drv = _circle_driver(study, body, twin, R=50.0, f=2.0)
    mx, my, mz = body_driver_motions(drv)
    np.testing.assert_allclose(mx.value_at(0.0), [0.0, 0.0, -0.05 * (4 * math.pi) ** 2],
                               atol=1e-12)
    np.testing.assert_allclose(my.value_at(0.0), [0.0, 0.05 * 4 * math.pi, 0.0], atol=1e-12)
    twin.Placement.Base = vec(10.0, 0.0, 0.0)
    doc.recompute()
    conv = conversion.convert(study)
    d = conv.model.drivers[0]
    np.testing.assert_allclose([d.row_values(c, [0.0])[0, 0] for c in range(3)],
                               [0.010, 0.0, 0.0], atol=1e-12)


def _rotated(axis, angle, v):
    """``v`` turned by ``angle`` about the unit ``axis`` (Rodrigues)."""
    k = np.asarray(axis, dtype=float)
    v = np.asarray(v, dtype=float)
    return v * math.cos(angle) + np.cross(k, v) * math.sin(angle) \
        + k * np.dot(k, v) * (1 - math.cos(angle))


def _angle_pendulum(doc, rate=90.0):
    """The pendulum of ``helpers_doc`` turned by an angle driver from ground: the rod's
    axis (its bottom circle) about the pin's axis (a circle of the fixed pin)."""
    p = pendulum(doc)
    study = p["study"]
    study.AnalysisMode = "Kinematic"
    study.EndTime, study.OutputInterval = 0.5, 0.05
    pin_edge = element_name(p["pin"], "Edge", (2.0, 0.0, 0.0), curve="Circle")
    rod_edge = element_name(p["rod"], "Edge", (0.0, 0.0, -200.0), curve="Circle")
    drv = factory.make_body_driver(study, "angle", p["link"], (p["rod"], rod_edge),
                                   axis=(p["pin"], pin_edge), name="Turn", Function="ramp",
                                   Rate=rate)
    return p, study, drv, pin_edge


def test_angle_driver_turns_a_pendulum(doc):
    """Kinematic: the rod's CoG turns about the pin axis by rate * t (deg/s in the
    document), and the driver's torque about the axis balances the gravity moment."""
    p, study, drv, pin_edge = _angle_pendulum(doc)
    r = runner.run_study(study)
    axis = np.array(p["pin"].getSubObject(pin_edge).Curve.Axis)     # world (pin placed)
    axis /= np.linalg.norm(axis)
    pivot = p["pivot"]
    cog0 = np.array([0.0, 0.0, -0.1])
    mass = 1000.0 * math.pi * 0.002 ** 2 * 0.2
    want = np.array([pivot + _rotated(axis, math.radians(90.0) * t, cog0 - pivot)
                     for t in r.t])
    np.testing.assert_allclose(r.position(r.body_names[0]), want, atol=1e-9)
    moment = np.cross(want - pivot, mass * np.array([0.0, 0.0, -G])) @ axis
    np.testing.assert_allclose(r.driver_effort("Turn"), -moment, atol=1e-9)


def test_direction_driver_points_a_body_vector(doc):
    """A direction driver turns the free body's x edge about z at 1 Hz (the point driver
    holds its CoG): the edge points along (cos wt, sin wt, 0) to 1e-9, and the driver's
    torque has no component along the edge."""
    study, base, body, twin = _scene(doc)
    study.EndTime, study.OutputInterval, study.TimeStep = 0.5, 0.01, 1e-3
    study.GravityAcceleration = 0.0
    factory.make_body_driver(study, "point", body, (twin, element_name(twin, "Vertex", CORNER)),
                             name="Hold")
    edge = _edge_along(twin, (CORNER[0] + 5.0, CORNER[1], CORNER[2]), (1.0, 0.0, 0.0))
    drv = factory.make_body_driver(study, "direction", body, (twin, edge), name="Aim",
                                   FunctionX="harmonic", AmplitudeX=1.0, PhaseX=90.0,
                                   FunctionY="harmonic", AmplitudeY=1.0)
    assert (drv.ValueX, drv.ValueY, drv.ValueZ) == (0.0, 0.0, 0.0)
    r = runner.run_study(study)
    R = r.rotation_matrix(r.body_names[0])
    x = np.einsum("nij,j->ni", R, R[0].T @ np.array([1.0, 0.0, 0.0]))
    w = 2 * math.pi
    np.testing.assert_allclose(x, np.column_stack([np.cos(w * r.t), np.sin(w * r.t),
                                                   0 * r.t]), atol=1e-9)
    tau = r.driver_effort("Aim")
    assert np.abs(tau).max() > 1e-6
    np.testing.assert_allclose(np.einsum("ni,ni->n", tau, x), 0.0, atol=1e-12)


def test_a_new_direction_driver_holds_its_vector(doc):
    """Without values the direction starts as the picked vector's (world axes)."""
    study, base, body, twin = _scene(doc)
    edge = _edge_along(twin, (CORNER[0], CORNER[1], CORNER[2] + 5.0), (0.0, 0.0, 1.0))
    drv = factory.make_body_driver(study, "direction", body, (twin, edge), name="Up")
    assert abs(drv.ValueZ) == pytest.approx(1.0) and drv.ValueX == drv.ValueY == 0.0


def test_saved_and_reopened(docs, tmp_path):
    doc = docs()
    study, base, body, twin = _scene(doc)
    _circle_driver(study, body, twin, R=30.0)
    doc2 = reopen(doc, tmp_path / "body_drivers.FCStd")
    d = next(o for o in doc2.Objects if is_type(o, "SimPhant::BodyDriver"))
    assert (d.Label, d.DriverType, d.Body.Label, d.FunctionX) == ("Circle", "point", "Puck",
                                                                  "harmonic")
    assert d.AmplitudeX == 30.0 and d.Reference[0].Name == "Twin"
    study2 = next(o for o in doc2.Objects if is_type(o, "SimPhant::Study"))
    conv = conversion.convert(study2)
    drv = conv.model.drivers[0]
    assert drv.name == "Circle" and drv.kind == "point"
    np.testing.assert_allclose(drv.row_values(0, [0.25])[0, :2],
                               [CORNER[0] * 1e-3 - 0.03, -0.03 * 2 * math.pi], atol=1e-12)


def test_a_picked_element_that_changed_is_named_with_the_driver(doc):
    """The picks keep their signatures (in the part's own coordinates): moving the whole part
    is fine, but a model edit that moves the picked vertex within the part stops the run
    naming the driver and its reference."""
    study, base, body, twin = _scene(doc)
    study.EndTime, study.OutputInterval = 0.05, 0.05
    drv = _circle_driver(study, body, twin)
    assert "Reference" in dict(drv.ReferenceSignatures)
    twin.Placement.Base = vec(0.0, 0.0, 50.0)          # the part moves: the pick follows
    doc.recompute()
    conversion.convert(study)
    for cube in (doc.getObject("CubeA"), doc.getObject("CubeB")):     # an edit of the part
        cube.Placement.Base = cube.Placement.Base + vec(3.0, 0.0, 0.0)
    doc.recompute()
    with pytest.raises(ModelError, match=r"Driver 'Circle': Reference 'Twin\.Vertex\d+' was"):
        runner.run_study(study)


def test_undo_and_redo_of_a_new_body_driver(doc):
    doc.UndoMode = 1
    study, base, body, twin = _scene(doc)
    n = len(study.Group)
    _circle_driver(study, body, twin)
    assert doc.UndoNames[0] == "Add SimPhant driver"
    doc.undo()
    assert len(study.Group) == n and doc.getObject("Circle") is None
    doc.redo()
    assert len(study.Group) == n + 1
    assert is_type(doc.getObject("Circle"), "SimPhant::BodyDriver")


def test_bad_picks_and_values_name_the_driver(doc):
    study, base, body, twin = _scene(doc)
    n = len(study.Group)
    with pytest.raises(ModelError, match=r"Driver 'Wrong'.*Reference 'Base\.Vertex1' is on "
                                         r"body 'Ground', not on body 'Puck'"):
        factory.make_body_driver(study, "point", body, (base.ShapeObject, "Vertex1"),
                                 name="Wrong")
    vertex = (twin, element_name(twin, "Vertex", CORNER))
    with pytest.raises(ModelError, match=r"Driver 'NoAxis'.*Reference .* no direction"):
        factory.make_body_driver(study, "direction", body, vertex, name="NoAxis")
    with pytest.raises(ModelError, match=r"Driver 'Fixed'.*'Ground' is fixed"):
        factory.make_body_driver(study, "point", base, (base.ShapeObject, "Vertex1"),
                                 name="Fixed")
    with pytest.raises(ModelError, match=r"Driver 'Bad' \(x\).*'t \+\* 2'"):
        factory.make_body_driver(study, "point", body, vertex, name="Bad",
                                 FunctionX="expression", ExpressionX="t +* 2")
    with pytest.raises(ModelError, match="unknown body driver type"):
        factory.make_body_driver(study, "rotation", body, vertex, name="Joint")
    assert len(study.Group) == n                      # nothing left behind
    # edited afterwards: the pick moved to the base -> the run names the driver
    drv = factory.make_body_driver(study, "point", body, vertex, name="Hold")
    drv.Reference = (base.ShapeObject, ["Vertex1"])
    with pytest.raises(ModelError, match=r"Driver 'Hold'.*not on body 'Puck'"):
        conversion.convert(study)


def _edge_along(obj, centre, direction):
    """The straight edge of ``obj`` centred at ``centre`` [mm] along ``direction``."""
    for i, e in enumerate(obj.Shape.Edges, start=1):
        if type(e.Curve).__name__ != "Line":
            continue
        d = e.Vertexes[-1].Point - e.Vertexes[0].Point
        if (e.CenterOfMass - vec(*centre)).Length < 1e-6 and \
                abs(abs(d.normalize().dot(vec(*direction))) - 1.0) < 1e-9:
            return "Edge%d" % i
    raise AssertionError("no edge at %s along %s" % (centre, direction))
