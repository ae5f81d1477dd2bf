"""Loads on a finite-element mesh, from rigid-body load resultants (no FreeCAD here).

Coordinates are the mesh's (mm), forces N, accelerations mm/s^2, densities t/mm^3:
the consistent units of FreeCAD FEM's CalculiX input.

* ``volume_integrals``: volume, centroid and the consistent nodal loads of a body
  force that is linear in position, ``b(x) = b0 + B (x - x0)`` per unit mass, on
  tetrahedra (4 or 10 nodes) with the 4-point Gauss rule CalculiX integrates
  ``C3D10`` elements with (exact for the force and moment resultants of straight
  tetrahedra), so the nodal loads and CalculiX's own GRAV and CENTRIF loads add up
  to what the mesh holds.
* ``surface_weights`` / ``line_weights``: each node's share ``int N_i dA`` of a
  surface (6- or 3-node triangles) or a line (3- or 2-node segments): what a
  uniform traction puts on the nodes.
* ``distribute``: a force and a moment spread over nodes with these weights as a
  distributing coupling does (Nastran RBE3, CalculiX ``*DISTRIBUTING``): the force
  in proportion to the weights, the moment as ``w_i theta x (x_i - c)`` about the
  weighted centre ``c``; the nodal forces reproduce both exactly.
* ``support_321``: six single-node constraints (three at one node, two at a
  second, one at a third) that hold a solid statically determinately, chosen far
  apart and well conditioned: they carry no load when the loads are in equilibrium.
"""
import numpy as np

__all__ = ["volume_integrals", "surface_weights", "line_weights", "distribute",
           "support_321", "resultant", "rigid_rows"]

# 4-point rule on the unit tetrahedron (volume 1/6), barycentric coordinates
_A, _B = 0.5854101966249685, 0.1381966011250105
_TET_POINTS = np.array([[_A, _B, _B, _B], [_B, _A, _B, _B], [_B, _B, _A, _B],
                        [_B, _B, _B, _A]])
_TET_WEIGHT = 1.0 / 24.0
# 3-point rule on the unit triangle (area 1/2), degree 2, barycentric
_TRI_POINTS = np.array([[2 / 3, 1 / 6, 1 / 6], [1 / 6, 2 / 3, 1 / 6], [1 / 6, 1 / 6, 2 / 3]])
_TRI_WEIGHT = 1.0 / 6.0
# 3-point Gauss rule on [0, 1]
_SEG_POINTS = np.array([0.5 - 0.5 * np.sqrt(0.6), 0.5, 0.5 + 0.5 * np.sqrt(0.6)])
_SEG_WEIGHTS = np.array([5.0, 8.0, 5.0]) / 18.0

# mid-side nodes of a 10-node tetrahedron (CalculiX/FreeCAD order): corners 0-3,
# then 4 = 0-1, 5 = 1-2, 6 = 0-2 (2-0), 7 = 0-3, 8 = 1-3, 9 = 2-3
_TET10_EDGES = ((0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3))
# 6-node triangle: corners 0-2, then 3 = 0-1, 4 = 1-2, 5 = 2-0
_TRI6_EDGES = ((0, 1), (1, 2), (0, 2))


def _quadratic_shape(L, edges):
    """Shape functions and their derivatives with respect to the barycentric
    coordinates ``L`` (k corners) of a quadratic simplex with mid-side ``edges``."""
    k = len(L)
    N = [Li * (2.0 * Li - 1.0) for Li in L] + [4.0 * L[i] * L[j] for i, j in edges]
    dN = np.zeros((k + len(edges), k))
    for i in range(k):
        dN[i, i] = 4.0 * L[i] - 1.0
    for m, (i, j) in enumerate(edges):
        dN[k + m, i] = 4.0 * L[j]
        dN[k + m, j] = 4.0 * L[i]
    return np.array(N), dN


def _shape(L, nnodes, edges):
    if nnodes == len(L):
        return np.asarray(L, dtype=float), np.eye(len(L))
    if nnodes == len(L) + len(edges):
        return _quadratic_shape(L, edges)
    raise ValueError("%d nodes: expected %d or %d" % (nnodes, len(L), len(L) + len(edges)))


def _tet_point(X, L):
    """(N (n,), x (3,), det J) of a tetrahedron with nodes ``X`` (n, 3) at ``L``."""
    N, dNdL = _shape(L, len(X), _TET10_EDGES)
    dNdxi = dNdL[:, 1:] - dNdL[:, :1]          # xi_k = L_k, L_0 = 1 - sum
    J = X.T @ dNdxi
    return N, N @ X, abs(float(np.linalg.det(J)))   # SMESH and CalculiX orient apart


def volume_integrals(nodes, elements, b0=None, B=None, x0=None):
    """Volume, centroid and consistent nodal loads of a linear body force.

    Parameters
    ----------
    nodes : dict {node id: (3,) coordinates} (mm)
    elements : list of node-id tuples, 4 or 10 nodes (FreeCAD's/CalculiX's order)
    b0 : (3,), B : (3, 3), x0 : (3,)
        The body force per unit volume, ``b(x) = b0 + B (x - x0)``
        (N/mm^3 with mm); ``None`` for none.

    Returns
    -------
    volume : float (mm^3), centroid : (3,), loads : {node id: (3,) force}
    """
    vol = 0.0
    first = np.zeros(3)
    loads = {}
    b0 = np.zeros(3) if b0 is None else np.asarray(b0, dtype=float)
    B = np.zeros((3, 3)) if B is None else np.asarray(B, dtype=float)
    x0 = np.zeros(3) if x0 is None else np.asarray(x0, dtype=float)
    want = bool(np.any(b0) or np.any(B))
    for el in elements:
        X = np.array([nodes[n] for n in el], dtype=float)
        f = np.zeros((len(el), 3))
        for L in _TET_POINTS:
            N, x, det = _tet_point(X, L)
            w = _TET_WEIGHT * det
            vol += w
            first += w * x
            if want:
                f += np.outer(N * w, b0 + B @ (x - x0))
        if want:
            for n, fi in zip(el, f):
                loads[n] = loads.get(n, 0.0) + fi
    if vol <= 0.0:
        raise ValueError("the mesh has no volume (%g)" % vol)
    return vol, first / vol, loads


def surface_weights(nodes, faces):
    """``{node id: int N_i dA}`` over surface triangles (3 or 6 node ids each)."""
    w = {}
    for face in faces:
        X = np.array([nodes[n] for n in face], dtype=float)
        for L in _TRI_POINTS:
            N, dNdL = _shape(L, len(face), _TRI6_EDGES)
            dNdxi = dNdL[:, 1:] - dNdL[:, :1]
            t = X.T @ dNdxi
            da = np.linalg.norm(np.cross(t[:, 0], t[:, 1])) * _TRI_WEIGHT
            for n, Ni in zip(face, N):
                w[n] = w.get(n, 0.0) + Ni * da
    return w


def line_weights(nodes, segments):
    """``{node id: int N_i ds}`` over line segments (2 or 3 node ids: ends, then middle)."""
    w = {}
    for seg in segments:
        X = np.array([nodes[n] for n in seg], dtype=float)
        for s, ws in zip(_SEG_POINTS, _SEG_WEIGHTS):
            if len(seg) == 2:
                N, dN = np.array([1 - s, s]), np.array([-1.0, 1.0])
            else:
                N = np.array([(1 - s) * (1 - 2 * s), s * (2 * s - 1), 4 * s * (1 - s)])
                dN = np.array([4 * s - 3, 4 * s - 1, 4 - 8 * s])
            ds = np.linalg.norm(X.T @ dN) * ws
            for n, Ni in zip(seg, N):
                w[n] = w.get(n, 0.0) + Ni * ds
    return w


def distribute(force, moment, point, coords, weights, what="the load"):
    """Nodal forces ``{node id: (3,)}`` whose resultant is ``force`` and whose moment
    about ``point`` is ``moment``.

    ``coords`` {node id: (3,)}, ``weights`` {node id: w >= 0} (e.g. ``surface_weights``).
    A moment about an axis the nodes cannot resist (all on one line, or one node)
    raises ``ValueError``.
    """
    ids = [n for n, wi in weights.items() if wi > 0.0]
    if not ids:
        raise ValueError("%s: the element has no mesh nodes" % what)
    w = np.array([weights[n] for n in ids])
    X = np.array([coords[n] for n in ids], dtype=float)
    W = w.sum()
    c = (w[:, None] * X).sum(axis=0) / W
    F = np.asarray(force, dtype=float)
    M = np.asarray(moment, dtype=float) + np.cross(np.asarray(point, dtype=float) - c, F)
    d = X - c
    K = np.einsum("i,ij,ik->jk", w, d, d)
    K = np.trace(K) * np.eye(3) - K                  # sum w (|d|^2 I - d d^T)
    theta = np.linalg.lstsq(K, M, rcond=1e-12)[0]
    f = np.outer(w / W, F) + w[:, None] * np.cross(theta, d)
    got = np.cross(d, f).sum(axis=0)
    scale = max(np.linalg.norm(M), np.linalg.norm(F) * np.sqrt(np.trace(K) / W), 1e-300)
    if np.linalg.norm(got - M) > 1e-6 * scale:
        raise ValueError("%s: a moment of %s about the element cannot be carried by its "
                         "nodes (they lie on one line or are one node)"
                         % (what, np.array2string(M - got, precision=4)))
    return dict(zip(ids, f))


def rigid_rows(x, dof):
    """The row of a constraint on ``dof`` (0, 1, 2) at ``x`` against the six rigid
    motions (translations, then rotations about the origin)."""
    e = np.zeros(3)
    e[dof] = 1.0
    return np.concatenate([e, np.cross(np.asarray(x, dtype=float), e)])


def support_321(coords):
    """``[(node id, dof), ...]``: six constraints (dofs 0, 1, 2 = x, y, z) holding the
    nodes ``coords`` {id: (3,)} as a rigid body exactly once (3 at the node farthest
    from the centre, 2 at the node farthest from it, 1 at the node farthest from the
    line through both), the best-conditioned choice of directions."""
    ids = list(coords)
    X = np.array([coords[n] for n in ids], dtype=float)
    c = X.mean(axis=0)
    size = np.ptp(X, axis=0).max()
    i1 = int(np.argmax(np.linalg.norm(X - c, axis=1)))
    i2 = int(np.argmax(np.linalg.norm(X - X[i1], axis=1)))
    u = (X[i2] - X[i1]) / np.linalg.norm(X[i2] - X[i1])
    d = X - X[i1]
    i3 = int(np.argmax(np.linalg.norm(d - np.outer(d @ u, u), axis=1)))
    rows = [(ids[i1], k) for k in range(3)]
    for node, count in ((i2, 2), (i3, 1)):
        for _ in range(count):
            best = None
            for k in range(3):
                cand = rows + [(ids[node], k)]
                A = np.array([rigid_rows((coords[n] - c) / size, dof) for n, dof in cand])
                s = np.linalg.svd(A, compute_uv=False)
                score = s[-1]
                if (ids[node], k) not in rows and (best is None or score > best[0]):
                    best = (score, k)
            rows.append((ids[node], best[1]))
    A = np.array([rigid_rows((coords[n] - c) / size, dof) for n, dof in rows])
    if np.linalg.svd(A, compute_uv=False)[-1] < 1e-6:
        raise ValueError("the mesh nodes lie on one line: no 3-2-1 support")
    return rows


def resultant(loads, coords, about):
    """(force, moment about ``about``) of nodal forces ``{node id: (3,)}``."""
    F = np.zeros(3)
    M = np.zeros(3)
    p = np.asarray(about, dtype=float)
    for n, f in loads.items():
        F += f
        M += np.cross(np.asarray(coords[n], dtype=float) - p, f)
    return F, M
