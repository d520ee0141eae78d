"""The language of the words the package puts on a page: figure titles, axis labels,
legends, table headers and the sentences of live explorers.

The English text in the code is the message; a Russian chapter calls
``setup(language="ru")`` (:func:`reliability.notebook.setup`), and every marked string
is looked up in the gettext catalogs under ``reliability/locale/ru/`` (one per module,
kept in step with the code by ``python -m bookbuild update``). A string with no
translation, or one marked outdated (*fuzzy*), falls back to English; the tests fail
on either, so a published page never shows one.

Numbers are written by :mod:`reliability.numbers` in the same language (Babel's CLDR
formats: «2 000», «0,99» in Russian), so the prose, the tables and the figures of one
page agree: a translated message (:class:`Text`) writes its numbers with it. The
language itself and the catalogs live below both, in :mod:`reliability._language`
(re-exported here), so the three import one way: ``i18n`` -> ``numbers`` ->
``_language``. The catalogs are read by Babel and compiled in memory for the standard
library's :mod:`gettext` (:func:`translations`), whose ``ngettext`` picks a noun's
plural form by the catalog's rule.

Two markers, as in gettext:

* ``_("Success of a run")`` translates at once;
* ``N_("closed form")`` only marks a string for the catalogs (a label stored in a table
  or a dictionary); :func:`translate` turns it into the current language at display.
* ``NP_("confidence", "low")`` marks a word whose translation depends on where it
  stands (gettext's *context*): a table shows a cell of its ``confidence`` column with
  :func:`pgettext`, so "low" reads «низкая» there and «нижняя граница» as a column name.
"""

from __future__ import annotations

import numbers
import string

from . import _language, _validate
from ._language import (LANGUAGES, N_, NP_, catalog, get_language, language,
                        plural_count, plural_index, read_po, set_language, translations)
from .numbers import fmt

#: The folder of the package's catalogs, ``reliability/locale/<language>/*.po``.
LOCALE = _language.LOCALE

# ``_`` is gettext under its conventional name (``from reliability.i18n import _``).
__all__ = ["LANGUAGES", "set_language", "get_language", "language", "gettext", "pgettext",
           "ngettext", "N_", "NP_", "translate", "fill_slots", "catalog", "read_po",
           "translations", "plural_index", "plural_count"]


class _NumberFormatter(string.Formatter):
    """``str.format`` whose numeric fields are written by :func:`reliability.numbers.fmt`
    in the current language."""

    def format_field(self, value, format_spec):
        if isinstance(value, numbers.Number) and not isinstance(value, bool):
            return fmt(value.item() if hasattr(value, "item") else value, format_spec)
        return super().format_field(value, format_spec)


_FORMATTER = _NumberFormatter()


class Text(str):
    """A translated message: its ``format`` writes numbers the way the page's language
    does (``_("{runs:,d} runs").format(runs=2000)`` is «2 000 прогонов» in Russian)."""

    __slots__ = ()

    def format(self, *args, **kwargs):  # str's own name
        return _FORMATTER.vformat(str(self), args, kwargs)


def gettext(message: str) -> str:
    """``message`` in the current language (itself in English, or when untranslated)."""
    return Text(_language.gettext(message))


def pgettext(context: str, message: str) -> str:
    """``message`` as translated in ``context`` (a table column's name, say), else as
    :func:`gettext` gives it."""
    return Text(_language.pgettext(context, message))


def ngettext(singular: str, plural: str, n) -> str:
    """The form of a noun (or phrase) that goes with the count ``n``, in the current
    language: ``ngettext("run", "runs", 21)`` is «прогон» in Russian (the catalog's
    plural rule), "runs" in English."""
    return Text(_language.ngettext(singular, plural, n))


def _(message: str) -> str:  # gettext's conventional name
    return gettext(message)


def fill_slots(template: str, **values) -> str:
    """``template`` with the fields named in ``values`` formatted (with their format
    specs) and every other ``{field}`` kept as it is: a live explorer's sentence whose
    run counts the package knows and whose other slots the page fills. Literal braces
    stay escaped, so the result is still a template."""
    _validate.text("template", template)
    out = []
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as error:
        raise ValueError(f"template must be a str.format template: {error}") from None
    for literal, field, spec, conversion in parsed:
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is None:
            continue
        if field in values:
            out.append(fmt(values[field], spec))
        else:
            out.append("{" + field + (f"!{conversion}" if conversion else "")
                       + (f":{spec}" if spec else "") + "}")
    return "".join(out)


def translate(value):
    """A marked string in the current language; anything else unchanged."""
    return gettext(value) if isinstance(value, str) and value and get_language() != "en" \
        else value
