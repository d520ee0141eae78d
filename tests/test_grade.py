"""bookbuild/grade.py: a folder of submitted homework notebooks, each run in a fresh
kernel, becomes one CSV of scores per student and problem; a broken notebook never stops
it."""

import csv
import json
import re

import nbformat
import pytest

from bookbuild import grade
from bookbuild import homework
from bookbuild.launch_notebooks import NOTEBOOKS, RU_NOTEBOOKS
from reliability import i18n
from reliability.homework import answer

#: The answers by hand, from each problem's wording (not from the key's functions).
BY_HAND = {"hw1": 0.98 ** 20, "hw2": 22.7566, "hw3": 5, "hw4": 15 / 28}


def _filled(values: dict, language: str = "en", extra: dict | None = None):
    """The student's notebook as it is handed out, with ``values`` in place of ``...``
    and ``extra`` code put in before a problem's answer cell."""
    nb = nbformat.read(str((NOTEBOOKS if language == "en" else RU_NOTEBOOKS)
                           / homework.NAME), as_version=4)
    for cell in nb.cells:
        found = re.match(r'answer\("(hw\d)", \.\.\.\)', cell.source)
        if found and found[1] in values:
            cell.source = cell.source.replace("...", repr(values[found[1]]), 1)
        if found and found[1] in (extra or {}):
            cell.source = extra[found[1]] + "\n" + cell.source
    return nb


def test_the_key_matches_the_answers_by_hand():
    from reliability.workflow import Workflow
    for label, value in BY_HAND.items():
        assert homework.PROBLEMS[label].answer() == pytest.approx(value, rel=1e-5), label
    assert Workflow(steps=10, error=0.3, silent=0.02, attempts=4).success() < 0.7


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
        answer("hw9", 1)
    with pytest.raises(ValueError, match="value must be a finite number"):
        answer("hw1", "most")


def test_grading_a_folder_of_submissions(tmp_path):
    folder = tmp_path / "submitted"
    folder.mkdir()
    right = dict(BY_HAND)
    submissions = {
        "homework-ann": _filled(right),
        "bob": _filled({"hw1": 0.2, "hw2": 50.0, "hw3": 1, "hw4": 0.9}),
        "cleo": _filled({"hw1": round(BY_HAND["hw1"] * 1.02, 4), "hw2": 22.76,
                         "hw3": 4, "hw4": 100 * BY_HAND["hw4"]}),
        # stops with an error in problem 3's cell: the answers above it still count
        "dan": _filled(right, extra={"hw3": "1 / 0"}),
        # hangs in problem 2's cell: a cell's time limit stops it, problem 1 counts
        "finn": _filled(right, extra={"hw2": "import time\ntime.sleep(120)"}),
        "eve": _filled({"hw1": right["hw1"], "hw2": right["hw2"], "hw4": right["hw4"]},
                       language="ru"),
    }
    for name, nb in submissions.items():
        nbformat.write(nb, str(folder / f"{name}.ipynb"))
    (folder / "fay.ipynb").write_text("")              # an empty file
    (folder / "notes.txt").write_text("not homework")  # only notebooks are graded
    out = tmp_path / "scores.csv"
    grade.main([str(folder), "--out", str(out), "--jobs", "2", "--wall", "80",
                "--timeout", "15"])
    with open(out, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == list(grade.COLUMNS)
    table = {(r["student"], r["problem"]): r for r in rows}
    students = ["ann", "bob", "cleo", "dan", "eve", "fay", "finn"]
    assert sorted({r["student"] for r in rows}) == students
    assert len(rows) == len(students) * (len(homework.PROBLEMS) + 1)

    def verdicts(student):
        return [table[student, p]["verdict"] for p in homework.PROBLEMS]

    def total(student):
        return float(table[student, "total"]["points"])

    assert verdicts("ann") == ["right"] * 4 and total("ann") == 10
    assert table["ann", "total"]["out_of"] == "10"
    assert verdicts("bob") == ["wrong"] * 4 and total("bob") == 0
    # 2 % off, near the rounding, one attempt short, a percentage for a share
    assert verdicts("cleo") == ["close", "right", "close", "close"]
    assert total("cleo") == 1 + 2 + 1.5 + 1.5
    assert "percentage" in table["cleo", "hw4"]["reason"]
    assert verdicts("dan") == ["right", "right", "missing", "missing"]
    assert total("dan") == 4
    # the install cell, the import, problems 1 and 2, then problem 3's cell: [5]
    assert table["dan", "hw3"]["reason"] == "stopped with ZeroDivisionError in cell [5]"
    assert "ZeroDivisionError" in table["dan", "total"]["reason"]
    assert verdicts("eve") == ["right", "right", "missing", "right"] and total("eve") == 7
    assert table["eve", "hw3"]["reason"] == "no answer saved"
    assert verdicts("finn") == ["right"] + ["missing"] * 3 and total("finn") == 2
    assert table["finn", "hw2"]["reason"] == "a cell ran past 15 s"
    assert verdicts("fay") == ["missing"] * 4 and total("fay") == 0
    assert table["fay", "total"]["reason"] == "not a readable notebook"
    assert float(table["ann", "hw1"]["answer"]) == pytest.approx(BY_HAND["hw1"])


def test_an_untouched_notebook_scores_zero_and_reasons_are_in_russian(tmp_path):
    folder = tmp_path / "submitted"
    folder.mkdir()
    nbformat.write(_filled({}, language="ru"), str(folder / "gleb.ipynb"))
    rows = grade.grade(folder, tmp_path / "scores.csv", jobs=1, language="ru", wall=80)
    assert [r["verdict"] for r in rows[:-1]] == ["missing"] * 4
    assert rows[-1]["points"] == "0"
    assert all(re.search("[а-я]", r["reason"]) for r in rows[:-1]), rows


def test_bad_input_names_the_parameter(tmp_path):
    with pytest.raises(ValueError, match="folder must be"):
        grade.grade(tmp_path / "nowhere", tmp_path / "s.csv")
    with pytest.raises(ValueError, match="language must be"):
        grade.grade(tmp_path, tmp_path / "s.csv", language="de")
    with pytest.raises(ValueError, match="jobs must be"):
        grade.grade(tmp_path, tmp_path / "s.csv", jobs=0)
