"""The reference list labelled the way the text cites: "Huang et al., 2024", not "[HCM+24]".

Where a BibTeX author list ends in "and others" (the remaining authors unknown to us),
both the citations and the list write "et al.", not "and others".

The chapters cite in author-year form (``bibtex_reference_style = author_year``), but
pybtex's formatting styles label the list alphabetically ("[HCM+24]"), so a reader could
not match a citation to its entry by eye. This registers a pybtex style, ``book``: the
``plain`` style (sorted by author, year, title) with author-year labels, and makes it the
default for every bibliography.

Its words follow the edition: the configuration values :data:`WORDS` name ("n.d." for
an entry with no year, "et al.", "{edition} edition"), and ``bibliography_fields`` maps
an entry's English note or howpublished text to the edition's (the Russian edition's
``ru/_config.yml`` carries both, from ``locale/ru/_toc.po``: ``bookbuild edition``).
"""

from __future__ import annotations

import pybtex.style.formatting.unsrt as unsrt
import sphinxcontrib.bibtex.style.referencing as referencing
import sphinxcontrib.bibtex.style.template as citing
from pybtex.database import Entry
from pybtex.plugin import register_plugin
from pybtex.richtext import Tag, Text
from pybtex.style.formatting.plain import Style as Plain
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.template import Node, field, first_of, node, optional, tag
from sphinxcontrib.bibtex.style.referencing import basic_author_year

#: The words the reference list and the citations use, by configuration value, with the
#: English edition's (the defaults); bookbuild/catalogs.py's EXTENSION_WORDS names them
#: for translation.
WORDS = {"bibliography_no_date": "n.d.", "bibliography_et_al": "et al.",
         "bibliography_and": "and", "bibliography_last_and": ", and ",
         "bibliography_edition": "{edition} edition", "bibliography_in": "In"}
#: The words of the edition being built (set when its configuration is read).
_words = dict(WORDS)
#: An entry's English note or howpublished text -> the edition's.
_fields: dict[str, str] = {}
#: The entry fields whose text is prose a reader reads in the edition's language.
TRANSLATED_FIELDS = ("note", "howpublished")


def _word(setting: str) -> str:
    return _words[setting]


def _surname(person) -> str:
    return " ".join(person.prelast_names + person.last_names).replace("{", "").replace("}", "")


class AuthorYearLabels(BaseLabelStyle):
    """"Wilson, 1927", "Ong and Almahairi, 2024" (two authors), "Huang et al., 2024"
    (three or more, or a list ending in "others"); "n.d." when the entry has no year.
    Labels that would repeat get "a", "b", ... after the year."""

    def format_labels(self, sorted_entries):
        labels = [self.format_label(entry) for entry in sorted_entries]
        seen: dict[str, int] = {}
        for label in labels:
            seen[label] = seen.get(label, 0) + 1
        suffix: dict[str, int] = {}
        for label in labels:
            if seen[label] > 1:
                suffix[label] = suffix.get(label, 0) + 1
                yield f"{label}{'abcdefghijklmnopqrstuvwxyz'[suffix[label] - 1]}"
            else:
                yield label

    def format_label(self, entry) -> str:
        people = entry.persons.get("author") or entry.persons.get("editor") or []
        names = [_surname(p) for p in people]
        year = entry.fields.get("year", _word("bibliography_no_date"))
        if not names:   # as the text cites an entry with no author: by BibTeX's key
            # field, the short name its list entry opens with (a repository's), else by
            # its title; never a made-up author, which only one edition's language reads
            title = entry.fields.get("key") or entry.fields.get("title", entry.key)
            return f"{title.replace('{', '').replace('}', '')}, {year}"
        if len(names) >= 3 or "others" in names:
            return f"{names[0]} {_word('bibliography_et_al')}, {year}"
        return f"{(' ' + _word('bibliography_and') + ' ').join(names)}, {year}"


def _et_al(original, suffix, *, first_only=False):
    """The ``names`` template node ``original``, writing a trailing "others" as
    ``suffix()`` (the edition's words, when the entry is formatted) instead of as one more name ("Patil and others"). In the text
    (``first_only``) such an entry is cited by its first author alone, "Madaan et al.":
    the original would abbreviate three known names itself and the suffix would repeat."""

    def names(children, context, role, **kwargs):
        entry = context["entry"]
        people = list(entry.persons.get(role, []))
        known = [p for p in people if str(p) != "others"]
        if len(known) == len(people) or not known:
            return original.f(children, context, role, **kwargs)
        trimmed = Entry(entry.type, fields=entry.fields,
                        persons={**entry.persons, role: known[:1] if first_only else known})
        # the known names are not the whole list: no "and" before the last of them
        if "sep" in kwargs:
            kwargs = {**kwargs, "sep2": kwargs["sep"], "last_sep": kwargs["sep"]}
        text = original.f(children, {**context, "entry": trimmed}, role, **kwargs)
        return Text(text, suffix())

    return node(names)


def _in_the_editions_words(template):
    """``template`` (a paper in proceedings or a collection) with pybtex's literal "In"
    before the venue written in the edition's words («В:» in Russian)."""
    def visit(part):
        # the word sits in a node the template builds afresh on every call; nodes shared
        # between templates (the date, the pages) are left as they are
        if isinstance(part, Node):
            if any(isinstance(child, str) and child == "In" for child in part.children):
                part.children = [_word("bibliography_in") if child == "In" else child
                                 for child in part.children]
            for child in part.children:
                visit(child)
        return part

    return visit(template)


@node
def cited_as(children, data, **kwargs):
    """Who the text cites: the authors, else the editors, else (an entry with no person)
    the short name BibTeX's key field gives, as the reference list labels it
    (:class:`AuthorYearLabels`: «[forge-gap, б. г.]»), and only then the title. Without
    the key the text would cite a long English title where the list shows its name."""
    assert not children
    return first_of[
        optional[citing.names("author", **kwargs)],
        optional[citing.names("editor", **kwargs)],
        optional[field("key")],
        tag("em")[field("title")],
    ].format_data(data)


@node
def year(children, data):
    """The citation's year, or the edition's word for none ("n.d.")."""
    assert not children
    return first_of[optional[field("year")], _word("bibliography_no_date")].format_data(
        data)


class BookStyle(Plain):
    default_label_style = "book_author_year"

    def format_names(self, role, as_sentence=True):
        joined = unsrt.names(role, sep=", ", sep2=f" {_word('bibliography_and')} ",
                             last_sep=_word("bibliography_last_and"))
        return unsrt.sentence[joined] if as_sentence else joined

    def get_inproceedings_template(self, e):
        return _in_the_editions_words(super().get_inproceedings_template(e))

    def get_incollection_template(self, e):
        return _in_the_editions_words(super().get_incollection_template(e))

    def format_edition(self, e):
        return optional[field("edition", apply_func=lambda edition: _word(
            "bibliography_edition").format(edition=edition.lower()))]

    def format_entry(self, label, entry, bib_data=None):
        # A note or howpublished text in the edition's language, where it has one.
        shown = {name: _fields.get(value, value) if name.lower() in TRANSLATED_FIELDS
                 else value for name, value in entry.fields.items()}
        if shown != dict(entry.fields):
            translated = Entry(entry.type, fields=shown, persons=entry.persons)
            translated.key = entry.key
            entry = translated
        return super().format_entry(label, entry, bib_data=bib_data)


def _edition_words(app, config) -> None:
    _words.update({setting: config[setting] for setting in WORDS})
    _fields.clear()
    _fields.update(config.bibliography_fields or {})


def setup(app):
    for setting, english in WORDS.items():
        app.add_config_value(setting, english, "env")
    app.add_config_value("bibliography_fields", {}, "env")
    app.connect("config-inited", _edition_words)
    patch()
    register_plugin("pybtex.style.labels", "book_author_year", AuthorYearLabels)
    register_plugin("pybtex.style.formatting", "book", BookStyle)
    app.config.bibtex_default_style = "book"
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def patch() -> None:
    """Teach pybtex's and sphinxcontrib-bibtex's templates the book's "et al." and the
    edition's words (once per process)."""
    if not getattr(unsrt.names, "_et_al", False):
        unsrt.names = _et_al(unsrt.names, lambda: " " + _word("bibliography_et_al"))
        # in the text, as sphinxcontrib-bibtex writes "et al." for three or more authors
        in_text = lambda: Text(" ", Tag("em", _word("bibliography_et_al")))  # noqa: E731
        referencing.names = _et_al(referencing.names, in_text, first_only=True)
        citing.names = _et_al(citing.names, in_text, first_only=True)
        unsrt.names._et_al = True
        citing.year = basic_author_year.year = year
        referencing.author_or_editor_or_title = cited_as
        person_style = referencing.PersonStyle.__post_init__

        def in_the_editions_words(self):
            person_style(self)
            self.sep2 = f" {_word('bibliography_and')} "
            self.last_sep = _word("bibliography_last_and")
            self.other = Text(" ", Tag("em", _word("bibliography_et_al")))

        referencing.PersonStyle.__post_init__ = in_the_editions_words
