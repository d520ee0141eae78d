"""Glued numbers in the language of the book being built.

myst-nb's ``{glue:text}`name:.1%``` applies the format spec with Python's ``format()``,
which knows one locale: a Russian page would read «2,000 прогонов» (two) and «0.99».
In a book whose ``language`` is not English, this extension has myst-nb format glued
values with :func:`reliability.numbers.spec` instead: the same value and the same
rounding as the English page, written the Russian way («2 000», «0,99», «24,1%»).
The notebooks glue the same raw values in both editions; only the page's text differs.
The English book is left exactly as myst-nb writes it.
"""

from __future__ import annotations

import sys
from ast import literal_eval
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def localised_plain_text(language: str):
    """myst-nb's ``format_plain_text(text, fmt_spec)`` for ``language``."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from reliability import i18n, numbers

    def format_plain_text(text: str, fmt_spec: str) -> str:
        try:
            value = literal_eval(text)  # as myst-nb reads it: quotes removed
        except (SyntaxError, ValueError):
            value = text
        if fmt_spec == "":
            fmt_spec = "s"
        kind = fmt_spec[-1]
        if kind in ("b", "c", "d", "o", "x", "X"):
            value = int(value)
        elif kind in ("e", "E", "f", "F", "g", "G", "n", "%"):
            value = float(value)
        elif kind == "s":
            value = str(value)
        with i18n.language(language):
            return numbers.fmt(value, fmt_spec)

    return format_plain_text


def use_the_books_language(app, config) -> None:
    language = config.language or "en"
    if language == "en":
        return
    # myst-nb looks the function up in these modules at each role (inline text and
    # references to another page's glue), so replacing it there is enough.
    from myst_nb.ext.glue import crossref, roles

    roles.format_plain_text = crossref.format_plain_text = localised_plain_text(language)


def setup(app):
    app.connect("config-inited", use_the_books_language)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
