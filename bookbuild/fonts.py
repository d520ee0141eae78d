"""Fonts cut to the characters a page shows: the icon fonts of every page
(bookbuild/fast_pages.py) and the slide decks' text face (bookbuild/slides.py).

Each cut comes with the code points it kept, for its ``@font-face``'s
``unicode-range``; the same input gives the same bytes. The icon fonts declare the full
font behind their cut (an icon the cut lacks still arrives); the decks declare only the
cut, made from every character they show.
"""

from __future__ import annotations

import io
from pathlib import Path

__all__ = ["subset_font", "unicode_ranges"]


def subset_font(ttf: Path, codepoints: set[int], *,
                every_feature: bool = True) -> tuple[bytes, set[int]]:
    """A WOFF of ``ttf`` with only ``codepoints`` (and the space), and the code points
    it kept. ``every_feature=False`` keeps only the OpenType features a browser applies
    to running text (kerning, ligatures...), not the alternates (small capitals, old-
    style figures) whose glyphs would double a text face's cut."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(ttf, recalcTimestamp=False)  # the same subset, the same bytes
    present = set(font.getBestCmap())
    kept = (codepoints | {0x20}) & present
    options = subset.Options()
    options.flavor = "woff"          # zlib; woff2 would need the brotli module
    if every_feature:
        options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    # FontForge's timestamps and a web font's own table: nothing a browser reads
    options.drop_tables += ["FFTM", "webf"]
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(unicodes=sorted(kept))
    subsetter.subset(font)
    out = io.BytesIO()
    font.flavor = "woff"
    font.save(out)
    return out.getvalue(), kept


def unicode_ranges(codepoints: set[int]) -> str:
    """The CSS ``unicode-range`` of ``codepoints``, one code point each."""
    return ",".join(f"U+{code:X}" for code in sorted(codepoints))
