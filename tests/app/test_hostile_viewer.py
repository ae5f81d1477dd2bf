"""Hostile-but-fair viewer input: ``simphant view DIR`` reads result.npz and scene.npz as
untrusted files (sizes before decompressing, triangle indices, finite values, no pickles)
before VTK sees them, exits 2 naming the file, and draws long titles shortened; a stored
result read back from a document keeps every series it holds."""
import json
import os
import zipfile

import numpy as np
import pytest

import FreeCAD

from helpers_doc import docs, pendulum  # noqa: F401
from helpers_hostile import refused_within, run_cli
from SimPhantWorkbench import cli, factory, output, runner, viewer
from SimPhantWorkbench.output.mesh import Mesh
from SimPhantWorkbench.solver import Model, result_file
from SimPhantWorkbench.viewer import files, scene as scene_module
from SimPhantWorkbench.viewer.scene import JointFrame, Scene


@pytest.fixture(scope="module")
def view_dir(tmp_path_factory):
    """A result and its scene as ``simphant run`` writes them: a bar on a hinge (0.5 s)."""
    m = Model(gravity=(0, 0, -9.81))
    bar = m.add_body("bar", mass=1.0, inertia=(0.001, 0.02, 0.02), position=(0.2, 0, 0))
    m.add_joint("revolute", m.ground, bar, point=(0, 0, 0), axis=(0, 1, 0), name="hinge")
    r = m.simulate(t_end=0.5, dt=1e-3, output_dt=0.01)
    P = np.array([[x, y, z] for x in (-0.2, 0.2) for y in (-0.02, 0.02) for z in (-0.02, 0.02)])
    T = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                  [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])
    scene = Scene([Mesh("Bar", P, T, "bar", "#ff0000", True),
                   Mesh("Block", P * 0.1, T, None, "#0000ff", True)],
                  [JointFrame("hinge", "Hinge", "bar", (-0.2, 0, 0), np.eye(3))], "swing")
    folder = tmp_path_factory.mktemp("view")
    files.write_view_files(str(folder), r, scene)
    return str(folder)


def members(path):
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def rewrite(path, arrays, pickle=False):
    (np.savez if pickle else np.savez_compressed)(path, **arrays)


def damage_scene(folder, how):
    path = os.path.join(folder, "scene.npz")
    a = members(path)
    meta = json.loads(str(a["meta"]))
    pickle = False
    if how == "index out of range":
        a["triangles_0"] = a["triangles_0"] + 1000
    elif how == "negative index":
        a["triangles_0"] = a["triangles_0"].copy()
        a["triangles_0"][3, 1] = -1
    elif how == "float triangles":
        a["triangles_0"] = a["triangles_0"].astype(float)
    elif how == "points (n, 2)":
        a["points_1"] = a["points_1"][:, :2].copy()
    elif how == "NaN points":
        a["points_0"] = a["points_0"].copy()
        a["points_0"][2, 0] = np.nan
    elif how == "missing member":
        del a["triangles_1"]
    elif how == "pickle":
        a["points_0"] = np.array([object()], dtype=object)
        pickle = True
    elif how == "bad colour":
        meta["meshes"][0]["color"] = "javascript:"
    elif how == "joint frame":
        meta["joints"][0]["R"] = [1, 2]
    elif how == "meta not a scene":
        meta = ["not", "a", "scene"]
    elif how == "garbage":
        with open(path, "wb") as fh:
            fh.write(b"PK\x03\x04 not a scene")
        return "scene.npz"
    a["meta"] = np.array(json.dumps(meta))
    rewrite(path, a, pickle)
    return "scene.npz"


def damage_result(folder, how):
    path = os.path.join(folder, "result.npz")
    a = members(path)
    pickle = False
    if how == "NaN states":
        a["states"] = np.full_like(a["states"], np.nan)
    elif how == "result missing member":
        del a["anchors"]
    elif how == "result pickle":
        a["react"] = np.array([object()], dtype=object)
        pickle = True
    elif how == "result garbage":
        with open(path, "wb") as fh:
            fh.write(b"PK\x03\x04 not a result")
        return "result.npz"
    rewrite(path, a, pickle)
    return "result.npz"


SCENE_DAMAGE = ["index out of range", "negative index", "float triangles", "points (n, 2)",
                "NaN points", "missing member", "pickle", "bad colour", "joint frame",
                "meta not a scene", "garbage"]
RESULT_DAMAGE = ["NaN states", "result missing member", "result pickle", "result garbage"]


@pytest.mark.parametrize("how", SCENE_DAMAGE + RESULT_DAMAGE)
def test_the_viewer_refuses_malformed_files_before_vtk_sees_them(view_dir, tmp_path, how):
    """Item 10 and weaker spots: triangle indices out of range crashed VTK (SIGSEGV, double
    free, Xvfb left running); NaN states gave a blank PNG with exit 0; other malformed
    members exited 1. Every one is a ValueError naming the file, exit 2 in the CLI."""
    import shutil
    folder = str(tmp_path / "out")
    shutil.copytree(view_dir, folder)
    name = (damage_scene if how in SCENE_DAMAGE else damage_result)(folder, how)
    with pytest.raises(ValueError, match="'%s'" % os.path.join(folder, name)):
        files.load_view_files(folder)
    png = tmp_path / "shot.png"
    code, out, err = run_cli("view", folder, "--screenshot", png)
    assert code == cli.EXIT_INPUT, err
    if viewer.available():
        assert os.path.join(folder, name) in err
    assert not png.exists() and "internal error" not in err


def test_view_refuses_a_zip_bomb_result_before_decompressing(view_dir, tmp_path, monkeypatch):
    """Item 15: simphant view on a 3 MB result.npz inflating to gigabytes took 3.5 GB (the
    document's reader had a cap, the viewer none). Sized from the member headers (limit
    lowered to 16 MB, the archive ~120 MB of zeros)."""
    import shutil
    folder = str(tmp_path / "out")
    shutil.copytree(view_dir, folder)
    a = members(os.path.join(folder, "result.npz"))
    n = 200000
    big = {k: (np.zeros((n,) + v.shape[1:]) if v.ndim and v.shape[0] == len(a["t"]) else v)
           for k, v in a.items()}
    big["t"] = np.arange(n, dtype=float)
    np.savez_compressed(os.path.join(folder, "result.npz"), **big)
    del big
    assert os.path.getsize(os.path.join(folder, "result.npz")) < 2e6
    monkeypatch.setattr(result_file, "MAX_RESULT_BYTES", 16 * 1024 ** 2)
    refused_within(4e6, ValueError, "result.npz': its result file holds .* more than the limit",
                   files.load_view_files, folder)


def test_view_refuses_a_zip_bomb_scene_before_decompressing(view_dir, tmp_path, monkeypatch):
    """Item 15: the scene's meshes are sized the same way (limit lowered to 1 MB, a mesh of
    40 MB of zeros)."""
    import shutil
    folder = str(tmp_path / "out")
    shutil.copytree(view_dir, folder)
    path = os.path.join(folder, "scene.npz")
    a = members(path)
    a["points_1"] = np.zeros((40 * 1024 ** 2 // 24, 3))
    rewrite(path, a)
    monkeypatch.setattr(scene_module, "MAX_SCENE_BYTES", 1024 ** 2)
    refused_within(4e6, ValueError, "scene.npz' holds 4.19e\\+07 bytes of meshes, more than the "
                   "limit", files.load_view_files, folder)
    with zipfile.ZipFile(path) as z:          # a member lying about its size: refused
        data = {i.filename: z.read(i.filename) for i in z.infolist()}
    data["points_0.npy"] += b"\0" * 4096
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, blob in data.items():
            z.writestr(name, blob)
    with pytest.raises(ValueError, match="array 'points_0' is damaged"):
        Scene.load(path)


def test_a_megabyte_title_is_drawn_shortened(view_dir, tmp_path):
    """Weaker spot: a 1 MB title (a scene's, a study's label) took 74 s to lay out. Drawn:
    its first line, at most TITLE_LENGTH characters (plots, animation, viewer)."""
    title = "swing " + "x" * 10 ** 6
    shown = output.plots.display_title(title)
    assert len(shown) == output.plots.TITLE_LENGTH and shown.startswith("swing x")
    assert output.plots.display_title("a\nb") == "a"
    assert output.plots.title_prefix(title) == shown + ": "
    output.plot_positions(files.load_view_files(view_dir)[0], str(tmp_path / "p.png"), title)
    if viewer.available():
        from SimPhantWorkbench.viewer import render
        result, scene = files.load_view_files(view_dir)
        scene.title = title
        plotter = render.offscreen_plotter((200, 150))
        try:
            render.SceneRenderer(plotter, scene, result)
            text = plotter.actors["title"].GetText(3)
        finally:
            plotter.close()
        assert text == shown


def test_a_reopened_result_keeps_its_force_element_and_driver_series(docs, tmp_path):
    """Found on the way: a stored result read back from its file lost the force-element
    and driver series (zeros), which only the run's own cache held."""
    doc = docs()
    p = pendulum(doc)
    factory.make_joint_spring(p["study"], p["joint"], stiffness=1.0, damping=0.01,
                              name="Torsion")
    factory.make_driver(p["study"], p["joint"], function="ramp", name="Motor", Speed=60.0)
    r = runner.run_study(p["study"], t_end=0.1)
    path, name = str(tmp_path / "springy.FCStd"), p["study"].Name
    doc.saveAs(path)
    FreeCAD.closeDocument(doc.Name)
    doc = FreeCAD.openDocument(path)
    try:
        stored = runner.get_result(doc.getObject(name))
        assert np.abs(r.spring_force("Torsion")).max() > 0.0
        assert np.abs(r.driver_effort("Motor")).max() > 0.0
        np.testing.assert_array_equal(stored.spring_force("Torsion"), r.spring_force("Torsion"))
        np.testing.assert_array_equal(stored.driver_effort("Motor"), r.driver_effort("Motor"))
        np.testing.assert_array_equal(stored.energy()["balance"], r.energy()["balance"])
    finally:
        FreeCAD.closeDocument(doc.Name)
