"""Runs whose step or sample counts cannot be represented are refused before anything is
allocated, and a run of very many steps per output interval stays cancellable."""
import numpy as np
import pytest

from SimPhantWorkbench.solver import ModelError, SimulationCancelled, zoo
from SimPhantWorkbench.solver import simulation


def _pendulum():
    return zoo.compound_pendulum(theta0=1.0)[0]


@pytest.mark.parametrize("dt,words", [
    (1e-300, "dt = 1e-300 s needs 1e+300 steps"),
    (1e-12, "dt = 1e-12 s needs 1e+12 steps"),
])
def test_an_absurd_step_is_refused_naming_dt_and_the_step_count(dt, words):
    with pytest.raises(ModelError, match=words.replace("+", r"\+")):
        _pendulum().simulate(t_end=1.0, dt=dt, method="rk4", output_dt=0.1)


def test_a_step_below_the_time_resolution_is_refused():
    with pytest.raises(ModelError, match=r"dt = 1e-12 s is below the resolution of the time "
                                         r"near t = 1e\+06 s"):
        _pendulum().simulate(t_end=1e6 + 1e-3, dt=1e-12, method="rk4", output_dt=1e-4,
                             t0=1e6)


def test_too_many_output_samples_are_refused_naming_output_dt():
    with pytest.raises(ModelError, match=r"output_dt = 1e-13 s gives 1e\+13 output samples"):
        _pendulum().simulate(t_end=1.0, dt=1e-3, method="rk4", output_dt=1e-13)


def test_the_counts_allowed_stay_allowed():
    simulation.check_counts(0.0, 3600.0, 1e-6, 1e-3)      # an hour at 1 us: 3.6e9 steps


def cancelled_at_first_report(model, **settings):
    """Run ``model`` cancelling at its first progress report: (report times, the
    ``SimulationCancelled``)."""
    calls = []

    def progress(t, t_end):
        calls.append(t)
        return False

    with pytest.raises(SimulationCancelled) as info:
        model.simulate(method="rk4", progress=progress, **settings)
    return calls, info.value


def test_cancel_is_honoured_inside_an_output_interval_of_many_steps():
    """One output interval of 1e7 steps: the run is cut into pieces, so the first progress
    report (where the cancel is asked) comes early in the interval, not at its end."""
    model = _pendulum()
    model.simulate(t_end=0.01, dt=1e-3, method="rk4")        # kernels ready
    calls, cancelled = cancelled_at_first_report(model, t_end=1.0, dt=1e-7, output_dt=1.0)
    assert len(calls) == 1 and 0.0 < calls[0] < 1e-2, calls
    assert cancelled.time < 1e-2
    assert cancelled.result.t.tolist() == [0.0]         # no sample of the interval stored


def test_a_model_of_many_bodies_is_cancellable_before_its_first_output():
    """A 2000-body chain reported progress (and saw a cancel) only after its first 2000
    steps (seconds of work); the first kernel call now takes no more evaluations than a
    piece (PIECE_EVALUATIONS / bodies steps), the later ones adapt to their speed."""
    model = zoo.chain(400)[0]
    most = max(16, simulation.PIECE_EVALUATIONS // 400)
    calls, cancelled = cancelled_at_first_report(model, t_end=1.0, dt=1e-3, output_dt=0.5)
    assert calls and calls[0] <= most * 1e-3 + 1e-12, (calls, most)
    assert cancelled.time <= most * 1e-3 + 1e-12
    assert cancelled.result.t.tolist() == [0.0]


def test_pieces_give_the_same_motion_as_whole_intervals():
    """A run whose output intervals are cut into pieces matches the same run with whole
    intervals to rounding (the step times are summed in another order)."""
    model = _pendulum()
    whole = model.simulate(t_end=0.2, dt=1e-5, method="rk4", output_dt=0.05)
    old = simulation.PIECE_EVALUATIONS
    simulation.PIECE_EVALUATIONS = 700         # 5000 steps per interval -> 8 pieces
    try:
        cut = model.simulate(t_end=0.2, dt=1e-5, method="rk4", output_dt=0.05)
    finally:
        simulation.PIECE_EVALUATIONS = old
    assert cut.t.tolist() == whole.t.tolist()
    assert cut.settings["steps"] == whole.settings["steps"] == 20000
    b = model.bodies[0]
    assert np.allclose(cut.position(b), whole.position(b), rtol=0, atol=1e-12)
    assert not np.array_equal(cut.position(b)[1:], np.zeros_like(cut.position(b)[1:]))


def test_pieces_cover_each_interval_exactly():
    tstart = np.array([0.0, 1.0, 2.0])
    nsub = np.array([5, 1, 12], dtype=np.int64)
    hsub = np.array([0.2, 1.0, 1.0 / 12])
    starts, steps, h, ends = simulation._pieces(tstart, nsub, hsub, 4)
    assert steps.tolist() == [4, 1, 1, 4, 4, 4]
    assert ends.tolist() == [-1, 0, 1, -1, -1, 2]
    assert np.allclose(starts, [0.0, 0.8, 1.0, 2.0, 2.0 + 4 / 12, 2.0 + 8 / 12])
    assert np.allclose(h, [0.2, 0.2, 1.0, 1 / 12, 1 / 12, 1 / 12])
