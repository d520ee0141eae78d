"""Figures for the ablation lab: the guardrail ladder, the validator's blind spot, the
capability ladder, the rig beside the lab, the fault-rate scrubber frame, the dashboard."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..lab.arms import FAILURE_CLASSES
from ..lab.guardrails import GUARDRAILS
from ..notebook import PALETTE, percent_axis
from ..stats import wilson_interval

_ARM_COLOURS = {"baseline": PALETTE["grey"], "mismatched": PALETTE["orange"],
                "matched": PALETTE["blue"]}
_CLASS_COLOURS = {"success": PALETTE["green"], "fixed": PALETTE["sky"],
                  "inconsistent": PALETTE["vermillion"], "never_retrieved": PALETTE["purple"],
                  "wrong_record": PALETTE["black"], "non_numeric": PALETTE["yellow"],
                  "no_submit": PALETTE["orange"], "turn_limit": PALETTE["grey"]}


def _bar(arm):
    low, high = arm.interval()
    return arm.rate, arm.rate - low, high - arm.rate


def ladder_table(rows) -> list[dict]:
    """The numbers behind :func:`plot_ladder`, one dict per failure class and arm."""
    table = []
    for failure, row in rows.items():
        for role in ("baseline", "mismatched", "matched"):
            arm = row[role]
            low, high = arm.interval()
            guardrail = {"baseline": "-", "mismatched": row["mismatched_name"],
                         "matched": row["matched_name"]}[role]
            table.append({"failure": failure, "arm": role, "guardrail": guardrail,
                          "successes": arm.successes, "runs": arm.runs, "rate": arm.rate,
                          "low": low, "high": high,
                          "fired": 0 if role == "baseline" else arm.fired[guardrail]})
    return table


def plot_ladder(rows, *, title: str):
    """One row per failure class: baseline, mismatched and matched arm, with Wilson bars
    and how often the arm's guardrail fired."""
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    labels, ticks = [], []
    for i, (failure, row) in enumerate(rows.items()):
        for j, role in enumerate(("baseline", "mismatched", "matched")):
            y = i * 4 + j
            arm = row[role]
            rate, below, above = _bar(arm)
            ax.barh(y, rate, color=_ARM_COLOURS[role], height=0.8,
                    label=role if i == 0 else None)
            ax.errorbar(rate, y, xerr=[[below], [above]], fmt="none", color="black",
                        capsize=2, lw=1)
            if role != "baseline":
                name = row[f"{role}_name"]
                ax.text(1.02, y, f"{name.replace('_', ' ')}: fired {arm.fired[name]}x",
                        va="center", fontsize=8)
        labels.append(failure)
        ticks.append(i * 4 + 1)
    ax.set_yticks(ticks, labels)
    ax.invert_yaxis()
    ax.set(xlim=(0, 1), xlabel="share of runs graded PASS by the oracle (95% Wilson interval)",
           title=title)
    percent_axis(ax.xaxis)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, -0.32), ncol=3, fontsize=9)
    ax.grid(axis="y", visible=False)
    fig.tight_layout()
    return fig


def composition(arm, *, fixed: int = 0) -> dict:
    """Shares of ``arm``'s runs by class; ``fixed`` of its successes split off as fixed."""
    shares = {"success": (arm.classes.get("success", 0) - fixed) / arm.runs}
    if fixed:
        shares["fixed"] = fixed / arm.runs
    for name in FAILURE_CLASSES:
        shares[name] = arm.classes.get(name, 0) / arm.runs
    return shares


def plot_blind_spot(arms: dict, *, title: str):
    """Stacked bars: what each arm's runs ended as. ``arms``: label -> composition dict."""
    names = {"success": "right", "fixed": "right after validation sent the parts back",
             **FAILURE_CLASSES}
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    for y, (label, shares) in enumerate(arms.items()):
        left = 0.0
        for key, share in shares.items():
            if share <= 0:
                continue
            ax.barh(y, share, left=left, color=_CLASS_COLOURS[key], edgecolor="white",
                    label=names[key] if key not in ax.get_legend_handles_labels()[1] else None)
            if share >= 0.06:
                ax.text(left + share / 2, y, f"{share:.0%}", ha="center", va="center",
                        fontsize=8, color="white" if key in ("wrong_record", "never_retrieved",
                                                             "inconsistent") else "black")
            left += share
    ax.set_yticks(range(len(arms)), list(arms))
    ax.invert_yaxis()
    ax.set(xlim=(0, 1), xlabel="share of runs", title=title)
    percent_axis(ax.xaxis)
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    ax.legend(unique.values(), unique.keys(), loc="upper center", bbox_to_anchor=(0.5, -0.22),
              ncol=2, fontsize=8)
    ax.grid(axis="y", visible=False)
    fig.tight_layout()
    return fig


def plot_capability(ladder: dict, *, title: str):
    """Baseline and guarded bars per profile; a profile with nothing to close gets none."""
    fig, ax = plt.subplots(figsize=(7.0, 4.0))
    for i, (name, (base, guarded)) in enumerate(ladder.items()):
        for offset, arm, colour, label in ((-0.2, base, PALETTE["grey"], "baseline"),
                                           (0.2, guarded, PALETTE["blue"], "+ all four guardrails")):
            if arm is None:
                ax.text(i + offset, 0.5, "no bar:\nnothing\nto close", ha="center",
                        va="center", fontsize=8)
                continue
            rate, below, above = _bar(arm)
            ax.bar(i + offset, rate, width=0.38, color=colour, label=label if i == 1 or (
                i == 0 and label == "baseline") else None)
            ax.errorbar(i + offset, rate, yerr=[[below], [above]], fmt="none", color="black",
                        capsize=3, lw=1)
    ax.set_xticks(range(len(ladder)), [f"{n} profile" for n in ladder])
    ax.set(ylim=(0, 1.05), ylabel="share of runs graded PASS (95% Wilson)", title=title)
    percent_axis(ax.yaxis)
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    ax.legend(unique.values(), unique.keys(), loc="upper right", fontsize=9)
    fig.tight_layout()
    return fig


def plot_rig_vs_lab(rows: list[dict], *, title: str):
    """Each row: the rig's published gap and the lab's, both with Newcombe intervals.
    ``rows``: dicts with label, rig, rig_low, rig_high, lab, lab_low, lab_high (in pp)."""
    fig, ax = plt.subplots(figsize=(8.0, 4.2))
    for i, row in enumerate(rows):
        for offset, key, colour, marker, label in ((-0.15, "rig", PALETTE["vermillion"], "s",
                                                    "rig, real models (published)"),
                                                   (0.15, "lab", PALETTE["blue"], "o",
                                                    "lab, simulated profile")):
            value, low, high = row[key], row[f"{key}_low"], row[f"{key}_high"]
            ax.errorbar(value, i + offset, xerr=[[value - low], [high - value]], fmt=marker,
                        color=colour, capsize=3, label=label if i == 0 else None)
    ax.axvline(0, color="black", lw=1)
    ax.set_yticks(range(len(rows)), [r["label"] for r in rows])
    ax.invert_yaxis()
    ax.set(xlabel="gap closed by the guardrail, percentage points (95% Newcombe interval)",
           title=title)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, -0.35), ncol=2, fontsize=9)
    ax.grid(axis="y", visible=False)
    fig.tight_layout()
    return fig


def draw_fault_rate(fig, rate, *, frames: dict, closed: dict):
    """One scrubber frame: both arms at ``rate`` (Wilson bars) on their closed-form curves.
    ``frames``: rate -> (baseline ArmResult, recovery ArmResult); ``closed``: label ->
    (rates, values)."""
    ax = fig.add_subplot(111)
    for (label, (xs, ys)), colour in zip(closed.items(), (PALETTE["grey"], PALETTE["blue"])):
        ax.plot(xs, ys, color=colour, lw=1.5, label=f"{label}: closed form")
    base, recovered = frames[rate]
    for arm, colour in ((base, PALETTE["grey"]), (recovered, PALETTE["blue"])):
        value, below, above = _bar(arm)
        ax.errorbar(rate, value, yerr=[[below], [above]], fmt="o", color=colour, capsize=3)
    gap = recovered.rate - base.rate
    ax.set(xlim=(-0.02, 0.92), ylim=(0, 1.05), xlabel="injected transient fault rate per call",
           ylabel="share of runs graded PASS",
           title=f"fault rate {rate:.0%}: error recovery adds {100 * gap:+.0f} points to the pass rate")
    percent_axis(ax.yaxis)
    percent_axis(ax.xaxis)
    ax.legend(loc="lower left", fontsize=9)
    fig.tight_layout()


def plot_dashboard(dash, *, title: str):
    """The four rows of "measure your own" as four panels."""
    fig, axes = plt.subplots(2, 2, figsize=(8.0, 6.0))
    ks = np.array(sorted(dash.pass_k))
    values = np.array([dash.pass_k[k] for k in ks])
    ax = axes[0, 0]
    ax.plot(ks, values, "o-", color=PALETTE["blue"], label="measured pass^k")
    ax.plot(ks, values[0] ** ks, "--", color=PALETTE["grey"], label="pass^1 to the k")
    ax.set(xlabel="k (runs that must all succeed)", ylabel="share of cases", ylim=(0, 1),
           title=f"pass^k over {dash.cases} cases x {dash.runs_per_case} runs")
    percent_axis(ax.yaxis)
    ax.legend(fontsize=8)
    for ax, (count, total, label, what) in zip(
            (axes[0, 1], axes[1, 0]),
            ((dash.rejected, dash.answers, "answers rejected by validation", "answers"),
             (dash.turn_limited, dash.runs, "runs that hit the turn limit", "runs"))):
        if total:
            low, high = wilson_interval(count, total)
            share = count / total
            ax.bar([0], [share], color=PALETTE["orange"], width=0.5)
            ax.errorbar([0], [share], yerr=[[share - low], [high - share]], fmt="none",
                        color="black", capsize=4)
        else:   # no answer reached the validator (e.g. one turn a run): no share to draw
            high = 0.0
            ax.text(0, 0.05, f"no {what} to count", ha="center", va="center", fontsize=9)
        ax.set(xlim=(-1, 1), ylim=(0, max(0.1, high * 1.3)), ylabel=f"share of {what}",
               title=f"{label}: {count} of {total}")
        ax.set_xticks([])
        percent_axis(ax.yaxis)
    ax = axes[1, 1]
    counts = [dash.fired[g] for g in GUARDRAILS]
    ax.barh(range(len(GUARDRAILS)), counts, color=PALETTE["sky"])
    ax.set_yticks(range(len(GUARDRAILS)), [g.replace("_", " ") for g in GUARDRAILS])
    ax.invert_yaxis()
    ax.set(xlabel=f"times fired in {dash.runs} runs", title="firings per guardrail")
    ax.grid(axis="y", visible=False)
    fig.suptitle(title, fontsize=12)
    fig.tight_layout()
    return fig
