"""SimPhant error classes. Every message names the body, joint or load at fault."""
import copy

__all__ = ["SimPhantError", "ModelError", "AssemblyError", "SimulationError",
           "SimulationCancelled"]


class SimPhantError(Exception):
    """Base class of all SimPhant errors."""

    def prefixed(self, context):
        """The same error (class and attributes: ``time``, ``result``, ``joints``)
        with its message prefixed by ``context``, e.g. the study that ran."""
        new = copy.copy(self)
        new.args = ("%s: %s" % (context, self),) + tuple(self.args[1:])
        return new


class ModelError(SimPhantError, ValueError):
    """Invalid model input (bad mass, inertia, axis, joint kind, settings...)."""


class AssemblyError(ModelError):
    """The joints cannot be assembled at t0; ``joints`` names the ones that fail."""

    def __init__(self, message, joints=()):
        super().__init__(message)
        self.joints = list(joints)


class SimulationError(SimPhantError, RuntimeError):
    """Integration stopped. ``time`` is when; ``result`` holds the samples up to
    the last good one (a ``Result``, possibly with a single sample)."""

    def __init__(self, message, time=None, result=None):
        super().__init__(message)
        self.time = time
        self.result = result


class SimulationCancelled(SimulationError):
    """The progress callback asked to stop; ``result`` holds what was computed."""
