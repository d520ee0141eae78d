"""The kernel explorers by hand, in real JupyterLab: a student runs all cells of a launch
notebook, then drags a slider. One step of every slider must be a few pixels of track at
a phone's width (390 px) and at a desktop's (1280 px), and the slider's readout must show
its value whole (issue 42, item 2: chapter 4's pass^1 slider once had 91 steps in 42 px,
so a drag jumped 0.61 -> 0.80 -> 0.19).

JupyterLab at the book's pinned version (binder/requirements.txt) is installed into an
environment of its own, as Binder installs it; its kernel is this checkout's Python. Each
launch notebook of both editions is opened in headless Chromium, run with Run > Run All
Cells, and every slider's track, readout and description are measured in the page; a cell
added at the end reports each slider's range and step from the kernel."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from bookbuild import launch_notebooks
from bookbuild.book_pdf import CHROMIUM, CHROMIUM_ARGS
from bookbuild.run import ROOT, chapters

pytestmark = pytest.mark.xdist_group(name="real-widgets-lab")

NOTEBOOKS = [folder / p.name for folder in (launch_notebooks.NOTEBOOKS,
                                            launch_notebooks.RU_NOTEBOOKS)
             for p in chapters()]
IDS = [f"{'ru-' if folder == launch_notebooks.RU_NOTEBOOKS else ''}{p.stem}"
       for folder in (launch_notebooks.NOTEBOOKS, launch_notebooks.RU_NOTEBOOKS)
       for p in chapters()]
#: The widths a student reads at: a phone's and a desktop's, in CSS px.
WIDTHS = {"phone": 390, "desktop": 1280}
#: The least track one step of a slider may have, in CSS px: a thumb moved by hand
#: lands within a step or two of where the finger stops.
STEP_PX = 2.0
#: Seconds Run All of one notebook may take.
RUN_SECONDS = 180
KERNEL = "book-checkout"

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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pins(names: tuple[str, ...]) -> list[str]:
    lines = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    return [line for line in lines if line.split("==")[0] in names]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab at the book's pins, serving a folder, with this checkout's kernel."""
    home = tmp_path_factory.mktemp("lab")
    env_dir = Path(os.environ.get("RELIABILITY_LAB_ENV", home / "env"))
    python = env_dir / "bin" / "python"
    if not (env_dir / "bin" / "jupyter-lab").exists():
        subprocess.run([sys.executable, "-m", "venv", env_dir], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet",
                        *_pins(("jupyterlab", "jupyterlab_widgets"))], check=True)
    # every cell in the page, laid out, whether scrolled to or not (no windowing)
    settings = env_dir / "share" / "jupyter" / "lab" / "settings"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "overrides.json").write_text(json.dumps({
        "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}))
    kernels = home / "share" / "jupyter" / "kernels" / KERNEL
    kernels.mkdir(parents=True)
    (kernels / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (book)", "language": "python",
        "env": {"PYTHONPATH": str(ROOT)}}))
    root = home / "root"
    root.mkdir()
    port, token = _free_port(), "reliability-test"
    env = {**os.environ, "JUPYTER_PATH": str(home / "share" / "jupyter"),
           "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_DATA_DIR": str(home / "data"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    server = subprocess.Popen(
        [env_dir / "bin" / "jupyter-lab", "--no-browser", "--allow-root", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
         "--LabApp.news_url=", "--LabApp.check_for_updates_class="
         "jupyterlab.NeverCheckForUpdate"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            time.sleep(0.5)
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


def _run_all(page, name: str) -> list[dict]:
    """Run > Run All Cells, then the sliders the kernel reports from the last cell."""
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    for _ in range(20):   # "Select Kernel" when the lab asks: the notebook's own kernel
        if page.locator(".jp-Dialog .jp-mod-accept").count():
            page.locator(".jp-Dialog .jp-mod-accept").first.click()
            break
        page.wait_for_timeout(500)
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']",
                           timeout=120_000)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    report = page.locator(".jp-OutputArea-output", has_text="SLIDERS ")
    try:
        report.wait_for(state="attached", timeout=RUN_SECONDS * 1000)
    except Exception:
        page.screenshot(path=str(ROOT / "test-artifacts" / f"lab-{name}.png"), full_page=True)
        raise
    text = report.inner_text()
    return json.loads(text.split("SLIDERS ", 1)[1].strip())


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_every_slider_has_a_few_pixels_a_step_and_shows_its_value(path, lab, chromium):
    root, base, token = lab
    nb = nbformat.read(str(path), as_version=4)
    nb.metadata["kernelspec"] = {"name": KERNEL, "display_name": "Python 3 (book)",
                                 "language": "python"}
    nb.cells.append(nbformat.v4.new_code_cell(REPORT.strip()))
    name = f"{'ru-' if path.is_relative_to(launch_notebooks.RU_NOTEBOOKS) else ''}{path.name}"
    nbformat.write(nb, str(root / name))
    page = chromium.new_page(viewport={"width": WIDTHS["desktop"], "height": 900})
    try:
        page.goto(f"{base}/lab/tree/{name}?token={token}&reset", timeout=120_000)
        sliders = _run_all(page, name)
        assert sliders, f"{name}: Run All made no slider"
        steps = {s["description"]: (s["max"] - s["min"]) / s["step"] for s in sliders}
        problems = []
        for label, width in WIDTHS.items():
            if label == "phone":   # on a phone the file browser is folded away
                page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")\
                    .first.click()
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
        assert not problems, f"{name}:\n" + "\n".join(problems)
    finally:
        page.close()
        _shut_down_kernels(base, token)


def _shut_down_kernels(base: str, token: str) -> None:
    """Closing the tab leaves its kernel running in the lab: shut every kernel down, so
    the next notebook does not share the machine with the ones before it."""
    import urllib.request

    headers = {"Authorization": f"token {token}"}
    with urllib.request.urlopen(urllib.request.Request(f"{base}/api/kernels",
                                                       headers=headers)) as listed:
        kernels = json.loads(listed.read())
    for kernel in kernels:
        request = urllib.request.Request(f"{base}/api/kernels/{kernel['id']}",
                                         headers=headers, method="DELETE")
        urllib.request.urlopen(request).close()
