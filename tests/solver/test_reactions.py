"""Joint reactions where joints hold a load redundantly and through singular
configurations (docs/theory.md, "Reactions of redundant joints"):

* a slider-crank of spatial joints run free through its dead centres: in-plane reactions
  against an independent planar inverse dynamics (tests/solver/planar.py), the
  indeterminate (out-of-plane) components zero by the least-norm rule and flagged;
* the reported reactions do not depend on which rows the solver treats as redundant
  (a choice that made the out-of-plane force spike at the dead centre before);
* the rule itself: the multipliers are the least-norm ones, checked densely;
* continuity through the singular configurations of the parallelogram chain and along
  the Bricard mechanism's motion;
* a tree pays nothing and flags nothing.
"""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import zoo
from SimPhantWorkbench.solver.joints import PRIM_DOT1
from SimPhantWorkbench.solver.system import System

from .helpers import assert_least_norm, system_rows
from .planar import slider_crank_reactions

DT = 2.5e-4         # the state on the constraints to ~1e-8 of the loads near dead centre
SPEEDS = (4 * math.pi, 8 * math.pi, 12 * math.pi)       # [rad/s]: all pass dead centres
SLIDERS = (0.5, 3.0, 12.0)                              # slider masses [kg]
JOINT_KEYS = (("crank_pin", "F_O"), ("rod_pin", "F_A"), ("slider_pin", "F_B"),
              ("slide", "F_guide"))


def _crank_angle(r, crank):
    R = r.rotation_matrix(crank)
    th = np.unwrap(np.arctan2(R[:, 1, 0], R[:, 0, 0]))
    return th - th[0]


def _closed_form(m, r, bodies):
    """The planar reference of a zoo slider-crank (plane x-y) for the samples of ``r``."""
    crank, rod, slider = bodies
    j = {jj.name: jj for jj in m.joints}
    return slider_crank_reactions(
        _crank_angle(r, crank), r.angular_velocity(crank)[:, 2],
        j["crank_pin"].frame1[0][:2], j["rod_pin"].frame1[0][:2], j["slider_pin"].frame1[0][:2],
        (1.0, 0.0), [b.position[:2] for b in bodies], j["slide"].frame2[0][:2],
        [b.mass for b in bodies], [crank.moments[2], rod.moments[2]], m.gravity[:2])


def _dead_centres(r, crank):
    """Number of dead centres passed (crank angle through 0 or pi from the slider line)."""
    R = r.rotation_matrix(crank)
    th = np.unwrap(np.arctan2(R[:, 1, 0], R[:, 0, 0]))
    return int(np.count_nonzero(np.diff(np.floor(th / math.pi))))


ROD = 0.35          # the zoo slider-crank's rod [m]: torques are compared as force x ROD


def _check_against_closed_form(m, r, bodies, rel=1e-6):
    cf = _closed_form(m, r, bodies)
    peak = 0.0
    for name, key in JOINT_KEYS:
        F = r.reaction_force(name)
        scale = np.linalg.norm(cf[key], axis=1).max()
        peak = max(peak, scale)
        assert np.abs(F[:, :2] - cf[key]).max() <= rel * scale, name
    T = r.reaction_torque("slide")[:, 2]
    assert np.abs(T - cf["T_guide"]).max() <= rel * peak * ROD
    # what the plane leaves indeterminate: out-of-plane force, torques about in-plane axes,
    # zero by the least-norm rule (no load leaves the plane)
    for name, _ in JOINT_KEYS:
        assert np.abs(r.reaction_force(name)[:, 2]).max() <= rel * peak, name
        assert np.abs(r.reaction_torque(name)[:, :2]).max() <= rel * peak * ROD, name
    return cf


def _expected_flags(r, joint):
    """In a planar mechanism (normal z) of spatial joints the out-of-plane force and the
    torques about in-plane axes are indeterminate: per component of joint frame 1 (axes
    along or across z for these joints) and of the world axes."""
    R1 = r.joint_frame(joint)[0]
    along = np.abs(R1[2, :]) > 0.5                   # frame axes along the normal z
    return (np.array([False, False, True, True, True, False]),
            np.concatenate([along, ~along]))


@pytest.mark.parametrize("omega", SPEEDS)
@pytest.mark.parametrize("slider_mass", SLIDERS)
def test_slider_crank_reactions_through_dead_centre_match_the_planar_closed_form(
        omega, slider_mass):
    m, bodies, _ = zoo.slider_crank(omega=omega, masses=(1.0, 2.0, slider_mass), driven=False)
    r = m.simulate(t_end=0.5, dt=DT, output_dt=DT)        # every step is an output sample
    assert _dead_centres(r, bodies[0]) >= 2
    _check_against_closed_form(m, r, bodies)
    for name, _ in JOINT_KEYS:
        world, joint = _expected_flags(r, name)
        assert list(r.reaction_indeterminate(name)) == list(world), name
        assert list(r.reaction_indeterminate(name, frame="joint")) == list(joint), name
        # a redundancy of the joints: indeterminate at every sample
        assert set(r.reaction_indeterminate_samples(name)) <= {0, len(r)}


def test_reactions_do_not_depend_on_the_rows_treated_as_redundant(monkeypatch):
    """The solver treats 3 of the 20 rows as redundant, chosen at t0 by a pivoted QR;
    with the rod pin's two tilt rows and one of the slider pin's, the other 17 rows are
    nearly dependent at the dead centre (smallest singular value 1e-4): the dynamics do
    not mind, but their multipliers grew there along a self-stress, and with them the
    reported out-of-plane force (36 N against 13 N in plane on the bundled example)."""
    m, bodies, _ = zoo.slider_crank(omega=4 * math.pi, masses=(1.0, 2.0, 12.0), driven=False)
    free = m.simulate(t_end=0.5, dt=DT, output_dt=DT)
    find = System.find_redundant_rows

    def marked(self, Y, tol=1e-8):
        n = find(self, Y, tol)
        if n:
            rows = (system_rows(self, "rod_pin", PRIM_DOT1, 2, 0)
                    + system_rows(self, "rod_pin", PRIM_DOT1, 2, 1)
                    + system_rows(self, "slider_pin", PRIM_DOT1, 2, 1))
            self.redundant[:] = False
            self.redundant[rows] = True
        return n

    # a valid choice at t0: the 17 other rows are independent there
    system = m.compile()
    _phi, J, _g = system.constraint_state(system.y0)
    marked(system, system.y0)
    keep = ~system.redundant[system.active_rows]
    assert system.redundant.sum() == 3 and np.linalg.matrix_rank(J[keep]) == 17
    monkeypatch.setattr(System, "find_redundant_rows", marked)
    forced = m.simulate(t_end=0.5, dt=DT, output_dt=DT)
    cf = _check_against_closed_form(m, forced, bodies)
    for name, key in JOINT_KEYS:
        scale = np.linalg.norm(cf[key], axis=1).max()
        for q in ("reaction_force", "reaction_torque"):
            a, b = getattr(free, q)(name), getattr(forced, q)(name)
            assert np.abs(a - b).max() <= 1e-6 * scale, (name, q)


def test_multipliers_are_the_least_norm_ones():
    """With gravity out of the plane the joints share a real out-of-plane load, in a way the
    rigid model does not fix: the multipliers reported are those of least weighted norm
    (force rows 1, angle rows 1/L^2), i.e. orthogonal to every self-stress (checked with
    the null space of Phi_q^T by a dense SVD), and they reproduce the constraint force."""
    m, bodies, _ = zoo.slider_crank(omega=8 * math.pi, driven=False,
                                    gravity=(0.0, -9.81, -9.81))
    r = m.simulate(t_end=0.2, dt=1e-3, output_dt=0.02)
    assert_least_norm(m, r, range(len(r)), redundant=3)
    # the out-of-plane load is really there, shared among the three pins
    assert np.abs(r.reaction_force("crank_pin")[:, 2]).max() > 1.0
    assert r.reaction_indeterminate("crank_pin")[2]


def test_four_bar_out_of_plane_load_least_norm_and_flags():
    """A short run (quick enough without numba's JIT): a planar four-bar of spatial
    revolutes with gravity partly out of its plane shares a real out-of-plane load; the
    reported multipliers are the least-norm ones and the out-of-plane components (force
    along the normal y, torques about x and z) are flagged at every sample, the others
    at none."""
    m, links, joints = zoo.four_bar(gravity=(0.0, -3.0, -9.81))
    r = m.simulate(t_end=0.004, dt=1e-3, output_dt=0.002)
    assert_least_norm(m, r, range(len(r)), redundant=3)
    assert np.abs(r.reaction_force("A")[:, 1]).max() > 0.1
    for j in joints:
        assert list(r.reaction_indeterminate_samples(j)) == [0, len(r), 0, len(r), 0, len(r)]
        assert list(r.reaction_indeterminate(j, frame="joint")) == [False, False, True,
                                                                    True, True, False]


def _jumps_ok(x, ratio=10.0, floor_rel=1e-6):
    """No sample-to-sample change beyond ``ratio`` x the changes two samples before and
    after it (a one-sample spike changes twice, each next to the other)."""
    d = np.abs(np.diff(x, axis=0))
    floor = floor_rel * max(np.ptp(x, axis=0).max(), 1e-300)
    ref = np.maximum(np.pad(d, ((2, 0),) + ((0, 0),) * (d.ndim - 1))[:-2],
                     np.pad(d, ((0, 2),) + ((0, 0),) * (d.ndim - 1))[2:])
    bad = d > ratio * ref + floor
    return not bad.any(), np.argwhere(bad)[:5]


def _reactions(r, name):
    return np.hstack([r.reaction_force(name), r.reaction_torque(name)])


def test_parallelogram_chain_reactions_are_continuous_through_the_aligned_configuration():
    """40 parallelogram cells swing through the configuration where every bar lies on the
    x axis (the rank of Phi_q drops there): every joint's reaction, sampled each step
    through that instant, changes smoothly."""
    m, cranks, couplers, joints = zoo.parallelogram_chain()
    r = m.simulate(t_end=0.9, dt=1e-3, output_dt=1e-3)
    tip = r.position(cranks[0])
    theta = np.arctan2(tip[:, 2], tip[:, 0])
    crossings = np.nonzero(np.diff(np.sign(theta)) != 0)[0]
    assert len(crossings) >= 1 and 5 < crossings[0] < len(r) - 5
    for j in joints:
        ok, where = _jumps_ok(_reactions(r, j.name))
        assert ok, (j.name, where, r.t[crossings])


def test_bricard_reactions_are_continuous():
    m, links, joints = zoo.bricard()
    r = m.simulate(t_end=3.0, dt=1e-3, output_dt=1e-3)
    assert r.energy()["kinetic"].max() > 1.0
    for j in joints:
        ok, where = _jumps_ok(_reactions(r, j.name))
        assert ok, (j.name, where)
    # one redundant row: the joints share one self-stress, which changes reactions at all
    # six joints
    assert all(r.reaction_indeterminate(j).any() for j in joints)


def test_a_tree_flags_nothing():
    m, bodies, joints = zoo.chain(4)
    r = m.simulate(t_end=0.1, dt=1e-3, output_dt=0.01)
    for j in joints:
        assert not r.reaction_indeterminate(j).any()
        assert not r.reaction_indeterminate(j, frame="joint").any()
    with pytest.raises(ValueError, match="frame"):
        r.reaction_indeterminate(joints[0], frame="body")


def test_flags_survive_saving_and_a_result_of_an_earlier_version_has_none(tmp_path):
    from SimPhantWorkbench.solver import Result
    m, links, joints = zoo.four_bar()
    r = m.simulate(t_end=0.05, dt=1e-3, output_dt=0.01)
    path = str(tmp_path / "r.npz")
    r.save(path)
    back = Result.load(path)
    for j in joints:
        assert list(back.reaction_indeterminate_samples(j)) == \
            list(r.reaction_indeterminate_samples(j))
    assert r.reaction_indeterminate("A").any()
    arrays = r.to_arrays()
    del arrays["react_indeterminate"]
    old = Result.from_arrays(arrays)
    assert not any(old.reaction_indeterminate(j).any() for j in joints)
