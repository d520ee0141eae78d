"""Figures for pass@k against pass^k: two task mixes, a measured curve with intervals, the
extrapolation from published pass^1..4, and interval widths for small case counts."""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import MaxNLocator

from .. import _validate
from . import _checks, _media
from ..notebook import PALETTE, fit_text, legend_below, percent_axis
from ..passk import Fit, PassCurves, TaskMix
from ..stats import wilson_interval
from ..i18n import N_, _, gettext
from ..live import nearest
from ..numbers import counted, fmt

__all__ = ["draw_mixes", "plot_mixes", "plot_curves", "plot_extrapolation", "wilson_table",
           "plot_wilson", "live_mixes"]

#: The largest k a figure draws: a tick and a point per k must stay legible.
MAX_K = 200

_MIX_COLOURS = (PALETTE["blue"], PALETTE["vermillion"], PALETTE["green"], PALETTE["purple"])


def _mixes(mixes) -> dict:
    _checks.of_kind("mixes", mixes, TaskMix, what="reliability.passk.TaskMix by label")
    if len(mixes) > len(_MIX_COLOURS):
        raise ValueError(f"mixes must hold 1 to {len(_MIX_COLOURS)} task mixes (one colour "
                         f"each), got {len(mixes)}")
    return mixes


def _k_ticks(ax, ks) -> None:
    """A tick at every k when they fit a phone's width, else whole-number ticks only."""
    if len(ks) <= 12:
        ax.set_xticks(ks)
    else:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=8, integer=True))


def draw_mixes(fig, mixes: dict, *, kmax: int = 8, k: int | None = None,
               title: str = ""):
    """Closed-form pass@k (dashed) and pass^k (solid) for each task mix, k = 1..kmax.

    With ``k`` given, that k is marked and its four values are put in the title, which is
    how :func:`reliability.notebook.scrubber` frames show which k the slider is on.
    """
    _checks.figure("fig", fig)
    _mixes(mixes)
    kmax = _validate.whole("kmax", kmax, minimum=1, maximum=MAX_K)
    if k is not None:
        k = _validate.whole("k", k, minimum=1, maximum=kmax)
    _validate.text("title", title)
    fig.set_layout_engine("constrained")
    ax = fig.add_subplot()
    ks = np.arange(1, kmax + 1)
    parts = []
    for colour, (label, mix) in zip(_MIX_COLOURS, mixes.items()):
        ax.plot(ks, mix.pass_at(ks), "--", color=colour, label=f"{label}: pass@k")
        ax.plot(ks, mix.pass_hat(ks), "-", color=colour, label=f"{label}: pass^k")
        if k is not None:
            ax.plot([k, k], [mix.pass_hat(k), mix.pass_at(k)], "o", color=colour, ms=7)
            parts.append(f"{label}: pass@{k} = {fmt(mix.pass_at(k), '.0%')}, "
                         f"pass^{k} = {fmt(mix.pass_hat(k), '.0%')}")
    if k is not None:
        ax.axvline(k, color=PALETTE["grey"], lw=1)
        # One line per task mix: all four values on one line would not fit a phone.
        title = "\n".join([_("k = {k} (model)").format(k=k), *parts])
    ax.set(xlabel=_("k (trials of the same task)"), ylabel=_("share of tasks"),
           ylim=(0, 1.02), title=title)
    _k_ticks(ax, ks)
    percent_axis(ax.yaxis)
    legend_below(fig)
    fit_text(fig)
    return ax


def plot_mixes(mixes: dict, *, kmax: int = 8, title: str, medium: str = "phone"):
    """The static version of :func:`draw_mixes`, drawn for ``medium``
    (:data:`reliability.figures._media.MEDIA`); returns the figure."""
    _media.medium(medium)
    _mixes(mixes)
    _validate.whole("kmax", kmax, minimum=1, maximum=MAX_K)
    _validate.text("title", title)
    fig = _media.figure(medium, height=5.0)
    draw_mixes(fig, mixes, kmax=kmax, title=title)
    return fig


def plot_curves(result, mix=None, *, title: str, medium: str = "phone"):
    """Measured pass@k and pass^k with their bootstrap intervals; the model's closed forms
    as thin lines when ``mix`` is given. Drawn for ``medium``
    (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _validate.instance("result", result, PassCurves)
    _validate.instance("mix", mix, TaskMix, optional=True)
    _validate.text("title", title)
    fig, ax = _media.subplots(medium, height=5.4, layout="constrained")
    k = result.k
    for name, point, low, high, colour in (
            ("pass@k", result.pass_at, result.pass_at_low, result.pass_at_high,
             PALETTE["orange"]),
            ("pass^k", result.pass_hat, result.pass_hat_low, result.pass_hat_high,
             PALETTE["blue"])):
        ax.errorbar(k, point, yerr=[point - low, high - point], fmt="o", capsize=3,
                    color=colour, label=_("{name}, simulated, {confidence:.0%} interval")
                    .format(name=name, confidence=result.confidence))
        if mix is not None:
            closed = mix.pass_at(k) if name == "pass@k" else mix.pass_hat(k)
            ax.plot(k, closed, "-", lw=1, color=colour,
                    label=_("{name}, closed form").format(name=name))
    ax.set(xlabel=_("k (of {trials} per task)").format(
               trials=counted(result.trials, "trial", "trials")),
           ylabel=_("share of the {tasks}").format(
               tasks=counted(result.tasks, "task", "tasks")), ylim=(0, 1.02),
           title=title)
    _k_ticks(ax, k)
    percent_axis(ax.yaxis)
    # Below the axes: inside, it would cover the interval bars.
    legend_below(fig)
    return fit_text(fig)


def plot_extrapolation(rows, *, kmax: int = 8, title: str, medium: str = "phone"):
    """One panel per row: published pass^1..K (dots), the fitted mix to kmax (line), and at
    kmax the band every mix allows (thick bar: within rounding; thin bar: within two
    standard errors). ``rows`` holds dicts with keys label, values, fit, rounding, sampling
    and optionally headline (a published pass^kmax). Drawn for ``medium``
    (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    kmax = _validate.whole("kmax", kmax, minimum=1, maximum=MAX_K)
    _extrapolation_rows(rows, kmax)
    _validate.text("title", title)
    # Stacked, not side by side: panels abreast would shrink their text on a phone.
    fig, axes = _media.subplots(medium, len(rows), 1, height=1.9 + 2.9 * len(rows),
                                sharex=True, squeeze=False, layout="constrained")
    ks = np.arange(1, kmax + 1)
    fitted = set()  # each panel's own fitted-mix label, left out of the shared legend
    for ax, row in zip(axes[:, 0], rows):
        values = np.asarray(row["values"])
        label = _("fitted mix ({family})").format(family=gettext(row["fit"].family))
        fitted.add(label)
        ax.plot(ks, row["fit"].mix.pass_hat(ks), color=PALETTE["blue"], lw=1, label=label)
        ax.plot(np.arange(1, values.size + 1), values, "o", color=PALETTE["black"],
                label=_("published pass^1..4"))
        for band, lw, name in ((row["sampling"], 1.5, _("any mix, within 2 SE")),
                               (row["rounding"], 6, _("any mix, within rounding"))):
            if band is None:
                continue
            ax.plot([kmax, kmax], band, color=PALETTE["vermillion"], lw=lw,
                    solid_capstyle="butt", label=f"pass^{kmax}: {name}")
        if row.get("headline") is not None:
            ax.plot(kmax + 0.35, row["headline"], "D", color=PALETTE["green"],
                    label=_("paper's pass^{k} bound").format(k=kmax))
        ax.set(title=row["label"], xticks=ks, ylim=(0, 1),
               ylabel=_("pass^k (share of tasks)"))
        percent_axis(ax.yaxis)
    axes[-1][0].set_xlabel("k")
    handles, labels = [], []
    for ax in axes[:, 0]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels and lab not in fitted:
                handles.append(h)
                labels.append(lab)
    handles.insert(0, axes[0][0].get_lines()[0])
    labels.insert(0, _("fitted mix"))
    legend_below(fig, handles=handles, labels=labels)
    fig.suptitle(title)
    return fit_text(fig)


def _band(name: str, band):
    if band is None:
        return
    values = _checks.probabilities(name, band)
    if len(values) != 2 or values[0] > values[1]:
        raise ValueError(f"{name} must be None or a (low, high) pair in [0, 1] with "
                         f"low <= high, got {band!r}")


def _extrapolation_rows(rows, kmax: int) -> None:
    """The rows :func:`plot_extrapolation` draws: 1 to 4 dicts, each with a label, the
    published pass^1..K (K <= kmax), a :class:`~reliability.passk.Fit` and two bands."""
    keys = ("label", "values", "fit", "rounding", "sampling")
    if (isinstance(rows, (str, bytes, dict)) or not hasattr(rows, "__len__")
            or not 1 <= len(rows) <= 4):
        raise ValueError(f"rows must be a list of 1 to 4 panels (dicts with "
                         f"{', '.join(keys)}), got {rows!r}")
    for i, row in enumerate(rows):
        _checks.columns(f"rows[{i}]", row, keys, what="panel dict")
        _validate.text(f"rows[{i}]['label']", row["label"])
        values = _checks.probabilities(f"rows[{i}]['values']", row["values"])
        if not 1 <= len(values) <= kmax:
            raise ValueError(f"rows[{i}]['values'] must hold pass^1 .. pass^K with "
                             f"1 <= K <= kmax = {kmax}, got {len(values)} values")
        _validate.instance(f"rows[{i}]['fit']", row["fit"], Fit)
        _band(f"rows[{i}]['rounding']", row["rounding"])
        _band(f"rows[{i}]['sampling']", row["sampling"])
        if row.get("headline") is not None:
            _validate.probability(f"rows[{i}]['headline']", row["headline"])


def wilson_table(sizes, rate: float, confidence: float = 0.95):
    """For each case count: the smallest step a score can move (1/n), the observed rate
    nearest to ``rate`` that n cases can produce, and its Wilson interval."""
    _checks.array("sizes", sizes, kind="whole", minimum=1)
    _validate.probability("rate", rate)
    _validate.confidence(confidence)
    sizes = np.asarray(sizes, dtype=int)
    successes = np.rint(rate * sizes).astype(int)
    low, high = wilson_interval(successes, sizes, confidence)
    return {N_("cases"): sizes, N_("step"): 1.0 / sizes, N_("observed"): successes / sizes,
            N_("low"): np.asarray(low), N_("high"): np.asarray(high)}


def plot_wilson(table, *, title: str, medium: str = "phone"):
    """Interval bars of :func:`wilson_table`, one row per case count, each row labelled
    with its count and half-width (rows, not a log axis of n, so no labels can collide).
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _checks.columns("table", table, ("cases", "observed", "low", "high"),
                    what="wilson_table's result")
    _validate.text("title", title)
    fig, ax = _media.subplots(medium, height=4.2, layout="constrained")
    obs, low, high = table["observed"], table["low"], table["high"]
    rows = np.arange(len(obs))
    ax.errorbar(obs, rows, xerr=[obs - low, high - obs], fmt="o", capsize=4,
                color=PALETTE["blue"])
    ax.set_yticks(rows, [_("{n}: ±{pp:.0f} pp").format(n=counted(n, "case", "cases"),
                                                        pp=50 * (hi - lo))
                         for n, lo, hi in zip(table["cases"], low, high)])
    ax.set(xlabel=_("score (dot) and its 95% Wilson interval (bar)"), xlim=(0, 1),
           ylim=(len(obs) - 0.5, -0.5), title=title)
    percent_axis(ax.xaxis)
    return fit_text(fig)


#: The live explorer's positions: pass^1, and the Beta concentration s on a 1-2-5 ladder
#: from split (0.1: tasks near 0 or 1) to alike (100); identical tasks are drawn beside.
LIVE_PASS1 = tuple(round(0.1 * i, 1) for i in range(1, 10))
LIVE_CONCENTRATIONS = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0)
#: The largest k the live explorer offers: tau-bench's pass^8.
LIVE_KMAX = 8


def _with_start(grid: tuple, start: float) -> tuple:
    """``grid`` with ``start`` as a position of its own if it lies inside the grid's
    range (outside it, the slider starts at the nearest end)."""
    return tuple(sorted(set(grid) | {start})) if grid[0] <= start <= grid[-1] else grid


def live_mixes(*, cases: int, runs: int, seed: int, pass1: float = 0.6,
               concentration: float = 1.0, k: int = 8, resamples: int = 1000):
    """The chapter's live explorer: closed-form pass^k and pass@k of a Beta task mix with
    mean ``pass1`` and concentration ``concentration``, pass^k if every task were alike,
    and seeded simulations of ``cases`` cases x ``runs`` runs as dots with 95 % bootstrap
    intervals over cases (:func:`reliability.passk.curves`, ``resamples`` resamples). The
    arguments ``pass1``, ``concentration`` and ``k`` set where the sliders start:
    ``pass1`` (to two places) and ``concentration`` (to three digits) become positions of
    their own inside the sliders' ranges, so a chapter's explorer starts on the very
    numbers its text cites; ``k``, and a value outside a range, move to the nearest
    position offered. At a k where every simulated case scored the same, the interval is
    Wilson's (:func:`reliability.passk.curves`) and the sentence says so. Returns a
    :class:`reliability.live.Explorer`."""
    from functools import lru_cache

    from ..live import Control, Explorer, Series, Words
    from ..passk import curves

    cases = _validate.whole("cases", cases, minimum=1, maximum=1_000)
    runs = _validate.whole("runs", runs, minimum=1, maximum=50)
    _validate.whole("seed", seed, minimum=0)
    resamples = _validate.whole("resamples", resamples, minimum=1, maximum=5_000)
    # The chapter's own setting is a position of its own (pass^1 to two places, s to
    # three digits), so the explorer starts on the very numbers the text cites.
    pass1 = round(_validate.probability("pass1", pass1), 2)
    pass1s = _with_start(LIVE_PASS1, pass1)
    pass1 = nearest(pass1s, pass1)
    concentration = float(f"{_validate.real('concentration', concentration, above=0.0):.3g}")
    concentrations = _with_start(LIVE_CONCENTRATIONS, concentration)
    concentration = min(concentrations, key=lambda v: abs(np.log(v / concentration)))
    # pass^k needs k runs of a case; a slider needs two positions even at runs = 1.
    kmax = max(2, min(LIVE_KMAX, runs))
    k = min(_validate.whole("k", k, minimum=1), kmax)
    ks = np.arange(1, kmax + 1)

    @lru_cache(maxsize=None)
    def curve(pass1, s):
        # One seed for every position: neighbouring settings share their random draws,
        # so the dots move with the mix, not by chance.
        outcomes = TaskMix.beta(pass1, s).simulate(cases, runs, seed=seed)
        result = curves(outcomes, resamples=resamples, seed=seed)
        shown = result.k <= kmax
        return (result.k[shown], result.pass_hat[shown], result.pass_hat_low[shown],
                result.pass_hat_high[shown]), tuple(result.pass_hat_wilson[shown])

    def wilson(pass1, s):
        return curve(pass1, s)[1]

    def measured(pass1, s):
        return curve(pass1, s)[0]

    def words(pass1, s, k):
        mix = TaskMix.beta(pass1, s)
        slots = {"hat": fmt(mix.pass_hat(k), ".1%"), "at": fmt(mix.pass_at(k), ".1%"),
                 "same": fmt(pass1 ** k, ".1%")}
        x, rate, low, high = measured(pass1, s)
        if k > runs:
            slots["measured"] = _("not at all: pass^{k} needs {runs} of a case").format(
                k=k, runs=counted(k, "run", "runs"))
        elif wilson(pass1, s)[k - 1]:
            # every case scored the same: a bootstrap interval would have no width
            slots["measured"] = _("at {rate:.1%}, the same on every case (95% Wilson "
                                  "interval {low:.1%} to {high:.1%})").format(
                rate=rate[k - 1], low=low[k - 1], high=high[k - 1])
        else:
            slots["measured"] = _("at {rate:.1%} (95% bootstrap interval {low:.1%} to "
                                  "{high:.1%})").format(
                rate=rate[k - 1], low=low[k - 1], high=high[k - 1])
        return slots

    def closed(pass1, s, which):
        mix = TaskMix.beta(pass1, s)
        return {"x": ks, "y": mix.pass_hat(ks) if which == "hat" else mix.pass_at(ks)}

    def marker(pass1, s, k):
        mix = TaskMix.beta(pass1, s)
        return {"x": [k, k], "y": [mix.pass_hat(k), mix.pass_at(k)]}

    return Explorer(
        name="ch4-mixes",
        controls=(Control("pass1", _("pass^1 (mean success of one run)"), pass1s, pass1,
                          ".0%"),
                  Control("s", _("how alike the tasks are (concentration s)"),
                          concentrations, concentration, "g"),
                  Control("k", _("k (runs of the same task)"), tuple(int(v) for v in ks), k,
                          "d")),
        series=(
            Series(_("pass^k, model"), lambda pass1, s: closed(pass1, s, "hat"),
                   depends=("pass1", "s")),
            Series(_("pass@k, model"), lambda pass1, s: closed(pass1, s, "at"),
                   depends=("pass1", "s"), dashed=True),
            Series(_("pass^k if every task were alike"), lambda pass1: {
                "x": ks, "y": pass1 ** ks}, depends=("pass1",), colour="grey"),
            Series(_("pass^k simulated, {cases} x {runs}, 95% bootstrap interval").format(
                       cases=counted(cases, "case", "cases"),
                       runs=counted(runs, "run", "runs")),
                   lambda pass1, s: dict(zip(("x", "y", "low", "high"), measured(pass1, s))),
                   depends=("pass1", "s"), kind="points", colour="orange"),
            Series(_("the chosen k"), marker, depends=("pass1", "s", "k"), kind="marker",
                   colour="black")),
        # {cases} and {runs} are filled here; the other slots are the page's, so they are
        # replaced one by one rather than with str.format.
        words=Words(_("Model: tasks with pass^1 = {pass1}, spread with concentration "
                      "s = {s}, have pass^{k} = {hat} and pass@{k} = {at}; if every task "
                      "succeeded with probability {pass1}, pass^{k} would be {same}. "
                      "{cases} x {runs}, simulated, measure pass^{k} {measured}.")
                    .replace("{cases}", counted(cases, "case", "cases"))
                    .replace("{runs}", counted(runs, "run", "runs")),
                    words, depends=("pass1", "s", "k")),
        x_label=_("k (runs of the same task)"), y_label=_("share of tasks"),
        title=_("pass^k and pass@k (model)"),
        alt=_("Line chart: pass^k falls and pass@k rises as k grows from 1 to {kmax}, both "
              "starting at pass^1; a grey line shows pass^k if every task were alike, "
              "orange dots with interval bars are seeded simulations, and black rings mark "
              "the chosen k.").format(kmax=kmax),
        x_range=(0.5, kmax + 0.5), y_range=(0.0, 1.0),
        source=("reliability.figures.passk.live_mixes",
                {"cases": cases, "runs": runs, "seed": seed, "pass1": pass1,
                 "concentration": concentration, "k": k, "resamples": resamples}))
