"""Glued numbers in the language of the book being built.

myst-nb's ``{glue:text}`name:.1%``` applies the format spec with Python's ``format()``,
which knows one locale: a Russian page would read «2,000 прогонов» (two) and «0.99».
In a book whose ``language`` is not English, this extension has myst-nb format glued
values with :func:`reliability.numbers.glued_text` instead: the same value and the
same rounding as the English page, written the Russian way («2 000», «0,99», «24,1%»).
The notebooks glue the same raw values in both editions; only the page's text differs.
In English a plain spec gives exactly what myst-nb's ``format()`` gives.

A spec may go on to name the noun after the number in the language's plural forms,
``{glue:text}`ch2_n:d|step|steps``` or «{glue:text}`ch2_n:d|шаг|шага|шагов`», so the
noun agrees with the number whatever parameters the chapter ran with.

The pages' footer date («Обновлено: …») is written the same way: Sphinx formats
``html_last_updated_fmt`` with its own month names and order («дек. 06, 2026» from its
default), so in a book whose language is not English the date is replaced by
:func:`reliability.numbers.day` of the same day («06.12.2026»), the one date formatter
the book's messages use.
"""

from __future__ import annotations


def localised_plain_text(language: str):
    """myst-nb's ``format_plain_text(text, fmt_spec)`` for ``language``."""
    from reliability import i18n, numbers

    def format_plain_text(text: str, fmt_spec: str) -> str:
        with i18n.language(language):
            return numbers.glued_text(text, fmt_spec or "s")

    return format_plain_text


def use_the_books_language(app, config) -> None:
    language = config.language or "en"
    # myst-nb looks the function up in these modules at each role (inline text and
    # references to another page's glue), so replacing it there is enough.
    from myst_nb.ext.glue import crossref, roles

    roles.format_plain_text = crossref.format_plain_text = localised_plain_text(language)


def build_date():
    """The day Sphinx dates the build by: ``SOURCE_DATE_EPOCH`` (UTC) when it is set,
    else today in local time, as ``sphinx.util.i18n.format_date`` takes it."""
    import datetime
    import os

    epoch = os.getenv("SOURCE_DATE_EPOCH")
    if epoch is not None:
        return datetime.datetime.fromtimestamp(float(epoch), tz=datetime.timezone.utc).date()
    return datetime.datetime.now(tz=datetime.timezone.utc).astimezone().date()


def dated_in_the_books_language(app, pagename, templatename, context, doctree) -> None:
    """The footer's "last updated" date through reliability.numbers.day, in a book whose
    language is not English (where Sphinx shows one at all)."""
    language = app.config.language or "en"
    if language == "en" or not context.get("last_updated"):
        return
    from reliability import i18n, numbers

    with i18n.language(language):
        context["last_updated"] = numbers.day(build_date())


def setup(app):
    app.connect("config-inited", use_the_books_language)
    app.connect("html-page-context", dated_in_the_books_language)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
