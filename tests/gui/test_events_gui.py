"""End stops in the GUI: marks on the playback slider (where the handle stands at the
contact's frame, with a tooltip naming the element), the next / previous contact buttons,
the plot dock's dotted lines, the stop's range drawn as an arc on its joint with a pointer
on body 2; kept through save and reopen."""
import textwrap

import pytest

from freecad_gui import ARM_ON_PIN, run_gui_script

SCRIPT = ARM_ON_PIN + textwrap.dedent('''
    import json, os, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtGui
    R = {}

    def build():
        from SimPhantWorkbench import factory
        doc, study, hinge = arm_on_pin("EventsGui")
        study.EndTime = 0.6
        study.OutputInterval = 0.02
        stop = factory.make_force_element(study, "joint_stop", joint=hinge, lower="-20 deg",
                                          upper="20 deg", stiffness="1000 N*mm/deg",
                                          damping="2 N*mm*s/deg", penetration="0.5 deg",
                                          name="Stop")
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

    def coin_lines(marker):
        """The polylines of a marker's SoCoordinate3 / SoLineSet, read off the scene graph."""
        pts = [tuple(p.getValue()) for p in marker.coords.point.getValues()]
        out, k = [], 0
        for n in marker.lines.numVertices.getValues():
            out.append(pts[k:k + n])
            k += n
        return out

    def close(a, b, tol=1e-4):          # the scene graph holds single precision
        return (a.Base - b.Base).Length < tol and \
            max(abs(x - y) for x, y in zip(a.Rotation.Q, b.Rotation.Q)) < tol

    def stop_view_facts(doc, study, tag):
        """The stop's arc (angles of its ends and ticks in its frame, read off the coin
        nodes), where it and the pointer sit, at the start and at the first contact."""
        import math
        from SimPhantWorkbench import runner
        from SimPhantWorkbench.gui import following, picking_aids
        from SimPhantWorkbench.taskpanels import task_playback
        from SimPhantWorkbench.viewproviders.view_joint import joint_world_frames
        following.flush_markers()            # the poses put back by the last playback
        FreeCADGui.updateGui()
        hinge = doc.getObject("Hinge")
        vp = doc.getObject("Stop").ViewObject.Proxy
        arc, pointer = vp.markers
        lines = coin_lines(arc)
        ang = [math.degrees(math.atan2(p[1], p[0])) for p in lines[0]]
        R[tag + "_arc"] = [ang[0], ang[-1], len(lines),
                           [math.degrees(math.atan2(l[0][1], l[0][0])) for l in lines[1:]],
                           max(abs(p[2]) for l in lines for p in l)]
        f1, f2 = joint_world_frames(hinge)
        R[tag + "_at_start"] = [close(arc.placement(), f1), close(pointer.placement(), f2),
                                arc.visible, pointer.visible]
        r = runner.get_result(study)
        ev = r.stop_events()[0]
        k = next(i for i, tk in enumerate(r.t) if tk > ev["time"])
        tl = task_playback.show(study, ask_on_close=False)
        tl.show_frame(k)
        FreeCADGui.updateGui()
        f1, f2 = joint_world_frames(hinge)
        rel = f1.inverse().multiply(pointer.placement())
        x = rel.Rotation.multVec(FreeCAD.Vector(1, 0, 0))
        R[tag + "_at_contact"] = [close(arc.placement(), f1), close(pointer.placement(), f2),
                                  math.degrees(math.atan2(x.y, x.x)),
                                  math.degrees(float(r.spring_length(r.force_names[0])[k]))]
        if SHOTS:
            view = FreeCADGui.ActiveDocument.ActiveView
            view.viewRear()
            view.fitAll()
            FreeCADGui.updateGui()
            view.saveImage(os.path.join(SHOTS, "stop_arc_%s.png" % tag), 800, 600, "White")
        picking_aids.set_markers_shown(False)
        following.refresh_markers(doc)
        R[tag + "_hidden"] = [arc.visible, pointer.visible]
        picking_aids.set_markers_shown(True)
        following.refresh_markers(doc)
        R[tag + "_shown_again"] = [arc.visible, pointer.visible]
        # hidden with the joint's parts (both), drawn while one of them is shown
        shown = []
        for visible in ((False, False), (False, True), (True, True)):
            for name, on in zip(("Pin", "Arm"), visible):
                doc.getObject(name).ViewObject.Visibility = on
            FreeCADGui.updateGui()
            following.flush_markers()
            shown.append([arc.visible, pointer.visible])
        R[tag + "_with_parts"] = shown
        tl.close(keep=False)

    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import runner
        from SimPhantWorkbench.results_gui import plot_panel
        doc, study = build()
        runner.run_study(study)
        events = timeline_facts(study, "first")
        stop_view_facts(doc, study, "first")
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
        stop_view_facts(doc, study, "again")
        # an edited limit redraws the arc
        doc.getObject("Stop").Upper = "35 deg"
        doc.recompute()
        FreeCADGui.updateGui()
        import math
        arc = coin_lines(doc.getObject("Stop").ViewObject.Proxy.markers[0])[0]
        R["edited_arc"] = [math.degrees(math.atan2(p[1], p[0])) for p in (arc[0], arc[-1])]
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
        # the arc: -20 .. +20 deg about z in body 1's joint frame, a tick at each limit
        lo, hi, n_lines, ticks, off_plane = R[tag + "_arc"]
        assert (lo, hi) == (pytest.approx(-20.0, abs=1e-5), pytest.approx(20.0, abs=1e-5))
        assert n_lines == 3 and ticks == pytest.approx([-20.0, 20.0], abs=1e-5)
        assert off_plane == 0.0
        assert R[tag + "_at_start"] == [True, True, True, True]
        # at the first contact the arc stays on body 1, the pointer is on body 2 at the
        # joint's angle, just past the upper limit
        on_1, on_2, pointer_deg, angle_deg = R[tag + "_at_contact"]
        assert on_1 and on_2
        assert pointer_deg == pytest.approx(angle_deg, abs=1e-4)
        assert 20.0 < abs(pointer_deg) < 21.0
        assert R[tag + "_hidden"] == [False, False]
        assert R[tag + "_shown_again"] == [True, True]
        assert R[tag + "_with_parts"] == [[False, False], [True, True], [True, True]]
    assert R["again_events"] == R["first_events"]
    assert R["edited_arc"] == pytest.approx([-20.0, 35.0], abs=1e-5)
    assert R["plot_lines"] == R["plot_times"]
    assert R["plot_texts"] == ["Door stop"] * len(R["plot_times"])
