"""End stop contact events in the outputs: ``events.csv`` against the result's events and
the closed-form impact times of a pendulum, the plots' marks, the CLI's file and summary;
the geometry of a stop's range in the 3-D view."""
import csv
import io
import math

import numpy as np
import pytest
from scipy.special import ellipk

from SimPhantWorkbench import cli, factory, output
from SimPhantWorkbench.output import events as E
from SimPhantWorkbench.output import plots
from SimPhantWorkbench.solver import Model

from helpers_doc import docs, pendulum  # noqa: F401 (fixture)

G = 9.81
I_O = 0.01 + 0.25                           # the rod about its hinge [kg m^2]
#: released horizontal: the bottom of the swing (a quarter of a 90 deg swing) after
#: sqrt(I/mgl) K(1/2) (the complete elliptic integral, m = 1/2), at the speed of energy
T_HIT = math.sqrt(I_O / (G * 0.5)) * ellipk(0.5)
W0 = math.sqrt(2 * G * 0.5 / I_O)
K_STOP = 1e4                                # linear stop [N m/rad]: contact of half a period
T_CONTACT = math.pi * math.sqrt(I_O / K_STOP)


def _pendulum_on_a_stop():
    """A rod (1 kg, CoG 0.5 m from the hinge) released horizontal onto an undamped linear
    stop at the bottom of its swing (gravity has no moment there): it rebounds at the
    impact speed, swings back up to horizontal and down again."""
    m = Model(gravity=(0, 0, -G))
    b = m.add_body("rod", mass=1.0, inertia=(0.01, 0.01, 0.01), position=(0.5, 0, 0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint_stop(j, upper=math.pi / 2, stiffness=K_STOP, exponent=1.0, name="stop")
    return m.simulate(t_end=3 * T_HIT + 0.1, dt=1e-4, output_dt=1e-3)


@pytest.fixture(scope="module")
def bounce():
    return _pendulum_on_a_stop()


def _read(path):
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


def test_events_csv_holds_the_results_events_at_the_closed_form_times(bounce, tmp_path):
    """Two contacts: at the bottom after the fall time T and, after half a period of the
    stop's spring in contact and a swing up and down (2 T), at 3 T + pi sqrt(I/k); both at
    the speed of the fall, in rad/s; the file's numbers are the result's exactly."""
    events = bounce.stop_events()
    names = output.write_all(bounce, str(tmp_path), only=lambda f: f == "events.csv")
    assert names == ["events.csv"]
    header, rows = _read(tmp_path / "events.csv")
    assert header == ["time [s]", "element", "side", "speed", "rebound", "unit"]
    assert [(float(r[0]), r[1], r[2], float(r[3])) for r in rows] == \
        [(e["time"], e["element"], e["side"], e["speed"]) for e in events]
    assert [r[4:] for r in rows] == [["", "rad/s"], ["", "rad/s"]]   # compliant: no rebound
    times = [float(r[0]) for r in rows]
    assert times[0] == pytest.approx(T_HIT, rel=1e-4)
    # the second contact: compliance (the time spent in the first) within 1e-3 of it
    assert times[1] == pytest.approx(3 * T_HIT + T_CONTACT, abs=1e-3 * T_CONTACT)
    assert [r[1:3] for r in rows] == [["stop", "upper"]] * 2
    assert [float(r[3]) for r in rows] == pytest.approx([W0, W0], rel=1e-3)


def test_an_impulsive_stops_events_csv_gives_the_rebound_at_e_times_the_impact(tmp_path):
    """The same fall onto an impulsive stop (e = 0.6): the first impact at the closed-form
    fall time and speed, its rebound 0.6 of it, in the same unit."""
    m = Model(gravity=(0, 0, -G))
    b = m.add_body("rod", mass=1.0, inertia=(0.01, 0.01, 0.01), position=(0.5, 0, 0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint_stop(j, upper=math.pi / 2, law="impulsive", restitution=0.6, name="stop")
    r = m.simulate(t_end=T_HIT + 0.05, dt=1e-3, output_dt=1e-2)
    E.write_events_csv(r, str(tmp_path / "events.csv"))
    header, rows = _read(tmp_path / "events.csv")
    assert header == ["time [s]", "element", "side", "speed", "rebound", "unit"]
    assert len(rows) == 1 and rows[0][1:3] == ["stop", "upper"] and rows[0][5] == "rad/s"
    assert float(rows[0][0]) == pytest.approx(T_HIT, rel=1e-6)
    assert float(rows[0][3]) == pytest.approx(W0, rel=1e-6)
    assert float(rows[0][4]) == pytest.approx(0.6 * W0, rel=1e-6)
    assert "rebound %.4g rad/s" % float(rows[0][4]) in E.event_text(r.stop_events()[0],
                                                                     unit="rad/s")


def test_an_events_csv_keeps_fields_it_does_not_know(bounce, tmp_path):
    """A later field of the events (e.g. a rebound speed) becomes a column of its own."""
    events = [dict(e, rebound_speed=0.5 * e["speed"]) for e in bounce.stop_events()]
    E.write_events_csv(bounce, str(tmp_path / "events.csv"), events)
    header, rows = _read(tmp_path / "events.csv")
    assert header[-1] == "rebound_speed"
    assert [float(r[-1]) for r in rows] == [0.5 * e["speed"] for e in events]


def test_no_events_csv_without_contacts(tmp_path):
    m = Model(gravity=(0, 0, -G))
    b = m.add_body("rod", mass=1.0, inertia=(0.01, 0.01, 0.01), position=(0.5, 0, 0))
    j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    m.add_joint_stop(j, upper=2.0, name="stop")              # never reached
    r = m.simulate(t_end=0.3, dt=1e-3)
    assert r.stop_events() == []
    assert "events.csv" not in output.write_all(r, str(tmp_path), only=lambda f: f.endswith(
        ".csv"))


def test_event_frame_is_the_first_sample_in_contact(bounce):
    """Each event's frame is the first stored sample after its time: the sample before it
    has not met the limit, that one has."""
    x = bounce.spring_length("stop")
    for ev, k in zip(bounce.stop_events(), E.event_frames(bounce.t, bounce.stop_events())):
        assert bounce.t[k - 1] <= ev["time"] < bounce.t[k]
        assert x[k - 1] <= math.pi / 2 < x[k]
    assert E.event_frame([0.0, 1.0, 2.0], 7.0) == 2


def test_exported_plots_mark_the_events(bounce):
    """The forces figure draws a dotted line at each of the element's contacts in both of
    its panels, labelled with the element in the first."""
    fig = plots.forces_figure(bounce)
    times = sorted(e["time"] for e in bounce.stop_events())
    for ax in fig.axes[:2]:
        marks = sorted(line.get_xdata()[0] for line in ax.get_lines()
                       if line.get_color() == E.EVENT_COLOR)
        assert marks == pytest.approx(times, abs=0)
    assert [t.get_text().strip() for t in fig.axes[0].texts] == ["stop", "stop"]


def test_event_counts_per_element_and_side():
    evs = [dict(time=0.1, element="A", side="upper", speed=1.0),
           dict(time=0.2, element="B", side="lower", speed=1.0),
           dict(time=0.3, element="A", side="lower", speed=1.0),
           dict(time=0.4, element="A", side="upper", speed=1.0)]
    counts = E.event_counts(evs)
    assert counts == [("A", 3, {"upper": 2, "lower": 1}), ("B", 1, {"lower": 1})]
    assert E.count_text(counts) == "A 3 (lower 1, upper 2), B 1 (lower 1)"


def test_cli_writes_events_csv_and_counts_them_in_the_summary(docs, tmp_path):
    """The document pendulum (amplitude A = 1.15 deg about its rest) with stops at
    +-0.5 deg of its start: the first contact when A (1 - cos w t) = 0.5 deg (small
    swings, w from its period); events.csv lists what the summary counts."""
    doc = docs()
    p = pendulum(doc)
    factory.make_force_element(p["study"], "joint_stop", joint=p["joint"], lower=-0.5,
                               upper=0.5, stiffness="2000 N*mm/deg", exponent=1.5,
                               name="Stop")
    model = str(tmp_path / "stop.FCStd")
    doc.saveAs(model)
    out = tmp_path / "out"
    o, e = io.StringIO(), io.StringIO()
    code = cli.main(["run", model, "--out", str(out), "--no-animation", "--t-end", "1.0"],
                    stdout=o, stderr=e)
    assert code == 0, e.getvalue()
    header, rows = _read(out / "events.csv")
    assert len(rows) >= 2 and {r[1] for r in rows} == {"Stop"}
    w = 2 * math.pi / p["period"]
    a = math.degrees(p["amplitude"])
    assert float(rows[0][0]) == pytest.approx(math.acos(1 - 0.5 / a) / w, rel=2e-3)
    assert {r[5] for r in rows} == {"rad/s"}
    sides = {s: sum(r[2] == s for r in rows) for s in ("lower", "upper")}
    line = [ln for ln in o.getvalue().splitlines() if ln.startswith("events ")]
    assert line == ["events     %d end stop contacts: Stop %d (%s) (events.csv)" % (
        len(rows), len(rows), ", ".join("%s %d" % (s, n) for s, n in sorted(sides.items())
                                         if n))]
    assert "events.csv" in (out / "summary.txt").read_text()


# --------------------------------------------------------------------------- the 3-D view
def test_stop_range_geometry_of_slides_and_angles():
    """In the joint's frame [mm]: a slide's bar along z from the lower to the upper limit
    (m to mm) with a tick across at each; an angle's arc of the given radius about z from
    the lower to the upper limit (rad), angle 0 on x; a missing limit leaves that end open
    (no tick, the range reaching 90 deg or one radius past the other limit)."""
    from SimPhantWorkbench.viewproviders.view_force_element import stop_range_lines
    bar, lo_tick, hi_tick = stop_range_lines("translation", -0.01, 0.025, 40.0)
    assert bar == [(0.0, 0.0, -10.0), (0.0, 0.0, 25.0)]
    assert lo_tick == [(-6.0, 0.0, -10.0), (6.0, 0.0, -10.0)]
    assert hi_tick == [(-6.0, 0.0, 25.0), (6.0, 0.0, 25.0)]
    bar, tick = stop_range_lines("translation", None, 0.025, 40.0)
    assert bar == [(0.0, 0.0, -15.0), (0.0, 0.0, 25.0)] and tick[0][2] == 25.0
    arc, lo_tick, hi_tick = stop_range_lines("rotation", math.radians(-30), math.radians(60),
                                             50.0)
    angles = [math.degrees(math.atan2(p[1], p[0])) for p in arc]
    assert angles[0] == pytest.approx(-30.0) and angles[-1] == pytest.approx(60.0)
    assert np.all(np.diff(angles) > 0)
    assert all(math.hypot(p[0], p[1]) == pytest.approx(50.0) and p[2] == 0.0 for p in arc)
    for tick, deg in ((lo_tick, -30.0), (hi_tick, 60.0)):
        assert [math.degrees(math.atan2(p[1], p[0])) for p in tick] == pytest.approx([deg] * 2)
        assert [math.hypot(p[0], p[1]) for p in tick] == pytest.approx([42.5, 57.5])
    arc, tick = stop_range_lines("rotation", math.radians(10), None, 50.0)
    assert math.degrees(math.atan2(arc[-1][1], arc[-1][0])) == pytest.approx(100.0)
    assert math.degrees(math.atan2(tick[0][1], tick[0][0])) == pytest.approx(10.0)
