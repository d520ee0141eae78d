"""Text that fits a phone-sized figure (:mod:`reliability.notebook.legibility`): titles,
legend entries and category labels broken onto lines no wider than the room they have.

A title states a finding, so its words are kept; only where its lines break changes.
"""

from __future__ import annotations

import functools

import matplotlib as mpl
from matplotlib.font_manager import FontProperties
from matplotlib.transforms import blended_transform_factory

from .. import _validate
from ..notebook.legibility import _layout_shortcuts

__all__ = ["text_width", "wrap", "title", "legend_below", "finish"]

#: Space left free at each side of a title or label, in inches.
_MARGIN_IN = 0.08


def _points(size) -> float:
    """A font size in points: a number, or an rcParams key (``"axes.titlesize"``)."""
    if isinstance(size, str) and size in mpl.rcParams:
        size = mpl.rcParams[size]
    return FontProperties(size=size).get_size_in_points()


def text_width(text: str, size="font.size") -> float:
    """Width in inches of ``text``'s widest line at ``size``."""
    return max(_line_width(line, _points(size), _font_settings())
               for line in text.split("\n")) / 72


def _font_settings() -> tuple:
    """The settings that choose the font a size is measured in (and its hinting)."""
    return tuple(str(mpl.rcParams[key]) for key in _FONT_KEYS)


_FONT_KEYS = ("font.family", "font.style", "font.variant", "font.weight", "font.stretch",
              "font.sans-serif", "font.serif", "font.monospace", "font.cursive",
              "font.fantasy", "text.hinting", "text.hinting_factor")


@functools.lru_cache(maxsize=20_000)
def _line_width(line: str, points: float, settings: tuple) -> float:
    """One line's width in points (72 dpi: a pixel is a point), measured once per line,
    size and font: wrapping an explorer's titles and legends measures the same words
    at every update, and each measure lays the line out in FreeType anew."""
    renderer = _renderer_at_72()
    return renderer.get_text_width_height_descent(line, FontProperties(size=points),
                                                  ismath=False)[0]


@functools.lru_cache(maxsize=1)
def _renderer_at_72():
    from matplotlib.backends.backend_agg import RendererAgg

    return RendererAgg(8, 8, 72)


def wrap(text: str, width: float, *, size="font.size") -> str:
    """``text`` with its lines no wider than ``width`` inches at ``size``: kept as it is
    if every line fits, otherwise its words broken afresh into as few lines as fit,
    each line taking words while they fit (a word wider than ``width`` alone keeps a
    line of its own)."""
    _validate.instance("text", text, str)
    width = _validate.real("width", width, above=0)
    whole = text_width(text, size)
    if whole <= width:
        return text
    words = text.split()
    # where a line of these words would end if every character were as wide as the
    # text's average one: a guess, which the measures below confirm or correct
    characters = width / whole * max(1, max(len(line) for line in text.split("\n")))

    def fits(start: int, end: int) -> bool:
        return text_width(" ".join(words[start:end]), size) <= width

    lines: list[str] = []
    start = 0
    while start < len(words):
        end = _longest_run(start, len(words), fits, _guess(words, start, characters))
        lines.append(" ".join(words[start:end]))
        start = end
    return "\n".join(lines)


def _guess(words: list[str], start: int, characters: float) -> int:
    """The end of the longest run of ``words`` from ``start`` within ``characters``."""
    end, length = start + 1, len(words[start])
    while end < len(words) and length + 1 + len(words[end]) <= characters:
        length += 1 + len(words[end])
        end += 1
    return end


def _longest_run(start: int, stop: int, fits, guess: int) -> int:
    """The largest ``end`` in ``start + 1 ... stop`` with ``fits(start, end)``, or
    ``start + 1`` (a word alone) if none. A line only widens as it takes words, so the
    runs that fit are the shortest ones, and this is the end that taking words one at a
    time while they fit reaches; it is found by measuring the guess and its neighbour
    (a good guess is right or a word off), then halving, not every run in turn (an
    explorer's title has new numbers, so new lines to measure, at each update)."""
    low, high = start + 1, stop         # the end is in low ... high; low always will do
    first = min(max(guess, low), high)
    if first > low:
        if fits(start, first):
            low = first
        else:
            high = first - 1
    # its neighbour, on the side the guess leaves open: a good guess is a word off at most
    second = low + 1 if low == first else high
    if low < second <= high:
        if fits(start, second):
            low = second
        else:
            high = second - 1
    while low < high:
        middle = (low + high + 1) // 2
        if fits(start, middle):
            low = middle
        else:
            high = middle - 1
    return low


def title(ax, text: str, *, within_axes: bool = False, **kwargs) -> None:
    """Set ``ax``'s title; :func:`finish` wraps it to the room the axes leaves once the
    figure is laid out, from the words as given. (Wrapped here as well, to the figure's
    width, the words were measured twice: finish's first pass wraps them afresh before
    anything reads the title, and a kernel explorer's title has new numbers, so new
    lines to measure, at every update.) ``within_axes``: no wider than the axes itself,
    for panels side by side, where a title as wide as the figure allows runs over its
    neighbour's or its own y label."""
    ax.set_title(_validate.instance("text", text, str), **kwargs)
    ax.title._unwrapped = text
    ax.title._within_axes = _validate.flag("within_axes", within_axes)


def _room(ax) -> float:
    """Inches a centred title over ``ax`` may span without leaving the figure."""
    fig_width = ax.figure.get_figwidth()
    box = ax.get_position()
    centre = (box.x0 + box.x1) / 2 * fig_width
    return max(1.0, 2 * min(centre, fig_width - centre) - 2 * _MARGIN_IN)


def legend_below(ax, handles=None, labels=None, *, ncol: int = 1, **kwargs):
    """A legend under ``ax``'s tick labels and axis label, centred on the figure (so
    nothing plotted is covered, and a wide legend stays inside the figure's width), its
    entries wrapped to the width a column has. :func:`finish` puts it in place."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    fig = ax.figure
    column = (fig.get_figwidth() - 2 * _MARGIN_IN) / ncol - 0.75   # less handle, gaps
    labels = [wrap(str(text), column, size="legend.fontsize") for text in labels]
    if "title" in kwargs:
        kwargs["title"] = wrap(kwargs["title"], fig.get_figwidth() - 0.4,
                               size="legend.fontsize")
    legend = ax.legend(handles, labels, loc="upper center", ncol=ncol,
                       bbox_to_anchor=(0.5, 0.0),
                       bbox_transform=blended_transform_factory(fig.transFigure,
                                                                ax.transAxes),
                       **kwargs)
    legend._below = True
    return legend


def _fit_text(fig) -> None:
    """Re-wrap every axes' centred title and x label to the room its axes has, and the
    figure's title to the figure's width."""
    for ax in fig.axes:
        for text in (ax.title, ax.xaxis.label):
            room = _room(ax)
            if getattr(text, "_within_axes", False):
                room = max(1.0, min(room, ax.get_position().width * fig.get_figwidth()))
            fitted = wrap(getattr(text, "_unwrapped", text.get_text()), room,
                          size=text.get_fontsize())
            if fitted != text.get_text():
                text.set_text(fitted)
    if fig._suptitle is not None:
        text = fig._suptitle
        text.set_text(wrap(text.get_text(), fig.get_figwidth() - 2 * _MARGIN_IN,
                           size=text.get_fontsize()))


def _place_legends(fig) -> None:
    """Each :func:`legend_below` legend just under its axes' tick labels and x label."""
    renderer = fig._get_renderer()
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None or not getattr(legend, "_below", False):
            continue
        bottom = 0.0
        box = ax.xaxis.get_tightbbox(renderer)
        if box is not None and box.height > 0:
            bottom = min(0.0, ax.transAxes.inverted().transform((0, box.y0))[1])
        gap = 0.06 / max(ax.get_position().height * fig.get_figheight(), 0.1)
        legend.set_bbox_to_anchor((0.5, bottom - gap),
                                  transform=blended_transform_factory(fig.transFigure,
                                                                      ax.transAxes))


def _layout_state(fig) -> tuple:
    """All that a pass of :func:`finish` reads and writes: each axes' place, the wrapped
    titles and x labels, and where each legend is anchored."""
    legends = [ax.get_legend() for ax in fig.axes]
    return (tuple(tuple(ax.get_position().bounds) for ax in fig.axes),
            tuple(text.get_text() for ax in fig.axes for text in (ax.title, ax.xaxis.label)),
            None if fig._suptitle is None else fig._suptitle.get_text(),
            tuple(None if legend is None else tuple(legend.get_bbox_to_anchor().bounds)
                  for legend in legends))


def finish(fig, **tight) -> None:
    """Lay ``fig`` out (``tight_layout(**tight)``) with every title and x label wrapped
    to the room its axes has and every :func:`legend_below` legend under its axes."""
    before = None
    with _layout_shortcuts():
        for unused in range(3):          # each pass moves the axes a little less
            _fit_text(fig)
            fig.tight_layout(**tight)
            _place_legends(fig)
            after = _layout_state(fig)
            if after == before:
                # a pass that changed nothing it reads: every later pass, and the
                # last layout, would find the same again (an explorer's update saves
                # a layout)
                return
            before = after
        fig.tight_layout(**tight)
