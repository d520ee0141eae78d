"""The workflow model: closed forms, the seeded simulation that checks them, bad input."""

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reliability import EVENTS, Verifier, Workflow, horizon
from reliability.stats import binomial_standard_error

# The reference page's test rule: every simulated rate within four standard errors of its
# closed form, for twelve configurations of 6,000 runs each.
RUNS = 6000
TOLERANCE_SE = 4.0
CONFIGURATIONS = [
    Workflow(),
    Workflow(steps=1),
    Workflow(steps=30),
    Workflow(attempts=3),
    Workflow(steps=30, attempts=3),
    Workflow(attempts=3, verifier=Verifier()),
    Workflow(steps=30, attempts=3, verifier=Verifier()),
    Workflow(steps=5, error=0.2, silent=0.1, attempts=2),
    Workflow(steps=20, error=0.01, silent=0.01, attempts=1),
    Workflow(steps=10, error=0.3, silent=0.0, attempts=5),
    Workflow(steps=8, error=0.1, silent=0.2, attempts=4,
             verifier=Verifier(recall=0.95, false_reject=0.2)),
    Workflow(steps=15, error=0.0, silent=0.05, attempts=3,
             verifier=Verifier(recall=0.5, false_reject=0.0)),
]


def _attempts_standard_error(sim):
    return sim.attempts_per_run.std(ddof=1) / math.sqrt(sim.runs)


@pytest.mark.parametrize("index", range(len(CONFIGURATIONS)))
def test_simulated_rates_match_closed_forms(index):
    wf = CONFIGURATIONS[index]
    sim = wf.simulate(runs=RUNS, seed=100 + index)
    closed = wf.outcome_probabilities()
    observed = {"success": sim.successes, "wrong": sim.wrong, "gave_up": sim.gave_up}
    for outcome, count in observed.items():
        se = max(binomial_standard_error(closed[outcome], RUNS), 1 / RUNS)
        assert abs(count / RUNS - closed[outcome]) <= TOLERANCE_SE * se, (outcome, wf)
    se_attempts = max(_attempts_standard_error(sim), 1e-9)
    assert abs(sim.mean_attempts - wf.expected_attempts()) <= TOLERANCE_SE * se_attempts


@settings(max_examples=40, deadline=None)
@given(steps=st.integers(1, 25), error=st.floats(0, 0.5), silent=st.floats(0, 0.5),
       attempts=st.integers(1, 5), recall=st.none() | st.floats(0, 1),
       false_reject=st.floats(0, 0.5), seed=st.integers(0, 2**32 - 1))
def test_random_configurations_match_closed_forms(steps, error, silent, attempts, recall,
                                                  false_reject, seed):
    verifier = None if recall is None else Verifier(recall=recall, false_reject=false_reject)
    wf = Workflow(steps=steps, error=error, silent=silent, attempts=attempts, verifier=verifier)
    runs = 3000
    sim = wf.simulate(runs=runs, seed=seed)
    # 4.5 SE over 40 examples keeps the chance of a false alarm well under 1 in 1,000.
    se = max(binomial_standard_error(wf.success(), runs), 1 / runs)
    assert abs(sim.rate - wf.success()) <= 4.5 * se
    se_attempts = max(_attempts_standard_error(sim), 1 / runs)
    assert abs(sim.mean_attempts - wf.expected_attempts()) <= 4.5 * se_attempts


def test_page_numbers_reproduced():
    assert round(Workflow().success(), 3) == 0.434
    assert round(Workflow(steps=30).success(), 3) == 0.082
    assert round(Workflow(attempts=3).success(), 3) == 0.725
    assert round(Workflow(attempts=3).expected_attempts(), 2) == 10.52
    verified = Workflow(attempts=3, verifier=Verifier(recall=0.8, false_reject=0.05))
    assert round(verified.success(), 3) == 0.918
    assert round(replace(verified, steps=30).success(), 3) == 0.773
    assert round(Workflow(steps=30, attempts=3).success(), 3) == 0.380
    assert Workflow(attempts=3).S_A == pytest.approx(1.0525)


def test_the_interactive_pages_cost_is_within_one_standard_error_of_the_closed_form():
    # The page prints 10.53 attempts per ten-step run (data/reliability_page.csv); the
    # closed form is 10.519, and one standard error of a 2,000-run mean is about 0.017,
    # so the page's number is a simulated mean or n S_A rounded, not a disagreement.
    from reliability.datasets import load

    page = float(load("reliability_page").set_index("metric")
                 .loc["attempts per run (mean)", "value"])
    wf = Workflow(attempts=3)
    sim = wf.simulate(runs=2000, seed=0)
    assert abs(page - wf.expected_attempts()) < _attempts_standard_error(sim)
    assert round(wf.S_A * wf.steps, 3) == 10.525


def test_horizon_ladder():
    assert [round(horizon(p)) for p in (0.99, 0.999, 0.9999)] == [69, 693, 6931]
    assert horizon(0.95) == pytest.approx(13.51, abs=0.01)
    assert horizon(0.99) == pytest.approx(68.97, abs=0.01)
    assert 0.99 ** horizon(0.99, target=0.9) == pytest.approx(0.9)


def test_step_quantities_add_up():
    wf = Workflow(steps=7, error=0.1, silent=0.2, attempts=4, verifier=Verifier(0.7, 0.1))
    assert wf.r + wf.a + wf.b == pytest.approx(1.0)
    assert wf.step_success + wf.step_wrong + wf.give_up == pytest.approx(1.0)
    assert sum(wf.outcome_probabilities().values()) == pytest.approx(1.0)
    lengths = np.array([1, 3, 7])
    assert wf.success_by_length(lengths) == pytest.approx(wf.step_success ** lengths)


def test_expected_attempts_matches_the_plain_sum():
    wf = Workflow(steps=12, error=0.4, silent=0.1, attempts=3)
    plain = wf.S_A * sum((1 - wf.give_up) ** i for i in range(wf.steps))
    assert wf.expected_attempts() == pytest.approx(plain, rel=1e-12)


def test_same_seed_same_result_and_generator_accepted():
    wf = Workflow(attempts=3, verifier=Verifier())
    first, second = wf.simulate(runs=500, seed=9), wf.simulate(runs=500, seed=9)
    assert first == second
    assert np.array_equal(first.attempts_per_run, second.attempts_per_run)
    assert wf.simulate(runs=500, seed=np.random.default_rng(9)) == first
    assert wf.simulate(runs=500, seed=10) != first


@pytest.mark.parametrize("wf", [
    Workflow(steps=10, error=0.2, silent=0.1, attempts=2, verifier=Verifier(0.8, 0.1)),
    Workflow(steps=10, error=0.3, silent=0.1, attempts=3),   # no verifier: another path
], ids=["verifier", "no verifier"])
def test_log_follows_the_rules(wf):
    sim = wf.simulate(runs=300, seed=4, log_runs=300)
    assert len(sim.log) == 300
    retried = {"error", "rejected_ok", "caught"}
    for run, attempts in zip(sim.log, sim.attempts_per_run):
        assert sum(len([e for e in step if e != "gave_up"]) for step in run) == attempts
        for step in run:
            assert set(step) <= set(EVENTS)
            assert all(e in retried for e in step[:-1])
            if step[-1] == "gave_up":
                assert len(step) == wf.attempts + 1 and step is run[-1]
        assert (len(run) == wf.steps) or run[-1][-1] == "gave_up"
    successes = sum(all(step[-1] == "ok" for step in run) and len(run) == wf.steps
                    for run in sim.log)
    assert successes == sim.successes


@pytest.mark.parametrize("block", [1, 7, 4096])
def test_uniforms_drawn_in_blocks_give_the_same_result_as_one_draw(block, monkeypatch):
    """The first attempts are drawn and compared a cache-sized block at a time; the blocks
    follow the generator's stream in order, so any block size gives the same runs."""
    import reliability.workflow as workflow

    wf = Workflow(steps=13, error=0.3, silent=0.1, attempts=3)
    whole = wf.simulate(runs=997, seed=5, log_runs=20)
    monkeypatch.setattr(workflow, "_BLOCK", block)
    blocked = wf.simulate(runs=997, seed=5, log_runs=20)
    assert blocked == whole and blocked.log == whole.log
    assert np.array_equal(blocked.attempts_per_run, whole.attempts_per_run)


def test_chunked_simulation_matches_counts():
    # A run count above one chunk exercises the chunk loop; counts must still add up.
    wf = Workflow(steps=200, attempts=10)
    sim = wf.simulate(runs=20_100, seed=1)
    assert sim.successes + sim.wrong + sim.gave_up == sim.runs
    assert sim.total_attempts == int(sim.attempts_per_run.sum())


@pytest.mark.parametrize("kwargs, name", [
    (dict(error=1.2), "error"), (dict(error=-0.1), "error"), (dict(silent=float("nan")), "silent"),
    (dict(error=0.6, silent=0.5), "error \\+ silent"), (dict(steps=0), "steps"),
    (dict(steps=2.5), "steps"), (dict(attempts=0), "attempts"), (dict(attempts="3"), "attempts"),
    (dict(verifier=0.8), "verifier"),
])
def test_bad_workflows_refused(kwargs, name):
    with pytest.raises(ValueError, match=name):
        Workflow(**kwargs)


@pytest.mark.parametrize("kwargs, name", [
    (dict(recall=1.5), "recall"), (dict(false_reject=-1), "false_reject"),
    (dict(recall=float("nan")), "recall"),
])
def test_bad_verifiers_refused(kwargs, name):
    with pytest.raises(ValueError, match=name):
        Verifier(**kwargs)


@pytest.mark.parametrize("runs", [0, -5, 2.5])
def test_bad_runs_refused(runs):
    with pytest.raises(ValueError, match="runs"):
        Workflow().simulate(runs=runs)


@pytest.mark.parametrize("p", [0, 1, -0.5, 1.5, float("nan")])
def test_bad_horizon_refused(p):
    with pytest.raises(ValueError, match="p must lie strictly between 0 and 1"):
        horizon(p)
    with pytest.raises(ValueError, match="target"):
        horizon(0.9, target=p)


def test_expected_attempts_when_every_step_gives_up():
    # r = 1 (every attempt fails, or the verifier rejects everything): each run spends
    # its A attempts on the first step and stops there; log1p(-1) must not be reached.
    for wf in (Workflow(steps=200, error=1.0, silent=0.0, attempts=20),
               Workflow(steps=5, error=0.0, silent=0.0, attempts=3,
                        verifier=Verifier(recall=1.0, false_reject=1.0))):
        assert wf.give_up == 1.0
        assert wf.expected_attempts() == wf.attempts
        sim = wf.simulate(runs=50, seed=0)
        assert sim.gave_up == 50 and sim.mean_attempts == wf.attempts


def test_max_runs_is_the_largest_simulation_accepted():
    wf = Workflow(steps=200, error=1.0, silent=0.0, attempts=20)
    assert wf.max_runs == 10**8 // (200 * 20)
    with pytest.raises(ValueError, match="at most 100,000,000"):
        wf.simulate(runs=wf.max_runs + 1, seed=1)
    assert Workflow(steps=10**6, attempts=10**4).max_runs == 0
