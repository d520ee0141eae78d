"""Execute chapters with papermill and strip what changes from run to run.

Shared by ``bookbuild/outputs.py`` (rewrites the stored outputs on purpose) and by the
tests (which execute into a temporary folder and never touch the committed notebooks).
Reads a chapter (its kernel imports ``reliability`` and reads ``data/``); writes the
executed notebook where it is told, and nothing else.
"""

from __future__ import annotations

import ast
import json
import multiprocessing
import os
import queue
import tempfile
import uuid
from pathlib import Path

import nbformat
import papermill
from jupyter_client.manager import AsyncKernelManager

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = ROOT / "chapters"
#: The book's Sphinx extensions (_config.yml's ``local_extensions``), a folder of
#: modules, not a package.
EXTENSIONS = ROOT / "book" / "_ext"


def sphinx_extension(name: str):
    """The module ``book/_ext/<name>.py``, loaded from its file once and kept in
    ``sys.modules`` under ``name``, the name Sphinx imports it by: a test or a stage reads
    an extension without putting its folder on ``sys.path``."""
    import importlib.util
    import sys

    path = EXTENSIONS / f"{name}.py"
    if not path.is_file():
        raise ValueError(f"name must be a module in {EXTENSIONS}, got {name!r}")
    loaded = sys.modules.get(name)
    if loaded is not None and Path(getattr(loaded, "__file__", "")) == path:
        return loaded
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module

# papermill stamps these on every run (and the widget state would make the static page
# fetch widget JavaScript from a CDN); they would make an unchanged chapter show a diff.
VOLATILE_NOTEBOOK_KEYS = ("papermill", "widgets")
VOLATILE_CELL_KEYS = ("papermill", "execution")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def chapters() -> list[Path]:
    """Every chapter notebook, in file-name (reading) order."""
    return sorted(CHAPTERS.glob("*.ipynb"))


def declared_parameters(path: Path) -> dict:
    """The changed parameters a chapter asks the tests to run it with
    (``metadata.reliability.test_parameters``)."""
    nb = json.loads(path.read_text())
    return nb["metadata"].get("reliability", {}).get("test_parameters", {})


def parameter_defaults(path: Path) -> dict:
    """The names and default values assigned in a chapter's cell tagged ``parameters``."""
    nb = json.loads(Path(path).read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and "parameters" in cell["metadata"].get("tags", []):
            tree = ast.parse("".join(cell["source"]))
            return {target.id: ast.literal_eval(node.value) for node in tree.body
                    if isinstance(node, ast.Assign) for target in node.targets
                    if isinstance(target, ast.Name)}
    raise ValueError(f"{Path(path).name} has no code cell tagged 'parameters'")


#: A whole notebook run longer than this is taken as hung (see :func:`execute`). The
#: longest chapter run the tests make, at the top of its ranges, took 58 s in CI's test
#: run (two workers on two cores) and over 90 s on a machine loaded four times over,
#: where a 90 s limit killed a run that was not hung and ran it again; a hang costs
#: this much before the retry, every time.
WALL_SECONDS = 150


#: An IPython start-up file for test runs that replaces ipywidgets' ``interact`` and the
#: controls the chapters use with stand-ins: the explorer's function is called once with
#: the controls' values (so its figure is drawn and audited), and no widget is made.
INTERACT_ONCE = '''"""Test runs only (bookbuild/run.py): interact() calls its function
once."""
import ipywidgets


class _Control:
    """A slider's value as the real one keeps it: within its range (a log slider's range
    is in powers of its base), or a dropdown's first option."""

    def __init__(self, value=None, options=None, min=None, max=None, base=None,
                 **kwargs):
        if value is None and options is not None:
            value = next(iter(options.values() if isinstance(options, dict) else options))
        if base is not None:
            min, max = (None if m is None else base ** m for m in (min, max))
        if min is not None and value is not None and value < min:
            value = min
        if max is not None and value is not None and value > max:
            value = max
        self.value = value


def _interact(function=None, **controls):
    def run(f):
        f(**{name: control.value if isinstance(control, _Control) else control
             for name, control in controls.items()})
        return f
    return run if function is None else run(function)


class _LogControl(_Control):
    def __init__(self, value=None, base=10.0, **kwargs):
        super().__init__(value=value, base=base, **kwargs)


for _name in ("FloatSlider", "IntSlider", "Dropdown", "SelectionSlider", "Checkbox",
              "RadioButtons", "ToggleButtons"):
    setattr(ipywidgets, _name, type(_name, (_Control,), {}))
ipywidgets.FloatLogSlider = _LogControl
ipywidgets.interact = _interact
'''


def interact_once_environment(folder: Path) -> dict:
    """Kernel environment variables under which ``interact`` runs its function once and
    makes no widget (an IPython profile in ``folder`` whose start-up file does it)."""
    startup = Path(folder) / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    (startup / "00-interact-once.py").write_text(INTERACT_ONCE)
    return {"IPYTHONDIR": str(folder)}


def execute(path: Path, output: Path, parameters: dict | None = None, *,
            timeout: int = 300, kernel_name: str = "python3", cwd: Path | None = None,
            tries: int = 3, wall: float = WALL_SECONDS,
            environment: dict | None = None, widgets: bool = True) -> nbformat.NotebookNode:
    """Run ``path`` with papermill into ``output``, in the chapter's folder (or ``cwd``).

    A cell that runs past ``timeout`` seconds fails the run. Separately, nbclient can
    deadlock after an ipywidgets ``interact`` cell, with both kernel and client idle and
    no timeout firing (jupyter/nbclient#312, intermittent): so papermill runs in a child
    process, and a run that has not finished after ``wall`` seconds is killed and tried
    again, up to ``tries`` times, before it fails with ``TimeoutError``. ``environment``
    adds variables to the kernel's environment. With ``widgets=False`` (the tests) an
    ``interact`` cell calls its function once with its controls' values and makes no
    widget (:data:`INTERACT_ONCE`): the deadlock follows widgets, and each one cost a
    ``wall`` of waiting.
    """
    if widgets:
        return _execute(path, output, parameters, timeout, kernel_name, cwd, tries, wall,
                        environment)
    # The stand-in's IPython profile lives as long as this run, and no longer.
    with tempfile.TemporaryDirectory(prefix="ipython-interact-once-",
                                     ignore_cleanup_errors=True) as profile:
        return _execute(path, output, parameters, timeout, kernel_name, cwd, tries, wall,
                        {**interact_once_environment(Path(profile)), **(environment or {})})


def _execute(path, output, parameters, timeout, kernel_name, cwd, tries, wall,
             environment) -> nbformat.NotebookNode:
    # A fork server that has imported papermill once: each run is still a child of its
    # own (killed if it hangs), started in milliseconds instead of 2 s of imports. The
    # server's environment is the one it started with, so each child is sent the
    # caller's as it is now (a test's JUPYTER_PATH, say) and runs under it alone.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["papermill", "bookbuild.run"])
    for _ in range(tries):
        replies = context.Queue()
        child = context.Process(target=_execute_in_child, args=(
            str(path), str(output), parameters or {}, str(cwd or Path(path).parent),
            kernel_name, timeout, replies, {**os.environ, **(environment or {})}))
        child.start()
        try:
            error = replies.get(timeout=wall)
        except queue.Empty:
            child.kill()
            child.join()
            continue
        child.join()
        if error is not None:
            raise error
        return nbformat.read(str(output), as_version=4)
    raise TimeoutError(f"{Path(path).name} did not finish in {wall} s, "
                       f"{tries} times (a hung kernel client: jupyter/nbclient#312)")


class LocalSocketKernelManager(AsyncKernelManager):
    """A kernel that talks over Unix sockets named after its own connection file, not over
    TCP: two kernels started at once (two test workers) can be handed the same free port,
    and a client then waits for ever for a reply that went to the other kernel."""

    def __init__(self, **kwargs):
        kwargs.setdefault("transport", "ipc")
        # Unique socket names in the temporary folder (the default is relative to the
        # kernel's working folder, where several kernels run at once).
        kwargs.setdefault("ip", str(Path(tempfile.gettempdir()) / f"kernel-{uuid.uuid4().hex}"))
        super().__init__(**kwargs)


def _execute_in_child(path, output, parameters, cwd, kernel_name, timeout, replies,
                      environment):
    os.environ.clear()
    os.environ.update(environment)
    try:
        papermill.execute_notebook(
            path, output, parameters=parameters, cwd=cwd, kernel_name=kernel_name,
            progress_bar=False, execution_timeout=timeout,
            kernel_manager_class=LocalSocketKernelManager)
    except Exception as error:  # sent back whole, so the caller sees papermill's error
        replies.put(error)
    else:
        replies.put(None)


def strip_volatile(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Drop papermill's timestamps and timings, keep outputs and execution counts."""
    for key in VOLATILE_NOTEBOOK_KEYS:
        nb.metadata.pop(key, None)
    for cell in nb.cells:
        for key in VOLATILE_CELL_KEYS:
            cell.metadata.pop(key, None)
        if cell.cell_type == "code":
            cell.outputs = merged_streams(cell.outputs)
            for output in cell.get("outputs", []):
                output.get("metadata", {}).pop("papermill", None)
                # A widget view names a fresh random model id every run and cannot render
                # without the (stripped) widget state; its text/plain fallback stays.
                output.get("data", {}).pop(WIDGET_VIEW, None)
    nb.metadata.get("kernelspec", {}).update(
        {"name": "python3", "display_name": "Python 3", "language": "python"})
    return nb


def merged_streams(outputs):
    """Join consecutive prints to the same stream: how the kernel chunks them depends on
    timing, so the stored notebook would otherwise differ between identical runs."""
    merged = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (output.get("output_type") == "stream" and previous is not None
                and previous.get("output_type") == "stream"
                and previous.get("name") == output.get("name")):
            previous["text"] = "".join(previous["text"]) + "".join(output["text"])
        else:
            merged.append(output)
    return merged


def text_outputs(nb: nbformat.NotebookNode) -> list[str]:
    """Every text output of every code cell, for comparing two runs of one chapter."""
    texts = []
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if "text" in output:
                texts.append(output["text"])
            for mime in ("text/plain", "text/html"):
                if mime in output.get("data", {}):
                    texts.append(output["data"][mime])
    return texts
