"""Each trigger sends a request down the ladder; the backoff and the counters."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reliability.harness.ladder import (RUNGS, TRIGGERS, Observation, Policy, backoff_delays,
                                        cascade_cost, descend, rung_counts)

GOOD = Observation("ok", 1.0, True, 0.9)
PRIMARY, RETRY, OTHER, CHEAP, RULES, CACHE, REFUSAL = range(7)


def scripted(script):
    """observe() that plays back per-rung lists of observations (the last one repeats)."""
    def observe(rung, attempt):
        seq = script.get(rung, [GOOD])
        return seq[min(attempt, len(seq) - 1)]
    return observe


POLICY = Policy(time_budget=10.0, validation_failures=2, task_calls=6, retries=2,
                confidence=0.3)
CASES = {
    "time_budget": {PRIMARY: [Observation("ok", 12.0)]},
    "validation": {PRIMARY: [Observation("ok", 1.0, False)]},
    "low_confidence": {PRIMARY: [Observation("ok", 1.0, True, 0.1)]},
    "rate_limit": {PRIMARY: [Observation("rate_limited", 0.1)]},
}


@pytest.mark.parametrize("trigger", sorted(CASES))
def test_each_trigger_sends_the_request_down_from_the_primary(trigger):
    result = descend(scripted(CASES[trigger]), POLICY, jitter=[0.5, 0.5])
    assert result.passed[0] == (PRIMARY, trigger)
    assert result.rung > PRIMARY


def test_the_task_budget_trigger():
    # Primary: two invalid answers spend two calls; with a budget of two the other
    # provider is passed over for the task budget, not tried.
    policy = Policy(task_calls=2, validation_failures=2)
    result = descend(scripted({PRIMARY: [Observation("ok", 1.0, False)]}), policy)
    assert result.passed == ((PRIMARY, "validation"), (OTHER, "task_budget"),
                             (CHEAP, "task_budget"))
    assert result.rung == RULES and result.calls == 2


def test_every_trigger_name_is_exercised():
    assert set(CASES) | {"task_budget"} == set(TRIGGERS)


def test_a_good_primary_answers_at_once():
    result = descend(scripted({}), POLICY)
    assert result.rung == PRIMARY and result.passed == () and result.calls == 1
    assert result.waited == 0.0


def test_a_transient_error_then_success_counts_on_the_retry_rung():
    obs = [Observation("error", 0.2), GOOD]
    result = descend(scripted({PRIMARY: obs}), POLICY, jitter=[0.5, 0.5])
    delay = 0.5 * POLICY.backoff_base
    assert result.rung == RETRY and result.calls == 2
    assert result.waited == pytest.approx(0.2 + delay)
    assert result.elapsed == pytest.approx(0.2 + delay + 1.0)


def test_retries_exhausted_then_the_other_provider():
    result = descend(scripted({PRIMARY: [Observation("error", 0.1)]}), POLICY,
                     jitter=[0.0, 0.0])
    assert result.passed == ((PRIMARY, "rate_limit"),) and result.rung == OTHER
    assert result.calls == POLICY.retries + 2


def test_a_hanging_provider_burns_the_time_budget_and_skips_the_model_rungs():
    hang = [Observation("error", 4.0)]
    result = descend(scripted({PRIMARY: hang}), POLICY, jitter=[1.0 - 1e-9, 1.0 - 1e-9])
    # Two 4 s hangs and two near-full backoffs pass the 10 s deadline; the rules rung
    # (1 s in this script) then answers.
    assert result.elapsed == pytest.approx(POLICY.time_budget + GOOD.latency)
    assert result.waited == pytest.approx(POLICY.time_budget)
    assert [reason for _, reason in result.passed] == ["time_budget"] * 3
    assert result.rung == RULES


def test_an_open_breaker_skips_the_primary_without_waiting():
    result = descend(scripted({PRIMARY: [Observation("error", 4.0)]}), POLICY, skip={PRIMARY})
    assert result.passed == ((PRIMARY, "breaker_open"),) and result.rung == OTHER
    assert result.waited == 0.0 and result.calls == 1


def test_misses_fall_through_to_refusal():
    miss = [Observation("miss")]
    bad = [Observation("ok", 0.5, False)]
    result = descend(scripted({PRIMARY: bad, OTHER: bad, CHEAP: bad, RULES: miss,
                               CACHE: miss}), Policy(task_calls=10, validation_failures=2))
    assert result.rung == REFUSAL
    assert [r for r, _ in result.passed] == [PRIMARY, OTHER, CHEAP, RULES, CACHE]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 0.999), min_size=1, max_size=8),
       st.floats(0.01, 5), st.floats(0.01, 60))
def test_backoff_is_full_jitter_under_the_capped_exponential(u, base, cap):
    policy = Policy(backoff_base=base, backoff_cap=cap)
    delays = backoff_delays(policy, u)
    ceiling = np.minimum(cap, base * 2.0 ** np.arange(len(u)))
    assert np.all(delays >= 0) and np.all(delays <= ceiling)
    np.testing.assert_allclose(delays, np.array(u) * ceiling)


def test_descend_is_reproducible_per_seed():
    obs = scripted({PRIMARY: [Observation("error", 0.3), Observation("error", 0.3), GOOD]})
    assert descend(obs, POLICY, seed=4) == descend(obs, POLICY, seed=4)
    assert descend(obs, POLICY, seed=4).elapsed != descend(obs, POLICY, seed=5).elapsed


def test_rung_counts_add_up():
    answered = np.array([0, 0, 4, 6, 2, 0])
    counts = rung_counts(answered)
    assert counts.sum() == answered.size and counts[0] == 3 and len(counts) == len(RUNGS)
    with pytest.raises(ValueError, match="rungs_answered"):
        rung_counts([7])


def test_cascade_cost_and_the_baseline():
    assert cascade_cost(1.0, 0.1) == pytest.approx(1.0)
    assert cascade_cost(0.0, 0.1) == pytest.approx(0.1)
    # The same router saves more against all-strong than against a cheaper baseline.
    router = cascade_cost(0.3, 0.05)
    assert 1 - router > 1 - router / cascade_cost(0.5, 0.05)


@pytest.mark.parametrize("kwargs, name", [
    (dict(time_budget=0), "time_budget"), (dict(validation_failures=0), "validation_failures"),
    (dict(task_calls=0), "task_calls"), (dict(retries=-1), "retries"),
    (dict(confidence=1.5), "confidence"), (dict(backoff_base=-1), "backoff_base"),
    (dict(backoff_cap=float("nan")), "backoff_cap")])
def test_bad_policy_is_refused(kwargs, name):
    with pytest.raises(ValueError, match=name):
        Policy(**kwargs)


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="policy"):
        descend(scripted({}), policy="strict")
    with pytest.raises(ValueError, match="jitter"):
        backoff_delays(Policy(), [1.5])
    with pytest.raises(ValueError, match="strong_share"):
        cascade_cost(1.2)
