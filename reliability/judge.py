r"""A model judge that shares the generator's blind spots.

:mod:`reliability.workflow` treats a verifier's misses as independent of the generator's
errors. A second model used as the judge is not independent: it tends to miss the same
things the generator got wrong. Model that with a shared blind spot :math:`\rho`: that
share of the generator's silent errors falls where the judge is blind too (its recall
there is 0), while on the rest its recall stays :math:`d`. Per attempt the judge then
rejects a wrong answer with the effective recall

.. math::  d_\rho = (1 - \rho)\,d,

so :math:`r = e + c f + w d_\rho`, :math:`a = c (1 - f)`, :math:`b = w (1 - d_\rho)`, a step
is right with :math:`a S_A` and a run of :math:`n` steps with :math:`(a S_A)^n`, exactly as
for an independent verifier of recall :math:`d_\rho`. Of the wrong answers the judge
passes, the share that lay in the shared blind spot is
:math:`\rho / (1 - d_\rho)`. At :math:`\rho = 1` the judge catches nothing and only its
false rejections remain.

:func:`simulate` draws the blind spot attempt by attempt (it does not use the effective
recall), so its agreement with the closed forms checks the derivation.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from . import _validate
from .stats import wilson_interval
from .workflow import Verifier, Workflow

__all__ = ["effective_recall", "judged_workflow", "lift", "blind_share_of_passes",
           "simulate"]

# Runs simulated at a time (times attempts): keeps the uniforms of one block near 1 MB.
_BLOCK_CELLS = 1 << 17


def _workflow(base) -> Workflow:
    if not isinstance(base, Workflow):
        raise ValueError(f"base must be a reliability.Workflow, got {base!r}")
    return base


def effective_recall(recall: float, shared: float) -> float:
    r"""The judge's recall on all silent errors, :math:`(1 - \rho)\,d`.

    recall : the judge's recall ``d`` on the errors it can see, in [0, 1].
    shared : the share ``rho`` of silent errors it is blind to as well, in [0, 1].
    """
    recall = _validate.probability("recall", recall)
    shared = _validate.probability("shared", shared)
    return float((1.0 - shared) * recall)


def judged_workflow(base: Workflow, recall: float, false_reject: float,
                    shared: float) -> Workflow:
    """``base`` with a judge of recall ``recall`` on what it can see, false rejection
    ``false_reject`` and shared blind spot ``shared``: a workflow whose verifier has the
    effective recall, so every closed form of :class:`Workflow` applies."""
    base = _workflow(base)
    false_reject = _validate.probability("false_reject", false_reject)
    verifier = Verifier(recall=effective_recall(recall, shared), false_reject=false_reject)
    return replace(base, verifier=verifier)


def lift(base: Workflow, recall: float, false_reject: float, shared: float) -> float:
    """Closed form: run success with the judge minus run success with no check at all
    (``base`` without its verifier). Negative when false rejections cost more than the
    judge catches."""
    judged = judged_workflow(base, recall, false_reject, shared)
    return float(judged.success() - replace(judged, verifier=None).success())


def blind_share_of_passes(recall: float, shared: float) -> float:
    r"""Of the silent errors the judge lets through, the share in the shared blind spot:
    :math:`\rho / (1 - (1 - \rho) d)`. NaN when the judge lets none through
    (:math:`d = 1`, :math:`\rho = 0`)."""
    passed = 1.0 - effective_recall(recall, shared)
    return float(shared / passed) if passed > 0.0 else math.nan


def simulate(base: Workflow, recall: float, false_reject: float, shared: float, *,
             runs: int, seed) -> dict:
    """Seeded, vectorised simulation of ``base`` with a judge that shares its blind spot.

    Every attempt draws its kind (visible error, silent error, right), whether a silent
    error lies in the shared blind spot (probability ``shared``), and the judge's verdict:
    recall 0 in the blind spot, ``recall`` elsewhere, ``false_reject`` on right answers.
    A run stops at a step that used all its attempts without an accepted answer.

    Returns plain numbers: ``runs``, ``successes``, ``wrong`` (finished with an accepted
    wrong step), ``gave_up``, ``rate`` with its 95 % Wilson bounds ``low`` and ``high``,
    and the accepted wrong answers of the steps reached, split into ``blind_passes`` (in
    the shared blind spot) and ``seen_passes`` (the judge could have caught them).
    """
    base = _workflow(base)
    recall = _validate.probability("recall", recall)
    false_reject = _validate.probability("false_reject", false_reject)
    shared = _validate.probability("shared", shared)
    runs = _validate.whole("runs", runs, minimum=1)
    rng = _validate.generator(seed)
    attempts, steps = base.attempts, base.steps
    _validate.size("runs x steps x attempts", runs * steps * attempts,
                   limit=_validate.MAX_CELLS)
    block = max(1, _BLOCK_CELLS // attempts)
    totals = dict(successes=0, gave_up=0, blind_passes=0, seen_passes=0)
    for start in range(0, runs, block):
        part = _simulate_block(base, recall, false_reject, shared,
                               min(block, runs - start), rng)
        for key in totals:
            totals[key] += part[key]
    low, high = wilson_interval(totals["successes"], runs)
    return {"runs": runs, "successes": totals["successes"],
            "wrong": runs - totals["successes"] - totals["gave_up"],
            "gave_up": totals["gave_up"], "rate": totals["successes"] / runs,
            "low": float(low), "high": float(high),
            "blind_passes": totals["blind_passes"], "seen_passes": totals["seen_passes"]}


def _simulate_block(base, recall, false_reject, shared, runs, rng) -> dict:
    e, w, attempts = base.error, base.silent, base.attempts
    alive = np.ones(runs, dtype=bool)      # no step has given up yet
    right_so_far = np.ones(runs, dtype=bool)
    blind_passes = seen_passes = 0
    rows = np.arange(runs)
    for _ in range(base.steps):
        kind, spot, verdict = rng.random((3, runs, attempts))
        silent = (kind >= e) & (kind < e + w)
        right = kind >= e + w
        blind = silent & (spot < shared)
        seen = silent & ~blind
        rejected = (right & (verdict < false_reject)) | (seen & (verdict < recall))
        accepted = ~(kind < e) & ~rejected
        took = accepted.any(axis=1)
        first = accepted.argmax(axis=1)     # the first accepted attempt ends the step
        blind_passes += int(np.sum(alive & took & blind[rows, first]))
        seen_passes += int(np.sum(alive & took & seen[rows, first]))
        right_so_far &= took & right[rows, first]
        alive &= took
    return {"successes": int(np.sum(right_so_far)), "gave_up": int(np.sum(~alive)),
            "blind_passes": blind_passes, "seen_passes": seen_passes}
