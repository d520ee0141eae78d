r"""The degradation ladder: what to give the user when the main path is closed.

Seven rungs, each worth less than the one above and more than nothing:

===  ==================================  ============================================
 0   primary model                       full value
 1   retry with backoff and jitter       the same answer, later
 2   same model at another provider      the same answer, another channel
 3   cheaper model with its own prompts  a simpler answer on the same topic
 4   deterministic rules                 a narrow set of frequent topics
 5   cached answer to a near question    about a neighbouring case, but to the point
 6   honest refusal, queue to a person   the user knows what happens next
===  ==================================  ============================================

Five triggers send a request down a rung: the time budget runs out
(``time_budget``), ``N`` answers in a row fail validation (``validation``), the task's
budget of model calls is spent (``task_budget``), the model's confidence is below the
threshold (``low_confidence``), and the provider refuses (rate limit or a transient
error) with no retry left (``rate_limit``). Only the last needs a failing provider.

The retry rung belongs to the primary: a transient failure there waits

.. math::

    \begin{aligned}
    d_k &= u_k \cdot \min(\text{cap},\; \text{base} \cdot 2^{k}),\\
    u_k &\sim U(0, 1)
    \end{aligned}

("full jitter", so that clients who failed together do not retry together), and an
answer that needed at least one retry is counted on rung 1. Count every answer by the
rung that gave it (:func:`rung_counts`): a ladder without counters hides its own descent.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from .. import _validate
from ..i18n import N_
from ..numbers import words_for

__all__ = ["Rung", "RUNGS", "TRIGGERS", "Policy", "Observation", "Descent", "backoff_delays",
           "descend", "rung_counts", "cascade_cost"]


_KINDS = ("model", "retry", "rules", "cache", "refusal")


@dataclass(frozen=True)
class Rung:
    """One rung: its name, its kind (``model``, ``retry``, ``rules``, ``cache``,
    ``refusal``), an illustrative value of its answer relative to the primary's (1.0), and
    what it costs."""

    name: str
    kind: str
    value: float
    cost: str

    def __post_init__(self):
        _validate.text("name", self.name)
        _validate.text("kind", self.kind, choices=_KINDS)
        _validate.real("value", self.value, minimum=0.0)
        _validate.text("cost", self.cost)


#: The lesson's seven rungs. The values are this book's illustration of "less than the rung
#: above, more than zero", not measurements.
RUNGS = (
    Rung(N_("primary model"), "model", 1.0,
         N_("the full price per call")),
    Rung(N_("retry with backoff"), "retry", 1.0,
         N_("the same price again, plus the wait")),
    Rung(N_("other provider"), "model", 1.0,
         N_("a second contract, keys and quota to keep warm")),
    Rung(N_("cheaper model"), "model", 0.7,
         N_("its own prompt branch and its own test set")),
    Rung(N_("deterministic rules"), "rules", 0.4,
         N_("rules to write and keep current")),
    Rung(N_("cached near answer"), "cache", 0.3,
         N_("a cache and a similarity threshold")),
    Rung(N_("refusal + human queue"), "refusal", 0.1,
         N_("an operator's time")),
)

#: The five reasons a request goes down a rung (the lesson's triggers), as
#: :class:`Descent` records them.
TRIGGERS = (N_("time_budget"), N_("validation"), N_("task_budget"), N_("low_confidence"),
            N_("rate_limit"))
#: Reasons a rung is passed over that are not triggers: the breaker refused the call, or
#: a rules/cache rung had nothing for this request.
SKIPS = (N_("breaker_open"), N_("miss"))
# A printed reason reads as words: "time budget", «бюджет времени» (numbers.said).
words_for({name: name.replace("_", " ") for name in TRIGGERS + SKIPS})


def _seconds(name: str, value, *, positive: bool = True) -> float:
    if not _validate._is_real(value) or not math.isfinite(value) or (
            value <= 0 if positive else value < 0):
        bound = "> 0" if positive else ">= 0"
        raise ValueError(f"{name} must be a finite number of seconds {bound}, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class Policy:
    """The limits that decide when a request goes down.

    time_budget : seconds the user may wait for a model answer.
    validation_failures : the ``N`` of "N failed validations in a row" at one rung.
    task_calls : model calls the request may make in all (its task budget).
    retries : retries the request may spend on the primary.
    confidence : answers with confidence below this go down.
    backoff_base, backoff_cap : the retry delays' scale, in seconds.
    """

    time_budget: float = 10.0
    validation_failures: int = 2
    task_calls: int = 6
    retries: int = 2
    confidence: float = 0.3
    backoff_base: float = 0.5
    backoff_cap: float = 4.0

    def __post_init__(self):
        object.__setattr__(self, "time_budget", _seconds("time_budget", self.time_budget))
        object.__setattr__(self, "validation_failures",
                           _validate.whole("validation_failures", self.validation_failures))
        object.__setattr__(self, "task_calls", _validate.whole("task_calls", self.task_calls))
        object.__setattr__(self, "retries", _validate.whole("retries", self.retries, minimum=0))
        object.__setattr__(self, "confidence", _validate.probability("confidence",
                                                                     self.confidence))
        object.__setattr__(self, "backoff_base", _seconds("backoff_base", self.backoff_base))
        object.__setattr__(self, "backoff_cap", _seconds("backoff_cap", self.backoff_cap))


def backoff_delays(policy: Policy, jitter) -> np.ndarray:
    r"""Delays before retry :math:`k = 0, 1, \dots`, with full jitter.

    .. math::

        d_k = u_k \cdot \min(\text{cap},\; \text{base} \cdot 2^{k})

    Parameters
    ----------
    policy : Policy
        Gives ``backoff_base`` and ``backoff_cap`` (seconds).
    jitter : sequence of float
        The uniforms :math:`u_k` in [0, 1], one per retry (draw them with a seeded
        Generator).

    Returns
    -------
    numpy.ndarray
        One delay per retry, in seconds.

    Examples
    --------
    >>> from reliability.harness import Policy, backoff_delays
    >>> backoff_delays(Policy(backoff_base=0.5, backoff_cap=4.0), [0.5] * 5)
    array([0.25, 0.5 , 1.  , 2.  , 2.  ])
    """
    if not isinstance(policy, Policy):
        raise ValueError(f"policy must be a Policy, got {policy!r}")
    jitter = _validate.probability_array("jitter", jitter)
    if jitter.ndim == 0:
        raise ValueError(f"jitter must hold one uniform in [0, 1] per retry (an array), "
                         f"got {jitter!r}")
    k = np.arange(jitter.shape[-1])
    return jitter * np.minimum(policy.backoff_cap, policy.backoff_base * 2.0 ** k)


@dataclass(frozen=True)
class Observation:
    """What one attempt at a rung returned.

    Parameters
    ----------
    status : str
        ``"ok"`` (the rung produced an answer), ``"error"`` (transient provider
        failure), ``"rate_limited"`` (HTTP 429) or ``"miss"`` (a rules/cache rung had
        nothing for this request).
    latency : float
        Seconds the attempt took.
    valid : bool
        Whether the answer passed validation.
    confidence : float
        The model's confidence in [0, 1].
    """

    status: str = "ok"
    latency: float = 0.0
    valid: bool = True
    confidence: float = 1.0

    def __post_init__(self):
        _validate.text("status", self.status, choices=("ok", "error", "rate_limited", "miss"))
        _seconds("latency", self.latency, positive=False)
        _validate.flag("valid", self.valid)
        _validate.probability("confidence", self.confidence)


@dataclass(frozen=True)
class Descent:
    """Where a request was answered, and why it passed over each rung above.

    Parameters
    ----------
    rung : int
        Index into the ladder of the rung that answered.
    passed : tuple
        ``(rung index, reason)`` for every rung left behind, reasons from ``TRIGGERS``
        or ``SKIPS``.
    elapsed, waited : float
        Seconds the request took, and seconds of that spent on failed calls and backoff.
    calls : int
        Model calls made.
    """

    rung: int
    passed: tuple
    elapsed: float
    waited: float
    calls: int

    def __post_init__(self):
        _validate.whole("rung", self.rung, minimum=0)
        _validate.sequence("passed", self.passed, of=tuple, what="(rung index, reason) pairs")
        _seconds("elapsed", self.elapsed, positive=False)
        _seconds("waited", self.waited, positive=False)
        _validate.whole("calls", self.calls, minimum=0)


def descend(observe, policy: Policy = Policy(), *, jitter=None, skip=(), rungs=RUNGS,
            seed=0) -> Descent:
    """Walk one request down ``rungs`` until one answers.

    A rung is passed over when one of the five triggers fires (the time budget, failed
    validations, the task's calls, low confidence, a refusal with no retry left) or when its
    provider's breaker is open; a transient failure on the primary waits
    :func:`backoff_delays` and tries again on the retry rung. The last rung always answers.

    Parameters
    ----------
    observe : callable
        ``observe(rung_index, attempt)`` returns the :class:`Observation` of one attempt.
    policy : Policy
        The triggers' thresholds and the backoff.
    jitter : sequence of float or None
        The backoff uniforms; without it they are drawn from ``seed``.
    skip : sequence of int
        Rung indexes whose provider's breaker is open (passed over at once, reason
        ``breaker_open``).
    rungs : sequence of Rung
        The ladder, top first.
    seed : int or numpy.random.Generator
        Seeds the jitter when ``jitter`` is not given.

    Returns
    -------
    Descent
        The rung that answered, why each rung above was passed over, and the time and calls
        spent.

    Examples
    --------
    A primary that always fails: after its retries the request is answered by the other
    provider.

    >>> from reliability.harness import Observation, descend
    >>> found = descend(lambda rung, attempt: Observation(
    ...     "error" if rung == 0 else "ok", 1.0, True, 0.9), seed=0)
    >>> found.rung, found.passed
    (2, ((0, 'rate_limit'),))
    """
    if not isinstance(policy, Policy):
        raise ValueError(f"policy must be a Policy, got {policy!r}")
    observe = _validate.function("observe", observe)
    rungs = _validate.sequence("rungs", rungs, of=Rung, what="Rungs", minimum=1)
    if rungs[-1].kind != "refusal":
        raise ValueError("rungs must end with a rung of kind 'refusal'")
    if not isinstance(skip, (list, tuple, set, frozenset)) or not all(
            isinstance(i, numbers.Integral) and not isinstance(i, bool) for i in skip):
        raise ValueError(f"skip must be a collection of rung indexes, got {skip!r}")
    if jitter is None:
        jitter = _validate.generator(seed).random(policy.retries)
    else:
        _validate.seed(seed)
        jitter = _validate.probability_array("jitter", jitter)
        if jitter.ndim != 1:
            raise ValueError(f"jitter must be a 1-d array of uniforms in [0, 1], got {jitter!r}")
    delays = backoff_delays(policy, np.asarray(jitter, dtype=float)[:policy.retries])
    user_observe = observe

    def observe(index, attempt):
        obs = user_observe(index, attempt)
        if not isinstance(obs, Observation):
            raise ValueError(f"observe must return an Observation, got {obs!r}")
        return obs

    elapsed = waited = 0.0
    calls, retries_used, passed = 0, 0, []
    for index, rung in enumerate(rungs):
        if rung.kind == "refusal":
            return Descent(index, tuple(passed), elapsed, waited, calls)
        if rung.kind == "retry":
            continue  # handled inside the model rung above it
        if rung.kind != "model":
            obs = observe(index, 0)
            elapsed += obs.latency
            if obs.status == "ok" and obs.valid and obs.confidence >= policy.confidence:
                return Descent(index, tuple(passed), elapsed, waited, calls)
            passed.append((index, "miss"))
            continue
        if index in skip:
            passed.append((index, "breaker_open"))
            continue
        can_retry = index + 1 < len(rungs) and rungs[index + 1].kind == "retry"
        invalid, retried, attempt, reason = 0, False, 0, None
        while reason is None:
            if calls >= policy.task_calls:
                reason = "task_budget"
                break
            if elapsed >= policy.time_budget:
                reason = "time_budget"
                break
            obs = observe(index, attempt)
            attempt += 1
            calls += 1
            if elapsed + obs.latency > policy.time_budget:
                # The caller stops waiting at the deadline, not when the call returns.
                waited += policy.time_budget - elapsed
                elapsed = policy.time_budget
                reason = "time_budget"
            elif obs.status in ("error", "rate_limited"):
                elapsed += obs.latency
                waited += obs.latency
                if can_retry and retries_used < len(delays):
                    elapsed += delays[retries_used]
                    waited += delays[retries_used]
                    retries_used += 1
                    retried = True
                else:
                    reason = "rate_limit"
            elif not obs.valid:
                elapsed += obs.latency
                invalid += 1
                if invalid >= policy.validation_failures:
                    reason = "validation"
            elif obs.confidence < policy.confidence:
                elapsed += obs.latency
                reason = "low_confidence"
            else:
                elapsed += obs.latency
                answered = index + 1 if retried and can_retry else index
                return Descent(answered, tuple(passed), elapsed, waited, calls)
        passed.append((index, reason))
    raise ValueError("rungs must end with a rung of kind 'refusal'")


def rung_counts(rungs_answered, n_rungs: int = len(RUNGS)) -> np.ndarray:
    """Answers per rung: ``counts[r]`` is how many requests rung ``r`` answered.

    Parameters
    ----------
    rungs_answered : sequence of int
        The rung that answered each request, each in ``[0, n_rungs)``.
    n_rungs : int
        Rungs on the ladder, ``>= 1``.

    Returns
    -------
    numpy.ndarray
        ``n_rungs`` counts, zeros included.

    Examples
    --------
    >>> from reliability.harness import rung_counts
    >>> rung_counts([0, 0, 1, 4, 6])
    array([2, 1, 0, 0, 1, 0, 1])
    """
    n_rungs = _validate.whole("n_rungs", n_rungs, minimum=1, maximum=10_000)
    answered = _validate.whole_array("rungs_answered", rungs_answered, minimum=0)
    if answered.size and answered.max() >= n_rungs:
        raise ValueError(f"rungs_answered must lie in [0, {n_rungs - 1}], got {answered.max()}")
    return np.bincount(answered.ravel(), minlength=n_rungs)


def cascade_cost(strong_share, price_ratio: float = 0.0):
    r"""Cost of a cascade per request, relative to sending everything to the strong model.

    .. math::

        C = s + (1 - s)\,\rho,

    with :math:`s` the share routed to the strong model and :math:`\rho` the weak model's
    price over the strong one's. The saving against an all-strong baseline is
    :math:`1 - C`; against another router with share :math:`s_0` it is
    :math:`1 - C(s) / C(s_0)`, which is why "saves up to N %" means nothing without its
    baseline.

    Parameters
    ----------
    strong_share : float or array of float
        :math:`s`, in [0, 1].
    price_ratio : float
        :math:`\rho`, in [0, 1].

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> from reliability.harness import cascade_cost
    >>> round(cascade_cost(0.3, 0.1), 2)
    0.37
    """
    share = _validate.probability_array("strong_share", strong_share)
    ratio = _validate.probability("price_ratio", price_ratio)
    cost = share + (1.0 - share) * ratio
    return float(cost) if np.ndim(cost) == 0 else cost
