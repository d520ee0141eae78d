"""Homework answers: the cell a student runs under each homework problem records their
number for the teacher's grader, and says nothing about whether it is right.

>>> from reliability.homework import answer
>>> answer("hw2", 0.5)
Saved: your answer to problem hw2 (the workflow's success) is 0.5.

The key is not here: the teacher's grader (``bookbuild/grade.py``) computes each answer
from the package in its own process when it grades, and reads only the answers a
student's run recorded; neither it nor ``bookbuild/homework.py`` is in what a student
installs or pulls (``python -m bookbuild grade handout`` makes the branch a class pulls
without them).
"""

from __future__ import annotations

from . import _validate
from .i18n import N_, _
from .numbers import number

__all__ = ["PROBLEMS", "MIME", "answer"]

#: What each homework problem's number is, by its label (the statements and the key are
#: the teacher's: bookbuild/homework.py, which no student's copy holds).
PROBLEMS: dict[str, str] = {
    "hw1": N_("the share of runs with every step right"),
    "hw2": N_("the workflow's success"),
    "hw3": N_("the workflow's success with the verifier"),
    "hw4": N_("pass^4"),
    "hw5": N_("the accuracy after three rounds"),
    "hw6": N_("the share valid and right"),
    "hw7": N_("the most provider calls"),
    "hw8": N_("the share of the old bill saved"),
    "hw9": N_("the chance of success"),
    "hw10": N_("the lower end of the interval"),
}

#: The output's media type that carries the answer to the grader; JupyterLab, Colab and
#: the static page show the bundle's plain text instead.
MIME = "application/vnd.reliability.homework+json"


def answer(problem: str, value=..., *more) -> None:
    """Record ``value`` as the answer to ``problem`` (its label, such as ``"hw1"``): it
    is printed in words, and carried in the cell's output for the teacher's grader.
    It returns nothing, so the cell shows no bare number beside the sentence.

    A value that is not one finite number (text, a list, a decimal comma, which Python
    reads as two arguments: ``answer("hw1", 0,67)``) is not saved: the cell says why, in
    the student's language, and does not stop, so a notebook run from the top keeps
    every other answer. Only a label that is not a problem's raises ``ValueError``.
    """
    _validate.text("problem", problem, choices=tuple(PROBLEMS))
    if (value is Ellipsis or value is None) and not more:
        print(_("Replace ... with your answer, then run the cell again."))
        return
    if more:
        comma = all(_validate._is_real(v) for v in (value, *more))
        _refuse(problem, "comma" if comma else "many", _(
            "Not saved: Python reads a decimal comma as two numbers. Write the answer to "
            "problem {problem} with a decimal point (0.25, not 0,25), then run the cell "
            "again.").format(problem=problem) if comma else _(
            "Not saved: give problem {problem} one number, then run the cell "
            "again.").format(problem=problem))
        return
    try:
        value = _validate.real("value", value)
    except ValueError:
        _refuse(problem, "type", _(
            "Not saved: the answer to problem {problem} must be one finite number, "
            "written without quotes (0.25, not \"0.25\"), got {kind}. Change it, then "
            "run the cell again.").format(problem=problem, kind=type(value).__name__))
        return
    message = _("Saved: your answer to problem {problem} ({what}) is {value}.").format(
        problem=problem, what=_(PROBLEMS[problem]), value=number(value))
    _show(message, {"problem": problem, "value": value})


def _refuse(problem: str, why: str, message: str) -> None:
    """Say why nothing was saved, and tell the grader the same (``why``: ``comma``,
    ``many`` or ``type``), so its reason names the slip."""
    _show(message, {"problem": problem, "refused": why})


def _show(message: str, record: dict) -> None:
    shell = _shell()
    if shell is None:
        print(message)
    else:
        from IPython.display import display
        display({"text/plain": message, MIME: record}, raw=True)


def _shell():
    try:
        from IPython import get_ipython
    except ImportError:  # the package runs without IPython too
        return None
    return get_ipython()
