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
import re
import unicodedata
from pathlib import Path

import pytest

from bookbuild.book_pdf import PDF_NAME, toc_pages
from bookbuild.run import ROOT

pytestmark = pytest.mark.xdist_group(name="pdf")

#: Each edition's source (its _toc.yml and _config.yml): the Russian book is printed from
#: ru/ into the site's ru/ folder.
SOURCES = {"en": ROOT, "ru": ROOT / "ru"}
# Source a reader should never see on paper: TeX that MathJax did not typeset, MyST roles
# and directives that did not render.
RAW_SOURCE = ["$$", r"\frac", r"\begin", "{glue", "{cite}", "{doc}", "{math}", "```{"]
#: The printed contents' heading (bookbuild/book_pdf.py, locale/ru/code/book_pdf.po).
CONTENTS = {"en": "Contents", "ru": "Содержание"}
#: Words about the web page's controls, which paper does not have: the code cells' toggles,
#: the launch (rocket) button and the note of a widget cell that draws only in a kernel.
#: Not yet checked, as chapter prose still says them: the explorers' "Move the sliders ...
#: on this page" and chapter 1's "Press play, or drag the slider".
#: book/_static/print.css's sentence under each live explorer on paper.
EXPLORER_NOTE = {"en": "On paper the chart stands at its default setting",
                 "ru": "На бумаге график стоит при настройках по умолчанию"}
WEB_ONLY = {
    "en": ["show code cell", "hide code cell", "static page", "rocket button"],
    "ru": ["показать код ячейки", "скрыть код ячейки", "статической странице",
           "кнопкой с ракетой"],
}


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
    return toc_pages(SOURCES[edition])


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
    starts = [(item.title, pdf.get_destination_page_number(item)) for item in pdf.outline]
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


@pytest.fixture(scope="module")
def text(pdf):
    """The PDF's text, per sheet, with whitespace and ligatures normalised."""
    return [" ".join(unicodedata.normalize("NFKC", sheet.extract_text() or "").split())
            for sheet in pdf.pages]


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
            found = [w for w in WEB_ONLY[edition] if w in text[sheet].lower()]
            assert found == [], f"{page}, page {sheet + 1}: {found}"


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
