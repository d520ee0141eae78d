"""bookbuild/grade.py: a folder of submitted homework notebooks, each run in a fresh
kernel, becomes one CSV of scores per student and problem; a broken notebook never stops
it."""

import csv
import json
import math
import re
import subprocess
from pathlib import Path

import nbformat
import pytest

from bookbuild import grade
from bookbuild import homework
from bookbuild.catalogs import english_phrases
from bookbuild.launch_notebooks import NOTEBOOKS, RU_NOTEBOOKS
from reliability import i18n
from reliability.checks import judge
from reliability.homework import answer

#: The answers by hand, from each problem's wording (not from the key's functions).
_Z = 1.959963984540054  # the two-sided 95 % normal quantile
_Q9 = 1 - 0.7 ** 2  # a lookup with one silent retry
BY_HAND = {
    "hw1": 0.97 ** 25,
    "hw2": (0.89 + 0.10 * 0.89) ** 15,
    # accepted right 0.9 * 0.96; tried again 0.05 + 0.05 * 0.8 + 0.9 * 0.04
    "hw3": (0.864 * (1 + 0.121 + 0.121 ** 2)) ** 10,
    "hw4": (math.comb(9, 4) + math.comb(5, 4)) / math.comb(10, 4) / 2,
    "hw5": 0.781 * 0.9 + (1 - 0.781) * 0.2,  # 0.781 after two rounds, as above
    "hw6": 0.96 * 0.7 * 0.92,
    "hw7": min(12 * 4, 12 + 6),
    "hw8": 1 - (0.3 + 0.7 / 20) / (0.5 + 0.5 / 20),
    "hw9": 1 - (1 - _Q9) ** 4 - 4 * _Q9 * (1 - _Q9) ** 3,
    "hw10": ((41 / 60 + _Z ** 2 / 120) - _Z * math.sqrt(
        41 / 60 * 19 / 60 / 60 + _Z ** 2 / (4 * 60 ** 2))) / (1 + _Z ** 2 / 60),
}
#: Known wrong methods, by hand: the plug-in pass^4 and a decimal comma's two numbers.
PLUG_IN_PASS_4 = (0.9 ** 4 + 0.5 ** 4) / 2


def _filled(values: dict, language: str = "en", extra: dict | None = None,
            raw: dict | None = None):
    """The student's notebook as it is handed out, with ``values`` in place of ``...``
    (``raw``: typed as given, e.g. ``"0,6676"``) and ``extra`` code put in before a
    problem's answer cell."""
    nb = nbformat.read(str((NOTEBOOKS if language == "en" else RU_NOTEBOOKS)
                           / homework.NAME), as_version=4)
    for cell in nb.cells:
        found = re.match(r'answer\("(hw\d+)", \.\.\.\)', cell.source)
        if found and found[1] in values:
            cell.source = cell.source.replace("...", repr(values[found[1]]), 1)
        if found and found[1] in (raw or {}):
            cell.source = cell.source.replace("...", raw[found[1]], 1)
        if found and found[1] in (extra or {}):
            cell.source = extra[found[1]] + "\n" + cell.source
    return nb


def _read(out):
    with open(out, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return rows, {(r["student"], r["problem"]): r for r in rows}


def test_the_key_matches_the_answers_by_hand():
    for label, value in BY_HAND.items():
        assert homework.PROBLEMS[label].answer() == pytest.approx(value, rel=1e-9), label
    assert homework.PROBLEMS["hw7"].whole and BY_HAND["hw7"] < 12 * 4


def _exercise_and_quiz_answers() -> list[float]:
    from bookbuild.run import sphinx_extension
    from reliability.checks import EXERCISES

    quiz = sphinx_extension("quiz")  # book/_ext/quiz.py, loaded with no sys.path edit
    numbers = [float(e.answer()) for e in EXERCISES.values()]
    for questions in quiz.QUIZZES.values():
        numbers += [quiz.numeric_answer(q) for q in questions if callable(q.answer)]
    return numbers


def _words(text: str) -> list[str]:
    return re.findall(r"[\w^.%]+", text.lower())


def test_one_new_problem_a_chapter_at_least():
    """Every chapter has a problem; none is a solved exercise or a quiz question again:
    no key is any exercise's or quiz's number, and no statement shares eight words in a
    row with a chapter's exercises (the statements are compared as written)."""
    chapters = sorted(grade.ROOT.glob("chapters/[0-9][0-9]_*.ipynb"))
    assert {p.chapter for p in homework.PROBLEMS.values()} == set(
        range(1, len(chapters) + 1))
    known = _exercise_and_quiz_answers()
    assert len(known) > 10
    keys = [float(p.answer()) for p in homework.PROBLEMS.values()]
    assert len(set(keys)) == len(keys)
    for label, value in zip(homework.PROBLEMS, keys):
        # a copy computes the very same number; with sixty answers between 0 and 1,
        # a new problem can land within a few tenths of a percent of one by chance
        near = [k for k in known if math.isclose(k, value, rel_tol=1e-6)]
        assert not near, (label, value, near)
    for label, problem in homework.PROBLEMS.items():
        nb = json.loads(chapters[problem.chapter - 1].read_text())
        text = " ".join("".join(c["source"]) for c in nb["cells"])
        exercises = _words(text[text.index("## Exercises"):])
        runs = {tuple(exercises[i:i + 8]) for i in range(len(exercises) - 7)}
        statement = _words(problem.statement)
        shared = [run for i in range(len(statement) - 7)
                  if (run := tuple(statement[i:i + 8])) in runs]
        assert not shared, (label, shared)


_COUNTS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def test_a_problems_label_counts_what_its_statement_counts():
    """The label beside a student's answer cell ("the accuracy after three rounds") names
    no count its problem's statement does not: problem 5's said two rounds where the
    question and the key say three, and a student who followed it lost a mark."""
    from reliability.homework import PROBLEMS as LABELS

    for name, problem in homework.PROBLEMS.items():
        statement = problem.statement.lower()
        for word in re.findall(r"[a-z]+|\d+", LABELS[name].lower()):
            if word in _COUNTS or word.isdigit():
                assert re.search(rf"\b{word}\b", statement), \
                    f"{name}: its label says {word!r}, its statement does not"


def test_every_known_mistake_is_wrong_and_named():
    """A known wrong method's number is never right, and scoring it gives nothing and
    says which mistake it is, in either language; the naive plug-in pass^4 among
    them."""
    key = {label: float(p.answer()) for label, p in homework.PROBLEMS.items()}
    assert any(m.answer() == pytest.approx(PLUG_IN_PASS_4)
               for m in homework.PROBLEMS["hw4"].mistakes)
    assert sum(len(p.mistakes) >= 1 for p in homework.PROBLEMS.values()) == 10
    for label, problem in homework.PROBLEMS.items():
        for mistake in problem.mistakes:
            value = float(mistake.answer())
            assert judge(value, key[label], whole=problem.whole) != "right", label
            for language in ("en", "ru"):
                rows = grade.score(grade.Submission("x", {label: value}), key, language)
                row = next(r for r in rows if r["problem"] == label)
                assert (row["verdict"], row["points"]) == ("mistake", "0"), (label, row)
                words = grade.translator(language, "homework")(mistake.message)
                assert words in row["reason"]
                if language == "ru":
                    assert re.search("[а-я]", words) and not english_phrases(words)
    # close to the key but not a known method: half the points, as before
    rows = grade.score(grade.Submission("x", {"hw4": key["hw4"] * 1.02}), key)
    assert rows[3]["verdict"] == "close" and rows[3]["reason"] == ""


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_students_notebook_holds_no_answer(language):
    """Neither edition's notebook nor any page source carries a key's number."""
    path = (NOTEBOOKS if language == "en" else RU_NOTEBOOKS) / homework.NAME
    text = json.loads(path.read_text())
    sources = "".join("".join(c["source"]) for c in text["cells"])
    assert sources.count('answer("hw') == len(homework.PROBLEMS)
    for label, problem in homework.PROBLEMS.items():
        value = problem.answer()
        for digits in range(2, 5):
            for written in (f"{value:.{digits}f}", f"{value:.{digits}f}".replace(".", ",")):
                assert written not in sources, (label, written)
    if language == "ru":
        assert "Задача 1" in sources and 'set_language("ru")' in sources


def test_answer_says_it_is_saved_and_never_whether_it_is_right(capsys):
    key = homework.PROBLEMS["hw1"].answer()
    for given in (key, key * 2):
        answer("hw1", given)
    said = capsys.readouterr().out.splitlines()
    assert len(said) == 2 and all(line.startswith("Saved: ") for line in said)
    with i18n.language("ru"):
        answer("hw4", 0.5)
        assert "0,5" in capsys.readouterr().out
    with pytest.raises(ValueError, match="problem must be one of"):
        answer("hw99", 1)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_decimal_comma_or_a_wrong_type_is_refused_in_words_and_never_raises(
        capsys, language):
    """``answer("hw1", 0,6676)`` is two arguments to Python: nothing is saved, the cell
    says why in the student's language and does not stop the notebook."""
    with i18n.language(language):
        for given in [(0, 6676), ("0.6676",), ([0.6],), (math.nan,), (0, "x")]:
            assert answer("hw1", *given) is None
    said = capsys.readouterr().out.splitlines()
    assert len(said) == 5 and not any("Saved" in s or "Сохранено" in s for s in said)
    comma, text = said[0], said[1]
    assert "0.25" in comma and "0,25" in comma and "hw1" in comma
    assert "str" in text
    if language == "ru":
        assert all(re.search("[а-яё]{4}", line) for line in said), said
        assert all(not re.search(r"\b(the|answer to|Write|number)\b", line)
                   for line in said), said
    else:
        assert "decimal comma" in comma and "number" in text


#: A submission that tries to reach the key from its kernel: by import, beside the
#: package's files, on the kernel's path or above its folder; it answers what it finds.
STEAL = """\
import os, pathlib, sys
import reliability

def steal(label):
    try:
        from bookbuild.homework import PROBLEMS
        return PROBLEMS[label].answer()
    except ImportError:
        pass
    here = pathlib.Path.cwd()
    places = [pathlib.Path(reliability.__file__).resolve().parents[1], here,
              *here.parents, *map(pathlib.Path, sys.path),
              *map(pathlib.Path, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    for place in places:
        if (place / "bookbuild" / "homework.py").is_file():
            sys.path.insert(0, str(place))
            from bookbuild.homework import PROBLEMS
            return PROBLEMS[label].answer()
    return ...
"""


def test_grading_a_folder_of_submissions(tmp_path):
    folder = tmp_path / "submitted"
    folder.mkdir()
    right = dict(BY_HAND)
    labels = list(homework.PROBLEMS)
    first_mistakes = {label: float(p.mistakes[0].answer())
                      for label, p in homework.PROBLEMS.items()}
    submissions = {
        "homework-ann": _filled(right),
        "bob": _filled({label: 3 * value + 1 for label, value in right.items()}),
        # 2 % off, near the rounding, one call short, a percentage for a share
        "cleo": _filled({"hw1": round(BY_HAND["hw1"] * 1.02, 4),
                         "hw2": round(BY_HAND["hw2"], 4), "hw7": BY_HAND["hw7"] - 1,
                         "hw4": 100 * BY_HAND["hw4"]}),
        # every problem by its first known wrong method: the plug-in pass^4 among them
        "nina": _filled(first_mistakes),
        # stops with an error in problem 3's cell: the answers above it still count
        "dan": _filled(right, extra={"hw3": "1 / 0"}),
        # hangs in problem 2's cell: a cell's time limit stops it, problem 1 counts
        "finn": _filled(right, extra={"hw2": "import time\ntime.sleep(120)"}),
        "eve": _filled({k: v for k, v in right.items() if k != "hw3"}, language="ru"),
        # a decimal comma and a quoted number: refused in words, the rest still count
        "gus": _filled({k: v for k, v in right.items() if k not in ("hw1", "hw2")},
                       raw={"hw1": "0,4670", "hw2": '"0.727"'}),
        # tries to read the key from its kernel, every way it can think of
        "mallory": _filled({}, raw={label: f'steal("{label}")' for label in labels},
                           extra={"hw1": STEAL}),
    }
    for name, nb in submissions.items():
        nbformat.write(nb, str(folder / f"{name}.ipynb"))
    (folder / "fay.ipynb").write_text("")              # an empty file
    (folder / "notes.txt").write_text("not homework")  # only notebooks are graded
    out = tmp_path / "scores.csv"
    grade.main([str(folder), "--out", str(out), "--jobs", "2", "--wall", "80",
                "--timeout", "15"])
    rows, table = _read(out)
    assert list(rows[0]) == list(grade.COLUMNS)
    students = ["ann", "bob", "cleo", "dan", "eve", "fay", "finn", "gus", "mallory",
                "nina"]
    assert sorted({r["student"] for r in rows}) == students
    assert len(rows) == len(students) * (len(homework.PROBLEMS) + 1)
    points = {label: p.points for label, p in homework.PROBLEMS.items()}
    out_of = sum(points.values())

    def verdicts(student):
        return [table[student, p]["verdict"] for p in labels]

    def total(student):
        return float(table[student, "total"]["points"])

    assert verdicts("ann") == ["right"] * 10 and total("ann") == out_of == 20
    assert table["ann", "total"]["out_of"] == str(out_of)
    assert verdicts("bob") == ["wrong"] * 10 and total("bob") == 0
    cleo = {p: table["cleo", p]["verdict"] for p in ("hw1", "hw2", "hw7", "hw4")}
    assert cleo == {"hw1": "close", "hw2": "right", "hw7": "close", "hw4": "close"}
    assert total("cleo") == 1 + 2 + 1 + 1
    assert "percentage" in table["cleo", "hw4"]["reason"]
    assert verdicts("nina") == ["mistake"] * 10 and total("nina") == 0
    assert "plug-in" in table["nina", "hw4"]["reason"]
    assert float(table["nina", "hw4"]["answer"]) == pytest.approx(PLUG_IN_PASS_4)
    for label, problem in homework.PROBLEMS.items():
        assert problem.mistakes[0].message in table["nina", label]["reason"]
    assert verdicts("dan") == ["right", "right"] + ["missing"] * 8
    assert total("dan") == 4
    # the install cell, the import, problems 1 and 2, then problem 3's cell: [5]
    assert table["dan", "hw3"]["reason"] == "stopped with ZeroDivisionError in cell [5]"
    assert "ZeroDivisionError" in table["dan", "total"]["reason"]
    assert table["eve", "hw3"]["verdict"] == "missing" and total("eve") == out_of - 2
    assert table["eve", "hw3"]["reason"] == "no answer saved"
    assert verdicts("finn") == ["right"] + ["missing"] * 9 and total("finn") == 2
    assert table["finn", "hw2"]["reason"] == "a cell ran past 15 s"
    assert verdicts("gus") == ["missing"] * 2 + ["right"] * 8
    assert total("gus") == out_of - 4 and table["gus", "total"]["reason"] == ""
    assert "decimal comma" in table["gus", "hw1"]["reason"]
    assert table["gus", "hw2"]["reason"] == "not saved: not a number"
    # the thief ran to the end and found nothing to answer with
    assert verdicts("mallory") == ["missing"] * 10 and total("mallory") == 0
    assert table["mallory", "total"]["reason"] == ""
    assert verdicts("fay") == ["missing"] * 10 and total("fay") == 0
    assert table["fay", "total"]["reason"] == "not a readable notebook"
    assert float(table["ann", "hw1"]["answer"]) == pytest.approx(BY_HAND["hw1"])


def test_the_same_thief_reaches_the_key_from_the_repository(tmp_path):
    """The control for mallory: run where the repository is on the path (as the grader
    once ran every kernel), the same cells find the key; so her zero above is the
    grader's doing, not a broken thief."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        STEAL + '\nprint(repr(steal("hw1")))')])
    path = tmp_path / "thief.ipynb"
    nbformat.write(nb, str(path))
    ran = grade.execute(path, tmp_path / "out.ipynb", cwd=grade.ROOT, tries=1,
                        timeout=60, wall=80, widgets=False)
    printed = ran.cells[0].outputs[0]["text"].strip()
    assert float(printed) == pytest.approx(BY_HAND["hw1"])


def test_an_untouched_notebook_scores_zero_and_reasons_are_in_russian(tmp_path):
    folder = tmp_path / "submitted"
    folder.mkdir()
    nbformat.write(_filled({}, language="ru"), str(folder / "gleb.ipynb"))
    rows = grade.grade(folder, tmp_path / "scores.csv", jobs=1, language="ru", wall=80)
    assert [r["verdict"] for r in rows[:-1]] == ["missing"] * len(homework.PROBLEMS)
    assert rows[-1]["points"] == "0"
    assert all(re.search("[а-я]", r["reason"]) for r in rows[:-1]), rows


def test_bad_input_names_the_parameter(tmp_path):
    with pytest.raises(ValueError, match="folder must be"):
        grade.grade(tmp_path / "nowhere", tmp_path / "s.csv")
    with pytest.raises(ValueError, match="language must be"):
        grade.grade(tmp_path, tmp_path / "s.csv", language="de")
    with pytest.raises(ValueError, match="jobs must be"):
        grade.grade(tmp_path, tmp_path / "s.csv", jobs=0)


def test_collect_takes_each_students_newest_homework(tmp_path):
    """A hub's home folders on a shared volume, one a student: each student's newest
    homework notebook becomes homework-<user>.ipynb; a student with none is named."""
    import os

    homes, into = tmp_path / "home", tmp_path / "submitted"
    pulled = "agent-reliability/notebooks"
    places = {"ada": [f"{pulled}/homework.ipynb", f"{pulled}/homework-ada.ipynb"],
              "boris": ["agent-reliability/ru/notebooks/homework.ipynb"],
              "cy": [f"{pulled}/01_chain_decay.ipynb"]}
    for user, files in places.items():
        for age, name in enumerate(reversed(files)):
            path = homes / user / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{user}:{name}")
            os.utime(path, (1_000_000 - age, 1_000_000 - age))
    (homes / ".hidden").mkdir()
    found = grade.collect(homes, into)
    assert found == {"ada": into / "homework-ada.ipynb",
                     "boris": into / "homework-boris.ipynb", "cy": None}
    newest = f"ada:{pulled}/homework-ada.ipynb"
    assert (into / "homework-ada.ipynb").read_text() == newest
    assert sorted(p.name for p in into.iterdir()) == ["homework-ada.ipynb",
                                                       "homework-boris.ipynb"]
    assert grade.student_name(into / "homework-ada.ipynb") == "ada"
    with pytest.raises(ValueError, match="homes must be"):
        grade.collect(tmp_path / "nowhere", into)


def _git(*args, cwd):
    return subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.edu",
                           *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def test_the_handout_branch_has_no_key(tmp_path):
    """What a class pulls: this repository less the key, the grader and their words;
    a later handout sits on the last one (a student's next pull merges), and an
    unchanged tree makes no new commit."""
    clone = tmp_path / "course"
    _git("clone", "-q", "--depth", "1", f"file://{grade.ROOT}", str(clone),
         cwd=tmp_path)
    first = grade.handout("handout", clone)
    files = set(_git("ls-tree", "-r", "--name-only", "handout", cwd=clone).splitlines())
    head = set(_git("ls-tree", "-r", "--name-only", "HEAD", cwd=clone).splitlines())
    assert set(grade.TEACHER_ONLY) <= head
    assert files == head - set(grade.TEACHER_ONLY)
    assert "notebooks/homework.ipynb" in files and "reliability/homework.py" in files
    history = _git("log", "--format=%H", "handout", cwd=clone).splitlines()
    assert history == [first]
    assert grade.handout("handout", clone) == first
    (clone / "NEWS.md").write_text("week 2\n")
    _git("add", "NEWS.md", cwd=clone)
    _git("commit", "-q", "-m", "week 2", cwd=clone)
    second = grade.handout("handout", clone)
    history = _git("log", "--format=%H", "handout", cwd=clone).splitlines()
    assert history == [second, first]
    shown = subprocess.run(["git", "cat-file", "-e", "handout:bookbuild/homework.py"],
                           cwd=clone, capture_output=True)
    assert shown.returncode != 0
    with pytest.raises(ValueError, match="branch must be"):
        grade.handout("--force", clone)


def test_notebooks_run_elsewhere_are_read_not_run(tmp_path):
    """``--executed``: the notebooks were run by ``jupyter nbconvert --execute
    --allow-errors`` where the repository is not (here: a folder with the package's
    copy alone on the path); answers after the first error do not count, as when the
    grader runs them itself."""
    import os
    import sys

    submitted, ran = tmp_path / "submitted", tmp_path / "ran"
    submitted.mkdir()
    nbformat.write(_filled(BY_HAND, extra={"hw3": "1 / 0"}),
                   str(submitted / "homework-dan.ipynb"))
    nbformat.write(_filled({}, raw={"hw1": "0,4670"}), str(submitted / "gus.ipynb"))
    library = grade.student_library(tmp_path)
    environment = {**os.environ, "PYTHONPATH": str(library)}
    for path in sorted(submitted.iterdir()):
        subprocess.run([str(Path(sys.executable).with_name("jupyter")), "nbconvert",
                        "--to", "notebook", "--execute", "--allow-errors",
                        "--ExecutePreprocessor.timeout=60", "--output-dir", str(ran),
                        str(path)], cwd=tmp_path, env=environment, check=True,
                       capture_output=True, timeout=300)
    (ran / "fay.ipynb").write_text("")
    out = tmp_path / "scores.csv"
    assert grade.main([str(ran), "--executed", "--out", str(out)]) == 0
    rows, table = _read(out)
    dan = [table["dan", label]["verdict"] for label in homework.PROBLEMS]
    assert dan == ["right", "right"] + ["missing"] * 8
    assert table["dan", "hw3"]["reason"] == "stopped with ZeroDivisionError in cell [5]"
    assert "decimal comma" in table["gus", "hw1"]["reason"]
    assert table["fay", "total"]["reason"] == "not a readable notebook"
