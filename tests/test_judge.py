"""A judge with a shared blind spot: closed forms, the simulation that checks them, bad
input."""

import math

import numpy as np
import pytest

from reliability import Verifier, Workflow
from reliability.judge import (blind_share_of_passes, effective_recall, judged_workflow,
                               lift, simulate)
from reliability.stats import binomial_standard_error

RUNS = 6000
TOLERANCE_SE = 4.0
# (workflow, recall, false rejection, shared blind spot)
CONFIGURATIONS = [
    (Workflow(attempts=3), 0.8, 0.05, 0.0),
    (Workflow(attempts=3), 0.8, 0.05, 0.5),
    (Workflow(attempts=3), 0.8, 0.05, 1.0),
    (Workflow(steps=30, attempts=3), 0.95, 0.02, 0.3),
    (Workflow(steps=5, error=0.1, silent=0.3, attempts=2), 0.9, 0.2, 0.6),
    (Workflow(steps=8, error=0.0, silent=0.2, attempts=4), 1.0, 0.0, 0.25),
    (Workflow(steps=1, error=0.3, silent=0.4, attempts=1), 0.7, 0.1, 0.8),
]


@pytest.mark.parametrize("index", range(len(CONFIGURATIONS)))
def test_simulated_endings_match_the_effective_recall_closed_form(index):
    base, d, f, rho = CONFIGURATIONS[index]
    sim = simulate(base, d, f, rho, runs=RUNS, seed=300 + index)
    closed = judged_workflow(base, d, f, rho).outcome_probabilities()
    for ending in ("success", "wrong", "gave_up"):
        count = sim["successes"] if ending == "success" else sim[ending]
        se = max(binomial_standard_error(closed[ending], RUNS), 1 / RUNS)
        assert abs(count / RUNS - closed[ending]) <= TOLERANCE_SE * se, (ending, index)
    assert sim["successes"] + sim["wrong"] + sim["gave_up"] == RUNS
    assert sim["low"] <= sim["rate"] <= sim["high"]


@pytest.mark.parametrize("index", [1, 3, 4, 6])
def test_simulated_blind_share_of_passes_matches_its_closed_form(index):
    base, d, f, rho = CONFIGURATIONS[index]
    sim = simulate(base, d, f, rho, runs=RUNS, seed=400 + index)
    passed = sim["blind_passes"] + sim["seen_passes"]
    share, expected = sim["blind_passes"] / passed, blind_share_of_passes(d, rho)
    # Passes within a run are not independent, so allow twice the binomial error.
    se = binomial_standard_error(expected, passed)
    assert abs(share - expected) <= 2 * TOLERANCE_SE * se


def test_effective_recall_is_the_share_the_judge_can_see_times_its_recall():
    assert effective_recall(0.8, 0.0) == 0.8
    assert effective_recall(0.8, 0.25) == pytest.approx(0.6)
    assert effective_recall(0.8, 1.0) == 0.0


def test_no_shared_blind_spot_is_the_independent_verifier():
    base = Workflow(steps=10, attempts=3)
    plain = Workflow(steps=10, attempts=3, verifier=Verifier(0.8, 0.05))
    assert judged_workflow(base, 0.8, 0.05, 0.0).success() == pytest.approx(plain.success())


def test_a_fully_shared_blind_spot_leaves_only_the_false_rejections():
    base = Workflow(steps=10, attempts=3)
    blind = judged_workflow(base, 0.9, 0.05, 1.0)
    assert blind.success() == pytest.approx(
        Workflow(steps=10, attempts=3, verifier=Verifier(0.0, 0.05)).success())
    assert lift(base, 0.9, 0.05, 1.0) < 0  # it only rejects right answers now
    assert lift(base, 0.9, 0.0, 1.0) == pytest.approx(0.0)


def test_lift_shrinks_as_the_blind_spot_grows():
    base = Workflow(steps=10, attempts=3)
    lifts = [lift(base, 0.8, 0.05, rho) for rho in np.linspace(0, 1, 11)]
    assert all(a > b for a, b in zip(lifts, lifts[1:]))
    assert lifts[0] == pytest.approx(
        Workflow(steps=10, attempts=3, verifier=Verifier(0.8, 0.05)).success()
        - base.success())


def test_blind_share_of_passes_closed_form():
    assert blind_share_of_passes(0.8, 0.5) == pytest.approx(0.5 / 0.6)
    assert blind_share_of_passes(0.0, 0.3) == pytest.approx(0.3)
    assert math.isnan(blind_share_of_passes(1.0, 0.0))


def test_simulation_is_seeded():
    base = Workflow(steps=5, attempts=2)
    first = simulate(base, 0.8, 0.05, 0.4, runs=500, seed=7)
    assert first == simulate(base, 0.8, 0.05, 0.4, runs=500, seed=7)
    assert first != simulate(base, 0.8, 0.05, 0.4, runs=500, seed=8)
    rng = np.random.default_rng(7)
    assert simulate(base, 0.8, 0.05, 0.4, runs=500, seed=rng) == first


def test_blocks_do_not_change_the_counts_closed_form_agreement():
    # More runs than one block holds: the blocks must add up to the totals.
    base = Workflow(steps=2, attempts=1)
    sim = simulate(base, 0.8, 0.05, 0.5, runs=300_000, seed=1)
    assert sim["runs"] == 300_000
    closed = judged_workflow(base, 0.8, 0.05, 0.5).success()
    assert abs(sim["rate"] - closed) <= TOLERANCE_SE * binomial_standard_error(closed,
                                                                               300_000)


@pytest.mark.parametrize("call, name", [
    (lambda: effective_recall(1.2, 0.1), "recall"),
    (lambda: effective_recall(0.8, -0.1), "shared"),
    (lambda: judged_workflow("wf", 0.8, 0.05, 0.1), "base"),
    (lambda: judged_workflow(Workflow(), 0.8, math.nan, 0.1), "false_reject"),
    (lambda: lift(Workflow(), 0.8, 0.05, 2.0), "shared"),
    (lambda: simulate(Workflow(), 0.8, 0.05, 0.1, runs=0, seed=1), "runs"),
    (lambda: simulate(Workflow(), 0.8, 0.05, 0.1, runs=10, seed=-1), "seed"),
    (lambda: simulate(Workflow(steps=10**4, attempts=10**3), 0.8, 0.05, 0.1,
                      runs=10**4, seed=1), "runs x steps x attempts"),
])
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(ValueError, match=name):
        call()
