"""The homework set: its problems, their points and their key, for the teacher only.

The student's notebook (``notebooks/homework.ipynb``, ``ru/notebooks/homework.ipynb``) is
written from :data:`PROBLEMS` by ``make notebooks`` (``bookbuild/launch_notebooks.py``
calls :func:`notebook`): the statements and one ``answer("hw1", ...)`` cell per problem,
never the answers. The key is each problem's ``answer`` function, and each known wrong
method (:class:`Mistake`) a function too, computed from the package when
``bookbuild/grade.py`` grades, in the grader's process, so no answer is stored anywhere:
not in the book, not in the notebooks, not in the package a student installs. This file
is not in what a class pulls either (``python -m bookbuild grade handout``). Reads the
package (``reliability.homework``); writes nothing itself.
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
class Mistake:
    """A known wrong method: what it computes (from the package, as the key is) and the
    sentence the grader writes beside a number it gives, which scores nothing."""

    answer: Callable[[], float]
    message: str


@dataclass(frozen=True)
class Problem:
    """One homework problem: its chapter, statement, points and key (how the package
    computes its answer), the known wrong methods it tests; ``whole`` and ``tolerance``
    as in reliability.checks."""

    chapter: int
    statement: str
    points: int
    answer: Callable[[], float]
    mistakes: tuple[Mistake, ...] = ()
    whole: bool = False
    tolerance: float | None = None


# --- the key: each problem's answer, and each known mistake's number, from the package --

def _every_step_right(*, error=0.01, silent=0.02) -> float:
    from reliability.workflow import Workflow
    return Workflow(steps=25, error=error, silent=silent).success()


def _subtracted_rates() -> float:
    return 1.0 - 25 * (0.01 + 0.02)


def _with_retries(*, attempts=2, error=0.1, silent=0.01) -> float:
    from reliability.workflow import Workflow
    return Workflow(steps=15, error=error, silent=silent, attempts=attempts).success()


def _with_verifier(*, verifier=True) -> float:
    from reliability.workflow import Verifier, Workflow
    check = Verifier(recall=0.7, false_reject=0.04) if verifier else None
    return Workflow(steps=10, error=0.05, silent=0.05, attempts=3,
                    verifier=check).success()


def _two_tasks_pass_hat_4() -> float:
    from reliability.passk import pass_hat_k
    return (pass_hat_k(10, 9, 4) + pass_hat_k(10, 5, 4)) / 2


def _two_tasks_plug_in() -> float:
    return ((9 / 10) ** 4 + (5 / 10) ** 4) / 2


def _two_tasks_pooled() -> float:
    return ((9 + 5) / 20) ** 4


def _revision_rounds(rounds: int | None = 3) -> float:
    from reliability.selfcorrection import Revision, loop_accuracy, loop_limit
    revision = Revision(break_rate=0.1, fix_rate=0.2)
    if rounds is None:
        return loop_limit(revision, 0.9)
    return float(loop_accuracy(revision, 0.9, rounds))


def _two_turn(*, fidelity=0.92, compliance=0.96) -> float:
    from reliability.formattax import Generator
    return Generator(free_accuracy=0.7, constrained_compliance=compliance,
                     reformat_fidelity=fidelity).regime("two_turn").valid_and_right


def _most_calls(*, task_retries: int | None = 6) -> int:
    from reliability.harness import max_provider_calls
    return max_provider_calls(12, attempts_per_call=4, task_retries=task_retries)


def _router_saving(*, against_all_strong=False) -> float:
    from reliability.harness.ladder import cascade_cost
    new = cascade_cost(0.3, 0.05)
    return 1.0 - new if against_all_strong else 1.0 - new / cascade_cost(0.5, 0.05)


def _transient(*, retries=1, turns=5) -> float:
    from reliability.lab.agent import transient_success
    return transient_success(0.7, max_turns=turns, retries=retries)


def _wilson_low() -> float:
    from reliability.stats import wilson_interval
    return wilson_interval(41, 60).low


def _wald_low() -> float:
    from reliability.stats import binomial_standard_error, z_value
    return 41 / 60 - z_value(0.95) * binomial_standard_error(41 / 60, 60)


#: The homework, by label: one problem a chapter, none a copy of a chapter's exercise
#: or quiz (the labels and what each number is live in reliability.homework, which the
#: student's notebook imports; the statements, the key and the mistakes only here).
PROBLEMS: dict[str, Problem] = {
    "hw1": Problem(1, N_(
        "An agent's run has 25 steps. Each step is visibly wrong 1 % of the time and "
        "silently wrong 2 % of the time. What share of runs has every step right? "
        "Answer as a share between 0 and 1."), 2, _every_step_right, (
        Mistake(lambda: _every_step_right(error=0.0), N_(
            "counted only the silent errors: a visible error spoils a step too")),
        Mistake(_subtracted_rates, N_(
            "subtracted the error rates step by step: chances of independent steps "
            "multiply")))),
    "hw2": Problem(2, N_(
        "A 15-step workflow calls an API that fails visibly 10 % of the time and is "
        "silently wrong 1 % of the time. Each step may try twice. What is the chance "
        "that the whole workflow succeeds?"), 2, _with_retries, (
        Mistake(lambda: _with_retries(attempts=1), N_(
            "left out the second attempt")),
        Mistake(lambda: _with_retries(error=0.11, silent=0.0), N_(
            "let retries mend the silent errors too: a silent error is accepted, never "
            "retried")))),
    "hw3": Problem(3, N_(
        "A 10-step workflow's steps are visibly wrong 5 % and silently wrong 5 % of the "
        "time, with up to 3 attempts a step. A verifier rejects 70 % of silent errors "
        "and 4 % of right answers; a rejected attempt is tried again like a visible "
        "error. What is the workflow's success?"), 2, _with_verifier, (
        Mistake(lambda: _with_verifier(verifier=False), N_(
            "left out the verifier")),)),
    "hw4": Problem(4, N_(
        "An agent was run 10 times on each of two tasks: the first succeeded 9 times, "
        "the second 5 times. Estimate the agent's pass^4 over the two tasks without "
        "bias."), 2, _two_tasks_pass_hat_4, (
        Mistake(_two_tasks_plug_in, N_(
            "raised each task's success rate to the 4th power: that plug-in estimate is "
            "biased; count the 4-subsets of runs instead")),
        Mistake(_two_tasks_pooled, N_(
            "pooled the two tasks before raising to the 4th power: tasks differ, and "
            "pass^k averages over tasks")))),
    "hw5": Problem(5, N_(
        "A model is right on 90 % of questions before any revision. Each round of "
        "intrinsic revision breaks 10 % of right answers and fixes 20 % of wrong ones. "
        "What is its accuracy after three rounds?"), 2, _revision_rounds, (
        Mistake(lambda: _revision_rounds(None), N_(
            "gave the fixed point, where accuracy ends after many rounds, not after "
            "three")),
        Mistake(lambda: _revision_rounds(1), N_(
            "stopped after one round")))),
    "hw6": Problem(6, N_(
        "A model answers in free text and is right 70 % of the time. A second turn "
        "rewrites each free answer into the schema with constrained decoding: 96 % of "
        "the rewritten replies parse, and the rewrite keeps 92 % of right answers "
        "right. A strict parser drops the rest. What share of all questions get an "
        "answer that both parses and is right?"), 2, _two_turn, (
        Mistake(lambda: _two_turn(compliance=1.0), N_(
            "forgot the replies the parser drops")),
        Mistake(lambda: _two_turn(fidelity=1.0), N_(
            "forgot the right answers the rewrite spoils")))),
    "hw7": Problem(7, N_(
        "An agent's loop has 12 steps, one provider call a step. Each call may be "
        "tried up to 4 times, and the whole task has a shared pool of 6 retries. What "
        "is the most provider calls one task can make?"), 2, _most_calls, (
        Mistake(lambda: _most_calls(task_retries=None), N_(
            "ignored the task-wide pool of retries")),), whole=True),
    "hw8": Problem(8, N_(
        "The old router sent 50 % of requests to the strong model, the new one sends "
        "30 %; the rest go to a weak model that costs a twentieth as much a request. "
        "By what share of the old router's bill does the new router cut it?"), 2,
        _router_saving, (
            Mistake(lambda: _router_saving(against_all_strong=True), N_(
                "measured the saving against sending everything to the strong model, "
                "not against the old router")),
            Mistake(lambda: 0.5 - 0.3, N_(
                "subtracted the shares: a saving is a ratio of two costs")))),
    "hw9": Problem(9, N_(
        "In the lab, a tool call fails transiently 70 % of the time. An agent with no "
        "faults of its own has 5 turns, the last of which submits its answer, and "
        "needs two successful lookups before it; the harness retries each failed call "
        "once, silently. What is the agent's chance of success?"), 2, _transient, (
        Mistake(lambda: _transient(retries=0), N_(
            "left out the harness's silent retry")),
        Mistake(lambda: _transient(turns=6), N_(
            "gave the lookups all 5 turns: the last one submits the answer")))),
    "hw10": Problem(10, N_(
        "A leaderboard says a model solved 41 of 60 cases. What is the lower end of "
        "the 95 % Wilson interval for its success rate?"), 2, _wilson_low, (
        Mistake(_wald_low, N_(
            "used the normal (Wald) interval, not Wilson's")),)),
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
              "the chapters do, and write decimals with a point (0.25, not 0,25). A "
              "number within half a per cent of the answer earns all its points, within "
              "five per cent half of them; the number a known wrong method gives earns "
              "none.").format(
                count=len(PROBLEMS), total=total),
            "",
            _("**To hand in:** run all cells (Kernel, Restart Kernel and Run All "
              "Cells) and look down the whole notebook: no cell may show an error, and "
              "every answer cell must say your answer is saved. Your teacher runs the "
              "notebook from the top in a fresh kernel, so one cell that stops with an "
              "error stops every answer below it. Only then save the notebook. On the "
              "class's JupyterHub leave it in this folder under your name "
              "(`homework-<your name>.ipynb`) or put it where your teacher says; from "
              "Colab, download it (File, Download, .ipynb) and send it."),
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


