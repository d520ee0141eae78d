"""The language of the words the package puts on a page: figure titles, axis labels,
legends, table headers and the sentences of live explorers.

The English text in the code is the message; a Russian chapter calls
``setup(language="ru")`` (:func:`reliability.notebook.setup`), and every marked string
is looked up in the gettext catalogs under ``reliability/locale/ru/`` (one per module,
kept in step with the code by ``scripts/translate.py update``). A string with no
translation, or one marked outdated (*fuzzy*), falls back to English; the tests fail
on either, so a published page never shows one.

Numbers are formatted after translation and keep the decimal point in both languages,
as the code prints them: the prose, the tables and the figures of one page agree.

Two markers, as in gettext:

* ``_("Success of a run")`` translates at once;
* ``N_("closed form")`` only marks a string for the catalogs (a label stored in a table
  or a dictionary); :func:`translate` turns it into the current language at display.
* ``NP_("confidence", "low")`` marks a word whose translation depends on where it
  stands (gettext's *context*): a table shows a cell of its ``confidence`` column with
  :func:`pgettext`, so "low" reads «низкая» there and «нижняя граница» as a column name.
"""

from __future__ import annotations

import ast
import functools
import re
from contextlib import contextmanager
from pathlib import Path

from . import _validate

# ``_`` is gettext under its conventional name (``from reliability.i18n import _``).
__all__ = ["LANGUAGES", "set_language", "get_language", "language", "gettext", "pgettext",
           "N_", "NP_", "translate", "fill_slots", "catalog", "read_po"]

#: The languages the book is published in.
LANGUAGES = ("en", "ru")
LOCALE = Path(__file__).resolve().parent / "locale"

_current = "en"


def set_language(language: str) -> None:
    """Make ``language`` (``"en"`` or ``"ru"``) the language of every string the package
    draws or prints from now on."""
    global _current
    _current = _validate.text("language", language, choices=LANGUAGES)


def get_language() -> str:
    """The language set by :func:`set_language` (``"en"`` until then)."""
    return _current


def language(language: str):
    """``with language("ru"): ...`` draws in Russian and restores the language after."""
    return _switched(_validate.text("language", language, choices=LANGUAGES))


@contextmanager
def _switched(name: str):
    before = _current
    set_language(name)
    try:
        yield
    finally:
        set_language(before)


_ENTRY = re.compile(r'^(msgctxt|msgid|msgstr|")')


def _parse_po(text: str) -> dict[str, str]:
    """The translated, non-fuzzy entries of a gettext ``.po`` file."""
    entries: dict[str, str] = {}
    fields: dict[str, str] = {}
    last = None
    fuzzy = False

    def finish():
        msgid, msgstr = fields.get("msgid"), fields.get("msgstr")
        if msgid and msgstr and not fuzzy:
            # gettext's key for a message in a context: context, EOT, message
            key = f"{fields['msgctxt']}\x04{msgid}" if "msgctxt" in fields else msgid
            entries[key] = msgstr

    for line in text.splitlines() + [""]:
        line = line.strip()
        if not line:
            finish()
            fields, last, fuzzy = {}, None, False
        elif line.startswith("#,"):
            fuzzy = fuzzy or "fuzzy" in line[2:].replace(" ", "").split(",")
        elif line.startswith("#"):
            continue
        elif line.startswith('"') and last:
            fields[last] += ast.literal_eval(line)
        else:
            keyword, _, rest = line.partition(" ")
            if keyword in ("msgid", "msgstr", "msgctxt"):
                last = keyword
                fields[keyword] = ast.literal_eval(rest)
    return entries


def read_po(path) -> dict[str, str]:
    """The translated, current (not fuzzy) entries of the gettext catalog at ``path``."""
    _validate.instance("path", path, (str, Path))
    if not Path(path).is_file():
        raise ValueError(f"path must name a gettext catalog (.po file); {path} is not a file")
    return _parse_po(Path(path).read_text(encoding="utf-8"))


def catalog(language: str) -> dict[str, str]:
    """Every translation into ``language``: English message -> translated text."""
    return _catalog(_validate.text("language", language, choices=LANGUAGES))


@functools.cache
def _catalog(language: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted((LOCALE / language).glob("*.po")):
        merged.update(_parse_po(path.read_text(encoding="utf-8")))
    return merged


def gettext(message: str) -> str:
    """``message`` in the current language (itself in English, or when untranslated)."""
    _validate.text("message", message)
    if _current == "en":
        return message
    return _catalog(_current).get(message, message)


def pgettext(context: str, message: str) -> str:
    """``message`` as translated in ``context`` (a table column's name, say), else as
    :func:`gettext` gives it."""
    _validate.text("context", context)
    _validate.text("message", message)
    if _current == "en":
        return message
    found = _catalog(_current)
    return found.get(f"{context}\x04{message}", found.get(message, message))


def _(message: str) -> str:  # noqa: D103  (gettext's conventional name)
    return gettext(message)


def N_(message: str) -> str:  # noqa: N802  (gettext's conventional name)
    """Mark ``message`` for the catalogs without translating it now."""
    return _validate.text("message", message)


def NP_(context: str, message: str) -> str:  # noqa: N802  (gettext's convention)
    """Mark ``message`` for the catalogs in ``context`` without translating it now."""
    _validate.text("context", context)
    return _validate.text("message", message)


def fill_slots(template: str, **values) -> str:
    """``template`` with the fields named in ``values`` formatted (with their format
    specs) and every other ``{field}`` kept as it is: a live explorer's sentence whose
    run counts the package knows and whose other slots the page fills. Literal braces
    stay escaped, so the result is still a template."""
    import string

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
            out.append(format(values[field], spec))
        else:
            out.append("{" + field + (f"!{conversion}" if conversion else "")
                       + (f":{spec}" if spec else "") + "}")
    return "".join(out)


def translate(value):
    """A marked string in the current language; anything else unchanged."""
    return _catalog(_current).get(value, value) if isinstance(value, str) and \
        _current != "en" else value
