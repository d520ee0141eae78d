"""tenacity doing the retry job, as the budgets chapter shows it: stop after A attempts,
exponential backoff with jitter, a fake sleep. Its observed success rate must match the
closed form 1 - e^A within four standard errors."""

import pytest
from tenacity import (RetryError, Retrying, retry_if_exception_type, stop_after_attempt,
                      wait_exponential_jitter)

from reliability.harness.budget import flaky_call, retry_success
from reliability.stats import binomial_standard_error

RUNS = 4000


def run_with_tenacity(error, attempts, seed, runs=RUNS, cap=8.0):
    call = flaky_call(error, seed)
    waits, successes, tries = [], 0, 0
    retrying = Retrying(stop=stop_after_attempt(attempts),
                        wait=wait_exponential_jitter(multiplier=0.5, max=cap, jitter=0.5),
                        retry=retry_if_exception_type(ConnectionError),
                        sleep=waits.append)  # record the backoff instead of waiting
    for _ in range(runs):
        try:
            retrying(call)
            successes += 1
        except RetryError:
            pass
        tries += retrying.statistics["attempt_number"]
    return successes, tries, waits


@pytest.mark.parametrize("error, attempts", [(0.3, 1), (0.3, 3), (0.5, 4), (0.7, 2),
                                             (0.2, 6)])
def test_tenacity_success_rate_matches_the_closed_form(error, attempts):
    successes, tries, _ = run_with_tenacity(error, attempts, seed=attempts)
    expected = retry_success(error, attempts)
    se = binomial_standard_error(expected, RUNS)
    assert abs(successes / RUNS - expected) <= 4 * se + 1e-12
    # Mean tries per call: 1 + e + ... + e^(A-1). Each try count is at most A, so its
    # standard deviation is below A / 2; four of those standard errors is the tolerance.
    mean_tries = sum(error ** j for j in range(attempts))
    assert abs(tries / RUNS - mean_tries) <= 4 * (attempts / 2) / RUNS ** 0.5


def test_backoff_waits_grow_and_stay_under_the_cap():
    _, tries, waits = run_with_tenacity(0.6, 5, seed=1, runs=300)
    assert len(waits) == tries - 300  # one wait before every retry, none before first tries
    assert all(0.5 <= w <= 8.0 for w in waits)


def test_same_seed_same_outcomes():
    assert run_with_tenacity(0.4, 3, seed=5, runs=500)[:2] == \
        run_with_tenacity(0.4, 3, seed=5, runs=500)[:2]
