"""Numbers the prose cites: :func:`glue_values` stores them silently in a cell's
output, in the form myst-nb's ``{glue:text}`` role reads, rounded by :func:`glued` so
that a re-run on another machine stores the same text.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .. import _validate

__all__ = ["GLUE_DIGITS", "SAMPLED_MARK", "Sampled", "expanded", "glued", "glue_values"]


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

#: The key, in a glued output's metadata, that marks a :class:`Sampled` number: the
#: teacher's guide and the tests read it to know which numbers need their interval.
SAMPLED_MARK = "reliability-sampled"


@dataclass(frozen=True)
class Sampled:
    """A sampled (simulated) number and the 95% interval the chapter computes for it.

    Glued as ``glue_values(ch7_cut=Sampled(cut, low, high))``, it stores three numbers,
    ``ch7_cut``, ``ch7_cut_low`` and ``ch7_cut_high``, and marks ``ch7_cut`` as sampled
    (:data:`SAMPLED_MARK`), so every page that quotes it must quote its interval too
    (the teacher's guide's ``[[ch7_cut_ci:.1%]]`` slot, the chapter's prose its two
    bounds; ``tests/test_simulated_intervals.py`` checks both). The interval need not
    hold the value: a seeded day's value is shown with the interval of several seeded
    days' mean.

    Examples
    --------
    >>> Sampled(0.082, 0.074, 0.091).high
    0.091
    """

    value: float
    low: float
    high: float

    def __post_init__(self):
        for name in ("value", "low", "high"):
            given = getattr(self, name)
            checked = _validate.real(name, given)
            # a count stays a whole number, so its page writes no decimals
            object.__setattr__(self, name, int(given) if isinstance(
                given, numbers.Integral) else checked)
        if self.low > self.high:
            raise ValueError(f"low must be <= high, got low={self.low!r}, "
                             f"high={self.high!r}")


def glue_values(**values) -> None:
    """Glue each keyword as a number the prose can cite with ``{glue:text}`name:.1%```.

    Values are stored silently (nothing is shown under the cell), in the form myst-nb's
    ``glue(name, value, display=False)`` writes, so the book finds them; written here so a
    student's kernel (Binder, Colab) needs no book-building tools to run a chapter.
    Floats are stored as :func:`glued` gives them, to :data:`GLUE_DIGITS` significant
    digits, never as a full repr: the page shows the same text and a re-run on another
    machine stores the same one. Tests that need the raw value compute it, with a tolerance.
    A :class:`Sampled` value stores its number and its interval's two bounds.
    """
    from IPython.core.formatters import format_display_data
    from IPython.display import display

    sampled = {name for name, value in values.items() if isinstance(value, Sampled)}
    for name, value in expanded(values).items():
        bundle, metadata = format_display_data(glued(value))
        metadata["scrapbook"] = {"name": name, "mime_prefix": _GLUE_PREFIX}
        if name in sampled:
            metadata[SAMPLED_MARK] = True
        display({_GLUE_PREFIX + mime: data for mime, data in bundle.items()}, raw=True,
                metadata=metadata)


def expanded(values: dict) -> dict:
    """``values`` as :func:`glue_values` stores them: each :class:`Sampled` one as its
    number and its interval's two bounds, ``name``, ``name_low`` and ``name_high``."""
    out = {}
    for name, value in _validate.mapping("values", values).items():
        if isinstance(value, Sampled):
            out.update({name: value.value, f"{name}_low": value.low,
                        f"{name}_high": value.high})
        else:
            out[name] = value
    return out
