"""Figures for reading other people's numbers: paired leaderboard columns, a threshold
that trades one column for the other, and a gain read against two baselines."""

from __future__ import annotations

import numpy as np

from .. import _validate
from ..i18n import _, fill_slots
from ..notebook import PALETTE, percent_axis
from ..notebook.style import FIGURE_WIDTH_IN
from ..reading import ColumnRun, column_scores, simulate_columns, threshold_model
from . import _checks, _media
from ._layout import finish, legend_below, title as set_title, wrap
from ..live import nearest
from ..numbers import counted, fmt

__all__ = ["plot_columns", "draw_threshold_frame", "plot_threshold", "plot_baselines",
           "live_threshold", "THRESHOLD_FIGSIZE"]

_COLUMN_COLOURS = {"Relevance": PALETTE["blue"], "Irrelevance": PALETTE["orange"]}


def _bars(ax, runs: dict) -> None:
    labels = list(runs)
    rows = np.arange(len(labels))
    for offset, column in ((-0.2, "Relevance"), (0.2, "Irrelevance")):
        key = column.lower()
        shares = np.array([getattr(runs[n], key) for n in labels])
        bands = np.array([runs[n].interval(key) for n in labels])
        expected = [runs[n].expected[0 if key == "relevance" else 1] for n in labels]
        cases = getattr(runs[labels[0]], f"{key}_cases")
        ax.barh(rows + offset, shares, height=0.38, color=_COLUMN_COLOURS[column],
                label=_("{column}, {cases}").format(
                    column=column, cases=counted(cases, "case", "cases")))
        ax.errorbar(shares, rows + offset, xerr=[shares - bands[:, 0], bands[:, 1] - shares],
                    fmt="none", ecolor=PALETTE["black"], capsize=3)
        ax.plot(expected, rows + offset, "|", ms=14, mew=2.5, color=PALETTE["black"])
    ax.plot([], [], "|", ms=10, mew=2.5, color=PALETTE["black"], label=_("closed form"))
    ax.set_yticks(rows, [wrap(text, 1.5, size="ytick.labelsize") for text in labels])
    ax.invert_yaxis()
    percent_axis(ax.xaxis)
    ax.set_xlim(0, 1.02)


def plot_columns(runs, *, title: str, medium: str = "phone"):
    """Grouped horizontal bars: for each model (``runs`` maps label ->
    :class:`~reliability.reading.ColumnRun`) its simulated Relevance and Irrelevance with
    95 % Wilson intervals, and the closed-form score as a black tick; drawn for
    ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    runs = _checks.of_kind("runs", runs, ColumnRun, what="model label -> ColumnRun")
    _validate.text("title", title)
    _media.medium(medium)
    fig, ax = _media.subplots(medium, height=3.6 + 1.0 * len(runs))
    _bars(ax, runs)
    ax.set(xlabel=_("score (bars: 95% Wilson interval; ticks: closed form)"))
    set_title(ax, title)
    ax.grid(axis="y", visible=False)
    legend_below(ax, ncol=_media.columns(medium, 1))
    finish(fig)
    return fig


def draw_threshold_frame(fig, threshold, *, separation, relevance_cases: int = 16,
                         irrelevance_cases: int = 240, seed=0, medium: str = "phone"):
    """The chapter's threshold figure (and its kernel explorer's) on ``fig``: the
    closed-form Relevance and Irrelevance of :func:`~reliability.reading.threshold_model`
    against the threshold (lines), the chosen ``threshold`` (dotted), and one seeded
    leaderboard run at it with 95 % Wilson intervals (dots), its legend laid out for
    ``medium`` (:data:`reliability.figures._media.MEDIA`). Returns the
    :class:`~reliability.reading.ColumnRun` drawn."""
    _checks.figure("fig", fig)
    _media.medium(medium)
    threshold = _validate.real("threshold", threshold, minimum=-10, maximum=10)
    needed, unneeded = threshold_model(threshold, separation)
    run = simulate_columns(needed, unneeded, relevance_cases=relevance_cases,
                           irrelevance_cases=irrelevance_cases, seed=seed)
    grid = np.linspace(-3.0, 3.0 + separation, 121)
    relevance, irrelevance = column_scores(*threshold_model(grid, separation))
    ax = fig.add_subplot()
    for column, curve, key in (("Relevance", relevance, "relevance"),
                               ("Irrelevance", irrelevance, "irrelevance")):
        colour = _COLUMN_COLOURS[column]
        ax.plot(grid, curve, color=colour,
                label=_("{column}, closed form").format(column=column))
        share, (low, high) = getattr(run, key), run.interval(key)
        cases = getattr(run, f"{key}_cases")
        ax.errorbar([threshold], [share], yerr=[[share - low], [high - share]], fmt="o",
                    ms=6, capsize=3, color=colour,
                    label=_("{column}: {share:.1%} on {cases}").format(
                        column=column, share=share, cases=counted(cases, "case", "cases")))
    ax.axvline(threshold, color=PALETTE["black"], ls=":")
    percent_axis(ax.yaxis)
    ax.set(xlabel=_("threshold on the need signal (lower: calls more often)"),
           ylabel=_("column score"),
           ylim=(-0.03, 1.03))
    set_title(ax, _("Threshold {threshold:+.1f} (model, separation {separation:.1f}): "
                    "the two columns move apart").format(threshold=float(threshold),
                                                         separation=float(separation)))
    # at most two columns, one a column score's: its line over its dot
    legend_below(ax, ncol=min(2, _media.columns(medium, 1)))
    finish(fig)
    return run


#: Size of :func:`draw_threshold_frame`'s figure: room under the axes for the legend.
THRESHOLD_FIGSIZE = (FIGURE_WIDTH_IN, 6.0)


def plot_threshold(threshold, *, separation, relevance_cases: int = 16,
                   irrelevance_cases: int = 240, seed=0, medium: str = "phone"):
    """:func:`draw_threshold_frame` on a figure of its own drawn for ``medium``
    (:data:`reliability.figures._media.MEDIA`; a phone's is :data:`THRESHOLD_FIGSIZE`):
    the chapter's figure, which the book's PDF draws again for the page. Returns the
    figure."""
    import matplotlib.pyplot as plt

    _media.medium(medium)
    fig = _media.figure(medium, height=THRESHOLD_FIGSIZE[1])
    try:
        draw_threshold_frame(fig, threshold, separation=separation,
                             relevance_cases=relevance_cases,
                             irrelevance_cases=irrelevance_cases, seed=seed,
                             medium=medium)
    except ValueError:   # bad input: no figure left open behind the error
        plt.close(fig)
        raise
    return fig


def plot_baselines(pairs, *, title: str, medium: str = "phone"):
    """Dumbbells on one 0-100 scale: for each row (``pairs`` maps label -> (before, after)
    scores) the score before and after a method, with the change written beside it.
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    pairs = _checks.keyed("pairs", pairs, what="label -> (before, after) scores")
    for label, pair in pairs.items():
        if (not isinstance(label, str) or not isinstance(pair, tuple) or len(pair) != 2):
            raise ValueError(f"pairs must map labels to (before, after) score pairs, "
                             f"got {label!r}: {pair!r}")
        for value in pair:
            _validate.real(f"pairs[{label!r}]", value, minimum=0, maximum=100)
    _validate.text("title", title)
    labels = list(pairs)
    # Each row's name on a line above its arrow: the 0-100 scale keeps the whole width.
    pitch = 1.6
    fig, ax = _media.subplots(medium, height=3.0 + 0.75 * len(labels))
    for row, label in enumerate(labels):
        before, after = (float(v) for v in pairs[label])
        y = row * pitch + 1.0
        ax.text(0.0, row * pitch, wrap(label, FIGURE_WIDTH_IN - 0.7), va="top",
                ha="left", transform=ax.get_yaxis_transform(), in_layout=False)
        colour = PALETTE["green"] if after >= before else PALETTE["vermillion"]
        ax.annotate("", xy=(after, y), xytext=(before, y),
                    arrowprops=dict(arrowstyle="->", color=colour, lw=2.5))
        ax.plot([before], [y], "o", color=PALETTE["grey"], ms=8)
        # the change beside the arrow, on the side with room
        right = max(before, after) < 80
        ax.text(max(before, after) + 3.0 if right else min(before, after) - 3.0, y,
                fmt(after - before, "+.1f"), va="center",
                ha="left" if right else "right", color=colour)
    ax.plot([], [], "o", color=PALETTE["grey"], label=_("before the method"))
    ax.set_yticks([])
    ax.spines["left"].set_visible(False)
    ax.set_ylim(len(labels) * pitch, -0.05)
    ax.set_xlim(0, 100)
    ax.set(xlabel=_("CommonGen-Hard score (as published)"))
    set_title(ax, title)
    ax.grid(axis="y", visible=False)
    legend_below(ax)
    finish(fig)
    return fig


#: The live explorer's positions: the kernel explorer's thresholds (steps of 0.25) and
#: separations (steps of 0.5, half as fine, to keep the page's data light).
LIVE_THRESHOLDS = tuple(round(-4.0 + 0.25 * i, 2) for i in range(33))
LIVE_SEPARATIONS = tuple(round(0.5 * i, 1) for i in range(13))


def live_threshold(*, seed: int, relevance_cases: int = 16, irrelevance_cases: int = 240,
                   threshold: float = 1.0, separation: float = 2.0):
    """The chapter's live explorer: the paired leaderboard columns of the threshold model
    against its threshold, for a separation the reader moves. The closed-form Relevance and
    Irrelevance as lines, one seeded leaderboard run (``relevance_cases`` and
    ``irrelevance_cases`` cases, the same seed at every position) as dots with 95 % Wilson
    intervals, and the chosen threshold stated in words. ``threshold`` and ``separation``
    set where the sliders start, moved to the nearest position offered. Returns a
    :class:`reliability.live.Explorer`."""
    from functools import lru_cache

    from ..live import Control, Explorer, Series, Words
    from ..reading import MAX_CASES

    _validate.whole("seed", seed, minimum=0)
    relevance_cases = _validate.whole("relevance_cases", relevance_cases, maximum=MAX_CASES)
    irrelevance_cases = _validate.whole("irrelevance_cases", irrelevance_cases,
                                        maximum=MAX_CASES)
    wanted = _validate.real("threshold", threshold, minimum=-10, maximum=10)
    threshold = nearest(LIVE_THRESHOLDS, wanted)
    wanted = _validate.real("separation", separation, minimum=0, maximum=10)
    separation = nearest(LIVE_SEPARATIONS, wanted)
    thresholds = np.array(LIVE_THRESHOLDS)
    fine = np.round(np.arange(-4.0, 4.0 + 1e-9, 0.125), 3)

    @lru_cache(maxsize=None)
    def run(threshold, separation):
        # One seed at every position: the slider moves one leaderboard run, not a new one.
        return simulate_columns(*threshold_model(threshold, separation),
                                relevance_cases=relevance_cases,
                                irrelevance_cases=irrelevance_cases, seed=seed)

    def dots(separation, column):
        runs = [run(t, separation) for t in LIVE_THRESHOLDS]
        bounds = np.array([r.interval(column) for r in runs])
        return {"x": thresholds, "y": [getattr(r, column) for r in runs],
                "low": bounds[:, 0], "high": bounds[:, 1]}

    def words(threshold, separation):
        drawn = run(threshold, separation)
        (r_low, r_high), (i_low, i_high) = (drawn.interval("relevance"),
                                            drawn.interval("irrelevance"))
        relevance, irrelevance = drawn.expected
        return {"rel_closed": fmt(relevance, ".1%"), "irr_closed": fmt(irrelevance, ".1%"),
                "rel": fmt(drawn.relevance, ".1%"), "rel_low": fmt(r_low, ".1%"),
                "rel_high": fmt(r_high, ".1%"), "irr": fmt(drawn.irrelevance, ".1%"),
                "irr_low": fmt(i_low, ".1%"), "irr_high": fmt(i_high, ".1%")}

    return Explorer(
        name="ch10-threshold",
        controls=(Control("threshold", _("threshold t (lower: calls more often)"),
                          LIVE_THRESHOLDS, threshold, "+.2f"),
                  Control("separation", _("separation d"), LIVE_SEPARATIONS, separation,
                          ".1f")),
        series=(
            Series(_("{column}, closed form").format(column="Relevance"),
                   lambda separation: {
                "x": fine, "y": column_scores(*threshold_model(fine, separation))[0]},
                depends=("separation",)),
            Series(_("{column}, closed form").format(column="Irrelevance"),
                   lambda: {"x": fine, "y": column_scores(*threshold_model(fine, 0.0))[1]},
                   colour="orange"),
            Series(_("Relevance, one seeded run of {cases}, 95% Wilson interval").format(
                       cases=counted(relevance_cases, "case", "cases")),
                   lambda separation: dots(separation, "relevance"),
                   depends=("separation",), kind="points", colour="blue"),
            Series(_("Irrelevance, the same run, {cases}").format(
                       cases=counted(irrelevance_cases, "case", "cases")),
                   lambda separation: dots(separation, "irrelevance"),
                   depends=("separation",), kind="points", colour="orange"),
            Series(_("the chosen threshold"), lambda threshold, separation: {
                "x": [threshold, threshold],
                "y": list(column_scores(*threshold_model(threshold, separation)))},
                depends=("threshold", "separation"), kind="marker", colour="black")),
        words=Words(fill_slots(_(
            "Model agent with separation {separation}, calling when its need signal "
            "passes {threshold}: the closed forms give Relevance {rel_closed} and "
            "Irrelevance {irr_closed}. One seeded leaderboard run scores Relevance "
            "{rel} on {relevance_cases} (95% Wilson interval "
            "{rel_low} to {rel_high}) and Irrelevance {irr} on "
            "{irrelevance_cases} ({irr_low} to {irr_high})."),
            relevance_cases=counted(relevance_cases, "case", "cases"),
            irrelevance_cases=counted(irrelevance_cases, "case", "cases")), words,
                    depends=("threshold", "separation")),
        x_label=_("threshold t on the need signal"), y_label=_("column score"),
        title=_("Paired columns by threshold (model)"),
        alt=_("Line chart: as the threshold rises from -4 to 4 the closed-form Relevance "
              "(blue) falls from 100% and Irrelevance (orange) climbs towards 100%, "
              "Relevance later for a larger separation; dots with interval bars are one "
              "seeded leaderboard run, black rings mark the chosen threshold."),
        x_range=(-4.0, 4.0), y_range=(0.0, 1.0),
        source=("reliability.figures.reading.live_threshold",
                {"seed": seed, "relevance_cases": relevance_cases,
                 "irrelevance_cases": irrelevance_cases, "threshold": threshold,
                 "separation": separation}))
