"""pass@k and pass^k: the estimators against brute force, the task-mix closed forms against
simulation, the fit and the bounds against mixes whose answer is known."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate
from scipy.stats import beta as beta_dist

from reliability import i18n, passk, stats
from reliability.passk import (PassEstimate, TaskMix, curves, estimator_variance,
                               extrapolate, extrapolation_summary, extrapolation_table,
                               fit_task_mix, from_counts, from_outcomes, half_width,
                               moment_bounds, plan, published_table,
                               standard_error_bound)


# --- the estimators -----------------------------------------------------------------

def _brute_force(n, c, k):
    """Share of all k-subsets of n trials (the first c successful) with any / all success."""
    outcomes = [i < c for i in range(n)]
    subsets = list(itertools.combinations(range(n), k))
    any_ok = sum(any(outcomes[i] for i in s) for s in subsets) / len(subsets)
    all_ok = sum(all(outcomes[i] for i in s) for s in subsets) / len(subsets)
    return any_ok, all_ok


@pytest.mark.parametrize("n", range(1, 9))
def test_estimators_match_enumeration_of_all_k_subsets(n):
    for c in range(n + 1):
        for k in range(1, n + 1):
            any_ok, all_ok = _brute_force(n, c, k)
            assert passk.pass_at_k(n, c, k) == pytest.approx(any_ok, abs=1e-12)
            assert passk.pass_hat_k(n, c, k) == pytest.approx(all_ok, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 600).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(0, n), st.integers(1, n))))
def test_estimators_are_accurate_for_hundreds_of_trials(args):
    n, c, k = args
    exact_hat = Fraction(math.comb(c, k), math.comb(n, k))
    exact_at = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
    for got, exact in ((passk.pass_hat_k(n, c, k), exact_hat),
                       (passk.pass_at_k(n, c, k), exact_at)):
        assert math.isfinite(got)
        assert got == pytest.approx(float(exact), rel=1e-9, abs=1e-300)


def test_edges_are_exact():
    for n in (1, 8, 250, 900):
        for k in sorted({1, max(1, n // 2), n}):
            assert passk.pass_hat_k(n, n, k) == 1.0 and passk.pass_at_k(n, n, k) == 1.0
            assert passk.pass_hat_k(n, 0, k) == 0.0 and passk.pass_at_k(n, 0, k) == 0.0
        if n > 1:
            assert passk.pass_hat_k(n, n - 1, n) == 0.0  # one failure spoils "all n"
            assert passk.pass_at_k(n, 1, n) == 1.0       # one success is in every n-subset


def test_estimators_are_vectorised_over_tasks_and_k():
    c = np.array([0, 3, 5, 8])
    ks = np.arange(1, 9)
    grid = passk.pass_hat_k(8, c[:, None], ks[None, :])
    assert grid.shape == (4, 8)
    for i, ci in enumerate(c):
        for j, kj in enumerate(ks):
            assert grid[i, j] == passk.pass_hat_k(8, int(ci), int(kj))
    assert isinstance(passk.pass_at_k(8, 3, 2), float)
    assert {"pass_at_k", "pass_hat_k"} <= set(passk.__all__)
    assert not {"pass_at_k", "pass_hat_k"} & set(stats.__all__)


@pytest.mark.parametrize("fn", [passk.pass_at_k, passk.pass_hat_k])
@pytest.mark.parametrize("n, c, k, word", [
    (8, 3, 0, "k"), (8, 3, 9, "k"), (8, -1, 2, "c"), (8, 9, 2, "c"), (8, 2.5, 2, "c"),
    (8, 3, 1.5, "k"), (0, 0, 1, "n"), (8.5, 3, 2, "n"), (8, True, 2, "c"),
    (8, [1, 9], 2, "c")])
def test_estimators_refuse_bad_input(fn, n, c, k, word):
    with pytest.raises(ValueError, match=word):
        fn(n, c, k)


# --- the task mix -------------------------------------------------------------------

MIXES = [TaskMix.constant(0.61), TaskMix.beta(0.61, 1.0), TaskMix.beta(0.3, 8.0),
         TaskMix((0.7, 0.2, 0.1), (0.8, 0.0, 1.0), (3.0, math.inf, math.inf))]


@pytest.mark.parametrize("mix", MIXES)
def test_closed_forms_match_numerical_integration(mix):
    for k in (1, 2, 5, 8):
        expected_hat = expected_fail = 0.0
        for w, m, s in zip(mix.weights, mix.means, mix.concentrations):
            if math.isinf(s):
                expected_hat += w * m ** k
                expected_fail += w * (1 - m) ** k
            else:
                pdf = beta_dist(m * s, (1 - m) * s).pdf
                expected_hat += w * integrate.quad(lambda p: p ** k * pdf(p), 0, 1)[0]
                expected_fail += w * integrate.quad(lambda p: (1 - p) ** k * pdf(p), 0, 1)[0]
        assert mix.pass_hat(k) == pytest.approx(expected_hat, rel=1e-6, abs=1e-9)
        assert mix.pass_at(k) == pytest.approx(1 - expected_fail, rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("index", range(len(MIXES)))
def test_simulated_curves_match_closed_forms_within_four_standard_errors(index):
    mix = MIXES[index]
    tasks, trials = 6000, 8
    outcomes = mix.simulate(tasks, trials, seed=100 + index)
    successes = outcomes.sum(axis=1)
    for k in range(1, trials + 1):
        for estimator, closed in ((passk.pass_hat_k, mix.pass_hat(k)),
                                  (passk.pass_at_k, mix.pass_at(k))):
            per_task = estimator(trials, successes, k)
            se = per_task.std(ddof=1) / math.sqrt(tasks)
            assert abs(per_task.mean() - closed) <= 4 * se + 1e-12, (k, estimator.__name__)


def test_curves_mean_equals_mean_of_per_task_estimates_and_is_seeded():
    mix = TaskMix.beta(0.5, 2.0)
    outcomes = mix.simulate(40, 6, seed=3)
    first = curves(outcomes, resamples=300, seed=9)
    second = curves(outcomes, resamples=300, seed=9)
    other = curves(outcomes, resamples=300, seed=10)
    assert np.array_equal(first.pass_hat_low, second.pass_hat_low)
    assert not np.array_equal(first.pass_hat_low, other.pass_hat_low)
    successes = outcomes.sum(axis=1)
    assert first.pass_hat[5] == pytest.approx(np.mean(passk.pass_hat_k(6, successes, 6)))
    assert first.pass_at[0] == pytest.approx(outcomes.mean())
    assert first.pass_hat[0] == pytest.approx(outcomes.mean())
    assert np.all(np.diff(first.pass_hat) <= 1e-12) and np.all(np.diff(first.pass_at) >= -1e-12)
    for point, low, high in ((first.pass_hat, first.pass_hat_low, first.pass_hat_high),
                             (first.pass_at, first.pass_at_low, first.pass_at_high)):
        assert np.all(low <= point + 1e-12) and np.all(point <= high + 1e-12)
    assert np.array_equal(mix.simulate(40, 6, seed=3), outcomes)


def test_interval_holds_its_point_when_every_task_agrees_or_nothing_can_spread():
    # 1,000 alike tasks x 50 trials: pass@k is exactly 1 for every task at large k, and the
    # resampled means came out a rounding error above it (a negative error bar in matplotlib).
    outcomes = TaskMix.beta(0.61, 1000.0).simulate(1000, 50, seed=4294967295)
    wide = curves(outcomes, resamples=20000, seed=4294967295)
    one_task = curves(outcomes[:1], resamples=50, seed=1)
    one_resample = curves(outcomes[:40], resamples=1, seed=1)
    for result in (wide, one_task, one_resample):
        for point, low, high in ((result.pass_hat, result.pass_hat_low, result.pass_hat_high),
                                 (result.pass_at, result.pass_at_low, result.pass_at_high)):
            assert np.all(low <= point) and np.all(point <= high)
    # where every task agrees the bootstrap has no width to give: Wilson's interval on the
    # mean over tasks stands in (as in from_counts), and the curves say where
    assert wide.pass_at[-1] == 1.0 and wide.pass_at_wilson[-1]
    assert wide.pass_at_low[-1] == pytest.approx(
        from_counts([50] * 1000, trials=50, k=50).pass_at_low) and wide.pass_at_low[-1] < 1
    assert not wide.pass_hat_wilson[0]
    assert np.all(one_task.pass_hat_wilson) and np.all(one_task.pass_at_wilson)
    assert np.all(one_task.pass_hat_high - one_task.pass_hat_low > 0.1)


def test_bootstrap_interval_width_agrees_with_the_planner():
    mix = TaskMix.beta(0.61, 1.0)
    outcomes = mix.simulate(400, 8, seed=5)
    result = curves(outcomes, resamples=2000, seed=5)
    boot_half = (result.pass_hat_high[7] - result.pass_hat_low[7]) / 2
    # The planner uses the model's variance, the bootstrap the sample's: agree within 20%.
    assert boot_half == pytest.approx(half_width(mix, 8, 400, 8), rel=0.2)


# --- one k from one's own results: from_counts and from_outcomes -------------------

def _bounds(result):
    return ((result.pass_hat_low, result.pass_hat, result.pass_hat_high),
            (result.pass_at_low, result.pass_at, result.pass_at_high))


@pytest.mark.parametrize("k", [1, 3, 6])
def test_from_outcomes_is_curves_at_one_k_and_from_counts_of_its_rows(k):
    """The same matrix, seed and resamples give curves' numbers at k, and the rows'
    counts give the matrix's numbers."""
    outcomes = TaskMix.beta(0.5, 2.0).simulate(40, 6, seed=3)
    whole = curves(outcomes, resamples=700, seed=11)
    one = from_outcomes(outcomes, k=k, resamples=700, seed=11)
    assert (one.k, one.tasks, one.trials, one.confidence, one.resamples) == (
        k, 40, 6, 0.95, 700)
    for name in ("pass_hat", "pass_hat_low", "pass_hat_high", "pass_at", "pass_at_low",
                 "pass_at_high"):
        assert getattr(one, name) == pytest.approx(getattr(whole, name)[k - 1],
                                                   abs=1e-12)
    counts = outcomes.sum(axis=1)
    assert from_counts(counts, trials=6, k=k, resamples=700, seed=11) == one
    assert from_outcomes(outcomes.astype(int), k=k, resamples=700, seed=11) == one


@pytest.mark.parametrize("n", [1, 2, 5, 7])
def test_from_counts_is_the_mean_over_tasks_of_every_k_subset(n):
    """Against brute force: each task's share of k-subsets of its trials with any (all)
    success, averaged over tasks."""
    counts = [c % (n + 1) for c in (0, 1, 2, 3, 5, 7, 7, 4)]
    for k in range(1, n + 1):
        result = from_counts(counts, trials=n, k=k, resamples=50)
        shares = np.array([_brute_force(n, c, k) for c in counts])
        assert result.pass_at == pytest.approx(shares[:, 0].mean(), abs=1e-12)
        assert result.pass_hat == pytest.approx(shares[:, 1].mean(), abs=1e-12)


def test_from_counts_interval_covers_the_closed_form_as_often_as_it_says():
    """200 seeded evaluations of 100 tasks x 5 trials from a known task mix: the 95%
    bootstrap intervals hold the mix's closed-form pass^3 and pass@3 about 95% of the
    time (the percentile bootstrap runs a little short with 100 tasks)."""
    mix = TaskMix.beta(0.6, 1.5)
    rng = np.random.default_rng(2026)
    held = np.zeros(2)
    for _ in range(200):
        counts = mix.simulate(100, 5, seed=rng).sum(axis=1)
        result = from_counts(counts, trials=5, k=3, resamples=500, seed=rng)
        held += [result.pass_hat_low <= mix.pass_hat(3) <= result.pass_hat_high,
                 result.pass_at_low <= mix.pass_at(3) <= result.pass_at_high]
    assert np.all((held / 200 >= 0.89) & (held / 200 <= 0.99)), held / 200


def _wilson(mean, tasks, confidence=0.95):
    """Wilson's score interval written out from Wilson (1927), with scipy's normal
    quantile: an implementation independent of reliability.passk and .stats."""
    from scipy.stats import norm

    z = norm.ppf(0.5 + confidence / 2)
    centre = (mean + z * z / (2 * tasks)) / (1 + z * z / tasks)
    half = (z / (1 + z * z / tasks)) * math.sqrt(
        mean * (1 - mean) / tasks + z * z / (4 * tasks * tasks))
    return max(0.0, centre - half), min(1.0, centre + half)


def test_from_counts_at_the_extremes():
    """Every task alike (all succeed, none succeed, one task): not a point, but Wilson's
    interval on the mean over the tasks, and the result says so."""
    every = from_counts([6, 6, 6], trials=6, k=4)
    none = from_counts([0, 0, 0, 0], trials=6, k=2)
    for result, value in ((every, 1.0), (none, 0.0)):
        for low, point, high in _bounds(result):
            assert point == value and low < high
            assert (low, high) == pytest.approx(_wilson(value, result.tasks), abs=1e-12)
        assert (result.pass_hat_method, result.pass_at_method) == ("wilson", "wilson")
        assert "Wilson interval over tasks" in str(result)
        assert "bootstrap" not in str(result)
    assert every.pass_hat_low == pytest.approx(3 / (3 + 1.959963984540054 ** 2))
    counts = np.array([0, 1, 3, 5, 5, 2])
    first = from_counts(counts, trials=5, k=1)
    assert first.pass_hat == pytest.approx(counts.mean() / 5, abs=1e-12)
    assert first.pass_at == pytest.approx(counts.mean() / 5, abs=1e-12)
    assert (first.pass_hat_low, first.pass_hat_high) == pytest.approx(
        (first.pass_at_low, first.pass_at_high))
    last = from_counts(counts, trials=5, k=5)
    assert last.pass_hat == pytest.approx(np.mean(counts == 5))
    assert last.pass_at == pytest.approx(np.mean(counts > 0))
    alone = from_counts([2], trials=3, k=2, resamples=1)
    assert alone.pass_hat == pytest.approx(1 / 3)
    assert alone.pass_hat_low < alone.pass_hat < alone.pass_hat_high
    assert (alone.pass_hat_low, alone.pass_hat_high) == pytest.approx(_wilson(1 / 3, 1))
    assert alone.pass_hat_method == "wilson"
    single = from_outcomes([[True]], k=1)
    assert (single.tasks, single.trials, single.pass_hat) == (1, 1, 1.0)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.integers(0, n), min_size=1, max_size=30), st.integers(1, n),
    st.sampled_from([0.5, 0.8, 0.95, 0.99]))))
def test_from_counts_interval_holds_its_point_and_narrows_with_less_confidence(args):
    n, counts, k, confidence = args
    wide = from_counts(counts, trials=n, k=k, confidence=confidence, resamples=200,
                       seed=5)
    narrow = from_counts(counts, trials=n, k=k, confidence=confidence / 2,
                         resamples=200, seed=5)
    for low, point, high in _bounds(wide):
        assert 0.0 <= low <= point <= high <= 1.0
    for (low, _, high), (n_low, _, n_high) in zip(_bounds(wide), _bounds(narrow)):
        assert low <= n_low + 1e-12 and n_high <= high + 1e-12
    assert wide.pass_hat <= wide.pass_at + 1e-12  # "every one of k" is never likelier


def _exact_estimates(counts, trials, k):
    """Each task's unbiased pass^k and pass@k as exact fractions of binomials."""
    hat = [Fraction(math.comb(c, k), math.comb(n, k)) for c, n in zip(counts, trials)]
    at = [1 - Fraction(math.comb(n - c, k), math.comb(n, k)) for c, n in zip(counts, trials)]
    return hat, at


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.integers(1, 30).flatmap(lambda n: st.tuples(st.integers(0, n),
                                                                 st.just(n))),
                min_size=1, max_size=25),
       st.integers(1, 30), st.sampled_from([0.8, 0.9, 0.95, 0.99]), st.booleans())
def test_from_counts_against_an_independent_implementation(tasks, k, confidence, ragged):
    """Random counts, ragged or not: the point is the mean of exact per-task binomial
    ratios (each task with its own n); the interval never collapses to a point; where
    every task scores the same it is Wilson's interval written out here; elsewhere it
    is a bootstrap of task means, so it lies within the tasks' own estimates."""
    counts = [c for c, _n in tasks]
    trials = [n for _c, n in tasks] if ragged else max(n for _c, n in tasks)
    each = trials if ragged else [trials] * len(counts)
    k = min(k, min(each))
    result = from_counts(counts, trials=trials, k=k, confidence=confidence,
                         resamples=200, seed=3)
    for estimates, (low, point, high), method in zip(
            _exact_estimates(counts, each, k), _bounds(result),
            (result.pass_hat_method, result.pass_at_method)):
        mean = sum(estimates) / len(estimates)
        assert point == pytest.approx(float(mean), abs=1e-12)
        assert 0.0 <= low <= point <= high <= 1.0
        if len(set(estimates)) == 1:
            assert method == "wilson" and low < high
            assert (low, high) == pytest.approx(_wilson(float(mean), len(counts),
                                                        confidence), abs=1e-12)
        else:
            assert method == "bootstrap"
            assert float(min(estimates)) - 1e-12 <= low <= high <= float(max(estimates)) + 1e-12
    if ragged and len(set(each)) > 1:
        assert result.trials == tuple(each)
        assert f"{min(each)}\u2013{max(each)} trials each" in str(result)


def test_ragged_outcomes_score_each_task_with_its_own_trials():
    rows = [[1, 1, 0, 1], [0, 1], [1, 1, 1, 1, 1, 0]]
    result = from_outcomes(rows, k=2, resamples=50)
    hat, at = _exact_estimates([3, 1, 5], [4, 2, 6], 2)
    assert result.pass_hat == pytest.approx(float(sum(hat) / 3))
    assert result.pass_at == pytest.approx(float(sum(at) / 3))
    assert result.trials == (4, 2, 6)
    assert from_counts([3, 1, 5], trials=[4, 2, 6], k=2, resamples=50) == result
    with pytest.raises(ValueError, match=r"k must be a whole number in \[1, 2\]"):
        from_outcomes(rows, k=3)


def test_from_counts_is_seeded():
    counts = TaskMix.beta(0.5, 1.0).simulate(30, 4, seed=1).sum(axis=1)
    first = from_counts(counts, trials=4, k=2, seed=7)
    assert from_counts(counts, trials=4, k=2, seed=7) == first
    assert from_counts(counts, trials=4, k=2, seed=np.random.default_rng(7)) == first
    assert from_counts(counts, trials=4, k=2, seed=8) != first


def test_a_pass_estimate_prints_words_in_the_page_language():
    result = from_counts([5, 4, 5, 2, 0, 5, 3, 4], trials=5, k=3, confidence=0.9)
    text = str(result)
    assert text.splitlines()[0].startswith("pass^3 = 48.8%, 90% interval [")
    assert text.splitlines()[1].startswith("pass@3 = 86.2%, 90% interval [")
    assert "from 8 tasks of 5 trials each" in text and "2,000 resamples" in text
    assert "PassEstimate" not in text and "0.48" not in text
    assert "97.5% interval" in str(from_counts([1], trials=1, k=1, confidence=0.975))
    assert "from 1 task of 1 trial each" in str(from_counts([1], trials=1, k=1))
    with i18n.language("ru"):
        russian = str(result)
    assert "pass^3 = 48,8%, 90%-й интервал [" in russian
    assert "8 задач, в каждой 5 прогонов" in russian
    assert "2\xa0000 повторных выборок" in russian  # CLDR's no-break space in groups


@pytest.mark.parametrize("call, word", [
    (lambda: from_counts([3, 6], trials=5, k=2),
     r"successes must lie in \[0, trials\] = \[0, 5\]"),
    (lambda: from_counts([3, -1], trials=5, k=2), r"successes must hold whole .* >= 0"),
    (lambda: from_counts([2.5], trials=5, k=2), r"successes must hold whole numbers"),
    (lambda: from_counts([True, False], trials=5, k=2), r"successes must hold whole"),
    (lambda: from_counts([], trials=5, k=2), r"successes must hold one count per task"),
    (lambda: from_counts(3, trials=5, k=2), r"successes must be a sequence"),
    (lambda: from_counts([[1, 2]], trials=5, k=2), r"successes must be a sequence"),
    (lambda: from_counts("35", trials=5, k=2), r"successes must be a sequence"),
    (lambda: from_counts([3], trials=5, k=6), r"k must be a whole number in \[1, 5\]"),
    (lambda: from_counts([3], trials=5, k=0), r"k must be a whole number in \[1, 5\]"),
    (lambda: from_counts([3], trials=5, k=1.5), r"k must be a whole number in \[1, 5"),
    (lambda: from_counts([0], trials=0, k=1), r"trials must be a whole number >= 1"),
    (lambda: from_counts([3], trials=5, k=2, confidence=1.0), r"confidence"),
    (lambda: from_counts([3], trials=5, k=2, resamples=0), r"resamples must be a"),
    (lambda: from_counts([3], trials=5, k=2, seed=-1), r"seed must be a whole number"),
    (lambda: from_outcomes([True, False], k=1), r"outcomes must be a tasks x trials"),
    (lambda: from_outcomes([[0, 2]], k=1), r"outcomes must hold booleans or 0/1"),
    (lambda: from_outcomes([[1, 0]], k=3), r"k must be a whole number in \[1, 2\]"),
    (lambda: from_counts([3, 2], trials=[4], k=1), r"trials must be one whole number"),
    (lambda: from_counts([3, 2], trials=[4, 0], k=1), r"trials must hold whole numbers"),
    (lambda: from_counts([3, 2], trials=[[4, 2]], k=1), r"trials must be one whole"),
    (lambda: from_counts([3, 2], trials=[[4], [2, 1]], k=1), r"trials must hold whole"),
    (lambda: from_counts([5, 2], trials=[4, 2], k=1),
     r"successes must lie in \[0, trials\] for each task, got \[5\] above trials \[4\]"),
    (lambda: from_counts([[1, 2], [3]], trials=5, k=1), r"successes must hold whole"),
    (lambda: from_outcomes([[1, 0], [1, 2, 0]], k=1), r"outcomes must hold booleans"),
    (lambda: from_outcomes([[1, 0], []], k=1), r"outcomes must be a tasks x trials"),
    (lambda: from_outcomes([[1, 0], [1, [0]]], k=1), r"outcomes must be a tasks x trials"),
    (lambda: from_outcomes([[1, 0], None], k=1), r"outcomes must be a tasks x trials"),
    (lambda: PassEstimate(k=1, pass_hat=0.5, pass_hat_low=0.5, pass_hat_high=0.7,
                          pass_at=0.5, pass_at_low=0.4, pass_at_high=0.7, tasks=3,
                          trials=2, pass_at_method="guess"), r"pass_at_method must be one of"),
    (lambda: PassEstimate(k=1, pass_hat=0.5, pass_hat_low=0.5, pass_hat_high=0.7,
                          pass_at=0.5, pass_at_low=0.4, pass_at_high=0.7, tasks=3,
                          trials=(2, 3)), r"trials must be one whole number >= 1, or one per task"),
    (lambda: PassEstimate(k=1, pass_hat=0.5, pass_hat_low=0.6, pass_hat_high=0.7,
                          pass_at=0.5, pass_at_low=0.4, pass_at_high=0.7, tasks=3,
                          trials=2), r"pass_hat_low <= pass_hat <= pass_hat_high"),
])
def test_from_counts_refuses_bad_input_naming_the_argument_and_its_range(call, word):
    with pytest.raises(ValueError, match=word):
        call()


def test_estimator_variance_matches_simulation():
    mix = TaskMix.beta(0.4, 1.5)
    tasks, trials, k = 20000, 8, 3
    successes = mix.simulate(tasks, trials, seed=21).sum(axis=1)
    per_task = passk.pass_hat_k(trials, successes, k)
    deviation = (per_task - per_task.mean()) ** 2
    se = deviation.std(ddof=1) / math.sqrt(tasks)
    assert abs(deviation.mean() - estimator_variance(mix, k, trials)) <= 4 * se


def test_plan_gives_the_smallest_task_count_that_reaches_the_width():
    mix = TaskMix.beta(0.61, 1.0)
    result = plan(mix, 8, 0.1, [8, 16, 40])
    for trials, tasks in zip(result["trials"], result["tasks"]):
        assert 2 * half_width(mix, 8, int(tasks), int(trials)) <= 0.1 + 1e-12
        assert 2 * half_width(mix, 8, int(tasks) - 1, int(trials)) > 0.1
    assert np.array_equal(result["runs"], result["tasks"] * result["trials"])
    assert np.all(np.diff(result["tasks"]) <= 0)  # more trials never need more tasks


def test_standard_error_bound_covers_the_simulated_error():
    mix = TaskMix.beta(0.6, 1.0)
    estimates = []
    for seed in range(200):
        successes = mix.simulate(115, 8, seed=seed).sum(axis=1)
        estimates.append(np.mean(passk.pass_hat_k(8, successes, 4)))
    assert np.std(estimates) <= standard_error_bound([mix.pass_hat(1), mix.pass_hat(4)], 115)[1]


# --- fitting and bounding -----------------------------------------------------------

@pytest.mark.parametrize("mix", [TaskMix.beta(0.45, 1.3),
                                 TaskMix((0.85, 0.15), (0.5, 0.0), (2.0, math.inf))])
def test_fit_recovers_a_known_mix(mix):
    values = mix.pass_hat(np.arange(1, 5))
    fit = fit_task_mix(values)
    assert fit.largest_miss < 1e-5
    assert fit.mix.pass_hat(8) == pytest.approx(mix.pass_hat(8), abs=2e-3)


@pytest.mark.parametrize("mix", MIXES)
def test_moment_bounds_contain_the_truth_and_tighten_with_more_values(mix):
    values = mix.pass_hat(np.arange(1, 7))
    truth = mix.pass_hat(8)
    low4, high4 = moment_bounds(values[:4], 8, tolerance=1e-6)
    low6, high6 = moment_bounds(values, 8, tolerance=1e-6)
    assert low4 - 1e-4 <= truth <= high4 + 1e-4
    assert low6 - 1e-4 <= truth <= high6 + 1e-4
    assert high6 - low6 <= high4 - low4 + 1e-6
    wide = moment_bounds(values[:4], 8, tolerance=0.02)
    assert wide[0] <= low4 + 1e-9 and wide[1] >= high4 - 1e-9


def test_bad_inputs_to_the_model_are_refused():
    with pytest.raises(ValueError, match="no distribution"):
        moment_bounds([0.3, 0.5], 4)  # E[p^2] cannot exceed E[p]
    with pytest.raises(ValueError, match="tolerance"):
        moment_bounds([0.5, 0.3], 4, tolerance=-1)
    with pytest.raises(ValueError, match="values"):
        fit_task_mix([0.5])
    with pytest.raises(ValueError, match="means"):
        TaskMix.beta(1.2, 3.0)
    with pytest.raises(ValueError, match="Beta component"):
        TaskMix.beta(1.0, 3.0)
    for concentration in (0.0, math.inf, -1.0, math.nan):
        with pytest.raises(ValueError, match=r"concentration must be a finite number > 0"):
            TaskMix.beta(0.5, concentration)
    with pytest.raises(ValueError, match="weights"):
        TaskMix((-1.0, 2.0), (0.2, 0.3), (1.0, 1.0))
    with pytest.raises(ValueError, match="outcomes"):
        curves(np.ones(5, bool))
    with pytest.raises(ValueError, match="outcomes"):
        curves(np.full((3, 4), 2))
    with pytest.raises(ValueError, match="k"):
        estimator_variance(TaskMix.beta(0.5, 1.0), 9, 8)
    with pytest.raises(ValueError, match="width"):
        plan(TaskMix.beta(0.5, 1.0), 4, 0.0, 8)
    with pytest.raises(ValueError, match="seed"):
        TaskMix.beta(0.5, 1.0).simulate(3, 3, seed=-1)


def test_published_table_reads_pass_k_rows_with_their_sources():
    from pathlib import Path

    table = published_table(Path(__file__).resolve().parent.parent / "data" / "tau_bench.csv")
    assert table["fraction"].between(0, 1).all()
    assert table["k"].between(1, 8).all()
    for column in ("paper", "arxiv", "where", "source", "source_kind", "confidence"):
        assert table[column].notna().all()


def test_published_table_takes_the_packaged_table_itself_and_leaves_it_alone():
    import pandas as pd

    from reliability.datasets import load, path

    raw = load("tau_bench")
    before = raw.copy()
    table = published_table(raw)
    pd.testing.assert_frame_equal(table, published_table(path("tau_bench")))
    pd.testing.assert_frame_equal(raw, before)
    assert set(table["metric"]) == {f"pass^{k}" for k in table["k"]}
    with pytest.raises(ValueError, match="lacks the columns"):
        published_table(raw.drop(columns="unit"))


def test_extrapolate_bands_nest_and_contain_the_truth():
    mix = TaskMix((0.8, 0.2), (0.55, 0.0), (1.5, math.inf))
    values = np.round(mix.pass_hat(np.arange(1, 5)), 3)
    result = extrapolate(values, 8, tasks=115)
    low, high = result["rounding"]
    assert low - 1e-4 <= mix.pass_hat(8) <= high + 1e-4
    assert result["sampling"][0] <= low + 1e-9 and result["sampling"][1] >= high - 1e-9
    assert extrapolate(values, 8)["sampling"] is None


def _board(mix, setting="retail", model="m"):
    import pandas as pd

    values = np.round(mix.pass_hat(np.arange(1, 5)), 3)
    return pd.DataFrame({"setting": setting, "model": model, "k": [3, 1, 4, 2],
                         "fraction": values[[2, 0, 3, 1]]})


def test_extrapolation_table_matches_extrapolate_per_group_in_k_order():
    import pandas as pd

    first, second = TaskMix.beta(0.6, 1.0), TaskMix.beta(0.4, 20.0)
    board = pd.concat([_board(first), _board(second, setting="airline", model="n")])
    frame = extrapolation_table(board, 8, tasks={"retail": 115})
    by = frame.set_index("setting")
    direct = extrapolate(np.round(first.pass_hat(np.arange(1, 5)), 3), 8, tasks=115)
    assert by.loc["retail", "band (rounding)"] == pytest.approx(direct["rounding"])
    assert by.loc["retail", "band (2 SE)"] == pytest.approx(direct["sampling"])
    assert by.loc["retail", "fitted pass^8"] == pytest.approx(direct["fitted"])
    assert by.loc["retail", "pass^1"] == pytest.approx(round(first.pass_hat(1), 3))
    assert by.loc["airline", "band (2 SE)"] is None
    shown = extrapolation_summary(frame).set_index("setting")
    assert shown.loc["airline", "band (2 SE)"] == "no task count"
    low, high = direct["rounding"]
    assert shown.loc["retail", "band (rounding)"] == f"{low:.3f} to {high:.3f}"
    assert shown.loc["retail", "fit"] == direct["fit"].family
    assert "values" not in shown.columns


def test_extrapolation_table_refuses_bad_input():
    import pandas as pd

    board = _board(TaskMix.beta(0.6, 1.0))
    with pytest.raises(ValueError, match="board"):
        extrapolation_table(board.drop(columns="fraction"))
    with pytest.raises(ValueError, match="board"):
        extrapolation_table(board.iloc[0:0])
    with pytest.raises(ValueError, match="without a gap"):
        extrapolation_table(board[board.k != 2])
    with pytest.raises(ValueError, match="tasks"):
        extrapolation_table(board, tasks=115)
    with pytest.raises(ValueError, match="k"):
        extrapolation_table(board, 0)
    with pytest.raises(ValueError, match="frame"):
        extrapolation_summary(pd.DataFrame({"a": [1]}))


def test_resamples_within_keeps_a_setting_to_its_budget_of_case_draws():
    # within the budget the text's resamples stand; past it, as many as fit, at least one
    assert passk.resamples_within(2000, 40) == 2000
    assert passk.resamples_within(2000, 200) == 500
    assert passk.resamples_within(2000, 200, draws=1_000) == 5
    assert passk.resamples_within(2000, 10**6) == 1
    for tasks in (1, 7, 49, 50, 51, 999):
        fewer = passk.resamples_within(2000, tasks, draws=100)
        assert fewer == 2000 or fewer * tasks <= 100 or fewer == 1


@pytest.mark.parametrize("args, word", [((0, 40), "resamples"), ((2000, 0), "tasks"),
                                        ((2000, 40, 0), "draws"), ((2.5, 40), "resamples")])
def test_resamples_within_refuses_bad_input_naming_it(args, word):
    with pytest.raises(ValueError, match=word):
        passk.resamples_within(*args)


def test_chapter_4_spends_its_explorer_budget_through_the_package():
    """The hidden glue cell and the visible explorer cell once each typed the rule; both
    now call one function, so the prose and the explorer cannot disagree about it."""
    import json
    from pathlib import Path

    chapter = Path(__file__).resolve().parent.parent / "chapters" / "04_pass_k.ipynb"
    code = ["".join(c["source"]) for c in json.loads(chapter.read_text())["cells"]
            if c["cell_type"] == "code"]
    assert not [c for c in code if "// tasks" in c]
    assert sum("resamples_within(resamples, tasks)" in c for c in code) == 2
