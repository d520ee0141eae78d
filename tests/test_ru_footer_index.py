"""The Russian pages' own words where the theme and Sphinx would say English or a calque:
the footer reads «© 2026» and the authors' name without «Автор:» (book/_templates/ru,
which python -m bookbuild edition puts in the Russian config only), and the index
names a property «(свойство …)» (book/_ext/reader_pages.py), in a small Sphinx build
with the book's theme."""

from __future__ import annotations

import re

import pytest

from bookbuild import edition
from bookbuild.run import ROOT

AUTHOR = "Авторы книги «Надёжность агентов в цифрах»"


def _build(tmp_path, language: str, templates: bool, dated: bool = False):
    pytest.importorskip("sphinx_book_theme")
    from sphinx.application import Sphinx

    source = tmp_path / "src"
    source.mkdir()
    # the hook is connected as the book's extension connects it, before the builder starts
    (source / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\n"
        "from reader_pages import sphinx_index_words_in_language\n\n\n"
        "from numbers_locale import dated_in_the_books_language\n\n\n"
        "def setup(app):\n"
        "    app.connect('builder-inited', sphinx_index_words_in_language)\n"
        + ("    app.connect('html-page-context', dated_in_the_books_language)\n"
           if dated else ""))
    (source / "index.rst").write_text(
        "Страница\n========\n\n.. py:class:: Fit\n\n   .. py:property:: rate\n",
        encoding="utf-8")
    overrides = dict(html_theme="sphinx_book_theme", language=language, author=AUTHOR,
                     copyright="2026", html_show_copyright=True)
    if dated:   # Sphinx's own default format, which Russian reads «дек. 06, 2026»
        overrides["html_last_updated_fmt"] = "%b %d, %Y"
    if templates:
        overrides["templates_path"] = [str(ROOT / "book" / "_templates" / language)]
    app = Sphinx(str(source), str(source), str(tmp_path / "out"), str(tmp_path / "dt"),
                 "html", confoverrides=overrides, status=None, warning=None,
                 freshenv=True)
    app.build()
    out = tmp_path / "out"
    return ((out / "index.html").read_text(encoding="utf-8"),
            (out / "genindex.html").read_text(encoding="utf-8"))


def _footer(page: str) -> str:
    """The words of the page's content footer (author, copyright, last updated)."""
    found = re.search(r'<footer class="bd-footer-content">(.*?)</footer>', page, re.S)
    assert found, "no content footer on the page"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found[1])).strip()


def test_the_russian_config_uses_the_russian_templates():
    config = edition.config_and_toc()["_config.yml"]
    assert "../book/_templates/ru" in config
    assert (ROOT / "book" / "_templates" / "ru" / "copyright.html").exists()


def test_the_russian_footer_and_index_read_russian(tmp_path):
    page, index = _build(tmp_path, "ru", templates=True)
    footer = _footer(page)
    assert "© 2026" in footer and "Копирайт" not in footer, footer
    assert AUTHOR in footer and "Автор:" not in footer, footer
    assert "(свойство Fit)" in index and "property" not in index.split("<body")[1]


def test_without_the_fix_the_theme_says_it_the_old_way(tmp_path):
    page, _ = _build(tmp_path, "ru", templates=False)
    footer = _footer(page)
    assert "Копирайт" in footer or "Автор" in footer, footer


def test_the_russian_footer_dates_the_page_as_the_book_writes_dates(tmp_path,
                                                                    monkeypatch):
    """The footer's «Обновлено: …» goes through reliability.numbers.day («06.12.2026»),
    whatever strftime format the configuration gives Sphinx."""
    import datetime

    from reliability import i18n, numbers

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1796558400")   # 2026-12-06 12:00 UTC
    page, _ = _build(tmp_path, "ru", templates=True, dated=True)
    footer = _footer(page)
    with i18n.language("ru"):
        written = numbers.day(datetime.date(2026, 12, 6))
    assert written == "06.12.2026"
    assert f"Обновлено: {written}" in footer and "дек." not in footer, footer
