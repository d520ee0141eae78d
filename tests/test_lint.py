"""The code's lint: ruff with pyproject.toml's rules over every Python file of the
project (the package, the scripts, the book's extensions, the tests, the benchmarks),
as `.venv/bin/ruff check` runs it. A planted undefined name shows the check can fail.

And the house's one way to find its code: the project (``reliability`` and the build,
``bookbuild``) is installed into the environment, the Sphinx extensions are loaded from
their folder by name (``bookbuild.run.sphinx_extension``, or Jupyter Book's
``local_extensions``), so no file of the project edits ``sys.path``."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from bookbuild.run import ROOT

RUFF = Path(sys.executable).with_name("ruff")


def _ruff(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(RUFF), "check", "--no-cache", "--output-format", "concise",
                           "."], cwd=folder, capture_output=True, text=True)


def test_the_code_passes_its_lint():
    ran = _ruff(ROOT)
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]


def test_the_lint_finds_an_undefined_name_and_a_stale_noqa(tmp_path):
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "planted.py").write_text(
        "def table(rows) -> pd.DataFrame:  # noqa: N802\n    return rows\n")
    ran = _ruff(tmp_path)
    assert ran.returncode != 0
    assert "F821" in ran.stdout and "RUF100" in ran.stdout, ran.stdout


#: What changes ``sys.path``: its methods that add or take folders, ``site.addsitedir``.
_PATH_EDITS = {"insert", "append", "extend", "remove", "pop", "clear", "__setitem__",
               "__iadd__"}


def _is_sys_path(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "path"
            and isinstance(node.value, ast.Name) and node.value.id == "sys")


def sys_path_edits(source: str) -> list[int]:
    """The lines of ``source`` (Python) that edit ``sys.path``: a call of one of its
    editing methods, an assignment to it, to an item or slice of it or ``+=``, ``from
    sys import path``, or ``site.addsitedir``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _is_sys_path(node.value) \
                and node.attr in _PATH_EDITS:
            lines.append(node.lineno)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if _is_sys_path(target) or (isinstance(target, ast.Subscript)
                                            and _is_sys_path(target.value)):
                    lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "sys" \
                and any(alias.name == "path" for alias in node.names):
            lines.append(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr == "addsitedir":
            lines.append(node.lineno)
    return sorted(lines)


def _notebook_code(path: Path) -> str:
    """A notebook's code cells as one Python source, its IPython magics left out."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join(line for cell in cells if cell["cell_type"] == "code"
                     for line in "".join(cell["source"]).splitlines()
                     if not line.lstrip().startswith(("%", "!")))


def test_sys_path_edits_finds_every_kind_of_edit():
    planted = ("import site, sys\nsys.path.insert(0, 'x')\nsys.path.append('x')\n"
               "sys.path[:0] = ['x']\nsys.path += ['x']\nsys.path = ['x']\n"
               "from sys import path\nsite.addsitedir('x')\nif 'x' in sys.path: pass\n")
    assert sys_path_edits(planted) == [2, 3, 4, 5, 6, 7, 8]


def test_no_file_edits_sys_path():
    """The project's code finds its packages installed, never by a folder of the
    checkout put on ``sys.path``: not in a module, a test, a benchmark, a Sphinx
    extension or a notebook, nor by pytest's ``pythonpath`` setting."""
    listed = subprocess.run(["git", "ls-files", "*.py", "*.ipynb"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    assert any(name.endswith(".ipynb") for name in listed)
    edits = {}
    for name in listed:
        path = ROOT / name
        source = _notebook_code(path) if name.endswith(".ipynb") else \
            path.read_text(encoding="utf-8")
        found = sys_path_edits(source)
        if found:
            edits[name] = found
    assert not edits, f"these files edit sys.path (file: lines): {edits}"
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "pythonpath" not in config["tool"]["pytest"]["ini_options"]
    # the build's package is no package of the project (a student's install would carry
    # the homework's key): the development environment finds it through a finder for
    # bookbuild alone (scripts/install_bookbuild.py, run by make), not a folder on the path
    assert "bookbuild" not in config["tool"]["setuptools"]["packages"]
    assert "scripts/install_bookbuild.py" in (ROOT / "Makefile").read_text()
