"""The layers of the package and of the build, as pyproject.toml's import-linter
contracts write them down: figures and live explorers above the models, the models above
numbers, statistics and languages, ``_validate`` at the bottom, the page helpers
(``reliability.notebook``) apart from one another, the build's stages (``bookbuild``)
each importing only the stages before it, and nothing a student installs importing the
build or the tests' tools. ``lint-imports`` checks the real code; copies with one
forbidden import show that the contracts can fail."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bookbuild.run import ROOT

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint(folder: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` with the project's contracts on the package found in ``folder``."""
    return subprocess.run([str(LINT_IMPORTS), "--config", str(folder / "pyproject.toml"),
                           "--no-cache"], cwd=folder, capture_output=True, text=True,
                          env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin"})


def test_the_package_keeps_its_layers():
    ran = _lint(ROOT)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-2000:]
    assert "4 kept, 0 broken" in ran.stdout


def _copy(folder: Path) -> None:
    """The package, the build and the contracts, in ``folder``."""
    for package in ("reliability", "bookbuild"):
        shutil.copytree(ROOT / package, folder / package,
                        ignore=shutil.ignore_patterns("__pycache__", "locale"))
    shutil.copy(ROOT / "pyproject.toml", folder)


def test_an_upward_import_breaks_the_layers(tmp_path):
    _copy(tmp_path)
    stats = tmp_path / "reliability" / "stats.py"
    # statistics reaching up into a figure module: the kind of import the layers forbid
    stats.write_text(stats.read_text() + "\n\ndef _drawn():\n"
                     "    from .figures import chain  # noqa: F401\n")
    ran = _lint(tmp_path)
    assert ran.returncode != 0
    assert "reliability.stats -> reliability.figures" in ran.stdout, ran.stdout[-3000:]


@pytest.mark.parametrize("module, imports, broken", [
    # the circle the package had: numbers reaching up to the translated messages that
    # write their numbers with it
    ("numbers", "from .i18n import Text", "reliability.numbers -> reliability.i18n"),
    # the language and its catalogs reaching up to the number formatter
    ("_language", "from .numbers import fmt", "reliability._language -> reliability.numbers"),
])
def test_the_words_keep_one_direction(tmp_path, module, imports, broken):
    """``i18n`` above ``numbers`` above ``_language``: an import back up breaks it."""
    _copy(tmp_path)
    source = tmp_path / "reliability" / f"{module}.py"
    source.write_text(source.read_text() + f"\n\ndef _upward():\n    {imports}  # noqa\n")
    ran = _lint(tmp_path)
    assert ran.returncode != 0
    assert broken in ran.stdout, ran.stdout[-3000:]


def test_one_page_helper_importing_another_breaks_the_layers(tmp_path):
    _copy(tmp_path)
    tables = tmp_path / "reliability" / "notebook" / "tables.py"
    # a table reaching into the animation machinery: pieces a chapter uses side by side
    tables.write_text(tables.read_text() + "\n\ndef _moving():\n"
                      "    from .animation import scrubber  # noqa: F401\n")
    ran = _lint(tmp_path)
    assert ran.returncode != 0
    broken = "reliability.notebook.tables -> reliability.notebook.animation"
    assert broken in ran.stdout, ran.stdout[-3000:]


@pytest.mark.parametrize("module, imports, broken", [
    # the circle the scripts had: the catalogs reaching up to the edition made from them
    ("bookbuild/catalogs", "from .edition import build",
     "bookbuild.catalogs -> bookbuild.edition"),
    # the package a student installs reaching into the build
    ("reliability/stats", "from bookbuild import run",
     "reliability.stats -> bookbuild"),
])
def test_a_build_stage_reaching_up_breaks_the_layers(tmp_path, module, imports, broken):
    _copy(tmp_path)
    source = tmp_path / f"{module}.py"
    source.write_text(source.read_text()
                      + f"\n\ndef _upward():\n    {imports}  # noqa\n")
    ran = _lint(tmp_path)
    assert ran.returncode != 0
    assert broken in ran.stdout, ran.stdout[-3000:]
