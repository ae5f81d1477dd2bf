"""The variants of a design: an array (variants, variables) of values.

* ``grid``: the full factorial product, the first variable varying slowest.
* ``lhs``, ``uniform``: Latin hypercube and plain random samples of the ranges.
* ``sobol``, ``halton``: scrambled quasi-random sequences (``scipy.stats.qmc``), which
  fill the ranges more evenly than random samples; Sobol' points are best balanced in
  powers of two.
* ``normal``: normal samples (mean, std).
* ``saltelli``: the design of Sobol' sensitivity indices (``sensitivity``): two
  independent quasi-random matrices A and B of ``count`` rows, then for each variable
  i the matrix A with its column i taken from B: ``count * (variables + 2)`` variants,
  in the blocks A, B, AB_1 ... AB_d.

Every sample is reproducible for a given ``seed`` (``numpy.random.default_rng``).
"""
import warnings

import numpy as np

__all__ = ["points", "unit_samples"]


def unit_samples(design, n, d, rng):
    """(n, d) samples of the unit cube of a range design."""
    from scipy.stats import qmc
    if design == "lhs":
        return qmc.LatinHypercube(d=d, seed=rng).random(n)
    if design == "uniform":
        return rng.random((n, d))
    if design in ("sobol", "halton"):
        engine = qmc.Sobol(d=d, scramble=True, seed=rng) if design == "sobol" \
            else qmc.Halton(d=d, scramble=True, seed=rng)
        with warnings.catch_warnings():        # Sobol' balance wants 2**m points: documented
            warnings.simplefilter("ignore", UserWarning)
            return engine.random(n)
    raise ValueError("no unit samples for a %s design" % design)


def _scaled(spec, unit, nominal):
    cols = []
    for k, v in enumerate(spec.variables):
        lo, hi = v.bounds(nominal.get(v.name, 0.0))
        cols.append(lo + (hi - lo) * unit[:, k])
    return np.column_stack(cols)


def saltelli_unit(n, d, rng):
    """The Saltelli blocks A, B, AB_1 .. AB_d of the unit cube: (n * (d + 2), d)."""
    both = unit_samples("sobol", n, 2 * d, rng)
    a, b = both[:, :d], both[:, d:]
    blocks = [a, b]
    for i in range(d):
        ab = a.copy()
        ab[:, i] = b[:, i]
        blocks.append(ab)
    return np.vstack(blocks)


def points(spec, nominal):
    """The design of ``spec`` (see the module docstring); ``nominal`` maps variable names
    to the document's current values (for ``rel``)."""
    if spec.design == "grid":
        grids = np.meshgrid(*[np.asarray(v.grid_values()) for v in spec.variables],
                            indexing="ij")
        return np.column_stack([g.reshape(-1) for g in grids])
    n, d = spec.count, len(spec.variables)
    rng = np.random.default_rng(spec.seed)
    if spec.design == "normal":
        z = rng.standard_normal((n, d))
        cols = []
        for k, v in enumerate(spec.variables):
            mean, std = v.normal(nominal.get(v.name, 0.0))
            cols.append(mean + std * z[:, k])
        return np.column_stack(cols)
    if spec.design == "saltelli":
        return _scaled(spec, saltelli_unit(n, d, rng), nominal)
    return _scaled(spec, unit_samples(spec.design, n, d, rng), nominal)
