"""Property-based runs: the package's public functions and each chapter's computations
over random legal settings, so a setting between the ends of a range is tried too.

The chapters' ends run in tests/test_notebooks.py and tests/test_extremes.py; here
hypothesis draws settings from inside `reliability.parameters.CHAPTERS` (each chapter's
ranges and rules) and calls what the chapter calls with them, checking what must hold
at any setting: shares in [0, 1] that add up, a point inside its interval, the closed
form against the simulation within sampling error. Every test runs a small fixed number
of examples with `derandomize=True`, so the suite stays fast and gives the same
verdict on every run.

Sizes that only make a run slower (runs, conversations, questions) are drawn up to a
smaller cap where the top of the range takes seconds; the top itself runs at the ends.
"""

from __future__ import annotations

import math
from datetime import date, timedelta
from decimal import Decimal

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from reliability import lab, passk, reading, selfcorrection, stats, workflow
from reliability.figures import ladder as fig_ladder
from reliability.figures import verifiers as fig_verifiers
from reliability.formattax import FieldOrderToy, Generator
from reliability.harness import (BreakerConfig, ManualClock, Scenario,
                                 TaskBudget, TaskMix as LengthMix, fake_agent,
                                 retry_success, run_task, simulate_day)
from reliability.parameters import CHAPTERS, check_parameters
from reliability.refund_loop import loop_probabilities
from reliability.selfconditioning import SelfConditioning
from reliability.validation import Records

#: Few examples, the same ones on every run (no example database, no random seed).
FEW = settings(max_examples=6, derandomize=True, deadline=None, database=None,
               suppress_health_check=[HealthCheck.too_slow,
                                      HealthCheck.filter_too_much])
SOME = settings(FEW, max_examples=25)


def _value(number, cap=None):
    high = number.high if cap is None else min(number.high, cap)
    if number.whole:
        return st.integers(int(number.low), int(high))
    return st.floats(number.low, high, allow_nan=False, allow_infinity=False)


def chapter_settings(chapter: str, **caps):
    """A legal setting of ``chapter``'s parameters: each drawn from its range (up to a
    cap for sizes given in ``caps``), the chapter's rules kept, and the setting checked
    by the chapter's own ``check_parameters``."""
    spec = CHAPTERS[chapter]
    values = st.fixed_dictionaries({name: _value(number, caps.get(name))
                                    for name, number in spec.ranges.items()})

    def legal(setting):
        return all(rule.holds(**{n: setting[n] for n in rule.names})
                   for rule in spec.rules)

    return values.filter(legal).map(lambda s: check_parameters(chapter, **s) or s)


def _inside(low, point, high, slack=1e-12):
    return low - slack <= point <= high + slack


def test_the_strategies_draw_every_chapter_and_keep_its_rules():
    assert set(CHAPTERS) == {f"{n:02d}_{name}" for n, name in enumerate(
        ["chain_decay", "retries", "verifiers", "pass_k", "self_correction", "format_tax",
         "budgets_and_loops", "degradation_ladder", "ablation_lab", "reading_numbers"],
        start=1)}
    drawn = []

    @FEW
    @given(chapter_settings("01_chain_decay"))
    def draw(setting):
        drawn.append(setting)
        assert setting["error"] + setting["silent"] <= 1

    draw()
    assert len(drawn) >= 2 and len({s["error"] for s in drawn}) >= 2


# --- the package's public functions over random legal settings -------------------------

@SOME
@given(st.integers(1, 10**6).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
       st.floats(1e-6, 1 - 1e-6))
def test_wilson_holds_its_point_and_narrows_with_less_confidence(counts, confidence):
    k, n = counts
    low, high = stats.wilson_interval(k, n, confidence)
    assert 0.0 <= low < high <= 1.0 and _inside(low, k / n, high)
    narrow = stats.wilson_interval(k, n, confidence / 2)
    assert low <= narrow[0] + 1e-12 and narrow[1] <= high + 1e-12


@SOME
@given(st.integers(1, 200).flatmap(lambda n: st.tuples(
    st.integers(0, n), st.just(n), st.integers(0, n), st.just(n))))
def test_newcombe_holds_the_difference(counts):
    a, n, b, m = counts
    low, high = stats.newcombe_interval(a, n, b, m)
    assert -1.0 <= low <= high <= 1.0 and _inside(low, a / n - b / m, high)


@SOME
@given(st.floats(0.01, 0.99), st.floats(0.05, 1e4), st.integers(1, 40))
def test_a_task_mix_has_pass_hat_falling_and_pass_at_rising(mean, concentration, k):
    mix = passk.TaskMix.beta(mean, concentration)
    assert mix.mean == pytest.approx(mean, rel=1e-9)
    hat, at = mix.pass_hat(np.arange(1, k + 2)), mix.pass_at(np.arange(1, k + 2))
    assert np.all(np.diff(hat) <= 1e-12) and np.all(np.diff(at) >= -1e-12)
    assert np.all(hat <= at + 1e-12) and np.all((hat >= 0) & (at <= 1 + 1e-12))
    assert mix.pass_hat(k) >= mean ** k - 1e-12   # Jensen: E[p^k] >= E[p]^k


@SOME
@given(st.integers(1, 60), st.floats(0, 1), st.floats(0, 1), st.integers(1, 8),
       st.one_of(st.none(), st.tuples(st.floats(0, 1), st.floats(0, 1))))
def test_a_workflow_has_endings_that_add_up(steps, error, silent, attempts, verifier):
    assume(error + silent <= 1)
    verifier = None if verifier is None else workflow.Verifier(*verifier)
    wf = workflow.Workflow(steps=steps, error=error, silent=silent, attempts=attempts,
                           verifier=verifier)
    ends = wf.outcome_probabilities()
    assert math.isclose(sum(ends.values()), 1.0, abs_tol=1e-9)
    assert all(-1e-12 <= v <= 1 + 1e-12 for v in ends.values())
    assert 1.0 - 1e-12 <= wf.expected_attempts() <= attempts * steps + 1e-9
    assert wf.success_by_length([steps])[0] == pytest.approx(wf.success(), abs=1e-12)
    assert wf.success() <= workflow.ceiling(wf) + 1e-12


@SOME
@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1),
       st.lists(st.integers(0, 200), min_size=1, max_size=6))
def test_revision_accuracy_stays_a_probability_and_fates_add_up(fix, brk, start, rounds):
    revision = selfcorrection.Revision(break_rate=brk, fix_rate=fix)
    accuracy = revision.accuracy(start, rounds)
    assert np.all((np.asarray(accuracy) >= -1e-12) & (np.asarray(accuracy) <= 1 + 1e-12))
    fates = revision.fates(start, rounds[0])
    assert math.isclose(sum(fates.values()), 1.0, abs_tol=1e-9)


@FEW
@given(st.integers(1, 40), st.floats(0, 1), st.floats(0, 1), st.integers(1, 12),
       st.one_of(st.none(), st.floats(0.0, 0.2)), st.integers(0, 5))
def test_run_task_ends_inside_any_budget_that_bounds_it(steps, cost, seconds, fail_every,
                                                        deadline, retries):
    clock = ManualClock()
    limits = TaskBudget(max_steps=steps, max_cost_usd=None, deadline_s=(
        None if deadline is None else 1.0 + 100 * deadline), max_retries=retries)
    agent = fake_agent(clock=clock, cost_usd=cost, seconds=seconds, fail_every=fail_every)
    out = run_task(agent, 0, limits, clock=clock)
    assert out.status == "budget_exceeded"
    assert out.steps_used <= steps and out.retries_used <= retries
    assert out.calls == out.steps_used + out.retries_used + (out.limit == "retries")


@SOME
@given(st.decimals(0, 10**6, places=2, allow_nan=False, allow_infinity=False),
       st.sampled_from([str, float, Decimal]), st.integers(1, 400))
def test_records_take_any_amount_as_digits_or_a_number(fee, kind, appeal_days):
    charged = date(2026, 11, 3)
    given_fee = kind(fee) if kind is not float else float(fee)
    records = Records(customer_accounts={"A1"}, fees={("A1", charged): given_fee},
                      today=charged + timedelta(days=10), appeal_days=appeal_days)
    assert records.fees[("A1", charged)] == Decimal(str(given_fee))


@SOME
@given(st.floats(0, 20), st.floats(0.05, 28), st.floats(0.01, 2.0))
def test_outage_bins_fit_any_window(start, length, width):
    """The bug of issue 42: bin edges from a float range gave one count too many."""
    end = start + length
    width = min(width, length)
    day = _day_for_bins()
    edges, shares = fig_ladder._grouped_by_bin(day, start, end, width)
    assert shares.shape == (len(fig_ladder._GROUPS), len(edges) - 1)
    assert edges[0] == start and edges[-1] >= end - 1e-9 and edges[-2] < end
    assert np.all(shares >= 0) and np.all(shares.sum(axis=0) <= 1 + 1e-9)


@SOME
@given(st.floats(0, 1), st.floats(0, 1), st.integers(0, 50),
       st.one_of(st.none(), st.integers(1, 100)), st.integers(1, 80))
def test_self_conditioning_stays_a_probability(base_error, gain, clean, window, steps):
    assume(base_error + gain <= 1)
    model = SelfConditioning(base_error, gain, clean_context=clean, window=window)
    errors = model.expected_error(steps)
    assert errors.shape == (steps,)
    assert np.all((errors >= base_error - 1e-12) & (errors <= base_error + gain + 1e-12))
    assert base_error - 1e-12 <= model.fixed_point() <= base_error + gain + 1e-12


@SOME
@given(st.floats(-4, 4), st.floats(0.01, 4), st.floats(0, 6))
def test_a_higher_threshold_calls_less_and_separation_splits_the_two(low, step, separation):
    needed, unneeded = reading.threshold_model(low, separation)
    needed_high, unneeded_high = reading.threshold_model(low + step, separation)
    assert needed_high <= needed + 1e-12 and unneeded_high <= unneeded + 1e-12
    assert 0.0 <= unneeded <= needed <= 1.0


@SOME
@given(st.floats(0, 1), st.integers(1, 30), st.integers(1, 10))
def test_more_attempts_or_turns_never_lower_success(error, attempts, turns):
    assert retry_success(error, attempts) <= retry_success(error, attempts + 1) + 1e-12
    assert retry_success(error, attempts) == pytest.approx(1 - error ** attempts)
    assert lab.transient_success(error, turns) <= lab.transient_success(error, turns + 1) \
        + 1e-12


_DAYS = {}


def _day_for_bins():
    if "day" not in _DAYS:
        _DAYS["day"] = simulate_day(Scenario(outage_hours=3.0), conversations=400, seed=5)
    return _DAYS["day"]


# --- each chapter's computations over random legal settings ---------------------------

@FEW
@given(chapter_settings("01_chain_decay", runs=5_000))
def test_chapter_01(s):
    wf = workflow.Workflow(steps=10, error=s["error"], silent=s["silent"])
    sim = wf.simulate(runs=s["runs"], seed=s["seed"])
    low, high = sim.interval(0.999)
    assert _inside(low, wf.success(), high)
    assert wf.success() == pytest.approx(wf.c ** 10)
    assert workflow.Workflow(steps=30, error=s["error"], silent=s["silent"]).success() \
        <= wf.success() + 1e-12


@FEW
@given(chapter_settings("02_retries", runs=5_000))
def test_chapter_02(s):
    one = workflow.Workflow(steps=s["steps"], error=s["error"], silent=s["silent"])
    wf = workflow.Workflow(steps=s["steps"], error=s["error"], silent=s["silent"],
                           attempts=s["attempts"])
    assert one.success() <= wf.success() + 1e-12 <= workflow.ceiling(wf) + 2e-12
    cost = workflow.attempt_cost(wf, runs=s["runs"], seed=s["seed"])
    assert _inside(cost["low"], cost["simulated"], cost["high"])
    assert 1.0 - 1e-12 <= cost["closed"] <= s["attempts"] * s["steps"] + 1e-9
    se = max(cost["se"], 1e-12)
    assert abs(cost["simulated"] - cost["closed"]) <= 5 * se + 1e-9


@FEW
@given(chapter_settings("03_verifiers", runs=5_000))
def test_chapter_03(s):
    retried = workflow.Workflow(steps=10, error=s["error"], silent=s["silent"],
                                attempts=s["attempts"])
    checked = workflow.Workflow(steps=10, error=s["error"], silent=s["silent"],
                                attempts=s["attempts"], verifier=workflow.Verifier(
                                    recall=s["recall"], false_reject=s["false_reject"]))
    for wf in (retried, checked):
        ends = fig_verifiers.outcomes(wf, runs=s["runs"], seed=s["seed"])
        assert math.isclose(sum(v[0] for v in ends.values()), 1.0, abs_tol=1e-9)
        for closed, simulated, low, high in ends.values():
            assert _inside(low, simulated, high)
    loop = loop_probabilities(s["draft_wrong"], s["fix_rate"], s["attempts"])
    assert math.isclose(sum(loop.values()), 1.0, abs_tol=1e-9)
    assert all(-1e-12 <= v <= 1 + 1e-12 for v in loop.values())


@FEW
@given(chapter_settings("04_pass_k", tasks=300, resamples=500))
def test_chapter_04(s):
    mean = 0.61
    split, alike = passk.TaskMix.beta(mean, s["split"]), passk.TaskMix.beta(mean, s["alike"])
    k8 = min(8, s["trials"])
    assert split.pass_hat(k8) >= alike.pass_hat(k8) - 1e-12   # spread tasks repeat more
    outcomes = split.simulate(s["tasks"], s["trials"], seed=s["seed"])
    measured = passk.curves(outcomes, resamples=s["resamples"], seed=s["seed"])
    for point, low, high in ((measured.pass_hat, measured.pass_hat_low,
                              measured.pass_hat_high),
                             (measured.pass_at, measured.pass_at_low,
                              measured.pass_at_high)):
        assert np.all(low <= point + 1e-12) and np.all(point <= high + 1e-12)
    one = passk.from_outcomes(outcomes, k=k8, resamples=s["resamples"], seed=s["seed"])
    assert one.pass_hat == pytest.approx(measured.pass_hat[k8 - 1], abs=1e-12)
    assert one.pass_hat_low < one.pass_hat_high or one.tasks > 1
    width = passk.half_width(split, k8, s["tasks"], s["trials"])
    assert 0.0 <= width
    plan = passk.plan(split, 8, s["wanted_width"], [8, 12, 16, 32, 64])
    assert np.all(np.diff(plan["tasks"]) <= 0)   # more trials never need more tasks
    low, high = stats.wilson_interval(round(s["score"] * s["tasks"]), s["tasks"])
    assert 0.0 <= low <= high <= 1.0
    touched = 1 - (1 - s["bad_turn_share"]) ** s["turns"]
    assert 0.0 <= touched <= 1.0


@FEW
@given(chapter_settings("05_self_correction", questions=5_000))
def test_chapter_05(s):
    start = 0.759
    chain = selfcorrection.fit_fates(start, 0.028, 0.046, rounds=2)
    arbiter = selfcorrection.Arbiter(s["recall"], s["false_reject"])
    closed = selfcorrection.loop_accuracy(chain, start, s["rounds"], arbiter)
    sim = selfcorrection.simulate_loop(chain, start, s["rounds"],
                                       questions=s["questions"], seed=s["seed"],
                                       arbiter=arbiter)
    assert sim.right.shape == (s["rounds"] + 1,)
    rate = sim.accuracy[-1]
    se = math.sqrt(max(closed * (1 - closed), 1e-4) / s["questions"])
    assert abs(rate - closed) <= 5 * se + 1.5 / s["questions"]
    calls = selfcorrection.expected_revisions(chain, start, s["rounds"], arbiter)
    assert 0.0 <= calls <= s["rounds"] + 1e-9
    model = SelfConditioning(0.02, s["gain"], clean_context=0, window=s["window"])
    errors = model.expected_error(60)
    assert np.all((errors >= -1e-12) & (errors <= 1 + 1e-12))


@FEW
@given(chapter_settings("06_format_tax", runs=5_000))
def test_chapter_06(s):
    from reliability.figures import formattax as fig_formattax

    generator = Generator(parse_rate=s["parse_rate"],
                          reformat_fidelity=s["reformat_fidelity"])
    regimes = fig_formattax.regime_table(generator, runs=s["runs"], seed=s["seed"])
    assert regimes
    for rates in regimes.values():
        for closed, simulated, low, high in rates.values():
            assert 0.0 <= closed <= 1.0 and _inside(low, simulated, high)
        assert rates["valid_and_right"][0] <= min(rates["valid"][0], rates["right"][0])
    toy = FieldOrderToy(digits=6, step_error=s["step_error"])
    for order in ("answer_first", "reasoning_first"):
        sim = toy.simulate(order, runs=s["runs"], seed=s["seed"])
        assert 0 <= sim.answer_right <= sim.runs == s["runs"]


@FEW
@given(chapter_settings("07_budgets_and_loops", runs=5_000))
def test_chapter_07(s):
    mix = LengthMix(median=s["median_steps"], spread=s["spread"], stuck=s["stuck"])
    limits = np.arange(1, s["step_limit"] + 3)
    shares = mix.hit_share(limits)
    assert np.all(np.diff(shares) <= 1e-12)          # a higher limit is hit less often
    assert np.all(shares >= s["stuck"] - 1e-12) and np.all(shares <= 1 + 1e-12)
    sample = mix.simulate(s["runs"], seed=s["seed"])
    hits = sample.hits(s["step_limit"])
    closed = mix.hit_share(s["step_limit"])
    rate = (hits["stuck"] + hits["cut_short"]) / s["runs"]
    se = math.sqrt(max(closed * (1 - closed), 1e-4) / s["runs"])
    assert abs(rate - closed) <= 5 * se + 1.5 / s["runs"]
    assert 0.0 <= retry_success(s["flaky_error"], s["attempts"]) <= 1.0


@FEW
@given(chapter_settings("08_degradation_ladder", conversations=3_000))
def test_chapter_08(s):
    breaker = BreakerConfig(s["failure_threshold"], s["reset_timeout"])
    outage = Scenario(outage_start=10.0, outage_hours=s["outage_hours"])
    without = simulate_day(outage, conversations=s["conversations"], seed=s["seed"])
    with_breaker = simulate_day(outage, breaker=breaker,
                                conversations=s["conversations"], seed=s["seed"])
    assert with_breaker.outage_calls <= without.outage_calls
    fig = fig_ladder.plot_outage(without, with_breaker, start=8.0,
                                 end=min(24.0, 14.0 + s["outage_hours"]))
    plt.close(fig)


def test_chapter_08_at_the_setting_that_crashed():
    """Issue 42: this legal setting stopped chapter 8 in _grouped_by_bin."""
    outage = Scenario(outage_start=10.0, outage_hours=5.758)
    breaker = BreakerConfig(573, 2226.762)
    without = simulate_day(outage, conversations=14080, seed=0)
    with_breaker = simulate_day(outage, breaker=breaker, conversations=14080, seed=0)
    fig = fig_ladder.plot_outage(without, with_breaker, start=8.0, end=19.758)
    plt.close(fig)


@FEW
@given(chapter_settings("09_ablation_lab", runs=60))
def test_chapter_09(s):
    closed = lab.transient_success(s["fault_rate"], s["max_turns"])
    assert 0.0 <= closed <= 1.0
    fixed = lab.transient_success(s["fault_rate"], s["max_turns"],
                                  retries=lab.Guardrails().recovery_retries)
    assert fixed >= closed - 1e-12
    arm = lab.run_arm(lab.Scenario(fault_rate=s["fault_rate"], max_turns=s["max_turns"]),
                      lab.Guardrails(), runs=s["runs"], seed=s["seed"])
    low, high = arm.interval()
    assert 0 <= arm.successes <= arm.runs == s["runs"]
    assert _inside(low, arm.successes / arm.runs, high)


@FEW
@given(chapter_settings("10_reading_numbers", irrelevance_cases=1_000, cases=30))
def test_chapter_10(s):
    needed, unneeded = reading.threshold_model(s["threshold"], s["separation"])
    assert 0.0 <= unneeded <= needed <= 1.0   # a signal that separates calls no less
    run = reading.simulate_columns(needed, unneeded, relevance_cases=16,
                                   irrelevance_cases=s["irrelevance_cases"],
                                   seed=s["seed"])
    for column in ("relevance", "irrelevance"):
        low, high = run.interval(column)
        assert 0.0 <= low <= high <= 1.0
    scenario = lab.Scenario(profile=lab.PROFILES["weak"], fault_rate=s["fault_rate"])
    dash = lab.measure_own(scenario, lab.ALL, cases=s["cases"],
                           runs_per_case=s["runs_per_case"], seed=s["seed"])
    assert dash.per_case.shape == (s["cases"],)
    assert np.all((dash.per_case >= 0) & (dash.per_case <= s["runs_per_case"]))
    all_pass = int(np.sum(dash.per_case == s["runs_per_case"]))
    low, high = stats.wilson_interval(all_pass, s["cases"])
    assert _inside(low, all_pass / s["cases"], high)
