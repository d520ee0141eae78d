"""How fast does each chapter's explorer answer a moved control? Driven in a kernel.

    .venv/bin/python benchmarks/explorers.py [chapters/NN_name.ipynb ...]

Each chapter runs in a fresh kernel (papermill, at its default parameters) with one more
cell appended: it finds every ``ipywidgets.interactive`` the chapter made and sets each of
its controls to several new values in turn. Setting a value runs the explorer's function
and draws its figure, exactly as a reader's move would, so the time of one setting is the
time of one update. The book wants the median update under ``BUDGET_MS`` and controls that
do not update while a slider is dragged (``continuous_update=False``): a drag then costs one
update, not one per pixel.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import nbformat

from bookbuild.run import chapters, execute

BUDGET_MS = 150
REPEATS = 3

DRIVER = '''
import json as _json, statistics as _stats, time as _time
import ipywidgets as _ipw
from ipywidgets.widgets.widget import _instances as _widgets

def _new_values(control):
    """Values to move ``control`` to: its ends and middle, or every option."""
    if hasattr(control, "options"):   # a list of values, or of (label, value) pairs
        return [o[1] if isinstance(o, tuple) and len(o) == 2 else o
                for o in control.options]
    if isinstance(control.value, bool):
        return [not control.value, control.value]
    low, high = control.min, control.max
    middle = type(control.value)((low + high) / 2) if isinstance(control.value, int) \\
        else (low + high) / 2
    return [low, high, middle, control.value]

_report = []
for _w in list(_widgets.values()):
    if not isinstance(_w, _ipw.interactive):
        continue
    for _control in _w.kwargs_widgets:
        _times = []
        for _ in range({repeats}):
            for _value in _new_values(_control):
                if _value == _control.value:
                    continue
                _start = _time.perf_counter()
                _control.value = _value
                _times.append((_time.perf_counter() - _start) * 1e3)
        _report.append({{"control": _control.description, "updates": len(_times),
                        "median_ms": _stats.median(_times) if _times else 0.0,
                        "worst_ms": max(_times, default=0.0),
                        "continuous_update": getattr(_control, "continuous_update", None)}})
print("EXPLORER-TIMINGS " + _json.dumps(_report))
'''


def timings(path: Path) -> list[dict]:
    """One record per control of every explorer in the chapter at ``path``."""
    nb = nbformat.read(str(path), as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(DRIVER.format(repeats=REPEATS)))
    with tempfile.TemporaryDirectory() as folder:
        driven = Path(folder) / path.name
        nbformat.write(nb, str(driven))
        ran = execute(driven, Path(folder) / "out.ipynb", cwd=path.parent)
    text = "".join(o.get("text", "") for o in ran.cells[-1].outputs)
    return json.loads(text.split("EXPLORER-TIMINGS ", 1)[1])


def main(paths: list[str]) -> int:
    slow = 0
    for path in [Path(p) for p in paths] or chapters():
        records = timings(path)
        worst = max((r["median_ms"] for r in records), default=0.0)
        dragging = [r["control"] for r in records if r["continuous_update"]]
        verdict = "ok" if worst <= BUDGET_MS and not dragging else "SLOW"
        slow += verdict != "ok"
        print(f"{path.stem:28s} {len(records):2d} controls, slowest median update "
              f"{worst:6.0f} ms (budget {BUDGET_MS}) {verdict}"
              + (f"; updates while dragging: {', '.join(dragging)}" if dragging else ""))
        for r in records:
            print(f"    {r['control']:>20s}: median {r['median_ms']:6.0f} ms, "
                  f"worst {r['worst_ms']:6.0f} ms over {r['updates']} updates")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
