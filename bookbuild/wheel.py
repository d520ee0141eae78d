"""The package as a wheel, published with the site and carried in the notebooks' zip, so
a student installs it with no git and no access to the repository.

    .venv/bin/python -m bookbuild.wheel SITE    (make book runs it from bookbuild/site.py)

Writes ``SITE/wheels/reliability-<version>-py3-none-any.whl`` and, beside it,
``constraints.txt`` (the book's runtime pins, ``binder/requirements.txt``), the two URLs
a launch notebook's first cell names (``launch_notebooks.package_source`` and
``constraints_url``). Then it puts the wheel into each edition's zip of launch notebooks
(``SITE/agent-reliability-notebooks.zip`` and the same under ``ru/``), beside the
notebooks, and rewrites the zip's ``requirements.txt`` to install that file: an unzipped
folder installs offline from pip's registry alone. The wheel is built from a copy of
the package's files with ``SOURCE_DATE_EPOCH`` fixed, so the same sources give the same
bytes and the checkout gets no ``build/`` or ``*.egg-info`` of it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

from .launch_notebooks import CONSTRAINTS, WHEELS, pinned_runtime, requirements, wheel_name
from .run import ROOT

ZIP_NAME = "agent-reliability-notebooks.zip"
ZIP_FOLDER = "agent-reliability-notebooks"
#: What the wheel is built from (pyproject.toml's packages and package data).
SOURCES = ("pyproject.toml", "README.md", "reliability", "data")
#: The build's own package: never a package of the project (pyproject.toml), so never in
#: the wheel, nor in what ``pip install .`` or Binder's ``.[book]`` installs.
BUILD_PACKAGES = ("bookbuild",)


def student_packages(text: str) -> list[str]:
    """pyproject.toml's (``text``) packages, checked to hold none of the build's
    (:data:`BUILD_PACKAGES`): what the wheel and every ``pip install`` of it installs."""
    packages = tomllib.loads(text)["tool"]["setuptools"]["packages"]
    build = sorted(set(packages) & set(BUILD_PACKAGES))
    if build:
        raise ValueError(f"pyproject.toml's packages must not list the build's {build}: "
                         "a student's install would carry the homework's key")
    return packages


#: 2026-01-01: the date every file in the wheel and the zip carries.
EPOCH = "1767225600"
DATE_TIME = (2026, 1, 1, 0, 0, 0)


def build_wheel(target: Path) -> Path:
    """Build the package's wheel into ``target``; return its path."""
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="reliability-wheel-") as temporary:
        copy = Path(temporary) / "source"
        for name in SOURCES:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns(
                    "__pycache__", "*.pyc"))
            else:
                copy.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, copy / name)
        student_packages((copy / "pyproject.toml").read_text(encoding="utf-8"))
        built = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
             "--no-build-isolation", "--wheel-dir", str(target), str(copy)],
            capture_output=True, text=True, env={**os.environ, "SOURCE_DATE_EPOCH": EPOCH})
        if built.returncode != 0:
            raise RuntimeError(f"pip wheel failed:\n{built.stdout}\n{built.stderr}")
    wheel = target / wheel_name()
    if not wheel.exists():
        raise RuntimeError(f"pip wheel wrote {sorted(p.name for p in target.iterdir())}, "
                           f"not {wheel.name} (pyproject.toml's version?)")
    return wheel


def _rezip(archive: Path, wheel: Path, language: str) -> None:
    """The edition's zip again, with the wheel beside the notebooks and a requirements
    file that installs it; every entry dated alike, so a build repeats byte for byte."""
    with zipfile.ZipFile(archive) as old:
        entries = {info.filename: old.read(info) for info in old.infolist()}
    entries[f"{ZIP_FOLDER}/requirements.txt"] = requirements(
        language, wheel=wheel.name).encode()
    entries[f"{ZIP_FOLDER}/{wheel.name}"] = wheel.read_bytes()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as new:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            new.writestr(info, entries[name])


def publish(site: Path) -> dict:
    """Build the wheel into ``site/wheels`` with the pins beside it, and add it to each
    edition's zip of notebooks found in ``site`` (and ``site/ru``)."""
    site = Path(site)
    folder = site / WHEELS
    wheel = build_wheel(folder)
    (folder / CONSTRAINTS).write_text(
        "# The versions behind the book's numbers (binder/requirements.txt)\n"
        + "\n".join(pinned_runtime()) + "\n")
    zipped = []
    for language, edition in (("en", site), ("ru", site / "ru")):
        archive = edition / ZIP_NAME
        if archive.exists():
            _rezip(archive, wheel, language)
            zipped.append(str(archive.relative_to(site)))
    # a step of the site's build: its exit status and log, as the build reports them
    return {"returncode": 0, "wheel": wheel.name, "zips": zipped,
            "log": f"{WHEELS}/{wheel.name} and {WHEELS}/{CONSTRAINTS}; in {', '.join(zipped)}"}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    made = publish(Path(argv[0]) if argv else ROOT / "_build" / "html")
    print(f"wheel: {made['wheel']}, in {', '.join(made['zips']) or 'no zip'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
