"""Chapter 4's live explorer: pass^k and pass@k of a Beta task mix, the seeded recipe
(cases x runs) measured with bootstrap intervals, and the sentence, against direct calls
to ``reliability.passk``. The page side is in tests/test_browser.py.
What every explorer shares (bad input, defaults, page data) is in
tests/test_live_contract.py."""

from __future__ import annotations

import numpy as np
import pytest

from reliability import passk
from reliability.figures import passk as figures

CASES, RUNS, SEED, RESAMPLES = 50, 8, 20261204, 1000


@pytest.fixture(scope="module")
def mixes():
    return figures.live_mixes(cases=CASES, runs=RUNS, seed=SEED, pass1=0.604,
                              concentration=1.0, k=8, resamples=RESAMPLES)


def _direct(pass1, s, k):
    """The sentence's numbers, computed from the package without the explorer."""
    mix = passk.TaskMix.beta(pass1, s)
    measured = passk.curves(mix.simulate(CASES, RUNS, seed=SEED), resamples=RESAMPLES,
                            seed=SEED)
    i = k - 1
    return (f"pass^{k} = {mix.pass_hat(k):.1%} and pass@{k} = {mix.pass_at(k):.1%}",
            f"pass^{k} would be {pass1 ** k:.1%}",
            f"measure pass^{k} at {measured.pass_hat[i]:.1%} (95% bootstrap interval "
            f"{measured.pass_hat_low[i]:.1%} to {measured.pass_hat_high[i]:.1%})")


def test_the_explorer_starts_at_the_chapters_setting(mixes):
    assert mixes.sentence().startswith("Model: tasks with pass^1 = 60%, spread with "
                                       "concentration s = 1, have pass^8 = ")
    assert mixes.source[1] == {"cases": CASES, "runs": RUNS, "seed": SEED, "pass1": 0.6,
                               "concentration": 1.0, "k": 8, "resamples": RESAMPLES}
    # a start inside the sliders' ranges is a position of its own (pass^1 to two places,
    # s to three digits), so the explorer starts on the numbers the chapter's text cites
    own = figures.live_mixes(cases=2, runs=3, seed=0, pass1=0.6612,
                             concentration=70.04, k=20, resamples=5)
    assert own.source[1]["pass1"] == 0.66
    assert own.source[1]["concentration"] == 70.0
    assert 0.66 in own.controls[0].values and 70.0 in own.controls[1].values
    assert own.sentence().startswith("Model: tasks with pass^1 = 66%, spread with "
                                     "concentration s = 70, have pass^3 = ")
    # outside them, and k, the nearest position offered
    snapped = figures.live_mixes(cases=2, runs=3, seed=0, pass1=0.97,
                                 concentration=700.0, k=20, resamples=5)
    assert snapped.source[1]["pass1"] == 0.9
    assert snapped.source[1]["concentration"] == 100.0
    assert snapped.source[1]["k"] == 3
    assert snapped.controls[2].values == (1, 2, 3)


def test_a_measurement_with_no_spread_gets_wilsons_interval(mixes):
    """At pass^1 = 10% and alike tasks no case passes 8 runs of 8: the bootstrap would
    say 0.0% to 0.0%; the sentence gives Wilson's interval on the 50 cases and says so."""
    text = mixes.sentence(pass1=0.1, s=50.0, k=8)
    measured = passk.curves(passk.TaskMix.beta(0.1, 50.0).simulate(CASES, RUNS, seed=SEED),
                            resamples=RESAMPLES, seed=SEED)
    assert measured.pass_hat_wilson[7] and measured.pass_hat[7] == 0.0
    # the same interval as the package's one-k estimate of 50 cases that all failed
    none = passk.from_counts([0] * CASES, trials=RUNS, k=8)
    low, high = measured.pass_hat_low[7], measured.pass_hat_high[7]
    assert none.pass_hat_method == "wilson"
    assert (low, high) == (none.pass_hat_low, none.pass_hat_high) and high > 0.05
    assert (f"measure pass^8 at 0.0%, the same on every case (95% Wilson interval "
            f"{low:.1%} to {high:.1%})") in text, text
    assert "0.0% to 0.0%" not in text


@pytest.mark.parametrize("pass1, s, k", [(0.6, 1.0, 8), (0.6, 50.0, 8), (0.1, 0.1, 1),
                                         (0.9, 100.0, 3), (0.3, 5.0, 5)])
def test_the_sentence_states_the_packages_numbers(mixes, pass1, s, k):
    text = mixes.sentence(pass1=pass1, s=s, k=k)
    for part in _direct(pass1, s, k):
        assert part in text, (part, text)


def test_measured_dots_agree_with_the_closed_form(mixes):
    """Every dot at every (pass^1, s) within 4.5 standard errors of the mix's pass^k, the
    standard error from the estimator's exact variance over tasks and trials."""
    data = mixes.data()
    dots = next(s for s in data["series"] if s["kind"] == "points")
    pass1s, concentrations = (c["values"] for c in data["controls"][:2])
    worst = 0.0
    for i, pass1 in enumerate(pass1s):
        for j, s in enumerate(concentrations):
            x, rate, low, high = (np.array(col) for col in dots["frames"][f"{i}_{j}"])
            mix = passk.TaskMix.beta(pass1, s)
            closed = mix.pass_hat(x.astype(int))
            se = np.array([np.sqrt(passk.estimator_variance(mix, int(k), RUNS) / CASES)
                           for k in x])
            worst = max(worst, (np.abs(rate - closed) / np.maximum(se, 1 / CASES)).max())
            assert np.all((low <= rate + 1e-9) & (rate <= high + 1e-9))
    assert worst < 4.5, worst


def test_the_lines_are_the_closed_forms(mixes):
    data = mixes.data()
    hat, at, same = data["series"][:3]
    ks = np.arange(1, 9)
    mix = passk.TaskMix.beta(0.3, 5.0)
    i, j = data["controls"][0]["values"].index(0.3), data["controls"][1]["values"].index(5.0)
    np.testing.assert_allclose(hat["frames"][f"{i}_{j}"][1], mix.pass_hat(ks), rtol=1e-4)
    np.testing.assert_allclose(at["frames"][f"{i}_{j}"][1], mix.pass_at(ks), rtol=1e-4)
    np.testing.assert_allclose(same["frames"][str(i)][1], 0.3 ** ks, rtol=1e-4)


def test_one_run_per_case_offers_k_of_two_without_a_measurement():
    single = figures.live_mixes(cases=5, runs=1, seed=0, k=8, resamples=10)
    assert single.controls[2].values == (1, 2)
    assert "measure pass^2 not at all: pass^2 needs 2 runs of a case" in single.sentence()
