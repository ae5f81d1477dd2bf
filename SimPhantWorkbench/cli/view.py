"""``simphant view DIR``: the 3-D viewer on a run's output directory."""
from .common import EXIT_OK, CliError

__all__ = ["view"]


def view(args, out, err):
    """``simphant view DIR``: the interactive viewer, or one off-screen frame."""
    from .. import viewer
    from ..viewer import files
    try:
        w, h = (int(x) for x in args.size.lower().split("x"))
        if w < 16 or h < 16:
            raise ValueError
    except ValueError:
        raise CliError("--size '%s': give WIDTHxHEIGHT in pixels, e.g. 960x720" % args.size)
    reason = viewer.missing_reason(interactive=args.screenshot is None)
    if reason is not None:
        raise CliError("the viewer is not available: %s. %s" % (reason, viewer.INSTALL_HINT))
    try:
        result, scene = files.load_view_files(args.dir)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    index = 0
    if args.time is not None:
        t = result.t
        if not (t[0] - 1e-9 <= args.time <= t[-1] + 1e-9):
            raise CliError("--time %g s is outside the result (%g s to %g s)"
                           % (args.time, t[0], t[-1]))
        index = int(abs(t - args.time).argmin())
    if args.screenshot:
        from PIL import Image
        from ..viewer.render import render_frames
        img, = list(render_frames(result, scene, [index], (w, h), triads=not args.no_triads,
                                  trails=args.trails))
        Image.fromarray(img).save(args.screenshot)
        out.write("%s: t = %.4g s, %dx%d\n" % (args.screenshot, result.t[index], w, h))
        return EXIT_OK
    from ..viewer.window import run_viewer
    try:
        run_viewer(result, scene, index=index, size=(w, h), triads=not args.no_triads,
                   trails=args.trails)
    except RuntimeError as exc:
        raise CliError(str(exc)) from None
    return EXIT_OK
