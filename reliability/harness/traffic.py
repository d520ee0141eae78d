r"""A seeded day of traffic through the degradation ladder.

The lesson's bank bot: 8,000 conversations a day, about fifteen turns each. Every turn is
one request that walks the ladder of :mod:`reliability.harness.ladder` with the same rules
as :func:`~reliability.harness.ladder.descend`, but all requests at once: the loop runs
over *attempts* (at most ``task_calls`` per rung) and each step is vectorised over the
day's ~120,000 requests. The one sequential part is the circuit breaker, which must see
the primary's results in time order.

Scenarios change the primary provider (an outage, a slow spell) or every model rung's
quality (a silent slide). The report gives latency, the worker time spent waiting on
failed calls and backoff, answers per rung, the reasons each rung was passed over, and
the counters a monitor would alert on.

Assumptions, so a reader can argue with them: attempts are independent given the
scenario; a request's retries happen at its arrival time; the breaker is consulted once
per request (a request it lets through finishes its retries).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from .. import _validate
from ..stats import binomial_standard_error
from .breaker import CLOSED, HALF_OPEN, OPEN, BreakerConfig
from .ladder import RUNGS, SKIPS, TRIGGERS, Policy, backoff_delays

__all__ = ["Provider", "Scenario", "DayReport", "simulate_day", "rung_alerts", "REASONS",
           "DAY"]

#: A day in seconds, the length of :func:`simulate_day`'s clock.
DAY = 86_400.0
#: Reasons a rung is passed over, in the order of ``DayReport.reasons``' columns.
REASONS = TRIGGERS + SKIPS
_OK, _ERROR, _LIMITED = 0, 1, 2
_MODEL_RUNGS = tuple(i for i, r in enumerate(RUNGS) if r.kind == "model")
_RULES = next(i for i, r in enumerate(RUNGS) if r.kind == "rules")
_CACHE = next(i for i, r in enumerate(RUNGS) if r.kind == "cache")
_REFUSAL = len(RUNGS) - 1


@dataclass(frozen=True)
class Provider:
    """One model behind one provider: failure shares per call, a lognormal latency
    (median in seconds, log-sd ``spread``), the share of answers that fail validation,
    and a Beta(a, b) confidence."""

    error: float = 0.01
    rate_limited: float = 0.005
    median_latency: float = 2.0
    spread: float = 0.5
    invalid: float = 0.03
    confidence_a: float = 8.0
    confidence_b: float = 2.0

    def __post_init__(self):
        for name in ("error", "rate_limited", "invalid"):
            object.__setattr__(self, name, _validate.probability(name, getattr(self, name)))
        if self.error + self.rate_limited > 1:
            raise ValueError("error + rate_limited must be at most 1, got "
                             f"{self.error + self.rate_limited!r}")
        for name in ("median_latency", "spread", "confidence_a", "confidence_b"):
            value = getattr(self, name)
            if not _validate._is_real(value) or not math.isfinite(value) or value <= 0:
                raise ValueError(f"{name} must be a number > 0, got {value!r}")


#: The three model rungs by default: the primary, the same model elsewhere, a cheaper one.
PROVIDERS = (Provider(), Provider(median_latency=2.5),
             Provider(median_latency=0.8, invalid=0.12, confidence_a=5.0))


@dataclass(frozen=True)
class Scenario:
    """What goes wrong, and when (hours from midnight).

    Parameters
    ----------
    outage_start, outage_hours : float
        The primary is down; each call hangs ``dead_latency`` s and fails.
    slow_start, slow_hours, slow_factor : float
        The primary's latency is multiplied.
    quality_drop : float
        Extra share of invalid answers on every model rung, all day (a silent slide: a
        changed question mix, a stale knowledge base).
    rules_cover, cache_hit : float
        Shares of requests the rules rung and the cache can answer.
    """

    name: str = "normal day"
    outage_start: float = 10.0
    outage_hours: float = 0.0
    dead_latency: float = 4.0
    slow_start: float = 14.0
    slow_hours: float = 0.0
    slow_factor: float = 4.0
    quality_drop: float = 0.0
    rules_cover: float = 0.35
    cache_hit: float = 0.3

    def __post_init__(self):
        for name in ("outage_start", "outage_hours", "slow_start", "slow_hours"):
            value = getattr(self, name)
            if not _validate._is_real(value) or not 0 <= value <= 24:
                raise ValueError(f"{name} must be hours in [0, 24], got {value!r}")
        _validate.text("name", self.name)
        for name in ("dead_latency", "slow_factor"):
            value = getattr(self, name)
            if not _validate._is_real(value) or not math.isfinite(value) or value <= 0:
                raise ValueError(f"{name} must be a number > 0, got {value!r}")
        for name in ("quality_drop", "rules_cover", "cache_hit"):
            object.__setattr__(self, name, _validate.probability(name, getattr(self, name)))


@dataclass(frozen=True)
class DayReport:
    """One simulated day.

    counts[r] : answers given by rung r (they add up to ``requests``).
    reasons[r, k] : requests that passed over rung r for reason ``REASONS[k]``.
    primary_calls, primary_failures : calls to the primary, and how many failed;
    outage_calls : calls to the primary by requests that arrived while it was down.
    elapsed, waited : per-request seconds (total, and spent on failed calls and backoff).
    """

    scenario: Scenario
    breaker: BreakerConfig | None
    conversations: int
    requests: int
    counts: np.ndarray = field(repr=False)
    reasons: np.ndarray = field(repr=False)
    primary_calls: int
    primary_failures: int
    outage_calls: int
    breaker_opened: int
    time: np.ndarray = field(repr=False, compare=False)
    rung: np.ndarray = field(repr=False, compare=False)
    elapsed: np.ndarray = field(repr=False, compare=False)
    waited: np.ndarray = field(repr=False, compare=False)

    @property
    def shares(self) -> np.ndarray:
        return self.counts / self.requests

    @property
    def waiting_hours(self) -> float:
        """Worker time spent waiting on failed calls and backoff, in hours."""
        return float(self.waited.sum() / 3600.0)

    @property
    def error_rate(self) -> float:
        """Share of calls to the primary that failed, what an HTTP monitor sees."""
        return self.primary_failures / self.primary_calls if self.primary_calls else 0.0

    def __post_init__(self):
        _validate.instance("scenario", self.scenario, Scenario)
        _validate.instance("breaker", self.breaker, BreakerConfig, optional=True)
        _validate.whole("conversations", self.conversations, minimum=0)
        requests = _validate.whole("requests", self.requests, minimum=1)
        for name in ("primary_calls", "primary_failures", "outage_calls", "breaker_opened"):
            _validate.whole(name, getattr(self, name), minimum=0)
        _validate.numeric_array("counts", self.counts, kind="whole", ndim=1, minimum=0)
        _validate.numeric_array("reasons", self.reasons, kind="whole", ndim=2, minimum=0)
        for name in ("time", "elapsed", "waited"):
            _validate.numeric_array(name, getattr(self, name), ndim=1, minimum=0.0)
        _validate.numeric_array("rung", self.rung, kind="whole", ndim=1, minimum=0)
        for name in ("time", "rung", "elapsed", "waited"):
            if np.size(getattr(self, name)) != requests:
                raise ValueError(f"{name} must hold one entry per request ({requests}), "
                                 f"got {np.size(getattr(self, name))}")

    def latency(self, q: float) -> float:
        """The ``q`` quantile of request latency, in seconds."""
        return float(np.quantile(self.elapsed, _validate.probability("q", q)))

    def trigger_counts(self) -> dict:
        """Requests sent down by each reason, summed over rungs."""
        return {reason: int(n) for reason, n in zip(REASONS, self.reasons.sum(axis=0))}


def _arrivals(conversations: int, turns: float, rng) -> np.ndarray:
    """Request times over one day: conversations start uniformly, turns follow each other
    after exponential pauses (mean 40 s), and ``1 + Poisson(turns - 1)`` turns each."""
    per_conversation = 1 + rng.poisson(turns - 1.0, conversations)
    start = rng.uniform(0.0, DAY, conversations)
    owner = np.repeat(np.arange(conversations), per_conversation)
    gaps = rng.exponential(40.0, owner.size)
    first = np.r_[0, np.cumsum(per_conversation)[:-1]]
    gaps[first] = 0.0
    offsets = np.cumsum(gaps)
    offsets -= np.repeat(offsets[first], per_conversation)
    return np.sort((start[owner] + offsets) % DAY)


def _model_draws(provider: Provider, n: int, attempts: int, quality_drop: float,
                 threshold: float, rng):
    """Status, latency, validity, and whether the confidence is under ``threshold``, of
    ``attempts`` calls per request.

    The confidence :math:`C` is Beta(a, b) and is read only against the threshold
    :math:`t`: :math:`C < t` exactly when a uniform :math:`U < I_t(a, b)`, the Beta CDF
    at :math:`t` (:math:`C = F^{-1}(U)` is Beta(a, b), and :math:`F` increases), so one
    uniform a call stands in for the Beta draw's two gamma draws, at about a twentieth of
    the cost (a day draws about a million).
    """
    u = rng.random((n, attempts))
    status = np.where(u < provider.error, _ERROR,
                      np.where(u < provider.error + provider.rate_limited, _LIMITED, _OK))
    latency = provider.median_latency * np.exp(provider.spread * rng.standard_normal((n, attempts)))
    invalid = min(1.0, provider.invalid + quality_drop)
    valid = rng.random((n, attempts)) >= invalid
    under = special.betainc(provider.confidence_a, provider.confidence_b, threshold)
    unsure = rng.random((n, attempts)) < under
    return status, latency, valid, unsure


def _model_rung(draws, state, live, policy: Policy, can_retry: bool, delays):
    """Run one model rung for the requests in ``live``, in place on ``state``; returns the
    reason code per request (-1 answered, -2 not at this rung) and provider bookkeeping."""
    status, latency, valid, unsure = draws
    n = live.size
    reason = np.where(live, -3, -2)  # -3: still trying
    invalid = np.zeros(n, dtype=int)
    retries_used = np.zeros(n, dtype=int)
    retried = np.zeros(n, dtype=bool)
    calls_here = np.zeros(n, dtype=int)
    failures = np.zeros(n, dtype=int)
    trailing = np.zeros(n, dtype=int)
    responded = np.zeros(n, dtype=bool)
    elapsed, waited, calls = state["elapsed"], state["waited"], state["calls"]
    code = {name: k for k, name in enumerate(REASONS)}
    rows = np.arange(n)
    for j in range(policy.task_calls + 1):
        going = reason == -3
        out = going & (calls >= policy.task_calls)
        reason[out] = code["task_budget"]
        going &= ~out
        out = going & (elapsed >= policy.time_budget)
        reason[out] = code["time_budget"]
        going &= ~out
        if j == policy.task_calls or not going.any():
            break
        calls[going] += 1
        calls_here[going] += 1
        lat = latency[:, j]
        late = going & (elapsed + lat > policy.time_budget)
        waited[late] += policy.time_budget - elapsed[late]
        elapsed[late] = policy.time_budget
        reason[late] = code["time_budget"]
        back = going & ~late
        elapsed[back] += lat[back]
        failed = back & (status[:, j] != _OK)
        waited[failed] += lat[failed]
        retry = failed & can_retry & (retries_used < delays.shape[1])
        delay = delays[rows[retry], retries_used[retry]]
        elapsed[retry] += delay
        waited[retry] += delay
        retries_used[retry] += 1
        retried |= retry
        reason[failed & ~retry] = code["rate_limit"]
        answered_call = back & ~failed
        failures += failed | late
        trailing = np.where(answered_call, 0, trailing + (failed | late))
        responded |= answered_call
        bad = answered_call & ~valid[:, j]
        invalid += bad
        reason[bad & (invalid >= policy.validation_failures)] = code["validation"]
        usable = answered_call & valid[:, j]
        reason[usable & unsure[:, j]] = code["low_confidence"]
        reason[usable & ~unsure[:, j]] = -1
    book = dict(calls=calls_here, failures=failures, trailing=trailing, responded=responded,
                retried=retried)
    return reason, book


def _breaker_pass(time, book, config: BreakerConfig):
    """Which requests the primary's breaker lets through, in time order.

    The same state machine as :func:`~reliability.harness.breaker.transition` (a test
    holds the two equal), written on plain local variables: the day has ~10^5 requests
    and the explorer re-runs it on every slider move, so the per-event validation of
    ``transition`` would cost most of the simulation.
    """
    allowed = np.ones(time.size, dtype=bool)
    threshold, timeout = config.failure_threshold, config.reset_timeout
    state, failures, opened_at, probing = CLOSED, 0, -math.inf, False
    opened = 0
    for i, (now, responded, trailing) in enumerate(zip(
            time.tolist(), book["responded"].tolist(), book["trailing"].tolist())):
        if state == OPEN:
            if now - opened_at < timeout:
                allowed[i] = False
                continue
            state, probing = HALF_OPEN, True
        elif state == HALF_OPEN:
            if probing:
                allowed[i] = False
                continue
            probing = True
        if responded:
            state, failures, opened_at, probing = CLOSED, 0, -math.inf, False
        for _ in range(trailing):
            if state == HALF_OPEN:
                state, failures, opened_at, probing = OPEN, threshold, now, False
                opened += 1
                continue
            failures += 1
            if state == CLOSED and failures >= threshold:
                state, opened_at, probing = OPEN, now, False
                opened += 1
    return allowed, opened


# Requests in one simulated day (about ten arrays of this length are held at once).
_MAX_REQUESTS = 10_000_000


def simulate_day(scenario: Scenario = Scenario(), policy: Policy = Policy(), *,
                 breaker: BreakerConfig | None = None, conversations: int = 8000,
                 turns: float = 15.0, providers=PROVIDERS, seed=0) -> DayReport:
    """One seeded day of ``conversations`` x about ``turns`` requests through the ladder.

    With ``breaker`` set, the primary (and its retries) sit behind a circuit breaker;
    without it every request tries the primary whatever happened to the one before.

    Parameters
    ----------
    scenario : Scenario
        What goes wrong, and when.
    policy : Policy
        The ladder's triggers and backoff.
    breaker : BreakerConfig or None
        The primary's breaker, or none.
    conversations : int
        Conversations in the day, ``>= 1``.
    turns : float
        Mean requests per conversation, ``>= 1``.
    providers : sequence of Provider
        The primary, the other provider and the cheaper model.
    seed : int or numpy.random.Generator
        The same seed gives the same day.

    Returns
    -------
    DayReport
        Every request's time, rung and waiting, and the day's counters.

    Examples
    --------
    >>> from reliability.harness import simulate_day
    >>> day = simulate_day(conversations=50, seed=1)
    >>> day.requests, day.primary_failures
    (757, 7)
    """
    if not isinstance(scenario, Scenario):
        raise ValueError(f"scenario must be a Scenario, got {scenario!r}")
    if not isinstance(policy, Policy):
        raise ValueError(f"policy must be a Policy, got {policy!r}")
    if breaker is not None and not isinstance(breaker, BreakerConfig):
        raise ValueError(f"breaker must be a BreakerConfig or None, got {breaker!r}")
    conversations = _validate.whole("conversations", conversations)
    if not _validate._is_real(turns) or not 1 <= turns <= 1000:
        raise ValueError(f"turns must be a number in [1, 1000], got {turns!r}")
    _validate.size("conversations x turns", int(conversations * turns), limit=_MAX_REQUESTS)
    if (not isinstance(providers, (list, tuple)) or len(providers) != len(_MODEL_RUNGS)
            or not all(isinstance(p, Provider) for p in providers)):
        raise ValueError(f"providers must hold {len(_MODEL_RUNGS)} Provider, got {providers!r}")
    rng = _validate.generator(seed)
    time = _arrivals(conversations, float(turns), rng)
    n = time.size
    hours = time / 3600.0

    draws = []
    for provider in providers:
        draws.append(_model_draws(provider, n, policy.task_calls, scenario.quality_drop,
                                   policy.confidence, rng))
    status, latency = draws[0][0], draws[0][1]
    down = (hours >= scenario.outage_start) & (hours < scenario.outage_start + scenario.outage_hours)
    status[down] = _ERROR
    latency[down] = scenario.dead_latency
    slow = (hours >= scenario.slow_start) & (hours < scenario.slow_start + scenario.slow_hours)
    latency[slow] *= scenario.slow_factor
    delays = backoff_delays(policy, rng.random((n, policy.retries)))
    rules_hit = rng.random(n) < scenario.rules_cover
    cache_hit = rng.random(n) < scenario.cache_hit

    state = dict(elapsed=np.zeros(n), waited=np.zeros(n), calls=np.zeros(n, dtype=int))
    rung = np.full(n, -1)
    reasons = np.zeros((len(RUNGS), len(REASONS)), dtype=np.int64)
    live = np.ones(n, dtype=bool)
    primary_calls = primary_failures = outage_calls = opened = 0
    for k, index in enumerate(_MODEL_RUNGS):
        can_retry = index + 1 < len(RUNGS) and RUNGS[index + 1].kind == "retry"
        if index == 0 and breaker is not None:
            # The primary's outcome does not depend on the breaker, so compute it for
            # everyone, let the breaker decide in time order, then undo the refused ones.
            saved = {key: value.copy() for key, value in state.items()}
            reason, book = _model_rung(draws[k], state, live, policy, can_retry, delays)
            allowed, opened = _breaker_pass(time, book, breaker)
            for key in state:
                state[key][~allowed] = saved[key][~allowed]
            reason[~allowed] = REASONS.index("breaker_open")
            for key in book:
                book[key] = np.where(allowed, book[key], 0)
        else:
            reason, book = _model_rung(draws[k], state, live, policy, can_retry, delays)
        if index == 0:
            primary_calls = int(book["calls"].sum())
            primary_failures = int(book["failures"].sum())
            outage_calls = int(book["calls"][down].sum())
        answered = reason == -1
        rung[answered] = np.where(book["retried"][answered] & can_retry, index + 1, index)
        passed = live & ~answered
        reasons[index] = np.bincount(reason[passed], minlength=len(REASONS))
        live &= ~answered
    for index, hit in ((_RULES, rules_hit), (_CACHE, cache_hit)):
        answered = live & hit
        rung[answered] = index
        reasons[index, REASONS.index("miss")] = int((live & ~hit).sum())
        live &= ~hit
    rung[live] = _REFUSAL
    return DayReport(scenario, breaker, conversations, n,
                     np.bincount(rung, minlength=len(RUNGS)), reasons, primary_calls,
                     primary_failures, outage_calls, int(opened), time, rung, state["elapsed"],
                     state["waited"])


def rung_alerts(counts, requests: int, baseline_shares, *, z: float = 4.0) -> np.ndarray:
    r"""Which rungs' counters would alert.

    A rung alerts when its share today is above its baseline share by more than ``z``
    binomial standard errors,

    .. math::

        \hat s_r > s_r + z \sqrt{s_r (1 - s_r) / n}.

    Rungs whose baseline share is zero alert on any answer at all.

    Parameters
    ----------
    counts : sequence of int
        Today's answers per rung (:func:`~reliability.harness.ladder.rung_counts`).
    requests : int
        :math:`n`, today's requests, ``>= 1``.
    baseline_shares : sequence of float
        :math:`s_r`, each rung's share on a normal day, in [0, 1].
    z : float
        Standard errors of slack, ``>= 0``.

    Returns
    -------
    numpy.ndarray of bool
        One flag per rung.

    Examples
    --------
    The rules rung answering 35 % of requests against a usual 5 %:

    >>> from reliability.harness import rung_alerts
    >>> rung_alerts([60, 5, 0, 0, 35, 0, 0], 100, [0.9, 0.05, 0, 0, 0.05, 0, 0])
    array([False, False, False, False,  True, False, False])
    """
    counts = _validate.whole_array("counts", counts)
    requests = _validate.whole("requests", requests)
    z = _validate.real("z", z, minimum=0.0)
    baseline = _validate.probability_array("baseline_shares", baseline_shares)
    if counts.shape != baseline.shape:
        raise ValueError(f"counts and baseline_shares must have one entry per rung, got "
                         f"{counts.shape} and {baseline.shape}")
    se = binomial_standard_error(baseline, np.full(baseline.shape, requests))
    return counts / requests > baseline + z * se
