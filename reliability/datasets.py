"""The tables of published numbers the chapters read, shipped with the package.

The CSV files live in the repository's ``data/`` folder and are installed inside the
package as ``reliability/data``, so a chapter reads them the same way in a clone, in Binder,
in Colab and from a wheel, whatever its working folder:

>>> from reliability.datasets import load
>>> load("tau_bench").columns[:3].tolist()
['paper', 'arxiv', 'where']

Every row names its paper, arXiv id and locator (see ``data/README.md``).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["names", "path", "load"]

def _folder():
    """Where the CSVs are: inside the installed package (a wheel, Binder, Colab), or the
    repository's own data/ folder beside the package (a clone, an editable install)."""
    installed = resources.files("reliability") / "data"
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parent.parent / "data"


def names() -> list[str]:
    """The tables that ship with the package, by name (the CSV file's stem), sorted."""
    return sorted(entry.name[:-4] for entry in _folder().iterdir()
                  if entry.name.endswith(".csv"))


def path(name: str) -> Path:
    """The file behind table ``name`` (for example ``"tau_bench"``).

    Raises ``ValueError`` naming the tables that exist when ``name`` is not one of them.
    """
    known = names()
    if not isinstance(name, str) or name not in known:
        raise ValueError(f"name must be one of the shipped tables {known}, got {name!r}")
    return Path(str(_folder() / f"{name}.csv"))


def load(name: str):
    """Table ``name`` as a pandas DataFrame, one published number per row (pandas comes
    with the extra ``book``; :func:`path` gives the CSV file without it)."""
    from ._optional import pandas

    return pandas("reliability.datasets.load").read_csv(path(name))
