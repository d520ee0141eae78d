"""Make the build's package, ``bookbuild``, importable in this Python's environment, from
this checkout, for development: ``make`` runs it when it creates ``.venv``.

``bookbuild`` (the homework's key among it) is no package of the project
(pyproject.toml), so ``pip install .``, Binder's ``.[book]`` and the wheel never carry
it. Here it is installed as setuptools' editable installs install the project's own
packages: a ``.pth`` file in the environment's site-packages whose one line adds a finder
for ``bookbuild`` alone, at this checkout's folder. No folder of the checkout goes on
``sys.path`` (tests/test_lint.py), and a Python started with ``-S`` (the grader's student
kernel, bookbuild/grade.py) never reads it.

    .venv/bin/python scripts/install_bookbuild.py
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = "bookbuild-checkout.pth"


def pth_line(root: Path = ROOT) -> str:
    """The ``.pth`` line: a meta-path finder that finds ``bookbuild`` at ``root``."""
    init = root / "bookbuild" / "__init__.py"
    return ("import importlib.util as u, sys; sys.meta_path.append(type('BookbuildFinder', "
            "(), {'find_spec': staticmethod(lambda name, path=None, target=None, u=u: "
            f"u.spec_from_file_location(name, {str(init)!r}, submodule_search_locations="
            f"[{str(init.parent)!r}]) if name == 'bookbuild' else None)}}))\n")


def main() -> int:
    target = Path(sysconfig.get_paths()["purelib"]) / NAME
    target.write_text(pth_line(), encoding="utf-8")
    print(f"bookbuild: {ROOT / 'bookbuild'}, found through {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
