"""What the ``simphant`` commands share: exit codes, the user-facing error, FreeCAD
started headless, the model file opened and checked (``document.opening``)."""
__all__ = ["EXIT_OK", "EXIT_INTERNAL", "EXIT_INPUT", "EXIT_SIMULATION", "EXIT_INFRASTRUCTURE",
           "EXIT_CANCELLED", "EXIT_DEPENDENCIES", "CliError", "import_freecad", "open_model",
           "size_text", "fmt"]

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_INPUT = 2
EXIT_SIMULATION = 3
EXIT_INFRASTRUCTURE = 4          # a parameter study's cluster failed (not the model)
EXIT_CANCELLED = 130
#: a package the solver needs is missing, broken, too old or mismatched (``simphant doctor``)
EXIT_DEPENDENCIES = 5


class CliError(Exception):
    """A user-facing error: one line, and the exit code to return."""

    def __init__(self, message, code=EXIT_INPUT):
        super().__init__(message)
        self.code = code


def import_freecad():
    """``import FreeCAD`` started as ``freecadcmd`` starts it (``headless.start``: the
    installed workbenches' and add-ons' module start-up), so documents with objects of
    other workbenches (PartDesign, Assembly, ...) load whole."""
    try:
        import FreeCAD
    except ImportError as exc:
        raise CliError("cannot import FreeCAD (%s); run simphant through bin/simphant or "
                       "tools/run_python.sh" % exc, EXIT_INTERNAL) from None
    from ..document.headless import start
    start(FreeCAD)
    import Part  # noqa: F401  (Part feature types, needed by nearly every document)
    return FreeCAD


def open_model(FreeCAD, path):
    """The ``document.opening.ModelFile`` of ``path`` (opened and checked); ``CliError``
    (bad input) when it cannot be had."""
    from ..document.opening import ModelFile, ModelFileError
    try:
        return ModelFile(FreeCAD, path)
    except ModelFileError as exc:
        raise CliError(str(exc)) from None


def fmt(x, unit=""):
    return ("%.4g" % x) + ((" " + unit) if unit else "")


def size_text(n):
    for unit in ("B", "kB", "MB"):
        if n < 1000 or unit == "MB":
            return ("%d %s" % (n, unit)) if unit == "B" else ("%.1f %s" % (n, unit))
        n /= 1000.0
    return str(n)
