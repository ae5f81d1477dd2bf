"""Timeline playback of a study's result: slider, play/pause, loop, speed, steps, Reset.

The slider marks the end stops' contacts (``results_gui.timeline.EventSlider``; a mark's
tooltip names the element, side, time and impact speed) and the intervals of interference of
the check on show (``results_gui.interference_view.time_spans``); the buttons beside the
steps jump to the previous / next contact.

Frames are written by one ``playback.Session`` kept while the panel is open
(placements only; the result is read and validated once, not per frame), and
the 3D view is redrawn once per frame after all placements are written. The whole
playback session is one undo step, opened with the panel and kept open past the
command (``document.base.transaction``): every frame, the first one included, and
Reset join it instead of adding undo entries. Closing the panel asks whether to
keep the pose shown: Yes commits that one step, No aborts it, which puts every
placement back as it was when the panel opened and leaves no undo entry. Reset puts
the bodies where the run started (``playback.reset``, bit-exact).

Speed 1 is real time: the playback clock advances by wall time x speed and the
nearest stored frame is shown, so a slow computer skips frames instead of
slowing the motion down.
"""
import time

import FreeCAD
import FreeCADGui
from PySide import QtCore, QtGui

from .. import playback, runner
from ..document.base import transaction
from ..gui.common import icon_path, message
from ..output.events import result_events, speed_unit
from ..results_gui import plot_panel
from ..results_gui.interference_view import time_spans
from ..results_gui.timeline import EventSlider
from ..gui.following import flush_markers
from ..gui.translation import translate
from .widgets import FlowRow, fit_side_pane, labelled, number_box, wrapped_label

__all__ = ["TaskPlayback", "show"]

TICK_MS = 15


class TaskPlayback:
    #: the panel open now (scripts and tests reach it here)
    current = None

    def __init__(self, study, ask_on_close=True):
        TaskPlayback.current = self
        plot_panel.timeline = self        # clicks on the study's plots move this panel
        self.study = study
        self.doc = study.Document
        self.result = runner.get_result(study)
        if self.result is None:
            raise ValueError(translate("SimPhant", "Study '%s' has no result yet: solve it first")
                             % study.Label)
        self.session = playback.Session(study)
        self.t = self.result.t
        self.n = len(self.t)
        self.index = 0
        self.clock = float(self.t[0])
        self.playing = False
        self.closed = False
        self.ask_on_close = ask_on_close
        self.in_edit = False
        self.frames_shown = 0
        self._build_form()
        self.timer = QtCore.QTimer()
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        # one undo step kept open while the panel is: every frame, the first included, and
        # Reset join it, so that No takes all of them back. Inside a command FreeCAD may keep
        # a transaction of the document open that the step then joins (nothing of its own
        # to abort): No puts back the poses from before playback itself.
        self.poses_before = [(obj.Name, FreeCAD.Placement(obj.Placement))
                             for obj in self.session.objects]
        self.undo_step = transaction(self.doc, translate(
            "SimPhant", "SimPhant: playback of '%s'") % study.Label).open(persist=True, own=True)
        try:
            self.show_frame(0)
        except Exception:
            self.undo_step.close(keep=False)
            raise

    # ------------------------------------------------------------------ form
    def _build_form(self):
        form = QtGui.QWidget()
        form.setWindowTitle(translate("SimPhant", "Playback: %s") % self.study.Label)
        form.setWindowIcon(QtGui.QIcon(icon_path("Playback.svg")))
        lay = QtGui.QVBoxLayout(form)
        from ..gui.outdated import note_label
        self.outdated_note = note_label(self.study)
        lay.addWidget(self.outdated_note)
        self.readout = wrapped_label()
        f = self.readout.font()
        f.setPointSizeF(f.pointSizeF() * 1.3)
        self.readout.setFont(f)
        lay.addWidget(self.readout)
        events = result_events(self.result)
        self.slider = EventSlider(
            self.t, events, plot_panel.element_labels(self.study, self.result),
            {ev["element"]: speed_unit(self.result, ev["element"]) for ev in events})
        spans = time_spans(self.study)
        if spans:
            self.slider.set_spans(spans)
        self.slider.valueChanged.connect(self._slider_moved)
        lay.addWidget(self.slider)
        style = form.style()
        self.back = QtGui.QToolButton()
        self.back.setIcon(style.standardIcon(QtGui.QStyle.SP_MediaSeekBackward))
        self.back.setToolTip(translate("SimPhant", "Previous frame"))
        self.back.clicked.connect(lambda: self.step(-1))
        self.play = QtGui.QToolButton()
        self.play.setIcon(style.standardIcon(QtGui.QStyle.SP_MediaPlay))
        self.play.setToolTip(translate("SimPhant", "Play / pause"))
        self.play.clicked.connect(self.toggle)
        self.fwd = QtGui.QToolButton()
        self.fwd.setIcon(style.standardIcon(QtGui.QStyle.SP_MediaSeekForward))
        self.fwd.setToolTip(translate("SimPhant", "Next frame"))
        self.fwd.clicked.connect(lambda: self.step(1))
        self.prev_event = QtGui.QToolButton()
        self.prev_event.setIcon(style.standardIcon(QtGui.QStyle.SP_MediaSkipBackward))
        self.prev_event.setToolTip(translate("SimPhant", "Previous end stop contact"))
        self.prev_event.clicked.connect(lambda: self.jump_to_event(-1))
        self.next_event = QtGui.QToolButton()
        self.next_event.setIcon(style.standardIcon(QtGui.QStyle.SP_MediaSkipForward))
        self.next_event.setToolTip(translate("SimPhant", "Next end stop contact"))
        self.next_event.clicked.connect(lambda: self.jump_to_event(1))
        for w in (self.prev_event, self.back, self.play, self.fwd, self.next_event):
            w.setIconSize(QtCore.QSize(24, 24))
        for w in (self.prev_event, self.next_event):
            w.setVisible(bool(events))
        self.loop = QtGui.QCheckBox(translate("SimPhant", "Loop"))
        self.speed = number_box(1.0, 0.1, 10.0, 2, " \u00d7", translate(
            "SimPhant", "Playback speed: 1 = real time (0.1 to 10)"))
        self.speed.setSingleStep(0.1)
        controls = QtGui.QWidget()          # the transport buttons stay on one line
        h = QtGui.QHBoxLayout(controls)
        h.setContentsMargins(0, 0, 0, 0)
        for w in (self.prev_event, self.back, self.play, self.fwd, self.next_event):
            h.addWidget(w)
        lay.addLayout(FlowRow((controls, self.loop,
                               labelled(translate("SimPhant", "Speed"), self.speed)),
                              stretch=False))
        reset = QtGui.QPushButton(QtGui.QIcon(icon_path("Reset.svg")),
                                  translate("SimPhant", "Reset to the start pose"))
        reset.setToolTip(translate("SimPhant", "Put the bodies exactly where they were when the "
                                   "run started"))
        reset.clicked.connect(self.reset)
        lay.addWidget(reset)
        res_obj = runner.result_object(self.study)
        info = wrapped_label(translate("SimPhant", "%d frames, t = %.4g .. %.4g s (%s, %d steps)")
                             % (self.n, self.t[0], self.t[-1], res_obj.Method, res_obj.Steps))
        lay.addWidget(info)
        lay.addStretch(1)
        self.form = fit_side_pane(form)

    # ------------------------------------------------------------------ frames
    def show_frame(self, i):
        """Show frame ``i`` (index) on the document and in the controls."""
        i = max(0, min(self.n - 1, int(i)))
        if not self.session.current():          # result replaced or a body deleted meanwhile
            self.session = playback.Session(self.study)
        self.index = self.session.apply(i)
        flush_markers()                  # markers on the new poses before the next redraw
        self.frames_shown += 1
        self.slider.blockSignals(True)
        self.slider.setValue(self.index)
        self.slider.blockSignals(False)
        self.readout.setText(translate("SimPhant", "t = %.4f s    frame %d / %d")
                             % (self.t[self.index], self.index + 1, self.n))
        for panel in plot_panel.panels_of(self.study):    # the plots' cursor lines follow
            panel.set_time(self.t[self.index])
        return self.index

    def seek(self, t):
        """Show the frame nearest to time ``t`` [s] (a click on a plot); returns its index."""
        self.pause()
        i = int(abs(self.t - float(t)).argmin())
        self.clock = float(self.t[i])
        return self.show_frame(i)

    def jump_to_event(self, direction):
        """Show the frame of the next (``direction`` > 0) or previous end stop contact
        (``timeline.EventSlider``'s marks); returns its index, or None when there is none."""
        self.pause()
        frame = (self.slider.next_event if direction > 0 else
                 self.slider.previous_event)(self.index)
        if frame is None:
            return None
        self.clock = float(self.t[frame])
        return self.show_frame(frame)

    def _slider_moved(self, value):
        self.clock = float(self.t[value])
        self.show_frame(value)

    def step(self, k):
        self.pause()
        self.clock = float(self.t[max(0, min(self.n - 1, self.index + k))])
        self.show_frame(self.index + k)

    def toggle(self):
        if self.playing:
            self.pause()
        else:
            self.start()

    def start(self):
        if self.index >= self.n - 1:
            self.clock = float(self.t[0])
            self.show_frame(0)
        self.playing = True
        self._last = time.perf_counter()
        self.play.setIcon(self.form.style().standardIcon(QtGui.QStyle.SP_MediaPause))
        self.timer.start()

    def pause(self):
        self.playing = False
        self.timer.stop()
        self.play.setIcon(self.form.style().standardIcon(QtGui.QStyle.SP_MediaPlay))

    def _tick(self):
        now = time.perf_counter()
        self.clock += (now - self._last) * self.speed.value()
        self._last = now
        if self.clock > self.t[-1]:
            if self.loop.isChecked():
                self.clock = float(self.t[0]) + (self.clock - self.t[-1]) % max(
                    self.t[-1] - self.t[0], 1e-12)
            else:
                self.show_frame(self.n - 1)
                self.pause()
                return
        i = int(min(self.n - 1, max(0, self.t.searchsorted(self.clock))))
        if i > 0 and abs(self.t[i - 1] - self.clock) < abs(self.t[i] - self.clock):
            i -= 1
        if i != self.index:
            self.show_frame(i)

    def reset(self):
        self.pause()
        playback.reset(self.study)
        self.index = 0
        self.clock = float(self.t[0])
        self.slider.blockSignals(True)
        self.slider.setValue(0)
        self.slider.blockSignals(False)
        self.readout.setText(translate("SimPhant", "start pose (t = %.4f s)") % self.t[0])

    # ------------------------------------------------------------------ dialog
    def getStandardButtons(self):
        return int(QtGui.QDialogButtonBox.Close)

    def keep_pose(self):
        """Ask whether to keep the pose shown (True) or go back to the pose before playback."""
        if not self.ask_on_close:
            return True
        return bool(message("question", translate("SimPhant", "SimPhant playback"),
                            translate("SimPhant", "Keep the pose shown (t = %.4g s)?\nNo puts "
                                      "the bodies back where they were before playback.")
                            % self.t[self.index]))

    def close(self, keep=None):
        if self.closed:
            return
        self.pause()
        keep = self.keep_pose() if keep is None else keep
        self.closed = True
        if not keep and not self.undo_step.owner:
            for name, pl in self.poses_before:
                obj = self.doc.getObject(name)
                if obj is not None:
                    obj.Placement = pl
        self.undo_step.close(keep=keep)
        FreeCADGui.Control.closeDialog()
        gdoc = FreeCADGui.getDocument(self.doc.Name)
        if self.in_edit and gdoc is not None and gdoc.getInEdit() is not None:
            gdoc.resetEdit()

    def reject(self):
        self.close()
        return True

    def accept(self):
        self.close()
        return True


def show(study, ask_on_close=True):
    """Open the playback panel of ``study`` in the task view; returns it."""
    panel = TaskPlayback(study, ask_on_close=ask_on_close)
    FreeCADGui.Control.showDialog(panel)
    return panel

