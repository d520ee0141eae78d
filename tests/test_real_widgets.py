"""What a student does with a launch notebook: Run All, then move every slider.

Each launch notebook of both editions (``notebooks/``, ``ru/notebooks/``) runs top to
bottom in one fresh kernel with the real ipywidgets (no ``INTERACT_ONCE`` stand-in); then,
in the same kernel, every ``interact`` explorer the run made has each control set to its
ends (a slider's min and max, a dropdown's first and last option), which calls the
explorer's function as a student's move does. Any error, in a cell or in an explorer's
redraw, fails the notebook. This is what catches an explorer that calls a global a later
cell rebinds (chapter 8's ``day``, once), which the stand-in, calling the function once
before those cells run, cannot.

The cells are sent to the kernel one by one with jupyter_client (no nbclient: its widget
handling is where jupyter/nbclient#312 hangs), as a frontend without widget support
would: the widgets still live and update in the kernel. Before the first cell, every
installed distribution that neither ``pyproject.toml`` (with what it requires) nor the
kernel brings in is made unimportable in that kernel (tests/test_dependencies.py), so the
run is also one with only the declared dependencies, as after ``pip install``.

The same run checks the chapter's stored outputs: each code cell the launch notebook
shares with its chapter (all but the install cell and the exercise checks) must print,
display and glue what the chapter stores, volatile text sanitised as tests/sanitize.cfg
says and glued values at the precision the page shows them. So every chapter of both
editions runs once at its defaults in the test command, not once here and once more under
nbval.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
import uuid
from pathlib import Path

import nbformat
import pytest
from jupyter_client.manager import KernelManager

from bookbuild import launch_notebooks
from bookbuild.run import ROOT, chapters
from test_dependencies import BLOCK_UNDECLARED, KERNEL, blocked_modules
from test_environments import _page_formats, _texts

# One worker runs every notebook of this module (``--dist loadscope``); the other one
# keeps the rest of the suite moving.
pytestmark = pytest.mark.xdist_group(name="real-widgets")

# The English notebooks run here and the Russian ones in tests/test_real_widgets_ru.py:
# two modules, so that pytest-xdist (--dist loadscope) can give them to both workers.
NOTEBOOKS = [launch_notebooks.NOTEBOOKS / p.name for p in chapters()]
IDS = [p.stem for p in chapters()]
#: Seconds one cell, or one control's move, may take before the run is taken as hung.
CELL_SECONDS = 120

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


def _run(client, code: str, outputs: list | None = None) -> tuple[list[str], str]:
    """Execute ``code`` in the kernel: (its error tracebacks, its printed text). What it
    shows is appended to ``outputs`` as a notebook stores it."""
    errors, printed = [], []
    outputs = [] if outputs is None else outputs

    def hook(message):
        kind, content = message["msg_type"], message["content"]
        if kind == "error":
            errors.append(_plain("\n".join(content["traceback"])))
        elif kind == "stream":
            printed.append(content["text"] if content["name"] == "stdout" else "")
            outputs.append(nbformat.v4.new_output("stream", name=content["name"],
                                                  text=content["text"]))
        elif kind in ("display_data", "execute_result"):
            outputs.append(nbformat.v4.new_output(
                "display_data", data=content["data"], metadata=content["metadata"]))
        elif kind == "clear_output":
            outputs.clear()

    reply = client.execute_interactive(code, timeout=CELL_SECONDS, output_hook=hook,
                                       allow_stdin=False)
    if reply["content"]["status"] == "error" and not errors:
        errors.append(_plain("\n".join(reply["content"].get("traceback", []))))
    return errors, "".join(printed)


@pytest.fixture
def kernel(tmp_path):
    """A fresh python3 kernel over Unix sockets (two workers' kernels cannot be handed
    the same port), working in an empty folder as a downloaded notebook would."""
    manager = KernelManager(kernel_name="python3", transport="ipc",
                            ip=str(Path(tempfile.gettempdir()) / f"kernel-{uuid.uuid4().hex}"))
    # The checkout's package, wherever the kernel starts.
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))}
    manager.start_kernel(cwd=str(tmp_path), env=environment)
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        errors, _ = _run(client, BLOCK_UNDECLARED.format(blocked=blocked_modules(KERNEL)))
        assert not errors, errors
        refused, _ = _run(client, "import pytest")   # installed, but not declared
        assert refused and "not declared in pyproject.toml" in refused[0], refused
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
        manager.cleanup_resources()


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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_run_all_then_move_every_control(path, kernel):
    start = time.perf_counter()
    cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    ran = []
    for number, cell in enumerate(cells):
        outputs = []
        errors, _ = _run(kernel, "".join(cell["source"]), outputs)
        assert not errors, f"{path.name}, code cell {number} failed:\n{errors[0][-3000:]}"
        ran.append((cell, outputs))
    _assert_prints_what_the_chapter_stores(path, ran)
    errors, printed = _run(kernel, MOVE_EVERY_CONTROL)
    assert not errors, f"moving the controls failed:\n{errors[0][-3000:]}"
    report = json.loads(printed.split("MOVED ", 1)[1])
    assert report["explorers"] >= 1, "Run All made no interact explorer"
    assert report["moved"], "the explorers have no controls to move"
    assert not report["errors"], (
        f"{path.name}: an explorer fails when a control moves after Run All "
        f"(control, value, errors so far: {report['moved']}):\n"
        + _plain(report["errors"][0])[-3000:])
    print(f"{path.name}: {len(report['moved'])} moves, "
          f"{time.perf_counter() - start:.1f} s")
