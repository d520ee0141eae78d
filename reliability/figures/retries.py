r"""Figures and tables for retries: what extra attempts buy, what they cost, and the
ceiling they cannot pass.

With :math:`A` attempts and no verifier an attempt is sent back only when it fails
visibly, :math:`r = e`, so a step is right with :math:`c\,S_A` where
:math:`S_A = 1 + e + \dots + e^{A-1}`. As :math:`A \to \infty`, :math:`S_A \to 1/(1-r)` and
a run of :math:`n` steps tends to the ceiling

.. math::  \left(\frac{a}{a + b}\right)^n = \left(\frac{c}{c + w}\right)^n
           \quad\text{(no verifier)},

because a silent wrong answer is accepted like a right one and never retried.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
from matplotlib.lines import Line2D
import numpy as np

from .. import _validate
from . import _checks, _media
from ..i18n import N_, _, fill_slots
from ..notebook import FIGURE_WIDTH_IN, PALETTE, fit_text, legend_below, percent_axis
from ..workflow import Workflow, ceiling, mean_attempts_interval
from ..live import nearest
from .chain import _decay, interval_text, plot_decay
from ..numbers import fmt

if TYPE_CHECKING:  # the tables' type, for the annotations only
    import pandas as pd

# ceiling and attempt_cost, the numbers the chapters cite, are the model's
# (reliability.workflow); the figures draw them.
__all__ = ["sweep", "cost_frame", "sweep_frame", "plot_attempts", "plot_steps",
           "draw_attempts_frame", "plot_explorer", "live_retries"]

#: The ceiling is drawn as a wide pale band behind the lines, so a closed form that
#: reaches it stays visible inside it instead of hiding the ceiling's own line.
_CEILING_STYLE = {"color": PALETTE["purple"], "lw": 9, "alpha": 0.35,
                  "solid_capstyle": "butt", "zorder": 1}

#: What :func:`sweep` returns, one array per name (and :func:`plot_attempts` draws).
_SWEEP_KEYS = ("closed", "rate", "low", "high", "closed_attempts", "mean_attempts",
               "attempts_low", "attempts_high")

#: What each :func:`attempt_cost` result holds (and :func:`cost_frame` prints).
_COST_KEYS = ("runs", "closed", "no_stop", "simulated", "low", "high", "se", "gap_in_se")


def _sweep_table(name: str, table, rows: int) -> dict:
    _checks.columns(name, table, _SWEEP_KEYS, what="sweep result")
    if not all(np.ndim(table[k]) == 1 and len(table[k]) == rows for k in _SWEEP_KEYS):
        raise ValueError(f"{name} must be sweep's result with one row per attempts value "
                         f"({rows})")
    return table


def _workflow(name: str, value) -> Workflow:
    if not isinstance(value, Workflow):
        raise ValueError(f"{name} must be a reliability.Workflow, got {value!r}")
    return value


def sweep(workflows, *, runs: int, seed: int, confidence: float = 0.95) -> dict:
    """Closed forms and seeded simulations for a list of workflows, one row each.

    Returns a dict of numpy arrays: ``closed`` and ``rate`` (success), Wilson bounds
    ``low``/``high``, ``closed_attempts`` and ``mean_attempts`` (per run) with the mean's
    normal interval ``attempts_low``/``attempts_high``. Workflow ``k`` is simulated with
    seed ``seed + k``, so the table is reproducible row by row.
    """
    _checks.iterable("workflows", workflows, what="reliability.Workflow")
    workflows = list(workflows)
    if not workflows or not all(isinstance(w, Workflow) for w in workflows):
        raise ValueError("workflows must be a non-empty list of reliability.Workflow")
    runs = _validate.whole("runs", runs, minimum=2)
    seed = _validate.whole("seed", seed, minimum=0)
    _validate.confidence(confidence)
    rows = []
    for k, wf in enumerate(workflows):
        sim = wf.simulate(runs=runs, seed=seed + k)
        mean, unused, low, high = mean_attempts_interval(sim, confidence)
        rows.append((wf.success(), sim.rate, *sim.interval(confidence),
                     wf.expected_attempts(), mean, low, high))
    columns = np.array(rows, dtype=float).T
    names = ("closed", "rate", "low", "high", "closed_attempts", "mean_attempts",
             "attempts_low", "attempts_high")
    return dict(zip(names, columns))


def cost_frame(costs) -> "pd.DataFrame":
    """:func:`attempt_cost` results as text for :func:`reliability.notebook.table`, one row
    each: runs, closed form, the no-early-stop cost n S_A, simulated mean with its 95 %
    interval and standard error, and its gap from the closed form in standard errors."""
    import pandas as pd

    _checks.iterable("costs", costs, what="attempt_cost results")
    costs = list(costs)
    if not costs or not all(isinstance(c, dict) and set(_COST_KEYS) <= set(c) for c in costs):
        raise ValueError("costs must be a non-empty list of attempt_cost results")
    return pd.DataFrame({
        N_("runs"): [fmt(c["runs"], ",") for c in costs],
        N_("closed form"): [fmt(c["closed"], ".4f") for c in costs],
        N_("n S_A (no early stops)"): [fmt(c["no_stop"], ".4f") for c in costs],
        N_("simulated mean"): [fmt(c["simulated"], ".4f") for c in costs],
        N_("95% interval"): [interval_text(c["low"], c["high"], "{:.4f}") for c in costs],
        N_("standard error"): [fmt(c["se"], ".4f") for c in costs],
        N_("gap (SE)"): [fmt(c["gap_in_se"], "+.1f") for c in costs]})


def sweep_frame(attempts, table) -> "pd.DataFrame":
    """:func:`sweep`'s result as text for :func:`reliability.notebook.table`, one row per
    number of attempts: success (closed form, simulated, 95 % Wilson interval) and
    attempts per run (closed form, simulated mean, 95 % interval)."""
    import pandas as pd

    attempts = _validate.whole_array("attempts", attempts, minimum=1)
    if attempts.ndim != 1:
        raise ValueError(f"attempts must be a list of whole numbers >= 1, got {attempts!r}")
    _sweep_table("table", table, len(attempts))
    share, mean = N_("success"), N_("attempts per run")
    return pd.DataFrame({
        ("", N_("attempts A")): [f"{a}" for a in attempts],
        (share, N_("closed form")): [fmt(x, ".1%") for x in table["closed"]],
        (share, N_("simulated")): [fmt(x, ".1%") for x in table["rate"]],
        (share, N_("95% interval")): [interval_text(lo, hi) for lo, hi in
                                      zip(table["low"], table["high"])],
        (mean, N_("closed form")): [fmt(x, ".2f") for x in table["closed_attempts"]],
        (mean, N_("simulated")): [fmt(x, ".2f") for x in table["mean_attempts"]],
        (mean, N_("95% interval")): [interval_text(lo, hi, "{:.2f}") for lo, hi in
                                 zip(table["attempts_low"], table["attempts_high"])]})


def plot_attempts(attempts, table, *, ceiling_value: float, title: str,
                  medium: str = "phone"):
    """Top: success against attempts per step (line: closed form; dots: simulated with
    95 % Wilson bars; pale band: the ceiling). Bottom: attempts per run, same convention.
    Stacked, so the figure stays :data:`FIGURE_WIDTH_IN` wide and legible in a phone's
    column; side by side on a slide (``medium``,
    :data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _checks.array("attempts", attempts, kind="whole", minimum=1)
    _sweep_table("table", table, len(attempts))
    _validate.probability("ceiling_value", ceiling_value)
    _validate.text("title", title)
    attempts = np.asarray(attempts)
    fig, (top, bottom) = _media.subplots(medium, 2, 1, height=8.0, layout="constrained")
    top.axhline(ceiling_value, **_CEILING_STYLE,
                 label=_("ceiling, unlimited attempts ({ceiling:.1%})").format(
                     ceiling=ceiling_value))
    top.plot(attempts, table["closed"], color=PALETTE["blue"], label=_("closed form"))
    top.errorbar(attempts, table["rate"],
                  yerr=[table["rate"] - table["low"], table["high"] - table["rate"]],
                  fmt="o", ms=4, capsize=2, color=PALETTE["blue"],
                  label=_("simulated, 95% interval"))
    top.set(xlabel=_("attempts per step A"), ylabel=_("share of runs\nthat succeed"),
             ylim=(0, 1.02))
    percent_axis(top.yaxis)
    bottom.plot(attempts, table["closed_attempts"], color=PALETTE["orange"],
               label=_("closed form"))
    bottom.errorbar(attempts, table["mean_attempts"],
                   yerr=[table["mean_attempts"] - table["attempts_low"],
                         table["attempts_high"] - table["mean_attempts"]],
                   fmt="o", ms=4, capsize=2, color=PALETTE["orange"],
                   label=_("simulated mean, 95% interval"))
    bottom.set(xlabel=_("attempts per step A"), ylabel=_("attempts per run\n(mean)"))
    for ax in (top, bottom):
        ax.set_xticks(attempts)
    # One legend under both panels, in black: they draw the same kinds of marks (a line,
    # dots with bars), each in its own colour, and neither has a corner free of data
    # across the parameters' ranges.
    ceiling_line = top.get_lines()[0]
    dots = top.errorbar([], [], yerr=[[], []], fmt="o", ms=4, capsize=2,
                         color=PALETTE["black"])   # the legend's key only: no data
    legend_below(fig, most_columns=_media.columns(medium, 1), handles=[
        ceiling_line, Line2D([], [], color=PALETTE["black"]), dots],
        labels=[ceiling_line.get_label(), _("closed form"), _("simulated, 95% interval")])
    fig.suptitle(title)
    return fit_text(fig)


def plot_steps(table, ceilings: dict, *, title: str, medium: str = "phone"):
    """Success against chain length (reusing the chain-decay figure), plus one pale
    closed-form band per entry of ``ceilings`` (``{label: (lengths, values)}``), drawn
    behind the lines so a line that reaches the ceiling shows inside it. Drawn for
    ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _decay("table", table)
    _checks.keyed("ceilings", ceilings, what="label -> (lengths, values)", minimum=0)
    for pair in ceilings.values():
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"ceilings must map each label to a pair (lengths, values), "
                             f"got {pair!r}")
        _checks.array("ceilings", pair[0])
        _checks.array("ceilings", pair[1], length=len(pair[0]), per="length")
    _validate.text("title", title)
    fig = plot_decay(table, title=title, medium=medium)
    fig.set_size_inches(*_media.size(medium, 5.8))   # room for the longer legend below
    ax = fig.axes[0]
    for label, (lengths, values) in ceilings.items():
        ax.plot(lengths, values, **_CEILING_STYLE, label=label)
    legend_below(fig, most_columns=1)
    return fit_text(fig)


def draw_attempts_frame(fig, attempts: int, *, base: Workflow, lengths, table: dict):
    """One scrubber frame: success against chain length for ``attempts`` attempts per step
    (line: closed form; dots: ``table[attempts]`` simulated with 95 % Wilson bars), beside
    one attempt and the unlimited-attempts ceiling."""
    _checks.figure("fig", fig)
    _validate.whole("attempts", attempts, minimum=1)
    _workflow("base", base)
    _checks.array("lengths", lengths, kind="whole", minimum=1)
    _checks.keyed("table", table, what="decay_table rows by attempts")
    if attempts not in table:
        raise ValueError(f"table must hold a row for attempts={attempts!r}, "
                         f"has {list(table)}")
    _checks.columns("table", table[attempts], ("rate", "low", "high"),
                    what="decay_table row")
    lengths = np.asarray(lengths)
    wf = replace(base, attempts=attempts)
    grid = np.arange(1, lengths.max() + 1)
    fig.set_layout_engine("constrained")
    ax = fig.add_subplot()
    ax.plot(grid, replace(base, attempts=1).success_by_length(grid), color=PALETTE["grey"],
            label=_("one attempt (closed form)"))
    ax.plot(grid, [ceiling(replace(wf, steps=int(n))) for n in grid], **_CEILING_STYLE,
            label=_("ceiling: unlimited attempts"))
    ax.plot(grid, wf.success_by_length(grid), color=PALETTE["blue"],
            label=_("A = {attempts}: closed form").format(attempts=attempts))
    t = table[attempts]
    ax.errorbar(lengths, t["rate"], yerr=[t["rate"] - t["low"], t["high"] - t["rate"]],
                fmt="o", ms=4, capsize=2, color=PALETTE["blue"],
                label=_("A = {attempts}: simulated, 95% interval").format(
                    attempts=attempts))
    ten = replace(wf, steps=10).success()
    ax.set(xlabel=_("steps in the chain"), ylabel=_("share of runs that succeed"),
           ylim=(0, 1.02),
           title=_("{attempts} per step: ten steps succeed {ten:.1%} (model)").format(
               attempts=_attempts_phrase(attempts), ten=ten))
    percent_axis(ax.yaxis)
    legend_below(fig, most_columns=1)
    fit_text(fig)


def _attempts_phrase(attempts: int) -> str:
    return _("1 attempt") if attempts == 1 else _("{attempts} attempts").format(
        attempts=attempts)


def plot_explorer(error: float, silent: float, attempts: int, longest: int):
    """The explorer's figure: closed-form success against chain length (1 to
    ``longest``) with one attempt, with ``attempts``, and the unlimited-attempts ceiling
    (model, the reader's own rates; no simulation, so it redraws at once)."""
    error = _validate.probability("error", error)
    silent = _validate.probability("silent", silent)
    attempts = _validate.whole("attempts", attempts, minimum=1)
    longest = _validate.whole("longest", longest, minimum=1)
    lengths = np.arange(1, longest + 1)
    base = Workflow(steps=1, error=error, silent=min(silent, 1 - error), attempts=attempts)
    # (a/(a+b))^n for every length at once: the ceiling of one step, raised to n.
    tops = ceiling(base) ** lengths
    fig, ax = plt.subplots(figsize=(FIGURE_WIDTH_IN, 4.6), layout="constrained")
    ax.plot(lengths, tops, **_CEILING_STYLE, label=_("ceiling: unlimited attempts"))
    ax.plot(lengths, replace(base, attempts=1).success_by_length(lengths),
            color=PALETTE["grey"], label=_("1 attempt"))
    ax.plot(lengths, base.success_by_length(lengths), color=PALETTE["blue"],
            label=_attempts_phrase(attempts))
    last = replace(base, steps=longest).success()
    ax.set(xlabel=_("steps in the chain"), ylabel=_("share of runs that succeed"),
           ylim=(0, 1.02),
           title=_("Model, {attempts} per step: {longest} steps succeed {last:.1%}").format(
               attempts=_attempts_phrase(attempts), longest=longest, last=last))
    percent_axis(ax.yaxis)
    legend_below(fig)
    return fit_text(fig)


#: Visible error rates the live explorer offers (every 2.5 pp up to 30%).
LIVE_ERRORS = tuple(round(0.025 * i, 3) for i in range(13))
#: Silent error rates it offers (every percentage point up to 12%).
LIVE_SILENT = tuple(round(0.01 * i, 2) for i in range(13))
#: Attempts per step it draws and offers (as the chapter's figure: flat from 4 on).
LIVE_ATTEMPTS = tuple(range(1, 7))


def live_retries(*, runs: int, seed: int, steps: int = 10, error: float = 0.05,
                 silent: float = 0.03, attempts: int = 3):
    """The chapter's live explorer: success of a ``steps``-step run against attempts
    per step, for a visible error rate ``error`` and a silent one ``silent`` (no
    verifier). The closed form is a line; :func:`sweep`'s seeded simulations of ``runs``
    runs are dots with 95 % Wilson intervals (seed ``seed + A - 1`` for A attempts, as
    :func:`sweep` seeds its rows); :func:`ceiling` is a dashed line and the chosen
    ``attempts`` a ring. The sentence states the closed form, the simulated rate with
    its interval, the expected attempts per run and the ceiling. ``error``, ``silent`` and
    ``attempts`` set where the sliders start, moved to the nearest position offered.
    Returns a :class:`reliability.live.Explorer`."""
    from functools import lru_cache

    from ..live import Control, Explorer, Series, Words

    # runs x steps bounds the precomputation (468 simulations of six workflows each).
    runs = _validate.whole("runs", runs, minimum=2, maximum=20_000)
    seed = _validate.whole("seed", seed, minimum=0)
    steps = _validate.whole("steps", steps, minimum=1, maximum=200)
    error = nearest(LIVE_ERRORS, _validate.probability("error", error))
    silent = nearest(LIVE_SILENT, _validate.probability("silent", silent))
    attempts = nearest(LIVE_ATTEMPTS, _validate.whole("attempts", attempts, minimum=1))
    x = np.array(LIVE_ATTEMPTS)

    def workflow(error, silent, attempts=1):
        return Workflow(steps=steps, error=error, silent=silent, attempts=int(attempts))

    @lru_cache(maxsize=None)
    def table(error, silent):
        # Every setting shares the seeds, so neighbouring positions share their draws
        # and the dots move smoothly rather than by chance.
        return sweep([workflow(error, silent, a) for a in LIVE_ATTEMPTS], runs=runs,
                     seed=seed)

    def dots(error, silent):
        t = table(error, silent)
        return {"x": x, "y": t["rate"], "low": t["low"], "high": t["high"]}

    def ring(error, silent, attempts):
        return {"x": [attempts], "y": [table(error, silent)["closed"][attempts - 1]]}

    def words(error, silent, attempts):
        t, k = table(error, silent), int(attempts) - 1
        return {"closed": fmt(t["closed"][k], ".1%"), "rate": fmt(t["rate"][k], ".1%"),
                "low": fmt(t["low"][k], ".1%"), "high": fmt(t["high"][k], ".1%"),
                "cost": fmt(t["closed_attempts"][k], ".2f"),
                "ceiling": fmt(ceiling(workflow(error, silent)), ".1%")}

    both = ("error", "silent")
    return Explorer(
        name="ch2-retries",
        controls=(Control("error", _("visible error e"), LIVE_ERRORS, error, ".1%"),
                  Control("silent", _("silent error w"), LIVE_SILENT, silent, ".1%"),
                  Control("attempts", _("attempts per step A"), LIVE_ATTEMPTS, attempts,
                          "d")),
        series=(
            Series(_("ceiling: unlimited attempts"),
                   lambda error, silent: {"x": [0.5, x[-1] + 0.5],
                                          "y": [ceiling(workflow(error, silent))] * 2},
                   depends=both, colour="purple", dashed=True),
            Series(_("closed form"), lambda error, silent: {
                "x": x, "y": table(error, silent)["closed"]}, depends=both),
            Series(_("simulated, {runs:,d} runs, 95% Wilson interval").format(runs=runs),
                   dots, depends=both, kind="points", colour="orange"),
            Series(_("the chosen A"), ring, depends=both + ("attempts",), kind="marker",
                   colour="black")),
        words=Words(fill_slots(_(
            "Model: with A = {attempts} as its limit of attempts per step, a "
            "{steps:,d}-step run whose attempts fail visibly {error} and silently {silent} "
            "of the time succeeds {closed} of the time and spends {cost} attempts on "
            "average; {runs:,d} simulated runs give {rate} (95% Wilson interval {low} to "
            "{high}). No number of attempts passes the ceiling of {ceiling} that the silent "
            "errors set."),
            steps=steps, runs=runs), words, depends=both + ("attempts",)),
        x_label=_("attempts per step A"),
        y_label=_("share of {steps:,d}-step runs right").format(steps=steps),
        title=_("Retries stall at the ceiling (model)"),
        alt=_("Line chart: the share of {steps}-step runs that succeed against attempts "
              "per step from 1 to 6, rising then flattening at or under a dashed ceiling "
              "line; orange dots with interval bars are seeded simulations, a black ring "
              "marks the chosen number of attempts.").format(steps=steps),
        x_range=(0.5, x[-1] + 0.5), y_range=(0.0, 1.0),
        source=("reliability.figures.retries.live_retries",
                {"runs": runs, "seed": seed, "steps": steps, "error": error,
                 "silent": silent, "attempts": attempts}))
