"""Visible code runs on its own: a student who copies the code a page shows (every code
cell but those tagged ``remove-cell`` or ``remove-input``; a ``hide-input`` cell is one
click away, so it counts as shown) never needs a name that only hidden code defines.

The names are read from the cells' syntax trees: a name a shown cell reads must be
defined, imported or bound (an argument, a loop variable) by shown code up to and
including that cell, or be a builtin."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))
HIDDEN = {"remove-cell", "remove-input"}
#: Names a Jupyter kernel gives every cell.
KERNEL = {"display", "get_ipython", "In", "Out", "exit", "quit"}


def bound(tree: ast.AST) -> set[str]:
    """Every name the code binds: assignments, imports, definitions and arguments."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0]
                         for alias in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


def read(tree: ast.AST) -> set[str]:
    return {node.id for node in ast.walk(tree)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


def parse(source: str) -> ast.AST:
    # IPython's magics and shell escapes are not Python; none of the chapters' shown
    # cells needs one, but a line starting with % or ! would not parse.
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    return ast.parse("\n".join(lines))


def borrowed(notebook) -> list[tuple[int, str, str]]:
    """(cell index, name, where it is defined) for each name shown code reads but only
    hidden code (or nothing) defines."""
    shown: set[str] = set(dir(builtins)) | KERNEL
    hidden: dict[str, int] = {}
    found = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        tree = parse(cell.source)
        if HIDDEN & set(cell.metadata.get("tags", [])):
            for name in bound(tree):
                hidden.setdefault(name, index)
            continue
        shown |= bound(tree)
        for name in sorted(read(tree) - shown):
            where = (f"hidden cell {hidden[name]}" if name in hidden
                     else "no cell before it")
            found.append((index, name, where))
    return found


def test_the_check_finds_a_name_only_a_hidden_cell_defines():
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import numpy as np"),
        nbformat.v4.new_code_cell("low, high = 1, 2", metadata={"tags": ["remove-cell"]}),
        nbformat.v4.new_code_cell("def f(x):\n    return np.clip(x, low, high)\n"
                                  "print([f(v) for v in range(3)], len(str(f)))"),
    ])
    assert borrowed(notebook) == [(2, "high", "hidden cell 1"), (2, "low", "hidden cell 1")]


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_shown_code_needs_no_hidden_name(path):
    found = borrowed(nbformat.read(str(path), as_version=4))
    assert not found, "\n".join(f"{path.name}, cell {index}: '{name}' is defined only in "
                                f"{where}" for index, name, where in found)
