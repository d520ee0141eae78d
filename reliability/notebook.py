"""Plumbing shared by the chapters: one look for every figure, glue for prose numbers,
and animations that play on the static page without a kernel.

Nothing here computes a result; it only makes results display the same way on every run.
"""

from __future__ import annotations

import hashlib
import numbers
import re

import json
import os

import matplotlib as mpl
import numpy as np

from . import _validate, i18n
# A chapter's printed lines write their numbers with these (reliability.numbers), in the
# page's language: imported with setup() and table, they cost the setup cell no line.
from .numbers import (counted, fmt, interval, known_identifiers, percent, points, said,
                      yes_no)

__all__ = ["PALETTE", "TEXT_COLOURS", "OUTCOME_COLOURS", "GLUE_DIGITS", "PHONE_COLUMN_PX", "MIN_TEXT_PX",
           "setup", "glue_values", "glued", "animation_html", "scrubber", "percent_axis",
           "figure_problems", "table", "fmt", "counted", "interval", "percent",
           "points", "said", "yes_no"]

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


#: The narrowest column a figure is shown in: a 390-px phone less the page's margins.
PHONE_COLUMN_PX = 360
#: The smallest legible text, in CSS pixels, when a figure is shrunk to that column.
MIN_TEXT_PX = 7.5
#: Frames of animations and scrubbers are embedded PNGs: 1.5 times the screen's pixels
#: keeps them sharp on most screens at a third of the bytes of 2 times.
FRAME_DPI = 150
#: If this environment variable names a file, every figure drawn is checked with
#: :func:`figure_problems` and one JSON line per figure is appended to it (the tests do
#: this for every chapter run).
AUDIT_VARIABLE = "RELIABILITY_FIGURE_AUDIT"


def setup(language: str = "en") -> None:
    """Set the book's plotting style and make inline figures byte-for-byte reproducible.

    ``language`` (``"en"`` or ``"ru"``) is the language of the figures, tables and live
    explorers the package draws from here on (:mod:`reliability.i18n`): the Russian
    edition's chapters call ``setup(language="ru")``.

    Inline figures are PNGs at twice the screen's pixels (IPython's ``retina``), shown at
    their nominal size, so they stay sharp on high-density screens and when a phone
    shrinks them. PNGs carry no software version and SVGs no date or random hash, so a
    re-run that changes no number changes no byte of the notebook.
    """
    i18n.set_language(language)
    mpl.rcParams.update({
        "axes.prop_cycle": mpl.cycler(color=[PALETTE[k] for k in (
            "blue", "orange", "green", "vermillion", "sky", "purple", "black")]),
        "figure.figsize": (7.0, 4.0), "figure.dpi": 100, "savefig.dpi": 100,
        "axes.grid": True, "grid.alpha": 0.3, "axes.spines.top": False,
        "axes.spines.right": False, "font.size": 12, "axes.titlesize": 12,
        "axes.labelsize": 12, "xtick.labelsize": 11, "ytick.labelsize": 11,
        "legend.fontsize": 11, "figure.titlesize": 13,
        "legend.frameon": False, "svg.hashsalt": "reliability",
        "animation.embed_limit": 8.0,
    })
    _localised_ticks()
    if os.environ.get(AUDIT_VARIABLE):
        _audit_every_figure(os.environ[AUDIT_VARIABLE])
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
        from .numbers import get_decimal_symbol

        return text.replace(".", get_decimal_symbol(i18n.get_language()))

    call._localised = True
    ticker.ScalarFormatter.__call__ = call


def figure_problems(fig, *, column_px: float = PHONE_COLUMN_PX,
                    min_text_px: float = MIN_TEXT_PX) -> list[str]:
    """What makes ``fig`` hard to read when shown ``column_px`` CSS pixels wide.

    Two kinds: text whose height would be under ``min_text_px`` there (font size in
    points / 72 x figure width in inches scales to the column), and two pieces of text
    that overlap each other. Returns one sentence per problem; an empty list is a pass.
    """
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    _validate.instance("fig", fig, Figure)
    column_px = _validate.real("column_px", column_px, above=0)
    min_text_px = _validate.real("min_text_px", min_text_px, above=0)
    # Only the text a draw actually paints counts (not tick labels outside the view).
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
    renderer = fig.canvas.get_renderer()
    scale = column_px / fig.get_figwidth()
    texts = list(dict.fromkeys(painted))
    problems = []
    for text in texts:
        shown = text.get_fontsize() / 72 * scale
        if shown < min_text_px:
            problems.append(f"text {text.get_text()!r} is {shown:.1f} px high at "
                            f"{column_px} px wide (at least {min_text_px} px)")
    boxes = [(t, t.get_window_extent(renderer)) for t in texts]
    for i, (first, one) in enumerate(boxes):
        for second, other in boxes[i + 1:]:
            overlap_w = min(one.x1, other.x1) - max(one.x0, other.x0)
            overlap_h = min(one.y1, other.y1) - max(one.y0, other.y0)
            # A pixel or two of touching is the font's padding, not a collision.
            if overlap_w > 2 and overlap_h > 2:
                problems.append(f"text {first.get_text()!r} overlaps "
                                f"{second.get_text()!r}")
    return problems


def _audit_every_figure(path: str) -> None:
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


def percent_axis(axis) -> None:
    """Label an axis (``ax.xaxis`` or ``ax.yaxis``) holding shares as whole percentages."""
    from matplotlib.axis import Axis
    from matplotlib.ticker import FuncFormatter

    _validate.instance("axis", axis, Axis)
    from .numbers import fmt

    axis.set_major_formatter(FuncFormatter(lambda value, _: fmt(value, ".0%")))


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


#: The most frames a scrubber embeds: each is a PNG in the page.
MAX_FRAMES = 60


def _name(name) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name must be a non-empty string (it makes the output's ids "
                         f"stable), got {name!r}")
    return name


def table(frame, *, name: str, formats=None, index: bool = False):
    """``frame`` (a pandas DataFrame) as an HTML table a projector can show: each column
    in ``formats`` written with its format (``{"share": "{:.1%}"}``, or one format for
    every number), the index hidden unless ``index``, and the element ids derived from
    ``name`` so the stored output is the same on every run."""
    import pandas as pd
    from IPython.display import HTML

    _validate.instance("frame", frame, pd.DataFrame)
    _name(name)
    if formats is not None and not isinstance(formats, (str, dict)) and not callable(formats):
        raise ValueError(f"formats must be None, a format string, a function or a dict of "
                         f"them by column, got {formats!r}")
    index = _validate.flag("index", index)
    # Headers and text cells marked for translation (N_) show in the page's language;
    # the frame itself keeps its English column names for the code that reads it.
    english_columns = list(frame.columns)  # by position: the renamed ones are translated
    frame = frame.rename(columns=i18n.translate, index=i18n.translate)
    if formats is not None and isinstance(formats, dict):
        formats = {i18n.translate(k): v for k, v in formats.items()}
    text_columns = [i for i, c in enumerate(frame.columns)
                    if frame.iloc[:, i].dtype == object
                    or pd.api.types.is_string_dtype(frame.iloc[:, i])]
    known = set(known_identifiers())
    if text_columns:
        # a cell holding a code name (a status, a failure class, a guardrail) shows the
        # words a reader reads for it ("wrong_record": "wrong record, self-consistent")
        frame = frame.copy()
        for i in text_columns:
            frame.isetitem(i, [said(v) if isinstance(v, str) and v in known else v
                               for v in frame.iloc[:, i]])
    if text_columns and i18n.get_language() != "en":
        frame = frame.copy()
        for i in text_columns:
            # a cell reads as its column gives it context ("low" confidence), else plainly
            english = english_columns[i]
            context = english[-1] if isinstance(english, tuple) else english
            frame.isetitem(i, [i18n.pgettext(str(context), v) if isinstance(v, str) else v
                               for v in frame.iloc[:, i]])
    style = frame.style.set_uuid(name)
    if isinstance(formats, str):
        # One format for every number: whole-number columns (k, n, a count) stay whole,
        # not 1.000, 2.000.
        formats = {c: formats for i, c in enumerate(frame.columns)
                   if not pd.api.types.is_integer_dtype(frame.iloc[:, i])
                   and i not in text_columns}
    if i18n.get_language() != "en":
        # Numbers in the page's language (reliability.numbers): «0,805», «2 000»
        style = style.format(lambda value: _localised(value, "{}"))
        if isinstance(formats, dict):
            formats = {k: _localiser(v) for k, v in formats.items()}
        elif formats is not None:
            formats = _localiser(formats)
    if formats is not None:
        style = style.format(formats)
    if not index:
        style = style.hide(axis="index")
    return HTML(style.to_html())


def _localised(value, template: str) -> str:
    """``template.format(value)`` with its number written by reliability.numbers."""
    import string

    from .numbers import fmt

    if isinstance(value, str) or not isinstance(value, numbers.Number) or \
            isinstance(value, bool):
        return template.format(value)
    out = []
    for literal, field, format_spec, _ in string.Formatter().parse(template):
        out.append(literal)
        if field is not None:
            out.append(fmt(value.item() if hasattr(value, "item") else value,
                            format_spec or ""))
    return "".join(out)


def _localiser(format_):
    """A table format (a ``"{:.1%}"`` string or a function) as a function writing its
    numbers in the page's language."""
    if callable(format_):
        return format_
    return lambda value: _localised(value, format_)


#: A frame of matplotlib's jshtml player: a PNG as base64, wrapped with "\\" line ends.
_ANIMATION_FRAME = re.compile(r'"data:image/png;base64,([A-Za-z0-9+/=\\\n]+)"')
#: Colours a frame keeps. Animations here are grids and lines in a few flat colours, so 64
#: draw them without visible change, at a third of the bytes of a full-colour PNG.
FRAME_COLOURS = 64


def _paletted_frame(match) -> str:
    """One frame re-encoded as a 64-colour PNG (deterministic: median cut, no dither)."""
    import base64
    import io

    from PIL import Image

    raw = base64.b64decode(match.group(1).replace("\\\n", ""))
    image = Image.open(io.BytesIO(raw)).convert("RGB")
    out = io.BytesIO()
    image.quantize(colors=FRAME_COLOURS, method=Image.Quantize.MEDIANCUT,
                   dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return f'"data:image/png;base64,{base64.b64encode(out.getvalue()).decode()}"'


def animation_html(animation, *, name: str) -> str:
    """An animation as self-contained HTML (frames embedded, controls in plain JS).

    matplotlib names the player with a random id; here it is replaced by one derived from
    ``name`` so that the stored output is identical on every run and nbval can compare it.
    """
    from matplotlib.animation import Animation

    _validate.instance("animation", animation, Animation)
    _name(name)
    with mpl.rc_context({"savefig.dpi": FRAME_DPI}):
        html = animation.to_jshtml(default_mode="once")
    html = _ANIMATION_FRAME.sub(_paletted_frame, html)
    stable = hashlib.sha1(name.encode()).hexdigest()[:12]
    found = re.search(r'id="_anim_img([0-9a-f]+)"', html)
    if found:
        html = html.replace(found.group(1), stable)
    # Frames are drawn at FRAME_DPI but shown at the figure's nominal size, and shrink
    # with the column on a phone.
    nominal = round(animation._fig.get_figwidth() * mpl.rcParams["figure.dpi"])
    html = re.sub(r'(<img id="_anim_img[0-9a-f]+")', rf'\1 style="width: {nominal}px; '
                  r'max-width: 100%; height: auto"', html, count=1)
    return _player_words(html)


#: The words of matplotlib's animation player: button names and the repetition modes.
PLAYER_WORDS = (i18n.N_("Decrease speed"), i18n.N_("First frame"), i18n.N_("Previous frame"),
                i18n.N_("Play backwards"), i18n.N_("Pause"), i18n.N_("Play"),
                i18n.N_("Next frame"), i18n.N_("Last frame"), i18n.N_("Increase speed"),
                i18n.N_("Repetition mode"), i18n.N_("Once"), i18n.N_("Loop"),
                i18n.N_("Reflect"))


def _player_words(html: str) -> str:
    """The player's button names and labels in the current language (unchanged in
    English)."""
    if i18n.get_language() == "en":
        return html
    for word in PLAYER_WORDS:
        said = i18n.gettext(word)
        html = html.replace(f'title="{word}" aria-label="{word}"',
                            f'title="{said}" aria-label="{said}"')
        html = re.sub(rf'(<label for="_anim_radio\d_[0-9a-f]+">){word}(</label>)',
                      rf"\g<1>{said}\g<2>", html)
    return html


def scrubber(draw, values, *, name: str, figsize=(7.0, 4.0)):
    """A figure the reader can scrub on the static page, with no kernel.

    ``draw(fig, value)`` draws the figure for one parameter value; one frame is
    precomputed per value and the page's slider and play buttons move between them. Put
    the value in the figure's title, since the slider shows only the frame number. Keep it
    to about 25 values: each frame is an embedded PNG.
    """
    import matplotlib.pyplot as plt
    from IPython.display import HTML
    from matplotlib.animation import FuncAnimation

    _validate.function("draw", draw)
    if isinstance(values, (str, bytes, dict)) or not hasattr(values, "__iter__"):
        raise ValueError(f"values must be a list, range or array of 1 to {MAX_FRAMES} "
                         f"parameter values, got {values!r}")
    values = list(values)
    if not 1 <= len(values) <= MAX_FRAMES:
        raise ValueError(f"values must hold 1 to {MAX_FRAMES} parameter values (each is an "
                         f"embedded frame), got {len(values)}")
    _name(name)
    if not isinstance(figsize, (tuple, list)) or len(figsize) != 2:
        raise ValueError(f"figsize must be a (width, height) pair in inches, got {figsize!r}")
    figsize = tuple(_validate.real("figsize", x, above=0, maximum=20) for x in figsize)
    fig = plt.figure(figsize=figsize)

    def update(index):
        fig.clear()
        draw(fig, values[index])
        return []

    animation = FuncAnimation(fig, update, frames=len(values), interval=400, blit=False)
    html = animation_html(animation, name=name)
    plt.close(fig)
    return HTML(html)
