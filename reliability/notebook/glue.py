"""Numbers the prose cites: :func:`glue_values` stores them silently in a cell's
output, in the form myst-nb's ``{glue:text}`` role reads, rounded by :func:`glued` so
that a re-run on another machine stores the same text.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["GLUE_DIGITS", "glued", "glue_values"]


#: Significant digits a glued float keeps. The prose shows at most six (``.4f`` of a number
#: above ten); a seventh keeps every page's rounding, while the stored text no longer
#: carries the last bits that differ between machines (numpy's CPU-specific kernels, the
#: BLAS and its thread count) or the ~1e-9 to which an optimiser converges. A test checks
#: that every ``{glue:text}`` format shows fewer digits than this.
GLUE_DIGITS = 7


def glued(value):
    """``value`` as :func:`glue_values` stores it: numpy scalars become Python numbers (so
    the text reads ``0.434``, not ``np.float64(0.434)``) and finite floats are rounded to
    :data:`GLUE_DIGITS` significant digits. Whole numbers, nan and inf are kept as they are."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        return float(f"{value:.{GLUE_DIGITS}g}") if np.isfinite(value) else value
    return value


#: The MIME prefix of a value glued without display (myst-nb's ``GLUE_PREFIX``).
_GLUE_PREFIX = "application/papermill.record/"


def glue_values(**values) -> None:
    """Glue each keyword as a number the prose can cite with ``{glue:text}`name:.1%```.

    Values are stored silently (nothing is shown under the cell), in the form myst-nb's
    ``glue(name, value, display=False)`` writes, so the book finds them; written here so a
    student's kernel (Binder, Colab) needs no book-building tools to run a chapter.
    Floats are stored as :func:`glued` gives them, to :data:`GLUE_DIGITS` significant
    digits, never as a full repr: the page shows the same text and a re-run on another
    machine stores the same one. Tests that need the raw value compute it, with a tolerance.
    """
    from IPython.core.formatters import format_display_data
    from IPython.display import display

    for name, value in values.items():
        bundle, metadata = format_display_data(glued(value))
        metadata["scrapbook"] = {"name": name, "mime_prefix": _GLUE_PREFIX}
        display({_GLUE_PREFIX + mime: data for mime, data in bundle.items()}, raw=True,
                metadata=metadata)
