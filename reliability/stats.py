"""Confidence intervals for success rates and for the gap between two of them.

Every simulated or measured rate in the book is printed with an interval from here:

* :func:`wilson_interval` for one rate (Wilson 1927), the score interval that keeps its
  coverage near the nominal level even for small samples and rates near 0 or 1;
* :func:`newcombe_interval` for the difference of two independent rates (Newcombe 1998,
  method 10, the "hybrid score" interval built from the two Wilson intervals);
* :func:`mean_interval` for the mean of a few independent draws of a quantity that is
  not a rate (a simulated day's worker-hours), Student's t interval.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
# scipy.special's quantiles, which scipy.stats' norm.ppf and t.ppf call: the same
# numbers, without importing scipy.stats, which doubled the package's import time.
from scipy import special

from . import _validate

__all__ = ["Interval", "wilson_interval", "newcombe_interval", "binomial_standard_error",
           "z_value", "mean_interval"]


class Interval(NamedTuple):
    """A confidence interval: ``low`` and ``high`` are floats, or arrays when the
    function was given arrays. It is a tuple, so ``low, high = wilson_interval(...)``
    unpacks it; the fields name its ends.

    Examples
    --------
    >>> from reliability.stats import wilson_interval
    >>> found = wilson_interval(41, 50)
    >>> round(found.low, 3), round(found.high, 3)
    (0.692, 0.902)
    """

    low: object
    high: object


def z_value(confidence: float = 0.95) -> float:
    r"""The two-sided standard normal quantile for a confidence level.

    .. math::

        z = \Phi^{-1}\left(\tfrac{1}{2} + \tfrac{\text{confidence}}{2}\right)

    Parameters
    ----------
    confidence : float
        Strictly between 0 and 1.

    Returns
    -------
    float
        The :math:`z` that leaves :math:`(1 - \text{confidence})/2` in each tail.

    Examples
    --------
    >>> from reliability.stats import z_value
    >>> round(z_value(0.95), 3), round(z_value(0.9), 3)
    (1.96, 1.645)
    """
    confidence = _validate.confidence(confidence)
    return float(special.ndtri(0.5 + confidence / 2.0))


def _counts(successes, trials, *, successes_name="successes", trials_name="trials"):
    trials = _validate.whole_array(trials_name, trials, minimum=1)
    successes = _validate.whole_array(successes_name, successes, minimum=0)
    _validate.broadcast(f"{successes_name} and {trials_name}", successes, trials)
    if np.any(successes > trials):
        raise ValueError(
            f"{successes_name} must lie in [0, {trials_name}]; got {successes_name}="
            f"{successes.tolist()!r} with {trials_name}={trials.tolist()!r}")
    return successes, trials


def _as_output(value):
    """Plain floats for scalars (no ``np.float64(...)`` reprs in the book), arrays otherwise."""
    return float(value) if np.ndim(value) == 0 else value


def wilson_interval(successes, trials, confidence: float = 0.95):
    r"""Wilson score interval for a binomial rate.

    With :math:`\hat p = k/n` and :math:`z` the two-sided normal quantile
    (:func:`z_value`), the interval is :math:`\tilde p \pm h` with

    .. math::

        \begin{aligned}
        \tilde p &= \frac{\hat p + z^2/(2n)}{1 + z^2/n},\\
        h &= \frac{z}{1 + z^2/n} \sqrt{\frac{\hat p (1-\hat p)}{n} + \frac{z^2}{4n^2}},
        \end{aligned}

    clipped to [0, 1], starting at exactly 0 when :math:`k = 0` and ending at exactly 1
    when :math:`k = n`. It keeps its coverage near the nominal level even for small samples
    and rates near 0 or 1, where the normal (Wald) interval fails.

    Parameters
    ----------
    successes, trials : int or array of int
        ``0 <= successes <= trials``, ``trials >= 1``; arrays broadcast.
    confidence : float
        Strictly between 0 and 1.

    Returns
    -------
    Interval
        ``(low, high)``: floats, or arrays when arrays were given.

    References
    ----------
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical
        inference. *Journal of the American Statistical Association* 22(158), 209-212.

    Examples
    --------
    41 of 50 runs succeeded:

    >>> from reliability.stats import wilson_interval
    >>> low, high = wilson_interval(41, 50)
    >>> round(low, 3), round(high, 3)
    (0.692, 0.902)
    >>> wilson_interval(0, 20).low
    0.0
    """
    successes, trials = _counts(successes, trials)
    z = z_value(confidence)
    n = trials.astype(float)
    p_hat = successes / n
    denominator = 1.0 + z * z / n
    centre = (p_hat + z * z / (2.0 * n)) / denominator
    half_width = z * np.sqrt(p_hat * (1.0 - p_hat) / n + z * z / (4.0 * n * n)) / denominator
    # Clip the rounding error at the edges: the interval for k = 0 must start at exactly 0.
    low = np.clip(centre - half_width, 0.0, 1.0)
    high = np.clip(centre + half_width, 0.0, 1.0)
    low = np.where(successes == 0, 0.0, low)
    high = np.where(successes == trials, 1.0, high)
    return Interval(_as_output(low), _as_output(high))


def newcombe_interval(successes_a, trials_a, successes_b, trials_b, confidence: float = 0.95):
    r"""Newcombe's hybrid score interval for the difference ``rate_a - rate_b``.

    With Wilson intervals :math:`(l_a, u_a)` and :math:`(l_b, u_b)` and
    :math:`\delta = \hat p_a - \hat p_b` (Newcombe 1998, method 10), the interval is
    :math:`(L, U)` with

    .. math::

        \begin{aligned}
        L &= \delta - \sqrt{(\hat p_a - l_a)^2 + (u_b - \hat p_b)^2},\\
        U &= \delta + \sqrt{(u_a - \hat p_a)^2 + (\hat p_b - l_b)^2}.
        \end{aligned}

    The two samples must be independent. An interval that contains zero is a null result:
    the data cannot tell the two rates apart at this confidence.

    Parameters
    ----------
    successes_a, trials_a, successes_b, trials_b : int or array of int
        Each ``0 <= successes <= trials``, ``trials >= 1``; arrays broadcast.
    confidence : float
        Strictly between 0 and 1.

    Returns
    -------
    Interval
        ``(low, high)``: floats, or arrays when arrays were given.

    References
    ----------
    Newcombe, R. G. (1998). Interval estimation for the difference between independent
    proportions: comparison of eleven methods. *Statistics in Medicine* 17(8), 873-890.

    Examples
    --------
    A new version succeeded in 41 of 50 runs, the old one in 30 of 50:

    >>> from reliability.stats import newcombe_interval
    >>> low, high = newcombe_interval(41, 50, 30, 50)
    >>> round(low, 3), round(high, 3)
    (0.042, 0.381)
    """
    successes_a, trials_a = _counts(successes_a, trials_a,
                                    successes_name="successes_a", trials_name="trials_a")
    successes_b, trials_b = _counts(successes_b, trials_b,
                                    successes_name="successes_b", trials_name="trials_b")
    _validate.broadcast("successes_a and successes_b", successes_a, trials_a, successes_b,
                        trials_b)
    low_a, high_a = wilson_interval(successes_a, trials_a, confidence)
    low_b, high_b = wilson_interval(successes_b, trials_b, confidence)
    rate_a = successes_a / trials_a
    rate_b = successes_b / trials_b
    delta = rate_a - rate_b
    low = delta - np.sqrt((rate_a - low_a) ** 2 + (high_b - rate_b) ** 2)
    high = delta + np.sqrt((high_a - rate_a) ** 2 + (rate_b - low_b) ** 2)
    return Interval(_as_output(low), _as_output(high))


def binomial_standard_error(rate, runs):
    r"""Standard error of a simulated rate, :math:`\sqrt{p (1 - p) / n}`.

    The tests use it to say how far a simulated rate may sit from its closed form.

    Parameters
    ----------
    rate : float or array of float
        The rate :math:`p`, in [0, 1].
    runs : int or array of int
        The runs :math:`n` it is measured over, ``>= 1``; arrays broadcast.

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> from reliability.stats import binomial_standard_error
    >>> round(binomial_standard_error(0.9, 100), 4)
    0.03
    """
    rate = _validate.probability_array("rate", rate)
    runs = _validate.whole_array("runs", runs, minimum=1)
    _validate.broadcast("rate and runs", rate, runs)
    return _as_output(np.sqrt(rate * (1.0 - rate) / runs))


def mean_interval(values, confidence: float = 0.95, *, minimum=None) -> Interval:
    r"""Student's t interval for the mean of independent draws ``values``,

    .. math::

        \bar x \pm t_{n - 1,\, (1 + c)/2}\; s / \sqrt{n},

    with :math:`s` the sample standard deviation: for a quantity that is not a share of
    trials, such as a simulated day's worker-hours over a few seeded days.

    Parameters
    ----------
    values : sequence of float
        At least two finite numbers.
    confidence : float
        The level :math:`c`, strictly between 0 and 1.
    minimum : float or None
        The least value the quantity can take (0 for hours or a count), where the
        interval is cut; None: no such bound.

    Returns
    -------
    Interval
        ``low`` and ``high`` as floats.

    Examples
    --------
    >>> from reliability.stats import mean_interval
    >>> found = mean_interval([9.0, 10.0, 11.0])
    >>> round(found.low, 3), round(found.high, 3)
    (7.516, 12.484)
    """
    confidence = _validate.confidence(confidence)
    values = np.asarray(values, dtype=float) if isinstance(values, (list, tuple,
                                                                     np.ndarray)) else None
    if values is None or values.ndim != 1 or values.size < 2 or not np.all(
            np.isfinite(values)):
        raise ValueError(f"values must be a sequence of at least two finite numbers, "
                         f"got {values!r}")
    spread = special.stdtrit(values.size - 1, (1 + confidence) / 2) * values.std(
        ddof=1) / np.sqrt(values.size)
    mean = float(values.mean())
    low, high = mean - float(spread), mean + float(spread)
    if minimum is not None:
        minimum = _validate.real("minimum", minimum)
        low, high = max(low, minimum), max(high, minimum)
    return Interval(low, high)
