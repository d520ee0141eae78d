"""How fast does each chapter's explorer answer a moved control? Driven in a kernel.

    .venv/bin/python benchmarks/explorers.py [chapters/NN_name.ipynb ...]

Each chapter of both editions (``chapters/`` and ``ru/chapters/``, or the ones named)
runs in a fresh kernel (papermill, at its default parameters) with one more cell
appended: it finds every ``ipywidgets.interactive`` the chapter made and sets each of
its controls to several new values in turn. Setting a value runs the explorer's function
and draws its figure, exactly as a reader's move would, so the time of one setting is the
time of one update. Each update is timed twice: on the wall clock, and in the kernel's
own processor time, which a busy machine (other jobs on the same cores) inflates far
less. The book wants the median update over every control's positions, and every
control's own median, at or under ``BUDGET_MS`` (issue 44), and controls that do not
update while a slider is dragged (``continuous_update=False``): a drag then costs one
update, not one per pixel.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import nbformat

from bookbuild.run import ROOT, chapters, execute

BUDGET_MS = 100
REPEATS = 3
#: How long one chapter and its driven updates may take before the run is tried again
#: (a hung kernel client, jupyter/nbclient#312, idles until then).
WALL_SECONDS = 150

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
        _times, _cpu = [], []
        for _ in range({repeats}):
            for _value in _new_values(_control):
                if _value == _control.value:
                    continue
                _start, _start_cpu = _time.perf_counter(), _time.process_time()
                _control.value = _value
                _times.append((_time.perf_counter() - _start) * 1e3)
                _cpu.append((_time.process_time() - _start_cpu) * 1e3)
        _report.append({{"control": _control.description, "updates": len(_times),
                        "times_ms": _times, "cpu_ms": _cpu,
                        "median_ms": _stats.median(_times) if _times else 0.0,
                        "worst_ms": max(_times, default=0.0),
                        "median_cpu_ms": _stats.median(_cpu) if _cpu else 0.0,
                        "continuous_update": getattr(_control, "continuous_update", None)}})
print("EXPLORER-TIMINGS " + _json.dumps(_report))
'''


def timings(path: Path, repeats: int = REPEATS) -> list[dict]:
    """One record per control of every explorer in the chapter at ``path``, each of its
    positions set ``repeats`` times."""
    nb = nbformat.read(str(path), as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(DRIVER.format(repeats=repeats)))
    with tempfile.TemporaryDirectory() as folder:
        driven = Path(folder) / path.name
        nbformat.write(nb, str(driven))
        # a busy machine can take minutes over a chapter and its updates: the wall
        # that catches a hung kernel client (bookbuild.run.execute) is set wide
        ran = execute(driven, Path(folder) / "out.ipynb", cwd=path.parent, wall=WALL_SECONDS,
                      tries=3)
    text = "".join(o.get("text", "") for o in ran.cells[-1].outputs)
    return json.loads(text.split("EXPLORER-TIMINGS ", 1)[1])


def summary(records: list[dict]) -> dict:
    """A chapter's numbers: the median update over every control's positions and its
    slowest update, on the wall clock and in the kernel's processor time, and the
    slowest control's median."""
    import statistics

    times = [t for r in records for t in r["times_ms"]]
    cpu = [t for r in records for t in r["cpu_ms"]]
    return {"median_ms": statistics.median(times) if times else 0.0,
            "slowest_ms": max(times, default=0.0),
            "median_cpu_ms": statistics.median(cpu) if cpu else 0.0,
            "slowest_cpu_ms": max(cpu, default=0.0),
            "slowest_control_ms": max((r["median_ms"] for r in records), default=0.0),
            "slowest_control_cpu_ms": max((r["median_cpu_ms"] for r in records),
                                          default=0.0)}


def main(arguments: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="chapters (default: both editions')")
    parser.add_argument("--repeats", type=int, default=REPEATS,
                        help=f"times each position is set (default {REPEATS})")
    options = parser.parse_args(arguments)
    slow = 0
    every = chapters() + sorted((ROOT / "ru" / "chapters").glob("*.ipynb"))
    for path in [Path(p) for p in options.paths] or every:
        try:
            records = timings(path, options.repeats)
        except Exception as error:   # one chapter that fails to run spoils no other's
            print(f"{path.name}: did not run ({type(error).__name__}: {error})", flush=True)
            slow += 1
            continue
        numbers = summary(records)
        dragging = [r["control"] for r in records if r["continuous_update"]]
        verdict = "ok" if numbers["median_ms"] <= BUDGET_MS and not dragging else "SLOW"
        slow += verdict != "ok"
        name = str(path.resolve().relative_to(ROOT)) if path.resolve().is_relative_to(ROOT) \
            else path.name
        print(f"{name:34s} {len(records):2d} controls: median update "
              f"{numbers['median_ms']:5.0f} ms, slowest {numbers['slowest_ms']:5.0f} ms "
              f"(processor {numbers['median_cpu_ms']:4.0f} / "
              f"{numbers['slowest_cpu_ms']:4.0f} ms; budget {BUDGET_MS}) {verdict}"
              + (f"; updates while dragging: {', '.join(dragging)}" if dragging else ""),
              flush=True)
        for r in records:
            print(f"    {r['control']:>28s}: median {r['median_ms']:5.0f} ms "
                  f"(processor {r['median_cpu_ms']:4.0f}), worst {r['worst_ms']:5.0f} ms "
                  f"over {r['updates']} updates", flush=True)
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
