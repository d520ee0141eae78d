"""Grade a folder of submitted homework notebooks into one CSV of scores.

    .venv/bin/python -m bookbuild grade SUBMISSIONS --out scores.csv [--language ru]

Each ``*.ipynb`` in SUBMISSIONS is one student (the file name without ``.ipynb``, less a
leading ``homework-``). Each is run from the top in a fresh kernel with a time limit
(bookbuild/run.py), its ``answer("hw1", ...)`` outputs are read, and each answer is
scored against the key, which bookbuild/homework.py computes from the package now: right
earns the problem's points, close half of them (reliability.checks' rules), wrong or
missing none. A notebook that is not a notebook, stops with an error or runs too long
keeps the answers it saved before that and gets zeros for the rest, with the reason; it
never stops the run. The CSV has one row per student and problem, then the student's
total: student, problem, answer, verdict, points, out_of, reason.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient.exceptions import CellTimeoutError

from reliability.checks import judge
from reliability.homework import MIME

from .catalogs import translator
from .homework import PROBLEMS
from .run import ROOT, execute

COLUMNS = ("student", "problem", "answer", "verdict", "points", "out_of", "reason")
#: A close answer's share of the problem's points.
CLOSE_SHARE = 0.5
TOTAL = "total"


@dataclass(frozen=True)
class Submission:
    """What one student's notebook gave: the answers it saved, by problem, and why it
    stopped early (empty when it ran to the end)."""

    student: str
    answers: dict
    reason: str = ""


def student_name(path: Path) -> str:
    stem = path.stem
    named = stem.startswith("homework-") and stem != "homework-"
    return stem[len("homework-"):] if named else stem


def run(path: Path, *, timeout: int = 60, wall: float = 120,
        language: str = "en") -> Submission:
    """Run one submission in a fresh kernel, in a temporary folder, and read its answers."""
    _ = translator(language, "grade")
    student = student_name(path)
    try:  # not validated strictly: Colab and other editors add fields of their own
        cells = nbformat.read(str(path), as_version=4).cells
    except Exception:  # an empty file, or not a notebook at all: nothing to run
        cells = None
    if not isinstance(cells, list):
        return Submission(student, {}, _("not a readable notebook"))
    reason = ""
    with tempfile.TemporaryDirectory(prefix="grade-") as folder:
        output = Path(folder) / "executed.ipynb"
        kernel_path = os.pathsep.join(filter(None, [str(ROOT),
                                                    os.environ.get("PYTHONPATH")]))
        try:
            execute(path, output, cwd=Path(folder), timeout=timeout, wall=wall, tries=1,
                    widgets=False, environment={"PYTHONPATH": kernel_path})
        except CellTimeoutError:  # before TimeoutError, which it is a kind of
            reason = _("a cell ran past {seconds} s").format(seconds=timeout)
        except TimeoutError:
            reason = _("did not finish in {seconds} s").format(seconds=wall)
        except Exception as error:  # papermill's error names the cell and the exception
            cell = getattr(error, "exec_count", None)
            name = getattr(error, "ename", type(error).__name__)
            reason = (_("stopped with {error} in cell [{cell}]").format(error=name,
                                                                         cell=cell)
                      if cell is not None else _("could not run: {error}").format(
                          error=name))
        answers = saved_answers(nbformat.read(str(output), as_version=4)) \
            if output.exists() else {}
    return Submission(student, answers, reason)


def saved_answers(nb) -> dict:
    """The answers a run saved, by problem; a later answer to one problem replaces an
    earlier one, as the student's last run of the cell would."""
    answers = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            saved = output.get("data", {}).get(MIME)
            if isinstance(saved, dict) and saved.get("problem") in PROBLEMS:
                try:
                    value = float(saved.get("value"))
                except (TypeError, ValueError):
                    continue
                if math.isfinite(value):
                    answers[saved["problem"]] = value
    return answers


def score(submission: Submission, key: dict, language: str = "en") -> list[dict]:
    """One row per problem, then the total."""
    _ = translator(language, "grade")
    rows, total = [], 0.0
    for label, problem in PROBLEMS.items():
        value = submission.answers.get(label)
        if value is None:
            verdict, points = "missing", 0.0
            reason = submission.reason or _("no answer saved")
        else:
            found = judge(value, key[label], whole=problem.whole,
                          tolerance=problem.tolerance)
            verdict = "close" if found == "units" else found
            share = {"right": 1.0, "close": CLOSE_SHARE}.get(verdict, 0.0)
            points = share * problem.points
            reason = _("a share for a percentage, or the reverse") if found == "units" \
                else ""
        total += points
        rows.append({"student": submission.student, "problem": label,
                     "answer": "" if value is None else repr(value), "verdict": verdict,
                     "points": f"{points:g}", "out_of": problem.points, "reason": reason})
    rows.append({"student": submission.student, "problem": TOTAL, "answer": "",
                 "verdict": "", "points": f"{total:g}",
                 "out_of": sum(p.points for p in PROBLEMS.values()),
                 "reason": submission.reason})
    return rows


def grade(folder: Path, out: Path, *, jobs: int = 2, timeout: int = 60,
          wall: float = 120, language: str = "en") -> list[dict]:
    """Grade every notebook in ``folder`` into the CSV ``out``; return its rows."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"folder must be a folder of submitted notebooks, got {folder}")
    if language not in ("en", "ru"):
        raise ValueError(f"language must be 'en' or 'ru', not {language!r}")
    if not (isinstance(jobs, int) and jobs >= 1):
        raise ValueError(f"jobs must be a whole number of at least 1, got {jobs!r}")
    paths = sorted(folder.glob("*.ipynb"))
    key = {label: float(problem.answer()) for label, problem in PROBLEMS.items()}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        submissions = list(pool.map(
            lambda p: run(p, timeout=timeout, wall=wall, language=language), paths))
    rows = [row for s in submissions for row in score(s, key, language)]
    with open(out, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the submitted notebooks (*.ipynb)")
    parser.add_argument("--out", type=Path, default=Path("scores.csv"))
    parser.add_argument("--jobs", type=int, default=2, help="notebooks run at once")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per cell")
    parser.add_argument("--wall", type=float, default=120,
                        help="seconds for a whole notebook")
    parser.add_argument("--language", default="en", help="en or ru (the reasons)")
    args = parser.parse_args(argv)
    rows = grade(args.folder, args.out, jobs=args.jobs, timeout=args.timeout,
                 wall=args.wall, language=args.language)
    students = sum(row["problem"] == TOTAL for row in rows)
    print(f"{args.out}: {students} notebook{'' if students == 1 else 's'} graded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
