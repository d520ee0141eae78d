"""The page's language and the package's gettext catalogs: the bottom of the package's
words, below :mod:`reliability.numbers` (which writes numbers in this language) and
:mod:`reliability.i18n` (whose translated messages write their numbers with
:mod:`reliability.numbers`, and which re-exports everything here). Nothing here formats a
number, so nothing here imports the modules above it.

Its messages are plain ``str``; :mod:`reliability.i18n`'s are the same words as
:class:`reliability.i18n.Text`, whose ``format`` writes numbers in the page's language.
"""

from __future__ import annotations

import functools
import gettext as stdlib_gettext
import io
from contextlib import contextmanager
from pathlib import Path

from . import _validate

__all__ = ["LANGUAGES", "set_language", "get_language", "language", "gettext", "pgettext",
           "ngettext", "N_", "NP_", "catalog", "read_po", "translations", "plural_index",
           "plural_count"]

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


def _read(path: Path):
    """Babel's reading of the gettext catalog at ``path``, in the book's language rules
    (the catalogs carry no header: their plural rule is the language's, from CLDR)."""
    from babel.messages.pofile import read_po as babel_read_po

    language = path.parent.name if path.parent.name in LANGUAGES else None
    with path.open("rb") as handle:
        return babel_read_po(handle, locale=language)


def _entries(po) -> dict:
    """The translated, current (not fuzzy) entries of a babel catalog, under gettext's
    keys (``context EOT message``); a plural entry under its singular, as its forms."""
    entries = {}
    for message in po:
        if not message.id or message.fuzzy:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(forms):
            continue
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        key = f"{message.context}\x04{msgid}" if message.context else msgid
        entries[key] = forms if isinstance(message.string, tuple) else message.string
    return entries


def read_po(path) -> dict:
    """The translated, current (not fuzzy) entries of the gettext catalog at ``path``:
    message -> translation (a plural message -> its tuple of forms)."""
    _validate.instance("path", path, (str, Path))
    if not Path(path).is_file():
        raise ValueError(f"path must name a gettext catalog (.po file); {path} is not a file")
    return _entries(_read(Path(path)))


def catalog(language: str) -> dict:
    """Every translation into ``language``: English message -> translated text."""
    language = _validate.text("language", language, choices=LANGUAGES)
    merged: dict = {}
    for path in sorted((LOCALE / language).glob("*.po")):
        merged.update(_entries(_read(path)))
    return merged


@functools.cache
def translations(language: str) -> stdlib_gettext.NullTranslations:
    """The package's catalogs for ``language`` as the standard library's ``gettext``
    translations: the ``.po`` files merged and compiled in memory (no ``.mo`` files are
    kept in the repository), fuzzy entries left out, the plural rule in the compiled
    header (``Plural-Forms``) from CLDR through Babel."""
    language = _validate.text("language", language, choices=LANGUAGES)
    if language == "en":
        return stdlib_gettext.NullTranslations()
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    # A word can be both a plain message ("failure", a table's label) and a plural one
    # ("1 failure", "2 failures"); a catalog holds one entry per msgid, so the plural
    # entries are compiled apart and consulted by ngettext as the fallback.
    plain, plural = Catalog(locale=language, fuzzy=False), Catalog(locale=language,
                                                                   fuzzy=False)
    for path in sorted((LOCALE / language).glob("*.po")):
        for message in _read(path):
            if not message.id or message.fuzzy or not message.string:
                continue
            into = plural if isinstance(message.id, tuple) else plain
            if into.get(message.id, context=message.context) is None:
                into.add(message.id, message.string, context=message.context)
    compiled = []
    for catalog_ in (plain, plural):
        data = io.BytesIO()
        write_mo(data, catalog_, use_fuzzy=False)
        data.seek(0)
        compiled.append(stdlib_gettext.GNUTranslations(data))
    compiled[0].add_fallback(compiled[1])
    return compiled[0]


def gettext(message: str) -> str:
    """``message`` in the current language (itself in English, or when untranslated)."""
    _validate.text("message", message)
    if not message:  # gettext's "" is the catalog's header, not a translation
        return message
    return translations(_current).gettext(message)


def pgettext(context: str, message: str) -> str:
    """``message`` as translated in ``context`` (a table column's name, say), else as
    :func:`gettext` gives it."""
    _validate.text("context", context)
    _validate.text("message", message)
    if not message:
        return message
    found = translations(_current)
    said = found.pgettext(context, message)
    return found.gettext(message) if said == message else said


def ngettext(singular: str, plural: str, n) -> str:
    """The form of a noun (or phrase) that goes with the count ``n``, in the current
    language: ``ngettext("run", "runs", 21)`` is «прогон» in Russian (the catalog's
    plural rule), "runs" in English."""
    _validate.text("singular", singular)
    _validate.text("plural", plural)
    n = _validate.whole("n", n, minimum=-(2**63))
    return translations(_current).ngettext(singular, plural, n)


def plural_index(n) -> int:
    """Which of the current language's plural forms goes with ``n`` (gettext's order:
    English 0 = one, 1 = other; Russian 0 = one, 1 = few, 2 = many)."""
    n = _validate.whole("n", n, minimum=-(2**63))
    translations_ = translations(_current)
    if isinstance(translations_, stdlib_gettext.GNUTranslations):
        return translations_.plural(abs(n))
    return 0 if abs(n) == 1 else 1


def plural_count(language: str | None = None) -> int:
    """How many plural forms ``language`` (default: the current one) has."""
    language = _validate.text("language", _current if language is None else language,
                              choices=LANGUAGES)
    if language == "en":
        return 2  # one, other: known without Babel, which the light install lacks
    from babel.messages.catalog import Catalog

    return Catalog(locale=_validate.text("language", language,
                                         choices=LANGUAGES)).num_plurals


def N_(message: str) -> str:  # gettext's conventional name
    """Mark ``message`` for the catalogs without translating it now."""
    return _validate.text("message", message)


def NP_(context: str, message: str) -> str:  # gettext's convention
    """Mark ``message`` for the catalogs in ``context`` without translating it now."""
    _validate.text("context", context)
    return _validate.text("message", message)


def _(message: str) -> str:  # gettext's conventional name
    """``message`` in the current language, a plain ``str`` (:func:`gettext`)."""
    return gettext(message)
