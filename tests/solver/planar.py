"""Planar inverse dynamics of a slider-crank in closed form: an independent reference for
the solver's joint reactions (tests/solver/test_reactions.py, tests/app/test_examples.py).

Everything is in a plane with coordinates ``(u, v)``; angles are counter-clockwise from
``u`` to ``v``, torques about the normal ``u x v``. The crank turns about the fixed pivot
``O`` by ``theta`` from its initial pose; the rod joins the crank pin ``A`` to the wrist
pin ``B``; ``B`` and the slider move along the line through ``B0`` with direction ``e``.
Per sample the kinematics follow from ``theta`` and ``theta_dot`` (the rod angle by the
loop equation ``n . (B - B0) = 0``), and Newton-Euler's equations of the three bodies
give nine linear equations in ``theta_ddot`` and the eight in-plane joint forces: the
pivot's force on the crank ``F_O``, the crank pin's force on the rod ``F_A``, the wrist
pin's force on the slider ``F_B``, and the guide's force ``N n`` (at its point ``P``
of the slider) and torque ``T`` on the slider.
"""
import numpy as np


def _rot(phi, x):
    c, s = np.cos(phi), np.sin(phi)
    return np.array([c * x[0] - s * x[1], s * x[0] + c * x[1]])


def _perp(x):
    """The vector turned by +90 degrees."""
    return np.array([-x[1], x[0]])


def _cross(a, b):
    return a[0] * b[1] - a[1] * b[0]


def slider_crank_reactions(theta, omega, O, A0, B0, e, cogs, P0, masses, inertias, g):
    """Per sample (``theta``, ``omega``: the crank's rotation since t0 and its rate) the
    crank's angular acceleration and the joint forces of the planar slider-crank.

    ``O``, ``A0``, ``B0``: pivot, crank pin and wrist pin at t0 (2-vectors); ``e``: the
    slider's direction; ``cogs``: the crank's, rod's and slider's centres of mass at t0;
    ``P0``: the guide's point on the slider at t0; ``masses`` and ``inertias`` (about the
    centres of mass, normal axis) of the three bodies; ``g``: gravity (2-vector).

    Returns a dict of arrays: ``theta_ddot`` (n,), ``F_O``, ``F_A``, ``F_B``, ``F_guide``
    (n, 2) and ``T_guide`` (n,) (about ``P``)."""
    O, A0, B0, e, P0, g = (np.asarray(x, dtype=float) for x in (O, A0, B0, e, P0, g))
    e = e / np.linalg.norm(e)
    n_ = _perp(e)
    G10, G20, G30 = (np.asarray(c, dtype=float) for c in cogs)
    m1, m2, m3 = masses
    I1, I2 = inertias[0], inertias[1]
    d0 = B0 - A0
    out = dict(theta_ddot=[], F_O=[], F_A=[], F_B=[], F_guide=[], T_guide=[])
    phi = 0.0
    for th, w in zip(theta, omega):
        A = O + _rot(th, A0 - O)
        G1 = O + _rot(th, G10 - O)
        for _ in range(50):                      # rod angle: n . (A + R(phi) d0 - B0) = 0
            f = n_ @ (A + _rot(phi, d0) - B0)
            step = f / (n_ @ _perp(_rot(phi, d0)))
            phi -= step
            if abs(step) < 1e-15:
                break
        d = _rot(phi, d0)
        B = A + d
        G2 = A + _rot(phi, G20 - A0)
        shift = B - B0
        G3 = G30 + shift
        P = P0 + shift
        Adot = w * _perp(A - O)
        wp = -(n_ @ Adot) / (n_ @ _perp(d))
        # accelerations, affine in theta_ddot: (coefficient, constant)
        aA = (_perp(A - O), -w * w * (A - O))
        # phi_ddot from n . (A_ddot + phi_ddot J d - wp^2 d) = 0
        den = n_ @ _perp(d)
        pp = (-(n_ @ aA[0]) / den, -(n_ @ (aA[1] - wp * wp * d)) / den)
        a1 = (_perp(G1 - O), -w * w * (G1 - O))
        r2 = G2 - A
        a2 = (aA[0] + pp[0] * _perp(r2), aA[1] + pp[1] * _perp(r2) - wp * wp * r2)
        a3 = (aA[0] + pp[0] * _perp(d), aA[1] + pp[1] * _perp(d) - wp * wp * d)
        # unknowns x = [thdd, FOu, FOv, FAu, FAv, FBu, FBv, N, T]
        M = np.zeros((9, 9))
        rhs = np.zeros(9)
        for c in range(2):
            M[c, [0, 1 + c, 3 + c]] = [m1 * a1[0][c], -1.0, 1.0]      # crank
            rhs[c] = m1 * (g[c] - a1[1][c])
            M[2 + c, [0, 3 + c, 5 + c]] = [m2 * a2[0][c], -1.0, 1.0]  # rod
            rhs[2 + c] = m2 * (g[c] - a2[1][c])
            M[4 + c, [0, 5 + c, 7]] = [m3 * a3[0][c], -1.0, -n_[c]]   # slider
            rhs[4 + c] = m3 * (g[c] - a3[1][c])

        def moment(row, r, cols, sign):          # row += sign * (r x F), F = x[cols]
            M[row, cols[0]] -= sign * r[1]
            M[row, cols[1]] += sign * r[0]

        # crank: I1 thdd = (O - G1) x F_O - (A - G1) x F_A
        M[6, 0] = I1
        moment(6, O - G1, (1, 2), -1.0)
        moment(6, A - G1, (3, 4), 1.0)
        # rod: I2 phi_dd = (A - G2) x F_A - (B - G2) x F_B
        M[7, 0] = I2 * pp[0]
        rhs[7] = -I2 * pp[1]
        moment(7, A - G2, (3, 4), -1.0)
        moment(7, B - G2, (5, 6), 1.0)
        # slider (translates): 0 = (B - G3) x F_B + (P - G3) x (N n) + T
        moment(8, B - G3, (5, 6), -1.0)
        M[8, 7] = -_cross(P - G3, n_)
        M[8, 8] = -1.0
        x = np.linalg.solve(M, rhs)
        out["theta_ddot"].append(x[0])
        out["F_O"].append(x[1:3])
        out["F_A"].append(x[3:5])
        out["F_B"].append(x[5:7])
        out["F_guide"].append(x[7] * n_)
        out["T_guide"].append(x[8])
    return {k: np.array(v) for k, v in out.items()}
