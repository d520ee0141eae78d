"""How fast does each live explorer redraw in the browser?

    .venv/bin/python benchmarks/live_explorers.py [--html _build/html]

Opens every page that holds a live explorer (reliability/live.py, book/_static/live.js) in
Debian's headless Chromium, at desktop and phone widths, and moves each explorer through
every position of each control, one step at a time, as a reader dragging a slider would.
Each step's time is the script's own work: looking the frame up, redrawing the SVG chart
and writing the sentence (``liveExplorers[name].set``), then the browser's layout of the
result. Each step is timed in five sweeps and its best time kept (the machine's other
work only ever adds time); the budget is one animation frame, 16 ms, for the slowest step.

Without ``--html`` the book is built from its stored outputs into a temporary folder.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bookbuild.book_pdf import CHROMIUM, CHROMIUM_ARGS, serve

ROOT = Path(__file__).resolve().parent.parent

FRAME_BUDGET_MS = 16.0
REPEATS = 5
WIDTHS = {"desktop": 1280, "phone": 390}

_SWEEP_JS = """(name) => {
    const explorer = window.liveExplorers[name];
    const times = [];
    for (const control of explorer.controls) {
        for (const value of control.values) {
            const start = performance.now();
            explorer.set({[control.name]: value});
            document.body.offsetHeight;            // force the layout the redraw causes
            times.push(performance.now() - start);
        }
    }
    return times;
}"""


def _build() -> Path:
    out = Path(tempfile.mkdtemp(prefix="live-bench-"))
    jb = Path(sys.executable).parent / "jupyter-book"
    subprocess.run([str(jb), "build", str(ROOT), "--path-output", str(out)], check=True,
                   capture_output=True, cwd=ROOT)
    return out / "_build" / "html"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, help="a built book (default: build one)")
    html = parser.parse_args().html or _build()
    pages = sorted(p for p in html.glob("chapters/*.html")
                   if 'class="live-explorer"' in p.read_text())
    if not pages:
        print("no page holds a live explorer")
        return 1
    from playwright.sync_api import sync_playwright

    worst_all = 0.0
    print(f"{'explorer':<22}{'width':>8}{'steps':>7}{'median ms':>11}{'slowest ms':>12}")
    with serve(html) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                     args=CHROMIUM_ARGS)
        for page in pages:
            for width_name, width in WIDTHS.items():
                tab = browser.new_page(viewport={"width": width, "height": 900})
                tab.goto(f"{base}/{page.relative_to(html)}")
                # live.js builds an explorer as it nears the view: scroll to each
                for root in tab.locator(".live-explorer").all():
                    root.scroll_into_view_if_needed()
                    root.locator("svg.live-svg").wait_for()
                for name in tab.evaluate("Object.keys(window.liveExplorers)"):
                    tab.evaluate(_SWEEP_JS, name)          # warm up: the first pass JITs
                    sweeps = [tab.evaluate(_SWEEP_JS, name) for _ in range(REPEATS)]
                    times = [min(step) for step in zip(*sweeps)]
                    worst = max(times)
                    worst_all = max(worst_all, worst)
                    print(f"{name:<22}{width_name:>8}{len(times):>7}"
                          f"{statistics.median(times):>11.2f}{worst:>12.2f}")
                tab.close()
        browser.close()
    verdict = "within budget" if worst_all <= FRAME_BUDGET_MS else "OVER BUDGET"
    print(f"\nslowest update {worst_all:.2f} ms (budget {FRAME_BUDGET_MS:.0f} ms, one "
          f"animation frame): {verdict}")
    return 0 if worst_all <= FRAME_BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
