"""The parameter-study metric ``max_stress(Body, INSTANT)``: the peak von Mises stress
[Pa] of a body at an instant, from a CalculiX run of the variant's geometry and loads.

It needs the document and CalculiX, so a sweep's workers (solver only) cannot
evaluate it: the client evaluates it while the variant's design is set in the
document, on its own run of the variant (``StressMetric.evaluate``), and the analysis
is removed again. ``INSTANT`` is as ``fem.loads``'s: a time, ``frame:N`` or
``peak:SIGNAL``.
"""
import re
from collections import namedtuple

from ..solver import ModelError

__all__ = ["StressMetric", "parse_stress_metric", "is_document_metric"]

#: the body a stress metric reads, as the sweep checks a metric's signals before it runs
BodySignal = namedtuple("BodySignal", ["kind", "target", "quantity"])

_FORM = re.compile(r"^\s*max_stress\s*\((.*)\)\s*$", re.S)


class StressMetric:
    """``max_stress(body, instant)``; ``kind`` "document" (evaluated on the client)."""

    kind = "document"
    quantity = "max_stress"
    simple = False              # not one reducer of a solver signal (the panel's fields)

    def __init__(self, name, text, body, instant, mesh_size=None):
        self.name = name
        self.text = text
        self.target = body
        self.instant = instant
        self.mesh_size = mesh_size

    @property
    def signals(self):
        """The body, checked by the sweep as a metric's signals are (a moving body of the
        study)."""
        return [BodySignal("body", self.target, self.quantity)]

    def evaluate(self, study, result, keys):
        """The peak von Mises stress [Pa] of the variant whose ``result`` (and solver
        names ``keys``) is given; the analysis is not kept."""
        from .handoff import loads_to_fem
        return loads_to_fem(study, self.target, self.instant, mesh_size=self.mesh_size,
                            result=result, keys=keys, keep=False).peak_stress

    def __repr__(self):
        return "StressMetric(%r, %r)" % (self.name, self.text)


def _unquote(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def parse_stress_metric(text, name=None):
    """A ``StressMetric`` for ``max_stress(Body, INSTANT[, MESH_MM])``, None for any
    other expression; ``ModelError`` for a malformed one."""
    m = _FORM.match(str(text))
    if m is None:
        return None
    args = [a for a in re.split(r",(?![^()]*\))", m.group(1))]
    name = str(name).strip() if name else str(text).strip()
    if len(args) not in (2, 3) or not all(a.strip() for a in args):
        raise ModelError("metric %r: write max_stress(Body, INSTANT) or max_stress(Body, "
                         "INSTANT, ELEMENT_SIZE_MM), INSTANT a time, frame:N or "
                         "peak:SIGNAL" % name)
    size = None
    if len(args) == 3:
        try:
            size = float(args[2])
        except ValueError:
            raise ModelError("metric %r: the element size must be a number [mm]" % name) \
                from None
    instant = _unquote(args[1])
    try:
        instant = float(instant)
    except ValueError:
        pass
    return StressMetric(name, str(text).strip(), _unquote(args[0]), instant, size)


def is_document_metric(metric):
    return getattr(metric, "kind", None) == "document"
