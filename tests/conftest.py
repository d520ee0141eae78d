from pathlib import Path

# The build's modules (bookbuild/: papermill runs, the editions, the site) are imported
# from the repository's root (pyproject.toml's pytest `pythonpath`), so that `make
# outputs` and the tests share them.

# Property-based tests draw the same examples on every run, so a pass or a failure in CI
# is one that anyone can reproduce (a failure still names its falsifying example).
from hypothesis import settings

settings.register_profile("reproducible", derandomize=True, database=None)
settings.load_profile("reproducible")


import fcntl  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """Both editions built once per test run (English at the site's root, Russian under
    ru/, each with its PDF) by bookbuild/site.py, shared by every test module and
    every xdist worker: the first to ask builds, under a lock, the others wait and reuse.
    When `make book` has built the checkout's present files (bookbuild.site.reuse), its
    site is copied instead of built a second time.
    Returns the site folder and the build's result (return codes and logs)."""
    import bookbuild.site

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # shared by the workers of this run
    out, done = root / "book", root / "book.json"
    with open(root / "book.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            # `make book` built these very files already: its site is this one
            result = bookbuild.site.reuse(out)
            if result is None:
                for script in ("vendor_assets.sh", "ensure_browser.sh"):
                    ran = subprocess.run(["bash", str(Path(__file__).resolve().parent.parent
                                                      / "scripts" / script)],
                                         capture_output=True, text=True)
                    assert ran.returncode == 0, \
                        f"scripts/{script}:\n{ran.stdout}\n{ran.stderr}"
                result = bookbuild.site.build(out)
            done.write_text(json.dumps(result))
    return bookbuild.site.site(out), json.loads(done.read_text())


# --- where the test run's time goes ------------------------------------------------
# Every test is timed by kind, and the run ends with one table: the seconds spent inside
# papermill runs (bookbuild.run.execute) and inside book builds (bookbuild.site.build),
# measured where they happen, then the rest of each test's time by what the test
# drives: a browser (the browser_context fixture, or Playwright started in the test), a
# kernel with real widgets (the kernel fixture), an emulated Binder, Colab, pip or hub
# environment (test_environments.py, the hub fixture), or nothing heavy. With xdist the
# workers' times add up (two workers: about twice the wall-clock time).
# `--durations=25` (make test) lists the slowest tests themselves.
import functools  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

#: The kinds in the order the table lists them.
COST_KINDS = ("papermill runs", "book builds", "browser tests", "real-widget kernels",
              "environment emulations", "the rest")
#: Seconds spent so far in this process inside the measured calls, by kind.
_SPENT = {"papermill runs": 0.0, "book builds": 0.0}
#: The same at the end of the last test phase: a phase spent the difference.
_SPENT_BEFORE = dict(_SPENT)
_BROWSER_STARTED = []


def _timed(function, kind):
    """``function``, adding the wall-clock time spent inside it to ``_SPENT[kind]``;
    calls that overlap (the grader runs several notebooks at once) count once."""
    lock, running, since = threading.Lock(), [0], [0.0]

    @functools.wraps(function)
    def timed(*args, **kwargs):
        with lock:
            if not running[0]:
                since[0] = time.perf_counter()
            running[0] += 1
        try:
            return function(*args, **kwargs)
        finally:
            with lock:
                running[0] -= 1
                if not running[0]:
                    _SPENT[kind] += time.perf_counter() - since[0]
    return timed


def _measure_the_expensive_calls() -> None:
    """Wrap the calls whose time is measured, before any test module imports them."""
    import bookbuild.run
    import bookbuild.site

    bookbuild.run.execute = _timed(bookbuild.run.execute, "papermill runs")
    bookbuild.site.build = _timed(bookbuild.site.build, "book builds")
    try:
        from playwright import sync_api
    except ImportError:
        return
    started = sync_api.sync_playwright

    @functools.wraps(started)
    def sync_playwright(*args, **kwargs):
        _BROWSER_STARTED.append(True)
        return started(*args, **kwargs)

    sync_api.sync_playwright = sync_playwright


_measure_the_expensive_calls()


def _kind(item) -> str:
    """What a test drives, for the time left after its papermill runs and book
    builds."""
    fixtures = set(getattr(item, "fixturenames", ()))
    if "lab" in fixtures:   # a launch notebook run in real JupyterLab
        return "real-widget kernels"
    if "browser_context" in fixtures or _BROWSER_STARTED:
        return "browser tests"
    if "kernel" in fixtures:
        return "real-widget kernels"
    module = getattr(getattr(item, "module", None), "__name__", "")
    if module == "test_environments" or "hub" in fixtures:
        return "environment emulations"
    return "the rest"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Each phase's report carries its kind and the measured seconds it spent."""
    outcome = yield
    report = outcome.get_result()
    spent = {kind: _SPENT[kind] - _SPENT_BEFORE[kind] for kind in _SPENT}
    _SPENT_BEFORE.update(_SPENT)
    report.user_properties.append(("cost", {"kind": _kind(item), **spent}))
    if call.when == "teardown":
        _BROWSER_STARTED.clear()


_COST = dict.fromkeys(COST_KINDS, 0.0)
_COST_TESTS = {kind: set() for kind in COST_KINDS}


def pytest_runtest_logreport(report):
    """Add up each phase's seconds (on the controller too, from every xdist worker)."""
    cost = dict(report.user_properties).get("cost")
    if cost is None:
        return
    measured = 0.0
    for kind in _SPENT:
        if cost.get(kind, 0.0) > 0:
            _COST[kind] += cost[kind]
            _COST_TESTS[kind].add(report.nodeid)
            measured += cost[kind]
    _COST[cost["kind"]] += max(report.duration - measured, 0.0)
    if report.when == "call":
        _COST_TESTS[cost["kind"]].add(report.nodeid)


def pytest_terminal_summary(terminalreporter, config):
    if hasattr(config, "workerinput") or not any(_COST.values()):
        return
    total = sum(_COST.values())
    # a test with a papermill run or a book build is counted there, not again as the
    # rest
    measured = set().union(*(_COST_TESTS[kind] for kind in _SPENT))
    _COST_TESTS["the rest"] -= measured
    write = terminalreporter.write_line
    terminalreporter.section("where the time goes (seconds, summed over workers)")
    for kind in COST_KINDS:
        write(f"{kind:<24}{_COST[kind]:>9.0f} s {_COST[kind] / total:>6.1%}  "
              f"({len(_COST_TESTS[kind])} tests)")
    write(f"{'total':<24}{total:>9.0f} s")


# --- which module runs first ---------------------------------------------------------
# `make test` hands each test module to one worker whole (`--dist loadscope`), the next
# module to a worker with two tests or fewer left. xdist orders the modules by their
# number of tests, so the modules of few long tests came last: in a run of 7 December
# the real model's (1 test, 91 s) and the hub's (2 tests, 82 s) were the last two handed
# out, and one worker could take both while the other had nothing left (the last
# hundred seconds or so of a run on one processor). Handing out the longest modules
# first (the longest-processing-time rule) leaves only short ones for the end.

#: Seconds a test module takes on one worker (set-ups and tear-downs included), from a
#: full run after `make book` (its --junitxml); only the order matters. A module not
#: listed takes under 10 s and goes after these, the most tests first, as xdist had it.
MODULE_SECONDS: dict[str, float] = {
    "test_notebooks.py": 518, "test_browser.py": 428, "test_environments.py": 271,
    "test_real_widgets.py": 196, "test_real_widgets_ru.py": 186, "test_pdf.py": 92,
    "test_lab_model.py": 91, "test_hub.py": 82, "test_teaching_cells.py": 57,
    "test_slides.py": 48, "test_grade.py": 42, "test_bad_input.py": 31,
    "test_legibility.py": 26, "test_glue.py": 20, "test_simulated_intervals.py": 18,
    "test_lab_measure.py": 13, "test_passk.py": 11, "test_live_contract.py": 10,
}


def pytest_xdist_make_scheduler(config, log):
    """`--dist loadscope`, the longest modules handed out first (MODULE_SECONDS)."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class LongestFirst(LoadScopeScheduling):
        ordered = False

        def _assign_work_unit(self, node):
            # the first call comes with the queue whole, before anything is handed out
            if not self.ordered:
                self.ordered = True
                scopes = sorted(self.workqueue.items(), key=lambda scope: (
                    -MODULE_SECONDS.get(Path(scope[0].split("::")[0]).name, 0.0),
                    -len(scope[1])))
                self.workqueue.clear()
                self.workqueue.update(scopes)
            super()._assign_work_unit(node)

    return LongestFirst(config, log)
