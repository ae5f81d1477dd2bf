"""Playback: placements of result frames (object origin != CoG, rotated objects, objects in
an App::Part, App::Links) and a bit-exact reset, also after save/reopen."""
import numpy as np
import pytest

import FreeCAD
import Part

from helpers_doc import (all_placements, docs, free_box, pendulum, placement_bits,  # noqa: F401
                         reopen, tumbling_study, vec)
from SimPhantWorkbench import playback, runner
from SimPhantWorkbench.solver import ModelError


def _global_vertices(obj):
    """World positions [mm] of the vertices of ``obj`` (containers and links included)."""
    from SimPhantWorkbench.document.massprops import global_shape
    return np.array([tuple(v.Point) for v in global_shape(obj).Vertexes])


def _local_vertices(obj):
    """Vertex positions [mm] in ``obj``'s own frame at the current placement."""
    from SimPhantWorkbench.document.units import global_placement
    inv = global_placement(obj).inverse()
    return np.array([tuple(inv.multVec(vec(*p))) for p in _global_vertices(obj)])


def _check_frames(study, obj, frames):
    """After apply_frame(k), every vertex is where the solver says: r.point_position."""
    r = runner.get_result(study)
    name = runner.result_key(study, obj)
    res_obj = [o for o in study.Group if o.Proxy.Type == "SimPhant::Result"][0]
    c_local = np.array(res_obj.CoGLocal[0])            # mm, object frame
    local = _local_vertices(obj)                       # before moving: object frame
    for k in frames:
        used = playback.apply_frame(study, k)
        assert used == (k if k >= 0 else len(r.t) + k)
        expect = np.array([r.point_position(name, (v - c_local) * 1e-3)[used] for v in local])
        assert np.abs(_global_vertices(obj) * 1e-3 - expect).max() < 1e-12
    return r


def test_apply_frame_places_a_rotated_off_cog_object(docs):
    doc = docs()
    box = free_box(doc, placement=FreeCAD.Placement(vec(30, -10, 5),
                                                    FreeCAD.Rotation(vec(1, 2, 3), 40)))
    study, _ = tumbling_study(doc, box)
    r = runner.run_study(study)
    # the motion is substantial: moved and turned
    name = r.body_names[0]
    assert np.linalg.norm(r.position(name)[-1] - r.position(name)[0]) > 0.04
    assert np.abs(r.rotation_matrix(name)[-1] - r.rotation_matrix(name)[0]).max() > 0.3
    _check_frames(study, box, [0, 3, len(r.t) - 1, -1])


def test_apply_frame_inside_a_placed_app_part(docs):
    doc = docs()
    part = doc.addObject("App::Part", "Assembly")
    part.Placement = FreeCAD.Placement(vec(0, 200, -50), FreeCAD.Rotation(vec(0, 1, 1), 60))
    box = free_box(doc, placement=FreeCAD.Placement(vec(10, 0, 0), FreeCAD.Rotation(vec(0, 0, 1),
                                                                                     25)))
    part.addObject(box)
    doc.recompute()
    study, _ = tumbling_study(doc, box)
    runner.run_study(study)
    _check_frames(study, box, [2, 7])
    assert placement_bits(part.Placement)[:3] == (0.0, 200.0, -50.0)   # the container stays


def test_apply_frame_on_an_app_link(docs):
    doc = docs()
    box = free_box(doc)
    link = doc.addObject("App::Link", "BoxLink")
    link.LinkedObject = box
    link.Placement = FreeCAD.Placement(vec(0, 0, 300), FreeCAD.Rotation(vec(1, 0, 0), 30))
    doc.recompute()
    study, _ = tumbling_study(doc, link)
    before_box = placement_bits(box.Placement)
    runner.run_study(study)
    _check_frames(study, link, [4])
    assert placement_bits(box.Placement) == before_box     # the linked original stays


def test_apply_frame_by_time_picks_the_nearest_frame(docs):
    doc = docs()
    p = pendulum(doc)
    r = runner.run_study(p["study"], t_end=0.1, output_dt=0.01)
    assert playback.apply_frame(p["study"], 0.0449) == 4
    assert playback.apply_frame(p["study"], 0.1) == len(r.t) - 1
    with pytest.raises(ModelError, match="outside"):
        playback.apply_frame(p["study"], 0.5)
    with pytest.raises(ModelError, match="does not exist"):
        playback.apply_frame(p["study"], 99)


def test_apply_frame_without_result_names_the_study(docs):
    doc = docs()
    p = pendulum(doc)
    with pytest.raises(ModelError, match="Study 'Study' has no result"):
        playback.apply_frame(p["study"], 0)


def test_fixed_bodies_are_not_moved(docs):
    doc = docs()
    p = pendulum(doc)
    runner.run_study(p["study"], t_end=0.3)
    pin = placement_bits(p["pin"].Placement)
    playback.apply_frame(p["study"], -1)
    assert placement_bits(p["pin"].Placement) == pin
    assert placement_bits(p["rod"].Placement) != placement_bits(
        p["study"].Group[-1].InitialPlacements[0])


def test_reset_restores_placements_bit_exactly(docs):
    doc = docs()
    box = free_box(doc, placement=FreeCAD.Placement(vec(1 / 3, 2 / 7, -5 / 11),
                                                    FreeCAD.Rotation(vec(0.3, -0.7, 0.2),
                                                                     123.456789)))
    study, _ = tumbling_study(doc, box)
    before = all_placements(doc)
    runner.run_study(study)
    assert all_placements(doc) == before                  # running moves nothing
    playback.apply_frame(study, -1)
    assert all_placements(doc) != before
    playback.reset(study)
    assert all_placements(doc) == before


def test_reset_after_reopen_restores_the_original(docs, tmp_path):
    """InitialPlacements is a PlacementList, stored as binary doubles in the .FCStd: after
    save/close/reopen, reset gives back the run's start position to the last bit. The
    rotation is rebuilt by FreeCAD's Rotation(x, y, z, w), which renormalises: its
    quaternion is the normalised original (it may differ from the original in the last
    bit; the document's own Placement, written as 16-digit text, is no more exact)."""
    doc = docs()
    box = free_box(doc, placement=FreeCAD.Placement(vec(1 / 3, 2 / 7, -5 / 11),
                                                    FreeCAD.Rotation(vec(0.3, -0.7, 0.2),
                                                                     123.456789)))
    study, _ = tumbling_study(doc, box)
    original = placement_bits(box.Placement)
    names = (study.Name, box.Name)
    runner.run_study(study)
    playback.apply_frame(study, 5)
    doc2 = reopen(doc, tmp_path / "tumble.FCStd")
    study2, box2 = (doc2.getObject(n) for n in names)
    playback.apply_frame(study2, -1)                      # replays without solving
    playback.reset(study2)
    restored = placement_bits(box2.Placement)
    assert restored[:3] == original[:3]
    assert restored[3:] == tuple(FreeCAD.Rotation(*original[3:]).Q)
    assert np.abs(np.array(restored[3:]) - original[3:]).max() <= 2.3e-16


def test_apply_frame_and_reset_are_undoable(docs):
    doc = docs()
    box = free_box(doc)
    study, _ = tumbling_study(doc, box)
    runner.run_study(study)
    doc.UndoMode = 1
    start = placement_bits(box.Placement)
    playback.apply_frame(study, 3)
    moved = placement_bits(box.Placement)
    assert moved != start
    doc.undo()
    assert placement_bits(box.Placement) == start
    doc.redo()
    assert placement_bits(box.Placement) == moved
    playback.reset(study)
    assert placement_bits(box.Placement) == start
    doc.undo()
    assert placement_bits(box.Placement) == moved


def test_frames_shown_inside_a_playback_step_are_taken_back_by_its_abort(docs):
    """The playback panel's step (kept open, ``own``): every frame joins it, the first one
    too, and Reset; aborting it puts the bodies back and leaves no undo entry, also where
    FreeCAD left a transaction of the document open (its "Delete" after a script removed
    an object outside any), which is committed as its own step first."""
    from SimPhantWorkbench.document.base import transaction
    doc = docs()
    box = free_box(doc)
    study, _ = tumbling_study(doc, box)
    runner.run_study(study)
    doc.UndoMode = 1
    session = playback.Session(study)
    for dangling in (False, True):
        if dangling:
            doc.openTransaction("Add scratch")
            doc.addObject("Part::Box", "Scratch")
            doc.commitTransaction()
            doc.removeObject("Scratch")
            assert doc.HasPendingTransaction
        names, start = list(doc.UndoNames), placement_bits(box.Placement)
        step = transaction(doc, "playback").open(persist=True, own=True)
        assert step.owner
        session.apply(0)
        session.apply(5)
        playback.reset(study)
        session.apply(3)
        assert placement_bits(box.Placement) != start
        step.close(keep=False)
        assert placement_bits(box.Placement) == start
        assert list(doc.UndoNames) == names and doc.RedoCount == 0
    assert doc.getObject("Scratch") is None


def test_playback_skips_objects_deleted_since_the_run(docs):
    doc = docs()
    a = free_box(doc, "A")
    b = free_box(doc, "B", placement=FreeCAD.Placement(vec(0, 100, 0), FreeCAD.Rotation()))
    study, _ = tumbling_study(doc, a)
    from SimPhantWorkbench import factory
    factory.make_body(study, b, density=1000.0)
    runner.run_study(study)
    body_b = [o for o in study.Group if getattr(o, "ShapeObject", None) == b][0]
    start = placement_bits(a.Placement)
    doc.removeObject(body_b.Name)
    doc.removeObject(b.Name)
    # the remaining body still moves to its frame and back; the deleted one is not recreated
    expected = playback.frame_placements(study, 2)
    assert list(expected) == [a]
    assert playback.apply_frame(study, 2) == 2
    assert placement_bits(a.Placement) == placement_bits(expected[a])
    assert placement_bits(a.Placement) != start
    playback.reset(study)
    assert placement_bits(a.Placement) == start
    assert doc.getObject("B") is None


def test_setting_placement_moves_a_part_feature_without_recompute(docs):
    """Setting Placement moves a Part feature's shape without recompute (playback relies on
    it)."""
    doc = docs()
    f = doc.addObject("Part::Feature", "Raw")
    f.Shape = Part.makeBox(1, 1, 1)
    f.Placement = FreeCAD.Placement(vec(5, 0, 0), FreeCAD.Rotation())
    assert tuple(f.Shape.BoundBox.Center) == pytest.approx((5.5, 0.5, 0.5))


def test_apply_frame_on_a_partdesign_body(docs, partdesign):
    doc = docs()
    body = doc.addObject("PartDesign::Body", "Body")
    feature = doc.addObject("PartDesign::AdditiveBox", "Block")
    body.addObject(feature)
    feature.Length, feature.Width, feature.Height = 40.0, 20.0, 10.0
    body.Placement = FreeCAD.Placement(vec(-20, 5, 60), FreeCAD.Rotation(vec(1, 0, 1), 20))
    doc.recompute()
    study, _ = tumbling_study(doc, body)
    runner.run_study(study)
    _check_frames(study, body, [3, -1])
    playback.reset(study)
    assert placement_bits(body.Placement)[:3] == (-20.0, 5.0, 60.0)


def test_frame_index_takes_the_nearest_time_and_counts_indices_from_the_end():
    from SimPhantWorkbench.solver import Model
    m = Model(gravity=(0, 0, 0))
    m.add_body("b", mass=1.0, inertia=(1.0, 1.0, 1.0))
    r = m.simulate(t_end=0.1, dt=0.01, output_dt=0.01)
    assert len(r.t) == 11
    for t, k in ((0.0, 0), (0.0049, 0), (0.0051, 1), (0.0449, 4), (0.0451, 5), (0.1, 10)):
        assert playback.frame_index(r, t) == k
    assert playback.frame_index(r, -1) == 10 and playback.frame_index(r, -11) == 0
    assert playback.frame_index(r, 3) == 3
    for bad in (11, -12):
        with pytest.raises(ModelError, match="does not exist"):
            playback.frame_index(r, bad)


# ----------------------------------------------------------------------------- sessions

def _same(a, b, tol):
    return np.abs(np.array(a.toMatrix().A) - np.array(b.toMatrix().A)).max() <= tol


def test_a_session_reads_and_validates_the_result_once(docs, monkeypatch):
    """The timeline's session: the result file is validated when it opens, not per frame,
    and its frames are the ones apply_frame writes (in an App::Part too)."""
    from SimPhantWorkbench.document import result_check
    doc = docs()
    part = doc.addObject("App::Part", "Assembly")
    part.Placement = FreeCAD.Placement(vec(0, 200, -50), FreeCAD.Rotation(vec(0, 1, 1), 60))
    box = free_box(doc, placement=FreeCAD.Placement(vec(10, 0, 0), FreeCAD.Rotation(vec(0, 0, 1),
                                                                                     25)))
    part.addObject(box)
    doc.recompute()
    study, _ = tumbling_study(doc, box)
    r = runner.run_study(study)
    expected = [playback.frame_placements(study, k)[box] for k in range(len(r.t))]
    calls = []
    for name in ("check_mapping", "read_result_file", "moving_targets"):
        real = getattr(result_check, name)
        monkeypatch.setattr(result_check, name,
                            lambda *a, _real=real, _name=name: calls.append(_name) or _real(*a))
        monkeypatch.setattr(playback, name, getattr(result_check, name), raising=False)
    session = playback.Session(study)
    opened = len(calls)
    assert "check_mapping" in calls and "moving_targets" in calls
    for k in range(len(r.t)):
        assert session.apply(k) == k
        assert _same(box.Placement, expected[k], 1e-12)
    assert len(calls) == opened                          # nothing re-read per frame
    assert placement_bits(part.Placement)[:3] == (0.0, 200.0, -50.0)
    # the container moved by the user during playback: the next frame follows it
    part.Placement = FreeCAD.Placement(vec(5, 0, 0), FreeCAD.Rotation())
    session.apply(3)
    glob = part.Placement.multiply(box.Placement)
    assert _same(glob, FreeCAD.Placement(vec(0, 200, -50), FreeCAD.Rotation(vec(0, 1, 1), 60))
                 .multiply(expected[3]), 1e-9)


def test_a_session_refuses_a_non_finite_pose_before_moving_anything(docs):
    """A CoG so far away that r - A c overflows: refused when the session opens, naming the
    object, and nothing moves."""
    from SimPhantWorkbench.document.base import study_result
    from SimPhantWorkbench.document.result_check import ResultError
    doc = docs()
    box = free_box(doc, placement=FreeCAD.Placement(vec(30, -10, 5),
                                                    FreeCAD.Rotation(vec(1, 2, 3), 40)))
    study, _ = tumbling_study(doc, box)
    runner.run_study(study)
    res_obj = study_result(study)
    res_obj.CoGLocal = [vec(1.7e308, 1.7e308, 1.7e308)] * len(res_obj.CoGLocal)
    before = all_placements(doc)
    with pytest.raises(ResultError, match="frame 0 gives '%s' a placement that is not finite"
                       % box.Label):
        playback.Session(study)
    with pytest.raises(ResultError, match="not finite"):
        playback.apply_frame(study, 2)
    assert all_placements(doc) == before


def _tumbling_session(docs):
    """(document, box, study, a current playback session of its result)."""
    doc = docs()
    box = free_box(doc)
    study, _ = tumbling_study(doc, box)
    runner.run_study(study)
    session = playback.Session(study)
    assert session.current()
    return doc, box, study, session


def test_a_session_notices_a_deleted_body(docs):
    """The timeline makes a new session then instead of writing to a deleted object."""
    doc, box, _study, session = _tumbling_session(docs)
    doc.removeObject(box.Name)
    assert not session.current()


def test_a_session_notices_a_new_result(docs):
    """Solve again (the archive keeps its file name): the timeline's
    session is no longer current, and a new one shows the new frames."""
    _doc, _box, study, session = _tumbling_session(docs)
    first = session.placements(-1)[0][1]
    study.EndTime = 0.5 * study.EndTime
    runner.run_study(study)
    assert not session.current()
    again = playback.Session(study)
    assert again.current()
    assert not _same(again.placements(-1)[0][1], first, 1e-9)


def test_many_rotation_matrices_to_quaternions_at_once():
    from SimPhantWorkbench.solver.rotations import matrices_to_quats, matrix_to_quat, \
        quat_to_matrix
    rng = np.random.default_rng(3)
    A = quat_to_matrix(rng.normal(size=(500, 4)))
    A = np.concatenate([A, [np.eye(3), np.diag([1.0, -1, -1]), np.diag([-1.0, 1, -1]),
                            np.diag([-1.0, -1, 1])]])       # every branch of Shepperd's method
    q = matrices_to_quats(A.reshape(-1, 4, 3, 3)).reshape(-1, 4)
    assert np.abs(q - np.array([matrix_to_quat(a) for a in A])).max() < 1e-15
    assert (q[:, 0] >= 0).all()
