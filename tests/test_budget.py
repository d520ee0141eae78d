"""The task budget: each limit trips exactly where it is set and hands back the partial
result; the loop never raises for a budget; the step-limit arithmetic matches simulation."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reliability.harness.budget import (LIMITS, Step, TaskBudget, TaskMix, max_provider_calls,
                                        retry_success, run_task)
from reliability.harness.clock import ManualClock
from reliability.stats import binomial_standard_error

UNLIMITED = TaskBudget(max_steps=None, max_cost_usd=None, deadline_s=None, max_retries=None)


def agent_that(*, cost=0.0, seconds=0.0, finish_at=None, fail_first=0, clock):
    """A fake agent: step k (1-based) costs ``cost``, takes ``seconds``, its first
    ``fail_first`` calls fail, and it is done at step ``finish_at`` (never if None)."""
    calls = {"n": 0}

    def agent(state, hint):
        calls["n"] += 1
        clock.advance(seconds)
        if calls["n"] <= fail_first:
            return Step(state=state, cost_usd=cost, failed=True)
        k = state + 1
        return Step(state=k, cost_usd=cost, tool="step", args=(k,), best=f"draft after {k}",
                    done=finish_at is not None and k >= finish_at)

    return agent


def test_the_default_budget_is_the_bank_bots():
    assert TaskBudget() == TaskBudget(max_steps=12, max_cost_usd=0.05, deadline_s=90.0,
                                      max_retries=6)


def test_the_step_limit_trips_at_exactly_max_steps_with_the_partial_result():
    clock = ManualClock()
    out = run_task(agent_that(clock=clock), 0, TaskBudget(), clock=clock)
    assert (out.status, out.limit, out.steps_used, out.calls) == ("budget_exceeded", "steps", 12, 12)
    assert out.result == "draft after 12"
    assert out.as_dict() == {"status": "budget_exceeded", "steps_used": 12, "cost_usd": 0.0,
                             "partial_result": "draft after 12"}


def test_a_task_that_needs_exactly_max_steps_finishes():
    clock = ManualClock()
    out = run_task(agent_that(finish_at=12, clock=clock), 0, TaskBudget(), clock=clock)
    assert (out.status, out.limit, out.steps_used) == ("done", None, 12)
    assert out.as_dict()["result"] == "draft after 12"


def test_the_money_limit_trips_when_the_spend_reaches_it():
    # 0.01 five times sums to 0.04999... in floating point: the limit must still trip at five.
    clock = ManualClock()
    out = run_task(agent_that(cost=0.01, clock=clock), 0, TaskBudget(max_steps=100), clock=clock)
    assert (out.status, out.limit, out.steps_used) == ("budget_exceeded", "cost", 5)
    assert out.cost_usd == pytest.approx(0.05)
    assert out.result == "draft after 5"


def test_the_money_limit_is_overshot_by_at_most_one_step():
    clock = ManualClock()
    out = run_task(agent_that(cost=0.03, clock=clock), 0, TaskBudget(max_steps=100), clock=clock)
    assert (out.limit, out.steps_used) == ("cost", 2)
    assert 0.05 <= out.cost_usd <= 0.05 + 0.03


def test_the_deadline_counts_the_whole_task_and_trips_at_it():
    clock = ManualClock(time=1000.0)  # the task's own start, not the clock's zero, counts
    out = run_task(agent_that(seconds=10.0, clock=clock), 0, TaskBudget(max_steps=100),
                   clock=clock)
    assert (out.status, out.limit, out.steps_used) == ("budget_exceeded", "time", 9)
    assert out.elapsed_s == pytest.approx(90.0)
    assert out.result == "draft after 9"


def test_retries_are_counted_over_the_task_and_trip_at_the_limit():
    clock = ManualClock()
    # Six failures are six retries: allowed, and the task finishes.
    out = run_task(agent_that(fail_first=6, finish_at=3, clock=clock), 0, TaskBudget(),
                   clock=clock)
    assert (out.status, out.retries_used, out.calls) == ("done", 6, 9)
    # The seventh failure finds no retry left: a managed exit with what the steps made.
    clock = ManualClock()
    out = run_task(agent_that(fail_first=7, finish_at=3, clock=clock), 0, TaskBudget(),
                   clock=clock)
    assert (out.status, out.limit, out.retries_used, out.calls) == (
        "budget_exceeded", "retries", 6, 7)
    assert out.steps_used == 0 and out.result is None


def test_a_transient_exception_is_a_failed_call_not_a_crash():
    clock, calls = ManualClock(), []

    def flaky(state, hint):
        calls.append(1)
        raise ConnectionError("provider down")

    out = run_task(flaky, 0, TaskBudget(max_retries=2), clock=clock, retry_wait_s=1.5)
    assert (out.status, out.limit, out.retries_used, len(calls)) == (
        "budget_exceeded", "retries", 2, 3)
    assert clock.now() == pytest.approx(3.0)  # two waits between three calls


def test_a_bug_in_the_agent_is_not_swallowed():
    def broken(state, hint):
        raise KeyError("bug")

    with pytest.raises(KeyError):
        run_task(broken, 0, clock=ManualClock())


def test_one_limit_does_not_stand_in_for_another():
    # A slow provider inside every per-call timeout: with the step limit alone the user
    # waits 12 x 25 s; the task deadline cuts that at the first check past 90 s.
    clock = ManualClock()
    steps_only = TaskBudget(max_cost_usd=None, deadline_s=None, max_retries=None)
    out = run_task(agent_that(seconds=25.0, clock=clock), 0, steps_only, clock=clock)
    assert (out.limit, out.elapsed_s) == ("steps", pytest.approx(300.0))
    clock = ManualClock()
    out = run_task(agent_that(seconds=25.0, clock=clock), 0, TaskBudget(), clock=clock)
    assert (out.limit, out.steps_used) == ("time", 4)


def test_the_task_wide_retry_budget_bounds_the_calls_as_the_formula_says():
    assert max_provider_calls(10, attempts_per_call=3) == 30
    assert max_provider_calls(10, task_retries=6) == 16
    assert max_provider_calls(10, attempts_per_call=3, task_retries=6) == 16
    assert max_provider_calls(2, attempts_per_call=3, task_retries=6) == 6
    # The worst agent the runner can meet (fails while retries last) reaches the bound.
    clock = ManualClock()
    out = run_task(agent_that(fail_first=6, clock=clock), 0, TaskBudget(max_steps=10),
                   clock=clock)
    assert out.calls == max_provider_calls(10, task_retries=6)


@settings(max_examples=80, deadline=None)
@given(steps=st.integers(1, 15), retries=st.integers(0, 8),
       cost=st.floats(0.0, 0.02), seconds=st.floats(0.0, 20.0),
       fail_first=st.integers(0, 12), finish_at=st.one_of(st.none(), st.integers(1, 20)))
def test_every_run_ends_in_a_managed_outcome_within_its_limits(steps, retries, cost, seconds,
                                                               fail_first, finish_at):
    clock = ManualClock()
    budget = TaskBudget(max_steps=steps, max_retries=retries)
    out = run_task(agent_that(cost=cost, seconds=seconds, fail_first=fail_first,
                              finish_at=finish_at, clock=clock), 0, budget, clock=clock)
    assert out.status in ("done", "budget_exceeded")
    assert (out.limit is None) == (out.status == "done")
    assert out.limit is None or out.limit in LIMITS
    assert out.steps_used <= steps and out.retries_used <= retries
    assert out.calls <= max_provider_calls(steps, task_retries=retries) + 1
    # Checked before each call, so each of money and time overshoots by one call at most.
    assert out.cost_usd <= budget.max_cost_usd + cost + 1e-12
    assert out.elapsed_s <= budget.deadline_s + seconds + 1e-9
    if out.status == "budget_exceeded" and out.steps_used:
        assert out.result == f"draft after {out.steps_used}"


def test_without_limits_a_finishing_agent_just_finishes():
    clock = ManualClock()
    out = run_task(agent_that(cost=1.0, seconds=60.0, fail_first=20, finish_at=40, clock=clock),
                   0, UNLIMITED, clock=clock)
    assert (out.status, out.steps_used, out.retries_used) == ("done", 40, 20)


@pytest.mark.parametrize("kwargs, name", [
    ({"max_steps": 0}, "max_steps"), ({"max_steps": 2.5}, "max_steps"),
    ({"max_cost_usd": -0.01}, "max_cost_usd"), ({"max_cost_usd": math.inf}, "max_cost_usd"),
    ({"deadline_s": 0}, "deadline_s"), ({"deadline_s": math.nan}, "deadline_s"),
    ({"max_retries": -1}, "max_retries"), ({"max_retries": True}, "max_retries")])
def test_bad_budgets_are_refused(kwargs, name):
    with pytest.raises(ValueError, match=name):
        TaskBudget(**kwargs)


def test_bad_runner_arguments_are_refused():
    with pytest.raises(ValueError, match="budget"):
        run_task(lambda s, h: Step(), 0, {"max_steps": 3}, clock=ManualClock())
    with pytest.raises(ValueError, match="retry_wait_s"):
        run_task(lambda s, h: Step(), 0, clock=ManualClock(), retry_wait_s=-1)
    with pytest.raises(ValueError, match="Step"):
        run_task(lambda s, h: "answer", 0, clock=ManualClock())
    with pytest.raises(ValueError, match="attempts_per_call or task_retries"):
        max_provider_calls(10)


# --- tuning the step limit -------------------------------------------------------------

RUNS = 6000


@pytest.mark.parametrize("mix", [TaskMix(), TaskMix(median=4, spread=0.8, stuck=0.0),
                                 TaskMix(median=10, spread=0.3, stuck=0.1)])
@pytest.mark.parametrize("limit", [3, 8, 12, 25])
def test_simulated_hit_share_is_within_four_se_of_the_closed_form(mix, limit):
    sample = mix.simulate(RUNS, seed=limit)
    hits = sample.hits(limit)
    expected = mix.hit_share(limit)
    assert abs(hits["share"] - expected) <= 4 * binomial_standard_error(expected, RUNS) + 1e-12
    cut = mix.cut_short(limit)
    assert abs(hits["cut_short"] / RUNS - cut) <= 4 * binomial_standard_error(cut, RUNS) + 1e-12
    assert hits["low"] <= hits["share"] <= hits["high"]


def test_the_hit_share_falls_with_the_limit_towards_the_stuck_share():
    mix = TaskMix(stuck=0.03)
    shares = mix.hit_share(np.arange(1, 200))
    assert np.all(np.diff(shares) <= 0)
    assert shares[-1] == pytest.approx(0.03, abs=1e-6)
    # Every task needs at least one step, so a limit of one is hit by all that need more:
    # P(Y > 1) = Phi(ln 6 / 0.5), written with erfc to avoid reusing scipy's norm.
    phi = 1.0 - 0.5 * math.erfc(math.log(6.0) / 0.5 / math.sqrt(2))
    assert mix.hit_share(1) == pytest.approx(0.03 + 0.97 * phi, rel=1e-9)


def test_same_seed_same_tasks():
    a, b = TaskMix().simulate(500, seed=7), TaskMix().simulate(500, seed=7)
    assert np.array_equal(a.lengths, b.lengths) and np.array_equal(a.stuck, b.stuck)
    assert not np.array_equal(a.lengths, TaskMix().simulate(500, seed=8).lengths)
    gen = TaskMix().simulate(500, seed=np.random.default_rng(7))
    assert np.array_equal(gen.lengths, a.lengths)


def test_no_spread_means_every_sound_task_needs_the_median_rounded_up():
    # Chapter 7 accepts spread = 0 (no variation) and stuck = 1 (every task loops).
    for median in (1.0, 3.0, 6.0, 6.2, 7.0, 100.0):
        mix = TaskMix(median=median, spread=0.0, stuck=0.0)
        need = math.ceil(median)
        assert np.all(mix.simulate(200, seed=1).lengths == need)
        limits = np.arange(1, 120)
        assert np.array_equal(mix.hit_share(limits), (limits < need).astype(float))
        assert mix.simulate(200, seed=1).hits(need)["hits"] == 0
    mix = TaskMix(median=6.0, spread=0.0, stuck=0.25)
    assert mix.hit_share(5) == pytest.approx(1.0) and mix.hit_share(6) == pytest.approx(0.25)


def test_when_every_task_is_stuck_every_limit_is_hit_by_every_task():
    mix = TaskMix(stuck=1.0)
    assert np.all(mix.hit_share(np.arange(1, 50)) == 1.0)
    hits = mix.simulate(300, seed=2).hits(12)
    assert hits["hits"] == hits["stuck"] == 300 and hits["cut_short"] == 0
    assert hits["share"] == hits["high"] == 1.0


@pytest.mark.parametrize("kwargs, name", [({"median": 0}, "median"), ({"spread": -1}, "spread"),
                                          ({"stuck": 1.5}, "stuck"), ({"stuck": -0.1}, "stuck"),
                                          ({"median": None}, "median")])
def test_bad_task_mixes_are_refused(kwargs, name):
    with pytest.raises(ValueError, match=name):
        TaskMix(**kwargs)


def test_bad_tuning_arguments_are_refused():
    with pytest.raises(ValueError, match="runs"):
        TaskMix().simulate(0, seed=1)
    with pytest.raises(ValueError, match="seed"):
        TaskMix().simulate(10, seed=-1)
    with pytest.raises(ValueError, match="limit"):
        TaskMix().simulate(10, seed=1).hits(0)
    with pytest.raises(ValueError, match="limits"):
        TaskMix().hit_share([0, 3])
    with pytest.raises(ValueError, match="error"):
        retry_success(1.5, 3)
    with pytest.raises(ValueError, match="attempts"):
        retry_success(0.5, 0)


# --- the stand-ins the chapter uses ------------------------------------------------------

def test_the_flaky_stand_in_makes_the_per_call_bound_of_calls_without_a_task_pool():
    from reliability.harness.budget import fake_agent
    clock = ManualClock()
    steps_only = TaskBudget(max_cost_usd=None, deadline_s=None, max_retries=None)
    out = run_task(fake_agent(clock=clock, fail_every=3), 0, steps_only, clock=clock)
    assert out.calls == max_provider_calls(12, attempts_per_call=3)
    clock = ManualClock()
    out = run_task(fake_agent(clock=clock, fail_every=3), 0, TaskBudget(), clock=clock)
    assert (out.limit, out.retries_used, out.steps_used) == ("retries", 6, 3)


def test_the_scripted_stand_in_switches_script_on_a_hint():
    from reliability.harness.budget import scripted_agent
    from reliability.harness.loops import LoopDetector, Move
    clock = ManualClock()
    agent = scripted_agent([Move("a", (1,), "x")], clock=clock, finishes=True,
                           after_hint=[Move("b", (2,), "y"), Move("c", (3,), "z")])
    out = run_task(agent, "x", clock=clock, detector=LoopDetector())
    assert [m.tool for m in out.moves] == ["a", "a", "a", "b", "c"]
    assert out.status == "done" and clock.now() == pytest.approx(5.0)
    with pytest.raises(ValueError, match="script"):
        scripted_agent([], clock=clock)


def test_the_flaky_call_is_seeded_and_checks_its_error():
    from reliability.harness.budget import flaky_call

    def pattern(seed):
        call, seen = flaky_call(0.5, seed), []
        for _ in range(200):
            try:
                call()
                seen.append(True)
            except ConnectionError:
                seen.append(False)
        return seen

    assert pattern(3) == pattern(3) and pattern(3) != pattern(4)
    with pytest.raises(ValueError, match="error"):
        flaky_call(-0.1, 1)
