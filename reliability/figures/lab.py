"""Figures for the ablation lab: the guardrail ladder, the validator's blind spot, the
capability ladder, the rig beside the lab, both arms at one fault rate, the dashboard, and
the fault-rate live explorer."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator

from .. import _validate
from ..lab.arms import FAILURE_CLASSES, ArmResult, Dashboard, Gap
from ..lab.guardrails import GUARDRAILS
from ..lab.rig import StageMirror
from ..notebook import PALETTE, percent_axis
from ..notebook.style import FIGURE_WIDTH_IN
from ..stats import wilson_interval
from . import _checks, _media
from ._layout import finish, legend_below, title as set_title, wrap
from ..live import nearest
from ..i18n import N_, NP_, _, ngettext, pgettext, translate
from ..numbers import counted, fmt, interval

__all__ = ["ladder_table", "plot_ladder", "composition", "plot_blind_spot",
           "plot_capability", "plot_rig_vs_lab", "draw_fault_rate", "plot_fault_rate",
           "pass_k_band", "plot_dashboard", "plot_explorer", "capability_table",
           "rig_check_table", "mirror_rows", "mirror_table", "live_fault_rate",
           "FAULT_FIGSIZE"]

_ARM_COLOURS = {"baseline": PALETTE["grey"], "mismatched": PALETTE["orange"],
                "matched": PALETTE["blue"]}
_CLASS_COLOURS = {"success": PALETTE["green"], "fixed": PALETTE["sky"],
                  "inconsistent": PALETTE["vermillion"], "never_retrieved": PALETTE["purple"],
                  "wrong_record": PALETTE["black"], "non_numeric": PALETTE["yellow"],
                  "no_submit": PALETTE["orange"], "turn_limit": PALETTE["grey"]}


#: The arms' roles and the guardrails' code names, as the ladder's table shows them.
_ROLES = (NP_("arm", "baseline"), NP_("arm", "mismatched"), NP_("arm", "matched"))
_TABLE_WORDS = (N_("error_recovery"), N_("retry_nudge"), N_("submit_nudge"),
                N_("validation"))
#: The profiles' names, as the capability ladder labels them.
_PROFILE_NAMES = (NP_("profile", "strong"), NP_("profile", "medium"),
                  NP_("profile", "weak"), NP_("profile", "clean"))

_LADDER_KEYS = ("baseline", "mismatched", "matched", "matched_name", "mismatched_name")
_MIRROR_KEYS = ("label", "rig", "rig_low", "rig_high", "lab", "lab_low", "lab_high")
_RIG_COLUMNS = ("stage", "condition", "metric", "model", "value", "low", "high",
                "successes", "trials")


def _guardrail_label(name: str) -> str:
    """A guardrail's code name (``error_recovery``) as a figure labels it: its short name
    in the page's language, or the name with spaces in English."""
    word = translate(name)
    return name.replace("_", " ") if word == name else word


def _ladder_rows(rows) -> dict:
    """What :func:`reliability.lab.failure_ladder` returns: class -> arms and names."""
    _checks.table("rows", rows, _LADDER_KEYS, what="failure_ladder's rows")
    for row in rows.values():
        for role in ("baseline", "mismatched", "matched"):
            if not isinstance(row[role], ArmResult):
                raise ValueError(f"rows must hold ArmResults under {role!r}, got {rows!r}")
    return rows


def _profile_ladder(ladder) -> dict:
    """What :func:`reliability.lab.capability_ladder` returns: name -> (baseline, guarded
    or None)."""
    _checks.keyed("ladder", ladder, what="profile names to (baseline, guarded) arms")
    for pair in ladder.values():
        if (not isinstance(pair, tuple) or len(pair) != 2
                or not isinstance(pair[0], ArmResult)
                or not isinstance(pair[1], (ArmResult, type(None)))):
            raise ValueError("ladder must map profile names to (ArmResult, ArmResult or "
                             f"None) pairs, got {ladder!r}")
    return ladder


def _mirrors(mirrors) -> tuple:
    return _validate.sequence("mirrors", mirrors, of=StageMirror, what="StageMirrors",
                              minimum=1)


def _bar(arm):
    low, high = arm.interval()
    return arm.rate, arm.rate - low, high - arm.rate


def ladder_table(rows) -> list[dict]:
    """The numbers behind :func:`plot_ladder`, one dict per failure class and arm."""
    _ladder_rows(rows)
    table = []
    for failure, row in rows.items():
        for role in ("baseline", "mismatched", "matched"):
            arm = row[role]
            low, high = arm.interval()
            guardrail = {"baseline": "-", "mismatched": row["mismatched_name"],
                         "matched": row["matched_name"]}[role]
            table.append({N_("failure"): failure, N_("arm"): role,
                          N_("guardrail"): guardrail, N_("successes"): arm.successes,
                          N_("runs"): arm.runs, N_("rate"): arm.rate, N_("low"): low,
                          N_("high"): high,
                          N_("fired"): 0 if role == "baseline" else arm.fired[guardrail]})
    return table


def _ladder_panel(ax, rows: list, width: float, *, first: bool,
                  compact: bool = False) -> None:
    """The failures ``rows`` (name, row) down ``ax``, each arm's note wrapped to
    ``width`` inches; the arms are labelled for the legend in the ``first`` panel.
    ``compact`` (a slide, whose height is fixed): the legend's colours name the arms,
    so the baseline gets no note and a guardrail's note only its name and count."""
    y = 0.0
    for i, (failure, row) in enumerate(rows):
        ax.text(0, y, translate(failure), va="top", ha="left", fontweight="bold",
                in_layout=False)
        y += 1.1
        for role in ("baseline", "mismatched", "matched"):
            arm = row[role]
            note = "" if compact else pgettext("arm", role)
            if role != "baseline":
                name = row[f"{role}_name"]
                fired = _("{name}: fired {count}x").format(name=_guardrail_label(name),
                                                          count=arm.fired[name])
                note = fired if compact else note + " — " + fired
            lines = 0
            if note:
                note = wrap(note, width)
                ax.text(0, y, note, va="top", ha="left", in_layout=False)
                lines = note.count("\n") + 1
            bar = y + 0.9 * lines + 0.5
            rate, below, above = _bar(arm)
            ax.barh(bar, rate, color=_ARM_COLOURS[role], height=0.85,
                    label=pgettext("arm", role) if i == 0 and first else None)
            ax.errorbar(rate, bar, xerr=[[below], [above]], fmt="none",
                        color="black", capsize=2, lw=1)
            y = bar + 0.65
        y += 0.1
    ax.set_ylim(y, -0.1)
    ax.set_yticks([])
    ax.spines["left"].set_visible(False)


def plot_ladder(rows, *, title: str, medium: str = "phone"):
    """One row per failure class: baseline, mismatched and matched arm, with Wilson bars
    and how often the arm's guardrail fired; drawn for ``medium``
    (:data:`reliability.figures._media.MEDIA`: the failures in two columns on a
    slide)."""
    _media.medium(medium)
    _ladder_rows(rows)
    _validate.text("title", title)
    # Each failure's name, then each arm's bar under a line naming it (and how often its
    # guardrail fired): the bars keep the whole width of a phone. In units of 0.25 in.
    notes = sum((1 + (role != "baseline")) for unused in rows
                for role in ("baseline", "mismatched", "matched"))   # lines, at most
    units = len(rows) * 1.2 + notes * 0.9 + len(rows) * 3 * 1.15
    columns = _media.panels(medium, list(rows.items()))
    fig, axes = _media.subplots(medium, len(columns), 1, height=0.25 * units + 3.0,
                                squeeze=False)
    for ax, column in zip(axes.flat, columns):
        _ladder_panel(ax, column, _media.width(medium) / len(columns) - 0.7,
                      first=column is columns[0], compact=medium == "slide")
        ax.set(xlim=(0, 1), xlabel=_(
            "share of runs graded PASS by the oracle (95% Wilson interval)"))
        if len(columns) == 1:
            set_title(ax, title)
        percent_axis(ax.xaxis)
    if len(columns) > 1:
        fig.suptitle(title)
    legend = legend_below(axes.flat[0], ncol=_media.columns(medium, 1))
    for ax in axes.flat:
        ax.grid(axis="y", visible=False)
    finish(fig, **({} if len(columns) == 1 else _media.legend_room(legend)))
    legend.set_in_layout(True)   # the saved image's bounds take it in
    return fig


def composition(arm, *, fixed: int = 0) -> dict:
    """Shares of ``arm``'s runs by class; ``fixed`` of its successes split off as fixed."""
    _validate.instance("arm", arm, ArmResult)
    _validate.whole("fixed", fixed, minimum=0, maximum=arm.successes)
    shares = {"success": (arm.classes.get("success", 0) - fixed) / arm.runs}
    if fixed:
        shares["fixed"] = fixed / arm.runs
    for name in FAILURE_CLASSES:
        shares[name] = arm.classes.get(name, 0) / arm.runs
    return shares


def plot_blind_spot(arms: dict, *, title: str, medium: str = "phone"):
    """Stacked bars: what each arm's runs ended as. ``arms``: label -> composition dict.
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _checks.table("arms", arms, ("success",), what="labels to composition() dicts")
    for shares in arms.values():
        if not set(shares) <= set(_CLASS_COLOURS):
            raise ValueError(f"arms must hold composition() dicts, got {arms!r}")
        _checks.probabilities("arms", list(shares.values()))
    _validate.text("title", title)
    names = {key: translate(text) for key, text in {
        "success": N_("right"), "fixed": N_("right after validation sent the parts back"),
        **FAILURE_CLASSES}.items()}
    fig, ax = _media.subplots(medium, height=6.4)
    for y, (label, shares) in enumerate(arms.items()):
        left = 0.0
        for key, share in shares.items():
            if share <= 0:
                continue
            ax.barh(y, share, left=left, color=_CLASS_COLOURS[key], edgecolor="white",
                    label=names[key] if key not in ax.get_legend_handles_labels()[1] else None)
            if share >= 0.12:          # room inside the slice for its label
                ax.text(left + share / 2, y, fmt(share, ".0%"), ha="center", va="center",
                        color="white" if key in ("wrong_record", "never_retrieved",
                                                             "inconsistent") else "black")
            left += share
    ax.set_yticks(range(len(arms)), list(arms))
    ax.invert_yaxis()
    ax.set(xlim=(0, 1), xlabel=_("share of runs"))
    set_title(ax, title)
    percent_axis(ax.xaxis)
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    legend_below(ax, list(unique.values()), list(unique.keys()))
    ax.grid(axis="y", visible=False)
    finish(fig)
    return fig


def plot_capability(ladder: dict, *, title: str, medium: str = "phone"):
    """Baseline and guarded bars per profile; a profile with nothing to close gets none.
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _profile_ladder(ladder)
    _validate.text("title", title)
    fig, ax = _media.subplots(medium, height=5.4)
    for i, (name, (base, guarded)) in enumerate(ladder.items()):
        for offset, arm, colour, label in ((-0.2, base, PALETTE["grey"],
                                            pgettext("arm", "baseline")),
                                           (0.2, guarded, PALETTE["blue"],
                                            _("+ all four guardrails"))):
            if arm is None:
                # upright in the empty slot, where a phone's width has room for it
                # centred in the free space between its neighbours
                note = wrap(_("no bar:\nnothing\nto close"), 2.4)
                ax.text(i + offset + 0.1, 0.03, note, ha="center", va="bottom",
                        rotation=90)
                continue
            rate, below, above = _bar(arm)
            ax.bar(i + offset, rate, width=0.38, color=colour, label=label if i == 1 or (
                i == 0 and offset < 0) else None)
            ax.errorbar(i + offset, rate, yerr=[[below], [above]], fmt="none", color="black",
                        capsize=3, lw=1)
    slot = (FIGURE_WIDTH_IN - 1.2) / max(len(ladder), 1) - 0.1
    ax.set_xticks(range(len(ladder)),
                  [wrap(_("{name} profile").format(name=pgettext("profile", n)), slot,
                        size="xtick.labelsize") for n in ladder])
    ax.set(ylim=(0, 1.05), ylabel=wrap(_("share of runs graded PASS (95% Wilson)"), 3.0,
                                        size="axes.labelsize"))
    set_title(ax, title)
    percent_axis(ax.yaxis)
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    # Below the axes: bars reach the top of every column, so no corner is free.
    legend_below(ax, list(unique.values()), list(unique.keys()), ncol=2)
    finish(fig)
    return fig


def plot_rig_vs_lab(rows: list[dict], *, title: str, medium: str = "phone"):
    """Each row: the rig's published gap and the lab's, both with Newcombe intervals.
    ``rows``: dicts with label, rig, rig_low, rig_high, lab, lab_low, lab_high (in pp).
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _validate.sequence("rows", rows, of=dict, what="dicts of gaps in pp", minimum=1)
    for row in rows:
        _checks.columns("rows", row, _MIRROR_KEYS, what="list of dicts")
    _validate.text("title", title)
    # Each stage's name above its two intervals, so they keep the whole width; a name
    # wrapped onto more lines pushes its intervals down by as many lines, or its box
    # would paint over them (a Russian name takes two lines at a phone's width).
    labels = [wrap(row["label"], FIGURE_WIDTH_IN - 0.7) for row in rows]
    extra = [label.count("\n") for label in labels]
    line = 0.45                        # one more line of a name, in rows' units
    fig, ax = _media.subplots(medium, height=3.2 + 0.5 * len(rows) + 0.3 * sum(extra))
    pitch = 1.7
    tops = np.cumsum([0.0] + [pitch + line * n for n in extra])
    for i, row in enumerate(rows):
        # left out of the layout, which would otherwise narrow the axes to fit a long
        # name beside them
        ax.text(0.0, tops[i], labels[i], va="top", ha="left",
                transform=ax.get_yaxis_transform(), in_layout=False,
                bbox=dict(facecolor="white", edgecolor="none", pad=1))
        for offset, key, colour, marker, label in (
                (0.95, "rig", PALETTE["vermillion"], "s",
                 _("rig, real models (published)")),
                (1.35, "lab", PALETTE["blue"], "o", _("lab, simulated profile"))):
            value, low, high = row[key], row[f"{key}_low"], row[f"{key}_high"]
            ax.errorbar(value, tops[i] + line * extra[i] + offset,
                        xerr=[[value - low], [high - value]],
                        fmt=marker, color=colour, capsize=3,
                        label=label if i == 0 else None)
    ax.axvline(0, color="black", lw=1)
    ax.set_yticks([])
    ax.spines["left"].set_visible(False)
    ax.set_ylim(tops[-1], -0.05)
    ax.set(xlabel=_("gap closed by the guardrail, percentage points "
                    "(95% Newcombe interval)"))
    set_title(ax, title)
    legend_below(ax)
    ax.grid(axis="y", visible=False)
    finish(fig)
    return fig


def draw_fault_rate(fig, rate, *, frames: dict, closed: dict, medium: str = "phone"):
    """Both arms at ``rate`` (Wilson bars) on their closed-form curves, on ``fig``, the
    legend laid out for ``medium`` (:data:`reliability.figures._media.MEDIA`).
    ``frames``: rate -> (baseline ArmResult, recovery ArmResult); ``closed``: label ->
    (rates, values)."""
    _checks.figure("fig", fig)
    _media.medium(medium)
    _validate.real("rate", rate, minimum=0.0, maximum=1.0)
    _checks.keyed("frames", frames, what="fault rates to (baseline, recovery) arms")
    if rate not in frames:
        raise ValueError(f"rate must be one of frames' rates {sorted(frames)}, got {rate!r}")
    pair = frames[rate]
    if not (isinstance(pair, tuple) and len(pair) == 2
            and all(isinstance(a, ArmResult) for a in pair)):
        raise ValueError(f"frames must map rates to (ArmResult, ArmResult), got {frames!r}")
    _checks.keyed("closed", closed, what="labels to (rates, values) curves")
    for curve in closed.values():
        if not (isinstance(curve, tuple) and len(curve) == 2):
            raise ValueError(f"closed must map labels to (rates, values), got {closed!r}")
        _checks.array("closed", curve[0])
        # closed forms may stray past 1 by rounding (1.0000000000000004): real, not [0, 1]
        _checks.array("closed", curve[1], length=len(curve[0]), per="rate")
    ax = fig.add_subplot(111)
    for (label, (xs, ys)), colour in zip(closed.items(), (PALETTE["grey"], PALETTE["blue"])):
        ax.plot(xs, ys, color=colour, lw=1.5, label=_("{label}: closed form").format(
            label=label))
    base, recovered = frames[rate]
    for arm, colour in ((base, PALETTE["grey"]), (recovered, PALETTE["blue"])):
        value, below, above = _bar(arm)
        ax.errorbar(rate, value, yerr=[[below], [above]], fmt="o", color=colour, capsize=3)
    gap = recovered.rate - base.rate
    ax.set(xlim=(-0.02, 0.92), ylim=(0, 1.05),
           xlabel=_("injected transient fault rate per call"),
           ylabel=_("share of runs graded PASS"))
    set_title(ax, _("Lab model, fault rate {rate:.0%}:\n"
                    "error recovery adds {gap:+.0f} pp to the pass rate").format(
                        rate=rate, gap=100 * gap))
    percent_axis(ax.yaxis)
    percent_axis(ax.xaxis)
    # Below the axes: where the curves fall depends on the profile: no corner is sure
    # a column a curve where the medium has room (no column left empty)
    legend_below(ax, ncol=min(len(closed), _media.columns(medium, 1)))
    finish(fig)


#: Size of :func:`draw_fault_rate`'s figure: room under the axes for the legend.
FAULT_FIGSIZE = (FIGURE_WIDTH_IN, 5.4)


def plot_fault_rate(rate, *, frames: dict, closed: dict, medium: str = "phone"):
    """:func:`draw_fault_rate` on a figure of its own drawn for ``medium``
    (:data:`reliability.figures._media.MEDIA`; a phone's is :data:`FAULT_FIGSIZE`): the
    chapter's figure, which the book's PDF draws again for the page. Returns the
    figure."""
    _media.medium(medium)
    fig = _media.figure(medium, height=FAULT_FIGSIZE[1])
    try:
        draw_fault_rate(fig, rate, frames=frames, closed=closed, medium=medium)
    except ValueError:   # bad input: no figure left open behind the error
        plt.close(fig)
        raise
    return fig


def pass_k_band(dash, *, confidence: float = 0.95, seed=0):
    """pass^k (and pass@k) of a :class:`~reliability.lab.arms.Dashboard` with bootstrap
    intervals over cases, from its per-case counts (the estimator depends only on each
    case's count of passes, not on the order of its runs)."""
    _validate.instance("dash", dash, Dashboard)
    _validate.confidence(confidence)
    _validate.seed(seed)
    from ..passk import curves
    n = dash.runs_per_case
    outcomes = np.arange(n)[None, :] < np.asarray(dash.per_case)[:, None]
    return curves(outcomes, confidence=confidence, seed=seed)


def plot_dashboard(dash, *, title: str, seed=0, medium: str = "phone"):
    """The four rows of "measure your own" as four panels; pass^k with a 95% bootstrap
    band over cases. Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`):
    stacked on a phone; on a wider medium two by two, the two shares above pass^k and
    the firings."""
    _validate.instance("dash", dash, Dashboard)
    _validate.text("title", title)
    _validate.seed(seed)
    if _media.medium(medium).side_by_side:
        # taller than the medium's own figures: four panels' titles and labels
        fig = plt.figure(figsize=(_media.width(medium), 6.6))
        # the shares above, so that pass^k's legend goes under the panels it keys
        named = fig.subplot_mosaic([["rejected", "limited"], ["k", "fired"]],
                                   height_ratios=(1.0, 3.0))
        axes = [named[key] for key in ("k", "rejected", "limited", "fired")]
    else:
        # Four panels stacked, not a 2 x 2 grid: each keeps a phone's whole width.
        fig, axes = plt.subplots(4, 1, figsize=(FIGURE_WIDTH_IN, 11.0),
                                 height_ratios=(3.0, 0.7, 0.7, 2.2))
    band = pass_k_band(dash, seed=seed)
    ks, values = band.k, band.pass_hat
    ax = axes[0]
    ax.fill_between(ks, band.pass_hat_low, band.pass_hat_high, color=PALETTE["blue"],
                    alpha=0.2, lw=0, label=_("95% bootstrap band"))
    ax.plot(ks, values, "o-", color=PALETTE["blue"], label=_("measured pass^k"))
    ax.plot(ks, values[0] ** ks, "--", color=PALETTE["grey"], label=_("pass^1 to the k"))
    ax.set(xlabel=_("k (runs that must all pass)"), ylabel=_("share of cases"),
           ylim=(0, 1))
    set_title(ax, _("pass^k, {cases} x {runs}").format(
        cases=counted(dash.cases, "case", "cases"), runs=dash.runs_per_case))
    percent_axis(ax.yaxis)
    legend = ax.get_legend_handles_labels()
    for ax, (count, total, label, nothing, share_of) in zip(
            (axes[1], axes[2]),
            ((dash.rejected, dash.answers, _("rejected by validation"),
              _("no answers to count"), _("share of answers")),
             (dash.turn_limited, dash.runs, _("hit the turn limit"), _("no runs to count"),
              _("share of runs")))):
        if total:
            low, high = wilson_interval(count, total)
            share = count / total
            ax.barh([0], [share], color=PALETTE["orange"], height=0.5)
            ax.errorbar([share], [0], xerr=[[share - low], [high - share]], fmt="none",
                        color="black", capsize=4)
        else:   # no answer reached the validator (e.g. one turn a run): no share to draw
            high = 0.0
            ax.text(0.05, 0, nothing, ha="center", va="center")
        ax.set(ylim=(-1, 1), xlim=(0, max(0.1, high * 1.3)), xlabel=share_of)
        set_title(ax, _("{label}:\n{count} of {total}").format(label=label, count=count,
                                                               total=total))
        ax.set_yticks([])
        ax.xaxis.set_major_locator(MaxNLocator(4))
        percent_axis(ax.xaxis)
    ax = axes[3]
    counts = [dash.fired[g] for g in GUARDRAILS]
    # each guardrail's name on a line above its bar, so no panel gives up width to it
    ax.barh(np.arange(len(GUARDRAILS)) + 0.62, counts, height=0.42,
            color=PALETTE["sky"])
    for row, guardrail in enumerate(GUARDRAILS):
        ax.text(0.0, row + 0.05, _guardrail_label(guardrail), va="top", ha="left",
                transform=ax.get_yaxis_transform(), in_layout=False)
    ax.set_ylim(len(GUARDRAILS) + 0.05, 0)
    ax.set_yticks([])
    ax.spines["left"].set_visible(False)
    ax.set(xlabel=_("times fired in {runs}").format(
        runs=counted(dash.runs, "run", "runs")))
    set_title(ax, _("firings per guardrail"))
    ax.grid(axis="y", visible=False)
    # pass^k's legend under the panels, where it leaves the panels' spacing even; side
    # by side it is kept out of the layout, which would count it as the right column's
    # own and push the two columns apart (their titles then ran past the edge)
    beside = _media.medium(medium).side_by_side
    legend = legend_below(ax, *legend, ncol=_media.columns(medium, 1))
    fig.suptitle(title)
    finish(fig, **(_media.legend_room(legend) if beside else {}))
    legend.set_in_layout(True)   # the saved image's bounds take it in
    return fig


def plot_explorer(arms: dict, gap):
    """The explorer's chart: two arms over the same seeds, Wilson bars, and the gap's
    verdict as the title (how often guardrails fired under each bar)."""
    _checks.of_kind("arms", arms, ArmResult, what="arm names to ArmResults")
    _validate.instance("gap", gap, Gap)
    fig, ax = plt.subplots(figsize=(FIGURE_WIDTH_IN, 5.6))
    for i, (name, arm) in enumerate(arms.items()):
        rate, below, above = _bar(arm)
        ax.bar(i, rate, color=PALETTE["blue" if i else "grey"], width=0.6)
        ax.errorbar(i, rate, yerr=[[below], [above]], fmt="none", color="black", capsize=4)
    slot = (FIGURE_WIDTH_IN - 1.2) / max(len(arms), 1) - 0.1
    # an arm's label is a key ("baseline"); the tick shows its name («база»)
    names = ["\n".join(wrap(part, slot, size="xtick.labelsize")
                       for part in pgettext("arm", name).replace(" + ", "\n+ ").split("\n"))
             for name in arms]
    fired = [sum(arm.fired.values()) for arm in arms.values()]
    ax.set_xticks(range(len(arms)), [_("{name}\nfired {count}").format(name=n, count=f)
                                     for n, f in zip(names, fired)])
    title = (_("gap {gap:+.1f} pp: a result") if gap.verdict == "result"
             else _("gap {gap:+.1f} pp: a null"))
    ax.set(ylim=(0, 1.05), ylabel=_("share of runs PASS"))
    set_title(ax, title.format(gap=100 * gap.delta))
    percent_axis(ax.yaxis)
    ax.grid(axis="x", visible=False)
    finish(fig)
    return fig


def _span(delta, low, high) -> str:
    """A gap in percentage points with its interval, e.g. ``+32.5 [+17.3, +48.0]``."""
    return f"{fmt(delta, '+.1f')} {interval(low, high, '+.1f')}"


def capability_table(ladder: dict):
    """The numbers behind :func:`plot_capability`, one row per profile."""
    _profile_ladder(ladder)
    import pandas as pd
    from ..lab.arms import compare
    rows = []
    for name, (base, guarded) in ladder.items():
        gap = None if guarded is None else compare(base, guarded)
        rows.append({N_("profile"): name, N_("baseline"): f"{base.successes}/{base.runs}",
                     N_("all guardrails"): N_("not run: nothing to close") if gap is None
                     else f"{guarded.successes}/{guarded.runs}",
                     N_("gap, pp"): "" if gap is None
                     else _span(100 * gap.delta, 100 * gap.low, 100 * gap.high),
                     N_("verdict"): "" if gap is None else gap.verdict})
    return pd.DataFrame(rows).set_index("profile")


def rig_check_table(rig, stages: dict):
    """Each published stage's gap beside the gap recomputed from its counts with this
    book's Newcombe interval (S6 published only the gap, so it has no row)."""
    _checks.frame("rig", rig, _RIG_COLUMNS)
    _checks.keyed("stages", stages, what="stage names to specs (as lab.rig.STAGES)")
    if not all(isinstance(spec, tuple) and len(spec) == 5 and isinstance(spec[4], tuple)
               and len(spec[4]) == 2 for spec in stages.values()):
        raise ValueError(f"stages must be specs shaped like lab.rig.STAGES, got {stages!r}")
    import pandas as pd
    from ..stats import newcombe_interval
    gaps = rig[rig.metric == "gap closed"].set_index("stage")
    counts = rig[rig.metric == "success rate"].set_index(["stage", "condition"])
    rows = []
    for stage, spec in stages.items():
        if stage == "S6":
            continue
        if not all((stage, arm) in counts.index for arm in spec[4]) or stage not in gaps.index:
            raise ValueError(f"stages must name stages and arms that rig holds, got {stage!r}"
                             f" with {spec[4]!r}")
        (ka, na), (kb, nb) = [(int(counts.loc[(stage, arm)].successes),
                               int(counts.loc[(stage, arm)].trials)) for arm in spec[4]]
        low, high = newcombe_interval(kb, nb, ka, na)
        row = gaps.loc[stage]
        rows.append({N_("stage"): stage, N_("model"): row.model,
                     N_("counts"): f"{ka}/{na} -> {kb}/{nb}",
                     N_("published, pp"): _span(row.value, row.low, row.high),
                     N_("recomputed, pp"): _span(100 * (kb / nb - ka / na), 100 * low,
                                             100 * high)})
    return pd.DataFrame(rows).set_index("stage")


def mirror_rows(mirrors) -> list[dict]:
    """The rig's and the lab's gap per stage, in pp, as :func:`plot_rig_vs_lab` takes them."""
    _mirrors(mirrors)
    return [{"label": f"{m.stage}: {translate(m.label.split(' (')[0])}", "rig": m.rig_gap,
             "rig_low": m.rig_low, "rig_high": m.rig_high, "lab": 100 * m.lab.delta,
             "lab_low": 100 * m.lab.low, "lab_high": 100 * m.lab.high} for m in mirrors]


def mirror_table(mirrors):
    """Rig and lab side by side, one row per stage, with both verdicts."""
    _mirrors(mirrors)
    import pandas as pd
    return pd.DataFrame([{
        N_("stage"): m.stage, N_("rig model"): m.model, N_("N per arm"): m.trials,
        N_("rig gap, pp"): _span(m.rig_gap, m.rig_low, m.rig_high),
        N_("rig verdict"): m.rig_verdict,
        N_("lab gap, pp"): _span(100 * m.lab.delta, 100 * m.lab.low, 100 * m.lab.high),
        N_("lab verdict"): m.lab.verdict} for m in mirrors]).set_index("stage")


#: The live explorer's fault rates: the chapter's table's, 0 to 90 % in steps of 10 %
#: (four arms at each rate; a finer grid would cost the chapter seconds at every run).
LIVE_FAULT_RATES = tuple(round(0.1 * i, 1) for i in range(10))


def live_fault_rate(*, runs: int, seed: int, max_turns: int = 6, fault_rate: float = 0.6,
                    error_recovery: bool = True, submit_nudge: bool = False):
    """The chapter's live explorer: the transient-fault scenario (a faultless agent,
    ``max_turns`` turns) against the injected fault rate, with two switches: error
    recovery (the matched guardrail) and the submit nudge (a mismatched one). The closed
    forms of both arms as lines, the lab's seeded arms of ``runs`` paired runs as dots with
    95 % Wilson intervals, and at the chosen rate both arms, the firings and the gap with
    its Newcombe interval and verdict in words. ``fault_rate`` sets where the slider
    starts (the nearest position offered), the two flags where the switches do. Returns a
    :class:`reliability.live.Explorer`."""
    from functools import lru_cache

    from ..lab import Guardrails, Scenario, compare, run_arm, transient_success
    from ..lab.agent import MAX_TURNS
    from ..live import Control, Explorer, Series, Words

    runs = _validate.whole("runs", runs, minimum=1, maximum=10_000)
    _validate.whole("seed", seed, minimum=0)
    turns = _validate.whole("max_turns", max_turns, minimum=1, maximum=MAX_TURNS)
    rate = _validate.probability("fault_rate", fault_rate)
    fault = nearest(LIVE_FAULT_RATES, rate)
    recovery = int(_validate.flag("error_recovery", error_recovery))
    nudge = int(_validate.flag("submit_nudge", submit_nudge))
    retries = Guardrails().recovery_retries
    rates = np.array(LIVE_FAULT_RATES)
    fine = np.round(np.linspace(0.0, LIVE_FAULT_RATES[-1], 91), 3)

    def closed(fault, recovery):
        return transient_success(float(fault), turns, retries if recovery else 0)

    @lru_cache(maxsize=None)
    def arm(fault, recovery, nudge):
        # The lab's paired seeds: every arm at a rate replays the same runs, so a guardrail
        # that never fires gives the baseline back run for run.
        guardrails = Guardrails(error_recovery=bool(recovery), submit_nudge=bool(nudge))
        return run_arm(Scenario(fault_rate=float(fault), max_turns=turns), guardrails,
                       runs=runs, seed=seed)

    def dots(recovery=0, nudge=0):
        arms = [arm(r, recovery, nudge) for r in LIVE_FAULT_RATES]
        bounds = np.array([a.interval() for a in arms])
        return {"x": rates, "y": [a.rate for a in arms], "low": bounds[:, 0],
                "high": bounds[:, 1]}

    def words(fault, recovery, nudge):
        base, treated = arm(fault, 0, 0), arm(fault, recovery, nudge)
        gap = compare(base, treated)
        names = ((_("error recovery"), "error_recovery", recovery),
                 (_("the submit nudge"), "submit_nudge", nudge))
        on = [name for name, key, flag in names if flag]
        # a count with its noun's form, so the Russian says how many times in words
        fired = [ngettext("{name} fired {count:,d} time", "{name} fired {count:,d} times",
                          treated.fired[key]).format(name=name, count=treated.fired[key])
                 for name, key, flag in names if flag]
        joint = _(" and ")
        (b_low, b_high), (t_low, t_high) = base.interval(), treated.interval()
        return {"base": fmt(base.rate, ".1%"), "b_low": fmt(b_low, ".1%"),
                "b_high": fmt(b_high, ".1%"), "b_closed": fmt(closed(fault, 0), ".1%"),
                "arm": joint.join(on) or _("no guardrail on"),
                "rate": fmt(treated.rate, ".1%"), "low": fmt(t_low, ".1%"),
                "high": fmt(t_high, ".1%"), "closed": fmt(closed(fault, recovery), ".1%"),
                "fired": joint.join(fired) or _("nothing fired"),
                "gap": fmt(100 * gap.delta, "+.1f"), "g_low": fmt(100 * gap.low, "+.1f"),
                "g_high": fmt(100 * gap.high, "+.1f"),
                "verdict": _("a result") if gap.verdict == "result" else _("a null")}

    switch = (_("off"), _("on"))
    return Explorer(
        name="ch9-faults",
        controls=(Control("fault", _("injected fault rate r (per call)"), LIVE_FAULT_RATES,
                          fault, ".0%"),
                  Control("recovery", _("error recovery (matched)"), (0, 1), recovery, "d",
                          labels=switch),
                  Control("nudge", _("submit nudge (mismatched)"), (0, 1), nudge, "d",
                          labels=switch)),
        series=(
            Series(_("baseline, closed form"),
                   lambda: {"x": fine, "y": [closed(r, 0) for r in fine]}, colour="grey",
                   dashed=True),
            Series(_("guardrail arm, closed form"), lambda recovery: {
                "x": fine, "y": [closed(r, recovery) for r in fine]}, depends=("recovery",)),
            Series(_("baseline, {runs}, 95% Wilson interval").format(
                runs=counted(runs, "seeded run", "seeded runs")), dots,
                   kind="points", colour="grey"),
            Series(_("guardrail arm, same seeds"), dots, depends=("recovery", "nudge"),
                   kind="points", colour="blue"),
            Series(_("the chosen fault rate"), lambda fault, recovery, nudge: {
                "x": [fault], "y": [arm(fault, recovery, nudge).rate]},
                depends=("fault", "recovery", "nudge"), kind="marker", colour="black")),
        # The sentence's head is filled here; its {slots} are filled on the page.
        words=Words(_("Lab model (a faultless agent, {turns}, {runs} per arm) ").format(
                        turns=counted(turns, "turn", "turns"),
                        runs=counted(runs, "paired run", "paired runs"))
                    + _("at a fault rate of {fault}: the baseline passes {base} "
                        "(95% Wilson interval {b_low} to {b_high}; closed form {b_closed}). "
                        "With {arm} the arm passes {rate} ({low} to {high}; closed form "
                        "{closed}), and {fired}. The gap is {gap} pp (95% Newcombe interval "
                        "{g_low} to {g_high}): {verdict}."), words,
                    depends=("fault", "recovery", "nudge")),
        x_label=_("injected transient fault rate per call"),
        y_label=_("share of runs graded PASS"),
        title=_("Pass rate by fault rate (lab model)"),
        alt=_("Line chart: the share of runs that pass falls as the injected fault rate "
              "rises from 0 to 90%; grey is the baseline, blue the arm with the chosen "
              "guardrails, lines the closed forms and dots with interval bars the lab's "
              "seeded runs; a black ring marks the chosen fault rate."),
        x_percent=True, x_range=(-0.02, 0.92), y_range=(0.0, 1.0),
        source=("reliability.figures.lab.live_fault_rate",
                {"runs": runs, "seed": seed, "max_turns": turns, "fault_rate": fault,
                 "error_recovery": bool(recovery), "submit_nudge": bool(nudge)}))
