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


def setup(app):
    app.connect("config-inited", use_the_books_language)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
