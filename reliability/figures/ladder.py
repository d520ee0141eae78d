"""Figures for the degradation ladder: answers per rung, the outage with and without a
breaker, the silent slide, and RouteLLM's CPT(50%) per task class."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from .. import _validate, claims
from ..harness.ladder import RUNGS
from ..harness.traffic import DayReport
from ..i18n import N_, Text, _, fill_slots
from ..notebook import PALETTE, percent_axis
from ..notebook.style import FIGURE_WIDTH_IN
from . import _checks, _media
from ._layout import finish, legend_below, title as set_title, wrap
from ..numbers import counted, fmt

__all__ = ["plot_outage", "plot_outage_lines", "draw_outage_frame", "plot_slide",
           "plot_routellm", "live_outage"]

_GROUPS = ((N_("primary (incl. retry)"), (0, 1), PALETTE["blue"]),
           (N_("other provider"), (2,), PALETTE["green"]),
           (N_("cheaper model, rules, cache"), (3, 4, 5), PALETTE["orange"]),
           (N_("refusal + human queue"), (6,), PALETTE["vermillion"]))

#: Labels the chapter's tables show from data/routellm.csv (task classes, the claims
#: table's headers and text cells), marked here so that they reach the catalog.
DATA_LABELS = (N_("open dialogue"), N_("knowledge"), N_("maths"),
               N_("open dialogue (MT Bench)"), N_("setting"), N_("condition"),
               N_("metric"), N_("value"), N_("vs a random router at the same cost"),
               N_("at 95% of GPT-4 performance"), N_("cost saving (up to)"),
               N_("cost reduction vs GPT-4 only (more than)"))


def _grouped_by_bin(report, start: float, end: float, width: float):
    """Share of requests per time bin (hours) answered by each group of rungs."""
    # Whole bins counted once, not edges from a float range: np.arange(start, end, width)
    # gives one edge more or less as rounding falls, and a request in the last, partial
    # bin then landed one past the counts (shapes (47,) against (48,)).
    bins = max(1, math.ceil((end - start) / width - 1e-9))
    edges = start + width * np.arange(bins + 1)
    hours = report.time / 3600.0
    inside = (hours >= start) & (hours < end)
    which = np.clip(np.digitize(hours[inside], edges) - 1, 0, bins - 1)
    rung = report.rung[inside]
    totals = np.bincount(which, minlength=bins)
    shares = []
    for unused, members, unused_colour in _GROUPS:
        counts = np.bincount(which[np.isin(rung, members)], minlength=bins)
        shares.append(counts / np.maximum(totals, 1))
    return edges, np.array(shares)


def _outage_label(report) -> str:
    """What one simulated day cost during the outage, for a panel title or a legend."""
    return _("{waiting} waiting, {calls} while down").format(
        waiting=counted(report.waiting_hours, "worker-hour", "worker-hours",
                      format_spec=",.1f"),
        calls=counted(report.outage_calls, "call", "calls"))


def _window(without, with_breaker, start, end, width) -> None:
    """Two simulated days and a window of hours [start, end) cut into bins of ``width``."""
    _validate.instance("without", without, DayReport)
    _validate.instance("with_breaker", with_breaker, DayReport)
    _validate.real("start", start, minimum=0.0, maximum=24.0)
    _validate.real("end", end, above=start, maximum=48.0)
    _validate.real("width", width, above=0.0, maximum=end - start)


def plot_outage(without, with_breaker, *, start: float, end: float, width: float = 0.25,
                medium: str = "phone"):
    """Two stacked-area panels: who answered, per quarter hour, without and with a breaker.
    The outage window is hatched. Panel titles count what the chapter's table counts: the
    day's worker-hours waiting and the calls to the primary while it was down. Stacked
    on a phone, side by side on a slide (``medium``,
    :data:`reliability.figures._media.MEDIA`)."""
    _window(without, with_breaker, start, end, width)
    _media.medium(medium)
    fig, axes = _media.subplots(medium, 2, 1, height=8.4, sharex=True)
    s = without.scenario
    for ax, report, label in ((axes[0], without, _("retries only")),
                              (axes[1], with_breaker, _("retries + circuit breaker"))):
        edges, shares = _grouped_by_bin(report, start, end, width)
        ax.stackplot(edges[:-1], shares, step="post",
                     colors=[group[2] for group in _GROUPS],
                     labels=[_(group[0]) for group in _GROUPS])
        # The stacked areas fill the panel, so a tint under or over them hardly shows:
        # the outage is hatched over them, between two solid edges.
        ax.axvspan(s.outage_start, s.outage_start + s.outage_hours, facecolor="none",
                   edgecolor="black", hatch="//", linewidth=0)
        for edge in (s.outage_start, s.outage_start + s.outage_hours):
            ax.axvline(edge, color="black", linewidth=1.5)
        ax.set(ylabel=_("share of requests"), ylim=(0, 1), xlim=(start, end - width))
        set_title(ax, f"{label}: {_outage_label(report)}", within_axes=True)
        percent_axis(ax.yaxis)
        if not np.any((report.time >= 3600.0 * start) & (report.time < 3600.0 * end)):
            ax.text(0.5, 0.5, _("no requests in this window"), transform=ax.transAxes,
                    ha="center", va="center")
    beside = _media.medium(medium).side_by_side   # then each panel has its own hours
    for ax in axes if beside else axes[1:]:
        ax.set_xlabel(_("hour of the day (hatched: the primary is down)"))
    handles, labels = axes[0].get_legend_handles_labels()
    legend = legend_below(axes[1], handles, labels, ncol=_media.columns(medium, 1))
    fig.suptitle(_("Simulated day (model, illustrative parameters):") + "\n"
                 + (_("without a breaker the outage burns the time budget;\n"
                      "with one, the other provider answers") if s.outage_hours > 0 else
                    _("no outage, so a breaker has nothing to do")))
    finish(fig, **(_media.legend_room(legend) if beside else {}))
    legend.set_in_layout(True)   # the saved image's bounds take it in
    return fig


def plot_outage_lines(without, with_breaker, *, start: float, end: float,
                      width: float = 0.25):
    """One light panel for the explorer: per quarter hour, the share of requests the
    primary (with its retry) or the other provider answered, without and with a breaker;
    the legend gives each day's waiting and calls to the dead primary."""
    _window(without, with_breaker, start, end, width)
    fig, ax = plt.subplots(figsize=(FIGURE_WIDTH_IN, 5.6))
    s = without.scenario
    ax.axvspan(s.outage_start, s.outage_start + s.outage_hours, color="black", alpha=0.08)
    # Thick solid below, thin dashed on top: where the two days agree both stay visible.
    for report, label, colour, style in (
            (without, _("retries only"), PALETTE["vermillion"], dict(lw=4.0)),
            (with_breaker, _("with breaker"), PALETTE["blue"], dict(lw=1.8, ls="--"))):
        edges, shares = _grouped_by_bin(report, start, end, width)
        ax.step(edges[:-1], shares[0] + shares[1], where="post", color=colour,
                label=f"{label}: {_outage_label(report)}", **style)
    room = FIGURE_WIDTH_IN - 0.3
    ax.set(xlabel=wrap(_("hour of the day (shaded: the primary is down)"), room - 0.8,
                       size="axes.labelsize"),
           ylabel=_("answered by primary\nor other provider"), ylim=(0, 1.05),
           xlim=(start, end - width), yticks=np.linspace(0, 1, 5))
    ax.set_title(wrap(_("Simulated day (model, illustrative parameters)"), room - 0.8,
                      size="axes.titlesize"))
    percent_axis(ax.yaxis)
    # Under the axes, centred on the figure: the lines cross the whole plot. Fixed
    # margins instead of tight_layout: one layout pass less keeps an explorer update
    # under 150 ms.
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles,
              [wrap(text, room - 0.7, size="legend.fontsize") for text in labels],
              loc="upper center", bbox_to_anchor=(0.5, 0.28),
              bbox_transform=fig.transFigure)
    fig.subplots_adjust(left=0.25, right=0.96, top=0.88, bottom=0.42)
    return fig


def draw_outage_frame(fig, hours: float, frames: dict):
    """One scrubber frame: worker-hours waiting and calls to the dead primary, without
    and with a breaker, for an outage of ``hours``."""
    _checks.figure("fig", fig)
    _validate.real("hours", hours, minimum=0.0)
    _checks.keyed("frames", frames, what="(without, with breaker) DayReports by hours")
    if hours not in frames or "top" not in frames:
        raise ValueError(f"frames must hold the pair of days for hours={hours!r} and the "
                         f"axis tops under 'top', has {list(frames)}")
    pair, top = frames[hours], frames["top"]
    if not (isinstance(pair, (tuple, list)) and len(pair) == 2
            and all(isinstance(d, DayReport) for d in pair)):
        raise ValueError(f"frames must map hours to a pair of DayReports (without, with a "
                         f"breaker), got {pair!r}")
    if not isinstance(top, (tuple, list)) or len(top) != 2:
        raise ValueError(f"frames['top'] must be a pair of numbers, got {top!r}")
    for value in top:
        _validate.real("frames['top']", value, minimum=0.0)
    without, with_breaker = frames[hours]
    axes = fig.subplots(2, 1)
    labels = [_("retries only"), _("with breaker")]
    colours = [PALETTE["vermillion"], PALETTE["blue"]]
    waiting = [without.waiting_hours, with_breaker.waiting_hours]
    dead = [r.outage_calls for r in (without, with_breaker)]
    labels = [wrap(text, 1.6, size="xtick.labelsize") for text in labels]
    axes[0].bar(labels, waiting, color=colours)
    axes[0].set(ylabel=_("worker-hours waiting"), ylim=(0, max(1.0, frames["top"][0])),
                title=_("time spent waiting"))
    axes[1].bar(labels, dead, color=colours)
    axes[1].set(ylabel=_("calls while it is down"),
                ylim=(0, max(1.0, frames["top"][1])), title=_("calls to the dead primary"))
    for ax, values, template in ((axes[0], waiting, _("{:,.1f} h")),
                                 (axes[1], dead, Text("{:,}"))):
        for x, v in enumerate(values):
            ax.annotate(template.format(v), (x, v), ha="center", va="bottom")
    fig.suptitle(_("Model, {hours:g} h outage: {without:,.1f} h waiting without a "
                   "breaker,\n{with_breaker:,.1f} h with one").format(
                       hours=hours, without=without.waiting_hours,
                       with_breaker=with_breaker.waiting_hours))
    finish(fig)


def plot_slide(days, shares, low, high, error_rate, alert_day, *, rung_name: str,
               rules_trend: str, error_trend: str, medium: str = "phone"):
    """The silent slide: the rules rung's daily share (with 95 % bars) and the primary's
    HTTP error rate, day by day. The first alerting day is marked (``alert_day`` is None
    when no day alerted). The title says how each moved, as the caller measured it:
    ``rules_trend`` and ``error_trend`` are words of :func:`reliability.claims.change`
    (``"flat"``, ``"rising"`` or ``"falling"``), so the title never claims a flat line
    the data do not show. Drawn for ``medium``
    (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _checks.array("days", days)
    for name, values in (("shares", shares), ("low", low), ("high", high),
                         ("error_rate", error_rate)):
        _checks.probabilities(name, values, length=len(days), per="day")
    if alert_day is not None:
        _validate.whole("alert_day", alert_day, minimum=0)
    _validate.text("rung_name", rung_name)
    for name, value in (("rules_trend", rules_trend), ("error_trend", error_trend)):
        _validate.text(name, value, choices=("flat", "rising", "falling"))
    fig, ax = _media.subplots(medium, height=6.0)
    ax.errorbar(days, shares, yerr=[shares - low, high - shares], fmt="o-", ms=3,
                capsize=2, color=PALETTE["orange"],
                label=_("answers from '{rung}'").format(rung=_(rung_name)))
    ax.plot(days, error_rate, "s--", ms=3, color=PALETTE["blue"],
            label=_("primary's HTTP error rate (the classic monitor)"))
    # Head room above the data for the alert's label; the legend sits below the axes.
    top = max(float(np.max(high, initial=0.0)), float(np.max(error_rate, initial=0.0)))
    ax.set_ylim(0, 1.2 * top if top > 0 else 1.0)
    if alert_day is not None:
        ax.axvline(alert_day, color=PALETTE["vermillion"], lw=1)
        # On the side of the line with more room, wrapped to fit there.
        left = alert_day > (days[0] + days[-1]) / 2 if len(days) else False
        note = _("per-rung counter alerts on day {day}").format(day=alert_day)
        ax.annotate(wrap(note, 1.7), (alert_day, ax.get_ylim()[1]),
                    xytext=(-4 if left else 4, -4), textcoords="offset points",
                    ha="right" if left else "left", va="top",
                    color=PALETTE["vermillion"])
    ax.set(xlabel=_("day"), ylabel=_("share of the day's requests"))
    set_title(ax, _("Simulated slide (model): the rules rung's share {rules},\n"
                    "the HTTP error rate {errors}").format(
                        rules=claims.word(rules_trend),
                        errors=claims.word(error_trend)))
    percent_axis(ax.yaxis)
    legend_below(ax)
    finish(fig)
    return fig


def plot_routellm(classes, shares, *, title: str, random_share: float | None = None,
                  medium: str = "phone"):
    """Bars: a router's CPT(50%) per task class, the share of calls it sends to the strong
    model to recover half the quality gap; a dashed line marks ``random_share``, what a
    router picking at random needs for the same half (omitted when None).
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _validate.sequence("classes", classes, of=str, what="task class names")
    _checks.probabilities("shares", shares, length=len(classes), per="class")
    _validate.text("title", title)
    if random_share is not None:
        _validate.probability("random_share", random_share)
    fig, ax = _media.subplots(medium, height=4.6)
    slot = (FIGURE_WIDTH_IN - 1.2) / max(len(classes), 1) - 0.1
    bars = ax.bar([wrap(_(c), slot, size="xtick.labelsize") for c in classes], shares,
                  color=[PALETTE["sky"], PALETTE["blue"], PALETTE["purple"]])
    for bar, share in zip(bars, shares):
        ax.annotate(fmt(share, ".1%"), (bar.get_x() + bar.get_width() / 2, share), ha="center",
                    va="bottom")
    if random_share is not None:
        ax.axhline(random_share, color=PALETTE["grey"],
                   linestyle="--", linewidth=1)
        ax.annotate(_("random router"), (len(classes) - 0.5, random_share), ha="right",
                    va="bottom")
    ax.set(ylabel=_("calls to the strong model\nfor half the quality gap"),
           ylim=(0, 0.6))
    set_title(ax, title)
    ax.set_xlabel(_("task class (benchmark)"))
    percent_axis(ax.yaxis)
    finish(fig)
    return fig


#: The live explorer's positions: outage hours (from 10:00), and the breaker's settings,
#: spaced so that each step changes what the day looks like.
LIVE_HOURS = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
LIVE_THRESHOLDS = (1, 2, 5, 10, 20)
LIVE_TIMEOUTS = (5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0)


def live_outage(*, conversations: int, seed: int, outage_hours: float = 2.0,
                failure_threshold: int = 5, reset_timeout: float = 60.0,
                chapter_conversations: int | None = None):
    """The chapter's live explorer: worker-hours spent waiting in one seeded simulated day
    of ``conversations`` conversations against the length of an outage from 10:00, with
    retries only and with a circuit breaker, and in words the calls to the dead primary
    and the share of the outage's requests refused, with 95 % Wilson intervals. The other
    arguments set where the sliders start, moved to the nearest position offered.
    ``chapter_conversations``, the size of the day the chapter's text simulates, is named
    in the sentence when it is larger, so a reader does not set this smaller day's
    waiting and calls beside the text's (the slide deck shows the sentence too: short).
    Returns a :class:`reliability.live.Explorer`."""
    from functools import lru_cache

    from ..harness.breaker import BreakerConfig
    from ..harness.traffic import Scenario, simulate_day
    from ..live import Control, Explorer, Series, Words
    from ..stats import wilson_interval

    conversations = _validate.whole("conversations", conversations, minimum=1,
                                    maximum=2_000)
    _validate.whole("seed", seed, minimum=0)
    hours = min(LIVE_HOURS, key=lambda v: abs(
        v - _validate.real("outage_hours", outage_hours, minimum=0.0, maximum=14.0)))
    threshold = min(LIVE_THRESHOLDS, key=lambda v: abs(
        v - _validate.whole("failure_threshold", failure_threshold, minimum=1)))
    timeout = _validate.real("reset_timeout", reset_timeout, above=0.0)
    timeout = min(LIVE_TIMEOUTS, key=lambda v: abs(np.log(v / timeout)))
    refusal = len(RUNGS) - 1          # the last rung: a refusal and the human queue
    text_day = ""
    if chapter_conversations is not None:
        chapter_conversations = _validate.whole("chapter_conversations",
                                                chapter_conversations, minimum=1)
        if chapter_conversations > conversations:   # the text's day is the larger
            text_day = " " + _("(in the text: {count})").format(
                count=fmt(chapter_conversations, ","))

    @lru_cache(maxsize=None)
    def day(hours, threshold=None, timeout=None):
        # The same seed everywhere: every setting sees the same requests and draws, so
        # what changes between positions is the outage and the breaker, not chance.
        breaker = None if threshold is None else BreakerConfig(threshold, timeout)
        report = simulate_day(Scenario(outage_hours=hours), breaker=breaker,
                              conversations=conversations, seed=seed)
        clock = report.time / 3600.0
        start = report.scenario.outage_start
        during = (clock >= start) & (clock < start + hours)
        refused = int(np.sum(report.rung[during] == refusal))
        return (report.waiting_hours, report.outage_calls, refused, int(during.sum()))

    def words(hours, threshold, timeout):
        slots = {}
        for key, (wait, calls, refused, arrived) in (
                ("a", day(hours)), ("b", day(hours, threshold, timeout))):
            low, high = wilson_interval(refused, arrived) if arrived else (0.0, 1.0)
            # the nouns follow the numbers: «1 341 вызов», «2,0 воркер-часа»
            slots.update({f"wait_{key}": counted(wait, "worker-hour", "worker-hours",
                                               format_spec=",.1f"),
                          f"calls_{key}": counted(calls, "call", "calls"),
                          f"ref_{key}": fmt(refused / max(arrived, 1), ".1%"),
                          f"low_{key}": fmt(float(low), ".1%"),
                          f"high_{key}": fmt(float(high), ".1%")})
        return slots

    def waiting(*breaker):
        return {"x": LIVE_HOURS, "y": [day(h, *breaker)[0] for h in LIVE_HOURS]}

    top = 1.08 * max(day(h)[0] for h in LIVE_HOURS)
    return Explorer(
        name="ch8-outage",
        controls=(Control("hours", _("outage length (hours)"), LIVE_HOURS, hours, "g"),
                  Control("threshold", _("breaker opens after (failures in a row)"),
                          LIVE_THRESHOLDS, threshold, "d",
                          labels=tuple(counted(v, "failure", "failures")
                                       for v in LIVE_THRESHOLDS)),
                  Control("timeout", _("reset timeout (seconds)"), LIVE_TIMEOUTS, timeout,
                          "g")),
        series=(
            Series(_("retries only"), waiting, kind="points", colour="vermillion"),
            Series(_("with breaker"),
                   lambda threshold, timeout: waiting(threshold, timeout),
                   depends=("threshold", "timeout"), kind="points", colour="blue"),
            Series(_("the chosen outage"), lambda hours, threshold, timeout: {
                "x": [hours, hours],
                "y": [day(hours)[0], day(hours, threshold, timeout)[0]]},
                   depends=("hours", "threshold", "timeout"), kind="marker",
                   colour="black")),
        words=Words(fill_slots(_(
            "Model: one simulated day of {conversations}{text_day}, the primary down "
            "for {hours} h from 10:00. Retries only: {wait_a} waiting, {calls_a} to "
            "the dead primary, {ref_a} of requests during the outage refused (95% "
            "Wilson interval {low_a} to {high_a}). With a breaker that "
            "opens after {threshold} in a row and lets a probe through after "
            "{timeout} s: {wait_b}, {calls_b}, {ref_b} refused ({low_b} to "
            "{high_b})."), conversations=counted(conversations, "conversation",
                                                "conversations"), text_day=text_day),
            words,
                    depends=("hours", "threshold", "timeout")),
        x_label=_("outage length (hours)"), y_label=_("worker-hours waiting"),
        title=_("Waiting in a simulated day (model)"),
        alt=_("Dot chart: worker-hours spent waiting in one simulated day against the "
              "outage length from 0.5 to 8 hours; with retries only (vermillion) the "
              "waiting grows steeply with the outage, with a breaker (blue) it stays far "
              "lower, the more so the longer the reset timeout; black rings mark the "
              "chosen length."),
        x_percent=False, y_percent=False, x_range=(0.0, LIVE_HOURS[-1]),
        y_range=(0.0, top),
        source=("reliability.figures.ladder.live_outage",
                {"conversations": conversations, "seed": seed, "outage_hours": hours,
                 "failure_threshold": threshold, "reset_timeout": timeout,
                 **({} if chapter_conversations is None else
                    {"chapter_conversations": chapter_conversations})}))
