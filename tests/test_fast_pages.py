"""bookbuild/fast_pages.py's phone passes over a small built site (issue 29): a code block
carries its number of lines (figures.css keeps its height with it while it is not laid
out), an animation player fetches its frames once the page has loaded, and stylesheets
lose the rules nothing can match. Whether the animations still play, and whether every
page keeps the rules it uses, is tests/test_browser.py's."""

from __future__ import annotations

import re

import pytest

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


THEME_CSS = (".used{color:red}.unused{color:blue}.added-later{color:green}"
             ":focus-visible{outline:3px solid}.unused:hover{color:gray}"
             "@media (min-width:960px){.used{margin:0}.unused{margin:1px}}")


def test_stylesheets_keep_the_rules_the_pages_and_scripts_can_use(tmp_path):
    """A rule for a class no page or script names goes; a class a script adds later,
    the keyboard-focus outline and every used rule stay; the original is kept for the
    browser tests, and a second pass writes the same bytes."""
    _site(tmp_path, '<p class="used">text</p>')
    (tmp_path / "_static" / "styles").mkdir()
    theme = tmp_path / "_static" / "styles" / "pydata-sphinx-theme.css"
    theme.write_text(THEME_CSS, encoding="utf-8")
    (tmp_path / "_static" / "theme.js").write_text(
        'element.classList.add("added-later");', encoding="utf-8")
    assert fast_pages.purge_stylesheets(tmp_path) == 1
    purged = theme.read_text(encoding="utf-8")
    for kept in (".used{color:red}", ".added-later", ":focus-visible", ".used{margin:0}"):
        assert kept in purged
    assert ".unused" not in purged
    unpurged = tmp_path / "_static" / "unpurged"
    assert (unpurged / "styles" / "pydata-sphinx-theme.css").read_text(
        encoding="utf-8") == THEME_CSS
    assert (unpurged / "purged.json").read_text(encoding="utf-8").strip() == (
        '["styles/pydata-sphinx-theme.css"]')
    fast_pages.purge_stylesheets(tmp_path)
    assert theme.read_text(encoding="utf-8") == purged


def test_the_theme_measures_every_scrolling_block_before_it_sets_a_tab_stop(tmp_path):
    """The pinned theme's own script, as the build copies it: its loop that set a
    block's tab stop right after measuring it (a layout per block) becomes one pass of
    measures and one of tab stops; a newer theme without the loop fails the build."""
    import pydata_sphinx_theme
    from pathlib import Path

    theme = (Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme"
             / "static" / fast_pages.THEME_SCRIPT)
    (tmp_path / "_static" / "scripts").mkdir(parents=True)
    script = tmp_path / "_static" / fast_pages.THEME_SCRIPT
    script.write_text(theme.read_text(encoding="utf-8"), encoding="utf-8")
    assert fast_pages.theme_tab_stops_in_one_layout(tmp_path) == 1
    text = script.read_text(encoding="utf-8")
    measures = text.index(".map(e=>[e,e.scrollWidth>e.clientWidth")
    assert text.index(".forEach(([e,s])=>{e.tabIndex=s?0:-1})") > measures
    assert "e.tabIndex=e.scrollWidth" not in text
    assert fast_pages.theme_tab_stops_in_one_layout(tmp_path) == 0  # once only
    script.write_text("/* a newer theme */", encoding="utf-8")
    with pytest.raises(RuntimeError, match="tab-stop loop"):
        fast_pages.theme_tab_stops_in_one_layout(tmp_path)
