"""``animation.gif``: the bodies drawn at their poses with Matplotlib, assembled with Pillow
(the fallback of the VTK renderer in ``SimPhantWorkbench.viewer``)."""
import math

import numpy as np

from .mesh import Mesh, subdivide
from .plots import COLORS, FIXED_COLOR, display_title, figure

__all__ = ["ANIMATION_SIZE", "ANIMATION_FRAMES", "COLORS", "FIXED_COLOR", "frame_indices",
           "view_angles", "render_animation"]

#: animation: size [px] (square) and the number of frames it aims at
ANIMATION_SIZE = 480
ANIMATION_FRAMES = 50
_MIN_FRAME_MS = 20          # GIF viewers do not show shorter frames faithfully



def frame_indices(n, frames=ANIMATION_FRAMES):
    """About ``frames`` sample indices spread evenly over ``n`` samples (first and last kept)."""
    if n <= 0:
        return np.zeros(0, dtype=np.int64)
    k = max(1, min(n, int(frames)))
    return np.unique(np.round(np.linspace(0, n - 1, k)).astype(np.int64))


def view_angles(result, meshes):
    """(elev, azim): look along the axis in which the bodies move least."""
    if not result.body_names:
        return 20.0, -60.0
    span = np.zeros(3)
    for name in result.body_names:
        p = result.position(name)
        span = np.maximum(span, p.max(axis=0) - p.min(axis=0))
    normal = int(np.argmin(span))
    return {0: (18.0, -18.0), 1: (18.0, -72.0), 2: (50.0, -60.0)}[normal]


def render_animation(result, meshes, path, frames=ANIMATION_FRAMES, title="",
                     size=ANIMATION_SIZE):
    """Draw the meshes at about ``frames`` result samples and write an animated GIF.

    The scene is a matplotlib 3-D axes with fixed, equal-aspect limits that
    enclose the whole motion, seen along the direction in which the bodies move
    least. Its box, ticks and labels are drawn once and restored for every
    frame; the triangles of all bodies (long ones split, see ``subdivide``) are
    projected with the axes' own projection matrix, depth-sorted together
    (painter's algorithm, across bodies; back faces of closed meshes culled),
    flat-shaded by the angle to a light and drawn in one call of the Agg
    renderer's ``draw_gouraud_triangles`` (the three corners in one colour).
    That is what ``Poly3DCollection`` does, without its one ``Path`` object per
    polygon per frame: about 5x faster for a few thousand triangles. The frames
    are cropped to the drawing; a header shows ``title`` and the time. Frames
    last the simulated time between them (real-time playback, at least 20 ms
    each). Returns the number of frames written.
    """
    import mpl_toolkits.mplot3d  # noqa: F401  (registers the "3d" projection)

    idx = frame_indices(len(result.t), frames)
    if len(idx) == 0 or not meshes:
        raise ValueError("nothing to animate (no samples or no drawable bodies)")
    meshes, base, closed, polys = _triangles(result, meshes, idx)
    fig, ax, elev, azim = _axes(result, meshes, polys, size)
    drawn, extent = _project(ax, polys, closed, _light(elev, azim))
    crop, label = _crop_and_header(fig, extent, title)
    images = _draw(result, idx, fig, ax, polys, base, drawn, crop, label)
    return _write_gif(result, idx, images, path)


def _triangles(result, meshes, idx):
    """(meshes with no triangle longer than 1/12 of the scene, the triangles' colours,
    whether each belongs to a closed mesh, all triangle corners of all frames [mm]
    (frames, triangles, 3, 3))."""
    import matplotlib.colors as mcolors
    lo = np.full(3, np.inf)
    hi = np.full(3, -np.inf)
    for m in meshes:
        for i in (idx if m.name is not None else idx[:1]):
            w = m.world(result, i)
            lo, hi = np.minimum(lo, w.min(axis=0)), np.maximum(hi, w.max(axis=0))
    max_edge = float(np.linalg.norm(hi - lo)) / 12.0
    meshes = [Mesh(m.label, *subdivide(m.points, m.triangles, max_edge), name=m.name,
                   color=m.color, closed=m.closed) for m in meshes]
    base = np.concatenate([np.tile(mcolors.to_rgb(m.color), (len(m.triangles), 1))
                           for m in meshes])
    closed = np.concatenate([np.full(len(m.triangles), m.closed) for m in meshes])
    polys = np.empty((len(idx), len(base), 3, 3))
    for f, i in enumerate(idx):
        polys[f] = np.concatenate([m.world(result, i)[m.triangles] for m in meshes]) * 1e3
    return meshes, base, closed, polys


def _axes(result, meshes, polys, size):
    """The figure and its 3-D axes enclosing every frame, drawn once (fixes ``ax.M``)."""
    lo = polys.reshape(-1, 3).min(axis=0)
    hi = polys.reshape(-1, 3).max(axis=0)
    centre = 0.5 * (lo + hi)
    span = np.maximum(hi - lo, 0.15 * float(np.max(hi - lo)) + 1e-9)
    dpi = 100
    fig = figure((size / dpi, size / dpi), dpi=dpi)
    ax = fig.add_subplot(projection="3d")
    ax.set_xlim(centre[0] - span[0] / 2, centre[0] + span[0] / 2)
    ax.set_ylim(centre[1] - span[1] / 2, centre[1] + span[1] / 2)
    ax.set_zlim(centre[2] - span[2] / 2, centre[2] + span[2] / 2)
    ax.set_box_aspect(tuple(span))
    elev, azim = view_angles(result, meshes)
    ax.view_init(elev=elev, azim=azim)
    for setter, axis in ((ax.set_xlabel, "x"), (ax.set_ylabel, "y"), (ax.set_zlabel, "z")):
        setter("%s [mm]" % axis, fontsize=8, labelpad=-2)
    ax.tick_params(labelsize=7, pad=0)
    fig.subplots_adjust(left=0, right=1, bottom=0, top=1)
    fig.canvas.draw()                                   # the empty scene; fixes ax.M
    return fig, ax, elev, azim


def _project(ax, polys, closed, light):
    """Project, cull and sort every frame (``polys`` keeps the projection in its first two
    coordinates): ``[(triangle order, shade)]`` per frame and the drawing's pixel extent
    (x0, y0, x1, y1)."""
    M = ax.M
    ntri = polys.shape[1]
    drawn = []
    x0, y0, x1, y1 = np.inf, np.inf, -np.inf, -np.inf
    for f in range(len(polys)):
        tri = polys[f]
        n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
        n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-300)
        flat = tri.reshape(-1, 3)
        proj = np.concatenate([flat, np.ones((len(flat), 1))], axis=1) @ M.T
        proj = proj[:, :3] / proj[:, 3:]            # as mplot3d's proj_transform
        xy = proj[:, :2].reshape(ntri, 3, 2)
        depth = proj[:, 2].reshape(ntri, 3).mean(axis=1)
        # back faces of closed meshes are hidden: skip them
        e1, e2 = xy[:, 1] - xy[:, 0], xy[:, 2] - xy[:, 0]      # z of the 2-D cross product
        facing = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0] < 0.0
        keep = np.nonzero(facing | ~closed)[0]
        order = keep[np.argsort(-depth[keep], kind="stable")]        # farthest first
        shade = 0.35 + 0.65 * np.abs(n[order] @ light)
        drawn.append((order, shade))
        pix = ax.transData.transform(xy[keep].reshape(-1, 2))
        x0, y0 = min(x0, pix[:, 0].min()), min(y0, pix[:, 1].min())
        x1, y1 = max(x1, pix[:, 0].max()), max(y1, pix[:, 1].max())
        polys[f, :, :, :2] = xy                       # keep the projection, not the 3-D points
    return drawn, (x0, y0, x1, y1)


def _crop_and_header(fig, extent, title):
    """The crop box (rows r0:r1, columns c0:c1 in pixels from the top left) around the
    axes' drawing and the bodies, with a header: the title on the right and the time
    label (returned) on the left."""
    import matplotlib.colors as mcolors
    x0, y0, x1, y1 = extent
    height = int(round(fig.bbox.height))
    width = int(round(fig.bbox.width))
    bg = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)
    face = np.array(mcolors.to_rgb(fig.get_facecolor())) * 255.0
    ink = np.nonzero(np.abs(bg - face).max(axis=2) > 8)
    rows = [height - y1, height - y0] + ([ink[0].min(), ink[0].max()] if len(ink[0]) else [])
    cols = [x0, x1] + ([ink[1].min(), ink[1].max()] if len(ink[1]) else [])
    margin, header = 6, 22
    r0 = int(max(0, math.floor(min(rows)) - margin - header))
    r1 = int(min(height, math.ceil(max(rows)) + margin))
    c0 = int(max(0, math.floor(min(cols)) - margin))
    c1 = int(min(width, math.ceil(max(cols)) + margin))
    text_y = 1.0 - (r0 + 4.0) / height
    title = display_title(title)
    if title:
        fig.text((c1 - 6.0) / width, text_y, title, ha="right", va="top", fontsize=10)
    label = fig.text((c0 + 6.0) / width, text_y, "", ha="left", va="top", fontsize=10,
                     family="monospace")
    return (r0, r1, c0, c1), label


def _draw(result, idx, fig, ax, polys, base, drawn, crop, label):
    """The frames as PIL images: the background restored, the triangles drawn in one call."""
    from PIL import Image
    from matplotlib.transforms import IdentityTransform
    r0, r1, c0, c1 = crop
    canvas = fig.canvas
    canvas.draw()
    background = canvas.copy_from_bbox(fig.bbox)
    images = []
    gc = None
    for f, i in enumerate(idx):
        order, shade = drawn[f]
        xy = ax.transData.transform(polys[f, order, :, :2].reshape(-1, 2)).reshape(-1, 3, 2)
        rgb = np.clip(base[order] * shade[:, None], 0.0, 1.0)
        colors = np.repeat(np.concatenate([rgb, np.ones((len(rgb), 1))], axis=1)[:, None, :],
                           3, axis=1)
        label.set_text("t = %6.3f s" % result.t[i])
        canvas.restore_region(background)
        renderer = canvas.get_renderer()
        if gc is None:
            gc = renderer.new_gc()
            gc.set_clip_rectangle(fig.bbox)
        renderer.draw_gouraud_triangles(gc, xy, colors, IdentityTransform())
        label.draw(renderer)
        rgba = np.asarray(canvas.buffer_rgba())
        images.append(Image.fromarray(rgba[r0:r1, c0:c1, :3].copy()))
    if gc is not None:
        gc.restore()
    return images


def _write_gif(result, idx, images, path):
    """One palette for all frames, each lasting the simulated time between them."""
    from PIL import Image
    median_cut = getattr(getattr(Image, "Quantize", Image), "MEDIANCUT")   # Pillow 9.1+ / older
    no_dither = getattr(getattr(Image, "Dither", Image), "NONE")
    palette = images[len(images) // 2].quantize(colors=128, method=median_cut)
    frames_p = [im.quantize(palette=palette, dither=no_dither) for im in images]
    if len(idx) > 1:
        step = (result.t[idx[-1]] - result.t[idx[0]]) / (len(idx) - 1)
        duration = max(_MIN_FRAME_MS, int(round(step * 1000.0)))
    else:
        duration = 1000
    frames_p[0].save(path, format="GIF", save_all=True, append_images=frames_p[1:],
                     duration=duration, loop=0, optimize=False)
    return len(frames_p)


def _light(elev, azim):
    """Unit vector towards a light above and to the left of the viewer (degrees in)."""
    e, a = math.radians(elev + 25.0), math.radians(azim - 30.0)
    return np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)])
