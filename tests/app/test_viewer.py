"""The results viewer: scene files, joint frames on their bodies, VTK frames whose bodies sit
where the result puts them, videos with the expected frames and size, ``simphant view`` and
``run --video``, the window's controls, and everything without PyVista (module hidden)."""
import io
import itertools
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from helpers_doc import docs, pendulum  # noqa: F401
from SimPhantWorkbench import cli, output, runner, viewer
from SimPhantWorkbench.output.mesh import Mesh
from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.viewer import files, render, video
from SimPhantWorkbench.document.scene import scene_from_study
from SimPhantWorkbench.viewer.scene import JointFrame, Scene, colors_from_gui_xml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")

RED = "#ff0000"
BLUE = "#0000ff"


def box(half):
    """(points, triangles) of a closed, outward box of half sizes ``half`` about the origin."""
    hx, hy, hz = half
    P = np.array(list(itertools.product((-hx, hx), (-hy, hy), (-hz, hz))), dtype=float)
    T = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                  [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])
    return P, T


@pytest.fixture(scope="module")
def swing():
    """A bar on a hinge along y at the origin, swinging in the x-z plane (1 s), and its scene:
    a red bar, a blue fixed block at the hinge, the hinge's frame on the bar."""
    m = Model(gravity=(0, 0, -9.81))
    bar = m.add_body("bar", mass=1.0, inertia=(0.001, 0.02, 0.02), position=(0.2, 0, 0))
    m.add_joint("revolute", m.ground, bar, point=(0, 0, 0), axis=(0, 1, 0), name="hinge")
    r = m.simulate(t_end=1.0, dt=1e-3, output_dt=0.01)
    P, T = box((0.2, 0.02, 0.02))
    Q, _ = box((0.03, 0.03, 0.03))
    scene = Scene([Mesh("Bar", P, T, "bar", RED, True),
                   Mesh("Block", Q + [0, 0, 0.05], T, None, BLUE, True)],
                  [JointFrame("hinge", "Hinge", "bar", (-0.2, 0, 0), np.eye(3))], "swing")
    return r, scene


def test_scene_file_round_trip_is_exact(swing, tmp_path):
    r, scene = swing
    path = scene.save(str(tmp_path / "scene.npz"))
    back = Scene.load(path)
    assert back.title == "swing" and [m.label for m in back.meshes] == ["Bar", "Block"]
    for a, b in zip(scene.meshes, back.meshes):
        np.testing.assert_array_equal(a.points, b.points)
        np.testing.assert_array_equal(a.triangles, b.triangles)
        assert (a.name, a.color, a.closed) == (b.name, b.color, b.closed)
    j = back.joints[0]
    assert (j.name, j.label, j.body) == ("hinge", "Hinge", "bar")
    np.testing.assert_array_equal(j.point, [-0.2, 0, 0])
    # a result of another model does not fit: said with the body's name
    m = Model()
    m.add_body("other", mass=1.0, inertia=(1, 1, 1))
    r2 = m.simulate(t_end=0.01, dt=1e-3)
    with pytest.raises(ValueError, match="'bar' is not in the result"):
        back.check(r2)


def test_gui_document_colours_are_read():
    xml = b'''<Document><ViewProviderData Count="2">
      <ViewProvider name="Crank" expanded="0"><Properties Count="2">
        <Property name="LineColor" type="App::PropertyColor"><PropertyColor value="255"/></Property>
        <Property name="ShapeColor" type="App::PropertyColor">
          <PropertyColor value="527938560"/></Property></Properties></ViewProvider>
      <ViewProvider name="Sketch"><Properties Count="0"></Properties></ViewProvider>
    </ViewProviderData></Document>'''
    assert colors_from_gui_xml(xml) == {"Crank": "#1f77b4"}      # 0x1F77B400


def test_joint_frames_follow_their_body_in_a_document_study(docs):
    doc = docs()
    p = pendulum(doc)
    r = runner.run_study(p["study"], t_end=0.3)
    scene = scene_from_study(p["study"], r, colors={p["rod"].Name: "#123456"})
    rod_mesh = next(m for m in scene.meshes if m.label == p["link"].Label)
    assert rod_mesh.color == "#123456"
    assert next(m for m in scene.meshes if m.name is None).color == output.plots.FIXED_COLOR
    (hinge,) = scene.joints
    key = runner.result_key(p["study"], p["joint"])
    assert hinge.name == key and hinge.body == runner.result_key(p["study"], p["link"])
    for i in (0, len(r.t) // 2, len(r.t) - 1):
        origin, axes = hinge.pose(r, i)
        np.testing.assert_allclose(origin, r.joint_point(key, "body2")[i], atol=1e-9)
        # a revolute about y: the frame's z axis (the joint axis) stays along +-y
        assert abs(axes[:, 2] @ [0, 1, 0]) == pytest.approx(1.0, abs=1e-6)
        np.testing.assert_allclose(axes.T @ axes, np.eye(3), atol=1e-12)


def test_the_scene_evaluates_each_body_once(docs, monkeypatch):
    """Mass properties integrate the solids: the scene (meshes and joint frames) reads
    every body once, and body_data is fresh again afterwards."""
    from SimPhantWorkbench.document import bodies as conversion
    doc = docs()
    p = pendulum(doc)
    r = runner.run_study(p["study"], t_end=0.05)
    calls = []
    evaluate = conversion._evaluate_body
    monkeypatch.setattr(conversion, "_evaluate_body",
                        lambda body, warn: calls.append(body.Name) or evaluate(body, warn))
    scene = scene_from_study(p["study"], r)
    assert len(scene.joints) == 1 and len(scene.meshes) == 2
    assert sorted(calls) == sorted(set(calls)) and p["link"].Name in calls
    calls.clear()
    conversion.body_data(p["link"])
    conversion.body_data(p["link"])
    assert calls == [p["link"].Name] * 2
    with conversion.reused_body_data():
        assert conversion.body_data(p["link"]) is conversion.body_data(p["link"])


def test_rendered_frame_puts_the_bodies_where_the_result_has_them(swing):
    r, scene = swing
    plotter = render.offscreen_plotter((320, 240))
    try:
        ren = render.SceneRenderer(plotter, scene, r, title="")
        for i in (0, 37, len(r.t) - 1):
            img = ren.image(i)
            assert img.shape == (240, 320, 3)
            pos, A = r.pose("bar", i)
            M = np.asarray(ren.actors["Bar"].user_matrix)
            np.testing.assert_allclose(M[:3, :3], A, atol=1e-12)
            np.testing.assert_allclose(M[:3, 3], pos, atol=1e-12)
            origin, axes = scene.joints[0].pose(r, i)
            T = np.asarray(ren.triads["hinge"].user_matrix)
            np.testing.assert_allclose(T[:3, 3], origin, atol=1e-12)
            # the bar's far end (local x = 0.15) projects onto a red pixel: lit red, not
            # background, not the blue block
            tip = pos + A @ [0.15, 0, 0]
            col, row = (int(round(c)) for c in render.world_to_pixel(plotter, tip))
            assert 0 <= col < 320 and 0 <= row < 240
            rgb = img[row - 1:row + 2, col - 1:col + 2].reshape(-1, 3).astype(int)
            assert np.all(rgb[:, 0] > 90) and np.all(rgb[:, 0] > 2 * rgb[:, 2] + 30), rgb
        # the same point at the start is background later on (the bar swung away)
        tip0 = r.pose("bar", 0)[0] + r.pose("bar", 0)[1] @ [0.15, 0, 0]
        col, row = (int(round(c)) for c in render.world_to_pixel(plotter, tip0))
        far = int(np.argmax(np.linalg.norm(r.position("bar") - r.position("bar")[0], axis=1)))
        img = ren.image(far)
        assert np.all(img[row, col] > 230), img[row, col]
    finally:
        plotter.close()


def test_video_indices_run_in_real_time():
    class R:
        t = np.linspace(0.0, 1.0, 101)
    idx = render.video_indices(R, fps=10)
    np.testing.assert_array_equal(idx, np.arange(0, 101, 10))
    assert len(render.video_indices(R, fps=30)) == 31
    assert len(render.video_indices(R, fps=10, speed=0.5)) == 21


def ffprobe(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                          "-show_entries", "stream=nb_read_frames,width,height,codec_name",
                          "-of", "json", path], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["streams"][0]


def test_mp4_and_gif_have_the_frames_and_size(swing, tmp_path, monkeypatch):
    r, scene = swing
    idx = render.video_indices(r, fps=12)
    path, n = video.write_video(render.render_frames(r, scene, idx, (321, 241)),
                                str(tmp_path / "v.mp4"), 12)
    assert n == len(idx) == 13 and path.endswith("v.mp4")
    info = ffprobe(path)
    assert info["codec_name"] == "h264" and int(info["nb_read_frames"]) == 13
    assert (info["width"], info["height"]) == (322, 242)          # yuv420p: even sizes
    # GIF: same frames, duration from the frame rate
    frames = list(render.render_frames(r, scene, idx[:5], (200, 150)))
    path, n = video.write_video(frames, str(tmp_path / "v.gif"), 10)
    with Image.open(path) as im:
        assert (im.n_frames, im.size, im.info["duration"]) == (5, (200, 150), 100)
    # no ffmpeg at all: an .mp4 asked for becomes a GIF beside it
    monkeypatch.setattr(video, "ffmpeg_exe", lambda: None)
    path, n = video.write_video(frames, str(tmp_path / "w.mp4"), 10)
    assert path == str(tmp_path / "w.gif") and n == 5 and os.path.exists(path)
    with pytest.raises(ValueError, match="must end in .mp4 or .gif"):
        video.write_video(frames, str(tmp_path / "x.avi"), 10)


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def pendulum_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "out"
    code, stdout, stderr = run_cli("run", os.path.join(EXAMPLES, "pendulum.FCStd"), "--out", out,
                                   "--t-end", "0.5", "--frames", "6", "--video", "swing.mp4",
                                   "--fps", "10")
    return code, str(out), stdout, stderr


def test_run_writes_the_viewer_files_a_vtk_animation_and_the_video(pendulum_run):
    code, out, stdout, stderr = pendulum_run
    assert code == 0, stderr
    assert "drawn without VTK" not in stderr
    listed = json.load(open(os.path.join(out, "run.json")))["files"]
    assert {"result.npz", "scene.npz", "animation.gif", "swing.mp4"} <= set(listed)
    assert "swing.mp4" in stdout
    info = ffprobe(os.path.join(out, "swing.mp4"))
    assert int(info["nb_read_frames"]) == 6 and (info["width"], info["height"]) == \
        files.VIDEO_SIZE
    with Image.open(os.path.join(out, "animation.gif")) as im:
        assert im.n_frames == 6 and im.size == files.ANIMATION_VTK_SIZE
        assert im.info["duration"] == 100                          # 0.5 s over 5 intervals
    result, scene = files.load_view_files(out)
    np.testing.assert_array_equal(result.t, np.linspace(0, 0.5, len(result.t)))
    assert [m.name for m in scene.meshes if m.name] == result.body_names


def test_view_screenshot_renders_the_saved_result_without_freecad(pendulum_run, tmp_path):
    _, out, _, _ = pendulum_run
    png = tmp_path / "v.png"
    script = ("import sys; from SimPhantWorkbench import cli; "
              "sys.exit(cli.main(['view', %r, '--time', '0.25', '--screenshot', %r, "
              "'--size', '300x200']) or ('FreeCAD' in sys.modules and 9))" % (out, str(png)))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in sys.path if "AdditionalPython"
                                                  in p or "numba" in p])
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          encoding="utf-8", errors="replace", timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "t = 0.25 s, 300x200" in proc.stdout
    with Image.open(png) as im:
        assert im.size == (300, 200)
        assert len(im.convert("RGB").getcolors(1 << 20)) > 20


def test_view_errors_name_what_is_missing(tmp_path):
    code, _, err = run_cli("view", tmp_path, "--screenshot", tmp_path / "x.png")
    assert code == cli.EXIT_INPUT and "has no result (result.npz)" in err
    code, _, err = run_cli("view", tmp_path / "nope")
    assert code == cli.EXIT_INPUT and "is not a directory" in err
    code, _, err = run_cli("view", tmp_path, "--size", "big")
    assert code == cli.EXIT_INPUT and "--size 'big'" in err


def test_video_name_is_checked_before_solving(tmp_path):
    code, _, err = run_cli("run", os.path.join(EXAMPLES, "pendulum.FCStd"), "--out",
                           tmp_path / "o", "--video", "movie.avi")
    assert code == cli.EXIT_INPUT and "must end in .mp4 or .gif" in err
    assert not (tmp_path / "o").exists()


@pytest.fixture
def no_pyvista(monkeypatch):
    """PyVista hidden: importing it fails, as on a machine without it."""
    monkeypatch.setitem(sys.modules, "pyvista", None)
    monkeypatch.setitem(sys.modules, "pyvistaqt", None)
    viewer._forget()
    yield
    viewer._forget()


def test_without_pyvista_the_animation_falls_back_and_the_viewer_says_how_to_install(
        no_pyvista, swing, tmp_path):
    r, scene = swing
    assert not viewer.available() and "pyvista" in viewer.missing_reason()
    used, n, why = files.write_animation(r, scene, str(tmp_path / "a.gif"), frames=5)
    assert used == "matplotlib" and n == 5 and "pyvista" in why
    with pytest.raises(RuntimeError, match="needs PyVista"):
        files.write_run_video(r, scene, str(tmp_path / "v.mp4"))
    code, _, err = run_cli("view", tmp_path, "--screenshot", tmp_path / "x.png")
    assert code == cli.EXIT_INPUT and "make setup" in err and "pyvista" in err


def test_without_pyvista_the_run_still_writes_everything(no_pyvista, tmp_path):
    out = tmp_path / "out"
    code, _, err = run_cli("run", os.path.join(EXAMPLES, "pendulum.FCStd"), "--out", out,
                           "--t-end", "0.2", "--frames", "4")
    assert code == 0, err
    assert "animation drawn without VTK" in err
    with Image.open(out / "animation.gif") as im:
        assert im.n_frames == 4
    assert {"result.npz", "scene.npz"} <= set(os.listdir(out))
    code, _, err = run_cli("run", os.path.join(EXAMPLES, "pendulum.FCStd"), "--out",
                           tmp_path / "o2", "--t-end", "0.2", "--video", "v.mp4")
    assert code == cli.EXIT_INPUT and "--video: the video needs PyVista" in err
    assert not (tmp_path / "o2").exists()


def test_viewer_window_controls(swing, capsys):
    render.ensure_display()
    r, scene = swing
    from SimPhantWorkbench.viewer.window import ViewerWindow, body_report
    from qtpy import QtWidgets
    import locale
    saved = locale.setlocale(locale.LC_ALL)      # Qt sets the C locale: put it back after
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    win = ViewerWindow(r, scene, size=(400, 300))
    try:
        win.show()
        app.processEvents()
        seen = []
        win.time_listeners.append(seen.append)
        win.set_time(0.42)
        assert win.index == 42 and win.slider.value() == 42 and seen == [pytest.approx(0.42)]
        M = np.asarray(win.renderer.actors["Bar"].user_matrix)
        np.testing.assert_allclose(M[:3, 3], r.position("bar")[42])
        win.slider.setValue(10)                       # dragging the slider moves the scene
        assert win.index == 10 and win.time_label.text() == "t = 0.100 s"
        text = win.pick_body("bar")
        assert text == body_report(r, "bar", 10)
        assert "%.4g" % r.position("bar")[10][0] in text and text in capsys.readouterr().out
        assert win.picking                            # a right click on a body picks it
        win.body_box.setCurrentIndex(0)
        assert win._picked(win.renderer.actors["Block"]) is None          # fixed: nothing
        assert win._picked(win.renderer.actors["Bar"]) == "bar"
        assert win.body_box.currentData() == "bar"
        win.speed_box.setCurrentIndex(win.speed_box.findData(0.5))
        win.advance(0.2)                              # 0.2 s at half speed: 0.1 s on
        assert win.index == 20
        win.advance(5.0)                              # past the end: stops at the last sample
        assert win.index == len(r.t) - 1 and not win.play_button.isChecked()
        win.triads_box.setChecked(False)
        assert not win.renderer.triads["hinge"].GetVisibility()
        win.trails_box.setChecked(True)
        assert win.renderer._trail_actors["bar"].GetVisibility()
        assert win.renderer.trails["bar"].n_points == len(r.t)
        win.play()
        assert win.play_button.text() == "Pause" and win.index == 0    # restarts at the end
        win.pause()
    finally:
        win.close()
        app.processEvents()
        locale.setlocale(locale.LC_ALL, saved)


def test_viewer_package_is_optional_for_the_rest():
    """Nothing outside ``viewer`` imports PyVista or VTK at module level."""
    code = ("import sys; sys.modules['pyvista'] = None; sys.modules['vtkmodules'] = None\n"
            "import SimPhantWorkbench.cli, SimPhantWorkbench.output, SimPhantWorkbench.viewer\n"
            "import SimPhantWorkbench.viewer.scene, SimPhantWorkbench.viewer.files\n"
            "import SimPhantWorkbench.viewer.video\n"
            "from SimPhantWorkbench import viewer; assert not viewer.available()\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT] + sys.path))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert shutil.which("ffmpeg") or video.ffmpeg_exe()


def test_video_outside_the_output_folder_is_moved_there(tmp_path):
    video_path = tmp_path / "films" / "swing.gif"
    video_path.parent.mkdir()
    code, stdout, err = run_cli("run", os.path.join(EXAMPLES, "pendulum.FCStd"), "--out",
                                tmp_path / "o", "--t-end", "0.2", "--frames", "3",
                                "--no-animation", "--video", video_path, "--fps", "10")
    assert code == 0, err
    assert video_path.exists() and not (tmp_path / "o" / "swing.gif").exists()
    with Image.open(video_path) as im:
        assert im.n_frames >= 2
