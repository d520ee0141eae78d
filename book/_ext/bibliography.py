"""The reference list labelled the way the text cites: "Huang et al., 2024", not "[HCM+24]".

Where a BibTeX author list ends in "and others" (the remaining authors unknown to us),
both the citations and the list write "et al.", not "and others".

The chapters cite in author-year form (``bibtex_reference_style = author_year``), but
pybtex's formatting styles label the list alphabetically ("[HCM+24]"), so a reader could
not match a citation to its entry by eye. This registers a pybtex style, ``book``: the
``plain`` style (sorted by author, year, title) with author-year labels, and makes it the
default for every bibliography.
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
from pybtex.style.template import node


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
        year = entry.fields.get("year", "n.d.")
        if not names:   # as the text cites an entry with no author: by its title
            title = entry.fields.get("title", entry.key).replace("{", "").replace("}", "")
            return f"{title}, {year}"
        if len(names) >= 3 or "others" in names:
            return f"{names[0]} et al., {year}"
        return f"{' and '.join(names)}, {year}"


def _et_al(original, suffix, *, first_only=False):
    """The ``names`` template node ``original``, writing a trailing "others" as
    ``suffix`` instead of as one more name ("Patil and others"). In the text
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
        text = original.f(children, {**context, "entry": trimmed}, role, **kwargs)
        return Text(text, suffix)

    return node(names)


class BookStyle(Plain):
    default_label_style = "book_author_year"


def setup(app):
    if not getattr(unsrt.names, "_et_al", False):
        unsrt.names = _et_al(unsrt.names, " et al.")
        # in the text, as sphinxcontrib-bibtex writes "et al." for three or more authors
        in_text = Text(" ", Tag("em", "et al."))
        referencing.names = _et_al(referencing.names, in_text, first_only=True)
        citing.names = _et_al(citing.names, in_text, first_only=True)
        unsrt.names._et_al = True
    register_plugin("pybtex.style.labels", "book_author_year", AuthorYearLabels)
    register_plugin("pybtex.style.formatting", "book", BookStyle)
    app.config.bibtex_default_style = "book"
    return {"parallel_read_safe": True, "parallel_write_safe": True}
