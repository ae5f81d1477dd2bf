"""outputs: CSV tables read back to the very floats of the result, plots of the stated
pixel sizes, tessellation (oriented, closed), triangle subdivision, the animation (frames,
timing, motion) and the body meshes placed by the result as the document shows them."""
import csv
import math

import numpy as np
import pytest
from PIL import Image

import FreeCAD
import Part

from helpers_doc import docs, pendulum  # noqa: F401
from SimPhantWorkbench import output, runner
from SimPhantWorkbench.document import scene
from SimPhantWorkbench.output import mesh
from SimPhantWorkbench.solver import Model


@pytest.fixture(scope="module")
def result():
    """A swinging link with a second link on it (two revolute joints), 0.5 s."""
    m = Model(gravity=(0, 0, -9.81))
    a = m.add_body("upper arm", mass=1.0, inertia=(0.01, 0.02, 0.02), position=(0.2, 0, 0))
    b = m.add_body("upper_arm", mass=0.5, inertia=(0.005, 0.01, 0.01), position=(0.5, 0, 0))
    m.add_joint("revolute", m.ground, a, point=(0, 0, 0), axis=(0, 1, 0), name="shoulder")
    m.add_joint("revolute", a, b, point=(0.4, 0, 0), axis=(0, 1, 0), name="elbow, left")
    return m.simulate(t_end=0.5, dt=1e-3, output_dt=0.01)


def read_csv(path):
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    return rows[0], np.array([[float(x) for x in r] for r in rows[1:]])


def test_body_csv_holds_the_result_exactly(result, tmp_path):
    name = result.body_names[0]
    path = output.write_body_csv(result, name, str(tmp_path / "b.csv"))
    header, data = read_csv(path)
    assert tuple(header) == output.BODY_COLUMNS
    assert all("[" in h and h.endswith("]") for h in header)        # units in every name
    assert data.shape == (len(result.t), 17)
    np.testing.assert_array_equal(data[:, 0], result.t)
    np.testing.assert_array_equal(data[:, 1:4], result.position(name))
    np.testing.assert_array_equal(data[:, 4:8], result.quaternion(name))
    np.testing.assert_array_equal(data[:, 8:11], result.euler_angles(name))
    np.testing.assert_array_equal(data[:, 11:14], result.velocity(name))
    np.testing.assert_array_equal(data[:, 14:17], result.angular_velocity(name))


def test_body_csv_angles_rebuild_the_orientation_of_a_tumbling_body(tmp_path):
    """A body tumbling about a general axis: in every row the Z-Y-X angles give back,
    as Rz(angle_z) Ry(angle_y) Rx(angle_x), the rotation of the row's own quaternion
    columns (w, x, y, z) -- both checked from the CSV alone."""
    m = Model(gravity=(0, 0, 0))
    q0 = np.array([0.8, 0.3, -0.4, 0.33])
    b = m.add_body("tumbler", mass=1.0, inertia=(0.2, 0.3, 0.4), orientation=q0 / np.linalg.norm(q0),
                   angular_velocity=(1.5, -2.0, 2.5))
    r = m.simulate(t_end=2.0, dt=1e-3, output_dt=0.05)
    header, data = read_csv(output.write_body_csv(r, "tumbler", str(tmp_path / "t.csv")))
    assert header[4:11] == ["q_w [1]", "q_x [1]", "q_y [1]", "q_z [1]",
                            "angle_x [rad]", "angle_y [rad]", "angle_z [rad]"]

    def rot(axis, a):
        c, s = math.cos(a), math.sin(a)
        i, j = [(1, 2), (2, 0), (0, 1)][axis]
        R = np.eye(3)
        R[i, i] = R[j, j] = c
        R[i, j], R[j, i] = -s, s
        return R

    spread = []
    for row in data:
        w, x, y, z = row[4:8]
        A = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                      [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                      [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
        ax, ay, az = row[8:11]
        np.testing.assert_allclose(rot(2, az) @ rot(1, ay) @ rot(0, ax), A, atol=1e-12)
        spread.append(row[8:11])
    assert np.ptp(np.array(spread), axis=0).min() > 0.5      # all three angles vary
    np.testing.assert_allclose(data[:, 4:8], r.quaternion("tumbler"), atol=0)
    # one sign throughout: neighbouring rows are close (|w| = 3.6 rad/s x 0.05 s / 2 apart)
    assert np.linalg.norm(np.diff(data[:, 4:8], axis=0), axis=1).max() < 0.2


def test_reactions_and_energy_csv(result, tmp_path):
    header, data = read_csv(output.write_reactions_csv(result, str(tmp_path / "r.csv")))
    assert header[0] == "time [s]" and len(header) == 1 + 6 * len(result.joint_names)
    assert header[1:7] == ["shoulder F_x [N]", "shoulder F_y [N]", "shoulder F_z [N]",
                           "shoulder T_x [N m]", "shoulder T_y [N m]", "shoulder T_z [N m]"]
    assert header[7] == "elbow, left F_x [N]"                       # quoted by csv
    np.testing.assert_array_equal(data[:, 7:10], result.reaction_force("elbow, left"))
    np.testing.assert_array_equal(data[:, 10:13], result.reaction_torque("elbow, left"))
    header, data = read_csv(output.write_energy_csv(result, str(tmp_path / "e.csv")))
    assert tuple(header) == output.ENERGY_COLUMNS and data.shape == (len(result.t), 6)
    e = result.energy()
    np.testing.assert_array_equal(data[:, 3], e["total"])
    np.testing.assert_array_equal(data[:, 4], result.constraint_violation()["position"])


def test_joints_csv(result, tmp_path):
    header, data = read_csv(output.write_joints_csv(result, str(tmp_path / "j.csv")))
    assert header[:4] == ["time [s]", "shoulder angle [rad]", "shoulder angle rate [rad/s]",
                          "shoulder angle acceleration [rad/s^2]"]
    assert header[4] == "elbow, left angle [rad]"
    assert header[7:10] == ["shoulder F_x (joint axes) [N]", "shoulder F_y (joint axes) [N]",
                            "shoulder F_z (joint axes) [N]"]
    assert header[10] == "shoulder T_x (joint axes) [N m]" and len(header) == 7 + 12
    np.testing.assert_array_equal(data[:, 1], result.joint_position("shoulder"))
    np.testing.assert_array_equal(data[:, 5], result.joint_velocity("elbow, left"))
    np.testing.assert_array_equal(data[:, 6], result.joint_acceleration("elbow, left"))
    np.testing.assert_array_equal(data[:, 13:16],
                                  result.reaction_force("elbow, left", frame="joint"))
    np.testing.assert_array_equal(data[:, 16:19],
                                  result.reaction_torque("elbow, left", frame="joint"))
    # the shoulder swings down from the horizontal: its angle changes
    assert np.ptp(data[:, 1]) > 0.3


def test_body_csv_names_are_safe_and_unique(result):
    assert output.safe_name("Crank (Body001)/x") == "Crank_Body001_x"
    names = [output.body_csv_name(result, n) for n in result.body_names]
    # "upper arm" and "upper_arm" both become upper_arm: numbered apart
    assert names == ["body_upper_arm_1.csv", "body_upper_arm_2.csv"]


def test_indeterminate_reaction_components_are_marked(tmp_path, monkeypatch):
    """A planar four-bar of spatial revolutes shares its out-of-plane load in a way the
    model does not fix: those columns of reactions.csv and joints.csv say so after their
    unit, and reactions.png draws them grey and dashed; a tree's columns are as before."""
    from SimPhantWorkbench.solver.zoo import four_bar
    m, links, joints = four_bar()
    r = m.simulate(t_end=0.05, dt=1e-3, output_dt=0.01)
    header, data = read_csv(output.write_reactions_csv(r, str(tmp_path / "r.csv")))
    marked = [h for h in header if h.endswith(output.INDETERMINATE)]
    # normal y: force along y, torques about x and z, at each of the 4 joints
    assert marked == ["%s %s%s" % (j.name, c, output.INDETERMINATE) for j in joints
                      for c in ("F_y [N]", "T_x [N m]", "T_z [N m]")]
    np.testing.assert_array_equal(data[:, 1:4], r.reaction_force("A"))
    header, _ = read_csv(output.write_joints_csv(r, str(tmp_path / "j.csv")))
    assert "A F_z (joint axes) [N]" + output.INDETERMINATE in header
    assert "A F_x (joint axes) [N]" in header
    labels = []
    from matplotlib.axes import Axes
    plot = Axes.plot

    def spy(self, *args, **kw):
        labels.append((kw.get("label"), kw.get("ls"), kw.get("color")))
        return plot(self, *args, **kw)

    monkeypatch.setattr(Axes, "plot", spy)
    output.plot_reactions(r, str(tmp_path / "r.png"))
    assert ("F_y (indeterminate)", "--", "0.6") in labels
    assert ("F_x", None, None) in labels


def test_plots_have_the_stated_pixel_sizes(result, tmp_path):
    dpi = output.PLOT_DPI
    for fn, size in ((output.plot_positions, output.POSITIONS_SIZE),
                     (output.plot_energy, output.ENERGY_SIZE),
                     (output.plot_reactions, output.reactions_size(result)),
                     (output.plot_joint_motion, output.POSITIONS_SIZE)):
        path = fn(result, str(tmp_path / (fn.__name__ + ".png")), title="t")
        with Image.open(path) as im:
            im.load()
            assert im.format == "PNG"
            assert im.size == (round(size[0] * dpi), round(size[1] * dpi))
            assert len(im.getcolors(1 << 20)) > 50                  # something is drawn


def test_reactions_figure_grows_per_joint_up_to_eight():
    m = Model()
    prev = m.ground
    for k in range(10):
        b = m.add_body("b%d" % k, mass=1.0, inertia=(1, 1, 1), position=(k + 1.0, 0, 0))
        m.add_joint("revolute", prev, b, point=(k, 0, 0), axis=(0, 1, 0))
        prev = b
    r = m.simulate(t_end=0.01, dt=1e-3)
    assert output.reactions_size(r)[1] == pytest.approx(0.9 + 2.2 * 8)


def test_frame_indices_spread_evenly_and_keep_the_ends():
    idx = output.frame_indices(301)
    assert len(idx) == output.ANIMATION_FRAMES == 50 and idx[0] == 0 and idx[-1] == 300
    idx = output.frame_indices(301, 100)
    assert len(idx) == 100 and idx[0] == 0 and idx[-1] == 300
    assert np.ptp(np.diff(idx)) <= 1
    np.testing.assert_array_equal(output.frame_indices(40), np.arange(40))
    np.testing.assert_array_equal(output.frame_indices(1), [0])
    assert len(output.frame_indices(0)) == 0


def test_subdivide_splits_long_edges_and_keeps_area_and_winding():
    pts = np.array([[0, 0, 0], [10, 0, 0], [10, 1, 0], [0, 1, 0]], dtype=float)
    tris = np.array([[0, 1, 2], [0, 2, 3]])
    p2, t2 = output.subdivide(pts, tris, max_edge=1.5)
    corners = p2[t2]
    edges = np.linalg.norm(corners - np.roll(corners, 1, axis=1), axis=2)
    assert edges.max() <= 1.5 and len(t2) > 8
    n = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    assert np.all(n[:, 2] > 0)                                      # all still facing +z
    assert 0.5 * n[:, 2].sum() == pytest.approx(10.0)


def test_tessellation_is_closed_and_outward():
    box = Part.makeBox(10, 20, 30)
    pts, tris, closed = scene.tessellate(box)
    assert closed
    assert mesh.signed_volume(pts, tris) == pytest.approx(6000.0, rel=1e-9)
    cyl = Part.makeCylinder(5, 10)
    pts, tris, closed = scene.tessellate(cyl)
    assert closed and mesh.signed_volume(pts, tris) == pytest.approx(cyl.Volume, rel=0.02)
    # a lone face bounds no solid: no culling
    assert not scene.tessellate(box.Faces[0])[2]


def test_whole_shape_tessellation_is_checked_before_it_is_used():
    """The one-call tessellation is kept only as a closed, consistently oriented surface:
    a flipped or a missing triangle sends the shape face by face."""
    part = Part.makeBox(10, 20, 30).cut(Part.makeCylinder(3, 40, FreeCAD.Vector(5, 10, -5)))
    pts, tris, closed = scene.tessellate(part)
    assert closed and mesh.oriented_closed(tris)
    assert mesh.signed_volume(pts, tris) == pytest.approx(part.Volume, rel=0.02)
    flipped = tris.copy()
    flipped[3] = flipped[3, ::-1]
    assert not mesh.oriented_closed(flipped)
    assert not mesh.oriented_closed(tris[1:])
    # a one-call mesh with one small triangle turned inward (volume still within 2 %)
    # is not used: face by face, every triangle faces outward
    cyl = Part.makeCylinder(5, 10)

    class OneFlipped:
        def __getattr__(self, name):
            return getattr(cyl, name)

        def tessellate(self, tol):
            p, t = cyl.tessellate(tol)
            return p, [t[0][::-1]] + list(t[1:])

    cp, ct, cclosed = scene.tessellate(OneFlipped())
    corners = cp[ct]
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    centre = np.array([0.0, 0.0, 5.0])                 # convex: outward = away from it
    assert cclosed and np.all(np.einsum("ij,ij->i", normals, corners.mean(axis=1) - centre) > 0)
    # the face-by-face way gives the same surface
    faces = Part.makeCompound(part.Faces)          # no solid: not taken the one-call way
    fp, ft, fclosed = scene.tessellate(faces)
    assert not fclosed
    assert mesh.signed_volume(fp, ft) == pytest.approx(mesh.signed_volume(pts, tris),
                                                          rel=0.02)


def test_animation_frames_timing_and_motion(result, tmp_path):
    cube = Part.makeBox(40, 40, 40, FreeCAD.Vector(-20, -20, -20))
    pts, tris, closed = scene.tessellate(cube)
    meshes = [output.Mesh("arm", pts * 1e-3, tris, result.body_names[0], "#1f77b4", closed),
              output.Mesh("base", pts * 1e-3 * 0.5, tris, None, "#9a9a9a", closed)]
    path = str(tmp_path / "a.gif")
    n = output.render_animation(result, meshes, path, frames=12, title="test")
    assert n == 12
    with Image.open(path) as im:
        assert im.format == "GIF" and im.n_frames == 12
        assert im.size[0] <= output.ANIMATION_SIZE and im.size[1] <= output.ANIMATION_SIZE
        # real time: 0.5 s over 11 intervals (GIF counts in units of 10 ms)
        assert abs(im.info["duration"] - 0.5 / 11 * 1000) <= 10
        frames = []
        for k in (0, 11):
            im.seek(k)
            frames.append(np.asarray(im.convert("RGB"), dtype=int))
    assert np.abs(frames[0] - frames[1]).max() > 100                # the arm moved
    blue = np.array([0x1f, 0x77, 0xb4])
    assert (np.abs(frames[0] - blue).max(axis=2) < 60).sum() > 50   # and is drawn


def test_body_meshes_sit_where_the_document_shows_the_bodies(docs):
    """At the first sample, a moving body's mesh placed by the result coincides with
    its shape in the document (the run starts from the shown placements)."""
    doc = docs()
    p = pendulum(doc)
    r = runner.run_study(p["study"], t_end=0.05)
    meshes = scene.body_meshes(p["study"], r)
    by_label = {m.label: m for m in meshes}
    rod = by_label[p["link"].Label]
    assert rod.name == runner.result_key(p["study"], p["link"]) and rod.closed
    world = rod.world(r, 0) * 1e3
    bb = p["rod"].Shape.BoundBox
    assert world.min(axis=0) == pytest.approx([bb.XMin, bb.YMin, bb.ZMin], abs=1e-6)
    assert world.max(axis=0) == pytest.approx([bb.XMax, bb.YMax, bb.ZMax], abs=1e-6)
    pin = by_label[p["ground"].Label]
    assert pin.name is None
    np.testing.assert_allclose(pin.world() * 1e3, pin.points * 1e3)
    # later it has swung: the rod's lowest point moved along x
    later = rod.world(r, len(r.t) - 1) * 1e3
    assert not np.allclose(later, world, atol=1e-3)
    assert math.isfinite(float(later.sum()))


def test_write_all_lists_what_it_wrote(result, tmp_path):
    seen = []
    names = output.write_all(result, str(tmp_path), None, progress=seen.append)
    assert names == seen == ["body_upper_arm_1.csv", "body_upper_arm_2.csv", "reactions.csv",
                             "joints.csv", "energy.csv", "positions.png", "energy.png",
                             "reactions.png", "joints.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)


def test_many_bodies_get_a_legend_that_fits(tmp_path, monkeypatch):
    """Past LEGEND_MAX bodies the positions legend lists the first ones and how many more."""
    m = Model(gravity=(0, 0, -9.81))
    n = output.LEGEND_MAX + 3
    for i in range(n):
        m.add_body("B%d" % i, mass=1.0, inertia=(1, 1, 1), position=(i, 0, 0))
    r = m.simulate(t_end=0.01, dt=1e-3)
    figures = []
    monkeypatch.setattr(output.plots, "_save", lambda fig, path: figures.append(fig) or path)
    output.plot_positions(r, str(tmp_path / "p.png"))
    labels = [t.get_text() for t in figures[0].axes[0].get_legend().get_texts()]
    assert len(labels) == output.LEGEND_MAX
    assert labels[:-1] == ["B%d" % i for i in range(output.LEGEND_MAX - 1)]
    assert labels[-1] == "+ %d more (body_*.csv)" % (n - output.LEGEND_MAX + 1)
