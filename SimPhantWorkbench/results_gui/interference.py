"""Interference along a study's result in the GUI.

``check_interference(study)`` runs ``document.interference.check_study`` on the study's
stored result, prints what it found to the Report view, docks an ``InterferencePanel``
(a table: per pair of bodies each interval of interference with its largest depth, or
the smallest clearance; the pairs left out) and shows the first contact: the bodies move
to the output frame nearest to it and the two bodies are selected (highlighted). A
double click on a row (or *Show*) does the same for that row's instant.

While the panel is open the check is drawn (``interference_view.Overlay``): at the
frame shown, the outlines of the bodies interfering then and their witness points;
the timeline's slider and the study's plots mark the intervals. Closing the panel takes
all of it away.
"""
import math

import FreeCAD
from PySide import QtCore, QtGui

from ..document.base import study_bodies
from ..document.interference import DEFLECTION_MM, check_study
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from . import plot_panel
from .interference_view import Overlay
from .plot_panel import show_time

__all__ = ["InterferencePanel", "check_interference", "report_lines", "panels"]

_open = []


def _mm(x):
    return "%.4g" % (x * 1e3)


def _s(x):
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else "%.4g" % x


def report_lines(check):
    """The Report view's lines of a ``collision.along.Interference``."""
    lines = [translate("SimPhant", "Interference: %d pairs checked, %d left out (joints, "
                                   "fixed), deflection %s mm, %d distance queries, %.3g s")
             % (len(check.reports), len(check.excluded), _mm(check.deflection), check.queries,
                check.wall_time)]
    hits = check.interfering()
    for r in hits:
        for iv in r.intervals:
            lines.append(translate("SimPhant", "  %s - %s interfere from %s s to %s s, up to "
                                               "%s mm deep at %s s")
                         % (r.a, r.b, _s(iv.start), _s(iv.end), _mm(iv.max_depth),
                            _s(iv.time_of_max)))
    close = check.closest()
    if not hits and close is not None:
        lines.append(translate("SimPhant", "  no interference; smallest clearance %s mm "
                                           "(%s - %s at %s s)")
                     % (_mm(close.min_clearance), close.a, close.b, _s(close.time_of_min)))
    if not check.complete:
        lines.append(translate("SimPhant", "  the search stopped early for some pairs: the "
                                           "figures are those found"))
    return lines


class InterferencePanel(QtGui.QWidget):
    """The table of an interference check of ``study``: one row per interval of
    interference (earliest first), one per pair that never interferes (its smallest
    clearance), one per pair left out."""

    HEADERS = (QT_TRANSLATE_NOOP("SimPhant", "Body A"), QT_TRANSLATE_NOOP("SimPhant", "Body B"),
               QT_TRANSLATE_NOOP("SimPhant", "Status"), QT_TRANSLATE_NOOP("SimPhant", "From [s]"),
               QT_TRANSLATE_NOOP("SimPhant", "To [s]"),
               QT_TRANSLATE_NOOP("SimPhant", "Max depth [mm]"),
               QT_TRANSLATE_NOOP("SimPhant", "At [s]"),
               QT_TRANSLATE_NOOP("SimPhant", "Min clearance [mm]"))

    def __init__(self, study, check, parent=None):
        super().__init__(parent)
        self.study, self.check = study, check
        #: per row the instant it shows (None: nothing to show) and its two body labels
        self.instants = []
        lay = QtGui.QVBoxLayout(self)
        self.summary = QtGui.QLabel(report_lines(check)[0])
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        self.table = QtGui.QTableWidget(0, len(self.HEADERS))
        self.table.setHorizontalHeaderLabels([translate("SimPhant", h) for h in self.HEADERS])
        self.table.setEditTriggers(QtGui.QAbstractItemView.NoEditTriggers)
        self.table.setSelectionBehavior(QtGui.QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QtGui.QAbstractItemView.SingleSelection)
        self.table.cellDoubleClicked.connect(lambda row, _col: self.show_row(row))
        lay.addWidget(self.table)
        buttons = QtGui.QHBoxLayout()
        self.show_button = QtGui.QPushButton(translate("SimPhant", "Show"))
        self.show_button.setToolTip(translate("SimPhant", "Move the bodies to the output frame "
                                                          "nearest to the row's instant and "
                                                          "select the two bodies"))
        self.show_button.clicked.connect(self._show_selected)
        buttons.addWidget(self.show_button)
        buttons.addStretch(1)
        lay.addLayout(buttons)
        self._fill()

    def _fill(self):
        rows = []
        for r in self.check.interfering():
            for iv in r.intervals:
                rows.append(([r.a, r.b, translate("SimPhant", "interference"), _s(iv.start),
                              _s(iv.end), _mm(iv.max_depth), _s(iv.time_of_max), "0"],
                             iv.start, (r.a, r.b)))
        for r in self.check.reports:
            if not r.interferes:
                rows.append(([r.a, r.b, translate("SimPhant", "clear"), "", "", "",
                              _s(r.time_of_min), _mm(r.min_clearance)],
                             r.time_of_min, (r.a, r.b)))
        for a, b, why in self.check.excluded:
            rows.append(([a, b, translate("SimPhant", "left out: %s") % why] + [""] * 5,
                         None, (a, b)))
        self.table.setRowCount(len(rows))
        for i, (cells, _t, _pair) in enumerate(rows):
            for j, text in enumerate(cells):
                self.table.setItem(i, j, QtGui.QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.instants = [(t, pair) for _c, t, pair in rows]

    def rows(self):
        """The table's text, row by row (for scripts and tests)."""
        return [[self.table.item(i, j).text() for j in range(self.table.columnCount())]
                for i in range(self.table.rowCount())]

    def _show_selected(self):
        sel = self.table.selectionModel().selectedRows()
        if sel:
            self.show_row(sel[0].row())

    def show_row(self, row):
        """Show row ``row``'s instant (the start of an interval, the time of a pair's
        smallest clearance) and select its two bodies; the time shown, None for a pair
        left out."""
        time, pair = self.instants[row]
        self.table.selectRow(row)
        if time is None or (isinstance(time, float) and math.isnan(time)):
            return None
        show_time(self.study, float(time))
        select_bodies(self.study, pair)
        return float(time)


def select_bodies(study, labels):
    """Select (highlight) the shape objects of the study's bodies labelled ``labels``."""
    import FreeCADGui
    FreeCADGui.Selection.clearSelection()
    for body in study_bodies(study):
        if body.Label in labels and body.ShapeObject is not None:
            FreeCADGui.Selection.addSelection(body.ShapeObject)


def panels(study=None):
    """The interference panels open now (of ``study``, or all)."""
    return [p for p in _open if study is None or p.study == study]


def check_interference(study, deflection_mm=DEFLECTION_MM, show=True):
    """Check ``study``'s result for interference (wait cursor meanwhile), print the
    findings to the Report view, dock an ``InterferencePanel`` and show the first
    contact (with ``show``); returns the panel (the ``Interference`` as its ``check``)."""
    import FreeCADGui
    QtGui.QApplication.setOverrideCursor(QtCore.Qt.WaitCursor)
    try:
        check = check_study(study, deflection_mm=deflection_mm)
    finally:
        QtGui.QApplication.restoreOverrideCursor()
    for line in report_lines(check):
        FreeCAD.Console.PrintMessage(translate("SimPhant", "SimPhant: %s") % line + "\n")
    mw = FreeCADGui.getMainWindow()
    for old in panels(study):         # one panel per study: the new check replaces it
        _open.remove(old)
        old.dock.close()
    panel = InterferencePanel(study, check)
    panel.overlay = Overlay(study, check)
    _mark_spans(study, panel.overlay.spans())
    dock = _Dock(translate("SimPhant", "SimPhant interference: %s") % study.Label, mw)
    dock.on_close = lambda: _closed(panel)
    dock.setObjectName("SimPhantInterference_%s" % study.Name)
    dock.setWidget(panel)
    dock.setAttribute(QtCore.Qt.WA_DeleteOnClose)
    mw.addDockWidget(QtCore.Qt.BottomDockWidgetArea, dock)
    dock.show()
    panel.dock = dock
    _open.append(panel)
    dock.destroyed.connect(lambda *_: _closed(panel))
    if show and check.interfering():
        panel.show_row(0)
    return panel


class _Dock(QtGui.QDockWidget):
    """The panel's dock: closing it takes the check's drawing away at once (its
    deletion comes later, from the event loop)."""

    on_close = None

    def closeEvent(self, event):
        if self.on_close is not None:
            self.on_close()
        super().closeEvent(event)


def _mark_spans(study, spans):
    """Mark ``spans`` on the timeline open on ``study`` and shade them in its plots."""
    tl = plot_panel.timeline
    if tl is not None and not tl.closed and tl.study == study:
        tl.slider.set_spans(spans)
    for p in plot_panel.panels_of(study):
        p.set_spans(spans)


def _closed(panel):
    """The panel's dock closed: take its drawing and marks away."""
    if panel in _open:
        _open.remove(panel)
    try:
        if not panel.overlay.removed:
            panel.overlay.remove()
            _mark_spans(panel.study, [])
    except Exception:  # noqa: BLE001 - the document (and its study) was closed first
        pass
