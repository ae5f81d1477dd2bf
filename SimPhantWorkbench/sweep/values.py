"""Checks of a specification's plain values: finite numbers, counts, seeds, names.

Every size a specification gives is bounded here before anything is allocated
(``MAX_VARIANTS``, ``MAX_TABLE_BYTES``, ``MAX_TRIALS``), and names that the results
table or the sweep's files use themselves (``RESERVED_NAMES``, ``RESERVED_PLOTS``)
are refused, with a ``ModelError`` naming the value at fault.
"""
import math

from ..solver import ModelError

__all__ = ["finite", "positive_int", "check_seed", "check_name", "RESERVED_NAMES", "RESERVED_PLOTS",
           "MAX_VARIANTS", "MAX_TABLE_BYTES", "BYTES_PER_CELL", "INFO_COLUMN_COUNT",
           "MAX_NAME_LENGTH", "MAX_TRIALS"]

#: columns of the results table (and names of its files) that variables, metrics and kept
#: series may not take
RESERVED_NAMES = ("variant", "status", "message", "error", "key", "cached", "worker",
                  "sim_time", "new_kernels", "warnings", "trial", "feasible", "pareto")
#: plot files the sweep writes besides ``<metric>.png``
RESERVED_PLOTS = ("pareto_front", "sensitivity")

#: most variants of one specification, and bytes its results table may take in memory
#: (about 100 bytes per cell of the rows)
MAX_VARIANTS = 1000000
MAX_TABLE_BYTES = 2 * 10 ** 9
BYTES_PER_CELL = 100
INFO_COLUMN_COUNT = 12
MAX_NAME_LENGTH = 100
MAX_TRIALS = 100000


def finite(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value):
        raise ModelError("%s must be a finite number, got %r" % (what, value))
    return float(value)


def positive_int(value, what, most=MAX_VARIANTS):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ModelError("%s must be a positive integer, got %r" % (what, value))
    if value > most:
        raise ModelError("%s is %d, more than the limit of %d" % (what, value, most))
    return value


def check_name(name, what):
    if not name or len(name) > MAX_NAME_LENGTH:
        raise ModelError("%s: a name has 1 to %d characters, got %d"
                         % (what, MAX_NAME_LENGTH, len(name)))
    if any(ord(c) < 32 for c in name):
        raise ModelError("%s: the name has a control character" % what)
    if name in RESERVED_NAMES:
        raise ModelError("%s: '%s' is a column of the results table itself; reserved: %s"
                         % (what, name, ", ".join(RESERVED_NAMES)))


def check_seed(seed, what="seed"):
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        raise ModelError("%s must be an integer from 0 to 2**63 - 1, got %r" % (what, seed))
    return seed

