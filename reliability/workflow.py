r"""A multi-step workflow: closed forms and a seeded, attempt-by-attempt simulation.

One attempt at a step is a visible error with probability :math:`e`, silently wrong with
probability :math:`w`, and correct with :math:`c = 1 - e - w`. A verifier of recall
:math:`d` and false-rejection rate :math:`f` (both zero without one) sends an attempt back
with probability

.. math::  r = e + c f + w d,

accepts it correct with :math:`a = c (1 - f)` and accepts it wrong with :math:`b = w (1 - d)`.
With :math:`A` attempts a step is correct with :math:`a S_A`, silently wrong with
:math:`b S_A` and gives up with :math:`r^A`, where :math:`S_A = 1 + r + \dots + r^{A-1}` is
also its expected number of attempts. A run of :math:`n` steps succeeds with
:math:`(a S_A)^n` and stops early at the first step that gives up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import _validate
from .stats import Interval, wilson_interval, z_value

__all__ = ["Verifier", "Workflow", "Simulation", "horizon", "ceiling", "attempt_cost",
           "mean_attempts_interval", "EVENTS"]

#: The per-attempt events of :meth:`Workflow.simulate`'s log, in the page's words.
EVENTS = ("error", "rejected_ok", "caught", "ok", "wrong", "gave_up")

# Up to this many attempts S_A is summed term by term (the chapters' numbers); beyond it
# the closed form keeps Workflow(attempts=10**12) instant.
_SUMMED_ATTEMPTS = 10_000

# How a run ended, as stored in the simulation's per-run array.
_ERROR, _WRONG, _OK = 0, 1, 2
# Uniforms drawn and compared at a time in Workflow.simulate: 1 MB, within a core's cache.
_BLOCK = 1 << 17


@dataclass(frozen=True)
class Verifier:
    """A second check on each accepted attempt.

    Parameters
    ----------
    recall : float
        :math:`d`, the probability that it rejects a silently wrong answer, in [0, 1].
    false_reject : float
        :math:`f`, the probability that it rejects a right one (its own cost), in
        [0, 1].

    Examples
    --------
    A ten-step chain with one attempt a step and no verifier, then with three attempts
    and a verifier that catches four silent errors in five:

    >>> from reliability.workflow import Verifier, Workflow
    >>> round(Workflow().success(), 3)
    0.434
    >>> round(Workflow(attempts=3, verifier=Verifier(recall=0.8)).success(), 3)
    0.918
    """

    recall: float = 0.8
    false_reject: float = 0.05

    def __post_init__(self):
        object.__setattr__(self, "recall", _validate.probability("recall", self.recall))
        object.__setattr__(self, "false_reject",
                           _validate.probability("false_reject", self.false_reject))


@dataclass(frozen=True)
class Simulation:
    """What :meth:`Workflow.simulate` observed: counts, rates and an optional event log."""

    runs: int
    successes: int
    wrong: int
    gave_up: int
    total_attempts: int
    attempts_per_run: np.ndarray = field(repr=False, compare=False)
    log: tuple = field(default=(), repr=False, compare=False)

    def __post_init__(self):
        runs = _validate.whole("runs", self.runs, minimum=1)
        for name in ("successes", "wrong", "gave_up"):
            _validate.whole(name, getattr(self, name), minimum=0, maximum=runs)
        if self.successes + self.wrong + self.gave_up != runs:
            raise ValueError(f"successes + wrong + gave_up must equal runs ({runs}), got "
                             f"{self.successes} + {self.wrong} + {self.gave_up}")
        _validate.whole("total_attempts", self.total_attempts, minimum=0)
        _validate.numeric_array("attempts_per_run", self.attempts_per_run, kind="whole",
                                ndim=1, minimum=0)
        if np.size(self.attempts_per_run) != runs:
            raise ValueError(f"attempts_per_run must hold one count per run ({runs}), "
                             f"got {np.size(self.attempts_per_run)}")
        _validate.sequence("log", self.log, what="per-run event logs")

    @property
    def rate(self) -> float:
        """Share of runs in which every step was correct."""
        return self.successes / self.runs

    @property
    def mean_attempts(self) -> float:
        """Attempts per run, averaged over all runs (including those that gave up)."""
        return self.total_attempts / self.runs

    def interval(self, confidence: float = 0.95) -> Interval:
        """Wilson interval for :attr:`rate`."""
        return wilson_interval(self.successes, self.runs, confidence)


@dataclass(frozen=True)
class Workflow:
    """A chain of ``steps`` steps, each tried up to ``attempts`` times.

    The defaults are the reference page's: ten steps, 5 % visible errors, 3 % silent ones,
    one attempt and no verifier, so ``Workflow().success()`` is :math:`0.92^{10} = 0.434`.

    Parameters
    ----------
    steps : int
        :math:`n`, the steps of the chain, ``>= 1``.
    error : float
        :math:`e`, the probability that an attempt is a visible error, in [0, 1].
    silent : float
        :math:`w`, the probability that an attempt is silently wrong, in [0, 1];
        ``error + silent`` is at most 1.
    attempts : int
        :math:`A`, the tries a step may take, ``>= 1``.
    verifier : Verifier or None
        The check on each accepted attempt; ``None`` for none (:math:`d = f = 0`).

    Examples
    --------
    Retries mend visible errors only: with three attempts a step, almost no run gives
    up, and the silent errors are what is left.

    >>> from reliability.workflow import Workflow
    >>> ends = Workflow(attempts=3).outcome_probabilities()
    >>> {ending: round(p, 3) for ending, p in ends.items()}
    {'success': 0.725, 'wrong': 0.274, 'gave_up': 0.001}
    >>> round(Workflow(attempts=3).expected_attempts(), 2)
    10.52
    """

    steps: int = 10
    error: float = 0.05
    silent: float = 0.03
    attempts: int = 1
    verifier: Verifier | None = None

    def __post_init__(self):
        object.__setattr__(self, "steps", _validate.whole("steps", self.steps, minimum=1))
        object.__setattr__(self, "attempts",
                           _validate.whole("attempts", self.attempts, minimum=1))
        error = _validate.probability("error", self.error)
        silent = _validate.probability("silent", self.silent)
        if error + silent > 1.0 + 1e-12:
            raise ValueError(
                f"error + silent must be at most 1 (they are shares of one attempt), "
                f"got error={error!r} + silent={silent!r} = {error + silent!r}")
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "silent", silent)
        if self.verifier is not None and not isinstance(self.verifier, Verifier):
            raise ValueError(f"verifier must be a Verifier or None, got {self.verifier!r}")

    # The step-level quantities, named as in the maths above.
    @property
    def e(self) -> float:
        return self.error

    @property
    def w(self) -> float:
        return self.silent

    @property
    def c(self) -> float:
        return max(0.0, 1.0 - self.error - self.silent)

    @property
    def d(self) -> float:
        return self.verifier.recall if self.verifier else 0.0

    @property
    def f(self) -> float:
        return self.verifier.false_reject if self.verifier else 0.0

    @property
    def r(self) -> float:
        """Probability that one attempt is sent back, ``e + c f + w d``."""
        return self.e + self.c * self.f + self.w * self.d

    @property
    def a(self) -> float:
        """Probability that one attempt is accepted and right, ``c (1 - f)``."""
        return self.c * (1.0 - self.f)

    @property
    def b(self) -> float:
        """Probability that one attempt is accepted and wrong, ``w (1 - d)``."""
        return self.w * (1.0 - self.d)

    @property
    def S_A(self) -> float:
        """Expected attempts at one step, ``1 + r + ... + r^(A-1)``."""
        if self.attempts > _SUMMED_ATTEMPTS:  # the geometric sum in closed form, O(1)
            r = self.r
            return float(self.attempts) if r == 1.0 else -math.expm1(
                self.attempts * math.log(r)) / (1.0 - r) if r > 0.0 else 1.0
        return float(sum(self.r ** j for j in range(self.attempts)))

    @property
    def give_up(self) -> float:
        """Probability that a step exhausts its attempts, ``r^A``."""
        return self.r ** self.attempts

    @property
    def step_success(self) -> float:
        """Probability that a step ends correct, ``a S_A``."""
        return self.a * self.S_A

    @property
    def step_wrong(self) -> float:
        """Probability that a step ends silently wrong, ``b S_A``."""
        return self.b * self.S_A

    def success(self) -> float:
        """Closed form: probability that every step is correct, ``(a S_A)^n``."""
        return self.step_success ** self.steps

    def success_by_length(self, lengths) -> np.ndarray:
        """``(a S_A)^n`` for each ``n`` in ``lengths`` (whole numbers >= 1)."""
        lengths = _validate.whole_array("lengths", lengths, minimum=1)
        return self.step_success ** lengths.astype(float)

    def outcome_probabilities(self) -> dict[str, float]:
        """Closed forms of a run's three endings: all right, finished with a silent wrong
        step, or stopped because a step gave up. They add up to one."""
        reach_end = (1.0 - self.give_up) ** self.steps
        return {"success": self.success(),
                "wrong": reach_end - self.success(),
                "gave_up": 1.0 - reach_end}

    def expected_attempts(self) -> float:
        r"""Closed form: expected attempts per run, :math:`S_A \sum_{i<n} (1 - r^A)^i`.

        Step :math:`i` is reached only if none of the :math:`i` steps before it gave up.
        """
        g = self.give_up
        if g == 0.0:
            return self.S_A * self.steps
        if g == 1.0:  # every step gives up: each run stops after its first step
            return self.S_A
        # sum_{i<n} (1-g)^i = (1 - (1-g)^n) / g, written to stay accurate for tiny g.
        return self.S_A * -math.expm1(self.steps * math.log1p(-g)) / g

    @property
    def max_runs(self) -> int:
        """The most runs :meth:`simulate` takes for this workflow: runs x steps x attempts
        is bounded (10^8 cells), so that a long chain with many attempts cannot hang;
        0 when even one run is over that bound."""
        return _validate.MAX_CELLS // (self.steps * self.attempts)

    def simulate(self, runs: int = 2000, seed=0, *, log_runs: int = 0) -> Simulation:
        """Run the workflow ``runs`` times, attempt by attempt, with a seeded generator.

        Each attempt draws one uniform for its outcome (error, silent wrong or right) and,
        with a verifier, one more for the verifier's verdict, exactly as the page's engine
        does; a step stops at its first accepted attempt and a run stops at the first step
        that gives up. Uniforms are drawn round by round: every step's first attempt, then
        a second attempt for only the steps sent back, and so on, so no uniform is drawn
        for an attempt that is never made (beyond the first attempts of steps after a run
        gave up). The closed forms are never used here, so the simulation is an independent
        check on them.

        Parameters
        ----------
        runs : int
            Runs to simulate, ``>= 1``.
        seed : int or numpy.random.Generator
            The same seed gives the same result.
        log_runs : int
            How many of the first runs to return as an event log, in ``[0, runs]``
            (``log[run][step]`` is a tuple of :data:`EVENTS`).

        Returns
        -------
        Simulation
            The counts of the runs' three endings, the attempts made and the log.

        Examples
        --------
        The simulation never uses the closed form, so it checks it: the closed form
        lies inside the simulated rate's interval.

        >>> from reliability.workflow import Workflow
        >>> chain = Workflow(attempts=3)
        >>> runs = chain.simulate(runs=2000, seed=1)
        >>> runs.successes, runs.wrong, runs.gave_up
        (1428, 568, 4)
        >>> low, high = runs.interval()
        >>> round(low, 3), round(chain.success(), 3), round(high, 3)
        (0.694, 0.725, 0.733)
        >>> Workflow(steps=2, attempts=2).simulate(runs=1, seed=0, log_runs=1).log
        ((('ok',), ('ok',)),)
        """
        runs = _validate.whole("runs", runs, minimum=1)
        log_runs = _validate.whole("log_runs", log_runs, minimum=0, maximum=runs)
        rng = _validate.generator(seed)
        _validate.size("runs x steps x attempts", runs * self.steps * self.attempts,
                       limit=_validate.MAX_CELLS)
        # Chunking bounds memory for large runs while keeping the stream fixed per seed.
        chunk = max(1, 4_000_000 // self.steps)
        parts = [self._simulate_chunk(rng, min(chunk, runs - start),
                                      log_runs=max(0, min(log_runs - start, chunk)))
                 for start in range(0, runs, chunk)]
        ended, attempts = (parts[0][0], parts[0][1]) if len(parts) == 1 else (
            np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))
        log = tuple(entry for p in parts for entry in p[2])
        return Simulation(runs=runs,
                          successes=int(np.count_nonzero(ended == _OK)),
                          wrong=int(np.count_nonzero(ended == _WRONG)),
                          gave_up=int(np.count_nonzero(ended == _ERROR)),
                          total_attempts=int(attempts.sum()),
                          attempts_per_run=attempts, log=log)

    def _verdicts(self, rng, shape):
        """One round of attempts: their uniforms and verdicts, 0 = sent back (error, or
        rejected by the verifier), 1 = accepted wrong, 2 = accepted right."""
        u = rng.random(shape)
        v = rng.random(shape) if self.verifier is not None else None
        verdict = (u >= self.e).view(np.int8)
        verdict += (u >= self.e + self.w).view(np.int8)
        if v is not None:
            verdict *= np.where(verdict == 2, v >= self.f, v >= self.d)
        return u, v, verdict

    def _first_round(self, rng, shape):
        """Every step's first attempt: its uniforms, which attempts are not accepted
        right (``bad``: sent back, or accepted wrong), which are sent back (``sent``) and
        the flat indices of those (``pending``).

        Without a verifier two comparisons of the uniforms say it all, and they are made
        block by block while the block is still in the CPU's cache: the blocks are drawn
        in order, so the stream, and every result, is the same as one draw of the whole.
        """
        if self.verifier is not None:
            u, v, verdict = self._verdicts(rng, shape)
            sent = verdict == 0
            return u, v, verdict != 2, sent, np.flatnonzero(sent)
        size = shape[0] * shape[1]
        u, bad, sent = np.empty(size), np.empty(size, bool), np.empty(size, bool)
        pending = []
        for start in range(0, size, _BLOCK):
            block = slice(start, min(size, start + _BLOCK))
            rng.random(out=u[block])
            np.less(u[block], self.e + self.w, out=bad[block])
            np.less(u[block], self.e, out=sent[block])
            pending.append(np.flatnonzero(sent[block]) + start)
        return (u.reshape(shape), None, bad.reshape(shape), sent.reshape(shape),
                np.concatenate(pending))

    def _simulate_chunk(self, rng, runs, *, log_runs):
        # Step-major layout (flat index step * runs + run): the first attempt of every
        # step, then a retry for only the steps sent back, round by round.
        u, v, bad, sent, pending = self._first_round(rng, (self.steps, runs))
        # (flat indices of the steps tried, uniforms): the uniforms are kept only for the
        # log (twenty rounds of a 200-step chain's 20,000 runs would hold 640 MB).
        rounds = [(None, u, v)]
        for _ in range(1, self.attempts):
            if pending.size == 0:
                break
            u, v, verdict = self._verdicts(rng, pending.size)
            rounds.append((pending, u, v) if log_runs else (pending, None, None))
            # Only a decided attempt changes its step's mark: a step sent back again is
            # marked bad already (sent back in the first round means not right).
            decided = verdict != 0
            bad.ravel()[pending[decided]] = verdict[decided] != 2
            pending = pending[~decided]
        # A run stops at its first step that gave up (still sent back after every
        # attempt): pending is in flat (step-major) order, so a run's first entry there
        # is its earliest give-up.
        gave_up_run, gave_up_step = pending % runs, pending // runs
        quit, first = np.unique(gave_up_run, return_index=True)
        stop = gave_up_step[first]
        # Attempts: one per step reached, plus each retry at a step reached. Second
        # attempts are counted per run from the first round's mask (a column sum, much
        # cheaper than locating each one), later ones (a few) one by one.
        attempts = np.full(runs, self.steps, np.int32)   # < MAX_CELLS, half the memory
        attempts[quit] -= self.steps - 1 - stop
        if len(rounds) > 1:
            # the narrowest sum that cannot overflow: the fastest
            wide = next(t for t in (np.int8, np.int16, np.int32)
                        if self.steps <= np.iinfo(t).max)
            attempts += sent.view(np.int8).sum(axis=0, dtype=wide)
            after = np.arange(self.steps)[:, None] > stop    # steps never reached
            attempts[quit] -= np.count_nonzero(sent[:, quit] & after, axis=0)
        if len(rounds) > 2:
            # A step is reached when it is at or before its run's stop: one look-up per
            # retry (not a search in the runs that quit), counted per run by bincount.
            last = np.full(runs, self.steps - 1)
            last[quit] = stop
            reached = (np.arange(self.steps)[:, None] <= last).ravel()
        for tried, _, _ in rounds[2:]:
            run = tried[reached[tried]] % runs
            attempts += np.bincount(run, minlength=runs).astype(attempts.dtype)
        ended = (~bad.any(axis=0)).view(np.int8) + np.int8(_WRONG)  # OK or WRONG
        ended[gave_up_run] = _ERROR        # a give-up ends the run, whatever came before
        log = []
        if log_runs:
            used = np.ones((self.steps, runs), np.int64)
            for j, (tried, _, _) in enumerate(rounds[1:], start=2):
                used.ravel()[tried] = j
            gave_up = np.zeros((self.steps, runs), bool)
            gave_up[gave_up_step, gave_up_run] = True
            log = [self._log_run(rounds, runs, i, used[:, i], gave_up[:, i])
                   for i in range(log_runs)]
        return ended, attempts, log

    def _log_run(self, rounds, runs, i, used, gave_up):
        run = []
        for step in range(self.steps):
            events = []
            flat = step * runs + i
            for j in range(used[step]):
                tried, u, v = rounds[j]
                at = flat if tried is None else int(np.searchsorted(tried, flat))
                if u.ravel()[at] < self.e:
                    events.append("error")
                    continue
                right = u.ravel()[at] >= self.e + self.w
                if v is not None and right and v.ravel()[at] < self.f:
                    events.append("rejected_ok")
                elif v is not None and not right and v.ravel()[at] < self.d:
                    events.append("caught")
                else:
                    events.append("ok" if right else "wrong")
            if gave_up[step]:
                events.append("gave_up")
            run.append(tuple(events))
            if gave_up[step]:
                break
        return tuple(run)


def horizon(p: float, target: float = 0.5) -> float:
    r"""Steps until a chain of per-step accuracy ``p`` succeeds only with ``target``.

    A chain of :math:`n` independent steps is right with :math:`p^n`; setting that to the
    target and solving for :math:`n`,

    .. math::

        H(p) = \frac{\ln(\text{target})}{\ln p}.

    At 99 % per step, half of all 69-step chains fail (Sinha et al. 2025).

    Parameters
    ----------
    p : float
        Per-step accuracy, strictly between 0 and 1.
    target : float
        The chain's success wanted, strictly between 0 and 1 (0.5: the half-life).

    Returns
    -------
    float
        Steps, not rounded.

    References
    ----------
    Sinha, A., Arun, A., Goel, S., Staab, S. and Geiping, J. (2025). The illusion of
    diminishing returns: measuring long horizon execution in LLMs. arXiv:2509.09677.

    Examples
    --------
    >>> from reliability import horizon
    >>> round(horizon(0.99), 2)
    68.97
    >>> round(horizon(0.99, target=0.9), 2)
    10.48
    """
    p = _validate.open_probability("p", p, example="0.99")
    target = _validate.open_probability("target", target, example="0.5")
    return math.log(target) / math.log(p)


def _a_workflow(value) -> Workflow:
    if not isinstance(value, Workflow):
        raise ValueError(f"workflow must be a reliability.Workflow, got {value!r}")
    return value


def ceiling(workflow: Workflow) -> float:
    r"""Success with unlimited attempts: :math:`\lim_{A\to\infty} (a S_A)^n = (a/(a+b))^n`.

    Every attempt is retried with :math:`r = 1 - a - b`, so once a step stops it stopped on
    an accepted answer, which is right with probability :math:`a/(a+b)`. When nothing is
    ever accepted (:math:`a + b = 0`) no run can succeed and the ceiling is 0.

    Parameters
    ----------
    workflow : Workflow
        The chain; its ``attempts`` does not matter (the limit takes them to infinity).

    Returns
    -------
    float
        The share of runs that succeed however many attempts each step is given.

    Examples
    --------
    >>> from reliability.workflow import Workflow, ceiling
    >>> round(ceiling(Workflow(steps=10, error=0.05, silent=0.03, attempts=3)), 3)
    0.726
    """
    _a_workflow(workflow)
    accepted = workflow.a + workflow.b
    if accepted == 0.0:
        return 0.0
    return float((workflow.a / accepted) ** workflow.steps)


def attempt_cost(workflow: Workflow, *, runs: int, seed, confidence: float = 0.95) -> dict:
    r"""Expected attempts per run in closed form beside a simulated mean.

    The simulated mean carries its standard error :math:`s/\sqrt{\text{runs}}` (``s`` the
    sample standard deviation of attempts per run, ``ddof=1``) and a normal interval
    :math:`\bar x \pm z\,\text{SE}`; ``gap_in_se`` is (simulated - closed) / SE.
    Also returned: ``no_stop``, the cost :math:`n S_A` if no run ever stopped early, and
    ``no_stop_gap_in_se``, (simulated - no_stop) / SE. When every run costs the same
    (SE = 0, e.g. no attempt ever fails, or every one does) a gap is 0 if the two agree
    and infinite if they do not.

    Parameters
    ----------
    workflow : Workflow
        The chain to cost.
    runs : int
        Simulated runs, at least 2 (a standard error needs two).
    seed : int or numpy.random.Generator
        Seeds the simulation (:meth:`Workflow.simulate`).
    confidence : float, optional
        The normal interval's confidence, in (0, 1); 0.95 by default.

    Returns
    -------
    dict
        ``closed``, ``no_stop``, ``simulated``, ``se``, ``low``, ``high``, ``runs``,
        ``gap_in_se`` and ``no_stop_gap_in_se``, as above.

    Examples
    --------
    >>> from reliability.workflow import Workflow, attempt_cost
    >>> cost = attempt_cost(Workflow(steps=10, error=0.05, silent=0.03, attempts=3),
    ...                     runs=2000, seed=1)
    >>> round(cost["closed"], 2), cost["low"] <= cost["closed"] <= cost["high"]
    (10.52, True)
    """
    _a_workflow(workflow)
    runs = _validate.whole("runs", runs, minimum=2)
    _validate.seed(seed)
    _validate.confidence(confidence)
    sim = workflow.simulate(runs=runs, seed=seed)
    mean, se, low, high = mean_attempts_interval(sim, confidence)
    closed, no_stop = workflow.expected_attempts(), workflow.S_A * workflow.steps
    return {"closed": closed, "no_stop": no_stop, "simulated": mean,
            "se": se, "low": low, "high": high, "runs": runs,
            "gap_in_se": _in_se(mean, closed, se),
            "no_stop_gap_in_se": _in_se(mean, no_stop, se)}


def _in_se(mean, reference, se):
    """(mean - reference) / se; with se = 0 the runs all cost the same, so the gap is
    0 when the two agree (to rounding) and infinite when they do not."""
    if se > 0:
        return (mean - reference) / se
    if math.isclose(mean, reference, rel_tol=1e-9, abs_tol=1e-12):
        return 0.0
    return math.copysign(math.inf, mean - reference)


def mean_attempts_interval(simulation: Simulation, confidence: float = 0.95):
    r"""A simulation's mean attempts per run with its standard error and normal interval:
    :math:`\text{SE} = s/\sqrt{\text{runs}}` (``s`` the sample standard deviation,
    ``ddof=1``) and :math:`\bar x \pm z\,\text{SE}`.

    Parameters
    ----------
    simulation : Simulation
        What :meth:`Workflow.simulate` returned.
    confidence : float, optional
        The interval's confidence, in (0, 1); 0.95 by default.

    Returns
    -------
    tuple of float
        ``(mean, se, low, high)``.

    Examples
    --------
    >>> from reliability.workflow import Workflow, mean_attempts_interval
    >>> runs = Workflow(steps=10, error=0.05, silent=0.03, attempts=3).simulate(2000, 1)
    >>> mean, se, low, high = mean_attempts_interval(runs)
    >>> round(mean, 2), low < mean < high
    (10.53, True)
    """
    _validate.instance("simulation", simulation, Simulation)
    z = z_value(_validate.confidence(confidence))
    mean = simulation.mean_attempts
    se = float(np.std(simulation.attempts_per_run, ddof=1) / np.sqrt(simulation.runs))
    return mean, se, mean - z * se, mean + z * se
