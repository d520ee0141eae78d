"""An explorer keeps working after Run All: every global name its function reads when a
slider moves (directly, or through another function the notebook defines) keeps the
value it had when the explorer was made. A later cell that rebinds such a name (a
teaching cell's ``day = simulate_day(...)``) breaks every slider of the explorer
(``TypeError: 'DayReport' object is not callable`` in chapter 8, once). Read from the
cells' syntax trees, for every chapter and launch notebook of both editions."""

import ast
import json
import re
import symtable

import pytest

from bookbuild import launch_notebooks
from bookbuild.run import chapters

CHAPTERS = chapters()
NOTEBOOKS = [folder / p.name for folder in (launch_notebooks.CHAPTERS,
                                            launch_notebooks.RU_CHAPTERS,
                                            launch_notebooks.NOTEBOOKS,
                                            launch_notebooks.RU_NOTEBOOKS)
             for p in CHAPTERS]
IDS = [f"{'ru-' if 'ru' in p.parts[-3:-1] else ''}{p.parent.name}-{p.stem}"
       for p in NOTEBOOKS]


def _code_cells(path):
    """Each code cell's Python (IPython's magics and shell lines blanked), in order."""
    cells = []
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            cells.append(re.sub(r"^\s*[%!].*$", "", source, flags=re.M))
    return cells


def _functions(tree):
    return {node.name: node for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _globals_read(table):
    """Names a function scope (and the lambdas, comprehensions and functions nested in
    it) reads from the module's globals."""
    names = set()
    if table.get_type() == "function":
        names |= {s.get_name() for s in table.get_symbols()
                  if s.is_global() and s.is_referenced()}
    for child in table.get_children():
        names |= _globals_read(child)
    return names


def _same_import(later, first) -> bool:
    """Both bindings import the same object (``fmt`` from ``reliability.numbers`` and
    from ``reliability.notebook``, which re-exports it, are one function)."""
    if later[0] != "import" or first[0] != "import":
        return False
    if later == first:
        return True
    import importlib

    def resolve(how):
        module = importlib.import_module(how[1])
        return getattr(module, how[2]) if how[2] else module

    try:
        return resolve(later) is resolve(first)
    except (ImportError, AttributeError):
        return False


def _bindings(tree):
    """Names a cell binds at its top level, each with how: ``("import", module, name)``
    for an import (importing the same thing again changes nothing), else ``("bind",)``."""
    bound = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                bound[alias.asname or alias.name] = ("import", node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name.split(".")[0]] = ("import", alias.name, "")
    module = symtable.symtable(ast.unparse(tree), "cell", "exec")
    for symbol in module.get_symbols():   # a comprehension's variable is its own
        if symbol.is_assigned() or symbol.is_imported() or symbol.is_namespace():
            bound.setdefault(symbol.get_name(), ("bind",))
    return bound


def explorer_rebinds(cells):
    """For each ``interact(f, ...)`` in ``cells``: the global names ``f`` reads when a
    slider moves that a cell after the one defining them binds again, as
    ``(explorer, name, cell number)`` triples."""
    trees = [ast.parse(source) for source in cells]
    defined, tables = {}, {}
    for number, (source, tree) in enumerate(zip(cells, trees)):
        table = symtable.symtable(source, f"cell {number}", "exec")
        for child in table.get_children():
            if child.get_type() == "function" and child.get_name() in _functions(tree):
                defined[child.get_name()] = number
                tables[child.get_name()] = child
    explorers = [node.args[0].id for tree in trees for node in ast.walk(tree)
                 if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "interact"
                 and node.args and isinstance(node.args[0], ast.Name)]
    first_binding = {}
    for tree in trees:
        for name, how in _bindings(tree).items():
            first_binding.setdefault(name, how)
    found = []
    for explorer in explorers:
        assert explorer in tables, f"interact({explorer}) names no function of the notebook"
        reads, todo = set(), [explorer]
        while todo:   # the functions the explorer calls, and theirs
            function = todo.pop()
            new = _globals_read(tables[function]) - reads
            reads |= new
            todo += [name for name in new if name in tables]
        start = min(defined[name] for name in reads | {explorer} if name in defined)
        for number in range(start + 1, len(trees)):
            for name, how in _bindings(trees[number]).items():
                if name in reads and not _same_import(how, first_binding[name]):
                    found.append((explorer, name, number))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_no_later_cell_rebinds_what_an_explorer_reads(path):
    cells = _code_cells(path)
    assert any("interact(" in source for source in cells), "every chapter has an explorer"
    rebinds = explorer_rebinds(cells)
    assert not rebinds, (f"{path.name}: a later cell rebinds a global its explorer reads "
                         f"when a slider moves (explorer, name, code cell): {rebinds}")


def test_the_check_catches_a_rebound_helper():
    cells = ["from functools import lru_cache\nseed = 1",
             "@lru_cache\ndef day(h):\n    return h + seed\n\n"
             "def explore(h=1):\n    print(day(h))",
             "interact(explore, h=(0, 3))",
             "from functools import lru_cache\nfor h in (1, 2):\n    day = h * 2"]
    assert explorer_rebinds(cells) == [("explore", "day", 3)]
    assert explorer_rebinds(cells[:3] + ["seed = [2]"]) == [("explore", "seed", 3)]
    assert explorer_rebinds(cells[:3] + ["print([day for day in range(3)])"]) == []
