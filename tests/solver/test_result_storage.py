"""Result storage: a run's result keeps the states and derives poses and velocities
when asked; archives (uncompressed now, deflated by earlier versions) load the same."""
import json
import zipfile

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model, Result
from SimPhantWorkbench.solver.rotations import quat_from_axis_angle, quat_to_matrix

#: the accessors of a body's series, with the arguments they take
BODY_ACCESSORS = (("position", ()), ("rotation_matrix", ()), ("quaternion", ()),
                  ("euler_angles", ()), ("velocity", ()), ("angular_velocity", ()),
                  ("angular_velocity", ("body",)), ("acceleration", ()),
                  ("angular_acceleration", ()), ("point_position", ((0.1, -0.2, 0.05),)),
                  ("point_velocity", ((0.1, -0.2, 0.05),)))


@pytest.fixture(scope="module")
def run():
    """A tumbling body given a non-diagonal inertia tensor (user axes != principal
    axes) hinged to a second body: every series non-trivial."""
    m = Model(gravity=(0.0, 0.0, -9.81))
    q = quat_from_axis_angle((1.0, 2.0, 0.5), 0.8)
    a = m.add_body("a", mass=2.0, inertia=[[0.5, 0.1, 0.0], [0.1, 0.8, 0.05], [0.0, 0.05, 1.1]],
                   position=(0.0, 0.0, 0.0), orientation=q, velocity=(0.3, 0.0, 0.2),
                   angular_velocity=(1.0, -2.0, 3.0))
    b = m.add_body("b", mass=1.0, inertia=(0.1, 0.2, 0.25), position=(0.4, 0.0, 0.0))
    m.add_joint("spherical", a, b, point=(0.2, 0.0, 0.0))
    r = m.simulate(t_end=0.5, dt=1e-3, output_dt=0.01)
    return m, r


def _reference(r, m, name):
    """The body series as earlier versions computed and kept them, from the states."""
    nb = len(r.body_names)
    k = r.body_names.index(name)
    body = m.bodies[k]
    Y = r.states
    p, v = 7 * k, 7 * nb + 6 * k
    Ap = quat_to_matrix(Y[:, p + 3:p + 7])
    wb_p = Y[:, v + 3:v + 6]
    return dict(position=Y[:, p:p + 3], rotation_matrix=Ap @ body.R_pu, velocity=Y[:, v:v + 3],
                angular_velocity=np.einsum("nij,nj->ni", Ap, wb_p),
                omega_body=wb_p @ body.R_pu)


def test_a_run_keeps_the_states_not_the_series_derived_from_them(run):
    m, r = run
    n, nb = len(r.t), len(r.body_names)
    held = sum(v.nbytes for v in vars(r).values() if isinstance(v, np.ndarray))
    # states, accelerations (linear, angular), multipliers, reactions, anchors, scalars
    bound = 8 * n * (13 * nb + 6 * nb + r.multipliers.shape[1] + 12 * len(r.joint_names) + 8) \
        + 8 * nb * 16
    assert held <= bound, (held, bound)
    assert r.states.base is None or r.states.base.nbytes == r.states.nbytes
    for name in r.body_names:
        ref = _reference(r, m, name)
        np.testing.assert_array_equal(r.position(name), ref["position"])
        np.testing.assert_array_equal(r.rotation_matrix(name), ref["rotation_matrix"])
        np.testing.assert_array_equal(r.velocity(name), ref["velocity"])
        np.testing.assert_array_equal(r.angular_velocity(name), ref["angular_velocity"])
        np.testing.assert_array_equal(r.angular_velocity(name, frame="body"), ref["omega_body"])
        for i in (0, 7, len(r.t) - 1):
            pos, A = r.pose(name, i)
            np.testing.assert_array_equal(pos, ref["position"][i])
            np.testing.assert_allclose(A, ref["rotation_matrix"][i], rtol=0, atol=1e-15)
    # returned arrays are copies: editing one leaves the result alone
    p = r.position("a")
    p[:] = 0.0
    assert np.any(r.position("a") != 0.0)


def test_energy_of_a_run_equals_the_sum_over_bodies(run):
    m, r = run
    kin = np.zeros(len(r.t))
    pot = np.zeros(len(r.t))
    nb = len(r.body_names)
    for k, body in enumerate(m.bodies):
        v = r.states[:, 7 * nb + 6 * k:7 * nb + 6 * k + 3]
        w = r.states[:, 7 * nb + 6 * k + 3:7 * nb + 6 * k + 6]     # principal axes
        kin += 0.5 * body.mass * (v * v).sum(axis=1) \
            + 0.5 * (w * w * np.asarray(body.moments)).sum(axis=1)
        pot -= body.mass * r.position(body.name) @ np.array(m.gravity)
    np.testing.assert_allclose(r.energy()["potential"], pot, rtol=1e-13, atol=1e-12)
    np.testing.assert_allclose(r.energy()["kinetic"], kin, rtol=1e-13)
    assert np.ptp(r.energy()["kinetic"]) > 0.1 and np.ptp(r.energy()["potential"]) > 0.1


def _values(r, name):
    out = {}
    for meth, args in BODY_ACCESSORS:
        out[(meth,) + args] = getattr(r, meth)(name, *args)
    return out


@pytest.mark.parametrize("how", ["save", "save-compressed", "earlier-version"])
def test_archives_load_to_the_same_values(run, tmp_path, how):
    """An archive written now (stored, format 2: ``R_pu`` instead of the per-body series
    derived from the states), with compress=True, or as earlier versions did
    (``np.savez_compressed`` of the series, format 1) loads to the very same values."""
    m, r = run
    path = str(tmp_path / "r.npz")
    if how == "save":
        r.save(path)
    elif how == "save-compressed":
        r.save(path, compress=True)
    else:
        np.savez_compressed(path, **r.to_arrays(derived=True))
    with zipfile.ZipFile(path) as z:
        kinds = {i.compress_type for i in z.infolist()}
        names = sorted(i.filename for i in z.infolist())
    assert kinds == ({zipfile.ZIP_STORED} if how == "save" else {zipfile.ZIP_DEFLATED})
    if how == "earlier-version":
        assert names == sorted(k + ".npy" for k in Result._ARRAYS + ("meta",))
    else:
        stored = [k for k in Result._ARRAYS if k not in Result._DERIVED] + ["R_pu", "meta"]
        assert names == sorted(k + ".npy" for k in stored)
    loaded = Result.load(path)
    fmt = json.loads(str(loaded.to_arrays()["meta"]))["format"]
    assert fmt == ("simphant-result-1" if how == "earlier-version" else Result.FORMAT)
    for key, value in r.to_arrays(derived=True).items():
        if key != "meta":
            np.testing.assert_array_equal(loaded.to_arrays(derived=True)[key], value,
                                          err_msg=key)
    for name in r.body_names:
        a, b = _values(r, name), _values(loaded, name)
        for key in a:
            np.testing.assert_allclose(b[key], a[key], rtol=0, atol=1e-15, err_msg=str(key))
    for j in r.joint_names:
        np.testing.assert_array_equal(loaded.reaction_force(j), r.reaction_force(j))
        np.testing.assert_array_equal(loaded.reaction_torque(j, about="body1"),
                                      r.reaction_torque(j, about="body1"))
    for key in ("kinetic", "potential", "total"):
        np.testing.assert_array_equal(loaded.energy()[key], r.energy()[key])


def test_quaternions_are_sign_continuous_and_match_the_rotation(run):
    m, r = run
    for name in r.body_names:
        q = r.quaternion(name)
        assert q[0, 0] >= 0.0
        assert np.all(np.einsum("ij,ij->i", q[1:], q[:-1]) > 0.0)
        np.testing.assert_allclose(quat_to_matrix(q), r.rotation_matrix(name), atol=1e-14)
