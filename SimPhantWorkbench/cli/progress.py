"""Progress on stderr and Ctrl-C for the ``simphant`` commands."""
import signal
import threading
import time

__all__ = ["ProgressBar", "Interrupt", "EarlyCancel"]


class ProgressBar:
    """A text progress bar on ``stream``: redrawn in place on a terminal, else a
    single line that grows (one ``#`` per 5 %), fit for logs. ``label`` names the
    work, ``counter`` formats (done, total) on a terminal."""

    WIDTH = 30

    def __init__(self, stream, label="simulating", counter="t = %.4g / %.4g s"):
        self.stream = stream
        self.label, self.counter = label, counter
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.shown = 0           # non-tty: marks printed
        self.last = 0.0
        self.started = False

    def start(self, t_end):
        """Show the empty bar at once: the first report can take a while (assembly; on
        first use numba compiles the solver, about half a minute)."""
        self.last = 0.0
        self(0.0, t_end)

    def __call__(self, t, t_end):
        frac = 0.0 if not t_end else min(1.0, max(0.0, t / t_end))
        if self.tty:
            now = time.monotonic()
            if now - self.last < 0.1 and frac < 1.0:
                return
            self.last = now
            n = int(round(frac * self.WIDTH))
            self.stream.write("\r%s [%s%s] %3d%%  " % (self.label, "#" * n,
                                                       "." * (self.WIDTH - n), int(100 * frac))
                              + self.counter % (t, t_end))
        else:
            if not self.started:
                self.stream.write("%s [" % self.label)
                self.started = True
            marks = int(frac * 20 + 1e-9)
            if marks > self.shown:
                self.stream.write("#" * (marks - self.shown))
                self.shown = marks
        self.stream.flush()

    def close(self, ok=True):
        if self.tty:
            self.stream.write("\n" if ok else "  (stopped)\n")
        elif self.started:
            self.stream.write("] 100%\n" if ok and self.shown >= 20 else "] stopped\n")
        self.stream.flush()


class Interrupt:
    """SIGINT (Ctrl-C) or SIGTERM while integrating asks the runner to cancel (at its
    next progress report); a second one, or one at any other time (also before the first
    progress report: compiling, assembling), raises KeyboardInterrupt. While the
    outputs are being moved into place it is held back."""

    SIGNALS = ("SIGINT", "SIGTERM")

    def __init__(self):
        self.requested = False
        self.simulating = False
        self.integrating = False     # the runner has reported progress (it can cancel)
        self.committing = False
        self._previous = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for name in self.SIGNALS:
                sig = getattr(signal, name)
                self._previous[sig] = signal.signal(sig, self._handler)
        return self

    def __exit__(self, *exc):
        for sig, previous in self._previous.items():
            signal.signal(sig, previous)
        self._previous = {}
        return False

    def _handler(self, signum, frame):
        if self.committing:
            self.requested = True
            return
        if self.simulating and self.integrating and not self.requested:
            self.requested = True
            return
        if self.simulating and not self.integrating and not self.requested:
            # before the first progress report (compiling, assembling; nothing is
            # stored yet): stop at once rather than after the run. Raised inside a
            # FreeCAD callback (a recompute) the exception can be caught and only
            # reported there: the request then stops the run at its first report.
            self.requested = True
            raise EarlyCancel
        raise KeyboardInterrupt


class EarlyCancel(KeyboardInterrupt):
    """Ctrl-C before the runner's first progress report."""
