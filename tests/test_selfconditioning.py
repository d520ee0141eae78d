"""Self-conditioning: the mean recursion against its closed form and against seeded
simulation, the window's bound, checkpoint restarts, and refused inputs."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reliability.selfconditioning import SelfConditioning
from reliability.stats import binomial_standard_error

RUNS = 6000
MODELS = [SelfConditioning(0.02, 0.9, 10, None), SelfConditioning(0.02, 0.9, 10, 10),
          SelfConditioning(0.05, 0.5, 0, None), SelfConditioning(0.05, 0.5, 0, 3),
          SelfConditioning(0.1, 0.9, 5, 1)]


@pytest.mark.parametrize("model", MODELS)
def test_simulated_accuracy_within_four_standard_errors_of_the_recursion(model):
    steps = 60
    sim = model.simulate(steps, runs=RUNS, seed=9)
    expected = model.expected_accuracy(steps)
    se = binomial_standard_error(expected, RUNS)
    # 60 steps x 5 models: at 4 SE a false alarm has odds of about 1 in 50 per file at most.
    assert np.all(np.abs(sim.accuracy() - expected) <= 4 * se)


@given(e0=st.floats(0, 0.05), g=st.floats(0, 0.95))
@settings(max_examples=60, deadline=None)
def test_full_history_recursion_equals_its_gamma_closed_form(e0, g):
    model = SelfConditioning(e0, g, clean_context=0, window=None)
    assert np.allclose(model.expected_error(150), model.full_history_closed_form(150),
                       atol=1e-10)


@given(e0=st.floats(0.001, 0.3), g=st.floats(0, 0.7), clean=st.integers(0, 30),
       window=st.integers(1, 30))
@settings(max_examples=60, deadline=None)
def test_window_converges_to_its_fixed_point_and_stays_under_the_bound(e0, g, clean, window):
    model = SelfConditioning(e0, g, clean, window)
    m = model.expected_error(4000)
    assert m[-1] == pytest.approx(model.fixed_point(), rel=1e-6, abs=1e-9)
    assert m.max() <= e0 + g * window / (clean + window) + 1e-12
    full = SelfConditioning(e0, g, clean, None)
    assert model.fixed_point() <= full.fixed_point() + 1e-12


def test_without_clean_context_the_window_does_not_lower_the_long_run_error():
    a = SelfConditioning(0.05, 0.5, 0, 5)
    b = SelfConditioning(0.05, 0.5, 0, None)
    assert a.fixed_point() == pytest.approx(b.fixed_point())


def test_horizon_exists_with_full_history_and_not_with_the_window():
    full = SelfConditioning(0.02, 0.9, 10, None)
    windowed = SelfConditioning(0.02, 0.9, 10, 10)
    step = full.accuracy_horizon(0.95)
    assert step is not None
    assert full.expected_accuracy(step)[-1] < 0.95 <= full.expected_accuracy(step - 1)[-1]
    assert windowed.accuracy_horizon(0.95) is None


def test_restart_from_checkpoint_inherits_the_error_rate_and_a_clean_one_resets_it():
    model = SelfConditioning(0.02, 0.9, 10, None)
    checkpoint, more = 80, 20
    before = model.simulate(checkpoint, runs=RUNS, seed=1)
    resumed = model.simulate(more, runs=RUNS, seed=2, history=before.errors)
    clean = model.simulate(more, runs=RUNS, seed=2, history=before.errors, clear_history=True)
    expected_resumed = model.expected_accuracy(checkpoint + more)[checkpoint:]
    expected_clean = model.expected_accuracy(more)
    for sim, expected in ((resumed, expected_resumed), (clean, expected_clean)):
        se = binomial_standard_error(expected, RUNS)
        assert np.all(np.abs(sim.accuracy() - expected) <= 4 * se)
    assert expected_clean[0] > expected_resumed[0]


def test_error_rate_is_linear_in_the_visible_share():
    model = SelfConditioning(0.02, 0.6, 10, None)
    assert model.error_rate(0, 0) == pytest.approx(0.02)
    assert model.error_rate(10, 10) == pytest.approx(0.02 + 0.6 * 0.5)
    assert np.allclose(model.error_rate([0, 5], [10, 10]), [0.02, 0.17])


def test_same_seed_same_trajectories():
    model = SelfConditioning()
    one, two = model.simulate(30, runs=200, seed=5), model.simulate(30, runs=200, seed=5)
    assert np.array_equal(one.errors, two.errors)
    assert not np.array_equal(one.errors, model.simulate(30, runs=200, seed=6).errors)


@pytest.mark.parametrize("call, name", [
    (lambda: SelfConditioning(base_error=-0.1), "base_error"),
    (lambda: SelfConditioning(gain=1.5), "gain"),
    (lambda: SelfConditioning(base_error=0.5, gain=0.6), "base_error \\+ gain"),
    (lambda: SelfConditioning(clean_context=-1), "clean_context"),
    (lambda: SelfConditioning(window=0), "window"),
    (lambda: SelfConditioning().expected_error(0), "steps"),
    (lambda: SelfConditioning().simulate(10, runs=0), "runs"),
    (lambda: SelfConditioning().simulate(10, runs=4, history=np.zeros((3, 2), bool)), "history"),
    (lambda: SelfConditioning().accuracy_horizon(1.2), "target"),
    (lambda: SelfConditioning().error_rate(3, 2), "visible_errors"),
    (lambda: SelfConditioning().full_history_closed_form(10), "clean_context=0"),
])
def test_bad_inputs_are_refused_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize("clean_context, window", [(0, None), (10, None), (0, 5)])
def test_no_base_error_means_no_errors_even_at_full_gain(clean_context, window):
    model = SelfConditioning(base_error=0.0, gain=1.0, clean_context=clean_context, window=window)
    assert model.fixed_point() == 0.0
    assert not model.expected_error(50).any()


def test_restart_table_and_difference_carry_wilson_and_newcombe_intervals():
    from reliability.figures.selfcorrection import restart_difference, restart_table

    model = SelfConditioning(0.02, 0.9, 10, None)
    saved = model.simulate(100, runs=3000, seed=1)
    resumed = model.simulate(5, runs=3000, seed=2, history=saved.errors)
    rebuilt = model.simulate(5, runs=3000, seed=3, history=saved.errors, clear_history=True)
    expected = model.expected_accuracy(101)[-1]
    table = restart_table(resumed, rebuilt, expected)
    first = table.iloc[0]
    assert first["95% low"] <= first["share right"] <= first["95% high"]
    se = binomial_standard_error(expected, 3000)
    assert abs(first["share right"] - expected) <= 4 * se
    diff, low, high = restart_difference(resumed, rebuilt)
    assert low <= diff <= high < 0   # the saved errors cost accuracy; the rebuilt run is clean
    assert table.iloc[1]["share right"] == pytest.approx(1 - rebuilt.errors[:, 0].mean())
