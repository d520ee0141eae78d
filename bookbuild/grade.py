"""Grade a folder of submitted homework notebooks into one CSV of scores; collect the
folder from a class's hub; make the branch a class pulls, without the key.

    .venv/bin/python -m bookbuild grade SUBMISSIONS --out scores.csv [--language ru]
    .venv/bin/python -m bookbuild grade RAN --executed --out scores.csv
    .venv/bin/python -m bookbuild grade collect HOMES SUBMISSIONS
    .venv/bin/python -m bookbuild grade handout [--branch handout]

Each ``*.ipynb`` in SUBMISSIONS is one student (the file name without ``.ipynb``, less a
leading ``homework-``). Each is run from the top in a fresh kernel with a time limit
(bookbuild/run.py), its ``answer("hw1", ...)`` outputs are read, and each answer is
scored against the key, which bookbuild/homework.py computes from the package now, in
this process: right earns the problem's points, close half of them (reliability.checks'
rules), a known wrong method's number, wrong or missing none, with the reason. The
student's kernel cannot import the key: it runs in a temporary folder with a copy of
the package ``reliability`` alone on its path (not the repository, so neither ``import
bookbuild`` nor a path beside ``reliability.__file__`` finds bookbuild/homework.py), and
all the grader takes from it is the numbers its answer cells recorded. It still runs
with the grader's rights, and could search the disk; ``--executed`` reads notebooks run
elsewhere (a container with no repository in it) and runs nothing itself. A notebook
that is not a notebook, stops with an error or runs too long keeps the answers it saved
before that and gets zeros for the rest, with the reason; it never stops the run. The
CSV has one row per student and problem, then the student's total: student, problem,
answer, verdict, points, out_of, reason.

``collect`` copies each student's homework from a hub's home folders (one a student,
named by user, as a shared volume holds them) into SUBMISSIONS as
``homework-<user>.ipynb``. ``handout`` commits this checkout's tree less
:data:`TEACHER_ONLY` (the key, the grader and its tests) to a branch of its own, whose
history holds only handouts: the branch the class's nbgitpuller links pull.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbclient.exceptions import CellTimeoutError

from reliability.checks import judge
from reliability.homework import MIME

from .catalogs import translator
from .homework import N_, PROBLEMS
from .run import ROOT, execute

COLUMNS = ("student", "problem", "answer", "verdict", "points", "out_of", "reason")
#: A close answer's share of the problem's points.
CLOSE_SHARE = 0.5
TOTAL = "total"
#: What a class pulls leaves these out: the key, the grader, the tests that show both,
#: and the catalogs of their words (which name the known mistakes) (``handout``).
TEACHER_ONLY = ("bookbuild/homework.py", "bookbuild/grade.py", "tests/test_grade.py",
                "locale/ru/code/homework.po", "locale/ru/code/grade.po")


@dataclass(frozen=True)
class Submission:
    """What one student's notebook gave: the answers it saved, by problem, and why it
    stopped early (empty when it ran to the end)."""

    student: str
    answers: dict
    reason: str = ""
    #: Answers the notebook refused to save, by problem: ``comma`` (a decimal comma),
    #: ``many`` (more than one value) or ``type`` (not a number).
    refused: dict = field(default_factory=dict)


def student_name(path: Path) -> str:
    stem = path.stem
    named = stem.startswith("homework-") and stem != "homework-"
    return stem[len("homework-"):] if named else stem


def student_library(folder: Path) -> Path:
    """A folder holding a copy of the package ``reliability`` (and the data it reads)
    and nothing else: the only project code on a student kernel's path."""
    import reliability
    from reliability import datasets

    library = Path(folder) / "library"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(Path(reliability.__file__).resolve().parent,
                    library / "reliability", ignore=ignore)
    shutil.copytree(datasets.path(datasets.names()[0]).parent, library / "data",
                    ignore=ignore)
    return library


def kernel_path(library: Path) -> str:
    """The student kernel's PYTHONPATH: the package's copy, then this process's entries
    that hold no build code (a checkout put there would make the key importable)."""
    kept = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep)
            if entry and not (Path(entry) / "bookbuild").exists()]
    return os.pathsep.join([str(library), *kept])


#: The kernel a submission runs in (:func:`student_kernel`).
STUDENT_KERNEL = "homework-student"


def student_kernel(folder: Path, library: Path, name: str = STUDENT_KERNEL) -> dict:
    """The environment of a student's kernel, with its kernelspec written into
    ``folder``: this environment's Python started without ``site`` (``-S``), so no
    ``.pth`` file runs (the development install's editable finder would import the
    repository's build code, the key among it), with the package's copy and this
    environment's installed packages on its path."""
    import json
    import site

    spec = folder / "share" / "jupyter" / "kernels" / name
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-S", "-m", "ipykernel_launcher", "-f",
                 "{connection_file}"],
        "display_name": "homework", "language": "python"}))
    return {"JUPYTER_PATH": str(folder / "share" / "jupyter"),
            "PYTHONPATH": os.pathsep.join([kernel_path(library),
                                           *site.getsitepackages()])}


def run(path: Path, *, timeout: int = 60, wall: float = 120,
        language: str = "en", library: Path | None = None) -> Submission:
    """Run one submission in a fresh kernel, in a temporary folder, and read its answers;
    the kernel sees ``library`` (:func:`student_library`), never the repository."""
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
        output = Path(folder) / "run" / "executed.ipynb"
        output.parent.mkdir()
        if library is None:
            library = student_library(Path(folder))
        try:
            execute(path, output, cwd=output.parent, timeout=timeout, wall=wall,
                    tries=1, widgets=False, kernel_name=STUDENT_KERNEL,
                    environment=student_kernel(Path(folder), library))
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
        executed = nbformat.read(str(output), as_version=4) if output.exists() else None
    answers = saved_answers(executed) if executed else {}
    refused = refused_answers(executed) if executed else {}
    return Submission(student, answers, reason, refused)


def _records(nb):
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            saved = output.get("data", {}).get(MIME)
            if isinstance(saved, dict) and saved.get("problem") in PROBLEMS:
                yield saved


def saved_answers(nb) -> dict:
    """The answers a run saved, by problem; a later answer to one problem replaces an
    earlier one, as the student's last run of the cell would."""
    answers = {}
    for saved in _records(nb):
        try:
            value = float(saved.get("value"))
        except (TypeError, ValueError):
            continue
        if math.isfinite(value):
            answers[saved["problem"]] = value
    return answers


def refused_answers(nb) -> dict:
    """The answers a run refused to save, by problem, with why (reliability.homework)."""
    return {saved["problem"]: saved["refused"] for saved in _records(nb)
            if saved.get("refused") in REFUSALS}


#: Why an answer cell saved nothing (reliability.homework's ``refused``).
REFUSALS = {
    "comma": N_("not saved: a decimal comma (write 0.25, not 0,25)"),
    "many": N_("not saved: more than one value"),
    "type": N_("not saved: not a number"),
}


def mistakes(problem) -> list[tuple[float, str]]:
    """The numbers ``problem``'s known wrong methods give, and what each one is."""
    return [(float(m.answer()), m.message) for m in problem.mistakes]


def score(submission: Submission, key: dict, language: str = "en",
          wrong_methods: dict | None = None) -> list[dict]:
    """One row per problem, then the total. An answer is right within the rules of
    reliability.checks; else a number a known wrong method gives (``wrong_methods``, by
    problem: :func:`mistakes`) scores nothing and names the mistake; else close, or
    wrong."""
    _ = translator(language, "grade")
    if wrong_methods is None:
        wrong_methods = {label: mistakes(p) for label, p in PROBLEMS.items()}
    rows, total = [], 0.0
    for label, problem in PROBLEMS.items():
        value = submission.answers.get(label)
        if value is None:
            verdict, points = "missing", 0.0
            refused = submission.refused.get(label)
            reason = (_(REFUSALS[refused]) if refused in REFUSALS
                      else submission.reason or _("no answer saved"))
        else:
            found = judge(value, key[label], whole=problem.whole,
                          tolerance=problem.tolerance)
            known = [message for number, message in wrong_methods.get(label, ())
                     if found != "right" and judge(
                         value, number, whole=problem.whole,
                         tolerance=problem.tolerance) == "right"]
            if known:
                verdict, found = "mistake", "mistake"
                reason = _("a known wrong method: {mistake}").format(
                    mistake=translator(language, "homework")(known[0]))
            else:
                verdict = "close" if found == "units" else found
                reason = _("a share for a percentage, or the reverse") \
                    if found == "units" else ""
            share = {"right": 1.0, "close": CLOSE_SHARE}.get(verdict, 0.0)
            points = share * problem.points
        total += points
        rows.append({"student": submission.student, "problem": label,
                     "answer": "" if value is None else repr(value), "verdict": verdict,
                     "points": f"{points:g}", "out_of": problem.points, "reason": reason})
    rows.append({"student": submission.student, "problem": TOTAL, "answer": "",
                 "verdict": "", "points": f"{total:g}",
                 "out_of": sum(p.points for p in PROBLEMS.values()),
                 "reason": submission.reason})
    return rows


def read_executed(path: Path, language: str = "en") -> Submission:
    """A submission another machine already ran (``--executed``: in a container without
    the repository, with ``jupyter nbconvert --execute --allow-errors``): its answers
    up to its first error, as if the run had stopped there, as :func:`run`'s does."""
    _ = translator(language, "grade")
    student = student_name(path)
    try:
        nb = nbformat.read(str(path), as_version=4)
        cells = list(nb.cells)
    except Exception:
        return Submission(student, {}, _("not a readable notebook"))
    reason = ""
    for index, cell in enumerate(cells):
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if cell.get("cell_type") == "code" and errors:
            reason = _("stopped with {error} in cell [{cell}]").format(
                error=errors[0].get("ename", "Error"), cell=cell.get("execution_count"))
            nb.cells = cells[:index + 1]
            break
    return Submission(student, saved_answers(nb), reason, refused_answers(nb))


def grade(folder: Path, out: Path, *, jobs: int = 2, timeout: int = 60,
          wall: float = 120, language: str = "en", executed: bool = False) -> list[dict]:
    """Grade every notebook in ``folder`` into the CSV ``out``; return its rows. With
    ``executed``, the notebooks have been run elsewhere and are only read
    (:func:`read_executed`)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"folder must be a folder of submitted notebooks, got {folder}")
    if language not in ("en", "ru"):
        raise ValueError(f"language must be 'en' or 'ru', not {language!r}")
    if not (isinstance(jobs, int) and jobs >= 1):
        raise ValueError(f"jobs must be a whole number of at least 1, got {jobs!r}")
    paths = sorted(folder.glob("*.ipynb"))
    # the key and the wrong methods' numbers, here: no student's kernel computes them
    key = {label: float(problem.answer()) for label, problem in PROBLEMS.items()}
    wrong_methods = {label: mistakes(problem) for label, problem in PROBLEMS.items()}
    if executed:
        submissions = [read_executed(p, language) for p in paths]
    else:
        with tempfile.TemporaryDirectory(prefix="grade-library-") as shared, \
                ThreadPoolExecutor(max_workers=jobs) as pool:
            library = student_library(Path(shared))
            submissions = list(pool.map(
                lambda p: run(p, timeout=timeout, wall=wall, language=language,
                              library=library), paths))
    rows = [row for s in submissions
            for row in score(s, key, language, wrong_methods)]
    with open(out, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    return rows


#: Where a student's homework lies in their home folder: at its top, or in the
#: folder nbgitpuller pulled the book into (either edition); the newest one wins.
HOMEWORK_PLACES = ("homework*.ipynb", "*/notebooks/homework*.ipynb",
                   "*/ru/notebooks/homework*.ipynb")


def collect(homes: Path, into: Path) -> dict:
    """Copy each student's homework from ``homes`` (one folder a student, named by user:
    the hub's home folders on their shared volume) into ``into`` as
    ``homework-<user>.ipynb``, the newest of the notebooks :data:`HOMEWORK_PLACES`
    finds; return the copies by user, ``None`` for a student with none."""
    homes, into = Path(homes), Path(into)
    if not homes.is_dir():
        raise ValueError(
            f"homes must be the folder of students' home folders, got {homes}")
    into.mkdir(parents=True, exist_ok=True)
    found = {}
    for home in sorted(p for p in homes.iterdir() if p.is_dir()
                       and not p.name.startswith(".")):
        candidates = [path for pattern in HOMEWORK_PLACES for path in home.glob(pattern)
                      if path.is_file()]
        if not candidates:
            found[home.name] = None
            continue
        newest = max(candidates, key=lambda path: (path.stat().st_mtime, str(path)))
        copy = into / f"homework-{home.name}.ipynb"
        shutil.copyfile(newest, copy)
        found[home.name] = copy
    return found


def handout(branch: str = "handout", repository: Path = ROOT) -> str:
    """Commit ``repository``'s HEAD less :data:`TEACHER_ONLY` to ``branch`` (on top of
    the branch's last handout, so a class's later pulls merge; nothing else in its
    history) and return the commit; the branch is unchanged when the tree is."""
    if not (isinstance(branch, str) and branch and not branch.startswith("-")):
        raise ValueError(f"branch must be a branch name, got {branch!r}")

    def git(*args, check=True, env=None):
        return subprocess.run(["git", *args], cwd=repository, check=check, text=True,
                              capture_output=True, env=env).stdout.strip()

    with tempfile.TemporaryDirectory(prefix="handout-") as folder:
        env = {**os.environ, "GIT_INDEX_FILE": str(Path(folder) / "index")}
        git("read-tree", "HEAD", env=env)
        git("rm", "--cached", "-r", "-q", "--ignore-unmatch", "--", *TEACHER_ONLY,
            env=env)
        tree = git("write-tree", env=env)
    parent = git("rev-parse", "-q", "--verify", f"refs/heads/{branch}", check=False)
    if parent and git("rev-parse", f"{parent}^{{tree}}") == tree:
        return parent
    env = dict(os.environ)
    if not git("config", "user.email", check=False):
        env.update(GIT_AUTHOR_NAME="bookbuild", GIT_COMMITTER_NAME="bookbuild",
                   GIT_AUTHOR_EMAIL="bookbuild@localhost",
                   GIT_COMMITTER_EMAIL="bookbuild@localhost")
    head = git("rev-parse", "--short", "HEAD")
    commit = git("commit-tree", tree, *(["-p", parent] if parent else []), "-m",
                 f"Handout of {head}: the book without the homework's key", env=env)
    git("update-ref", f"refs/heads/{branch}", commit)
    return commit


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["collect"]:
        parser = argparse.ArgumentParser(description=collect.__doc__.split(":")[0])
        parser.add_argument("homes", type=Path, help="the students' home folders")
        parser.add_argument("into", type=Path, help="the folder to grade")
        args = parser.parse_args(argv[1:])
        found = collect(args.homes, args.into)
        missing = sorted(user for user, copy in found.items() if copy is None)
        print(f"{args.into}: {len(found) - len(missing)} notebooks collected"
              + (f"; none from {', '.join(missing)}" if missing else ""))
        return 0
    if argv[:1] == ["handout"]:
        parser = argparse.ArgumentParser(description=handout.__doc__.split(" (")[0])
        parser.add_argument("--branch", default="handout")
        args = parser.parse_args(argv[1:])
        commit = handout(args.branch)
        print(f"{args.branch}: {commit[:12]} (without {', '.join(TEACHER_ONLY)})")
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the submitted notebooks (*.ipynb)")
    parser.add_argument("--out", type=Path, default=Path("scores.csv"))
    parser.add_argument("--jobs", type=int, default=2, help="notebooks run at once")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per cell")
    parser.add_argument("--wall", type=float, default=120,
                        help="seconds for a whole notebook")
    parser.add_argument("--language", default="en", help="en or ru (the reasons)")
    parser.add_argument("--executed", action="store_true",
                        help="the notebooks were run elsewhere: only read them")
    args = parser.parse_args(argv)
    rows = grade(args.folder, args.out, jobs=args.jobs, timeout=args.timeout,
                 wall=args.wall, language=args.language, executed=args.executed)
    students = sum(row["problem"] == TOTAL for row in rows)
    print(f"{args.out}: {students} notebook{'' if students == 1 else 's'} graded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
