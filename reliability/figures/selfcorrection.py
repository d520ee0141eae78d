"""Tables and figures for self-correction and self-conditioning."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..notebook import PALETTE, percent_axis
from ..selfconditioning import SelfConditioning
from ..selfcorrection import ORACLE, Arbiter, Revision, loop_accuracy, simulate_loop

_COLUMNS = {"Standard Prompting": "before", "Self-Correct (round 1)": "round 1",
            "Self-Correct (round 2)": "round 2", "Self-Correct (Oracle)": "with oracle"}


def round_table(huang: pd.DataFrame) -> pd.DataFrame:
    """Huang et al.'s rows pivoted to one row per model and benchmark, with the change
    each round makes (percentage points) beside the accuracies."""
    wide = (huang.assign(column=huang["condition"].map(_COLUMNS))
            .pivot_table(index=["model", "setting"], columns="column", values="value",
                         aggfunc="first")[list(_COLUMNS.values())])
    order = [b for b in ("GSM8K", "CommonSenseQA", "HotpotQA")
             if b in wide.index.get_level_values(1)]
    wide = wide.reindex(order, level=1)
    wide["change, round 1"] = wide["round 1"] - wide["before"]
    wide["change, round 2"] = wide["round 2"] - wide["round 1"]
    wide["change, oracle"] = wide["with oracle"] - wide["before"]
    wide.index.names = ["model", "benchmark"]
    wide.columns.name = None
    return wide


def _sign_colour(value) -> str:
    if not isinstance(value, (int, float)) or np.isnan(value) or value == 0:
        return "color: #555555"
    colour = PALETTE["blue"] if value > 0 else PALETTE["vermillion"]
    return f"color: {colour}; font-weight: bold"


def styled_changes(table: pd.DataFrame, *, name: str, digits: int = 1) -> str:
    """HTML for ``table`` with every ``change`` column coloured by sign (blue up,
    vermillion down) and signed. The id is fixed by ``name`` so the HTML is identical on
    every run."""
    changes = [c for c in table.columns if str(c).startswith("change")]
    styler = (table.style.set_uuid(name)
              .format(f"{{:.{digits}f}}", na_rep="",
                      subset=list(table.select_dtypes("number").columns))
              .format(f"{{:+.{digits}f}}", subset=changes, na_rep="")
              .map(_sign_colour, subset=changes))
    return styler.to_html()


def rounds_frame(revision: Revision, initial: float, rounds: int, arbiters: dict, *,
                 questions: int, seed: int) -> dict:
    """Closed form and simulated accuracy (95 % Wilson bounds) per loop, rounds 0..k."""
    ks = np.arange(rounds + 1)
    out = {}
    for i, (label, arbiter) in enumerate(arbiters.items()):
        sim = simulate_loop(revision, initial, rounds, questions=questions, seed=seed + i,
                            arbiter=arbiter)
        low, high = sim.interval()
        out[label] = dict(round=ks, closed=loop_accuracy(revision, initial, ks, arbiter),
                          rate=sim.accuracy, low=low, high=high)
    return out


_LOOP_COLOURS = [PALETTE["vermillion"], PALETTE["blue"], PALETTE["green"], PALETTE["purple"]]


def plot_rounds(frame: dict, *, title: str, ax=None):
    """Lines: closed forms. Dots with bars: simulated accuracy and its 95 % interval."""
    fig, ax = (plt.subplots() if ax is None else (ax.figure, ax))
    for colour, (label, t) in zip(_LOOP_COLOURS, frame.items()):
        ax.plot(t["round"], t["closed"], color=colour, label=f"{label}: closed form")
        ax.errorbar(t["round"], t["rate"], yerr=[t["rate"] - t["low"], t["high"] - t["rate"]],
                    fmt="o", ms=4, capsize=2, color=colour)
    ax.set(xlabel="rounds of revision", ylabel="share of answers right", title=title)
    percent_axis(ax.yaxis)
    ax.legend(fontsize=9, title="dots: simulated, 95% interval", title_fontsize=8)
    fig.tight_layout()
    return fig


def draw_recall_frame(fig, recall: float, *, revision: Revision, initial: float,
                      rounds: int, false_reject: float):
    """One scrubber frame: intrinsic, an arbiter of this recall, and the oracle."""
    ax = fig.add_subplot()
    ks = np.arange(rounds + 1)
    loops = {"intrinsic revision": None,
             f"arbiter, recall {recall:.0%}, false rejection {false_reject:.0%}":
                 Arbiter(recall=recall, false_reject=false_reject),
             "oracle (stop when right)": ORACLE}
    for colour, (label, arbiter) in zip(_LOOP_COLOURS, loops.items()):
        ax.plot(ks, loop_accuracy(revision, initial, ks, arbiter), "-o", ms=3,
                color=colour, label=label)
    final = loop_accuracy(revision, initial, rounds, Arbiter(recall, false_reject))
    ax.set(xlabel="rounds of revision", ylabel="share of answers right (closed form)",
           ylim=(min(0.6, initial - 0.1), 1.0),
           title=f"Recall {recall:.0%}: {final:.1%} right after {rounds} rounds")
    percent_axis(ax.yaxis)
    ax.legend(fontsize=9, loc="lower right")
    fig.tight_layout()


def conditioning_frame(models: dict[str, SelfConditioning], steps: int, *, runs: int,
                       seed: int) -> dict:
    """Expected and simulated per-step accuracy (95 % Wilson bounds) for each model."""
    out = {}
    for i, (label, model) in enumerate(models.items()):
        sim = model.simulate(steps, runs=runs, seed=seed + i)
        low, high = sim.interval()
        out[label] = dict(step=np.arange(1, steps + 1), closed=model.expected_accuracy(steps),
                          rate=sim.accuracy(), low=low, high=high,
                          floor=1.0 - model.fixed_point())
    return out


def plot_conditioning(frame: dict, *, title: str, every: int = 10):
    """Per-step accuracy along the trajectory: closed-form lines, simulated dots with
    95 % intervals (every ``every``-th step, to keep them legible), dashed long-run level."""
    fig, ax = plt.subplots()
    for colour, (label, t) in zip([PALETTE["vermillion"], PALETTE["blue"], PALETTE["green"]],
                                  frame.items()):
        ax.plot(t["step"], t["closed"], color=colour, label=f"{label}: expected")
        pick = slice(every - 1, None, every)
        ax.errorbar(t["step"][pick], t["rate"][pick],
                    yerr=[t["rate"][pick] - t["low"][pick], t["high"][pick] - t["rate"][pick]],
                    fmt="o", ms=3, capsize=2, color=colour)
        ax.axhline(t["floor"], color=colour, ls="--", lw=1)
    ax.set(xlabel="step of the trajectory", ylabel="share of runs whose step is right",
           title=title)
    percent_axis(ax.yaxis)
    ax.legend(fontsize=9, title="dots: simulated, 95% interval; dashed: long-run level",
              title_fontsize=8)
    fig.tight_layout()
    return fig
