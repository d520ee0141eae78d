"""Figures for budgets and loops: MAST failure shares, loop traces, and the share of tasks
that hit a step limit."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from .. import _validate
from ..harness.budget import LengthSample, Outcome, TaskMix
from ..notebook import PALETTE, percent_axis
from ..notebook.style import FIGURE_WIDTH_IN
from . import _checks, _media
from ._layout import finish, legend_below, title as set_title, wrap
from ..live import nearest
from ..i18n import _, N_, translate
from ..numbers import counted, fmt

__all__ = ["plot_mast", "plot_traces", "plot_hit_share", "draw_limit_frame",
           "live_step_limit", "LIMIT_MODES", "VERIFICATION_MODES", "LIMIT_FIGSIZE"]

#: MAST modes a hard limit with an explicit stop condition addresses, and the verification
#: layer's modes (the lesson's grouping).
LIMIT_MODES = ("FM-1.3", "FM-1.5")
VERIFICATION_MODES = ("FM-3.1", "FM-3.2", "FM-3.3")

#: Labels that reach chapter 7's tables and printed lines from data/mast.csv and from the
#: chapter's own frames (column names, budget labels), marked for the catalogs: the frames
#: keep the English, :func:`reliability.notebook.table` shows them translated.
LABELS = (
    N_("FM-1.1 Disobey task specification"), N_("FM-1.2 Disobey role specification"),
    N_("FM-1.3 Step repetition"), N_("FM-1.4 Loss of conversation history"),
    N_("FM-1.5 Unaware of termination conditions"), N_("FM-2.1 Conversation reset"),
    N_("FM-2.2 Fail to ask for clarification"), N_("FM-2.3 Task derailment"),
    N_("FM-2.4 Information withholding"), N_("FM-2.5 Ignored other agent's input"),
    N_("FM-2.6 Reasoning-action mismatch"), N_("FM-3.1 Premature termination"),
    N_("FM-3.2 No or incomplete verification"), N_("FM-3.3 Incorrect verification"),
    N_("improved role specifications (same prompt otherwise)"),
    N_("top-level task-verification step added"),
    N_("agent"), N_("budget"), N_("tripped"), N_("steps"), N_("cost (USD)"),
    N_("seconds"), N_("provider calls"), N_("all four"), N_("steps only"),
    N_("status"), N_("hint at step"), N_("sign"),
    N_("limit"), N_("hits"), N_("stuck"), N_("cut_short"), N_("runs"), N_("share"),
    N_("low"), N_("high"), N_("closed_form"))


def plot_mast(modes, *, title: str, medium: str = "phone"):
    """Horizontal bars: each failure mode's share (``modes`` maps name -> share in [0, 1]),
    limit-related modes and verification modes coloured, the rest grey; drawn for
    ``medium`` (:data:`reliability.figures._media.MEDIA`: two columns on a slide)."""
    _media.medium(medium)
    _checks.keyed("modes", modes, what="failure mode -> share")
    if not all(isinstance(name, str) for name in modes):
        raise ValueError(f"modes must map failure-mode names (strings) to shares, "
                         f"got {modes!r}")
    for name, share in modes.items():
        _validate.probability(f"modes[{name!r}]", share)
    _validate.text("title", title)
    names = list(modes)
    shares = np.array([modes[n] for n in names])
    order = np.argsort(shares)
    colours = [PALETTE["vermillion"] if n.startswith(LIMIT_MODES) else
               PALETTE["blue"] if n.startswith(VERIFICATION_MODES) else PALETTE["grey"]
               for n in names]
    # Each mode's name on a line above its bar: fourteen rows read down a phone, and the
    # bars keep the whole width.
    ranked = order[::-1]                   # the largest share first, at the top
    columns = _media.panels(medium, ranked)  # a slide: the ranking in two columns
    fig, axes = _media.subplots(medium, len(columns), 1,
                                height=2.7 + 0.47 * len(names), squeeze=False,
                                **({} if len(columns) == 1 else {"sharex": True}))
    for ax, column in zip(axes.flat, columns):
        ax.barh(np.arange(len(column)) + 0.62, shares[column], height=0.42,
                color=[colours[i] for i in column])
        for row, i in enumerate(column):
            # a column of a slide has room for a longer line than its margin on a phone
            room = _media.width(medium) / len(columns) - (0.7 if len(columns) == 1 else 0.4)
            ax.text(0, row + 0.05, wrap(translate(names[i]), room),
                    va="top", ha="left", in_layout=False)
        ax.set_ylim(len(columns[0]) + 0.05, 0)
        ax.set_yticks([])
        ax.spines["left"].set_visible(False)
        percent_axis(ax.xaxis)
        ax.xaxis.set_major_locator(MaxNLocator(4))
        ax.set(xlabel=_("share of all annotated failures (MAST)"))
        if len(columns) == 1:
            set_title(ax, title)
        ax.grid(axis="y", visible=False)
    if len(columns) > 1:
        fig.suptitle(title)
    legend = legend_below(
        axes.flat[0], [Patch(color=PALETTE[c]) for c in ("vermillion", "blue", "grey")],
        [_("a step limit and a stop rule"), _("the verification layer"),
         _("other modes")], ncol=_media.columns(medium, 1))
    finish(fig, **({} if len(columns) == 1 else _media.legend_room(legend)))
    legend.set_in_layout(True)   # the saved image's bounds take it in
    return fig


#: How a run ended, as the trace figure writes it beside the run.
_STATUS = {"done": N_("done"), "budget_exceeded": N_("budget exceeded"),
           "loop_stopped": N_("loop stopped")}

_CELL = {"progress": PALETTE["green"], "stalled": "#DDDDDD", "hint": PALETTE["orange"],
         "stop": PALETTE["vermillion"], "done": PALETTE["blue"]}


def plot_traces(outcomes, *, title: str, start=None, medium: str = "phone"):
    """One row per run (``outcomes`` maps label -> :class:`~reliability.harness.budget.Outcome`),
    one cell per step, lettered by distinct call (same letter = same tool and arguments)
    and coloured by what the loop detector and the task made of it. ``start`` is the state
    every run began from (the first step is compared with it when given).
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _checks.of_kind("outcomes", outcomes, Outcome, what="run_task Outcomes by label")
    _validate.text("title", title)
    # Each run's name and how it ended on a line above its cells: the cells keep the
    # whole width of a phone rather than sharing it with the names.
    longest = max(len(o.moves) for o in outcomes.values())
    names = [wrap(f"{translate(label)}: {translate(_STATUS[outcome.status])}",
                  _media.width(medium) - 0.7) for label, outcome in outcomes.items()]
    # In cell heights (0.4 in): a line of text takes 0.55, a row of cells 1.
    tops = np.cumsum([0] + [0.55 * (n.count("\n") + 1) + 1.3 for n in names])
    # as high as its rows on any medium (a row of cells is a row of cells)
    fig, ax = plt.subplots(figsize=(_media.width(medium), 0.4 * tops[-1] + 3.6))
    for row, ((label, outcome), name) in enumerate(zip(outcomes.items(), names)):
        ax.text(0.05, tops[row] + 0.1, name, va="top", ha="left", in_layout=False)
        cells = tops[row + 1] - 1.05
        letters, previous = {}, start
        for col, (move, verdict) in enumerate(zip(outcome.moves, outcome.verdicts)):
            letter = letters.setdefault(move.call, chr(ord("A") + len(letters)))
            if outcome.status == "done" and col == len(outcome.moves) - 1:
                kind = "done"
            elif verdict.action in ("hint", "stop"):
                kind = verdict.action
            else:
                unchanged = (col > 0 or start is not None) and move.state == previous
                kind = "stalled" if unchanged else "progress"
            previous = move.state
            ax.add_patch(plt.Rectangle((col + 0.05, cells), 0.9, 0.9,
                                       color=_CELL[kind]))
            ax.text(col + 0.5, cells + 0.45, letter, ha="center", va="center")
    ax.set_xlim(0, longest)
    ax.set_ylim(tops[-1], 0)
    ax.set_yticks([])
    ax.set_xticks(np.arange(longest) + 0.5, [str(i + 1) for i in range(longest)])
    ax.set(xlabel=_("step (letter = distinct tool call; same letter, same call)"))
    set_title(ax, title)
    ax.grid(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_visible(False)
    labels = {"progress": _("state changed"), "stalled": _("state unchanged"),
              "hint": _("sign seen: hint sent"), "stop": _("sign after hint: stopped"),
              "done": _("task done")}
    legend_below(ax, [Patch(color=_CELL[k]) for k in labels], list(labels.values()))
    finish(fig)
    return fig


def plot_hit_share(limits, closed, rows, *, stuck: float, chosen: int, title: str,
                   medium: str = "phone"):
    """Closed-form share of tasks hitting each step limit (line), simulated shares with
    95 % Wilson intervals (dots), the stuck-task floor (dashed) and the chosen limit.
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _checks.array("limits", limits, kind="whole", minimum=1)
    _checks.probabilities("closed", closed, length=len(limits), per="limit")
    _checks.iterable("rows", rows, what="LengthSample.hits results")
    if not all(isinstance(r, dict) and {"limit", "share", "low", "high"} <= set(r)
               for r in rows):
        raise ValueError(f"rows must be a list of LengthSample.hits results (each holding "
                         f"limit, share, low, high), got {rows!r}")
    _validate.probability("stuck", stuck)
    _validate.whole("chosen", chosen, minimum=1)
    _validate.text("title", title)
    limits = np.asarray(limits)
    share = np.array([r["share"] for r in rows])
    low = np.array([r["low"] for r in rows])
    high = np.array([r["high"] for r in rows])
    fig, ax = _media.subplots(medium, height=5.6)
    ax.plot(limits, closed, color=PALETTE["blue"], label=_("closed form h(L)"))
    ax.errorbar([r["limit"] for r in rows], share, yerr=[share - low, high - share], fmt="o",
                ms=4, capsize=2, color=PALETTE["blue"], label=_("simulated, 95% Wilson interval"))
    ax.axhline(stuck, ls="--", color=PALETTE["vermillion"], label=_("stuck tasks (the floor)"))
    ax.axvline(chosen, ls=":", color=PALETTE["black"],
               label=_("the bank bot's limit, {chosen}").format(chosen=chosen))
    percent_axis(ax.yaxis)
    ax.set(xlabel=_("step limit L (steps per task)"),
           ylabel=_("share of tasks that hit the limit"), ylim=(0, None))
    set_title(ax, title)
    legend_below(ax)
    finish(fig)
    return fig


#: Size of :func:`draw_limit_frame`'s figure: room under the axes for the legend.
LIMIT_FIGSIZE = (FIGURE_WIDTH_IN, 5.6)


def draw_limit_frame(fig, sample, limit: int, *, longest: int = 30):
    """The kernel explorer's figure: needed steps of the finishing tasks, the ones a limit of
    ``limit`` cuts short in colour, the stuck tasks as a bar of their own, and the share
    hitting the limit with its 95 % Wilson interval in the title."""
    _checks.figure("fig", fig)
    _validate.instance("sample", sample, LengthSample)
    _validate.whole("limit", limit, minimum=1)
    _validate.whole("longest", longest, minimum=1, maximum=10**4)
    hits = sample.hits(limit)
    ax = fig.add_subplot()
    needed = np.minimum(sample.lengths[~sample.stuck], longest)
    counts = np.bincount(needed, minlength=longest + 1)[1:] / sample.runs
    steps = np.arange(1, longest + 1)
    ax.bar(steps, counts, width=0.9,
           color=np.where(steps > limit, PALETTE["orange"], PALETTE["green"]))
    stuck_share = hits["stuck"] / sample.runs
    stuck_at = longest + 9      # apart from the last step, so the labels do not meet
    ax.bar([stuck_at], [stuck_share], width=0.9, color=PALETTE["vermillion"])
    ax.axvline(limit + 0.5, color=PALETTE["black"], ls=":")
    ax.set_xticks(list(range(0, longest + 1, 10)) + [stuck_at],
                  [str(s) for s in range(0, longest, 10)] + [f"{longest}+", _("stuck")])
    percent_axis(ax.yaxis)
    top = max(0.2, 1.1 * max(counts.max(), stuck_share))
    # no tick at the very top, where its label would reach into the title
    ax.set_yticks(np.arange(0, 0.97 * top, 0.05 if top <= 0.3 else 0.1))
    ax.set(xlabel=_("steps a task needs"), ylabel=_("share of tasks"), ylim=(0, top))
    set_title(ax, _("Limit {limit}: {share:.1%} of tasks hit it "
                    "(95% CI {low:.1%} to {high:.1%}),\n"
                    "{cut:.1%} are sound tasks cut short "
                    "(simulated task mix)").format(
                        limit=limit, share=hits["share"], low=hits["low"],
                        high=hits["high"], cut=hits["cut_short"] / sample.runs))
    # Below the axes: the bars' peak moves with the mix, so no corner is sure to be free
    legend_below(ax, [Patch(color=PALETTE[c])
                      for c in ("green", "orange", "vermillion")],
                 [_("finishes within the limit"), _("sound task, cut short"),
                  _("stuck, stopped")])
    finish(fig)


#: The live explorer's positions: the kernel explorer's step limits and stuck shares.
LIVE_LIMITS = tuple(range(1, 31))
LIVE_STUCK = tuple(round(0.01 * i, 2) for i in range(31))


def live_step_limit(*, runs: int, seed: int, median: float = 6.0, spread: float = 0.5,
                    stuck: float = 0.03, limit: int = 12):
    """The chapter's live explorer: the share of a model task mix (median steps
    ``median``, spread ``spread`` of ln steps) that hits a step limit, against the limit,
    for a stuck share the reader moves. The closed form h(L) as a line, its two parts (the
    stuck floor and the sound tasks cut short) beside it, one seeded sample of ``runs``
    tasks per stuck share as dots with 95 % Wilson intervals, and the chosen limit stated
    in words. ``stuck`` and ``limit`` set where the sliders start, moved to the nearest
    position offered. Returns a :class:`reliability.live.Explorer`."""
    from functools import lru_cache

    from ..live import Control, Explorer, Series, Words

    runs = _validate.whole("runs", runs, minimum=1, maximum=100_000)
    _validate.whole("seed", seed, minimum=0)
    median = _validate.real("median", median, above=0.0)
    spread = _validate.real("spread", spread, minimum=0.0)
    stuck = nearest(LIVE_STUCK, _validate.probability("stuck", stuck))
    limit = nearest(LIVE_LIMITS, _validate.whole("limit", limit, minimum=1))
    limits = np.array(LIVE_LIMITS)

    def mix(stuck):
        return TaskMix(median=median, spread=spread, stuck=stuck)

    @lru_cache(maxsize=None)
    def sample(stuck):
        # One seed for every stuck share: a larger share turns more of the same tasks
        # stuck, so the dots move smoothly with the slider instead of jumping by chance.
        drawn = mix(stuck).simulate(runs, seed=seed)
        rows = [drawn.hits(int(L)) for L in limits]
        return {key: np.array([r[key] for r in rows]) for key in ("share", "low", "high")}

    def words(stuck, limit):
        closed, cut = mix(stuck).hit_share(limit), mix(stuck).cut_short(limit)
        at = sample(stuck)
        i = LIVE_LIMITS.index(limit)
        return {"closed": fmt(closed, ".1%"), "cut": fmt(cut, ".1%"), "floor": fmt(stuck, ".1%"),
                "rate": fmt(at["share"][i], ".1%"), "low": fmt(at["low"][i], ".1%"),
                "high": fmt(at["high"][i], ".1%")}

    return Explorer(
        name="ch7-limit",
        controls=(Control("limit", _("step limit L (steps)"), LIVE_LIMITS, limit, "d"),
                  Control("stuck", _("stuck share q"), LIVE_STUCK, stuck, ".0%")),
        series=(
            Series(_("closed form h(L): all tasks that hit the limit"),
                   lambda stuck: {"x": limits, "y": mix(stuck).hit_share(limits)},
                   depends=("stuck",)),
            Series(_("sound tasks cut short"), lambda stuck: {
                "x": limits, "y": mix(stuck).cut_short(limits)},
                depends=("stuck",), colour="orange"),
            Series(_("stuck tasks (the floor)"),
                   lambda stuck: {"x": [0, LIVE_LIMITS[-1] + 1], "y": [stuck, stuck]},
                   depends=("stuck",), colour="vermillion", dashed=True),
            Series(_("simulated, {tasks}, 95% Wilson interval").format(
                       tasks=counted(runs, "task", "tasks")),
                   lambda stuck: {"x": limits, "y": sample(stuck)["share"],
                                  "low": sample(stuck)["low"],
                                  "high": sample(stuck)["high"]},
                   depends=("stuck",), kind="points", colour="blue"),
            Series(_("the chosen limit L"), lambda stuck, limit: {
                "x": [limit], "y": [mix(stuck).hit_share(limit)]},
                depends=("stuck", "limit"), kind="marker", colour="black")),
        words=Words(_("Model task mix (median {median}, spread {spread:g}): a "
                      "step limit of {{limit}} is hit by {{closed}} of tasks (closed form): "
                      "the {{floor}} that are stuck, plus {{cut}} that are sound but cut "
                      "short. In a seeded simulation of {tasks}, {{rate}} hit it "
                      "(95% Wilson interval {{low}} to {{high}}). No limit brings the "
                      "share below the stuck share.").format(
                          median=counted(median, "step", "steps", format_spec="g"),
                          spread=spread, tasks=counted(runs, "task", "tasks")),
                    words, depends=("stuck", "limit")),
        x_label=_("step limit L (steps per task)"), y_label=_("share of tasks"),
        title=_("Tasks hitting the step limit (model)"),
        alt=_("Line chart: the share of tasks that hit the step limit falls as the limit "
              "rises from 1 to 30 steps and levels off at the stuck share, a dashed line; "
              "an orange line is the sound tasks cut short, blue dots with interval bars "
              "are seeded simulations, a black ring marks the chosen limit."),
        x_range=(0, LIVE_LIMITS[-1] + 1), y_range=(0.0, 1.0),
        source=("reliability.figures.budgets.live_step_limit",
                {"runs": runs, "seed": seed, "median": median, "spread": spread,
                 "stuck": stuck, "limit": limit}))
