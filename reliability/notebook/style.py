"""The book's look: one colour-blind-safe palette, the plotting style every chapter sets
with :func:`setup`, tick labels in the page's language, and percentage axes.

Nothing here computes a result; it only makes results display the same way on every run.
"""

from __future__ import annotations

import contextlib
import os

import matplotlib as mpl
import numpy as np
from matplotlib.ticker import Formatter

from .. import _validate, i18n
from .legibility import (AUDIT_VARIABLE, FIGURE_WIDTH_IN, RETINA_SCALE,
                         _in_explorer_update, _layout_key, _layout_shortcuts,
                         audit_every_figure, record_text_size)

__all__ = ["FIGURE_WIDTH_IN", "PALETTE", "TEXT_COLOURS", "OUTCOME_COLOURS", "setup",
           "percent_axis", "fit_text", "legend_below"]


#: Okabe & Ito's colour-blind-safe palette, used for every line and bar in the book.
PALETTE = {
    "blue": "#0072B2", "orange": "#E69F00", "green": "#009E73", "vermillion": "#D55E00",
    "sky": "#56B4E9", "purple": "#CC79A7", "yellow": "#F0E442", "black": "#000000",
    "grey": "#999999",
}

#: Palette colours for text on the page's white: a colour a reader must read as text
#: (a signed change in a table) keeps its hue but is dark enough for WCAG AA's 4.5:1
#: contrast; the palette's vermillion itself reaches only 3.6:1.
TEXT_COLOURS = {"up": PALETTE["blue"], "down": "#A94400", "none": "#555555"}

#: One colour per attempt event, the same in every chapter that draws a workflow.
OUTCOME_COLOURS = {
    # a visible, retried error is yellow: orange sits too close to the silent errors'
    # vermillion to tell apart in a small cell
    "ok": PALETTE["green"], "error": PALETTE["yellow"], "wrong": PALETTE["vermillion"],
    "caught": PALETTE["sky"], "rejected_ok": PALETTE["purple"], "gave_up": PALETTE["black"],
    "pending": "#EEEEEE",
}


def setup(language: str = "en") -> None:
    """Set the book's plotting style and make inline figures byte-for-byte reproducible.

    ``language`` (``"en"`` or ``"ru"``) is the language of the figures, tables and live
    explorers the package draws from here on (:mod:`reliability.i18n`): the Russian
    edition's chapters call ``setup(language="ru")``.

    Inline figures are PNGs at twice the screen's pixels (IPython's ``retina``), shown at
    their nominal size, so they stay sharp on high-density screens and when a phone
    shrinks them; each carries its smallest text's height (:mod:`.legibility`) and keeps
    256 colours. PNGs carry no software version and SVGs no date or random hash, so a
    re-run that changes no number changes no byte of the notebook.
    """
    i18n.set_language(language)
    mpl.rcParams.update({
        "axes.prop_cycle": mpl.cycler(color=[PALETTE[k] for k in (
            "blue", "orange", "green", "vermillion", "sky", "purple", "black")]),
        # Sized for a phone, where most students read: a 4.6-inch figure (saved with a
        # 0.01-inch margin) shrinks to a 358-px column at 390 px, so 12.5-pt text still
        # shows at 13.4 CSS px, over the page's small print, its code cells' 13 px,
        # measured in Chromium (reliability.notebook.legibility); on a desktop it shows
        # at its nominal 460 px. Panels stack rather than sit side by side.
        "figure.figsize": (FIGURE_WIDTH_IN, 3.4), "figure.dpi": 100, "savefig.dpi": 100,
        "savefig.pad_inches": 0.01,
        "axes.grid": True, "grid.alpha": 0.3, "axes.spines.top": False,
        "axes.spines.right": False, "font.size": 13, "axes.titlesize": 13,
        "axes.labelsize": 13, "xtick.labelsize": 12.5, "ytick.labelsize": 12.5,
        "legend.fontsize": 12.5, "figure.titlesize": 13.5,
        "legend.frameon": False, "svg.hashsalt": "reliability",
        "animation.embed_limit": 8.0,
    })
    _localised_ticks()
    _remember_text_layout()
    _remember_glyph_layout()
    record_text_size()
    if os.environ.get(AUDIT_VARIABLE):
        audit_every_figure(os.environ[AUDIT_VARIABLE])
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:  # not in a notebook kernel: nothing to configure
        return
    try:
        set_matplotlib_formats("retina", metadata={"Software": None})
    except Exception:  # no IPython shell (plain python): the rcParams above still apply
        pass


def _localised_ticks() -> None:
    """Plain numeric tick labels (matplotlib's ScalarFormatter) with the decimal sign of
    the page's language: «0,5» on a Russian figure. matplotlib's own route, the C
    library's locale, needs a system locale that Colab and Binder do not install."""
    from matplotlib import ticker

    if getattr(ticker.ScalarFormatter.__call__, "_localised", False):
        return
    original = ticker.ScalarFormatter.__call__

    def call(formatter, x, pos=None):
        text = original(formatter, x, pos)
        if i18n.get_language() == "en":
            return text
        from ..numbers import get_decimal_symbol

        return text.replace(".", get_decimal_symbol(i18n.get_language()))

    call._localised = True
    ticker.ScalarFormatter.__call__ = call


#: How many text layouts :func:`_remember_text_layout` keeps before starting afresh.
_LAYOUTS_KEPT = 20_000


def _remember_text_layout() -> None:
    """Measure each piece of text once: matplotlib keeps a text's measurements only as
    long as the renderer that took them, and every figure (a kernel explorer's update
    draws a new one) gets a new renderer, so each update measured every tick label and
    title again, several times (the constrained layout, the tight box, the draw). The
    layout of a text at the origin is a function of its words, font, size, angle,
    alignment, line spacing and resolution alone: it is kept under those, and the
    picture is the same to the pixel. Text with maths, TeX or wrapping is measured as
    before."""
    from matplotlib.font_manager import fontManager
    from matplotlib.text import Text

    if getattr(Text._get_layout, "_remembered", False):
        return
    measure = Text._get_layout
    kept: dict = {}

    def get_layout(text, renderer):
        words = text.get_text()
        if text.get_usetex() or text.get_wrap() or "$" in words:
            return measure(text, renderer)
        prop = text.get_fontproperties()
        key = (type(renderer), getattr(renderer, "dpi", None),
               text.get_figure(root=True).dpi, words,
               tuple(fontManager._find_fonts_by_props(prop)), prop.get_size_in_points(),
               text.get_rotation(), text.get_rotation_mode(),
               text.get_horizontalalignment(), text.get_verticalalignment(),
               text._get_multialignment(), text._linespacing,
               mpl.rcParams["text.hinting"], mpl.rcParams["text.hinting_factor"])
        found = kept.get(key)
        if found is None:
            if len(kept) >= _LAYOUTS_KEPT:
                kept.clear()
            found = kept[key] = measure(text, renderer)
        box, lines, corner = found
        return box.frozen(), list(lines), corner

    get_layout._remembered = True
    get_layout.__wrapped__ = measure
    Text._get_layout = get_layout


def _remember_glyph_layout() -> None:
    """Shape each piece of text once for drawing: Agg's draw asks the font for the
    glyphs of every text and where each goes (shaping, kerning) at every draw, though
    the answer depends only on the words, the font, its size, the resolution, the
    hinting and the text's font features and language. It is kept under those; each
    glyph is then rendered at the text's place as before, so the picture is the same to
    the pixel. In an explorer's update the tick labels and axis labels are the same
    words at every update: shaping them was a sixteenth of the update."""
    from matplotlib import ft2font
    from matplotlib.backends import backend_agg

    renderer = backend_agg.RendererAgg
    if getattr(renderer.draw_text, "_remembered", False):
        return
    if not all(hasattr(ft2font.FT2Font, name) for name in
               ("_layout", "_render_glyph", "_set_transform")):
        return   # another matplotlib than the pinned one draws text its own way
    draw_text = renderer.draw_text
    kept: dict = {}

    def remembered(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath:
            return draw_text(self, gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)
        font = self._prepare_font(prop)
        features = mtext.get_fontfeatures() if mtext is not None else None
        language = mtext.get_language() if mtext is not None else None
        size = prop.get_size_in_points()
        flags = backend_agg.get_hinting_flag()
        # the font itself is kept with its glyphs, so its id names no other font
        key = (id(font), size, self.dpi, s, flags,
               None if features is None else tuple(features), language)
        found = kept.get(key)
        if found is None:
            if len(kept) >= _LAYOUTS_KEPT:
                kept.clear()
            items = font._layout(s, flags=flags, features=features, language=language)
            found = kept[key] = (font, tuple(
                (item.ft_object, size, item.glyph_index, 0, 1, item.x, item.y)
                for item in items))
        if not gc.get_antialiased():
            return self._draw_text_glyphs_and_boxes(gc, x, y, angle, found[1], [])
        _draw_glyphs(self, gc, x, y, angle, found[1], flags)

    remembered._remembered = True
    remembered.__wrapped__ = draw_text
    renderer.draw_text = remembered


#: Rendered glyphs :func:`_draw_glyphs` keeps before starting afresh (a glyph's image at
#: a retina figure's size is about a kilobyte: 10 MB at most, in a Binder of 2 GB).
_GLYPHS_KEPT = 10_000
_glyphs_kept: dict = {}


def _draw_glyphs(renderer, gc, x, y, angle, glyphs, flags) -> None:
    """Paint ``glyphs`` (font, size, index, slant, extend, dx, dy: Agg's own tuples)
    at ``x``, ``y`` as matplotlib's Agg renderer does, each glyph rendered once per
    font, size, resolution, angle and place within a pixel: FreeType rasterises a glyph
    moved by whole pixels into the same image, only moved, so an image is kept under the
    place's fraction of a pixel (in FreeType's 64ths) and reused wherever the same glyph
    falls on the same fraction. The same pixels as matplotlib paints."""
    import math

    from matplotlib.ft2font import RenderMode

    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    height = renderer.height
    matrices: dict = {}   # FreeType's matrix for each slant and stretch, and its key
    for font, size, index, slant, extend, dx, dy in glyphs:   # dy is upwards
        if (slant, extend) not in matrices:
            matrix = (0x10000 * np.array([[cos, -sin], [sin, cos]])
                      @ [[extend, extend * slant], [0, 1]]).round().astype(int)
            matrices[(slant, extend)] = matrix, matrix.tobytes()
        matrix, turned = matrices[(slant, extend)]
        # where FreeType places the glyph, in 64ths of a pixel (its y is upwards)
        at_x = round(0x40 * (x + dx * cos - dy * sin))
        at_y = round(0x40 * (height - y + dx * sin + dy * cos))
        key = (id(font), size, renderer.dpi, index, turned, at_x % 0x40, at_y % 0x40,
               flags)
        found = _glyphs_kept.get(key)
        if found is None:
            if len(_glyphs_kept) >= _GLYPHS_KEPT:
                _glyphs_kept.clear()
            font.set_size(size, renderer.dpi)
            font._set_transform(matrix, [at_x % 0x40, at_y % 0x40])
            bitmap = font._render_glyph(index, flags, RenderMode.NORMAL)
            # (the font kept with its image, so its id names no other font)
            found = _glyphs_kept[key] = (font, np.array(bitmap.buffer), bitmap.left,
                                         bitmap.top)
        buffer, left, top = found[1:]
        # (draw_text_image's y is downwards and names the image's bottom row)
        renderer._renderer.draw_text_image(
            buffer, left + at_x // 0x40,
            int(height) - (top + at_y // 0x40) + buffer.shape[0], 0, gc)


def percent_axis(axis) -> None:
    """Label an axis (``ax.xaxis`` or ``ax.yaxis``) holding shares as percentages, each
    tick with as many decimals as the ticks' spacing needs (``0%, 20%, 40%``, but
    ``0.0%, 2.5%, 5.0%``: rounded to whole percents, ticks 2.5 points apart read "2%"
    and "8%"), in the page's language («2,5%»)."""
    from matplotlib.axis import Axis

    _validate.instance("axis", axis, Axis)
    axis.set_major_formatter(_PercentFormatter())


#: The most decimals a percentage tick is given (ticks 0.001 points apart).
_PERCENT_DIGITS = 3


def _percent_digits(shares) -> int:
    """The fewest decimals that write every one of ``shares`` (as a percentage) exactly,
    or, if none up to :data:`_PERCENT_DIGITS` does, the fewest that tell them apart."""
    points = np.asarray([100 * float(v) for v in shares if np.isfinite(v)])
    if points.size == 0:
        return 0
    for digits in range(_PERCENT_DIGITS + 1):
        if np.all(np.abs(points - np.round(points, digits)) < 1e-6):
            return digits
    for digits in range(_PERCENT_DIGITS + 1):
        if len(set(np.round(points, digits))) == len(set(points)):
            return digits
    return _PERCENT_DIGITS


class _PercentFormatter(Formatter):
    """Shares as percentages with the decimals the axis's ticks need together
    (matplotlib hands a formatter every tick's value first, ``set_locs``)."""

    _ticks: tuple = ()

    def set_locs(self, locs):
        # kept here: Formatter.locs is deprecated from matplotlib 3.11
        self._ticks = tuple(locs)

    def __call__(self, value, pos=None):
        from ..numbers import fmt

        digits = _percent_digits(self._ticks or [value])
        return fmt(value, f".{digits}%")


def fit_text(fig, *, pad_px: float = 3.0):
    """Wrap every title, suptitle, axis label, legend title and legend entry of ``fig``
    that would run past the figure's edge onto more lines, at spaces, the lines as even
    as they can be: titles keep their words however long the page's language makes
    them. Call it last, on a figure with a layout engine (``layout="constrained"``),
    which then makes room for the extra lines. Text with maths (``$``) is left alone. Returns ``fig``.
    """
    from matplotlib.figure import Figure

    _validate.instance("fig", fig, Figure)
    pad_px = _validate.real("pad_px", pad_px, minimum=0)
    with _save_resolution(fig) as scale:
        _fit(fig, pad_px * scale, scale)
    return fig


@contextlib.contextmanager
def _save_resolution(fig):
    """Lay ``fig`` out at the resolution it is about to be saved at: a kernel explorer's
    update goes at once to a retina PNG, whose save lays the figure out again at that
    resolution. Laid out here at it (:func:`_lay_out` noting the layout, the caller
    scaling every pixel length by the ratio this yields), the save keeps the layout
    (legibility.record_text_size) instead of solving the same one a second time. Any
    other figure is laid out at its own resolution, as before (ratio 1)."""
    if not _in_explorer_update():
        yield 1
        return
    from matplotlib import cbook

    with cbook._setattr_cm(fig, dpi=fig.dpi * RETINA_SCALE):
        yield RETINA_SCALE


def _fit(fig, pad_px: float, scale: float) -> bool:
    """fit_text's work at ``fig``'s present resolution, its pixel lengths ``scale`` times
    those of 100 dpi. Whether the layout it leaves is that of the text as it is now."""
    renderer = _renderer(fig)
    for _round in range(3):   # wrapping moves the axes, which moves centred text
        _lay_out(fig, renderer, remember=scale != 1)
        changed = False
        for text in _wrappable(fig):
            box = text.get_window_extent(renderer)
            vertical = text.get_rotation() % 180 == 90
            low, high = ((fig.bbox.y0, fig.bbox.y1) if vertical
                         else (fig.bbox.x0, fig.bbox.x1))
            low, high = low + pad_px, high - pad_px
            start, end = (box.y0, box.y1) if vertical else (box.x0, box.x1)
            if start >= low - 0.5 * scale and end <= high + 0.5 * scale:
                continue
            middle = (start + end) / 2
            align = text.get_verticalalignment() if vertical else \
                text.get_horizontalalignment()
            if any(text is legend.get_title() for legend in fig.legends):
                align = "center"   # a figure legend is centred, whatever its title's side
            room = {"left": high - start, "bottom": high - start, "right": end - low,
                    "top": end - low}.get(align, 2 * min(middle - low, high - middle))
            wrapped = _wrap(text, room, renderer, scale)
            if wrapped != text.get_text():
                text.set_text(wrapped)
                changed = True
        # A legend's entries: the widest one wrapped to the figure less the keys' room.
        for legend in list(fig.legends) + [ax.get_legend() for ax in fig.axes]:
            if legend is None or not legend.get_texts():
                continue
            box = legend.get_window_extent(renderer)
            inside = (fig.bbox.x0 + pad_px - 0.5 * scale,
                      fig.bbox.x1 - pad_px + 0.5 * scale)
            if box.x0 >= inside[0] and box.x1 <= inside[1]:
                continue
            widths = [t.get_window_extent(renderer).width for t in legend.get_texts()]
            room = fig.bbox.width - 2 * pad_px - (box.width - max(widths))
            for text, width in zip(legend.get_texts(), widths):
                if width > room and "$" not in text.get_text():
                    text.set_text(_wrap(text, room, renderer, scale))
                    changed = True
        if not changed:
            return True
    return False


def _lay_out(fig, renderer, *, remember: bool = False) -> None:
    """Place ``fig``'s axes, titles and legends as its next draw will, without drawing
    the figure: the layout engine's pass (constrained layout measures every tick label),
    then each legend alone with drawing switched off, which is what places its title
    and entries. Where each text ends then is where a whole draw would leave it: the
    titles and axis labels this module measures sit at their axes' fractions.
    ``remember`` (an explorer's update, :func:`_save_resolution`) notes the layout on
    the figure, and skips the engine's pass when nothing it depends on has changed
    since the last one noted (fit_text's last round, then the save's). Each axis's
    ticks are found once per pass, not once per box the engine measures."""
    engine = fig.get_layout_engine()
    noted = getattr(fig, "_reliability_laid_out", None)
    if engine is not None and fig.axes and not (remember and noted == _layout_key(fig)):
        try:
            with _layout_shortcuts():
                engine.execute(fig)
        except ValueError:   # as Figure.draw: a layout with no room, left as it was
            pass
        fig._reliability_laid_out = _layout_key(fig) if remember else None
    with renderer._draw_disabled():
        for legend in _legends(fig):
            legend.draw(renderer)


def _legends(fig) -> list:
    return [legend for legend in list(fig.legends) + [ax.get_legend() for ax in fig.axes]
            if legend is not None]


def _renderer(fig):
    """``fig``'s renderer, giving a closed figure a canvas that can draw first."""
    if not hasattr(fig.canvas, "get_renderer"):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    return fig.canvas.get_renderer()


def _wrappable(fig) -> list:
    texts = [fig._suptitle] if fig._suptitle is not None else []
    for ax in fig.axes:
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label,
                  ax.yaxis.label]
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes]
    texts += [legend.get_title() for legend in legends if legend is not None]
    return [t for t in texts if t.get_visible() and t.get_text().strip()
            and "$" not in t.get_text()]


#: Widths :func:`_wrap` has measured, by line and font (display pixels).
_line_widths: dict = {}


def _wrap(text, room: float, renderer, scale: float = 1) -> str:
    """``text``'s words in as few lines as fit ``room`` display pixels, each line as
    near the same width as the fewest lines allow (the steps ``scale`` times those of
    100 dpi)."""
    from matplotlib.font_manager import fontManager

    prop = text.get_fontproperties()
    # a line's width depends on its words, font, size, resolution and hinting alone: an
    # explorer's titles are wrapped again at every update, from mostly the same words
    font = (tuple(fontManager._find_fonts_by_props(prop)), prop.get_size_in_points(),
            renderer.dpi, mpl.rcParams["text.hinting"],
            mpl.rcParams["text.hinting_factor"])

    def width(line: str) -> float:   # each candidate line measured once
        key = (line, font)
        if key not in _line_widths:
            if len(_line_widths) >= _LAYOUTS_KEPT:
                _line_widths.clear()
            _line_widths[key] = renderer.get_text_width_height_descent(line, prop,
                                                                       ismath=False)[0]
        return _line_widths[key]

    def greedy(limit: float) -> list[str]:
        # (the author's own line breaks were for a wider figure: the words flow anew)
        lines, line = [], ""
        for word in text.get_text().split():
            candidate = f"{line} {word}" if line else word
            if line and width(candidate) > limit:
                lines.append(line)
                line = word
            else:
                line = candidate
        return lines + [line]

    best = greedy(room)
    if len(best) == 2:
        # two lines: break at a clause (a parenthesis, a colon) if both halves fit
        whole = " ".join(text.get_text().split())
        for mark, keep in ((" (", 1), (": ", 1), ("; ", 1)):
            at = whole.rfind(mark)
            if at > 0:
                halves = [whole[:at + keep].strip(), whole[at + keep:].strip()]
                widths = [width(half) for half in halves]
                # (and neither half a stub: "Model:" alone on a line reads as a slip)
                if max(widths) <= room and min(widths) >= max(widths) / 3:
                    return "\n".join(halves)
    limit = max(width(line) for line in best)
    while limit > 10 * scale:   # even the lines out: narrow while the count holds
        narrower = greedy(limit - 4 * scale)
        widest = max(width(line) for line in narrower)
        # (more lines, or no narrower: a word longer than the limit stands alone)
        if len(narrower) > len(best) or widest >= limit:
            break
        best, limit = narrower, widest
    return "\n".join(best)


def legend_below(fig, *, handles=None, labels=None, most_columns: int = 2, **kwargs):
    """One legend for the whole figure, under its axes, where it covers no data: the
    entries of every panel (each label once) unless ``handles`` and ``labels`` are given,
    in as many columns, up to ``most_columns``, as fit the figure's width. Replaces a
    legend it drew before; needs ``layout="constrained"``. Returns the legend."""
    from matplotlib.figure import Figure

    _validate.instance("fig", fig, Figure)
    most_columns = _validate.whole("most_columns", most_columns, minimum=1)
    if (handles is None) != (labels is None):
        raise ValueError("handles and labels must be given together (a key per label) "
                         f"or both be None, got handles={handles!r}, labels={labels!r}")
    if handles is not None:
        from matplotlib.artist import Artist
        from matplotlib.container import Container

        handles = list(_validate.sequence("handles", handles, of=(Artist, Container),
                                          minimum=1,
                                          what="matplotlib artists (the legend's keys)"))
        labels = list(_validate.sequence("labels", labels, of=str, minimum=len(handles),
                                         what="labels, one per handle"))
        if len(labels) != len(handles):
            raise ValueError(f"labels must hold one label per handle ({len(handles)}), "
                             f"got {len(labels)}")
    if handles is None:
        found = {}
        for ax in fig.axes:
            for handle, label in zip(*ax.get_legend_handles_labels()):
                found.setdefault(label, handle)
        handles, labels = list(found.values()), list(found)
    for old in list(fig.legends):
        old.remove()
    for ax in fig.axes:
        if ax.get_legend() is not None:
            ax.get_legend().remove()
    columns = max(1, min(most_columns, len(labels)))
    with _save_resolution(fig) as scale:
        while True:
            legend = fig.legend(handles, labels, loc="outside lower center",
                                ncols=columns, **kwargs)
            if columns == 1:
                return legend
            # A legend is as wide as its entries wherever the layout puts it, so its
            # width is measured without solving the layout for each try of columns.
            box = legend.get_window_extent(_renderer(fig))
            if box.width <= fig.bbox.width - 8 * scale:
                return legend
            legend.remove()
            columns -= 1
