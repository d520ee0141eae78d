"""Where students run the chapters, emulated here from the package registries and this
checkout alone (no other network):

* Binder: a fresh virtual environment built from ``binder/`` only (as repo2docker does:
  ``pip install -r binder/requirements.txt`` from the repository's root, on the Python of
  ``binder/runtime.txt``) runs every launch notebook top to bottom, and every number it
  prints matches the chapter's stored outputs.
* Colab: a fresh environment holding only Colab's own packages (``tests/colab_base.txt``),
  marked as Colab the way Colab marks its kernels (``google.colab`` imported at start),
  runs a launch notebook copied into an empty folder; its first cell installs the package
  from this checkout (``RELIABILITY_SOURCE``) and the next cell imports it, no restart.
  Colab's own packages keep their versions.
* the download: the book's zip of notebooks unzipped into a bare environment with no git,
  its requirements installed (the wheel inside it, the book's pins), a chapter run.

The environments live in a temporary folder; pip's cache makes the second run fast.
Binder and the zip pin the same runtime: it is installed once, and each of the two
installs its own requirements file over it (the ``runtime`` fixture).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from bookbuild.run import ROOT, chapters, execute, merged_streams
from bookbuild.grade import TEACHER_ONLY
from bookbuild.wheel import BUILD_PACKAGES, student_packages

pytestmark = pytest.mark.xdist_group(name="environments")

LAUNCH = ROOT / "notebooks"
DEV_TOOLS = {"jupyter-book", "pytest", "pytest-xdist", "nbval", "papermill", "playwright",
             "hypothesis", "pypdf", "sphinx", "myst-nb"}
GLUE_MIME = "application/papermill.record/text/plain"


# --- helpers ------------------------------------------------------------------------------

def _pins(path: Path) -> dict[str, str]:
    return _pins_from_text(path.read_text())


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower().strip()


def _run(command, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run([str(c) for c in command], capture_output=True, text=True,
                            **kwargs)
    assert result.returncode == 0, (f"{' '.join(map(str, command))} failed:\n"
                                    f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


def _checkout_copy(target: Path, leave_out: tuple[str, ...] = ()) -> Path:
    """The files of this checkout that git would hand to a clone (tracked, or new and not
    ignored), so nothing installed by hand or left in .venv leaks into an emulation; less
    ``leave_out`` (the handout branch leaves out the homework's key)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"],
                            capture_output=True, cwd=ROOT)
    assert listed.returncode == 0, "the emulations copy the checkout with git ls-files"
    for name in filter(None, listed.stdout.decode().split("\0")):
        if name in leave_out:
            continue
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def _venv(path: Path) -> Path:
    _run([sys.executable, "-m", "venv", path])
    return path / "bin" / "python"


def _kernel(python: Path, name: str) -> Path:
    """Register the environment's kernel under ``name``; return its JUPYTER_PATH entry."""
    prefix = python.parent.parent
    _run([python, "-m", "ipykernel", "install", "--prefix", prefix, "--name", name])
    return prefix / "share" / "jupyter"


def _sanitisers() -> list[tuple[re.Pattern, str]]:
    lines = [line for line in (ROOT / "tests" / "sanitize.cfg").read_text().splitlines()
             if line]
    pairs = []
    for first, second in zip(lines, lines[1:]):
        if first.startswith("regex: ") and second.startswith("replace: "):
            pairs.append((re.compile(first[7:]), second[9:]))
    return pairs


def _page_formats(chapter: nbformat.NotebookNode) -> dict[str, set[str]]:
    """The format each glued value is shown with in the chapter's prose."""
    formats: dict[str, set[str]] = {}
    for cell in chapter.cells:
        if cell.cell_type == "markdown":
            for body in re.findall(r"\{glue(?::text)?\}`([^`]+)`", cell.source):
                key, _, spec = body.rpartition(":") if ":" in body else (body, "", "s")
                formats.setdefault(key, set()).add(spec)
    return formats


def _texts(cell, formats: dict[str, set[str]]) -> list[str]:
    """What a reader sees of a code cell: its printed and displayed text, and its glued
    values at the precision the page shows them (a float's last digits may differ between
    machines). Images are left out, as nbval leaves them."""
    from reliability.numbers import glued_text

    texts = []
    # consecutive prints joined, as `make outputs` stores them
    for output in merged_streams(cell.get("outputs", [])):
        if output.get("output_type") == "stream":
            texts.append(f"{output['name']}: {output['text']}")
        data = output.get("data", {})
        for mime in ("text/plain", "text/html"):
            if mime in data:
                texts.append(f"{mime}: {data[mime]}")
        name = output.get("metadata", {}).get("scrapbook", {}).get("name")
        if name and GLUE_MIME in data:
            texts += [f"{name}: {glued_text(data[GLUE_MIME], spec)}"
                      for spec in sorted(formats.get(name, ()))]
    for pattern, replacement in _sanitisers():
        texts = [pattern.sub(replacement, text) for text in texts]
    return texts


def _run_notebook(source: Path, folder: Path, kernel: str, jupyter_path: Path,
                  monkeypatch) -> nbformat.NotebookNode:
    monkeypatch.setenv("JUPYTER_PATH", str(jupyter_path))
    return execute(source, folder / f"executed-{source.name}", kernel_name=kernel,
                   cwd=folder, widgets=False)


# --- the files ----------------------------------------------------------------------------

def test_binder_pins_the_runtime_only_on_a_pinned_python():
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    assert re.fullmatch(r"python-3\.\d+", runtime), runtime
    assert f"{sys.version_info[0]}.{sys.version_info[1]}" == runtime[len("python-"):], \
        "the tests run on the Python Binder pins (the Makefile checks this too)"
    lines = [line for line in (ROOT / "binder" / "requirements.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    assert lines[-1] == ".[book]", \
        "Binder installs the package itself, from the repository, with the book's extra"
    assert all("==" in line for line in lines[:-1]), "every runtime package is pinned"
    pins = _pins(ROOT / "binder" / "requirements.txt")
    assert not DEV_TOOLS & set(pins), f"build and test tools in Binder: {DEV_TOOLS & set(pins)}"
    for needed in ("jupyterlab", "ipywidgets", "numpy", "scipy", "pandas", "matplotlib"):
        assert needed in pins, f"Binder lacks {needed}"


def test_development_pins_agree_with_the_runtime():
    runtime, dev = _pins(ROOT / "binder" / "requirements.txt"), _pins(
        ROOT / "requirements.txt")
    differ = {n: (runtime[n], dev[n]) for n in set(runtime) & set(dev) if runtime[n] != dev[n]}
    assert not differ, f"the stored outputs come from the dev pins; Binder must match: {differ}"
    # The root requirements.txt is the build and test environment (Jupyter Book's
    # convention); repo2docker reads binder/ alone whenever that folder exists.
    lines = (ROOT / "requirements.txt").read_text().splitlines()
    assert lines[-1] == "-e .[book]" and "jupyter-book" in dev, \
        "root: the pinned build tools, then the package with the book's extra"
    assert (ROOT / "binder" / "requirements.txt").is_file(), "Binder's runtime is binder/"


def test_runtime_dependencies_admit_colabs_packages():
    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = project["dependencies"] + project["optional-dependencies"]["book"]
    colab = _pins(ROOT / "tests" / "colab_base.txt")
    for line in declared:
        requirement = Requirement(line)
        name = _normal(requirement.name)
        if name in colab:
            assert requirement.specifier.contains(colab[name]), \
                f"{line} would make pip replace Colab's {name} {colab[name]}"


def test_the_wheel_lists_every_package_folder():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {".".join(p.parent.relative_to(ROOT).parts)
               for p in (ROOT / "reliability").rglob("__init__.py")}
    assert folders | {"reliability.data"} == set(config["packages"])
    assert config["package-dir"] == {"reliability.data": "data"}
    # the build's package (the homework's key in it) is no package of the project: the
    # development environment imports it from the checkout (Makefile's .pth file)
    assert set(student_packages((ROOT / "pyproject.toml").read_text())) == set(
        config["packages"]) and not set(BUILD_PACKAGES) & set(config["packages"])
    with pytest.raises(ValueError, match="homework's key"):
        student_packages('[tool.setuptools]\npackages = ["reliability", "bookbuild"]\n')
    assert "scripts/install_bookbuild.py" in (ROOT / "Makefile").read_text(), \
        "make's .venv imports bookbuild"


def test_the_development_finder_finds_bookbuild_alone(tmp_path):
    """scripts/install_bookbuild.py's .pth line, run as Python runs it at start, makes
    this checkout's bookbuild importable from anywhere, and nothing else of the
    checkout; a Python started with -S (the grader's student kernel) never runs it.
    (Run with -S and the .pth's folder added by hand, so this environment's own install
    is not what is found.)"""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "install_bookbuild", ROOT / "scripts" / "install_bookbuild.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / script.NAME).write_text(script.pth_line(ROOT))
    probe = ("import site, sys, importlib.util as u\n"
             f"site.addsitedir({str(tmp_path / 'site')!r})\n"
             "print(u.find_spec('bookbuild').origin, u.find_spec('tests'))")
    bare = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    found = _run([sys.executable, "-I", "-S", "-c", probe], cwd=tmp_path,
                 env=bare).stdout.split()
    assert found == [str(ROOT / "bookbuild" / "__init__.py"), "None"], found


_REACHABLE = r"""
import json, sys
from importlib import metadata
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name as canon

roots, pins = json.loads(sys.argv[1]), json.loads(sys.argv[2])
requires = {canon(d.metadata["Name"]): [Requirement(r) for r in d.requires or []]
            for d in metadata.distributions()}
# Walk from the roots, following extras that a requirement asks for (jsonschema[format]).
roots = [Requirement(r) for r in roots]  # "reliability[book]": the package with its extra
seen, todo = set(), [(canon(r.name), tuple(sorted(r.extras))) for r in roots]
while todo:
    name, extras = todo.pop()
    if (name, extras) in seen:
        continue
    seen.add((name, extras))
    for req in requires.get(name, []):
        wanted = [""] + list(extras)
        if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in wanted):
            todo.append((canon(req.name), tuple(sorted(req.extras))))
reached = {name for name, _ in seen}
print(json.dumps(sorted(canon(p) for p in pins if canon(p) not in reached)))
"""


def _unused_pins(python: Path, roots: list[str], pins: dict) -> list[str]:
    result = _run([python, "-c", _REACHABLE, json.dumps(roots), json.dumps(list(pins))])
    return json.loads(result.stdout)


def test_nothing_is_pinned_for_development_that_nothing_uses():
    roots = ["reliability[book]"] + [
        re.split(r"[<>=!~ ]", line)[0] for line in
        (ROOT / "requirements.in").read_text().splitlines()
        if line.strip() and not line.startswith("#")]
    unused = _unused_pins(Path(sys.executable), roots, _pins(ROOT / "requirements.txt"))
    assert not unused, f"pinned but required by nothing (run `make pins`): {unused}"


# --- the runtime Binder and the zip share ----------------------------------------------

def _site_packages(python: Path) -> Path:
    return Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()"
                      "['purelib'])"]).stdout.strip())


@pytest.fixture(scope="module")
def runtime(tmp_path_factory):
    """The book's pinned runtime (binder/requirements.txt's ``==`` lines, which the zip's
    requirements.txt repeats: ``pinned_runtime``) installed once by pip for this module,
    then shared read-only by Binder's and the zip's environments (:func:`_on_runtime`).
    Both used to install the same 100-odd packages, about a minute each."""
    from bookbuild.launch_notebooks import pinned_runtime

    home = tmp_path_factory.mktemp("runtime")
    python = _venv(home / "env")
    (home / "requirements.txt").write_text("\n".join(pinned_runtime()) + "\n")
    _run([python, "-m", "pip", "install", "--quiet", "-r", home / "requirements.txt"])
    site = _site_packages(python)
    return site, sorted(entry.name for entry in site.iterdir())


def _on_runtime(folder: Path, runtime) -> Path:
    """A fresh environment that sees the shared runtime's packages after its own (as a
    site folder: its .pth files run too). pip, asked for a requirements file there,
    still resolves every line against what is installed and installs whatever is
    missing or at another version into this environment only; the caller checks with
    :func:`_runtime_untouched` that nothing was written to the shared one."""
    shared, _ = runtime
    python = _venv(folder)
    (_site_packages(python) / "zz_book_runtime.pth").write_text(
        f"import site; site.addsitedir({str(shared)!r})\n")
    return python


def _runtime_untouched(runtime) -> None:
    shared, entries = runtime
    assert sorted(entry.name for entry in shared.iterdir()) == entries, \
        "an install changed the shared runtime"


# --- Binder -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def binder(tmp_path_factory, runtime):
    """An environment built from binder/ alone, the way repo2docker builds it (``pip
    install -r binder/requirements.txt``, over the shared pinned runtime), from the
    handout branch the Binder buttons name (the checkout less the homework's key)."""
    home = tmp_path_factory.mktemp("binder")
    repo = _checkout_copy(home / "repo", leave_out=TEACHER_ONLY)
    python = _on_runtime(home / "env", runtime)
    _run([python, "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"],
         cwd=repo)
    _runtime_untouched(runtime)
    return repo, python, _kernel(python, "binder-emulation")


def test_binder_environment_needs_nothing_it_does_not_pin(binder):
    _, python, _ = binder
    pins = _pins(ROOT / "binder" / "requirements.txt")
    assert not _unused_pins(python, ["reliability[book]", "jupyterlab", "nbgitpuller"], pins), \
        "pinned in binder/requirements.txt but required by nothing (run `make pins`)"
    frozen = _run([python, "-m", "pip", "freeze", "--exclude", "reliability"]).stdout
    assert set(_pins_from_text(frozen)) <= set(pins), "Binder installed an unpinned package"


def test_binder_installs_no_build_code_and_the_key_cannot_be_imported(binder):
    """What Binder installs (``.[book]``, which is ``pip install .``) holds the package a
    student needs and nothing of the build; the key imports neither from the notebooks'
    folder (the kernel's) nor from the repository's root (a console's)."""
    repo, python, _ = binder
    # Binder's processes see no PYTHONPATH of this test run's (a checkout on it would
    # hand them this checkout's bookbuild)
    bare = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    files = _run([python, "-m", "pip", "show", "--files", "reliability"], env=bare).stdout
    listed = [line.strip() for line in files.split("Files:", 1)[1].splitlines()]
    assert any(name.startswith("reliability/") for name in listed), files[:2000]
    assert not [name for name in listed if name.startswith("bookbuild")], \
        "pip install . installed the build's package"
    for cwd in (repo / "notebooks", repo):
        tried = subprocess.run([str(python), "-c", "import bookbuild.homework"], cwd=cwd,
                               capture_output=True, text=True, env=bare)
        assert tried.returncode != 0 and "ModuleNotFoundError" in tried.stderr, \
            f"the homework's key imports in Binder from {cwd.name}/: {tried.stderr[-500:]}"
    found = _run([python, "-c", "import importlib.util as u; print(u.find_spec('bookbuild'))"],
                 cwd=repo / "notebooks", env=bare).stdout.strip()
    assert found == "None", f"bookbuild is installed in Binder: {found}"


def _pins_from_text(text: str) -> dict[str, str]:
    """``name==version`` lines (pip freeze, a requirements file), by normalised name."""
    pairs = [line.split("==", 1) for line in text.splitlines()
             if "==" in line and not line.startswith("#")]
    return {_normal(name): version.strip() for name, version in pairs}


def _installed(python: Path) -> dict[str, str]:
    """Every distribution in the environment and its version (local installs included)."""
    listed = _run([python, "-m", "pip", "list", "--format", "json"]).stdout
    return {_normal(entry["name"]): entry["version"] for entry in json.loads(listed)}


# One launch notebook runs end to end in the Binder environment: the one with the most to
# import and an explorer. Every launch notebook of both editions already runs in a real
# kernel with the same pinned versions and only the declared dependencies
# (tests/test_real_widgets.py; test_development_pins_agree_with_the_runtime holds the
# versions equal) and compares each one's outputs with its chapter's stored ones, so
# running all ten here again was work done twice.
CHAPTERS = [path for path in chapters() if path.stem == "08_degradation_ladder"]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_binder_runs_the_launch_notebook_and_prints_the_stored_numbers(
        chapter, binder, monkeypatch):
    repo, _, jupyter_path = binder
    ran = _run_notebook(repo / "notebooks" / chapter.name, repo / "notebooks",
                        "binder-emulation", jupyter_path, monkeypatch)
    stored = nbformat.read(str(chapter), as_version=4)
    formats = _page_formats(stored)
    from bookbuild.launch_notebooks import launched_code

    # the chapter's code cells that the launch notebook runs (not the web page's
    # explorer, not a solution: bookbuild/launch_notebooks.py)
    stored_code = [stored.cells[i] for i in launched_code(stored)]
    ran_code = [c for c in ran.cells if c.cell_type == "code"   # after the install cell,
                and "exercise-check" not in c.metadata.get("tags", [])][1:]  # and checks
    assert len(ran_code) == len(stored_code), "the launch notebook runs those code cells"
    for index, (theirs, ours) in enumerate(zip(stored_code, ran_code)):
        if "nbval-ignore-output" in theirs.metadata.get("tags", []):
            continue  # a live explorer: its widget output is not stored
        assert _texts(ours, formats) == _texts(theirs, formats), \
            f"code cell {index} of {chapter.name} prints other numbers on Binder"


# --- Colab --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def colab(tmp_path_factory):
    """Colab's base packages only, and ``google.colab`` imported when Python starts."""
    home = tmp_path_factory.mktemp("colab")
    python = _venv(home / "env")
    _run([python, "-m", "pip", "install", "--quiet", "-r", ROOT / "tests" / "colab_base.txt"])
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
                     ).stdout.strip())
    (site / "google" / "colab").mkdir(parents=True)
    (site / "google" / "colab" / "__init__.py").write_text('"""Stands in for Colab."""\n')
    (site / "zz_colab_emulation.pth").write_text("import google.colab\n")
    return home, python, _kernel(python, "colab-emulation")


def test_colab_installs_what_is_missing_and_runs_with_no_restart(colab, monkeypatch,
                                                                 tmp_path):
    home, python, jupyter_path = colab
    before = _installed(python)
    assert "reliability" not in before and "pybreaker" not in before
    monkeypatch.setenv("RELIABILITY_SOURCE", str(_checkout_copy(home / "checkout")))
    empty = tmp_path / "colab-folder"
    empty.mkdir()
    notebook = shutil.copy(LAUNCH / "08_degradation_ladder.ipynb", empty)
    _run_notebook(Path(notebook), empty, "colab-emulation", jupyter_path, monkeypatch)
    after = _installed(python)
    assert "reliability" in after and "pybreaker" in after, "the first cell installed them"
    for name, version in _pins(ROOT / "tests" / "colab_base.txt").items():
        assert after[name] == version, f"Colab's {name} {version} became {after[name]}"
    # The Russian launch notebook of the same chapter runs there too, and speaks Russian:
    # the installed package carries its Russian catalogs.
    russian = shutil.copy(ROOT / "ru" / "notebooks" / "08_degradation_ladder.ipynb", empty)
    ran = _run_notebook(Path(russian), empty, "colab-emulation", jupyter_path, monkeypatch)
    printed = " ".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/html", ""))
                       for c in ran.cells if c.cell_type == "code" for o in c.outputs)
    assert re.search("[а-яё]{4}", printed), "the Russian chapter printed no Russian"


# --- the download: the zip of notebooks, installed with no git --------------------------

def _no_git_path(folder: Path, python: Path) -> str:
    """A PATH holding the environment's own commands and nothing else: no git."""
    assert not (python.parent / "git").exists()
    return str(python.parent)


def test_the_zip_installs_offline_of_any_repository_with_no_git(built_site, runtime,
                                                                 tmp_path, monkeypatch):
    """A student unzips the book's notebooks into a bare environment whose PATH has no
    git, installs its requirements.txt as its README says, and Run All works: the
    package comes from the wheel in the zip, at the book's pinned versions, with its
    tables and its Russian catalogs."""
    import zipfile

    from bookbuild.launch_notebooks import pinned_runtime, wheel_name

    html, _ = built_site
    for edition in (html, html / "ru"):
        with zipfile.ZipFile(edition / "agent-reliability-notebooks.zip") as archive:
            names = archive.namelist()
            assert f"agent-reliability-notebooks/{wheel_name()}" in names
            wanted = archive.read("agent-reliability-notebooks/requirements.txt").decode()
            assert f"./{wheel_name()}[book]" in wanted.splitlines() and "git+" not in wanted
    with zipfile.ZipFile(html / "agent-reliability-notebooks.zip") as archive:
        archive.extractall(tmp_path)
    folder = tmp_path / "agent-reliability-notebooks"
    python = _on_runtime(tmp_path / "env", runtime)
    path = _no_git_path(tmp_path, python)
    assert shutil.which("git", path=path) is None
    _run([python, "-m", "pip", "install", "--quiet", "-r", "requirements.txt"], cwd=folder,
         env={"PATH": path, "HOME": str(tmp_path)})
    _runtime_untouched(runtime)
    installed = _installed(python)
    for line in pinned_runtime():
        name, version = line.split("==")
        assert installed.get(_normal(name)) == version, f"{line} is what the book pins"
    assert installed["reliability"] == wheel_name().split("-")[1]
    # the tables and the Russian catalogs ship in the wheel, read from outside any checkout
    check = ("import json\nfrom reliability import i18n\n"
             "from reliability.datasets import load, names, path\n"
             "print(json.dumps({'tables': {n: [len(load(n)), str(path(n))] for n in names()},"
             " 'ru': len(i18n.catalog('ru'))}))")
    loaded = json.loads(_run([python, "-c", check], cwd=tmp_path).stdout)
    assert loaded["ru"] == len(__import__("reliability").i18n.catalog("ru"))
    csvs = sorted((ROOT / "data").glob("*.csv"))
    assert sorted(loaded["tables"]) == [p.stem for p in csvs], "every table ships"
    for csv in csvs:
        rows, where = loaded["tables"][csv.stem]
        assert rows == len(pd.read_csv(csv)) and str(tmp_path / "env") in where, csv.name
    # and a chapter runs there, top to bottom, from the unzipped folder
    jupyter_path = _kernel(python, "zip-emulation")
    _run_notebook(folder / "02_retries.ipynb", folder, "zip-emulation", jupyter_path,
                  monkeypatch)


def test_an_engineer_installs_the_statistics_with_numpy_and_scipy_alone(built_site,
                                                                       tmp_path):
    """``pip install`` of the site's wheel with no extra brings numpy and scipy (and what
    they need) and nothing of the book's: the estimators and intervals work there."""
    from bookbuild.launch_notebooks import WHEELS, wheel_name

    html, _ = built_site
    python = _venv(tmp_path / "env")
    _run([python, "-m", "pip", "install", "--quiet", html / WHEELS / wheel_name()])
    installed = set(_installed(python)) - {"pip", "setuptools"}
    assert installed == {"reliability", "numpy", "scipy"}, installed
    import zipfile

    with zipfile.ZipFile(html / WHEELS / wheel_name()) as wheel:
        tops = {name.split("/")[0] for name in wheel.namelist()}
    assert tops == {"reliability", wheel_name().split("-py3")[0] + ".dist-info"}, tops
    check = ("from reliability import passk, stats\n"
             "print(passk.from_counts([8, 5, 0], trials=8, k=4))\n"
             "print(stats.wilson_interval(61, 100))")
    printed = _run([python, "-c", check], cwd=tmp_path).stdout.splitlines()
    assert printed[0].startswith("pass^4 = ") and "95%" in printed[0], printed


def test_a_kernel_without_the_package_stops_at_the_first_cell_with_one_line(tmp_path,
                                                                             monkeypatch):
    """Jupyter with no ``reliability``: Run All stops at the first cell, which shows one
    message naming the line to run, in the notebook's language, and no traceback."""
    from bookbuild.launch_notebooks import constraints_url, install_spec

    python = _venv(tmp_path / "env")
    _run([python, "-m", "pip", "install", "--quiet", "ipykernel"])
    jupyter_path = _kernel(python, "bare-emulation")
    for source, language in ((LAUNCH, "latin"), (ROOT / "ru" / "notebooks", "cyrillic")):
        folder = tmp_path / language
        folder.mkdir()
        notebook = Path(shutil.copy(source / "04_pass_k.ipynb", folder))
        with pytest.raises(Exception, match=re.escape("%pip install")):
            _run_notebook(notebook, folder, "bare-emulation", jupyter_path, monkeypatch)
        ran = nbformat.read(str(folder / f"executed-{notebook.name}"), as_version=4)
        code = [c for c in ran.cells if c.cell_type == "code"]
        (error,) = code[0].outputs
        assert error.output_type == "error" and len(error.traceback) == 1, \
            "one line, not a traceback"
        (line,) = error.traceback
        assert f'%pip install "{install_spec()}" -c "{constraints_url()}"' in line
        assert bool(re.search("[а-яё]{4}", line)) == (language == "cyrillic"), line
        assert all(c.get("execution_count") is None for c in code[1:]), \
            "Run All stopped at the first cell"
