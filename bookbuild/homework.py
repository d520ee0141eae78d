"""The homework set: its problems, their points and their key, for the teacher only.

The student's notebook (``notebooks/homework.ipynb``, ``ru/notebooks/homework.ipynb``) is
written from :data:`PROBLEMS` by ``make notebooks`` (``bookbuild/launch_notebooks.py``
calls :func:`notebook`): the statements and one ``answer("hw1", ...)`` cell per problem,
never the answers. The key is each problem's ``answer`` function, computed from the
package when ``bookbuild/grade.py`` grades, so no answer is stored anywhere: not in the
book, not in the notebooks, not in the package a student installs. Reads the package
(``reliability.homework``); writes nothing itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import nbformat

from reliability.homework import PROBLEMS as WHAT

from .catalogs import translator

NAME = "homework.ipynb"


def N_(message: str) -> str:  # gettext's name: marked here, translated when written
    return message


@dataclass(frozen=True)
class Problem:
    """One homework problem: its chapter, statement, points and key (how the package
    computes its answer); ``whole`` and ``tolerance`` as in reliability.checks."""

    chapter: int
    statement: str
    points: int
    answer: Callable[[], float]
    whole: bool = False
    tolerance: float | None = None


def _all_turns_right() -> float:
    from reliability.workflow import Workflow
    return Workflow(steps=20, error=0.02, silent=0.0).success()


def _horizon_at_097() -> float:
    from reliability.workflow import horizon
    return horizon(0.97)


def _attempts_for_070() -> int:
    from reliability.workflow import Workflow
    for attempts in range(1, 100):
        workflow = Workflow(steps=10, error=0.3, silent=0.02, attempts=attempts)
        if workflow.success() >= 0.7:
            return attempts
    raise ValueError("no number of attempts up to 99 reaches 0.7")


def _pass_hat_2() -> float:
    from reliability.passk import pass_hat_k
    return float(pass_hat_k(8, 6, 2))


#: The homework, by label (the labels and what each number is live in
#: reliability.homework, which the student's notebook imports).
PROBLEMS: dict[str, Problem] = {
    "hw1": Problem(1, N_(
        "A support bot's conversation has 20 turns, and each turn goes wrong with chance "
        "2 % (no silent errors). What share of conversations has every turn right? "
        "Answer as a share between 0 and 1."), 2, _all_turns_right),
    "hw2": Problem(1, N_(
        "An agent's steps are right 97 % of the time. After how many steps has the "
        "chance that the whole chain is right fallen to one half?"), 2, _horizon_at_097),
    "hw3": Problem(2, N_(
        "A 10-step workflow's API fails visibly 30 % of the time and returns a wrong "
        "answer silently 2 % of the time. What is the fewest attempts per step that "
        "brings the whole workflow's success to at least 0.7?"), 3, _attempts_for_070,
        whole=True),
    "hw4": Problem(4, N_(
        "A task was run 8 times and succeeded 6 times. Estimate pass^2, the chance that "
        "2 fresh runs both succeed, without bias."), 3, _pass_hat_2),
}

assert set(PROBLEMS) == set(WHAT), "reliability.homework.PROBLEMS names the same ones"


def notebook(language: str = "en", *, first_cell: str) -> nbformat.NotebookNode:
    """The student's homework notebook in ``language``: no answers, no hints.
    ``first_cell`` opens it, as it opens every launch notebook (the install cell that
    :mod:`bookbuild.launch_notebooks` writes, which calls this)."""
    _ = translator(language, "homework")
    total = sum(p.points for p in PROBLEMS.values())
    cells = [
        nbformat.v4.new_code_cell(first_cell),
        nbformat.v4.new_markdown_cell("\n".join([
            _("# Homework"),
            "",
            _("Problems: {count}; points: {total}. Put your answer in place of `...` in "
              "the cell under each problem and run it: the cell saves your number and "
              "does not say whether it is right. Compute with the book's package, as "
              "the chapters do; a number within half a per cent of the answer earns all "
              "its points, within five per cent half of them.").format(
                count=len(PROBLEMS), total=total),
            "",
            _("**To hand in:** run all cells (Kernel, Restart Kernel and Run All "
              "Cells), check that every answer cell says your answer is saved, then "
              "save the notebook. On the class's JupyterHub leave it in this folder "
              "under your name "
              "(`homework-<your name>.ipynb`) or put it where your teacher says; from "
              "Colab, download it (File, Download, .ipynb) and send it. Your teacher "
              "runs it from the top in a fresh kernel, so a cell that stops with an "
              "error loses the answers below it."),
        ])),
        nbformat.v4.new_code_cell("\n".join(
            ["from reliability.homework import answer"]
            + (['from reliability.i18n import set_language', '', 'set_language("ru")']
               if language != "en" else []))),
    ]
    for number, (label, problem) in enumerate(PROBLEMS.items(), start=1):
        cells.append(nbformat.v4.new_markdown_cell(
            _("**Problem {number}** (points: {points}; chapter {chapter}). ").format(
                number=number, points=problem.points, chapter=problem.chapter)
            + _(problem.statement)))
        cells.append(nbformat.v4.new_code_cell(
            f'answer("{label}", ...)  # {_what(label, language)}'))
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata.update({
        "kernelspec": {"name": "python3", "display_name": "Python 3",
                       "language": "python"},
        "language_info": {"name": "python"}})
    for index, cell in enumerate(nb.cells):  # stable ids: an unchanged set, no diff
        cell["id"] = f"homework-{index}"
    return nb


def _what(label: str, language: str) -> str:
    from reliability import i18n
    with i18n.language(language):
        return i18n.gettext(WHAT[label])


