"""The generated unrolled block kernels: up to date with their generator, and
equal to the textbook dense operations for every block size."""
import os
import subprocess
import sys

import numpy as np
import pytest

from SimPhantWorkbench.solver import blocks
from SimPhantWorkbench.solver.kernels import BLOCK_SIZES

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_generated_file_is_up_to_date():
    gen = os.path.join(ROOT, "tools", "gen_block_kernels.py")
    assert subprocess.run([sys.executable, gen, "--check"]).returncode == 0, \
        "blocks.py differs from what tools/gen_block_kernels.py writes: run it"


@pytest.mark.parametrize("B", BLOCK_SIZES)
def test_block_kernels_match_dense_algebra(B):
    rng = np.random.default_rng(B)
    blk = rng.normal(size=(4, B, B))
    G = rng.normal(size=(B, B))
    blk[0] = G @ G.T + B * np.eye(B)          # SPD diagonal block
    ref = blk.copy()

    blocks.syrk(B, blk, 0, 1)                  # blk0 -= blk1 blk1^T (lower)
    D = ref[0] - ref[1] @ ref[1].T
    np.testing.assert_allclose(np.tril(blk[0]), np.tril(D), atol=1e-12)
    blk[0] = np.tril(blk[0]) + np.tril(blk[0], -1).T + 10 * B * np.eye(B)   # SPD again
    D = blk[0].copy()

    dinv = np.zeros(2 * B)
    eps = np.full(2 * B, 1e-9)
    assert blocks.chol(B, blk, 0, dinv, eps, B) == 0
    Lc = np.linalg.cholesky(D)
    np.testing.assert_allclose(np.tril(blk[0]), Lc, atol=1e-12)
    np.testing.assert_allclose(dinv[B:], 1 / np.diag(Lc), atol=1e-12)

    M = blk[2].copy()
    blocks.gemm(B, blk, 2, 1, 3)               # blk2 -= blk1 blk3^T
    np.testing.assert_allclose(blk[2], M - ref[1] @ ref[3].T, atol=1e-12)
    M = blk[2].copy()
    blocks.trsm(B, blk, 2, 0, dinv, B)         # blk2 <- blk2 L^-T
    np.testing.assert_allclose(blk[2] @ Lc.T, M, atol=1e-10)

    x = rng.normal(size=3 * B)
    y = x.copy()
    blocks.fwd_off(B, blk, 2, y, 0, B)
    np.testing.assert_allclose(y[:B], x[:B] - blk[2] @ x[B:2 * B], atol=1e-12)
    y = x.copy()
    blocks.bwd_off(B, blk, 2, y, 0, B)
    np.testing.assert_allclose(y[:B], x[:B] - blk[2].T @ x[B:2 * B], atol=1e-12)
    y = x.copy()
    blocks.fwd_diag(B, blk, 0, dinv, y, B)
    np.testing.assert_allclose(Lc @ y[B:2 * B], x[B:2 * B], atol=1e-10)
    y = x.copy()
    blocks.bwd_diag(B, blk, 0, dinv, y, B)
    np.testing.assert_allclose(Lc.T @ y[B:2 * B], x[B:2 * B], atol=1e-10)


def test_chol_lifts_non_positive_pivots():
    B = 3
    blk = np.zeros((1, B, B))
    blk[0] = np.diag([1.0, 0.0, 4.0])
    dinv = np.zeros(B)
    assert blocks.chol(B, blk, 0, dinv, np.full(B, 1e-6), 0) == 1
    assert blk[0, 1, 1] == pytest.approx(1e-3)


@pytest.mark.parametrize("B", BLOCK_SIZES)
def test_couple_adds_the_rotational_part_of_a_coupling(B):
    """blk[b] (=|+=) P diag(w) Q^T of the rotational columns (3..5) of two joints' rows
    on the sides that share the body; the lower triangle only on a diagonal block."""
    rng = np.random.default_rng(10 + B)
    J = rng.normal(size=(3 * B, 2, 6))
    w = rng.uniform(0.5, 2.0, size=3)
    P = J[B:2 * B, 1, 3:]          # rows of the joint at B.., side 1
    Q = J[2 * B:, 0, 3:]           # rows of the joint at 2B.., side 0
    blk = rng.normal(size=(2, B, B))
    before = blk.copy()
    blocks.couple(B, blk, 1, J, B, 1, 2 * B, 0, w[0], w[1], w[2], True, False)
    np.testing.assert_allclose(blk[1], P @ np.diag(w) @ Q.T, atol=1e-12)
    blocks.couple(B, blk, 1, J, B, 1, 2 * B, 0, w[0], w[1], w[2], False, False)
    np.testing.assert_allclose(blk[1], 2 * P @ np.diag(w) @ Q.T, atol=1e-12)
    blocks.couple(B, blk, 0, J, B, 1, B, 1, w[0], w[1], w[2], False, True)
    D = before[0] + P @ np.diag(w) @ P.T
    np.testing.assert_allclose(np.tril(blk[0]), np.tril(D), atol=1e-12)
    np.testing.assert_array_equal(np.triu(blk[0], 1), np.triu(before[0], 1))
    blocks.couple(B, blk, 0, J, B, 1, B, 1, w[0], w[1], w[2], True, True)
    np.testing.assert_allclose(np.tril(blk[0]), np.tril(P @ np.diag(w) @ P.T), atol=1e-12)


KERNEL_NAMES = ("syrk", "gemm", "chol", "couple", "trsm", "fwd_off", "bwd_off", "fwd_diag",
                "bwd_diag")


@pytest.mark.parametrize("name", KERNEL_NAMES)
@pytest.mark.parametrize("B", BLOCK_SIZES)
def test_the_typed_dispatch_picks_the_kernel_of_the_tuples_length(name, B):
    """``<kernel>_for(bsize, ...)``: in jitted code numba chooses the kernel from the
    length of the tuple type (only that size is compiled into the caller); in Python
    the same choice from ``len(bsize)``."""
    typer = getattr(blocks, "_%s_typed" % name)

    class TupleType:            # what numba passes for S.bsize: a tuple type with .count
        count = B
    impl = typer(TupleType(), *([None] * (typer.__code__.co_argcount - 1)))
    assert [c.cell_contents for c in impl.__closure__] == [getattr(blocks, "%s_%d" % (name, B))]
    plain = getattr(blocks, "%s_for" % name)
    assert plain.__code__.co_varnames[0] == "bsize"
