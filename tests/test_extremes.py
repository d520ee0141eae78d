"""The edges of every range run (and give sane numbers); sizes that would hang or exhaust
memory are refused up front, naming the limit."""

import math

import numpy as np
import pytest

from reliability import Verifier, Workflow, horizon, passk, stats
from reliability.harness import (BreakerConfig, CircuitBreaker, LoopDetector, ManualClock,
                                 Policy, TaskBudget, budget, descend, fake_agent,
                                 max_provider_calls, retry_success, run_task, simulate_day)
from reliability.harness import Observation, Scenario as DayScenario
from reliability.harness.budget import TaskMix as LengthMix
from reliability.lab import (Guardrails, Profile, Scenario, make_cases, measure_own,
                             run_arm, run_episode, transient_success)
from reliability.selfconditioning import SelfConditioning
from reliability.selfcorrection import (Arbiter, Revision, expected_revisions,
                                        loop_accuracy, loop_limit, simulate_loop)


# --- edges of the ranges -----------------------------------------------------------------

@pytest.mark.parametrize("error, silent", [(0, 0), (1, 0), (0, 1), (0.5, 0.5)])
@pytest.mark.parametrize("attempts", [1, 3])
@pytest.mark.parametrize("verifier", [None, Verifier(0, 0), Verifier(1, 1), Verifier(1, 0)])
def test_workflow_edges(error, silent, attempts, verifier):
    w = Workflow(steps=1, error=error, silent=silent, attempts=attempts, verifier=verifier)
    outcome = w.outcome_probabilities()
    assert math.isclose(sum(outcome.values()), 1.0, abs_tol=1e-12)
    assert all(-1e-12 <= v <= 1 + 1e-12 for v in outcome.values())
    assert 1 <= w.expected_attempts() <= attempts
    sim = w.simulate(runs=50, seed=1)
    assert sim.successes + sim.wrong + sim.gave_up == 50


def test_workflow_attempts_far_beyond_the_sum_are_instant_and_converged():
    assert Workflow(attempts=10**7).success() == pytest.approx(Workflow(attempts=10**4).success())
    assert Workflow(attempts=10**12, error=1, silent=0).expected_attempts() == 10**12
    assert Workflow(attempts=10**12, error=0, silent=0).S_A == 1.0


@pytest.mark.parametrize("p", [1e-300, 0.5, 1 - 1e-16])
def test_horizon_edges(p):
    assert horizon(p) > 0


@pytest.mark.parametrize("k, n", [(0, 1), (1, 1), (0, 10**6), (10**6, 10**6)])
@pytest.mark.parametrize("confidence", [1e-9, 0.5, 1 - 1e-9])
def test_wilson_edges(k, n, confidence):
    low, high = stats.wilson_interval(k, n, confidence)
    assert 0 <= low <= k / n <= high <= 1


def test_pass_k_edges():
    assert passk.pass_at_k(1, 0, 1) == 0.0 and passk.pass_hat_k(1, 1, 1) == 1.0
    assert passk.pass_at_k(10**6, 1, 10**6) == 1.0


@pytest.mark.parametrize("mix", [passk.TaskMix.constant(0), passk.TaskMix.constant(1),
                                 passk.TaskMix.beta(1e-6, 1e-6), passk.TaskMix.beta(0.5, 1e9)])
def test_task_mix_edges(mix):
    values = mix.pass_hat(np.arange(0, 50))
    assert np.all((values >= 0) & (values <= 1 + 1e-12))
    assert mix.simulate(3, 2, seed=0).shape == (3, 2)


@pytest.mark.parametrize("base_error, gain", [(0, 0), (1, 0), (0, 1), (0.5, 0.5)])
@pytest.mark.parametrize("clean_context, window", [(0, None), (0, 1), (5, 1), (5, None)])
def test_self_conditioning_edges(base_error, gain, clean_context, window):
    model = SelfConditioning(base_error, gain, clean_context, window)
    m = model.expected_error(30)
    assert np.all((m >= 0) & (m <= 1 + 1e-12))
    assert 0 <= model.fixed_point() <= 1
    assert model.simulate(5, runs=3, seed=0).errors.shape == (3, 5)


@pytest.mark.parametrize("rates", [(0, 0), (1, 1), (1, 0), (0, 1), (1e-12, 1e-12)])
@pytest.mark.parametrize("arbiter", [None, Arbiter(0, 0), Arbiter(1, 0), Arbiter(0.5, 0.5)])
def test_revision_edges(rates, arbiter):
    rev = Revision(*rates)
    acc = loop_accuracy(rev, 0.6, [0, 1, 2, 100], arbiter)
    assert np.all((acc >= -1e-12) & (acc <= 1 + 1e-12))
    assert expected_revisions(rev, 0.6, 5, arbiter) >= 0
    assert simulate_loop(rev, 0.6, 3, questions=10, seed=0, arbiter=arbiter).questions == 10
    if rates == (1, 1) and arbiter is None:
        with pytest.raises(ValueError, match="no limit"):
            loop_limit(rev, 0.6, arbiter)
    elif rates[1] == 0 and arbiter is not None and arbiter.recall == 1:
        with pytest.raises(ValueError, match="never settle"):  # wrong answers stay open
            loop_limit(rev, 0.6, arbiter)
    else:
        assert 0 <= loop_limit(rev, 0.6, arbiter) <= 1


def test_harness_edges():
    clock = ManualClock()
    assert run_task(fake_agent(clock=clock, finish_at=1), 0, TaskBudget(max_steps=1),
                    clock=clock).status == "done"
    breaker = CircuitBreaker(BreakerConfig(failure_threshold=1, reset_timeout=1e-9), clock=clock)
    breaker.record_failure()
    assert breaker.state == "open"
    assert LoopDetector(repeats=2, stall=1, cycles=2).sign([]) is None
    assert max_provider_calls(1, task_retries=0) == 1
    assert retry_success(1, 1) == 0.0 and retry_success(0, 10**9) == 1.0
    assert descend(lambda rung, attempt: Observation("error", 0.0),
                   Policy(retries=0, task_calls=1)).rung == 6
    day = simulate_day(DayScenario(outage_start=0, outage_hours=24), conversations=1, seed=0)
    assert day.requests >= 1
    assert LengthMix(median=1e-9, spread=0, stuck=1).simulate(3, 0).stuck.all()


def test_lab_edges():
    everything = Profile(malformed=1, heal=0, skip_lookup=1, no_submit=1, made_up=1, heeds=0)
    t = run_episode(profile=everything, guardrails=Guardrails(True, True, True, True, 0),
                    fault_rate=1, malformed_rate=1, max_turns=1, seed=0)
    assert t.turns == 1 and not t.passed
    assert transient_success(0.0, max_turns=1) == 0.0
    assert transient_success(1.0, max_turns=6, retries=0) == 0.0
    assert run_arm(Scenario(), Guardrails(), runs=1, seed=0).runs == 1
    assert len(make_cases(1, seed=0)) == 1
    assert measure_own(Scenario(), Guardrails(), cases=1, runs_per_case=1).runs == 1


# --- sizes that would hang or exhaust memory ---------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: Workflow().simulate(runs=10**9), "runs x steps x attempts"),
    (lambda: Workflow(attempts=10**7).simulate(runs=100), "runs x steps x attempts"),
    (lambda: SelfConditioning().simulate(10**10), "steps"),
    (lambda: SelfConditioning().simulate(10**5, runs=10**6), "runs x (history + steps)"),
    (lambda: SelfConditioning().expected_error(10**10), "steps"),
    (lambda: SelfConditioning().accuracy_horizon(0.5, max_steps=10**10), "max_steps"),
    (lambda: Revision(0.1, 0.2).fates(0.5, 10**30) and expected_revisions(
        Revision(0.1, 0.2), 0.5, 10**10), "rounds"),
    (lambda: loop_accuracy(Revision(0.1, 0.2), 0.5, [10**10]), "rounds"),
    (lambda: simulate_loop(Revision(0.1, 0.2), 0.5, 10**6, questions=10**6), "rounds x questions"),
    (lambda: passk.TaskMix.constant(0.5).simulate(10**6, 10**6), "tasks x trials"),
    (lambda: passk.TaskMix((1.0,) * 10**6, (0.5,) * 10**6, (math.inf,) * 10**6), "components"),
    (lambda: passk.TaskMix((1, 1), (0.3, 0.6), (2, 3)).pass_hat(np.arange(6 * 10**6)),
     "k values x components"),
    (lambda: passk.TaskMix.constant(0.5).sample(10**9), "tasks"),
    (lambda: passk.estimator_variance(passk.TaskMix.constant(0.5), 1, 10**10), "trials"),
    (lambda: passk.moment_bounds([0.5, 0.3], 3, grid=10**9), "grid"),
    (lambda: run_arm(Scenario(), Guardrails(), runs=10**9), "runs"),
    (lambda: measure_own(Scenario(), Guardrails(), cases=10**6, runs_per_case=10**6),
     "cases x runs_per_case"),
    (lambda: run_episode(max_turns=10**9), "max_turns"),
    (lambda: simulate_day(conversations=10**9), "conversations x turns"),
    (lambda: LengthMix().simulate(10**10, 0), "runs"),
])
def test_runaway_sizes_are_refused_up_front(call, name):
    with pytest.raises(ValueError, match=r"must be (at most|a whole number in)") as info:
        call()
    assert name in str(info.value)


def test_a_task_no_limit_can_stop_is_refused_not_looped(monkeypatch):
    monkeypatch.setattr(budget, "MAX_CALLS", 1000)
    clock = ManualClock()
    unlimited = TaskBudget(max_steps=None, max_cost_usd=None, deadline_s=None, max_retries=None)
    with pytest.raises(ValueError, match="budget must bound the task"):
        run_task(fake_agent(clock=clock), 0, unlimited, clock=clock)


# --- inconsistent lengths ----------------------------------------------------------------

@pytest.mark.parametrize("call, names", [
    (lambda: stats.wilson_interval([1, 2], [3, 4, 5]), "successes and trials"),
    (lambda: stats.newcombe_interval([1, 2], [3, 4], [1, 2, 3], [4, 5, 6]), "successes_a"),
    (lambda: stats.binomial_standard_error([0.1, 0.2], [1, 2, 3]), "rate and runs"),
    (lambda: passk.pass_at_k([5, 6], [1, 2, 3], 1), "n, c and k"),
    (lambda: SelfConditioning().error_rate([1, 2], [3, 4, 5]), "visible_errors and visible_steps"),
    (lambda: passk.TaskMix((0.5, 0.5), (0.3,), (2.0, 3.0)), "weights, means and concentrations"),
    (lambda: budget.LengthSample(np.array([1, 2]), np.array([True])), "stuck"),
])
def test_inconsistent_lengths_are_refused_by_name(call, names):
    with pytest.raises(ValueError, match=names):
        call()


def test_every_step_sent_back_stops_each_run_after_its_first_step():
    w = Workflow(steps=5, error=1.0, silent=0.0, attempts=3)  # r = 1
    assert w.expected_attempts() == 3.0
    assert w.simulate(runs=20, seed=0).mean_attempts == 3.0
