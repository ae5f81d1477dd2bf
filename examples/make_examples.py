"""Build the bundled example models (``examples/<name>.FCStd``) from Part primitives.

Every model is made of ``Part::Box``, ``Part::Cylinder`` and ``Part::Cone``
features (links are a box fused with two round end bosses, ``Part::MultiFuse``)
and set up through the factory API only (``make_study``, ``make_body``,
``make_joint``, ``make_spring``, ``make_joint_spring``), exactly as a script in the FreeCAD Python console would do it.
Joints are picked on geometry: the circular edge of a boss or pin, a face, a
straight edge; the element names are found by geometry, not hard-coded.

Planar mechanisms move in the x-z plane (gravity -z); each link lies in its own
slab along y, as real links are stacked, so the hinge circles of two
neighbouring links meet on the plane between their slabs.

==================  ============================================================
pendulum            a bar hinged at one end, released 30 deg from the vertical
double_pendulum     two bars, released horizontal and 45 deg: chaotic
slider_crank        crank with a flywheel, spun at 2 rev/s, connecting rod, slider on a rail
driven_slider_crank the same, its crank driven by a motor at a constant 120 rpm (a
                    kinematic analysis: the motor torque and power are outputs)
four_bar            crank-rocker four-bar (closed loop), crank given a spin
spinning_top        a cone on a spherical joint at its tip, spinning at 100 rev/s,
                    tilted 25 deg: it precesses slowly about the vertical
quarter_car         quarter-car suspension: body and wheel on vertical slides, a
                    spring-damper between them and a tyre spring, settling under gravity
door                a flap door hinged at its top edge, released 70 deg open, closing
                    under its own weight against a torsional spring and damper
==================  ============================================================

Usage::

    tools/run_python.sh examples/make_examples.py [--out DIR] [NAME ...]

(``make examples`` rebuilds them all in ``examples/``.)
"""
import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

import FreeCAD  # noqa: E402
import Part  # noqa: E402,F401  (registers the Part feature types)

from SimPhantWorkbench import factory  # noqa: E402

V = FreeCAD.Vector

#: density of the links [kg/m^3] (aluminium) and of the slider and the top (steel)
ALUMINIUM = 2700.0
STEEL = 7850.0

#: link cross-section [mm]: thickness along y (the slab), width in the x-z plane,
#: radius of the end bosses
THICKNESS = 10.0
WIDTH = 16.0
BOSS = 12.0


# ============================================================================ geometry helpers

def find_element(obj, kind, point, axis=None, tol=1e-6):
    """Name ("Edge7") of the ``kind`` element of ``obj``'s shape at ``point`` (mm, world).

    Edges: circles/arcs by centre (and axis parallel to ``axis`` if given), other
    edges by mid-point. Faces: by centre of mass. Vertices: by position.
    """
    shape = obj.Shape
    target = V(*point)
    items = {"Vertex": shape.Vertexes, "Edge": shape.Edges, "Face": shape.Faces}[kind]
    for i, e in enumerate(items, start=1):
        if kind == "Vertex":
            p = e.Point
        elif kind == "Edge":
            curve = e.Curve
            if isinstance(curve, Part.Circle):
                p = curve.Center
                if axis is not None and abs(abs(curve.Axis.dot(V(*axis))) - 1.0) > 1e-9:
                    continue
            else:
                if axis is not None:
                    continue
                p = e.valueAt(0.5 * (e.FirstParameter + e.LastParameter))
        else:
            p = e.CenterOfMass
        if (p - target).Length < tol:
            return "%s%d" % (kind, i)
    raise RuntimeError("no %s of '%s' at %s" % (kind, obj.Label, tuple(point)))


def _y_cylinder(doc, name, x, z, y0, length, radius):
    """``Part::Cylinder`` with its axis along +y, from ``y0`` to ``y0 + length``."""
    cyl = doc.addObject("Part::Cylinder", name)
    cyl.Radius = radius
    cyl.Height = length
    cyl.Placement = FreeCAD.Placement(V(x, y0, z), FreeCAD.Rotation(V(1, 0, 0), -90))
    return cyl


def _hide(obj):
    """Hide a boolean's input: the App-side ``Visibility`` is saved with the document even
    headless (no GuiDocument.xml), so FreeCAD's GUI opens the example with only the fused
    links shown (the inputs do not move in playback)."""
    obj.Visibility = False
    if obj.ViewObject is not None:
        obj.ViewObject.Visibility = False


def make_link(doc, name, label, p1, p2, y0, thickness=THICKNESS, width=WIDTH, boss=BOSS,
              flywheel=0.0):
    """A flat bar between the hinge points ``p1``, ``p2`` ((x, z) in mm), in the slab
    ``y0 <= y <= y0 + thickness``, with round bosses centred on the hinge points
    (and a flywheel disc of radius ``flywheel`` about ``p1`` if given).

    A ``Part::MultiFuse`` of a ``Part::Box`` and ``Part::Cylinder`` features
    (axis y), labelled ``label``. The hinge circles are the boss (or flywheel)
    edges on the slab's faces.
    """
    (x1, z1), (x2, z2) = p1, p2
    length = math.hypot(x2 - x1, z2 - z1)
    phi = math.degrees(math.atan2(z2 - z1, x2 - x1))
    bar = doc.addObject("Part::Box", name + "Bar")
    bar.Length, bar.Width, bar.Height = length, thickness, width
    rot = FreeCAD.Rotation(V(0, 1, 0), -phi)          # box x axis -> p1 -> p2
    base = V(x1, y0, z1) - rot.multVec(V(0, 0, width / 2.0))
    bar.Placement = FreeCAD.Placement(base, rot)
    b1 = _y_cylinder(doc, name + "Boss1", x1, z1, y0, thickness, boss)
    b2 = _y_cylinder(doc, name + "Boss2", x2, z2, y0, thickness, boss)
    parts = [bar, b1, b2]
    if flywheel:
        parts.append(_y_cylinder(doc, name + "Flywheel", x1, z1, y0, thickness, flywheel))
    link = doc.addObject("Part::MultiFuse", name)
    link.Shapes = parts
    link.Label = label
    for o in parts:
        _hide(o)
    return link


def hinge(obj, x, z, y):
    """The circular edge of ``obj`` centred on (x, y, z) with its axis along y."""
    return (obj, find_element(obj, "Edge", (x, y, z), axis=(0, 1, 0)))


def _perp(u):
    """``y x u`` for u = (x, z): the velocity of a point at ``u`` from the axis of a
    rotation about +y at unit rate, as (x, z)."""
    return (u[1], -u[0])


def set_planar_motion(body, omega_y, point, v_point=(0.0, 0.0)):
    """Give ``body`` a rigid motion in the x-z plane, consistent with its joints.

    ``omega_y`` [rad/s] about +y; ``point`` (x, z) [mm] a point of the body moving at
    ``v_point`` (x, z) [mm/s]. Sets the CoG velocity (from the body's computed CoG)
    and the angular velocity, so the solver's initial velocity projection has
    nothing to correct.
    """
    cog = body.CoG
    w = _perp((cog.x - point[0], cog.z - point[1]))
    body.InitialVelocity = V(v_point[0] + omega_y * w[0], 0.0, v_point[1] + omega_y * w[1])
    body.InitialAngularVelocity = V(0.0, math.degrees(omega_y), 0.0)


def new_document(name):
    if name in FreeCAD.listDocuments():
        FreeCAD.closeDocument(name)
    return FreeCAD.newDocument(name)


def new_study(doc, end_time, time_step=1e-3, output_interval=0.01):
    study = factory.make_study(doc)
    study.EndTime = end_time
    study.TimeStep = time_step
    study.OutputInterval = output_interval
    study.Integrator = "rk4"
    return study


# ============================================================================ the examples

def build_pendulum(doc):
    """A 300 mm aluminium bar hinged at its top end on a fixed pin, released at 30 deg.

    Its period is the compound pendulum's ``4 sqrt(I_O/(m g d)) K(sin^2(15 deg))``.
    """
    theta0 = math.radians(30.0)
    length = 300.0
    tip = (length * math.sin(theta0), -length * math.cos(theta0))
    pin = _y_cylinder(doc, "Pin", 0.0, 0.0, -20.0, 20.0, 6.0)
    pin.Label = "Pin"
    bar = make_link(doc, "PendulumBar", "Pendulum bar", (0.0, 0.0), tip, 0.0)
    doc.recompute()
    study = new_study(doc, end_time=3.0)
    factory.make_body(study, pin, fixed=True, name="Support")
    factory.make_body(study, bar, density=ALUMINIUM, name="Pendulum")
    factory.make_joint(study, "revolute", hinge(pin, 0, 0, 0.0), hinge(bar, 0, 0, 0.0),
                       name="Pivot")
    return study


def build_double_pendulum(doc):
    """Two 200 mm bars, the first released horizontal, the second at 45 deg below it."""
    a = (200.0, 0.0)
    b = (200.0 + 200.0 * math.cos(math.radians(-45.0)), 200.0 * math.sin(math.radians(-45.0)))
    pin = _y_cylinder(doc, "Pin", 0.0, 0.0, -20.0, 20.0, 6.0)
    pin.Label = "Pin"
    upper = make_link(doc, "UpperBar", "Upper bar", (0.0, 0.0), a, 0.0)
    lower = make_link(doc, "LowerBar", "Lower bar", a, b, THICKNESS)
    doc.recompute()
    study = new_study(doc, end_time=4.0)
    factory.make_body(study, pin, fixed=True, name="Support")
    factory.make_body(study, upper, density=ALUMINIUM, name="Upper")
    factory.make_body(study, lower, density=ALUMINIUM, name="Lower")
    factory.make_joint(study, "revolute", hinge(pin, 0, 0, 0.0), hinge(upper, 0, 0, 0.0),
                       name="Shoulder")
    factory.make_joint(study, "revolute", hinge(upper, a[0], a[1], THICKNESS),
                       hinge(lower, a[0], a[1], THICKNESS), name="Elbow")
    return study


def build_slider_crank(doc, motor_rpm=None):
    """Steel crank (60 mm) with a flywheel spun at 2 rev/s, aluminium connecting rod
    (200 mm) and slider on a fixed rail.

    Four joints: crank pivot, crank pin, wrist pin (revolute) and the slider guide
    (prismatic along x). As usual in CAD, the planar mechanism is modelled with
    spatial joints; 3 of its 20 constraint equations are redundant (Gruebler
    count -2, mobility 1), which the solver handles.

    With ``motor_rpm`` the crank is driven instead, by a motor on its pivot at that
    constant speed (``make_driver``), and the study is a kinematic analysis: every
    velocity follows from the motor's, so no initial velocities are set.
    """
    r, rod = 60.0, 200.0
    th = math.radians(45.0)
    pin = (r * math.cos(th), r * math.sin(th))
    xs = pin[0] + math.sqrt(rod ** 2 - pin[1] ** 2)
    post = _y_cylinder(doc, "Post", 0.0, 0.0, -20.0, 20.0, 8.0)
    post.Label = "Crank post"
    crank = make_link(doc, "CrankLink", "Crank link", (0.0, 0.0), pin, 0.0, flywheel=45.0)
    rodlink = make_link(doc, "RodLink", "Connecting rod link", pin, (xs, 0.0), THICKNESS)
    y_s = 2 * THICKNESS                                   # slider and rail slab: y in [20, 40]
    slider = doc.addObject("Part::Box", "SliderBlock")
    slider.Length, slider.Width, slider.Height = 60.0, 20.0, 30.0
    slider.Placement.Base = V(xs - 30.0, y_s, -15.0)
    slider.Label = "Slider block"
    rail = doc.addObject("Part::Box", "RailBar")
    rail.Length, rail.Width, rail.Height = 420.0, 20.0, 10.0
    rail.Placement.Base = V(-110.0, y_s, -25.0)
    rail.Label = "Rail bar"
    doc.recompute()

    study = new_study(doc, end_time=3.0)
    factory.make_body(study, post, fixed=True, name="Post")
    factory.make_body(study, rail, fixed=True, name="Rail")
    b_crank = factory.make_body(study, crank, density=STEEL, name="Crank")
    b_rod = factory.make_body(study, rodlink, density=ALUMINIUM, name="ConnectingRod")
    b_slider = factory.make_body(study, slider, density=ALUMINIUM, name="Slider")
    if motor_rpm is not None:
        pivot = factory.make_joint(study, "revolute", hinge(post, 0, 0, 0.0),
                                   hinge(crank, 0, 0, 0.0), name="CrankPivot")
        _slider_crank_joints(study, crank, rodlink, slider, rail, pin, xs, y_s)
        factory.make_driver(study, pivot, "rotation", "ramp", name="Motor", Speed=motor_rpm)
        study.AnalysisMode = "Kinematic"
        return study
    # crank at 2 rev/s (counter-clockwise seen from -y: the crank pin rises first);
    # rod and slider velocities follow from the loop, so nothing needs projecting
    w_crank = -2.0 * 2.0 * math.pi
    v_pin = tuple(w_crank * c for c in _perp(pin))
    w_rod = v_pin[1] / (xs - pin[0])                      # the wrist pin moves along x only
    set_planar_motion(b_crank, w_crank, (0.0, 0.0))
    set_planar_motion(b_rod, w_rod, pin, v_pin)
    v_wrist = v_pin[0] + w_rod * _perp((xs - pin[0], -pin[1]))[0]
    set_planar_motion(b_slider, 0.0, (xs, 0.0), (v_wrist, 0.0))
    factory.make_joint(study, "revolute", hinge(post, 0, 0, 0.0), hinge(crank, 0, 0, 0.0),
                       name="CrankPivot")
    _slider_crank_joints(study, crank, rodlink, slider, rail, pin, xs, y_s)
    return study


def _slider_crank_joints(study, crank, rodlink, slider, rail, pin, xs, y_s):
    """Crank pin, wrist pin and slider guide of the slider-crank."""
    factory.make_joint(study, "revolute", hinge(crank, pin[0], pin[1], THICKNESS),
                       hinge(rodlink, pin[0], pin[1], THICKNESS), name="CrankPin")
    face = find_element(slider, "Face", (xs, y_s, 0.0))    # the slider's face towards the rod
    factory.make_joint(study, "revolute", hinge(rodlink, xs, 0.0, y_s), (slider, face),
                       name="WristPin")
    # the rail's top front edge and the slider's bottom front edge lie on one line
    guide = find_element(rail, "Edge", (100.0, y_s, -15.0))
    runner_edge = find_element(slider, "Edge", (xs, y_s, -15.0))
    factory.make_joint(study, "prismatic", (rail, guide), (slider, runner_edge),
                       name="SliderGuide")


def four_bar_points(crank=80.0, coupler=220.0, rocker=160.0, ground=200.0, angle=60.0):
    """Hinge points A, B, C, D ((x, z) mm) of a four-bar with the crank at ``angle`` deg."""
    a = (0.0, 0.0)
    d = (ground, 0.0)
    th = math.radians(angle)
    b = (crank * math.cos(th), crank * math.sin(th))
    # C: intersection of circle(B, coupler) and circle(D, rocker), the upper one
    dx, dz = d[0] - b[0], d[1] - b[1]
    dist = math.hypot(dx, dz)
    along = (coupler ** 2 - rocker ** 2 + dist ** 2) / (2 * dist)
    h = math.sqrt(coupler ** 2 - along ** 2)
    ux, uz = dx / dist, dz / dist
    c = (b[0] + along * ux - h * uz, b[1] + along * uz + h * ux)
    return a, b, c, d


def build_four_bar(doc):
    """Crank-rocker four-bar (Grashof: 80 + 220 <= 160 + 200), a closed loop of
    three moving links on two fixed pivots; the crank starts at 3 rev/s."""
    a, b, c, d = four_bar_points()
    pa = _y_cylinder(doc, "PivotA", a[0], a[1], -20.0, 20.0, 8.0)
    pa.Label = "Pivot pin A"
    crank = make_link(doc, "CrankLink", "Crank link", a, b, 0.0)
    coupler = make_link(doc, "CouplerLink", "Coupler link", b, c, THICKNESS)
    rocker = make_link(doc, "RockerLink", "Rocker link", d, c, 2 * THICKNESS)
    pd = _y_cylinder(doc, "PivotD", d[0], d[1], 3 * THICKNESS, 20.0, 8.0)
    pd.Label = "Pivot pin D"
    doc.recompute()
    study = new_study(doc, end_time=3.0)
    factory.make_body(study, pa, fixed=True, name="PivotA")
    factory.make_body(study, pd, fixed=True, name="PivotD")
    b_crank = factory.make_body(study, crank, density=ALUMINIUM, name="Crank")
    b_coupler = factory.make_body(study, coupler, density=ALUMINIUM, name="Coupler")
    b_rocker = factory.make_body(study, rocker, density=ALUMINIUM, name="Rocker")
    # crank at 3 rev/s; coupler and rocker rates from v_B + w_cp (y x BC) = w_r (y x DC)
    w_crank = -3.0 * 2.0 * math.pi
    v_b = tuple(w_crank * q for q in _perp(b))
    pbc = _perp((c[0] - b[0], c[1] - b[1]))
    pdc = _perp((c[0] - d[0], c[1] - d[1]))
    w_cp, w_r = np.linalg.solve([[pbc[0], -pdc[0]], [pbc[1], -pdc[1]]], [-v_b[0], -v_b[1]])
    set_planar_motion(b_crank, w_crank, a)
    set_planar_motion(b_coupler, w_cp, b, v_b)
    set_planar_motion(b_rocker, w_r, d)
    factory.make_joint(study, "revolute", hinge(pa, a[0], a[1], 0.0),
                       hinge(crank, a[0], a[1], 0.0), name="JointA")
    factory.make_joint(study, "revolute", hinge(crank, b[0], b[1], THICKNESS),
                       hinge(coupler, b[0], b[1], THICKNESS), name="JointB")
    factory.make_joint(study, "revolute", hinge(coupler, c[0], c[1], 2 * THICKNESS),
                       hinge(rocker, c[0], c[1], 2 * THICKNESS), name="JointC")
    factory.make_joint(study, "revolute", hinge(pd, d[0], d[1], 3 * THICKNESS),
                       hinge(rocker, d[0], d[1], 3 * THICKNESS), name="JointD")
    return study


#: spinning top: spin [rev/s] and tilt of its axis from the vertical [deg]
TOP_SPIN = 100.0
TOP_TILT = 25.0


def build_spinning_top(doc):
    """A steel cone (tip at the origin, 40 mm radius, 60 mm high) on a spherical joint
    at its tip, tilted 25 deg and spinning at 100 rev/s about its axis, released
    without precession. It precesses about the vertical at about
    ``m g d / (I_spin omega)`` (about 1.5 rad/s) with a small, fast nutation."""
    tilt = FreeCAD.Rotation(V(0, 1, 0), TOP_TILT)        # axis +z tilted towards +x
    cone = doc.addObject("Part::Cone", "TopCone")
    cone.Radius1 = 0.0
    cone.Radius2 = 40.0
    cone.Height = 60.0
    cone.Placement = FreeCAD.Placement(V(0, 0, 0), tilt)
    cone.Label = "Top"
    floor = doc.addObject("Part::Cylinder", "Pedestal")
    floor.Radius = 15.0
    floor.Height = 30.0
    floor.Placement.Base = V(0, 0, -30.0)
    doc.recompute()
    study = new_study(doc, end_time=4.0, time_step=2e-4, output_interval=0.01)
    axis = tilt.multVec(V(0, 0, 1))
    spin = axis * (TOP_SPIN * 360.0)                       # deg/s, world
    factory.make_body(study, floor, fixed=True, name="Floor")
    factory.make_body(study, cone, density=STEEL, name="SpinningTop",
                      angular_velocity=(spin.x, spin.y, spin.z))
    # side 1: the pedestal's top circle (its centre); side 2: the conical face (its apex)
    conical = next("Face%d" % i for i, f in enumerate(cone.Shape.Faces, start=1)
                   if isinstance(f.Surface, Part.Cone))
    factory.make_joint(study, "spherical", (floor, find_element(floor, "Edge", (0, 0, 0))),
                       (cone, conical), name="Tip")
    return study


#: quarter-car suspension: spring [N/mm] and damper [N s/mm] of the suspension, tyre
#: stiffness [N/mm]
SUSPENSION_K, SUSPENSION_C, TYRE_K = 20.0, 1.5, 200.0


def _face_at(obj, point):
    return (obj, find_element(obj, "Face", point))


def build_quarter_car(doc):
    """Quarter-car suspension: a steel block (sprung mass, ~255 kg) and a steel wheel
    (~35 kg) slide vertically (prismatic joints); a spring-damper (20 N/mm, 1.5 N s/mm)
    carries the block on the wheel and a spring (the tyre, 200 N/mm) the wheel on the
    road. Released with both springs at their free length, it settles under gravity."""
    road = doc.addObject("Part::Box", "Road")
    road.Length, road.Width, road.Height = 600.0, 600.0, 20.0
    road.Placement.Base = V(-300.0, -300.0, -20.0)
    wheel = doc.addObject("Part::Cylinder", "Wheel")
    wheel.Radius, wheel.Height = 120.0, 100.0
    wheel.Placement.Base = V(0.0, 0.0, 50.0)
    block = doc.addObject("Part::Box", "CarBody")
    block.Length, block.Width, block.Height = 500.0, 500.0, 130.0
    block.Placement.Base = V(-250.0, -250.0, 400.0)
    doc.recompute()
    study = new_study(doc, end_time=3.0, time_step=5e-4, output_interval=2e-3)
    factory.make_body(study, road, fixed=True, name="Ground")
    factory.make_body(study, block, density=STEEL, name="Sprung")
    factory.make_body(study, wheel, density=STEEL, name="Unsprung")
    road_top = _face_at(road, (0, 0, 0))
    body_bottom = _face_at(block, (0, 0, 400))
    wheel_top = _face_at(wheel, (0, 0, 150))
    wheel_bottom = _face_at(wheel, (0, 0, 50))
    factory.make_joint(study, "prismatic", road_top, body_bottom, name="BodyGuide")
    factory.make_joint(study, "prismatic", body_bottom, wheel_top, name="WheelGuide")
    factory.make_spring(study, body_bottom, wheel_top, SUSPENSION_K, damping=SUSPENSION_C,
                        name="Suspension")
    factory.make_spring(study, road_top, wheel_bottom, TYRE_K, name="Tyre")
    return study


#: door: opened by this angle [deg] at the start; hinge spring [N mm/deg] and damper
#: [N mm s/deg]
DOOR_OPEN, DOOR_K, DOOR_C = 70.0, 1000.0, 500.0


def build_door(doc):
    """A 600 mm wide, 800 mm tall aluminium flap door hinged along its top edge (axis y),
    released 70 deg open: it swings shut under its own weight, slowed by a torsional
    spring (rest at the closed position) and a damper in the hinge."""
    phi = math.radians(DOOR_OPEN)
    tip = (800.0 * math.sin(phi), -800.0 * math.cos(phi))
    pin = _y_cylinder(doc, "HingePin", 0.0, 0.0, -20.0, 20.0, 8.0)
    pin.Label = "Hinge pin"
    door = make_link(doc, "Door", "Door", (0.0, 0.0), tip, 0.0, thickness=600.0,
                     width=20.0, boss=15.0)
    doc.recompute()
    study = new_study(doc, end_time=4.0)
    factory.make_body(study, pin, fixed=True, name="Frame")
    factory.make_body(study, door, density=ALUMINIUM, name="DoorLeaf")
    hinge_joint = factory.make_joint(study, "revolute", hinge(pin, 0, 0, 0.0),
                                     hinge(door, 0, 0, 0.0), name="Hinge")
    # closed = the door turned back by DOOR_OPEN about +y; the joint angle is measured
    # about the joint's z axis, whose sign the picked circle decides
    from SimPhantWorkbench import conversion
    z = conversion.convert(study).solver_joint(hinge_joint).frame1[1][:, 2]
    rest = DOOR_OPEN if z[1] > 0 else -DOOR_OPEN
    factory.make_joint_spring(study, hinge_joint, DOOR_K, damping=DOOR_C, rest=rest,
                              name="HingeSpring")
    return study


#: the gear train's tooth counts (module 2 mm: pitch radii N mm) and the pinion's speed
GEAR_TEETH = (18, 42)
GEAR_SPIN = 5.0      # rev/s


def build_gear_train(doc):
    """A steel pinion (18 teeth, module 2 mm: pitch radius 18 mm) spinning at 5 rev/s meshes
    with a steel wheel (42 teeth, pitch radius 42 mm), both on pins of a fixed frame (axes
    along y): an external gear pair couples the two hinges, so the wheel turns the other
    way at 18/42 of the pinion's rate, for ever (the discs turn about their centres: gravity
    does no work)."""
    n1, n2 = GEAR_TEETH
    r1, r2 = float(n1), float(n2)
    study = new_study(doc, end_time=3.0)
    gears = []
    for name, label, r, x in (("Pinion", "Pinion", r1, 0.0), ("Wheel", "Wheel", r2, r1 + r2)):
        pin = _y_cylinder(doc, name + "Pin", x, 0.0, -20.0, 20.0, 5.0)
        pin.Label = label + " pin"
        disc = _y_cylinder(doc, name + "Disc", x, 0.0, 0.0, 10.0, r)
        disc.Label = label + " disc"
        gears.append((pin, disc, x, label))
    doc.recompute()
    hinges = []
    for (pin, disc, x, label), omega in zip(gears, (1.0, -r1 / r2)):
        factory.make_body(study, pin, fixed=True, name=label + "Frame")
        body = factory.make_body(study, disc, density=STEEL, name=label)
        set_planar_motion(body, 2 * math.pi * GEAR_SPIN * omega, (x, 0.0))
        hinges.append(factory.make_joint(study, "revolute", hinge(pin, x, 0, 0.0),
                                         hinge(disc, x, 0, 0.0), name=label + "Hinge"))
    factory.make_coupler(study, hinges[0], hinges[1], "gear", name="Mesh", Ratio=n2 / n1)
    return study


EXAMPLES = {
    "pendulum": build_pendulum,
    "double_pendulum": build_double_pendulum,
    "slider_crank": build_slider_crank,
    "four_bar": build_four_bar,
    "spinning_top": build_spinning_top,
    "quarter_car": build_quarter_car,
    "door": build_door,
    "driven_slider_crank": lambda doc: build_slider_crank(doc, motor_rpm=MOTOR_RPM),
    "gear_train": build_gear_train,
}

#: speed of the driven slider-crank's motor [rpm]
MOTOR_RPM = 120.0


#: colours of the moving bodies' shapes, in study order (those of the animation), and of
#: the fixed ones
MOVING_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd")
FIXED_COLOR = "#9a9a9a"


def _packed(color):
    """'#rrggbb' -> FreeCAD's packed colour (r << 24 | g << 16 | b << 8 | transparency)."""
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return (r << 24) | (g << 16) | (b << 8)


#: the GUI's initial view (elevation, azimuth) [deg], as matplotlib's and the animation's:
#: planar mechanisms seen mostly from -y, the top from higher up
VIEWS = {"spinning_top": (35.0, -60.0)}
DEFAULT_VIEW = (18.0, -72.0)


def camera_settings(doc, view):
    """An Open Inventor orthographic camera looking at the visible shapes from ``view``."""
    boxes = [o.Shape.BoundBox for o in doc.Objects
             if o.Visibility and hasattr(o, "Shape") and not o.Shape.isNull()]
    bb = boxes[0]
    for b in boxes[1:]:
        bb.add(b)
    elev, azim = (math.radians(a) for a in view)
    z = V(math.cos(elev) * math.cos(azim), math.cos(elev) * math.sin(azim), math.sin(elev))
    y = (V(0, 0, 1) - z * z.z).normalize()
    x = y.cross(z)
    rot = FreeCAD.Rotation(FreeCAD.Matrix(x.x, y.x, z.x, 0, x.y, y.y, z.y, 0,
                                          x.z, y.z, z.z, 0, 0, 0, 0, 1))
    size = bb.DiagonalLength
    pos = bb.Center + z * (2.0 * size)
    axis = rot.Axis
    return ("OrthographicCamera {\n  viewportMapping ADJUST_CAMERA\n  position %.6g %.6g %.6g\n"
            "  orientation %.9g %.9g %.9g  %.9g\n  nearDistance %.6g\n  farDistance %.6g\n"
            "  aspectRatio 1\n  focalDistance %.6g\n  height %.6g\n\n}\n"
            % (pos.x, pos.y, pos.z, axis.x, axis.y, axis.z, rot.Angle, 0.5 * size,
               4.0 * size, 2.0 * size, 1.1 * size))


def gui_document_xml(study, view=DEFAULT_VIEW):
    """A minimal ``GuiDocument.xml``: visibility (from the App side), the shape colours
    and a camera looking at the model from ``view`` (elevation, azimuth in degrees).

    Saved headless, a document has no ``GuiDocument.xml``, and FreeCAD's GUI then
    opens it with every object hidden. This one gives each object its view
    provider's ``Visibility`` and the bodies' shapes a ``ShapeColor``.
    """
    from xml.sax.saxutils import quoteattr
    from SimPhantWorkbench.document.base import study_bodies
    doc = study.Document
    colors = {}
    moving = 0
    for body in study_bodies(study):
        if body.Fixed:
            colors[body.ShapeObject.Name] = FIXED_COLOR
        else:
            colors[body.ShapeObject.Name] = MOVING_COLORS[moving % len(MOVING_COLORS)]
            moving += 1
    items = []
    for obj in doc.Objects:
        props = ['                <Property name="Visibility" type="App::PropertyBool">\n'
                 '                    <Bool value="%s"/>\n'
                 '                </Property>' % ("true" if obj.Visibility else "false")]
        if obj.Name in colors:
            props.append('                <Property name="ShapeColor" type="App::PropertyColor">\n'
                         '                    <PropertyColor value="%d"/>\n'
                         '                </Property>' % _packed(colors[obj.Name]))
        items.append('        <ViewProvider name="%s" expanded="0">\n'
                     '            <Properties Count="%d">\n%s\n'
                     '            </Properties>\n'
                     '        </ViewProvider>' % (obj.Name, len(props), "\n".join(props)))
    return ("<?xml version='1.0' encoding='utf-8'?>\n"
            '<Document SchemaVersion="1">\n'
            '    <ViewProviderData Count="%d">\n%s\n    </ViewProviderData>\n'
            '    <Camera settings=%s/>\n'
            "</Document>\n" % (len(items), "\n".join(items),
                                quoteattr(camera_settings(doc, view))))


def add_gui_document(path, xml):
    """Add ``GuiDocument.xml`` to the .FCStd archive at ``path`` (if it has none)."""
    import zipfile
    with zipfile.ZipFile(path) as z:
        if "GuiDocument.xml" in z.namelist():
            return
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("GuiDocument.xml", xml)


def build(name, out_dir):
    """Build example ``name`` and save it as ``out_dir/<name>.FCStd``; returns the path."""
    doc = new_document(name)
    try:
        study = EXAMPLES[name](doc)
        doc.recompute()
        path = os.path.join(out_dir, name + ".FCStd")
        # saved beside and moved over: FreeCAD would keep the old file as a backup
        # (<name>.FCStd1) when saving onto it
        tmp = os.path.join(out_dir, ".%s.%d.FCStd" % (name, os.getpid()))
        doc.saveAs(tmp)
        if not FreeCAD.GuiUp:
            add_gui_document(tmp, gui_document_xml(study, VIEWS.get(name, DEFAULT_VIEW)))
        os.replace(tmp, path)
    finally:
        FreeCAD.closeDocument(doc.Name)
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=HERE, help="directory for the .FCStd files (default: %s)"
                    % HERE)
    ap.add_argument("names", nargs="*", metavar="NAME",
                    help="examples to build (default: all): " + ", ".join(EXAMPLES))
    args = ap.parse_args(argv)
    unknown = [n for n in args.names if n not in EXAMPLES]
    if unknown:
        ap.error("unknown example(s) %s; choose from %s" % (", ".join(unknown), ", ".join(EXAMPLES)))
    os.makedirs(args.out, exist_ok=True)
    for name in args.names or list(EXAMPLES):
        print(build(name, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
