"""Translations load and reach every GUI string, in the real FreeCAD GUI (under Xvfb).

The test writes a pseudo-translation of the whole template (``SimPhant.ts``: every
message becomes ``"[de] " + its source``) as a ``.qm`` file into the workbench's
translations folder, switches FreeCAD to German before the workbench is loaded, and
reads what the user would see: the toolbars' titles, every command's menu text (static
ones translated by FreeCAD with the command name as context, generated ones by the
workbench), the task panels of every object type, the progress dialog of Solve, the
messages of Check, the context menus and the plot panel. Every text there that has
words of its own (not only object names or numbers) must carry the marker: a string
that does not go through ``translate`` (or has the wrong context) stays English and
fails the test. The ``.qm`` file is removed afterwards.
"""
import os
import re
import struct
import textwrap
import xml.etree.ElementTree as ET

import pytest

from freecad_gui import ROOT, run_gui_script

pytestmark = pytest.mark.slow

TRANSLATIONS = os.path.join(ROOT, "SimPhantWorkbench", "resources", "translations")
MARK = "[de] "

_QM_MAGIC = bytes([0x3c, 0xb8, 0x64, 0x18, 0xca, 0xef, 0x9c, 0x95,
                   0xcd, 0x21, 0x1c, 0xbf, 0x60, 0xa1, 0xbd, 0xdd])


def _elf_hash(data):
    """The hash Qt's translator looks messages up by (source text + comment bytes)."""
    h = 0
    for byte in data:
        h = ((h << 4) + byte) & 0xffffffff
        g = h & 0xf0000000
        if g:
            h ^= g >> 24
        h &= ~g & 0xffffffff
    return h or 1


def qm_bytes(messages):
    """A Qt ``.qm`` translation file of ``{(context, source): translation}``: a table of
    message hashes and the messages (source, context, translation in UTF-16)."""
    blocks, hashes = [], []
    offset = 0
    for (context, source), translation in messages.items():
        src, ctx = source.encode("utf-8"), context.encode("utf-8")
        tr = translation.encode("utf-16-be")
        block = (b"\x03" + struct.pack(">I", len(tr)) + tr
                 + b"\x06" + struct.pack(">I", len(src)) + src
                 + b"\x07" + struct.pack(">I", len(ctx)) + ctx + b"\x01")
        hashes.append((_elf_hash(src), offset))
        blocks.append(block)
        offset += len(block)
    table = b"".join(struct.pack(">II", h, o) for h, o in sorted(hashes))
    body = b"".join(blocks)
    return (_QM_MAGIC + b"\x42" + struct.pack(">I", len(table)) + table
            + b"\x69" + struct.pack(">I", len(body)) + body)


def pseudo_translation():
    root = ET.parse(os.path.join(TRANSLATIONS, "SimPhant.ts")).getroot()
    return {(ctx.findtext("name"), msg.findtext("source")): MARK + msg.findtext("source")
            for ctx in root.iter("context") for msg in ctx.iter("message")}


SCRIPT = textwrap.dedent(r'''
    import json, os, re, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtCore, QtGui
    R = {"texts": {}, "messages": []}

    def pump(n=5):
        for _ in range(n):
            QtGui.QApplication.processEvents()

    def widget_texts(root):
        """What a user reads in ``root``: titles, labels, buttons, group boxes."""
        out = [root.windowTitle()]
        for w in root.findChildren(QtGui.QWidget):
            try:
                out += texts_of(w)
            except RuntimeError:            # deleted meanwhile (a replaced cell widget)
                R.setdefault("deleted", []).append(type(w).__name__)
        return out

    def texts_of(w):
        if any(isinstance(p, (QtGui.QDialogButtonBox, QtGui.QAbstractSpinBox))
               for p in (w.parent(), w.parent() and w.parent().parent())):
            return []              # Qt's OK / Cancel, FreeCAD's spin boxes' own buttons
        if isinstance(w, (QtGui.QLabel, QtGui.QAbstractButton)):
            return [w.text(), w.toolTip()]
        if isinstance(w, QtGui.QGroupBox):
            return [w.title()]
        if isinstance(w, QtGui.QTableWidget):
            return [w.horizontalHeaderItem(i).text() for i in range(w.columnCount())
                    if w.horizontalHeaderItem(i) is not None]
        if isinstance(w, (QtGui.QLineEdit, QtGui.QAbstractSpinBox)):
            return [w.toolTip()]
        return []

    def panel(name, widgets):
        texts = []
        for w in widgets if isinstance(widgets, (list, tuple)) else [widgets]:
            texts += widget_texts(w)
        R["texts"][name] = texts

    try:
        from SimPhantWorkbench.gui.translation import translate
        FreeCADGui.setLocale("de")
        pump()
        R["probe"] = [translate("SimPhant", "Joint kind"),
                      FreeCAD.Qt.translate("SimPhant_Solve", "Solve")]
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        pump()
        mw = FreeCADGui.getMainWindow()
        from SimPhantWorkbench import commands, factory, runner
        from SimPhantWorkbench.gui import common, solve_job
        from SimPhantWorkbench.document.base import is_type, study_bodies
        common.message_hook = lambda kind, title, text: R["messages"].append([title, text])
        R["toolbars"] = [tb.windowTitle() for tb in mw.findChildren(QtGui.QToolBar)
                         if tb.objectName().startswith("SimPhant")]
        names = list(commands.all_commands())
        actions = {}
        for name in names:
            acts = FreeCADGui.Command.get(name).getAction()
            actions[name] = [[a.text(), a.toolTip()] for a in acts[:1]]
        R["commands"] = actions

        doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "driven_slider_crank.FCStd"))
        FreeCADGui.updateGui()
        study = [o for o in doc.Objects if is_type(o, "SimPhant::Study")][0]
        rod = doc.getObjectsByLabel("ConnectingRod")[0]
        crank = doc.getObjectsByLabel("Crank")[0]
        pin = doc.getObjectsByLabel("WristPin")[0]
        factory.make_force(study, rod, (0, 0, 1), name="Push")
        factory.make_torque(study, crank, (0, 1, 0), name="Twist")
        factory.make_joint_spring(study, pin, 1.0, name="PinSpring")
        pstudy = factory.make_parameter_study(study, {
            "variables": [{"target": "Motor.Speed", "values": [60, 120]}],
            "metrics": {"torque": "absmax(driver_effort(Motor))"}})
        doc.recompute()
        R["dynamic"] = sorted({w for o in doc.Objects for w in (o.Name, o.Label)})

        # ---- Check (message), Solve (progress dialog), context menus
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(study)
        FreeCADGui.runCommand("SimPhant_Check")
        job = solve_job.start(study, t_end=0.2)
        pump()
        if job.dialog is not None:
            panel("solve dialog", job.dialog)
        job.wait(300)
        menus = []
        for obj in (study, pin, runner.result_object(study), pstudy):
            menu = QtGui.QMenu()
            obj.ViewObject.Proxy.setupContextMenu(obj.ViewObject, menu)
            menus += [a.text() for a in menu.actions()]
        R["texts"]["context menus"] = menus

        # ---- every object's task panel (double-click)
        from SimPhantWorkbench.taskpanels.widgets import PropertyPanel
        from SimPhantWorkbench.taskpanels import task_joint, task_parameter_study, task_playback
        kinds = (PropertyPanel, task_joint.TaskJoint, task_parameter_study.TaskParameterStudy,
                 task_playback.TaskPlayback)
        for obj in [study] + list(study.Group):
            if not str(getattr(getattr(obj, "Proxy", None), "Type", "")).startswith("SimPhant"):
                continue
            for k in kinds:
                k.current = None
            FreeCADGui.Selection.clearSelection()
            FreeCADGui.ActiveDocument.setEdit(obj.Name)
            pump()
            opened = [k.current for k in kinds if k.current is not None]
            if opened:
                panel("panel of %s" % obj.Label, opened[0].form)
                opened[0].reject()
            FreeCADGui.Control.closeDialog()
            pump()
        # ---- the plot panel
        from SimPhantWorkbench.results_gui import plot_panel
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(pin)
        pp = plot_panel.open_plot_panel(study)
        pp.select("reaction_force", [pin])
        panel("plot panel", pp)
        R["texts"]["plot panel"] += [pp.axes.get_xlabel(), pp.axes.get_ylabel(),
                                     pp.axes.get_title(), pp.quantity_box.currentText(),
                                     pp.dock.windowTitle()]
    except Exception:
        R["error"] = traceback.format_exc()
    finally:
        finish(R)
''')


def _words(text, dynamic):
    """The words of ``text`` that are not names of the document's objects, the product's
    name or acronyms (PNG, CSV)."""
    for name in sorted(dynamic, key=len, reverse=True):
        text = text.replace(name, " ")
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w != "SimPhant" and not w.isupper()]


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    qm = os.path.join(TRANSLATIONS, "SimPhantTest_de.qm")
    with open(qm, "wb") as fh:
        fh.write(qm_bytes(pseudo_translation()))
    try:
        res, _proc = run_gui_script(tmp_path_factory.mktemp("translations_gui"),
                                    "translations_gui", SCRIPT)
    finally:
        os.remove(qm)
    assert "error" not in res, res["error"]
    return res


def test_the_workbench_loads_its_translations(gui):
    assert gui["probe"] == [MARK + "Joint kind", MARK + "Solve"]


def test_toolbars_and_commands_are_translated(gui):
    assert sorted(gui["toolbars"]) == sorted(MARK + t for t in ("SimPhant model", "SimPhant run",
                                                              "SimPhant results",
                                                              "SimPhant view"))
    assert gui["commands"]["SimPhant_Solve"][0][0] == MARK + "Solve"
    assert gui["commands"]["SimPhant_Joint_revolute"][0][0] == MARK + MARK + "Revolute joint"
    for name, actions in gui["commands"].items():
        for text, tooltip in actions:
            # FreeCAD shows "<h3>menu text</h3>tooltip<br><i>(command name)</i>"
            tip = re.sub(r"<[^>]+>", "", re.sub(r"<h3>.*?</h3>|<i>.*?</i>", "", tooltip))
            assert text.startswith(MARK) and tip.strip().startswith(MARK), (name, text, tooltip)


def test_every_text_of_the_panels_dialogs_and_plots_is_translated(gui):
    dynamic = gui["dynamic"]
    shown = set(gui["texts"])
    assert {"solve dialog", "context menus", "plot panel", "panel of Study", "panel of Motor",
            "panel of WristPin", "panel of Push", "panel of Twist", "panel of PinSpring",
            "panel of Crank", "panel of Result", "panel of ParameterStudy"} <= shown, shown
    untranslated = [(where, text) for where, texts in gui["texts"].items() for text in texts
                    if text and MARK.strip() not in text and _words(text, dynamic)]
    assert not untranslated, untranslated


def test_messages_are_translated(gui):
    titles = [t for t, _ in gui["messages"]]
    assert titles and all(t.startswith(MARK) for t in titles), gui["messages"]
    check = [text for title, text in gui["messages"] if "check" in title][0]
    assert check.splitlines()[0].startswith(MARK + "Study")
