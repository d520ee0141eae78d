"""A Russian reader tells an interval's two bounds apart: the decimal sign is a comma, so
the bounds are parted by a semicolon («[54,1%; 67,5%]»), in the glued prose, in every
stored output of the Russian chapters and in the parameter boxes («[2; 20 000]»)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from reliability import i18n
from reliability.numbers import interval
from reliability.parameters import Number

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "ru" / "chapters").glob("*.ipynb"))

# a number written with a decimal comma: «54,1%», «−16,1», «+100,0», «1 234,5»
_DECIMAL = r"[−+\-]?\d[\d\u00a0\u202f ]*,\d+\s?%?"
#: an interval whose bounds are parted by a comma: «[54,1%, 67,5%]»
COMMA_INTERVAL = re.compile(rf"\[\s*{_DECIMAL}\s*,\s*{_DECIMAL}\s*\]")
#: the same in a page's source, bounds glued: [{glue:text}`low`, {glue:text}`high`]
COMMA_GLUED = re.compile(r"\[\{glue:text\}`[^`]*`\s*,\s*\{glue:text\}`[^`]*`\s*\]")


def _texts(cell: dict):
    """What a reader reads of one cell: its Markdown, and every stored output's text."""
    if cell["cell_type"] == "markdown":
        yield "".join(cell["source"])
    for output in cell.get("outputs", []):
        if "text" in output:
            yield "".join(output["text"])
        for kind, value in output.get("data", {}).items():
            if kind.startswith("text/"):
                yield "".join(value) if isinstance(value, list) else value


def comma_intervals(text: str) -> list[str]:
    """Every interval in ``text`` whose bounds a comma parts (lines joined first, as a
    paragraph wraps)."""
    text = re.sub(r"\s*\n\s*", " ", text)
    return [m.group(0) for pattern in (COMMA_INTERVAL, COMMA_GLUED)
            for m in pattern.finditer(text)]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.name)
def test_no_interval_parts_decimal_commas_with_a_comma(chapter):
    cells = json.loads(chapter.read_text(encoding="utf-8"))["cells"]
    found = [f"cell {index}: {bad}" for index, cell in enumerate(cells)
             for text in _texts(cell) for bad in comma_intervals(text)]
    assert not found, (f"{chapter.name}: bounds parted by a comma, use «; »:\n"
                       + "\n".join(found))


def test_the_check_sees_both_kinds():
    assert comma_intervals("61,0% [54,1%, 67,5%] и [−16,1,\n+16,1]") == [
        "[54,1%, 67,5%]", "[−16,1, +16,1]"]
    assert comma_intervals("[{glue:text}`a:.1%`,\n{glue:text}`b:.1%`]")
    assert not comma_intervals("[54,1%; 67,5%] [{glue:text}`a:.1%`; {glue:text}`b:.1%`]")
    assert not comma_intervals("[0.541, 0.675] [2, 20]")   # English, whole numbers


def test_intervals_and_ranges_read_russian():
    with i18n.language("ru"):
        assert interval(0.541, 0.675) == "[54,1%; 67,5%]"
        assert Number(2, 20_000, whole=True).describe() == "целое число из [2; 20\xa0000]"
    # the English box keeps the literal a user types back
    assert Number(2, 20_000, whole=True).describe() == "a whole number in [2, 20_000]"
