"""Figures for the format tax: two rates, where the tax is paid, its spread, and the cures."""

from __future__ import annotations

from dataclasses import replace

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch

from ..formattax import ORDERS, REGIMES, FieldOrderToy, Generator
from ..notebook import PALETTE, percent_axis


REGIME_LABELS = {"free": "free text,\nthen parse", "prompt": "format asked\nin the prompt",
                 "constrained": "constrained\ndecoding", "two_turn": "solve free,\nreformat after"}
MEASURES = {"valid": ("format valid", PALETTE["blue"]),
            "right": ("content right", PALETTE["orange"]),
            "valid_and_right": ("valid and right", PALETTE["green"])}


def plot_two_rates(*, compliance_prompt, compliance_constrained, accuracy_free,
                   accuracy_constrained):
    """The headline table as two panels, form on the left and content on the right, so the
    two equal numbers visibly sit on different axes. Inputs are fractions."""
    fig, (form, content) = plt.subplots(1, 2, figsize=(8.0, 4.2), sharey=True)
    bars = form.bar(["format asked\nin the prompt", "plus grammar\non the decoder"],
                    [compliance_prompt, compliance_constrained],
                    color=[PALETTE["sky"], PALETTE["blue"]])
    form.bar_label(bars, labels=[f"{v:.1%}" for v in (compliance_prompt,
                                                        compliance_constrained)])
    form.set(ylabel="share of replies (%)", title="Form: format compliance")
    bars = content.bar(["free generation", "under the schema\n(grammar)"],
                       [accuracy_free, accuracy_constrained],
                       color=[PALETTE["yellow"], PALETTE["orange"]])
    content.bar_label(bars, labels=[f"{v:.1%}" for v in (accuracy_free, accuracy_constrained)])
    content.set(title="Content: accuracy")
    for ax in (form, content):
        percent_axis(ax.yaxis)
        ax.set_ylim(0, 1.08)
    form.patches[0].set_hatch("//")
    content.patches[1].set_hatch("//")
    fig.text(0.5, 0.005, "hatched: the two equal numbers, one a share of valid forms, "
             "the other a share of right answers", ha="center", fontsize=9)
    fig.suptitle("The grammar lifts the form; the content stays below free generation")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


_CELL_GROUPS = {
    "prompt_only": ("prompt request alone", PALETTE["vermillion"]),
    "prompt_and_decoder": ("prompt, and the decoder too", PALETTE["orange"]),
    "decoder_only": ("only under the decoder", PALETTE["blue"]),
    "not_significant": ("no significant effect", "#DDDDDD"),
}


def plot_cells(partition: dict[str, int], *, columns: int = 12):
    """A waffle of the analysed cells, one square per cell, coloured by where its
    significant effect appears."""
    codes = np.concatenate([np.full(partition[k], i) for i, k in enumerate(_CELL_GROUPS)])
    rows = int(np.ceil(len(codes) / columns))
    fig, ax = plt.subplots(figsize=(7.0, 3.6))
    for index, code in enumerate(codes):
        row, col = divmod(index, columns)
        ax.add_patch(plt.Rectangle((col, rows - 1 - row), 0.9, 0.9,
                                   color=list(_CELL_GROUPS.values())[code][1]))
    ax.set(xlim=(-0.1, columns), ylim=(-0.1, rows), aspect="equal",
           xlabel=f"one square = one cell (model × task × format); {len(codes)} cells")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.grid(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_visible(False)
    with_prompt = partition["prompt_only"] + partition["prompt_and_decoder"]
    significant = with_prompt + partition["decoder_only"]
    ax.legend(handles=[Patch(color=c, label=f"{label}: {partition[k]}")
                       for k, (label, c) in _CELL_GROUPS.items()],
              loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, fontsize=9)
    ax.set_title(f"The tax is paid at the prompt: {with_prompt} of {significant} "
                 "significant cells show it with no grammar at all")
    fig.tight_layout()
    return fig


def plot_spread(*, math500: dict[str, int], models: dict[str, float]):
    """Left: MATH-500's cells split by significance and direction. Right: the mean
    accuracy change per model over its significant cells (points)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.5, 3.8),
                                      gridspec_kw={"width_ratios": [1.1, 1]})
    toward = math500["toward_tax"]
    against = math500["significant"] - toward
    quiet = math500["cells"] - math500["significant"]
    start = 0
    for count, label, colour in ((toward, "significant, toward the tax", PALETTE["vermillion"]),
                                 (against, "significant, the other way", PALETTE["green"]),
                                 (quiet, "not significant", "#DDDDDD")):
        left.barh(["MATH-500"], [count], left=start, color=colour, label=f"{label}: {count}")
        start += count
    left.set(xlabel="cells analysed on MATH-500", xlim=(0, math500["cells"]),
             title=f"MATH-500: {toward} of {math500['cells']} cells pay the tax")
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize=9)
    names = list(models)
    values = [models[n] for n in names]
    bars = right.barh(names, values, color=PALETTE["vermillion"])
    right.bar_label(bars, labels=[f"{v:+.1f}" for v in values], padding=3)
    right.axvline(0, color=PALETTE["black"], lw=0.8)
    right.set(xlabel="mean accuracy change, significant cells (points)",
              xlim=(min(values) * 1.35, 0.5),
              title="Per model: more than twofold apart")
    right.invert_yaxis()
    fig.tight_layout()
    return fig


_SPEAK_SERIES = (("paper", "FRI", "NL", "sky"), ("paper", "JSON-Mode", "NL", "vermillion"),
                 ("paper", "JSON-Schema", "NL", "blue"),
                 ("rerun", "Structured", "Unstructured", "green"))


def speak_freely_deltas(frame):
    """Accuracy change against each study's free-text baseline, in points: one row per
    comparison, one column per task. ``frame`` has ``study, setting, condition, value``."""
    import pandas as pd

    tasks = list(dict.fromkeys(frame["setting"]))
    rows = {}
    for study, condition, base, _ in _SPEAK_SERIES:
        values = frame[frame["study"] == study].set_index(["setting", "condition"])["value"]
        who = "paper, gpt-4o-mini" if study == "paper" else "re-run, Llama-3-8B"
        rows[f"{condition} vs {base} ({who})"] = [
            float(values[(t, condition)] - values[(t, base)]) for t in tasks]
    return pd.DataFrame(rows, index=tasks).T


def plot_speak_freely(frame):
    """Grouped bars of :func:`speak_freely_deltas`, one group per task."""
    deltas = speak_freely_deltas(frame)
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    width = 0.2
    for j, ((label, row), (*_, colour)) in enumerate(zip(deltas.iterrows(), _SPEAK_SERIES)):
        ax.bar(np.arange(len(row)) + (j - 1.5) * width, row.values, width,
               color=PALETTE[colour], label=label)
    ax.axhline(0, color=PALETTE["black"], lw=0.8)
    ax.set_xticks(np.arange(len(deltas.columns)), list(deltas.columns))
    ax.set(ylabel="accuracy change vs free text (points)", xlabel="task",
           title="The sign of the tax depends on the format, the task and who ran it")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
    fig.tight_layout()
    return fig


def regime_table(generator: Generator, *, runs: int, seed: int) -> dict[str, dict]:
    """Closed form and simulation (rate, 95 % Wilson bounds) for each regime and measure."""
    table = {}
    for k, name in enumerate(REGIMES):
        regime = generator.regime(name)
        sim = generator.simulate(name, runs=runs, seed=seed + k)
        closed = {"valid": regime.compliance, "right": regime.accuracy,
                  "valid_and_right": regime.valid_and_right}
        table[name] = {m: (closed[m], sim.rate(m), *sim.interval(m)) for m in MEASURES}
    return table


def draw_regimes(fig, table, *, title: str):
    """Grouped bars (simulated, with 95 % intervals) and closed-form ticks, on ``fig``."""
    ax = fig.add_subplot()
    x = np.arange(len(REGIMES))
    width = 0.26
    for j, (measure, (label, colour)) in enumerate(MEASURES.items()):
        closed, rate, low, high = (np.array([table[r][measure][i] for r in REGIMES])
                                   for i in range(4))
        position = x + (j - 1) * width
        ax.bar(position, rate, width, color=colour, label=f"{label} (simulated, 95% interval)",
               yerr=[rate - low, high - rate], capsize=2)
        ax.plot(position, closed, "_", ms=14, mew=2, color=PALETTE["black"],
                label="closed form" if j == 0 else None)
    ax.set_xticks(x, [REGIME_LABELS[r] for r in REGIMES])
    ax.set(ylabel="share of replies (%)", ylim=(0, 1.05), title=title)
    percent_axis(ax.yaxis)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2)
    fig.tight_layout()
    return ax


def plot_regimes(table, *, title: str):
    fig = plt.figure(figsize=(7.5, 4.6))
    draw_regimes(fig, table, title=title)
    return fig


def order_table(digits, *, step_error: float, budget: int, runs: int, seed: int):
    """Closed form and simulated answer accuracy (95 % Wilson bounds) per field order and
    problem size. Returns ``{order: dict(digits, closed, rate, low, high)}`` of arrays."""
    digits = [int(d) for d in digits]
    table = {}
    for k, order in enumerate(ORDERS):
        rows = []
        for j, d in enumerate(digits):
            toy = FieldOrderToy(digits=d, step_error=step_error, budget=budget)
            sim = toy.simulate(order, runs=runs, seed=seed + 100 * k + j)
            rows.append((d, toy.accuracy(order), sim.accuracy, *sim.interval()))
        table[order] = dict(zip(("digits", "closed", "rate", "low", "high"),
                                np.array(rows, dtype=float).T))
    return table


def plot_order(table, *, title: str):
    """Lines: closed forms; dots with bars: simulated answer accuracy, per field order."""
    fig, ax = plt.subplots()
    labels = {"reasoning_first": "reasoning field first", "answer_first": "answer field first"}
    colours = {"reasoning_first": PALETTE["blue"], "answer_first": PALETTE["vermillion"]}
    for order, t in table.items():
        ax.plot(t["digits"], t["closed"], color=colours[order],
                label=f"{labels[order]}: closed form")
        ax.errorbar(t["digits"], t["rate"], yerr=[t["rate"] - t["low"], t["high"] - t["rate"]],
                    fmt="o", ms=4, capsize=2, color=colours[order],
                    label=f"{labels[order]}: simulated, 95% interval")
    ax.set(xlabel="digits to add (problem size)", ylabel="answer field right (%)",
           ylim=(0, 1.05), title=title)
    percent_axis(ax.yaxis)
    ax.legend(fontsize=9)
    fig.tight_layout()
    return fig


def tax_frames(generator: Generator, taxes, *, runs: int, seed: int):
    """One regime table per prompt tax, for the scrubber."""
    return {float(t): regime_table(replace(generator, prompt_tax=float(t)), runs=runs,
                                   seed=seed) for t in taxes}
