"""The exit quizzes (book/_ext/quiz.py): one per lesson section, numeric answers from the
package that agree with the formula the feedback states, a link from every question to a
heading that exists, and markup a keyboard and a screen reader can use."""

import html
import json
import math
import re

import pytest
from docutils.nodes import make_id

from bookbuild.run import ROOT, sphinx_extension

quiz = sphinx_extension("quiz")

QUESTIONS = [(section, index, q) for section, qs in quiz.QUIZZES.items()
             for index, q in enumerate(qs, 1)]
IDS = [f"{s}-{i}" for s, i, _ in QUESTIONS]


def test_every_lesson_section_has_a_quiz_with_choices_and_numbers():
    assert sorted(quiz.QUIZZES) == list(range(1, 10))
    kinds = {bool(q.choices) for _, _, q in QUESTIONS}
    assert kinds == {True, False}
    page = (ROOT / "book" / "quiz.md").read_text()
    assert re.findall(r"^:::\{quiz\} (\d)$", page, re.M) == [str(n) for n in range(1, 10)]


def _by_formula(question) -> float:
    """The answer from the formula the question's feedback states, on the values its
    prompt shows (so a change in the package that breaks the formula fails here)."""
    v = question.values()
    formulas = {
        quiz._chain: lambda: 100 * v["p"] ** v["n"],
        quiz._horizon: lambda: math.log(0.5) / math.log(v["p"]),
        quiz._pass_hat: lambda: 100 * math.comb(v["c"], v["k"]) / math.comb(v["n"], v["k"]),
        quiz._ceiling: lambda: 100 * (v["a"] / (v["a"] + v["b"])) ** v["n"],
        quiz._resolution: lambda: 100 / v["n"],
    }
    return formulas[question.answer]()


@pytest.mark.parametrize("section,index,question", QUESTIONS, ids=IDS)
def test_numeric_answers_come_from_the_package_and_match_the_formula(section, index,
                                                                     question):
    if question.choices:
        assert 0 <= question.answer < len(question.choices)
        return
    answer = quiz.numeric_answer(question)
    assert answer == pytest.approx(_by_formula(question), rel=1e-6)
    block = quiz.question_html(section, index, question, "en")
    assert f'data-answer="{answer!r}"' in block
    # the rounding the prompt asks for is inside the tolerance, one step more is not
    places = 2 if "Two decimal places" in question.prompt else 1
    rounded = round(answer, places)
    assert abs(rounded - answer) <= question.tolerance
    for neighbour in (rounded - 10 ** -places, rounded + 10 ** -places):
        assert abs(neighbour - answer) > question.tolerance


def _heading_ids(stem: str) -> set[str]:
    nb = json.loads((ROOT / "chapters" / f"{stem}.ipynb").read_text())
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    return {make_id(h.replace("`", "")) for h in re.findall(r"^#{1,4} (.+)$", text, re.M)}


@pytest.mark.parametrize("section,index,question", QUESTIONS, ids=IDS)
def test_each_question_links_a_heading_that_exists(section, index, question):
    stem, anchor = re.fullmatch(r"\.\./chapters/(\w+)\.html#([\w-]+)", question.link).groups()
    assert anchor in _heading_ids(stem), question.link


@pytest.mark.parametrize("language", ["en", "ru"])
def test_questions_are_real_controls_with_labels(language):
    for section in quiz.QUIZZES:
        block = quiz.quiz_html(section, language)
        ids = re.findall(r'<input [^>]*id="([\w-]+)"', block)
        labelled = set(re.findall(r'<label for="([\w-]+)"', block))
        assert ids and set(ids) == labelled, section
        assert block.count('<button type="button" class="quiz-check">') == len(
            quiz.QUIZZES[section])
        assert block.count('role="status"') == len(quiz.QUIZZES[section])
        assert "{" not in html.unescape(re.sub(r"<[^>]+>", "", block)), section


def test_the_russian_quiz_speaks_russian_with_a_decimal_comma():
    block = quiz.quiz_html(2, "ru")
    assert "Проверить" in block and "Подробнее" in block and "Check" not in block
    assert "0,92" in block and "0.92" not in re.sub(r'data-[\w-]+="[^"]*"', "", block)


def test_a_quiz_for_no_lesson_section_is_refused():
    with pytest.raises(ValueError, match="section must be a lesson section from 1 to 9"):
        quiz.quiz_html(10)


def test_the_revision_question_says_what_the_data_say():
    """Section 4's question: with no outside signal, revision breaks more right answers
    than it fixes wrong ones (data/huang2024_answer_fates.csv) and lowers accuracy in
    every row (data/huang2024_self_correction.csv), as lesson 16 says («результат
    падает»). The right choice says so in both editions; it once said accuracy
    "barely moves"."""
    from bookbuild.catalogs import translator
    from reliability.datasets import load

    fates = load("huang2024_answer_fates").set_index("fate")["value"]
    assert fates["right_to_wrong"] > fates["wrong_to_right"]
    rows = load("huang2024_self_correction")
    before = rows[rows["condition"] == "Standard Prompting"].set_index(["model", "setting"])
    after = rows[rows["condition"] == "Self-Correct (round 2)"].set_index(["model", "setting"])
    assert (after["value"] < before["value"].loc[after.index]).all()
    question = quiz.QUIZZES[4][0]
    right = question.choices[question.answer]
    assert right.startswith("It falls"), right
    assert "falls" in question.explanation and "about as often" not in question.explanation
    russian = translator("ru", "quiz")
    assert russian(right).startswith("Падает"), russian(right)
