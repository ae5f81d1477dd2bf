"""``simphant run``: run the study of a document through the run pipeline and write its
outputs (see ``SimPhantWorkbench.cli``)."""
import os
import shutil
import time

from .. import __version__
from ..solver import ModelError, SimulationCancelled, SimulationError
from .common import (EXIT_CANCELLED, EXIT_INPUT, EXIT_OK, EXIT_SIMULATION, CliError, fmt,
                     import_freecad, open_model, size_text)
from .progress import EarlyCancel, ProgressBar
from .summary import analyse, summary_lines

__all__ = ["run", "default_model", "DEFAULT_EXAMPLE", "EXAMPLES_DIR"]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
EXAMPLES_DIR = os.path.join(ROOT, "examples")
DEFAULT_EXAMPLE = "slider_crank"


def default_model():
    """Path of the bundled example ``simphant run`` uses without a model."""
    return os.path.join(EXAMPLES_DIR, DEFAULT_EXAMPLE + ".FCStd")


#: the run's own files a --video could be named as (the others are not .mp4/.gif)
_RUN_VIDEO_NAMES = ("animation.gif",)


def _video_path(video, out_dir):
    """Absolute path of ``--video`` (a bare name, or a name in ``out_dir``, goes into
    ``out_dir``), or None; refused before the run when it is a file the run writes itself
    (also as the GIF written without ffmpeg) or an existing file outside ``out_dir``."""
    if not video:
        return None
    if os.path.splitext(video)[1].lower() not in (".mp4", ".gif"):
        raise CliError("--video '%s': the name must end in .mp4 or .gif" % video)
    path = os.path.abspath(os.path.join(out_dir, video) if os.path.dirname(video) == ""
                           else video)
    names = _video_names(path)
    if os.path.dirname(path) == out_dir:
        clash = sorted(n for n in names if n in _RUN_VIDEO_NAMES or n.startswith("."))
        if clash:
            raise CliError("--video '%s': the run writes '%s' itself into '%s'; choose "
                           "another name" % (video, clash[0], out_dir))
        return path
    if not os.path.isdir(os.path.dirname(path)):
        raise CliError("--video '%s': directory '%s' does not exist"
                       % (video, os.path.dirname(path)))
    for n in sorted(names):
        if os.path.lexists(os.path.join(os.path.dirname(path), n)):
            raise CliError("--video '%s': '%s' exists; not overwriting it (remove it or "
                           "choose another name)" % (video, os.path.join(os.path.dirname(path),
                                                                      n)))
    return path


def _video_names(path):
    """The file names --video ``path`` may be written as (an MP4 without ffmpeg: a GIF)."""
    stem, ext = os.path.splitext(os.path.basename(path))
    names = {stem + ext}
    if ext.lower() == ".mp4":
        from ..viewer.video import ffmpeg_exe
        if ffmpeg_exe() is None:
            names.add(stem + ".gif")
    return names


def _output_error(exc, out_dir, staging, writing):
    """The ``CliError`` (exit 2) of an ``OSError`` while writing the outputs (a full
    disk...), naming the file: the one the error names, else the one being written."""
    name = getattr(exc, "filename", None) or writing
    if name and staging and os.path.dirname(os.path.abspath(name)) == staging:
        name = os.path.basename(name)
    path = os.path.join(out_dir, name) if name else out_dir
    return CliError("cannot write '%s': %s; nothing written" % (path, exc.strerror or exc))


def _spawn_animation(args):
    """Before the solve: the second process that will render animation.gif
    (``viewer.gif_job``; it imports what it needs while this one solves), or None (no
    animation, or none can be started: rendered in this process)."""
    from ..viewer import gif_job
    if args.no_animation or not gif_job.can_spawn():
        return None
    try:
        return gif_job.GifJob.spawn()
    except OSError:
        return None


def _start_animation(job, args, result, scene, staging, title):
    """Write result.npz and scene.npz, and have ``job`` (``_spawn_animation``) render
    animation.gif from them while the other files are written: the job, or None (no job,
    no scene, or it is gone: stopped, rendered in this process)."""
    from ..viewer import files
    if job is None or scene is None:
        if job is not None:
            job.kill()
        return None
    files.write_view_files(staging, result, scene)
    try:
        job.go(os.path.join(staging, files.RESULT_FILE), os.path.join(staging, files.SCENE_FILE),
               os.path.join(staging, "animation.gif"),
               args.frames or files.output.ANIMATION_FRAMES, title)
    except OSError:
        job.kill()
        return None
    return job


def _render_animation(args, result, scene, staging, title, err):
    from ..viewer import files
    used, _, why = files.write_animation(
        result, scene, os.path.join(staging, "animation.gif"),
        args.frames or files.output.ANIMATION_FRAMES, title)
    if why is not None:
        err.write("simphant: animation drawn without VTK (%s)\n" % why)


def _finish_animation(job, args, result, scene, staging, title, note, err):
    """Wait for the animation's process; render it here if that failed."""
    note("animation.gif")
    if job.wait() is not None:
        _render_animation(args, result, scene, staging, title, err)


def _write_view_outputs(args, result, scene, staging, title, note, err, job=None):
    """result.npz, scene.npz, animation.gif (VTK, else the Matplotlib fallback; awaited
    from ``job`` when ``_start_animation`` started one) and --video into ``staging``;
    returns the names to list in run.json (a --video outside DIR is moved there after the
    commit, and not listed)."""
    from ..viewer import files
    note(files.RESULT_FILE if scene is None else "%s, %s" % (files.RESULT_FILE,
                                                             files.SCENE_FILE))
    if job is None:
        names = files.write_view_files(staging, result, scene)
    else:
        names = [files.RESULT_FILE, files.SCENE_FILE]         # written before the job began
    if not args.no_animation:
        if job is None:
            note("animation.gif")
            _render_animation(args, result, scene, staging, title, err)
        names.append("animation.gif")       # else finished by _finish_animation
    if args.video:
        name = os.path.basename(args.video)
        note(name)
        try:
            written, _ = files.write_run_video(result, scene, os.path.join(staging, name),
                                               fps=args.fps or files.VIDEO_FPS, title=title)
        except RuntimeError as exc:
            raise CliError("--video: %s" % exc, EXIT_INPUT) from None
        if os.path.basename(written) != name:
            err.write("simphant: no ffmpeg found: wrote %s instead\n"
                      % os.path.basename(written))
            args.video = os.path.join(os.path.dirname(args.video), os.path.basename(written))
        if os.path.dirname(args.video) == "":
            names.append(os.path.basename(written))
    return names


def _import_text(report):
    """``"3 bodies, 2 joints; skipped: 'Gap' (a Distance joint between ...)"``: what an
    Assembly import made."""
    text = "%d bodies, %d joints" % (len(report.bodies), len(report.joints))
    if report.skipped:
        text += "; skipped: %s" % "; ".join("'%s' (%s)" % (label, reason)
                                            for label, reason in report.skipped)
    return text


def _import_info(report, doc_name):
    """run.json's record of a study imported from an Assembly for the run."""
    return dict(assembly=report.plan.assembly.Label, study=report.study.Label,
                bodies=len(report.bodies), joints=len(report.joints),
                skipped=[list(s) for s in report.skipped], warnings=list(report.warnings),
                saved_in=doc_name, text=_import_text(report))


def run(args, progress, out, err, interrupt):
    """The ``run`` command; returns the exit code (errors raise ``CliError``)."""
    return _RunCommand(args, progress, out, err, interrupt).main()


class _RunCommand:
    """One ``simphant run``: open and check the model, solve it through the run pipeline,
    write every output into a staging directory, commit them, print the summary."""

    def __init__(self, args, progress, out, err, interrupt):
        self.args, self.progress, self.out, self.err = args, progress, out, err
        self.interrupt = interrupt
        self.t_start = time.perf_counter()
        self.model_path = args.model or default_model()
        if args.model is None:
            err.write("simphant: no model given, running the bundled example %s\n"
                      % self.model_path)
        self.stem = os.path.splitext(os.path.basename(self.model_path))[0]
        self.out_dir = os.path.abspath(args.out or os.path.join("simphant-out", self.stem))
        if os.path.exists(self.out_dir) and not os.path.isdir(self.out_dir):
            raise CliError("output '%s' exists and is not a directory" % self.out_dir)
        self.overrides = {k: getattr(args, k) for k in ("t_end", "dt", "method", "output_dt")
                          if getattr(args, k) is not None}
        self.video_path = _video_path(args.video, self.out_dir)
        if self.video_path is not None and os.path.dirname(self.video_path) == self.out_dir:
            args.video = os.path.basename(self.video_path)      # listed with the outputs
        self.job = None
        self.imported = None        # the ImportReport of a study made from an Assembly
        self.writing = None

    def note(self, fname):
        self.writing = fname.split(",")[0]
        self.err.write("writing %s\n" % fname)
        self.err.flush()

    def warn(self, text):
        self.err.write("simphant: warning: %s\n" % text)

    def main(self):
        args = self.args
        FreeCAD = import_freecad()
        from ..output.outdir import OutputDir
        if args.video:                      # say it before solving, not after
            from .. import viewer
            reason = viewer.missing_reason()
            if reason is not None:
                raise CliError("--video: the video needs PyVista/VTK: %s. %s"
                               % (reason, viewer.INSTALL_HINT))
        self.model = open_model(FreeCAD, self.model_path)
        self.target = OutputDir(self.out_dir, protected=[self.model_path])
        try:
            self._check_video_target()
            self.job = _spawn_animation(args)   # prepares on the core the solve leaves free
            self.study = self._study()
            self._prepare()
            result = self._solve()
            try:
                names, lines, info = self._write(result)
                info.update(simphant=__version__, freecad=".".join(FreeCAD.Version()[:3]))
                names, moved_video = self._commit(names, info)
            except OSError as exc:               # a full disk...
                raise _output_error(exc, self.out_dir, getattr(self, "staging", None),
                                    self.writing) from None
            self._report(lines, names, moved_video)
            return EXIT_OK
        finally:
            if self.job is not None:
                self.job.kill()             # a failed or interrupted run: stop its animation
            self.target.discard()
            self.model.close()

    def _study(self):
        """The study to run: the document's (``--study``), or, in a document without one, a
        study imported from its FreeCAD Assembly (``--assembly``) for this run only: it
        is saved into the result document, never into the model."""
        from ..document.base import studies
        from ..document.opening import ModelFileError
        args = self.args
        try:
            if studies(self.model.doc) or args.study is not None:
                if args.assembly is not None:
                    raise CliError("--assembly: '%s' has a SimPhant study; --assembly imports "
                                   "an Assembly of a document without one (choose a study "
                                   "with --study)" % self.model_path)
                return self.model.study(args.study)
            assembly = self.model.assembly(args.assembly)
        except ModelFileError as exc:
            raise CliError(str(exc)) from None
        if args.in_place:
            raise CliError("--in-place: '%s' has no SimPhant study; the study imported from "
                           "Assembly '%s' for this run is saved only into the result "
                           "document (to keep it in the model, import the Assembly there: "
                           "SimPhant > Import FreeCAD Assembly)"
                           % (self.model_path, assembly.Label))
        from ..assembly_import import import_assembly
        try:
            self.imported = import_assembly(assembly)
        except ModelError as exc:
            raise CliError(str(exc)) from None
        self.err.write("simphant: no SimPhant study: imported Assembly '%s' into a study for "
                       "this run (%s)\n" % (assembly.Label, _import_text(self.imported)))
        for text in self.imported.warnings:
            self.warn(text)
        return self.imported.study
    def _check_video_target(self):
        """A --video into DIR onto a file that is not the previous run's own: refused."""
        if self.video_path is None or os.path.dirname(self.video_path) != self.out_dir:
            return
        for name in sorted(_video_names(self.video_path)):
            path = os.path.join(self.out_dir, name)
            if os.path.lexists(path) and not self.target.is_previous_output(name):
                raise CliError("--video '%s': '%s' exists and is not a file of the previous "
                               "run; not overwriting it (remove it or choose another name)"
                               % (self.args.video, path))

    def _prepare(self):
        """The run pipeline's checks, then the output directory: both fail before solving."""
        from ..output.outdir import OutputDirError
        from ..run import prepare
        try:
            self.run = prepare(self.study, **self.overrides)
        except ModelError as exc:
            raise CliError(str(exc)) from None
        try:
            self.staging = self.target.prepare()
        except OutputDirError as exc:
            raise CliError(str(exc)) from None
        for name in self.target.removed_partials:
            self.err.write("simphant: removed %s, left by an interrupted run\n"
                           % os.path.join(self.out_dir, name))

    def _solve(self):
        """Execute and commit the run with the progress bar; Ctrl-C cancels."""
        interrupt, progress = self.interrupt, self.progress
        bar = ProgressBar(self.err)

        def report(t, t_end):
            interrupt.integrating = True
            bar(t, t_end)
            if interrupt.requested:
                return False
            if progress is not None:
                answer = progress(t, t_end)
                if answer is not None and not answer:
                    return False
            return True

        try:
            interrupt.simulating = True
            bar.start(self.run.t_end)
            result = self.run.execute(report)
            self.run.commit(result)
        except EarlyCancel:
            bar.close(ok=False)
            raise CliError("run cancelled at t = 0 s, before the integration started; nothing "
                           "written", EXIT_CANCELLED) from None
        except SimulationCancelled as exc:
            bar.close(ok=False)
            raise CliError("run cancelled at t = %.4g s; nothing written" % (exc.time or 0.0),
                           EXIT_CANCELLED) from None
        except SimulationError as exc:
            bar.close(ok=False)
            raise CliError("%s; nothing written" % exc, EXIT_SIMULATION) from None
        except ModelError as exc:
            bar.close(ok=False)
            raise CliError(str(exc)) from None
        finally:
            interrupt.simulating = interrupt.integrating = False
        bar.close(ok=True)
        if interrupt.requested:        # Ctrl-C right after the last report
            raise KeyboardInterrupt
        return result

    def _write(self, result):
        """Every output into the staging directory; (names, summary lines, run.json data)."""
        from .. import output
        from ..document.opening import ModelFileError
        from ..document.scene import scene_from_study
        from ..viewer.scene import colors_from_gui_xml
        args, staging, study = self.args, self.staging, self.study
        title = "%s: %s" % (self.stem, study.Label)
        scene = None
        if not args.no_animation or args.video:
            self.err.write("tessellating the bodies\n")
            scene = scene_from_study(study, result, colors_from_gui_xml(
                self.model.gui.get("GuiDocument.xml", b"")), title=title)
        self.job = _start_animation(self.job, args, result, scene, staging, title)
        names = output.write_all(result, staging, None, title=title, progress=self.note)
        check = self._interference(staging, names)
        names += _write_view_outputs(args, result, scene, staging, title, self.note, self.err,
                                     self.job)
        doc_name = self.stem + "_result.FCStd"
        try:
            if not args.in_place:
                self.note(doc_name)
                self.model.save_as(os.path.join(staging, doc_name),
                                   target=os.path.join(self.out_dir, doc_name), warn=self.warn)
                names.append(doc_name)
            if self.job is not None:
                _finish_animation(self.job, args, result, scene, staging, title, self.note,
                                  self.err)
                self.job = None
            info = analyse(self.run, result, self.model_path,
                           time.perf_counter() - self.t_start)
            if self.imported is not None:
                info["imported_assembly"] = _import_info(self.imported, doc_name)
            if check is not None:
                info["interference"] = check
            lines = summary_lines(info)
            with open(os.path.join(staging, "summary.txt"), "w") as fh:
                fh.write("\n".join(lines) + "\n")
            names.append("summary.txt")
            if args.in_place:
                self.note(os.path.basename(self.model_path) + " (in place)")
                self.model.save(warn=self.warn)
        except ModelFileError as exc:
            raise CliError(str(exc)) from None
        return names, lines, info

    def _interference(self, staging, names):
        """interference.csv into ``staging`` (its name added to ``names``); run.json's
        record of the check (``Interference.summary()``, or why it was not made; None
        without --interference)."""
        if not self.args.interference:
            return None
        from .. import collision
        from ..document.interference import DEFLECTION_MM, check_study
        from ..output.tables import write_interference_csv
        reason = collision.missing_reason()
        if reason is not None:
            return dict(unavailable="%s. %s" % (reason, collision.INSTALL_HINT))
        self.note("interference.csv")
        deflection = self.args.deflection or DEFLECTION_MM
        bar = ProgressBar(self.err, "checking interference", "%d / %d pairs")
        done = [0, 0]

        def report(n, total):
            done[:] = [n, total]
            bar(n, total)

        try:
            check = check_study(self.study, deflection_mm=deflection, progress=report)
        except KeyboardInterrupt:
            bar.close(ok=False)
            raise CliError("interference check cancelled after %d of %d pairs; nothing written"
                           % tuple(done), EXIT_CANCELLED) from None
        bar.close(ok=True)
        write_interference_csv(check, os.path.join(staging, "interference.csv"))
        names.append("interference.csv")
        return check.summary()

    def _commit(self, names, info):
        """Move the outputs into place (Ctrl-C held back meanwhile) and a --video outside
        DIR to where it was asked for; (names, the moved video or None)."""
        from ..output.outdir import OutputDirError
        self.interrupt.committing = True
        try:
            names = self.target.commit(names, info)
        except OutputDirError as exc:
            raise CliError(str(exc)) from None
        finally:
            self.interrupt.committing = False
        moved_video = None
        video_path = self.video_path
        if video_path is not None and os.path.dirname(video_path) != self.out_dir:
            name = os.path.basename(self.args.video)       # .gif if there was no ffmpeg
            video_path = os.path.join(os.path.dirname(video_path), name)
            shutil.move(os.path.join(self.staging, name), video_path)
            moved_video = video_path
        self.target.discard()
        return names, moved_video

    def _report(self, lines, names, moved_video):
        out = self.out
        for line in lines:
            out.write(line + "\n")
        out.write("outputs    %s\n" % self.out_dir)
        for name in names:
            out.write("           %-28s %s\n"
                      % (name, size_text(os.path.getsize(os.path.join(self.out_dir, name)))))
        if self.args.in_place:
            out.write("           %s saved in place\n" % os.path.abspath(self.model_path))
        if moved_video is not None:
            out.write("           %-28s %s\n"
                      % (moved_video, size_text(os.path.getsize(moved_video))))
        out.write("wall time  %s\n" % fmt(time.perf_counter() - self.t_start, "s"))
        out.flush()
