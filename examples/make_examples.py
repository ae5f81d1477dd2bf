"""Build the bundled example models (``examples/<name>.FCStd``) from Part primitives.

Every model is made of ``Part::Box``, ``Part::Cylinder`` and ``Part::Cone``
features (links are a box fused with two round end bosses, ``Part::MultiFuse``)
and set up through the factory API only (``make_study``, ``make_body``,
``make_joint``, ``make_spring``, ``make_joint_spring``, ``make_force_element``,
``make_joint_actuator``, ``make_driver``, ``make_coupler``), exactly as a script in the
FreeCAD Python console would do it. Joints are picked on geometry: the circular edge of
a boss or pin, a face, a straight edge; the element names are found by geometry, not
hard-coded (``example_parts.py``: the primitives and these helpers;
``gui_document.py``: the view data saved with each file).

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
                    under its own weight and a preloaded closer spring, slowed by a
                    damper, onto an end stop (the frame) that then holds it
gear_train          an 18-tooth pinion spinning at 5 rev/s drives a 42-tooth wheel
                    (a gear coupler of their two hinges)
steering            rack-and-pinion steering: a driver turns the steering column one
                    turn either way, the pinion (pitch radius 10 mm) moves the rack
                    against the tie rods' spring (a kinematic analysis)
lead_screw          a screw jack: a motor torque turns a lead screw (lead 10 mm) in a
                    fixed nut, lifting it 150 mm onto an end stop
disc_cam            an eccentric disc cam turned at 120 rpm lifts a roller follower
                    pressed on it by a spring (a contact between roller and cam)
ramp                two boxes launched down a 20 deg ramp: one brakes and stops, the
                    other keeps sliding (contacts with friction)
gripper             two fingers pushed by actuators close on a cube, the palm lifts it:
                    held by the pads' friction against its weight
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
for _path in (ROOT, HERE):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import numpy as np  # noqa: E402

import FreeCAD  # noqa: E402
import Part  # noqa: E402

from SimPhantWorkbench import factory  # noqa: E402

from example_parts import (ALUMINIUM, STEEL, THICKNESS, V, face_at, find_element,  # noqa: E402
                           box, fused, hinge, make_link, new_document, new_study, perp,
                           set_planar_motion, y_cylinder, z_cylinder)
from gui_document import DEFAULT_VIEW, add_gui_document, gui_document_xml  # noqa: E402


# ============================================================================ the examples

def build_pendulum(doc):
    """A 300 mm aluminium bar hinged at its top end on a fixed pin, released at 30 deg.

    Its period is the compound pendulum's ``4 sqrt(I_O/(m g d)) K(sin^2(15 deg))``.
    """
    theta0 = math.radians(30.0)
    length = 300.0
    tip = (length * math.sin(theta0), -length * math.cos(theta0))
    pin = y_cylinder(doc, "Pin", 0.0, 0.0, -20.0, 20.0, 6.0)
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
    pin = y_cylinder(doc, "Pin", 0.0, 0.0, -20.0, 20.0, 6.0)
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
    post = y_cylinder(doc, "Post", 0.0, 0.0, -20.0, 20.0, 8.0)
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
    v_pin = tuple(w_crank * c for c in perp(pin))
    w_rod = v_pin[1] / (xs - pin[0])                      # the wrist pin moves along x only
    set_planar_motion(b_crank, w_crank, (0.0, 0.0))
    set_planar_motion(b_rod, w_rod, pin, v_pin)
    v_wrist = v_pin[0] + w_rod * perp((xs - pin[0], -pin[1]))[0]
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
    pa = y_cylinder(doc, "PivotA", a[0], a[1], -20.0, 20.0, 8.0)
    pa.Label = "Pivot pin A"
    crank = make_link(doc, "CrankLink", "Crank link", a, b, 0.0)
    coupler = make_link(doc, "CouplerLink", "Coupler link", b, c, THICKNESS)
    rocker = make_link(doc, "RockerLink", "Rocker link", d, c, 2 * THICKNESS)
    pd = y_cylinder(doc, "PivotD", d[0], d[1], 3 * THICKNESS, 20.0, 8.0)
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
    v_b = tuple(w_crank * q for q in perp(b))
    pbc = perp((c[0] - b[0], c[1] - b[1]))
    pdc = perp((c[0] - d[0], c[1] - d[1]))
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
    road_top = face_at(road, (0, 0, 0))
    body_bottom = face_at(block, (0, 0, 400))
    wheel_top = face_at(wheel, (0, 0, 150))
    wheel_bottom = face_at(wheel, (0, 0, 50))
    factory.make_joint(study, "prismatic", road_top, body_bottom, name="BodyGuide")
    factory.make_joint(study, "prismatic", body_bottom, wheel_top, name="WheelGuide")
    factory.make_spring(study, body_bottom, wheel_top, SUSPENSION_K, damping=SUSPENSION_C,
                        name="Suspension")
    factory.make_spring(study, road_top, wheel_bottom, TYRE_K, name="Tyre")
    return study


#: door: opened by this angle [deg] at the start; hinge spring [N mm/deg] and damper
#: [N mm s/deg]; the spring's rest angle past the closed position [deg] (its preload
#: holds the door shut)
DOOR_OPEN, DOOR_K, DOOR_C, DOOR_PRELOAD = 70.0, 1000.0, 2000.0, 10.0
#: the door's end stop on the frame: stiffness (its moment at 1 deg of penetration, per
#: deg) [N mm/deg], exponent and maximum damping [N mm s/deg] of the IMPACT law
DOOR_STOP_K, DOOR_STOP_E, DOOR_STOP_C = 1e5, 1.5, 5e3


def joint_frame(study, joint):
    """Origin [mm] and axes (3 x 3 columns x, y, z, world) of ``joint``'s first frame as
    the solver sets it up from the picked geometry: the sign of the z axis, about and
    along which joint angles and slides count, is the picked element's."""
    from SimPhantWorkbench import conversion
    from SimPhantWorkbench.document.units import M_PER_MM
    origin, axes = conversion.convert(study).solver_joint(joint).frame1
    return np.asarray(origin) / M_PER_MM, np.asarray(axes)


def build_door(doc):
    """A 600 mm wide, 800 mm tall aluminium flap door hinged along its top edge (axis y),
    released 70 deg open: it swings shut under its own weight and a door-closer spring
    (its rest 10 deg past the closed position) slowed by a damper in the hinge, and
    strikes an end stop (the frame) at the closed position, where the spring's preload
    keeps it."""
    phi = math.radians(DOOR_OPEN)
    tip = (800.0 * math.sin(phi), -800.0 * math.cos(phi))
    # the frame: the hinge pin and, at the closed door's foot, the sill it stops on
    pin = fused(doc, "DoorFrame", "Door frame", [
        y_cylinder(doc, "HingePin", 0.0, 0.0, -20.0, 20.0, 8.0),
        box(doc, "Sill", "Sill", (-45.0, 0.0, -830.0), (-15.0, 600.0, -770.0))])
    door = make_link(doc, "Door", "Door", (0.0, 0.0), tip, 0.0, thickness=600.0,
                     width=20.0, boss=15.0)
    doc.recompute()
    study = new_study(doc, end_time=4.0, output_interval=1e-3)
    factory.make_body(study, pin, fixed=True, name="Frame")
    factory.make_body(study, door, density=ALUMINIUM, name="DoorLeaf")
    hinge_joint = factory.make_joint(study, "revolute", hinge(pin, 0, 0, 0.0),
                                     hinge(door, 0, 0, 0.0), name="Hinge")
    # closed = the door turned back by DOOR_OPEN about +y; the joint angle is measured
    # about the joint's z axis, whose sign the picked circle decides
    sense = 1.0 if joint_frame(study, hinge_joint)[1][1, 2] > 0 else -1.0
    factory.make_joint_spring(study, hinge_joint, DOOR_K, damping=DOOR_C,
                              rest=sense * (DOOR_OPEN + DOOR_PRELOAD), name="HingeSpring")
    side = "upper" if sense > 0 else "lower"
    factory.make_force_element(study, "joint_stop", joint=hinge_joint, name="DoorStop",
                               stiffness=DOOR_STOP_K, exponent=DOOR_STOP_E,
                               damping=DOOR_STOP_C, **{side: sense * DOOR_OPEN})
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
        pin = y_cylinder(doc, name + "Pin", x, 0.0, -20.0, 20.0, 5.0)
        pin.Label = label + " pin"
        disc = y_cylinder(doc, name + "Disc", x, 0.0, 0.0, 10.0, r)
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


#: steering: pinion pitch radius [mm], steering-wheel amplitude [deg] and frequency
#: [Hz] of the driver, stiffness of the tie rods and tyres on the rack [N/mm]
STEER_RADIUS, STEER_TURN, STEER_FREQUENCY, STEER_K = 10.0, 360.0, 0.5, 2.0


def build_steering(doc):
    """Rack-and-pinion steering: a steering column (a steel pinion of pitch radius 10 mm
    at its foot, a shaft, a steering wheel; axis z) turns in a bearing and moves a steel
    rack (500 mm) sliding along x in its housing, against the tie rods and tyres (a
    linear spring, 2 N/mm, on the rack's slide). A driver turns the steering wheel one
    turn either way at 0.5 Hz (a kinematic analysis): the rack travels 2 pi x 10 mm per
    turn; the driver's torque is what it takes."""
    r = STEER_RADIUS
    rack = box(doc, "RackBar", "Rack bar", (-250.0, -20.0, -10.0), (250.0, 0.0, 10.0))
    housing = box(doc, "RackHousing", "Rack housing", (-180.0, -20.0, -30.0),
                  (180.0, 0.0, -10.0))
    bearing = z_cylinder(doc, "PinionBearing", 0.0, r, -40.0, 30.0, 6.0)
    bearing.Label = "Pinion bearing"
    column = fused(doc, "SteeringColumn", "Steering column", [
        z_cylinder(doc, "Pinion", 0.0, r, -10.0, 20.0, r),
        z_cylinder(doc, "ColumnShaft", 0.0, r, 10.0, 290.0, 6.0),
        z_cylinder(doc, "SteeringWheel", 0.0, r, 300.0, 8.0, 100.0)])
    doc.recompute()
    study = new_study(doc, end_time=4.0)
    study.AnalysisMode = "Kinematic"
    factory.make_body(study, housing, fixed=True, name="Housing")
    factory.make_body(study, bearing, fixed=True, name="Bearing")
    b_column = factory.make_body(study, column, density=STEEL, name="Column")
    b_rack = factory.make_body(study, rack, density=STEEL, name="Rack")
    axis = (0, 0, 1)
    pivot = factory.make_joint(
        study, "revolute", (bearing, find_element(bearing, "Edge", (0, r, -10), axis)),
        (column, find_element(column, "Edge", (0, r, -10), axis)), name="ColumnPivot")
    # the rack's and the housing's back edges along x on the pitch line's plane y = 0
    slide = factory.make_joint(
        study, "prismatic", (housing, find_element(housing, "Edge", (0, 0, -10))),
        (rack, find_element(rack, "Edge", (0, 0, -10))), name="RackSlide")
    # the pitch point (0, 0) is at -r y from the pinion's centre: turned by theta about
    # +z the pinion moves the rack by r theta along +x, whatever senses the picked
    # elements gave the joint axes
    x_rack, z_pinion = joint_frame(study, slide)[1][0, 2], joint_frame(study, pivot)[1][2, 2]
    factory.make_coupler(study, pivot, slide, "rack_pinion", name="Mesh",
                         Radius=r * math.copysign(1.0, x_rack) * math.copysign(1.0, z_pinion))
    # started at the driver's rate at t = 0 (amplitude x 2 pi f about the joint axis), the
    # column about +z (its CoG on the axis) and the rack along x by r times that
    rate = math.radians(STEER_TURN) * 2.0 * math.pi * STEER_FREQUENCY \
        * math.copysign(1.0, z_pinion)
    b_column.InitialAngularVelocity = V(0.0, 0.0, math.degrees(rate))
    b_rack.InitialVelocity = V(r * rate, 0.0, 0.0)
    factory.make_joint_spring(study, slide, STEER_K, name="TieRods")
    factory.make_driver(study, pivot, "rotation", "harmonic", name="SteeringDriver",
                        AngleAmplitude=STEER_TURN, Frequency=STEER_FREQUENCY)
    return study


#: lead screw: lead [mm] (right-handed), the motor's torque [N m], the screw's travel to
#: its end stop [mm]; the stop's stiffness (its force at 1 mm, per mm) [N/mm], exponent,
#: maximum damping [N s/mm] and the penetration where it is reached [mm]
LEAD, SCREW_TORQUE, SCREW_TRAVEL = 10.0, 0.0144, 150.0
SCREW_STOP_K, SCREW_STOP_E, SCREW_STOP_C, SCREW_STOP_D = 500.0, 1.5, 8.0, 0.3


def build_lead_screw(doc):
    """A screw jack: a steel lead screw (12 mm, lead 10 mm, right-handed) with a round
    cap at its top turns in a nut block fixed on a base plate (a cylindrical joint with a
    screw coupler: it advances 10 mm per turn). A motor torque of 0.0144 N m on the screw
    lifts it against its weight until its cap strikes an end stop (a bar on two posts)
    150 mm up, where the motor keeps it pressed."""
    # the frame: a base plate, the nut block on it and, on two posts, the bar the screw's
    # cap strikes (the end stop) 150 mm up; parts that touch, in a compound
    top = 328.0 + SCREW_TRAVEL
    frame = fused(doc, "JackFrame", "Frame", [
        box(doc, "BasePlate", "Base plate", (-70.0, -40.0, -15.0), (70.0, 40.0, 0.0)),
        box(doc, "NutBlock", "Nut block", (-25.0, -25.0, 0.0), (25.0, 25.0, 40.0)),
        z_cylinder(doc, "Post1", -55.0, 0.0, 0.0, top, 5.0),
        z_cylinder(doc, "Post2", 55.0, 0.0, 0.0, top, 5.0),
        box(doc, "StopBar", "Stop bar", (-65.0, -10.0, top), (65.0, 10.0, top + 12.0))],
        compound=True)
    # (a compound: the rod's foot circle keeps its name on any version of the kernel)
    screw = fused(doc, "LeadScrew", "Lead screw", [
        z_cylinder(doc, "ScrewRod", 0.0, 0.0, 20.0, 300.0, 6.0),
        z_cylinder(doc, "ScrewCap", 0.0, 0.0, 320.0, 8.0, 25.0)], compound=True)
    doc.recompute()
    # the stop's contact lasts a few milliseconds: a step of 0.1 ms resolves it (the energy
    # its damping takes is summed in the run, so the output step is free)
    study = new_study(doc, end_time=3.0, time_step=1e-4, output_interval=1e-3)
    factory.make_body(study, frame, fixed=True, name="Frame")
    factory.make_body(study, screw, density=STEEL, name="Screw")
    thread = factory.make_joint(
        study, "cylindrical", face_at(frame, (0, 0, 40)),
        (screw, find_element(screw, "Edge", (0, 0, 20), (0, 0, 1))), name="Thread")
    factory.make_coupler(study, thread, None, "screw", name="ScrewThread", Lead=LEAD)
    # a right-handed screw rises turning counter-clockwise seen from above (about +z)
    origin, axes = joint_frame(study, thread)
    sense = math.copysign(1.0, axes[2, 2])
    factory.make_joint_actuator(study, thread, sense * SCREW_TORQUE, dof="rotation",
                                name="Motor")
    start = float(axes[:, 2] @ (np.array([0.0, 0.0, 20.0]) - origin))
    side = "upper" if sense > 0 else "lower"
    factory.make_force_element(study, "joint_stop", joint=thread, dof="translation",
                               name="EndStop", stiffness=SCREW_STOP_K,
                               exponent=SCREW_STOP_E, damping=SCREW_STOP_C,
                               penetration=SCREW_STOP_D,
                               **{side: start + sense * SCREW_TRAVEL})
    return study


#: disc cam: eccentricity, disc radius and width, the roller's radius and width [mm], the
#: shaft's speed [rpm]; the spring on the follower [N/mm] and its preload [N]
CAM_E, CAM_R, CAM_WIDTH, ROLLER_R, ROLLER_WIDTH = 8.0, 30.0, 12.0, 10.0, 8.0
CAM_RPM, CAM_SPRING_K, CAM_PRELOAD = 120.0, 0.2, 10.0
#: the cam contact: stiffness (force at 1 mm, per mm) [N/mm], exponent, maximum damping
#: [N s/mm] and the penetration where it is reached [mm]; friction coefficients and
#: speeds [mm/s]; tessellation deflection and sample spacing [mm]
CAM_CONTACT = dict(stiffness=1e4, exponent=1.5, damping=1.0, penetration=0.005)
CAM_DEFLECTION, CAM_SPACING = 0.05, 1.0


def cam_frames(doc, cam, frame):
    """The shaft's joint frames (a revolute about +y through the origin) in the local
    frames of ``frame``'s and ``cam``'s shapes: the eccentric disc has no edge on the
    shaft's axis, so its hinge is placed, not picked."""
    world = FreeCAD.Placement(V(0, 0, 0), FreeCAD.Rotation(V(1, 0, 0), -90))   # z -> +y
    return tuple(o.Placement.inverse().multiply(world) for o in (frame, cam))


def build_disc_cam(doc):
    """A steel eccentric disc cam (radius 30 mm, 8 mm off its shaft, 12 mm wide) turned at
    a constant 120 rpm by a motor (a driver on the shaft's revolute) lifts a steel roller
    follower: a roller (radius 10 mm, 8 mm wide) on a pin (revolute) of a plunger sliding
    in a vertical guide (prismatic), pressed onto the cam by a spring (0.2 N/mm, 10 N of
    preload) and its weight. The roller touches the cam through a contact (its rim's
    sample points against the cam's tessellated hull; friction makes it roll). The
    roller's centre rides at ``z_c + sqrt((R + r)^2 - x_c^2)`` above the shaft (``x_c``,
    ``z_c`` the disc's centre): the lift ``2 e``."""
    e, R, r = CAM_E, CAM_R, ROLLER_R
    zr = R + r - e                                        # the roller's centre at t0
    top = zr + 120.0
    frame = fused(doc, "CamFrame", "Frame", [
        y_cylinder(doc, "CamShaft", 0.0, 0.0, -30.0, 28.0, 6.0),
        box(doc, "FollowerGuide", "Follower guide", (6.0, 10.0, zr + 40.0),
            (16.0, 20.0, zr + 100.0)),
        box(doc, "SpringBracket", "Spring bracket", (-20.0, 10.0, top + 80.0),
            (20.0, 20.0, top + 90.0))], compound=True)
    cam = y_cylinder(doc, "CamDisc", 0.0, -e, 0.0, CAM_WIDTH, R)
    cam.Label = "Cam disc"
    y0 = 0.5 * (CAM_WIDTH - ROLLER_WIDTH)
    roller = y_cylinder(doc, "Roller", 0.0, zr, y0, ROLLER_WIDTH, r)
    roller.Label = "Roller"
    follower = fused(doc, "Follower", "Follower", [
        box(doc, "Plunger", "Plunger", (-6.0, 10.0, zr), (6.0, 20.0, top)),
        y_cylinder(doc, "RollerPin", 0.0, zr, 10.0, 10.0, 5.0)])
    doc.recompute()
    study = new_study(doc, end_time=0.6, time_step=5e-5, output_interval=1e-4)
    factory.make_body(study, frame, fixed=True, name="Frame")
    b_cam = factory.make_body(study, cam, density=STEEL, name="Cam")
    set_planar_motion(b_cam, 2.0 * math.pi * CAM_RPM / 60.0, (0.0, 0.0))
    factory.make_body(study, follower, density=STEEL, name="Follower")
    factory.make_body(study, roller, density=STEEL, name="RollerBody")
    shaft = factory.make_joint(study, "revolute", (frame, ""), (cam, ""), name="Shaft",
                               placements=cam_frames(doc, cam, frame))
    factory.make_joint(study, "prismatic",
                       (frame, find_element(frame, "Edge", (6.0, 20.0, zr + 70.0))),
                       (follower, find_element(follower, "Edge", (6.0, 20.0, zr + 60.0))),
                       name="Guide")
    factory.make_joint(study, "revolute", hinge(follower, 0.0, zr, 10.0),
                       hinge(roller, 0.0, zr, 10.0), name="RollerPin")
    # compressed from its free length by preload / k
    factory.make_spring(study, face_at(frame, (0.0, 15.0, top + 80.0)),
                        face_at(follower, (0.0, 15.0, top)), CAM_SPRING_K,
                        free_length=80.0 + CAM_PRELOAD / CAM_SPRING_K, name="Spring")
    factory.make_driver(study, shaft, "rotation", "ramp", name="Motor", Speed=CAM_RPM)
    factory.make_force_element(study, "contact", (roller, "Face1"), (cam, "Face1"),
                               name="CamContact", contact=dict(
                                   Deflection=CAM_DEFLECTION, SampleSpacing=CAM_SPACING),
                               **CAM_CONTACT)
    return study


#: ramp angle [deg]; the boxes' speed down the ramp at the start [mm/s]; friction (static,
#: dynamic) of the box that stops and of the box that keeps sliding; the contacts'
#: stiction and friction speeds [mm/s]
RAMP_ANGLE, RAMP_SPEED = 20.0, 500.0
RAMP_STOPS, RAMP_SLIDES = (0.6, 0.5), (0.3, 0.25)
RAMP_STICTION, RAMP_FRICTION = 1.0, 2.0
RAMP_CONTACT = dict(stiffness=1e4, exponent=1.5, damping=0.1, penetration=2e-4)


def build_ramp(doc):
    """Two steel boxes (60 x 40 x 30 mm) launched at 0.5 m/s down a 20 deg ramp: on rubber
    pads (mu_s 0.6, mu_d 0.5 > tan 20 deg) one brakes at ``g (mu_d cos - sin)`` and stops
    after ``v0^2 / (2 g (mu_d cos - sin))`` (about 100 mm, 0.4 s), then stays (mu_s >
    tan 20 deg); the other (mu_s 0.3, mu_d 0.25 < tan 20 deg) keeps sliding, faster and
    faster, at ``g (sin - mu_d cos)``. Each box touches the ramp through a contact (its
    edges' sample points against the ramp's faces)."""
    tilt = FreeCAD.Rotation(V(0, 1, 0), RAMP_ANGLE)       # x down the slope, z its normal
    ramp = doc.addObject("Part::Box", "Ramp")
    ramp.Length, ramp.Width, ramp.Height = 1000.0, 200.0, 20.0
    ramp.Placement = FreeCAD.Placement(tilt.multVec(V(0, -100.0, -20.0)), tilt)
    ramp.Label = "Ramp"
    boxes = []
    for name, label, lane in (("StoppingBox", "Stopping box", -60.0),
                              ("SlidingBox", "Sliding box", 20.0)):
        b = doc.addObject("Part::Box", name)
        b.Length, b.Width, b.Height = 60.0, 40.0, 30.0
        b.Placement = FreeCAD.Placement(tilt.multVec(V(100.0, lane, 0.0)), tilt)
        b.Label = label
        boxes.append(b)
    doc.recompute()
    study = new_study(doc, end_time=0.8, time_step=5e-5, output_interval=1e-3)
    factory.make_body(study, ramp, fixed=True, name="RampBody")
    down = tilt.multVec(V(RAMP_SPEED, 0, 0))
    for b, (mus, mud) in zip(boxes, (RAMP_STOPS, RAMP_SLIDES)):
        factory.make_body(study, b, density=STEEL, name=b.Name + "Body",
                          velocity=(down.x, down.y, down.z))
        factory.make_force_element(
            study, "contact", (b, "Face1"), (ramp, "Face1"), name=b.Name + "Contact",
            contact=dict(MuStatic=mus, MuDynamic=mud, StictionSpeed=RAMP_STICTION,
                         FrictionSpeed=RAMP_FRICTION, Deflection="0.1 mm",
                         SampleSpacing="5 mm"), **RAMP_CONTACT)
    return study


#: gripper: each finger's actuator force [N] and the damping of its slide [N s/mm]; the
#: friction of the fingers' pads on the part; the lift [mm] from START to END [s]; the
#: contact law of the (rubber) pads and of the table (damping per sample point)
GRIP_FORCE, GRIP_DAMPING = 5.0, 0.05
GRIP_MU = (0.4, 0.3)
GRIP_LIFT, GRIP_LIFT_START, GRIP_LIFT_END = 30.0, 0.3, 0.6
GRIP_CONTACT = dict(stiffness=100.0, exponent=1.5, damping=0.02, penetration=0.01)
TABLE_CONTACT = dict(stiffness=1e4, exponent=1.5, damping=0.05, penetration=2e-4)


def build_gripper(doc):
    """A two-finger gripper picks an aluminium cube (40 mm) off a table: two aluminium
    fingers slide along x on the palm (prismatic joints), each pushed towards the cube by
    an actuator force of 5 N (slowed by a damper in its slide, 0.05 N s/mm); they close on
    the cube, then a driver lifts the palm 30 mm (a smooth step from 0.3 s to 0.6 s):
    the cube goes up with it, held by the friction of the pads (mu_s 0.4, mu_d 0.3)
    against its weight. Three contacts: the cube on the table and against each finger
    (the cube's edges' sample points against their faces)."""
    table = box(doc, "Table", "Table", (-100.0, -60.0, -20.0), (100.0, 60.0, 0.0))
    part = box(doc, "Cube", "Cube", (-20.0, -20.0, 0.0), (20.0, 20.0, 40.0))
    palm = box(doc, "Palm", "Palm", (-80.0, -30.0, 100.0), (80.0, 30.0, 120.0))
    left = box(doc, "LeftFinger", "Left finger", (-60.0, -30.0, 2.0), (-40.0, 30.0, 100.0))
    right = box(doc, "RightFinger", "Right finger", (40.0, -30.0, 2.0), (60.0, 30.0, 100.0))
    doc.recompute()
    study = new_study(doc, end_time=1.0, time_step=5e-5, output_interval=1e-3)
    factory.make_body(study, table, fixed=True, name="TableBody")
    factory.make_body(study, palm, density=ALUMINIUM, name="PalmBody")
    factory.make_body(study, left, density=ALUMINIUM, name="LeftFingerBody")
    factory.make_body(study, right, density=ALUMINIUM, name="RightFingerBody")
    factory.make_body(study, part, density=ALUMINIUM, name="CubeBody")
    # the palm slides along z over the table (its top face and the palm's bottom face)
    lift = factory.make_joint(study, "prismatic", face_at(table, (0, 0, 0)),
                              face_at(palm, (0, 0, 100.0)), name="Lift")
    # the driven slide is the palm's face's distance from the table's along the joint axis
    origin, axes = joint_frame(study, lift)
    up = math.copysign(1.0, axes[2, 2])
    start = float(axes[:, 2] @ (np.array([0.0, 0.0, 100.0]) - origin))
    factory.make_driver(study, lift, "translation", "step5", name="LiftDriver",
                        StartTime=GRIP_LIFT_START, EndTime=GRIP_LIFT_END, Distance=start,
                        EndDistance=start + up * GRIP_LIFT)
    for finger, x, name in ((left, -50.0, "Left"), (right, 50.0, "Right")):
        # the palm's and the finger's edges along x on the line y = -30, z = 100
        slide = factory.make_joint(
            study, "prismatic", (palm, find_element(palm, "Edge", (0.0, -30.0, 100.0))),
            (finger, find_element(finger, "Edge", (x, -30.0, 100.0))), name=name + "Slide")
        inward = -math.copysign(1.0, x) * math.copysign(1.0, joint_frame(study, slide)[1][0, 2])
        factory.make_joint_actuator(study, slide, inward * GRIP_FORCE, name=name + "Actuator")
        factory.make_joint_spring(study, slide, 0.0, damping=GRIP_DAMPING,
                                  name=name + "Damper")
        factory.make_force_element(
            study, "contact", (part, "Face1"), (finger, "Face1"), name=name + "Pad",
            contact=dict(MuStatic=GRIP_MU[0], MuDynamic=GRIP_MU[1], StictionSpeed=2.0,
                         FrictionSpeed=4.0, Deflection="0.1 mm", SampleSpacing="5 mm"),
            **GRIP_CONTACT)
    factory.make_force_element(
        study, "contact", (part, "Face1"), (table, "Face1"), name="TableContact",
        contact=dict(MuStatic=GRIP_MU[0], MuDynamic=GRIP_MU[1], StictionSpeed=2.0,
                     FrictionSpeed=4.0, Deflection="0.1 mm", SampleSpacing="5 mm"),
        **TABLE_CONTACT)
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
    "steering": build_steering,
    "lead_screw": build_lead_screw,
    "disc_cam": build_disc_cam,
    "ramp": build_ramp,
    "gripper": build_gripper,
}

#: speed of the driven slider-crank's motor [rpm]
MOTOR_RPM = 120.0


#: the GUI's initial view (elevation, azimuth) [deg] of the examples not seen from the
#: default one: the top from higher up
VIEWS = {"spinning_top": (35.0, -60.0)}



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
