r"""A task budget of four limits, an agent loop that obeys it, and the arithmetic for
tuning the step limit.

The four limits count over the whole task, not per call: loop steps :math:`S`, money
:math:`M` (input plus output tokens), wall time :math:`T` from the task's start, and
retries :math:`R` of failed provider calls. None of them stands in for another: with a
retry limit of :math:`a - 1` per call and no task-wide one, :math:`S` steps may make

.. math::  S \cdot a

provider calls (ten steps with three tries each are thirty calls), while a task-wide retry
budget bounds them by :math:`S + R`; :math:`S` steps each inside its own timeout
:math:`\tau` may keep a user waiting :math:`S \tau`, which only :math:`T` caps.

Running out is a managed exit, never an exception: :func:`run_task` returns an
:class:`Outcome` with status ``"budget_exceeded"``, the best partial result, and the steps
and money used.

For tuning, needed task lengths are modelled as :math:`\lceil Y \rceil` with
:math:`\ln Y \sim \mathcal N(\ln m, s^2)`, plus a share :math:`q` of stuck tasks that never
finish. A step limit :math:`L` is hit by

.. math::  h(L) = q + (1 - q)\,\bigl(1 - \Phi\bigl(\tfrac{\ln L - \ln m}{s}\bigr)\bigr)

of tasks (a task that needs exactly :math:`L` steps finishes).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from .. import _validate
from ..i18n import _, N_
from ..numbers import counted, words_for
from ..stats import wilson_interval
from .loops import HINT, LoopDetector, Move, Verdict

__all__ = ["TaskBudget", "Step", "Outcome", "run_task", "max_provider_calls",
           "retry_success", "flaky_call", "fake_agent", "scripted_agent", "TaskMix", "LengthSample", "LIMITS"]

#: How a task can end (:attr:`Outcome.status`).
STATUSES = (N_("done"), N_("budget_exceeded"), N_("loop_stopped"))

#: The limits in the order :meth:`TaskBudget.tripped` checks them.
LIMITS = (N_("time"), N_("cost"), N_("steps"), N_("retries"))

# The words a printed line says for a status and for the fields of a managed exit
# (reliability.numbers.said): "status: budget exceeded", not "status budget_exceeded".
words_for({"budget_exceeded": N_("budget exceeded"),
           "loop_stopped": N_("stopped in a loop"),
           "steps_used": N_("steps used"), "cost_usd": N_("cost in USD"),
           "partial_result": N_("partial result")})

# Prices and latencies summed in floating point land a hair under a round limit
# (0.01 five times is 0.049999...); a relative slack this small changes no real decision.
_SLACK = 1e-9


def _positive(name, value) -> float:
    if (not isinstance(value, numbers.Real) or isinstance(value, bool)
            or not math.isfinite(float(value)) or float(value) <= 0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return float(value)


def _limit(name, value, *, whole=False):
    """None (no limit) or a positive number; retries may be zero."""
    if value is None:
        return None
    if whole:
        return _validate.whole(name, value, minimum=0 if name == "max_retries" else 1)
    try:
        return _positive(name, value)
    except ValueError:
        raise ValueError(f"{name} must be a positive finite number or None (no limit), "
                         f"got {value!r}") from None


def _reached(used: float, limit: float | None) -> bool:
    return limit is not None and used >= limit * (1.0 - _SLACK)


@dataclass(frozen=True)
class TaskBudget:
    """Four task-wide limits; ``None`` switches one off. The defaults are the lesson's bank
    bot: 12 loop steps, $0.05, 90 s for the whole task, 6 retries in total."""

    max_steps: int | None = 12
    max_cost_usd: float | None = 0.05
    deadline_s: float | None = 90.0
    max_retries: int | None = 6

    def __post_init__(self):
        object.__setattr__(self, "max_steps", _limit("max_steps", self.max_steps, whole=True))
        object.__setattr__(self, "max_cost_usd", _limit("max_cost_usd", self.max_cost_usd))
        object.__setattr__(self, "deadline_s", _limit("deadline_s", self.deadline_s))
        object.__setattr__(self, "max_retries",
                           _limit("max_retries", self.max_retries, whole=True))

    def tripped(self, *, steps: int, cost_usd: float, elapsed_s: float) -> str | None:
        """The limit that forbids starting another step (time, cost, steps, in that order),
        or ``None``. Checked before each call, so one call may overshoot the money or the
        time by at most its own price or duration."""
        _validate.whole("steps", steps, minimum=0)
        _validate.real("cost_usd", cost_usd, minimum=0.0)
        _validate.real("elapsed_s", elapsed_s, minimum=0.0)
        if _reached(elapsed_s, self.deadline_s):
            return "time"
        if _reached(cost_usd, self.max_cost_usd):
            return "cost"
        if self.max_steps is not None and steps >= self.max_steps:
            return "steps"
        return None

    def may_retry(self, retries_used: int) -> bool:
        """Whether a failed call may be tried again after ``retries_used`` retries."""
        _validate.whole("retries_used", retries_used, minimum=0)
        return self.max_retries is None or retries_used < self.max_retries


@dataclass(frozen=True)
class Step:
    """What one call of the agent returned.

    state : the task's state afterwards (compared with ``==`` for loop detection).
    cost_usd : what the call cost, billed even when it failed.
    tool, args : the tool call the step made, for loop detection.
    failed : the provider call failed transiently; the runner retries it, same state.
    done : the task is finished and ``best`` is its answer.
    best : the best answer so far, returned as the partial result if the task is cut off.
    """

    state: object = None
    cost_usd: float = 0.0
    tool: str = "step"
    args: tuple = ()
    failed: bool = False
    done: bool = False
    best: object = None

    def __post_init__(self):
        _validate.real("cost_usd", self.cost_usd, minimum=0.0)
        _validate.text("tool", self.tool)
        _validate.instance("args", self.args, tuple)
        _validate.flag("failed", self.failed)
        _validate.flag("done", self.done)


@dataclass(frozen=True)
class Outcome:
    """How a task ended.

    status : ``"done"``, ``"budget_exceeded"`` or ``"loop_stopped"``.
    limit : which limit ended it (one of :data:`LIMITS`, or ``"loop"``), ``None`` if done.
    result : the answer, or the best partial result (``None`` if there was none).
    """

    status: str
    limit: str | None
    result: object
    steps_used: int
    cost_usd: float
    elapsed_s: float
    retries_used: int
    calls: int
    moves: tuple = field(default=(), repr=False)
    verdicts: tuple = field(default=(), repr=False)

    def __post_init__(self):
        _validate.text("status", self.status, choices=STATUSES)
        _validate.text("limit", self.limit, choices=LIMITS + ("loop",), optional=True)
        for name in ("steps_used", "retries_used", "calls"):
            _validate.whole(name, getattr(self, name), minimum=0)
        _validate.real("cost_usd", self.cost_usd, minimum=0.0)
        _validate.real("elapsed_s", self.elapsed_s, minimum=0.0)
        _validate.sequence("moves", self.moves, of=Move, what="Moves")
        _validate.sequence("verdicts", self.verdicts, of=Verdict, what="Verdicts")

    @property
    def hint_step(self) -> int | None:
        """The step (counted from 1) after which the loop detector sent its hint, or
        ``None`` if it never did."""
        return next((i + 1 for i, v in enumerate(self.verdicts) if v.action == "hint"),
                    None)

    @property
    def first_sign(self) -> str | None:
        """The first loop sign the detector saw (one of ``SIGNS``), or ``None``."""
        return next((v.sign for v in self.verdicts if v.sign), None)

    def as_dict(self) -> dict:
        """The managed exit as the user-facing layer receives it."""
        out = {"status": self.status, "steps_used": self.steps_used,
               "cost_usd": round(self.cost_usd, 6)}
        out["result" if self.status == "done" else "partial_result"] = self.result
        return out


#: Calls :func:`run_task` makes before it gives up on a task that no limit stops (a budget
#: with every limit off, an agent that never finishes): it refuses to loop for ever, in
#: about a second (a budget whose steps and retries allow more calls gets those).
MAX_CALLS = 10_000


def run_task(agent, start, budget: TaskBudget | None = None, *, clock,
             detector: LoopDetector | None = None, retry_wait_s: float = 0.0,
             transient=(TimeoutError, ConnectionError)) -> Outcome:
    """Run an agent under a budget until it is done, a limit trips, or a loop stops it.

    ``agent(state, hint) -> Step`` is called from state ``start``. Before every call the
    budget is checked (:meth:`TaskBudget.tripped`). A failed call (``Step.failed``, or an
    exception of a ``transient`` type) is retried after ``retry_wait_s`` on ``clock`` while
    the task's retries last. After each completed step the detector (if any) may pass
    :data:`~reliability.harness.loops.HINT` to the next call or stop the task. It never
    raises for a budget or a loop: the :class:`Outcome` says which limit ended the task and
    keeps the partial result. A budget that stops nothing (no step, cost or time limit, or
    one on a clock that never advances) is refused with a ``ValueError`` after
    ``MAX_CALLS`` (10,000) calls.

    Parameters
    ----------
    agent : callable
        ``agent(state, hint)`` returning a :class:`Step`.
    start : object
        The first state.
    budget : TaskBudget or None
        The limits (``None``: the defaults of :class:`TaskBudget`).
    clock : object
        Anything with ``now()`` and ``sleep(seconds)``:
        :class:`~reliability.harness.clock.ManualClock` in tests and simulations.
    detector : LoopDetector or None
        Watches the steps for loops; ``None`` watches nothing.
    retry_wait_s : float
        Seconds to wait before a retry, ``>= 0``.
    transient : tuple of exception types
        Exceptions from ``agent`` that count as a failed call and are retried.

    Returns
    -------
    Outcome
        ``status`` (``"done"``, ``"budget_exceeded"``, ...), the ``limit`` that tripped,
        the partial ``result``, and the steps, cost, time, retries and calls spent.

    Examples
    --------
    An agent that would never finish, stopped by a limit of four steps:

    >>> from reliability.harness import ManualClock, TaskBudget, fake_agent, run_task
    >>> clock = ManualClock()
    >>> agent = fake_agent(clock=clock, cost_usd=0.01, seconds=2.0)
    >>> outcome = run_task(agent, 0, TaskBudget(max_steps=4), clock=clock)
    >>> outcome.status, outcome.limit, outcome.result
    ('budget_exceeded', 'steps', 'draft answer after 4 steps')
    """
    budget = TaskBudget() if budget is None else budget
    if not isinstance(budget, TaskBudget):
        raise ValueError(f"budget must be a TaskBudget or None, got {budget!r}")
    if detector is not None and not isinstance(detector, LoopDetector):
        raise ValueError(f"detector must be a LoopDetector or None, got {detector!r}")
    if not (isinstance(retry_wait_s, numbers.Real) and not isinstance(retry_wait_s, bool)
            and math.isfinite(retry_wait_s) and retry_wait_s >= 0):
        raise ValueError(f"retry_wait_s must be a number >= 0, got {retry_wait_s!r}")
    _validate.function("agent", agent)
    _validate.clock("clock", clock, sleeps=True)
    if isinstance(transient, type):
        transient = (transient,)
    if not isinstance(transient, tuple) or not all(
            isinstance(t, type) and issubclass(t, BaseException) for t in transient):
        raise ValueError(f"transient must be a tuple of exception classes, got {transient!r}")
    most_calls = MAX_CALLS
    if budget.max_steps is not None and budget.max_retries is not None:
        most_calls = max(most_calls, budget.max_steps + budget.max_retries + 1)
    began = clock.now()
    state, best, hint, hinted_at = start, None, None, None
    steps = retries = calls = 0
    cost = 0.0
    moves, verdicts = [], []

    def end(status, limit, result):
        return Outcome(status=status, limit=limit, result=result, steps_used=steps,
                       cost_usd=cost, elapsed_s=clock.now() - began, retries_used=retries,
                       calls=calls, moves=tuple(moves), verdicts=tuple(verdicts))

    while True:
        limit = budget.tripped(steps=steps, cost_usd=cost, elapsed_s=clock.now() - began)
        if limit:
            return end("budget_exceeded", limit, best)
        if calls >= most_calls:
            raise ValueError(
                f"budget must bound the task: after {most_calls:,} calls the agent has not "
                "finished and no limit has tripped; set max_steps (a whole number >= 1), "
                "max_cost_usd or deadline_s (numbers > 0, the deadline on a clock that "
                f"advances), got {budget!r}")
        calls += 1
        try:
            step = agent(state, hint)
        except transient:
            step = Step(state=state, failed=True)
        if not isinstance(step, Step):
            raise ValueError(f"agent must return a Step, got {step!r}")
        cost += float(step.cost_usd)
        if step.failed:
            if not budget.may_retry(retries):
                return end("budget_exceeded", "retries", best)
            retries += 1
            clock.sleep(retry_wait_s)
            continue
        steps += 1
        state = step.state
        if step.best is not None:
            best = step.best
        moves.append(Move(step.tool, tuple(step.args), step.state))
        if step.done:
            verdicts.append(Verdict("continue"))
            return end("done", None, step.best)
        hint = None
        verdict = (detector.respond(moves, hinted_at=hinted_at, before=start)
                   if detector else Verdict("continue"))
        verdicts.append(verdict)
        if verdict.action == "hint":
            hint, hinted_at = HINT, len(moves)
        elif verdict.action == "stop":
            return end("loop_stopped", "loop", best)


def fake_agent(*, clock, cost_usd: float = 0.0, seconds: float = 0.0, fail_every: int = 0,
               finish_at: int | None = None):
    """A stand-in agent for demonstrations.

    The state is the number of steps done; each call costs ``cost_usd`` and takes
    ``seconds`` on ``clock``; ``fail_every - 1`` of every ``fail_every`` calls fail (0:
    none); it is done at step ``finish_at`` (never if ``None``). Its partial result names
    how many steps it rests on.

    Parameters
    ----------
    clock : object
        Anything with ``now()`` and ``sleep(seconds)``.
    cost_usd, seconds : float
        What each call costs and takes, ``>= 0``.
    fail_every : int
        ``>= 0``, as above.
    finish_at : int or None
        The step at which it is done, ``>= 1``, or ``None``.

    Returns
    -------
    callable
        ``agent(state, hint)`` returning a :class:`Step`, for :func:`run_task`.

    Examples
    --------
    >>> from reliability.harness import ManualClock, TaskBudget, fake_agent, run_task
    >>> clock = ManualClock()
    >>> agent = fake_agent(clock=clock, cost_usd=0.01, seconds=2.0, finish_at=3)
    >>> run_task(agent, 0, TaskBudget(), clock=clock).status
    'done'
    """
    _validate.clock("clock", clock, sleeps=True)
    _validate.real("cost_usd", cost_usd, minimum=0.0)
    _validate.real("seconds", seconds, minimum=0.0)
    _validate.whole("fail_every", fail_every, minimum=0)
    if finish_at is not None:
        _validate.whole("finish_at", finish_at, minimum=1)
    calls = {"n": 0}

    def agent(state, hint):
        calls["n"] += 1
        clock.sleep(seconds)
        if fail_every and calls["n"] % fail_every:
            return Step(state=state, cost_usd=cost_usd, failed=True)
        done = state + 1
        return Step(state=done, cost_usd=cost_usd, tool="step", args=(done,),
                    best=_("draft answer after {steps}").format(
                        steps=counted(done, "step", "steps")),
                    done=finish_at is not None and done >= finish_at)

    return agent


def scripted_agent(script, *, clock, after_hint=None, finishes: bool = False,
                   seconds: float = 1.0, cost_usd: float = 0.001):
    """A stand-in agent that plays a list of :class:`~reliability.harness.loops.Move`.

    On a hint it switches to ``after_hint`` (if given; otherwise it ignores the hint). When
    its final script (``after_hint`` if given, else ``script``) runs out it is done if
    ``finishes``; otherwise it keeps repeating the last move of the script it is on.

    Parameters
    ----------
    script : sequence of Move
        The moves it plays, at least one.
    clock : object
        Anything with ``now()`` and ``sleep(seconds)``.
    after_hint : sequence of Move or None
        The moves it plays after a hint.
    finishes : bool
        Whether it is done when its final script runs out.
    seconds, cost_usd : float
        What each call takes and costs, ``>= 0``.

    Returns
    -------
    callable
        ``agent(state, hint)`` returning a :class:`Step`, for :func:`run_task`.

    Examples
    --------
    One search repeated for ever, stopped by the step limit:

    >>> from reliability.harness import ManualClock, Move, TaskBudget, run_task
    >>> from reliability.harness import scripted_agent
    >>> clock = ManualClock()
    >>> agent = scripted_agent([Move("search", ("q",), 1)], clock=clock)
    >>> run_task(agent, 0, TaskBudget(max_steps=5), clock=clock).limit
    'steps'
    """
    if not isinstance(script, (list, tuple)) or not all(isinstance(m, Move) for m in script):
        raise ValueError(f"script must be a list of Moves, got {script!r}")
    if after_hint is not None and (not isinstance(after_hint, (list, tuple)) or not after_hint
                                   or not all(isinstance(m, Move) for m in after_hint)):
        raise ValueError(f"after_hint must be a non-empty list of Moves or None, got {after_hint!r}")
    _validate.clock("clock", clock, sleeps=True)
    _validate.flag("finishes", finishes)
    _validate.real("seconds", seconds, minimum=0.0)
    _validate.real("cost_usd", cost_usd, minimum=0.0)
    plan = {"moves": list(script), "next": 0}
    if not plan["moves"]:
        raise ValueError("script must hold at least one Move")

    def agent(state, hint):
        if hint is not None and after_hint is not None and plan["moves"] is not after_hint:
            plan["moves"], plan["next"] = after_hint, 0
        clock.sleep(seconds)
        moves = plan["moves"]
        move = moves[min(plan["next"], len(moves) - 1)]
        plan["next"] += 1
        final = after_hint is None or moves is after_hint
        done = finishes and final and plan["next"] >= len(moves)
        return Step(state=move.state, cost_usd=cost_usd, tool=move.tool, args=move.args,
                    done=done, best=f"{move.tool}{move.args} -> {move.state}")

    return agent


def max_provider_calls(steps: int, *, attempts_per_call: int | None = None,
                       task_retries: int | None = None) -> int:
    r"""The most provider calls ``steps`` loop steps can make.

    With only a per-call limit of :math:`a` tries, :math:`s \cdot a`; with a task-wide
    retry budget of :math:`r`, :math:`s + r` (every failure spends one retry from the shared
    pool); with both, the smaller:

    .. math::

        \text{calls} \le \min(s \cdot a,\; s + r).

    Parameters
    ----------
    steps : int
        :math:`s`, ``>= 1``.
    attempts_per_call : int or None
        :math:`a`, tries per call, ``>= 1``; ``None``: no per-call limit.
    task_retries : int or None
        :math:`r`, retries shared by the whole task, ``>= 0``; ``None``: no task-wide
        limit. At least one of the two must be given.

    Returns
    -------
    int

    Examples
    --------
    >>> from reliability.harness import max_provider_calls
    >>> max_provider_calls(10, attempts_per_call=3)
    30
    >>> max_provider_calls(10, attempts_per_call=3, task_retries=5)
    15
    """
    steps = _validate.whole("steps", steps, minimum=1)
    bounds = []
    if attempts_per_call is not None:
        bounds.append(steps * _validate.whole("attempts_per_call", attempts_per_call))
    if task_retries is not None:
        bounds.append(steps + _validate.whole("task_retries", task_retries, minimum=0))
    if not bounds:
        raise ValueError("give attempts_per_call or task_retries (or both); "
                         "with neither the number of calls is unbounded")
    return min(bounds)


def retry_success(error: float, attempts: int) -> float:
    """Closed form: the chance that a call failing independently with probability :math:`e`
    succeeds within :math:`A` tries.

    .. math::

        1 - e^{A}

    Parameters
    ----------
    error : float
        :math:`e`, in [0, 1].
    attempts : int
        :math:`A`, ``>= 1``.

    Returns
    -------
    float

    Examples
    --------
    >>> from reliability.harness import retry_success
    >>> round(retry_success(0.1, 3), 3)
    0.999
    """
    error = _validate.probability("error", error)
    attempts = _validate.whole("attempts", attempts, minimum=1)
    return 1.0 - error ** attempts


def flaky_call(error: float, seed, *, exception=ConnectionError):
    """A fake provider call that fails with probability ``error``, independently each time.

    It raises ``exception`` on a failure and otherwise returns ``"ok"``, drawing from its
    own seeded generator: the same seed gives the same sequence of failures.

    Parameters
    ----------
    error : float
        The chance of a failure on each call, in [0, 1].
    seed : int or numpy.random.Generator
        Seeds the failures.
    exception : type
        The exception raised on a failure (an ``Exception`` subclass).

    Returns
    -------
    callable
        Takes no argument.

    Examples
    --------
    >>> from reliability.harness import flaky_call
    >>> call = flaky_call(0.5, seed=1)
    >>> results = []
    >>> for _ in range(5):
    ...     try:
    ...         results.append(call())
    ...     except ConnectionError:
    ...         results.append("failed")
    >>> results
    ['ok', 'ok', 'failed', 'ok', 'failed']
    """
    error = _validate.probability("error", error)
    rng = _validate.generator(seed)
    if not (isinstance(exception, type) and issubclass(exception, Exception)):
        raise ValueError(f"exception must be an Exception class, got {exception!r}")

    def call(*_args, **_kwargs):
        if rng.random() < error:
            raise exception("provider unavailable (simulated)")
        return "ok"

    return call


@dataclass(frozen=True)
class LengthSample:
    """Simulated tasks: steps each needs (0 for a stuck task) and which are stuck."""

    lengths: np.ndarray = field(repr=False)
    stuck: np.ndarray = field(repr=False)

    def __post_init__(self):
        _validate.numeric_array("lengths", self.lengths, kind="whole", ndim=1, minimum=0)
        _validate.numeric_array("stuck", self.stuck, kind="bool", ndim=1)
        if np.size(self.lengths) < 1 or np.shape(self.stuck) != np.shape(self.lengths):
            raise ValueError(f"stuck must hold one boolean per task (as many as lengths, "
                             f"at least one), got {np.size(self.stuck)} and {np.size(self.lengths)}")

    @property
    def runs(self) -> int:
        return int(self.lengths.size)

    def hits(self, limit: int) -> dict:
        """Tasks that hit step limit ``limit``: all of them, the stuck ones, and the
        legitimate ones cut short; with the share and its 95 % Wilson interval."""
        limit = _validate.whole("limit", limit, minimum=1)
        cut = int(np.count_nonzero(~self.stuck & (self.lengths > limit)))
        stuck = int(np.count_nonzero(self.stuck))
        low, high = wilson_interval(cut + stuck, self.runs)
        return {"limit": limit, "hits": cut + stuck, "stuck": stuck, "cut_short": cut,
                "runs": self.runs, "share": (cut + stuck) / self.runs, "low": low,
                "high": high}


@dataclass(frozen=True)
class TaskMix:
    """Needed steps :math:`\\lceil Y \\rceil`, :math:`\\ln Y \\sim N(\\ln m, s^2)`, and a
    share of stuck tasks.

    Parameters
    ----------
    median : float
        m, the median steps a task needs (> 0).
    spread : float
        s, the standard deviation of ln Y (>= 0; 0: every sound task needs exactly
        :math:`\\lceil m \\rceil` steps).
    stuck : float
        q, the share of tasks that loop and never finish, in [0, 1] (1: all of them, so
        every limit is hit by every task).
    """

    median: float = 6.0
    spread: float = 0.5
    stuck: float = 0.03

    def __post_init__(self):
        object.__setattr__(self, "median", _positive("median", self.median))
        spread = self.spread
        if (not isinstance(spread, numbers.Real) or isinstance(spread, bool)
                or not math.isfinite(float(spread)) or float(spread) < 0):
            raise ValueError(f"spread must be a finite number >= 0, got {spread!r}")
        object.__setattr__(self, "spread", float(spread))
        object.__setattr__(self, "stuck", _validate.probability("stuck", self.stuck))

    def cut_short(self, limits):
        """Closed form: share of all tasks that are legitimate and need more than ``limit``
        steps, :math:`(1 - q)(1 - \\Phi((\\ln L - \\ln m) / s))`."""
        limits = _validate.whole_array("limits", limits, minimum=1).astype(float)
        if self.spread == 0:   # no spread: a sound task needs exactly ceil(m) steps
            tail = (limits < math.ceil(self.median)).astype(float)
        else:
            # A spread near 0 sends the ratio to +-inf, where sf is exactly 1 or 0: the
            # limit is right, the overflow warning is noise on a chapter's page.
            with np.errstate(over="ignore", divide="ignore"):
                # the normal tail, 1 - Phi(z) = Phi(-z) (scipy.stats' norm.sf)
                tail = special.ndtr(-((np.log(limits) - math.log(self.median))
                                      / self.spread))
        return _plain((1.0 - self.stuck) * tail)

    def hit_share(self, limits):
        """Closed form :math:`h(L)`: share of tasks that hit step limit ``L``."""
        return _plain(self.stuck + np.asarray(self.cut_short(limits)))

    def simulate(self, runs: int, seed) -> LengthSample:
        """``runs`` seeded tasks (``seed`` an int >= 0 or a ``numpy.random.Generator``)."""
        runs = _validate.whole("runs", runs, minimum=1, maximum=_validate.MAX_CELLS)
        rng = _validate.generator(seed)
        stuck = rng.random(runs) < self.stuck
        needed = np.ceil(rng.lognormal(math.log(self.median), self.spread, runs))
        if self.spread == 0:   # exp(log(m)) may land a hair above a whole m
            needed = np.full(runs, float(math.ceil(self.median)))
        lengths = np.where(stuck, 0, np.maximum(needed, 1)).astype(np.int64)
        return LengthSample(lengths=lengths, stuck=stuck)


def _plain(value):
    return float(value) if np.ndim(value) == 0 else value
