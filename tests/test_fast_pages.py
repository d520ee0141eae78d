"""bookbuild/fast_pages.py's phone passes over a small built site (issue 29): a code block
carries its number of lines (figures.css keeps its height with it while it is not laid
out), and an animation player fetches its frames once the page has loaded. Whether the
animations still play is tests/test_browser.py's."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.animation import FuncAnimation

from bookbuild import fast_pages
from reliability.notebook import animation_html

CODE = ('<div class="highlight"><pre><span></span><span class="n">a</span> = 1\n'
        'b = 2\nprint(a + b)\n</pre></div>')


def _site(tmp_path, body: str):
    (tmp_path / "_static").mkdir()
    (tmp_path / "chapters").mkdir()
    page = tmp_path / "chapters" / "page.html"
    page.write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    return page


def test_a_code_block_carries_its_lines_once(tmp_path):
    page = _site(tmp_path, CODE + CODE.replace("b = 2\n", ""))
    assert fast_pages.code_block_heights(tmp_path) == 2
    text = page.read_text(encoding="utf-8")
    assert re.findall(r'<pre style="--lines:(\d+)">', text) == ["3", "2"]
    assert fast_pages.code_block_heights(tmp_path) == 0  # a second pass changes nothing
    assert page.read_text(encoding="utf-8") == text


def test_a_player_fetches_its_frames_after_the_page_loads(tmp_path):
    fig, ax = plt.subplots(figsize=(2, 2))
    line, = ax.plot([0, 1], [0, 1])
    animation = FuncAnimation(fig, lambda i: line.set_ydata([0, i]), frames=3)
    page = _site(tmp_path, animation_html(animation, name="fast-pages-test"))
    plt.close(fig)
    before = page.read_text(encoding="utf-8")
    assert "this.frames[i].src = frames[i];" in before  # matplotlib's: all at once
    assert fast_pages.frames_after_load(tmp_path) == 1
    after = page.read_text(encoding="utf-8")
    assert "this.frames[i].src = frames[i];" not in after
    assert 'window.addEventListener("load", fetchAll)' in after
    assert fast_pages.frames_after_load(tmp_path) == 0
