"""The book as one PDF (bookbuild/book_pdf.py), as a reader who downloads it gets it.

The book is built from the stored outputs into a temporary folder, then
bookbuild/book_pdf.py prints it there in Debian's headless Chromium, as `make book`
does. The PDF must read as a book: a cover, a printed table of contents giving the page
each page of the book starts on, every page of the table of contents in order (one
bookmark each) with its figures and typeset maths (no TeX or MyST source left in the
text), each sheet's number and running title, no web-only controls; and the landing
page must link to it.
"""

from __future__ import annotations

import html as html_lib
import io
import re
import unicodedata
from typing import NamedTuple
from pathlib import Path

import pytest

from bookbuild.book_pdf import PDF_NAME, printed_pages
from bookbuild.run import ROOT, sphinx_extension

WEB_ONLY_WORDS = sphinx_extension("print_words").WEB_ONLY_WORDS
NOWHERE_ON_PAPER = sphinx_extension("print_words").NOWHERE_ON_PAPER

pytestmark = pytest.mark.xdist_group(name="pdf")

#: Each edition's source (its _toc.yml and _config.yml): the Russian book is printed from
#: ru/ into the site's ru/ folder.
SOURCES = {"en": ROOT, "ru": ROOT / "ru"}
# Source a reader should never see on paper: TeX that MathJax did not typeset, MyST roles
# and directives that did not render.
RAW_SOURCE = ["$$", r"\frac", r"\begin", "{glue", "{cite}", "{doc}", "{math}", "```{"]
#: The printed contents' heading (bookbuild/book_pdf.py, locale/ru/code/book_pdf.po).
CONTENTS = {"en": "Contents", "ru": "Содержание"}
#: book/_static/print.css's sentence under each live explorer on paper.
EXPLORER_NOTE = {"en": "On paper the chart stands at its default setting",
                 "ru": "На бумаге график стоит при настройках по умолчанию"}
#: Words about the web page, which paper does not have (book/_ext/print_words.py, whose
#: sentences print.css hides): the explorers' "Move the sliders ... on this page", the
#: animation's "Press play", the code cells' toggles, the launch (rocket) button.
WEB_ONLY = WEB_ONLY_WORDS
#: The body of an A4 sheet in PDF points from its foot: inside bookbuild/book_pdf.py's
#: 16 mm margins, where the page is printed (the stamps, running title and page number,
#: sit in the margins).
SHEET_HEIGHT = 841.89
BODY_FOOT, BODY_HEAD = 16 / 25.4 * 72, SHEET_HEIGHT - 16 / 25.4 * 72
#: A sheet inside a page of the book may leave at most this share of its body blank
#: (a figure or a block that moved to the next sheet); a page's last sheet may end
#: short.
MOST_BLANK = 0.55
#: Names with an English function word in them, which the no-English check would read as
#: a clause.
NAMES = ["Zero to JupyterHub"]


@pytest.fixture(scope="module", params=list(SOURCES))
def edition(request):
    return request.param


@pytest.fixture(scope="module")
def book(built_site, edition):
    """One edition of the book built from stored outputs, with its PDF printed
    (tests/conftest.py builds both editions once per run)."""
    import bookbuild.site

    pytest.importorskip("playwright.sync_api")
    html, result = built_site
    failed = bookbuild.site.failed(result)
    assert not failed, "\n".join(failed)[-8000:]
    return html if edition == "en" else html / edition


@pytest.fixture(scope="module")
def pages(edition):
    return printed_pages(SOURCES[edition])


@pytest.fixture(scope="module")
def chapter_pages(pages):
    return [page for page in pages if page.startswith("chapters/")]


@pytest.fixture(scope="module")
def pdf(book):
    from pypdf import PdfReader

    path = book / PDF_NAME
    assert path.is_file(), f"bookbuild/book_pdf.py made no {PDF_NAME}"
    return PdfReader(path)


@pytest.fixture(scope="module")
def bookmarks(pdf):
    """(title, first sheet, sheet after the last) for each bookmark, in order: the
    contents, then each page of the table of contents."""
    starts = [(item.title, pdf.get_destination_page_number(item)) for item in pdf.outline
              if not isinstance(item, list)]   # (a list: a page's own headings)
    ends = [start for _, start in starts[1:]] + [len(pdf.pages)]
    return [(title, start, end) for (title, start), end in zip(starts, ends)]


@pytest.fixture(scope="module")
def sections(bookmarks):
    """The bookmarks of the book's pages (all but the contents')."""
    return bookmarks[1:]


@pytest.fixture(scope="module")
def config(edition):
    import yaml

    return yaml.safe_load((SOURCES[edition] / "_config.yml").read_text())


class Sheet(NamedTuple):
    """What one sheet of the PDF shows."""

    #: its text, whitespace and ligatures normalised
    text: str
    #: its text but code, maths and citations, line by line
    prose: list[str]
    #: the share of the body, from its head, down to the lowest text or image on it
    filled: float


def _times(a, b) -> list[float]:
    """The product of two PDF transformation matrices (a then b), as six numbers."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _content(sheet):
    """The sheet's content stream, parsed once for all who read it: put back in the page
    parsed, pypdf's text extraction uses it as it is (parsing a sheet's stream is most of
    reading it, and the text and the images drawn were each parsing it again)."""
    from pypdf.generic import ContentStream, NameObject

    if "/Contents" not in sheet:
        return None
    content = sheet["/Contents"].get_object()
    if not isinstance(content, ContentStream):
        content = ContentStream(content, sheet.pdf, "bytes")
        sheet[NameObject("/Contents")] = content
    return content


def _read(sheet) -> Sheet:
    """One sheet read once: its text, its prose, and how far down its body is filled
    (from where each piece of text and each image is drawn)."""
    _content(sheet)
    pieces: list[str] = []
    lowest = [BODY_HEAD]

    def ink(*heights: float) -> None:
        inside = [y for y in heights if BODY_FOOT <= y <= BODY_HEAD]
        if inside:
            lowest[0] = min(lowest[0], *inside)

    def on_text(words, cm, tm, font, size):
        font_name = str((font or {}).get("/BaseFont", "")).lower()
        # code (a monospace font) and maths (MathJax's web fonts, which Chromium embeds
        # as Type 3 fonts with no name) are not prose
        code = not font_name or any(name in font_name for name in ("mono", "courier"))
        pieces.append("\n" if code else words)
        if words.strip():
            ink(_times(tm, cm)[5])

    def on_operator(operator, operands, cm, tm):
        if operator == b"Do":  # an image: the unit square, transformed
            ink(cm[5], cm[5] + cm[3])

    words = sheet.extract_text(visitor_text=on_text, visitor_operand_before=on_operator)
    # a citation's label ("[Huang et al., 2024]") names a work as it was published
    prose = [" ".join(line.split()) for line in
             re.sub(r"\[[^\[\]]*\]", " ", "".join(pieces)).splitlines()]
    return Sheet(" ".join(unicodedata.normalize("NFKC", words or "").split()),
                 [unicodedata.normalize("NFKC", line) for line in prose if line],
                 (BODY_HEAD - lowest[0]) / (BODY_HEAD - BODY_FOOT))


@pytest.fixture(scope="module")
def layout(pdf) -> list[Sheet]:
    """Every sheet of the PDF, read once per edition."""
    return [_read(sheet) for sheet in pdf.pages]


@pytest.fixture(scope="module")
def text(layout):
    """The PDF's text, per sheet, with whitespace and ligatures normalised."""
    return [sheet.text for sheet in layout]


def _title(html: Path, page: str) -> str:
    """A page's title as the built site gives it (the <title> before the book's name)."""
    found = re.search(r"<title>(.*?)</title>", (html / f"{page}.html").read_text(), re.S)
    assert found, f"{page}.html has no <title>"
    return " ".join(html_lib.unescape(found.group(1)).split(" \u2014 ")[0].split())


def _images(resources, seen: set) -> int:
    """Image XObjects drawn from ``resources``, inside form XObjects too, each once."""
    count = 0
    for ref in ((resources or {}).get("/XObject") or {}).values():
        if ref.idnum in seen:
            continue
        seen.add(ref.idnum)
        xobject = ref.get_object()
        if xobject.get("/Subtype") == "/Image":
            count += 1
        elif xobject.get("/Subtype") == "/Form":
            count += _images(xobject.get("/Resources"), seen)
    return count


def test_pdf_exists(book, pdf, pages, edition):
    import yaml

    path = book / PDF_NAME
    assert path.read_bytes()[:5] == b"%PDF-"
    assert len(pdf.pages) >= len(pages)
    config = yaml.safe_load((SOURCES[edition] / "_config.yml").read_text())
    assert pdf.metadata.title == config["title"]
    # the subject in the edition's language (bookbuild.book_pdf.metadata)
    from bookbuild.book_pdf import metadata
    assert pdf.metadata.subject == metadata(config["title"], config.get("author", ""),
                                            edition)["/Subject"]
    assert "/CreationDate" not in pdf.metadata and "/ModDate" not in pdf.metadata


def test_one_bookmark_per_page_in_toc_order(book, bookmarks, sections, pages, edition):
    """The cover has no bookmark; the contents follow it, then the pages in order."""
    assert bookmarks[0][:2] == (CONTENTS[edition], 1), bookmarks[0]
    assert [title for title, _, _ in sections] == [_title(book, page) for page in pages]
    starts = [start for _, start, _ in sections]
    assert starts[0] == bookmarks[0][2] and starts == sorted(set(starts)), starts


def test_the_cover_is_the_title_and_authors(text, config):
    assert text[0] == " ".join(f"{config['title']} {config['author']}".split()), text[0]


def test_every_sheet_but_the_cover_prints_its_page_number(text):
    """The number at the foot of a sheet is its place in the PDF (the number a PDF reader
    shows): the stamp is drawn last, so its number ends the sheet's text."""
    assert not re.search(r"\d$", text[0]), "the cover carries a page number"
    for sheet, words in enumerate(text[1:], start=2):
        assert re.search(rf"(?<!\d){sheet}$", words), f"sheet {sheet} ends {words[-60:]!r}"


def test_every_sheet_carries_its_section_title(text, bookmarks):
    """The running title at the head of each sheet is the title of the page (or the
    contents) the sheet belongs to, just before the page number."""
    for title, start, end in bookmarks:
        for sheet in range(start, end):
            assert text[sheet].endswith(f"{' '.join(title.split())} {sheet + 1}"), (
                f"sheet {sheet + 1} of {title!r} ends {text[sheet][-80:]!r}")


def test_the_contents_list_every_page_where_its_title_appears(text, bookmarks, sections,
                                                              chapter_pages, pages):
    """Each page of the book is in the printed contents with the number of the sheet it
    starts on, and a chapter's title is printed on that sheet."""
    _, start, end = bookmarks[0]
    contents = " ".join(text[start:end])
    for page, (title, first, _) in zip(pages, sections):
        title = " ".join(title.split())
        assert re.search(rf"{re.escape(title)} {first + 1}(?!\d)", contents), (
            f"the contents do not list {title!r} on page {first + 1}")
        if page in chapter_pages:
            body = text[first][:-len(f"{title} {first + 1}")]
            assert title in body, f"{page}: {title!r} is not printed on page {first + 1}"


def test_no_web_only_words(text, sections, pages, chapter_pages, edition):
    """A chapter on paper has no buttons to press and no widget to launch. (The reference
    pages, How to use this book among them, describe the web book and its launch button
    on purpose.)"""
    for page, (title, start, end) in zip(pages, sections):
        if page not in chapter_pages:
            continue
        for sheet in range(start, end):
            words = text[sheet].lower().replace("\u2019", "'")
            found = [w for w in WEB_ONLY[edition] if w in words]
            assert found == [], f"{page}, page {sheet + 1}: {found}"


def test_no_page_prints_the_launch_button_sliders_or_bookkeeping(text, edition):
    """No page of the PDF, reference pages included, speaks of the web book's rocket
    button or an explorer's sliders (book/_ext/print_words.py gives paper other words),
    or prints an explorer's ipywidgets code or a glue statement (print.css and
    bookbuild/book_pdf.py leave them off paper)."""
    found = {}
    for sheet, words in enumerate(text):
        lower = words.lower()
        hits = [w for w in NOWHERE_ON_PAPER[edition] if w in lower]
        if hits:
            found[sheet + 1] = hits
    assert found == {}, f"sheets and what they print: {found}"


#: The lesson plans' table (book/teaching.md): its narrow columns' header words, and a
#: word of its wide column on the same line.
PLAN_HEADERS = {"en": (["min", "lesson"], "what to do", "where"),
                "ru": (["мин", "урок"], "что делать", "где")}


def test_table_header_words_print_whole(book, edition):
    """A table that fits the sheet with its words whole prints them whole: the lesson
    plans' "min" and "lesson" columns printed "mi"/"n" and "le"/"ss"/"on" (print.css let
    every cell wrap anywhere); read with pdftotext's layout, as a reader sees it."""
    import shutil
    import subprocess

    tool = shutil.which("pdftotext")
    assert tool, "pdftotext (poppler-utils) reads the PDF's layout: apt-get install " \
                 "poppler-utils"
    laid_out = subprocess.run([tool, "-layout", str(book / PDF_NAME), "-"],
                              capture_output=True, text=True, check=True).stdout
    narrow, wide, last = PLAN_HEADERS[edition]
    lines = [line.split() for line in laid_out.splitlines()
             if wide in line and line.split()[-1] == last]
    assert lines, f"no line of the PDF holds the lesson plans' header {wide!r}"
    for words in lines:
        assert words[:len(narrow)] == narrow, f"header printed as {' '.join(words)!r}"


def test_no_page_opens_with_the_web_pages_own_contents(text, sections, edition):
    """The theme prints each page's list of its sections under a "Contents" heading:
    web navigation, which the book's printed contents already give. A page on paper
    starts with its title and then its text."""
    for title, start, _ in sections:
        title = " ".join(title.split())
        assert not re.match(rf"\s*{re.escape(title)}\s+{CONTENTS[edition]}\b",
                            text[start]), f"{title!r} opens with its own contents list"


def test_no_sheet_is_half_blank_inside_a_page(layout, bookmarks):
    """A figure or block too tall for what is left of a sheet moves to the next one; the
    sheet it leaves must still be mostly filled. Only the last sheet of a page (a
    chapter ends where it ends), the cover and the contents may stand half empty."""
    last = {end - 1 for _, _, end in bookmarks}
    contents_end = bookmarks[0][2]
    blank = [f"page {number + 1} ({layout[number].text[-50:]!r}): "
             f"{1 - layout[number].filled:.0%} blank"
             for number in range(contents_end, len(layout))
             if number not in last and 1 - layout[number].filled > MOST_BLANK]
    assert blank == [], "\n".join(blank)


def test_the_blank_measure_sees_the_foot_of_a_full_sheet(layout, bookmarks):
    """The measure itself: most sheets of the book are filled nearly to their foot."""
    filled = sorted(sheet.filled for sheet in layout[bookmarks[0][2]:])
    assert filled[len(filled) // 2] > 0.85, filled[len(filled) // 2]


def test_explorers_print_their_chart_and_where_it_moves(text, sections, pages,
                                                       chapter_pages, edition):
    """Every chapter's live explorer prints its default chart without sliders, and one
    sentence says that the chart moves in the web book or the launch notebook."""
    for page, (title, start, end) in zip(pages, sections):
        if page in chapter_pages:
            own = " ".join(text[start:end])
            assert EXPLORER_NOTE[edition] in own, f"{page}: no note under its explorer"


def test_every_chapter_title_is_in_the_text(book, sections, text, pages, chapter_pages):
    """The titles as text (in the Russian book, Cyrillic the PDF can give back: drawn
    from a font that has the letters, not as missing-glyph boxes)."""
    for page, (title, start, end) in zip(pages, sections):
        if page in chapter_pages:
            own = " ".join(text[start:end])
            assert " ".join(title.split()) in own, f"{page}: {title!r} not on its own sheets"


def test_every_chapter_carries_its_figures(pdf, sections, pages, chapter_pages):
    for page, (title, start, end) in zip(pages, sections):
        if page in chapter_pages:
            seen: set = set()
            found = sum(_images(pdf.pages[i].get("/Resources"), seen) for i in range(start, end))
            assert found >= 1, f"{page} ({title}): no image on sheets {start + 1}-{end}"


def test_no_raw_tex_or_myst_in_the_text(sections, text):
    for title, start, end in sections:
        own = " ".join(text[start:end])
        left = [raw for raw in RAW_SOURCE if raw in own]
        # an HTML entity (``pass&#64;k``) is markup that reached the paper as text
        left += re.findall(r"&(?:#\d+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);", own)
        assert left == [], f"{title}: {left} printed as source"


def test_landing_page_links_the_pdf(book, pages):
    root = book / f"{pages[0]}.html"
    hrefs = re.findall(r'href="([^"]+\.pdf)"', root.read_text())
    assert hrefs, f"{pages[0]}.html does not link the PDF"
    for href in hrefs:
        assert (root.parent / href).resolve() == (book / PDF_NAME).resolve(), href
    # the site's own front door sends readers to that page
    assert f"{pages[0]}.html" in (book / "index.html").read_text()


def test_the_russian_pdf_is_in_russian(built_site):
    """Most of the Russian PDF's words are Cyrillic, extracted as text: the letters were
    drawn from a font that has them."""
    from pypdf import PdfReader

    html, _ = built_site
    reader = PdfReader(html / "ru" / PDF_NAME)
    words = " ".join((sheet.extract_text() or "") for sheet in reader.pages[:12]).split()
    cyrillic = [w for w in words if re.search("[а-яё]", w, re.I)]
    assert len(cyrillic) > 0.5 * len([w for w in words if re.search("[a-zа-яё]", w, re.I)])


def test_the_russian_pdf_says_nothing_in_english(layout, sections, pages, edition):
    """The Russian PDF's prose through tests/test_translation.py's check of the Russian
    outputs: no English clause, no two English words in a row, no English function word
    on a short line. Code (a monospace font) and maths are not prose, a citation names a
    work as published, the references page lists the works so and the glossary gives
    each term in English too."""
    from bookbuild import catalogs as translate

    if edition != "ru":
        pytest.skip("the English edition is in English")
    english = []
    for page, (title, start, end) in zip(pages, sections):
        if page in ("book/references", "book/glossary"):
            continue  # the works as published; each term in both languages
        for number in range(start, end):
            for line in layout[number].prose:
                for name in NAMES:
                    line = line.replace(name, " ")
                if translate.english_phrases(line) or (
                        len(line) < 90 and translate.english_label(line)):
                    english.append(f"page {number + 1} ({title}): {line[:100]}")
    assert english == [], "the Russian PDF prints English:\n" + "\n".join(english[:40])


def test_the_build_refuses_to_print_a_page_wider_than_the_sheet(tmp_path):
    """The article is centred on the sheet: a page wider than it loses letters at both
    edges of every line. bookbuild/book_pdf.py measures every page as it prints it and
    refuses to make the PDF when one is too wide, so a built PDF (the ``book`` fixture
    fails on a failed build) holds no such page; measuring every page here again was
    the same work twice. Here: the build's own printing refuses a page with a table of
    unbreakable cells, and prints the same page without it."""
    pytest.importorskip("playwright.sync_api")
    from bookbuild.book_pdf import browser, print_pages

    cells = "".join(f"<td>{'9' * 40}</td>" for _ in range(6))
    for name, body in (("wide", f"<table><tr>{cells}</tr></table>"), ("fits", "<p>ok</p>")):
        (tmp_path / f"{name}.html").write_text(
            '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title>'
            f'</head><body><article class="bd-article">{body}</article></body></html>')
    with browser(tmp_path) as (context, base):
        assert len(print_pages(context, base, tmp_path, ["fits"])) == 1
        with pytest.raises(SystemExit, match="wide is [0-9]+px wider than the sheet"):
            print_pages(context, base, tmp_path, ["wide"])


#: A table like chapter 5's in Russian: more long header words than fit on a line.
WIDE_HEADERS = ["самоисправления", "перепроверенных", "неподвижная точка",
                "исправлений", "симулированное среднее", "стандартная ошибка",
                "расхождение", "достоверность", "вызовы пересмотра"]


@pytest.mark.parametrize("with_print_css", [True, False])
def test_print_css_keeps_a_table_of_long_headers_within_the_sheet(tmp_path,
                                                                   with_print_css):
    """print.css lets header cells wrap as well as data cells, so a table of long
    Russian headers fits the sheet; without it the same page is measured too wide (the
    measure can fail)."""
    pytest.importorskip("playwright.sync_api")
    from bookbuild.book_pdf import browser, wider_than_sheet

    static = ROOT / "book" / "_static"
    (tmp_path / "_static").mkdir()
    for name in ("print.css", "figures.css"):
        (tmp_path / "_static" / name).write_text((static / name).read_text())
    links = "".join(f'<link rel="stylesheet" href="_static/{name}">' for name in
                    (["print.css"] if with_print_css else []) + ["figures.css"])
    header = "".join(f"<th>{words}</th>" for words in WIDE_HEADERS)
    row = "".join("<td>0,5</td>" for _ in WIDE_HEADERS)
    (tmp_path / "page.html").write_text(
        f'<!DOCTYPE html><html lang="ru"><head><meta charset="utf-8">{links}</head>'
        # the theme's frame: the article inside a flex box, which grows with the
        # narrowest its content can be
        '<body><div class="bd-container" style="display: flex"><div '
        'class="bd-container__inner"><main class="bd-main"><article class="bd-article">'
        '<div class="cell_output"><div class="output text_html"><div '
        f'class="table-scroll"><table><thead><tr>{header}</tr></thead><tbody><tr>{row}'
        "</tr></tbody></table></div></div></div></article></main></div></div>"
        "</body></html>")
    with browser(tmp_path) as (context, base):
        tab = context.new_page()
        tab.goto(f"{base}/page.html", wait_until="load")
        wider = wider_than_sheet(tab)
    assert (wider <= 1) == with_print_css, f"{wider}px wider than the sheet"


def _print_page(tmp_path, body: str) -> Path:
    static = ROOT / "book" / "_static"
    (tmp_path / "_static").mkdir(exist_ok=True)
    for name in ("print.css", "figures.css"):
        (tmp_path / "_static" / name).write_text((static / name).read_text())
    (tmp_path / "page.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<link rel="stylesheet" href="_static/print.css">'
        '<link rel="stylesheet" href="_static/figures.css"></head>'
        f'<body><article class="bd-article">{body}</article></body></html>')
    return tmp_path / "page.html"


_BROKEN_WORDS_JS = """() => Array.from(document.querySelectorAll("th")).flatMap(th => {
    const text = th.firstChild;
    const broken = [];
    for (const found of th.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, found.index);
        range.setEnd(text, found.index + found[0].length);
        const tops = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
        if (tops.size > 1) { broken.push(found[0]); }
    }
    return broken;
})"""


@pytest.mark.parametrize("tried", [True, False])
def test_a_table_that_fits_keeps_its_header_words_whole(tmp_path, tried):
    """The lesson plans' table fits the sheet with its words whole, so the PDF stage
    keeps them whole (print-whole-words); untried, print.css's wrap-anywhere breaks
    "lesson" in its narrow column (the measure can fail)."""
    pytest.importorskip("playwright.sync_api")
    from bookbuild.book_pdf import _WHOLE_WORDS_JS, browser, wider_than_sheet

    long = "The green dashboard and the complaints: availability and quality " * 3
    rows = "".join(f"<tr><td>{n}</td><td>{n % 9}</td><td>{long}</td><td>cell {n}; "
                   "section The horizon</td></tr>" for n in range(5, 20, 5))
    _print_page(tmp_path, '<div class="table-wrapper"><table><thead><tr><th>min</th>'
                "<th>lesson</th><th>what to do</th><th>where</th></tr></thead>"
                f"<tbody>{rows}</tbody></table></div>")
    with browser(tmp_path) as (context, base):
        tab = context.new_page()
        tab.goto(f"{base}/page.html", wait_until="load")
        assert wider_than_sheet(tab) <= 1
        if tried:
            assert tab.evaluate(_WHOLE_WORDS_JS) == 1
        broken = tab.evaluate(_BROKEN_WORDS_JS)
        assert wider_than_sheet(tab) <= 1
    assert (broken == []) == tried, f"header words printed broken: {broken}"


def test_glue_statements_and_widget_cells_are_left_off_paper(tmp_path):
    """A code cell's glue_values(...) statement, over several lines, prints no line; a
    cell of nothing else and an explorer's widget cell (remove-output) print nothing;
    the code around them prints."""
    pytest.importorskip("playwright.sync_api")
    from bookbuild.book_pdf import _READY_JS, browser

    def cell(code: str, tags: str = "") -> str:
        return (f'<div class="cell docutils container{tags}"><div class="cell_input">'
                f'<div class="highlight"><pre>{code}</pre></div></div></div>')

    _print_page(tmp_path, "".join([
        cell("x = 1\nglue_values(a=x,\n            b=f(\"(\"))\nprint(x)"),
        cell("glue_values(only=1)"),
        cell("interact(explore, n=IntSlider())", " tag_remove-output"),
        "<p>An explorer's cells follow.</p>",
        cell("from ipywidgets import interact", " tag_remove-output")]))
    with browser(tmp_path) as (context, base):
        tab = context.new_page()
        tab.goto(f"{base}/page.html", wait_until="load")
        tab.evaluate(_READY_JS)
        tab.emulate_media(media="print")
        shown = tab.evaluate("() => document.querySelector('article').innerText")
    assert "x = 1" in shown and "print(x)" in shown
    for gone in ("glue_values", "b=f", "only=1", "interact", "ipywidgets",
                 "An explorer's cells follow"):
        assert gone not in shown, f"{gone!r} prints: {shown!r}"


# What each live explorer's chart is drawn at when print media applies (a listener added
# after live.js's own runs after it): its SVG's width, and its column's.
_EXPLORERS_AT_PRINT_JS = """() => {
    window.drawnForPrint = [];
    matchMedia("print").addEventListener("change", (event) => {
        if (!event.matches) { return; }
        for (const svg of Array.from(document.querySelectorAll(".live-svg"))) {
            drawnForPrint.push([Number(svg.getAttribute("width")),
                                svg.closest(".live-chart").clientWidth]);
        }
    });
}"""


def test_an_explorer_drawn_for_a_phone_prints_across_the_column(tmp_path):
    """A live explorer is drawn at the width its column has on screen (book/_static/
    live.js); printed (Chromium's PDF, as a reader's print), the sheet's column is wider
    with no resize event: the chart is drawn again across the column, not printed at a
    phone's third of it."""
    pytest.importorskip("playwright.sync_api")
    from bookbuild.book_pdf import PAGE_OPTIONS, browser
    from reliability.figures import chain

    static = ROOT / "book" / "_static"
    (tmp_path / "_static").mkdir()
    for name in ("print.css", "live.css", "live.js"):
        (tmp_path / "_static" / name).write_text((static / name).read_text())
    (tmp_path / "page.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<link rel="stylesheet" href="_static/print.css">'
        '<link rel="stylesheet" href="_static/live.css">'
        '<script src="_static/live.js"></script></head><body><article class="bd-article">'
        f'{chain.live_decay(runs=20, seed=1).html()}</article></body></html>')
    with browser(tmp_path) as (context, base):
        tab = context.new_page()
        tab.set_viewport_size({"width": 358, "height": 700})   # a phone's column
        tab.goto(f"{base}/page.html", wait_until="load")
        tab.wait_for_selector(".live-explorer.live-ready .live-svg")
        on_screen = tab.evaluate("() => Number(document.querySelector('.live-svg')"
                                 ".getAttribute('width'))")
        tab.evaluate(_EXPLORERS_AT_PRINT_JS)
        tab.pdf(**PAGE_OPTIONS)
        printed = tab.evaluate("() => window.drawnForPrint")
    assert on_screen < 400, f"the chart was drawn {on_screen} px wide on a phone"
    assert printed, "print media never applied"
    for drawn, column in printed:
        assert column > 1.5 * on_screen and abs(drawn - column) <= 1, (
            f"printed at {drawn} px in a column of {column} px (on screen: {on_screen})")


@pytest.mark.parametrize("marked", [True, False])
def test_a_number_in_a_squeezed_table_prints_on_one_line(tmp_path, marked):
    """A table squeezed to the sheet wraps its cells anywhere (print.css), but a number
    stays whole: bookbuild/book_pdf.py marks each number in a cell and print.css keeps it
    on one line, where «0,805» printed as «0,» over «805» (issue 41). Unmarked, the same
    numbers are measured split (the measure can fail)."""
    pytest.importorskip("playwright.sync_api")
    from bookbuild.book_pdf import _READY_JS, browser

    static = ROOT / "book" / "_static"
    (tmp_path / "_static").mkdir()
    for name in ("print.css", "figures.css"):
        (tmp_path / "_static" / name).write_text((static / name).read_text())
    numbers = ["0,805", "12\u00a0345,678", "\u22122,4", "64,5%", "[0,910; 0,933]"]
    cells = [numbers[i % len(numbers)] for i in range(3 * len(WIDE_HEADERS))]
    header = "".join(f"<th>{words}</th>" for words in WIDE_HEADERS * 3)
    row = "".join(f"<td>{number}</td>" for number in cells)
    (tmp_path / "page.html").write_text(
        '<!DOCTYPE html><html lang="ru"><head><meta charset="utf-8">'
        '<link rel="stylesheet" href="_static/print.css">'
        '<link rel="stylesheet" href="_static/figures.css"></head>'
        '<body><article class="bd-article"><div class="cell_output"><table><thead><tr>'
        f"{header}</tr></thead><tbody><tr>{row}</tr></tbody></table></div></article>"
        "</body></html>")
    with browser(tmp_path) as (context, base):
        tab = context.new_page()
        tab.goto(f"{base}/page.html", wait_until="load")
        tab.emulate_media(media="print")
        tab.set_viewport_size({"width": 687, "height": 900})
        if marked:
            tab.evaluate(_READY_JS)
        # each number's own lines: a number laid out on two lines has two line boxes
        split = tab.evaluate(r"""() => {
            const out = [];
            for (const cell of document.querySelectorAll("td")) {
                for (const number of cell.textContent.match(/[\u2212-]?\d[\d\u00a0,]*%?/g)) {
                    const start = cell.textContent.indexOf(number);
                    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
                    let seen = 0, range = document.createRange(), begun = false;
                    while (walker.nextNode()) {
                        const node = walker.currentNode, len = node.textContent.length;
                        if (!begun && start < seen + len) {
                            range.setStart(node, start - seen); begun = true;
                        }
                        if (begun && start + number.length <= seen + len) {
                            range.setEnd(node, start + number.length - seen); break;
                        }
                        seen += len;
                    }
                    const tops = new Set(Array.from(range.getClientRects())
                                         .map(r => Math.round(r.top)));
                    if (tops.size > 1) { out.push(number); }
                }
            }
            return out;
        }""")
    assert (split == []) == marked, f"numbers split across lines: {split}"


#: A4's text column (210 mm less bookbuild/book_pdf.py's 14-mm margins), in PDF points.
COLUMN_PT = (210 - 2 * 14) / 25.4 * 72
#: The share of the column a figure drawn for the page must print across.
MOST_OF_THE_COLUMN = 0.8


def _drawn_images(pdf, sheet, ctm=(1, 0, 0, 1, 0, 0), resources=None, content=None):
    """Each image drawn on ``sheet`` (inside form XObjects too) as (the image XObject,
    the width it is drawn at in points), from the content stream's transforms."""
    from pypdf.generic import ContentStream

    resources = (sheet.get("/Resources") if resources is None else resources) or {}
    xobjects = resources.get("/XObject") or {}
    content = _content(sheet) if content is None else content
    drawn, stack, now = [], [], list(ctm)
    if content is None:
        return drawn
    for operands, operator in content.operations:
        if operator == b"q":
            stack.append(list(now))
        elif operator == b"Q" and stack:
            now = stack.pop()
        elif operator == b"cm":
            now = _times([float(x) for x in operands], now)
        elif operator == b"Do" and operands[0] in xobjects:
            xobject = xobjects[operands[0]].get_object()
            if xobject.get("/Subtype") == "/Image":
                drawn.append((xobject, (now[0] ** 2 + now[1] ** 2) ** 0.5))
            elif xobject.get("/Subtype") == "/Form":
                matrix = [float(x) for x in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                drawn += _drawn_images(pdf, sheet, _times(matrix, now),
                                       xobject.get("/Resources") or resources,
                                       ContentStream(xobject, pdf))
    return drawn


def _pixels(image) -> str:
    """A digest of an image's RGB pixels."""
    import hashlib

    return hashlib.sha256(image.convert("RGB").tobytes()).hexdigest()


@pytest.fixture(scope="module")
def page_figures(book, edition, pages):
    """The chapters' figures drawn for the page, as the PDF prints them: site image file
    -> (its pixels, their width, its smallest text's height in pixels, the PNG's
    digest), by bookbuild/book_pdf.py's page_figures (drawn by the build; kept between
    builds)."""
    import hashlib

    from PIL import Image

    from bookbuild.book_pdf import page_figures as drawn_for_the_page
    from reliability.notebook.legibility import TEXT_SIZE_KEY

    found = {}
    for name, png in drawn_for_the_page(book, SOURCES[edition], pages).items():
        image = Image.open(io.BytesIO(png))
        found[name] = (_pixels(image), image.width, float(image.text[TEXT_SIZE_KEY]),
                       hashlib.sha256(png).hexdigest())
    return found


def test_figures_print_across_the_column_with_text_of_at_least_8_pt(
        pdf, sections, pages, chapter_pages, page_figures):
    """Every chapter's figures drawn for the page (reliability.figures._media's "page"
    medium) are in the PDF, each printed across most of the text column, and the
    smallest text of each prints at 8 pt or more: its height in the PNG's pixels, scaled
    by the width the sheet draws the PNG at. No chapter prints a figure drawn for a
    phone (a figure cell the PDF did not draw again, an animation's frame from its
    player): each image on a chapter's sheets is one drawn for the page."""
    from reliability.figures._media import PAGE_MIN_TEXT_PT

    assert len(page_figures) >= 2 * len(chapter_pages), (
        f"{len(page_figures)} figures drawn for the page for {len(chapter_pages)} "
        "chapters")
    # a printed figure is known by its pixels (the PDF keeps them as the PNG has them)
    by_pixels = {pixels: (name, wide, text)
                 for name, (pixels, wide, text, _png) in page_figures.items()}
    sizes = {wide for _pixels, wide, _text, _png in page_figures.values()}
    printed, problems = set(), []
    for page, (title, start, end) in zip(pages, sections):
        if page not in chapter_pages:
            continue
        for sheet in range(start, end):
            for xobject, width in _drawn_images(pdf, pdf.pages[sheet]):
                found = None
                if int(xobject["/Width"]) in sizes:   # (decoded only if it may be one)
                    found = by_pixels.get(_pixels(xobject.decode_as_image()))
                if found is None:
                    problems.append(f"{page}, sheet {sheet + 1}: a figure drawn for a "
                                    f"phone, {int(xobject['/Width'])} px printed "
                                    f"{width:.0f} pt wide of the column's "
                                    f"{COLUMN_PT:.0f}")
                    continue
                name, wide, text_px = found
                printed.add(name)
                text_pt = text_px * width / wide
                if width < MOST_OF_THE_COLUMN * COLUMN_PT or text_pt < PAGE_MIN_TEXT_PT:
                    problems.append(f"{page}, sheet {sheet + 1}: a figure {width:.0f} pt "
                                    f"wide of the column's {COLUMN_PT:.0f}, its smallest "
                                    f"text {text_pt:.1f} pt")
    assert problems == [], "\n".join(problems)
    assert printed == set(page_figures), (
        f"not printed: {sorted(set(page_figures) - printed)}")


def test_the_site_never_serves_a_figure_drawn_for_paper(book, page_figures):
    """The figures drawn for the page reach only the printing browser: no file of the
    built site is one of them, so a phone loads not a byte more."""
    import hashlib

    served = {hashlib.sha256(path.read_bytes()).hexdigest()
              for path in book.rglob("*.png")}
    assert not [name for name, (*_, png) in page_figures.items() if png in served]


def _structure(pdf) -> list:
    """Every element of the PDF's structure tree, in reading order, as dictionaries."""
    tree = pdf.trailer["/Root"]["/StructTreeRoot"]
    found, stack = [], [tree.get("/K")]
    while stack:
        kids = stack.pop()
        kids = kids.get_object() if hasattr(kids, "get_object") else kids
        for kid in reversed(list(kids) if isinstance(kids, list) else [kids]):
            element = kid.get_object() if hasattr(kid, "get_object") else kid
            if isinstance(element, dict) and "/S" in element:
                found.append(element)
                stack.append(element.get("/K"))
    return found


def _words(element) -> str:
    """The text an element of the structure tree marks, as the PDF's text (not needed:
    its alt text, or its type)."""
    return str(element.get("/Alt") or "").strip()


def test_the_pdf_is_tagged_with_headings_and_figures_with_alt_text(pdf, pages, edition):
    """A screen reader gets the book's structure: the PDF is marked, its structure tree
    has a top heading for every page printed (and the contents), second-level headings,
    and its figures carry alt text (the site's, in the edition's language); every
    sheet's marked content is tied to the tree."""
    root = pdf.trailer["/Root"]
    assert bool(root.get("/MarkInfo", {}).get("/Marked")), root.get("/MarkInfo")
    assert "/StructTreeRoot" in root
    elements = _structure(pdf)
    kinds = [str(element["/S"]) for element in elements]
    assert kinds.count("/H1") >= len(pages) + 1, kinds.count("/H1")
    assert kinds.count("/H2") >= len(pages), kinds.count("/H2")
    figures = [element for element in elements if element["/S"] == "/Figure"]
    with_alt = [element for element in figures if _words(element)]
    assert len(with_alt) >= 2 * len([p for p in pages if p.startswith("chapters/")]), (
        f"{len(with_alt)} of {len(figures)} figures have alt text")
    if edition == "ru":
        assert any(re.search("[а-яё]{4}", _words(element), re.I) for element in with_alt)
    keys = {int(key) for key in
            root["/StructTreeRoot"]["/ParentTree"].get_object()["/Nums"][::2]}
    untied = [number + 1 for number, sheet in enumerate(pdf.pages)
              if sheet.get("/StructParents") is not None
              and int(sheet["/StructParents"]) not in keys]
    assert untied == [], f"sheets whose marked content has no structure: {untied}"
    assert sum(sheet.get("/StructParents") is not None for sheet in pdf.pages) \
        >= len(pdf.pages) - 1


def test_each_chapters_bookmark_holds_its_sections(pdf, pages, sections, chapter_pages):
    """Under each chapter's bookmark, its sections' headings (Chromium's outline of the
    printed page), each pointing at a sheet of that chapter."""
    outline = list(pdf.outline)
    entries = [i for i, item in enumerate(outline) if not isinstance(item, list)][1:]
    for page, (title, start, end), at in zip(pages, sections, entries):
        if page not in chapter_pages:
            continue
        under = outline[at + 1] if at + 1 < len(outline) else None
        assert isinstance(under, list) and len(under) >= 3, f"{title}: no sections"
        heads = [item for item in under if not isinstance(item, list)]
        sheets = [pdf.get_destination_page_number(item) for item in heads]
        assert all(start <= sheet < end for sheet in sheets), (title, sheets, start, end)
        assert all(item.title.strip() and item.title.strip() != title for item in heads)


def test_the_pdf_metadata_is_in_the_editions_language():
    """The PDF's document information (a PDF reader shows its subject beside the title)
    is in the edition's language: the Russian subject comes from locale/ru/code/
    book_pdf.po, not the English sentence; neither carries a date."""
    from bookbuild import catalogs
    from bookbuild.book_pdf import metadata

    english, russian = metadata("Title", "Author"), metadata("Заглавие", "Автор", "ru")
    assert set(english) == set(russian) == {"/Title", "/Author", "/Subject", "/Creator"}
    assert english["/Subject"] == "The book's pages, printed from its HTML"
    assert russian["/Subject"] != english["/Subject"]
    assert re.search("[а-яё]", russian["/Subject"]), russian["/Subject"]
    assert not catalogs.english_phrases(russian["/Subject"]), russian["/Subject"]
    assert russian["/Title"] == "Заглавие" and russian["/Author"] == "Автор"
