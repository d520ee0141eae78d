"""The Russian launch notebooks, run as tests/test_real_widgets.py runs the English ones:
Run All in real JupyterLab, with real ipywidgets and only the declared dependencies, every
control of every explorer moved to its ends, every slider measured at a phone's and a
desktop's width, and the saved outputs compared with the chapter's. A module of its own so
that the two editions run on the two test workers at once."""

from __future__ import annotations

import pytest

from bookbuild import launch_notebooks
from bookbuild.run import chapters
from test_real_widgets import chromium, lab  # noqa: F401 (the fixtures)
from test_real_widgets import run_all_then_move_every_control

pytestmark = pytest.mark.xdist_group(name="real-widgets-ru")

RUSSIAN = [launch_notebooks.RU_NOTEBOOKS / p.name for p in chapters()]


@pytest.mark.parametrize("path", RUSSIAN, ids=[f"ru-{p.stem}" for p in chapters()])
def test_the_russian_notebook_runs_all_then_moves_every_control(path, lab,  # noqa: F811
                                                                chromium):  # noqa: F811
    run_all_then_move_every_control(path, lab, chromium)
