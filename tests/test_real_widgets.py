"""What a student does with a launch notebook, in real JupyterLab: Run All, then move every
slider, at a phone's width and at a desktop's.

Each launch notebook of both editions (``notebooks/`` here, ``ru/notebooks/`` in
tests/test_real_widgets_ru.py, so the two editions run on the two test workers at once) is
opened in JupyterLab at the book's pinned version (binder/requirements.txt, installed into
an environment of its own, as Binder installs it) in headless Chromium and run with
Run > Run All Cells. Its kernel is this checkout's Python with the real ipywidgets, in which
every installed distribution that neither ``pyproject.toml`` (with what it requires) nor
the kernel brings in is unimportable (tests/test_dependencies.py): a run with only the
declared dependencies, as after ``pip install``. Three cells are added at the end:

* the check that an undeclared module is refused;
* a report of every slider the kernel made, with its range and step;
* every control of every ``interact`` explorer set to its ends (a slider's min and max, a
  dropdown's first and last option), which calls the explorer's function as a student's
  move does, with every traceback a redraw showed. This is what catches an explorer that
  calls a global a later cell rebinds (chapter 8's ``day``, once).

Then, in the page, every slider's track, readout and label are measured at 390 and 1280 px:
one step must be a few pixels of track and the readout must show its value whole (issue 42,
item 2: chapter 4's pass^1 slider once had 91 steps in 42 px, so a drag jumped 0.61 -> 0.80
-> 0.19). Last, the notebook is saved from JupyterLab and each code cell it shares with its
chapter (all but the install cell and the exercise checks) must print, display and glue what
the chapter stores, volatile text sanitised as tests/sanitize.cfg says and glued values at
the precision the page shows them. So every chapter of both editions runs once at its
defaults in the test command, in the frontend a student uses, not once in a bare kernel and
again in JupyterLab.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from bookbuild import launch_notebooks
from bookbuild.book_pdf import CHROMIUM, CHROMIUM_ARGS
from bookbuild.run import ROOT, chapters
from test_dependencies import BLOCK_UNDECLARED, KERNEL, blocked_modules
from test_environments import _page_formats, _texts

# One worker runs every notebook of this module (``--dist loadscope``) and the other the
# Russian ones, each with a JupyterLab of its own.
pytestmark = pytest.mark.xdist_group(name="real-widgets")

NOTEBOOKS = [launch_notebooks.NOTEBOOKS / p.name for p in chapters()]
IDS = [p.stem for p in chapters()]
#: The widths a student reads at: a phone's and a desktop's, in CSS px.
WIDTHS = {"phone": 390, "desktop": 1280}
#: The least track one step of a slider may have, in CSS px: a thumb moved by hand
#: lands within a step or two of where the finger stops.
STEP_PX = 2.0
#: Seconds Run All of one notebook may take (the slowest takes about 15 on a quiet machine).
RUN_SECONDS = 240
LAB_KERNEL = "book-checkout"
#: The JupyterLab environment, shared by both workers and kept between runs, named after
#: the pins it holds (a lock lets one worker install it while the other waits).
LAB_PINS = ("jupyterlab", "jupyterlab_widgets")

#: The cell added at the end that shows the kernel has only the declared dependencies.
DECLARED_ONLY = r'''
try:
    import pytest as _undeclared
except ModuleNotFoundError as _refused:
    assert "not declared in pyproject.toml" in str(_refused), _refused
    print("DECLARED only")
'''

#: The cell added at the end: every slider the kernel made, with its range and step.
REPORT = r'''
import json as _json, ipywidgets as _w
print("SLIDERS " + _json.dumps([
    {"description": x.description, "min": x.min, "max": x.max, "step": x.step,
     "kind": type(x).__name__} for x in list(_w.Widget.widgets.values())
    if isinstance(x, (_w.IntSlider, _w.FloatSlider, _w.FloatLogSlider))] + [
    {"description": x.description, "min": 0, "max": len(x.options) - 1, "step": 1,
     "kind": type(x).__name__} for x in list(_w.Widget.widgets.values())
    if isinstance(x, _w.SelectionSlider)]))
'''

#: Run in the kernel after the notebook: move every control of every explorer to its ends
#: and report, as JSON, what was moved and every traceback an explorer's redraw showed
#: (``interactive.update`` catches the error and shows it through ``showtraceback``).
MOVE_EVERY_CONTROL = r'''
import json as _json, traceback as _traceback, sys as _sys
import ipywidgets as _ipw
from ipywidgets.widgets.widget import _instances as _widget_instances

_errors, _moved = [], []
_ip = get_ipython()
_show = _ip.showtraceback

def _record(*args, **kwargs):
    _errors.append("".join(_traceback.format_exception(*_sys.exc_info())))
    return _show(*args, **kwargs)

def _ends(control):
    if hasattr(control, "options"):   # a dropdown: its values, first and last
        values = [o[1] if isinstance(o, tuple) and len(o) == 2 else o
                  for o in control.options]
        return [values[0], values[-1]]
    if isinstance(control.value, bool):
        return [not control.value, control.value]
    return [control.min, control.max]

_ip.showtraceback = _record
try:
    _explorers = [w for w in list(_widget_instances.values())
                  if isinstance(w, _ipw.interactive)]
    for _w in _explorers:
        for _control in _w.kwargs_widgets:
            for _value in _ends(_control):
                if _value == _control.value:
                    _control.value = _ends(_control)[0] if _value != _ends(_control)[0] \
                        else _ends(_control)[-1]
                _control.value = _value
                _moved.append((_control.description, repr(_value), len(_errors)))
finally:
    _ip.showtraceback = _show
print("MOVED " + _json.dumps({"explorers": len(_explorers), "moved": _moved,
                              "errors": _errors}))
'''


def _plain(text: str) -> str:
    """A traceback without its terminal colours."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def _stored_chapter(path: Path) -> nbformat.NotebookNode:
    """The chapter a launch notebook is made from, with its stored outputs."""
    chapters_folder = ROOT / path.relative_to(ROOT).parent.parent / "chapters"
    return nbformat.read(str(chapters_folder / path.name), as_version=4)


def _assert_prints_what_the_chapter_stores(path: Path, ran: list) -> None:
    """``ran`` holds (launch cell, its outputs) for every code cell, in order."""
    from reliability import i18n

    stored = _stored_chapter(path)
    formats = _page_formats(stored)
    russian = path.is_relative_to(launch_notebooks.RU_NOTEBOOKS)
    # the web explorer's cells and the solutions' stay out of a launch notebook
    stored_code = [stored.cells[i] for i in launch_notebooks.launched_code(stored)]
    shared = [(cell, outputs) for cell, outputs in ran[1:]   # after the install cell,
              if "exercise-check" not in cell["metadata"].get("tags", [])]  # and checks
    assert len(shared) == len(stored_code), "the launch notebook keeps every code cell it runs"
    for index, (theirs, (_, outputs)) in enumerate(zip(stored_code, shared)):
        if "nbval-ignore-output" in theirs.metadata.get("tags", []):
            continue  # a live explorer: its widget output is not stored
        ours = nbformat.v4.new_code_cell(outputs=outputs)
        with i18n.language("ru" if russian else "en"):   # the page's glued words
            got, stored_texts = _texts(ours, formats), _texts(theirs, formats)
        assert got == stored_texts, (
            f"code cell {index} of {path.name} shows other output than its chapter "
            "stores (if the change is meant, regenerate it: README, 'Changing a "
            f"chapter's stored outputs'):\nstored: {stored_texts}\nnow:    {got}")



_MEASURE_JS = """() => Array.from(document.querySelectorAll('.widget-slider')).map(s => {
    const label = s.querySelector('.widget-label');
    const track = s.querySelector('.slider-container') || s.querySelector('.slider');
    const readout = s.querySelector('.widget-readout');
    const box = (e) => e ? e.getBoundingClientRect() : {width: 0, height: 0};
    return {description: label ? label.textContent.trim() : '',
            track: box(track).width,
            readout: readout ? (readout.textContent || readout.value || '').trim() : '',
            readout_width: box(readout).width,
            readout_clipped: readout ? readout.scrollWidth > readout.clientWidth + 1 : true,
            label_clipped: label ? label.scrollWidth > label.clientWidth + 1 : false};
})"""

#: True while a cell runs or waits to: JupyterLab shows ``[*]`` in its prompt.
_BUSY_JS = """() => Array.from(document.querySelectorAll('.jp-InputPrompt'))
    .some(p => p.textContent.includes('*'))"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pins(names: tuple[str, ...]) -> list[str]:
    lines = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    return [line for line in lines if line.split("==")[0] in names]


def _lab_environment() -> Path:
    """JupyterLab at the book's pins, installed once (from pip's cache after the first
    time) into ``.venv-lab-test-<pins>`` in the checkout, or RELIABILITY_LAB_ENV."""
    pins = _pins(LAB_PINS)
    digest = hashlib.sha1("\n".join(pins).encode()).hexdigest()[:10]
    env_dir = Path(os.environ.get("RELIABILITY_LAB_ENV", ROOT / f".venv-lab-test-{digest}"))
    env_dir.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{env_dir}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # the other worker may be installing it
        if not (env_dir / ".installed").exists():
            subprocess.run([sys.executable, "-m", "venv", "--clear", env_dir], check=True)
            subprocess.run([env_dir / "bin" / "python", "-m", "pip", "install", "--quiet",
                            *pins], check=True)
            (env_dir / ".installed").touch()
    return env_dir


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab serving an empty folder, with this checkout's kernel (only the declared
    dependencies importable); yields (folder, base URL, token, kernels' runtime folder)."""
    home = tmp_path_factory.mktemp("lab")
    env_dir = _lab_environment()
    # every cell in the page, laid out, whether scrolled to or not (no windowing), and the
    # notebook's own kernel started without asking
    settings = home / "config" / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text(json.dumps(
        {"windowingMode": "none", "autoStartDefaultKernel": True}))
    # the declared-dependencies guard, run by IPython before the notebook's first cell
    startup = home / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-declared-only.py").write_text(
        BLOCK_UNDECLARED.format(blocked=blocked_modules(KERNEL)))
    kernels = home / "share" / "jupyter" / "kernels" / LAB_KERNEL
    kernels.mkdir(parents=True)
    (kernels / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (book)", "language": "python",
        "env": {"PYTHONPATH": str(ROOT), "IPYTHONDIR": str(home / "ipython")}}))
    root = home / "root"
    root.mkdir()
    port, token = _free_port(), "reliability-test"
    env = {**os.environ, "JUPYTER_PATH": str(home / "share" / "jupyter"),
           "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_DATA_DIR": str(home / "data"),
           "JUPYTERLAB_SETTINGS_DIR": str(home / "config" / "lab" / "user-settings"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    server = subprocess.Popen(
        [env_dir / "bin" / "jupyter-lab", "--no-browser", "--allow-root", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
         "--LabApp.news_url=", "--LabApp.check_for_updates_class="
         "jupyterlab.NeverCheckForUpdate"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(240):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            time.sleep(0.25)
    try:
        yield root, base, token
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def chromium():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _output_text(page, marker: str) -> str | None:
    found = page.locator(".jp-OutputArea-output", has_text=marker)
    if not found.count():
        return None
    return found.first.inner_text().split(marker, 1)[1].strip()


def _run_all(page) -> None:
    """Run > Run All Cells once the kernel is ready (accepting the kernel dialog if the lab
    shows one), then wait until no cell is running or waiting to."""
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    # the status bar says "Python 3 (book) | Idle" once the kernel answers
    idle = page.locator(".jp-StatusBar-Item", has_text=re.compile(r"\|\s*Idle\s*$"))
    accept = page.locator(".jp-Dialog .jp-mod-accept")
    idle.or_(accept).first.wait_for(timeout=120_000)
    if accept.count():
        accept.first.click()
        idle.first.wait_for(timeout=120_000)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    # started when a prompt shows [*] (or, for a very fast notebook, the last cell printed)
    page.wait_for_function(f"() => ({_BUSY_JS})() || document.body.innerText"
                           f".includes('MOVED ')", timeout=60_000, polling=100)
    # done when no prompt shows [*] (Run All stops at a failing cell and unqueues the rest)
    page.wait_for_function(f"() => !({_BUSY_JS})()", timeout=RUN_SECONDS * 1000,
                           polling=250)


def _save(page, path: Path) -> nbformat.NotebookNode:
    """File > Save from JupyterLab, then the notebook as saved, outputs and all."""
    before = path.stat().st_mtime_ns
    page.keyboard.press("Control+s")
    for _ in range(120):
        if path.stat().st_mtime_ns != before:
            time.sleep(0.2)   # the file is written whole before it is read
            return nbformat.read(str(path), as_version=4)
        time.sleep(0.25)
    raise AssertionError(f"JupyterLab did not save {path.name}")


def _measure_sliders(page, sliders: list[dict], name: str) -> list[str]:
    steps = {s["description"]: (s["max"] - s["min"]) / s["step"] for s in sliders}
    problems = []
    for label, width in WIDTHS.items():
        if label == "phone":   # on a phone the file browser is folded away
            page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").first.click()
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(800)   # the lab lays itself out again
        shown = [s for s in page.evaluate(_MEASURE_JS) if s["description"] in steps]
        assert {s["description"] for s in shown} == set(steps), (label, shown)
        for s in shown:
            per_step = s["track"] / steps[s["description"]]
            if per_step < STEP_PX:
                problems.append(f"{label}: {s['description']!r}: "
                                f"{steps[s['description']]:.0f} steps in "
                                f"{s['track']:.0f} px ({per_step:.2f} px a step)")
            if not s["readout"] or s["readout_clipped"] or s["readout_width"] < 8:
                problems.append(f"{label}: {s['description']!r}: readout "
                                f"{s['readout']!r} not shown whole")
            if s["label_clipped"]:
                problems.append(f"{label}: {s['description']!r}: label cut")
    print(f"{name}: " + "; ".join(
        f"{s['description']} {steps[s['description']]:.0f} steps" for s in sliders))
    return problems


def _failed_cell(saved: nbformat.NotebookNode) -> str:
    for number, cell in enumerate(c for c in saved.cells if c.cell_type == "code"):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                return f"code cell {number} failed:\n" + _plain(
                    "\n".join(output.get("traceback", [])))[-3000:]
    return "Run All stopped without an error output"


def run_all_then_move_every_control(path: Path, lab, chromium) -> None:
    root, base, token = lab
    start = time.perf_counter()
    nb = nbformat.read(str(path), as_version=4)
    nb.metadata["kernelspec"] = {"name": LAB_KERNEL, "display_name": "Python 3 (book)",
                                 "language": "python"}
    added = [DECLARED_ONLY, REPORT, MOVE_EVERY_CONTROL]
    nb.cells += [nbformat.v4.new_code_cell(code.strip()) for code in added]
    russian = path.is_relative_to(launch_notebooks.RU_NOTEBOOKS)
    name = f"{'ru-' if russian else ''}{path.name}"
    nbformat.write(nb, str(root / name))
    page = chromium.new_page(viewport={"width": WIDTHS["desktop"], "height": 900})
    try:
        page.goto(f"{base}/lab/tree/{name}?token={token}&reset", timeout=120_000)
        _run_all(page)
        moved = _output_text(page, "MOVED ")
        declared = _output_text(page, "DECLARED only")
        if moved is None or declared is None:
            # A cell that failed is the first thing to say, read from the notebook as
            # saved: a report in the page's text could be another notebook's, left in the
            # lab (seen once in a full run, after the ten notebooks before this one).
            saved = _save(page, root / name)
            failed = _failed_cell(saved)
            if moved is None or failed.startswith("code cell"):
                page.screenshot(path=str(ROOT / "test-artifacts" / f"lab-{name}.png"),
                                full_page=True)
                raise AssertionError(f"{name}: {failed}")
        assert declared is not None, \
            "an undeclared module was importable in the notebook's kernel"
        report = json.loads(moved)
        assert report["explorers"] >= 1, "Run All made no interact explorer"
        assert report["moved"], "the explorers have no controls to move"
        assert not report["errors"], (
            f"{name}: an explorer fails when a control moves after Run All "
            f"(control, value, errors so far: {report['moved']}):\n"
            + _plain(report["errors"][0])[-3000:])
        sliders = json.loads(_output_text(page, "SLIDERS "))
        assert sliders, f"{name}: Run All made no slider"
        problems = _measure_sliders(page, sliders, name)
        saved = _save(page, root / name)
        code = [c for c in saved.cells if c.cell_type == "code"][:-len(added)]
        _assert_prints_what_the_chapter_stores(path, [(c, c.outputs) for c in code])
        assert not problems, f"{name}:\n" + "\n".join(problems)
        print(f"{name}: {len(report['moved'])} moves, {time.perf_counter() - start:.1f} s")
    finally:
        page.close()
        _shut_down_kernels(base, token)


def _shut_down_kernels(base: str, token: str) -> None:
    """Closing the tab leaves its kernel running in the lab: shut every kernel down, so
    the next notebook does not share the machine with the ones before it."""
    headers = {"Authorization": f"token {token}"}
    with urllib.request.urlopen(urllib.request.Request(f"{base}/api/kernels",
                                                       headers=headers)) as listed:
        kernels = json.loads(listed.read())
    for kernel in kernels:
        request = urllib.request.Request(f"{base}/api/kernels/{kernel['id']}",
                                         headers=headers, method="DELETE")
        urllib.request.urlopen(request).close()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_run_all_then_move_every_control(path, lab, chromium):
    run_all_then_move_every_control(path, lab, chromium)


def test_a_failing_cell_fails_the_run_with_its_traceback(lab, chromium, tmp_path):
    """Run All stops at a failing cell: the test says which cell and why, at once, rather
    than waiting out its time limit for a report that never comes."""
    broken = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("ratio = 1"),
        nbformat.v4.new_code_cell("ratio = 1 / 0"),
        nbformat.v4.new_code_cell("print('never reached')")])
    path = tmp_path / "broken.ipynb"
    nbformat.write(broken, str(path))
    started = time.perf_counter()
    with pytest.raises(AssertionError, match=r"code cell 1 failed:(.|\n)*ZeroDivisionError"):
        run_all_then_move_every_control(path, lab, chromium)
    assert time.perf_counter() - started < RUN_SECONDS / 2
