"""Joint reactions where the joints hold a load redundantly (docs/theory.md, "Reactions of
redundant joints"): the rule that makes the reported multipliers unique, and the reaction
components it leaves indeterminate.

When the constraint rows are dependent (a planar loop of spatial joints, the Bricard
mechanism, a parallelogram linkage) the generalised constraint force ``f = Q - M q_ddot``
of a sample is unique but the multipliers ``lambda`` with ``Phi_q^T lambda = f`` are not:
any self-stress ``s`` (``Phi_q^T s = 0``) can be added. The dynamics need only ``f``;
the reported reactions, driver efforts and multipliers are, at every output sample, the
``lambda`` of least weighted norm ``sum_r w_r lambda_r^2``, ``w_r = 1`` for a row whose
residual is a length (its multiplier a force [N]) and ``1 / L^2`` for a row of angle (a
torque [N m]; ``L`` the system's length scale). It is continuous along the motion, also
through singular configurations, and does not depend on which rows the solver treats
as redundant. The components of a joint's reaction that a self-stress changes are
indeterminate: the model does not determine them, the rule picks their value;
``Result.reaction_indeterminate`` flags them.

The solve reuses the block-sparse Schur kernels on the system's arrays with geometric
weights in place of the masses (``reaction_work``, ``kernels.min_norm_multipliers``,
``kernels.reaction_flags``); only models whose joint graph has a loop pay for it (in a
tree the multipliers are unique).
"""
import numpy as np

from . import kernels
from .joints import PRIM_PAD, ROTATION_PRIMS

__all__ = ["REACTION_REGULARIZATION", "COMPONENTS", "FRAMES", "uses_rule", "reaction_work",
           "indeterminate_components", "component_labels"]

#: singular value of the weighted Jacobian (rows of norm about 1, the largest singular
#: value about 2-3) below which a direction counts as undetermined: near a singular
#: configuration the exact multipliers along a vanishing singular value ``sigma`` grow
#: as ``1 / sigma`` (the rigid model's answer, which any compliance would change
#: completely). The least-norm solve is Tikhonov-regularised with ``delta =
#: SINGULAR_VALUE^2`` and refined ``STEPS`` times, so a direction keeps ``1 - (delta /
#: (sigma^2 + delta))^(1 + STEPS)`` of its value: all of it at regular configurations (to
#: 1e-13 at ``sigma = 0.4``, the slider-crank's smallest), a share that goes continuously
#: to 0 as ``sigma`` does
SINGULAR_VALUE = 1e-2
REACTION_REGULARIZATION = SINGULAR_VALUE ** 2
#: refinement steps of the least-norm solve
STEPS = 3
#: a reaction component counts as indeterminate when a self-stress of (weighted) norm 1
#: changes it by more than this: a force by 1e-3 N, a torque by 1e-3 L N m
INDETERMINATE_TOL = 1e-3
#: the six components of a reaction (force, then torque)
COMPONENTS = ("F_x", "F_y", "F_z", "T_x", "T_y", "T_z")
#: ``"world"``: world axes, torque about body 2's joint point (``reactions.csv``);
#: ``"joint"``: joint frame 1's axes, torque about its origin (``joints.csv``)
FRAMES = ("world", "joint")
#: random vectors whose self-stress parts find the indeterminate components
_VECTORS = 2
_SEED = 22


def uses_rule(system):
    """Whether the multipliers of ``system`` can be non-unique: its joint graph has a
    loop (ground is one node) or it has rows found redundant."""
    return bool(system.loop_joints()) or bool(system.redundant.any())


def reaction_work(system):
    """The ``kernels.ReactionWork`` of ``system``: its arrays with geometric weights,
    random vectors (none when ``uses_rule`` is false: the multipliers are unique) and
    scratch."""
    S = system.S
    nb, nrows, nj = S.nb, S.nrows, S.nj
    L = float(system.length_scale)
    zs = np.zeros((0, nrows))
    G = S
    if uses_rule(system):
        pad = S.row_prim == PRIM_PAD
        w = np.where(np.isin(S.row_prim, ROTATION_PRIMS), 1.0 / (L * L), 1.0)
        eps = REACTION_REGULARIZATION * w
        eps[pad] = 1.0                      # padding rows: unit diagonal, lambda = 0
        scale = np.sqrt(w)
        scale[pad] = 0.0
        G = S._replace(body_minv=np.ones(nb), body_inertia_inv=np.full((nb, 3), 1.0 / (L * L)),
                       row_eps=eps, row_eps_inv=1.0 / eps, row_scale=scale, refine_max=0,
                       alpha=0.0, beta=0.0)
        zs = np.random.default_rng(_SEED).standard_normal((_VECTORS, nrows))
        zs /= np.where(pad, 1.0, scale)     # unit variance in the weighted norm
        zs[:, pad] = 0.0
    return kernels.ReactionWork(G=G, steps=STEPS, zs=zs, scale=L, tol=INDETERMINATE_TOL,
                                zero=np.zeros(nrows),
                                work=np.zeros(nrows), s=np.zeros(nrows), zbuf=np.zeros(nrows),
                                vf=np.zeros((nb, 6)), hit=np.zeros((nj, kernels.NREACT)),
                                flags=np.zeros((nj, kernels.NREACT)))


def indeterminate_components(system, Y):
    """Per model joint, which reaction components the model leaves indeterminate at the
    state ``Y``: (n_joints, 12) bool, world axes then joint axes (``COMPONENTS`` each)."""
    R = reaction_work(system)
    if R.zs.shape[0]:
        kernels.reaction_flags_at(np.ascontiguousarray(Y, dtype=float), system.S, system.W, R)
    return R.flags[system.joint_pos] > 0.0


def component_labels(flags):
    """Labels of the set flags of one joint's 6 components (``COMPONENTS``)."""
    return [c for c, f in zip(COMPONENTS, flags) if f]
