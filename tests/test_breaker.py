"""The breaker's state machine on a manual clock: no real time passes in these tests."""

import pytest

from reliability.harness.breaker import (CLOSED, HALF_OPEN, OPEN, BreakerConfig,
                                         BreakerState, CircuitBreaker, CircuitOpenError,
                                         transition)
from reliability.harness.clock import ManualClock


def _breaker(threshold=3, timeout=60.0):
    clock = ManualClock()
    return CircuitBreaker(BreakerConfig(threshold, timeout), clock=clock), clock


def test_opens_after_exactly_threshold_consecutive_failures():
    breaker, _ = _breaker(threshold=3)
    for _ in range(2):
        assert breaker.allow()
        breaker.record_failure()
    assert breaker.state == CLOSED
    breaker.record_failure()
    assert breaker.state == OPEN and breaker.opened == 1
    assert not breaker.allow()


def test_a_success_resets_the_run_of_failures():
    breaker, _ = _breaker(threshold=3)
    for _ in range(5):
        breaker.record_failure()
        breaker.record_failure()
        breaker.record_success()
    assert breaker.state == CLOSED and breaker.current.failures == 0


def test_open_refuses_until_the_timeout_then_lets_one_probe_through():
    breaker, clock = _breaker(threshold=1, timeout=30.0)
    breaker.record_failure()
    clock.advance(29.999)
    assert not breaker.allow() and breaker.state == OPEN
    clock.advance(0.001)
    assert breaker.allow() and breaker.state == HALF_OPEN
    assert not breaker.allow(), "a second caller must fail fast while the probe is out"


def test_probe_success_closes_and_probe_failure_reopens_for_a_full_timeout():
    breaker, clock = _breaker(threshold=1, timeout=10.0)
    breaker.record_failure()
    clock.advance(10.0)
    assert breaker.allow()
    breaker.record_failure()
    assert breaker.state == OPEN and breaker.opened == 2
    clock.advance(9.0)
    assert not breaker.allow()
    clock.advance(1.0)
    assert breaker.allow()
    breaker.record_success()
    assert breaker.state == CLOSED and breaker.allow()


def test_call_wraps_a_flaky_function_and_fails_fast_when_open():
    breaker, _ = _breaker(threshold=2)
    calls = []

    def dead():
        calls.append(1)
        raise ConnectionError("provider down")

    for _ in range(2):
        with pytest.raises(ConnectionError):
            breaker.call(dead)
    for _ in range(5):
        with pytest.raises(CircuitOpenError):
            breaker.call(dead)
    assert len(calls) == 2, "an open breaker must not call the provider"


def test_transition_is_pure():
    state = BreakerState()
    new, allowed = transition(state, "failure", 5.0, BreakerConfig(1, 1.0))
    assert state == BreakerState() and new.state == OPEN and new.opened_at == 5.0 and allowed


@pytest.mark.parametrize("kwargs", [dict(failure_threshold=0), dict(failure_threshold=1.5),
                                    dict(reset_timeout=0), dict(reset_timeout=-1.0),
                                    dict(reset_timeout=float("inf"))])
def test_bad_config_is_refused(kwargs):
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        BreakerConfig(**kwargs)


def test_bad_event_and_config_are_refused():
    with pytest.raises(ValueError, match="event"):
        transition(BreakerState(), "explode", 0.0)
    with pytest.raises(ValueError, match="config"):
        CircuitBreaker(config=5)
