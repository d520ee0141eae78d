"""The Russian launch notebooks, run as tests/test_real_widgets.py runs the English ones:
Run All in a real kernel with real ipywidgets and only the declared dependencies, then
every control of every explorer moved to its ends. A module of its own so that the two
editions can run on the two test workers at once."""

from __future__ import annotations

import pytest

from bookbuild import launch_notebooks
from bookbuild.run import chapters
from test_real_widgets import kernel  # noqa: F401 (the fixture)
from test_real_widgets import test_run_all_then_move_every_control as run_and_move

RUSSIAN = [launch_notebooks.RU_NOTEBOOKS / p.name for p in chapters()]


@pytest.mark.parametrize("path", RUSSIAN, ids=[f"ru-{p.stem}" for p in chapters()])
def test_the_russian_notebook_runs_all_then_moves_every_control(path, kernel):  # noqa: F811
    run_and_move(path, kernel)
