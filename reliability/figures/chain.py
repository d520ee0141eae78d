"""Figures for chain decay: closed form against simulation, the horizon, the animation."""

from __future__ import annotations

from dataclasses import replace

import matplotlib.pyplot as plt

import numpy as np
from matplotlib.animation import FuncAnimation
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from .. import _validate
from . import _checks, _media
from ..i18n import N_, Text, _, fill_slots, translate
from ..notebook import (OUTCOME_COLOURS, PALETTE, fit_text, legend_below,
                        percent_axis)
from ..workflow import Workflow, horizon
from ..live import nearest
from ..numbers import fmt

__all__ = ["decay_table", "decay_frame", "interval_text", "plot_decay", "plot_horizon", "run_grid",
           "animate_runs", "plot_explorer", "live_decay", "ALL_STATES"]

#: What :func:`decay_table` holds for each workflow (and :func:`plot_decay` draws).
_DECAY_KEYS = ("length", "closed", "rate", "low", "high")

#: Workflow labels the chapters give :func:`decay_table` (dictionary keys they read back),
#: marked so that figures and tables show them in the page's language.
_LABELS = (N_("one attempt"),)


def _decay(name: str, table) -> dict:
    return _checks.table(name, table, _DECAY_KEYS, what="decay_table's result")


def decay_table(workflows: dict[str, Workflow], lengths, *, runs: int, seed: int):
    """Closed form and simulated success (with 95 % Wilson bounds) for each workflow
    and chain length. Returns ``{label: dict(length, closed, rate, low, high)}`` of arrays."""
    _checks.of_kind("workflows", workflows, Workflow, what="reliability.Workflow by label")
    _checks.array("lengths", lengths, kind="whole", minimum=1)
    _validate.whole("runs", runs, minimum=1)
    _validate.whole("seed", seed, minimum=0)
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


def decay_frame(table):
    """:func:`decay_table`'s result as text for :func:`reliability.notebook.table`: one row
    per chain length; per workflow its closed form, simulated share and 95 % Wilson
    interval, as percentages to one decimal. With several workflows each one's label
    heads its three columns."""
    _decay("table", table)
    import pandas as pd

    first = next(iter(table.values()))
    columns = {("", N_("steps")): [f"{int(n)}" for n in first["length"]]}
    for label, t in table.items():
        columns[(label, N_("closed form"))] = [fmt(x, ".1%") for x in t["closed"]]
        columns[(label, N_("simulated"))] = [fmt(x, ".1%") for x in t["rate"]]
        columns[(label, N_("95% interval"))] = [interval_text(lo, hi, "{:.1%}")
                                            for lo, hi in zip(t["low"], t["high"])]
    frame = pd.DataFrame(columns)
    if len(table) == 1:
        frame.columns = frame.columns.droplevel(0)
    return frame


def interval_text(low: float, high: float, form: str = "{:.1%}") -> str:
    """An interval as a table shows it: ``"70.2% to 74.2%"``."""
    _validate.real("low", low)
    _validate.real("high", high)
    _validate.text("form", form)
    return _("{low} to {high}").format(low=Text(form).format(low),
                                       high=Text(form).format(high))


def plot_decay(table, *, title: str, medium: str = "phone"):
    """Lines: closed forms. Dots with bars: simulated rates and their 95 % intervals.
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _decay("table", table)
    _validate.text("title", title)
    fig, ax = _media.subplots(medium, height=4.8, layout="constrained")
    for label, t in table.items():
        name = translate(label)
        line, = ax.plot(t["length"], t["closed"],
                        label=_("{label}: closed form").format(label=name))
        ax.errorbar(t["length"], t["rate"], yerr=[t["rate"] - t["low"], t["high"] - t["rate"]],
                    fmt="o", ms=4, capsize=2, color=line.get_color(),
                    label=_("{label}: simulated, 95% interval").format(label=name))
    ax.set(xlabel=_("steps in the chain"), ylabel=_("share of runs that succeed"),
           ylim=(0, 1.02), title=title)
    percent_axis(ax.yaxis)
    legend_below(fig, most_columns=1)
    return fit_text(fig)


def plot_horizon(accuracies, *, target: float = 0.5, medium: str = "phone"):
    """Horizon H(p) on a log scale against step accuracy, each ladder rung marked,
    drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _checks.array("accuracies", accuracies)
    if not np.all((np.asarray(accuracies) > 0) & (np.asarray(accuracies) < 1)):
        raise ValueError(f"accuracies must lie strictly between 0 and 1 (e.g. 0.99), "
                         f"got {accuracies!r}")
    _validate.open_probability("target", target, example="0.5")
    accuracies = np.asarray(accuracies, dtype=float)
    grid = 1 - np.logspace(-4.3, -0.7, 200)
    fig, ax = _media.subplots(medium, height=4.4, layout="constrained")
    ax.plot(1 - grid, [horizon(p, target) for p in grid], color=PALETTE["blue"])
    middle = np.median(accuracies)
    for p in accuracies:
        h = horizon(p, target)
        ax.plot(1 - p, h, "o", color=PALETTE["vermillion"])
        # Labels sit off the rising line, in the empty triangles beside it: left of it
        # for the better half of the rungs, below-right for the rest, which would run
        # into the tick labels on the left.
        left = p > middle
        ax.annotate(_("p = {p:g}: {h:,.1f} steps").format(p=p, h=h), (1 - p, h),
                    textcoords="offset points",
                    xytext=(-10, 4) if left else (10, -14), ha="right" if left else "left")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.invert_xaxis()
    ax.set(xlabel=_("per-step error rate 1 − p (log scale; better to the right)"),
           ylabel=_("steps until success falls to {target:.0%}").format(target=target),
           title=_("Ten times fewer errors per step buys a ten times longer horizon"))
    return fit_text(fig)


_EVENT_ORDER = ("pending", "ok", "error", "wrong", "caught", "rejected_ok", "gave_up")

#: What each cell colour means when a step may be retried and checked (the verifier
#: chapter's animation). A chapter whose runs cannot reach some states passes its own.
ALL_STATES = {"ok": N_("right first time"), "error": N_("visible error, retried"),
              "wrong": N_("silently wrong"), "caught": N_("wrong, caught by verifier"),
              "rejected_ok": N_("right, rejected by verifier"),
              "gave_up": N_("gave up (run stops)")}


def run_grid(log, steps: int) -> np.ndarray:
    """A runs × steps array of codes (index into the outcome colours) for the animation:
    each step's final event, except that a step which recovered after a retry is coloured
    by what it recovered from. Steps a run never reached stay ``pending``."""
    steps = _validate.whole("steps", steps, minimum=1)
    _check_log(log)
    grid = np.zeros((len(log), steps), dtype=int)
    for i, run in enumerate(log):
        for j, events in enumerate(run[:steps]):
            final = events[-1]
            if final == "ok" and len(events) > 1:
                final = events[-2]  # recovered: colour by what was recovered from
            grid[i, j] = _EVENT_ORDER.index(final)
    return grid


def _check_log(log) -> None:
    """``log[run][step]``: a tuple of the events that step went through."""
    _validate.sequence("log", log, what="per-run event logs")
    for run in log:
        if not isinstance(run, (list, tuple)) or not all(
                isinstance(events, (list, tuple)) and events
                and all(isinstance(e, str) and e in _EVENT_ORDER for e in events)
                for events in run):
            raise ValueError(f"log must hold, per run, one tuple of events per step (events "
                             f"among {list(_EVENT_ORDER)}), as Workflow.simulate(log_runs=...) "
                             f"returns; got a run {run!r}")


def animate_runs(log, steps: int, *, title: str, states=None, medium: str = "phone"):
    """Runs advancing one step per frame; returns the animation.

    ``states`` maps each event the legend shows to its label (default
    :data:`ALL_STATES`); give only the states the runs can contain. ``"pending"`` (a
    step not run) may be among them. The first frame already shows step 1. Drawn for
    ``medium`` (:data:`reliability.figures._media.MEDIA`): the book's PDF prints the
    last frame of the animation drawn for the page.
    """
    _media.medium(medium)
    _validate.text("title", title)
    if states is not None:
        _validate.mapping("states", states, what="event -> legend label")
        if not all(isinstance(v, str) for v in states.values()):
            raise ValueError(f"states must map events to legend labels (strings), "
                             f"got {states!r}")
    states = dict(ALL_STATES if states is None else states)
    unknown = sorted(set(states) - set(_EVENT_ORDER))
    if not states or unknown:
        raise ValueError(f"states must name events among {list(_EVENT_ORDER)}, "
                         f"got {sorted(states)}")
    grid = run_grid(log, steps)
    cmap = ListedColormap([OUTCOME_COLOURS[e] for e in _EVENT_ORDER])
    fig, ax = _media.subplots(medium, height=6.4, layout="constrained")
    shown = np.zeros_like(grid)
    image = ax.imshow(shown, cmap=cmap, vmin=0, vmax=len(_EVENT_ORDER) - 1,
                      aspect="auto", interpolation="nearest")
    ax.set(ylabel=_("run"), title=title)
    ax.set_xticks(range(steps), [str(s + 1) for s in range(steps)])
    ax.grid(False)
    legend_below(fig, labels=[translate(v) for v in states.values()],
                 handles=[Patch(facecolor=OUTCOME_COLOURS[k], edgecolor=PALETTE["grey"])
                          for k in states], most_columns=_media.columns(medium, 2))

    def draw(frame):
        shown[:] = 0
        shown[:, :frame] = grid[:, :frame]
        image.set_data(shown)
        ax.set_xlabel(_("step ({frame} of {steps} drawn)").format(frame=frame, steps=steps))
        return (image,)

    draw(1)
    fit_text(fig)
    # Frame 1 first: the player opens on a grid that already shows the first step.
    animation = FuncAnimation(fig, draw, frames=range(1, steps + 1), interval=600)
    plt.close(fig)
    # Closing detaches the figure from its canvas (matplotlib >= 3.10); the frames are
    # drawn later, by animation_html, so give it back a canvas that can render them.
    FigureCanvasAgg(fig)
    return animation


def plot_explorer(error: float, silent: float, longest: int):
    """The explorer's figure: the closed form p^n for chain lengths 1 to ``longest``,
    titled with the step accuracy and the horizon (model, the reader's own rates)."""
    error = _validate.probability("error", error)
    silent = _validate.probability("silent", silent)
    longest = _validate.whole("longest", longest, minimum=1)
    lengths = np.arange(1, longest + 1)
    wf = Workflow(steps=1, error=error, silent=min(silent, 1 - error))
    fig, ax = plt.subplots(layout="constrained")
    ax.plot(lengths, wf.success_by_length(lengths))
    verdict = (_(": half of all chains fail by step {step:,.1f}").format(step=horizon(wf.c))
               if 0 < wf.c < 1 else "")
    ax.set(xlabel=_("steps in the chain"), ylabel=_("share of runs that succeed"),
           ylim=(0, 1.02), title=_("Model, p = {p:.3f}{verdict}").format(p=wf.c,
                                                                          verdict=verdict))
    percent_axis(ax.yaxis)
    return fit_text(fig)


#: Step accuracies the live explorer offers: every hundredth to 0.99, then every thousandth.
LIVE_ACCURACIES = tuple(round(0.8 + 0.01 * i, 2) for i in range(20)) + tuple(
    round(0.991 + 0.001 * i, 3) for i in range(9))
#: Chain lengths the live explorer draws, and those it simulates (its slider's positions).
LIVE_LONGEST = 60
LIVE_LENGTHS = (1, 2, 3) + tuple(range(5, LIVE_LONGEST + 1, 5))


def live_decay(*, runs: int, seed: int, p: float = 0.92, n: int = 10):
    """The chapter's live explorer: chain success against length for a step accuracy ``p``
    (every failure silent, one attempt), the closed form as a line, seeded simulations of
    ``runs`` runs as dots with 95 % Wilson intervals, and the chain of length ``n`` stated
    in words with its horizon. ``p`` and ``n`` set where the sliders start, moved to the
    nearest position the explorer offers. Returns a :class:`reliability.live.Explorer`."""
    from functools import lru_cache

    from ..live import Control, Explorer, Series, Words

    runs = _validate.whole("runs", runs, minimum=1, maximum=100_000)
    _validate.whole("seed", seed, minimum=0)
    p = nearest(LIVE_ACCURACIES, _validate.probability("p", p))
    n = nearest(LIVE_LENGTHS, _validate.whole("n", n, minimum=1))

    def chain_of(p, n):
        return Workflow(steps=int(n), error=0.0, silent=round(1.0 - p, 10))

    @lru_cache(maxsize=None)
    def simulated(p, n):
        # The same seed for every p at a given length: neighbouring positions of the
        # slider share their random draws, so the dots move smoothly, not by chance.
        sim = chain_of(p, n).simulate(runs=runs, seed=seed + int(n))
        return (sim.rate, *sim.interval(0.95))

    lengths = np.arange(1, LIVE_LONGEST + 1)

    def words(p, n):
        rate, low, high = simulated(p, n)
        return {"closed": fmt(chain_of(p, n).success(), ".1%"), "rate": fmt(rate, ".1%"),
                "low": fmt(low, ".1%"), "high": fmt(high, ".1%"),
                "horizon": fmt(horizon(p), ",.1f")}

    return Explorer(
        name="ch1-decay",
        controls=(Control("p", _("step accuracy p"), LIVE_ACCURACIES, p, "g"),
                  Control("n", _("chain length n (steps)"), LIVE_LENGTHS, n, "d")),
        series=(
            Series(_("closed form p^n"), lambda p: {"x": lengths, "y": p ** lengths},
                   depends=("p",)),
            Series(_("simulated, {runs:,d} runs, 95% Wilson interval").format(runs=runs),
                   lambda p: dict(zip(("x", "y", "low", "high"), np.array(
                       [(n, *simulated(p, n)) for n in LIVE_LENGTHS]).T)),
                   depends=("p",), kind="points", colour="orange"),
            Series(_("the chain of length n"), lambda p, n: {"x": [n], "y": [p ** n]},
                   depends=("p", "n"), kind="marker", colour="black")),
        words=Words(fill_slots(_(
            "Model: a {n}-step chain whose steps are each right with probability {p} is "
            "right {closed} of the time; {runs:,d} simulated runs give {rate} (95% Wilson "
            "interval {low} to {high}). Half of all chains fail by step {horizon}."),
            runs=runs), words, depends=("p", "n")),
        x_label=_("chain length n (steps)"), y_label=_("share of chains right"),
        title=_("Chain success against length (model)"),
        alt=_("Line chart: the share of chains right falls from 100% as the chain "
              "length grows from 1 to 60 steps, faster for lower step accuracy p; orange "
              "dots with interval bars are seeded simulations, a black ring marks the "
              "chosen length."),
        x_range=(0, LIVE_LONGEST + 1), y_range=(0.0, 1.0),
        source=("reliability.figures.chain.live_decay",
                {"runs": runs, "seed": seed, "p": p, "n": n}))
