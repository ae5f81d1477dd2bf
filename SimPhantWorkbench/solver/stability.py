"""Is the step small enough for the model's springs and dampers? A check before a run.

A fixed-step method reproduces a vibration of rate ``lambda`` (``x ~ exp(lambda t)``) with
the amplification ``g(h lambda)`` per step of size ``h``: ``|1 + z|`` for explicit Euler,
``|1 + z + z^2/2 + z^3/6 + z^4/24|`` for RK4 (``z = h lambda``; Hairer & Wanner, *Solving
Ordinary Differential Equations II*, 2nd ed., 1996, sec. IV.2), and the spectral radius
of the step matrix ``[[1 - h^2 k, h - h^2 c], [-h k, 1 - h c]]`` for the semi-implicit
(symplectic) Euler of a mode ``x'' + c x' + k x = 0``. The exact motion changes its
amplitude by ``exp(h Re lambda)`` per step; over a run of ``T`` the method's amplitude is
off by ``exp(T (ln g / h - Re lambda))``. Explicit Euler makes every undamped vibration
grow (``|1 + i w h| > 1``), RK4 damps it (by ``1 - (w h)^6 / 144`` per step), and each is
unstable past its stability boundary (``w h > 2`` for the semi-implicit Euler, ``2.83`` for
RK4).

The rates are those of the model linearised at the start of the run about its
constraint manifold: ``lambda^2 M_r + lambda C_r + K_r = 0`` with ``M_r = N^T M N``,
``K_r = N^T G^T diag(k) G N``, ``C_r = N^T G^T diag(c) G N``, ``N`` a basis of the
velocities the joints and drivers allow (the null space of the constraint Jacobian),
``G`` the rates of the force elements' coordinates per velocity (read from the force
kernel itself, so every kind of force element counts the same way) and ``k``, ``c`` each
element's stiffness and damping (for a table, its steepest segment). Gravity and
preloads (geometric stiffness) and contact are not in it: it catches the step that
cannot follow the springs and dampers, not every inaccuracy.

``step_check(system, Y0, t0, t_end, dt, method)`` returns ``(warnings, refusal)``:
warning lines when the fastest vibrations' amplitude is off by more than
``AMPLITUDE_TOLERANCE`` over the run, and a refusal text (the caller raises it) when a
vibration would grow or shrink by more than ``GROWTH_LIMIT``: that run returns garbage. Both name
the vibration's frequency, the force elements that make it, and the largest step that
would keep it within the tolerance.

A compliant end stop is not a vibration of the start: its contact law acts only while
it is met. ``contact_check(system, result, dt)`` looks at the contacts of a run: the
contact of a stop of law ``k p^e`` (undamped, no other force) met at the speed ``v`` by
the effective mass ``m`` of its coordinate lasts (energy: ``m v^2 / 2 = k p_max^(e+1) /
(e+1)``; Goldsmith, *Impact*, 1960, ch. 4; Johnson, *Contact Mechanics*, 1985, sec. 11.4)::

    T = 2 (p_max / v) integral_0^1 du / sqrt(1 - u^(e+1))
      = 2 (p_max / v) sqrt(pi) Gamma(1 + 1/(e+1)) / Gamma(1/2 + 1/(e+1))

(``pi sqrt(m/k)`` for the linear law), ``m = 1 / (g N M_r^-1 N^T g^T)`` with ``g`` the
stop coordinate's rate per velocity at the contact's start (the rest of the mechanism
follows through its joints). A contact taking fewer than ``CONTACT_STEPS`` steps is not
resolved by the step: a run warning names the stop and the step that would.
"""
import math

import numpy as np

from . import forces

__all__ = ["step_check", "vibration_rates", "amplification", "contact_duration",
           "contact_check", "effective_mass", "AMPLITUDE_TOLERANCE", "GROWTH_LIMIT",
           "MAX_BODIES", "CONTACT_STEPS"]

#: an amplitude off by more than this factor over the run (either way) is warned about
AMPLITUDE_TOLERANCE = 1.05
#: a vibration the method makes grow by more than this factor over the run is refused
GROWTH_LIMIT = 10.0
#: above this many moving bodies the check is skipped (its dense eigenproblem grows as N^3)
MAX_BODIES = 200
#: a compliant stop's contact taking fewer steps than this is warned about
CONTACT_STEPS = 10


def _steepest(S, tab_row):
    """The largest |slope| of the piecewise-linear table at ``tab_row`` (start, count)."""
    start, n = int(tab_row[0]), int(tab_row[1])
    if n < 2:
        return 0.0
    x = S.frc_tabx[start:start + n]
    y = S.frc_taby[start:start + n]
    dx = np.diff(x)
    ok = dx > 0
    return float(np.max(np.abs(np.diff(y)[ok] / dx[ok]))) if ok.any() else 0.0


def _element_coefficients(S):
    """Stiffness and damping of every force element (tables: their steepest segment)."""
    nf = len(S.frc_geom)
    k = np.zeros(nf)
    c = np.zeros(nf)
    for i in range(nf):
        k[i] = _steepest(S, S.frc_ktab[i]) if S.frc_ktab[i, 1] > 0 else \
            abs(S.frc_par[i, forces.PAR_K])
        c[i] = _steepest(S, S.frc_ctab[i]) if S.frc_ctab[i, 1] > 0 else \
            abs(S.frc_par[i, forces.PAR_C])
    return k, c


def _coordinate_rates(system, Y0, t0):
    """``G``: the rate of each force element's coordinate per unit velocity coordinate
    (linear in the velocities), read from the force kernel."""
    nb = system.nb
    off = 7 * nb
    G = np.zeros((len(system.S.frc_geom), 6 * nb))
    Y = np.array(Y0, dtype=float)
    for col in range(6 * nb):
        Y[off:] = 0.0
        Y[off + col] = 1.0
        system.evaluate(t0, Y)
        G[:, col] = system.W.frc_out[:, forces.OUT_XDOT]
    system.evaluate(t0, np.asarray(Y0, dtype=float))     # leave the workspace at Y0
    return G


def _reduced(system, Y0, t0):
    """``(G, N, M_r)`` at ``Y0`` (module doc): the force elements' coordinate rates, a
    basis of the velocities the constraints allow, the mass matrix reduced to it."""
    import scipy.linalg as sl
    S = system.S
    nb = system.nb
    G = _coordinate_rates(system, Y0, t0)
    _phi, J, _gamma = system.constraint_state(Y0)
    N = sl.null_space(J) if J.shape[0] else np.eye(6 * nb)
    m = np.column_stack([np.repeat(1.0 / S.body_minv[:, None], 3, axis=1),
                         S.body_inertia]).ravel()
    return G, N, N.T @ (m[:, None] * N)


def vibration_rates(system, Y0, t0=0.0):
    """``(rates, shares)``: the eigenvalues ``lambda`` of the model linearised at ``Y0``
    (see the module doc; one of each conjugate pair, ``Im >= 0``) and, per rate, each
    force element's share of the mode's stiffness and damping (rows sum to 1). Empty when
    no force element has stiffness or damping."""
    S = system.S
    nb = system.nb
    k, c = _element_coefficients(S)
    if nb == 0 or not (k.any() or c.any()):
        return np.zeros(0, complex), np.zeros((0, len(k)))
    G, N, Mr = _reduced(system, Y0, t0)
    if N.shape[1] == 0:
        return np.zeros(0, complex), np.zeros((0, len(k)))
    GN = G @ N
    Kr = GN.T @ (k[:, None] * GN)
    Cr = GN.T @ (c[:, None] * GN)
    r = N.shape[1]
    Minv = np.linalg.inv(Mr)
    A = np.zeros((2 * r, 2 * r))
    A[:r, r:] = np.eye(r)
    A[r:, :r] = -Minv @ Kr
    A[r:, r:] = -Minv @ Cr
    lam, vec = np.linalg.eig(A)
    keep = lam.imag >= -1e-12 * np.maximum(1.0, np.abs(lam))
    keep &= np.abs(lam) > 0.0
    lam, vec = lam[keep], vec[:r, keep]
    # each element's part of the mode: its stiffness and damping energy in the mode shape
    amp = np.abs(GN @ vec)                  # element coordinate amplitude per mode
    work = (k[:, None] + c[:, None] * np.abs(lam)[None, :]) * amp ** 2
    total = work.sum(axis=0)
    shares = (work / np.where(total > 0, total, 1.0)).T
    return lam, shares


def amplification(method, z):
    """The per-step amplitude factor of ``method`` for ``z = h lambda`` (see the module
    doc); ``None`` for a method this check does not model (the adaptive ones)."""
    z = np.asarray(z, dtype=complex)
    if method == "euler":
        return np.abs(1.0 + z)
    if method == "rk4":
        return np.abs(1.0 + z + z ** 2 / 2 + z ** 3 / 6 + z ** 4 / 24)
    if method == "symplectic_euler":
        # the mode x'' + c x' + k x = 0 of lambda (and its conjugate): k = |lambda|^2,
        # c = -2 Re(lambda) for a vibration; a real rate is a pure decay of v (c = -lambda)
        out = np.empty(z.shape)
        for i, zi in np.ndenumerate(z):
            if abs(zi.imag) > 1e-12 * max(1.0, abs(zi)):
                hk, hc = abs(zi) ** 2, -2.0 * zi.real        # h^2 k, h c
                step = np.array([[1.0 - hk, 1.0 - hc], [-hk, 1.0 - hc]])   # in (x, h v)
                out[i] = np.max(np.abs(np.linalg.eigvals(step)))
            else:
                out[i] = abs(1.0 + zi)
        return out
    return None


def _errors(method, lam, h, span):
    """Per rate: the log of the amplitude's factor over the run against the exact one."""
    g = amplification(method, h * lam)
    with np.errstate(divide="ignore"):
        return span * (np.log(np.maximum(g, 1e-300)) / h - lam.real), g


def _relevant(lam, g, span):
    """Rates whose error matters: unstable ones, and those the exact motion keeps (an
    amplitude not decayed below 1 % over the run)."""
    return (g > 1.0) | (lam.real * span > math.log(0.01))


def _good_step(method, lam, h, span):
    """The largest step (<= h) that keeps every relevant rate within the tolerance."""
    tol = math.log(AMPLITUDE_TOLERANCE)
    lo, hi = 0.0, h
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if mid <= 0:
            break
        err, g = _errors(method, lam, mid, span)
        bad = _relevant(lam, g, span) & (np.abs(err) > tol)
        if bad.any():
            hi = mid
        else:
            lo = mid
    return _round_down(lo)


def _round_down(x):
    """``x`` rounded down to two significant digits (a step to type in)."""
    if x <= 0.0 or not math.isfinite(x):
        return x
    unit = 10.0 ** (math.floor(math.log10(x)) - 1)
    return math.floor(x / unit * (1 + 1e-12)) * unit


def step_check(system, Y0, t0, t_end, dt, method):
    """``(warnings, refusal)`` for a fixed-step run (see the module doc)."""
    if dt is None or amplification(method, 0.0) is None or system.nb > MAX_BODIES:
        return [], None
    lam, shares = vibration_rates(system, Y0, t0)
    if not len(lam):
        return [], None
    span = t_end - t0
    err, g = _errors(method, lam, dt, span)
    bad = _relevant(lam, g, span) & (np.abs(err) > math.log(AMPLITUDE_TOLERANCE))
    if not bad.any():
        return [], None
    worst = int(np.argmax(np.where(bad, np.abs(err), -np.inf)))
    lw = lam[worst]
    names = [e.name for e in getattr(system.model, "force_elements", [])]
    order = np.argsort(-shares[worst])
    who = [names[i] for i in order[:3] if shares[worst, i] > 0.05]
    good = _good_step(method, lam, dt, span)
    factor = math.exp(err[worst])
    if abs(lw.imag) > 0:
        zeta = -lw.real / abs(lw)
        what = "the vibration of %.4g Hz (%s)" % (
            lw.imag / (2 * math.pi),
            "undamped" if abs(zeta) < 1e-9 else "damping ratio %.3g" % zeta)
    else:
        what = "the decay of rate %.4g 1/s" % -lw.real
    text = ("%s of force element%s %s is %s by %s with dt = %.3g s: its amplitude comes out "
            "%.3g times the true one over t = %g .. %g s; use dt <= %.2g s, or an adaptive "
            "method (Radau or BDF for stiff models)"
            % (what, "" if len(who) == 1 else "s", ", ".join(repr(n) for n in who),
               "unstable" if g[worst] > 1.0 else "distorted", method, dt, factor, t0, t_end,
               good))
    if not 1.0 / GROWTH_LIMIT <= factor <= GROWTH_LIMIT:
        return [], text
    return [text], None


# --------------------------------------------------------------------------- contacts
def contact_duration(m, k, e, v):
    """Duration [s] of an undamped contact of the law ``k p^e`` met at the speed ``v`` by
    the effective mass ``m`` (module doc; ``pi sqrt(m/k)`` for ``e = 1``)."""
    a = 1.0 / (e + 1.0)
    v = abs(float(v))
    if v <= 0.0:
        return math.inf
    p_max = ((e + 1.0) * m * v * v / (2.0 * k)) ** a
    return 2.0 * p_max / v * math.sqrt(math.pi) * math.gamma(1.0 + a) / math.gamma(0.5 + a)


def effective_mass(system, Y, t, element):
    """The mass (inertia, for an angle) force element ``element``'s coordinate has at the
    state ``Y``: ``1 / (g N M_r^-1 N^T g^T)`` (module doc); ``inf`` when the constraints
    hold it."""
    G, N, Mr = _reduced(system, Y, t)
    g = G[element] @ N
    if not N.shape[1] or not np.any(g):
        return math.inf
    return 1.0 / float(g @ np.linalg.solve(Mr, g))


def contact_check(system, result, dt):
    """Warning lines for the compliant end stops whose contacts in ``result`` take fewer
    than ``CONTACT_STEPS`` steps of ``dt`` (module doc): per stop, its shortest contact
    (at the fastest approach), at the state of the sample before it."""
    if dt is None or system.nb > MAX_BODIES:
        return []
    elems = list(getattr(system.model, "force_elements", []))
    fastest = {}
    for ev in result.stop_events():
        if ev.get("rebound") is not None:           # an impulsive stop's impact
            continue
        if abs(ev["speed"]) > abs(fastest.get(ev["element"], {"speed": 0.0})["speed"]):
            fastest[ev["element"]] = ev
    out = []
    names = [e.name for e in elems]
    for name, ev in fastest.items():
        i = names.index(name)
        par = system.S.frc_par[i]
        k, e = par[forces.PAR_SK], par[forces.PAR_SE]
        if not k > 0.0:
            continue
        m = max(0, int(np.searchsorted(result.t, ev["time"], side="right")) - 1)
        mass = effective_mass(system, result.states[m], float(result.t[m]), i)
        duration = contact_duration(mass, k, e, ev["speed"])
        if duration >= CONTACT_STEPS * dt:
            continue
        out.append("end stop %r: its contact at t = %.4g s lasts about %.3g s (law %g p^%g, "
                   "effective %s %.4g, impact speed %.4g), only %.1f steps of dt = %.3g s: "
                   "the step does not resolve it; use dt <= %.2g s"
                   % (name, ev["time"], duration, k, e,
                      "inertia" if elems[i].geometry == forces.GEOM_JOINT_ROT else "mass",
                      mass, abs(ev["speed"]), duration / dt, dt,
                      _round_down(duration / CONTACT_STEPS)))
    return out
