"""The end stops' contact events of a run, for tables, plots and the timeline.

One source: ``Result.stop_events()`` (dicts with ``time`` [s], ``element``, ``side``,
``speed``, ``rebound`` and possibly more fields); everything here reads those dicts and keeps any
field it does not know (a later column of ``events.csv``).

``events.csv``: one row per contact, in time order: ``time [s]``, ``element``,
``side`` (``lower`` / ``upper`` limit), ``speed`` (the rate of penetration at impact,
in ``unit``: m/s for a slide, rad/s for an angle), ``rebound`` (an impulsive stop's
rebound speed in the same unit; empty for a compliant stop), ``unit``, then any further numeric
fields of the events. ``event_frame`` is the stored frame of an event: the first
sample at or after its time (the first one in contact).
"""
import csv

import numpy as np

from .tables import is_rotation

__all__ = ["EVENT_FIELDS", "EVENT_COLUMNS", "EVENT_COLOR", "result_events", "extra_fields",
           "speed_unit", "event_rows", "write_events_csv", "event_frame", "event_frames", "event_counts",
           "count_text", "event_text", "draw_event_marks", "INTERFERENCE_COLOR", "span_frames",
           "draw_span_marks"]

#: the fields every event has, in ``events.csv``'s order
EVENT_FIELDS = ("time", "element", "side", "speed", "rebound")
#: ``events.csv``'s first columns (any further event fields follow, by their names)
EVENT_COLUMNS = ("time [s]", "element", "side", "speed", "rebound", "unit")
#: the colour of event marks in plots and on the timeline
EVENT_COLOR = "#8c564b"
#: the colour of the intervals of interference in plots and on the timeline
INTERFERENCE_COLOR = "#d62728"


def result_events(result):
    """``result.stop_events()``, or ``[]`` for a result without end stops or without the
    method (an older result)."""
    fn = getattr(result, "stop_events", None)
    return list(fn()) if fn is not None else []


def extra_fields(events):
    """The fields of ``events`` besides ``EVENT_FIELDS``, in order of first appearance."""
    out = []
    for ev in events:
        out += [k for k in ev if k not in EVENT_FIELDS and k not in out]
    return out


def speed_unit(result, element):
    """The unit of element ``element``'s impact speed: rad/s for an angle, else m/s."""
    names = list(getattr(result, "force_names", []))
    return "rad/s" if element in names and is_rotation(result, names.index(element)) \
        else "m/s"


def event_rows(result, events=None):
    """(header, rows) of ``events.csv`` (see the module docstring)."""
    events = result_events(result) if events is None else list(events)
    extra = extra_fields(events)
    rows = [[ev["time"], ev["element"], ev["side"], ev["speed"],
             "" if ev.get("rebound") is None else ev["rebound"],
             speed_unit(result, ev["element"])] + [ev.get(k, "") for k in extra]
            for ev in events]
    return list(EVENT_COLUMNS) + extra, rows


def write_events_csv(result, path, events=None):
    """Write ``events.csv`` (``event_rows``): floats as ``repr`` (exact round trip)."""
    header, rows = event_rows(result, events)
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        for row in rows:
            w.writerow([repr(float(x)) if isinstance(x, (float, np.floating)) else x
                        for x in row])
    return path


def event_frame(t, time):
    """Index of the stored frame of an event at ``time`` [s] in the sample times ``t``:
    the first sample after it (clipped to the last frame)."""
    t = np.asarray(t, dtype=float)
    return int(min(len(t) - 1, np.searchsorted(t, float(time), side="right")))


def event_frames(t, events):
    """``event_frame`` of each event, in the events' order."""
    return [event_frame(t, ev["time"]) for ev in events]


def span_frames(t, start, end):
    """(first, last) stored frames of the time span ``start``..``end`` [s]: the frames
    at or inside it (``first`` > ``last`` when it lies between two samples)."""
    t = np.asarray(t, dtype=float)
    first = int(np.searchsorted(t, float(start), side="left"))
    last = int(np.searchsorted(t, float(end), side="right")) - 1
    return first, last


def event_counts(events):
    """``[(element, count, {side: count})]`` in order of each element's first event."""
    out = {}
    for ev in events:
        n, sides = out.setdefault(ev["element"], [0, {}])
        out[ev["element"]][0] = n + 1
        sides[ev["side"]] = sides.get(ev["side"], 0) + 1
    return [(name, n, sides) for name, (n, sides) in out.items()]


def count_text(counts):
    """``"Stop 3 (lower 1, upper 2), Ends 1 (upper 1)"`` of ``event_counts``."""
    return ", ".join("%s %d (%s)" % (name, n, ", ".join("%s %d" % (s, sides[s])
                                                         for s in sorted(sides)))
                     for name, n, sides in counts)


def event_text(ev, label=None, unit=""):
    """One line about an event: element (or its ``label``), side, time, impact speed (and
    an impulsive stop's rebound speed)."""
    u = " " + unit if unit else ""
    text = "%s: %s limit at t = %.6g s, impact speed %.4g%s" % (
        label or ev["element"], ev["side"], ev["time"], ev["speed"], u)
    if ev.get("rebound") is not None:
        text += ", rebound %.4g%s" % (ev["rebound"], u)
    return text


def draw_event_marks(ax, events, labels=None, elements=None, text=True):
    """Vertical dotted lines on matplotlib axes ``ax`` at the events' times, each labelled
    with its element (``labels``: element -> shown name) at the top of the axes; only the
    events of ``elements`` when given. Returns the lines drawn."""
    labels = labels or {}
    lines = []
    for ev in events:
        if elements is not None and ev["element"] not in elements:
            continue
        lines.append(ax.axvline(ev["time"], color=EVENT_COLOR, ls=":", lw=1.0, alpha=0.9))
        if text:
            ax.text(ev["time"], 1.0, " " + str(labels.get(ev["element"], ev["element"])),
                    transform=ax.get_xaxis_transform(), rotation=90, va="top", ha="left",
                    fontsize="x-small", color=EVENT_COLOR, clip_on=True)
    return lines


def draw_span_marks(ax, spans, color=INTERFERENCE_COLOR):
    """Shaded bands on matplotlib axes ``ax`` over the time spans ``spans``
    (``[(start [s], end [s], text)]``: the intervals of interference); returns them."""
    return [ax.axvspan(start, end, color=color, alpha=0.15, lw=0) for start, end, _ in spans]
