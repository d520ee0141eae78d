r"""pass@k and pass^k: finding a solution once against repeating it every time.

A task set is a population of tasks, each with its own chance :math:`p` that one trial
succeeds. Over a task drawn from it,

.. math::

    \begin{aligned}
    \text{pass@}k &= 1 - \mathbb{E}\left[(1-p)^k\right],\\
    \text{pass}^k &= \mathbb{E}\left[p^k\right],
    \end{aligned}

so pass@k rises with :math:`k` and pass^k falls, and how fast pass^k falls depends on the
whole spread of :math:`p`, not on its mean :math:`\text{pass}^1 = \mathbb{E}[p]` alone
(Yao et al. 2024). This module holds

* :func:`pass_at_k` and :func:`pass_hat_k`: the unbiased estimators of one task from
  ``n`` trials with ``c`` successes (Chen et al. 2021; Yao et al. 2024);
* :func:`curves`: both curves for k = 1..n from a tasks x trials matrix, with a seeded
  bootstrap over tasks for the intervals;
* :func:`from_counts` and :func:`from_outcomes`: pass^k and pass@k at one k, with their
  intervals, from each task's count of successes or from a tasks x trials matrix, as a
  :class:`PassEstimate` that prints as words (scoring one's own agent);
* :class:`TaskMix`: a mixture of Beta distributions (and point masses) for :math:`p`, with
  closed forms for both curves and a seeded simulation of T tasks x n trials;
* :func:`fit_task_mix` and :func:`moment_bounds`: a task mix fitted to published
  pass^1..pass^K, and the range of pass^k (k > K) that *every* distribution of :math:`p`
  on [0, 1] reproducing those values allows;
* :func:`estimator_variance`, :func:`half_width` and :func:`plan`: how many tasks and trials
  give a pass^k interval of a wanted width;
* :func:`resamples_within`: how many bootstrap resamples fit a budget of case draws (a
  page that precomputes many settings).
"""

from __future__ import annotations

import math
import numbers
import os
from dataclasses import dataclass, field

import numpy as np
from scipy.special import expit, gammaln, logit

from . import _validate
from .i18n import N_, NP_, _, gettext
from .numbers import counted, fmt, interval, number, percent
from .stats import Interval, z_value

__all__ = ["pass_at_k", "pass_hat_k", "PassCurves", "curves", "PassEstimate",
           "from_counts", "from_outcomes", "TaskMix", "Fit", "fit_task_mix", "moment_bounds",
           "standard_error_bound", "extrapolate", "extrapolation_table",
           "extrapolation_summary", "estimator_variance", "half_width", "plan",
           "resamples_within", "published_table"]


# --- pass@k and pass^k of one task from n trials ---------------------------------------

def _as_output(value):
    """A plain float for a scalar (no ``np.float64(...)`` repr in the book), else the
    array."""
    return float(value) if np.ndim(value) == 0 else value


def _pass_counts(n, c, k):
    n = _validate.whole_array("n", n, minimum=1)
    c = _validate.whole_array("c", c, minimum=0)
    k = _validate.whole_array("k", k, minimum=1)
    try:
        n, c, k = np.broadcast_arrays(n, c, k)
    except ValueError:
        raise ValueError(f"n, c and k must broadcast to one shape, got shapes "
                         f"{np.shape(n)}, {np.shape(c)} and {np.shape(k)}") from None
    if np.any(c > n):
        raise ValueError(f"c (successes) must lie in [0, n]; got c={c.tolist()!r} "
                         f"with n={n.tolist()!r}")
    if np.any(k > n):
        raise ValueError(f"k must lie in [1, n] (k trials drawn from n); got "
                         f"k={k.tolist()!r} with n={n.tolist()!r}")
    return n, c, k


def _log_ratio(n, a, k):
    """log of C(a, k) / C(n, k) for a >= k, through log-gamma: the binomials themselves
    overflow a float long before n reaches a few hundred."""
    a = np.maximum(a, k)  # the caller overwrites a < k, where the ratio is exactly 0
    return (gammaln(a + 1.0) - gammaln(a - k + 1.0)
            - gammaln(n + 1.0) + gammaln(n - k + 1.0))


def pass_at_k(n, c, k):
    r"""Unbiased pass@k of one task from ``n`` trials with ``c`` successes.

    The chance that at least one of ``k`` trials drawn without replacement from the ``n``
    succeeded (Chen et al. 2021):

    .. math::

        \widehat{\text{pass@}k} = 1 - \binom{n-c}{k} \Big/ \binom{n}{k}.

    It is exactly 0 when :math:`c = 0` and exactly 1 when :math:`n - c < k` (so also when
    :math:`c = n`). The binomials are taken through log-gamma, so ``n`` may run to
    millions.

    Parameters
    ----------
    n : int or array of int
        Trials of the task, ``>= 1``.
    c : int or array of int
        Successes among them, in ``[0, n]``.
    k : int or array of int
        Trials drawn, in ``[1, n]``. The three broadcast together (e.g. one ``c`` per task).

    Returns
    -------
    float or numpy.ndarray
        In [0, 1]; a float when all three are scalars.

    References
    ----------
    Chen, M., Tworek, J., Jun, H., Yuan, Q. et al. (2021). Evaluating large language
    models trained on code. arXiv:2107.03374.

    Examples
    --------
    A task that succeeded in 3 of 10 trials:

    >>> from reliability.passk import pass_at_k
    >>> round(pass_at_k(10, 3, 2), 4)
    0.5333
    """
    n, c, k = _pass_counts(n, c, k)
    failures = n - c
    value = -np.expm1(_log_ratio(n, failures, k))  # expm1 keeps small pass@k accurate
    value = np.where(failures < k, 1.0, value)
    value = np.where(c == 0, 0.0, value)
    return _as_output(np.clip(value, 0.0, 1.0))


def pass_hat_k(n, c, k):
    r"""Unbiased pass^k of one task from ``n`` trials with ``c`` successes.

    The chance that all ``k`` trials drawn without replacement from the ``n`` succeeded
    (Yao et al. 2024):

    .. math::

        \widehat{\text{pass}^k} = \binom{c}{k} \Big/ \binom{n}{k}.

    It is exactly 0 when :math:`c < k` (so also when :math:`c = 0`), exactly 1 when
    :math:`c = n`, and equal to :math:`c / n` at :math:`k = 1`.

    Parameters
    ----------
    n, c, k : int or array of int
        As for :func:`pass_at_k`: ``n >= 1`` trials, ``c`` in ``[0, n]`` successes, ``k``
        in ``[1, n]``; they broadcast together.

    Returns
    -------
    float or numpy.ndarray
        In [0, 1]; a float when all three are scalars.

    References
    ----------
    Yao, S., Shinn, N., Razavi, P. and Narasimhan, K. (2024). tau-bench: a benchmark
    for tool-agent-user interaction in real-world domains. arXiv:2406.12045.

    Examples
    --------
    >>> import numpy as np
    >>> from reliability.passk import pass_hat_k
    >>> round(pass_hat_k(10, 3, 2), 4)
    0.0667
    >>> pass_hat_k(8, np.array([0, 4, 8]), 2).round(4)
    array([0.    , 0.2143, 1.    ])
    """
    n, c, k = _pass_counts(n, c, k)
    value = np.exp(_log_ratio(n, c, k))
    value = np.where(c < k, 0.0, value)
    value = np.where(c == n, 1.0, value)
    return _as_output(np.clip(value, 0.0, 1.0))


# --- curves from a matrix of outcomes ---------------------------------------------------

@dataclass(frozen=True)
class PassCurves:
    """pass@k and pass^k for k = 1..trials, with bootstrap intervals over tasks (Wilson's
    where every task scored the same)."""

    k: np.ndarray = field(repr=False)
    pass_at: np.ndarray = field(repr=False)
    pass_at_low: np.ndarray = field(repr=False)
    pass_at_high: np.ndarray = field(repr=False)
    pass_hat: np.ndarray = field(repr=False)
    pass_hat_low: np.ndarray = field(repr=False)
    pass_hat_high: np.ndarray = field(repr=False)
    tasks: int = 0
    trials: int = 0
    confidence: float = 0.95
    #: True at each k where every task had the same estimate (one task, or all tasks at
    #: 0 or at 1): the bootstrap has nothing to spread there, so that k's interval is
    #: Wilson's score interval on the mean over tasks, as in :func:`from_counts`.
    pass_at_wilson: np.ndarray | None = field(default=None, repr=False)
    pass_hat_wilson: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self):
        _validate.numeric_array("k", self.k, kind="whole", ndim=1, minimum=1)
        for name in ("pass_at_wilson", "pass_hat_wilson"):
            value = getattr(self, name)
            if value is None:
                value = np.zeros(np.shape(self.k), dtype=bool)
            value = np.asarray(value)
            if value.dtype != bool or value.shape != np.shape(self.k):
                raise ValueError(f"{name} must be None or one truth value per k "
                                 f"({np.size(self.k)} of them), got {value!r}")
            object.__setattr__(self, name, value)
        for name in ("pass_at", "pass_at_low", "pass_at_high", "pass_hat", "pass_hat_low",
                     "pass_hat_high"):
            value = getattr(self, name)
            _validate.numeric_array(name, value, ndim=1, minimum=0.0)
            if np.shape(value) != np.shape(self.k) or np.any(np.asarray(value) > 1 + 1e-9):
                raise ValueError(f"{name} must hold one rate in [0, 1] per k "
                                 f"({np.size(self.k)} of them), got {value!r}")
        _validate.whole("tasks", self.tasks, minimum=0)
        _validate.whole("trials", self.trials, minimum=0)
        _validate.confidence(self.confidence)

    def table(self):
        """The curves as a pandas DataFrame indexed by k, rounded to three places."""
        from ._optional import pandas

        pd = pandas("PassCurves.table")

        return pd.DataFrame({
            "pass@k": self.pass_at, N_("pass@k low"): self.pass_at_low,
            N_("pass@k high"): self.pass_at_high, "pass^k": self.pass_hat,
            N_("pass^k low"): self.pass_hat_low, N_("pass^k high"): self.pass_hat_high},
            index=pd.Index(self.k, name="k")).round(3)

    def beside_closed_form(self, mix, ks=None) -> str:
        """A sentence naming each printed interval that misses the closed form of
        ``mix`` (which k, pass@k or pass^k), or saying none does, in the page's
        language; a miss comes with what a reader needs to weigh it: a 95% interval
        misses its closed form in about one case in twenty by chance.

        Parameters
        ----------
        mix : TaskMix
            The task set the curves were simulated from.
        ks : sequence of int, optional
            The k whose intervals the reader sees (default: every k of the curves).

        Examples
        --------
        >>> mix = TaskMix.beta(0.6, 1.0)
        >>> r = curves(mix.simulate(50, 8, seed=1), seed=1)
        >>> print(r.beside_closed_form(mix, (1, 2)))
        Every closed form lies inside its 95% interval
        """
        from . import claims

        if not isinstance(mix, TaskMix):
            raise ValueError(f"mix must be a TaskMix, got {mix!r}")
        known = [int(k) for k in self.k]
        if ks is None:
            ks = known
        elif isinstance(ks, (str, bytes)) or not hasattr(ks, "__iter__") or not all(
                isinstance(k, (int, np.integer)) and not isinstance(k, bool) for k in ks):
            raise ValueError(f"ks must be a sequence of whole k among the curves' k (1 to "
                             f"{max(known)}), or None for all, got {ks!r}")
        ks = [int(k) for k in ks]
        for k in ks:
            if k not in known:
                raise ValueError(f"ks must be among the curves' k (1 to {max(known)}), "
                                 f"got {k}")
        misses = []
        for k in ks:
            i = known.index(k)
            for name, rate, low, high in (
                    ("pass@k", mix.pass_at(k), self.pass_at_low, self.pass_at_high),
                    ("pass^k", mix.pass_hat(k), self.pass_hat_low, self.pass_hat_high)):
                if not claims.inside(float(rate), low[i], high[i]):
                    misses.append(_("{curve} at k = {k}").format(curve=name, k=k))
        level = fmt(self.confidence, ".0%")
        if not misses:
            return _("Every closed form lies inside its {level} interval").format(
                level=level)
        return _("Closed form outside its {level} interval: {misses}; a {level} "
                 "interval misses by chance about one time in {one_in}").format(
            level=level, misses=", ".join(misses),
            one_in=round(1 / (1 - self.confidence)))


def _outcome_matrix(outcomes) -> np.ndarray:
    if isinstance(outcomes, (str, bytes)) or outcomes is None:
        raise ValueError(f"outcomes must be a tasks x trials matrix of booleans or 0/1, "
                         f"got {outcomes!r}")
    try:
        array = np.asarray(outcomes)
    except (ValueError, TypeError):
        array = np.asarray(None)  # ragged deeper than rows of trials: refused below
    if array.ndim != 2 or array.shape[0] < 1 or array.shape[1] < 1:
        raise ValueError(f"outcomes must be a tasks x trials matrix (2-D, at least 1 x 1) "
                         f"or rows of booleans or 0/1, one row per task, got {outcomes!r}")
    if array.dtype != bool:
        if not (np.issubdtype(array.dtype, np.number) and np.all((array == 0) | (array == 1))):
            raise ValueError("outcomes must hold booleans or 0/1 (one entry per trial)")
    return array.astype(bool)


def curves(outcomes, *, confidence: float = 0.95, resamples: int = 2000,
           seed=0) -> PassCurves:
    r"""pass@k and pass^k for k = 1..n from a tasks x trials boolean matrix.

    Each task's :math:`c` successes in :math:`n` trials give the unbiased per-task
    estimates :func:`pass_at_k` and :func:`pass_hat_k`; the curves are their means over
    tasks,

    .. math::

        \widehat{\text{pass}^k} = \frac{1}{T} \sum_i \binom{c_i}{k} \Big/ \binom{n}{k}.

    The interval is a percentile bootstrap that resamples *tasks* with replacement,
    because with tens of tasks the choice of tasks, not the trials, is the larger source of
    error; at a k where every task has the same estimate (one task, or every task at 0 or
    at 1) the bootstrap has nothing to spread, and the interval is Wilson's on the mean
    over tasks instead (``pass_at_wilson``, ``pass_hat_wilson`` say where).

    Parameters
    ----------
    outcomes : 2-D array of bool or 0/1
        One row per task, one column per trial, at least 1 x 1.
    confidence : float
        Of the two-sided intervals, strictly between 0 and 1.
    resamples : int
        Bootstrap resamples, ``>= 1``.
    seed : int or numpy.random.Generator
        The same seed gives the same intervals.

    Returns
    -------
    PassCurves
        ``k``, ``pass_at``, ``pass_hat`` and their ``_low`` / ``_high`` bounds, one entry
        per k; ``table()`` gives them as a DataFrame.

    Examples
    --------
    >>> from reliability import passk
    >>> result = passk.curves([[1, 1, 0, 1], [0, 0, 0, 0], [1, 1, 1, 1]], resamples=200)
    >>> result.pass_hat.round(3)
    array([0.583, 0.5  , 0.417, 0.333])
    >>> result.pass_at.round(3)
    array([0.583, 0.667, 0.667, 0.667])
    """
    matrix = _outcome_matrix(outcomes)
    confidence = _validate.confidence(confidence)
    resamples = _validate.whole("resamples", resamples, minimum=1)
    rng = _validate.generator(seed)
    tasks, trials = matrix.shape
    _validate.size("tasks x trials", tasks * trials, limit=_validate.MAX_CELLS // 10)
    ks = np.arange(1, trials + 1)
    out = _bootstrap(matrix.sum(axis=1), trials, ks, confidence=confidence,
                     resamples=resamples, rng=rng)
    for name in ("at", "hat"):
        # Where every task scored the same the bootstrap interval is the point itself, a
        # width that is no sign of precision: Wilson's interval on the mean instead.
        point, low, high = (np.array(v, dtype=float) for v in out[name])
        for i in np.flatnonzero(out[name + "_alike"]):
            wilson = _wilson_on_mean(float(np.clip(point[i], 0.0, 1.0)), tasks, confidence)
            low[i], high[i] = min(wilson[0], point[i]), max(wilson[1], point[i])
        out[name] = (point, low, high)
    return PassCurves(k=ks, pass_at=out["at"][0], pass_at_low=out["at"][1],
                      pass_at_high=out["at"][2], pass_hat=out["hat"][0],
                      pass_hat_low=out["hat"][1], pass_hat_high=out["hat"][2],
                      tasks=int(tasks), trials=int(trials), confidence=confidence,
                      pass_at_wilson=np.asarray(out["at_alike"], dtype=bool),
                      pass_hat_wilson=np.asarray(out["hat_alike"], dtype=bool))


def _bootstrap(successes, trials: int, ks, *, confidence: float, resamples: int,
               rng) -> dict:
    """Mean over tasks of the per-task pass@k ("at") and pass^k ("hat") estimates at
    each k of ``ks``, with a percentile bootstrap over tasks:
    ``{name: (point, low, high)}``, and ``{name + "_alike": ...}``, True at each k where
    every task has the same estimate (the bootstrap then has nothing to spread).
    ``trials`` is one n for all tasks or one per task."""
    tasks = successes.size
    _validate.size("resamples x tasks", resamples * tasks, limit=_validate.MAX_CELLS)
    n = trials if np.ndim(trials) == 0 else np.asarray(trials)[:, None]  # one n per task
    per_task = {
        "at": pass_at_k(n, successes[:, None], ks[None, :]),
        "hat": pass_hat_k(n, successes[:, None], ks[None, :]),
    }
    # A bootstrap resample of tasks is a multinomial count per task: weighting the
    # per-task estimates by it avoids building resamples x tasks x k arrays.
    weights = rng.multinomial(tasks, np.full(tasks, 1.0 / tasks), size=resamples) / tasks
    tail = (1.0 - confidence) / 2.0
    out = {}
    for name, estimates in per_task.items():
        boot = weights @ estimates
        point = estimates.mean(axis=0)
        # Where every task has the same estimate (pass@k = 1 for all of them at large k),
        # the resampled means differ from it only by rounding, which could put the point a
        # hair outside its own interval; the interval is then exactly the point. So is it
        # when a single resample or a single task leaves nothing to spread.
        out[name] = (point,
                     np.minimum(np.quantile(boot, tail, axis=0), point),
                     np.maximum(np.quantile(boot, 1.0 - tail, axis=0), point))
        out[name + "_alike"] = np.all(estimates == estimates[:1], axis=0)
    return out


def _wilson_on_mean(mean: float, tasks: int, confidence: float) -> tuple[float, float]:
    r"""Wilson's score interval for the mean of ``tasks`` per-task estimates in [0, 1].

    The Wilson (1927) interval with :math:`\hat p` the mean and :math:`n` the number of
    tasks. A variable in [0, 1] with mean :math:`\mu` has variance at most
    :math:`\mu (1 - \mu)`, so the interval is the binomial one at worst; it never shrinks
    to a point, which is what the bootstrap does when every task scores the same."""
    z = z_value(confidence)
    n = float(tasks)
    denominator = 1.0 + z * z / n
    centre = (mean + z * z / (2.0 * n)) / denominator
    half = z / denominator * math.sqrt(max(mean * (1.0 - mean), 0.0) / n
                                       + z * z / (4.0 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


# --- one k from one's own results -----------------------------------------------------

@dataclass(frozen=True)
class PassEstimate:
    """pass^k and pass@k at one ``k`` over a set of tasks, each with its interval.

    Returned by :func:`from_counts` and :func:`from_outcomes`; ``print`` it for a
    sentence, or read the fields. ``low`` and ``high`` bound a two-sided interval at
    ``confidence``: a percentile bootstrap over the ``tasks`` tasks (``resamples``
    resamples), or, where every task has the same estimate (one task, all succeed,
    none succeed), Wilson's score interval on the mean over tasks; ``pass_hat_method``
    and ``pass_at_method`` say which (``"bootstrap"`` or ``"wilson"``). ``trials`` is
    the trials every task had, or a tuple of each task's when they differ.
    """

    k: int
    pass_hat: float
    pass_hat_low: float
    pass_hat_high: float
    pass_at: float
    pass_at_low: float
    pass_at_high: float
    tasks: int
    trials: int | tuple
    confidence: float = 0.95
    resamples: int = 2000
    pass_hat_method: str = "bootstrap"
    pass_at_method: str = "bootstrap"

    def __post_init__(self):
        tasks = _validate.whole("tasks", self.tasks, minimum=1)
        if isinstance(self.trials, tuple):
            each = _validate.whole_array("trials", self.trials, minimum=1)
            if each.ndim != 1 or each.size != tasks:
                raise ValueError(f"trials must be one whole number >= 1, or one per task "
                                 f"({tasks} of them), got {self.trials!r}")
            trials = int(each.min())
        else:
            trials = _validate.whole("trials", self.trials, minimum=1)
        _validate.whole("k", self.k, minimum=1, maximum=trials)
        _validate.whole("resamples", self.resamples, minimum=1)
        _validate.confidence(self.confidence)
        for name in ("pass_hat_method", "pass_at_method"):
            _validate.text(name, getattr(self, name), choices=_METHODS)
        for name in ("pass_hat", "pass_at"):
            low, point, high = (_validate.probability(f"{name}{end}",
                                                      getattr(self, f"{name}{end}"))
                                for end in ("_low", "", "_high"))
            if not low <= point <= high:
                raise ValueError(f"{name}_low <= {name} <= {name}_high must hold, got "
                                 f"{low!r}, {point!r}, {high!r}")

    def __str__(self) -> str:
        level = self.confidence * 100
        level = percent(self.confidence, 0 if abs(level - round(level)) < 1e-9 else 1)
        lines = []
        for name, point, low, high, method in (
                ("pass^", self.pass_hat, self.pass_hat_low, self.pass_hat_high,
                 self.pass_hat_method),
                ("pass@", self.pass_at, self.pass_at_low, self.pass_at_high,
                 self.pass_at_method)):
            line = _("{name} = {value}, {level} interval {interval}").format(
                name=f"{name}{self.k}", value=percent(point), level=level,
                interval=interval(low, high))
            if method == "wilson":
                line += " " + _("(Wilson interval over tasks: every task scored the "
                                "same)")
            lines.append(line)
        if isinstance(self.trials, tuple) and min(self.trials) != max(self.trials):
            trials = (number(min(self.trials)) + "\u2013"
                      + counted(max(self.trials), "trial", "trials"))
        else:
            trials = counted(int(np.min(self.trials)), "trial", "trials")
        booted = "bootstrap" in (self.pass_hat_method, self.pass_at_method)
        lines.append((_("from {tasks} of {trials} each; bootstrap over tasks, "
                        "{resamples}") if booted else _("from {tasks} of {trials} each"))
                     .format(tasks=counted(self.tasks, "task", "tasks"), trials=trials,
                             resamples=counted(self.resamples, "resample", "resamples")))
        return "\n".join(lines)


# How an interval of a PassEstimate was made.
_METHODS = ("bootstrap", "wilson")


def from_counts(successes, *, trials: int, k: int, confidence: float = 0.95,
                resamples: int = 2000, seed=0) -> PassEstimate:
    r"""pass^k and pass@k with intervals from each task's count of successes.

    Task :math:`i` was tried :math:`n_i` times and succeeded :math:`c_i` times. Over
    :math:`T` tasks the estimates are the means of the unbiased per-task estimators
    (:func:`pass_hat_k`, :func:`pass_at_k`), each task scored with its own
    :math:`n_i`:

    .. math::

        \begin{aligned}
        \widehat{\text{pass}^k} &= \frac{1}{T} \sum_i \binom{c_i}{k}
        \Big/ \binom{n_i}{k},\\
        \widehat{\text{pass@}k} &= 1 - \frac{1}{T} \sum_i \binom{n_i - c_i}{k}
        \Big/ \binom{n_i}{k}.
        \end{aligned}

    The interval is a percentile bootstrap over *tasks*: ``resamples`` times, :math:`T`
    tasks are drawn with replacement and the mean recomputed; the bounds are the
    :math:`(1 \mp \text{confidence})/2` quantiles of those means. Resampling tasks, not
    trials, keeps the larger source of error when a benchmark has tens of tasks: which
    tasks were drawn. It needs tasks to resample: with one task, or when every task has
    the same estimate (all succeed, none succeed), the bootstrap would give the point
    itself, so the interval is then Wilson's score interval on the mean over the
    :math:`T` tasks (conservative: an estimate in [0, 1] with mean :math:`\mu` varies
    at most as a success or failure does), and the result says so
    (``pass_hat_method`` / ``pass_at_method`` is ``"wilson"``). With a few tens of
    tasks or fewer a bootstrap holds the true value less often than its confidence
    says (the narrower, the fewer the tasks). :func:`curves` gives every k = 1..n at
    once from a tasks x trials matrix.

    Parameters
    ----------
    successes : sequence of int
        :math:`c_i`, one count per task (at least one task), each in ``[0, n_i]``.
    trials : int or sequence of int
        :math:`n_i`: the trials every task was given, ``>= 1``, or one such number per
        task when the tasks had different numbers of trials.
    k : int
        In ``[1, min(trials)]``.
    confidence : float
        Of the two-sided interval, strictly between 0 and 1.
    resamples : int
        Bootstrap resamples, ``>= 1``.
    seed : int or numpy.random.Generator
        The same seed gives the same interval.

    Returns
    -------
    PassEstimate
        ``pass_hat``, ``pass_at`` and their ``_low`` / ``_high`` bounds, with ``k``,
        ``tasks``, ``trials``, ``confidence`` and ``resamples``.

    Raises
    ------
    ValueError
        Naming the argument and its allowed range.

    Examples
    --------
    Eight tasks, each tried five times; how many of the five succeeded:

    >>> from reliability import passk
    >>> result = passk.from_counts([5, 4, 5, 2, 0, 5, 3, 4], trials=5, k=3)
    >>> print(result)
    pass^3 = 48.8%, 95% interval [20.0%, 80.0%]
    pass@3 = 86.2%, 95% interval [61.3%, 100.0%]
    from 8 tasks of 5 trials each; bootstrap over tasks, 2,000 resamples
    >>> round(result.pass_hat, 4), round(result.pass_hat_low, 4), result.pass_at_high
    (0.4875, 0.2, 1.0)

    Tasks tried different numbers of times, and twenty tasks that all succeeded:

    >>> print(passk.from_counts([3, 8, 1], trials=[4, 8, 2], k=2).pass_hat)
    0.5
    >>> alike = passk.from_counts([8] * 20, trials=8, k=1)
    >>> round(alike.pass_hat_low, 3), alike.pass_hat_high, alike.pass_hat_method
    (0.839, 1.0, 'wilson')
    """
    if isinstance(successes, (str, bytes)) or successes is None or np.ndim(
            _validate.whole_array("successes", successes, minimum=0)) != 1:
        raise ValueError(f"successes must be a sequence of whole numbers in "
                         f"[0, trials], one per task, got {successes!r}")
    counts = _validate.whole_array("successes", successes, minimum=0)
    if counts.size < 1:
        raise ValueError("successes must hold one count per task, at least one task; "
                         "got none")
    trials = _task_trials(trials, counts.size)
    if np.ndim(trials) == 0 and np.any(counts > trials):
        raise ValueError(f"successes must lie in [0, trials] = [0, {trials}], got "
                         f"{counts[counts > trials].tolist()!r} above it")
    if np.any(counts > trials):
        over = counts > trials
        raise ValueError(f"successes must lie in [0, trials] for each task, got "
                         f"{counts[over].tolist()!r} above trials "
                         f"{np.broadcast_to(trials, counts.shape)[over].tolist()!r}")
    fewest = int(np.min(trials))
    k = _validate.whole("k", k, minimum=1, maximum=fewest)
    confidence = _validate.confidence(confidence)
    resamples = _validate.whole("resamples", resamples, minimum=1)
    rng = _validate.generator(seed)
    out = _bootstrap(counts, trials, np.array([k]), confidence=confidence,
                     resamples=resamples, rng=rng)
    ends, methods = {}, {}
    for name in ("at", "hat"):
        # A mean of estimates that are all 1 can come out a rounding error above 1.
        point, low, high = (float(np.clip(v[0], 0.0, 1.0)) for v in out[name])
        methods[name] = "wilson" if out[name + "_alike"][0] else "bootstrap"
        if methods[name] == "wilson":
            low, high = _wilson_on_mean(point, counts.size, confidence)
            low, high = min(low, point), max(high, point)
        ends[name] = (point, low, high)
    shown = int(trials) if np.ndim(trials) == 0 else tuple(int(n) for n in trials)
    return PassEstimate(k=k, pass_hat=ends["hat"][0], pass_hat_low=ends["hat"][1],
                        pass_hat_high=ends["hat"][2], pass_at=ends["at"][0],
                        pass_at_low=ends["at"][1], pass_at_high=ends["at"][2],
                        tasks=int(counts.size), trials=shown, confidence=confidence,
                        resamples=resamples, pass_hat_method=methods["hat"],
                        pass_at_method=methods["at"])


def _task_trials(trials, tasks: int):
    """``trials`` as one int for every task, or an int array with one per task (kept an
    int when they are all equal)."""
    if not isinstance(trials, (list, tuple, np.ndarray)):
        return _validate.whole("trials", trials, minimum=1)
    each = _validate.whole_array("trials", trials, minimum=1)
    if each.ndim == 0:
        return int(each)
    if each.ndim != 1 or each.size != tasks:
        raise ValueError(f"trials must be one whole number >= 1, or one per task "
                         f"({tasks} of them, as successes), got {trials!r}")
    return int(each[0]) if np.all(each == each[0]) else each


def from_outcomes(outcomes, *, k: int, confidence: float = 0.95, resamples: int = 2000,
                  seed=0) -> PassEstimate:
    r""":func:`from_counts` from a tasks x trials matrix of outcomes.

    Row :math:`i` holds task :math:`i`'s trials (``True`` or 1 for a success); its sum
    is :math:`c_i` and the number of columns is :math:`n`. The same estimators and the
    same bootstrap as :func:`from_counts`, with the same seed giving the same interval.

    Parameters
    ----------
    outcomes : 2-D array of bool or 0/1, or a list of rows
        One row per task, one column per trial, at least 1 x 1; rows of different
        lengths (tasks tried different numbers of times) are scored each with its own
        number of trials.
    k : int
        In ``[1, trials]``, trials being the length of the shortest row.
    confidence, resamples, seed
        As for :func:`from_counts`.

    Returns
    -------
    PassEstimate

    Examples
    --------
    >>> from reliability import passk
    >>> outcomes = [[True, True, False, True],
    ...             [False, False, False, False],
    ...             [True, True, True, True]]
    >>> print(passk.from_outcomes(outcomes, k=2))
    pass^2 = 50.0%, 95% interval [0.0%, 100.0%]
    pass@2 = 66.7%, 95% interval [0.0%, 100.0%]
    from 3 tasks of 4 trials each; bootstrap over tasks, 2,000 resamples
    """
    successes, trials = _outcome_rows(outcomes)
    return from_counts(successes, trials=trials, k=k, confidence=confidence,
                       resamples=resamples, seed=seed)


def _outcome_rows(outcomes):
    """Each task's successes and trials from a matrix, or from rows of different
    lengths (a list of lists), each row one task's outcomes."""
    rows = None
    if isinstance(outcomes, (list, tuple)) and outcomes and all(
            isinstance(row, (list, tuple, np.ndarray)) for row in outcomes):
        lengths = {len(row) for row in outcomes}
        if len(lengths) > 1:
            rows = [_outcome_matrix([row]) for row in outcomes]
    if rows is None:
        matrix = _outcome_matrix(outcomes)
        return matrix.sum(axis=1), matrix.shape[1]
    return (np.array([int(row.sum()) for row in rows]),
            np.array([row.shape[1] for row in rows]))


# --- a model of the task set ------------------------------------------------------------

# Components of one mix: each closed form walks all of them for every k.
_MAX_COMPONENTS = 10_000


def _all_numbers(values) -> bool:
    """A number or a flat sequence / array of numbers (no strings, booleans or None)."""
    if isinstance(values, (str, bytes)) or values is None:
        return False
    array = np.asarray(values)
    return array.dtype != bool and (np.issubdtype(array.dtype, np.integer)
                                    or np.issubdtype(array.dtype, np.floating))

def _rising_ratio(k, a, b, s):
    r""":math:`\prod_{i<k} (a+i)/(s+i) = \Gamma(a+k)\Gamma(s) / (\Gamma(a)\Gamma(s+k))`
    with :math:`b = s - a`, for each ``k`` (shape ``k.shape + a.shape``).

    Summed as :math:`\log(1 - b/(s+i))` terms while ``k`` is small enough: the log-gamma
    difference loses digits to the size of :math:`\Gamma(s)` (pass^1 of a Beta mix with
    concentration 3,000 came out 5e-12 off its mean, and pass^1 fell below pass@1)."""
    top = int(k.max()) if k.size else 0
    if top * a.size <= 10**6:
        steps = np.arange(top, dtype=float)[:, None]
        logs = np.log1p(-b / (s + steps))
        total = np.vstack([np.zeros((1, a.size)), np.cumsum(logs, axis=0)])
        return np.exp(total[k.astype(np.int64)])
    kk = k[..., None]
    return np.exp(gammaln(a + kk) - gammaln(a) - gammaln(s + kk) + gammaln(s))


@dataclass(frozen=True)
class TaskMix:
    r"""A task set whose per-task success chance :math:`p` is a mixture of components.

    Component :math:`j` has weight :math:`w_j`, mean :math:`m_j` and concentration
    :math:`s_j`: a Beta(:math:`m_j s_j`, :math:`(1-m_j) s_j`) distribution, or a point
    mass at :math:`m_j` when :math:`s_j = \infty` (every task of that kind succeeds with
    the same chance; :math:`m_j = 0` or 1 are tasks that never or always succeed). Small
    :math:`s_j` spreads the tasks towards 0 and 1; large :math:`s_j` makes them alike.
    With :math:`a = m s`, :math:`b = (1-m) s`,

    .. math::

        \begin{aligned}
        \mathbb{E}[p^k] &= \sum_j w_j \prod_{i=0}^{k-1} \frac{a_j + i}{s_j + i},\\
        \mathbb{E}[(1-p)^k] &= \sum_j w_j \prod_{i=0}^{k-1} \frac{b_j + i}{s_j + i}.
        \end{aligned}
    """

    weights: tuple = (1.0,)
    means: tuple = (0.61,)
    concentrations: tuple = (math.inf,)

    def __post_init__(self):
        if not _all_numbers(self.weights):
            raise ValueError(f"weights must be non-negative numbers with a positive sum, got "
                             f"{self.weights!r}")
        weights = np.atleast_1d(np.asarray(self.weights, dtype=float))
        means = np.atleast_1d(_validate.probability_array("means", self.means))
        if not _all_numbers(self.concentrations):
            raise ValueError(f"concentrations must be positive numbers or inf, got "
                             f"{self.concentrations!r}")
        conc = np.atleast_1d(np.asarray(self.concentrations, dtype=float))
        if not (weights.ndim == means.ndim == conc.ndim == 1
                and weights.size == means.size == conc.size >= 1):
            raise ValueError("weights, means and concentrations must be three sequences of "
                             "one equal length >= 1")
        _validate.size("components", weights.size, limit=_MAX_COMPONENTS)
        if np.any(~np.isfinite(weights)) or np.any(weights < 0) or weights.sum() <= 0:
            raise ValueError(f"weights must be non-negative with a positive sum, got "
                             f"{self.weights!r}")
        if np.any(np.isnan(conc)) or np.any(conc <= 0):
            raise ValueError(f"concentrations must be > 0 (inf for a point mass), got "
                             f"{self.concentrations!r}")
        finite = np.isfinite(conc)
        if np.any(finite & ((means <= 0) | (means >= 1))):
            raise ValueError("a Beta component (finite concentration) needs a mean strictly "
                             f"inside (0, 1), got means={self.means!r}")
        object.__setattr__(self, "weights", tuple((weights / weights.sum()).tolist()))
        object.__setattr__(self, "means", tuple(means.tolist()))
        object.__setattr__(self, "concentrations", tuple(conc.tolist()))

    @classmethod
    def constant(cls, p: float) -> TaskMix:
        """Every task succeeds with the same chance ``p``: pass^k = p^k."""
        return cls((1.0,), (_validate.probability("p", p),), (math.inf,))

    @classmethod
    def beta(cls, mean: float, concentration: float) -> TaskMix:
        """One Beta component with the given mean (= pass^1, strictly inside (0, 1)) and
        finite concentration ``> 0``; :meth:`constant` is the point mass (infinite
        concentration)."""
        if not _validate._is_real(concentration) or not (
                0.0 < float(concentration) < math.inf):
            raise ValueError(f"concentration must be a finite number > 0 (TaskMix.constant "
                             f"for tasks that all succeed alike), got {concentration!r}")
        return cls((1.0,), (mean,), (float(concentration),))

    def _arrays(self):
        return (np.asarray(self.weights), np.asarray(self.means),
                np.asarray(self.concentrations))

    def _moment(self, k, *, of_failure: bool) -> np.ndarray:
        k = _validate.whole_array("k", k, minimum=0).astype(float)
        w, m, s = self._arrays()
        _validate.size("k values x components", k.size * w.size, limit=_validate.MAX_CELLS // 10)
        m = 1.0 - m if of_failure else m
        kk = k[..., None]
        with np.errstate(divide="ignore", invalid="ignore"):
            finite = np.isfinite(s)
            s_safe = np.where(finite, s, 1.0)
            a = np.where(finite, m * s_safe, 1.0)
            b = np.where(finite, (1.0 - m) * s_safe, 0.0)
            beta_part = _rising_ratio(k, a, b, s_safe)
            point_part = np.power(m, kk)  # 0 ** 0 is 1: E[p^0] = 1 for every component
        return np.sum(w * np.where(finite, beta_part, point_part), axis=-1)

    def pass_hat(self, k):
        r"""Closed form :math:`\text{pass}^k = \mathbb{E}[p^k]` (float, or array for array ``k``)."""
        value = self._moment(k, of_failure=False)
        return float(value) if np.ndim(value) == 0 else value

    def pass_at(self, k):
        r"""Closed form :math:`\text{pass@}k = 1 - \mathbb{E}[(1-p)^k]`."""
        value = 1.0 - self._moment(k, of_failure=True)
        return float(value) if np.ndim(value) == 0 else value

    @property
    def mean(self) -> float:
        """pass^1 = pass@1 = the mean per-task success chance."""
        return self.pass_hat(1)

    def task_variance(self, k) -> float:
        r"""Spread of :math:`p^k` over tasks, :math:`\mathbb{E}[p^{2k}] - \mathbb{E}[p^k]^2`."""
        k = _validate.whole("k", k, minimum=1)
        return float(self.pass_hat(2 * k) - self.pass_hat(k) ** 2)

    def sample(self, tasks: int, seed=0) -> np.ndarray:
        """Per-task success chances for ``tasks`` tasks drawn from the mix (seeded)."""
        tasks = _validate.whole("tasks", tasks, minimum=1, maximum=_validate.MAX_CELLS)
        rng = _validate.generator(seed)
        w, m, s = self._arrays()
        component = rng.choice(w.size, size=tasks, p=w)
        finite = np.isfinite(s)
        s_safe = np.where(finite, s, 1.0)  # a dummy draw for point masses, discarded below
        a = np.where(finite, m * s_safe, 1.0)[component]
        b = np.where(finite, (1.0 - m) * s_safe, 1.0)[component]
        drawn = rng.beta(a, b)  # always drawn, so the stream does not depend on the mix
        return np.where(finite[component], drawn, m[component])

    def simulate(self, tasks: int, trials: int, seed=0) -> np.ndarray:
        """A seeded tasks x trials boolean matrix: each task draws its ``p`` from the mix,
        then each trial succeeds independently with that ``p``. Never uses the closed forms."""
        tasks = _validate.whole("tasks", tasks, minimum=1)
        trials = _validate.whole("trials", trials, minimum=1)
        rng = _validate.generator(seed)
        _validate.size("tasks x trials", tasks * trials, limit=_validate.MAX_CELLS)
        p = self.sample(tasks, rng)
        return rng.random((tasks, trials)) < p[:, None]

    def _count_pmf(self, trials: int) -> np.ndarray:
        """P(c successes in ``trials`` trials of a random task), c = 0..trials."""
        # imported where used: scipy.stats and scipy.optimize would double the import
        # time of every kernel that imports the package
        from scipy.stats import betabinom, binom

        w, m, s = self._arrays()
        c = np.arange(trials + 1)
        pmf = np.zeros(trials + 1)
        for wj, mj, sj in zip(w, m, s):
            if math.isfinite(sj):
                pmf += wj * betabinom.pmf(c, trials, mj * sj, (1.0 - mj) * sj)
            else:
                pmf += wj * binom.pmf(c, trials, mj)
        return pmf


# --- fitting a mix to published values, and what any mix allows -------------------------

@dataclass(frozen=True)
class Fit:
    """A task mix fitted to published pass^1..pass^K, and how well it reproduces them."""

    mix: TaskMix
    family: str
    residuals: tuple

    def __post_init__(self):
        _validate.instance("mix", self.mix, TaskMix)
        _validate.text("family", self.family, choices=_FAMILIES)
        _validate.sequence("residuals", self.residuals, of=numbers.Real, what="numbers",
                           minimum=1)
        _validate.numeric_array("residuals", self.residuals, ndim=1)

    @property
    def largest_miss(self) -> float:
        """The largest ``|fitted - published|`` over the fitted values."""
        return float(np.max(np.abs(self.residuals)))


# Marked for the catalogs: the family's name is a text cell of extrapolation_summary's table.
#: τ-bench's two domains as a table's ``setting`` cell reads them: the data keep the
#: paper's labels ("tau-retail"), a Russian reader meets the lesson's «розница».
_SETTINGS = (NP_("setting", "tau-retail"), NP_("setting", "tau-airline"))

_FAMILIES = (N_("Beta"), N_("Beta + never-solved share"), N_("Beta + always-solved share"))


def _family_mix(family: str, x) -> TaskMix:
    mean, conc = float(expit(x[0])), float(np.exp(x[1]))
    if family == "Beta":
        return TaskMix.beta(mean, conc)
    share = float(expit(x[2]))
    atom = 0.0 if "never" in family else 1.0
    return TaskMix((1.0 - share, share), (mean, atom), (conc, math.inf))


def _family_jacobian(family: str, x, ks) -> np.ndarray:
    r"""d pass^k / d x of :func:`_family_mix`, exact: with :math:`a = m s`, the Beta part
    :math:`M_k = \prod_{j<k} (a + j) / (s + j)` has :math:`\partial \ln M_k / \partial a =
    \sum_{j<k} 1 / (a + j)` and :math:`\partial \ln M_k / \partial s = -\sum_{j<k} 1 / (s + j)`.
    """
    mean, conc = float(expit(x[0])), float(np.exp(x[1]))
    a = mean * conc
    j = np.arange(int(np.max(ks)))
    upto = np.arange(j.size)[None, :] < np.asarray(ks)[:, None]      # j < k, one row per k
    d_a = np.sum(np.where(upto, 1.0 / (a + j), 0.0), axis=1)
    d_s = -np.sum(np.where(upto, 1.0 / (conc + j), 0.0), axis=1)
    moment = TaskMix.beta(mean, conc).pass_hat(ks)
    columns = [moment * d_a * conc * mean * (1.0 - mean),                # d/dx0: a = m s
               moment * (d_a * a + d_s * conc)]                         # d/dx1: a, s scale
    if family == "Beta":
        return np.column_stack(columns)
    share = float(expit(x[2]))
    atom = 0.0 if "never" in family else 1.0
    return np.column_stack([(1.0 - share) * c for c in columns]
                           + [share * (1.0 - share) * (atom - moment)])


def _published_values(values) -> np.ndarray:
    values = np.atleast_1d(_validate.probability_array("values", values))
    if values.ndim != 1 or values.size < 2:
        raise ValueError("values must be pass^1, pass^2, ... (at least two of them)")
    return values


def fit_task_mix(values) -> Fit:
    r"""Fit a task mix to published :math:`\text{pass}^1, \dots, \text{pass}^K`.

    Three small families are tried by least squares on the moments
    :math:`\text{pass}^k = \mathbb{E}[p^k]`: one Beta (two parameters), and a Beta plus a
    share of tasks that never (or always) succeed (three, used only when :math:`K \ge 4` so
    the fit keeps a spare degree of freedom). The family that misses the published values
    least is returned. The fit is deterministic. A good fit to pass^1..pass^K does *not* pin
    down pass^k for larger k: see :func:`moment_bounds` for the range every mix allows.

    Parameters
    ----------
    values : sequence of float
        The published pass^1, pass^2, ..., pass^K in [0, 1], at least two, not rising.

    Returns
    -------
    Fit
        The fitted :class:`TaskMix` (``mix``), its ``family`` and its ``residuals``.

    Examples
    --------
    gpt-4o's published pass^1..pass^4 on tau-retail:

    >>> from reliability import passk
    >>> fit = passk.fit_task_mix([0.604, 0.491, 0.430, 0.383])
    >>> fit.family
    'Beta + never-solved share'
    >>> round(fit.mix.pass_hat(8), 3)
    0.291
    """
    values = _published_values(values)
    ks = np.arange(1, values.size + 1)
    from scipy.optimize import least_squares   # imported where used, as in _count_pmf

    best = None
    for family in _FAMILIES[: 1 if values.size < 4 else 3]:
        start = [float(logit(np.clip(values[0], 0.02, 0.98))), 0.0, -2.0][
            : 2 if family == "Beta" else 3]

        def residual(x, family=family):
            return _family_mix(family, x).pass_hat(ks) - values

        # The exact Jacobian and tight tolerances let the fit converge to its optimum to
        # rounding level, so the result does not depend on the machine's linear algebra
        # (finite differences and the default 1e-8 tolerances left ~1e-8 of it).
        result = least_squares(residual, start, method="trf", xtol=1e-14, ftol=1e-14,
                               gtol=1e-14, jac=lambda x, family=family: _family_jacobian(
                                   family, x, ks))
        fit = Fit(_family_mix(family, result.x), family,
                  tuple(float(r) for r in residual(result.x)))
        if best is None or np.sum(np.square(fit.residuals)) < np.sum(np.square(best.residuals)) - 1e-12:
            best = fit
    return best


def standard_error_bound(values, tasks: int) -> np.ndarray:
    r"""An upper bound on the standard error of each published pass^k from ``tasks`` tasks.

    A per-task estimate :math:`X` of pass^k lies in [0, 1], so
    :math:`\operatorname{Var} X \le \mathbb{E}[X^2] \le \mathbb{E}[X] (1 - \mathbb{E}[X])`
    and the mean over :math:`T` tasks has standard error at most

    .. math::

        \sqrt{\text{pass}^k (1 - \text{pass}^k) / T},

    whatever the number of trials.

    Parameters
    ----------
    values : sequence of float
        Published pass^k values, in [0, 1].
    tasks : int
        :math:`T`, the tasks each value was measured on, ``>= 1``.

    Returns
    -------
    numpy.ndarray
        One bound per value.

    Examples
    --------
    >>> from reliability import passk
    >>> passk.standard_error_bound([0.604, 0.491], 115).round(4)
    array([0.0456, 0.0466])
    """
    values = _published_values(values)
    tasks = _validate.whole("tasks", tasks, minimum=1)
    return np.sqrt(values * (1.0 - values) / tasks)


# Grid points of the linear programme (its columns).
_MAX_GRID = 100_001


def moment_bounds(values, k: int, *, tolerance=0.0005, grid: int = 1001) -> Interval:
    r"""The lowest and highest pass^k that any task set reproducing the values allows.

    Over every distribution of :math:`p` on [0, 1] whose :math:`\mathbb{E}[p^j]` lies
    within ``tolerance`` of ``values[j - 1]``: a linear programme over the weights
    :math:`q_i \ge 0` of a grid of :math:`p_i`, minimising (then maximising)
    :math:`\sum_i q_i p_i^k` subject to, for each :math:`j = 1, \dots, K`,

    .. math::

        \begin{aligned}
        \sum_i q_i &= 1,\\
        \Big|\sum_i q_i p_i^j - v_j\Big| &\le \text{tol}_j.
        \end{aligned}

    No family is assumed, so this is the honest range for an extrapolation.

    Parameters
    ----------
    values : sequence of float
        The published pass^1, ..., pass^K, in [0, 1].
    k : int
        The pass^k to bound, ``>= 1``.
    tolerance : float or sequence of float
        One for all values or one per value, ``>= 0`` (e.g. 0.0005 for values printed to
        three places, or a few standard errors).
    grid : int
        Points of the grid of :math:`p`.

    Returns
    -------
    Interval
        ``(low, high)``.

    Raises
    ------
    ValueError
        If no distribution reproduces the values within the tolerance.

    Examples
    --------
    >>> from reliability import passk
    >>> low, high = passk.moment_bounds([0.604, 0.491, 0.430, 0.383], 8)
    >>> round(low, 3), round(high, 3)
    (0.241, 0.276)
    """
    values = _published_values(values)
    k = _validate.whole("k", k, minimum=1)
    grid = _validate.whole("grid", grid, minimum=3, maximum=_MAX_GRID)
    if not _all_numbers(tolerance) or np.ndim(tolerance) > 1 or np.size(tolerance) not in (
            1, values.size):
        raise ValueError(f"tolerance must be >= 0 (one number or one per value), got {tolerance!r}")
    tol = np.broadcast_to(np.asarray(tolerance, dtype=float), values.shape)
    if np.any(~np.isfinite(tol)) or np.any(tol < 0):
        raise ValueError(f"tolerance must be >= 0 (one number or one per value), got {tolerance!r}")
    points = np.linspace(0.0, 1.0, grid)
    powers = points[None, :] ** np.arange(1, values.size + 1)[:, None]
    a_ub = np.vstack([powers, -powers])
    b_ub = np.concatenate([values + tol, -(values - tol)])
    from scipy.optimize import linprog   # imported where used, as in _count_pmf

    ends = []
    for sign in (1.0, -1.0):
        result = linprog(sign * points ** k, A_ub=a_ub, b_ub=b_ub,
                         A_eq=np.ones((1, grid)), b_eq=[1.0], bounds=(0, None),
                         method="highs")
        if result.status != 0:
            raise ValueError("no distribution of p on [0, 1] reproduces these values within "
                             f"tolerance={tolerance!r}; widen the tolerance")
        ends.append(float(np.clip(sign * result.fun, 0.0, 1.0)))
    return Interval(ends[0], ends[1])


def extrapolate(values, k: int = 8, *, tasks: int | None = None, rounding: float = 0.0005,
                spread: float = 2.0) -> dict:
    """pass^k beyond the published pass^1..pass^K, three ways.

    The :func:`fit_task_mix` result and its pass^k; the :func:`moment_bounds` band when each
    value is exact up to ``rounding``; and, when ``tasks`` is given, the band when each
    value may be off by ``spread`` times its :func:`standard_error_bound`. The second band is
    a sensitivity range, not a confidence interval: the errors of the K values are
    correlated and are here allowed to move independently.

    Parameters
    ----------
    values : sequence of float
        The published pass^1, ..., pass^K.
    k : int
        The pass^k wanted, ``> K``.
    tasks : int or None
        The tasks the values were measured on; ``None`` gives no sampling band.
    rounding : float
        How far a published value may sit from the exact one, ``>= 0``.
    spread : float
        Standard errors each value may move in the sampling band, ``>= 0``.

    Returns
    -------
    dict
        ``{"fit", "fitted", "rounding", "sampling"}``: the :class:`Fit`, its pass^k, and
        the two bands as :class:`~reliability.stats.Interval` (``sampling`` is ``None``
        without ``tasks``).

    Examples
    --------
    >>> from reliability import passk
    >>> found = passk.extrapolate([0.604, 0.491, 0.430, 0.383], 8, tasks=115)
    >>> round(found["fitted"], 3), round(found["rounding"].low, 3)
    (0.291, 0.241)
    >>> round(found["sampling"].low, 3), round(found["sampling"].high, 3)
    (0.092, 0.474)
    """
    values = _published_values(values)
    k = _validate.whole("k", k, minimum=1)
    rounding = _validate.real("rounding", rounding, minimum=0.0)
    spread = _validate.real("spread", spread, minimum=0.0)
    if tasks is not None:
        tasks = _validate.whole("tasks", tasks, minimum=1)
    fit = fit_task_mix(values)
    sampling = None
    if tasks is not None:
        tolerance = np.maximum(rounding, spread * standard_error_bound(values, tasks))
        sampling = moment_bounds(values, k, tolerance=tolerance)
    return {"fit": fit, "fitted": fit.mix.pass_hat(k),
            "rounding": moment_bounds(values, k, tolerance=rounding), "sampling": sampling}


def extrapolation_table(board, k: int = 8, *, tasks=None):
    """:func:`extrapolate` for every (setting, model) of a published table.

    Parameters
    ----------
    board : pandas.DataFrame
        The columns ``setting``, ``model``, ``k`` and ``fraction`` (:func:`published_table`
        adds the last two), one row per published pass^k, and for each (setting, model) the
        k run 1, 2, ... without a gap.
    k : int
        The pass^k wanted.
    tasks : dict or None
        A setting's task count; settings with one also get the two-standard-error band.

    Returns
    -------
    pandas.DataFrame
        One row per (setting, model) with its published ``values``, the :class:`Fit`
        ``fit``, ``pass^1``, ``fit misses by``, ``fitted pass^k``, ``band (rounding)`` and
        ``band (2 SE)`` (an :class:`~reliability.stats.Interval`, or None without a task
        count).

    Examples
    --------
    >>> import pandas as pd
    >>> from reliability import passk
    >>> board = pd.DataFrame({"setting": ["retail"] * 4, "model": ["gpt-4o"] * 4,
    ...                       "k": [1, 2, 3, 4], "fraction": [0.604, 0.491, 0.430, 0.383]})
    >>> row = passk.extrapolation_table(board, 8, tasks={"retail": 115}).iloc[0]
    >>> round(float(row["fitted pass^8"]), 3), round(row["band (rounding)"].high, 3)
    (0.291, 0.276)
    """
    import pandas as pd

    _validate.instance("board", board, pd.DataFrame)
    missing = {"setting", "model", "k", "fraction"} - set(board.columns)
    if missing:
        raise ValueError(f"board lacks the columns {sorted(missing)}")
    if board.empty:
        raise ValueError("board must hold at least one published pass^k row, got none")
    k = _validate.whole("k", k, minimum=1)
    tasks = {} if tasks is None else tasks
    if not isinstance(tasks, dict):
        raise ValueError(f"tasks must be None or a dict of task counts by setting, "
                         f"got {tasks!r}")
    rows = []
    for (setting, model), group in board.sort_values("k").groupby(["setting", "model"]):
        published = group["k"].to_numpy()
        if not np.array_equal(published, np.arange(1, published.size + 1)):
            raise ValueError(f"board's k for {model} on {setting} must run 1, 2, ... "
                             f"without a gap, got {published.tolist()}")
        values = group["fraction"].to_numpy(dtype=float)
        out = extrapolate(values, k, tasks=tasks.get(setting))
        rows.append({N_("setting"): setting, N_("model"): model, "values": values,
                     N_("fit"): out["fit"], "pass^1": float(values[0]),
                     N_("fit misses by"): out["fit"].largest_miss,
                     f"fitted pass^{k}": out["fitted"], N_("band (rounding)"): out["rounding"],
                     N_("band (2 SE)"): out["sampling"]})
    return pd.DataFrame(rows)


def extrapolation_summary(frame):
    """:func:`extrapolation_table`'s result as a table to read.

    Parameters
    ----------
    frame : pandas.DataFrame
        What :func:`extrapolation_table` returned.

    Returns
    -------
    pandas.DataFrame
        The fit's family by name and each band written "low to high" (or "no task count").

    Examples
    --------
    >>> import pandas as pd
    >>> from reliability import passk
    >>> board = pd.DataFrame({"setting": ["retail"] * 4, "model": ["gpt-4o"] * 4,
    ...                       "k": [1, 2, 3, 4], "fraction": [0.604, 0.491, 0.430, 0.383]})
    >>> table = passk.extrapolation_table(board, 8, tasks={"retail": 115})
    >>> passk.extrapolation_summary(table).iloc[0]["band (rounding)"]
    '0.241 to 0.276'
    """
    import pandas as pd

    _validate.instance("frame", frame, pd.DataFrame)
    if "fit" not in frame.columns or "values" not in frame.columns:
        raise ValueError("frame must be a result of extrapolation_table (it lacks the "
                         "fit or values column)")
    shown = frame.drop(columns=["values"]).copy()
    shown["fit"] = [gettext(fit.family) for fit in frame["fit"]]
    for column in ("band (rounding)", "band (2 SE)"):
        shown[column] = [_("{low:.3f} to {high:.3f}").format(low=b[0], high=b[1])
                         if b is not None else _("no task count") for b in shown[column]]
    return shown


# --- planning an evaluation -------------------------------------------------------------

def estimator_variance(mix: TaskMix, k: int, trials: int) -> float:
    r"""Variance of one task's unbiased pass^k estimate when the task is drawn from ``mix``.

    The estimate is :math:`X = \binom{c}{k}/\binom{n}{k}` for a task tried
    :math:`n` = ``trials`` times. Exact, by summing over the mixture's beta-binomial
    distribution of :math:`c`:

    .. math::

        \begin{aligned}
        \operatorname{Var}(X) &= \sum_c P(c) \, X(c)^2\\
        &\quad - \Big(\sum_c P(c) \, X(c)\Big)^2,
        \end{aligned}

    so it holds both sources of error, which tasks were drawn and how their trials fell.

    Parameters
    ----------
    mix : TaskMix
        The population of tasks.
    k : int
        In ``[1, trials]``.
    trials : int
        :math:`n`, ``>= 1``.

    Returns
    -------
    float

    Examples
    --------
    >>> from reliability import passk
    >>> round(passk.estimator_variance(passk.TaskMix.beta(0.6, 1.0), 4, 8), 4)
    0.1826
    """
    if not isinstance(mix, TaskMix):
        raise ValueError(f"mix must be a TaskMix, got {mix!r}")
    trials = _validate.whole("trials", trials, minimum=1, maximum=_validate.MAX_LOOP)
    k = _validate.whole("k", k, minimum=1, maximum=trials)
    pmf = mix._count_pmf(trials)
    estimate = pass_hat_k(trials, np.arange(trials + 1), k)
    mean = float(pmf @ estimate)
    return float(max(pmf @ estimate ** 2 - mean ** 2, 0.0))


def half_width(mix: TaskMix, k: int, tasks, trials: int, confidence: float = 0.95):
    r"""Normal-approximation half-width of the pass^k interval from ``tasks`` tasks.

    .. math::

        z \sqrt{\operatorname{Var}(X) / T}

    with :math:`\operatorname{Var}(X)` from :func:`estimator_variance` and :math:`z` from
    :func:`~reliability.stats.z_value`.

    Parameters
    ----------
    mix : TaskMix
        The population of tasks.
    k : int
        In ``[1, trials]``.
    tasks : int or array of int
        :math:`T`, ``>= 1``.
    trials : int
        Trials per task, ``>= 1``.
    confidence : float
        Strictly between 0 and 1.

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> from reliability import passk
    >>> round(passk.half_width(passk.TaskMix.beta(0.6, 1.0), 4, 100, 8), 4)
    0.0838
    """
    if not isinstance(mix, TaskMix):
        raise ValueError(f"mix must be a TaskMix, got {mix!r}")
    tasks = _validate.whole_array("tasks", tasks, minimum=1)
    value = z_value(confidence) * np.sqrt(estimator_variance(mix, k, trials) / tasks)
    return float(value) if np.ndim(value) == 0 else value


def plan(mix: TaskMix, k: int, width: float, trials, confidence: float = 0.95) -> dict:
    r"""Tasks needed for a pass^k interval of full ``width`` at each number of trials.

    .. math::

        T = \left\lceil \frac{(2 z)^2 \operatorname{Var}(X)}{\text{width}^2} \right\rceil

    More trials per task shrink only the trial part of the variance: past a few times ``k``
    the spread between tasks dominates and only more tasks help.

    Parameters
    ----------
    mix : TaskMix
        The population of tasks.
    k : int
        The pass^k to measure.
    width : float
        The full width wanted, strictly between 0 and 1.
    trials : int or sequence of int
        Trials per task to consider, each ``>= k``.
    confidence : float
        Strictly between 0 and 1.

    Returns
    -------
    dict
        ``{"trials", "tasks", "runs"}`` as int arrays (runs = tasks x trials, the bill).

    Examples
    --------
    >>> from reliability import passk
    >>> needed = passk.plan(passk.TaskMix.beta(0.6, 1.0), 4, 0.1, [4, 8, 16])
    >>> needed["tasks"].tolist(), needed["runs"].tolist()
    ([360, 281, 252], [1440, 2248, 4032])
    """
    if not isinstance(mix, TaskMix):
        raise ValueError(f"mix must be a TaskMix, got {mix!r}")
    width = _validate.open_probability("width", width, example="0.1")
    trials = _validate.whole_array("trials", np.atleast_1d(trials), minimum=1)
    _validate.whole("trials", int(trials.max()), maximum=_validate.MAX_LOOP)
    _validate.size("number of trials values", trials.size, limit=1_000)
    z = z_value(confidence)
    tasks = np.array([max(1, math.ceil((2 * z) ** 2 * estimator_variance(mix, k, int(n))
                                       / width ** 2)) for n in trials], dtype=np.int64)
    return {N_("trials"): trials, N_("tasks"): tasks, N_("runs"): tasks * trials}



def resamples_within(resamples: int, tasks: int, draws: int = 100_000) -> int:
    r"""Bootstrap resamples of ``tasks`` cases that stay within ``draws`` case draws.

    A bootstrap over tasks draws :math:`T` cases per resample, so :math:`B` resamples cost
    :math:`B\,T` draws. A page that precomputes many settings (a live explorer) keeps each
    one to a budget :math:`D` of draws, resampling fewer times than the text when
    :math:`B\,T > D`, never fewer than once:

    .. math::

        B' = \min\left(B,\ \max\left(1, \left\lfloor D / T \right\rfloor\right)\right)

    Parameters
    ----------
    resamples : int
        :math:`B`, the resamples wanted, ``>= 1``.
    tasks : int
        :math:`T`, the cases in one resample, ``>= 1``.
    draws : int
        :math:`D`, the case draws one setting may spend, ``>= 1``.

    Returns
    -------
    int
        :math:`B'`, equal to ``resamples`` when they fit the budget.

    Examples
    --------
    >>> from reliability import passk
    >>> passk.resamples_within(2000, 40), passk.resamples_within(2000, 200)
    (2000, 500)
    """
    resamples = _validate.whole("resamples", resamples, minimum=1)
    tasks = _validate.whole("tasks", tasks, minimum=1)
    draws = _validate.whole("draws", draws, minimum=1)
    return min(resamples, max(1, draws // tasks))

# --- published numbers ------------------------------------------------------------------

def published_table(table):
    """The pass^k rows of a table of published numbers, with ``k`` and ``fraction`` added.

    ``metric`` holds ``pass^k``; values in % are divided by 100. Every row keeps its paper,
    arXiv id, locator and confidence. The table given is not changed.

    Parameters
    ----------
    table : pandas.DataFrame or path
        A table such as ``reliability.datasets.load("tau_bench")``, or the path of such a
        CSV, with the columns ``paper``, ``arxiv``, ``where``, ``metric``, ``value`` and
        ``unit``.

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> from reliability import passk
    >>> from reliability.datasets import load
    >>> board = passk.published_table(load("tau_bench"))
    >>> sorted(int(k) for k in board.k.unique()), float(board.fraction.max())
    ([1, 2, 3, 4, 8], 0.692)
    """
    import pandas as pd

    if not isinstance(table, (pd.DataFrame, str, os.PathLike)) or (
            not isinstance(table, pd.DataFrame) and not os.path.isfile(table)):
        raise ValueError(f"table must be a DataFrame or the path of a CSV file, got {table!r}")
    where = "the table" if isinstance(table, pd.DataFrame) else f"the table at {table}"
    table = table if isinstance(table, pd.DataFrame) else pd.read_csv(table)
    missing = {"paper", "arxiv", "where", "metric", "value", "unit"} - set(table.columns)
    if missing:
        raise ValueError(f"{where} lacks the columns {sorted(missing)}")
    table = table[table["metric"].str.startswith("pass^")].copy()
    table["k"] = table["metric"].str.slice(5).astype(int)
    scale = np.where(table["unit"] == "%", 0.01, 1.0)
    table["fraction"] = table["value"].astype(float) * scale
    return table


# Headers and text cells of the chapter's tables that come from data or from a column
# named at run time, marked so they reach the catalogs (:func:`reliability.notebook.table`
# translates them at display): extrapolation_table's column at the chapter's k = 8, and
# the columns and text of the tau-bench rows the chapter shows.
_TABLE_LABELS = (
    N_("fitted pass^8"),
    N_("metric"), N_("value"), N_("unit"), N_("qualifier"), N_("where"),
    N_("about"), N_("about (the abstract: below 25)"),
    N_("Table 2 (gpt-4o, function-calling agent); the abstract gives only '<50%' of the "
       "tasks"),
    N_("abstract ('pass^8 <25% in retail'); the lesson says about 25%"),
)
