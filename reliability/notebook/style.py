"""The book's look: one colour-blind-safe palette, the plotting style every chapter sets
with :func:`setup`, tick labels in the page's language, and percentage axes.

Nothing here computes a result; it only makes results display the same way on every run.
"""

from __future__ import annotations

import os

import matplotlib as mpl

from .. import _validate, i18n
from .legibility import AUDIT_VARIABLE, audit_every_figure, record_text_size

__all__ = ["FIGURE_WIDTH_IN", "PALETTE", "TEXT_COLOURS", "OUTCOME_COLOURS", "setup",
           "percent_axis"]

#: Every figure's width in inches (heights vary): see :mod:`.legibility`.
FIGURE_WIDTH_IN = 4.6

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
        # Sized for a phone, where most students read: a 4.6-inch figure shrinks to a
        # 358-px column at 390 px, so 12.5-pt text still shows at 13 CSS px, the page's
        # small print (reliability.notebook.legibility); on a desktop it shows at its
        # nominal 460 px. Panels stack rather than sit side by side.
        "figure.figsize": (FIGURE_WIDTH_IN, 3.4), "figure.dpi": 100, "savefig.dpi": 100,
        "axes.grid": True, "grid.alpha": 0.3, "axes.spines.top": False,
        "axes.spines.right": False, "font.size": 13, "axes.titlesize": 13,
        "axes.labelsize": 13, "xtick.labelsize": 12.5, "ytick.labelsize": 12.5,
        "legend.fontsize": 12.5, "figure.titlesize": 13.5,
        "legend.frameon": False, "svg.hashsalt": "reliability",
        "animation.embed_limit": 8.0,
    })
    _localised_ticks()
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


def percent_axis(axis) -> None:
    """Label an axis (``ax.xaxis`` or ``ax.yaxis``) holding shares as whole percentages."""
    from matplotlib.axis import Axis
    from matplotlib.ticker import FuncFormatter

    _validate.instance("axis", axis, Axis)
    from ..numbers import fmt

    axis.set_major_formatter(FuncFormatter(lambda value, _: fmt(value, ".0%")))
