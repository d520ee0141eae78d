"""Wilson and Newcombe intervals against scipy and against Newcombe's published example."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest

from reliability.stats import (Interval, binomial_standard_error, newcombe_interval,
                               wilson_interval, z_value)


@settings(max_examples=200, deadline=None)
@given(trials=st.integers(1, 2000), data=st.data(),
       confidence=st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_wilson_matches_scipy(trials, data, confidence):
    successes = data.draw(st.integers(0, trials))
    low, high = wilson_interval(successes, trials, confidence)
    ci = binomtest(successes, trials).proportion_ci(confidence_level=confidence,
                                                     method="wilson")
    assert low == pytest.approx(ci.low, abs=1e-12)
    assert high == pytest.approx(ci.high, abs=1e-12)
    assert isinstance(low, float) and isinstance(high, float)


def test_wilson_vectorised_and_edges():
    low, high = wilson_interval(np.array([0, 5, 10]), 10)
    assert low[0] == 0.0 and high[2] == 1.0
    assert np.all(low <= np.array([0, 5, 10]) / 10) and np.all(high >= np.array([0, 5, 10]) / 10)


def test_newcombe_reproduces_his_example():
    # Newcombe (1998), Table II example (a): 56/70 vs 48/80, method 10: 0.0524 to 0.3339.
    low, high = newcombe_interval(56, 70, 48, 80)
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3339)


def test_newcombe_is_antisymmetric_and_contains_the_difference():
    low, high = newcombe_interval(30, 50, 20, 60)
    back_low, back_high = newcombe_interval(20, 60, 30, 50)
    assert (low, high) == pytest.approx((-back_high, -back_low))
    assert low < 30 / 50 - 20 / 60 < high


def test_newcombe_null_straddles_zero():
    low, high = newcombe_interval(10, 20, 10, 20)
    assert low < 0 < high


def test_coverage_is_near_nominal():
    # Coverage of the Wilson interval, by simulation: within 4 SE of 95% is not required
    # (Wilson is approximate), but it must not fall below 92% at n = 50, p = 0.3.
    rng = np.random.default_rng(5)
    counts = rng.binomial(50, 0.3, size=20000)
    low, high = wilson_interval(counts, 50)
    coverage = np.mean((low <= 0.3) & (0.3 <= high))
    assert coverage > 0.92


def test_standard_error():
    assert binomial_standard_error(0.5, 100) == pytest.approx(0.05)
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)


@pytest.mark.parametrize("args, name", [
    ((11, 10), "successes"), ((-1, 10), "successes"), ((1, 0), "trials"),
    ((1.5, 10), "successes"), ((True, 10), "successes"),
])
def test_bad_counts_refused(args, name):
    with pytest.raises(ValueError, match=name):
        wilson_interval(*args)


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.1, float("nan"), "95%"])
def test_bad_confidence_refused(confidence):
    with pytest.raises(ValueError, match="confidence"):
        wilson_interval(5, 10, confidence)
    with pytest.raises(ValueError, match="confidence"):
        newcombe_interval(5, 10, 4, 10, confidence)


def test_newcombe_names_the_bad_sample():
    with pytest.raises(ValueError, match="successes_b"):
        newcombe_interval(5, 10, 12, 10)


def test_intervals_are_named_pairs_that_unpack_as_before():
    """Every interval comes back as ``Interval(low, high)``: a tuple, so ``low, high =``
    keeps working, with its ends named; arrays stay arrays inside it."""
    from reliability import claims

    found = [wilson_interval(41, 50), newcombe_interval(41, 50, 30, 50),
             claims.change((30, 50), (41, 50))[1]]
    for result in found:
        low, high = result
        assert isinstance(result, Interval) and isinstance(result, tuple)
        assert (result.low, result.high) == (low, high) and low < high
        assert type(low) is float and type(high) is float
    assert found[2] == found[1]  # change() reports Newcombe's interval, after - before
    arrays = wilson_interval(np.array([0, 5, 10]), 10)
    assert isinstance(arrays, Interval) and arrays.low.shape == (3,)
    assert arrays.low[0] == 0.0 and arrays.high[2] == 1.0


def test_mean_interval_is_students_t_and_refuses_too_few_values():
    from scipy.stats import t

    from reliability.stats import mean_interval

    values = [28.9, 29.4, 30.1, 29.0]
    low, high = mean_interval(values)
    half = t.ppf(0.975, 3) * np.std(values, ddof=1) / 2
    assert low == pytest.approx(np.mean(values) - half)
    assert high == pytest.approx(np.mean(values) + half)
    for bad in ([1.0], [1.0, float("nan")], 3.0):
        with pytest.raises(ValueError, match="values"):
            mean_interval(bad)


def test_mean_interval_is_cut_at_the_least_value_the_quantity_takes():
    """Hours or a count cannot go below zero: four days with one refusal between them
    give an interval from 0, not a negative count."""
    from reliability.stats import mean_interval

    low, high = mean_interval([0.0, 0.0, 1.0, 0.0], minimum=0.0)
    assert low == 0.0 and high > 0.25
    assert mean_interval([0.0, 0.0, 1.0, 0.0]).low < 0
