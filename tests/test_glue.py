"""Glued numbers are stored at a fixed number of significant digits, more than any page
shows and fewer than the bits that differ between machines, so a re-run elsewhere stores
the same text (nbval compares it exactly) and the page shows what it always showed."""

import contextlib
import io
import math
import re

import nbformat
import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from bookbuild import launch_notebooks
from bookbuild.run import chapters
from reliability import notebook
from reliability.notebook import GLUE_DIGITS, glued
from reliability.notebook.glue import expanded
from reliability.numbers import glued_text

CHAPTERS = chapters()
# Chapters whose numbers come from a fit, an optimiser or linear algebra (scipy.optimize's
# least_squares, linprog and brentq; numpy.linalg), i.e. from the BLAS and its threads.
NUMERICAL = [p for p in CHAPTERS if p.stem in ("04_pass_k", "05_self_correction",
                                               "07_budgets_and_loops")]


def _shown_digits(text: str) -> int:
    """Significant digits in a formatted number: '43.4%' has 3, '0.0500' has 3, '1,200' 4."""
    mantissa = re.split(r"[eE]", text)[0]
    return len(re.sub(r"\D", "", mantissa).lstrip("0")) or 1


def _citations(path):
    nb = nbformat.read(str(path), as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for body in re.findall(r"\{glue(?::text)?\}`([^`]+)`", cell.source):
                key, _, spec = body.rpartition(":") if ":" in body else (body, "", "s")
                yield key, spec


def _is_float(text: str) -> bool:
    try:
        return isinstance(eval(text, {"nan": math.nan, "inf": math.inf}), float)
    except Exception:
        return False


def test_glued_rounds_floats_only():
    assert glued(np.float64(0.9199999999999999)) == 0.92
    assert repr(glued(0.29105676951415643)) == "0.2910568"
    assert glued(np.int64(2576)) == 2576 and isinstance(glued(np.int64(3)), int)
    assert glued(np.bool_(True)) is True
    assert math.isnan(glued(float("nan"))) and glued(math.inf) == math.inf
    assert glued("text") == "text"
    assert glued(123_456_789.0) == 123_456_800.0  # seven digits, whatever the magnitude


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_stored_floats_carry_glue_digits_and_the_page_fewer(path):
    """No glued float is stored at full precision, and every {glue:text} format shows
    fewer significant digits than are stored, so rounding at GLUE_DIGITS never moves a
    digit the reader sees."""
    stored = launch_notebooks.glued_values(nbformat.read(str(path), as_version=4))
    for key, text in stored.items():
        if _is_float(text):
            value = eval(text, {"nan": math.nan, "inf": math.inf})
            assert math.isnan(value) or repr(glued(value)) == text, \
                f"{key} is stored as {text}: glue it with glue_values (make outputs)"
    for key, spec in _citations(path):
        if _is_float(stored[key]):
            shown = glued_text(stored[key], spec)
            assert _shown_digits(shown) < GLUE_DIGITS, \
                f"{key}:{spec} shows {shown}, {GLUE_DIGITS}+ significant digits; " \
                "raise GLUE_DIGITS or show fewer"


def _run_in_process(path):
    """Run a chapter's code cells here (not in a kernel, so threadpoolctl reaches its BLAS),
    returning per cell what it printed and what it glued, as stored text."""
    nb = nbformat.read(str(path), as_version=4)
    namespace = {"__name__": "__chapter__"}
    printed, glued_text = {}, {}

    def capture(**values):   # a Sampled value glues its number and its two bounds
        glued_text.update({name: repr(glued(value))
                           for name, value in expanded(values).items()})

    original = notebook.glue_values
    notebook.glue_values = capture
    try:
        import matplotlib

        matplotlib.use("Agg")
        for index, cell in enumerate(nb.cells):
            tags = cell.metadata.get("tags", [])
            if cell.cell_type != "code" or "nbval-ignore-output" in tags:
                continue
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(cell.source, f"{path.stem}[{index}]", "exec"), namespace)
            printed[index] = out.getvalue()
    finally:
        notebook.glue_values = original
        import matplotlib.pyplot as plt

        plt.close("all")
    return printed, glued_text


def _stored(path):
    nb = nbformat.read(str(path), as_version=4)
    printed = {i: "".join(o["text"] for o in c.get("outputs", [])
                          if o.get("output_type") == "stream" and o.get("name") == "stdout")
               for i, c in enumerate(nb.cells) if c.cell_type == "code"}
    return printed, launch_notebooks.glued_values(nb)


@pytest.mark.parametrize("path", NUMERICAL, ids=[p.stem for p in NUMERICAL])
def test_fitted_and_optimised_numbers_do_not_depend_on_blas_threads(path):
    """Every glued and printed number of the chapters that fit, optimise or solve, computed
    with the BLAS on one thread and on its default, is the stored text. (The machine's own
    BLAS environment variables are left as they are.)"""
    from threadpoolctl import threadpool_info

    stored_printed, stored_glued = _stored(path)
    for limit in (1, None):
        with threadpool_limits(limits=limit):
            assert any(pool["user_api"] == "blas" for pool in threadpool_info()), \
                "no BLAS found to limit: import numpy and scipy first"
            printed, glued_text = _run_in_process(path)
        assert glued_text and glued_text == stored_glued, f"threads limited to {limit}"
        assert any(printed.values()), "the chapter printed nothing"
        for index, text in printed.items():
            assert text == stored_printed[index], f"cell {index}, threads limited to {limit}"


def test_the_fit_is_stable_to_far_below_the_stored_digits():
    """Another machine's kernels move the fit's inputs and arithmetic in their last bits; the
    fitted and bounded pass^8 of every published curve, from inputs nudged by a few ulps,
    round to the same glued text."""
    from reliability import passk
    from reliability.datasets import load

    tau = passk.published_table(load("tau_bench"))
    board = tau[tau["condition"] == "tool-calling"].sort_values(["setting", "model", "k"])
    rng = np.random.default_rng(0)
    for (setting, model), group in board.groupby(["setting", "model"], sort=False):
        values = group["fraction"].to_numpy()
        texts = set()
        for trial in range(6):
            nudged = values * (1 + rng.integers(-2, 3, values.size) * np.finfo(float).eps)
            out = passk.extrapolate(values if trial == 0 else nudged, 8, tasks=115)
            numbers = (out["fitted"], 100 * out["fit"].largest_miss, *out["rounding"],
                       *out["sampling"])
            texts.add(tuple(repr(glued(x)) for x in numbers))
        assert len(texts) == 1, f"{model}, {setting}: {texts}"


@pytest.mark.parametrize("edition", ["chapters", "ru/chapters"])
def test_chapter_9s_pass_k_table_shows_the_proses_pass_1(edition):
    """Chapter 9's prose said pass^1 was 80.5% [74.8%, 86.0%] beside a table printing
    0.747: the bound 0.7474999... rounded once for the table and twice for the prose
    (glued to 0.7475 first). The table's first row now reads, digit for digit, what the
    prose shows from the glued values, in both editions (issue 41)."""
    from bookbuild.run import ROOT
    from reliability.i18n import language

    nb = nbformat.read(str(ROOT / edition / "09_ablation_lab.ipynb"), as_version=4)
    stored = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            meta = output.get("metadata", {}).get("scrapbook", {})
            data = output.get("data", {})
            if meta.get("name") and "application/papermill.record/text/plain" in data:
                stored[meta["name"]] = data["application/papermill.record/text/plain"]
    html = next("".join(o.data["text/html"]) for c in nb.cells
                for o in c.get("outputs", []) if "T_ch9-passk" in "".join(
                    o.get("data", {}).get("text/html", "")))
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", html)
    with language("ru" if edition.startswith("ru") else "en"):
        share = glued_text(stored["ch9_pass1"], ".1%")
        bounds = notebook.interval(float(stored["ch9_pass1_low"]),
                                   float(stored["ch9_pass1_high"]))
    assert cells[:3] == ["1", share, bounds], (cells[:3], share, bounds)
