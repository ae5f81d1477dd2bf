"""Symbolic analysis of the Schur complement ``C = Phi_q M^-1 Phi_q^T + eps I``.

``C`` is block-sparse with one block row/column per joint: block ``(k, l)`` is
non-zero only when joints ``k`` and ``l`` share a moving body (``M^-1`` is block
diagonal per body). The pattern depends on the topology only, so it is analysed
once per model:

1. an elimination order of the joints by minimum degree (a chain or a tree gets
   no fill at all; a closed loop gets one fill block per joint of the loop);
2. the block pattern of the Cholesky factor ``L`` (with fill);
3. flat index lists the jitted kernels walk: the couplings that assemble ``C``,
   the block updates of the left-looking block Cholesky, and the block rows and
   columns used by the forward and backward solves.

Everything here is plain Python/NumPy and runs at set-up time.
"""
from collections import namedtuple
from itertools import accumulate

import numpy as np

__all__ = ["SchurPattern", "minimum_degree_order", "analyse"]

SchurPattern = namedtuple("SchurPattern", [
    "order",       # order[s] = original joint index eliminated s-th
    "blk_row",     # blk_row[b], blk_col[b]: block position (new numbering)
    "blk_col",
    "col_ptr",     # off-diagonal blocks of block column k: col_ids[col_ptr[k]:col_ptr[k+1]]
    "col_ids",
    "row_ptr",     # off-diagonal blocks of block row k: row_ids[row_ptr[k]:row_ptr[k+1]]
    "row_ids",
    "upd_ptr",     # L_b -= sum L_a L_c^T over (upd_a, upd_c)[upd_ptr[b]:upd_ptr[b+1]]
    "upd_a",
    "upd_c",
    "cpl_blk",     # couplings: C[blk] += J[k, side_k] M_body^-1 J[l, side_l]^T
    "cpl_k",
    "cpl_l",
    "cpl_sk",
    "cpl_sl",
    "cpl_body",
    "cpl_first",   # 1 for the first coupling of its block (assigns instead of adding)
    "fill_ids",    # blocks of L without any coupling (fill-in): zeroed before assembly
])


def _joint_graph(jnt_body, nbody):
    """Adjacency sets of joints that share a moving body."""
    nj = len(jnt_body)
    by_body = [[] for _ in range(nbody)]
    for k in range(nj):
        for side in (0, 1):
            b = jnt_body[k][side]
            if b >= 0:
                by_body[b].append(k)
    adj = [set() for _ in range(nj)]
    for js in by_body:
        for a in js:
            for c in js:
                if a != c:
                    adj[a].add(c)
    return adj, by_body


def minimum_degree_order(adj):
    """Greedy minimum-degree elimination order of a graph.

    Ties go to a node that does not touch the previously eliminated one (then
    the lowest index): consecutive eliminations are then independent of each
    other, so the processor overlaps their latency-bound small factorisations.
    On a chain this eliminates from both ends alternately (a "twisted"
    factorisation) with no fill either way.

    Returns ``order`` and the adjacency of the filled graph restricted to later
    nodes, i.e. the column pattern of the Cholesky factor.
    """
    n = len(adj)
    work = [set(a) for a in adj]
    alive = set(range(n))
    order = []
    later = [None] * n
    last_nbrs = set()
    while alive:
        k = min(alive, key=lambda v: (len(work[v]), v in last_nbrs, v))
        nbrs = work[k]
        later[k] = set(nbrs)
        for a in nbrs:
            work[a].discard(k)
            work[a].update(nbrs - {a})
        alive.remove(k)
        order.append(k)
        last_nbrs = set(nbrs)
        work[k] = set()
    return order, later


def analyse(jnt_body, nbody):
    """Analyse the block pattern of the joints ``jnt_body[k] = (body_i, body_j)``.

    Body index -1 is ground (it contributes nothing to ``C``).
    """
    nj = len(jnt_body)
    adj, by_body = _joint_graph(jnt_body, nbody)
    order, later = minimum_degree_order(adj)
    pos = np.empty(nj, dtype=np.int64)
    pos[order] = np.arange(nj)

    # Block ids: diagonal blocks first (id == new index), then off-diagonal by column.
    blk_row = list(range(nj))
    blk_col = list(range(nj))
    ids = {}
    col_lists = [[] for _ in range(nj)]
    for k_new in range(nj):
        k_old = order[k_new]
        rows = sorted(int(pos[i]) for i in later[k_old])
        for i_new in rows:
            b = len(blk_row)
            ids[(i_new, k_new)] = b
            blk_row.append(i_new)
            blk_col.append(k_new)
            col_lists[k_new].append(b)
    for k in range(nj):
        ids[(k, k)] = k
    row_lists = [[] for _ in range(nj)]
    for b in range(nj, len(blk_row)):
        row_lists[blk_row[b]].append(b)

    # Left-looking Cholesky updates: L_ik -= sum_j L_ij L_kj^T, j < k, both present.
    upd = [[] for _ in range(len(blk_row))]
    for j in range(nj):
        members = [(blk_row[b], b) for b in col_lists[j]]
        for (i, bi) in members:
            for (k, bk) in members:
                if i >= k:
                    upd[ids[(i, k)]].append((bi, bk))

    # Couplings of C: pairs of (joint, side) that touch the same moving body.
    cpl = []
    for b, js in enumerate(by_body):
        ends = []
        for k_old in js:
            for side in (0, 1):
                if jnt_body[k_old][side] == b:
                    ends.append((int(pos[k_old]), side))
        for (k, sk) in ends:
            for (l, sl) in ends:
                if k > l or (k == l and sk == sl):
                    cpl.append((ids[(k, l)], k, l, sk, sl, b))
    cpl.sort()

    # (plain Python below: these lists are short, and NumPy's per-call overhead
    # dominated the set-up of small models)
    def flat(lists):
        ptr = np.array([0] + list(accumulate(len(x) for x in lists)), dtype=np.int64)
        vals = np.array([v for x in lists for v in x], dtype=np.int64)
        return ptr, vals

    col_ptr, col_ids = flat(col_lists)
    row_ptr, row_ids = flat(row_lists)
    upd_ptr = np.array([0] + list(accumulate(len(u) for u in upd)), dtype=np.int64)
    upd_a = np.array([a for u in upd for (a, _) in u], dtype=np.int64)
    upd_c = np.array([c for u in upd for (_, c) in u], dtype=np.int64)
    cpl = np.array(cpl, dtype=np.int64).reshape(-1, 6)
    first = np.ones(len(cpl), dtype=np.int64)
    first[1:] = cpl[1:, 0] != cpl[:-1, 0]
    coupled = set(cpl[:, 0].tolist())
    fill = np.array([b for b in range(len(blk_row)) if b not in coupled], dtype=np.int64)
    return SchurPattern(
        order=np.array(order, dtype=np.int64),
        blk_row=np.array(blk_row, dtype=np.int64),
        blk_col=np.array(blk_col, dtype=np.int64),
        col_ptr=col_ptr, col_ids=col_ids, row_ptr=row_ptr, row_ids=row_ids,
        upd_ptr=upd_ptr, upd_a=upd_a, upd_c=upd_c,
        cpl_blk=cpl[:, 0].copy(), cpl_k=cpl[:, 1].copy(), cpl_l=cpl[:, 2].copy(),
        cpl_sk=cpl[:, 3].copy(), cpl_sl=cpl[:, 4].copy(), cpl_body=cpl[:, 5].copy(),
        cpl_first=first, fill_ids=fill,
    )
