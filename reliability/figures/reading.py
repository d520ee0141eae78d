"""Figures for reading other people's numbers: paired leaderboard columns, a threshold
that trades one column for the other, and a gain read against two baselines."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .. import _validate
from ..notebook import PALETTE, percent_axis
from ..reading import ColumnRun, column_scores, simulate_columns, threshold_model
from . import _checks

__all__ = ["plot_columns", "draw_threshold_frame", "plot_baselines"]

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
                label=f"{column}, {cases} cases")
        ax.errorbar(shares, rows + offset, xerr=[shares - bands[:, 0], bands[:, 1] - shares],
                    fmt="none", ecolor=PALETTE["black"], capsize=3)
        ax.plot(expected, rows + offset, "|", ms=14, mew=2.5, color=PALETTE["black"])
    ax.plot([], [], "|", ms=10, mew=2.5, color=PALETTE["black"], label="closed form")
    ax.set_yticks(rows, labels)
    ax.invert_yaxis()
    percent_axis(ax.xaxis)
    ax.set_xlim(0, 1.02)


def plot_columns(runs, *, title: str):
    """Grouped horizontal bars: for each model (``runs`` maps label ->
    :class:`~reliability.reading.ColumnRun`) its simulated Relevance and Irrelevance with
    95 % Wilson intervals, and the closed-form score as a black tick."""
    runs = _checks.of_kind("runs", runs, ColumnRun, what="model label -> ColumnRun")
    _validate.text("title", title)
    fig, ax = plt.subplots(figsize=(7.0, 1.2 + 1.0 * len(runs) + 1.2))
    _bars(ax, runs)
    ax.set(xlabel="score (bars: 95% Wilson interval; ticks: closed form)", title=title)
    ax.grid(axis="y", visible=False)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2)
    fig.tight_layout()
    return fig


def draw_threshold_frame(fig, threshold, *, separation, relevance_cases: int = 16,
                         irrelevance_cases: int = 240, seed=0):
    """One scrubber frame: the closed-form Relevance and Irrelevance of
    :func:`~reliability.reading.threshold_model` against the threshold (lines), the chosen
    ``threshold`` (dotted), and one seeded leaderboard run at it with 95 % Wilson
    intervals (dots). Returns the :class:`~reliability.reading.ColumnRun` drawn."""
    _checks.figure("fig", fig)
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
        ax.plot(grid, curve, color=colour, label=f"{column}, closed form")
        share, (low, high) = getattr(run, key), run.interval(key)
        cases = getattr(run, f"{key}_cases")
        ax.errorbar([threshold], [share], yerr=[[share - low], [high - share]], fmt="o",
                    ms=6, capsize=3, color=colour,
                    label=f"{column}: {share:.1%} on {cases} cases")
    ax.axvline(threshold, color=PALETTE["black"], ls=":")
    percent_axis(ax.yaxis)
    ax.set(xlabel="threshold on the need signal (lower: calls more often)",
           ylabel="column score",
           ylim=(-0.03, 1.03),
           title=f"Threshold {float(threshold):+.1f} (model, separation "
                 f"{float(separation):.1f}): the two columns move apart")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
    fig.tight_layout()
    return run


def plot_baselines(pairs, *, title: str):
    """Dumbbells on one 0-100 scale: for each row (``pairs`` maps label -> (before, after)
    scores) the score before and after a method, with the change written beside it."""
    pairs = _checks.keyed("pairs", pairs, what="label -> (before, after) scores")
    for label, pair in pairs.items():
        if (not isinstance(label, str) or not isinstance(pair, tuple) or len(pair) != 2):
            raise ValueError(f"pairs must map labels to (before, after) score pairs, "
                             f"got {label!r}: {pair!r}")
        for value in pair:
            _validate.real(f"pairs[{label!r}]", value, minimum=0, maximum=100)
    _validate.text("title", title)
    labels = list(pairs)
    fig, ax = plt.subplots(figsize=(7.0, 1.6 + 0.9 * len(labels)))
    for row, label in enumerate(labels):
        before, after = (float(v) for v in pairs[label])
        colour = PALETTE["green"] if after >= before else PALETTE["vermillion"]
        ax.annotate("", xy=(after, row), xytext=(before, row),
                    arrowprops=dict(arrowstyle="->", color=colour, lw=2.5))
        ax.plot([before], [row], "o", color=PALETTE["grey"], ms=8)
        ax.text(max(before, after) + 3.0, row, f"{after - before:+.1f}", va="center",
                fontsize=11, color=colour)
    ax.plot([], [], "o", color=PALETTE["grey"], label="before the method")
    ax.set_yticks(range(len(labels)), labels)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.set_xlim(0, 100)
    ax.set(xlabel="CommonGen-Hard score (as published)", title=title)
    ax.grid(axis="y", visible=False)
    ax.legend(loc="lower left")
    fig.tight_layout()
    return fig
