"""Sobol' sensitivity indices of the metrics of a ``saltelli`` design (``designs``).

For a metric y = f(x_1 .. x_d) over the design's ranges, the first-order index
S_i is the share of the variance of y that x_i explains alone, the total index
ST_i the share it has a part in (alone or with others). From the blocks A, B and
AB_i (A with column i from B) of N samples each:

    V     = Var([f(A), f(B)])
    S_i   = mean(f(B) (f(AB_i) - f(A))) / V            (Saltelli et al. 2010, eq. (b))
    ST_i  = mean((f(A) - f(AB_i))^2) / (2 V)            (Jansen 1999; Saltelli 2010, eq. (f))

with 95 % confidence half-widths from a bootstrap over the N samples. A sample
whose variant failed (NaN in any block) is left out of every block.

References: A. Saltelli, P. Annoni, I. Azzini, F. Campolongo, M. Ratto, S. Tarantola,
"Variance based sensitivity analysis of model output. Design and estimator for the total
sensitivity index", Computer Physics Communications 181 (2010) 259-270; M. J. W. Jansen,
"Analysis of variance designs for model output", Computer Physics Communications 117
(1999) 35-43.
"""
import numpy as np

__all__ = ["sobol_indices", "BOOTSTRAP"]

#: bootstrap resamples of the confidence intervals
BOOTSTRAP = 200


def _indices(fa, fb, fab):
    var = np.var(np.concatenate([fa, fb]))
    if not var > 0.0:
        nan = np.full(fab.shape[0], np.nan)
        return nan, nan
    s1 = np.mean(fb * (fab - fa), axis=1) / var
    st = 0.5 * np.mean((fa - fab) ** 2, axis=1) / var
    return s1, st


def sobol_indices(y, n, d, seed=0):
    """Indices of the values ``y`` (length ``n * (d + 2)``, blocks A, B, AB_1 .. AB_d).

    Returns a dict: ``S1``, ``ST`` (arrays of d), ``S1_conf``, ``ST_conf`` (95 %
    half-widths) and ``samples`` (the N used: samples with a NaN anywhere are left out).
    """
    y = np.asarray(y, dtype=float).reshape(d + 2, n)
    good = np.all(np.isfinite(y), axis=0)
    y = y[:, good]
    used = int(good.sum())
    nan = np.full(d, np.nan)
    if used < 2:
        return dict(S1=nan, ST=nan, S1_conf=nan, ST_conf=nan, samples=used)
    fa, fb, fab = y[0], y[1], y[2:]
    s1, st = _indices(fa, fb, fab)
    rng = np.random.default_rng(seed)
    boot1, boott = [], []
    for _ in range(BOOTSTRAP):
        k = rng.integers(0, used, used)
        b1, bt = _indices(fa[k], fb[k], fab[:, k])
        boot1.append(b1)
        boott.append(bt)
    z = 1.959963984540054
    return dict(S1=s1, ST=st, S1_conf=z * np.nanstd(boot1, axis=0),
                ST_conf=z * np.nanstd(boott, axis=0), samples=used)
