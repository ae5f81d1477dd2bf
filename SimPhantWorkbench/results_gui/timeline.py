"""The playback's time slider with the end stops' contacts marked on it.

``EventSlider`` is a horizontal ``QSlider`` over the result's frames that paints a
small mark at each contact's frame (``output.events.event_frame``: the first sample in
contact), under the groove, and shows the contact (element, side, time, impact speed)
as the tooltip of a mark under the mouse; ``set_spans`` adds bands over the frames of
time spans (the intervals of interference, ``output.events.span_frames``) above the
groove, each with its tooltip. ``next_event`` / ``previous_event`` give the
frame of the contact after / before a frame, for the playback's buttons.
"""
from PySide import QtCore, QtGui

from ..output.events import EVENT_COLOR, INTERFERENCE_COLOR, event_frames, event_text, \
    span_frames

__all__ = ["EventSlider"]

#: a mark is drawn this many pixels tall and answers the mouse this close [px]
MARK_HEIGHT = 6
MARK_REACH = 4
#: a span's band is this many pixels tall
SPAN_HEIGHT = 4


class EventSlider(QtGui.QSlider):
    """A horizontal slider of ``n`` frames at times ``t`` with the contacts ``events``
    (``Result.stop_events()`` dicts) marked; ``labels``: element -> shown name,
    ``units``: element -> unit of its speed."""

    def __init__(self, t, events=(), labels=None, units=None, parent=None):
        super().__init__(QtCore.Qt.Horizontal, parent)
        self.t = t
        self.spans = []             # [(first frame, last frame, text)]
        self.setRange(0, max(0, len(t) - 1))
        self.events = list(events)
        self.frames = event_frames(t, self.events)
        labels, units = labels or {}, units or {}
        self.texts = [event_text(ev, labels.get(ev["element"]), units.get(ev["element"], ""))
                      for ev in self.events]
        self.setMouseTracking(True)
        if self.events:
            self.setMinimumHeight(self.sizeHint().height() + MARK_HEIGHT)

    # ------------------------------------------------------------ geometry
    def value_x(self, value):
        """The x [px] of the handle's centre when the slider shows ``value`` (the style's
        own layout of the handle)."""
        opt = QtGui.QStyleOptionSlider()
        self.initStyleOption(opt)
        opt.sliderPosition = opt.sliderValue = int(value)
        return self.style().subControlRect(QtGui.QStyle.CC_Slider, opt,
                                           QtGui.QStyle.SC_SliderHandle, self).center().x()

    def marks(self):
        """``[(x [px], frame, tooltip text)]`` of the marks, in the events' order."""
        return [(self.value_x(f), f, text) for f, text in zip(self.frames, self.texts)]

    def set_spans(self, spans):
        """Mark the time spans ``[(start [s], end [s], text)]`` (replacing those marked);
        one between two samples is marked at the sample after it."""
        self.spans = []
        for start, end, text in spans:
            first, last = span_frames(self.t, start, end)
            first = min(first, len(self.t) - 1)
            self.spans.append((first, max(first, last), text))
        self.setMinimumHeight(self.sizeHint().height() + MARK_HEIGHT + SPAN_HEIGHT)
        self.update()

    def span_marks(self):
        """``[(x0 [px], x1 [px], first frame, last frame, text)]`` of the spans' bands."""
        return [(self.value_x(f0) - MARK_REACH // 2, self.value_x(f1) + MARK_REACH // 2, f0, f1,
                 text) for f0, f1, text in self.spans]

    def text_at(self, x):
        """The tooltip of the marks within ``MARK_REACH`` px of ``x`` and of the spans
        over ``x`` (one line each), or ``""``."""
        return "\n".join([text for mx, _, text in self.marks() if abs(mx - x) <= MARK_REACH]
                         + [text for x0, x1, _, _, text in self.span_marks() if x0 <= x <= x1])

    # ------------------------------------------------------------ events
    def next_event(self, frame):
        """The frame of the first contact after ``frame``, or None."""
        later = [f for f in self.frames if f > frame]
        return min(later) if later else None

    def previous_event(self, frame):
        """The frame of the last contact before ``frame``, or None."""
        earlier = [f for f in self.frames if f < frame]
        return max(earlier) if earlier else None

    # ------------------------------------------------------------ Qt
    def paintEvent(self, event):
        super().paintEvent(event)
        if not self.events and not self.spans:
            return
        p = QtGui.QPainter(self)
        try:
            band = QtGui.QColor(INTERFERENCE_COLOR)
            for x0, x1, _, _, _ in self.span_marks():
                p.fillRect(x0, 0, max(x1 - x0, 2), SPAN_HEIGHT, band)
            p.setPen(QtGui.QPen(QtGui.QColor(EVENT_COLOR), 2))
            bottom = self.height() - 1
            for x, _, _ in self.marks():
                p.drawLine(x, bottom - MARK_HEIGHT, x, bottom)
        finally:
            p.end()

    def event(self, ev):
        if ev.type() == QtCore.QEvent.ToolTip:
            text = self.text_at(ev.pos().x())
            if text:
                QtGui.QToolTip.showText(ev.globalPos(), text, self)
            else:
                QtGui.QToolTip.hideText()
                ev.ignore()
            return True
        return super().event(ev)
