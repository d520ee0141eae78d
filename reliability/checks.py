"""Checks a student can call on an exercise's answer: right, close (with a hint), or not
yet (with a hint), and never the answer itself.

>>> from reliability.checks import check
>>> check("ch4-ex1", 0.5).verdict
Not yet. pass^k counts the k-subsets of trials that are all successes, out of all k-subsets.
'wrong'

The answers are computed here from the package, the way the chapter's solution computes
them, so a check never disagrees with the book. A number within half a per cent of the
answer is right (the rounding a reader may do); within five per cent, or right but as a
share for a percentage (or the reverse), it is close.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from . import _validate
from .i18n import N_, _

__all__ = ["EXERCISES", "check", "judge"]

#: How near a typed number must be: relative to the answer.
RIGHT = 0.005
CLOSE = 0.05


@dataclass(frozen=True)
class Exercise:
    """One checkable answer: how to compute it, whether it is a whole number, and the
    hint shown when the answer is not yet right (it must not give the answer away)."""

    answer: Callable[[], float]
    hint: str
    #: What the number is, for the launch notebook's check cell.
    what: str = ""
    whole: bool = False
    #: An absolute tolerance where a relative one is too loose (a probability near 1);
    #: close is ten times as far.
    tolerance: float | None = None


def _bad_turns() -> float:
    from .workflow import Workflow
    return 1.0 - Workflow(steps=15, error=0.01, silent=0.0).success()


def _accuracy_for_100_steps() -> float:
    return 0.9 ** (1 / 100)


def _horizon_at_098() -> float:
    from .workflow import horizon
    return horizon(0.98)


def _attempts_for_085() -> int:
    from .workflow import Workflow
    for attempts in range(1, 100):
        if Workflow(error=0.2, silent=0.01, attempts=attempts).success() >= 0.85:
            return attempts
    raise ValueError("no number of attempts up to 99 reaches 0.85")


def _ceiling_flaky() -> float:
    from .workflow import Workflow, ceiling
    return ceiling(Workflow(error=0.2, silent=0.01))


def _pass_hat_3() -> float:
    from .passk import pass_hat_k
    return float(pass_hat_k(10, 5, 3))


def _pass_at_3() -> float:
    from .passk import pass_at_k
    return float(pass_at_k(10, 5, 3))


#: The exercises a student can check, by the chapter's label (a second answer of the
#: same exercise has a suffix).
EXERCISES: dict[str, Exercise] = {
    "ch1-ex1": Exercise(_bad_turns, N_(
        "Work out the chance that all fifteen turns are right, then take what is left."),
        what=N_("the share of conversations with a bad turn")),
    "ch1-ex2": Exercise(_accuracy_for_100_steps, N_(
        "Solve p to the power 100 = 0.9 for p: a hundredth root."), tolerance=6e-5,
        what=N_("the accuracy per step")),
    "ch1-ex3": Exercise(_horizon_at_098, N_(
        "The horizon is ln 0.5 / ln p, with p = 1 - error - silent."),
        what=N_("the new horizon, in steps")),
    "ch2-ex1": Exercise(_attempts_for_085, N_(
        "Try one attempt more at a time and stop at the first count whose success reaches "
        "the target."), whole=True, what=N_("attempts per step")),
    "ch2-ex1-ceiling": Exercise(_ceiling_flaky, N_(
        "With unlimited attempts a step ends on an accepted answer; which share of those "
        "is right?"), what=N_("the most it can ever reach")),
    "ch4-ex1": Exercise(_pass_hat_3, N_(
        "pass^k counts the k-subsets of trials that are all successes, out of all "
        "k-subsets."), what=N_("pass^3")),
    "ch4-ex1-at": Exercise(_pass_at_3, N_(
        "pass@k is one minus the share of k-subsets that are all failures."),
        what=N_("pass@3")),
}


@dataclass(frozen=True)
class Verdict:
    """What :func:`check` found: ``right``, ``close``, ``wrong`` or ``missing``, and the
    sentence it printed."""

    verdict: str
    message: str

    def __str__(self) -> str:
        return self.message


def check(exercise: str, answer, *, quiet: bool = False) -> Verdict:
    """Check ``answer`` to ``exercise`` (its label, such as ``"ch1-ex1"``) and print
    whether it is right, close or not yet, with a hint; the answer is never shown."""
    _validate.text("exercise", exercise, choices=tuple(EXERCISES))
    quiet = _validate.flag("quiet", quiet)
    task = EXERCISES[exercise]
    if answer is Ellipsis or answer is None:
        return _say("missing", _("Replace ... with your answer, then run the cell again."),
                    quiet)
    value = _validate.real("answer", answer)
    verdict = judge(value, float(task.answer()), whole=task.whole,
                    tolerance=task.tolerance)
    if verdict == "right":
        return _say("right", _("Right."), quiet)
    if verdict == "units":
        return _say("close", _("Close: the number is right but in other units; a share "
                               "and a percentage differ by a factor of 100."), quiet)
    if verdict == "close":
        return _say("close", _("Close, but not there: {hint}").format(hint=_(task.hint)),
                    quiet)
    return _say("wrong", _("Not yet. {hint}").format(hint=_(task.hint)), quiet)


def judge(value: float, expected: float, *, whole: bool = False,
          tolerance: float | None = None) -> str:
    """How near ``value`` is to ``expected``: ``right``, ``close``, ``units`` (right but a
    share for a percentage, or the reverse) or ``wrong``; the rules of the module's
    docstring, shared with the teacher's homework grader (bookbuild/grade.py)."""
    value = _validate.real("value", value)
    expected = _validate.real("expected", expected)
    whole = _validate.flag("whole", whole)
    if tolerance is not None:
        tolerance = _validate.real("tolerance", tolerance, minimum=0.0)
    if whole:
        gap = abs(value - expected)
        return "right" if gap == 0 else "close" if gap <= 1 else "wrong"
    if tolerance is not None:
        gap = abs(value - expected)
        return ("right" if gap <= tolerance else "close"
                if gap <= 10 * tolerance else "wrong")
    return _compare(value, expected)


def _compare(value: float, expected: float) -> str:
    def near(x: float, within: float) -> bool:
        return math.isclose(x, expected, rel_tol=within, abs_tol=1e-12)
    if near(value, RIGHT):
        return "right"
    if near(value / 100, RIGHT) or near(value * 100, RIGHT):
        return "units"
    return "close" if near(value, CLOSE) else "wrong"


def _say(verdict: str, message: str, quiet: bool) -> Verdict:
    if not quiet:
        print(message)
    return Verdict(verdict, message)
