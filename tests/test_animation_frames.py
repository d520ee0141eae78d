"""Kernel-free animations stay light and reproducible: reliability.notebook.animation_html
stores each frame as a PNG of at most FRAME_COLOURS colours, the same bytes every run."""

from __future__ import annotations

import base64
import io
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.animation import FuncAnimation
from PIL import Image

from reliability.notebook import (FRAME_COLOURS, FRAME_DPI, TEXT_SIZE_KEY, animation_html,
                                  setup)


def _animation():
    fig, ax = plt.subplots(figsize=(4, 3))
    grid = np.zeros((6, 8))
    shown = ax.imshow(grid, vmin=0, vmax=3, cmap="viridis")
    ax.set_title("a small grid, filled in one column per frame")

    def step(i):
        grid[:, i] = (np.arange(6) + i) % 4
        shown.set_data(grid)
        return [shown]

    return fig, FuncAnimation(fig, step, frames=8)


def _frames(html: str) -> list[bytes]:
    found = re.findall(r'"data:image/png;base64,([A-Za-z0-9+/=\\\n]+)"', html)
    return [base64.b64decode(f.replace("\\\n", "")) for f in found]


def test_frames_are_paletted_pngs_and_the_same_every_time():
    with matplotlib.rc_context():
        setup()   # the book's style, which records each frame's smallest text
        fig, animation = _animation()
        first = animation_html(animation, name="t-frames")
        fig2, animation2 = _animation()
        second = animation_html(animation2, name="t-frames")
        smallest = plt.rcParams["xtick.labelsize"]
    plt.close(fig)
    plt.close(fig2)
    frames = _frames(first)
    assert len(frames) == 8
    for raw in frames:
        image = Image.open(io.BytesIO(raw))
        assert image.mode == "P", image.mode
        # the tick labels' size at the frames' dpi, for the browser test to scale
        assert float(image.text[TEXT_SIZE_KEY]) == pytest.approx(
            smallest / 72 * FRAME_DPI, abs=0.01)
        assert len(image.getcolors(maxcolors=256) or []) <= FRAME_COLOURS
    assert first == second
