"""Where a figure is shown, and what that asks of its layout: a figure function takes
``medium=`` (a key of :data:`MEDIA`) and draws the same data for that medium, its size,
its panels and its legend chosen here, never by a second copy of the function.

* ``"phone"`` (the default, and what a chapter stores): :data:`FIGURE_WIDTH_IN` wide at
  the function's own height, panels stacked, so that 12.5-pt text still shows 13 CSS px
  in a phone's 358-px column.
* ``"slide"``: a 2:1 figure for the area under a 1280 x 720 slide's heading (shown about
  1,180 x 590 px, bookbuild/slides.py), panels side by side and the legend in more
  columns, so that the same 12.5-pt text shows over 20 px from the back of a room.

* ``"page"``: the book's PDF (bookbuild/book_pdf.py), printed as wide as an A4 or
  Letter text column (182 mm): :data:`PAGE_WIDTH_IN` wide, panels side by side, so that
  the 12.5-pt text prints at about 9.7 pt, above the 8 pt of the page's small print
  (:data:`PAGE_MIN_TEXT_PT`), and the figure takes under half a sheet's height.
"""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib.pyplot as plt

from ..notebook import FIGURE_WIDTH_IN

__all__ = ["Medium", "MEDIA", "PAGE_WIDTH_IN", "PAGE_COLUMN_PX", "PAGE_MIN_TEXT_PT",
           "medium", "size", "width", "figure", "subplots",
           "columns", "panels", "legend_room"]


@dataclass(frozen=True)
class Medium:
    """How figures are drawn for one place they are shown.

    ``width_in`` and ``height_in``: the figure's size in inches (None: the function's
    own, as it draws for a phone); ``side_by_side``: panels a phone stacks in one
    column are laid out in one row instead; ``legend_columns``: the most columns a
    legend under the panels may take (None: the function's own); ``shown_px``: the CSS
    pixels the figure is shown across, what :func:`reliability.notebook.figure_problems`
    measures it at (None: a phone's column)."""

    name: str
    width_in: float | None = None
    height_in: float | None = None
    side_by_side: bool = False
    legend_columns: int | None = None
    shown_px: float | None = None


#: The page medium's width, a slide's: a figure printed over the 182-mm text column
#: (A4's 210 mm less 14-mm margins; Letter's column is wider) shrinks by about 0.78, its
#: 12.5-pt text to about 9.7 pt, and 5.4 in high it takes 107 mm of a sheet's 265.
PAGE_WIDTH_IN = 9.0
#: The text column a page figure is printed over, in CSS pixels (96 per inch), and the
#: smallest text it may print, in points: the size of the sheet's own small print.
PAGE_COLUMN_PX = 182 / 25.4 * 96
PAGE_MIN_TEXT_PT = 8.0

#: The media a figure function draws for, by the name its ``medium`` argument takes.
MEDIA = {
    "phone": Medium("phone"),
    "slide": Medium("slide", width_in=9.0, height_in=4.5, side_by_side=True,
                    legend_columns=3, shown_px=1180.0),
    "page": Medium("page", width_in=PAGE_WIDTH_IN, height_in=5.4, side_by_side=True,
                   legend_columns=3, shown_px=PAGE_COLUMN_PX),
}


def medium(name: str) -> Medium:
    """The :class:`Medium` called ``name``; a ValueError names the argument and the
    media there are."""
    if not isinstance(name, str) or name not in MEDIA:
        raise ValueError(f"medium must be one of {', '.join(map(repr, MEDIA))} (where "
                         f"the figure is shown), got {name!r}")
    return MEDIA[name]


def size(name: str, height: float) -> tuple[float, float]:
    """A figure's size in inches for medium ``name``: a phone's ``(FIGURE_WIDTH_IN,
    height)``, the function's own height, or the medium's own size."""
    shown = medium(name)
    return (FIGURE_WIDTH_IN if shown.width_in is None else shown.width_in,
            height if shown.height_in is None else shown.height_in)


def width(name: str) -> float:
    """A figure's width in inches for medium ``name``."""
    return size(name, 1.0)[0]


def figure(name: str, *, height: float, **kwargs):
    """``plt.figure`` at medium ``name``'s :func:`size`."""
    return plt.figure(figsize=size(name, height), **kwargs)


def subplots(name: str, nrows: int = 1, ncols: int = 1, *, height: float, **kwargs):
    """``plt.subplots`` for medium ``name``: a phone's ``(FIGURE_WIDTH_IN, height)``
    figure with ``nrows`` x ``ncols`` panels exactly as the function asks, or the
    medium's size, with stacked panels put side by side where the medium wants."""
    if not (medium(name).side_by_side and ncols == 1 and nrows > 1):
        return plt.subplots(nrows, ncols, figsize=size(name, height), **kwargs)
    fig, axes = plt.subplots(1, nrows, figsize=size(name, height), **kwargs)
    # indexed as the function asked (axes[:, 0] is every panel, side by side too)
    return fig, axes.reshape(nrows, ncols) if axes.ndim == 2 else axes


def columns(name: str, most: int) -> int:
    """The most legend columns for medium ``name``, the function asking ``most``."""
    shown = medium(name)
    return most if shown.legend_columns is None else max(most, shown.legend_columns)


def panels(name: str, items: list) -> list[list]:
    """``items`` (the rows a phone stacks in one column) as the panels medium ``name``
    lays side by side: one panel on a phone, two halves on a slide (the first the
    longer)."""
    items = list(items)
    if not medium(name).side_by_side or len(items) < 2:
        return [items]
    half = (len(items) + 1) // 2
    return [items[:half], items[half:]]


def legend_room(legend) -> dict:
    """``tight_layout``'s keywords that keep the bottom of the figure for ``legend``, a
    legend under panels side by side (as ``_layout.legend_below`` puts it): laid out
    with its panel, it counted as that panel's own and squeezed the panels aside. Put
    it back in the layout after ``tight_layout``, or a saved image leaves it out."""
    fig = legend.figure
    legend.set_in_layout(False)
    if not hasattr(fig.canvas, "get_renderer"):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    height = legend.get_window_extent(fig.canvas.get_renderer()).height
    return {"rect": (0, height / fig.bbox.height + 0.03, 1, 1)}
