r"""Self-correction as a two-state Markov chain on {right, wrong}.

One round of revision turns a right answer wrong with probability :math:`a` (the break
rate) and a wrong answer right with probability :math:`b` (the fix rate):

.. math::

    M = \begin{pmatrix} 1 - a & a \\ b & 1 - b \end{pmatrix}, \qquad
    \lambda = 1 - a - b .

Starting from accuracy :math:`p_0`, intrinsic revision (the model revises every answer,
every round) gives after :math:`k` rounds

.. math::

    p_k = \pi + (p_0 - \pi)\,\lambda^k, \qquad \pi = \frac{b}{a + b},

so accuracy drifts geometrically towards the fixed point :math:`\pi`, whatever it started
from. Revision helps only when :math:`p_0 < \pi`, i.e. when it fixes more wrong answers
than it breaks right ones: :math:`(1 - p_0)\,b > p_0\,a`.

An :class:`Arbiter` looks at the answer before each round. It sends a wrong answer back
with probability :math:`d` (its recall) and a right one with probability :math:`f` (its
false rejection); an answer it accepts is final. The open (not yet accepted) answers then
evolve by :math:`Q = \operatorname{diag}(f, d)\,M`, and with :math:`u_0 = (p_0, 1 - p_0)`,

.. math::

    p_k = u_0 Q^k e_R + (1 - f) \sum_{j<k} u_0 Q^j e_R ,

the answers still open and right plus those accepted right. An oracle that stops on a
right answer is :math:`d = 1, f = 0`; intrinsic revision is :math:`d = f = 1`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate
from .stats import Interval, wilson_interval

__all__ = ["Revision", "Arbiter", "ORACLE", "LoopSimulation", "loop_accuracy",
           "loop_limit", "expected_revisions", "simulate_loop", "fit_fates", "fit_rounds"]


@dataclass(frozen=True)
class Revision:
    """Per-round transition rates of a revision step.

    break_rate : ``a = P(right -> wrong)`` in one round.
    fix_rate : ``b = P(wrong -> right)`` in one round.
    """

    break_rate: float
    fix_rate: float

    def __post_init__(self):
        object.__setattr__(self, "break_rate",
                           _validate.probability("break_rate", self.break_rate))
        object.__setattr__(self, "fix_rate", _validate.probability("fix_rate", self.fix_rate))

    @property
    def contraction(self) -> float:
        """``lambda = 1 - a - b``: the share of the distance to the fixed point that is
        left after one round (negative values make accuracy overshoot and oscillate)."""
        return 1.0 - self.break_rate - self.fix_rate

    @property
    def fixed_point(self) -> float | None:
        """``pi = b / (a + b)``, the accuracy revision converges to; ``None`` when
        ``a = b = 0`` (nothing ever changes, so every accuracy is a fixed point)."""
        total = self.break_rate + self.fix_rate
        return None if total == 0.0 else self.fix_rate / total

    def matrix(self) -> np.ndarray:
        """The one-round transition matrix ``M`` (rows: from right, from wrong)."""
        a, b = self.break_rate, self.fix_rate
        return np.array([[1.0 - a, a], [b, 1.0 - b]])

    def net_change(self, accuracy: float) -> float:
        """Change in accuracy over one round, ``(1 - p) b - p a``."""
        p = _validate.probability("accuracy", accuracy)
        return float((1.0 - p) * self.fix_rate - p * self.break_rate)

    def accuracy(self, initial: float, rounds):
        """Closed form ``p_k = pi + (p_0 - pi) lambda^k`` for each ``k`` in ``rounds``.

        Returns a float for a scalar ``rounds``, an array otherwise.
        """
        p0 = _validate.probability("initial", initial)
        ks = _validate.whole_array("rounds", rounds, minimum=0)
        pi = self.fixed_point
        if pi is None:
            out = np.full(ks.shape, p0)
        else:
            out = pi + (p0 - pi) * self.contraction ** ks.astype(float)
        return float(out) if out.ndim == 0 else out

    def fates(self, initial: float, rounds: int) -> dict[str, float]:
        r"""Shares of all questions by where they started and ended after ``rounds``:
        ``right_kept``, ``right_to_wrong``, ``wrong_to_right``, ``wrong_kept``.

        With :math:`s = a + b`, the :math:`k`-round flips are
        :math:`P(R \to W) = a (1 - \lambda^k) / s` and :math:`P(W \to R) = b (1 - \lambda^k) / s`.
        A wrong answer swapped for another wrong one counts as ``wrong_kept``: the chain
        has two states and cannot tell them apart.
        """
        p0 = _validate.probability("initial", initial)
        k = _validate.whole("rounds", rounds, minimum=0)
        if k <= _EXACT_POWER:
            mk = np.linalg.matrix_power(self.matrix(), k)
        else:
            mk = self._closed_power(k)
        return {"right_kept": float(p0 * mk[0, 0]), "right_to_wrong": float(p0 * mk[0, 1]),
                "wrong_to_right": float((1 - p0) * mk[1, 0]),
                "wrong_kept": float((1 - p0) * mk[1, 1])}

    def _closed_power(self, k: int) -> np.ndarray:
        """``M^k`` from the closed form: each row sums to 1 however large ``k`` is (repeated
        squaring drifts, e.g. rows summing to 1.02 at 10^15 rounds)."""
        a, b = self.break_rate, self.fix_rate
        s = a + b
        if s == 0.0:
            return np.eye(2)
        lam = self.contraction
        # lambda = -1 (a = b = 1) alternates exactly; otherwise |lambda| < 1 and
        # lambda^k underflows quietly to 0 for large k.
        decay = (1.0 if k % 2 == 0 else -1.0) if lam == -1.0 else lam ** k
        right_to_wrong, wrong_to_right = a * (1.0 - decay) / s, b * (1.0 - decay) / s
        return np.array([[1.0 - right_to_wrong, right_to_wrong],
                         [wrong_to_right, 1.0 - wrong_to_right]])


# Up to this many rounds ``fates`` keeps the exact matrix product (the chapters' numbers);
# beyond it the closed form, which cannot drift.
_EXACT_POWER = 64


@dataclass(frozen=True)
class Arbiter:
    """A check outside the model, consulted before each round of revision.

    recall : ``d``, probability that it sends a wrong answer back for revision.
    false_reject : ``f``, probability that it sends a right answer back (and so exposes
        it to the break rate). An accepted answer is final.
    """

    recall: float = 1.0
    false_reject: float = 0.0

    def __post_init__(self):
        object.__setattr__(self, "recall", _validate.probability("recall", self.recall))
        object.__setattr__(self, "false_reject",
                           _validate.probability("false_reject", self.false_reject))


#: Huang et al.'s oracle setting: stop as soon as the answer is right.
ORACLE = Arbiter(recall=1.0, false_reject=0.0)

# Intrinsic revision is an "arbiter" that sends every answer back, right or wrong.
_ALWAYS_REVISE = Arbiter(recall=1.0, false_reject=1.0)


def _check(revision, arbiter):
    if not isinstance(revision, Revision):
        raise ValueError(f"revision must be a Revision, got {revision!r}")
    if arbiter is None:
        return _ALWAYS_REVISE
    if not isinstance(arbiter, Arbiter):
        raise ValueError(f"arbiter must be an Arbiter or None, got {arbiter!r}")
    return arbiter


def _open_chain(revision: Revision, arbiter: Arbiter) -> np.ndarray:
    """``Q = diag(f, d) M``: one round for answers not yet accepted."""
    return np.diag([arbiter.false_reject, arbiter.recall]) @ revision.matrix()


def _open_states(revision, initial, arbiter, last_round):
    """``u_j = u_0 Q^j`` for ``j = 0..last_round`` (rows), exact matrix products."""
    q = _open_chain(revision, arbiter)
    states = np.empty((last_round + 1, 2))
    states[0] = (initial, 1.0 - initial)
    for j in range(last_round):
        states[j + 1] = states[j] @ q
    return states


def loop_accuracy(revision: Revision, initial: float, rounds, arbiter: Arbiter | None = None):
    r"""Accuracy after ``k`` rounds for each ``k`` in ``rounds``.

    Without an arbiter this is :meth:`Revision.accuracy`; with one it is
    :math:`u_0 Q^k e_R + (1 - f) \sum_{j<k} u_0 Q^j e_R` (see the module docstring).
    """
    arbiter = _check(revision, arbiter)
    p0 = _validate.probability("initial", initial)
    ks = _validate.whole_array("rounds", rounds, minimum=0)
    _validate.whole("rounds", int(ks.max(initial=0)), minimum=0, maximum=_validate.MAX_LOOP)
    states = _open_states(revision, p0, arbiter, int(ks.max(initial=0)))
    accepted_right = np.concatenate(
        ([0.0], np.cumsum((1.0 - arbiter.false_reject) * states[:-1, 0])))
    out = states[ks, 0] + accepted_right[ks]
    return float(out) if out.ndim == 0 else out


def loop_limit(revision: Revision, initial: float, arbiter: Arbiter | None = None) -> float:
    r"""Accuracy after unboundedly many rounds.

    Intrinsic: the fixed point :math:`\pi`. With an arbiter:
    :math:`(1 - f)\, u_0 (I - Q)^{-1} e_R`, the probability of being accepted right. An
    oracle with :math:`b > 0` reaches 1; one with recall :math:`d` and :math:`f = 0` reaches
    :math:`p_0 + (1 - p_0)\, d b / (1 - d + d b)`.
    """
    p0 = _validate.probability("initial", initial)
    arbiter = _check(revision, arbiter)
    if arbiter == _ALWAYS_REVISE:
        pi = revision.fixed_point
        if pi is None:
            return p0
        if revision.contraction == -1.0 and p0 != pi:
            raise ValueError(
                f"revision with break_rate = fix_rate = 1 flips every answer each round, so "
                f"accuracy alternates between {p0:g} and {1.0 - p0:g} for ever and has no limit; "
                "use loop_accuracy with a finite number of rounds")
        return pi
    q = _open_chain(revision, arbiter)
    system = np.eye(2) - q
    if np.linalg.cond(system) > 1e6:
        # Nearly singular (tiny rates): 1 - d (1 - b) loses b to cancellation, so build
        # I - Q without subtracting (the limit 1.0000088 came out for b = 1e-12).
        a, b = revision.break_rate, revision.fix_rate
        f, d = arbiter.false_reject, arbiter.recall
        system = np.array([[(1.0 - f) + f * a, -f * a], [-d * b, (1.0 - d) + d * b]])
    try:
        visits = np.linalg.solve(system.T, np.array([p0, 1.0 - p0]))
    except np.linalg.LinAlgError:
        raise ValueError(
            "this arbiter and revision never settle (some answers stay open forever); "
            "use loop_accuracy with a finite number of rounds") from None
    return float((1.0 - arbiter.false_reject) * visits[0])


def expected_revisions(revision: Revision, initial: float, rounds: int,
                       arbiter: Arbiter | None = None) -> float:
    r"""Expected revision calls per question over ``rounds`` rounds,
    :math:`\sum_{j<k} u_0 Q^j (f, d)^\top`; intrinsic revision spends exactly ``rounds``."""
    arbiter = _check(revision, arbiter)
    p0 = _validate.probability("initial", initial)
    k = _validate.whole("rounds", rounds, minimum=0, maximum=_validate.MAX_LOOP)
    states = _open_states(revision, p0, arbiter, k)
    return float(np.sum(states[:-1] @ np.array([arbiter.false_reject, arbiter.recall])))


@dataclass(frozen=True)
class LoopSimulation:
    """Counts from :func:`simulate_loop`: right answers after each round (index 0 is
    before any revision) and revision calls spent."""

    questions: int
    right: np.ndarray
    revisions: int

    def __post_init__(self):
        questions = _validate.whole("questions", self.questions, minimum=1)
        _validate.numeric_array("right", self.right, kind="whole", ndim=1, minimum=0)
        if np.any(np.asarray(self.right) > questions):
            raise ValueError(f"right must hold counts in [0, questions={questions}], "
                             f"got {self.right!r}")
        _validate.whole("revisions", self.revisions, minimum=0)

    @property
    def accuracy(self) -> np.ndarray:
        return self.right / self.questions

    def interval(self, confidence: float = 0.95) -> Interval:
        """Wilson interval for the accuracy after each round (two arrays)."""
        return wilson_interval(self.right, self.questions, confidence)


#: Most rounds :func:`simulate_loop` runs: a quarter of a second for one question, and
#: far past the point where :func:`loop_limit` says the loop has settled.
MAX_ROUNDS = 10_000


def simulate_loop(revision: Revision, initial: float, rounds: int, *, questions: int = 2000,
                  seed=0, arbiter: Arbiter | None = None) -> LoopSimulation:
    """Run the revision loop question by question with a seeded generator.

    Each question starts right with probability ``initial``. Each round, every open
    question draws one uniform for the arbiter's verdict and one for the revision; an
    accepted question is closed for good. The closed forms are not used. ``rounds`` lies
    in [0, ``MAX_ROUNDS``] (10,000); rounds x questions is at most 10^8.
    """
    arbiter = _check(revision, arbiter)
    p0 = _validate.probability("initial", initial)
    k = _validate.whole("rounds", rounds, minimum=0)
    n = _validate.whole("questions", questions, minimum=1)
    rng = _validate.generator(seed)
    _validate.size("rounds x questions", max(k, 1) * n, limit=_validate.MAX_CELLS)
    # Each round is a Python step over every question (about 25 microseconds even for
    # one): MAX_ROUNDS bounds the loop's time as the cell limit bounds its memory.
    _validate.whole("rounds", k, minimum=0, maximum=MAX_ROUNDS)
    right = rng.random(n) < p0
    open_ = np.ones(n, dtype=bool)
    counts = [int(right.sum())]
    spent = 0
    for _ in range(k):
        verdict, change = rng.random(n), rng.random(n)
        sent_back = open_ & np.where(right, verdict < arbiter.false_reject,
                                     verdict < arbiter.recall)
        open_ &= sent_back
        flips = sent_back & np.where(right, change < revision.break_rate,
                                     change < revision.fix_rate)
        right ^= flips
        spent += int(sent_back.sum())
        counts.append(int(right.sum()))
    return LoopSimulation(questions=n, right=np.array(counts), revisions=spent)


def fit_fates(initial: float, right_to_wrong: float, wrong_to_right: float,
              rounds: int = 2) -> Revision:
    r"""Per-round rates that reproduce published ``rounds``-round fates exactly.

    Inputs are shares of all questions. With :math:`A = P(R \to W)` and
    :math:`B = P(W \to R)` over :math:`k` rounds (conditional on the starting state),
    :math:`A + B = 1 - \lambda^k`, so :math:`\lambda = (1 - A - B)^{1/k}` (the
    non-oscillating root) and :math:`a = A (1 - \lambda) / (1 - \lambda^k)`, likewise
    :math:`b`.
    """
    p0 = _validate.open_probability("initial", initial, example="0.759")
    rw = _validate.probability("right_to_wrong", right_to_wrong)
    wr = _validate.probability("wrong_to_right", wrong_to_right)
    k = _validate.whole("rounds", rounds, minimum=1)
    if rw > p0 or wr > 1 - p0:
        raise ValueError(
            f"right_to_wrong must be at most initial ({p0}) and wrong_to_right at most "
            f"1 - initial ({1 - p0:.6g}); got {rw} and {wr}")
    flip_right, flip_wrong = rw / p0, wr / (1 - p0)
    if flip_right + flip_wrong == 0.0:
        return Revision(0.0, 0.0)
    if flip_right + flip_wrong > 1.0:
        raise ValueError("the fates flip more than a non-oscillating two-state chain can "
                         f"(P(R->W) + P(W->R) = {flip_right + flip_wrong:.4f} > 1)")
    lam = (1.0 - flip_right - flip_wrong) ** (1.0 / k)
    scale = (1.0 - lam) / (1.0 - lam ** k)
    return Revision(break_rate=min(1.0, flip_right * scale), fix_rate=min(1.0, flip_wrong * scale))


def fit_rounds(before: float, round1: float, round2: float) -> Revision:
    r"""Per-round rates that reproduce a published trajectory ``p_0, p_1, p_2`` exactly.

    From :math:`p_k = \pi + (p_0 - \pi) \lambda^k`:
    :math:`\lambda = (p_2 - p_1)/(p_1 - p_0)`, :math:`\pi = (p_1 - \lambda p_0)/(1 - \lambda)`,
    :math:`a = (1 - \pi)(1 - \lambda)` and :math:`b = \pi (1 - \lambda)`. Raises when no
    two-state chain passes through the three points (e.g. :math:`p_1 = p_0 \ne p_2`).
    """
    p0 = _validate.probability("before", before)
    p1 = _validate.probability("round1", round1)
    p2 = _validate.probability("round2", round2)
    if p1 == p0:
        if p2 == p1:
            return Revision(0.0, 0.0)
        raise ValueError(f"round1 equals before ({p0}) but round2 differs ({p2}): no "
                         "two-state chain moves in round 2 after standing still in round 1")
    lam = (p2 - p1) / (p1 - p0)
    if not -1.0 <= lam < 1.0:
        raise ValueError(f"the trajectory {p0}, {p1}, {p2} needs lambda = {lam:.4g}, "
                         "outside [-1, 1): no two-state chain fits it")
    pi = (p1 - lam * p0) / (1.0 - lam)
    a, b = (1.0 - pi) * (1.0 - lam), pi * (1.0 - lam)
    if not (-1e-12 <= a <= 1 + 1e-12 and -1e-12 <= b <= 1 + 1e-12):
        raise ValueError(f"the trajectory {p0}, {p1}, {p2} needs rates a = {a:.4g}, "
                         f"b = {b:.4g}, outside [0, 1]")
    return Revision(break_rate=float(np.clip(a, 0, 1)), fix_rate=float(np.clip(b, 0, 1)))
