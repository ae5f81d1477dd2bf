"""Small 3-vector algebra the jitted kernels inline (``kernels``, ``forces``).

Vectors travel as three scalars, rotations as ``A[b]`` of the workspace's (nb + 1, 3, 3)
principal-frame-to-world matrices: no temporary arrays inside the loops.
"""
from .jit import njit

__all__ = ["cross", "rot", "rot_t", "frame_axis"]


@njit(inline="always")
def cross(a0, a1, a2, b0, b1, b2):
    return a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0


@njit(inline="always")
def rot(A, b, v0, v1, v2):
    """A[b] @ v (body frame -> world)."""
    return (A[b, 0, 0] * v0 + A[b, 0, 1] * v1 + A[b, 0, 2] * v2,
            A[b, 1, 0] * v0 + A[b, 1, 1] * v1 + A[b, 1, 2] * v2,
            A[b, 2, 0] * v0 + A[b, 2, 1] * v1 + A[b, 2, 2] * v2)


@njit(inline="always")
def rot_t(A, b, v0, v1, v2):
    """A[b]^T @ v (world -> body frame)."""
    return (A[b, 0, 0] * v0 + A[b, 1, 0] * v1 + A[b, 2, 0] * v2,
            A[b, 0, 1] * v0 + A[b, 1, 1] * v1 + A[b, 2, 1] * v2,
            A[b, 0, 2] * v0 + A[b, 1, 2] * v1 + A[b, 2, 2] * v2)


@njit(inline="always")
def frame_axis(A, b, F, k, side, col):
    """World direction of axis ``col`` of joint ``k``'s frame on ``side`` (body ``b``;
    ``F = S.jnt_frame``, body-frame axes)."""
    return rot(A, b, F[k, side, 0, col], F[k, side, 1, col], F[k, side, 2, col])
