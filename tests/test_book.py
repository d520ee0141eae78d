"""The book builds from the stored outputs with every warning an error."""

import json
import re

import pytest

from bookbuild.run import ROOT, chapters

pytestmark = pytest.mark.xdist_group(name="book")


@pytest.fixture(scope="module")
def built_book(built_site):
    html, result = built_site
    return result, html


def test_book_builds_without_warnings(built_book):
    """Both editions (bookbuild/site.py), with every warning an error, and their
    PDFs."""
    import bookbuild.site

    result, _ = built_book
    failed = bookbuild.site.failed(result)
    assert not failed, "\n".join(failed)[-8000:]


def test_every_chapter_has_a_page(built_book):
    _, html = built_book
    assert (html / "index.html").exists()
    for path in chapters():
        assert (html / "chapters" / f"{path.stem}.html").exists(), path.name


def test_launch_notebooks_show_the_numbers_the_page_shows(built_book):
    """Every glued number, in order, as the page prints it and as the launch notebook's
    prose gives it (both formatted from the same stored output)."""
    import re

    from bookbuild import launch_notebooks

    _, html = built_book
    bibliography = launch_notebooks.Bibliography.load()
    for path in chapters():
        page = (html / "chapters" / f"{path.stem}.html").read_text()
        # a glued sentence about the web page holds its print words beside it
        # (book/_ext/print_words.py): the screen shows the web words
        shown = [re.sub(r'<span class="print-only">.*?</span>|<span class="web-only">|'
                        r"</span>", "", text) for text in re.findall(
            r'<span class="pasted-text">((?:<span class="(?:web|print)-only">[^<]*</span>'
            r"|<(?!/?span\b)[^>]*>|[^<])*)</span>", page)]
        nb = json.loads(path.read_text())
        chapter = launch_notebooks.Chapter(path, launch_notebooks.glued_values(
            __import__("nbformat").reads(path.read_text(), as_version=4)), bibliography)
        given = [chapter.glue(body) for cell in nb["cells"] if cell["cell_type"] == "markdown"
                 for body in re.findall(r"\{glue(?::text)?\}`([^`]+)`", "".join(cell["source"]))]
        assert [html_unescape(s) for s in shown] == given, path.name


def html_unescape(text):
    import html

    return html.unescape(text)


def test_the_site_serves_the_launch_notebooks_and_their_zip(built_book):
    import zipfile

    _, html = built_book
    committed = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert [p.name for p in committed] == sorted(
        [p.name for p in chapters()] + ["homework.ipynb"])
    # what to install and how to open them travels with them
    committed += [ROOT / "notebooks" / "README.md", ROOT / "notebooks" / "requirements.txt"]
    from bookbuild.launch_notebooks import requirements, wheel_name

    with zipfile.ZipFile(html / "agent-reliability-notebooks.zip") as archive:
        names = sorted(archive.namelist())
        # and the package's wheel, which its requirements.txt installs (bookbuild/wheel.py)
        assert names == sorted([f"agent-reliability-notebooks/{p.name}" for p in committed]
                               + [f"agent-reliability-notebooks/{wheel_name()}"])
        for path in committed:
            expected = (requirements("en", wheel=wheel_name()).encode()
                        if path.name == "requirements.txt" else path.read_bytes())
            assert archive.read(f"agent-reliability-notebooks/{path.name}") == expected
            assert (html / "notebooks" / path.name).read_bytes() == path.read_bytes()
    intro = (html / "book" / "intro.html").read_text()
    assert 'href="../agent-reliability-notebooks.zip"' in intro, "the landing page links it"


def test_binder_launches_the_handout_branch_in_both_editions(built_book):
    """Every Binder link (the header's button and the "Run this chapter" note) builds the
    handout branch, which holds no homework key; Colab may read main (it takes one
    notebook, not the repository)."""
    import re

    from bookbuild.hub_links import HANDOUT_BRANCH

    _, html = built_book
    for edition in (html, html / "ru"):
        for path in chapters():
            page = (edition / "chapters" / f"{path.stem}.html").read_text()
            binder = re.findall(r'https://mybinder\.org/v2/gh/[^"\s<]+', page)
            assert len(binder) >= 2, (edition.name, path.name, binder)
            assert all(f"/{HANDOUT_BRANCH}?urlpath=lab/tree/" in url for url in binder), \
                (path.name, binder)


def test_exercises_are_numbered_within_each_chapter(built_book):
    """Chapter 4 opens on Exercise 1, not on the book's tenth, and each solution names its
    own exercise's number."""
    import re

    _, html = built_book
    for path in chapters():
        page = (html / "chapters" / f"{path.stem}.html").read_text()
        titles = [int(n) for n in re.findall(
            r'<p class="admonition-title">\s*<span class="caption-number">Exercise (\d+)',
            page)]
        assert titles == list(range(1, len(titles) + 1)) and titles, (path.name, titles)
        solved = [int(n) for n in re.findall(r"Solution to<a [^>]*> Exercise (\d+)</a>", page)]
        assert solved and set(solved) <= set(titles), (path.name, solved)


def test_reference_list_labels_entries_as_the_text_cites_them(built_book):
    """Each entry's label in the list is the author-year text the chapters print
    ("Huang et al., 2024"), the forge-gap rig and BFCL carry their addresses, and a
    Greek letter in a title survives sentence casing."""
    import re

    _, html = built_book
    page = html_unescape(re.sub(r"<[^>]+>", "", (html / "book" / "references.html").read_text()))
    labels = re.findall(r"^\[(.+)\]$", page, flags=re.M)
    assert "Huang et al., 2024" in labels and "Wilson, 1927" in labels, labels
    assert not [label for label in labels if re.fullmatch(r"[A-Z]+\+?\d\d", label)], labels
    assert "τ-bench" in page and "Τ-bench" not in page
    assert "https://github.com/ksdisch/forge-gap" in (html / "book" / "references.html").read_text()
    assert "https://gorilla.cs.berkeley.edu/leaderboard.html" in page


def test_citations_say_et_al_not_and_others(built_book):
    """BibTeX's "and others" (authors we do not list) reads "et al." in the text, the
    reference list and the launch notebooks alike."""
    _, html = built_book
    pages = [*(html / "chapters").glob("*.html"), html / "book" / "references.html"]
    assert not [p.name for p in pages if "and others" in p.read_text()]
    assert not [p.name for p in (ROOT / "notebooks").glob("*.ipynb")
                if "and others" in p.read_text()]
    # and only once: three known names and "others" is still one "et al."
    twice = re.compile(r"et al\.(</em>)?\s*(<em>)?et al\.")
    assert not [p.name for p in pages if twice.search(p.read_text())]


# --- the Russian edition's pages --------------------------------------------------------------

from html.parser import HTMLParser  # noqa: E402

#: Elements whose text is not the page's prose: code, maths, glued numbers, citations and
#: the reference list (authors and titles as published), and anything marked English (the
#: link to the English edition).
# (A glossary entry's <dt> names the term in Russian and in English, by design.)
_NOT_PROSE = {"script", "style", "pre", "code", "mjx-container", "svg", "kbd", "dt"}
_NOT_PROSE_CLASSES = {"highlight", "math", "pasted-text", "citation", "bibliography",
                      "live-data"}


_REFERENCE = re.compile(r"\b(19|20)\d\d\b.*\b(arXiv|doi|https?:)")


class _Words(HTMLParser):
    """The text a reader reads on a page, and the words of its labels and tooltips."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # whether each open element hides its text
        self.text: list[str] = []
        self.labels: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = set((attrs.get("class") or "").split())
        citation = tag == "a" and "references.html#" in (attrs.get("href") or "")
        hidden = bool(tag in _NOT_PROSE or classes & _NOT_PROSE_CLASSES or citation
                      or attrs.get("lang", "ru") != "ru" or self.stack and self.stack[-1])
        for name in ("title", "aria-label", "placeholder", "alt"):
            # a citation's tooltip is its reference: authors and title as published
            if attrs.get(name) and not hidden and not _REFERENCE.search(attrs[name]):
                self.labels.append(attrs[name])
        if tag not in ("br", "img", "input", "meta", "link", "hr", "wbr", "source"):
            self.stack.append(hidden)

    def handle_endtag(self, tag):
        if tag not in ("br", "img", "input", "meta", "link", "hr", "wbr", "source") and \
                self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not (bool(self.stack) and self.stack[-1]) and data.strip():
            self.text.append(data.strip())


def test_no_english_is_left_on_the_russian_pages(built_book):
    """Every Russian page's prose, headings, navigation, buttons, tooltips, alt text,
    tables and printed lines are in Russian: no run of English words in its text (code,
    maths, numbers and citations apart), and no English label. Names (GPT-4o, Binder,
    Colab, Huang et al.) are not English sentences."""
    from bookbuild import catalogs

    _, html = built_book
    found = {}
    for path in sorted((html / "ru").rglob("*.html")):
        if path.relative_to(html / "ru").parts[0].startswith("_") or path.name == "index.html" \
                and path.parent == html / "ru" or path.name == "genindex.html":
            continue  # (the index lists each glossary term under both its names)
        words = _Words()
        words.feed(path.read_text(encoding="utf-8"))
        text = " ".join(words.text)
        english = catalogs.english_phrases(text) + [
            label for label in words.labels + words.text
            if len(label) < 60 and catalogs.english_label(label)]
        if english:
            found[path.relative_to(html).as_posix()] = sorted(set(english))[:6]
    assert not found, found


def test_every_link_to_a_section_lands_on_it_in_both_editions(built_book):
    """A link to ``page.html#section`` (the teacher's guide links to chapter sections)
    finds that id on that page, in English and in Russian, where headings have no Latin
    letters to make an id from (bookbuild/site.py gives them the English ids too)."""
    _, html = built_book
    link = re.compile(r'href="([^"#:]+\.html)?#([^"]+)"')
    ids: dict = {}
    missing = []
    for page in html.rglob("*.html"):
        relative = page.relative_to(html)
        if any(part.startswith("_") for part in relative.parts):
            continue
        for target, fragment in link.findall(page.read_text(encoding="utf-8")):
            path = (page.parent / target).resolve() if target else page.resolve()
            if path not in ids:
                ids[path] = set(re.findall(r'id="([^"]+)"', path.read_text(encoding="utf-8"))) \
                    if path.is_file() else set()
            if fragment not in ids[path]:
                missing.append(f"{relative}: {target}#{fragment}")
    assert not missing, missing[:20]


def test_each_solution_is_one_toggle_in_both_editions(built_book):
    """An exercise's solution is one dropdown under one title, its prose, code and
    output inside (the launch notebooks fold it once too: test_launch_notebooks)."""
    import re

    _, html = built_book
    for edition in (html, html / "ru"):
        for path in chapters():
            page = (edition / "chapters" / f"{path.stem}.html").read_text()
            toggles = re.findall(r'<div class="solution dropdown admonition" id="([^"]+)"',
                                 page)
            titles = re.findall(r'<div class="solution dropdown admonition" id="[^"]+">\s*'
                                r'<p class="admonition-title">[^<]*<a [^>]*href="#([^"]+)"',
                                page)
            assert toggles and len(toggles) == len(titles) == len(set(titles)), \
                (edition.name, path.name, toggles, titles)


def test_russian_solutions_are_titled_in_russian(built_book):
    """«Решение к упражнению 2», not sphinx-exercise's «Решение к Упражнение 2»."""
    import re

    _, html = built_book
    for path in chapters():
        page = (html / "ru" / "chapters" / f"{path.stem}.html").read_text()
        titles = re.findall(r"Решение к упражнению (\d+)</a>", page)
        assert titles, path.name
        assert not re.search(r"Решение к\s*(<a [^>]*>)?\s*Упражнени", page), path.name


def test_the_api_pages_document_the_key_functions_in_both_editions(built_book):
    """The API pages (book/api.md and one page a part of the package in book/api/): the
    package's functions from their docstrings, their formulas typeset, in both editions;
    the index page links every public name to its entry on the page that documents it;
    the Russian pages say in Russian that the docstrings are English, and mark them so."""
    _, html = built_book
    documented = {"stats": ("stats.wilson_interval", "stats.newcombe_interval"),
                  "passk": ("passk.pass_at_k", "passk.pass_hat_k", "passk.from_counts"),
                  "workflow": ("workflow.horizon", "workflow.Workflow"),
                  "harness": ("harness.budget.run_task", "harness.breaker.transition")}
    for edition in (html, html / "ru"):
        index = (edition / "book" / "api.html").read_text(encoding="utf-8")
        assert '<div class="api-index docutils container" lang="en">' in index, edition
        for stem, names in documented.items():
            page = (edition / "book" / "api" / f"{stem}.html").read_text(encoding="utf-8")
            for name in names:
                assert f'id="reliability.{name}"' in page, (stem, name)
                assert f'href="api/{stem}.html#reliability.{name}"' in index, (stem, name)
            assert '<div class="api-module docutils container" lang="en">' in page, stem
            assert page.count("mjx-container") >= 5, stem  # the docstrings' formulas
            # each module's introduction (its docstring) in the edition's language, outside
            # the English block: the Russian page's are the catalog's translations
            intros = re.findall(r'<div class="api-intro docutils container">(.*?)</div>',
                                page, flags=re.S)
            assert intros, stem
            if edition != html:
                assert "оставлены на английском" in page, stem
                assert all(re.search("[а-я]{4}", intro) for intro in intros), stem
        # every name of every module's __all__ is in the index, and its link resolves
        links = re.findall(r'<a class="reference internal" href="api/(\w+)\.html#'
                           r'(reliability[\w.]+)"', index)
        assert len(links) >= 80, len(links)
        for stem, anchor in links:
            page = (edition / "book" / "api" / f"{stem}.html").read_text(encoding="utf-8")
            assert f'id="{anchor}"' in page, (stem, anchor)
    russian = (html / "ru" / "book" / "api.html").read_text(encoding="utf-8")
    assert "оставлены на английском" in russian
