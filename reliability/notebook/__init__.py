"""The page helpers a chapter calls, one module per job; a chapter imports them from
here (``from reliability.notebook import setup, glue_values, table``):

- :mod:`.style`: the book's look (:data:`FIGURE_WIDTH_IN`, :data:`PALETTE`,
  :data:`OUTCOME_COLOURS`, :func:`setup`, :func:`percent_axis`, :func:`fit_text`:
  titles wrapped to the figure's width; :func:`legend_below`);
- :mod:`.glue`: numbers the prose cites (:func:`glue_values`, :func:`glued`; a sampled
  one with its interval, :class:`Sampled`);
- :mod:`.tables`: tables a projector can show (:func:`table`);
- :mod:`.legibility`: whether a figure reads on a phone (:func:`figure_problems`) and
  the audit of every figure a test run draws;
- :mod:`.animation`: figures that move without a kernel (:func:`animation_html`,
  :func:`scrubber`).

The number formatters (:mod:`reliability.numbers`) are re-exported too, so a chapter's
setup cell imports what its printed lines need in one line. Nothing here computes a
result; it only makes results display the same way on every run.
"""

from __future__ import annotations

# A chapter's printed lines write their numbers with these (reliability.numbers), in the
# page's language: imported with setup() and table, they cost the setup cell no line.
from ..numbers import counted, fmt, interval, percent, points, said, seeded, yes_no
from .animation import FRAME_COLOURS, FRAME_DPI, MAX_FRAMES, animation_html, scrubber
from .glue import GLUE_DIGITS, Sampled, glue_values, glued
from .legibility import (AUDIT_VARIABLE, FIGURE_COLOURS, MIN_TEXT_PX, PHONE_COLUMN_PX,
                         TEXT_SIZE_KEY, figure_problems)
from .style import (FIGURE_WIDTH_IN, OUTCOME_COLOURS, PALETTE, TEXT_COLOURS, fit_text,
                    legend_below, percent_axis, setup)
from .tables import table

__all__ = ["FIGURE_WIDTH_IN", "PALETTE", "TEXT_COLOURS", "OUTCOME_COLOURS", "GLUE_DIGITS",
           "PHONE_COLUMN_PX", "MIN_TEXT_PX", "AUDIT_VARIABLE", "TEXT_SIZE_KEY",
           "FIGURE_COLOURS", "FRAME_DPI",
           "FRAME_COLOURS", "MAX_FRAMES", "setup", "glue_values", "glued", "Sampled",
           "animation_html", "scrubber", "percent_axis", "fit_text", "legend_below", "figure_problems",
           "table",
           "fmt", "counted", "interval", "percent", "points", "said", "seeded",
           "yes_no"]
