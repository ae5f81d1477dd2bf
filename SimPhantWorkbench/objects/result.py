"""Result: the outcome of a run, stored with the document.

The solver ``Result`` is saved as an ``.npz`` archive (``Result.to_arrays``)
in ``ResultFile``, an ``App::PropertyFileIncluded``: the file travels inside the
``.FCStd``, so a reopened document replays and plots without solving again.
The hidden "Mapping" properties tie the result's bodies and joints to document
objects and record what playback needs: each moving body's shape object, its
CoG in the object's own frame and the placement it had when the run started
(``InitialPlacements`` is a PlacementList, stored bit-exactly).

``ModelStamp`` records what the run was computed from (``run.Run.stamp``);
``Outdated`` and ``OutdatedReason`` say whether the model changed since
(``SimPhantWorkbench.freshness``), and are saved with the document.

``get_result`` (module ``SimPhantWorkbench.runner``) loads the archive, cached
by the proxy per file, after validating it and the mapping against the study
(``SimPhantWorkbench.document.result_check``): a damaged or edited result is a
``ResultError`` naming this Result, never a placement.
"""
import os

from .base import BaseProxy, prop

__all__ = ["Result"]

TYPE = "SimPhant::Result"


class Result(BaseProxy):
    """Proxy of a stored simulation result (``SimPhant::Result``)."""

    Type = TYPE

    PROPERTIES = (
        prop("App::PropertyFileIncluded", "ResultFile", "Result",
             "The result arrays (.npz of solver Result.to_arrays)", read_only=True),
        prop("App::PropertyInteger", "NumberOfFrames", "Result", "Number of stored frames",
             read_only=True),
        prop("App::PropertyFloat", "EndTime", "Result", "Time of the last frame [s]",
             read_only=True),
        prop("App::PropertyString", "Method", "Result", "Integration method of the run",
             read_only=True),
        prop("App::PropertyInteger", "Steps", "Result", "Integration steps taken", read_only=True),
        prop("App::PropertyFloat", "WallTime", "Result", "Computing time of the run [s]",
             read_only=True),
        prop("App::PropertyString", "AssemblySummary", "Result",
             "What the initial assembly changed", read_only=True),
        prop("App::PropertyBool", "Outdated", "Result",
             "True when the model changed after the run: solve again", read_only=True),
        prop("App::PropertyString", "OutdatedReason", "Result",
             "What changed in the model since the run", read_only=True),
        # what the result was computed from (hidden): JSON of Run.stamp
        prop("App::PropertyString", "ModelStamp", "Mapping",
             "The model the result was computed from (parts of its description, overrides)",
             hidden=True),
        # mapping to the document (hidden)
        prop("App::PropertyStringList", "BodyObjects", "Mapping",
             "Names of the SimPhant Body objects, in the order of the result's bodies",
             hidden=True),
        prop("App::PropertyStringList", "ShapeObjects", "Mapping",
             "Names of the moved shape objects, in the order of the result's bodies", hidden=True),
        prop("App::PropertyVectorList", "CoGLocal", "Mapping",
             "CoG of each moved object in the object's own frame [mm]", hidden=True),
        prop("App::PropertyPlacementList", "InitialPlacements", "Mapping",
             "Placement of each moved object when the run started (restored by reset)",
             hidden=True),
        prop("App::PropertyStringList", "JointObjects", "Mapping",
             "Names of the SimPhant Joint objects, in the order of the result's joints",
             hidden=True),
    )

    def __init__(self, obj):
        super().__init__(obj)
        self._cache = None

    def load(self, obj):
        """The stored solver ``Result`` (cached per file), or ``None`` when there is none.

        The archive and the mapping are validated first (``result_check``): a
        missing, damaged or tampered result is a ``ResultError`` naming this Result.
        """
        from ..document import result_check
        path = obj.ResultFile
        if not path:
            if int(obj.NumberOfFrames) > 0:
                raise result_check.ResultError("%s: its result file is missing (run the study "
                                               "again)" % result_check.result_label(obj))
            return None
        what = result_check.result_label(obj)
        if not os.path.isfile(path):
            raise result_check.ResultError("%s: its result file is missing (run the study "
                                           "again)" % what)
        st = os.stat(path)
        key = (path, st.st_mtime_ns, st.st_size)
        cache = getattr(self, "_cache", None)
        if cache is not None and cache[0] == key:
            res = cache[1]
        else:
            res = result_check.read_result_file(path, what)
            self._cache = (key, res)
        result_check.check_mapping(obj, res)
        return res

    def remember(self, obj, result):
        """Cache ``result`` as the content of the current ``ResultFile``."""
        path = obj.ResultFile
        st = os.stat(path)
        self._cache = ((path, st.st_mtime_ns, st.st_size), result)
