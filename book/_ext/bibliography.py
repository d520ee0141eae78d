"""The reference list labelled the way the text cites: "Huang et al., 2024", not "[HCM+24]".

The chapters cite in author-year form (``bibtex_reference_style = author_year``), but
pybtex's formatting styles label the list alphabetically ("[HCM+24]"), so a reader could
not match a citation to its entry by eye. This registers a pybtex style, ``book``: the
``plain`` style (sorted by author, year, title) with author-year labels, and makes it the
default for every bibliography.
"""

from __future__ import annotations

from pybtex.plugin import register_plugin
from pybtex.style.formatting.plain import Style as Plain
from pybtex.style.labels import BaseLabelStyle


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
        if not names:
            return f"{entry.key}, {year}"
        if len(names) >= 3 or "others" in names:
            return f"{names[0]} et al., {year}"
        return f"{' and '.join(names)}, {year}"


class BookStyle(Plain):
    default_label_style = "book_author_year"


def setup(app):
    register_plugin("pybtex.style.labels", "book_author_year", AuthorYearLabels)
    register_plugin("pybtex.style.formatting", "book", BookStyle)
    app.config.bibtex_default_style = "book"
    return {"parallel_read_safe": True, "parallel_write_safe": True}
