"""Contact between solids: the shapes, the flat arrays and the kernel of ``contact`` elements.

A contact element (force kind ``contact``, ``forces.FORCE_TYPES``) pushes two bodies apart
where their solids overlap and rubs them where they slide (docs/theory.md, "Contact"):

* **Shapes.** The first body's solid is a set of *sample points* with a radius each (a
  sphere is its centre with its radius; a convex solid its vertices and points along its
  edges, radius 0); the second's is a sphere (centre, radius), a *convex polytope* given
  by its face planes ``n_i . x <= d_i`` (a half-space is one plane; a convex solid the
  faces of its convex hull) or a *cylinder* (axis, radius, half length: a roller's exact
  circle, where a polytope would be its facets). Both are fixed in their bodies (body
  frame at the centre of mass, principal axes) and evaluated by the kernel directly: no
  collision library inside the integration loop.
* **Narrow phase.** A sample point ``x`` of radius ``r`` penetrates a polytope by
  ``p = r - max_i (n_i . x - d_i)`` along the normal ``n`` of the face reaching the
  maximum (exact for a point inside the polytope and for a sphere over a face; near an
  edge or a vertex of the polytope the sphere's penetration is over-estimated by the
  plane of the nearest face), a sphere of centre ``c`` and radius ``R`` by
  ``p = r + R - |x - c|`` along ``(x - c) / |x - c|``, a finite cylinder by ``r`` minus
  the point's signed distance to it (``cylinder_distance``: exact inside and outside,
  around its rims too).
* **Broad phase.** Each element skips its pair when the bounding spheres of the two
  shapes (a half-space: unbounded) are apart: one check per element and evaluation.
* **Normal law.** At each sample point with ``p > 0``, penetration rate ``p_dot`` (the
  approach speed of the two bodies' material points at the contact point along ``n``),
  ``fn = max(0, IMPACT)`` with Adams' IMPACT law of the end stops
  (``forces.impact_force``: ``k p^e + STEP(p, 0, 0, d_max, c_max) p_dot``) or
  Hunt and Crossley's (1975) ``k p^e (1 + alpha p_dot)``, ``alpha = 3 (1 - e_r) / (2 v0)``
  (the restitution ``e_r`` of an impact at ``v0``).
* **Friction.** Coulomb's law regularised as Adams' CONTACT: with the sliding speed ``s``
  of the material points at the contact point, ``ft = -mu(s) fn t`` (``t`` the sliding
  direction), ``mu(s) = STEP(s, -v_s, -mu_s, v_s, mu_s)`` below the stiction speed
  ``v_s``, ``STEP(s, v_s, mu_s, v_d, mu_d)`` up to the friction speed ``v_d`` and ``mu_d``
  above it.

The force ``fn n + ft`` acts on the first body at the contact point (midway through the
overlap), its opposite on the second body at the same world point.
"""
import math
from collections import namedtuple

import numpy as np

from .errors import ModelError
from .forces import (JIT, JIT_INLINE, LAW_HOOKS, OUT_PD, OUT_PW, LawHooks, add_wrench,
                     impact_force)
from .jit import njit
from .vec3 import cross, rot, rot_t

__all__ = ["Shape", "sphere", "half_space", "convex", "cylinder", "contact_arrays",
           "apply_contacts", "penetration", "cylinder_distance", "friction_over_speed",
           "CONTACT_LAWS", "SHAPE_KINDS", "NCOUT", "contact_outputs"]

#: a contact's normal laws (``law`` parameter; stored in documents: never rename)
CONTACT_LAWS = ("impact", "hunt_crossley")
LAW_IMPACT, LAW_HC = range(2)

#: columns of ``SystemArrays.cnt_par``
CP_K, CP_E, CP_C, CP_D, CP_LAW, CP_ALPHA, CP_MUS, CP_MUD, CP_VS, CP_VD = range(10)
NCPAR = 10
#: columns of ``Workspace.cnt_out`` (last evaluation): contact point (world, the
#: normal-force-weighted mean of the points in contact), normal force and friction force
#: on the first body (world), elastic potential, largest penetration, points in contact
CO_POINT, CO_NORMAL, CO_FRICTION = 0, 3, 6
CO_POT, CO_PEN, CO_COUNT = 9, 10, 11
NCOUT = 12

#: the narrow phases of the kernel: a sample point against a sphere, against face planes,
#: against a finite cylinder
NP_SPHERE, NP_PLANES, NP_CYLINDER = range(3)
#: the contact shapes' kinds (``Shape.kind``) and the narrow phase each takes as the second
#: shape (``cnt_ptr[:, 4]``); as the first shape every kind is its sample points
SHAPE_KINDS = {"sphere": NP_SPHERE, "half_space": NP_PLANES, "convex": NP_PLANES,
               "cylinder": NP_CYLINDER}

Shape = namedtuple("Shape", ["kind", "points", "planes", "center", "radius"])
Shape.__doc__ = """A contact shape in world coordinates at t0: ``kind`` (``SHAPE_KINDS``:
"sphere", "half_space", "convex" or "cylinder"); sample ``points`` (m, 4: x, y, z,
radius), ``planes``: the face planes (k, 4: unit outward normal, offset d of
``n . x <= d``), for a cylinder two rows (unit axis, radius) and (centre, half length);
the bounding sphere (``center``, ``radius``; infinite for a half-space)."""


def sphere(center, radius):
    """A sphere (world centre [m] and radius [m] at t0)."""
    c = np.asarray(center, dtype=float).reshape(3)
    r = float(radius)
    if not (np.all(np.isfinite(c)) and math.isfinite(r) and r > 0.0):
        raise ModelError("a contact sphere needs a finite centre and a radius > 0, got %r, %r"
                         % (center, radius))
    return Shape("sphere", np.append(c, r).reshape(1, 4), np.zeros((0, 4)), c, r)


def half_space(point, normal):
    """The half-space behind the plane through ``point`` with outward ``normal`` (world)."""
    p = np.asarray(point, dtype=float).reshape(3)
    n = np.asarray(normal, dtype=float).reshape(3)
    ln = float(np.linalg.norm(n))
    if not (np.all(np.isfinite(p)) and math.isfinite(ln) and ln > 0.0):
        raise ModelError("a contact half-space needs a finite point and a non-zero normal, "
                         "got %r, %r" % (point, normal))
    n = n / ln
    return Shape("half_space", np.zeros((0, 4)), np.append(n, n @ p).reshape(1, 4), p,
                 math.inf)


def convex(points, samples=None, tol=1e-9, hull=None):
    """The convex hull of ``points`` (world, (m, 3), m >= 4 not coplanar): its merged face
    planes (as the second shape) and the sample points ``samples`` (default: ``points``;
    as the first shape). ``hull``: SciPy's ``ConvexHull`` of ``points`` when the caller
    has built it."""
    pts = np.asarray(points, dtype=float).reshape(-1, 3)
    if len(pts) < 4 or not np.all(np.isfinite(pts)):
        raise ModelError("a convex contact shape needs at least 4 finite points")
    if hull is None:
        from scipy.spatial import ConvexHull
        try:
            hull = ConvexHull(pts)
        except Exception as exc:  # noqa: BLE001 - qhull's error for flat point sets
            raise ModelError("a convex contact shape needs points spanning a volume (%s)"
                             % str(exc).splitlines()[0]) from None
    eq = hull.equations                   # n . x + offset <= 0 inside
    size = float(np.ptp(pts, axis=0).max())
    planes = []
    for n, off in zip(eq[:, :3], eq[:, 3]):
        row = np.append(n, -off)
        if not any(np.all(np.abs(row - q) <= tol * np.array([1, 1, 1, size])) for q in planes):
            planes.append(row)
    planes = np.array(planes)
    smp = pts if samples is None else np.asarray(samples, dtype=float).reshape(-1, 3)
    verts = pts[hull.vertices]
    c = 0.5 * (verts.min(axis=0) + verts.max(axis=0))
    r = float(np.sqrt(((np.vstack([verts, smp]) - c) ** 2).sum(axis=1)).max())
    return Shape("convex", np.hstack([smp, np.zeros((len(smp), 1))]), planes, c, r)


def cylinder(center, axis, radius, half_length, samples=None, n_rim=64):
    """The finite solid cylinder (a roller) of ``radius`` [m] about the line through its
    world ``center`` along ``axis``, ``half_length`` [m] either side of the centre: exact
    as the second shape; as the first its sample points ``samples`` (world, (m, 3);
    default: ``n_rim`` points on each rim circle)."""
    c = np.asarray(center, dtype=float).reshape(3)
    a = np.asarray(axis, dtype=float).reshape(3)
    la = float(np.linalg.norm(a))
    R, h = float(radius), float(half_length)
    if not (np.all(np.isfinite(c)) and math.isfinite(la) and la > 0.0 and math.isfinite(R)
            and R > 0.0 and math.isfinite(h) and h > 0.0):
        raise ModelError("a contact cylinder needs a finite centre, a non-zero axis, a radius "
                         "> 0 and a half length > 0, got %r, %r, %r, %r"
                         % (center, axis, radius, half_length))
    a = a / la
    if samples is None:
        u = np.cross(a, np.eye(3)[int(np.argmin(np.abs(a)))])
        u /= np.linalg.norm(u)
        v = np.cross(a, u)
        phi = 2.0 * math.pi * np.arange(int(n_rim)) / int(n_rim)
        ring = R * (np.outer(np.cos(phi), u) + np.outer(np.sin(phi), v))
        samples = np.vstack([c + ring + h * a, c + ring - h * a])
    smp = np.asarray(samples, dtype=float).reshape(-1, 3)
    rb = max(math.hypot(R, h), float(np.sqrt(((smp - c) ** 2).sum(axis=1)).max())
             if len(smp) else 0.0)
    return Shape("cylinder", np.hstack([smp, np.zeros((len(smp), 1))]),
                 np.array([np.append(a, R), np.append(c, h)]), c, rb)


@njit(**JIT)
def cylinder_distance(y0, y1, y2, a0, a1, a2, c0, c1, c2, radius, half):
    """(signed distance, unit outward normal) of the point ``y`` to the finite solid
    cylinder of axis ``a`` (unit), centre ``c``, ``radius`` and half length ``half``:
    inside, minus the distance to the nearer of the mantle and the end faces; outside, the
    distance to the mantle, an end face or a rim circle, whichever is nearest."""
    d0 = y0 - c0
    d1 = y1 - c1
    d2 = y2 - c2
    z = d0 * a0 + d1 * a1 + d2 * a2
    q0 = d0 - z * a0
    q1 = d1 - z * a1
    q2 = d2 - z * a2
    rho = math.sqrt(q0 * q0 + q1 * q1 + q2 * q2)
    sz = 1.0 if z >= 0.0 else -1.0
    dr = rho - radius                   # beyond the mantle
    dz = sz * z - half                  # beyond the end face
    if rho > 0.0:
        u0 = q0 / rho
        u1 = q1 / rho
        u2 = q2 / rho
    else:                               # on the axis: the end face is the nearer
        u0 = u1 = u2 = 0.0
        dr = -math.inf if dz < 0.0 else dr
    if dr > 0.0 and dz > 0.0:           # around a rim
        dist = math.sqrt(dr * dr + dz * dz)
        return (dist, (dr * u0 + dz * sz * a0) / dist, (dr * u1 + dz * sz * a1) / dist,
                (dr * u2 + dz * sz * a2) / dist)
    if dr >= dz:
        return dr, u0, u1, u2
    return dz, sz * a0, sz * a1, sz * a2


def penetration(shape_b, x, r=0.0):
    """(penetration, unit normal out of ``shape_b``) of a sphere of radius ``r`` at world
    ``x`` into the second shape ``shape_b`` (numpy; the kernel's narrow phase)."""
    x = np.asarray(x, dtype=float)
    if shape_b.kind == "sphere":
        d = x - shape_b.center
        dist = float(np.linalg.norm(d))
        return r + shape_b.radius - dist, d / dist
    if shape_b.kind == "cylinder":
        (a, R), (c, h) = (shape_b.planes[0, :3], shape_b.planes[0, 3]), \
            (shape_b.planes[1, :3], shape_b.planes[1, 3])
        sd, n0, n1, n2 = cylinder_distance(*x, *a, *c, R, h)
        return r - sd, np.array([n0, n1, n2])
    s = shape_b.planes[:, :3] @ x - shape_b.planes[:, 3]
    i = int(np.argmax(s))
    return r - float(s[i]), shape_b.planes[i, :3].copy()


# --------------------------------------------------------------------------- validation
def check_pair(what, shape1, shape2):
    """The two shapes of a contact element, checked (``ModelError`` naming it)."""
    for k, s in (("shape1", shape1), ("shape2", shape2)):
        if not isinstance(s, Shape):
            raise ModelError("%s: %s must be a contact shape (contact.sphere, .half_space, "
                             ".convex or .cylinder), got %r" % (what, k, type(s).__name__))
        if s.kind not in SHAPE_KINDS:
            raise ModelError("%s: %s: unknown contact shape kind %r (one of %s)"
                             % (what, k, s.kind, ", ".join(SHAPE_KINDS)))
    if shape1.kind == "half_space":
        raise ModelError("%s: a half-space can only be the second shape (give the other "
                         "solid first)" % what)


def check_contact(out, what):
    """Normalise a contact's parameters in ``out`` (in place); ``forces.check_element``."""
    from .forces import check_bounds, real_param
    check_bounds(out, what, (("stiffness", 0.0, True), ("exponent", 1.0, False),
                             ("damping", 0.0, False), ("penetration", 0.0, True),
                             ("impact_speed", 0.0, True), ("mu_static", 0.0, False),
                             ("mu_dynamic", 0.0, False), ("stiction_speed", 0.0, True),
                             ("friction_speed", 0.0, True)))
    if out["law"] not in CONTACT_LAWS:
        raise ModelError("%s: law must be one of %s, got %r"
                         % (what, ", ".join(CONTACT_LAWS), out["law"]))
    e = real_param(out["restitution"], what, "restitution")
    if not 0.0 <= e <= 1.0:
        raise ModelError("%s: restitution must be in [0, 1], got %r" % (what, e))
    out["restitution"] = e
    if out["friction_speed"] <= out["stiction_speed"]:
        raise ModelError("%s: friction_speed (%g) must be above stiction_speed (%g)"
                         % (what, out["friction_speed"], out["stiction_speed"]))


def contact_row(params):
    """The ``cnt_par`` row of a contact's normalised parameters."""
    p = params
    row = np.zeros(NCPAR)
    row[[CP_K, CP_E, CP_C, CP_D]] = (p["stiffness"], p["exponent"], p["damping"],
                                      p["penetration"])
    row[CP_LAW] = CONTACT_LAWS.index(p["law"])
    row[CP_ALPHA] = 1.5 * (1.0 - p["restitution"]) / p["impact_speed"]
    row[[CP_MUS, CP_MUD, CP_VS, CP_VD]] = (p["mu_static"], p["mu_dynamic"],
                                           p["stiction_speed"], p["friction_speed"])
    return row


# --------------------------------------------------------------------------- flat arrays
def _local(body, X):
    """World points ``X`` (m, 3) at t0 -> body frame (ground: world)."""
    X = np.asarray(X, dtype=float).reshape(-1, 3)
    if body.is_ground:
        return X.copy()
    return (X - body.position) @ body.A_principal


def contact_arrays(model):
    """The ``cnt_`` arrays of ``SystemArrays`` for the model's contact elements."""
    elems = [e for e in getattr(model, "force_elements", []) if e.kind == "contact"]
    nb = len(model.bodies)
    nc = len(elems)
    ielem = np.zeros(nc, dtype=np.int64)
    slot = np.full((nc, 2), nb, dtype=np.int64)
    par = np.zeros((nc, NCPAR))
    ptr = np.zeros((nc, 5), dtype=np.int64)
    bnd = np.zeros((nc, 2, 4))
    pts, pln = [], []
    for c, e in enumerate(elems):
        ielem[c] = e.index
        s1, s2 = e.shapes
        for side, body in enumerate((e.body1, e.body2)):
            if not body.is_ground:
                slot[c, side] = body.index
        par[c] = contact_row(e.params)
        n_pts = sum(len(p) for p in pts)
        n_pln = sum(len(p) for p in pln)
        loc = np.hstack([_local(e.body1, s1.points[:, :3]), s1.points[:, 3:]])
        pts.append(loc)
        rows = np.zeros((0, 4))
        if s2.kind == "cylinder":          # (axis, radius), (centre, half length)
            (ax, rad), (cen, half) = (s2.planes[0, :3], s2.planes[0, 3]), \
                (s2.planes[1, :3], s2.planes[1, 3])
            if not e.body2.is_ground:
                ax = ax @ e.body2.A_principal
            rows = np.array([np.append(ax, rad), np.append(_local(e.body2, cen)[0], half)])
        elif s2.kind != "sphere":
            n = s2.planes[:, :3]
            if e.body2.is_ground:
                rows = s2.planes.copy()
            else:
                rows = np.hstack([n @ e.body2.A_principal,
                                  (s2.planes[:, 3] - n @ e.body2.position)[:, None]])
        pln.append(rows)
        ptr[c] = (n_pts, len(loc), n_pln, len(rows), SHAPE_KINDS[s2.kind])
        for side, (body, s) in enumerate(((e.body1, s1), (e.body2, s2))):
            if math.isinf(s.radius):
                bnd[c, side, 3] = math.inf
            else:
                bnd[c, side, :3] = _local(body, s.center)[0]
                bnd[c, side, 3] = s.radius
    cat = (lambda blocks: np.vstack(blocks) if blocks else np.zeros((0, 4)))
    return dict(cnt_elem=ielem, cnt_slot=slot, cnt_par=par, cnt_ptr=ptr,
                cnt_pts=np.ascontiguousarray(cat(pts)), cnt_pln=np.ascontiguousarray(cat(pln)),
                cnt_bnd=bnd)


# --------------------------------------------------------------------------- kernels
@njit(**JIT)
def friction_over_speed(s, mus, mud, vs, vd):
    """``mu(s) / s`` of the regularised Coulomb law at the sliding speed ``s >= 0``
    (its limit ``1.5 mu_s / v_s`` at ``s = 0``)."""
    if s >= vd:
        return mud / s
    if s >= vs:
        a = (s - vs) / (vd - vs)
        return (mus + (mud - mus) * a * a * (3.0 - 2.0 * a)) / s
    if s < 1e-12 * vs:
        return 1.5 * mus / vs
    a = (s + vs) / (2.0 * vs)
    return mus * (2.0 * a * a * (3.0 - 2.0 * a) - 1.0) / s


@njit(**JIT_INLINE)
def apply_contacts(S, W):
    """Add every contact element's forces to ``W.Q`` at the current state; its outputs
    to ``W.cnt_out`` and (largest penetration, power / normal force, normal force, the
    power it dissipates, no actuator power) to its force element's ``W.frc_out`` row (the
    run sums the dissipated power into the energy balance, ``kernels.accumulate_work``)."""
    A = W.A
    for c in range(S.cnt_elem.shape[0]):
        a = S.cnt_slot[c, 0]
        b = S.cnt_slot[c, 1]
        ie = S.cnt_elem[c]
        for k in range(W.cnt_out.shape[1]):
            W.cnt_out[c, k] = 0.0
        W.frc_out[ie, 0] = 0.0
        W.frc_out[ie, 1] = 0.0
        W.frc_out[ie, 2] = 0.0
        W.frc_out[ie, OUT_PD] = 0.0
        W.frc_out[ie, OUT_PW] = 0.0
        # broad phase: the bounding spheres
        ra = S.cnt_bnd[c, 0, 3]
        rb = S.cnt_bnd[c, 1, 3]
        if not (math.isinf(ra) or math.isinf(rb)):
            ca0, ca1, ca2 = rot(A, a, S.cnt_bnd[c, 0, 0], S.cnt_bnd[c, 0, 1],
                                S.cnt_bnd[c, 0, 2])
            cb0, cb1, cb2 = rot(A, b, S.cnt_bnd[c, 1, 0], S.cnt_bnd[c, 1, 1],
                                S.cnt_bnd[c, 1, 2])
            g0 = W.r[a, 0] + ca0 - W.r[b, 0] - cb0
            g1 = W.r[a, 1] + ca1 - W.r[b, 1] - cb1
            g2 = W.r[a, 2] + ca2 - W.r[b, 2] - cb2
            if g0 * g0 + g1 * g1 + g2 * g2 > (ra + rb) * (ra + rb):
                continue
        k = S.cnt_par[c, CP_K]
        ex = S.cnt_par[c, CP_E]
        law = S.cnt_par[c, CP_LAW]
        mus = S.cnt_par[c, CP_MUS]
        mud = S.cnt_par[c, CP_MUD]
        p0 = S.cnt_ptr[c, 0]
        l0 = S.cnt_ptr[c, 2]
        nl = S.cnt_ptr[c, 3]
        kind = S.cnt_ptr[c, 4]
        power = 0.0
        pot = 0.0
        pot_rate = 0.0
        fsum = 0.0
        for q in range(p0, p0 + S.cnt_ptr[c, 1]):
            rp = S.cnt_pts[q, 3]
            u0, u1, u2 = rot(A, a, S.cnt_pts[q, 0], S.cnt_pts[q, 1], S.cnt_pts[q, 2])
            x0 = W.r[a, 0] + u0
            x1 = W.r[a, 1] + u1
            x2 = W.r[a, 2] + u2
            y0, y1, y2 = rot_t(A, b, x0 - W.r[b, 0], x1 - W.r[b, 1], x2 - W.r[b, 2])
            if kind == NP_SPHERE:
                h0 = y0 - S.cnt_bnd[c, 1, 0]
                h1 = y1 - S.cnt_bnd[c, 1, 1]
                h2 = y2 - S.cnt_bnd[c, 1, 2]
                dist = math.sqrt(h0 * h0 + h1 * h1 + h2 * h2)
                pen = rp + rb - dist
                if pen <= 0.0 or dist == 0.0:
                    continue
                m0 = h0 / dist
                m1 = h1 / dist
                m2 = h2 / dist
            elif kind == NP_CYLINDER:
                sd, m0, m1, m2 = cylinder_distance(
                    y0, y1, y2, S.cnt_pln[l0, 0], S.cnt_pln[l0, 1], S.cnt_pln[l0, 2],
                    S.cnt_pln[l0 + 1, 0], S.cnt_pln[l0 + 1, 1], S.cnt_pln[l0 + 1, 2],
                    S.cnt_pln[l0, 3], S.cnt_pln[l0 + 1, 3])
                pen = rp - sd
                if pen <= 0.0:
                    continue
            else:               # a convex polytope: the face of the largest n . y - d
                best = -math.inf
                jb = l0
                for j in range(l0, l0 + nl):
                    s = (S.cnt_pln[j, 0] * y0 + S.cnt_pln[j, 1] * y1 + S.cnt_pln[j, 2] * y2
                         - S.cnt_pln[j, 3])
                    if s > best:
                        best = s
                        jb = j
                pen = rp - best
                if pen <= 0.0:
                    continue
                m0 = S.cnt_pln[jb, 0]
                m1 = S.cnt_pln[jb, 1]
                m2 = S.cnt_pln[jb, 2]
            n0, n1, n2 = rot(A, b, m0, m1, m2)
            # the contact point, midway through the overlap
            back = rp - 0.5 * pen
            p0w = x0 - back * n0
            p1w = x1 - back * n1
            p2w = x2 - back * n2
            sa0 = p0w - W.r[a, 0]
            sa1 = p1w - W.r[a, 1]
            sa2 = p2w - W.r[a, 2]
            sb0 = p0w - W.r[b, 0]
            sb1 = p1w - W.r[b, 1]
            sb2 = p2w - W.r[b, 2]
            va0, va1, va2 = cross(W.omega_w[a, 0], W.omega_w[a, 1], W.omega_w[a, 2],
                                  sa0, sa1, sa2)
            vb0, vb1, vb2 = cross(W.omega_w[b, 0], W.omega_w[b, 1], W.omega_w[b, 2],
                                  sb0, sb1, sb2)
            w0 = W.vel[a, 0] + va0 - W.vel[b, 0] - vb0
            w1 = W.vel[a, 1] + va1 - W.vel[b, 1] - vb1
            w2 = W.vel[a, 2] + va2 - W.vel[b, 2] - vb2
            vn = w0 * n0 + w1 * n1 + w2 * n2
            rate = -vn          # penetration rate
            elastic = k * pen ** ex
            if law == LAW_HC:
                fn = elastic * (1.0 + S.cnt_par[c, CP_ALPHA] * rate)
            else:
                fn = impact_force(pen, rate, k, ex, S.cnt_par[c, CP_C], S.cnt_par[c, CP_D])
            if fn <= 0.0:
                fn = 0.0
            f0 = fn * n0
            f1 = fn * n1
            f2 = fn * n2
            t0 = 0.0
            t1 = 0.0
            t2 = 0.0
            if fn > 0.0 and (mus > 0.0 or mud > 0.0):
                t0 = w0 - vn * n0
                t1 = w1 - vn * n1
                t2 = w2 - vn * n2
                g = -fn * friction_over_speed(math.sqrt(t0 * t0 + t1 * t1 + t2 * t2), mus,
                                              mud, S.cnt_par[c, CP_VS], S.cnt_par[c, CP_VD])
                t0 *= g
                t1 *= g
                t2 *= g
            add_wrench(S, W, a, f0 + t0, f1 + t1, f2 + t2, sa0, sa1, sa2, 0.0, 0.0, 0.0)
            add_wrench(S, W, b, -f0 - t0, -f1 - t1, -f2 - t2, sb0, sb1, sb2, 0.0, 0.0, 0.0)
            power += (f0 + t0) * w0 + (f1 + t1) * w1 + (f2 + t2) * w2
            pot += elastic * pen / (ex + 1.0)
            pot_rate += elastic * rate
            fsum += fn
            W.cnt_out[c, CO_POINT] += fn * p0w
            W.cnt_out[c, CO_POINT + 1] += fn * p1w
            W.cnt_out[c, CO_POINT + 2] += fn * p2w
            W.cnt_out[c, CO_NORMAL] += f0
            W.cnt_out[c, CO_NORMAL + 1] += f1
            W.cnt_out[c, CO_NORMAL + 2] += f2
            W.cnt_out[c, CO_FRICTION] += t0
            W.cnt_out[c, CO_FRICTION + 1] += t1
            W.cnt_out[c, CO_FRICTION + 2] += t2
            W.cnt_out[c, CO_COUNT] += 1.0
            if pen > W.cnt_out[c, CO_PEN]:
                W.cnt_out[c, CO_PEN] = pen
        if fsum > 0.0:
            for j in range(3):
                W.cnt_out[c, CO_POINT + j] /= fsum
            W.frc_out[ie, 1] = power / fsum
        W.cnt_out[c, CO_POT] = pot
        W.frc_out[ie, 0] = W.cnt_out[c, CO_PEN]
        W.frc_out[ie, 2] = fsum
        # what the bodies lose beyond the potential the contact stores: -P - dV/dt
        W.frc_out[ie, OUT_PD] = -power - pot_rate


def contact_outputs(out):
    """``Result.contact``'s dict from a contact's ``cnt_out`` samples ``out`` (n, NCOUT)."""
    return {"point": out[:, CO_POINT:CO_POINT + 3].copy(),
            "normal_force": out[:, CO_NORMAL:CO_NORMAL + 3].copy(),
            "friction_force": out[:, CO_FRICTION:CO_FRICTION + 3].copy(),
            "penetration": out[:, CO_PEN].copy(), "points": out[:, CO_COUNT].copy(),
            "potential": out[:, CO_POT].copy()}


#: the force elements' check and fingerprint of this law (``forces.LAW_HOOKS``)
LAW_HOOKS["contact"] = LawHooks(check_contact, contact_row)
