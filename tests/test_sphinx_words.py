"""Sphinx's own script words in the Russian edition (book/_ext/reader_pages.py's
sphinx_words_in_language): a page opened from a search result offers to hide the
highlights in the book's words, not in English.

The page is made as the build makes it (Sphinx's scripts in Sphinx's order, deferred,
and Sphinx's Russian catalog as _static/translations.js), then read in Chromium before
and after the extension has run on it."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import quote

import pytest

import sphinx
from bookbuild.run import ROOT, sphinx_extension
from reliability.i18n import read_po

reader_pages = sphinx_extension("reader_pages")

SPHINX = Path(sphinx.__file__).parent
CATALOG = ROOT / "locale" / "ru" / "code" / "reader_pages.po"


def _built_page(out: Path) -> Path:
    static = out / "_static"
    static.mkdir(parents=True)
    for name in ("doctools.js", "sphinx_highlight.js"):
        shutil.copy(SPHINX / "themes" / "basic" / "static" / name, static / name)
    shutil.copy(SPHINX / "locale" / "ru" / "LC_MESSAGES" / "sphinx.js",
                static / "translations.js")
    (static / "documentation_options.js").write_text(
        "const DOCUMENTATION_OPTIONS = {ENABLE_SEARCH_SHORTCUTS: true};\n")
    scripts = "".join(f'<script defer src="../_static/{name}.js?v=1"></script>\n'
                      for name in ("documentation_options", "doctools", "sphinx_highlight",
                                   "translations"))
    page = out / "chapters" / "page.html"
    page.parent.mkdir()
    page.write_text(f'<!DOCTYPE html><html lang="ru"><head><meta charset="utf-8">\n'
                    f'{scripts}</head><body><div id="searchbox"></div>'
                    "<p>Надёжность агента падает с каждым шагом.</p></body></html>",
                    encoding="utf-8")
    return page


@pytest.mark.parametrize("extension_ran", [True, False])
def test_the_hide_search_matches_link_speaks_russian(tmp_path, extension_ran):
    pytest.importorskip("playwright.sync_api")
    from bookbuild.book_pdf import browser

    english = "Hide Search Matches"
    said = read_po(CATALOG)[english]
    assert said and said != english
    _built_page(tmp_path)
    if extension_ran:
        app = SimpleNamespace(builder=SimpleNamespace(format="html"),
                              config=SimpleNamespace(language="ru"), outdir=str(tmp_path))
        reader_pages.sphinx_words_in_language(app, None)
    with browser(tmp_path) as (context, base):
        tab = context.new_page()
        tab.goto(f"{base}/chapters/page.html?highlight={quote('агента')}",
                 wait_until="load")
        tab.wait_for_selector("#searchbox .highlight-link a")
        link = tab.inner_text("#searchbox .highlight-link a").strip()
    assert (link == said) == extension_ran, link
    assert (link == english) != extension_ran, link
