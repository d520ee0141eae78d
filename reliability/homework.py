"""Homework answers: the cell a student runs under each homework problem records their
number for the teacher's grader, and says nothing about whether it is right.

>>> from reliability.homework import answer
>>> answer("hw2", 22.5)
Saved: your answer to problem hw2 (the horizon, in steps) is 22.5.

The key is not here: the teacher's grader (``bookbuild/grade.py`` in the repository)
computes each answer from the package when it grades, so no answer is stored anywhere a
student's copy of the package could show it.
"""

from __future__ import annotations

from . import _validate
from .i18n import N_, _
from .numbers import number

__all__ = ["PROBLEMS", "MIME", "answer"]

#: What each homework problem's number is, by its label (the statements and the key are
#: the teacher's: bookbuild/homework.py).
PROBLEMS: dict[str, str] = {
    "hw1": N_("the share of conversations with every turn right"),
    "hw2": N_("the horizon, in steps"),
    "hw3": N_("attempts per step"),
    "hw4": N_("pass^2"),
}

#: The output's media type that carries the answer to the grader; JupyterLab, Colab and
#: the static page show the bundle's plain text instead.
MIME = "application/vnd.reliability.homework+json"


def answer(problem: str, value) -> None:
    """Record ``value`` as the answer to ``problem`` (its label, such as ``"hw1"``): it
    is printed in words, and carried in the cell's output for the teacher's grader.
    It returns nothing, so the cell shows no bare number beside the sentence."""
    _validate.text("problem", problem, choices=tuple(PROBLEMS))
    if value is Ellipsis or value is None:
        print(_("Replace ... with your answer, then run the cell again."))
        return
    value = _validate.real("value", value)
    message = _("Saved: your answer to problem {problem} ({what}) is {value}.").format(
        problem=problem, what=_(PROBLEMS[problem]), value=number(value))
    shell = _shell()
    if shell is None:
        print(message)
    else:
        from IPython.display import display
        display({"text/plain": message, MIME: {"problem": problem, "value": value}},
                raw=True)


def _shell():
    try:
        from IPython import get_ipython
    except ImportError:  # the package runs without IPython too
        return None
    return get_ipython()
