"""A link to a section says the section's name: its text is the heading it opens, or
that heading's first part (before a colon, a comma or a dash), in both editions. Typed
link text drifts when a heading is reworded; this finds it."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
from babel.messages.pofile import read_po
import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("intro", "teaching")
LINK = re.compile(r'<a href="\.\./chapters/(\w+)\.html#([\w-]+)">([^<]+)</a>')


def slug(heading: str) -> str:
    """The id docutils gives a heading (lower case, runs of other characters -> '-')."""
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


def english_headings(chapter: str) -> dict[str, str]:
    """id -> heading text of every section of an English chapter."""
    notebook = nbformat.read(ROOT / "chapters" / f"{chapter}.ipynb", as_version=4)
    found = {}
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for heading in re.findall(r"^#{1,6} (.+)$", cell.source, re.M):
                found[slug(heading)] = heading.strip()
    return found


def russian_headings(chapter: str) -> dict[str, str]:
    """id (from the English heading) -> the Russian heading, from the chapter's catalog."""
    with open(ROOT / "locale" / "ru" / "chapters" / f"{chapter}.po", "rb") as catalog:
        pairs = [(m.id, m.string) for m in read_po(catalog) if m.id]
    return {slug(english.lstrip("# ")): russian.lstrip("# ") for english, russian in pairs
            if re.match(r"#{1,6} ", english) and "\n" not in english}


def names_the_heading(text: str, heading: str) -> bool:
    first = re.split(r":|,| — | - ", heading, maxsplit=1)[0]
    return text.strip().lower() in (heading.lower(), first.strip().lower())


def links(language: str, page: str) -> list[tuple[str, str, str]]:
    if language == "en":
        return LINK.findall((ROOT / "book" / f"{page}.md").read_text("utf-8"))
    with open(ROOT / "locale" / "ru" / "book" / f"{page}.po", "rb") as catalog:
        texts = [message.string for message in read_po(catalog) if message.id]
    return LINK.findall("\n".join(texts))


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("page", PAGES)
def test_section_links_say_the_sections_name(language, page):
    found = links(language, page)
    assert found, f"no section links found in {page} ({language}): has the markup changed?"
    headings = english_headings if language == "en" else russian_headings
    wrong = []
    for chapter, anchor, text in found:
        heading = headings(chapter).get(anchor)
        if heading is None:
            wrong.append(f"{chapter}#{anchor}: no such section")
        elif not names_the_heading(text, heading):
            wrong.append(f"{chapter}#{anchor}: the link says «{text}», the heading "
                         f"«{heading}»")
    assert not wrong, f"{page} ({language}):\n" + "\n".join(wrong)


def test_the_check_catches_a_drifted_label():
    assert names_the_heading("An outage", "An outage, with and without a breaker")
    assert not names_the_heading("Куда ушли ответы", "Куда делись ответы")
