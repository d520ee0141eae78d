"""Sentences written for the web page, and what paper says instead.

A chapter's prose speaks to a reader in a browser in a few places: the live explorer's
paragraph ("Move the sliders: ... on this page, with no kernel", "The page's address
keeps the setting"), and chapter 1's animation ("opens on the first step. Press play, or
drag the slider"). On paper there is nothing to move or press, and the animation prints
its last frame. ``book/_ext/reader_pages.py`` wraps each such sentence of a page, at
build time, in ``<span class="web-only">`` and puts its print words beside it in
``<span class="print-only">``; ``book/_static/print.css`` shows the one on paper and
``book/_static/live.css`` the other on screen. So the book's PDF
(``bookbuild/book_pdf.py``) and a page a reader prints from the browser say the same, and
no chapter or catalog changes.

The patterns are per language, as written in the chapters and in locale/ru's catalogs
(:data:`WEB_SENTENCES`, which also says how ``bookbuild/launch_notebooks.py`` rewrites
each for a notebook); a pattern is matched inside one run of plain text. ``WEB_ONLY_WORDS`` are the words the PDF must
not print (tests/test_pdf.py).
"""

from __future__ import annotations

import re
from typing import NamedTuple


class WebSentence(NamedTuple):
    """A sentence (or the end of one) that speaks to a reader in a browser.

    ``pattern`` finds it in a page's plain text; ``paper`` is what the PDF and a printed
    page say instead ("" says nothing, None leaves it); ``notebook`` is its rewrite in
    the chapter's launch notebook (``bookbuild/launch_notebooks.py``; a replacement
    template for :func:`re.sub`, so ``\\g<lead>`` keeps the sentence's own start; None
    leaves it).
    """

    pattern: str
    paper: str | None
    notebook: str | None


#: Every web-only sentence, once, per language: the one list the print pass and the
#: launch notebooks read.
WEB_SENTENCES: dict[str, list[WebSentence]] = {
    "en": [
        # The explorer's first sentence, whatever it moves ("Move the sliders: the chart
        # and the sentence under it follow, on this page, with no kernel."). A launch
        # notebook leaves out its whole paragraph and the explorer's cell
        # (bookbuild/launch_notebooks.py: Jupyter cannot show that explorer).
        WebSentence(r"(?:(?<=^)|(?<=\n)|(?<=[.!?]\s))(?P<lead>[^.!?]*?),?\s+on\s+this\s+page,"
                    r"\s+with\s+no\s+kernel\.",
                    "In the web book, the chart below has controls that move it and the "
                    "sentence under it; the chapter’s launch notebook has an explorer of "
                    "its own.",
                    None),
        # Chapter 9 introduces its scenario as "live" (a notebook's explorer is live).
        WebSentence(r"(?<=scenario),\s+live(?=:)", "", None),
        # A notebook's address keeps no setting either.
        WebSentence(r"\s*The\s+page['’]s\s+address\s+keeps\s+the\s+setting[^.]*\.",
                    "", ""),
        WebSentence(r";\s+its\s+address\s+keeps\s+the\s+setting[^.]*(?=\.)", "", ""),
        # The animation: paper shows its last frame (bookbuild/book_pdf.py); a notebook
        # plays it.
        WebSentence(r",\s+and\s+opens\s+on\s+the\s+first\s+step\.\s+Press\s+play,"
                    r"\s+or\s+drag\s+the\s+slider\.",
                    "; on paper it shows its last frame, every step drawn.", None),
        # The rocket button launches the page; a notebook is already live (paper hides
        # the "Run this chapter" note that says it).
        WebSentence(r"\s*On\s+the\s+static\s+page\s[^.]*?\s+the\s+rocket\s+button"
                    r"\s+at\s+the\s+top\s+of\s+the\s+page\.", None, ""),
        # Where an explorer's sliders start: paper prints the chart there.
        WebSentence(r"The\s+sliders\s+start\s+at", "The chart stands at", None),
        WebSentence(r"where\s+the\s+sliders\s+start", "at the setting printed here", None),
        WebSentence(r"\bthe\s+sliders\s+start\s+at", "the chart stands at", None),
        # The landing page's and the teacher's pages' rocket button (the web book's
        # launch button, which paper has not): the web book's chapter, opened there.
        WebSentence(r"the\s+rocket\s+button\s+at\s+the\s+top\s+of\s+each\s+chapter\s+"
                    r"opens\s+it", "each chapter of the web book opens", None),
        WebSentence(r"the\s+rocket\s+button\s+at\s+the\s+top\s+of\s+a\s+chapter,\s+then"
                    r"(?=\s)", "a chapter of the web book, opened in", None),
        WebSentence(r"the\s+rocket\s+button,\s+then(?=\s)",
                    "a chapter of the web book, opened in", None),
        WebSentence(r"\s*\(the\s+rocket\s+button\)", "", None),
    ],
    "ru": [
        WebSentence(r"(?:(?<=^)|(?<=\n)|(?<=[.!?]\s))(?P<lead>[^.!?]*?)\s+прямо\s+на\s+"
                    r"(?:этой\s+)?странице,\s+без\s+ядра\.",
                    "В веб-версии книги у графика ниже есть элементы управления: они "
                    "двигают и его, и фразу под ним; у блокнота главы есть свой живой "
                    "график.",
                    None),
        WebSentence(r"(?<=сбоями)\s+вживую(?=:)", "", None),
        WebSentence(r"\s*Адрес\s+страницы\s+хранит\s+настройку[^.]*\.", "", ""),
        WebSentence(r";\s+её\s+адрес\s+хранит\s+настройку[^.]*(?=\.)", "", ""),
        WebSentence(r",\s+и\s+открывается\s+на\s+первом\s+шаге\.\s+Нажмите\s+"
                    r"кнопку\s+воспроизведения\s+или\s+потяните\s+ползунок\.",
                    "; на бумаге показан её последний кадр, где нарисованы все шаги.",
                    None),
        WebSentence(r"\s*На\s+статич(?:еской|ной)\s+странице\s[^.]*?\s+кнопкой\s+с\s+"
                    r"ракетой\s+вверху\s+страницы\.", None, ""),
        WebSentence(r"Два\s+ползунка", "Два элемента управления", None),
        WebSentence(r"Ползунки\s+стоят\s+на", "График стоит на", None),
        WebSentence(r"Ползунки\s+задают", "Элементы управления задают", None),
        WebSentence(r"там,\s+где\s+начинают\s+ползунки", "при напечатанной настройке",
                    None),
        WebSentence(r"ползунки\s+начинают\s+с", "график начинается с", None),
        WebSentence(r"кнопка\s+с\s+ракетой\s+вверху\s+каждой\s+главы\s+открывает\s+её",
                    "каждая глава веб-версии открывается", None),
        WebSentence(r"кнопка\s+с\s+ракетой\s+вверху\s+главы,\s+затем(?=\s)",
                    "глава веб-версии, открытая в", None),
        WebSentence(r"кнопка\s+с\s+ракетой,\s+затем(?=\s)", "глава веб-версии, открытая в",
                    None),
        WebSentence(r"\s*\(кнопка\s+с\s+ракетой\)", "", None),
    ],
}

#: (pattern, what paper says instead) per language, for :func:`split`.
PRINT_WORDS: dict[str, list[tuple[str, str]]] = {
    language: [(s.pattern, s.paper) for s in sentences if s.paper is not None]
    for language, sentences in WEB_SENTENCES.items()}

#: Words of the web page that a chapter on paper must not say (lower case): what
#: PRINT_WORDS hides, the code cells' toggles, the launch (rocket) button, the static
#: page.
WEB_ONLY_WORDS: dict[str, list[str]] = {
    "en": ["move the sliders", "on this page", "with no kernel", "press play",
           "drag the slider", "page's address", "its address keeps",
           "opens on the first", "show code cell", "hide code cell", "static page",
           "rocket button", "click", "scroll", "hover", "slider"],
    "ru": ["двигайте ползунки", "на этой странице", "прямо на странице", "без ядра",
           "нажмите", "потяните", "адрес страницы", "адрес хранит",
           "открывается на первом",
           "показать код ячейки", "скрыть код ячейки", "статической странице",
           "статичной странице", "кнопкой с ракетой", "прокрут", "щёлкн", "кликн",
           "ползун"],
}

#: What no page of the PDF prints, reference pages included (lower case): the web
#: book's launch (rocket) button, an explorer's sliders and its ipywidgets code, and the
#: glue's bookkeeping (bookbuild/book_pdf.py leaves it off paper).
NOWHERE_ON_PAPER: dict[str, list[str]] = {
    "en": ["rocket", "slider", "interact(", "glue_values(", "glue("],
    "ru": ["ракет", "ползун", "slider", "interact(", "glue_values(", "glue("],
}


def split(text: str, language: str) -> list[tuple[str, str | None]]:
    """``text`` as pieces (words, None) for plain text and (web words, print words) for
    each sentence PRINT_WORDS matches, in order; joined, the first parts give back
    ``text``."""
    spans = []
    for pattern, instead in PRINT_WORDS.get(language, []):
        for match in re.finditer(pattern, text):
            if match.end() > match.start():
                spans.append((match.start(), match.end(), instead))
    spans.sort()
    pieces: list[tuple[str, str | None]] = []
    at = 0
    for start, end, instead in spans:
        if start < at:
            continue  # overlaps one already taken
        if start > at:
            pieces.append((text[at:start], None))
        pieces.append((text[start:end], instead))
        at = end
    if at < len(text):
        pieces.append((text[at:], None))
    return pieces
