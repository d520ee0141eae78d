"""Figures for the format tax: two rates, where the tax is paid, its spread, and the cures."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch

from .. import _validate
from ..i18n import N_, NP_, _, pgettext
from ..formattax import ORDERS, REGIMES, FieldOrderToy, Generator
from ..notebook import PALETTE, percent_axis
from ..notebook.style import FIGURE_WIDTH_IN
from ..structured import Check
from . import _checks, _media
from ._layout import finish, legend_below, title as set_title, wrap
from ..live import nearest
from ..numbers import fmt, interval

if TYPE_CHECKING:  # the tables' type, for the annotations only
    import pandas as pd

__all__ = ["plot_two_rates", "plot_cells", "spread_table", "speak_freely_deltas",
           "plot_speak_freely", "regime_table", "draw_regimes", "plot_regimes", "order_table",
           "plot_order", "tax_frames", "regime_frame", "cure_table", "order_frame",
           "verdict_table", "live_cure", "REGIME_LABELS", "MEASURES", "REGIME_FIGSIZE"]


REGIME_LABELS = {"free": N_("free text,\nthen parse"),
                 "prompt": N_("format asked\nin the prompt"),
                 "constrained": N_("constrained\ndecoding"),
                 "two_turn": N_("solve free,\nreformat after")}
MEASURES = {"valid": (N_("format valid"), PALETTE["blue"]),
            "right": (N_("content right"), PALETTE["orange"]),
            "valid_and_right": (N_("valid and right"), PALETTE["green"])}

#: Labels that reach a table as stored English text and are translated when it is shown
#: (:func:`reliability.notebook.table`): the regimes on one line, and the data's labels.
TABLE_LABELS = (N_("free text, then parse"), N_("format asked in the prompt"),
                N_("constrained decoding"), N_("solve free, reformat after"),
                N_("comparison"), N_("condition"), N_("metric"), N_("value"), N_("unit"),
                N_("format requested in the prompt"),
                N_("prompt request plus grammar on the decoder (constrained decoding)"),
                N_("free generation"), N_("under the schema (grammar on the decoder)"),
                N_("format compliance"), N_("accuracy"),
                N_("additions m"), N_("reasoning first: closed form"),
                N_("reasoning first: simulated [95%]"), N_("answer first: closed form"),
                N_("answer first: simulated [95%]"))


def plot_two_rates(*, compliance_prompt, compliance_constrained, accuracy_free,
                   accuracy_constrained, medium: str = "phone"):
    """The headline table as two stacked panels, form above and content below, so the two
    equal numbers visibly sit on different axes. Inputs are fractions.
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    for name, value in (("compliance_prompt", compliance_prompt),
                        ("compliance_constrained", compliance_constrained),
                        ("accuracy_free", accuracy_free),
                        ("accuracy_constrained", accuracy_constrained)):
        _validate.probability(name, value)
    fig, (form, content) = _media.subplots(medium, 2, 1, height=5.8,
                                           sharex=True)
    panels = ((form, _("Form: share of replies in a valid format"),
               [_("format asked in the prompt"), _("plus grammar on the decoder")],
               [compliance_prompt, compliance_constrained], [PALETTE["sky"], PALETTE["blue"]]),
              (content, _("Content: share of right answers"),
               [_("free generation"), _("under the schema")],
               [accuracy_free, accuracy_constrained], [PALETTE["yellow"], PALETTE["orange"]]))
    for ax, title, names, values, colours in panels:
        bars = ax.barh([wrap(n, 1.45, size="ytick.labelsize") for n in names], values,
                       color=colours)
        ax.bar_label(bars, labels=[fmt(v, ".1%") for v in values], padding=3)
        set_title(ax, title)
        ax.invert_yaxis()
        ax.set_xlim(0, 1.3)     # room right of the longest bar for its label
        ax.set_xticks([0, 0.5, 1])
    form.patches[0].set_hatch("//")
    content.patches[1].set_hatch("//")
    content.set_xlabel(_("share of replies (hatched: the two equal numbers)"))
    percent_axis(content.xaxis)
    finish(fig)
    return fig


_CELL_GROUPS = {
    "prompt_only": (N_("prompt request alone"), PALETTE["vermillion"]),
    "prompt_and_decoder": (N_("prompt, and the decoder too"), PALETTE["orange"]),
    "decoder_only": (N_("only under the decoder"), PALETTE["blue"]),
    "not_significant": (N_("no significant effect"), "#DDDDDD"),
}


def plot_cells(partition: dict[str, int], *, columns: int = 12, medium: str = "phone"):
    """A waffle of the analysed cells, one square per cell, coloured by where its
    significant effect appears; drawn for ``medium``
    (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _checks.columns("partition", partition, tuple(_CELL_GROUPS),
                    what="dict of cell counts (cell_partition's result)")
    for key in _CELL_GROUPS:
        _validate.whole(f"partition[{key!r}]", partition[key], minimum=0, maximum=10**5)
    _validate.whole("columns", columns, minimum=1, maximum=10**4)
    codes = np.concatenate([np.full(partition[k], i) for i, k in enumerate(_CELL_GROUPS)])
    rows = int(np.ceil(len(codes) / columns))
    fig, ax = _media.subplots(medium, height=5.2)
    for index, code in enumerate(codes):
        row, col = divmod(index, columns)
        ax.add_patch(plt.Rectangle((col, rows - 1 - row), 0.9, 0.9,
                                   color=list(_CELL_GROUPS.values())[code][1]))
    ax.set(xlim=(-0.1, columns), ylim=(-0.1, rows), aspect="equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.grid(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_visible(False)
    with_prompt = partition["prompt_only"] + partition["prompt_and_decoder"]
    significant = with_prompt + partition["decoder_only"]
    legend_below(ax, [Patch(color=c) for unused, c in _CELL_GROUPS.values()],
                 [f"{_(label)}: {partition[k]}"
                  for k, (label, unused) in _CELL_GROUPS.items()],
                 alignment="left",
                 title=_("one square = one cell (model × task × format); {cells} cells")
                 .format(cells=len(codes)))
    set_title(ax, _("The tax is paid at the prompt: {with_prompt} of {significant} "
                    "significant cells\nshow it with no grammar at all").format(
                        with_prompt=with_prompt, significant=significant))
    finish(fig)
    return fig


_SPREAD_IDS = ("math500_cells", "math500_significant", "math500_toward_tax", "qwen3_cells",
               "qwen3_significant", "qwen3_drop", "nemotron_drop")


def spread_table(values) -> "pd.DataFrame":
    """The study's tallies of how uneven the tax is, one row per tally, as printed text
    (each tally was counted over a different set of cells, so no column is blank-filled
    with zeros). ``values`` maps the ``format_tax`` ids to their values."""
    import pandas as pd

    if not isinstance(values, (dict, pd.Series)) or not set(_SPREAD_IDS) <= set(values.keys()):
        raise ValueError(f"values must be a dict or pandas Series holding "
                         f"{', '.join(_SPREAD_IDS)}, got {values!r}")
    for key in _SPREAD_IDS:
        _validate.real(f"values[{key!r}]", values[key])

    def whole(key):
        return f"{int(values[key])}"

    return pd.DataFrame([
        {N_("tally"): N_("MATH-500, all models and formats"),
         N_("cells"): whole("math500_cells"),
         N_("significant"): whole("math500_significant"),
         N_("toward the tax"): whole("math500_toward_tax"), N_("mean change (pp)"): ""},
        {"tally": N_("qwen3-8b, all tasks and formats"), "cells": whole("qwen3_cells"),
         "significant": whole("qwen3_significant"), "toward the tax": "",
         "mean change (pp)": fmt(values["qwen3_drop"], "+.1f")},
        {"tally": N_("nemotron3-nano, all tasks and formats"), "cells": "", "significant": "",
         "toward the tax": "", "mean change (pp)": fmt(values["nemotron_drop"], "+.1f")},
    ])


_SPEAK_SERIES = (("paper", "FRI", "NL", "sky"), ("paper", "JSON-Mode", "NL", "vermillion"),
                 ("paper", "JSON-Schema", "NL", "blue"),
                 ("rerun", NP_("speak condition", "Structured"),
                  NP_("speak baseline", "Unstructured"), "green"))


def speak_freely_deltas(frame):
    """Accuracy change against each study's free-text baseline, in points: one row per
    comparison, one column per task. ``frame`` has ``study, setting, condition, value``."""
    import pandas as pd

    _checks.frame("frame", frame, ("study", "setting", "condition", "value"))

    tasks = list(dict.fromkeys(frame["setting"]))
    rows = {}
    for study, condition, base, unused in _SPEAK_SERIES:
        values = frame[frame["study"] == study].set_index(["setting", "condition"])["value"]
        who = _("paper, gpt-4o-mini") if study == "paper" else _("re-run, Llama-3-8B")
        # the formats' names (FRI, NL) stay; the re-run's words are translated
        rows[_("{condition} vs {base} ({who})").format(
            condition=pgettext("speak condition", condition),
            base=pgettext("speak baseline", base), who=who)] = [
            float(values[(t, condition)] - values[(t, base)]) for t in tasks]
    return pd.DataFrame(rows, index=tasks).T


def plot_speak_freely(frame, *, medium: str = "phone"):
    """Grouped bars of :func:`speak_freely_deltas`, one group per task.
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _checks.frame("frame", frame, ("study", "setting", "condition", "value"))
    deltas = speak_freely_deltas(frame)
    fig, ax = _media.subplots(medium, height=6.6)
    width = 0.2
    for j, ((label, row), (*unused, colour)) in enumerate(zip(deltas.iterrows(), _SPEAK_SERIES)):
        ax.bar(np.arange(len(row)) + (j - 1.5) * width, row.values, width,
               color=PALETTE[colour], label=label)
    ax.axhline(0, color=PALETTE["black"], lw=0.8)
    slot = (FIGURE_WIDTH_IN - 1.0) / max(len(deltas.columns), 1) - 0.1
    ax.set_xticks(np.arange(len(deltas.columns)),
                  [wrap(c, slot, size="xtick.labelsize") for c in deltas.columns])
    ax.set(ylabel=wrap(_("accuracy change vs free text (pp)"), 3.0,
                       size="axes.labelsize"),
           xlabel=_("task"))
    set_title(ax, _("The sign of the tax depends on the format,\n"
                    "the task and who ran it"))
    # Below the axes: the bars reach both up and down, so no corner is free.
    legend_below(ax)
    finish(fig)
    return fig


def _regimes(name: str, table, *, every: bool) -> dict:
    """:func:`regime_table`'s result: ``{regime: {measure: (closed, rate, low, high)}}``,
    with every regime and measure if ``every``."""
    _checks.keyed(name, table, what="regime_table's result")
    ok = all(r in REGIME_LABELS and isinstance(row, dict) and all(
        m in MEASURES and isinstance(v, (tuple, list)) and len(v) == 4
        for m, v in row.items()) for r, row in table.items())
    if ok and every:
        ok = set(REGIMES) <= set(table) and all(set(MEASURES) <= set(table[r])
                                                for r in REGIMES)
    if not ok:
        raise ValueError(f"{name} must be regime_table's result (per regime, per measure: "
                         f"closed form, rate, low, high), got {table!r}")
    return table


def regime_table(generator: Generator, *, runs: int, seed: int) -> dict[str, dict]:
    """Closed form and simulation (rate, 95 % Wilson bounds) for each regime and measure."""
    _validate.instance("generator", generator, Generator)
    _validate.whole("runs", runs, minimum=1)
    _validate.whole("seed", seed, minimum=0)
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
    _checks.figure("fig", fig)
    _regimes("table", table, every=True)
    _validate.text("title", title)
    ax = fig.add_subplot()
    # Horizontal bars: the regimes' names, two lines each, read across a phone's width.
    y = np.arange(len(REGIMES))
    width = 0.26
    for j, (measure, (label, colour)) in enumerate(MEASURES.items()):
        closed, rate, low, high = (np.array([table[r][measure][i] for r in REGIMES])
                                   for i in range(4))
        position = y + (j - 1) * width
        ax.barh(position, rate, width, color=colour, label=_(label),
                xerr=[rate - low, high - rate], capsize=2)
        ax.plot(closed, position, "|", ms=12, mew=2, color=PALETTE["black"],
                label=_("closed form") if j == 0 else None)
    ax.set_yticks(y, [wrap(_(REGIME_LABELS[r]).replace("\n", " "), 1.4,
                           size="ytick.labelsize") for r in REGIMES])
    ax.invert_yaxis()
    ax.set(xlim=(0, 1.02), xticks=[0, 0.5, 1])
    ax.set_xlabel(_("share of replies"))
    set_title(ax, title)
    percent_axis(ax.xaxis)
    ax.grid(axis="y", visible=False)
    legend_below(ax, ncol=2,
                 title=_("bars: simulated, 95% interval; ticks: closed form"))
    finish(fig)
    return ax


#: Size of the regime figure: room under the axes for the legend.
REGIME_FIGSIZE = (FIGURE_WIDTH_IN, 6.8)


def plot_regimes(table, *, title: str, medium: str = "phone"):
    """:func:`draw_regimes` on a new figure, drawn for ``medium``
    (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _regimes("table", table, every=True)
    _validate.text("title", title)
    fig = _media.figure(medium, height=REGIME_FIGSIZE[1])
    draw_regimes(fig, table, title=title)
    return fig


def order_table(digits, *, step_error: float, budget: int, runs: int, seed: int):
    """Closed form and simulated answer accuracy (95 % Wilson bounds) per field order and
    problem size, a sum of ``digits`` digits (``digits - 1`` additions, the :math:`m` of
    :class:`reliability.formattax.FieldOrderToy`'s formula). Returns
    ``{order: dict(digits, closed, rate, low, high)}`` of arrays."""
    _checks.array("digits", digits, kind="whole", minimum=1)
    _validate.probability("step_error", step_error)
    _validate.whole("budget", budget, minimum=0)
    _validate.whole("runs", runs, minimum=1)
    _validate.whole("seed", seed, minimum=0)
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


_ORDER_KEYS = ("digits", "closed", "rate", "low", "high")


def _orders(name: str, table, *, every: bool) -> dict:
    """:func:`order_table`'s result; with every order if ``every``."""
    _checks.table(name, table, _ORDER_KEYS, what="order_table's result")
    if not set(table) <= set(ORDERS) or (every and not set(ORDERS) <= set(table)):
        raise ValueError(f"{name} must be order_table's result, keyed by the field orders "
                         f"{ORDERS}, got keys {list(table)}")
    return table


def plot_order(table, *, title: str, medium: str = "phone"):
    """Lines: closed forms; dots with bars: simulated answer accuracy, per field order,
    against the additions :math:`m` the formula counts (one fewer than the digits).
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _orders("table", table, every=False)
    _validate.text("title", title)
    fig, ax = _media.subplots(medium, height=6.2)
    labels = {"reasoning_first": _("reasoning field first"),
              "answer_first": _("answer field first")}
    colours = {"reasoning_first": PALETTE["blue"], "answer_first": PALETTE["vermillion"]}
    for order, t in table.items():
        additions = t["digits"] - 1   # what the formula's m counts
        ax.plot(additions, t["closed"], color=colours[order],
                label=_("{order}: closed form").format(order=labels[order]))
        ax.errorbar(additions, t["rate"], yerr=[t["rate"] - t["low"], t["high"] - t["rate"]],
                    fmt="o", ms=4, capsize=2, color=colours[order],
                    label=_("{order}: simulated, 95% interval").format(order=labels[order]))
    ax.set(xlabel=_("additions m (problem size)"), ylabel=_("answer field right"),
           ylim=(0, 1.05))
    set_title(ax, title)
    percent_axis(ax.yaxis)
    # Below the axes: the answer-first line crosses the whole plot, so no corner is free
    legend_below(ax)
    finish(fig)
    return fig


def tax_frames(generator: Generator, taxes, *, runs: int, seed: int):
    """One regime table per prompt tax, for the scrubber."""
    _validate.instance("generator", generator, Generator)
    _checks.probabilities("taxes", taxes)
    _validate.whole("runs", runs, minimum=1)
    _validate.whole("seed", seed, minimum=0)
    return {float(t): regime_table(replace(generator, prompt_tax=float(t)), runs=runs,
                                   seed=seed) for t in taxes}


def regime_frame(table: dict) -> "pd.DataFrame":
    """:func:`regime_table` as one row per regime and measure: closed form, simulated
    rate and its 95 % Wilson interval."""
    import pandas as pd

    _regimes("table", table, every=False)

    rows = [{N_("regime"): REGIME_LABELS[name].replace("\n", " "),
             N_("measure"): MEASURES[m][0], N_("closed form"): closed,
             N_("simulated"): rate, N_("95% low"): low, N_("95% high"): high}
            for name, measures in table.items()
            for m, (closed, rate, low, high) in measures.items()]
    return pd.DataFrame(rows)


def cure_table(frames: dict, taxes) -> "pd.DataFrame":
    """Simulated accuracy (95 % Wilson interval) of constrained decoding and of the
    two-turn cure at each prompt tax in ``taxes`` (keys of :func:`tax_frames`)."""
    import pandas as pd

    _checks.keyed("frames", frames, what="regime tables by prompt tax (tax_frames' result)")
    for table in frames.values():
        _regimes("frames", table, every=True)
    _checks.probabilities("taxes", taxes)
    missing = [t for t in taxes if float(t) not in frames]
    if missing:
        raise ValueError(f"taxes must be keys of frames (tax_frames' taxes), "
                         f"not {missing}")

    rows = []
    for tax in taxes:
        row = {N_("prompt tax"): float(tax)}
        for name in ("constrained", "two_turn"):
            unused, rate, low, high = frames[float(tax)][name]["right"]
            label = REGIME_LABELS[name].replace("\n", " ")
            row[label] = f"{fmt(rate, '.1%')} {interval(low, high)}"
        rows.append(row)
    return pd.DataFrame(rows)


def order_frame(table: dict) -> "pd.DataFrame":
    """:func:`order_table` as one row per problem size, the additions :math:`m` its
    formula counts (one fewer than the digits): each order's simulated answer accuracy
    with its 95 % Wilson interval, beside the closed form."""
    import pandas as pd

    _orders("table", table, every=True)

    out = pd.DataFrame({"additions m": table[ORDERS[0]]["digits"].astype(int) - 1})
    for order in ORDERS:
        t = table[order]
        name = order.replace("_", " ")
        out[f"{name}: closed form"] = [fmt(c, ".1%") for c in t["closed"]]
        out[f"{name}: simulated [95%]"] = [f"{fmt(r, '.1%')} {interval(lo, hi)}"
                                           for r, lo, hi in zip(t["rate"], t["low"], t["high"])]
    return out


def verdict_table(examples: dict, checked: dict) -> "pd.DataFrame":
    """One row per example reply: the reply, whether its form and its content passed (the
    content is not checked when the form fails), and what the validator says."""
    import pandas as pd

    _checks.of_kind("examples", examples, str, what="replies (strings) by name")
    _checks.of_kind("checked", checked, Check, what="structured.check results by name")
    if not set(examples) <= set(checked):
        raise ValueError(f"checked must hold a result for every example, missing "
                         f"{[k for k in examples if k not in checked]}")

    return pd.DataFrame({
        N_("example"): list(examples), N_("reply"): list(examples.values()),
        N_("form ok"): [N_("yes") if checked[k].form_ok else N_("no") for k in examples],
        N_("content ok"): [{True: N_("yes"), False: N_("no"),
                            None: N_("not checked")}[checked[k].content_ok]
                           for k in examples],
        N_("what the validator says"): ["; ".join(checked[k].problems) or N_("accepted")
                                        for k in examples]})


#: Prompt taxes the live explorer offers, in percentage points (every point up to 20, as
#: the chapter's table), and reformatting fidelities (every point from 80%). The
#: chapter's own value takes the place of its nearest position, so the explorer starts
#: exactly where the chapter is without two dots crowding each other.
LIVE_TAXES = tuple(float(i) for i in range(21))
LIVE_FIDELITIES = tuple(round(0.8 + 0.01 * i, 2) for i in range(21))


def _grid_with(grid, value, *, up_to: float = 1.0) -> tuple:
    # Rounded: a value built by subtraction (0.615 - 0.557) keeps float noise otherwise.
    value = round(value, 10)
    kept = [v for v in grid if v <= up_to]
    closest = nearest(kept, value)
    return tuple(sorted({v for v in kept if v != closest} | {value}))


def live_cure(*, runs: int, seed: int, free_accuracy: float, prompt_tax: float,
              reformat_fidelity: float, decoder_tax: float = 0.0):
    """The chapter's live explorer: content accuracy against the prompt's tax, for
    constrained decoding (:math:`a_0 - t_p - t_g`, falling with the tax; the decoder's
    tax ``decoder_tax`` stays where the chapter's data put it) and for the two-turn
    cure (:math:`a_0 r`, which never sees the request), beside free text (:math:`a_0`).
    Lines are closed forms; dots are :meth:`Generator.simulate`'s seeded replies (``runs``
    each, seeded as :func:`regime_table` seeds each regime) with 95 % Wilson intervals.
    The controls are the prompt tax (shown in percentage points) and the reformatting
    fidelity; ``prompt_tax`` and ``reformat_fidelity`` (probabilities) are where they
    start, each in place of the nearest position its grid offers.
    Returns a :class:`reliability.live.Explorer`."""
    from functools import lru_cache

    from ..live import Control, Explorer, Series, Words

    runs = _validate.whole("runs", runs, minimum=1, maximum=100_000)
    seed = _validate.whole("seed", seed, minimum=0)
    a0 = _validate.probability("free_accuracy", free_accuracy)
    tax = _validate.probability("prompt_tax", prompt_tax)
    fidelity = _validate.probability("reformat_fidelity", reformat_fidelity)
    t_g = _validate.probability("decoder_tax", decoder_tax)
    if tax + t_g > a0:
        raise ValueError(f"prompt_tax must be at most free_accuracy - decoder_tax "
                         f"({a0 - t_g!r}), got {tax!r}")
    taxes = _grid_with(LIVE_TAXES, 100 * tax, up_to=100 * (a0 - t_g))
    fidelities = _grid_with(LIVE_FIDELITIES, fidelity)
    tax, fidelity = round(100 * tax, 10), round(fidelity, 10)

    @lru_cache(maxsize=None)
    def simulated(name, tax=0.0, fidelity=1.0):
        generator = Generator(free_accuracy=a0, prompt_tax=tax / 100,
                              decoder_tax=t_g, reformat_fidelity=fidelity)
        sim = generator.simulate(name, runs=runs, seed=seed + REGIMES.index(name))
        return (generator.regime(name).accuracy, sim.rate("right"), *sim.interval("right"))

    def grammar_dots():
        rows = np.array([(t, *simulated("constrained", tax=t)[1:]) for t in taxes])
        return dict(zip(("x", "y", "low", "high"), rows.T))

    def cure_dot(prompt_tax, fidelity):
        unused, rate, low, high = simulated("two_turn", fidelity=fidelity)
        return {"x": [prompt_tax], "y": [rate], "low": [low], "high": [high]}

    def words(prompt_tax, fidelity):
        grammar, cure = simulated("constrained", tax=prompt_tax), simulated(
            "two_turn", fidelity=fidelity)
        filled = {f"{key}_{part}": fmt(value, ".1%") for key, row in
                  (("grammar", grammar), ("cure", cure)) for part, value in
                  zip(("closed", "rate", "low", "high"), row)}
        filled["gap"] = fmt(100 * (cure[0] - grammar[0]), "+.1f")
        return filled

    both = ("prompt_tax", "fidelity")
    span = (taxes[0], taxes[-1])
    return Explorer(
        name="ch6-cure",
        controls=(Control("prompt_tax", _("prompt tax t (pp)"), taxes, tax, ".1f"),
                  Control("fidelity", _("reformat fidelity r"), fidelities, fidelity,
                          ".0%")),
        series=(
            Series(_("free text, no format asked"), lambda: {"x": span, "y": [a0, a0]},
                   colour="grey", dashed=True),
            Series(_("constrained decoding: closed form"),
                   lambda: {"x": taxes, "y": [a0 - t / 100 - t_g for t in taxes]}),
            Series(_("constrained: simulated, {runs:,d} replies, 95% Wilson interval").format(
                runs=runs), grammar_dots, kind="points"),
            Series(_("two turns: closed form"),
                   lambda fidelity: {"x": span, "y": [a0 * fidelity] * 2},
                   depends=("fidelity",), colour="vermillion"),
            Series(_("two turns: simulated, 95% Wilson interval"), cure_dot, depends=both,
                   kind="points", colour="vermillion"),
            Series(_("the chosen tax"), lambda prompt_tax: {
                "x": [prompt_tax], "y": [a0 - prompt_tax / 100 - t_g]},
                depends=("prompt_tax",),
                   kind="marker", colour="black")),
        # Doubled braces are the sentence's slots, filled on the page.
        words=Words(_("Model: free text is right {a0:.1%} of the time. With a prompt tax "
                      "of {{prompt_tax}} pp and a decoder tax of {t_g:.1f} pp, constrained "
                      "decoding is right {{grammar_closed}} "
                      "(simulated, n = {runs:,d}: {{grammar_rate}}, 95% Wilson "
                      "interval {{grammar_low}} to {{grammar_high}}); solving in free text "
                      "and reformatting with fidelity {{fidelity}} is right {{cure_closed}} "
                      "({{cure_rate}}, {{cure_low}} to {{cure_high}}). The cure minus "
                      "constrained decoding: {{gap}} pp.").format(a0=a0, runs=runs,
                                                                  t_g=100 * t_g),
                    words, depends=both),
        x_label=_("prompt tax t (pp of accuracy)"),
        y_label=_("share of replies right"), x_percent=False, y_percent=True,
        title=_("Accuracy and the prompt tax (model)"),
        alt=_("Line chart: the share of replies right against the prompt tax from 0 to "
              "20 percentage points. Constrained decoding falls as the tax grows; the "
              "two-turn cure is a flat line set by the reformatting fidelity; free text is "
              "a flat dashed line above both. Dots with interval bars are seeded "
              "simulations; a black ring marks the chosen tax."),
        x_range=(-0.5, taxes[-1] + 0.5), y_range=None,
        source=("reliability.figures.formattax.live_cure",
                {"runs": runs, "seed": seed, "free_accuracy": a0,
                 "prompt_tax": round(tax / 100, 12), "reformat_fidelity": fidelity,
                 **({"decoder_tax": t_g} if t_g else {})}))
