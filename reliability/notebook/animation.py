"""Figures that move on the static page without a kernel: a matplotlib animation as
self-contained HTML (:func:`animation_html`) and a figure the reader scrubs through
precomputed frames (:func:`scrubber`), with light, reproducible frames and the player's
words in the page's language.
"""

from __future__ import annotations

import hashlib
import re

import matplotlib as mpl

from .. import _validate, i18n
from ._names import _name
from .legibility import FIGURE_WIDTH_IN, _png_with_text

__all__ = ["animation_html", "scrubber"]

#: Frames of animations and scrubbers are embedded PNGs: 1.5 times the screen's pixels
#: keeps them sharp on most screens at a third of the bytes of 2 times.
FRAME_DPI = 150
#: The most frames a scrubber embeds: each is a PNG in the page.
MAX_FRAMES = 60

#: A frame of matplotlib's jshtml player: a PNG as base64, wrapped with "\\" line ends.
_ANIMATION_FRAME = re.compile(r'"data:image/png;base64,([A-Za-z0-9+/=\\\n]+)"')
#: Colours a frame keeps. Animations here are grids and lines in a few flat colours, so 64
#: draw them without visible change, at a third of the bytes of a full-colour PNG.
FRAME_COLOURS = 64


def _paletted_frame(match) -> str:
    """One frame re-encoded as a 64-colour PNG (deterministic: median cut, no dither)."""
    import base64

    raw = base64.b64decode(match.group(1).replace("\\\n", ""))
    # (the frame's smallest text size, recorded when it was saved, goes with it)
    out = _png_with_text(raw, {}, FRAME_COLOURS)
    return f'"data:image/png;base64,{base64.b64encode(out).decode()}"'


def animation_html(animation, *, name: str) -> str:
    """An animation as self-contained HTML (frames embedded, controls in plain JS).

    matplotlib names the player with a random id; here it is replaced by one derived from
    ``name`` so that the stored output is identical on every run and nbval can compare it.
    """
    from matplotlib.animation import Animation

    _validate.instance("animation", animation, Animation)
    _name(name)
    # Each frame is painted by the save that grabs it; the animation's own redraw after
    # a frame (canvas.draw_idle, for a screen) would paint it a second time for nothing.
    from matplotlib import cbook

    with mpl.rc_context({"savefig.dpi": FRAME_DPI}), \
            cbook._setattr_cm(animation._fig.canvas, draw_idle=lambda *a, **k: None):
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


def scrubber(draw, values, *, name: str, figsize=(FIGURE_WIDTH_IN, 4.4)):
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
