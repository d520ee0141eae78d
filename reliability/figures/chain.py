"""Figures for chain decay: closed form against simulation, the horizon, the animation."""

from __future__ import annotations

from dataclasses import replace

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.animation import FuncAnimation
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from ..notebook import OUTCOME_COLOURS, PALETTE, percent_axis
from ..workflow import Workflow, horizon


def decay_table(workflows: dict[str, Workflow], lengths, *, runs: int, seed: int):
    """Closed form and simulated success (with 95 % Wilson bounds) for each workflow
    and chain length. Returns ``{label: dict(length, closed, rate, low, high)}`` of arrays."""
    lengths = np.asarray(lengths)
    table = {}
    for k, (label, wf) in enumerate(workflows.items()):
        rows = []
        for j, n in enumerate(lengths):
            sim = replace(wf, steps=int(n)).simulate(runs=runs, seed=seed + 1000 * k + j)
            rows.append((int(n), replace(wf, steps=int(n)).success(), sim.rate,
                         *sim.interval(0.95)))
        columns = np.array(rows).T
        table[label] = dict(zip(("length", "closed", "rate", "low", "high"), columns))
    return table


def plot_decay(table, *, title: str):
    """Lines: closed forms. Dots with bars: simulated rates and their 95 % intervals."""
    fig, ax = plt.subplots()
    for label, t in table.items():
        line, = ax.plot(t["length"], t["closed"], label=f"{label}: closed form")
        ax.errorbar(t["length"], t["rate"], yerr=[t["rate"] - t["low"], t["high"] - t["rate"]],
                    fmt="o", ms=4, capsize=2, color=line.get_color(),
                    label=f"{label}: simulated, 95% interval")
    ax.set(xlabel="steps in the chain", ylabel="share of runs that succeed",
           ylim=(0, 1.02), title=title)
    percent_axis(ax.yaxis)
    ax.legend(fontsize=9)
    fig.tight_layout()
    return fig


def plot_horizon(accuracies, *, target: float = 0.5):
    """Horizon H(p) on a log scale against step accuracy, each ladder rung marked."""
    accuracies = np.asarray(accuracies, dtype=float)
    grid = 1 - np.logspace(-4.3, -0.7, 200)
    fig, ax = plt.subplots()
    ax.plot(1 - grid, [horizon(p, target) for p in grid], color=PALETTE["blue"])
    for p in accuracies:
        h = horizon(p, target)
        ax.plot(1 - p, h, "o", color=PALETTE["vermillion"])
        ax.annotate(f"p = {p:g}: {h:,.0f} steps", (1 - p, h), textcoords="offset points",
                    xytext=(8, 4), fontsize=9)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.invert_xaxis()
    ax.set(xlabel="per-step error rate 1 − p (log scale; better to the right)",
           ylabel=f"steps until success falls to {target:.0%}",
           title="Ten times fewer errors per step buys a ten times longer horizon")
    fig.tight_layout()
    return fig


_EVENT_ORDER = ("pending", "ok", "error", "wrong", "caught", "rejected_ok", "gave_up")


def run_grid(log, steps: int) -> np.ndarray:
    """A runs × steps array of codes (index into the outcome colours) for the animation:
    the step's final event, with a step that needed a retry shown as the retried event
    at first and its resolution once the frame reaches it."""
    grid = np.zeros((len(log), steps), dtype=int)
    for i, run in enumerate(log):
        for j, events in enumerate(run):
            final = events[-1]
            if final == "ok" and len(events) > 1:
                final = events[-2]  # recovered: colour by what was recovered from
            grid[i, j] = _EVENT_ORDER.index(final)
    return grid


def animate_runs(log, steps: int, *, title: str):
    """48 (or however many) runs advancing one step per frame; returns the animation."""
    grid = run_grid(log, steps)
    cmap = ListedColormap([OUTCOME_COLOURS[e] for e in _EVENT_ORDER])
    fig, ax = plt.subplots(figsize=(7.0, 5.2))
    shown = np.zeros_like(grid)
    image = ax.imshow(shown, cmap=cmap, vmin=0, vmax=len(_EVENT_ORDER) - 1,
                      aspect="auto", interpolation="nearest")
    ax.set(xlabel="step", ylabel="run", title=title)
    ax.set_xticks(range(steps), [str(s + 1) for s in range(steps)])
    ax.grid(False)
    labels = {"ok": "right first time", "error": "visible error, retried",
              "wrong": "silently wrong", "caught": "wrong, caught by verifier",
              "rejected_ok": "right, rejected by verifier", "gave_up": "gave up (run stops)"}
    ax.legend(handles=[Patch(color=OUTCOME_COLOURS[k], label=v) for k, v in labels.items()],
              loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=3, fontsize=8)
    fig.tight_layout()

    def draw(frame):
        shown[:] = 0
        shown[:, :frame] = grid[:, :frame]
        image.set_data(shown)
        return (image,)

    animation = FuncAnimation(fig, draw, frames=steps + 1, interval=600, blit=True)
    plt.close(fig)
    return animation
