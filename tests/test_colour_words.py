"""One palette, one set of colour words: every colour a chapter's prose or alt text names
is one of the book's palette (``reliability.notebook.PALETTE``, Okabe & Ito, which has
no red: its nearest is vermillion, «красно-оранжевый»), in both
editions, so "vermillion" on one page is not "red" on the next (issue: one palette)."""

from __future__ import annotations

import re

import nbformat
import pytest

from bookbuild.run import ROOT, chapters

#: Colour words that name no colour of the palette.
NOT_IN_THE_PALETTE = re.compile(r"\b(red|reds|reddish|pink|brown|navy|cyan|magenta|"
                                r"violet|teal|crimson|scarlet)\b", re.I)
#: Russian: «красный» alone is no palette colour; vermillion is «красно-оранжевый».
RUSSIAN_NOT_IN_THE_PALETTE = re.compile(
    r"(?<![-\w])(красн(?!о-оранжев)\w*|оранжево-красн\w*|розов\w*|коричнев\w*|"
    r"бирюзов\w*|малинов\w*)", re.I)


def _english_texts(path) -> list[str]:
    """A chapter's prose and its figures' alt texts."""
    nb = nbformat.read(str(path), as_version=4)
    texts = [c.source for c in nb.cells if c.cell_type == "markdown"]
    texts += [c.metadata.get("mystnb", {}).get("image", {}).get("alt", "")
              for c in nb.cells]
    return texts


@pytest.mark.parametrize("path", chapters(), ids=[p.stem for p in chapters()])
def test_the_chapters_colour_words_are_the_palettes(path):
    found = sorted({m[0] for text in _english_texts(path)
                    for m in NOT_IN_THE_PALETTE.finditer(text)})
    assert not found, f"{path.name} names colours the book does not draw: {found}"


@pytest.mark.parametrize("path", chapters(), ids=[p.stem for p in chapters()])
def test_the_russian_chapters_colour_words_are_the_palettes(path):
    russian = ROOT / "ru" / "chapters" / path.name
    found = sorted({m[0] for text in _english_texts(russian)
                    for m in RUSSIAN_NOT_IN_THE_PALETTE.finditer(text)})
    assert not found, f"ru/{path.name} names colours the book does not draw: {found}"


def test_the_package_alt_texts_name_palette_colours():
    found = {}
    for module in (ROOT / "reliability").rglob("*.py"):
        words = sorted({m[0] for m in NOT_IN_THE_PALETTE.finditer(module.read_text())})
        if words:
            found[module.name] = words
    for catalog in (ROOT / "reliability" / "locale" / "ru").glob("*.po"):
        words = sorted({m[0] for m in RUSSIAN_NOT_IN_THE_PALETTE.finditer(
            catalog.read_text())})
        if words:
            found[catalog.name] = words
    assert not found, found


def test_the_check_tells_red_from_vermillion():
    assert NOT_IN_THE_PALETTE.search("a red dot") and not NOT_IN_THE_PALETTE.search(
        "a vermillion dot, credited, reduced")
    assert RUSSIAN_NOT_IN_THE_PALETTE.search("красная точка")
    assert RUSSIAN_NOT_IN_THE_PALETTE.search("оранжево-красным")
    assert not RUSSIAN_NOT_IN_THE_PALETTE.search("красно-оранжевая точка, прекрасно")
