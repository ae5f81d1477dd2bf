"""The interactive results viewer: a Qt window with a PyVista render widget.

``ViewerWindow`` shows a ``Scene`` moving through a ``Result``: orbit, pan and
zoom with the mouse (VTK's trackball camera), a time slider, play/pause,
playback speed, joint triads and CoG trails on/off, and a body picker that
shows (and prints) the picked body's pose and velocities at the current time.
Clicking a body in the 3-D view picks it too.

Qt comes through qtpy (pyvistaqt's own binding layer), set to the binding
already loaded: inside FreeCAD its PySide2 (or PySide6), standalone Debian's
PySide2. ``run_viewer`` is ``simphant view``'s window; the workbench opens it on a
study with ``results_gui.viewer.open_viewer``.
"""
import math
import time

import numpy as np

from . import prepare_qt_api
from ..output.plots import display_title
from .render import SceneRenderer

prepare_qt_api()                 # before qtpy: the binding already loaded, never a second one
from pyvistaqt import QtInteractor  # noqa: E402
from qtpy import QtCore, QtWidgets  # noqa: E402

__all__ = ["ViewerWindow", "run_viewer", "keep_open", "body_report", "SPEEDS"]

#: playback speeds offered (times real time)
SPEEDS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
_TICK_MS = 30
_open = []          # windows opened from FreeCAD: kept alive until closed


def body_report(result, name, i):
    """Text of a body's pose and velocities at sample ``i`` (SI units, world axes)."""
    r, _A = result.pose(name, i)
    ang = np.degrees(result.euler_angles(name)[i])
    v = result.velocity(name)[i]
    w = result.angular_velocity(name)[i]

    def vec(x, fmt="%.4g"):
        return "(" + ", ".join(fmt % c for c in x) + ")"
    return ("%s at t = %.4g s\n"
            "  CoG position      %s m\n"
            "  Euler Z-Y-X       %s deg\n"
            "  CoG velocity      %s m/s  |v| = %.4g m/s\n"
            "  angular velocity  %s rad/s  |w| = %.4g rad/s"
            % (name, result.t[i], vec(r), vec(ang, "%.2f"), vec(v), float(np.linalg.norm(v)),
               vec(w), float(np.linalg.norm(w))))


class ViewerWindow(QtWidgets.QMainWindow):
    """See the module docstring. ``index`` is the sample shown; ``time_listeners``
    are called with the time [s] whenever it changes."""

    def __init__(self, result, scene, index=0, size=(960, 720), triads=True,
                 trails=False, parent=None, title=None):
        super().__init__(parent)
        self.result = result
        self.scene = scene
        self.time_listeners = []
        title = display_title(title or scene.title)
        self.setWindowTitle("SimPhant viewer" + (": " + title if title else ""))
        central = QtWidgets.QWidget(self)
        layout = QtWidgets.QVBoxLayout(central)
        layout.setContentsMargins(4, 4, 4, 4)
        self.plotter = QtInteractor(central)
        layout.addWidget(self.plotter.interactor, 1)
        self.renderer = SceneRenderer(self.plotter, scene, result, triads=triads,
                                      trails=trails, title="")
        # ---- controls
        row = QtWidgets.QHBoxLayout()
        self.play_button = QtWidgets.QPushButton("Play")
        self.play_button.setCheckable(True)
        self.play_button.toggled.connect(self._toggled)
        row.addWidget(self.play_button)
        self.slider = QtWidgets.QSlider(QtCore.Qt.Horizontal)
        self.slider.setRange(0, len(result.t) - 1)
        self.slider.valueChanged.connect(self.set_index)
        row.addWidget(self.slider, 1)
        self.time_label = QtWidgets.QLabel()
        self.time_label.setMinimumWidth(110)
        row.addWidget(self.time_label)
        row.addWidget(QtWidgets.QLabel("speed"))
        self.speed_box = QtWidgets.QComboBox()
        for s in SPEEDS:
            self.speed_box.addItem("%gx" % s, s)
        self.speed_box.setCurrentIndex(SPEEDS.index(1.0))
        self.speed_box.setToolTip("playback speed, times real time")
        row.addWidget(self.speed_box)
        layout.addLayout(row)
        row = QtWidgets.QHBoxLayout()
        self.triads_box = QtWidgets.QCheckBox("joint frames")
        self.triads_box.setChecked(bool(triads))
        self.triads_box.toggled.connect(self._triads)
        row.addWidget(self.triads_box)
        self.trails_box = QtWidgets.QCheckBox("CoG trails")
        self.trails_box.setChecked(bool(trails))
        self.trails_box.toggled.connect(self._trails)
        row.addWidget(self.trails_box)
        row.addStretch(1)
        row.addWidget(QtWidgets.QLabel("body"))
        self.body_box = QtWidgets.QComboBox()
        self.body_box.addItem("(pick a body)", None)
        for name in result.body_names:
            self.body_box.addItem(name, name)
        self.body_box.currentIndexChanged.connect(self._report)
        row.addWidget(self.body_box)
        layout.addLayout(row)
        self.info = QtWidgets.QPlainTextEdit()
        self.info.setReadOnly(True)
        self.info.setMaximumHeight(90)
        font = self.info.font()
        font.setFamily("monospace")
        self.info.setFont(font)
        layout.addWidget(self.info)
        self.setCentralWidget(central)
        self.resize(int(size[0]), int(size[1]) + 150)
        self._timer = QtCore.QTimer(self)
        self._timer.setInterval(_TICK_MS)
        self._timer.timeout.connect(self._tick)
        self._clock = None
        self._label_of = {m.label: m.name for m in scene.meshes if m.name is not None}
        self.picking = True           # a right click on a body picks it
        try:
            self.plotter.enable_mesh_picking(self._picked, use_actor=True, show=False,
                                             show_message=False, left_clicking=False)
        except Exception:  # noqa: BLE001 - picking is a convenience
            self.picking = False
        self._framed = False
        self.index = -1
        self.set_index(index)

    # ---------------------------------------------------------- time
    def set_index(self, i):
        i = int(max(0, min(len(self.result.t) - 1, i)))
        if i == self.index:
            return
        self.index = i
        if self.slider.value() != i:
            self.slider.blockSignals(True)
            self.slider.setValue(i)
            self.slider.blockSignals(False)
        t = self.renderer.show(i)
        self.time_label.setText("t = %.3f s" % t)
        self.plotter.render()
        self._report()
        for f in list(self.time_listeners):
            f(t)

    def set_time(self, t):
        """Show the sample nearest to time ``t`` [s]."""
        self.set_index(int(np.abs(self.result.t - float(t)).argmin()))

    @property
    def speed(self):
        return float(self.speed_box.currentData())

    def play(self):
        self.play_button.setChecked(True)

    def pause(self):
        self.play_button.setChecked(False)

    def _toggled(self, on):
        self.play_button.setText("Pause" if on else "Play")
        if on:
            if self.index >= len(self.result.t) - 1:
                self.set_index(0)
            self._clock = (time.monotonic(), float(self.result.t[self.index]))
            self._timer.start()
        else:
            self._timer.stop()

    def advance(self, seconds):
        """Move playback on by ``seconds`` of wall time at the chosen speed; stop at the end."""
        t = self.result.t
        target = float(t[self.index]) + seconds * self.speed
        if target >= t[-1]:
            self.set_index(len(t) - 1)
            self.pause()
        else:
            self.set_time(target)

    def _tick(self):
        now = time.monotonic()
        t0_wall, t0 = self._clock
        target = t0 + (now - t0_wall) * self.speed
        t = self.result.t
        if target >= t[-1] or not math.isfinite(target):
            self.set_index(len(t) - 1)
            self.pause()
        else:
            self.set_time(target)

    # ---------------------------------------------------------- options
    def _triads(self, on):
        self.renderer.set_triads_visible(on)
        self.plotter.render()

    def _trails(self, on):
        self.renderer.set_trails_visible(on)
        self.plotter.render()

    def _picked(self, actor, *args):
        """A right click on an actor: pick its body (fixed bodies and triads: nothing)."""
        for label, a in self.renderer.actors.items():
            if a is actor:
                name = self._label_of.get(label)
                if name is not None:
                    self.body_box.setCurrentIndex(self.body_box.findData(name))
                return name
        return None

    def pick_body(self, name):
        """Pick body ``name`` (its report is shown and printed)."""
        k = self.body_box.findData(name)
        if k < 0:
            raise KeyError("no moving body %r in the result" % (name,))
        self.body_box.setCurrentIndex(k)
        return self.info.toPlainText()

    def _report(self, *_):
        name = self.body_box.currentData()
        if name is None:
            self.info.setPlainText("")
            return
        text = body_report(self.result, name, self.index)
        self.info.setPlainText(text)
        if not self.play_button.isChecked():
            print(text)

    def snapshot(self, path):
        """Save the whole window as a PNG, the 3-D view included (``QWidget.grab``
        alone leaves an OpenGL widget black)."""
        from PIL import Image
        QtWidgets.QApplication.processEvents()
        self.plotter.render()
        pix = self.grab()
        tmp = path + ".tmp.png"
        pix.save(tmp, "PNG")
        try:
            with Image.open(tmp) as im:
                base = im.convert("RGB")
        finally:
            import os
            os.remove(tmp)
        view = Image.fromarray(np.asarray(self.plotter.screenshot(return_img=True))[..., :3])
        widget = self.plotter.interactor
        origin = widget.mapTo(self, QtCore.QPoint(0, 0))
        ratio = base.size[0] / max(1, self.width())
        if view.size != (round(widget.width() * ratio), round(widget.height() * ratio)):
            view = view.resize((round(widget.width() * ratio), round(widget.height() * ratio)))
        base.paste(view, (round(origin.x() * ratio), round(origin.y() * ratio)))
        base.save(path)
        return path

    def showEvent(self, event):
        super().showEvent(event)
        if not self._framed:        # frame the motion once the widget has its size
            self._framed = True
            QtCore.QTimer.singleShot(0, self.reset_camera)

    def reset_camera(self):
        self.renderer.reset_camera()
        self.plotter.render()

    def closeEvent(self, event):
        self._timer.stop()
        try:
            self.plotter.close()
        except Exception:  # noqa: BLE001 - already closed
            pass
        if self in _open:
            _open.remove(self)
        super().closeEvent(event)


def keep_open(win):
    """Keep ``win`` (a ``ViewerWindow`` shown inside another application) alive until it
    is closed."""
    _open.append(win)


def run_viewer(result, scene, index=0, size=(960, 720), triads=True, trails=False):
    """Show the viewer window and run Qt's event loop until it is closed (``simphant view``)."""
    import os
    import sys
    if sys.platform == "linux" and not (os.environ.get("DISPLAY")
                                        or os.environ.get("WAYLAND_DISPLAY")):
        raise RuntimeError("no display to open the viewer window on (use --screenshot to "
                           "render a frame off-screen)")
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    win = ViewerWindow(result, scene, index=index, size=size, triads=triads, trails=trails)
    win.show()
    return app.exec_() if hasattr(app, "exec_") else app.exec()
