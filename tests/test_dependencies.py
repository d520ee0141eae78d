"""Declared dependencies are enough: every third-party module the package imports, and
every one it loads while it works (pandas' Styler imports jinja2 only when a table is
drawn), comes from a distribution that ``pyproject.toml`` declares, or that a declared one
requires. ``pip install`` then gives a student what the chapters need (a plain install
plus a kernel once failed at chapter 1's first table: ``The '.style' accessor requires
jinja2``). tests/test_real_widgets.py applies the same check to the modules every launch
notebook loaded in its kernel.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
from functools import cache
from importlib import metadata

from packaging.requirements import Requirement

from bookbuild.run import ROOT

PACKAGE = ROOT / "reliability"
#: What runs a notebook's cells, which a student has whenever a notebook runs at all.
KERNEL = ("ipykernel",)


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(extras=("book",)) -> set[str]:
    """The distributions ``pyproject.toml`` names as the package's dependencies, with
    those of its ``extras`` (the book's, by default: what a chapter needs)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lines = project["dependencies"] + [line for extra in extras
                                       for line in project["optional-dependencies"][extra]]
    return {_normal(Requirement(line).name) for line in lines}


@cache
def _requires(name: str) -> frozenset[str]:
    """The distributions ``name`` itself requires (no optional extras)."""
    try:
        lines = metadata.requires(name) or []
    except metadata.PackageNotFoundError:
        return frozenset()
    needed = set()
    for line in lines:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            needed.add(_normal(requirement.name))
    return frozenset(needed)


def brought_in(names) -> set[str]:
    """``names`` and everything they require, transitively."""
    seen, todo = set(), [_normal(n) for n in names]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += _requires(name)
    return seen


def blocked_modules(allowed=(), extras=("book",)) -> list[str]:
    """The installed top-level modules that come only from distributions which neither
    ``pyproject.toml`` (with ``extras``), nor what it requires, nor ``allowed`` brings in:
    what a fresh ``pip install`` of the package (plus ``allowed``) would not have."""
    installed = brought_in(declared(extras) | set(allowed))
    return sorted(module for module, owners in metadata.packages_distributions().items()
                  if module not in sys.stdlib_module_names and module != "reliability"
                  and not any(_normal(owner) in installed for owner in owners))


#: Python that makes every module of :func:`blocked_modules` (formatted in as ``{blocked}``)
#: fail to import, as it would where it is not installed: an optional import (numpy's
#: f2py tries charset_normalizer) falls back, a needed one fails.
BLOCK_UNDECLARED = """
import sys as _sys


class _NotInstalled:
    blocked = frozenset({blocked!r})

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.blocked:
            raise ModuleNotFoundError(
                f"No module named {{name!r}} (not declared in pyproject.toml)", name=name)
        return None


_sys.meta_path.insert(0, _NotInstalled())
"""


def _imported_by_the_package() -> set[str]:
    names = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def test_every_module_the_package_imports_is_declared_itself():
    """A direct import needs a direct declaration (not luck in another's requirements)."""
    owners = metadata.packages_distributions()
    direct = {_normal(owner) for module in _imported_by_the_package()
              if module not in sys.stdlib_module_names and module != "reliability"
              for owner in owners.get(module, [module])}
    # matplotlib_inline is imported only inside a kernel, which brings it
    assert direct - declared() - brought_in(KERNEL) == set(), \
        "the package imports these but pyproject.toml does not declare them"


#: Import every module of the package, then draw what a chapter draws (a table through
#: pandas' Styler, a figure), and list every module that got loaded.
AT_WORK = """
import json, pkgutil, sys, importlib
import reliability
for module in pkgutil.walk_packages(reliability.__path__, "reliability."):
    importlib.import_module(module.name)
import matplotlib
matplotlib.use("Agg")
import pandas as pd, matplotlib.pyplot as plt
from reliability.notebook import table
shown = table(pd.DataFrame({"share": [0.25, 0.5], "name": ["a", "b"]}), name="t",
              formats={"share": "{:.1%}"})
assert "25.0%" in (getattr(shown, "data", None) or shown._repr_html_())
plt.plot([0, 1])
plt.savefig(__import__("io").BytesIO())
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def test_the_package_works_with_only_what_it_declares(tmp_path):
    """Every installed distribution that the declared ones do not bring in is made
    unimportable, then the package is imported whole and draws a table and a figure."""
    script = BLOCK_UNDECLARED.format(blocked=blocked_modules()) + AT_WORK
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=tmp_path, env=environment)
    assert ran.returncode == 0, ("the package needs more than pyproject.toml declares:\n"
                                 + ran.stderr[-3000:])
    assert "jinja2" in json.loads(ran.stdout.strip().splitlines()[-1]), \
        "a table is drawn through pandas' Styler, which imports jinja2"


def test_the_check_sees_an_optional_dependency():
    """pandas does not require jinja2 (only its optional extras do): declaring pandas
    alone does not bring it in, so the check above fails without jinja2 declared."""
    assert "jinja2" not in brought_in(["pandas"])
    assert "numpy" in brought_in(["pandas"])
    assert "pytest" in blocked_modules() and "numpy" not in blocked_modules()


#: The statistics and estimators an engineer installs with ``pip install reliability``
#: (numpy and scipy alone, pyproject.toml): each imports, computes and prints in English.
LIGHT = """
import importlib, json, sys
from reliability import Workflow, horizon, passk, stats
from reliability.numbers import percent
light = {names}
for name in light:
    importlib.import_module(name)
result = passk.from_counts([8, 5, 0], trials=8, k=4)
low, high = stats.wilson_interval(61, 100)
print(str(result))
print(percent(low), percent(high), round(Workflow().success(), 3), horizon(0.99))
print(json.dumps(sorted({{n.split(".")[0] for n in sys.modules}})))
"""

#: The package's modules that need no more than numpy and scipy.
LIGHT_MODULES = ["reliability.passk", "reliability.stats", "reliability.workflow",
                 "reliability.numbers", "reliability.i18n", "reliability.judge",
                 "reliability.reading", "reliability.selfcorrection",
                 "reliability.selfconditioning", "reliability.formattax",
                 "reliability.claims", "reliability.parameters", "reliability.datasets"]


def test_the_statistics_work_with_numpy_and_scipy_alone(tmp_path):
    """Everything but numpy and scipy (and what they require) is made unimportable, as
    after ``pip install reliability`` with no extra: the statistics and the estimators
    import and print, and the book's heavy packages never load."""
    assert declared(extras=()) == {"numpy", "scipy"}, "the light install's dependencies"
    script = (BLOCK_UNDECLARED.format(blocked=blocked_modules(extras=()))
              + LIGHT.format(names=LIGHT_MODULES))
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    ran, full = (subprocess.run([sys.executable, "-c", text], capture_output=True,
                                text=True, cwd=tmp_path, env=environment)
                 for text in (script, LIGHT.format(names=LIGHT_MODULES)))
    assert ran.returncode == 0, ran.stderr[-3000:]
    lines = ran.stdout.strip().splitlines()
    assert lines[0].startswith("pass^4 = ") and "95%" in lines[0], lines[0]
    # without Babel the English numbers are written exactly as with it
    assert lines[:-1] == full.stdout.strip().splitlines()[:-1]
    loaded = set(json.loads(lines[-1]))
    for heavy in ("pandas", "matplotlib", "ipywidgets", "IPython", "pydantic", "babel"):
        assert heavy not in loaded, f"the statistics loaded {heavy}"


def test_russian_output_without_the_extra_says_what_to_install(tmp_path):
    script = (BLOCK_UNDECLARED.format(blocked=blocked_modules(extras=()))
              + "from reliability import i18n, numbers\n"
                "with i18n.language('ru'):\n    numbers.number(0.5, 1)\n")
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert ran.returncode == 1
    assert "pip install 'reliability[book]'" in ran.stderr.strip().splitlines()[-1]


def test_a_table_without_pandas_says_what_to_install(tmp_path):
    """The light install ships the tables as CSV files; reading one into a table, or the
    pass^k curves' table, says to install the extra rather than naming a missing module."""
    script = (BLOCK_UNDECLARED.format(blocked=blocked_modules(extras=()))
              + "from reliability import datasets, passk\n"
                "print(datasets.path('tau_bench').is_file())\n"
                "curves = passk.curves([[1, 0, 1], [0, 1, 1]], resamples=10)\n"
                "for table in (lambda: datasets.load('tau_bench'), curves.table):\n"
                "    try:\n        table()\n"
                "    except ModuleNotFoundError as missing:\n        print(missing)\n")
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert ran.returncode == 0, ran.stderr[-2000:]
    lines = ran.stdout.strip().splitlines()
    assert lines[0] == "True", "the CSV files ship with the light install"
    assert [line.split(" returns")[0] for line in lines[1:]] == [
        "reliability.datasets.load", "PassCurves.table"]
    assert all("pip install 'reliability[book]'" in line for line in lines[1:]), lines
