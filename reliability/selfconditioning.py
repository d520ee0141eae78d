r"""Self-conditioning: a step errs more often when it can see earlier errors.

At step :math:`t` the model sees an error-free context worth :math:`L` steps (the task
statement, the plan, worked examples) and the last :math:`n_t` steps of its own history,
:math:`n_t = \min(N, t - 1)` with a sliding window of :math:`N` steps (:math:`n_t = t - 1`
with the full history). With :math:`C_t` errors among those visible steps,

.. math::

    e_t = e_0 + g\,\frac{C_t}{L + n_t}, \qquad e_0 + g \le 1 .

Because :math:`e_t` is linear in :math:`C_t`, the expected error rate
:math:`m_t = E[e_t]` obeys the exact recursion

.. math::

    m_t = e_0 + \frac{g}{L + n_t} \sum_{s \in \text{visible}(t)} m_s ,

and its fixed points are closed forms:

.. math::

    m^\ast_{\text{full}} = \frac{e_0}{1 - g} \quad (t \to \infty), \qquad
    m^\ast_N = \frac{e_0}{1 - g\,N / (L + N)} \le e_0 + g\,\frac{N}{L + N}.

The window bounds the error rate because it caps how much of the context the model's
own record can fill; with :math:`L = 0` both fixed points coincide and the window only
shortens the memory. With the full history and :math:`L = 0` the trajectory itself has a
closed form, :math:`m_t = m^\ast - g^2 m^\ast\,\Gamma(t - 1 + g) / (\Gamma(1 + g)\,\Gamma(t))`
for :math:`t \ge 2`: a power law, so the drift towards :math:`m^\ast` is slow.

A restart from a checkpoint reloads the saved history, errors included, so the next step
sees the same :math:`C_t` and errs at the same rate: it does not cure self-conditioning.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln

from . import _validate
from .stats import Interval, wilson_interval

__all__ = ["SelfConditioning", "TrajectorySimulation"]


@dataclass(frozen=True)
class TrajectorySimulation:
    """Per-step error indicators of :meth:`SelfConditioning.simulate` (runs x steps)."""

    errors: np.ndarray

    def __post_init__(self):
        _validate.numeric_array("errors", self.errors, kind="bool", ndim=2)
        if self.errors.shape[0] < 1:
            raise ValueError(f"errors must hold at least one run, got shape {self.errors.shape}")

    @property
    def runs(self) -> int:
        return int(self.errors.shape[0])

    def accuracy(self) -> np.ndarray:
        """Share of runs whose step ``t`` was right, for each step."""
        return 1.0 - self.errors.mean(axis=0)

    def interval(self, confidence: float = 0.95) -> Interval:
        """Wilson interval for each step's accuracy (two arrays)."""
        right = self.runs - self.errors.sum(axis=0)
        return wilson_interval(right, self.runs, confidence)


@dataclass(frozen=True)
class SelfConditioning:
    """A long trajectory whose step error grows with the visible share of errors.

    base_error : ``e_0``, a step's error probability with a clean history.
    gain : ``g``, how much a history made only of errors adds (``e_0 + g <= 1``).
    clean_context : ``L``, error-free context counted in steps (always visible).
    window : ``N`` last steps kept in the context, or ``None`` for the full history.
    """

    base_error: float = 0.02
    gain: float = 0.8
    clean_context: int = 10
    window: int | None = None

    def __post_init__(self):
        e0 = _validate.probability("base_error", self.base_error)
        g = _validate.probability("gain", self.gain)
        if e0 + g > 1.0 + 1e-12:
            raise ValueError(f"base_error + gain must be at most 1 (an error probability), "
                             f"got {e0!r} + {g!r}")
        object.__setattr__(self, "base_error", e0)
        object.__setattr__(self, "gain", g)
        object.__setattr__(self, "clean_context",
                           _validate.whole("clean_context", self.clean_context, minimum=0))
        if self.window is not None:
            object.__setattr__(self, "window", _validate.whole("window", self.window, minimum=1))

    def _visible(self, t: int) -> int:
        """How many of the ``t - 1`` earlier steps step ``t`` sees (``t`` counts from 1)."""
        return t - 1 if self.window is None else min(self.window, t - 1)

    def error_rate(self, visible_errors, visible_steps):
        """``e_0 + g C / (L + n)`` for ``C`` errors among ``n`` visible steps (arrays broadcast)."""
        c = _validate.whole_array("visible_errors", visible_errors)
        n = _validate.whole_array("visible_steps", visible_steps)
        _validate.broadcast("visible_errors and visible_steps", c, n)
        if np.any(c > n):
            raise ValueError("visible_errors must be at most visible_steps")
        denominator = self.clean_context + n
        share = np.divide(c, denominator, out=np.zeros(np.broadcast(c, n).shape),
                          where=denominator > 0)
        out = self.base_error + self.gain * share
        return float(out) if out.ndim == 0 else out

    def expected_error(self, steps: int) -> np.ndarray:
        """``m_t`` for ``t = 1..steps`` by the exact mean recursion (module docstring)."""
        steps = _validate.whole("steps", steps, minimum=1, maximum=_validate.MAX_LOOP)
        m = np.empty(steps)
        running = np.zeros(steps + 1)  # running[t] = m_1 + ... + m_t
        for t in range(1, steps + 1):
            n = self._visible(t)
            denominator = self.clean_context + n
            seen = running[t - 1] - running[t - 1 - n]
            m[t - 1] = self.base_error + (self.gain * seen / denominator if denominator else 0.0)
            running[t] = running[t - 1] + m[t - 1]
        return m

    def expected_accuracy(self, steps: int) -> np.ndarray:
        """``1 - m_t`` for ``t = 1..steps``."""
        return 1.0 - self.expected_error(steps)

    def fixed_point(self) -> float:
        """Long-run error rate: ``e_0 / (1 - g N / (L + N))`` with a window,
        ``e_0 / (1 - g)`` with the full history (``1`` if that would exceed it).
        With ``e_0 = 0`` no error ever starts, so the long-run rate is 0 for every gain."""
        if self.base_error == 0.0:
            return 0.0
        if self.window is None:
            weight = 1.0
        else:
            weight = self.window / (self.clean_context + self.window)
        if self.gain * weight >= 1.0:
            return 1.0
        return min(1.0, self.base_error / (1.0 - self.gain * weight))

    def full_history_closed_form(self, steps: int) -> np.ndarray:
        r"""``m_t`` in closed form for the full history with ``L = 0`` (``g < 1``):
        :math:`m^\ast - g^2 m^\ast \Gamma(t-1+g)/(\Gamma(1+g)\Gamma(t))`, and :math:`m_1 = e_0`."""
        if self.window is not None or self.clean_context != 0 or self.gain >= 1.0:
            raise ValueError("the closed form needs window=None, clean_context=0 and gain < 1")
        steps = _validate.whole("steps", steps, minimum=1, maximum=_validate.MAX_CELLS)
        g, star = self.gain, self.base_error / (1.0 - self.gain)
        t = np.arange(1, steps + 1, dtype=float)
        out = np.full(steps, self.base_error)
        later = t >= 2
        ratio = np.exp(gammaln(t[later] - 1 + g) - gammaln(1 + g) - gammaln(t[later]))
        out[later] = star - g * g * star * ratio
        return out

    def accuracy_horizon(self, target: float, max_steps: int = 10_000) -> int | None:
        """First step whose expected accuracy ``1 - m_t`` falls below ``target``, or
        ``None`` if it does not within ``max_steps``."""
        target = _validate.probability("target", target)
        max_steps = _validate.whole("max_steps", max_steps, minimum=1, maximum=_validate.MAX_LOOP)
        below = np.flatnonzero(self.expected_accuracy(max_steps) < target)
        return int(below[0]) + 1 if below.size else None

    def simulate(self, steps: int, runs: int = 2000, seed=0, *, history=None,
                 clear_history: bool = False) -> TrajectorySimulation:
        """Run ``runs`` trajectories of ``steps`` steps with a seeded generator.

        ``history`` (runs x h booleans, ``True`` = error) is a saved checkpoint the runs
        resume from: it is visible exactly as if those steps had just been executed.
        ``clear_history=True`` resumes with an empty history instead (a clean context).
        Returns only the new steps. The expectation recursion is not used.
        """
        steps = _validate.whole("steps", steps, minimum=1, maximum=_validate.MAX_LOOP)
        runs = _validate.whole("runs", runs, minimum=1)
        clear_history = _validate.flag("clear_history", clear_history)
        rng = _validate.generator(seed)
        if history is None or clear_history:
            past = np.zeros((runs, 0), dtype=bool)
        else:
            past = np.asarray(history) if not isinstance(history, (str, bytes)) else None
            if past is None or past.dtype != bool or past.ndim != 2 or past.shape[0] != runs:
                raise ValueError(f"history must be a boolean array of shape (runs={runs}, h), "
                                 f"got {history!r}")
        # A record of runs x (h + steps) booleans and one of int64 counts are held at once.
        _validate.size("runs x (history + steps)", runs * (past.shape[1] + steps),
                       limit=_validate.MAX_CELLS)
        record = np.concatenate([past, np.zeros((runs, steps), dtype=bool)], axis=1)
        start = past.shape[1]
        # Running error counts make each step's visible count an O(1) difference.
        cumulative = np.zeros((runs, start + steps + 1), dtype=np.int64)
        cumulative[:, 1:start + 1] = np.cumsum(past, axis=1)
        for j in range(start, start + steps):
            n = j if self.window is None else min(self.window, j)
            seen = cumulative[:, j] - cumulative[:, j - n]
            denominator = self.clean_context + n
            rate = self.base_error + (self.gain * seen / denominator if denominator else 0.0)
            record[:, j] = rng.random(runs) < rate
            cumulative[:, j + 1] = cumulative[:, j] + record[:, j]
        return TrajectorySimulation(errors=record[:, start:])
