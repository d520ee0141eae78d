"""Whether a figure reads on a phone: text large enough in the narrowest column the page
shows a figure in, no text over other text or past the figure's edge, no legend over the
data (:func:`figure_problems`); the audit the tests switch on to check every figure a
chapter draws (:data:`AUDIT_VARIABLE`); and the smallest text's height each embedded PNG
carries for the browser tests (:data:`TEXT_SIZE_KEY`).
"""

from __future__ import annotations

import contextlib
import json

import matplotlib as mpl
import numpy as np

from .. import _validate

__all__ = ["FIGURE_WIDTH_IN", "PHONE_COLUMN_PX", "MIN_TEXT_PX", "AUDIT_VARIABLE", "TEXT_SIZE_KEY",
           "FIGURE_COLOURS", "figure_problems"]

#: Every figure's width in inches (heights vary): 12.5-pt text at this width, shrunk to
#: the phone's column below, shows at least MIN_TEXT_PX high (reliability.notebook.style
#: sets those sizes).
FIGURE_WIDTH_IN = 4.6
#: The narrowest column a figure is shown in: a 390-px phone less the page's margins
#: (measured in Chromium on the built page).
PHONE_COLUMN_PX = 358
#: The smallest text a figure may show, in CSS pixels (a font size, as CSS measures it),
#: when shrunk to that column: the page's own small print, its code cells' 13 px
#: (measured in Chromium at 390 and 1280 px; tests/test_browser.py measures it again).
MIN_TEXT_PX = 13
#: If this environment variable names a file, every figure drawn is checked with
#: :func:`figure_problems` and one JSON line per figure is appended to it (the tests do
#: this for every chapter run).
AUDIT_VARIABLE = "RELIABILITY_FIGURE_AUDIT"
#: The PNG text key under which every figure the book embeds (inline figures, animation
#: frames) carries the height of its smallest text, in the image's own pixels: the
#: browser tests scale it by the width the page shows the image at and compare it with
#: the page's small print (tests/test_browser.py).
TEXT_SIZE_KEY = "reliability-smallest-text-px"
#: Colours an inline figure keeps: flat plots in a handful of palette colours lose
#: nothing visible at 256 and weigh about half as much as a full-colour PNG.
FIGURE_COLOURS = 256

#: How many times a figure's own resolution an inline figure is saved at: IPython's
#: ``retina`` format, which :func:`reliability.notebook.setup` selects.
RETINA_SCALE = 2


def figure_problems(fig, *, column_px: float = PHONE_COLUMN_PX,
                    min_text_px: float = MIN_TEXT_PX) -> list[str]:
    """What makes ``fig`` hard to read when shown ``column_px`` CSS pixels wide.

    Six kinds: text whose height would be under ``min_text_px`` there (font size in
    points / 72 x the column over the figure's width in inches, margins included); two
    pieces of text that overlap each other; a legend whose box, inside an axes, covers
    plotted data (a line or its markers, a bar or band, a scatter point, an image); text
    that runs past the figure's left or right edge (clipped where the figure is saved at
    its size, and where it is saved to fit, an image wider than the figure, shrunk
    further on a phone); text clipped to its axes (a contour label) that runs past them,
    where it is cut off; and text drawn on a filled box, or a contour label, that hides
    a marker (any part of it) or an interval bar.
    Returns one sentence per problem; an empty list is a pass.
    """
    from matplotlib.figure import Figure

    _validate.instance("fig", fig, Figure)
    column_px = _validate.real("column_px", column_px, above=0)
    min_text_px = _validate.real("min_text_px", min_text_px, above=0)
    texts = _painted_texts(fig)
    renderer = fig.canvas.get_renderer()
    # (an inline figure is saved to its content plus the savefig margin on each side)
    scale = column_px / (fig.get_figwidth() + 2 * mpl.rcParams["savefig.pad_inches"])
    problems = []
    for text in texts:
        shown = text.get_fontsize() / 72 * scale
        if shown < min_text_px:
            problems.append(f"text {text.get_text()!r} is {shown:.1f} px high at "
                            f"{column_px:g} px wide (at least {min_text_px:g} px)")
    boxes = [(t, t.get_window_extent(renderer)) for t in texts]
    for i, (first, one) in enumerate(boxes):
        for second, other in boxes[i + 1:]:
            overlap_w = min(one.x1, other.x1) - max(one.x0, other.x0)
            overlap_h = min(one.y1, other.y1) - max(one.y0, other.y0)
            # A pixel or two of touching is the font's padding, not a collision.
            if overlap_w > 2 and overlap_h > 2:
                problems.append(f"text {first.get_text()!r} overlaps "
                                f"{second.get_text()!r}")
    edge = fig.bbox
    for text, box in boxes:
        # (a pixel of antialiasing past the edge is no clipping)
        past = max(edge.x0 - box.x0, box.x1 - edge.x1)
        if past > 1:
            side = "left" if edge.x0 - box.x0 >= box.x1 - edge.x1 else "right"
            problems.append(f"text {text.get_text()!r} runs {past:.0f} px past the "
                            f"figure's {side} edge (clipped, or it widens the image): "
                            "wrap it or shorten it")
    problems += _legend_problems(fig, renderer)
    problems += _clipped_text_problems(fig, renderer)
    problems += _boxed_text_problems(fig, renderer)
    return problems


def _text_box(text, renderer):
    """The display-space box ``text`` paints: its filled box where it has one."""
    patch = text.get_bbox_patch()
    if patch is None:
        return text.get_window_extent(renderer)
    text.update_bbox_position_size(renderer)
    return patch.get_window_extent(renderer)


def _contour_labels(ax) -> set:
    """The ids of ``ax``'s contour labels (matplotlib keeps them on their contour set)."""
    return {id(t) for c in ax.collections for t in getattr(c, "labelTexts", ())}


def _clipped_text_problems(fig, renderer) -> list[str]:
    """A sentence for each piece of text clipped to a region (matplotlib clips a contour
    label to its axes) that runs past it: the part outside is cut off, so a phone shows
    '0%' for '70%'."""
    problems = []
    for ax in fig.axes:
        for text in ax.texts:
            clip = text.get_clip_box()
            if (not text.get_visible() or not text.get_clip_on() or clip is None
                    or not text.get_text().strip()):
                continue
            box = _text_box(text, renderer)
            # (a pixel of antialiasing past the edge is no cut)
            past = max(clip.x0 - box.x0, box.x1 - clip.x1, clip.y0 - box.y0,
                       box.y1 - clip.y1)
            if past > 1:
                problems.append(f"text {text.get_text()!r} runs {past:.0f} px past its "
                                "axes and is cut off there: place it inside them")
    return problems


def _boxed_text_problems(fig, renderer) -> list[str]:
    """A sentence for each piece of text drawn on a filled box (a label kept legible over
    grid and reference lines, which it may hide), and each contour label, that hides a
    data point of an axes: any part of a marker, or an interval bar, painted over as a
    legend would paint it."""
    import numpy as np
    from matplotlib.collections import LineCollection
    from matplotlib.transforms import Bbox

    def hidden(ax, region) -> str | None:
        for line in ax.lines:
            if line.get_visible() and line.get_marker() not in (None, "None", "none", "",
                                                                 " "):
                points = line.get_transform().transform(
                    np.asarray(line.get_xydata(), float))
                # A marker is as wide as its size: a box over its edge hides it too.
                radius = line.get_markersize() / 2 * fig.dpi / 72
                if _points_in(points, region.padded(radius)):
                    return "a marker"
        for bars in ax.collections:
            if bars.get_visible() and isinstance(bars, LineCollection):
                for path in bars.get_paths():
                    ends = bars.get_transform().transform(np.asarray(path.vertices, float))
                    if _segments_cross(ends[:-1], ends[1:], region):
                        return "an interval bar"
        return None

    problems = []
    for ax in fig.axes:
        contour_labels = _contour_labels(ax)
        for text in ax.texts:
            patch = text.get_bbox_patch()
            if (not text.get_visible() or not text.get_text().strip()
                    or (patch is None and id(text) not in contour_labels)):
                continue
            box = _text_box(text, renderer)
            region = Bbox.intersection(box, ax.bbox)
            if region is None or region.width < 3 or region.height < 3:
                continue
            covered = hidden(ax, region.padded(-1.5))
            if covered:
                what = "the contour label" if id(text) in contour_labels else \
                    "the box of text"
                problems.append(f"{what} {text.get_text()!r} hides {covered}: "
                                "give the text room of its own")
    return problems


def _painted_texts(fig) -> list:
    """The pieces of text a draw of ``fig`` actually paints (not tick labels outside the
    view, not empty or hidden ones), in drawing order."""
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    _validate.instance("fig", fig, Figure)
    painted = []
    paint = Text.draw

    def draw_and_note(text, renderer):
        if text.get_visible() and text.get_text().strip():
            painted.append(text)
        return paint(text, renderer)

    if not hasattr(fig.canvas, "get_renderer"):   # a closed figure: give it a canvas
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    Text.draw = draw_and_note
    try:
        fig.canvas.draw()
    finally:
        Text.draw = paint
    return list(dict.fromkeys(painted))


def _legend_problems(fig, renderer) -> list[str]:
    """A sentence for each legend whose box covers data drawn in any of ``fig``'s axes
    (data is clipped to its axes, so only the part of the box inside them counts)."""
    from matplotlib.transforms import Bbox

    legends = [ax.get_legend() for ax in fig.axes] + list(fig.legends)
    problems = []
    for legend in legends:
        if legend is None or not legend.get_visible():
            continue
        box = legend.get_window_extent(renderer)
        names = ", ".join(repr(t.get_text()) for t in legend.get_texts()) or "untitled"
        for ax in fig.axes:
            region = Bbox.intersection(box, ax.bbox)
            # (touching the axes' edge or a data point's antialiasing is no cover)
            if region is None or region.width < 3 or region.height < 3:
                continue
            region = region.padded(-1.5)
            covered = _covered_data(ax, region, renderer)
            if covered:
                where = f" in the axes titled {ax.get_title()!r}" if ax.get_title() else ""
                problems.append(f"the legend ({names}) covers {covered}{where}: move it "
                                "outside the axes or to a corner with no data")
    return problems


def _covered_data(ax, region, renderer) -> str | None:
    """What plotted data of ``ax`` lies in ``region`` (a display-space box), if any."""
    import numpy as np
    from matplotlib.collections import LineCollection, PathCollection

    for line in ax.lines:
        if not line.get_visible():
            continue
        points = line.get_transform().transform(np.asarray(line.get_xydata(), float))
        if line.get_marker() not in (None, "None", "none", "", " ") and \
                _points_in(points, region):
            return f"the markers of line {line.get_label()!r}"
        if line.get_linestyle() not in ("None", "none", "", " ") and \
                _segments_cross(points[:-1], points[1:], region):
            return f"line {line.get_label()!r}"
    for collection in ax.collections:
        if not collection.get_visible():
            continue
        if isinstance(collection, PathCollection):   # scatter: one marker per offset
            offsets = collection.get_offset_transform().transform(
                np.asarray(collection.get_offsets(), float))
            if _points_in(offsets, region):
                return "scatter points"
            continue
        transform = collection.get_transform()
        for path in collection.get_paths():
            vertices = transform.transform(np.asarray(path.vertices, float))
            if isinstance(collection, LineCollection):
                if _segments_cross(vertices[:-1], vertices[1:], region):
                    return "interval bars or lines"
            elif len(vertices) and _box_overlaps(vertices, region):
                return "a shaded band"
    for patch in ax.patches:
        if not patch.get_visible():
            continue
        extent = patch.get_window_extent(renderer)
        if extent.width > 0 and extent.height > 0 and region.overlaps(extent):
            return f"a bar or patch ({patch.get_label() or 'unlabelled'})"
    for image in ax.images:
        if image.get_visible() and region.overlaps(image.get_window_extent(renderer)):
            return "the image"
    return None


def _points_in(points, region) -> bool:
    import numpy as np

    points = points[np.isfinite(points).all(axis=1)]
    return bool(np.any((points[:, 0] >= region.x0) & (points[:, 0] <= region.x1)
                       & (points[:, 1] >= region.y0) & (points[:, 1] <= region.y1)))


def _segments_cross(starts, ends, region) -> bool:
    """Whether any segment from ``starts[i]`` to ``ends[i]`` passes through ``region``
    (Liang-Barsky clipping, vectorised; segments with a missing end are skipped)."""
    import numpy as np

    keep = np.isfinite(starts).all(axis=1) & np.isfinite(ends).all(axis=1)
    start, delta = starts[keep], ends[keep] - starts[keep]
    if not len(start):
        return False
    low = np.zeros(len(start))
    high = np.ones(len(start))
    inside = np.ones(len(start), bool)
    for axis, (lo, hi) in enumerate(((region.x0, region.x1), (region.y0, region.y1))):
        d, s = delta[:, axis], start[:, axis]
        still = d == 0
        inside &= ~still | ((s >= lo) & (s <= hi))
        with np.errstate(divide="ignore", invalid="ignore"):
            t0, t1 = (lo - s) / d, (hi - s) / d
        near, far = np.minimum(t0, t1), np.maximum(t0, t1)
        low = np.where(still, low, np.maximum(low, near))
        high = np.where(still, high, np.minimum(high, far))
    return bool(np.any(inside & (low <= high)))


def _box_overlaps(vertices, region) -> bool:
    """Whether a filled shape's outline, or the region inside it, meets ``region``."""
    import numpy as np
    from matplotlib.path import Path

    vertices = vertices[np.isfinite(vertices).all(axis=1)]
    return len(vertices) > 2 and Path(vertices).intersects_bbox(region, filled=True)


def audit_every_figure(path: str) -> None:
    """Check every figure as it is saved (inline display, animation frames)."""
    from matplotlib.backend_bases import FigureCanvasBase
    from matplotlib.text import Text

    if getattr(FigureCanvasBase.print_figure, "_audited", False):
        return
    original = FigureCanvasBase.print_figure

    def print_figure(canvas, *args, **kwargs):
        figure = canvas.figure
        title = figure.get_suptitle() or "; ".join(
            ax.get_title() for ax in figure.axes if ax.get_title())
        problems = figure_problems(figure)
        # Every piece of text the figure paints, for the check that a Russian chapter's
        # figures say nothing in English.
        texts = sorted({t.get_text() for t in figure.findobj(Text)
                        if t.get_visible() and t.get_text().strip()})
        with open(path, "a", encoding="utf-8") as log:
            log.write(json.dumps({"title": title, "problems": problems, "texts": texts},
                                 ensure_ascii=False) + "\n")
        return original(canvas, *args, **kwargs)

    print_figure._audited = True
    FigureCanvasBase.print_figure = print_figure


def _png_with_text(data, text: dict, colours: int | None = None, *,
                   fast: bool = False) -> bytes:
    """``data`` (a PNG's bytes, or the RGBA pixels a canvas drew, as an array) as a PNG
    with ``text`` added to its text chunks (a PNG's own kept), reduced to ``colours``
    (median cut, no dither: deterministic) when that is given and the image is opaque.
    ``fast`` writes drawn pixels with :func:`_quick_png` instead of the smallest file (a
    live explorer's update, which no page stores and a student waits for)."""
    import io

    from PIL import Image, PngImagePlugin

    if fast and isinstance(data, np.ndarray):
        return _quick_png(data, text)
    image = Image.open(io.BytesIO(data)) if isinstance(data, bytes) else \
        Image.fromarray(data, "RGBA")
    info = PngImagePlugin.PngInfo()
    for key, value in {**getattr(image, "text", {}), **text}.items():
        info.add_text(key, value)
    opaque = image.convert("RGBA").getchannel("A").getextrema()[0] == 255
    if colours and opaque:
        image = image.convert("RGB").quantize(colors=colours,
                                              method=Image.Quantize.MEDIANCUT,
                                              dither=Image.Dither.NONE)
    elif fast and opaque:
        image = image.convert("RGB")
    out = io.BytesIO()
    if fast:
        image.save(out, format="PNG", compress_level=1, pnginfo=info)
    else:
        image.save(out, format="PNG", optimize=True, pnginfo=info)
    return out.getvalue()


def _quick_png(rgba, text: dict) -> bytes:
    """``rgba`` (height x width x 4 bytes) as an RGBA PNG with ``text`` in tEXt chunks
    (iTXt where a value is not Latin-1). Every row after the first is stored as its
    difference from the row above (PNG's "Up" filter, one array subtraction) and
    deflated at zlib's fastest level: Pillow tries several filters on every row to
    choose one, which took most of an explorer's save. The alpha channel is kept even
    where every pixel is opaque: leaving it out copies every pixel (4 ms a figure), while
    an opaque alpha filters to zeros, which cost zlib next to nothing. Lossless like any
    PNG: the same pixels."""
    import struct
    import zlib

    height, width, _ = rgba.shape
    rows = np.ascontiguousarray(rgba).reshape(height, 4 * width)
    filtered = np.empty((height, 4 * width + 1), np.uint8)
    filtered[0, 0], filtered[1:, 0] = 0, 2          # filter type: none, then Up
    filtered[0, 1:] = rows[0]
    np.subtract(rows[1:], rows[:-1], out=filtered[1:, 1:])   # wraps mod 256, as PNG's

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + \
            struct.pack(">I", zlib.crc32(kind + body))

    chunks = [chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))]
    for key, value in text.items():
        try:
            chunks.append(chunk(b"tEXt", f"{key}\0{value}".encode("latin-1")))
        except UnicodeEncodeError:
            chunks.append(chunk(b"iTXt", key.encode("latin-1") + b"\0\0\0\0\0" +
                                value.encode("utf-8")))
    chunks.append(chunk(b"IDAT", zlib.compress(filtered.tobytes(), 1)))
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunks) + chunk(b"IEND", b"")


def _in_explorer_update() -> bool:
    """Whether the figure being saved is drawn by a kernel explorer's update (an
    ``ipywidgets.interactive`` calling its function after a control moved): its image
    goes to the student's screen only, never into a stored notebook."""
    import sys

    widgets = sys.modules.get("ipywidgets.widgets.interaction")
    if widgets is None:
        return False
    update = widgets.interactive.update.__code__
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code is update:
            return True
        frame = frame.f_back
    return False


def _layout_key(fig) -> tuple:
    """What ``fig``'s layout is a function of that code may change after laying it out:
    its resolution and size, each axes' place, limits and scales, and the words of its
    titles, axis labels and legends. Equal keys, equal layouts."""
    def words(texts):
        return tuple(t.get_text() for t in texts if t is not None)

    axes = tuple((ax.get_position().bounds, tuple(ax.viewLim.bounds), ax.get_xscale(),
                  ax.get_yscale(), words([ax.title, ax._left_title, ax._right_title,
                                          ax.xaxis.label, ax.yaxis.label]))
                 for ax in fig.axes)
    legends = [legend for legend in list(fig.legends) + [ax.get_legend() for ax in fig.axes]
               if legend is not None]
    return (fig.dpi, tuple(fig.get_size_inches()), axes, words([fig._suptitle]),
            tuple((legend._ncols, legend._loc, words([legend.get_title(),
                                                      *legend.get_texts()]))
                  for legend in legends))


def _tight_box(figure, kwargs: dict) -> dict:
    """``kwargs`` for print_figure with a ``"tight"`` box measured here, on ``figure``
    already laid out: matplotlib's save would first pass over the whole figure with
    drawing switched off to place it, then measure it; measuring places it."""
    if kwargs.get("bbox_inches", mpl.rcParams["savefig.bbox"]) != "tight" or \
            kwargs.get("bbox_extra_artists") is not None:
        return kwargs
    pad = kwargs.get("pad_inches")
    pad = mpl.rcParams["savefig.pad_inches"] if pad in (None, "layout") else pad
    box = figure.get_tightbbox(figure._get_renderer()).padded(pad)
    return {**kwargs, "bbox_inches": box}


def _writes_no_text(metadata) -> bool:
    """Whether matplotlib's PNG would carry no text chunk with ``metadata`` (its
    ``Software`` stamp switched off, nothing else given)."""
    return isinstance(metadata, dict) and "Software" in metadata and \
        all(value is None for value in metadata.values())


def record_text_size() -> None:
    """Make every PNG a figure is saved to in memory (a notebook's inline figure, an
    animation's frame) carry its smallest text's height in the image's pixels under
    :data:`TEXT_SIZE_KEY`, and keep :data:`FIGURE_COLOURS` colours. The sizes are those
    of the text the save itself paints (no extra draw), and the pixels are taken from
    the canvas as it painted them (no PNG written and read back). A kernel explorer's
    update keeps its full colours and is compressed fast: the student waits for it and
    no page stores it. Files a reader saves with ``savefig("x.png")`` are left as
    matplotlib writes them."""
    import contextlib
    import io

    from matplotlib import cbook
    from matplotlib.backend_bases import FigureCanvasBase
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.layout_engine import PlaceHolderLayoutEngine
    from matplotlib.text import Text

    if getattr(FigureCanvasBase.print_figure, "_records_text", False):
        return
    original = FigureCanvasBase.print_figure
    agg_print_png = FigureCanvasAgg.print_png

    def print_figure(canvas, filename, *args, **kwargs):
        in_memory = hasattr(filename, "write") and not hasattr(filename, "name")
        if not in_memory or str(kwargs.get("format") or "png").lower() != "png":
            return original(canvas, filename, *args, **kwargs)
        sizes, drawn = [], []
        paint = Text.draw

        def draw_and_note(text, renderer):
            if text.get_visible() and text.get_text().strip():
                sizes.append(text.get_fontsize())
            return paint(text, renderer)

        def keep_pixels(agg, filename_or_obj, *, metadata=None, pil_kwargs=None, **_):
            # what matplotlib's print_png would encode, kept as an image instead (the
            # keywords print_figure passes for other formats ignored, as print_png does)
            FigureCanvasAgg.draw(agg)
            drawn.append(np.asarray(agg.buffer_rgba()).copy())

        # matplotlib's own PNG is skipped only when it would carry nothing but pixels
        direct = kwargs.get("pil_kwargs") is None and _writes_no_text(kwargs.get("metadata"))
        buffer = io.BytesIO()
        dpi = kwargs.get("dpi") or mpl.rcParams["savefig.dpi"]
        if dpi == "figure":
            dpi = canvas.figure.dpi
        figure = canvas.figure
        laid_out = getattr(figure, "_reliability_laid_out", None)
        live = _in_explorer_update()
        with contextlib.ExitStack() as stack:
            stack.enter_context(_layout_shortcuts())
            # fit_text laid an explorer's figure out at this resolution, and nothing it
            # depends on has changed since: the save keeps that layout (the one its
            # own pass would find again) rather than solving it a second time
            if laid_out is not None and figure.get_layout_engine() is not None:
                stack.enter_context(cbook._setattr_cm(figure, dpi=dpi))
                if _layout_key(figure) == laid_out:
                    stack.enter_context(figure._cm_set(layout_engine=None))
                    kwargs = _tight_box(figure, kwargs)
            elif live and isinstance(figure.get_layout_engine(),
                                     (type(None), PlaceHolderLayoutEngine)):
                # an explorer's figure placed by hand (figures/_layout.finish, whose
                # tight_layout leaves a placeholder engine that does nothing): nothing
                # moves it at the save, so its tight box is measured at the save's
                # resolution without the save's extra pass over the whole figure
                stack.enter_context(cbook._setattr_cm(figure, dpi=dpi))
                stack.enter_context(figure._cm_set(layout_engine=None))
                kwargs = _tight_box(figure, kwargs)
            figure._reliability_laid_out = None
            Text.draw = draw_and_note
            if direct:
                FigureCanvasAgg.print_png = keep_pixels
            try:
                result = original(canvas, buffer, *args, **kwargs)
            finally:
                Text.draw = paint
                FigureCanvasAgg.print_png = agg_print_png
        text = {TEXT_SIZE_KEY: f"{min(sizes) / 72 * dpi:.2f}"} if sizes else {}
        filename.write(_png_with_text(drawn[-1] if drawn else buffer.getvalue(), text,
                                      None if live else FIGURE_COLOURS, fast=live))
        return result

    print_figure._records_text = True
    FigureCanvasBase.print_figure = print_figure


@contextlib.contextmanager
def _layout_shortcuts():
    """While a figure is laid out, measured or saved, two answers matplotlib finds
    again and again are found once.

    * Each axis's ticks, once while nothing they depend on changes. A layout measures
      every axis many times over (constrained layout's two passes ask each axes, its
      titles and its labels for their boxes about thirty times an axes), and matplotlib
      finds the ticks afresh each time: the locator, the formatter's labels, each
      tick's text set again.
      They depend on the axes' box in pixels (how many ticks fit), the axis's view and
      data intervals, its locator and formatter and which ticks are shown, so while
      those are the same as at its last search the ticks are the ones found then (the
      same objects, already placed and labelled).
    * Which artists are clipped to their axes, and so can be left out of its tight box
      (their box is inside the axes'). matplotlib compares an artist's clip box with the
      axes' box for exact equality, and a bar's, found through another chain of
      transforms, can differ from it by 1e-13 of a pixel: every bar of a chart was then
      measured at every layout pass. Here boxes within a millionth of a pixel are equal.
    """
    from matplotlib.artist import Artist
    from matplotlib.axis import Axis
    from matplotlib.transforms import TransformedPatchPath

    find, clipped = Axis._update_ticks, Artist._fully_clipped_to_axes
    found: dict = {}

    def held(axis):
        # which tick groups are found (matplotlib 3.11; 3.10, as in Colab, finds both)
        shown = getattr(axis, "_tick_group_visible", None)
        groups = () if shown is None else (shown(axis._major_tick_kw),
                                           shown(axis._minor_tick_kw))
        # (the axes' box in pixels too: how many ticks fit depends on the axis's length)
        key = (id(axis), tuple(axis.axes.bbox.bounds), tuple(axis.get_view_interval()),
               tuple(axis.get_data_interval()),
               id(axis.major.locator), id(axis.major.formatter), id(axis.minor.locator),
               id(axis.minor.formatter), groups)
        # only the last search per axis: another search relabels the same tick objects
        last = found.get(id(axis))
        if last is None or last[0] != key:
            last = found[id(axis)] = (key, find(axis))
        return list(last[1])

    def clipped_within_a_hair(artist):
        box = artist.get_clip_box()
        if artist.axes is None or box is None or not artist.get_clip_on():
            return clipped(artist)
        # numpy's allclose(rtol=0, atol=1e-6) on four numbers, without its arrays: this
        # runs for every artist at every layout pass
        same = all(a == b or abs(a - b) <= 1e-6
                   for a, b in zip(box.extents, artist.axes.bbox.extents))
        path = artist.get_clip_path()
        return same and (path is None or isinstance(path, TransformedPatchPath)
                         and path._patch is artist.axes.patch)

    Axis._update_ticks, Artist._fully_clipped_to_axes = held, clipped_within_a_hair
    try:
        yield
    finally:
        Axis._update_ticks, Artist._fully_clipped_to_axes = find, clipped
