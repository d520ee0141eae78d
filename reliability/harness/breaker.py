r"""A circuit breaker for the stream of calls to one provider.

A retry looks after one request; a breaker looks after the stream. After
``failure_threshold`` consecutive failures it *opens*: calls are refused at once, so the
caller drops to the next rung of its ladder without waiting on a provider that is down.
After ``reset_timeout`` seconds it lets one probe through (*half-open*); a good probe
closes it, a bad one opens it again for another ``reset_timeout``.

.. math::

    \begin{aligned}
    \text{closed} &\xrightarrow{\;k \ge K\;} \text{open},\\
    \text{open} &\xrightarrow{\;t - t_{open} \ge T\;} \text{half-open},\\
    \text{half-open} &\xrightarrow{\;\text{probe ok}\;} \text{closed},\\
    \text{half-open} &\xrightarrow{\;\text{probe fails}\;} \text{open}
    \end{aligned}

with :math:`k` the run of consecutive failures, :math:`K` the threshold and :math:`T`
the reset timeout. The transition is a pure function of (state, event, time);
:class:`CircuitBreaker` only holds the current state and reads an injectable clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .. import _validate
from ..i18n import NP_, _
from ..numbers import words_for
from .clock import SystemClock

__all__ = ["CLOSED", "OPEN", "HALF_OPEN", "BreakerConfig", "BreakerState", "transition",
           "CircuitBreaker", "CircuitOpenError"]

#: Calls pass, and consecutive failures are counted.
CLOSED = "closed"
#: Calls are refused until ``reset_timeout`` seconds have passed.
OPEN = "open"
#: One probe call is let through; its success closes the breaker, its failure opens it.
HALF_OPEN = "half_open"
# A state as a printed line says it ("the breaker is now closed", «закрыт»); the context
# keeps "closed" apart from the closed form of other modules.
words_for({CLOSED: NP_("breaker", "closed"), OPEN: NP_("breaker", "open"),
           HALF_OPEN: NP_("breaker", "half-open")}, context="breaker")
_EVENTS = ("allow", "success", "failure")


class CircuitOpenError(RuntimeError):
    """Raised by :meth:`CircuitBreaker.call` when the breaker refuses the call."""


@dataclass(frozen=True)
class BreakerConfig:
    """``failure_threshold`` consecutive failures open the breaker for ``reset_timeout`` s."""

    failure_threshold: int = 5
    reset_timeout: float = 60.0

    def __post_init__(self):
        object.__setattr__(self, "failure_threshold",
                           _validate.whole("failure_threshold", self.failure_threshold))
        timeout = self.reset_timeout
        if not _validate._is_real(timeout) or not math.isfinite(timeout) or timeout <= 0:
            raise ValueError(f"reset_timeout must be a number of seconds > 0, got {timeout!r}")
        object.__setattr__(self, "reset_timeout", float(timeout))


@dataclass(frozen=True)
class BreakerState:
    """Where the breaker is: its state, the current run of failures, when it opened, and
    whether the half-open probe is still out."""

    state: str = CLOSED
    failures: int = 0
    opened_at: float = -math.inf
    probing: bool = False

    def __post_init__(self):
        _validate.text("state", self.state, choices=(CLOSED, OPEN, HALF_OPEN))
        _validate.whole("failures", self.failures, minimum=0)
        # -inf: never opened. +inf would never time out, so it is refused with NaN.
        _validate.real("opened_at", self.opened_at, maximum=math.inf, finite=False)
        if self.opened_at == math.inf:
            raise ValueError(f"opened_at must be a time or -inf (never opened), got {self.opened_at!r}")
        _validate.flag("probing", self.probing)


def transition(current: BreakerState, event: str, now: float,
               config: BreakerConfig = BreakerConfig()) -> tuple[BreakerState, bool]:
    """Apply one event (``"allow"``, ``"success"`` or ``"failure"``) at time ``now``.

    An open breaker whose timeout has run out turns half-open on the next ``"allow"`` and
    lets exactly that one call through; a success closes it, a failure while half-open
    opens it again, and the ``failure_threshold``-th failure in a row opens a closed one.

    Parameters
    ----------
    current : BreakerState
        The state before the event.
    event : str
        ``"allow"`` (may a call go ahead?), ``"success"`` or ``"failure"``.
    now : float
        The time, in seconds.
    config : BreakerConfig
        The threshold and the reset timeout.

    Returns
    -------
    tuple of (BreakerState, bool)
        The new state and, for ``"allow"``, whether the call may go ahead (always ``True``
        for the other two events).

    References
    ----------
    Nygard, M. T. (2018). *Release It! Design and Deploy Production-Ready Software*, 2nd
    edition. Pragmatic Bookshelf.

    Examples
    --------
    >>> from reliability.harness import BreakerConfig, BreakerState, transition
    >>> config = BreakerConfig(failure_threshold=1, reset_timeout=60)
    >>> state, _ = transition(BreakerState(), "failure", 0.0, config)
    >>> state.state, transition(state, "allow", 10.0, config)[1]
    ('open', False)
    >>> transition(state, "allow", 61.0, config)[0].state
    'half_open'
    """
    _validate.instance("current", current, BreakerState)
    if not isinstance(event, str) or event not in _EVENTS:
        raise ValueError(f"event must be one of {_EVENTS}, got {event!r}")
    now = _validate.real("now", now)
    _validate.instance("config", config, BreakerConfig)
    if event == "allow":
        if current.state == CLOSED:
            return current, True
        if current.state == OPEN:
            if now - current.opened_at >= config.reset_timeout:
                return replace(current, state=HALF_OPEN, probing=True), True
            return current, False
        # Half-open: one probe at a time; the others fail fast until it reports.
        if current.probing:
            return current, False
        return replace(current, probing=True), True
    if event == "success":
        return BreakerState(), True
    if current.state == HALF_OPEN:
        return BreakerState(OPEN, config.failure_threshold, now, False), True
    failures = current.failures + 1
    if current.state == CLOSED and failures >= config.failure_threshold:
        return BreakerState(OPEN, failures, now, False), True
    return replace(current, failures=failures), True


class CircuitBreaker:
    """A breaker on an injectable clock (anything with ``now()``).

    ``allow()`` asks whether to call; ``record_success()`` / ``record_failure()`` report
    how the call went; ``call(fn, ...)`` does all three and raises
    :class:`CircuitOpenError` when refused. ``opened`` counts how often it has opened.
    """

    def __init__(self, config: BreakerConfig = BreakerConfig(), *, clock=None):
        if not isinstance(config, BreakerConfig):
            raise ValueError(f"config must be a BreakerConfig, got {config!r}")
        self.config = config
        self.clock = _validate.clock("clock", clock) if clock is not None else SystemClock()
        self.current = BreakerState()
        self.opened = 0

    @property
    def state(self) -> str:
        return self.current.state

    def _apply(self, event: str) -> bool:
        before = self.current.state
        self.current, allowed = transition(self.current, event, self.clock.now(), self.config)
        if self.current.state == OPEN and before != OPEN:
            self.opened += 1
        return allowed

    def allow(self) -> bool:
        """Whether to make a call now (an open breaker past its timeout lets one probe
        through and turns half-open)."""
        return self._apply("allow")

    def record_success(self) -> None:
        """Report that the call succeeded (a half-open breaker closes)."""
        self._apply("success")

    def record_failure(self) -> None:
        """Report that the call failed (the run of failures may open the breaker)."""
        self._apply("failure")

    def call(self, fn, *args, **kwargs):
        """Call ``fn(*args, **kwargs)`` through the breaker.

        Parameters
        ----------
        fn : callable
            The call to protect; its exception is recorded as a failure and re-raised.
        *args, **kwargs
            Passed to ``fn``.

        Returns
        -------
        object
            What ``fn`` returned.

        Raises
        ------
        CircuitOpenError
            When the breaker refuses the call (``fn`` is not called).

        Examples
        --------
        >>> from reliability.harness import BreakerConfig, CircuitBreaker, ManualClock
        >>> breaker = CircuitBreaker(BreakerConfig(failure_threshold=1, reset_timeout=30),
        ...                          clock=ManualClock())
        >>> breaker.call(lambda: "answer")
        'answer'
        """
        _validate.function("fn", fn)
        if not self.allow():
            refused = _("the breaker is open (since t = {opened:g} s): the call is "
                        "refused")
            raise CircuitOpenError(refused.format(opened=self.current.opened_at))
        try:
            result = fn(*args, **kwargs)
        except Exception:
            self.record_failure()
            raise
        self.record_success()
        return result
