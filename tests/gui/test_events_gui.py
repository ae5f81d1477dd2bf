"""End stop contacts in the GUI: marks on the playback slider (where the handle stands at
the contact's frame, with a tooltip naming the element), the next / previous contact
buttons, the plot dock's dotted lines; kept through save and reopen."""
import textwrap

import pytest

from freecad_gui import run_gui_script

SCRIPT = textwrap.dedent('''
    import json, os, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtGui
    R = {}

    def build():
        from SimPhantWorkbench import factory
        doc = FreeCAD.newDocument("EventsGui")
        pin = doc.addObject("Part::Cylinder", "Pin")
        pin.Radius, pin.Height = 2, 20
        pin.Placement = FreeCAD.Placement(FreeCAD.Vector(0, 0, 0),
                                          FreeCAD.Rotation(FreeCAD.Vector(1, 0, 0), -90))
        arm = doc.addObject("Part::Box", "Arm")
        arm.Length, arm.Width, arm.Height = 200, 10, 10
        doc.recompute()
        study = factory.make_study(doc)
        study.EndTime = 0.6
        study.OutputInterval = 0.02
        factory.make_body(study, pin, fixed=True)
        factory.make_body(study, arm)
        edge = [i for i, e in enumerate(pin.Shape.Edges, 1)
                if e.Curve.__class__.__name__ == "Circle" and abs(e.Curve.Center.y) < 1e-6][0]
        corner = [i for i, v in enumerate(arm.Shape.Vertexes, 1) if v.Point.Length < 1e-9][0]
        hinge = factory.make_joint(study, "revolute", (pin, "Edge%d" % edge),
                                   (arm, "Vertex%d" % corner), name="Hinge")
        stop = factory.make_force_element(study, "joint_stop", joint=hinge, lower="-20 deg",
                                          upper="20 deg", stiffness="1000 N*mm/deg", damping="2 N*mm*s/deg",
                                          penetration="0.5 deg", name="Stop")
        stop.Label = "Door stop"
        return doc, study

    def marks_painted(slider):
        """x of the marks in the slider's picture: the centres of the runs of columns with
        the event colour in its lowest rows (what is drawn, not what the code meant)."""
        from SimPhantWorkbench.output.events import EVENT_COLOR
        img = slider.grab().toImage()
        want = QtGui.QColor(EVENT_COLOR).rgb() & 0xffffff
        xs = [x for x in range(img.width())
              if (img.pixel(x, img.height() - 3) & 0xffffff) == want]
        runs = []
        for x in xs:                     # the centre of each run of columns
            if runs and x - runs[-1][-1] == 1:
                runs[-1].append(x)
            else:
                runs.append([x])
        # in the widget's pixels (the screen may scale the picture)
        return [(sum(r) / len(r) + 0.5) / img.devicePixelRatio() for r in runs]

    def handle_x(slider, frame):
        """The centre of the handle's rectangle when the slider stands at ``frame`` (Qt's
        own layout of the slider)."""
        slider.blockSignals(True)
        old = slider.value()
        slider.setValue(frame)
        opt = QtGui.QStyleOptionSlider()
        slider.initStyleOption(opt)
        rect = slider.style().subControlRect(QtGui.QStyle.CC_Slider, opt,
                                             QtGui.QStyle.SC_SliderHandle, slider)
        slider.setValue(old)
        slider.blockSignals(False)
        return rect.center().x()

    def timeline_facts(study, tag):
        from SimPhantWorkbench import runner
        from SimPhantWorkbench.taskpanels import task_playback
        r = runner.get_result(study)
        t = list(map(float, r.t))
        events = r.stop_events()
        # the first stored sample after each contact's time, counted here
        want = [next(k for k, tk in enumerate(t) if tk > ev["time"]) for ev in events]
        tl = task_playback.show(study, ask_on_close=False)
        tl.form.resize(700, 300)
        tl.form.show()
        FreeCADGui.updateGui()
        s = tl.slider
        R[tag + "_events"] = [[ev["time"], ev["side"]] for ev in events]
        R[tag + "_frames"] = [s.frames, want]
        R[tag + "_handle"] = [handle_x(s, f) for f in want]
        R[tag + "_painted"] = marks_painted(s)
        R[tag + "_marks"] = [m[0] for m in s.marks()]
        R[tag + "_tip"] = s.text_at(s.marks()[0][0]) if events else ""
        R[tag + "_tip_off"] = s.text_at(s.marks()[0][0] - 30) if events else ""
        R[tag + "_frame_width"] = (handle_x(s, len(t) - 1) - handle_x(s, 0)) / (len(t) - 1)
        tl.show_frame(0)
        jumps = [tl.jump_to_event(1) for _ in range(len(set(want)) + 1)]
        back = tl.jump_to_event(-1)
        R[tag + "_jumps"] = [jumps, back, tl.index]
        R[tag + "_buttons"] = [tl.next_event.isVisible(), tl.prev_event.isVisible()]
        if SHOTS:
            tl.form.grab().save(os.path.join(SHOTS, "timeline_events_%s.png" % tag))
        tl.close(keep=False)
        return events

    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import runner
        from SimPhantWorkbench.results_gui import plot_panel
        doc, study = build()
        runner.run_study(study)
        events = timeline_facts(study, "first")
        panel = plot_panel.open_plot_panel(study)
        panel.select("element_force", [doc.getObject("Stop")])
        panel.redraw()
        FreeCADGui.updateGui()
        R["plot_lines"] = [float(l.get_xdata()[0]) for l in panel.event_lines]
        R["plot_texts"] = [t.get_text().strip() for t in panel.axes.texts]
        R["plot_times"] = [ev["time"] for ev in events]
        if SHOTS:
            panel.dock.setFloating(True)
            panel.dock.resize(900, 420)
            FreeCADGui.updateGui()
            panel.redraw()
            panel.canvas.draw()
            FreeCADGui.updateGui()
            panel.dock.grab().save(os.path.join(SHOTS, "plot_events.png"))
        study_name = study.Name
        path = os.path.join(TMP, "events.FCStd")
        doc.saveAs(path)
        FreeCAD.closeDocument(doc.Name)
        doc = FreeCAD.openDocument(path)
        FreeCADGui.updateGui()
        study = doc.getObject(study_name)
        timeline_facts(study, "again")
    except Exception:
        R["error"] = traceback.format_exc()
    finally:
        finish(R)
''')


@pytest.mark.slow
def test_stop_contacts_on_the_timeline_and_in_the_plot_dock(tmp_path):
    """An arm falling onto a stop at +-20 deg meets it several times; the slider has a mark
    painted at each contact's frame (the first sample after it): where Qt puts the handle at
    that frame (within a third of a frame's width), its tooltip naming the element's label,
    side and speed; next-contact jumps from frame 0 to each contact's frame in turn and
    stays at the last, previous-contact goes back one; the plot dock draws a dotted line
    labelled with the element at each contact; all of it again after save and reopen."""
    R, proc = run_gui_script(tmp_path, "events_gui", SCRIPT)
    assert "error" not in R, R.get("error")
    for tag in ("first", "again"):
        events = R[tag + "_events"]
        assert len(events) >= 2 and {side for _, side in events} <= {"lower", "upper"}
        frames, want = R[tag + "_frames"]
        assert frames == want
        width = R[tag + "_frame_width"]
        assert width > 3.0                     # a frame is told from its neighbours
        distinct = sorted(set(R[tag + "_handle"]))
        painted = R[tag + "_painted"]
        assert len(painted) == len(distinct)
        for x, h in zip(painted, distinct):
            assert abs(x - h) < width / 3.0, (painted, distinct)
        assert R[tag + "_marks"] == R[tag + "_handle"]
        assert "Door stop" in R[tag + "_tip"] and events[0][1] in R[tag + "_tip"]
        assert "impact speed" in R[tag + "_tip"] and "rad/s" in R[tag + "_tip"]
        assert R[tag + "_tip_off"] == ""
        jumps, back, index = R[tag + "_jumps"]
        uniq = sorted(set(want))
        assert jumps == uniq + [None]              # none after the last: stays there
        assert back == (uniq[-2] if len(uniq) > 1 else None)
        assert index == back
        assert R[tag + "_buttons"] == [True, True]
    assert R["again_events"] == R["first_events"]
    assert R["plot_lines"] == R["plot_times"]
    assert R["plot_texts"] == ["Door stop"] * len(R["plot_times"])
