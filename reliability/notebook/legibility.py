"""Whether a figure reads on a phone: text large enough in the narrowest column the page
shows a figure in, and no text over other text (:func:`figure_problems`), and the audit
the tests switch on to check every figure a chapter draws (:data:`AUDIT_VARIABLE`).
"""

from __future__ import annotations

import json

from .. import _validate

__all__ = ["PHONE_COLUMN_PX", "MIN_TEXT_PX", "AUDIT_VARIABLE", "figure_problems"]

#: The narrowest column a figure is shown in: a 390-px phone less the page's margins
#: (measured in Chromium on the built page).
PHONE_COLUMN_PX = 358
#: The smallest text a figure may show, in CSS pixels (a font size, as CSS measures it),
#: when shrunk to that column: the page's own small print (code and captions).
MIN_TEXT_PX = 13
#: If this environment variable names a file, every figure drawn is checked with
#: :func:`figure_problems` and one JSON line per figure is appended to it (the tests do
#: this for every chapter run).
AUDIT_VARIABLE = "RELIABILITY_FIGURE_AUDIT"


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
