"""The exit quizzes in a real browser, in both editions: every question answered wrong,
then close (a number in the wrong units), then right, from the keyboard, and the feedback
each time says so and links a section that exists. No kernel, no network."""

from __future__ import annotations

from urllib.parse import urljoin, urlparse

import pytest

from bookbuild.run import sphinx_extension
from test_browser import browser_context, site  # noqa: F401  (the shared fixtures)

quiz = sphinx_extension("quiz")

pytestmark = pytest.mark.xdist_group(name="browser")

QUESTIONS = [(f"quiz-{section}-{index}", question)
             for section, questions in quiz.QUIZZES.items()
             for index, question in enumerate(questions, 1)]
WORDS = {"en": ("Right.", "Not quite.", "Close.", "Choose an answer first."),
         "ru": ("Верно.", "Не совсем.", "Близко.", "Сначала выберите ответ.")}


def _typed(value: float, places: int, language: str) -> str:
    text = f"{value:.{places}f}"
    return text.replace(".", ",") if language == "ru" else text


def _shown(tab, qid: str) -> tuple[str, str, str]:
    """The one feedback shown for a question: its verdict, its text and its link."""
    shown = tab.locator(f"#{qid} .quiz-says:not([hidden])")
    assert shown.count() == 1, f"{qid}: {shown.count()} feedback blocks shown"
    link = shown.locator("a")
    return (shown.get_attribute("data-verdict"), shown.inner_text(),
            link.get_attribute("href") if link.count() else "")


def _check_with_the_keyboard(tab, qid: str) -> None:
    tab.locator(f"#{qid} .quiz-check").focus()
    tab.keyboard.press("Enter")


def _choose(tab, qid: str, index: int) -> None:
    choice = tab.locator(f"#{qid}-{index}")
    choice.focus()
    tab.keyboard.press("Space")
    assert choice.is_checked()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_question_answers_right_and_wrong_with_feedback(
        language, site, browser_context):  # noqa: F811
    _, base = site
    page = "book/quiz" if language == "en" else "ru/book/quiz"
    right, wrong, close, empty = WORDS[language]
    tab = browser_context.new_page()
    errors, outside = [], []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("request", lambda request: outside.append(request.url)
           if urlparse(request.url).hostname not in ("127.0.0.1", None) else None)
    try:
        tab.goto(f"{base}/{page}.html")
        assert tab.locator(".quiz-question").count() == len(QUESTIONS)
        links = set()
        for qid, question in QUESTIONS:
            if question.choices:
                _check_with_the_keyboard(tab, qid)
                assert _shown(tab, qid)[1] == empty, qid
                for index in range(len(question.choices)):
                    if index == question.answer:
                        continue
                    _choose(tab, qid, index)
                    _check_with_the_keyboard(tab, qid)
                    verdict, text, href = _shown(tab, qid)
                    assert verdict == "wrong" and text.startswith(wrong) and href, qid
                _choose(tab, qid, question.answer)
            else:
                answer = quiz.numeric_answer(question)
                places = 2 if "Two decimal places" in question.prompt else 1
                field = tab.locator(f"#{qid}-value")
                assert tab.locator(f"label[for='{qid}-value']").count() == 1
                for typed, expected, opening in (
                        (_typed(answer * 3 + 7, places, language), "wrong", wrong),
                        (_typed(answer / 100, 4, language), "close", close)):
                    field.fill(typed)
                    field.press("Enter")
                    verdict, text, href = _shown(tab, qid)
                    assert (verdict, text.startswith(opening)) == (expected, True), \
                        (qid, typed, verdict, text)
                field.fill(_typed(answer, places, language))
            _check_with_the_keyboard(tab, qid)
            verdict, text, href = _shown(tab, qid)
            assert verdict == "right" and text.startswith(right), (qid, verdict, text)
            assert href == question.link, qid
            links.add(href)
        # every pointer opens a section that exists in this edition
        for href in sorted(links):
            url = urljoin(f"{base}/{page}.html", href)
            target = tab.request.get(url.split("#")[0])
            assert target.ok, url
            assert f'id="{url.split("#")[1]}"' in target.text(), url
    finally:
        tab.close()
    assert not errors, errors
    assert not outside, outside
